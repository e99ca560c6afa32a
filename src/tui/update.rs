//! `update(&mut App, Message) -> Vec<Command>`: the only place state changes. Pure: no I/O, no
//! clock (time arrives in `Message::Tick`), no terminal.

use std::sync::Arc;

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::{Position, Rect};

use super::app::{App, Detail, DiagKey, Field, KeyInfo, Popup, View, METHODS};
use super::components::events::{self, EventsEffect, EventsMsg};
use super::components::history::{self, HistoryEffect, HistoryMsg};
use super::components::profiles::{self, ProfilesEffect, ProfilesMsg};
use super::message::{Command, Message, SendJob};
use super::signing::SignJob;
use super::view;
use super::widgets::{Edit, LineInput};
use crate::core::time::format_timestamp;
use crate::core::Secret;

/// Handle one message.
pub fn update(app: &mut App, msg: Message) -> Vec<Command> {
    match msg {
        Message::Key(key) => {
            if key.kind == KeyEventKind::Release {
                return vec![];
            }
            on_key(app, key)
        }
        Message::Mouse(m) => on_mouse(app, m),
        Message::Paste(text) => on_paste(app, &text),
        Message::Resize(w, h) => {
            app.size = (w, h);
            vec![]
        }
        Message::Tick(now) => {
            app.now = now;
            if app.ts_live {
                let ts = format_timestamp(now);
                if ts != app.timestamp.text() {
                    app.timestamp.set(ts);
                    return resign(app);
                }
            }
            vec![]
        }
        Message::Signed { id, result } => {
            // An older job's answer still beats nothing, but never replaces a newer one.
            if id >= app.sign.shown || app.sign.result.is_none() {
                app.sign.shown = id;
                app.sign.result = Some(result);
            }
            vec![]
        }
        Message::JsonChecked { rev, error } => {
            if rev >= app.body_state.json_rev {
                app.body_state.json_rev = rev;
                app.body_state.json_error = error;
            }
            vec![]
        }
        Message::SendDone { id, result } => {
            if Some(id) != app.pending_send {
                return vec![];
            }
            app.pending_send = None;
            app.sending = false;
            match result {
                Ok(resp) => {
                    app.status = match (&resp.code, &resp.job_id) {
                        (_, Some(job)) => {
                            format!("{} in {:.0} ms, job {job}", resp.status, resp.elapsed_ms)
                        }
                        (Some(code), None) => {
                            format!("{} {code} in {:.0} ms", resp.status, resp.elapsed_ms)
                        }
                        (None, None) => format!("{} in {:.0} ms", resp.status, resp.elapsed_ms),
                    };
                    app.detail = if resp.mismatch.is_some() {
                        Detail::Diff
                    } else {
                        Detail::Response
                    };
                    app.detail_scroll = 0;
                    app.response = Some(resp);
                }
                Err(e) => {
                    app.status = format!("send failed: {e}");
                }
            }
            vec![]
        }
        Message::ResponseFormatted { id, body } => {
            if let Some(r) = app.response.as_mut() {
                if r.id == id {
                    r.formatted = Some(body);
                }
            }
            vec![]
        }
        Message::EditorDone(Ok(text)) => {
            let changed = app.body.set_text(&text);
            app.status = match changed {
                Some(_) => "body read back from the editor",
                None => "the editor left the body unchanged",
            }
            .into();
            body_changed(app, changed)
        }
        Message::EditorDone(Err(e)) => {
            app.status = e;
            vec![]
        }
        Message::Copied(Ok(what)) => {
            app.status = format!("copied {what}");
            vec![]
        }
        Message::Copied(Err(e)) => {
            app.status = e;
            vec![]
        }
        Message::ProfileList(Ok(names)) => {
            let selected = names
                .iter()
                .position(|n| *n == app.profile_name)
                .unwrap_or(0);
            app.popup = Some(Popup::Profiles { names, selected });
            vec![]
        }
        Message::ProfileList(Err(e)) | Message::ProfileLoaded(Err(e)) => {
            app.status = e;
            vec![]
        }
        Message::ProfileLoaded(Ok(p)) => {
            app.profile_name = p.name.clone();
            app.is_demo = p.is_demo;
            app.set_fields(&p.fields);
            if let Some(key) = p.key {
                app.rest_key.set(key.expose());
                app.key_info = KeyInfo {
                    secret: key,
                    source: p.key_source,
                    revealed: false,
                };
            } else {
                app.rest_key.set("");
                app.key_info = KeyInfo {
                    secret: Secret::new(""),
                    source: p.key_source,
                    revealed: false,
                };
            }
            app.response = None;
            app.status = format!("profile {} loaded", p.name);
            let mut cmds = update(
                app,
                Message::Events(EventsMsg::SetTarget {
                    analytics_url: p.analytics_url.clone(),
                    api_key: p.fields.api_key.clone(),
                    local: p.local,
                }),
            );
            if let Some(batch) = p.events.clone() {
                cmds.extend(update(app, Message::Events(EventsMsg::LoadBatch(batch))));
            }
            if let Some(profile) = p.profile.clone() {
                cmds.extend(update(
                    app,
                    Message::Profiles(ProfilesMsg::Current(profile)),
                ));
            }
            cmds.extend(resign(app));
            cmds
        }
        Message::ProfileSaved(Ok(name)) => {
            app.profile_name = name.clone();
            app.is_demo = false;
            app.dirty = false;
            app.status = format!("profile {name} saved");
            if app.quit_after_save {
                app.quit = true;
                return vec![Command::Quit];
            }
            vec![]
        }
        Message::ProfileSaved(Err(e)) => {
            app.quit_after_save = false;
            // The edits stay in memory; the user can save elsewhere (Alt-S).
            app.status = format!("{e} (edits kept; Alt-S saves under another name)");
            vec![]
        }
        Message::Diagnosed { ok, lines } => {
            app.diagnose.ok = Some(ok);
            app.diagnose.report = lines;
            app.diagnose.report_scroll = 0;
            vec![]
        }
        Message::LoadRequest { fields, timestamp } => {
            let url = app.url.text().to_string();
            app.set_fields(&fields);
            if app.url.text().is_empty() {
                app.url.set(url);
            }
            app.timestamp.set(timestamp);
            app.dirty = true;
            app.ts_live = false;
            app.view = View::Request;
            app.status = "captured request loaded (timestamp frozen to the captured one)".into();
            resign(app)
        }
        Message::Terminate => {
            app.quit = true;
            vec![Command::Quit]
        }
        Message::Events(m) => {
            let effects = events::update(&mut app.events, m);
            events_effects(app, effects)
        }
        Message::History(m) => {
            let effects = history::update(&mut app.history, m);
            history_effects(app, effects)
        }
        Message::Profiles(m) => {
            let effects = profiles::update(&mut app.profiles, m);
            profiles_effects(app, effects)
        }
    }
}

