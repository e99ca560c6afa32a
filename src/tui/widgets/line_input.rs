//! The one single-line text input of the workbench: every form field, the request fields, the
//! save-as and search prompts.
//!
//! Multi-line text uses the body editor ([`super::body_editor`]); a field only needs insert,
//! delete and cursor moves, so this is a small value type that the pure `update` functions own
//! and clone. The cursor is kept as a byte index on a char boundary (no walk over the text per
//! key); [`LineInput::cursor`] reports it in chars for drawing.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a key did to a [`LineInput`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Not an editing key: the caller handles it.
    Ignored,
    /// The cursor moved (or the key was an editing key that changed nothing).
    Moved,
    /// The text changed.
    Changed,
}

/// How many earlier states of a field Ctrl-Z can go back to.
const UNDO_STEPS: usize = 100;

/// The text of one field and the cursor in it, with its undo / redo history (two inputs are
/// equal when their text and cursor are: the history is not compared).
#[derive(Clone, Debug, Default)]
pub struct LineInput {
    text: String,
    /// Byte index, always on a char boundary.
    cursor: usize,
    /// Earlier (text, cursor) states, oldest first; Ctrl-Z goes back one.
    undo: Vec<(String, usize)>,
    /// States undone, Ctrl-Y / Ctrl-Shift-Z goes forward one.
    redo: Vec<(String, usize)>,
}

impl PartialEq for LineInput {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text && self.cursor == other.cursor
    }
}

impl Eq for LineInput {}

/// Whether `key` is undo (Ctrl-Z) or redo (Ctrl-Y, Ctrl-Shift-Z): `Some(true)` for undo.
/// The one definition every editable text of the workbench uses.
pub fn undo_key(key: &KeyEvent) -> Option<bool> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    match key.code {
        KeyCode::Char('z') if ctrl && !shift => Some(true),
        KeyCode::Char('Z') | KeyCode::Char('z') if ctrl => Some(false),
        KeyCode::Char('y') if ctrl => Some(false),
        _ => None,
    }
}

