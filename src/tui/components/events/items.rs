//! The items table's keys: the list (the one list widget: selection, window, `/` filter,
//! mouse), adding, duplicating, deleting and moving items, editing a cell in place (the
//! preview follows each key), and undo / redo of every change to the items.
//!
//! `EventsState::row` stays the index of the selected item in the batch; the list widget's own
//! selection is its place among the items the filter shows, set from `row` before each use.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent};
use ratatui::layout::Rect;

use super::state::{cell, Column, EventsState, ItemsSnapshot};
use crate::core::events::draft::DERIVED_MEMBERS;
use crate::core::events::{ItemDraft, ItemRest};
use crate::core::visible::counted;
use crate::tui::widgets::line_input::undo_key;
use crate::tui::widgets::list::{Outcome, Window};
use crate::tui::widgets::LineInput;

/// How many changes to the items Ctrl-Z can go back.
const UNDO_STEPS: usize = 100;

impl EventsState {
    /// The items the filter shows (indexes into the batch's items), in order: every word of
    /// the filter appears in one of the item's cells.
    pub fn visible_items(&self) -> Vec<usize> {
        let words = self.items_list.words();
        (0..self.draft.items.len())
            .filter(|r| {
                if words.is_empty() {
                    return true;
                }
                let item = &self.draft.items[*r];
                let hay = Column::ALL
                    .iter()
                    .map(|c| cell(item, *c))
                    .collect::<Vec<_>>()
                    .join(" ")
                    .to_lowercase();
                words.iter().all(|w| hay.contains(w.as_str()))
            })
            .collect()
    }

    /// Put the list widget's selection on `row` among the visible items; returns them.
    pub(super) fn sync_items_list(&mut self) -> Vec<usize> {
        let visible = self.visible_items();
        if let Some(at) = visible.iter().position(|r| *r == self.row) {
            self.items_list.selected = at;
        }
        self.items_list.clamp(visible.len());
        visible
    }

    /// The list's window over the items the filter shows, in `body` (its indexes are places
    /// among the items shown), and the same rows as indexes into the batch's items.
    pub(super) fn items_window(&self, body: Rect) -> (Window, Vec<(usize, Rect)>) {
        let visible = self.visible_items();
        let mut list = self.items_list.clone();
        if let Some(at) = visible.iter().position(|r| *r == self.row) {
            list.selected = at;
        }
        let window = list.window(body, visible.len());
        let rows = window
            .rows
            .iter()
            .filter_map(|(i, r)| Some((*visible.get(*i)?, *r)))
            .collect();
        (window, rows)
    }

    /// Remember the items as they are before a change (Ctrl-Z goes back to them).
    pub(super) fn snapshot_items(&mut self) {
        self.extras.fit(&self.draft);
        if self.items_history.undo.len() == UNDO_STEPS {
            self.items_history.undo.remove(0);
        }
        self.items_history.undo.push(self.items_now());
        self.items_history.redo.clear();
    }

    fn items_now(&self) -> ItemsSnapshot {
        ItemsSnapshot {
            items: self.draft.items.clone(),
            rest: self.extras.items.clone(),
            row: self.row,
        }
    }

    fn restore_items(&mut self, s: ItemsSnapshot) {
        self.draft.items = s.items;
        self.extras.items = s.rest;
        self.row = s.row.min(self.draft.items.len().saturating_sub(1));
        self.items_changed();
    }

    /// Ctrl-Z (`undo`) or Ctrl-Y: back or forward one change to the items; false when there is
    /// none.
    pub(super) fn undo_items(&mut self, undo: bool) -> bool {
        let (from, to) = if undo {
            (&mut self.items_history.undo, &mut self.items_history.redo)
        } else {
            (&mut self.items_history.redo, &mut self.items_history.undo)
        };
        let Some(s) = from.pop() else {
            return false;
        };
        let now = ItemsSnapshot {
            items: self.draft.items.clone(),
            rest: self.extras.items.clone(),
            row: self.row,
        };
        to.push(now);
        self.restore_items(s);
        true
    }

