//! Asking before a load replaces unsaved edits (`crate::tui::unsaved`): save then load,
//! discard the edits and load, or cancel.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::Frame;

use super::component::{Ctx, KeyPopup, PopupEffect};
use crate::tui::model::PendingLoad;
use crate::tui::theme::Theme;
use crate::tui::widgets::prompt::{text_box, TextBox};

/// The load waiting for the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfirmLoad(pub Box<PendingLoad>);

/// The question's lines.
pub fn question(load: &PendingLoad) -> Vec<String> {
    vec![
        "There are unsaved edits to this profile.".into(),
        format!("Loading {} replaces them.", load.describe()),
        "s: save, then load".into(),
        "d: discard the edits and load".into(),
        "Esc: cancel (nothing is loaded)".into(),
    ]
}

impl KeyPopup for ConfirmLoad {
    fn on_key(&mut self, key: &KeyEvent, _: &Ctx<'_>) -> Vec<PopupEffect> {
        let load = self.0.clone();
        let then = match key.code {
            KeyCode::Char('d') | KeyCode::Char('D') => PopupEffect::Load(*load),
            // Saved first (the demo profile asks for a name); the load follows the save.
            KeyCode::Char('s') | KeyCode::Char('S') => PopupEffect::SaveThenLoad(load),
            KeyCode::Esc | KeyCode::Char('c') | KeyCode::Char('C') | KeyCode::Char('q') => {
                PopupEffect::Status(format!(
                    "kept the unsaved edits; {} not loaded",
                    load.describe()
                ))
            }
            _ => return vec![],
        };
        vec![PopupEffect::Close, then]
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _: &Ctx<'_>, theme: &Theme) {
        let lines: Vec<Line> = question(&self.0).into_iter().map(Line::from).collect();
        let width = 50.max(lines.iter().map(|l| l.width() as u16).max().unwrap_or(0) + 2);
        let b = TextBox {
            title: " Unsaved edits ".into(),
            lines,
            width,
            height: 7,
            scroll: 0,
            hint: None,
        };
        text_box(frame, area, b, theme);
    }
}
