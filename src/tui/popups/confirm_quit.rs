//! Quitting with unsaved edits: quit anyway, save then quit, or stay.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::Frame;

use super::component::{Component, Ctx, PopupEffect};
use crate::tui::theme::Theme;
use crate::tui::widgets::prompt::{text_box, TextBox};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfirmQuit;

impl Component for ConfirmQuit {
    fn on_key(&mut self, key: &KeyEvent, _: &Ctx<'_>) -> Vec<PopupEffect> {
        let then = match key.code {
            KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => PopupEffect::Quit,
            // The save may ask a question of the request view (a name, the typed key).
            KeyCode::Char('s') => PopupEffect::SaveThenQuit,
            _ => return vec![PopupEffect::Close],
        };
        vec![PopupEffect::Close, then]
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _: &Ctx<'_>, theme: &Theme) {
        let lines = [
            "There are unsaved edits to this profile.",
            "y / Enter: quit without saving",
            "s: save, then quit",
            "any other key: stay",
        ];
        let b = TextBox {
            title: " Quit? ".into(),
            lines: lines.into_iter().map(Line::from).collect(),
            width: 46,
            height: 6,
            scroll: 0,
            hint: None,
            cursor: None,
        };
        text_box(frame, area, b, theme);
    }
}
