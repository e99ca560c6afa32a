//! The history view's update: keys, mouse, and the results of its effects.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, MouseEvent};
use ratatui::layout::{Position, Rect};

use super::draw::{detail_lines, layout};
use super::keys::{Action, KEYS};
use super::state::{HistoryEffect, HistoryMsg, HistoryState, RowKind, KEPT_NOTE};
use crate::tui::component::Clip;
use crate::tui::theme::Theme;
use crate::tui::widgets::list::Outcome;
use crate::tui::widgets::wheel;

/// Handle a message; pure.
pub fn update(state: &mut HistoryState, msg: HistoryMsg) -> Vec<HistoryEffect> {
    match msg {
        HistoryMsg::Paste(text) => {
            state.list.paste(&text);
            state.clamp();
            Vec::new()
        }
        HistoryMsg::Loaded { rows, warnings } => {
            state.set_rows(rows);
            state.warnings = warnings;
            Vec::new()
        }
        HistoryMsg::Appended(row) => {
            let mut rows = std::mem::take(&mut state.rows);
            rows.reverse(); // back to recorded order
            rows.push(*row);
            state.set_rows(rows);
            state.list.selected = 0;
            Vec::new()
        }
        HistoryMsg::Mouse(m, area) => {
            on_mouse(state, m, area);
            Vec::new()
        }
        HistoryMsg::Key(key) if key.kind == KeyEventKind::Release => Vec::new(),
        HistoryMsg::Key(key) => on_key(state, key),
        HistoryMsg::Run(action) => run(state, action),
    }
}

/// Run one action of the history view (from its key, the copy menu or the command palette).
pub fn run(state: &mut HistoryState, action: Action) -> Vec<HistoryEffect> {
    if action == Action::Reload {
        return vec![HistoryEffect::Reload];
    }
    let Some(row) = state.selected_row() else {
        return vec![HistoryEffect::Status("No entry selected.".into())];
    };
    let what = |row: &super::state::HistoryRow| match row.kind {
        RowKind::Request => "request",
        RowKind::Events => "event batch",
    };
    match action {
        Action::Send if row.kind == RowKind::Events => vec![HistoryEffect::Status(format!(
            "An event batch is sent from the Events view: {} loads it there, then {} sends it.",
            super::keys::KEYS.label_of(Action::Load),
            crate::tui::components::events::keys::KEYS
                .label_of(crate::tui::components::events::keys::Action::Send),
        ))],
        Action::Send => vec![HistoryEffect::Resend(Box::new(row.clone()))],
        Action::Load if row.kind == RowKind::Events => vec![
            HistoryEffect::LoadIntoEvents {
                body: row.request_body.clone(),
            },
            HistoryEffect::Status("Batch loaded into the events view.".into()),
        ],
        // The request view says it was loaded once it is (after the unsaved-edits question,
        // when there is one).
        Action::Load => vec![HistoryEffect::LoadIntoRequest(Box::new(row.clone()))],
        Action::CopyCurl => vec![HistoryEffect::Copy(Clip {
            text: row.to_curl(),
            what: format!("the {} of {} as curl", what(row), row.full_time()),
        })],
        Action::CopyResponse => match (&row.status, &row.error) {
            (Some(status), _) => vec![HistoryEffect::Copy(Clip {
                text: row.response_body.clone(),
                what: format!(
                    "the response body of the {} of {} ({status}, {} bytes)",
                    what(row),
                    row.full_time(),
                    row.response_body.len()
                ),
            })],
            (None, _) => vec![HistoryEffect::Status(format!(
                "The {} of {} got no response: nothing to copy.",
                what(row),
                row.full_time()
            ))],
        },
        Action::CopySuite => match suite_entry(row) {
            Ok(text) => vec![HistoryEffect::Copy(Clip {
                text,
                what: format!("the {} of {} as a suite entry", what(row), row.full_time()),
            })],
            Err(why) => vec![HistoryEffect::Status(why)],
        },
        Action::Reload => vec![HistoryEffect::Reload],
    }
}

/// The `[[request]]` entry of a suite for `row` (`docs/test.md`, "Writing the first suite"):
/// the request as sent, its answer as the expectation; never a key (an entry holds none).
fn suite_entry(row: &super::state::HistoryRow) -> Result<String, String> {
    use crate::core::suite::export::{entry, Answer, ExportRequest};
    if row.request_body.contains(KEPT_NOTE) || row.response_body.contains(KEPT_NOTE) {
        return Err("The history keeps only the start of this entry's bodies: write its saved request as a suite entry instead (profile request export --suite).".into());
    }
    let events = row.kind == RowKind::Events;
    let spec = match (&row.spec, events) {
        (_, true) => crate::core::RequestSpec::default(),
        (Some(s), false) => s.clone(),
        (None, false) => {
            return Err(format!(
                "This entry was recorded before signscope kept the request it sent: send it again ({}) and copy the new entry.",
                KEYS.label_of(Action::Send)
            ))
        }
    }
    .with_body(bytes::Bytes::from(row.request_body.clone()));
    Ok(entry(&ExportRequest {
        name: row.what(),
        spec,
        events,
        answer: row.status.map(|status| Answer {
            status,
            body: row.response_body.clone(),
        }),
    }))
}

fn on_key(state: &mut HistoryState, key: KeyEvent) -> Vec<HistoryEffect> {
    let n = state.visible().len();
    // The open filter takes typing (and Enter, which closes it) before the view's keys.
    if state.list.typing() && list_key(state, &key, n) {
        return Vec::new();
    }
    if let Some(action) = KEYS.lookup(&key) {
        return run(state, action);
    }
    if list_key(state, &key, n) {
        return Vec::new();
    }
    // A page is the entry pane's height less one line, so nothing is skipped; it stops at its
    // last line.
    let l = layout(state.area, state);
    let inner_h = l.detail.height.saturating_sub(2);
    let rows = detail_lines(
        state,
        &state.visible(),
        l.detail.width.saturating_sub(2),
        &Theme::default(),
    )
    .len();
    let max = u16::try_from(rows.saturating_sub(usize::from(inner_h))).unwrap_or(u16::MAX);
    let page = inner_h.saturating_sub(1).max(1);
    match key.code {
        KeyCode::PageDown => {
            state.detail_scroll = state.detail_scroll.saturating_add(page).min(max)
        }
        KeyCode::PageUp => state.detail_scroll = state.detail_scroll.saturating_sub(page),
        _ => {}
    }
    Vec::new()
}

/// A key of the list (selection, `/` filter); false when it is not one.
fn list_key(state: &mut HistoryState, key: &KeyEvent, n: usize) -> bool {
    match state.list.on_key(key, n) {
        Outcome::Ignored => return false,
        Outcome::Handled => {}
        Outcome::Moved | Outcome::Filtered => state.detail_scroll = 0,
    }
    state.clamp();
    true
}

/// Click a row to select it; the wheel over the list moves the selection, over the entry it
/// scrolls the entry.
fn on_mouse(state: &mut HistoryState, m: MouseEvent, area: Rect) {
    let l = layout(area, state);
    let n = state.visible().len();
    match state.list.on_mouse(&m, l.list, &l.window, n) {
        Outcome::Moved => state.detail_scroll = 0,
        Outcome::Ignored if l.detail.contains(Position::new(m.column, m.row)) => {
            state.detail_scroll = wheel(state.detail_scroll, m.kind, u16::MAX)
        }
        _ => {}
    }
}
