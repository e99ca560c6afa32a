//! The request view: fields, body editor, the labelled canonical text, the detail panel
//! (pipeline / headers / response / diff) and the signature line.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use super::labels::{compact_label, form_title, visible_spans};
use super::layout::{request_layout, RequestLayout};
use super::state::{Detail, Field, Prompt, RequestState, SearchIn};
use crate::core::visible::escape_visible;
use crate::core::{LineLabel, SigningForm};
use crate::tui::model::SignedView;
use crate::tui::theme::Theme;
use crate::tui::widgets::body_editor::floor_char;
use crate::tui::widgets::prompt::{self, PromptText};
use crate::tui::widgets::search;
use crate::tui::widgets::text::{
    clip, clip_marked, fit_title, styled_line, text_width, wrap_chars, wrap_spans, wrap_visible,
    wrap_words,
};

/// Body lines longer than this are shown cut (with the count of hidden bytes): drawing never
/// walks a whole megabyte line.
const SHOW_LINE_BYTES: usize = 2048;
/// Width of the label column of the canonical panel (wide screens / narrow screens).
const LABEL_W: usize = 13;
const LABEL_W_COMPACT: usize = 7;

/// Draw the request view on the whole `screen`; `cursor`: whether it may place the terminal
/// cursor (not while a popup covers it).
pub fn draw(frame: &mut Frame, screen: Rect, req: &RequestState, theme: &Theme, cursor: bool) {
    let l = request_layout(screen);
    draw_fields(frame, &l, req, theme, cursor);
    draw_body(frame, l.body, req, theme, cursor);
    draw_canonical(frame, l.canonical, req, theme);
    draw_detail(frame, l.detail, req, theme);
    draw_signature(frame, l.signature, req, theme);
    draw_prompt(frame, screen, req, theme);
}

/// The open prompt (save as, search), over the view.
fn draw_prompt(frame: &mut Frame, screen: Rect, req: &RequestState, theme: &Theme) {
    let (text, edit) = match &req.prompt {
        None => return,
        Some(Prompt::SaveAs(edit)) => (
            PromptText {
                title: " Save profile as ",
                lead: "name: ",
                hint: "Enter save · Esc cancel",
                width: 44,
            },
            edit,
        ),
        Some(Prompt::Search(within, b)) => {
            let title = match within {
                SearchIn::Body => " Search body (regex) ",
                SearchIn::Response if req.show_sent => " Search the request as sent (regex) ",
                SearchIn::Response => " Search response (regex) ",
            };
            // Where the current match is, before the keys (the keys go first when cut).
            let count = search::counter(b);
            let hint = if count.is_empty() {
                "Enter/Down next · Up previous · Esc close".to_string()
            } else {
                format!("{count} · Enter/Down next · Up previous · Esc close")
            };
            let text = PromptText {
                title,
                lead: "/",
                hint: &hint,
                width: 58,
            };
            prompt::draw(frame, screen, &text, &b.input, theme);
            return;
        }
        Some(Prompt::RequestName { action, edit }) => (
            PromptText {
                title: action.title(),
                lead: "name: ",
                hint: "Enter apply · Esc cancel",
                width: 50,
            },
            edit,
        ),
        Some(Prompt::KeyChoice(_)) => {
            super::key_choice::draw(frame, screen, req, theme);
            return;
        }
        Some(Prompt::DeleteRequest) => {
            let edit = crate::tui::widgets::LineInput::default();
            let text = PromptText {
                title: " Delete the request? ",
                lead: "y deletes, any other key keeps it: ",
                hint: "Ctrl-S then saves the profile without it",
                width: 50,
            };
            prompt::draw(frame, screen, &text, &edit, theme);
            return;
        }
    };
    prompt::draw(frame, screen, &text, edit, theme);
}

fn block<'a>(title: impl Into<Line<'a>>, focused: bool, theme: &Theme) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(if focused {
            theme.focus_border()
        } else {
            theme.border()
        })
        .title(title)
}

