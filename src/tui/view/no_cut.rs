//! The no-cut check every view's sweep uses (`no_cut_tests.rs`): draw a view on a TestBackend
//! and report text that is cut with no way to read it.
//!
//! Two rules, checked on every frame the check draws:
//! - **Edge**: in each pane (the inside of a bordered box, its title rows, or a screen row
//!   outside every box), a word that runs into the pane's right edge (its last two cells are word characters) with
//!   no `…`/`›`/`→` indicator is cut, unless it is a whole word of a string the caller says is
//!   on this view (text that wrapped exactly at the edge), or the row and the next one are
//!   pieces of such a string (text wrapped between characters; on a pane's last row, whose
//!   next piece is below where the pane scrolls, the row alone), or the next row starts with
//!   the wrap gutter `↪`.
//! - **Known strings**: each string the caller takes from the model must be readable in some
//!   pane, on the first frame or on one drawn after pressing the pane's scroll keys. A pane's
//!   text is its rows joined, read without blanks (so text wrapped at spaces or between
//!   characters reads the same); the wrap gutter `↪` is not text.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::tui::message::Message;
use crate::tui::test_util::TestApp;

const TOP_LEFT: &[char] = &['┌', '╭', '┏', '╔'];
const TOP_RIGHT: &[char] = &['┐', '╮', '┓', '╗'];
const BOTTOM_LEFT: &[char] = &['└', '╰', '┗', '╚'];
const VERTICAL: &[char] = &['│', '┃', '║'];
/// Characters that say "there is more to the right" (or a wrap continues).
const INDICATORS: &[char] = &['…', '›', '»', '→', '▸', '▶', '↪', '⋯'];

fn cell(buf: &Buffer, x: u16, y: u16) -> char {
    buf[(x, y)].symbol().chars().next().unwrap_or(' ')
}

/// The inner areas of the bordered boxes on screen.
pub fn boxes(buf: &Buffer) -> Vec<Rect> {
    let a = buf.area;
    let mut out = vec![];
    for y in a.y..a.y + a.height {
        for x in a.x..a.x + a.width {
            if !TOP_LEFT.contains(&cell(buf, x, y)) {
                continue;
            }
            let Some(right) =
                (x + 1..a.x + a.width).find(|&r| TOP_RIGHT.contains(&cell(buf, r, y)))
            else {
                continue;
            };
            let mut bottom = None;
            for b in y + 1..a.y + a.height {
                let c = cell(buf, x, b);
                if BOTTOM_LEFT.contains(&c) {
                    bottom = Some(b);
                    break;
                }
                if !VERTICAL.contains(&c) {
                    break;
                }
            }
            let Some(bottom) = bottom else { continue };
            if right > x + 1 && bottom > y + 1 {
                out.push(Rect::new(x + 1, y + 1, right - x - 1, bottom - y - 1));
            }
        }
    }
    out
}

/// Every pane: the boxes' insides, then each screen row's cells outside every box (one pane
/// per row, ending at the screen's right edge).
pub fn panes(buf: &Buffer) -> Vec<Rect> {
    let a = buf.area;
    let inner = boxes(buf);
    let mut out = inner.clone();
    for y in a.y..a.y + a.height {
        let covered = |x: u16| {
            inner.iter().any(|b| {
                b.x.saturating_sub(1) <= x
                    && x <= b.x + b.width
                    && b.y.saturating_sub(1) <= y
                    && y <= b.y + b.height
            })
        };
        if (a.x..a.x + a.width).all(covered) {
            continue;
        }
        // The free cells at the row's right end (boxes on its left are left alone).
        let start = (a.x..a.x + a.width)
            .rev()
            .take_while(|&x| !covered(x))
            .last();
        if let Some(start) = start {
            out.push(Rect::new(start, y, a.x + a.width - start, 1));
        }
    }
    out
}

