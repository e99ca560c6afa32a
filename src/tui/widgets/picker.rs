//! A picker: a popup list to choose one row from (switch profile, indexing operation, copy as
//! code), drawn and driven by the one list widget ([`super::list`]) so it has what every list
//! has: the selection, the window, the `/` filter and the mouse.
//!
//! Keys: Up / Down (`k` / `j`), Home / End move, PageUp / PageDown move a page (the rows the box
//! shows less one, so the row seen last is seen again); `/` filters (every word must appear in
//! the row); Enter picks the selected row; `1`-`9` pick the row shown with that number (the
//! first nine rows the filter shows) while the filter is closed; Esc clears the filter, then
//! closes; `q` closes. The mouse: a click selects a row, a click on the selected row picks it,
//! the wheel moves the selection.
//!
//! A searching picker ([`Picker::searching`], the command palette) has its filter as its first
//! row, always taking what is typed: letters and digits filter, Up / Down, PageUp / PageDown and
//! Home / End move, Enter picks, Esc closes.

use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Constraint, Margin, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Clear, Paragraph, Row};
use ratatui::Frame;

use super::list::{self, ListState, ListView, Outcome};
use super::prompt::centered;
use super::text::fit_title;
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
    /// Said when no row is shown and the filter is empty (in a searching picker: whenever no
    /// row is shown, Esc closing it).
    pub empty: &'a str,
    /// The box's width (cut to the screen).
    pub width: u16,
}

/// A picker's state: the list's selection, window and filter, and whether the filter is its
/// first row, always typed into (a searching picker).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Picker {
    pub list: ListState,
    search: bool,
}

/// The digit shortcuts: rows numbered 1 to this.
const NUMBERED: usize = 9;

impl Picker {
    /// A picker of `len` rows with row `selected` selected.
    pub fn new(selected: usize, len: usize) -> Self {
        let mut list = ListState::default();
        list.select(selected, len);
        Picker {
            list,
            search: false,
        }
    }

