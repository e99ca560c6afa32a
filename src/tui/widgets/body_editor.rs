//! The request body editor: `ratatui-textarea` for the editing itself (cursor moves, selection,
//! yank, mouse, word moves), on a *window* of the body.
//!
//! `ratatui-textarea` keeps one `String` per line and rebuilds its whole screen map on every
//! edit: about 12 ns per byte, so 200 ms per keystroke on a 16 MB body. Here the body lives in one
//! buffer (shared with the signer without copying) and the textarea holds at most
//! [`WINDOW_BYTES`] / [`WINDOW_ROWS`] of it around the cursor. After each edit the window's new
//! text is diffed against its old bytes (common prefix and suffix), and only that change is
//! spliced into the body. When the cursor comes near an edge of the window, the window moves.
//! A body that fits in one window is edited exactly as the plain widget would edit it.
//!
//! Because a textarea only ever sees part of the body, the things that must see all of it live
//! here: undo/redo (one entry per change, a bounded amount of text), search (a regex over the
//! whole body; matches in the window are highlighted by the widget), jumps to the top and bottom,
//! and the line index that the canonical panel reads lines through.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Arc;

use ratatui_textarea::{CursorMove, TextArea};

use crate::core::incremental::common_prefix_len;

mod keys;

/// The most body bytes the textarea holds at once.
pub const WINDOW_BYTES: usize = 96 * 1024;
/// The most lines the textarea holds at once.
pub const WINDOW_ROWS: usize = 4096;
/// Undo keeps at most this much removed and inserted text in all.
pub const UNDO_BYTES: usize = 8 * 1024 * 1024;
/// Undo keeps at most this many changes.
pub const UNDO_ENTRIES: usize = 1000;

/// Window and margin sizes (small ones in tests, to exercise the window moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub bytes: usize,
    pub rows: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            bytes: WINDOW_BYTES,
            rows: WINDOW_ROWS,
        }
    }
}

impl Limits {
    /// Move the window when the cursor is closer than this to one of its edges.
    fn margin_rows(&self) -> usize {
        (self.rows / 8).max(2)
    }
    fn margin_bytes(&self) -> usize {
        (self.bytes / 8).max(8)
    }
}

/// One change of the body: at `at`, `removed` was replaced by `inserted`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Edit {
    at: usize,
    removed: Vec<u8>,
    inserted: Vec<u8>,
}

impl Edit {
    fn size(&self) -> usize {
        self.removed.len() + self.inserted.len()
    }
}

/// The editor's buffer as the owner of a `Bytes`.
struct SharedBody(Arc<Vec<u8>>);

impl AsRef<[u8]> for SharedBody {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// The body editor. The body is always valid UTF-8 (it is only ever built from `str`s).
pub struct BodyEditor {
    text: Arc<Vec<u8>>,
    ta: TextArea<'static>,
    /// The bytes of `text` the textarea holds.
    win: Range<usize>,
    index: LineIndex,
    undo: VecDeque<Edit>,
    undo_bytes: usize,
    redo: Vec<Edit>,
    /// The search pattern over the whole body (the widget has the same one for highlighting).
    search: Option<regex::bytes::Regex>,
    limits: Limits,
    /// Scratch: the window's text after an edit.
    scratch: Vec<u8>,
    /// The widget's cursor style (kept when the window moves); None: the widget's default.
    cursor_style: Option<ratatui::style::Style>,
    /// Shown while the text is empty (e.g. what to paste).
    placeholder: Option<String>,
}

impl std::fmt::Debug for BodyEditor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BodyEditor")
            .field("len", &self.text.len())
            .field("window", &self.win)
            .finish_non_exhaustive()
    }
}

impl Default for BodyEditor {
    fn default() -> Self {
        BodyEditor::new("")
    }
}

impl BodyEditor {
    pub fn new(text: &str) -> Self {
        Self::with_limits(text, Limits::default())
    }

    pub fn with_limits(text: &str, limits: Limits) -> Self {
        let bytes = text.as_bytes().to_vec();
        let index = LineIndex::build(&bytes);
        let mut ed = BodyEditor {
            text: Arc::new(bytes),
            ta: TextArea::default(),
            win: 0..0,
            index,
            undo: VecDeque::new(),
            undo_bytes: 0,
            redo: Vec::new(),
            search: None,
            limits,
            scratch: Vec::new(),
            cursor_style: None,
            placeholder: None,
        };
        ed.show(0);
        ed
    }

    /// The whole body, shared (the signer and the sender take clones of the `Arc`).
    pub fn bytes(&self) -> &Arc<Vec<u8>> {
        &self.text
    }

