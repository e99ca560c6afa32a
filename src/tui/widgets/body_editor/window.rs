//! The window of the body the widget holds: built around the cursor, moved when the cursor
//! comes near one of its edges, and the cursor moves that reach past it (a click, a jump, a
//! line up or down from the window's edge).

use std::ops::Range;

use ratatui_textarea::{CursorMove, TextArea};

use super::chars::{ceil_char, floor_char, nth_char_offset, utf8_chars};
use super::{BodyEditor, Limits};

impl BodyEditor {
    /// Put the cursor at a cell of the widget's area (`row`, `col` from its top left corner):
    /// the character drawn there, or the end of that line when the click is past it.
    pub fn click(&mut self, row: usize, col: usize) {
        let (top, left) = self.ta.scroll_offset();
        let row = (top as usize + row).min(self.ta.lines().len() - 1);
        let cells = left as usize + col;
        // Cells to chars: a tab is drawn up to the next multiple of the tab length, a wide
        // character in two cells.
        let mut width = 0;
        let mut chars = 0;
        for c in self.ta.lines()[row].chars() {
            let w = match c {
                '\t' => 2 - width % 2,
                c => ratatui::text::Span::raw(c.to_string()).width(),
            };
            if width + w > cells {
                break;
            }
            width += w;
            chars += 1;
        }
        place_cursor(&mut self.ta, row, chars);
        self.follow_cursor();
    }

    /// Move the cursor to a byte offset of the body (clamped to a char boundary at or before it).
    pub fn move_to(&mut self, offset: usize) {
        self.show(offset.min(self.text.len()));
    }

    /// Whether the window's first line began before the window.
    pub(super) fn starts_inside_a_line(&self) -> bool {
        self.win.start > 0 && self.text[self.win.start - 1] != b'\n'
    }

    /// Whether the window's last line goes on after the window.
    pub(super) fn ends_inside_a_line(&self) -> bool {
        self.win.end < self.text.len() && self.text[self.win.end] != b'\n'
    }

    /// Move the cursor one line up (-1) or down (1) in the body, keeping its column (in chars)
    /// where the line is long enough, for moves that leave the window.
    pub(super) fn vertical(&mut self, dir: i8) {
        let text: &[u8] = &self.text;
        let off = self.cursor_offset();
        let line_start = memchr::memrchr(b'\n', &text[..off]).map_or(0, |i| i + 1);
        let col = utf8_chars(&text[line_start..off]);
        let target_start = if dir < 0 {
            if line_start == 0 {
                return;
            }
            memchr::memrchr(b'\n', &text[..line_start - 1]).map_or(0, |i| i + 1)
        } else {
            match memchr::memchr(b'\n', &text[off..]) {
                Some(i) => off + i + 1,
                None => return,
            }
        };
        let line_end =
            memchr::memchr(b'\n', &text[target_start..]).map_or(text.len(), |i| target_start + i);
        let target = nth_char_offset(&text[target_start..line_end], col) + target_start;
        self.scroll_to(target);
    }

    /// Move the window if the cursor came near one of its edges (and the body goes on there).
    pub(super) fn follow_cursor(&mut self) {
        let ratatui_textarea::DataCursor(row, _) = self.ta.cursor();
        let rows = self.ta.lines().len();
        let off = self.cursor_offset();
        let m_rows = self.limits.margin_rows();
        let m_bytes = self.limits.margin_bytes();
        let near_top = self.win.start > 0 && (row < m_rows || off - self.win.start < m_bytes);
        let near_bottom = self.win.end < self.text.len()
            && (rows - row <= m_rows || self.win.end - off < m_bytes);
        if near_top || near_bottom {
            self.scroll_to(off);
        }
    }

    /// Rebuild the widget on a window around `offset` and put the cursor there (a jump: the
    /// view scrolls only as far as it must to show the cursor).
    pub(super) fn show(&mut self, offset: usize) {
        self.rebuild(offset, None);
    }

    /// [`Self::show`] for a cursor moving on from where it was (line by line, page by page): the
    /// cursor stays on the screen row it was drawn on, so a window move does not show.
    pub(super) fn scroll_to(&mut self, offset: usize) {
        // Outside 0..height when the input just moved the cursor past an edge: drawing then
        // scrolls by one, as in any window.
        let screen_row = self.ta.cursor().0 as i64 - i64::from(self.ta.scroll_offset().0);
        self.rebuild(offset, Some(screen_row));
    }

