//! The body's changes: what the widget changed in its window spliced into the body (and
//! the line index), whole-body replacements and pastes, and undo / redo over the whole body
//! (one entry per change, a bounded amount of text).

use std::sync::Arc;

use super::{BodyEditor, Edit, UNDO_BYTES, UNDO_ENTRIES};
use crate::core::incremental::common_prefix_len;

impl BodyEditor {
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

    /// After the widget changed its text: splice the change into the body.
    pub(super) fn sync(&mut self) -> Option<usize> {
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
    pub(super) fn apply(&mut self, e: &Edit) {
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
