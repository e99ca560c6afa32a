//! The one list widget of the workbench: the selection, the window of rows on screen, following
//! the newest row, the `/` filter and the mouse. The History, Profiles and Traffic lists, the
//! Events items table and the pickers (switch profile, operations, copy as code) all keep a
//! [`ListState`] and draw through [`draw`]; only what a row shows and what the filter searches in
//! it is theirs.
//!
//! The filter is started with `/` (as in k9s and lazygit), so that single letters stay keys of
//! the list; while it is open, typing goes to it, Up / Down still move the selection, Enter
//! keeps it and gives the keys back to the list, Esc clears it. Esc on a list with a filter
//! clears the filter too. Every word of the filter must appear (case-insensitive) in a row.

use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Constraint, Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;

use super::line_input::{Edit, LineInput};
use super::text::fit_parts;
use crate::tui::theme::Theme;

/// What a key or a click did to a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Not a key of the list: the view handles it.
    Ignored,
    /// Taken, nothing the view needs to redo (the filter opened or closed, a cursor move).
    Handled,
    /// The selection moved to another row.
    Moved,
    /// The filter's text changed: the view filters its rows again (the selection is back on
    /// the first row).
    Filtered,
}

/// The selection, the window and the filter of one list. Indexes are into the list as shown
/// (after the filter).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListState {
    /// The selected row.
    pub selected: usize,
    /// The first row of the window (see [`window_first`]).
    pub top: usize,
    /// Rows that arrived above the window while another row was selected, not seen yet (a list
    /// that follows its newest row, see [`ListState::arrived`]).
    pub unseen: usize,
    filter: LineInput,
    /// True while `/` has the filter open: typing goes to it.
    typing: bool,
}

impl ListState {
    /// The filter's text.
    pub fn filter(&self) -> &str {
        self.filter.text()
    }

    /// Set the filter's text (closed: the keys stay the list's).
    pub fn set_filter(&mut self, text: &str) {
        self.filter.set(text);
        self.filtered();
    }

    /// True while the filter is open (typing goes to it): the view is a text input then.
    pub fn typing(&self) -> bool {
        self.typing
    }

    /// The filter's words, lower-cased.
    pub fn words(&self) -> Vec<String> {
        words_of(self.filter.text())
    }

    /// Whether every word of the filter appears in `hay` (lower-cased by the caller).
    pub fn matches(&self, hay: &str) -> bool {
        let words = self.words();
        words.iter().all(|w| hay.contains(w.as_str()))
    }

    /// Keep the selection within `len` rows and the window on it.
    pub fn clamp(&mut self, len: usize) {
        self.selected = self.selected.min(len.saturating_sub(1));
        self.top = self.top.min(self.selected);
        // New rows that came into the window (or all, at the newest) have been seen.
        self.unseen = self.unseen.min(self.top);
    }

    /// Select row `i` of `len` (clamped).
    pub fn select(&mut self, i: usize, len: usize) {
        self.selected = i;
        self.clamp(len);
    }

    /// `n` rows arrived at the top of a newest-first list: at the newest the selection follows
    /// them; elsewhere it stays on its row and they are counted as unseen.
    pub fn arrived(&mut self, n: usize) {
        if self.selected > 0 {
            self.selected += n;
            self.top += n;
            self.unseen += n;
        }
    }

    /// Pasted text goes to the filter (one line), which it opens: nothing pasted is lost.
    pub fn paste(&mut self, text: &str) {
        self.typing = true;
        let clean: String = text.chars().filter(|c| !c.is_control()).collect();
        self.filter.insert_str(&clean);
        self.filtered();
    }

    fn filtered(&mut self) {
        self.selected = 0;
        self.top = 0;
        self.unseen = 0;
    }

