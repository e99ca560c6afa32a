//! A one-line text input shared by the issue-7 components (events, history, profiles).
//!
//! Multi-line editing uses `ratatui-textarea`; a form field only needs insert, delete and cursor
//! moves, so this stays a small value type that the pure `update` functions can own and clone.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The text of one form field and the cursor position in it (in chars).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineInput {
    text: String,
    cursor: usize,
}

impl LineInput {
    /// An input holding `text`, with the cursor at its end.
    pub fn new(text: impl Into<String>) -> Self {
        let text = text.into();
        let cursor = text.chars().count();
        LineInput { text, cursor }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The cursor position in chars from the start.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Replace the text and put the cursor at its end.
    pub fn set(&mut self, text: impl Into<String>) {
        *self = LineInput::new(text);
    }

    fn byte_at(&self, char_idx: usize) -> usize {
        self.text
            .char_indices()
            .nth(char_idx)
            .map(|(i, _)| i)
            .unwrap_or(self.text.len())
    }

    /// Insert pasted text at the cursor, as one line (line ends are dropped).
    pub fn insert_str(&mut self, text: &str) {
        let one_line: String = text.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
        let at = self.byte_at(self.cursor);
        self.text.insert_str(at, &one_line);
        self.cursor += one_line.chars().count();
    }

    /// Apply an editing key. Returns true when the key was an editing key (consumed), whether
    /// or not the text changed.
    pub fn handle_key(&mut self, key: &KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let len = self.text.chars().count();
        match key.code {
            KeyCode::Char('u') if ctrl => {
                self.text.clear();
                self.cursor = 0;
            }
            KeyCode::Char('a') if ctrl => self.cursor = 0,
            KeyCode::Char('e') if ctrl => self.cursor = len,
            KeyCode::Char(_) if ctrl || key.modifiers.contains(KeyModifiers::ALT) => return false,
            KeyCode::Char(c) => {
                let at = self.byte_at(self.cursor);
                self.text.insert(at, c);
                self.cursor += 1;
            }
            KeyCode::Backspace => {
                if self.cursor > 0 {
                    let at = self.byte_at(self.cursor - 1);
                    self.text.remove(at);
                    self.cursor -= 1;
                }
            }
            KeyCode::Delete => {
                if self.cursor < len {
                    let at = self.byte_at(self.cursor);
                    self.text.remove(at);
                }
            }
            KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Right => self.cursor = (self.cursor + 1).min(len),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = len,
            _ => return false,
        }
        true
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
    }

    #[test]
    fn multibyte_text_is_edited_by_chars() {
        let mut input = LineInput::new("€x");
        input.handle_key(&key(KeyCode::Left));
        input.handle_key(&key(KeyCode::Backspace));
        assert_eq!(input.text(), "x");
        assert_eq!(input.cursor(), 0);
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
}
