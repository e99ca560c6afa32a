//! Quitting with unsaved edits (the profile's, or the profile editor's changes): save then
//! quit, discard and quit, or stay. The convention of every unsaved-edits question: a letter
//! (`d`) discards, Esc and any other key (Enter too, typed by habit) keep the edits.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::Frame;

use super::component::{Ctx, KeyPopup, PopupEffect};
use crate::tui::theme::Theme;
use crate::tui::widgets::prompt::{text_box, TextBox};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfirmQuit;

/// The question's lines: what would be lost, then the answers.
pub fn question(ctx: &Ctx<'_>) -> Vec<String> {
    let mut lines = Vec::new();
    if ctx.request.unsaved() || ctx.events.unsaved() {
        lines.push("There are unsaved edits to this profile.".to_string());
    }
    if let Some(name) = ctx.profiles.unsaved_draft() {
        lines.push(format!(
            "The profile editor holds unsaved changes to {name}."
        ));
    }
    lines.extend([
        "s: save, then quit".to_string(),
        "d: quit without saving".to_string(),
        "Esc / any other key: stay".to_string(),
    ]);
    lines
}

impl KeyPopup for ConfirmQuit {
    fn on_key(&mut self, key: &KeyEvent, _: &Ctx<'_>) -> Vec<PopupEffect> {
        let then = match key.code {
            // `y` ("yes, quit") as well as `d`: both are deliberate letters.
            KeyCode::Char('d' | 'D' | 'y' | 'Y') => PopupEffect::Quit,
            // The save may ask a question of the request view (a name, the typed key).
            KeyCode::Char('s') => PopupEffect::SaveThenQuit,
            _ => return vec![PopupEffect::Close],
        };
        vec![PopupEffect::Close, then]
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>, theme: &Theme) {
        let lines = question(ctx);
        let width = 46.max(
            lines
                .iter()
                .map(|l| l.chars().count() as u16)
                .max()
                .unwrap_or(0)
                + 2,
        );
        let height = lines.len() as u16 + 2;
        let b = TextBox {
            title: " Quit? ".into(),
            lines: lines.into_iter().map(Line::from).collect(),
            width,
            height,
            scroll: 0,
            hint: None,
        };
        text_box(frame, area, b, theme);
    }
}