/// Switch to a view; the history and profile views re-read their files when opened.
fn switch_view(app: &mut App, v: View) -> Vec<Command> {
    app.view = v;
    match v {
        View::History => vec![Command::ReloadHistory],
        View::Profiles => vec![Command::ReloadProfiles],
        _ => vec![],
    }
}

fn events_effects(app: &mut App, effects: Vec<EventsEffect>) -> Vec<Command> {
    let mut out = vec![];
    for e in effects {
        match e {
            EventsEffect::Status(s) => app.status = s,
            EventsEffect::CopyText(t) => out.push(Command::Copy(t)),
            other => out.push(Command::Events(other)),
        }
    }
    out
}

fn history_effects(app: &mut App, effects: Vec<HistoryEffect>) -> Vec<Command> {
    let mut out = vec![];
    for e in effects {
        match e {
            HistoryEffect::Status(s) => app.status = s,
            HistoryEffect::CopyText(t) => out.push(Command::Copy(t)),
            HistoryEffect::Reload => out.push(Command::ReloadHistory),
            HistoryEffect::LoadIntoEvents { body } => {
                let fx = events::update(&mut app.events, EventsMsg::LoadBatch(body));
                app.view = View::Events;
                out.extend(events_effects(app, fx));
            }
            HistoryEffect::LoadIntoRequest(row) => {
                let (fields, timestamp) = row_fields(&row, app.prefix.text());
                out.extend(update(
                    app,
                    Message::LoadRequest {
                        fields: Box::new(fields),
                        timestamp,
                    },
                ));
            }
        }
    }
    out
}

fn profiles_effects(app: &mut App, effects: Vec<ProfilesEffect>) -> Vec<Command> {
    let mut out = vec![];
    for e in effects {
        match e {
            ProfilesEffect::Status(s) => app.status = s,
            ProfilesEffect::Activate(name) => {
                app.view = View::Request;
                out.push(Command::LoadProfile(name));
            }
            other => out.push(Command::Profiles(other)),
        }
    }
    out
}

