//! A picker: a popup list to choose one row from (switch profile, indexing operation, copy as
//! code), drawn and driven by the one list widget ([`super::list`]) so it has what every list
//! has: the selection, the window, the `/` filter and the mouse.
//!
//! Keys: Up / Down (`k` / `j`), Home / End move; `/` filters (every word must appear in the
//! row); Enter picks the selected row; `1`-`9` pick the row shown with that number (the first
//! nine rows the filter shows) while the filter is closed; Esc clears the filter, then closes;
//! `q` closes. The mouse: a click selects a row, a click on the selected row picks it, the
//! wheel moves the selection.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Constraint, Margin, Position, Rect};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Cell, Clear, Row};
use ratatui::Frame;

use super::list::{self, ListState, ListView, Outcome};
use super::prompt::centered;
use crate::tui::theme::Theme;

/// What a key or a click did to a picker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picked {
    /// Still open (the selection or the filter may have changed).
    Open,
    /// Closed without picking.
    Closed,
    /// Row `i` of all the rows (not of the filtered ones) was picked.
    Row(usize),
}

/// What a picker shows besides its rows.
#[derive(Clone, Copy, Debug)]
pub struct PickerText<'a> {
    /// Its name, in the title with the count and the filter.
    pub name: &'a str,
    /// What Enter does, e.g. "load", written into the hint on the bottom border.
    pub pick: &'a str,
    /// Said when no row is shown and the filter is empty.
    pub empty: &'a str,
    /// The box's width (cut to the screen).
    pub width: u16,
}

/// A picker's state: the list's selection, window and filter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Picker {
    pub list: ListState,
}

/// The digit shortcuts: rows numbered 1 to this.
const NUMBERED: usize = 9;

impl Picker {
    /// A picker of `len` rows with row `selected` selected.
    pub fn new(selected: usize, len: usize) -> Self {
        let mut list = ListState::default();
        list.select(selected, len);
        Picker { list }
    }

    /// The rows the filter shows, as indexes into `rows`.
    pub fn shown(&self, rows: &[String]) -> Vec<usize> {
        (0..rows.len())
            .filter(|i| self.list.matches(&rows[*i].to_lowercase()))
            .collect()
    }

    /// The selected row, as an index into `rows`.
    pub fn selected(&self, rows: &[String]) -> Option<usize> {
        self.shown(rows).get(self.list.selected).copied()
    }

    /// A key.
    pub fn on_key(&mut self, key: &KeyEvent, rows: &[String]) -> Picked {
        let shown = self.shown(rows);
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        if let (KeyCode::Char(c @ '1'..='9'), true, false) = (key.code, plain, self.list.typing()) {
            let n = c as usize - '1' as usize;
            return shown.get(n).map_or(Picked::Open, |i| Picked::Row(*i));
        }
        if self.list.on_key(key, shown.len()) != Outcome::Ignored {
            return Picked::Open;
        }
        match key.code {
            KeyCode::Enter => shown
                .get(self.list.selected)
                .map_or(Picked::Open, |i| Picked::Row(*i)),
            KeyCode::Esc | KeyCode::Char('q') => Picked::Closed,
            _ => Picked::Open,
        }
    }

    /// The picker's box on a screen of `area`.
    fn rect(&self, area: Rect, text: &PickerText<'_>, shown: usize) -> Rect {
        let h = (shown.max(1) as u16 + 2).min(area.height);
        centered(area, text.width.min(area.width), h)
    }

    /// The box with its title (name, count, filter) and its keys on the bottom border.
    fn block(
        &self,
        text: &PickerText<'_>,
        shown: usize,
        total: usize,
        w: u16,
        theme: &Theme,
    ) -> Block<'static> {
        let digits = match total.min(NUMBERED) {
            0 | 1 => "1".to_string(),
            n => format!("1-{n}"),
        };
        let hint = format!(" Enter / {digits} {} · / filter · Esc close ", text.pick);
        Block::default()
            .borders(Borders::ALL)
            .border_style(theme.focus_border())
            .title(Span::styled(
                self.list.title(text.name, shown, total, w),
                theme.title(),
            ))
            .title_bottom(crate::tui::widgets::text::fit_title(
                Span::styled(hint, theme.dim()),
                w,
            ))
    }

    /// A click or the wheel on a screen of `area` (a click outside the box does nothing).
    pub fn on_mouse(
        &mut self,
        m: &MouseEvent,
        area: Rect,
        text: &PickerText<'_>,
        rows: &[String],
    ) -> Picked {
        let shown = self.shown(rows);
        let rect = self.rect(area, text, shown.len());
        let inner = rect.inner(Margin::new(1, 1));
        let window = self.list.window(inner, shown.len());
        let before = self.list.selected;
        let pos = Position::new(m.column, m.row);
        let on_selected = window
            .rows
            .iter()
            .any(|(i, r)| *i == before && r.contains(pos));
        if m.kind == MouseEventKind::Down(MouseButton::Left) && on_selected {
            return Picked::Row(shown[before]);
        }
        self.list.on_mouse(m, rect, &window, shown.len());
        Picked::Open
    }

    /// Draw the picker over whatever is under it, centred in `area`: the rows the filter
    /// shows, the first nine numbered.
    pub fn draw(
        &self,
        frame: &mut Frame,
        area: Rect,
        text: &PickerText<'_>,
        rows: &[String],
        theme: &Theme,
    ) {
        let shown = self.shown(rows);
        let rect = self.rect(area, text, shown.len());
        frame.render_widget(Clear, rect);
        let block = self.block(text, shown.len(), rows.len(), rect.width, theme);
        let inner = block.inner(rect);
        let window = self.list.window(inner, shown.len());
        let view_rows = window
            .rows
            .iter()
            .map(|(k, _)| {
                let number = if *k < NUMBERED {
                    format!("{}", k + 1)
                } else {
                    String::new()
                };
                Row::new([
                    Cell::from(Span::styled(number, theme.dim())),
                    Cell::from(rows[shown[*k]].clone()),
                ])
            })
            .collect();
        let empty = if self.list.filter().is_empty() {
            text.empty.to_string()
        } else {
            "nothing matches the filter (Esc clears it)".to_string()
        };
        list::draw(
            frame,
            rect,
            ListView {
                block,
                header: None,
                widths: vec![Constraint::Length(1), Constraint::Fill(1)],
                rows: view_rows,
                empty,
                highlight: true,
            },
            &self.list,
            &window,
            theme,
        );
    }
}
