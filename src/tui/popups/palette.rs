//! The command palette (Ctrl-K): the actions of the current view and the global ones whose
//! name contains the filter (`crate::tui::palette::entries`); Enter runs the selected one.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

use super::component::{Component, Ctx, PopupEffect};
use crate::tui::palette::{self, Entry};
use crate::tui::theme::Theme;
use crate::tui::widgets::prompt::{text_box, TextBox};
use crate::tui::widgets::{Edit, LineInput};

/// The filter as typed, and the selected entry among those it shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Palette {
    pub filter: LineInput,
    pub selected: usize,
}

fn entries(p: &Palette, ctx: &Ctx<'_>) -> Vec<Entry> {
    palette::entries(ctx.view, ctx.profiles, p.filter.text())
}

/// The entries one page moves: the rows the box shows (the screen less the border, the filter
/// row and the hint row) less one, so the row seen last is seen again.
fn page(ctx: &Ctx<'_>) -> usize {
    usize::from(ctx.size.1.saturating_sub(4))
        .saturating_sub(1)
        .max(1)
}

impl Component for Palette {
    fn on_key(&mut self, key: &KeyEvent, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        match key.code {
            KeyCode::Esc => return vec![PopupEffect::Close],
            KeyCode::Enter => {
                let mut out = vec![PopupEffect::Close];
                if let Some(e) = entries(self, ctx).get(self.selected) {
                    out.push(PopupEffect::Run(e.action));
                }
                return out;
            }
            KeyCode::Down => self.selected = self.selected.saturating_add(1),
            KeyCode::Up => self.selected = self.selected.saturating_sub(1),
            // A page is the rows the box shows less one (nothing skipped); Home / End go to
            // the first / last entry (the filter keeps Left / Right).
            KeyCode::PageDown => self.selected = self.selected.saturating_add(page(ctx)),
            KeyCode::PageUp => self.selected = self.selected.saturating_sub(page(ctx)),
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = usize::MAX,
            _ => {
                if self.filter.edit(key) == Edit::Changed {
                    self.selected = 0;
                }
            }
        }
        let n = entries(self, ctx).len();
        self.selected = self.selected.min(n.saturating_sub(1));
        vec![]
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>, theme: &Theme) {
        let entries = entries(self, ctx);
        let name_w = entries.iter().map(|e| e.name.len()).max().unwrap_or(10);
        let mut lines = vec![Line::from(vec![
            Span::styled("> ", theme.label()),
            Span::raw(self.filter.text().to_string()),
        ])];
        if entries.is_empty() {
            lines.push(Line::from(Span::styled("no action matches", theme.dim())));
        }
        lines.extend(entries.iter().enumerate().map(|(i, e)| {
            let text = format!("{:<name_w$}  {}", e.name, e.keys);
            if i == self.selected {
                Line::from(Span::styled(text, theme.active_tab()))
            } else {
                Line::from(text)
            }
        }));
        lines.push(Line::from(Span::styled(
            "type to filter · Up/Down PgUp/PgDn choose · Enter run · Esc close",
            theme.dim(),
        )));
        // Keep the selection on screen when the list is taller than the terminal.
        let inner_h = area.height.saturating_sub(2);
        let row = (self.selected + 1) as u16;
        let height = lines.len() as u16 + 2;
        let b = TextBox {
            // Where the selection is in the list: most of it is off screen at 80x24.
            title: format!(
                " Commands: {} view · {}/{} ",
                ctx.view.title(),
                if entries.is_empty() {
                    0
                } else {
                    self.selected + 1
                },
                entries.len()
            ),
            lines,
            width: 70,
            height,
            scroll: row.saturating_sub(inner_h.saturating_sub(2)),
            hint: None,
            // The filter takes typing: the cursor goes there.
            cursor: Some(2 + self.filter.cursor() as u16),
        };
        text_box(frame, area, b, theme);
    }
}