fn draw_fields(
    frame: &mut Frame,
    l: &RequestLayout,
    req: &RequestState,
    theme: &Theme,
    cursor_shown: bool,
) {
    let editing = !req.normal_mode;
    draw_fields_block(frame, l, req, theme);
    for (field, rect) in &l.fields {
        if *field == Field::Body {
            continue;
        }
        let Some(edit) = req.line_edit(*field) else {
            continue;
        };
        let focused = req.focus == *field && editing;
        let label_style = if req.focus == *field {
            theme.focus_label()
        } else {
            theme.label()
        };
        let value_w = (rect.width as usize).saturating_sub(11);
        let (shown, extra) = field_shown(req, *field, edit.text());
        let extra_style = if extra.contains('⚠') {
            theme.warn()
        } else {
            theme.dim()
        };
        let cursor = edit.cursor();
        let (value, skip) = scrolled_value(&shown, value_w, focused.then_some(cursor));
        let room = value_w.saturating_sub(value.chars().count());
        // The timestamp's `live` / `frozen` goes whole or not at all: a `…` after a whole
        // timestamp reads as a cut timestamp (the bottom border says which it is anyway).
        let extra = if *field == Field::Timestamp && extra.chars().count() > room {
            String::new()
        } else {
            clip_marked(&extra, room)
        };
        let line = Line::from(vec![
            Span::styled(format!("{:<10}", field.label()), label_style),
            Span::raw(" "),
            Span::raw(value.clone()),
            Span::styled(extra, extra_style),
        ]);
        frame.render_widget(Paragraph::new(line), *rect);
        let masked = *field == Field::RestKey && !req.key_info.revealed;
        if focused && !masked && cursor_shown {
            let x = rect.x + 11 + (cursor - skip) as u16;
            if x < rect.x + rect.width {
                frame.set_cursor_position((x, rect.y));
            }
        }
    }
}

/// The fields' box: the profile's saved requests in its title, the edited one in brackets
/// (Alt-Up / Alt-Down switch), and whether the timestamp is live or frozen at its bottom.
fn draw_fields_block(frame: &mut Frame, l: &RequestLayout, req: &RequestState, theme: &Theme) {
    let editing = !req.normal_mode;
    let toggle = super::keys::KEYS.label_of(super::keys::Action::ToggleTimestamp);
    let ts = if req.ts_live {
        Span::styled(format!(" timestamp live · {toggle} freeze "), theme.dim())
    } else {
        Span::styled(format!(" timestamp frozen · {toggle} live "), theme.warn())
    };
    let mut title = vec![Span::styled(" Request ", theme.title())];
    if req.requests.entries.len() > 1
        || req.requests.selected_name() != crate::store::DEFAULT_REQUEST
    {
        let width = (l.fields_block.width as usize).saturating_sub(12);
        for (name, selected) in super::requests::title_names(req, width) {
            let style = if selected {
                theme.focus_label()
            } else {
                theme.dim()
            };
            title.push(Span::styled(name, style));
            title.push(Span::raw(" "));
        }
    }
    let w = l.fields_block.width;
    let b = block(
        fit_title(Line::from(title), w),
        req.focus != Field::Body && editing,
        theme,
    )
    .title_bottom(fit_title(Line::from(ts), w));
    frame.render_widget(b, l.fields_block);
}

/// A field's value as shown (the REST key masked unless revealed) and the remark beside it: the
/// key's source, the timestamp's state, or a warning of what the send would refuse or change.
fn field_shown(req: &RequestState, field: Field, text: &str) -> (String, String) {
    match field {
        // A fixed-width mask: not even the key's length shows.
        Field::RestKey if !req.key_info.revealed => (
            if text.is_empty() {
                String::new()
            } else {
                "•".repeat(8)
            },
            format!("  [{}]", req.key_info.source),
        ),
        Field::RestKey => (text.to_string(), format!("  [{}]", req.key_info.source)),
        Field::Timestamp => (
            text.to_string(),
            if req.ts_live {
                "  live".into()
            } else {
                "  frozen".into()
            },
        ),
        Field::Method => (text.to_string(), "  ↑↓".into()),
        // One leading '?' is the URL's separator, not part of the query (`docs/signing.md`
        // rule S4): every view, copy and the send leave it out; say so beside it.
        Field::Query if text.starts_with('?') => (text.to_string(), "  ⚠ '?' left out".into()),
        // A path or query the URL parser would re-encode is refused at the send (the bytes
        // signed would not be the bytes sent): say so beside it, before the send.
        Field::Query | Field::Path
            if req.refused_part()
                == Some(if field == Field::Query {
                    "query"
                } else {
                    "path"
                }) =>
        {
            (text.to_string(), "  ⚠ %-encode".into())
        }
        // A header value with a space or tab at an edge is refused at the send (HTTP drops
        // it in transit, so the server would check another value: `docs/signing.md` S13):
        // say so beside the field, before the send.
        Field::ApiKey | Field::ContentType | Field::AuthAlgo
            if text.starts_with([' ', '\t']) || text.ends_with([' ', '\t']) =>
        {
            (text.to_string(), "  ⚠ space".into())
        }
        _ => (text.to_string(), String::new()),
    }
}

