//! The signing-text pane: the canonical text of the signed request, line by line with its labels
//! (`docs/signing.md`), the lines the chosen form writes otherwise marked with their standard
//! value under them, long lines wrapped, the body read through the signed body's line index
//! (only the lines on screen), following the body's cursor while the body is edited.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

use super::labels::{compact_label, form_title, visible_spans};
use super::state::{signed_view, Field, RequestState};
use crate::core::visible::escape_visible;
use crate::core::{LineLabel, SigningForm};
use crate::tui::model::SignedView;
use crate::tui::theme::Theme;
use crate::tui::widgets::body_editor::floor_char;
use crate::tui::widgets::pane;
use crate::tui::widgets::text::{clip, fit_title, styled_words, text_width, wrap_visible};

/// Body lines longer than this are shown cut (with the count of hidden bytes): drawing never
/// walks a whole megabyte line.
const SHOW_LINE_BYTES: usize = 2048;

/// Width of the label column of the canonical panel (wide screens / narrow screens).
const LABEL_W: usize = 13;

const LABEL_W_COMPACT: usize = 7;

/// One logical line of the canonical panel: label (first row only), text, whether it ends in LF.
struct CanonRow {
    label: Option<LineLabel>,
    text: String,
    lf: bool,
    highlighted: bool,
    /// The line as the standard form writes it, when the chosen form writes it otherwise
    /// (shown on a row of its own under the line, which is marked `*`).
    standard: Option<String>,
}

/// The rows of a logical line: its wrapped text, and the row of its standard value.
fn canon_height(row: &CanonRow, text_w: usize, empty_body: bool) -> usize {
    canon_chunks(row, text_w, empty_body).len() + usize::from(row.standard.is_some())
}

/// The canonical panel: the text of the signed request (`signed`), never one built apart from
/// the fields. While a newer signature is on its way the title says "updating…".
pub(super) fn draw_canonical(frame: &mut Frame, area: Rect, req: &RequestState, theme: &Theme) {
    let signed = signed_view(req);
    let b = canonical_block(area, req, signed, theme);
    let inner = b.inner(area);
    frame.render_widget(b, area);
    if inner.height == 0 || inner.width == 0 {
        return;
    }
    let Some(s) = signed else {
        let lines = unsigned_lines(req, inner.width, theme);
        frame.render_widget(Paragraph::new(lines), inner);
        return;
    };
    let highlighted = req.focus.canonical_lines();
    let canonical = s.canonical();
    let head_lines = canonical.lines();
    let standard = s.standard_lines();
    let body: &[u8] = &s.spec().body;
    let marks = &s.body_marks;
    let body_count = marks.line_count();
    let total = 7 + body_count;
    let compact = inner.width < 60;
    let label_w = if compact { LABEL_W_COMPACT } else { LABEL_W };
    let text_w = (inner.width as usize).saturating_sub(label_w).max(1);
    let height = inner.height as usize;
    // The text of logical line `idx` (head lines, then body lines read through the signed
    // body's line index; `body_line` is that body line's bytes).
    let row_of = |idx: usize, body_line: &[u8]| -> CanonRow {
        if idx < 7 {
            let line = head_lines[idx];
            CanonRow {
                label: Some(line.label),
                text: escape_visible(line.bytes),
                lf: true,
                highlighted: highlighted.contains(&line.label),
                standard: standard
                    .iter()
                    .find(|(l, _)| *l == line.label)
                    .map(|(_, t)| escape_visible(t.as_bytes())),
            }
        } else {
            let i = idx - 7;
            let line = body_line;
            let shown = if line.len() > SHOW_LINE_BYTES {
                let cut = floor_char(line, SHOW_LINE_BYTES);
                format!(
                    "{}… (+{} bytes)",
                    escape_visible(&line[..cut]),
                    line.len() - cut
                )
            } else {
                escape_visible(line)
            };
            CanonRow {
                label: (i == 0).then_some(LineLabel::Body),
                text: shown,
                lf: i + 1 < body_count,
                highlighted: highlighted.contains(&LineLabel::Body),
                standard: None,
            }
        }
    };
    let first = canonical_first_line(req, s, text_w, height, &row_of);
    let mut rows: Vec<Line> = Vec::with_capacity(height);
    let mut idx = first;
    // Only the body lines on screen are read (through the signed body's line index).
    let mut body_lines = marks.lines_from(body, first.saturating_sub(7));
    while rows.len() < height && idx < total {
        let line = if idx >= 7 {
            body_lines.next().unwrap_or_default()
        } else {
            &[]
        };
        let row = row_of(idx, line);
        let empty_body = idx == 7 && body.is_empty();
        push_canon_row(
            &mut rows,
            row,
            (label_w, compact),
            text_w,
            height,
            theme,
            empty_body,
        );
        idx += 1;
    }
    frame.render_widget(Paragraph::new(rows), inner);
}

