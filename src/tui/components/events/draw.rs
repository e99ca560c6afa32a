//! Layout and drawing of the events view.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::items_table::{draw_items, form_width, layout_items};
use super::parts::{block, EventsLayout};
use super::state::{completions, focused_style, EventsState, Field, Focus, Mode, PromptKind};
use crate::core::events::{Level, Problem};
use crate::core::visible::counted;
use crate::tui::theme::{Theme, MEASURE};
use crate::tui::widgets::text::{max_scroll, wrap_spans, wrap_words as wrap_text, wrapped_rows};

/// The layout of the events view in `area`.
pub fn layout(area: Rect, state: &EventsState) -> EventsLayout {
    // The footer is the path prompt, or why a load left the batch raw, wrapped over up to
    // three rows (a quarter of a small screen); without either there is none (the view's
    // messages are in the workbench's status line, its keys in the workbench's footer).
    let footer_h = if !footer_spans(state).is_empty() {
        let rows = wrap_spans(&footer_spans(state), area.width).len() as u16;
        rows.min(3).min(area.height / 4).max(1)
    } else {
        0
    };
    let [main, footer] =
        Layout::vertical([Constraint::Min(4), Constraint::Length(footer_h)]).areas(area);
    let wide = main.width >= 110;
    let (left, right) = columns(main, wide, state);
    let mut l = EventsLayout {
        wide,
        footer,
        ..EventsLayout::default()
    };
    match state.mode {
        Mode::Form => {
            // One more row for the suggestions while a field that has them is focused.
            let fields_h = if wide { 9 } else { 6 } + u16::from(suggesting(state));
            let [fields_area, items_area] =
                Layout::vertical([Constraint::Length(fields_h), Constraint::Min(3)]).areas(left);
            layout_fields(&mut l, fields_area, state);
            layout_items(&mut l, items_area, state);
        }
        Mode::Raw => {
            if wide {
                l.raw = Some(left);
            }
        }
    }
    // Right (or bottom): preview | problems | response.
    if wide {
        layout_right_column(&mut l, right, state);
    } else {
        layout_bottom(&mut l, right, state);
    }
    layout_problems(&mut l, state);
    l
}

/// The view's two parts: side by side on a wide screen (the form, or the raw editor, on the
/// left), else the form above the rest.
fn columns(main: Rect, wide: bool, state: &EventsState) -> (Rect, Rect) {
    let form = state.mode == Mode::Form;
    if wide {
        // The form takes 58% of the width, more when the items table needs it (`form_width`).
        let form_w = if form {
            let rows: Vec<usize> = state.items_window(main).1.iter().map(|(r, _)| *r).collect();
            form_width(state, &rows, main.width)
        } else {
            main.width * 58 / 100
        };
        let [l, r] =
            Layout::horizontal([Constraint::Length(form_w), Constraint::Min(0)]).areas(main);
        (l, r)
    } else {
        let fields_h = if form {
            6 + u16::from(suggesting(state))
        } else {
            0
        };
        let items_h = if form {
            (state.draft.items.len() as u16 + 3).clamp(4, 8)
        } else {
            0
        };
        let [l, r] = Layout::vertical([Constraint::Length(fields_h + items_h), Constraint::Min(5)])
            .areas(main);
        (l, r)
    }
}

/// A wide screen's right column: the preview, the problems (as tall as their wrapped lines, up
/// to 45% of the column, then they scroll with the selection) and the response (10 rows, or
/// two fifths of the column). The raw editor is on the left: the response takes the preview's
/// place.
fn layout_right_column(l: &mut EventsLayout, right: Rect, state: &EventsState) {
    let has_response = state.has_response();
    let resp_h = if has_response && state.mode == Mode::Form {
        (right.height * 2 / 5).max(10)
    } else {
        0
    };
    let most = (right.height.saturating_sub(resp_h) * 45 / 100).max(3);
    let mut want = 2u16;
    for p in &state.problems {
        want += wrap_spans(&problem_spans(&MEASURE, p), right.width.saturating_sub(2)).len() as u16;
        if want >= most {
            break;
        }
    }
    let [preview, problems, response] = Layout::vertical([
        Constraint::Min(5),
        Constraint::Length(want.clamp(3, most)),
        Constraint::Length(resp_h),
    ])
    .areas(right);
    if state.mode == Mode::Form {
        l.preview = Some(preview);
        if has_response {
            l.response = Some(response);
        }
    } else {
        l.response = Some(preview);
    }
    l.problems = problems;
}

