//! The traffic view's update: pure. A record is filed when it arrives (its list line made once,
//! the oldest dropped beyond the bound); the selected record's text is rebuilt only when the
//! selection moves to another record.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, MouseEvent};
use ratatui::layout::{Position, Rect};

use super::detail;
use super::draw::layout;
use super::har::{self, HarAction};
use super::keys::{Action, KEYS};
use super::state::{Entry, Feed, TrafficEffect, TrafficMsg, TrafficState};
use crate::core::traffic::RequestSeen;
use crate::core::visible::escape_visible;
use crate::tui::component::Clip;
use crate::tui::widgets::list::Outcome;
use crate::tui::widgets::wheel;

/// Handle a message; pure.
pub fn update(state: &mut TrafficState, msg: TrafficMsg) -> Vec<TrafficEffect> {
    // Arrivals come up to thousands a second: the selected record's text is not rebuilt for
    // each (the frame builds it once when it is stale; the next key or click keeps it).
    let arrival = matches!(
        msg,
        TrafficMsg::Received(_) | TrafficMsg::Imported(_) | TrafficMsg::Skipped(_)
    );
    if !arrival {
        // The text a key scrolls is the selected record's (an arrival does not build it).
        refresh_detail(state);
    }
    let effects = match msg {
        TrafficMsg::Received(r) => {
            let r = har::live(state, *r);
            receive(state, r);
            vec![]
        }
        TrafficMsg::Imported(r) => {
            state.opened = true;
            let r = har::import(state, *r);
            receive(state, r);
            vec![]
        }
        TrafficMsg::Skipped(n) => {
            state.skipped += n;
            vec![]
        }
        TrafficMsg::Connected { .. } => {
            state.feed = Feed::Live;
            vec![]
        }
        TrafficMsg::Waiting(why) => {
            state.feed = Feed::Waiting(why);
            vec![]
        }
        TrafficMsg::Source { address, watching } => {
            state.address = address;
            state.watching = watching;
            vec![]
        }
        TrafficMsg::Paste(text) => {
            state.list.paste(&text);
            refilter(state);
            vec![]
        }
        TrafficMsg::Mouse(m, area) => {
            on_mouse(state, m, area);
            vec![]
        }
        TrafficMsg::Key(key) if key.kind == KeyEventKind::Release => vec![],
        TrafficMsg::Key(key) if state.har.is_some() => har::on_key(state, key),
        TrafficMsg::Key(key) => on_key(state, key),
    };
    if !arrival {
        refresh_detail(state);
    }
    effects
}

/// File one record: shown at once, or held while paused; the oldest beyond the bound dropped.
fn receive(state: &mut TrafficState, r: RequestSeen) {
    let entry = Entry::new(r);
    if state.paused {
        state.held.push_back(entry);
        if state.held.len() > state.keep {
            state.held.pop_front();
            state.dropped += 1;
        }
        return;
    }
    show(state, entry);
}

fn show(state: &mut TrafficState, entry: Entry) {
    // Records come in order; one from a restarted server (numbers from 1 again) starts over.
    if state
        .entries
        .back()
        .is_some_and(|last| entry.seen.seq <= last.seen.seq)
    {
        state.entries.clear();
        state.matches.clear();
        state.list.select(0, 0);
    }
    let seq = entry.seen.seq;
    if entry.matches(&state.list.words()) {
        state.matches.push_back(seq);
        // Away from the newest, the selection stays on its record.
        state.list.arrived(1);
    }
    state.entries.push_back(entry);
    while state.entries.len() > state.keep {
        if let Some(old) = state.entries.pop_front() {
            state.dropped += 1;
            if state.matches.front() == Some(&old.seen.seq) {
                state.matches.pop_front();
            }
        }
    }
    clamp(state);
}

fn clamp(state: &mut TrafficState) {
    let n = state.matches.len();
    state.list.clamp(n);
}

/// Apply a changed filter to every record held (at most the bound).
fn refilter(state: &mut TrafficState) {
    let words = state.list.words();
    state.matches = state
        .entries
        .iter()
        .filter(|e| e.matches(&words))
        .map(|e| e.seen.seq)
        .collect();
    state.list.select(0, 0);
    state.detail_scroll = 0;
}

/// Rebuild the selected record's text when the selection is on another record.
fn refresh_detail(state: &mut TrafficState) {
    let seq = state.selected_entry().map(|e| e.seen.seq);
    if state.detail.as_ref().map(|d| d.seq) == seq {
        return;
    }
    state.detail_scroll = 0;
    state.detail = state.selected_entry().map(|e| detail::build(&e.seen));
}