impl LineInput {
    /// An input holding `text`, with the cursor at its end.
    pub fn new(text: impl Into<String>) -> Self {
        let text = text.into();
        let cursor = text.len();
        LineInput {
            text,
            cursor,
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The cursor position in chars from the start (the column to draw it at, for text without
    /// wide characters).
    pub fn cursor(&self) -> usize {
        self.text[..self.cursor].chars().count()
    }

    /// Replace the text and put the cursor at its end.
    pub fn set(&mut self, text: impl Into<String>) {
        *self = LineInput::new(text);
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Insert one character at the cursor.
    pub fn insert(&mut self, c: char) {
        self.text.insert(self.cursor, c);
        self.cursor += c.len_utf8();
    }

    /// Insert pasted text at the cursor, as one line (line ends are dropped).
    pub fn insert_str(&mut self, text: &str) {
        let one_line: String = text.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
        self.text.insert_str(self.cursor, &one_line);
        self.cursor += one_line.len();
    }

    fn prev_boundary(&self) -> Option<usize> {
        self.text[..self.cursor]
            .chars()
            .next_back()
            .map(|c| self.cursor - c.len_utf8())
    }

    fn next_boundary(&self) -> Option<usize> {
        self.text[self.cursor..]
            .chars()
            .next()
            .map(|c| self.cursor + c.len_utf8())
    }

    /// Go back to the state before the last change (false: nothing to undo).
    pub fn undo(&mut self) -> bool {
        match self.undo.pop() {
            Some((text, cursor)) => {
                let now = (std::mem::replace(&mut self.text, text), self.cursor);
                self.cursor = cursor;
                self.redo.push(now);
                true
            }
            None => false,
        }
    }

    /// Redo the last undone change (false: nothing to redo).
    pub fn redo(&mut self) -> bool {
        match self.redo.pop() {
            Some((text, cursor)) => {
                let now = (std::mem::replace(&mut self.text, text), self.cursor);
                self.cursor = cursor;
                self.undo.push(now);
                true
            }
            None => false,
        }
    }

    /// Apply an editing key: characters, Backspace, Delete, Left, Right, Home, End, Ctrl-A
    /// (start), Ctrl-E (end), Ctrl-U (delete to the start), Ctrl-Z (undo), Ctrl-Y or
    /// Ctrl-Shift-Z (redo). Other keys, and characters typed with Ctrl or Alt, are
    /// [`Edit::Ignored`].
    pub fn edit(&mut self, key: &KeyEvent) -> Edit {
        if let Some(undo) = undo_key(key) {
            let done = if undo { self.undo() } else { self.redo() };
            return if done { Edit::Changed } else { Edit::Moved };
        }
        // Only keys that can change the text keep the state before them.
        let before = matches!(
            key.code,
            KeyCode::Char(_) | KeyCode::Backspace | KeyCode::Delete
        )
        .then(|| (self.text.clone(), self.cursor));
        let result = self.edit_once(key);
        if let (Edit::Changed, Some(before)) = (result, before) {
            if self.undo.len() == UNDO_STEPS {
                self.undo.remove(0);
            }
            self.undo.push(before);
            self.redo.clear();
        }
        result
    }

    fn edit_once(&mut self, key: &KeyEvent) -> Edit {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        let changed = |c: bool| if c { Edit::Changed } else { Edit::Moved };
        match key.code {
            KeyCode::Char('u') if ctrl => {
                let had = self.cursor > 0;
                self.text.drain(..self.cursor);
                self.cursor = 0;
                changed(had)
            }
            KeyCode::Char('a') if ctrl => {
                self.cursor = 0;
                Edit::Moved
            }
            KeyCode::Char('e') if ctrl => {
                self.cursor = self.text.len();
                Edit::Moved
            }
            KeyCode::Char(_) if ctrl || alt => Edit::Ignored,
            KeyCode::Char(c) => {
                self.insert(c);
                Edit::Changed
            }
            KeyCode::Backspace => match self.prev_boundary() {
                Some(at) => {
                    self.text.remove(at);
                    self.cursor = at;
                    Edit::Changed
                }
                None => Edit::Moved,
            },
            KeyCode::Delete => changed(
                self.cursor < self.text.len() && {
                    self.text.remove(self.cursor);
                    true
                },
            ),
            KeyCode::Left => {
                self.cursor = self.prev_boundary().unwrap_or(self.cursor);
                Edit::Moved
            }
            KeyCode::Right => {
                self.cursor = self.next_boundary().unwrap_or(self.cursor);
                Edit::Moved
            }
            KeyCode::Home => {
                self.cursor = 0;
                Edit::Moved
            }
            KeyCode::End => {
                self.cursor = self.text.len();
                Edit::Moved
            }
            _ => Edit::Ignored,
        }
    }

    /// Apply an editing key. Returns true when the key was an editing key (consumed), whether
    /// or not the text changed.
    pub fn handle_key(&mut self, key: &KeyEvent) -> bool {
        self.edit(key) != Edit::Ignored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn typing_inserts_at_the_cursor_and_backspace_deletes_before_it() {
        let mut input = LineInput::new("ac");
        input.handle_key(&key(KeyCode::Left));
        input.handle_key(&key(KeyCode::Char('b')));
        assert_eq!(input.text(), "abc");
        input.handle_key(&key(KeyCode::End));
        input.handle_key(&key(KeyCode::Backspace));
        assert_eq!(input.text(), "ab");
        input.handle_key(&key(KeyCode::Home));
        input.handle_key(&key(KeyCode::Delete));
        assert_eq!(input.text(), "b");
    }

    #[test]
    fn a_paste_is_inserted_at_the_cursor_as_one_line() {
        let mut input = LineInput::new("a€z");
        input.handle_key(&key(KeyCode::Left));
        input.insert_str("b\r\nc\né");
        assert_eq!(input.text(), "a€bcéz");
        assert_eq!(input.cursor(), 5);
        input.insert_str("\r\n");
        assert_eq!(input.text(), "a€bcéz", "line ends alone insert nothing");
    }

    #[test]
    fn multibyte_text_is_edited_by_chars() {
        let mut input = LineInput::new("€x");
        input.handle_key(&key(KeyCode::Left));
        input.handle_key(&key(KeyCode::Backspace));
        assert_eq!(input.text(), "x");
        assert_eq!(input.cursor(), 0);
        input.handle_key(&key(KeyCode::Right));
        input.insert('é');
        assert_eq!((input.text(), input.cursor()), ("xé", 2));
        input.handle_key(&key(KeyCode::Left));
        input.handle_key(&key(KeyCode::Delete));
        assert_eq!(input.text(), "x");
    }

    #[test]
    fn control_keys_other_than_editing_ones_are_not_consumed() {
        let mut input = LineInput::new("x");
        let consumed = input.handle_key(&KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL));
        assert!(!consumed);
        assert_eq!(input.text(), "x");
        input.handle_key(&KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        assert_eq!(input.text(), "");
    }

    #[test]
    fn edit_tells_a_change_from_a_move() {
        let mut input = LineInput::new("ab");
        assert_eq!(input.edit(&key(KeyCode::Left)), Edit::Moved);
        assert_eq!(input.edit(&key(KeyCode::Delete)), Edit::Changed);
        assert_eq!(input.edit(&key(KeyCode::Delete)), Edit::Moved, "at the end");
        assert_eq!(input.edit(&key(KeyCode::Tab)), Edit::Ignored);
        // Ctrl-U deletes what is before the cursor only.
        let mut input = LineInput::new("abcd");
        input.edit(&key(KeyCode::Left));
        let ctrl_u = KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL);
        assert_eq!(input.edit(&ctrl_u), Edit::Changed);
        assert_eq!((input.text(), input.cursor()), ("d", 0));
        assert_eq!(input.edit(&ctrl_u), Edit::Moved);
    }
}