/// A narrow screen's bottom part: the preview (or the raw editor) beside the problems, which
/// share their column with the response when there is one.
fn layout_bottom(l: &mut EventsLayout, bottom: Rect, state: &EventsState) {
    let [a, b] =
        Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(bottom);
    if state.mode == Mode::Form {
        l.preview = Some(a);
    } else {
        l.raw = Some(a);
    }
    if state.has_response() {
        let [p, r] =
            Layout::vertical([Constraint::Percentage(40), Constraint::Percentage(60)]).areas(b);
        l.problems = p;
        l.response = Some(r);
    } else {
        l.problems = b;
    }
}

/// Wide: one field per row. Narrow: two per row after the URL; the second starts at half the
/// width or one column after the first one's text, whichever is further right.
fn layout_fields(l: &mut EventsLayout, area: Rect, state: &EventsState) {
    l.fields_block = Some(area);
    let inner = block("", false).inner(area);
    let bottom = inner.y + inner.height;
    let row = |i: u16| (inner.y + i < bottom).then(|| inner.y + i);
    let rows_used;
    if l.wide {
        l.label_w = 15;
        for (i, f) in Field::ALL.iter().enumerate() {
            if let Some(y) = row(i as u16) {
                l.fields.push((*f, Rect::new(inner.x, y, inner.width, 1)));
            }
        }
        rows_used = Field::ALL.len() as u16;
    } else {
        l.label_w = 11;
        let pairs = [
            (Field::AnalyticsUrl, None),
            (Field::ApiKey, Some(Field::ListId)),
            (Field::ListName, Some(Field::ListLogic)),
            (Field::Tags, Some(Field::UserIp)),
        ];
        let right = inner.x + inner.width;
        for (i, (a, b)) in pairs.into_iter().enumerate() {
            let Some(y) = row(i as u16) else { break };
            let Some(b) = b else {
                l.fields.push((a, Rect::new(inner.x, y, inner.width, 1)));
                continue;
            };
            let used = label_width(a, l.label_w) + field_value(state, a).0.chars().count() as u16;
            let b_x = (inner.x + (inner.width / 2).max(used + 1)).min(right);
            l.fields.push((a, Rect::new(inner.x, y, b_x - inner.x, 1)));
            l.fields.push((b, Rect::new(b_x, y, right - b_x, 1)));
        }
        rows_used = pairs.len() as u16;
    }
    if let Focus::Field(Field::ListLogic | Field::Tags) = state.focus {
        l.suggestions = row(rows_used).map(|y| Rect::new(inner.x, y, inner.width, 1));
    }
}

/// The problems shown: a window that starts where it was and moves only to keep the selected
/// problem fully visible, each problem taking as many rows as its wrapped text.
fn layout_problems(l: &mut EventsLayout, state: &EventsState) {
    let inner = block("", false).inner(l.problems);
    if inner.height == 0 || state.problems.is_empty() {
        return;
    }
    let rows_of = |i: usize| {
        wrap_spans(&problem_spans(&MEASURE, &state.problems[i]), inner.width).len() as u16
    };
    let sel = state.problem_sel.min(state.problems.len() - 1);
    let top = state.problems_top.min(sel);
    // Does the selection fit in a window starting at `top`?
    let mut used = 0;
    let fits = (top..=sel).all(|i| {
        used += rows_of(i);
        used <= inner.height
    });
    let first = if fits {
        top
    } else {
        // The window that ends with the selection.
        let mut first = sel;
        let mut used = rows_of(sel);
        while first > 0 {
            let h = rows_of(first - 1);
            if used + h > inner.height {
                break;
            }
            used += h;
            first -= 1;
        }
        first
    };
    let bottom = inner.y + inner.height;
    let mut y = inner.y;
    for i in first..state.problems.len() {
        if y >= bottom {
            break;
        }
        let h = rows_of(i).min(bottom - y);
        l.problem_rows
            .push((i, Rect::new(inner.x, y, inner.width, h)));
        y += h;
    }
}