fn on_key(state: &mut TrafficState, key: KeyEvent) -> Vec<TrafficEffect> {
    // A re-send waiting for its confirmation: `y` sends, any other key drops it.
    if let Some((pending, _)) = state.confirm.take() {
        let plain = crate::tui::keymap::plain(&key);
        if plain && matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
            return vec![pending];
        }
        return vec![TrafficEffect::Status("not sent: nothing was signed".into())];
    }
    let n = state.visible_len();
    // The open filter takes typing (and Enter, which closes it) before the view's keys.
    if state.list.typing() && list_key(state, &key, n) {
        return vec![];
    }
    if let Some(action) = KEYS.lookup(&key) {
        return run(state, action);
    }
    if list_key(state, &key, n) {
        return vec![];
    }
    // A page is the request pane's height less one line, so nothing is skipped; it stops at
    // the last line.
    let (page, max) = detail_page(state);
    match key.code {
        KeyCode::PageDown => {
            state.detail_scroll = state.detail_scroll.saturating_add(page).min(max)
        }
        KeyCode::PageUp => state.detail_scroll = state.detail_scroll.saturating_sub(page),
        _ => {}
    }
    vec![]
}

/// The request pane's page (its height less one line) and its last scroll position.
fn detail_page(state: &TrafficState) -> (u16, u16) {
    let pane = layout(state.area, state).detail;
    let inner_h = pane.height.saturating_sub(2);
    let lines = state.detail.as_ref().map_or(0, |d| {
        let theme = crate::tui::theme::Theme::default();
        super::draw::detail_lines(d, usize::from(pane.width.saturating_sub(2)), &theme).len()
    });
    let max = u16::try_from(lines.saturating_sub(usize::from(inner_h))).unwrap_or(u16::MAX);
    (inner_h.saturating_sub(1).max(1), max)
}

/// A key of the list (selection, `/` filter); false when it is not one.
fn list_key(state: &mut TrafficState, key: &KeyEvent, n: usize) -> bool {
    match state.list.on_key(key, n) {
        Outcome::Ignored => false,
        Outcome::Filtered => {
            refilter(state);
            true
        }
        Outcome::Handled | Outcome::Moved => true,
    }
}

fn select(state: &mut TrafficState, i: usize) {
    let n = state.visible_len();
    state.list.select(i, n);
}

/// Fill the account headers a record lacks (the API key, the algorithm) from `account` (the
/// profile's): a correct client of the account sends both, and the server rejects an empty one
/// before it looks at the signature. What the prompt adds: which headers were filled, and with
/// what, or which stay empty because the profile has none either.
fn fill_account(
    request: &mut crate::tui::model::EditorRequest,
    account: &(String, String),
) -> String {
    let names = crate::core::HeaderNames::for_prefix(&request.spec.header_prefix);
    let mut filled = vec![];
    let mut empty = vec![];
    for (value, name, profile) in [
        (&mut request.spec.api_key, &names.api_key, &account.0),
        (&mut request.spec.auth_algo, &names.auth_algo, &account.1),
    ] {
        if !value.is_empty() {
            continue;
        }
        if profile.is_empty() {
            empty.push(name.to_string());
        } else {
            *value = profile.clone();
            filled.push(format!("{name}: {}", escape_visible(profile.as_bytes())));
        }
    }
    let mut out = String::new();
    if !filled.is_empty() {
        out.push_str(&format!(
            ", with the profile's {} (the record has none)",
            filled.join(", ")
        ));
    }
    if !empty.is_empty() {
        out.push_str(&format!(
            "; {} sent empty (neither the record nor the profile has one)",
            empty.join(", ")
        ));
    }
    out
}

