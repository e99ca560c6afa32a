//! The copy menu (Alt-Y): what this view can copy, one letter each
//! (`crate::tui::palette::copy_entries`).

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

use super::component::{Component, Ctx, PopupEffect};
use crate::tui::palette;
use crate::tui::theme::Theme;
use crate::tui::widgets::prompt::{text_box, TextBox};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyMenu;

impl Component for CopyMenu {
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
                    "Alt-Y then one of {}; Esc cancels",
                    letters.join(" ")
                ))]
            }
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>, theme: &Theme) {
        let mut lines: Vec<Line> = palette::copy_entries(ctx.view)
            .iter()
            .map(|c| {
                Line::from(vec![
                    Span::styled(format!(" {}  ", c.key.label()), theme.label()),
                    Span::raw(c.help),
                ])
            })
            .collect();
        lines.push(Line::from(Span::styled(
            "one letter copies · Esc cancels",
            theme.dim(),
        )));
        let width = lines
            .iter()
            .map(|l| l.width() as u16 + 2)
            .max()
            .unwrap_or(30)
            .min(area.width);
        let height = lines.len() as u16 + 2;
        let b = TextBox {
            title: " Copy… ".into(),
            lines,
            width,
            height,
            scroll: 0,
            hint: None,
            cursor: None,
        };
        text_box(frame, area, b, theme);
    }
}