/// Draw the events view into `area`; `cursor`: whether it may place the terminal cursor (not
/// while a popup covers it).
pub fn draw_with_cursor(
    frame: &mut Frame,
    area: Rect,
    state: &EventsState,
    theme: &Theme,
    cursor: bool,
) {
    let l = layout(area, state);
    if state.mode == Mode::Form {
        draw_fields(frame, &l, state, cursor);
        draw_items(frame, &l, state, theme);
    }
    if let Some(r) = l.raw {
        draw_raw(frame, r, state);
    }
    if let Some(r) = l.preview {
        draw_preview(frame, r, state);
    }
    draw_problems(frame, &l, state, theme);
    if let Some(r) = l.response {
        draw_response_or_stored(frame, r, state, theme);
    }

    let footer = l.footer;
    // The prompt, or why the batch is raw; the keys are in the workbench's footer below (one
    // hint row, read from the key tables).
    let spans = footer_spans(state);
    let footer_text = if footer.height > 1 {
        Paragraph::new(wrap_spans(&spans, footer.width))
    } else {
        Paragraph::new(Line::from(spans))
    };
    frame.render_widget(footer_text, footer);
    if let (Some((_, input)), true) = (&state.prompt, cursor) {
        let label_w = match state.prompt.as_ref().map(|p| p.0) {
            Some(PromptKind::Load) => 17,
            _ => 15,
        };
        frame.set_cursor_position((
            footer.x + (label_w + input.cursor() as u16).min(footer.width.saturating_sub(1)),
            footer.y,
        ));
    }
}

/// The view's last row: the path prompt (what it was told, a file already there or no path
/// typed, is in the status line below it); else, while a loaded batch is raw because the form
/// cannot show it, why.
fn footer_spans(state: &EventsState) -> Vec<Span<'_>> {
    let Some((kind, input)) = &state.prompt else {
        return match (&state.raw_why, state.mode) {
            (Some(why), Mode::Raw) => vec![
                Span::styled(
                    "Raw JSON: the form cannot show this batch: ",
                    Style::new().bold(),
                ),
                Span::raw(why.as_str()),
            ],
            _ => vec![],
        };
    };
    let label = match kind {
        PromptKind::Load => "Load batch from: ",
        PromptKind::Save => "Save batch to: ",
    };
    // Prefilled text is shown selected: typing replaces it.
    let text = if state.prompt_prefilled {
        Span::raw(input.text()).add_modifier(ratatui::style::Modifier::REVERSED)
    } else {
        Span::raw(input.text())
    };
    let hint = if state.prompt_prefilled {
        "  (typing replaces it; Enter ok, Esc cancel)"
    } else {
        "  (Enter ok, Esc cancel)"
    };
    vec![
        Span::styled(label, Style::new().bold()),
        text,
        // A relative path: the file it names, resolved against the working directory.
        Span::raw(crate::tui::widgets::prompt::resolved_note(input.text())).dim(),
        Span::raw(hint),
    ]
}

/// The text a field shows: its value, or a dim placeholder when empty (true).
fn field_value(state: &EventsState, f: Field) -> (&str, bool) {
    let text = state.input(f).text();
    if text.is_empty() {
        let placeholder = match f {
            Field::UserIp => "(none)",
            Field::Tags => "name:value, ...",
            _ => "",
        };
        (placeholder, true)
    } else {
        (text, false)
    }
}

/// How wide `f`'s label is drawn: the layout's label column, or the label itself where it is
/// longer ("Analytics URL: " in the narrow layout's 11 columns). The cursor is placed with it.
fn label_width(f: Field, label_w: u16) -> u16 {
    label_w.max(f.label().chars().count() as u16 + 2)
}

fn field_spans<'a>(state: &'a EventsState, f: Field, label_w: u16) -> Vec<Span<'a>> {
    let focused = state.focus == Focus::Field(f);
    let label = format!(
        "{:>w$}: ",
        f.label(),
        w = usize::from(label_width(f, label_w).saturating_sub(2))
    );
    let value = match field_value(state, f) {
        (text, true) => Span::styled(text, Style::new().dim()),
        (text, false) => Span::raw(text),
    };
    let value = if focused {
        value.patch_style(focused_style())
    } else {
        value
    };
    vec![Span::styled(label, Style::new().bold()), value]
}

