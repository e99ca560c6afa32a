//! The copy menu (Alt-Y): what this view can copy, one letter each
//! (`crate::tui::palette::copy_entries`).

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

use super::component::{Ctx, KeyPopup, PopupEffect};
use crate::tui::palette;
use crate::tui::theme::Theme;
use crate::tui::widgets::prompt::{text_box, TextBox};
use crate::tui::widgets::text::wrap_words;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyMenu;

impl KeyPopup for CopyMenu {
    /// One letter copies and closes; Esc cancels; another key says what it offers.
    fn on_key(&mut self, key: &KeyEvent, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        if key.code == KeyCode::Esc {
            return vec![
                PopupEffect::Close,
                PopupEffect::Status("copy cancelled".into()),
            ];
        }
        let copies = palette::copy_entries(ctx.view);
        match copies.iter().find(|c| c.key.matches(key)) {
            Some(c) => vec![PopupEffect::Close, PopupEffect::Run(c.entry.action)],
            None => {
                let letters: Vec<String> = copies.iter().map(|c| c.key.label()).collect();
                vec![PopupEffect::Status(format!(
                    "{}then one of {}; Esc cancels",
                    crate::tui::global_keys::copy_key(""),
                    letters.join(" ")
                ))]
            }
        }
    }

    /// One row per copy, its description word-wrapped under itself when the screen is too
    /// narrow for it (nothing is cut).
    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>, theme: &Theme) {
        let copies = palette::copy_entries(ctx.view);
        let hint = "one letter copies · Esc cancels";
        let rows: Vec<(String, &str)> = copies
            .iter()
            .map(|c| (format!(" {}  ", c.key.label()), c.help))
            .collect();
        let widest = rows
            .iter()
            .map(|(k, h)| k.chars().count() + h.chars().count())
            .chain(std::iter::once(hint.chars().count()))
            .max()
            .unwrap_or(30);
        let width = (widest as u16 + 2).min(area.width);
        let inner = usize::from(width.saturating_sub(2));
        let mut lines: Vec<Line> = vec![];
        for (key, help) in rows {
            let lead = key.chars().count();
            for (i, piece) in wrap_words(help, inner.saturating_sub(lead).max(8))
                .into_iter()
                .enumerate()
            {
                let key = if i == 0 {
                    key.clone()
                } else {
                    " ".repeat(lead)
                };
                lines.push(Line::from(vec![
                    Span::styled(key, theme.label()),
                    Span::raw(piece),
                ]));
            }
        }
        lines.push(Line::from(Span::styled(hint, theme.dim())));
        let height = lines.len() as u16 + 2;
        let b = TextBox {
            title: " Copy… ".into(),
            lines,
            width,
            height,
            scroll: 0,
            hint: None,
        };
        text_box(frame, area, b, theme);
    }
}