/// The canonical panel's box: the bytes signed in its title ("updating…" while a newer
/// signature is on its way) and the form it is signed in when it is not the standard one.
fn canonical_block<'a>(
    area: Rect,
    req: &RequestState,
    signed: Option<&SignedView>,
    theme: &Theme,
) -> Block<'a> {
    let updating = if req.sign.updating() {
        " · updating…"
    } else {
        ""
    };
    let mut title = match signed {
        Some(s) => vec![Span::styled(
            format!(
                " Canonical text ({} bytes signed{updating}) ",
                s.signed().headers.canonical_head().len() + s.spec().body.len()
            ),
            theme.title(),
        )],
        None => vec![Span::styled(" Canonical text ", theme.title())],
    };
    // The form it is signed in, when it is not the standard one (Alt-F switches): beside the
    // title when both fit, else on the bottom border (the legend explains the `*` rows, so it is
    // never the part cut), in a short form when the long one does not fit there either.
    let form = signed.map_or(req.form, |s| s.form());
    let mut bottom = Line::from("");
    if form != SigningForm::Standard {
        let room = (area.width as usize).saturating_sub(2);
        let toggle = super::keys::KEYS.label_of(super::keys::Action::ToggleForm);
        let long = format!(
            " {} form · * differs from standard · {toggle} ",
            form_title(form)
        );
        let used: usize = title.iter().map(|s| s.width()).sum();
        if used + text_width(&long) <= room {
            title.push(Span::styled(long, theme.warn()));
        } else {
            let short = format!(" {} form · * not standard · {toggle} ", form_title(form));
            let legend = if text_width(&long) <= room {
                long
            } else {
                short
            };
            bottom = Line::from(Span::styled(legend, theme.warn()));
        }
    }
    pane(fit_title(Line::from(title), area.width), false, theme)
        .title_bottom(fit_title(bottom, area.width))
}

/// With no signature to show (the canonical panel, the Headers tab): why (the signing error),
/// or that it is on its way.
pub(super) fn unsigned_lines(req: &RequestState, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let why = match &req.sign.result {
        Some(Err(e)) => format!("not signed: {e}"),
        _ => "signing…".to_string(),
    };
    styled_words(&why, usize::from(width), theme.warn())
}

/// Which logical line of the canonical panel comes first: while the body has focus, the latest
/// that still shows the cursor's line whole with the lines before it (long lines wrap over
/// several rows); else the scroll, kept from going past the last line's place at the bottom.
fn canonical_first_line(
    req: &RequestState,
    s: &SignedView,
    text_w: usize,
    height: usize,
    row_of: &dyn Fn(usize, &[u8]) -> CanonRow,
) -> usize {
    let body: &[u8] = &s.spec().body;
    let marks = &s.body_marks;
    let body_count = marks.line_count();
    let total = 7 + body_count;
    if req.focus == Field::Body && !req.normal_mode {
        let cur = 7 + req.body.cursor_line().min(body_count.saturating_sub(1));
        let mut start = cur.saturating_sub(height.saturating_sub(1));
        let mut body_lines = marks.lines_from(body, start.saturating_sub(7));
        let mut heights: Vec<usize> = (start..=cur)
            .map(|idx| {
                let line = if idx >= 7 {
                    body_lines.next().unwrap_or_default()
                } else {
                    &[]
                };
                canon_height(&row_of(idx, line), text_w, false)
            })
            .collect();
        let mut used: usize = heights.iter().sum();
        while used > height && start < cur {
            used -= heights.remove(0);
            start += 1;
        }
        start
    } else {
        // The last line stops at the pane's bottom (it never scrolls up into a blank pane):
        // the latest first line from which the lines to the end still fill the pane, found
        // from the end (only the lines that fit are read).
        let mut last_first = total.saturating_sub(1);
        let mut used = 0;
        while last_first > 0 {
            let idx = last_first;
            let line = if idx >= 7 {
                marks.lines_from(body, idx - 7).next().unwrap_or_default()
            } else {
                &[]
            };
            let h = canon_height(&row_of(idx, line), text_w, false);
            if used + h > height {
                last_first += 1;
                break;
            }
            used += h;
            last_first -= 1;
        }
        let last_first = last_first.min(total.saturating_sub(1));
        req.canon_max.set(last_first);
        req.canon_scroll.min(last_first)
    }
}