fn draw_fields(frame: &mut Frame, l: &EventsLayout, state: &EventsState, cursor: bool) {
    let Some(area) = l.fields_block else { return };
    frame.render_widget(
        block(
            if state.order {
                format!(
                    " Order (order_purchase) · {}: list ",
                    super::keys::KEYS.label_of(super::keys::Action::ToggleOrder)
                )
            } else {
                " List ".to_string()
            },
            matches!(state.focus, Focus::Field(_)),
        ),
        area,
    );
    for (f, rect) in &l.fields {
        frame.render_widget(
            Paragraph::new(Line::from(field_spans(state, *f, l.label_w))),
            *rect,
        );
    }
    // Suggestions for completable fields: the list, the current one marked, scrolled to it.
    if let (Focus::Field(f), Some(rect)) = (state.focus, l.suggestions) {
        let text = state.input(f).text();
        let cands = completions(f, text);
        let last = match f {
            Field::Tags => text.rsplit(',').next().unwrap_or("").trim(),
            _ => text.trim(),
        };
        let current = cands.iter().position(|c| c == last);
        frame.render_widget(
            Paragraph::new(suggestion_line(&cands, current, rect.width)),
            rect,
        );
    }
    // Cursor in the focused field.
    if let (Focus::Field(f), true) = (state.focus, cursor) {
        if let Some((_, rect)) = l.fields.iter().find(|(g, _)| *g == f) {
            let x = label_width(f, l.label_w) + state.input(f).cursor() as u16;
            if x < rect.width {
                frame.set_cursor_position((rect.x + x, rect.y));
            }
        }
    }
}

fn draw_raw(frame: &mut Frame, area: Rect, state: &EventsState) {
    // The block is drawn around the editor rather than set on it, so drawing never clones
    // the text.
    let blk = block(
        format!(
            " Batch JSON (raw, {}: form) ",
            super::keys::KEYS.label_of(super::keys::Action::NextMode)
        ),
        state.focus == Focus::Raw,
    );
    let inner = blk.inner(area);
    frame.render_widget(blk, area);
    frame.render_widget(state.raw.textarea(), inner);
    crate::tui::widgets::text::mark_long_lines(
        frame,
        inner,
        state.raw.textarea(),
        Style::new().dim(),
    );
}

fn draw_preview(frame: &mut Frame, area: Rect, state: &EventsState) {
    let title = if state.validating() {
        " Batch preview (validating…) ".to_string()
    } else {
        format!(
            " Batch preview ({}) ",
            counted(state.preview_events, "event")
        )
    };
    // Only the visible lines are wrapped and handed to the widget: a long batch costs nothing
    // per frame beyond finding where the window starts.
    let (w, h) = preview_inner(area);
    let lines: Vec<Line> = state
        .preview
        .lines()
        .skip(state.preview_scroll as usize)
        .take(h)
        .flat_map(|l| wrap_text(l, w))
        .take(h)
        .map(Line::raw)
        .collect();
    let mut p = Paragraph::new(lines).block(block(
        crate::tui::widgets::text::fit_title(title, area.width),
        false,
    ));
    if state.validating() {
        p = p.dim();
    }
    frame.render_widget(p, area);
}

/// Columns and rows inside the preview's border.
fn preview_inner(pane: Rect) -> (usize, usize) {
    (
        usize::from(pane.width.saturating_sub(2)).max(1),
        usize::from(pane.height.saturating_sub(2)),
    )
}

/// How many lines of the batch PageDown moves the preview in `pane`: the lines wholly on
/// screen less one (the last of them tops the next page, so no row is skipped however long
/// lines wrap), at least one. The scroll counts lines of the batch; long lines wrap as drawn.
pub(super) fn preview_page(state: &EventsState, pane: Rect) -> u16 {
    let (w, h) = preview_inner(pane);
    let whole = lines_fitting(
        state.preview.lines().skip(state.preview_scroll as usize),
        w,
        h,
    );
    u16::try_from(whole)
        .unwrap_or(u16::MAX)
        .saturating_sub(1)
        .max(1)
}

/// How many of `lines`, wrapped to `w` columns, fit whole in `h` rows.
fn lines_fitting<'a>(lines: impl Iterator<Item = &'a str>, w: usize, h: usize) -> usize {
    let mut rows = 0;
    lines
        .take_while(|l| {
            rows += wrap_text(l, w).len();
            rows <= h
        })
        .count()
}