    /// Start editing the selected cell in place.
    fn start_edit(&mut self) {
        if let Some(item) = self.draft.items.get(self.row) {
            let text = cell(item, self.col).to_string();
            self.snapshot_items();
            self.editing = Some(LineInput::new(text));
        }
    }
}

/// A key while a cell is edited in place: each change goes into the batch at once (the preview
/// and the problems follow the typing); Enter or Tab keeps it (Tab moves to the next column),
/// Esc puts the cell back as it was.
pub(super) fn edit_key(state: &mut EventsState, mut input: LineInput, key: KeyEvent) {
    match key.code {
        KeyCode::Esc => {
            // The snapshot taken when the edit started is the cell as it was.
            if let Some(before) = state.items_history.undo.pop() {
                state.restore_items(before);
            }
        }
        KeyCode::Enter | KeyCode::Tab => {
            state.commit_cell(input.text());
            // An edit that changed nothing is no step to undo.
            if state.items_history.undo.last() == Some(&state.items_now()) {
                state.items_history.undo.pop();
            }
            if key.code == KeyCode::Tab {
                state.col = crate::tui::widgets::cycle(&Column::ALL, state.col, false);
            }
            state.refresh();
        }
        _ => {
            let before = input.text().to_string();
            input.handle_key(&key);
            if input.text() != before {
                state.commit_cell(input.text());
                state.refresh();
            }
            state.editing = Some(input);
        }
    }
}

/// A key of the items table (it has the focus and no cell is edited); what to say in the
/// status line (empty: nothing).
pub(super) fn items_key(state: &mut EventsState, key: KeyEvent) -> String {
    if let Some(undo) = undo_key(&key) {
        if state.undo_items(undo) {
            return String::new();
        }
        return if undo {
            "Nothing to undo in the items.".into()
        } else {
            "Nothing to redo in the items.".into()
        };
    }
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    match key.code {
        KeyCode::Up if alt => {
            move_item(state, true);
            return String::new();
        }
        KeyCode::Down if alt => {
            move_item(state, false);
            return String::new();
        }
        _ => {}
    }
    if list_key(state, &key) {
        return String::new();
    }
    let n = state.draft.items.len();
    match key.code {
        KeyCode::Char('K') => move_item(state, true),
        KeyCode::Char('J') => move_item(state, false),
        KeyCode::Left | KeyCode::Char('h') => {
            state.col = Column::ALL[state.col.index().saturating_sub(1)]
        }
        KeyCode::Right | KeyCode::Char('l') => {
            state.col = Column::ALL[(state.col.index() + 1).min(Column::ALL.len() - 1)]
        }
        KeyCode::Enter | KeyCode::Char('e') => state.start_edit(),
        KeyCode::Char('f') => return derive_ids(state),
        KeyCode::Char(' ') | KeyCode::Char('c') if state.row < n => {
            state.snapshot_items();
            state.draft.items[state.row].clicked = !state.draft.items[state.row].clicked;
            state.refresh();
        }
        KeyCode::Char('a') | KeyCode::Insert => return add_item(state),
        KeyCode::Char('y') if state.row < n => duplicate_item(state),
        KeyCode::Char('d') | KeyCode::Char('x') | KeyCode::Delete if state.row < n => {
            return delete_item(state)
        }
        _ => {}
    }
    String::new()
}

/// The list's keys: the selection and the `/` filter; whether the list took the key.
fn list_key(state: &mut EventsState, key: &KeyEvent) -> bool {
    let visible = state.sync_items_list();
    match state.items_list.on_key(key, visible.len()) {
        Outcome::Ignored => false,
        Outcome::Handled | Outcome::Moved | Outcome::Filtered => {
            let visible = state.visible_items();
            state.items_list.clamp(visible.len());
            if let Some(r) = visible.get(state.items_list.selected) {
                state.row = *r;
            }
            true
        }
    }
}