/// The request fields of a past send: base URL, path and query split from its URL; the prefix
/// read from its `X-...-TIMESTAMP` header.
pub fn row_fields(row: &history::HistoryRow, prefix: &str) -> (super::app::RequestFields, String) {
    let (base, target) = match row.url.find("://") {
        Some(i) => match row.url[i + 3..].find('/') {
            Some(j) => row.url.split_at(i + 3 + j),
            None => (row.url.as_str(), "/"),
        },
        None => ("", row.url.as_str()),
    };
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let header = |name: &str| {
        row.request_headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let prefix = row
        .request_headers
        .iter()
        .find_map(|(n, _)| {
            let u = n.to_ascii_uppercase();
            u.strip_prefix("X-")
                .and_then(|r| r.strip_suffix("-TIMESTAMP"))
                .map(str::to_string)
        })
        .unwrap_or_else(|| prefix.to_string());
    let names = crate::core::HeaderNames::for_prefix(&prefix);
    let fields = super::app::RequestFields {
        url: base.to_string(),
        method: row.method.clone(),
        path: path.to_string(),
        query: query.to_string(),
        prefix: prefix.clone(),
        api_key: header(&names.api_key),
        content_type: header("Content-Type"),
        auth_algo: header(&names.auth_algo),
        body: row.request_body.clone(),
    };
    (fields, header(&names.timestamp))
}

fn ctrl(key: &KeyEvent, c: char) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char(c)
}

fn alt(key: &KeyEvent, c: char) -> bool {
    key.modifiers.contains(KeyModifiers::ALT) && key.code == KeyCode::Char(c)
}

fn request_quit(app: &mut App) -> Vec<Command> {
    if app.dirty {
        app.popup = Some(Popup::ConfirmQuit);
        vec![]
    } else {
        app.quit = true;
        vec![Command::Quit]
    }
}

fn on_key(app: &mut App, key: KeyEvent) -> Vec<Command> {
    if let Some(popup) = app.popup.take() {
        return on_popup_key(app, popup, key);
    }
    // Global keys.
    if ctrl(&key, 'c') || ctrl(&key, 'q') {
        return request_quit(app);
    }
    match key.code {
        KeyCode::F(1) => {
            app.popup = Some(Popup::Help { scroll: 0 });
            return vec![];
        }
        KeyCode::F(n @ 2..=6) => return switch_view(app, View::ALL[(n - 2) as usize]),
        // Alt-1..Alt-6 mirror F1..F6 (for terminals that take the function keys).
        KeyCode::Char('1') if key.modifiers.contains(KeyModifiers::ALT) => {
            app.popup = Some(Popup::Help { scroll: 0 });
            return vec![];
        }
        KeyCode::Char(c @ '2'..='6') if key.modifiers.contains(KeyModifiers::ALT) => {
            return switch_view(app, View::ALL[(c as u8 - b'2') as usize]);
        }
        _ => {}
    }
    if !app.text_input_focused() {
        match key.code {
            KeyCode::Char('?') => {
                app.popup = Some(Popup::Help { scroll: 0 });
                return vec![];
            }
            KeyCode::Char('q') => return request_quit(app),
            _ => {}
        }
    }
    match app.view {
        View::Request => request_key(app, key),
        View::Diagnose => diagnose_key(app, key),
        View::Events => update(app, Message::Events(EventsMsg::Key(key))),
        View::History => update(app, Message::History(HistoryMsg::Key(key))),
        View::Profiles => update(app, Message::Profiles(ProfilesMsg::Key(key))),
    }
}