    /// The whole body as `Bytes` that share this buffer (no copy; an edit while a job still
    /// holds it copies on write, as with [`BodyEditor::bytes`]).
    pub fn shared(&self) -> bytes::Bytes {
        bytes::Bytes::from_owner(SharedBody(Arc::clone(&self.text)))
    }

    /// The selected text, exactly as in the body (a CR of a CRLF line end included); None when
    /// nothing is selected. The selection stays.
    pub fn selected_text(&self) -> Option<String> {
        let ((r0, c0), (r1, c1)) = self.ta.selection_range()?;
        let byte = |l: &str, c: usize| l.char_indices().nth(c).map_or(l.len(), |(i, _)| i);
        let mut parts: Vec<&str> = self.ta.lines()[r0..=r1]
            .iter()
            .map(String::as_str)
            .collect();
        let last = parts.len() - 1;
        parts[last] = &parts[last][..byte(parts[last], c1)];
        parts[0] = &parts[0][byte(parts[0], c0)..];
        let out = parts.join("\n");
        (!out.is_empty()).then_some(out)
    }

    /// The body as text.
    pub fn text(&self) -> &str {
        std::str::from_utf8(&self.text).expect("the body is built from str")
    }

    pub fn len(&self) -> usize {
        self.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The widget to draw (it holds the window around the cursor).
    pub fn textarea(&self) -> &TextArea<'static> {
        &self.ta
    }

    /// How the widget draws the cursor (e.g. hidden while another pane has focus).
    pub fn set_cursor_style(&mut self, style: ratatui::style::Style) {
        self.cursor_style = Some(style);
        self.ta.set_cursor_style(style);
    }

    /// What the widget shows while the text is empty.
    pub fn set_placeholder_text(&mut self, text: &str) {
        self.placeholder = Some(text.to_string());
        self.ta.set_placeholder_text(text);
    }

    /// The byte range of the body the widget holds.
    pub fn window(&self) -> Range<usize> {
        self.win.clone()
    }

    /// Number of lines of the body (an empty body has one, empty, line).
    pub fn line_count(&self) -> usize {
        self.index.lines
    }

    /// Byte offset of the cursor in the body.
    pub fn cursor_offset(&self) -> usize {
        let ratatui_textarea::DataCursor(row, col) = self.ta.cursor();
        let lines = self.ta.lines();
        let mut off = self.win.start;
        for l in &lines[..row] {
            off += l.len() + 1;
        }
        let line = &lines[row];
        off + line.char_indices().nth(col).map_or(line.len(), |(i, _)| i)
    }

    /// The cursor's line in the body (0-based).
    pub fn cursor_line(&self) -> usize {
        self.index.line_of(&self.text, self.cursor_offset())
    }

    /// Byte offset where line `n` (0-based) starts; the body's length past the last line.
    pub fn line_start(&self, n: usize) -> usize {
        if n < self.index.lines {
            self.index.line_start(&self.text, n)
        } else {
            self.text.len()
        }
    }

    /// The lines of the body from line `first` on (without their LF).
    pub fn lines_from(&self, first: usize) -> impl Iterator<Item = &[u8]> {
        lines_from(&self.index, &self.text, first)
    }

    /// The line index as it is now, for reading the lines of the body as it is now later (a
    /// signed snapshot of it) without scanning from the top.
    pub fn line_marks(&self) -> LineMarks {
        LineMarks(self.index.clone())
    }

    /// Replace the whole body (format, minify, external editor). Undo can restore the old text
    /// if it is small enough to keep. Returns the first changed byte, or None if nothing changed.
    pub fn set_text(&mut self, text: &str) -> Option<usize> {
        let old: &[u8] = &self.text;
        let new = text.as_bytes();
        let pre = common_prefix_len(old, new);
        let suf = common_suffix(&old[pre..], &new[pre..]);
        if pre == old.len() && pre == new.len() {
            return None;
        }
        let edit = Edit {
            at: pre,
            removed: old[pre..old.len() - suf].to_vec(),
            inserted: new[pre..new.len() - suf].to_vec(),
        };
        self.apply(&edit);
        self.record(edit);
        self.show(pre);
        Some(pre)
    }

