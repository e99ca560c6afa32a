//! The Response panel of the request view: the answer (its headers, then its body, formatted
//! when ready) or, after the "as sent" key, the request that answer is for as the engine put it
//! on the wire (request line, headers, body: `ResponseView::sent`, never rebuilt from the
//! fields). Either is searched with the workbench's one search (`widgets::search`): the same
//! prompt, keys and "n of m" as the body.
//!
//! The panel scrolls by lines (a header, a body line), each wrapped between characters.

use std::ops::Range;
use std::sync::Arc;

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::keys::{Action, KEYS};
use super::state::{PaneKey, PaneSearch, RequestState};
use crate::tui::model::{FormattedBody, ResponseView};
use crate::tui::theme::Theme;
use crate::tui::widgets::search::{Searchable, COUNT_LIMIT};
use crate::tui::widgets::text::{
    clip, clip_marked, json_line, styled_words, wrap_chars, wrap_spans, wrap_words,
};

/// The scrolled text of the panel: `head` lines (each with the length of its `Name: ` label,
/// 0 for none), then the body's lines.
pub struct PaneText {
    pub head: Vec<(String, usize)>,
    pub body: Arc<FormattedBody>,
    /// The body is pretty-printed JSON (highlighted).
    pub formatted: bool,
}

impl PaneText {
    pub fn len(&self) -> usize {
        self.head.len() + self.body.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Line `i` (head lines first).
    pub fn line(&self, i: usize) -> &str {
        match self.head.get(i) {
            Some((l, _)) => l,
            None => self
                .body
                .lines
                .get(i - self.head.len())
                .map_or("", String::as_str),
        }
    }
}

/// The panel's text for the response shown (None without one).
pub fn pane_text(req: &RequestState) -> Option<(PaneKey, PaneText)> {
    let r = req.response.as_ref()?;
    if req.show_sent {
        let s = r.sent.as_ref()?;
        let mut head = vec![(format!("{} {}", s.method, s.url), 0)];
        head.extend(
            s.headers
                .iter()
                .map(|(n, v)| (format!("{n}: {v}"), n.len() + 2)),
        );
        // Not in the engine's record: the headers the HTTP client adds on its own, as the
        // sending code computes them.
        head.push(("(added by the HTTP client, not signed:)".to_string(), 0));
        head.extend(
            crate::engine::added_headers(&s.url, &s.headers, s.body.len())
                .into_iter()
                .map(|(n, v)| (format!("{n}: {v}"), n.len() + 2)),
        );
        let text = PaneText {
            head,
            body: s.lines.clone(),
            formatted: false,
        };
        return Some(((r.id, false, true), text));
    }
    let mut head: Vec<(String, usize)> = r
        .headers
        .iter()
        .map(|(n, v)| (format!("{n}: {v}"), n.len() + 2))
        .collect();
    let (body, formatted) = match &r.formatted {
        Some(f) => (f.clone(), true),
        None => (r.raw.clone(), false),
    };
    head.push((
        if formatted || !body.json {
            String::new()
        } else {
            "(raw; formatting…)".to_string()
        },
        0,
    ));
    Some((
        (r.id, formatted, false),
        PaneText {
            head,
            body,
            formatted,
        },
    ))
}

/// Find every match of the search's pattern in `text` again (after it changed: a new
/// response, its formatted body, the other view of it).
fn refind(s: &mut PaneSearch, key: PaneKey, text: &PaneText) {
    s.matches.clear();
    s.current = None;
    s.key = Some(key);
    let Some(re) = &s.re else {
        return;
    };
    'lines: for i in 0..text.len() {
        for m in re.find_iter(text.line(i).as_bytes()) {
            if m.start() == m.end() {
                continue;
            }
            s.matches.push((i, m.range()));
            if s.matches.len() >= COUNT_LIMIT {
                break 'lines;
            }
        }
    }
}

/// The matches in line `i` and whether each is the current one.
fn in_line(s: &PaneSearch, i: usize) -> Vec<(Range<usize>, bool)> {
    let from = s.matches.partition_point(|(l, _)| *l < i);
    s.matches[from..]
        .iter()
        .enumerate()
        .take_while(|(_, (l, _))| *l == i)
        .map(|(k, (_, r))| (r.clone(), s.current == Some(from + k)))
        .collect()
}

/// The panel as a search target: moving to a match scrolls the panel to its line.
pub struct PaneTarget<'a> {
    pub req: &'a mut RequestState,
}