fn on_popup_key(app: &mut App, popup: Popup, key: KeyEvent) -> Vec<Command> {
    match popup {
        Popup::Help { scroll } => {
            // Arrows and pages scroll a help taller than the terminal; any other key closes it
            // (and every key does when it all fits).
            let max = crate::tui::view::popup::help_max_scroll(app);
            let to = match key.code {
                KeyCode::Down | KeyCode::Char('j') => Some(scroll.saturating_add(1)),
                KeyCode::Up | KeyCode::Char('k') => Some(scroll.saturating_sub(1)),
                KeyCode::PageDown => Some(scroll.saturating_add(10)),
                KeyCode::PageUp => Some(scroll.saturating_sub(10)),
                KeyCode::Home => Some(0),
                KeyCode::End => Some(max),
                _ => None,
            };
            if let (Some(to), true) = (to, max > 0) {
                app.popup = Some(Popup::Help {
                    scroll: to.min(max),
                });
            }
            vec![]
        }
        Popup::ConfirmQuit => match key.code {
            KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => {
                app.quit = true;
                vec![Command::Quit]
            }
            KeyCode::Char('s') => {
                app.quit_after_save = true;
                save_current(app)
            }
            _ => vec![],
        },
        Popup::Profiles {
            names,
            mut selected,
        } => match key.code {
            KeyCode::Up | KeyCode::Char('k') => {
                selected = selected.saturating_sub(1);
                app.popup = Some(Popup::Profiles { names, selected });
                vec![]
            }
            KeyCode::Down | KeyCode::Char('j') => {
                if selected + 1 < names.len() {
                    selected += 1;
                }
                app.popup = Some(Popup::Profiles { names, selected });
                vec![]
            }
            KeyCode::Enter => match names.get(selected) {
                Some(name) => vec![Command::LoadProfile(name.clone())],
                None => vec![],
            },
            KeyCode::Esc | KeyCode::Char('q') => vec![],
            _ => {
                app.popup = Some(Popup::Profiles { names, selected });
                vec![]
            }
        },
        Popup::SaveAs(mut edit) => match key.code {
            KeyCode::Esc => vec![],
            KeyCode::Enter => {
                let name = edit.text().trim().to_string();
                if name.is_empty() {
                    app.status = "type a profile name to save as".into();
                    app.popup = Some(Popup::SaveAs(edit));
                    vec![]
                } else {
                    vec![save_command(app, name)]
                }
            }
            _ => {
                edit.edit(&key);
                app.popup = Some(Popup::SaveAs(edit));
                vec![]
            }
        },
        Popup::Search(mut edit) => match key.code {
            KeyCode::Esc => {
                let _ = app.body.set_search_pattern("");
                vec![]
            }
            KeyCode::Enter | KeyCode::Down | KeyCode::Up => {
                let found = if key.code == KeyCode::Up {
                    app.body.search_back(false)
                } else {
                    app.body.search_forward(false)
                };
                if let Err(e) = regex::bytes::Regex::new(edit.text()) {
                    app.status = search_pattern_error(edit.text(), &e);
                } else if !found {
                    app.status = format!("no match for {:?}", edit.text());
                }
                app.popup = Some(Popup::Search(edit));
                vec![]
            }
            _ => {
                edit.edit(&key);
                match app.body.set_search_pattern(edit.text()) {
                    Ok(()) => {
                        app.body.search_forward(true);
                    }
                    Err(e) => app.status = search_pattern_error(edit.text(), &e),
                }
                app.popup = Some(Popup::Search(edit));
                vec![]
            }
        },
    }
}

/// One line for the status bar: regex::Error's Display spans several lines (the pattern, a
/// caret, then `error: ...`); the last one says what is wrong.
fn search_pattern_error(pattern: &str, e: &regex::Error) -> String {
    let text = e.to_string();
    let why = text
        .lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .unwrap_or("")
        .trim_start_matches("error: ");
    format!("the search pattern {pattern:?} is not a valid regex: {why}")
}

/// The key source label of a key typed in the workbench.
pub const TYPED_KEY: &str = "typed (not saved)";

fn save_command(app: &mut App, name: String) -> Command {
    Command::SaveProfile {
        name,
        fields: Box::new(app.fields()),
        typed_key: (app.key_info.source == TYPED_KEY).then(|| app.key_info.secret.clone()),
    }
}

/// Save under the current name; the built-in demo profile can only be saved as a new name.
fn save_current(app: &mut App) -> Vec<Command> {
    if app.is_demo {
        app.status = "the demo profile is built in: save it under a new name".into();
        app.popup = Some(Popup::SaveAs(LineInput::default()));
        return vec![];
    }
    vec![save_command(app, app.profile_name.clone())]
}

/// Keys of the request view.
fn request_key(app: &mut App, key: KeyEvent) -> Vec<Command> {
    // Actions available in every mode.
    if ctrl(&key, 'g') || key.code == KeyCode::F(9) {
        return send(app);
    }
    if ctrl(&key, 't') {
        return toggle_timestamp(app);
    }
    if ctrl(&key, 'o') {
        return vec![Command::EditBody(app.fields().body)];
    }
    if ctrl(&key, 's') {
        return save_current(app);
    }
    if alt(&key, 's') {
        app.popup = Some(Popup::SaveAs(LineInput::new(app.profile_name.clone())));
        return vec![];
    }
    if ctrl(&key, 'l') {
        return vec![Command::ListProfiles];
    }
    if ctrl(&key, 'p') {
        cycle_detail(app);
        return vec![];
    }
    if ctrl(&key, 'f') && app.focus == Field::Body {
        app.popup = Some(Popup::Search(LineInput::default()));
        return vec![];
    }
    if alt(&key, 'r') || (ctrl(&key, 'r') && app.focus == Field::RestKey) {
        app.key_info.revealed = !app.key_info.revealed;
        return vec![];
    }
    if alt(&key, 'y') {
        return copy_signature(app);
    }
    if alt(&key, 'h') {
        return copy_headers(app);
    }
    if alt(&key, 'c') {
        return copy_curl(app);
    }
    match key.code {
        KeyCode::F(7) => return reformat_body(app, true),
        KeyCode::F(8) => return reformat_body(app, false),
        KeyCode::Tab => {
            app.normal_mode = false;
            app.focus = app.focus.next();
            return vec![];
        }
        KeyCode::BackTab => {
            app.normal_mode = false;
            app.focus = app.focus.prev();
            return vec![];
        }
        KeyCode::PageDown => {
            app.detail_scroll = app.detail_scroll.saturating_add(10);
            return vec![];
        }
        KeyCode::PageUp => {
            app.detail_scroll = app.detail_scroll.saturating_sub(10);
            return vec![];
        }
        KeyCode::Esc => {
            app.normal_mode = true;
            return vec![];
        }
        _ => {}
    }
    if app.normal_mode {
        return normal_key(app, key);
    }
    field_key(app, key)
}