    /// Insert text at the cursor (a paste), replacing a selection. Returns the first changed
    /// byte.
    pub fn insert_str(&mut self, s: &str) -> Option<usize> {
        if !s.contains("\r\n") {
            self.ta.insert_str(s);
            let changed = self.sync();
            self.follow_cursor();
            return changed;
        }
        // The widget drops the CR of each CRLF; a body is signed byte for byte, so such a paste
        // goes into the body as given (the widget shows a CR at the end of its line).
        self.ta.insert_str(""); // only removes a selection
        let removed = self.sync();
        let at = self.cursor_offset();
        let edit = Edit {
            at,
            removed: Vec::new(),
            inserted: s.as_bytes().to_vec(),
        };
        self.apply(&edit);
        self.record(edit);
        self.show(at + s.len());
        Some(removed.map_or(at, |r| r.min(at)))
    }

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

    /// Set the search pattern (empty: no search). The widget highlights matches in the window.
    /// A pattern that is not a valid regex clears the search (the previous one must not stay
    /// in use while the box shows another).
    pub fn set_search_pattern(&mut self, pattern: &str) -> Result<(), regex::Error> {
        self.search = None;
        let _ = self.ta.set_search_pattern("");
        if pattern.is_empty() {
            return Ok(());
        }
        let re = regex::bytes::Regex::new(pattern)?;
        self.ta.set_search_pattern(pattern)?;
        self.search = Some(re);
        Ok(())
    }

    /// Move to the next match after the cursor (at the cursor too when `at_cursor`), wrapping
    /// around to the top. False when the pattern matches nowhere.
    pub fn search_forward(&mut self, at_cursor: bool) -> bool {
        let Some(re) = &self.search else {
            return false;
        };
        let cur = self.cursor_offset();
        let from = if at_cursor {
            cur
        } else {
            next_char(&self.text, cur)
        };
        let found = re
            .find_at(&self.text, from)
            .or_else(|| re.find(&self.text))
            .map(|m| m.start());
        match found {
            Some(at) => {
                self.show(at);
                true
            }
            None => false,
        }
    }

    /// Move to the previous match before the cursor, wrapping around to the bottom.
    pub fn search_back(&mut self, at_cursor: bool) -> bool {
        let Some(re) = &self.search else {
            return false;
        };
        let cur = self.cursor_offset();
        let limit = if at_cursor { cur + 1 } else { cur };
        let mut before = None;
        let mut last = None;
        for m in re.find_iter(&self.text) {
            if m.start() < limit {
                before = Some(m.start());
            }
            last = Some(m.start());
        }
        match before.or(last) {
            Some(at) => {
                self.show(at);
                true
            }
            None => false,
        }
    }

    /// Undo the last change; returns the first changed byte.
    pub fn undo(&mut self) -> Option<usize> {
        let edit = self.undo.pop_back()?;
        self.undo_bytes -= edit.size();
        let inverse = self.reverse(edit);
        let at = inverse.at;
        self.redo.push(inverse);
        Some(at)
    }

    /// Redo the last undone change; returns the first changed byte.
    pub fn redo(&mut self) -> Option<usize> {
        let inverse = self.redo.pop()?;
        let edit = self.reverse(inverse);
        let at = edit.at;
        self.push_undo(edit);
        Some(at)
    }

    /// Apply the inverse of `edit` and show the cursor after what it inserted; returns the
    /// inverse (for the other stack).
    fn reverse(&mut self, edit: Edit) -> Edit {
        let inverse = Edit {
            at: edit.at,
            removed: edit.inserted,
            inserted: edit.removed,
        };
        self.apply(&inverse);
        self.show(inverse.at + inverse.inserted.len());
        inverse
    }

    // -----------------------------------------------------------------------------------------

    /// Whether the window's first line began before the window.
    fn starts_inside_a_line(&self) -> bool {
        self.win.start > 0 && self.text[self.win.start - 1] != b'\n'
    }

    /// Whether the window's last line goes on after the window.
    fn ends_inside_a_line(&self) -> bool {
        self.win.end < self.text.len() && self.text[self.win.end] != b'\n'
    }

