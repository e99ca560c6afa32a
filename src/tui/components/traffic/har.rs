//! HAR in the traffic view (`docs/har.md`): open a capture (Ctrl-O, or `signscope --har FILE`)
//! and its requests arrive as if they had just reached the local server, judged by its routes
//! at their capture's time, with the same filter, detail, diagnosis and load-into-editor; write
//! a HAR file (Ctrl-S): every request the followed server received, as the server exports it
//! (`/_inspect/requests?format=har&all=true`, `docs/server.md` rule R15: indexing, collector
//! and older endpoints, whole bodies as it kept them), or the requests shown when a filter is
//! set or a capture was opened (the view's records, bodies as the stream previewed them).
//!
//! Kept apart from the view's list handling: the view calls [`on_key`] while a prompt is open,
//! [`draw`] after itself, and files imported records through [`import`], which numbers them
//! after the newest held so that neither they nor later live records look like a restarted
//! server's.

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::Frame;

pub use super::state::{HarAction, HarPrompt};
use super::state::{TrafficEffect, TrafficState};
use crate::core::traffic::RequestSeen;
use crate::tui::theme::Theme;
use crate::tui::widgets::line_input::LineInput;
use crate::tui::widgets::prompt::{self, PromptText};

/// Open the path prompt.
pub fn start(state: &mut TrafficState, action: HarAction) -> Vec<TrafficEffect> {
    if action == HarAction::Write && state.visible_len() == 0 {
        return vec![TrafficEffect::Status(
            "No request shown to write; a HAR of nothing would be empty.".into(),
        )];
    }
    // Unfiltered live traffic: the server's own record of it, which the stream only previews.
    let action = match action {
        HarAction::Write
            if !state.opened && state.list.filter().is_empty() && !state.address.is_empty() =>
        {
            HarAction::WriteReceived
        }
        other => other,
    };
    state.har = Some(HarPrompt {
        action,
        // The file written is shown whole, resolved against the working directory.
        input: LineInput::new(match action {
            HarAction::Open => String::new(),
            HarAction::Write | HarAction::WriteReceived => {
                prompt::resolved("traffic.har").display().to_string()
            }
        }),
    });
    vec![]
}

/// A key while the prompt is open: Enter asks for the file, Esc closes, the rest edits.
pub fn on_key(state: &mut TrafficState, key: KeyEvent) -> Vec<TrafficEffect> {
    let Some(mut p) = state.har.take() else {
        return vec![];
    };
    match key.code {
        KeyCode::Esc => vec![],
        KeyCode::Enter => {
            let path = p.input.text().trim().to_string();
            if path.is_empty() {
                state.har = Some(p);
                return vec![TrafficEffect::Status("type the HAR file's path".into())];
            }
            let path: PathBuf = prompt::resolved(&path);
            match p.action {
                HarAction::Open => vec![TrafficEffect::OpenHar(path)],
                HarAction::Write => vec![TrafficEffect::WriteHar {
                    path,
                    text: har_text(state),
                }],
                HarAction::WriteReceived => vec![TrafficEffect::WriteReceivedHar {
                    path,
                    base: state.address.trim_end_matches('/').to_string(),
                }],
            }
        }
        _ => {
            p.input.edit(&key);
            state.har = Some(p);
            vec![]
        }
    }
}

/// The requests the filter shows, oldest first, as one HAR 1.2 document (`docs/har.md` rule
/// H8); the Authorization header kept (rule H9).
pub fn har_text(state: &TrafficState) -> String {
    let n = state.visible_len();
    let host = state
        .address
        .trim_start_matches("http://")
        .trim_start_matches("https://")
        .to_string();
    let records: Vec<_> = (0..n)
        .rev()
        .filter_map(|i| state.visible(i))
        .map(|e| crate::engine::capture::har_entry(&e.seen, &host, false))
        .collect();
    crate::core::har::write::to_har_string(
        env!("CARGO_PKG_VERSION"),
        records.iter().map(|r| r.exchange()),
    )
}

/// Number an imported record after the newest one held (live records that come later are
/// numbered after it too: see [`live`]).
pub fn import(state: &mut TrafficState, mut r: RequestSeen) -> RequestSeen {
    let last = state
        .entries
        .back()
        .map_or(0, |e| e.seen.seq)
        .max(state.held.back().map_or(0, |e| e.seen.seq));
    r.seq = last + 1;
    // Later live records are moved past it.
    state.shift = r.seq.saturating_sub(state.last_live);
    r
}

/// A live record's number in the view: the server's, moved past every imported record.
pub fn live(state: &mut TrafficState, mut r: RequestSeen) -> RequestSeen {
    // A server that restarted numbers from 1 again: the view starts over, and so do the moves.
    if r.seq <= state.last_live {
        state.shift = 0;
    }
    state.last_live = r.seq;
    r.seq += state.shift;
    r
}

/// Draw the prompt over the view.
pub fn draw(frame: &mut Frame, area: Rect, state: &TrafficState, theme: &Theme) {
    let Some(p) = &state.har else { return };
    let text = PromptText {
        title: match p.action {
            HarAction::Open => " Open a HAR file ",
            HarAction::Write => " Write the requests shown as HAR ",
            HarAction::WriteReceived => " Write every request the server received as HAR ",
        },
        lead: "file: ",
        hint: &format!(
            "{}Enter: ok  Esc: cancel",
            // A relative path: the file it names, resolved against the working directory.
            match prompt::resolved_note(p.input.text()) {
                note if note.is_empty() => String::new(),
                note => format!("{} · ", note.trim_start()),
            }
        ),
        // As wide as the screen allows, so an absolute path reads whole.
        width: area.width.saturating_sub(4).max(60),
    };
    prompt::draw(frame, area, &text, &p.input, theme);
}