/// Single-key shortcuts when no field takes text (after Esc).
fn normal_key(app: &mut App, key: KeyEvent) -> Vec<Command> {
    match key.code {
        KeyCode::Char('i') | KeyCode::Enter => app.normal_mode = false,
        KeyCode::Char('s') => return send(app),
        KeyCode::Char('y') => return copy_signature(app),
        KeyCode::Char('H') => return copy_headers(app),
        KeyCode::Char('c') => return copy_curl(app),
        KeyCode::Char('f') => return reformat_body(app, true),
        KeyCode::Char('m') => return reformat_body(app, false),
        KeyCode::Char('t') => return toggle_timestamp(app),
        KeyCode::Char('e') => return vec![Command::EditBody(app.fields().body)],
        KeyCode::Char('p') => return vec![Command::ListProfiles],
        KeyCode::Char('w') => return save_current(app),
        KeyCode::Char('W') => {
            app.popup = Some(Popup::SaveAs(LineInput::new(app.profile_name.clone())))
        }
        KeyCode::Char('r') => app.key_info.revealed = !app.key_info.revealed,
        KeyCode::Char('d') | KeyCode::Char(']') => cycle_detail(app),
        KeyCode::Char('j') | KeyCode::Down => app.canon_scroll = app.canon_scroll.saturating_add(1),
        KeyCode::Char('k') | KeyCode::Up => app.canon_scroll = app.canon_scroll.saturating_sub(1),
        KeyCode::Char('J') => app.detail_scroll = app.detail_scroll.saturating_add(1),
        KeyCode::Char('K') => app.detail_scroll = app.detail_scroll.saturating_sub(1),
        KeyCode::Char('g') => app.canon_scroll = 0,
        _ => {}
    }
    vec![]
}

fn cycle_detail(app: &mut App) {
    let i = Detail::ALL
        .iter()
        .position(|d| *d == app.detail)
        .unwrap_or(0);
    app.detail = Detail::ALL[(i + 1) % Detail::ALL.len()];
    app.detail_scroll = 0;
}

/// Keys that edit the focused field.
fn field_key(app: &mut App, key: KeyEvent) -> Vec<Command> {
    let focus = app.focus;
    if focus == Field::Body {
        let input = ratatui_textarea::Input::from(key);
        let changed = app.body.input(input);
        return body_changed(app, changed);
    }
    if key.code == KeyCode::Enter {
        app.focus = focus.next();
        return vec![];
    }
    if focus == Field::Method && matches!(key.code, KeyCode::Up | KeyCode::Down) {
        let cur = METHODS
            .iter()
            .position(|m| m.eq_ignore_ascii_case(app.method.text()));
        let n = METHODS.len();
        let next = match (cur, key.code) {
            (Some(i), KeyCode::Down) => (i + 1) % n,
            (Some(i), _) => (i + n - 1) % n,
            (None, _) => 0,
        };
        app.method.set(METHODS[next]);
        app.dirty = true;
        return resign(app);
    }
    if matches!(key.code, KeyCode::Up) {
        app.focus = focus.prev();
        return vec![];
    }
    if matches!(key.code, KeyCode::Down) {
        app.focus = focus.next();
        return vec![];
    }
    let edit = app.line_edit_mut(focus).expect("one-line field");
    if edit.edit(&key) != Edit::Changed {
        return vec![];
    }
    field_changed(app, focus)
}