/// The rows one logical line of the canonical panel takes at `text_w` columns: its text wrapped
/// between visible units (an escape is never split) with room for its `\n` marker on the last
/// row (see [`wrap_visible`]). An empty body shows a note instead of text.
fn canon_chunks(row: &CanonRow, text_w: usize, empty_body: bool) -> Vec<String> {
    if empty_body {
        return wrap_visible(EMPTY_BODY_NOTE, text_w, 0);
    }
    wrap_visible(&row.text, text_w, if row.lf { LF_MARKER.len() } else { 0 })
}

/// The end of every line that ends in LF.
const LF_MARKER: &str = "\\n";

/// What the body line says when the body is empty.
const EMPTY_BODY_NOTE: &str = "(empty body: text ends after the Content-Type LF)";

/// The label column of a wrapped continuation: a wrap is told from a line end at a glance.
const WRAP_GUTTER: &str = "↪ ";

fn push_canon_row(
    rows: &mut Vec<Line<'static>>,
    row: CanonRow,
    (label_w, compact): (usize, bool),
    text_w: usize,
    height: usize,
    theme: &Theme,
    empty_body: bool,
) {
    let base = if row.highlighted {
        theme.highlight()
    } else {
        Style::default()
    };
    let chunks = canon_chunks(&row, text_w, empty_body);
    let n = chunks.len();
    // A line the chosen form writes otherwise than the standard form is marked `*`.
    let mark = if row.standard.is_some() { "*" } else { "" };
    for (k, chunk) in chunks.into_iter().enumerate() {
        if rows.len() >= height {
            return;
        }
        let label = match (k, row.label) {
            (0, Some(l)) if compact => {
                format!("{:<w$}", format!("{mark}{}", compact_label(l)), w = label_w)
            }
            (0, Some(l)) => format!("{:<w$}", format!("{mark}{}", l.as_str()), w = label_w),
            (0, None) => " ".repeat(label_w),
            _ => format!("{WRAP_GUTTER:>w$}", w = label_w),
        };
        let label_style = if k == 0 {
            theme.label()
        } else {
            theme.marker()
        };
        let mut spans = vec![Span::styled(label, label_style.patch(base))];
        if empty_body {
            spans.push(Span::styled(chunk, theme.dim().patch(base)));
        } else {
            spans.extend(visible_spans(&chunk, base, theme));
        }
        if k + 1 == n && row.lf && !empty_body {
            spans.push(Span::styled(LF_MARKER, theme.marker().patch(base)));
        }
        let mut line = Line::from(spans);
        if row.highlighted {
            line = line.style(base);
        }
        rows.push(line);
    }
    // Under a marked line: what the standard form signs there.
    if let Some(std_text) = row.standard {
        if rows.len() < height {
            let label = if compact { " std" } else { " standard" };
            rows.push(Line::from(vec![
                Span::styled(format!("{label:<label_w$}"), theme.dim()),
                Span::styled(clip(&format!("{std_text}{LF_MARKER}"), text_w), theme.dim()),
            ]));
        }
    }
}