/// `f`: every item gets its derived item_id and index (group-variant, position); an undo step
/// only when something changed.
fn derive_ids(state: &mut EventsState) -> String {
    state.snapshot_items();
    let n = state.extras.derive_ids();
    if n == 0 {
        state.items_history.undo.pop();
    }
    state.refresh();
    if n == 0 {
        "Every item already has its derived item_id and index.".into()
    } else {
        format!(
            "item_id and index derived (group-variant, position) for {}.",
            counted(n, "item")
        )
    }
}

/// `a`: a new, empty item after the selected one (its currency), its first cell selected.
fn add_item(state: &mut EventsState) -> String {
    state.snapshot_items();
    let n = state.draft.items.len();
    let at = if n == 0 { 0 } else { state.row + 1 };
    let template = state.draft.items.get(state.row).cloned();
    let item = ItemDraft {
        currency: template.map(|t| t.currency).unwrap_or_default(),
        ..ItemDraft::default()
    };
    state.draft.items.insert(at, item);
    state
        .extras
        .items
        .insert(at.min(state.extras.items.len()), ItemRest::default());
    state.row = at;
    state.col = Column::GroupId;
    // The new, empty row is shown whatever the filter was. The keys that follow are the
    // table's (Enter or e edits the cell), not typed into the row.
    state.items_list.set_filter("");
    state.items_changed();
    format!(
        "Item added: Enter edits its cells, {} takes it back.",
        crate::tui::keymap::TEXT_KEYS.label_of(crate::tui::keymap::TextAction::Undo)
    )
}

/// `y`: a copy of the selected item after it; the copy's item_id and index are the derived
/// ones (it is a new row).
fn duplicate_item(state: &mut EventsState) {
    state.snapshot_items();
    let item = state.draft.items[state.row].clone();
    let mut extra = state
        .extras
        .items
        .get(state.row)
        .cloned()
        .unwrap_or_default();
    for m in DERIVED_MEMBERS {
        extra.edited(m);
    }
    state.draft.items.insert(state.row + 1, item);
    state
        .extras
        .items
        .insert((state.row + 1).min(state.extras.items.len()), extra);
    state.row += 1;
    state.items_changed();
}

/// `d`: the selected item goes (an undo brings it back).
fn delete_item(state: &mut EventsState) -> String {
    state.snapshot_items();
    state.draft.items.remove(state.row);
    if state.row < state.extras.items.len() {
        state.extras.items.remove(state.row);
    }
    state.row = state.row.min(state.draft.items.len().saturating_sub(1));
    state.items_changed();
    format!(
        "Item deleted: {} brings it back.",
        crate::tui::keymap::TEXT_KEYS.label_of(crate::tui::keymap::TextAction::Undo)
    )
}

fn move_item(state: &mut EventsState, up: bool) {
    let n = state.draft.items.len();
    let (a, b) = if up {
        if state.row == 0 || n == 0 {
            return;
        }
        (state.row - 1, state.row)
    } else {
        if state.row + 1 >= n {
            return;
        }
        (state.row, state.row + 1)
    };
    state.snapshot_items();
    state.draft.items.swap(a, b);
    state.extras.items.swap(a, b);
    state.row = if up { a } else { b };
    state.items_changed();
}

/// A click or the wheel over the items table (its box `area`, the list's `window` as drawn),
/// through the list widget: a click selects the row under it, the wheel moves the selection;
/// the window stays where it is on screen. (A click's column is the caller's.)
pub(super) fn items_mouse(state: &mut EventsState, m: &MouseEvent, area: Rect, window: &Window) {
    let visible = state.sync_items_list();
    if state.items_list.on_mouse(m, area, window, visible.len()) == Outcome::Moved {
        if let Some(r) = visible.get(state.items_list.selected) {
            state.row = *r;
        }
    }
}