/// After a one-line field changed: freeze the timestamp if typed, track the key, re-sign.
fn field_changed(app: &mut App, focus: Field) -> Vec<Command> {
    match focus {
        Field::Timestamp => app.ts_live = false,
        Field::RestKey => {
            app.key_info.secret = Secret::new(app.rest_key.text().to_string());
            app.key_info.source = TYPED_KEY.into();
        }
        _ => {}
    }
    if focus != Field::Timestamp {
        app.dirty = true;
    }
    if focus == Field::Url {
        return vec![];
    }
    resign(app)
}

/// The line ends of a bracketed paste as the user copied them. Many terminals (xterm, VTE,
/// tmux, Windows Terminal) send each LF of a paste as CR, and crossterm passes the text on
/// unchanged, so a multi-line paste arrives as one line joined by bare CRs. A paste with no LF
/// but with CRs is taken as converted. When its first line ends in two CRs it was CRLF text
/// (xterm and tmux send CRLF as CR CR): a run of `n` CRs is `n / 2` line ends, rounded up (a
/// LF-only part, such as the body of a raw request, keeps its lines). Otherwise each CR was
/// one LF. A paste holding any LF is kept as it is: its CRs are the user's.
pub fn paste_line_ends(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\n') || !text.contains('\r') {
        return std::borrow::Cow::Borrowed(text);
    }
    let first_run = text
        .split(|c| c != '\r')
        .find(|run| !run.is_empty())
        .map_or(0, str::len);
    let crlf = first_run == 2;
    let mut out = String::with_capacity(text.len());
    let mut run = 0usize;
    let flush = |out: &mut String, run: &mut usize| {
        let ends = if crlf { run.div_ceil(2) } else { *run };
        out.extend(std::iter::repeat_n('\n', ends));
        *run = 0;
    };
    for c in text.chars() {
        if c == '\r' {
            run += 1;
        } else {
            flush(&mut out, &mut run);
            out.push(c);
        }
    }
    flush(&mut out, &mut run);
    std::borrow::Cow::Owned(out)
}

fn on_paste(app: &mut App, text: &str) -> Vec<Command> {
    let text = &*paste_line_ends(text);
    match app.popup.take() {
        // The body search box takes a pasted pattern (one line) and searches at once.
        Some(Popup::Search(mut edit)) => {
            edit.insert_str(&text.replace(['\r', '\n'], ""));
            match app.body.set_search_pattern(edit.text()) {
                Ok(()) => {
                    app.body.search_forward(true);
                }
                Err(e) => app.status = search_pattern_error(edit.text(), &e),
            }
            app.popup = Some(Popup::Search(edit));
            return vec![];
        }
        Some(other) => {
            app.popup = Some(other);
            return vec![];
        }
        None => {}
    }
    match app.view {
        View::Request if !app.normal_mode => {
            if app.focus == Field::Body {
                let changed = app.body.insert_str(text);
                body_changed(app, changed)
            } else {
                let focus = app.focus;
                let one_line: String = text.replace(['\r', '\n'], "");
                app.line_edit_mut(focus)
                    .expect("one-line")
                    .insert_str(&one_line);
                field_changed(app, focus)
            }
        }
        View::Diagnose => {
            app.diagnose.input.insert_str(text);
            vec![]
        }
        View::Events => update(app, Message::Events(EventsMsg::Paste(text.to_string()))),
        View::History => update(app, Message::History(HistoryMsg::Paste(text.to_string()))),
        View::Profiles => update(app, Message::Profiles(ProfilesMsg::Paste(text.to_string()))),
        View::Request => vec![],
    }
}

/// After an edit of the body: `changed` is the first changed byte (None: nothing changed).
pub fn body_changed(app: &mut App, changed: Option<usize>) -> Vec<Command> {
    let Some(at) = changed else {
        return vec![];
    };
    app.body_changed_at(at);
    app.dirty = true;
    resign(app)
}

/// Ask for a new signature of the current fields (the worker drops stale jobs).
pub fn resign(app: &mut App) -> Vec<Command> {
    let id = app.next_id();
    app.sign.requested = id;
    let check_json = app.body_state.json_rev != app.body_state.rev || app.sign.shown == 0;
    let changed_from = app.body_state.changed_from.take();
    vec![Command::Sign(Box::new(sign_job(
        app,
        id,
        changed_from,
        check_json,
    )))]
}

fn sign_job(app: &App, id: u64, changed_from: Option<usize>, check_json: bool) -> SignJob {
    SignJob {
        id,
        method: app.method.text().to_string(),
        path: app.path.text().to_string(),
        query: app.query.text().to_string(),
        prefix: app.prefix.text().to_string(),
        timestamp: app.timestamp.text().to_string(),
        api_key: app.api_key.text().to_string(),
        auth_algo: app.auth_algo.text().to_string(),
        content_type: app.content_type.text().to_string(),
        key: app.key_info.secret.clone(),
        body: Arc::clone(app.body.bytes()),
        body_rev: app.body_state.rev,
        changed_from,
        check_json,
    }
}