    /// A key to the filter's text, open or not (a picker whose filter always takes typing
    /// sends it every key it does not move by): the selection goes back to the first row when
    /// the text changes.
    pub fn edit_filter(&mut self, key: &KeyEvent) -> Outcome {
        match self.filter.edit(key) {
            Edit::Changed => {
                self.filtered();
                Outcome::Filtered
            }
            Edit::Moved => Outcome::Handled,
            Edit::Ignored => Outcome::Ignored,
        }
    }

    /// Where the cursor is in the filter's text, in chars (for the terminal cursor).
    pub fn filter_cursor(&self) -> usize {
        self.filter.cursor()
    }

    /// A key for a list of `len` rows: `/` opens the filter, and while it is open typing goes
    /// to it; Up / Down (and `k` / `j` when the filter is closed) move the selection, Home / End
    /// go to the ends; Esc clears the filter.
    pub fn on_key(&mut self, key: &KeyEvent, len: usize) -> Outcome {
        let plain = crate::tui::keymap::plain(key);
        let before = self.selected;
        let moved = |s: &mut ListState, i: usize| {
            s.select(i, len);
            if s.selected == before {
                Outcome::Handled
            } else {
                Outcome::Moved
            }
        };
        match key.code {
            KeyCode::Up if plain => return moved(self, self.selected.saturating_sub(1)),
            KeyCode::Down if plain => return moved(self, self.selected.saturating_add(1)),
            _ => {}
        }
        if self.typing {
            return match key.code {
                KeyCode::Esc => {
                    self.typing = false;
                    if self.filter.is_empty() {
                        return Outcome::Handled;
                    }
                    self.set_filter("");
                    Outcome::Filtered
                }
                KeyCode::Enter => {
                    self.typing = false;
                    Outcome::Handled
                }
                KeyCode::Backspace if self.filter.is_empty() => {
                    self.typing = false;
                    Outcome::Handled
                }
                _ => self.edit_filter(key),
            };
        }
        match key.code {
            KeyCode::Char('/') if plain => {
                self.typing = true;
                Outcome::Handled
            }
            KeyCode::Esc if !self.filter.is_empty() => {
                self.set_filter("");
                Outcome::Filtered
            }
            KeyCode::Char('k') if plain => moved(self, self.selected.saturating_sub(1)),
            KeyCode::Char('j') if plain => moved(self, self.selected.saturating_add(1)),
            KeyCode::Home if plain => moved(self, 0),
            KeyCode::End if plain => moved(self, usize::MAX),
            _ => Outcome::Ignored,
        }
    }

    /// The window of rows on screen in `body` (the rows' area, inside any border and header)
    /// for a list of `len` rows.
    pub fn window(&self, body: Rect, len: usize) -> Window {
        let first = window_first(self.top, self.selected, usize::from(body.height));
        let rows = (first..len)
            .take(usize::from(body.height))
            .enumerate()
            .map(|(k, i)| (i, Rect::new(body.x, body.y + k as u16, body.width, 1)))
            .collect();
        Window { first, rows }
    }

    /// A click or the wheel over the list drawn in `window` (a list of `len` rows; `area` is
    /// the list's box): a click selects the row under it, the wheel moves the selection. The
    /// window stays where it is on screen; the selection moves within it.
    pub fn on_mouse(&mut self, m: &MouseEvent, area: Rect, window: &Window, len: usize) -> Outcome {
        let pos = Position::new(m.column, m.row);
        if !area.contains(pos) {
            return Outcome::Ignored;
        }
        self.top = window.first;
        let before = self.selected;
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                match window.rows.iter().find(|(_, r)| r.contains(pos)) {
                    Some((i, _)) => self.select(*i, len),
                    None => return Outcome::Handled,
                }
            }
            MouseEventKind::ScrollDown => self.select(self.selected.saturating_add(1), len),
            MouseEventKind::ScrollUp => self.select(self.selected.saturating_sub(1), len),
            _ => return Outcome::Ignored,
        }
        if self.selected == before {
            Outcome::Handled
        } else {
            Outcome::Moved
        }
    }

    /// The list's title for a box `width` columns wide: its name, the count (`3 of 10` with a
    /// filter), the filter as it is typed (`filter: abc▏`), or how to start one; what does not
    /// fit is dropped from the end, and a part cut is marked `…`.
    pub fn title(&self, name: &str, shown: usize, total: usize, width: u16) -> String {
        let f = self.filter.text();
        let count = if f.is_empty() && !self.typing {
            format!("{name} ({shown})")
        } else {
            format!("{name} ({shown} of {total})")
        };
        // While it is typed, the filter is never dropped from the title.
        let typed = format!("{count} · filter: {f}▏");
        let kept = format!("filter: {f}");
        let parts: Vec<&str> = match (f.is_empty(), self.typing) {
            (true, false) => vec![&count, "/ filter"],
            (_, true) => vec![&typed],
            (false, false) => vec![&count, &kept, "Esc clears"],
        };
        let width = usize::from(width.saturating_sub(4));
        format!(" {} ", fit_parts(&parts, " · ", width))
    }
}