/// The preview's scroll after PageUp in `pane`: the line on top now is the last one wholly on
/// screen (the way back of [`preview_page`]), at least one line up.
pub(super) fn preview_page_up(state: &EventsState, pane: Rect) -> u16 {
    let (w, h) = preview_inner(pane);
    let top = usize::from(state.preview_scroll);
    let above: Vec<&str> = state.preview.lines().take(top + 1).collect();
    let whole = lines_fitting(above.into_iter().rev(), w, h);
    top.saturating_sub(whole.saturating_sub(1).max(1)) as u16
}

/// The preview's scroll in `pane` that shows its line `line`: unchanged when the line is on
/// screen already, else that line second from the top (the line above it for context).
pub(super) fn preview_showing(state: &EventsState, pane: Rect, line: usize) -> u16 {
    let (w, h) = preview_inner(pane);
    let top = usize::from(state.preview_scroll);
    if line >= top {
        let rows: usize = state
            .preview
            .lines()
            .skip(top)
            .take(line - top + 1)
            .map(|l| wrap_text(l, w).len())
            .sum();
        if rows <= h {
            return state.preview_scroll;
        }
    }
    let max = usize::from(preview_max_scroll(state, pane));
    line.saturating_sub(1).min(max) as u16
}

/// The largest useful scroll of the preview in `pane`: its last line on the pane's last row
/// (from the end, only the lines that fit are wrapped).
pub(super) fn preview_max_scroll(state: &EventsState, pane: Rect) -> u16 {
    let (w, h) = preview_inner(pane);
    let fit = lines_fitting(state.preview.lines().rev(), w, h);
    (state
        .preview_lines
        .saturating_sub(fit.max(1).min(state.preview_lines)))
    .min(usize::from(state.max_preview_scroll())) as u16
}

/// While the list logic or the tags have focus, a row under the fields lists their suggestions.
fn suggesting(state: &EventsState) -> bool {
    matches!(state.focus, Focus::Field(Field::ListLogic | Field::Tags))
}

/// `Ctrl-N: A B [C] D …`: the suggestions that fit in `width`, starting early enough to show
/// the current one (marked); `…` says there are more before or after.
fn suggestion_line(cands: &[String], current: Option<usize>, width: u16) -> Line<'static> {
    let width = usize::from(width);
    let head = "Ctrl-N: ";
    let cost = |c: &String| c.chars().count() + 1;
    // The first suggestion shown: move on until the current one fits (with room for "… ").
    let mut start = 0;
    if let Some(cur) = current {
        while start < cur
            && head.len() + 2 + cands[start..=cur].iter().map(cost).sum::<usize>() + 2 > width
        {
            start += 1;
        }
    }
    let mut spans = vec![Span::raw(head).dim()];
    let mut used = head.len();
    if start > 0 {
        spans.push(Span::raw("… ").dim());
        used += 2;
    }
    for (i, c) in cands.iter().enumerate().skip(start) {
        let more = i + 1 < cands.len();
        if used + cost(c) + if more { 1 } else { 0 } > width && i > start {
            spans.push(Span::raw("…").dim());
            break;
        }
        let span = Span::raw(c.clone());
        spans.push(if Some(i) == current {
            span.add_modifier(Modifier::REVERSED)
        } else {
            span.dim()
        });
        spans.push(Span::raw(" "));
        used += cost(c);
    }
    Line::from(spans)
}

/// One problem as styled text: level, path, message.
fn problem_spans<'a>(theme: &Theme, p: &'a Problem) -> Vec<Span<'a>> {
    let (tag, style) = match p.level {
        Level::Error => ("error", theme.error()),
        Level::Warning => ("warn ", theme.warn()),
    };
    vec![
        Span::styled(format!("{tag} "), style),
        Span::styled(format!("{} ", p.path), Style::new().bold()),
        Span::raw(p.message.as_str()),
    ]
}