    fn rebuild(&mut self, offset: usize, screen_row: Option<i64>) {
        let offset = floor_char(&self.text, offset.min(self.text.len()));
        let win = window_around(&self.text, offset, self.limits);
        let yank = self.ta.yank_text();
        let window_text =
            std::str::from_utf8(&self.text[win.clone()]).expect("window on char boundaries");
        let mut ta = TextArea::new(window_text.split('\n').map(str::to_string).collect());
        ta.set_max_histories(0);
        ta.set_tab_length(2);
        ta.set_yank_text(yank);
        if let Some(style) = self.cursor_style {
            ta.set_cursor_style(style);
        }
        if let Some(text) = &self.placeholder {
            ta.set_placeholder_text(text.as_str());
        }
        if let Some(re) = &self.search {
            let _ = ta.set_search_pattern(re.as_str());
        }
        self.ta = ta;
        self.win = win;
        // Cursor: row and column (in chars) of `offset` inside the window.
        let before = &self.text[self.win.start..offset];
        let row = memchr::memchr_iter(b'\n', before).count();
        let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        let col = std::str::from_utf8(&before[line_start..])
            .expect("char boundary")
            .chars()
            .count();
        // A new widget starts scrolled to its top, which would draw the cursor at the bottom
        // edge after a move up; scroll it so the cursor stays on the row it was drawn on.
        if let Some(screen_row) = screen_row {
            let top = (row as i64 - screen_row).clamp(0, i64::from(i16::MAX));
            if top > 0 {
                self.ta.scroll((top as i16, 0));
            }
        }
        place_cursor(&mut self.ta, row, col);
    }
}

/// Put the textarea cursor at (row, col). A window has at most `rows` rows and starts at most
/// half its bytes before the cursor, so both fit the u16 of `CursorMove::Jump`.
fn place_cursor(ta: &mut TextArea<'_>, row: usize, col: usize) {
    debug_assert!(row <= u16::MAX as usize && col <= u16::MAX as usize);
    let clamp = |v: usize| v.min(u16::MAX as usize) as u16;
    ta.move_cursor(CursorMove::Jump(clamp(row), clamp(col)));
}

/// The window to edit around `offset`: the whole body when it fits, else about half the limits
/// before and after, with its edges moved to line starts where a line start is near.
pub(super) fn window_around(text: &[u8], offset: usize, limits: Limits) -> Range<usize> {
    debug_assert!(limits.bytes / 2 <= u16::MAX as usize && limits.rows <= u16::MAX as usize);
    let total_lines = memchr::memchr_iter(b'\n', text).take(limits.rows).count() + 1;
    if text.len() <= limits.bytes && total_lines <= limits.rows {
        return 0..text.len();
    }
    let half_bytes = limits.bytes / 2;
    let half_rows = limits.rows / 2;
    // Start: back from the offset by half the bytes or half the rows, whichever comes first.
    let lo = offset.saturating_sub(half_bytes);
    let mut start = match memchr::memrchr_iter(b'\n', &text[lo..offset]).nth(half_rows) {
        Some(i) => lo + i + 1,
        None if lo == 0 => 0,
        None => {
            // Prefer a line start in the first quarter of the range.
            let quarter = (offset - lo) / 4;
            match memchr::memchr(b'\n', &text[lo..lo + quarter]) {
                Some(i) => lo + i + 1,
                None => lo,
            }
        }
    };
    start = ceil_char(text, start).min(offset);
    let hi = (offset + half_bytes).min(text.len());
    let mut end = match memchr::memchr_iter(b'\n', &text[offset..hi]).nth(half_rows) {
        Some(i) => offset + i,
        None if hi == text.len() => hi,
        None => {
            let quarter = (hi - offset) / 4;
            match memchr::memrchr(b'\n', &text[hi - quarter..hi]) {
                Some(i) => hi - quarter + i,
                None => hi,
            }
        }
    };
    end = floor_char(text, end).max(offset);
    start..end
}