/// Box borders whose title runs into the corner: the cell before a box's top or bottom right
/// corner is neither border, blank nor a "more" mark, so the title was cut there silently
/// (ratatui cuts a title at the corner without a mark). Each as `row: border text`.
pub fn title_cuts(buf: &Buffer) -> Vec<String> {
    let mut out = vec![];
    for b in boxes(buf) {
        for y in [b.y - 1, b.y + b.height] {
            let before_corner = cell(buf, b.x + b.width - 1, y);
            let border = matches!(before_corner, '─' | '━' | '═' | ' ');
            if !border && !INDICATORS.contains(&before_corner) {
                let r = Rect::new(b.x - 1, y, b.width + 2, 1);
                out.push(format!("{y}: {}", row_text(buf, r, y)));
            }
        }
    }
    out
}

fn row_text(buf: &Buffer, r: Rect, y: u16) -> String {
    (r.x..r.x + r.width).map(|x| buf[(x, y)].symbol()).collect()
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The pane's text without its blanks (rows joined: wrapped at spaces or between characters,
/// the text reads the same), the wrap gutter `↪` left out.
fn pane_text(buf: &Buffer, r: Rect) -> String {
    (r.y..r.y + r.height)
        .flat_map(|y| row_text(buf, r, y).chars().collect::<Vec<_>>())
        .filter(|c| !c.is_whitespace() && *c != '↪')
        .collect()
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The last run of non-blank characters of `row` and the first of `next` (after a wrap gutter).
fn joint(row: &str, next: &str) -> String {
    let tail: String = {
        let t: Vec<char> = row
            .chars()
            .rev()
            .take_while(|c| !c.is_whitespace())
            .collect();
        t.into_iter().rev().collect()
    };
    let head: String = next
        .replace('↪', " ")
        .trim_start()
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    tail + &head
}

/// Words touching a pane's right edge that are not whole (see the module's rules): each as
/// "row N: ...the row's text" for the report. `whole` is the text the view shows (whole words
/// of it may end exactly at the edge; a piece of it may continue on the next row); only panes
/// inside `region` are read when it is given (a popup's box).
pub fn edge_cuts(buf: &Buffer, whole: &[String], region: Option<Rect>) -> Vec<String> {
    let whole_words: std::collections::HashSet<&str> = whole
        .iter()
        .flat_map(|s| s.split(|c: char| !is_word(c)))
        .filter(|w| !w.is_empty())
        .collect();
    let squeezed: Vec<String> = whole
        .iter()
        .map(|s| s.chars().filter(|c| !c.is_whitespace()).collect())
        .collect();
    let mut out = vec![];
    // The boxes' border rows too: a title running into a corner is cut.
    let borders = boxes(buf).into_iter().flat_map(|b| {
        [
            Rect::new(b.x, b.y - 1, b.width, 1),
            Rect::new(b.x, b.y + b.height, b.width, 1),
        ]
    });
    for p in panes(buf).into_iter().chain(borders) {
        if p.width < 3 || region.is_some_and(|r| r.intersection(p) != p) {
            continue;
        }
        for y in p.y..p.y + p.height {
            let row = row_text(buf, p, y);
            let chars: Vec<char> = row.chars().collect();
            let n = chars.len();
            let (last, before) = (chars[n - 1], chars[n - 2]);
            if !(is_word(last) && is_word(before)) {
                continue;
            }
            let start = chars
                .iter()
                .rposition(|c| !is_word(*c))
                .map_or(0, |i| i + 1);
            let token: String = chars[start..].iter().collect();
            // An indicator right before the word (e.g. "…abc" scrolled) still says "more".
            if chars[..start]
                .iter()
                .rev()
                .take(2)
                .any(|c| INDICATORS.contains(c))
            {
                continue;
            }
            if whole_words.contains(token.as_str()) {
                continue;
            }
            let next = if y + 1 < p.y + p.height {
                row_text(buf, p, y + 1)
            } else {
                String::new()
            };
            // A wrap the view marks (the `↪` gutter).
            if next.chars().take(16).any(|c| c == '↪') {
                continue;
            }
            // A piece of the text that goes on on the next row.
            let j = joint(&row, &next);
            if j.chars().count() > joint(&row, "").chars().count()
                && squeezed.iter().any(|s| s.contains(&j))
            {
                continue;
            }
            // On the pane's last row the rest may be below, where the pane scrolls: the row
            // must then be a piece of the text (at least 8 characters of it).
            let row_squeezed: String = row.chars().filter(|c| !c.is_whitespace()).collect();
            if y + 1 == p.y + p.height
                && p.height > 1
                && row_squeezed.chars().count() >= 8
                && squeezed.iter().any(|s| s.contains(&row_squeezed))
            {
                continue;
            }
            out.push(format!(
                "row {y}: {:?} runs into the edge at column {}",
                row.trim_start(),
                p.x + p.width
            ));
        }
    }
    out
}

/// The known strings that no pane of this frame shows (blanks aside).
pub fn unreadable<'a>(buf: &Buffer, known: &'a [String]) -> Vec<&'a String> {
    let texts: Vec<String> = panes(buf).into_iter().map(|p| pane_text(buf, p)).collect();
    known
        .iter()
        .filter(|k| {
            let k = squeeze(k);
            !texts.iter().any(|t| t.contains(&k))
        })
        .collect()
}