/// The value made visible in `value_w` columns, scrolled to keep the cursor (when focused) in
/// view, and how many characters the scroll skips: `›` / `‹` say it goes on (never over the
/// cursor).
fn scrolled_value(shown: &str, value_w: usize, cursor: Option<usize>) -> (String, usize) {
    let visible = escape_visible(shown.as_bytes());
    let skip = match cursor {
        Some(c) if c >= value_w => c + 1 - value_w,
        _ => 0,
    };
    let mut value: Vec<char> = visible.chars().skip(skip).take(value_w).collect();
    let cursor_col = cursor.map(|c| c - skip);
    if visible.chars().count() > skip + value_w && value_w > 1 && cursor_col != Some(value_w - 1) {
        value[value_w - 1] = '›';
    }
    if skip > 0 && !value.is_empty() && cursor_col != Some(0) {
        value[0] = '‹';
    }
    (value.into_iter().collect(), skip)
}

fn draw_body(frame: &mut Frame, area: Rect, req: &RequestState, theme: &Theme, cursor: bool) {
    let focused = req.focus == Field::Body && !req.normal_mode;
    let len = req.body.len();
    let mut title = vec![Span::styled(format!(" Body ({len} bytes) "), theme.title())];
    let bottom = match &req.body_state.json_error {
        Some(e) => Line::from(Span::styled(format!(" ⚠ {e} "), theme.warn())),
        None if req.body_state.json_rev == req.body_state.rev && len > 0 => {
            Line::from(Span::styled(" JSON ✓ ", theme.ok()))
        }
        None => Line::from(""),
    };
    if focused {
        title.push(Span::styled(
            format!(
                "{} find ",
                super::keys::KEYS.label_of(super::keys::Action::Search)
            ),
            theme.dim(),
        ));
    }
    let b = block(fit_title(Line::from(title), area.width), focused, theme)
        .title_bottom(fit_title(bottom, area.width));
    let inner = b.inner(area);
    frame.render_widget(b, area);
    frame.render_widget(req.body.textarea(), inner);
    // The body scrolls horizontally with the cursor (a wrap would hide where a line ends).
    crate::tui::widgets::text::mark_long_lines(frame, inner, req.body.textarea(), theme.dim());
    if focused && cursor {
        // The textarea draws its own cursor cell; also place the terminal cursor there.
        let c = req.body.textarea().screen_cursor();
        let (top, left) = req.body.textarea().scroll_offset();
        let y = inner.y + (c.row as u16).saturating_sub(top);
        let x = inner.x + (c.col as u16).saturating_sub(left);
        if y < inner.y + inner.height && x < inner.x + inner.width {
            frame.set_cursor_position((x, y));
        }
    }
}

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
fn draw_canonical(frame: &mut Frame, area: Rect, req: &RequestState, theme: &Theme) {
    let signed = signed(req);
    let b = canonical_block(area, req, signed, theme);
    let inner = b.inner(area);
    frame.render_widget(b, area);
    if inner.height == 0 || inner.width == 0 {
        return;
    }
    let Some(s) = signed else {
        draw_unsigned(frame, inner, req, theme);
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
    block(fit_title(Line::from(title), area.width), false, theme)
        .title_bottom(fit_title(bottom, area.width))
}

/// The canonical panel with no signature to show: why (the signing error), or that it is on its
/// way.
fn draw_unsigned(frame: &mut Frame, inner: Rect, req: &RequestState, theme: &Theme) {
    let why = match &req.sign.result {
        Some(Err(e)) => format!("not signed: {e}"),
        _ => "signing…".to_string(),
    };
    let lines: Vec<Line> = wrap_words(&why, inner.width as usize)
        .into_iter()
        .map(|l| Line::from(Span::styled(l, theme.warn())))
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
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

fn draw_detail(frame: &mut Frame, area: Rect, req: &RequestState, theme: &Theme) {
    let mut title = vec![Span::raw(" ")];
    for d in Detail::ALL {
        let style = if d == req.detail {
            theme.active_tab()
        } else {
            theme.dim()
        };
        // The Response tab says when it shows the request as sent instead of the answer.
        let name = if d == Detail::Response && req.show_sent {
            "Sent"
        } else {
            d.title()
        };
        title.push(Span::styled(format!(" {name} "), style));
    }
    // The key that cycles them when it fits (help and the footer name it too).
    let used: usize = title.iter().map(|s| s.width()).sum();
    if used + 8 <= (area.width as usize).saturating_sub(2) {
        title.push(Span::styled(
            format!(
                " {} ",
                super::keys::KEYS.label_of(super::keys::Action::NextDetail)
            ),
            theme.dim(),
        ));
    }
    let b = block(fit_title(Line::from(title), area.width), false, theme);
    let inner = b.inner(area);
    frame.render_widget(b, area);
    if inner.height == 0 {
        return;
    }
    let w = inner.width as usize;
    let h = inner.height as usize;
    let lines: Vec<Line> = match req.detail {
        Detail::Pipeline => pipeline_lines(req, w, theme),
        Detail::Headers => headers_lines(req, w, theme),
        Detail::Response => return super::response_pane::draw(frame, inner, req, theme),
        Detail::Diff => super::diff::diff_lines(req, w, theme),
    };
    req.detail_max.set(lines.len().saturating_sub(h));
    req.detail_page.set(h.saturating_sub(1).max(1));
    let skip = req.detail_scroll.min(req.detail_max.get());
    let shown: Vec<Line> = lines.into_iter().skip(skip).take(h).collect();
    frame.render_widget(Paragraph::new(shown), inner);
}

/// The signed request every panel reads (`super::update::signed_view`).
fn signed(req: &RequestState) -> Option<&SignedView> {
    super::update::signed_view(req)
}

fn pipeline_lines(req: &RequestState, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    // Each heading wraps to the panel's width: never cut.
    let step = |out: &mut Vec<Line<'static>>, n: &str, title: &str, why: &str| {
        out.extend(wrap_spans(
            &[
                Span::styled(format!("{n} {title}"), theme.title()),
                Span::styled(format!(" — {why}"), theme.dim()),
            ],
            w as u16,
        ));
    };
    // Every step reads the signed request: the text in its form, its digest, its signature.
    let Some(s) = signed(req) else {
        let why = match &req.sign.result {
            Some(Err(e)) => e.clone(),
            _ => "signing…".into(),
        };
        for chunk in wrap_words(&why, w) {
            out.push(Line::from(Span::styled(chunk, theme.warn())));
        }
        return out;
    };
    let canonical = s.canonical();
    let form_note = match s.form() {
        SigningForm::Standard => String::new(),
        f => format!(" (in the {} form)", form_title(f)),
    };
    step(
        &mut out,
        "1",
        "canonical bytes",
        &format!("the exact text signed{form_note}: 7 lines + body, joined by LF"),
    );
    let mut preview = escape_visible(canonical.head().as_bytes());
    let body = canonical.body();
    let cut = body.len().min(160);
    preview.push_str(&escape_visible(&body[..cut]));
    if body.len() > cut {
        preview.push_str(&format!("… (+{} bytes)", body.len() - cut));
    }
    // Six rows of it at most (the canonical panel has it whole): a cut says so with `…`.
    let mut rows = wrap_chars(&preview, w);
    if rows.len() > 6 {
        rows.truncate(6);
        if let Some(last) = rows.last_mut() {
            last.pop();
            last.push('…');
        }
    }
    for chunk in rows {
        out.push(Line::from(visible_spans(&chunk, Style::default(), theme)));
    }
    step(
        &mut out,
        "2",
        "HMAC-SHA384 digest",
        "keyed with the REST key; 48 bytes, in hex",
    );
    for chunk in wrap_chars(&s.digest_hex(), w) {
        out.push(Line::from(chunk));
    }
    step(
        &mut out,
        "3",
        "base64",
        "standard alphabet with padding: the signature",
    );
    for chunk in wrap_chars(s.signature(), w) {
        out.push(Line::from(Span::styled(chunk, theme.signature())));
    }
    step(&mut out, "4", "header", "sent as the Authorization header");
    for chunk in wrap_chars(&format!("Authorization: Bearer {}", s.signature()), w) {
        out.push(Line::from(chunk));
    }
    out
}

fn headers_lines(req: &RequestState, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut out: Vec<Line<'static>> =
        wrap_words("Exact headers to send (the body goes byte for byte):", w)
            .into_iter()
            .map(|l| Line::from(Span::styled(l, theme.dim())))
            .collect();
    match signed(req) {
        Some(s) => {
            let own: Vec<(String, String)> = s
                .headers()
                .into_iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect();
            for (n, v) in &own {
                let text = format!("{n}: {v}");
                for (k, chunk) in wrap_chars(&text, w).into_iter().enumerate() {
                    if k == 0 && chunk.len() > n.len() {
                        let (a, b) = chunk.split_at(n.len() + 1);
                        out.push(styled_line(vec![
                            (a.to_string(), theme.label()),
                            (b.to_string(), Style::default()),
                        ]));
                    } else {
                        out.push(Line::from(chunk));
                    }
                }
            }
            // What the HTTP client adds on its own goes on the wire too: shown apart, as the
            // sending code computes it (`engine::added_headers`), marked as not signed.
            let added = crate::engine::added_headers(req.url.text(), &own, s.spec().body.len());
            out.extend(
                wrap_words("Added by the HTTP client, not signed:", w)
                    .into_iter()
                    .map(|l| Line::from(Span::styled(l, theme.dim()))),
            );
            for (n, v) in added {
                for chunk in wrap_chars(&format!("{n}: {v}"), w) {
                    out.push(Line::from(Span::styled(chunk, theme.dim())));
                }
            }
            out.extend(
                wrap_words(&copy_hint(), w)
                    .into_iter()
                    .map(|l| Line::from(Span::styled(l, theme.dim()))),
            );
        }
        None => {
            let why = match &req.sign.result {
                Some(Err(e)) => format!("not signed: {e}"),
                _ => "signing…".to_string(),
            };
            for chunk in wrap_words(&why, w) {
                out.push(Line::from(Span::styled(chunk, theme.warn())));
            }
        }
    }
    out
}

fn draw_signature(frame: &mut Frame, area: Rect, req: &RequestState, theme: &Theme) {
    // `✓ computed` is about our signature only; the server's verdict on the last send is
    // shown apart, at the right. The signature is never cut for them: when the row is short
    // (80 columns), the state shrinks to `✓` and the verdict to `✗ 401`, or goes (the
    // response panel has it in full).
    // The verdict stands beside the signature it judged only: once the line shows another one
    // (the live timestamp ticked, a field changed), the verdict is in the response panel alone.
    let verdict = verdict_beside(req);
    let width = |spans: &[Span]| {
        spans
            .iter()
            .map(|s| s.content.chars().count())
            .sum::<usize>()
    };
    let (mut spans, state_short) = signature_spans(req, area, theme);
    let room = area.width as usize;
    // A signature wider than the row (under 68 columns) is cut with a mark, never silently: a
    // reader copying it by eye must see it is not whole (Alt-Y s copies it whole).
    if width(&spans) > room && spans.len() > 1 {
        spans.truncate(2);
        let keep = room.saturating_sub(4);
        let sig = clip_marked(&spans[1].content, keep);
        spans[1] = Span::styled(sig, spans[1].style);
    }
    let fits = |spans: &[Span], v: &str| width(spans) + 2 + v.chars().count() <= room;
    if let (Some((long, _, _)), Some(s)) = (&verdict, state_short) {
        if !fits(&spans, long) {
            spans.pop();
            spans.push(s);
        }
    }
    let shown = verdict.and_then(|(long, short, accepted)| {
        [long, short]
            .into_iter()
            .find(|v| fits(&spans, v))
            .map(|v| (v, accepted))
    });
    let Some((text, accepted)) = shown else {
        frame.render_widget(Paragraph::new(Line::from(spans)), area);
        return;
    };
    let vw = (text.chars().count() as u16 + 2).min(area.width);
    let left = Rect::new(area.x, area.y, area.width - vw, area.height);
    // One blank column before the verdict and one after it (it never touches the edge).
    let right = Rect::new(area.x + area.width - vw, area.y, vw - 1, area.height);
    frame.render_widget(Paragraph::new(Line::from(spans)), left);
    let style = if accepted { theme.ok() } else { theme.error() };
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(text, style)))
            .alignment(ratatui::layout::Alignment::Right),
        right,
    );
}