    /// A searching picker on its first row: its filter is its first row and takes every key
    /// typed (the command palette).
    pub fn searching() -> Self {
        Picker {
            list: ListState::default(),
            search: true,
        }
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

    /// A key, for the picker drawn on a screen of `area`.
    pub fn on_key(
        &mut self,
        key: &KeyEvent,
        area: Rect,
        text: &PickerText<'_>,
        rows: &[String],
    ) -> Picked {
        let shown = self.shown(rows);
        let page = self.page(area, text, shown.len());
        let to = match key.code {
            KeyCode::PageDown => Some(self.list.selected.saturating_add(page)),
            KeyCode::PageUp => Some(self.list.selected.saturating_sub(page)),
            KeyCode::Home if self.search => Some(0),
            KeyCode::End if self.search => Some(usize::MAX),
            _ => None,
        };
        if let Some(to) = to {
            self.list.select(to, shown.len());
            return Picked::Open;
        }
        if self.search {
            return self.search_key(key, &shown);
        }
        let plain = crate::tui::keymap::plain(key);
        if let (KeyCode::Char(c @ '1'..='9'), true, false) = (key.code, plain, self.list.typing()) {
            let n = c as usize - '1' as usize;
            return shown.get(n).map_or(Picked::Open, |i| Picked::Row(*i));
        }
        if self.list.on_key(key, shown.len()) != Outcome::Ignored {
            return Picked::Open;
        }
        match key.code {
            KeyCode::Enter => self.pick(&shown),
            KeyCode::Esc | KeyCode::Char('q') => Picked::Closed,
            _ => Picked::Open,
        }
    }

    /// A key to a searching picker, but the page keys: Up / Down move, Enter picks (and
    /// closes it when nothing is shown), Esc closes, every other key edits the filter.
    fn search_key(&mut self, key: &KeyEvent, shown: &[usize]) -> Picked {
        match key.code {
            KeyCode::Esc => Picked::Closed,
            KeyCode::Enter if shown.is_empty() => Picked::Closed,
            KeyCode::Enter => self.pick(shown),
            KeyCode::Up | KeyCode::Down => {
                self.list.on_key(key, shown.len());
                Picked::Open
            }
            _ => {
                self.list.edit_filter(key);
                Picked::Open
            }
        }
    }

    /// The selected row of those `shown`, picked (nothing shown: still open).
    fn pick(&self, shown: &[usize]) -> Picked {
        shown
            .get(self.list.selected)
            .map_or(Picked::Open, |i| Picked::Row(*i))
    }

    /// The rows one page moves in the box on a screen of `area`: those it shows less one.
    fn page(&self, area: Rect, text: &PickerText<'_>, shown: usize) -> usize {
        let body = self.body(self.rect(area, text, shown));
        usize::from(body.height).saturating_sub(1).max(1)
    }

    /// Where the rows are in the box `rect`: inside its border, under the filter's row in a
    /// searching picker.
    fn body(&self, rect: Rect) -> Rect {
        let inner = rect.inner(Margin::new(1, 1));
        let top = u16::from(self.search).min(inner.height);
        Rect::new(inner.x, inner.y + top, inner.width, inner.height - top)
    }

    /// The picker's box on a screen of `area`.
    fn rect(&self, area: Rect, text: &PickerText<'_>, shown: usize) -> Rect {
        let h = (shown.max(1) as u16 + 2 + u16::from(self.search)).min(area.height);
        centered(area, text.width.min(area.width), h)
    }

    /// The box with its title (name, count, filter; a searching picker's: name and where the
    /// selection is, `n/m`) and its keys on the bottom border.
    fn block(
        &self,
        text: &PickerText<'_>,
        shown: usize,
        total: usize,
        w: u16,
        theme: &Theme,
    ) -> Block<'static> {
        let (title, hint) = if self.search {
            let at = if shown == 0 {
                0
            } else {
                self.list.selected + 1
            };
            (
                format!(" {} · {at}/{shown} ", text.name),
                format!(
                    " type to filter · Up/Down PgUp/PgDn choose · Enter {} · Esc close ",
                    text.pick
                ),
            )
        } else {
            let digits = match total.min(NUMBERED) {
                0 | 1 => "1".to_string(),
                n => format!("1-{n}"),
            };
            (
                self.list.title(text.name, shown, total, w),
                format!(" Enter / {digits} {} · / filter · Esc close ", text.pick),
            )
        };
        super::pane(
            fit_title(Span::styled(title, theme.title()), w),
            true,
            theme,
        )
        .title_bottom(fit_title(Span::styled(hint, theme.dim()), w))
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
        let window = self.list.window(self.body(rect), shown.len());
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
    /// shows, the first nine numbered (a searching picker: its filter above them, with the
    /// terminal cursor in it, and no numbers, since digits are typed into the filter).
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
        let body = self.body(rect);
        let window = self.list.window(body, shown.len());
        let cell = |k: usize| Cell::from(rows[shown[k]].clone());
        let (view_rows, widths) = if self.search {
            let view_rows = window.rows.iter().map(|(k, _)| Row::new([cell(*k)]));
            (view_rows.collect(), vec![Constraint::Fill(1)])
        } else {
            let number = |k: usize| match k < NUMBERED {
                true => format!("{}", k + 1),
                false => String::new(),
            };
            let view_rows = window.rows.iter().map(|(k, _)| {
                Row::new([Cell::from(Span::styled(number(*k), theme.dim())), cell(*k)])
            });
            let widths = vec![Constraint::Length(1), Constraint::Fill(1)];
            (view_rows.collect(), widths)
        };
        let empty = if self.search || self.list.filter().is_empty() {
            text.empty.to_string()
        } else {
            "nothing matches the filter (Esc clears it)".to_string()
        };
        let (block, list_area) = if self.search {
            frame.render_widget(block, rect);
            self.draw_filter(frame, rect, theme);
            (Block::default(), body)
        } else {
            (block, rect)
        };
        let view = ListView {
            block,
            header: None,
            widths,
            rows: view_rows,
            empty,
            highlight: true,
        };
        list::draw(frame, list_area, view, &self.list, &window, theme);
    }

    /// A searching picker's filter, on the first row inside the box `rect`, with the terminal
    /// cursor where typing goes.
    fn draw_filter(&self, frame: &mut Frame, rect: Rect, theme: &Theme) {
        let inner = rect.inner(Margin::new(1, 1));
        if inner.height == 0 {
            return;
        }
        let line = Line::from(vec![
            Span::styled("> ", theme.label()),
            Span::raw(self.list.filter().to_string()),
        ]);
        frame.render_widget(Paragraph::new(line), Rect { height: 1, ..inner });
        let x = inner.x as usize + 2 + self.list.filter_cursor();
        if x < usize::from(inner.x + inner.width) {
            frame.set_cursor_position((x as u16, inner.y));
        }
    }
}
