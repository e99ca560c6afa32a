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
//!
//! This file holds the editor's state and what it answers about the body and the cursor; the
//! rest is split by what it does: `edits.rs` (an edit spliced into the body, undo and redo),
//! `window.rs` (the window around the cursor and the moves past its edges), `keys.rs` (the keys
//! the editor takes before the widget), `search.rs` (the search over the whole body),
//! `lines.rs` (the line index and its snapshot) and `chars.rs` (UTF-8 positions).

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Arc;

use ratatui_textarea::TextArea;

mod chars;
mod edits;
mod keys;
mod lines;
mod search;
mod window;

pub(crate) use chars::floor_char;
pub use lines::LineMarks;
use lines::{lines_from, LineIndex};

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
}

#[cfg(test)]
#[path = "body_editor_tests.rs"]
mod tests;