/// The server's verdict on the last send (long, short, and whether it accepted), when the
/// line shows the signature it judged.
fn verdict_beside(req: &RequestState) -> Option<(String, String, bool)> {
    let shown_signature = match &req.sign.result {
        Some(Ok(s)) => Some(s.signature()),
        _ => None,
    };
    req.response
        .as_ref()
        .filter(|r| {
            r.sent
                .as_ref()
                .is_none_or(|s| Some(s.signature.as_str()) == shown_signature)
        })
        .map(|r| {
            let (long, accepted) = server_verdict(r.status, r.code.as_deref());
            let short = format!("{} {}", if accepted { "✓" } else { "✗" }, r.status);
            (long, short, accepted)
        })
}

/// Our side of the signature line: the signature and its state (and the state's short form
/// for a short row), or why there is none.
fn signature_spans<'a>(
    req: &RequestState,
    area: Rect,
    theme: &Theme,
) -> (Vec<Span<'a>>, Option<Span<'a>>) {
    // A success mark never stands beside a rejection: once the server has rejected the last
    // send, our side says only "computed" (the signature was computed, not accepted).
    let rejected = req
        .response
        .as_ref()
        .is_some_and(|r| !server_verdict(r.status, r.code.as_deref()).1);
    match &req.sign.result {
        Some(Ok(s)) => {
            let (long, short, style) = if req.sign.updating() {
                (" updating…", " …", theme.warn())
            } else if rejected {
                (" computed", "", theme.dim())
            } else {
                (" ✓ computed", " ✓", theme.ok())
            };
            let spans = vec![
                Span::styled("sig ", theme.label()),
                Span::styled(s.signature().to_string(), theme.signature()),
                Span::styled(long, style),
            ];
            (spans, Some(Span::styled(short, style)))
        }
        // The reason whole when it fits; else a pointer to the Canonical text pane, which has it
        // wrapped (the part a cut would lose is the fix).
        Some(Err(e)) => {
            let room = (area.width as usize).saturating_sub(4);
            let why = if e.chars().count() <= room {
                e.clone()
            } else {
                clip_marked("not signed: the Canonical text pane says why", room)
            };
            (
                vec![
                    Span::styled("sig ", theme.label()),
                    Span::styled(why, theme.error()),
                ],
                None,
            )
        }
        None => (
            vec![
                Span::styled("sig ", theme.label()),
                Span::styled("updating…", theme.warn()),
            ],
            None,
        ),
    }
}

/// The server's verdict on the last send, in words: `server: accepted (200)` or
/// `server: rejected SIGNATURE_MISMATCH (401)`; and whether it accepted.
pub fn server_verdict(status: u16, code: Option<&str>) -> (String, bool) {
    if (200..300).contains(&status) {
        (format!("server: accepted ({status})"), true)
    } else {
        match code {
            Some(c) => (format!("server: rejected {c} ({status})"), false),
            None => (format!("server: rejected ({status})"), false),
        }
    }
}

/// The copy menu's letters for what the Pipeline panel shows, from the keymap ("Alt-Y copy: s
/// signature · h headers · ...").
fn copy_hint() -> String {
    use super::keys::{Action, COPY_KEYS};
    let l = |a| COPY_KEYS.label_of(a);
    format!(
        "{}copy: {} signature · {} headers · {} curl · {} canonical text",
        crate::tui::global_keys::copy_key(""),
        l(Action::CopySignature),
        l(Action::CopyHeaders),
        l(Action::CopyCurl),
        l(Action::CopyCanonical)
    )
}
