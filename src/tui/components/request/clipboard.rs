//! The body's selection on the clipboard: Ctrl-X cuts it there, Alt-C (and Ctrl-C, by habit,
//! while a selection is in the body) copies it. Both go through the one copy path of the copy
//! menu (`RequestEffect::Copy`), so the text lands where `Alt-Y` puts it.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::message::RequestEffect;
use super::state::RequestState;
use crate::tui::component::Clip;

/// What a body key does with the selection.
pub(super) enum SelectionKey {
    /// Not a clipboard key: the editor takes it.
    Other,
    /// Ctrl-X: the selection is copied, then the editor cuts it.
    Cut(RequestEffect),
    /// Alt-C: copied; the body does not change.
    Copied(Vec<RequestEffect>),
}

pub(super) fn body_key(req: &mut RequestState, key: &KeyEvent) -> SelectionKey {
    let ctrl_x = key.code == KeyCode::Char('x') && key.modifiers == KeyModifiers::CONTROL;
    let alt_c = key.code == KeyCode::Char('c') && key.modifiers == KeyModifiers::ALT;
    if ctrl_x {
        return match copy_selection(req, "cut") {
            Some(copy) => SelectionKey::Cut(copy),
            None => SelectionKey::Other,
        };
    }
    if alt_c {
        return SelectionKey::Copied(copy_selection_or_say(req));
    }
    SelectionKey::Other
}

/// Alt-C, or Ctrl-C with a selection in the body: copy it, or say how to select.
pub fn copy_selection_or_say(req: &mut RequestState) -> Vec<RequestEffect> {
    match copy_selection(req, "copied") {
        Some(copy) => vec![copy],
        None => {
            req.status =
                "nothing selected in the body: select with Shift-arrows, then Alt-C copies".into();
            vec![]
        }
    }
}

fn copy_selection(req: &RequestState, done: &str) -> Option<RequestEffect> {
    let text = req.body.selected_text()?;
    let what = format!("the selection ({} bytes, {done})", text.len());
    Some(RequestEffect::Copy(Clip { text, what }))
}

#[cfg(test)]
mod tests {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use crate::tui::component::Clip;
    use crate::tui::components::request::Field;
    use crate::tui::effect::Command;
    use crate::tui::message::Message;
    use crate::tui::test_util::TestApp;

    /// The body with `n` characters selected from its start (Shift-Right).
    fn selected(body: &str, n: usize) -> TestApp {
        let mut t = TestApp::with_body(80, 24, body);
        t.request.focus = Field::Body;
        t.request.normal_mode = false;
        for _ in 0..n {
            t.update(Message::Key(KeyEvent::new(
                KeyCode::Right,
                KeyModifiers::SHIFT,
            )));
        }
        t
    }

    fn copied(cmds: &[Command]) -> Vec<&str> {
        cmds.iter()
            .filter_map(|c| match c {
                Command::Copy(Clip { text, .. }) => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    /// Ctrl-X, Alt-C and Ctrl-C put exactly the selected text (a CRLF line end as in the body) on the
    /// clipboard through the copy path of Alt-Y; Ctrl-C with a selection does not quit, and
    /// without one it still does.
    #[test]
    fn the_body_selection_goes_to_the_clipboard_by_cut_copy_and_ctrl_c() {
        let body = "ab\r\ncdé\nef";
        let mut t = selected(body, 4);
        assert_eq!(copied(&t.alt('c')), ["ab\r\nc"]);
        assert_eq!(t.request.body.text(), body, "a copy changes nothing");
        let cmds = t.ctrl('c');
        assert_eq!(copied(&cmds), ["ab\r\nc"]);
        assert!(!t.quit && !cmds.iter().any(|c| matches!(c, Command::Quit)));
        assert!(t.popup.is_none(), "no question either: it copied");
        // Ctrl-X: the same text goes to the clipboard, and out of the body.
        assert_eq!(copied(&t.ctrl('x')), ["ab\r\nc"]);
        assert_eq!(t.request.body.text(), "dé\nef");
        // Multi-byte characters are cut whole.
        let mut t = selected("cdé\nef", 3);
        assert_eq!(copied(&t.ctrl('x')), ["cdé"]);
        assert_eq!(t.request.body.text(), "\nef");
        // Nothing selected: Alt-C says how; Ctrl-C quits (no unsaved edits) as before.
        let mut t = selected(body, 0);
        assert!(copied(&t.alt('c')).is_empty());
        assert!(t.status.contains("Shift-arrows"), "{}", t.status);
        assert!(t.ctrl('c').iter().any(|c| matches!(c, Command::Quit)));
    }
}
