//! The history view's update: keys, mouse, and the results of its effects.

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};

use super::draw::layout;
use super::keys::{Action, KEYS};
use super::state::{HistoryEffect, HistoryMsg, HistoryState, RowKind};
use crate::tui::keymap;

/// Handle a message; pure.
pub fn update(state: &mut HistoryState, msg: HistoryMsg) -> Vec<HistoryEffect> {
    match msg {
        HistoryMsg::Paste(text) => {
            state
                .filter
                .extend(text.chars().filter(|c| !c.is_control()));
            state.selected = 0;
            state.top = 0;
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
            state.selected = 0;
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
        Action::Send if row.kind == RowKind::Events => vec![HistoryEffect::Status(
            "An event batch is sent from the Events view: Enter loads it there, then Ctrl-G sends it."
                .into(),
        )],
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
        Action::CopyCurl => vec![HistoryEffect::CopyText {
            text: row.to_curl(),
            what: format!("the {} of {} as curl", what(row), row.full_time()),
        }],
        Action::CopyResponse => match (&row.status, &row.error) {
            (Some(status), _) => vec![HistoryEffect::CopyText {
                text: row.response_body.clone(),
                what: format!(
                    "the response body of the {} of {} ({status}, {} bytes)",
                    what(row),
                    row.full_time(),
                    row.response_body.len()
                ),
            }],
            (None, _) => vec![HistoryEffect::Status(format!(
                "The {} of {} got no response: nothing to copy.",
                what(row),
                row.full_time()
            ))],
        },
        Action::Reload => vec![HistoryEffect::Reload],
    }
}

fn on_key(state: &mut HistoryState, key: KeyEvent) -> Vec<HistoryEffect> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if let Some(action) = keymap::lookup(&KEYS, &key) {
        return run(state, action);
    }
    match key.code {
        KeyCode::Up => {
            state.selected = state.selected.saturating_sub(1);
            state.top = state.top.min(state.selected);
            state.detail_scroll = 0;
        }
        KeyCode::Down => {
            state.selected += 1;
            state.detail_scroll = 0;
        }
        KeyCode::Home => {
            state.selected = 0;
            state.top = 0;
        }
        KeyCode::End => state.selected = usize::MAX,
        KeyCode::PageDown => state.detail_scroll = state.detail_scroll.saturating_add(10),
        KeyCode::PageUp => state.detail_scroll = state.detail_scroll.saturating_sub(10),
        KeyCode::Esc => state.filter.clear(),
        KeyCode::Backspace => {
            state.filter.pop();
        }
        KeyCode::Char(c) if !ctrl && !key.modifiers.contains(KeyModifiers::ALT) => {
            state.filter.push(c);
            state.selected = 0;
            state.top = 0;
        }
        _ => {}
    }
    state.clamp();
    Vec::new()
}

/// Click a row to select it; the wheel over the list moves the selection, over the entry it
/// scrolls the entry.
fn on_mouse(state: &mut HistoryState, m: MouseEvent, area: Rect) {
    let l = layout(area, state);
    // The window stays where it is on screen; the selection moves within it.
    state.top = l.first;
    let pos = Position::new(m.column, m.row);
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            if let Some((i, _)) = l.rows.iter().find(|(_, r)| r.contains(pos)) {
                if state.selected != *i {
                    state.selected = *i;
                    state.detail_scroll = 0;
                }
            }
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let down = m.kind == MouseEventKind::ScrollDown;
            if l.list.contains(pos) {
                let before = state.selected;
                state.selected = if down {
                    state.selected.saturating_add(1)
                } else {
                    state.selected.saturating_sub(1)
                };
                state.clamp();
                if state.selected != before {
                    state.detail_scroll = 0;
                }
            } else if l.detail.contains(pos) {
                state.detail_scroll = if down {
                    state.detail_scroll.saturating_add(3)
                } else {
                    state.detail_scroll.saturating_sub(3)
                };
            }
        }
        _ => {}
    }
}