    /// Move the cursor one line up (-1) or down (1) in the body, keeping its column (in chars)
    /// where the line is long enough, for moves that leave the window.
    fn vertical(&mut self, dir: i8) {
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

    /// After the widget changed its text: splice the change into the body.
    fn sync(&mut self) -> Option<usize> {
        self.scratch.clear();
        for (i, l) in self.ta.lines().iter().enumerate() {
            if i > 0 {
                self.scratch.push(b'\n');
            }
            self.scratch.extend_from_slice(l.as_bytes());
        }
        let old = &self.text[self.win.clone()];
        let new = &self.scratch[..];
        let pre = common_prefix_len(old, new);
        let suf = common_suffix(&old[pre..], &new[pre..]);
        if pre == old.len() && pre == new.len() {
            return None;
        }
        let edit = Edit {
            at: self.win.start + pre,
            removed: old[pre..old.len() - suf].to_vec(),
            inserted: new[pre..new.len() - suf].to_vec(),
        };
        let new_len = new.len();
        self.apply(&edit);
        self.win.end = self.win.start + new_len;
        let at = edit.at;
        self.record(edit);
        Some(at)
    }

    /// Apply a change to the body and the line index (not to the widget).
    fn apply(&mut self, e: &Edit) {
        let text = Arc::make_mut(&mut self.text);
        let end = e.at + e.removed.len();
        debug_assert_eq!(&text[e.at..end], &e.removed[..]);
        text.splice(e.at..end, e.inserted.iter().copied());
        self.index.edit(text, e.at, &e.removed, e.inserted.len());
    }

    fn record(&mut self, edit: Edit) {
        self.redo.clear();
        self.push_undo(edit);
    }

    fn push_undo(&mut self, edit: Edit) {
        if edit.size() > UNDO_BYTES {
            // Too big to keep: earlier changes cannot be undone past it either.
            self.undo.clear();
            self.undo_bytes = 0;
            return;
        }
        self.undo_bytes += edit.size();
        self.undo.push_back(edit);
        while self.undo.len() > UNDO_ENTRIES || self.undo_bytes > UNDO_BYTES {
            let old = self.undo.pop_front().expect("non-empty");
            self.undo_bytes -= old.size();
        }
    }

    /// Move the window if the cursor came near one of its edges (and the body goes on there).
    fn follow_cursor(&mut self) {
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
    fn show(&mut self, offset: usize) {
        self.rebuild(offset, None);
    }

    /// [`Self::show`] for a cursor moving on from where it was (line by line, page by page): the
    /// cursor stays on the screen row it was drawn on, so a window move does not show.
    fn scroll_to(&mut self, offset: usize) {
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

/// Number of chars in UTF-8 bytes.
fn utf8_chars(b: &[u8]) -> usize {
    b.iter().filter(|&&c| (c & 0xC0) != 0x80).count()
}

/// Byte offset of the `n`th char of `b` (its length when shorter).
fn nth_char_offset(b: &[u8], n: usize) -> usize {
    let mut seen = 0;
    for (i, &c) in b.iter().enumerate() {
        if (c & 0xC0) != 0x80 {
            if seen == n {
                return i;
            }
            seen += 1;
        }
    }
    b.len()
}

/// The window to edit around `offset`: the whole body when it fits, else about half the limits
/// before and after, with its edges moved to line starts where a line start is near.
pub(crate) fn window_around(text: &[u8], offset: usize, limits: Limits) -> Range<usize> {
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

/// The start of the character at or before byte `i` (UTF-8 text).
pub(crate) fn floor_char(text: &[u8], mut i: usize) -> usize {
    while i > 0 && i < text.len() && (text[i] & 0xC0) == 0x80 {
        i -= 1;
    }
    i
}

fn ceil_char(text: &[u8], mut i: usize) -> usize {
    while i < text.len() && (text[i] & 0xC0) == 0x80 {
        i += 1;
    }
    i
}

fn next_char(text: &[u8], i: usize) -> usize {
    if i >= text.len() {
        return text.len();
    }
    ceil_char(text, i + 1)
}

fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[a.len() - n..], &b[b.len() - n..]);
    let block = 4096;
    let mut k = 0;
    while k + block <= n && a[n - k - block..n - k] == b[n - k - block..n - k] {
        k += block;
    }
    while k < n && a[n - k - 1] == b[n - k - 1] {
        k += 1;
    }
    k
}

/// The lines of `text` (indexed by `index`) from line `first` on, without their LF.
fn lines_from<'t>(
    index: &LineIndex,
    text: &'t [u8],
    first: usize,
) -> impl Iterator<Item = &'t [u8]> {
    let mut pos = (first < index.lines).then(|| index.line_start(text, first));
    std::iter::from_fn(move || {
        let p = pos?;
        match memchr::memchr(b'\n', &text[p..]) {
            Some(i) => {
                pos = Some(p + i + 1);
                Some(&text[p..p + i])
            }
            None => {
                pos = None;
                Some(&text[p..])
            }
        }
    })
}

/// The body's line index at one revision (one mark per few hundred lines: cheap to clone), to
/// read the lines of that revision's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineMarks(LineIndex);

impl LineMarks {
    /// The index of `text`, built by scanning it.
    pub fn of(text: &[u8]) -> Self {
        LineMarks(LineIndex::build(text))
    }