/// The lower-cased words of a filter.
pub fn words_of(filter: &str) -> Vec<String> {
    filter.split_whitespace().map(str::to_lowercase).collect()
}

/// The rows of a list on screen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Window {
    /// The first row on screen.
    pub first: usize,
    /// Each row on screen: its index in the list and its cells.
    pub rows: Vec<(usize, Rect)>,
}

/// The first row of a list window of `visible` rows that shows `selected`: `top` (where the
/// window was) unless that would hide the selection. Clicking a row on screen therefore never
/// moves the window, and the keyboard scrolls it only when the selection leaves it.
pub fn window_first(top: usize, selected: usize, visible: usize) -> usize {
    let visible = visible.max(1);
    if selected < top {
        selected
    } else if selected >= top + visible {
        selected + 1 - visible
    } else {
        top
    }
}

/// What [`draw`] draws: the box, an optional header row, the rows of the window (built by the
/// view for those rows only), their column widths, and what to say when there are none.
pub struct ListView<'a> {
    pub block: Block<'a>,
    pub header: Option<Row<'a>>,
    pub widths: Vec<Constraint>,
    /// The rows of [`Window::rows`], in order.
    pub rows: Vec<Row<'a>>,
    /// Said (dimmed, wrapped) in an empty list.
    pub empty: String,
    /// The selected row is highlighted (reversed) only when true (false: the view marks its
    /// own selection, e.g. one cell).
    pub highlight: bool,
}

/// Draw a list in `area` with its window `window` and its state.
pub fn draw(
    frame: &mut Frame,
    area: Rect,
    view: ListView<'_>,
    state: &ListState,
    window: &Window,
    theme: &Theme,
) {
    let inner = view.block.inner(area);
    let selected = window
        .rows
        .iter()
        .position(|(i, _)| *i == state.selected)
        .filter(|_| view.highlight);
    let empty = view.rows.is_empty();
    let header_h = u16::from(view.header.is_some());
    let mut table = Table::new(view.rows, view.widths)
        .block(view.block)
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    if let Some(h) = view.header {
        table = table.header(h);
    }
    // Only the window's rows were built: the table starts at the first of them.
    let mut ts = TableState::default().with_selected(selected);
    frame.render_stateful_widget(table, area, &mut ts);
    if empty && inner.height > 0 && !view.empty.is_empty() {
        let y = (inner.y + header_h).min(inner.y + inner.height);
        let body = Rect::new(
            inner.x + 1,
            y,
            inner.width.saturating_sub(2),
            inner.y + inner.height - y,
        );
        frame.render_widget(
            Paragraph::new(Span::styled(view.empty, theme.dim())).wrap(Wrap { trim: true }),
            body,
        );
    }
}