impl PaneTarget<'_> {
    /// The panel's text, the matches found in it again when it changed since.
    fn fresh(&mut self) -> Option<PaneText> {
        let (key, text) = pane_text(self.req)?;
        if self.req.pane_search.key != Some(key) {
            refind(&mut self.req.pane_search, key, &text);
        }
        Some(text)
    }
}

impl Searchable for PaneTarget<'_> {
    fn set_search(&mut self, pattern: &str) -> Result<(), regex::Error> {
        let s = &mut self.req.pane_search;
        s.re = None;
        s.key = None;
        let result = if pattern.is_empty() {
            Ok(())
        } else {
            regex::bytes::Regex::new(pattern).map(|re| s.re = Some(re))
        };
        self.fresh();
        result
    }

    fn find(&mut self, back: bool, at_current: bool) -> bool {
        if self.fresh().is_none() {
            return false;
        }
        let s = &mut self.req.pane_search;
        let n = s.matches.len();
        if n == 0 {
            return false;
        }
        // From the current match, or from the top of the panel when there is none yet.
        let next = match s.current {
            Some(c) if at_current => c,
            Some(c) if back => (c + n - 1) % n,
            Some(c) => (c + 1) % n,
            None => {
                let top = self.req.detail_scroll;
                let first = s.matches.partition_point(|(l, _)| *l < top) % n;
                if back {
                    (first + n - 1) % n
                } else {
                    first
                }
            }
        };
        s.current = Some(next);
        let line = s.matches[next].0;
        // Its line on screen: kept where it is when shown, else one line under the top.
        let page = self.req.detail_page.get().max(1);
        let top = self.req.detail_scroll;
        if line < top || line > top + page {
            self.req.detail_scroll = line.saturating_sub(1);
        }
        true
    }

    fn position(&self) -> Option<(usize, usize)> {
        let s = &self.req.pane_search;
        s.current.map(|c| (c + 1, s.matches.len()))
    }
}

/// Draw the Response panel's inside (`area`).
pub fn draw(frame: &mut Frame, area: Rect, req: &RequestState, theme: &Theme) {
    let w = area.width as usize;
    let h = area.height as usize;
    let Some(r) = &req.response else {
        let text = if req.sending {
            "sending…".to_string()
        } else {
            format!(
                "No response yet: {} sends the request.",
                KEYS.label_of(Action::Send)
            )
        };
        frame.render_widget(
            Paragraph::new(Span::styled(text, theme.dim())).wrap(Wrap { trim: false }),
            area,
        );
        return;
    };
    let mut lines = top_rows(req, r, w, theme);
    let Some((key, text)) = pane_text(req) else {
        lines.truncate(h);
        frame.render_widget(Paragraph::new(lines), area);
        return;
    };
    let search = (req.pane_search.key == Some(key)).then_some(&req.pane_search);
    let avail = h.saturating_sub(lines.len()).max(1);
    // The panel scrolls by lines until its last line is on its last row (from the end, only
    // the lines that fit are wrapped).
    let mut tail_rows = 0;
    let mut fit = 0;
    for i in (0..text.len()).rev() {
        tail_rows += wrap_chars(&clip(text.line(i), w.saturating_mul(avail)), w).len();
        if tail_rows > avail {
            break;
        }
        fit += 1;
    }
    req.detail_max.set(text.len().saturating_sub(fit.max(1)));
    let skip = req.detail_scroll.min(req.detail_max.get());
    let room = h.saturating_sub(lines.len());
    // The lines wholly on screen: PageDown moves by them less one.
    let mut whole = 0usize;
    let mut rows = 0;
    'lines: for i in skip..text.len() {
        if rows >= room {
            break;
        }
        let full = text.line(i);
        // Only the text that can be on screen is wrapped (a line can be megabytes long).
        let t = clip(full, w.saturating_mul(room.max(1)));
        let chunks = styled_chunks(&t, i, &text, search, w, theme);
        if rows + chunks.len() <= room && t.len() == full.len() {
            whole += 1;
        }
        for chunk in chunks {
            if rows >= room {
                break 'lines;
            }
            rows += 1;
            lines.push(chunk);
        }
    }
    req.detail_page.set(whole.saturating_sub(1).max(1));
    lines.truncate(h);
    frame.render_widget(Paragraph::new(lines), area);
}