    /// The lines of `text`, the bytes this index was taken with, from line `first` on.
    pub fn lines_from<'t>(&self, text: &'t [u8], first: usize) -> impl Iterator<Item = &'t [u8]> {
        lines_from(&self.0, text, first)
    }

    /// Number of lines (LFs + 1).
    pub fn line_count(&self) -> usize {
        self.0.lines
    }
}

/// Line starts of the body at intervals, to find line N (and the line of byte N) without
/// scanning from the top. Kept up to date edit by edit.
#[derive(Clone, Debug, PartialEq, Eq)]
struct LineIndex {
    /// (line number, byte offset of its start), sorted; always starts with (0, 0).
    marks: Vec<(usize, usize)>,
    /// Number of lines (newlines + 1).
    lines: usize,
}

/// Lines between index marks.
#[cfg(not(test))]
const STRIDE: usize = 512;
/// Small in unit tests, so edits cross many marks.
#[cfg(test)]
const STRIDE: usize = 8;

impl LineIndex {
    fn build(text: &[u8]) -> Self {
        let mut marks = vec![(0, 0)];
        marks.extend(Self::marks_in(text, 0, 0, text.len()));
        LineIndex {
            marks,
            lines: 1 + memchr::memchr_iter(b'\n', text).count(),
        }
    }

    /// Marks for every line numbered a multiple of STRIDE that starts in `start+1..=end`, counting
    /// from `line` starting at `start`.
    fn marks_in(text: &[u8], line: usize, start: usize, end: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut n = line;
        for i in memchr::memchr_iter(b'\n', &text[start..end]) {
            n += 1;
            if n.is_multiple_of(STRIDE) {
                out.push((n, start + i + 1));
            }
        }
        out
    }

    /// After `removed` at `at` was replaced by `inserted_len` bytes (text is the new body).
    fn edit(&mut self, text: &[u8], at: usize, removed: &[u8], inserted_len: usize) {
        let removed_nl = memchr::memchr_iter(b'\n', removed).count();
        let inserted_nl = memchr::memchr_iter(b'\n', &text[at..at + inserted_len]).count();
        let old_end = at + removed.len();
        // Marks at or before `at` stay; marks whose preceding LF was removed go; later ones move.
        let keep = self.marks.partition_point(|&(_, o)| o <= at);
        let after = self.marks.partition_point(|&(_, o)| o <= old_end);
        let mut tail: Vec<(usize, usize)> = self.marks[after..]
            .iter()
            .map(|&(l, o)| {
                (
                    l + inserted_nl - removed_nl,
                    o + inserted_len - removed.len(),
                )
            })
            .collect();
        self.marks.truncate(keep);
        // Re-mark the stretch between the last kept mark and the next moved one.
        let (l0, o0) = *self.marks.last().expect("(0, 0) is always kept");
        let stop = tail
            .first()
            .map_or(text.len(), |&(_, o)| o.saturating_sub(1).max(o0));
        self.marks
            .extend(Self::marks_in(text, l0, o0, stop.min(text.len())));
        self.marks.append(&mut tail);
        self.lines = self.lines + inserted_nl - removed_nl;
    }

    /// Byte offset where line `n` starts (n < lines).
    fn line_start(&self, text: &[u8], n: usize) -> usize {
        let i = self.marks.partition_point(|&(l, _)| l <= n) - 1;
        let (l, o) = self.marks[i];
        if l == n {
            return o;
        }
        let skip = n - l - 1;
        memchr::memchr_iter(b'\n', &text[o..])
            .nth(skip)
            .map_or(text.len(), |i| o + i + 1)
    }

    /// The line that byte `offset` is on.
    fn line_of(&self, text: &[u8], offset: usize) -> usize {
        let i = self.marks.partition_point(|&(_, o)| o <= offset) - 1;
        let (l, o) = self.marks[i];
        l + memchr::memchr_iter(b'\n', &text[o..offset.min(text.len())]).count()
    }
}

/// The body is searched with the workbench's one search (`widgets::search`): the regex runs
/// over the whole body, the widget highlights the matches in its window.
impl super::search::Searchable for BodyEditor {
    fn set_search(&mut self, pattern: &str) -> Result<(), regex::Error> {
        self.set_search_pattern(pattern)
    }
    fn find(&mut self, back: bool, at_current: bool) -> bool {
        if back {
            self.search_back(at_current)
        } else {
            self.search_forward(at_current)
        }
    }
    /// Which match the cursor is on (from 1) of how many the whole body holds.
    fn position(&self) -> Option<(usize, usize)> {
        let re = self.search.as_ref()?;
        super::search::position_in(re, &self.text, self.cursor_offset())
    }
}

#[cfg(test)]
#[path = "body_editor_tests.rs"]
mod tests;