fn draw_problems(frame: &mut Frame, l: &EventsLayout, state: &EventsState, theme: &Theme) {
    let area = l.problems;
    let focused = state.focus == Focus::Problems;
    let listed_errors = state
        .problems
        .iter()
        .filter(|p| p.level == Level::Error)
        .count();
    let warnings = state.problems.len() - listed_errors + state.omitted.warnings;
    let errors = listed_errors + state.omitted.errors;
    let title = if state.validating() {
        " Problems: validating… ".to_string()
    } else if state.problems.is_empty() {
        " Problems: none, batch is valid ".to_string()
    } else {
        let listed = if state.omitted.is_empty() {
            String::new()
        } else {
            format!(" ({} shown)", state.problems.len())
        };
        format!(
            " Problems: {}, {}{listed} ",
            counted(errors, "error"),
            counted(warnings, "warning")
        )
    };
    let mut b = block(
        crate::tui::widgets::text::fit_title(title, area.width),
        focused,
    );
    // Enter's jump is said where it works (the footer names the view's keys, not this one's).
    if focused && !state.problems.is_empty() {
        b = b.title_bottom(crate::tui::widgets::text::fit_title(
            " Enter: go to its field ".to_string(),
            area.width,
        ));
    }
    frame.render_widget(b, area);
    // Only the problems on screen are built, in the rows the layout gave them.
    for (i, rect) in &l.problem_rows {
        let spans = problem_spans(theme, &state.problems[*i]);
        let mut rows = wrap_spans(&spans, rect.width);
        if focused && *i == state.problem_sel {
            rows = rows
                .into_iter()
                .map(|r| r.patch_style(focused_style()))
                .collect();
        }
        let mut p = Paragraph::new(rows);
        if state.validating() {
            p = p.dim();
        }
        frame.render_widget(p, *rect);
    }
}

fn pretty(text: &str) -> String {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| text.to_string())
}

/// The response pane's title and lines: the collector's answer, then what the local collector
/// stored (drawn by [`draw_response_or_stored`], measured by [`response_max_scroll`]).
fn response_lines(state: &EventsState, theme: &Theme) -> (String, Vec<Line<'static>>) {
    let mut lines: Vec<Line> = Vec::new();
    let title = match &state.response {
        None if state.sending => " Response: sending… ".to_string(),
        None => " Response ".to_string(),
        Some(Ok(r)) => format!(" Response: {} in {} ms ", r.status, r.elapsed_ms),
        Some(Err(_)) => " Response: failed ".to_string(),
    };
    // The batch changed since it was sent: the answer is the earlier batch's, not this one's.
    let changed = state.sent_rev.is_some_and(|rev| rev != state.rev);
    let title = if state.response.is_some() && changed {
        lines.push(Line::styled(
            "Answers the batch as it was sent; it has changed since (Ctrl-G sends this one).",
            theme.warn(),
        ));
        format!("{}(as sent) ", title)
    } else {
        title
    };
    match &state.response {
        Some(Ok(r)) => {
            let style = if (200..300).contains(&r.status) {
                theme.ok()
            } else {
                theme.error()
            };
            let mut head = vec![Span::styled(format!("HTTP {}", r.status), style)];
            if let Ok(v) = serde_json::from_str::<Value>(&r.body) {
                for k in ["accepted", "rejected"] {
                    if let Some(n) = v.get(k).and_then(Value::as_u64) {
                        head.push(Span::raw(format!("  {k}: {n}")));
                    }
                }
            }
            lines.push(Line::from(head));
            lines.extend(pretty(&r.body).lines().map(|l| Line::from(l.to_string())));
        }
        Some(Err(why)) => lines.push(Line::styled(why.clone(), theme.error())),
        None => {}
    }
    match &state.stored {
        Some(Ok(text)) => {
            lines.push(Line::from("Stored by the local collector:").bold());
            lines.extend(pretty(text).lines().map(|l| Line::from(l.to_string())));
        }
        Some(Err(why)) => lines.push(Line::from(format!("Could not read what was stored: {why}"))),
        None => {}
    }
    (title, lines)
}

/// How far the response pane in `area` (with its border) scrolls: until its last wrapped row is
/// the pane's bottom row.
pub(super) fn response_max_scroll(state: &EventsState, area: Rect) -> u16 {
    let (_, lines) = response_lines(state, &MEASURE);
    max_scroll(wrapped_rows(&lines, area.width.saturating_sub(2)), area)
}

fn draw_response_or_stored(frame: &mut Frame, area: Rect, state: &EventsState, theme: &Theme) {
    if area.height == 0 {
        return;
    }
    let (title, lines) = response_lines(state, theme);
    let focused = state.focus == Focus::Response;
    let scroll = state.response_scroll.min(response_max_scroll(state, area));
    frame.render_widget(
        Paragraph::new(lines)
            .block(block(
                crate::tui::widgets::text::fit_title(title, area.width),
                focused,
            ))
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0)),
        area,
    );
}