fn toggle_timestamp(app: &mut App) -> Vec<Command> {
    app.ts_live = !app.ts_live;
    if app.ts_live {
        app.timestamp.set(format_timestamp(app.now));
        app.status = "timestamp live (follows the clock)".into();
        resign(app)
    } else {
        app.status = format!("timestamp frozen at {}", app.timestamp.text());
        vec![]
    }
}

fn send(app: &mut App) -> Vec<Command> {
    if app.url.text().trim().is_empty() {
        app.status = "the URL is empty; set the indexing base URL before sending".into();
        return vec![];
    }
    let id = app.next_id();
    app.pending_send = Some(id);
    app.sending = true;
    app.status = format!(
        "sending {} {}…",
        app.method.text().to_ascii_uppercase(),
        target_url(app)
    );
    let job = sign_job(app, id, None, false);
    vec![Command::Send(Box::new(SendJob {
        id,
        url: target_url(app),
        base_url: app.url.text().trim().to_string(),
        live_timestamp: app.ts_live,
        sign: job,
    }))]
}

/// The full URL the request goes to: base URL + path + ?query.
pub fn target_url(app: &App) -> String {
    let base = app.url.text().trim_end_matches('/');
    let mut u = format!("{base}{}", app.path.text());
    if !app.query.text().is_empty() {
        u.push('?');
        u.push_str(app.query.text());
    }
    u
}

fn current_signature(app: &mut App) -> Option<super::app::SignedView> {
    match (&app.sign.result, app.sign.updating()) {
        (Some(Ok(s)), false) => Some(s.clone()),
        (_, true) => {
            app.status = "the signature is still updating; try again in a moment".into();
            None
        }
        (Some(Err(e)), _) => {
            app.status = e.clone();
            None
        }
        (None, _) => None,
    }
}

fn copy_signature(app: &mut App) -> Vec<Command> {
    match current_signature(app) {
        Some(s) => vec![Command::Copy(s.signature)],
        None => vec![],
    }
}

fn copy_headers(app: &mut App) -> Vec<Command> {
    match current_signature(app) {
        Some(s) => vec![Command::Copy(header_text(&s.headers))],
        None => vec![],
    }
}

fn copy_curl(app: &mut App) -> Vec<Command> {
    match current_signature(app) {
        Some(s) => {
            vec![Command::Copy(crate::core::curl::to_curl(
                app.method.text(),
                &target_url(app),
                &s.headers,
                crate::core::curl::CurlBody::Inline(app.body.bytes()),
            ))]
        }
        None => vec![],
    }
}

