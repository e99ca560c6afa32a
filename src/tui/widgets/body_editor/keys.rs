//! The keys the body editor handles itself, before the text widget: undo and redo over the
//! whole body, and the moves that reach past the window the widget holds.

use ratatui_textarea::{Input, Key};

use super::BodyEditor;

impl BodyEditor {
    /// Feed a key or mouse input. Returns the first changed byte when the body changed.
    pub fn input(&mut self, input: impl Into<Input>) -> Option<usize> {
        let input = typed(input.into());
        if let Some(changed) = self.history_key(&input) {
            return changed;
        }
        if self.window_key(&input) {
            return None;
        }
        let changed = if self.ta.input(input) {
            self.sync()
        } else {
            None
        };
        self.follow_cursor();
        changed
    }

    /// Undo / redo as in every editable text of the workbench (`line_input::undo_key`):
    /// Ctrl-Z, then Ctrl-Y or Ctrl-Shift-Z. The text widget's own Ctrl-U / Ctrl-R undo and
    /// Ctrl-Y yank are not used, so a key means one thing everywhere. `None` for any other key.
    fn history_key(&mut self, input: &Input) -> Option<Option<usize>> {
        match input {
            Input {
                key: Key::Char('z'),
                ctrl: true,
                alt: false,
                shift: false,
            } => Some(self.undo()),
            Input {
                key: Key::Char('z' | 'Z'),
                ctrl: true,
                alt: false,
                ..
            }
            | Input {
                key: Key::Char('y'),
                ctrl: true,
                alt: false,
                ..
            } => Some(self.redo()),
            Input {
                key: Key::Char('u' | 'r'),
                ctrl: true,
                alt: false,
                ..
            } => Some(None),
            _ => None,
        }
    }

    /// The moves that reach past the window the widget holds. Returns whether the key was one.
    fn window_key(&mut self, input: &Input) -> bool {
        self.body_end_key(input) || self.window_edge_key(input)
    }

    /// Alt-< / Alt-> (or Ctrl-Alt-Up / Down): to the body's start or end.
    fn body_end_key(&mut self, input: &Input) -> bool {
        match input {
            Input {
                key: Key::Char('<'),
                ctrl: false,
                alt: true,
                ..
            }
            | Input {
                key: Key::Up | Key::Char('p'),
                ctrl: true,
                alt: true,
                ..
            } => {
                self.show(0);
                true
            }
            Input {
                key: Key::Char('>'),
                ctrl: false,
                alt: true,
                ..
            }
            | Input {
                key: Key::Down | Key::Char('n'),
                ctrl: true,
                alt: true,
                ..
            } => {
                self.show(self.text.len());
                true
            }
            _ => false,
        }
    }

    /// The start or end of a line longer than the window, the line above or below it.
    fn window_edge_key(&mut self, input: &Input) -> bool {
        match input {
            Input {
                key: Key::Char('a'),
                ctrl: true,
                alt: false,
                shift: false,
            }
            | Input {
                key: Key::Home,
                shift: false,
                ..
            }
            | Input {
                key: Key::Left | Key::Char('b'),
                ctrl: true,
                alt: true,
                shift: false,
            } if self.ta.cursor().0 == 0 && self.starts_inside_a_line() => {
                // The line's start is before the window (a line longer than the window).
                let off = self.cursor_offset();
                self.show(memchr::memrchr(b'\n', &self.text[..off]).map_or(0, |i| i + 1));
                true
            }
            Input {
                key: Key::Char('e'),
                ctrl: true,
                alt: false,
                shift: false,
            }
            | Input {
                key: Key::End,
                shift: false,
                ..
            }
            | Input {
                key: Key::Right | Key::Char('f'),
                ctrl: true,
                alt: true,
                shift: false,
            } if self.ta.cursor().0 + 1 == self.ta.lines().len() && self.ends_inside_a_line() => {
                let off = self.cursor_offset();
                let end =
                    memchr::memchr(b'\n', &self.text[off..]).map_or(self.text.len(), |i| off + i);
                self.show(end);
                true
            }
            Input {
                key: Key::Up,
                ctrl: false,
                alt: false,
                ..
            } if self.ta.cursor().0 == 0 && self.win.start > 0 => {
                // The line above is outside the window (the window starts inside a long line).
                self.vertical(-1);
                true
            }
            Input {
                key: Key::Down,
                ctrl: false,
                alt: false,
                ..
            } if self.ta.cursor().0 + 1 == self.ta.lines().len()
                && self.win.end < self.text.len() =>
            {
                self.vertical(1);
                true
            }
            _ => false,
        }
    }
}

/// Ctrl-J is the LF a terminal sends for a typed or unbracketed pasted line end: a new line,
/// as Enter (the text widget's own Ctrl-J deletes to the line's start).
fn typed(input: Input) -> Input {
    match input {
        Input {
            key: Key::Char('j'),
            ctrl: true,
            alt: false,
            ..
        } => Input {
            key: Key::Enter,
            ctrl: false,
            alt: false,
            shift: false,
        },
        other => other,
    }
}