/// Run one action of the traffic view (from its key or from the command palette).
pub fn run(state: &mut TrafficState, action: Action) -> Vec<TrafficEffect> {
    match action {
        Action::Pause => toggle_pause(state),
        Action::Clear => {
            state.entries.clear();
            state.matches.clear();
            state.held.clear();
            state.list.select(0, 0);
            vec![TrafficEffect::Status("traffic list cleared".into())]
        }
        Action::Newest => {
            select(state, 0);
            vec![]
        }
        Action::OpenHar => har::start(state, HarAction::Open),
        Action::WriteHar => har::start(state, HarAction::Write),
        Action::LoadIntoRequest => {
            let Some(e) = state.selected_entry() else {
                return none();
            };
            let (request, timestamp) = detail::fields(&e.seen, &state.address);
            // The cut body is said with the load, once it is done (not before the question
            // about unsaved edits is answered).
            vec![TrafficEffect::LoadIntoRequest {
                request: Box::new(request),
                timestamp,
                note: detail::cut_note(&e.seen),
            }]
        }
        Action::Send => ask_send_again(state),
        Action::LoadIntoDiagnose => {
            let Some(e) = state.selected_entry() else {
                return none();
            };
            let mut out = vec![TrafficEffect::Diagnose {
                capture: detail::capture(&e.seen),
            }];
            if let Some(note) = detail::cut_note(&e.seen) {
                out.push(TrafficEffect::Status(format!("diagnosing it, but {note}")));
            }
            out
        }
        Action::CopyCurl => {
            let Some(e) = state.selected_entry() else {
                return none();
            };
            let mut out = vec![TrafficEffect::Copy(Clip {
                text: detail::curl(&e.seen, &state.address),
                what: format!(
                    "the Traffic request {} {} as curl",
                    e.seen.method, e.seen.path
                ),
            })];
            if let Some(note) = detail::cut_note(&e.seen) {
                out.push(TrafficEffect::Status(format!("copying it, but {note}")));
            }
            out
        }
    }
}

/// What an action on the selected request says when none is.
fn none() -> Vec<TrafficEffect> {
    vec![TrafficEffect::Status("No request selected.".into())]
}

/// Pause holds new requests; resuming shows the held ones.
fn toggle_pause(state: &mut TrafficState) -> Vec<TrafficEffect> {
    state.paused = !state.paused;
    if state.paused {
        return vec![TrafficEffect::Status(format!(
            "traffic paused: new requests are held until {} resumes",
            KEYS.label_of(Action::Pause)
        ))];
    }
    let held = std::mem::take(&mut state.held);
    let n = held.len();
    for e in held {
        show(state, e);
    }
    vec![TrafficEffect::Status(format!(
        "traffic resumed ({n} held {} shown)",
        if n == 1 { "request" } else { "requests" }
    ))]
}

/// Send the selected request again: signed with the profile's key only once the user confirms
/// what is signed and where it goes (the prompt says it all), and never for a watched server.
fn ask_send_again(state: &mut TrafficState) -> Vec<TrafficEffect> {
    let Some(e) = state.selected_entry() else {
        return none();
    };
    // A captured request is anyone's: any client of the server can plant one. It is
    // signed with the profile's REST key only once the user has seen what is signed and
    // where it goes, and never for the watched server, which could replay it.
    if state.watching {
        return vec![TrafficEffect::Status(format!(
            "not sent: this view follows {}, which could replay a request signed here with the profile's REST key for 10 minutes; load it into the request view to check and send it from there",
            escape_visible(state.address.as_bytes())
        ))];
    }
    let (mut request, _timestamp) = detail::fields(&e.seen, &state.address);
    let account = fill_account(&mut request, &state.account);
    let url = format!(
        "{}{}",
        state.address.trim_end_matches('/'),
        crate::core::http_text::target(&e.seen.path, &e.seen.query)
    );
    let body = &request.spec.body;
    let preview = escape_visible(&body[..body.len().min(60)]);
    let more = if body.len() > 60 { "…" } else { "" };
    let upstream = e
        .seen
        .upstream
        .as_ref()
        .map(|u| {
            format!(
                ", which forwards it to {}",
                escape_visible(u.url.as_bytes())
            )
        })
        .unwrap_or_default();
    let cut = detail::cut_note(&e.seen)
        .map(|note| format!(" ({note})"))
        .unwrap_or_default();
    let prompt = format!(
        "sign {} {} with the profile's REST key ({} body bytes: {preview}{more}){cut}{account} and send it to {}{upstream}? y sends, any other key cancels",
        escape_visible(request.spec.method.as_bytes()),
        escape_visible(e.seen.path.as_bytes()),
        body.len(),
        escape_visible(url.as_bytes()),
    );
    state.confirm = Some((
        TrafficEffect::SendAgain {
            url,
            request: Box::new(request),
        },
        prompt.clone(),
    ));
    vec![TrafficEffect::Status(prompt)]
}

fn on_mouse(state: &mut TrafficState, m: MouseEvent, area: Rect) {
    let l = layout(area, state);
    let n = state.visible_len();
    if state.list.on_mouse(&m, l.list, &l.window, n) != Outcome::Ignored {
        return;
    }
    if l.detail.contains(Position::new(m.column, m.row)) {
        state.detail_scroll = wheel(state.detail_scroll, m.kind, u16::MAX);
    }
}