/// `Name: value` lines.
pub fn header_text(headers: &[(String, String)]) -> String {
    headers
        .iter()
        .map(|(n, v)| format!("{n}: {v}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Format (pretty) or minify the body as JSON. Invalid JSON is left alone with a status line.
fn reformat_body(app: &mut App, pretty: bool) -> Vec<Command> {
    let value: serde_json::Value = match serde_json::from_slice(app.body.bytes()) {
        Ok(v) => v,
        Err(e) => {
            app.status = format!(
                "cannot {} the body: not valid JSON at line {} column {}",
                if pretty { "format" } else { "minify" },
                e.line(),
                e.column()
            );
            return vec![];
        }
    };
    let text = if pretty {
        serde_json::to_string_pretty(&value)
    } else {
        serde_json::to_string(&value)
    }
    .expect("a JSON value serializes");
    let changed = app.body.set_text(&text);
    app.status = if pretty {
        "body formatted"
    } else {
        "body minified"
    }
    .into();
    body_changed(app, changed)
}

/// Mouse input: a click on a tab switches views; everything else goes to the view under it,
/// hit tested with the layout the view draws with (from `app.size`).
fn on_mouse(app: &mut App, m: crossterm::event::MouseEvent) -> Vec<Command> {
    if app.popup.is_some() {
        return vec![];
    }
    let screen = Rect::new(0, 0, app.size.0, app.size.1);
    let (tabs, main, _) = view::frame_layout(screen);
    let pos = Position::new(m.column, m.row);
    if m.kind == MouseEventKind::Down(MouseButton::Left) && tabs.contains(pos) {
        return match view::tab_layout(tabs).iter().find(|(_, r)| r.contains(pos)) {
            Some((v, _)) if *v != app.view => switch_view(app, *v),
            _ => vec![],
        };
    }
    match app.view {
        View::Events => update(app, Message::Events(EventsMsg::Mouse(m, main))),
        View::History => update(app, Message::History(HistoryMsg::Mouse(m, main))),
        View::Profiles => update(app, Message::Profiles(ProfilesMsg::Mouse(m, main))),
        View::Diagnose => diagnose_mouse(app, m, main),
        View::Request => request_mouse(app, m, screen),
    }
}

/// The diagnose view: a click in the captured request focuses it (leaves normal mode); the
/// wheel scrolls the box under the pointer.
fn diagnose_mouse(app: &mut App, m: crossterm::event::MouseEvent, main: Rect) -> Vec<Command> {
    let l = view::diagnose::layout(main);
    let pos = Position::new(m.column, m.row);
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) if l.input.contains(pos) => {
            app.normal_mode = false;
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp if l.report.contains(pos) => {
            let d = &mut app.diagnose;
            d.report_scroll = if m.kind == MouseEventKind::ScrollDown {
                // Rows of the wrapped report, so the last one stays reachable.
                let inner_w = l.report.width.saturating_sub(2);
                let rows: usize = d
                    .report
                    .iter()
                    .map(|line| view::wrap_spans(&[ratatui::text::Span::raw(line)], inner_w).len())
                    .sum();
                let max = rows.saturating_sub(1).min(u16::MAX as usize) as u16;
                d.report_scroll.saturating_add(3).min(max)
            } else {
                d.report_scroll.saturating_sub(3)
            };
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp if l.input.contains(pos) => {
            app.diagnose.input.input(ratatui_textarea::Input::from(m));
        }
        _ => {}
    }
    vec![]
}

fn request_mouse(app: &mut App, m: crossterm::event::MouseEvent, screen: Rect) -> Vec<Command> {
    let l = view::request_layout(screen);
    let pos = Position::new(m.column, m.row);
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            for (field, rect) in &l.fields {
                if rect.contains(pos) {
                    app.focus = *field;
                    app.normal_mode = false;
                    if *field == Field::Body {
                        // Put the cursor where the click was (inside the block's border).
                        let (dy, dx) = (
                            m.row.saturating_sub(rect.y + 1),
                            m.column.saturating_sub(rect.x + 1),
                        );
                        app.body.click(dy as usize, dx as usize);
                    }
                    return vec![];
                }
            }
            if l.detail.contains(pos) {
                cycle_detail_if_title(app, &l, pos);
            }
            vec![]
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let down = m.kind == MouseEventKind::ScrollDown;
            let step = |v: usize| {
                if down {
                    v.saturating_add(3)
                } else {
                    v.saturating_sub(3)
                }
            };
            if l.canonical.contains(pos) {
                app.canon_scroll = step(app.canon_scroll);
            } else if l.detail.contains(pos) {
                app.detail_scroll = step(app.detail_scroll);
            } else if l.body.contains(pos) {
                let input = ratatui_textarea::Input::from(m);
                app.body.input(input);
            }
            vec![]
        }
        _ => vec![],
    }
}

fn cycle_detail_if_title(app: &mut App, l: &view::RequestLayout, pos: Position) {
    if pos.y == l.detail.y {
        cycle_detail(app);
    }
}

/// Keys of the diagnose view.
fn diagnose_key(app: &mut App, key: KeyEvent) -> Vec<Command> {
    if ctrl(&key, 'g') || key.code == KeyCode::F(9) {
        let text = app.diagnose.input.lines().join("\n");
        let key = match app.diagnose.key {
            DiagKey::Profile => app.key_info.secret.clone(),
            DiagKey::Demo => Secret::new(crate::server::DEMO_REST_KEY),
        };
        return vec![Command::Diagnose {
            text,
            key,
            prefix: app.prefix.text().to_string(),
        }];
    }
    if alt(&key, 'k') {
        app.diagnose.key = match app.diagnose.key {
            DiagKey::Profile => DiagKey::Demo,
            DiagKey::Demo => DiagKey::Profile,
        };
        return vec![];
    }
    if alt(&key, 'l') {
        return vec![Command::ParseCapture {
            text: app.diagnose.input.lines().join("\n"),
            prefix: app.prefix.text().to_string(),
        }];
    }
    if key.code == KeyCode::Esc {
        app.normal_mode = !app.normal_mode;
        return vec![];
    }
    if app.normal_mode {
        return vec![];
    }
    app.diagnose.input.input(ratatui_textarea::Input::from(key));
    vec![]
}

#[cfg(test)]
#[path = "update_tests.rs"]
mod tests;
