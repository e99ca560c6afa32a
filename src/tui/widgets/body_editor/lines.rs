//! The body's line index: line starts at intervals, kept up to date edit by edit, to find line
//! N (and the line of byte N) without scanning from the top; and its snapshot the signed body's
//! lines are read through.

/// The lines of `text` (indexed by `index`) from line `first` on, without their LF.
pub(super) fn lines_from<'t>(
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
pub struct LineMarks(pub(super) LineIndex);

impl LineMarks {
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
pub(super) struct LineIndex {
    /// (line number, byte offset of its start), sorted; always starts with (0, 0).
    pub(super) marks: Vec<(usize, usize)>,
    /// Number of lines (newlines + 1).
    pub(super) lines: usize,
}

/// Lines between index marks.
#[cfg(not(test))]
const STRIDE: usize = 512;
/// Small in unit tests, so edits cross many marks.
#[cfg(test)]
const STRIDE: usize = 8;

impl LineIndex {
    pub(super) fn build(text: &[u8]) -> Self {
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
    pub(super) fn edit(&mut self, text: &[u8], at: usize, removed: &[u8], inserted_len: usize) {
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
    pub(super) fn line_start(&self, text: &[u8], n: usize) -> usize {
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
    pub(super) fn line_of(&self, text: &[u8], offset: usize) -> usize {
        let i = self.marks.partition_point(|&(_, o)| o <= offset) - 1;
        let (l, o) = self.marks[i];
        l + memchr::memchr_iter(b'\n', &text[o..offset.min(text.len())]).count()
    }
}