/// The `↑ N new · KEY` marker for the title of a list that follows its newest row: the rows
/// that arrived above the window, and the key that selects the newest. Empty when none.
pub fn new_marker(state: &ListState, window: &Window, key: &str, theme: &Theme) -> Line<'static> {
    let n = state.unseen.min(window.first);
    if n == 0 {
        return Line::default();
    }
    Line::from(Span::styled(format!(" ↑ {n} new · {key} "), theme.warn())).right_aligned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    fn k(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn the_window_moves_only_when_the_selection_leaves_it() {
        // Inside the window: it stays where it was.
        assert_eq!(window_first(10, 12, 5), 10);
        assert_eq!(window_first(10, 14, 5), 10);
        // Below it: the selection becomes the last visible row.
        assert_eq!(window_first(10, 15, 5), 11);
        // Above it: the selection becomes the first row.
        assert_eq!(window_first(10, 3, 5), 3);
        // No room at all still shows the selection.
        assert_eq!(window_first(0, 7, 0), 7);
    }

    #[test]
    fn slash_opens_the_filter_letters_are_keys_otherwise_and_esc_clears() {
        let mut s = ListState::default();
        // Closed: `j` moves, `x` is the view's.
        assert_eq!(s.on_key(&k(KeyCode::Char('j')), 5), Outcome::Moved);
        assert_eq!(s.selected, 1);
        assert_eq!(s.on_key(&k(KeyCode::Char('x')), 5), Outcome::Ignored);
        assert_eq!(s.on_key(&k(KeyCode::Char('/')), 5), Outcome::Handled);
        assert!(s.typing());
        assert_eq!(s.on_key(&k(KeyCode::Char('j')), 5), Outcome::Filtered);
        assert_eq!((s.filter(), s.selected), ("j", 0));
        // Enter keeps it and gives the letters back.
        assert_eq!(s.on_key(&k(KeyCode::Enter), 5), Outcome::Handled);
        assert!(!s.typing());
        assert_eq!(s.filter(), "j");
        assert_eq!(s.on_key(&k(KeyCode::Char('j')), 5), Outcome::Moved);
        assert_eq!(s.on_key(&k(KeyCode::Esc), 5), Outcome::Filtered);
        assert_eq!(s.filter(), "");
        // Esc while typing clears and closes.
        s.on_key(&k(KeyCode::Char('/')), 5);
        s.on_key(&k(KeyCode::Char('q')), 5);
        assert_eq!(s.on_key(&k(KeyCode::Esc), 5), Outcome::Filtered);
        assert!(!s.typing() && s.filter().is_empty());
        assert_eq!(s.on_key(&k(KeyCode::Esc), 5), Outcome::Ignored);
    }

    /// The profile switch (a picker) is the same list: `/` filters it at 80x24, Enter loads
    /// the one shown, Esc clears the filter first.
    #[test]
    fn slash_filters_the_profile_picker_and_enter_loads_what_it_shows() {
        use crate::tui::effect::Command;
        use crate::tui::message::Message;
        use crate::tui::test_util::TestApp;
        let mut t = TestApp::new(80, 24);
        t.ctrl('l');
        let names = ["demo", "prod-eu", "prod-us", "staging"].map(String::from);
        t.update(Message::ProfileList(Ok(names.to_vec())));
        t.assert_line("Switch profile (4)");
        t.type_str("/us");
        t.assert_line("Switch profile (1 of 4) · filter: us▏");
        t.assert_no_line("staging");
        t.press(KeyCode::Esc);
        t.assert_line("staging");
        t.type_str("/eu");
        t.press(KeyCode::Enter); // keeps the filter
        let cmds = t.press(KeyCode::Enter);
        assert!(
            matches!(cmds.as_slice(), [Command::LoadProfile(n)] if n == "prod-eu"),
            "{cmds:?}"
        );
    }

    #[test]
    fn newest_first_lists_follow_the_newest_or_count_what_arrived() {
        let mut s = ListState::default();
        s.arrived(3);
        assert_eq!((s.selected, s.unseen), (0, 0));
        s.select(2, 10);
        s.top = 2;
        s.arrived(2);
        assert_eq!((s.selected, s.top, s.unseen), (4, 4, 2));
        s.select(0, 12);
        assert_eq!(s.unseen, 0);
    }
}