/// Where a popup or a prompt is drawn: the cells that change when it is taken away (None when
/// neither is open). Under it the view is hidden on purpose, not cut.
fn overlay(app: &mut TestApp, with: &Buffer) -> Option<Rect> {
    if app.popup.is_none() && app.request.prompt.is_none() {
        return None;
    }
    let popup = app.popup.take();
    let prompt = app.request.prompt.take();
    let without = app.draw().clone();
    app.popup = popup;
    app.request.prompt = prompt;
    let a = with.area;
    let mut r: Option<Rect> = None;
    for y in a.y..a.y + a.height {
        for x in a.x..a.x + a.width {
            if with[(x, y)].symbol() != without[(x, y)].symbol() {
                let c = Rect::new(x, y, 1, 1);
                r = Some(r.map_or(c, |r| r.union(c)));
            }
        }
    }
    r
}

/// One frame's findings: new edge cuts go to `problems`, `missing` keeps the known strings
/// this frame does not show either; returns the screen as text.
fn look(
    app: &mut TestApp,
    whole: &[String],
    problems: &mut Vec<String>,
    missing: &mut Vec<String>,
) -> String {
    let buf = app.draw().clone();
    let region = overlay(app, &buf);
    for c in edge_cuts(&buf, whole, region) {
        if !problems.contains(&c) {
            problems.push(c);
        }
    }
    *missing = unreadable(&buf, missing).into_iter().cloned().collect();
    crate::tui::test_util::buffer_lines(&buf).join("\n")
}

/// Draw the app, then handle each of `scroll` in turn (drawing after each): report every edge
/// cut seen on any frame and every `known` string seen on none. `shown` is more text the view
/// shows, not necessarily whole (for the edge rule). Empty when nothing is cut.
pub fn cut_text(
    app: &mut TestApp,
    known: &[String],
    shown: &[String],
    scroll: Vec<Message>,
) -> Vec<String> {
    let whole: Vec<String> = known.iter().chain(shown).cloned().collect();
    let mut problems: Vec<String> = vec![];
    let mut missing: Vec<String> = known.to_vec();
    let first = look(app, &whole, &mut problems, &mut missing);
    for m in scroll {
        app.update(m);
        look(app, &whole, &mut problems, &mut missing);
    }
    for m in missing {
        problems.push(format!("{m:?} is on no pane of any frame"));
    }
    if !problems.is_empty() {
        let (w, h) = app.size;
        problems.push(format!("{w}x{h}, first frame:\n{first}"));
    }
    problems
}

/// `n` messages made by `m` (key presses to scroll with).
pub fn times(m: impl Fn() -> Message, n: usize) -> Vec<Message> {
    (0..n).map(|_| m()).collect()
}

/// The strings of `s` as owned strings (the known strings of a check).
pub fn known(s: &[&str]) -> Vec<String> {
    s.iter().map(|s| s.to_string()).collect()
}