/// The rows that stay on top: the status (it wraps: a job id does not fit 80 columns), or
/// what the as-sent view is.
fn top_rows(req: &RequestState, r: &ResponseView, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    let status_style = if r.status < 300 {
        theme.ok()
    } else if r.status < 500 {
        theme.warn()
    } else {
        theme.error()
    };
    let toggle = KEYS.label_of(Action::ShowSent);
    if req.show_sent {
        let what = match &r.sent {
            Some(_) => format!("As sent for this {} · {toggle} the answer", r.status),
            None => format!("Not known what was sent · {toggle} the answer"),
        };
        styled_words(&what, w, theme.dim())
    } else {
        let mut lines = wrap_spans(
            &[
                Span::styled(format!("{} ", r.status), status_style),
                Span::styled(
                    format!("{:.1} ms · {} bytes", r.elapsed_ms, r.body_len),
                    theme.dim(),
                ),
                Span::styled(
                    r.job_id
                        .as_ref()
                        .map(|j| format!(" · job {j}"))
                        .or_else(|| r.code.as_ref().map(|c| format!(" · {c}")))
                        .unwrap_or_default(),
                    status_style,
                ),
            ],
            w as u16,
        );
        match (&r.message, &r.problems) {
            // The problems follow, each on its row: the message (which names the first) takes
            // one, so they are all on screen at 80x24.
            (Some(m), Some(_)) => lines.push(Line::from(clip_marked(m, w))),
            (Some(m), None) => {
                for chunk in wrap_words(m, w) {
                    lines.push(Line::from(chunk));
                }
            }
            (None, _) => {}
        }
        lines.extend(problem_rows(r, w, theme));
        lines
    }
}

/// Most problems of an answer listed above its body (the body below lists every one).
const PROBLEM_ROWS: usize = 3;

/// The answer's first problems, one row each (cut to the width), and how many more.
fn problem_rows(r: &ResponseView, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    let Some(problems) = &r.problems else {
        return Vec::new();
    };
    let mut rows: Vec<Line<'static>> = problems
        .lines
        .iter()
        .take(PROBLEM_ROWS)
        .map(|p| {
            let style = if p.starts_with("error") {
                theme.error()
            } else {
                theme.warn()
            };
            // The answer may come from another server: nothing in it acts on the terminal.
            let p = crate::core::visible::escape_hidden(p);
            Line::from(Span::styled(clip_marked(&p, w), style))
        })
        .collect();
    let more = problems.lines.len().saturating_sub(PROBLEM_ROWS) + problems.more;
    if more > 0 {
        let text = format!("… {more} more problems in the answer below");
        rows.push(Line::from(Span::styled(clip_marked(&text, w), theme.dim())));
    }
    rows
}

/// Line `i` of the panel (`t`: its text, cut to what can be on screen) wrapped into rows of `w`
/// characters: a header's name as a label, a formatted body's JSON highlighted, the search's
/// matches marked over either.
fn styled_chunks(
    t: &str,
    i: usize,
    text: &PaneText,
    search: Option<&PaneSearch>,
    w: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let label = text.head.get(i).map_or(0, |(_, n)| *n);
    let json = i >= text.head.len() && text.formatted && text.body.json;
    // The style of each byte: label, JSON colours, then the matches over them.
    let mut styles: Vec<Style> = vec![Style::default(); t.len()];
    if label > 0 {
        for s in styles.iter_mut().take(label.min(t.len())) {
            *s = theme.label();
        }
    }
    if json {
        let mut at = 0;
        for span in json_line(t, theme).spans {
            let end = (at + span.content.len()).min(t.len());
            for s in &mut styles[at..end] {
                *s = span.style;
            }
            at = end;
        }
    }
    if let Some(search) = search {
        for (r, current) in in_line(search, i) {
            let style = if current {
                theme.search_current()
            } else {
                theme.search_match()
            };
            for s in styles.iter_mut().take(r.end.min(t.len())).skip(r.start) {
                *s = s.patch(style);
            }
        }
    }
    // Rows of `w` characters, each cut into runs of one style.
    let mut out = Vec::new();
    let mut at = 0;
    for chunk in wrap_chars(t, w) {
        let mut spans: Vec<Span<'static>> = Vec::new();
        let mut run = String::new();
        let mut run_style = None;
        for c in chunk.chars() {
            let style = styles.get(at).copied().unwrap_or_default();
            if run_style != Some(style) && !run.is_empty() {
                spans.push(Span::styled(
                    std::mem::take(&mut run),
                    run_style.unwrap_or_default(),
                ));
            }
            run_style = Some(style);
            run.push(c);
            at += c.len_utf8();
        }
        if !run.is_empty() {
            spans.push(Span::styled(run, run_style.unwrap_or_default()));
        }
        out.push(Line::from(spans));
    }
    out
}
