//! Layout and drawing of the events view.

use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table};
use ratatui::Frame;
use serde_json::Value;

use super::update::completions;
use super::{cell, Column, EventsState, Field, Focus, Mode, PromptKind};
use crate::core::events::{Level, Problem};
use crate::core::visible::counted;
use crate::tui::theme::Theme;
use crate::tui::widgets::{list_window::window_first, text::wrap_spans};

pub(super) fn focused_style() -> Style {
    Style::new().add_modifier(Modifier::REVERSED)
}

fn block<'a>(title: impl Into<Line<'a>>, focused: bool) -> Block<'a> {
    let b = Block::new().borders(Borders::ALL).title(title);
    if focused {
        b.border_style(Style::new().add_modifier(Modifier::BOLD))
            .title_style(Style::new().add_modifier(Modifier::BOLD))
    } else {
        b
    }
}

/// Widths of the items table's columns: #, clk, the seven editable columns, item_id.
const ITEM_WIDTHS: [Constraint; 10] = [
    Constraint::Length(2),
    Constraint::Length(3),
    Constraint::Min(5),
    Constraint::Min(4),
    Constraint::Fill(2),
    Constraint::Min(5),
    Constraint::Length(3),
    Constraint::Fill(1),
    Constraint::Fill(2),
    Constraint::Fill(1),
];
/// Spacing between the items table's columns.
const ITEM_SPACING: u16 = 1;

/// Where the parts of the events view are for a given area and state: [`draw`] draws with it
/// and mouse hit testing uses it, so a click lands on what is drawn under the pointer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventsLayout {
    /// 110 columns or more: form left, preview / problems / response right.
    pub wide: bool,
    /// The "List" box of the form (form mode).
    pub fields_block: Option<Rect>,
    /// Each top field: its label and value.
    pub fields: Vec<(Field, Rect)>,
    /// Width of the field labels before the value (label and ": ").
    pub label_w: u16,
    /// The completion row under the fields, when one fits.
    pub suggestions: Option<Rect>,
    /// The items table (form mode).
    pub items: Option<Rect>,
    /// The item rows on screen: index into the items, and the row.
    pub item_rows: Vec<(usize, Rect)>,
    /// The editable columns, as their header cells (x and width apply to every row).
    pub item_columns: Vec<(Column, Rect)>,
    /// The raw JSON editor (raw mode).
    pub raw: Option<Rect>,
    pub preview: Option<Rect>,
    pub problems: Rect,
    /// The problems on screen: index, and the rows it takes (messages wrap).
    pub problem_rows: Vec<(usize, Rect)>,
    pub response: Option<Rect>,
    pub footer: Rect,
}

/// The layout of the events view in `area`.
pub fn layout(area: Rect, state: &EventsState) -> EventsLayout {
    let [main, footer] = Layout::vertical([Constraint::Min(4), Constraint::Length(1)]).areas(area);
    let wide = main.width >= 110;
    let (left, right) = if wide {
        let [l, r] = Layout::horizontal([Constraint::Percentage(58), Constraint::Percentage(42)])
            .areas(main);
        (l, r)
    } else {
        let fields_h = if state.mode == Mode::Form { 6 } else { 0 };
        let items_h = if state.mode == Mode::Form {
            (state.draft.items.len() as u16 + 3).clamp(4, 8)
        } else {
            0
        };
        let [l, r] = Layout::vertical([Constraint::Length(fields_h + items_h), Constraint::Min(5)])
            .areas(main);
        (l, r)
    };
    let mut l = EventsLayout {
        wide,
        footer,
        ..EventsLayout::default()
    };
    match state.mode {
        Mode::Form => {
            let fields_h = if wide { 9 } else { 6 };
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
    let has_response = state.response.is_some() || state.sending;
    if wide {
        let resp_h = if has_response && state.mode == Mode::Form {
            10
        } else {
            0
        };
        let [preview, problems, response] = Layout::vertical([
            Constraint::Min(5),
            Constraint::Length((state.problems.len() as u16 + 2).clamp(3, 8)),
            Constraint::Length(resp_h),
        ])
        .areas(right);
        if state.mode == Mode::Form {
            l.preview = Some(preview);
            if has_response {
                l.response = Some(response);
            }
        } else {
            // The raw editor is on the left: the response takes the preview's place.
            l.response = Some(preview);
        }
        l.problems = problems;
    } else {
        let [a, b] = Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
            .areas(right);
        if state.mode == Mode::Form {
            l.preview = Some(a);
        } else {
            l.raw = Some(a);
        }
        if has_response {
            let [p, r] =
                Layout::vertical([Constraint::Percentage(40), Constraint::Percentage(60)]).areas(b);
            l.problems = p;
            l.response = Some(r);
        } else {
            l.problems = b;
        }
    }
    layout_problems(&mut l, state);
    l
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
            let used = l.label_w + field_value(state, a).0.chars().count() as u16;
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

/// The rows shown are a window that keeps the selected row on screen.
fn layout_items(l: &mut EventsLayout, area: Rect, state: &EventsState) {
    l.items = Some(area);
    let inner = block("", false).inner(area);
    let visible = usize::from(area.height.saturating_sub(3).max(1));
    let first = window_first(state.items_top, state.row, visible);
    let body_y = inner.y + 1; // under the header
    for (k, idx) in (first..state.draft.items.len()).take(visible).enumerate() {
        let y = body_y + k as u16;
        if y < inner.y + inner.height {
            l.item_rows
                .push((idx, Rect::new(inner.x, y, inner.width, 1)));
        }
    }
    let cols = Layout::horizontal(ITEM_WIDTHS)
        .flex(Flex::Start)
        .spacing(ITEM_SPACING)
        .split(Rect::new(
            inner.x,
            inner.y,
            inner.width,
            1.min(inner.height),
        ));
    l.item_columns = Column::ALL
        .iter()
        .zip(cols.iter().skip(2))
        .map(|(c, r)| (*c, *r))
        .collect();
}

/// The problems shown: a window that starts where it was and moves only to keep the selected
/// problem fully visible, each problem taking as many rows as its wrapped text.
fn layout_problems(l: &mut EventsLayout, state: &EventsState) {
    let inner = block("", false).inner(l.problems);
    if inner.height == 0 || state.problems.is_empty() {
        return;
    }
    let rows_of =
        |i: usize| wrap_spans(&problem_spans(state, &state.problems[i]), inner.width).len() as u16;
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

/// Draw the events view into `area`.
pub fn draw(frame: &mut Frame, area: Rect, state: &EventsState) {
    let l = layout(area, state);
    if state.mode == Mode::Form {
        draw_fields(frame, &l, state);
        draw_items(frame, &l, state);
    }
    if let Some(r) = l.raw {
        draw_raw(frame, r, state);
    }
    if let Some(r) = l.preview {
        draw_preview(frame, r, state);
    }
    draw_problems(frame, &l, state);
    if let Some(r) = l.response {
        draw_response_or_stored(frame, r, state);
    }

    // Footer: prompt or status.
    let footer = l.footer;
    let line = if let Some((kind, input)) = &state.prompt {
        let label = match kind {
            PromptKind::Load => "Load batch from: ",
            PromptKind::Save => "Save batch to: ",
        };
        // What the prompt was told (a file already there, no path typed) follows it.
        let mut spans = vec![
            Span::styled(label, Style::new().bold()),
            Span::raw(input.text().to_string()),
            Span::raw("  (Enter ok, Esc cancel)"),
        ];
        if !state.status.is_empty() {
            spans.push(Span::raw("  "));
            spans.push(Span::styled(state.status.clone(), Style::new().bold()));
        }
        Line::from(spans)
    } else if !state.status.is_empty() {
        Line::from(state.status.clone())
    } else {
        Line::from("Ctrl-S send  Ctrl-R raw/form  Ctrl-O load  Ctrl-E save  Tab next  F1 help")
            .dim()
    };
    frame.render_widget(Paragraph::new(line), footer);
    if let Some((_, input)) = &state.prompt {
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

fn field_spans<'a>(state: &'a EventsState, f: Field, label_w: u16) -> Vec<Span<'a>> {
    let focused = state.focus == Focus::Field(f);
    let label = format!(
        "{:>w$}: ",
        f.label(),
        w = usize::from(label_w.saturating_sub(2))
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

fn draw_fields(frame: &mut Frame, l: &EventsLayout, state: &EventsState) {
    let Some(area) = l.fields_block else { return };
    frame.render_widget(
        block(" List ", matches!(state.focus, Focus::Field(_))),
        area,
    );
    for (f, rect) in &l.fields {
        frame.render_widget(
            Paragraph::new(Line::from(field_spans(state, *f, l.label_w))),
            *rect,
        );
    }
    // Suggestions for completable fields.
    if let (Focus::Field(f), Some(rect)) = (state.focus, l.suggestions) {
        let cands = completions(f, state.input(f).text());
        frame.render_widget(
            Paragraph::new(Line::from(format!("Ctrl-N: {}", cands.join(" "))).dim()),
            rect,
        );
    }
    // Cursor in the focused field.
    if let Focus::Field(f) = state.focus {
        if let Some((_, rect)) = l.fields.iter().find(|(g, _)| *g == f) {
            let x = l.label_w + state.input(f).cursor() as u16;
            if x < rect.width {
                frame.set_cursor_position((rect.x + x, rect.y));
            }
        }
    }
}

fn draw_items(frame: &mut Frame, l: &EventsLayout, state: &EventsState) {
    let Some(area) = l.items else { return };
    let focused = state.focus == Focus::Items;
    let clicked = state.draft.items.iter().filter(|i| i.clicked).count();
    let title = format!(" Items ({}, {} clicked) ", state.draft.items.len(), clicked);
    let blk = block(title, focused);
    let header = Row::new(
        ["#", "clk"]
            .into_iter()
            .chain(Column::ALL.iter().map(|c| c.title()))
            .chain(["item_id"])
            .map(|t| Cell::from(t).bold()),
    );
    // Rows are built only for the window the layout shows.
    let rows = l.item_rows.iter().map(|(r, _)| {
        let r = *r;
        let item = &state.draft.items[r];
        let mut cells = vec![
            Cell::from((r + 1).to_string()).dim(),
            Cell::from(if item.clicked { "[x]" } else { "[ ]" }),
        ];
        for c in Column::ALL {
            let selected = focused && r == state.row && c == state.col;
            let text = match (&state.editing, selected) {
                (Some(input), true) => format!("{}▏", input.text()),
                _ => cell(item, c).to_string(),
            };
            let mut cell = Cell::from(text);
            if selected {
                cell = cell.style(focused_style());
            }
            cells.push(cell);
        }
        cells.push(Cell::from(format!("{}-{}", item.group_id, item.variant_id)).dim());
        Row::new(cells)
    });
    let table = Table::new(rows, ITEM_WIDTHS)
        .header(header)
        .block(blk)
        .flex(Flex::Start)
        .column_spacing(ITEM_SPACING);
    frame.render_widget(table, area);
    if state.draft.items.is_empty() && area.height > 3 {
        frame.render_widget(
            Paragraph::new("No items: press a to add one.").dim(),
            Rect::new(area.x + 2, area.y + 2, area.width.saturating_sub(4), 1),
        );
    }
}

fn draw_raw(frame: &mut Frame, area: Rect, state: &EventsState) {
    // The block is drawn around the editor rather than set on it, so drawing never clones
    // the text.
    let blk = block(
        " Batch JSON (raw, Ctrl-R: form) ",
        state.focus == Focus::Raw,
    );
    let inner = blk.inner(area);
    frame.render_widget(blk, area);
    frame.render_widget(state.raw.textarea(), inner);
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
    // Only the visible lines are handed to the widget: a long batch costs nothing per frame
    // beyond finding where the window starts.
    let height = area.height.saturating_sub(2) as usize;
    let lines: Vec<Line> = state
        .preview
        .lines()
        .skip(state.preview_scroll as usize)
        .take(height)
        .map(Line::raw)
        .collect();
    let mut p = Paragraph::new(lines).block(block(title, false));
    if state.validating() {
        p = p.dim();
    }
    frame.render_widget(p, area);
}

/// One problem as styled text: level, path, message.
fn problem_spans<'a>(state: &EventsState, p: &'a Problem) -> Vec<Span<'a>> {
    let (tag, style) = match p.level {
        Level::Error => ("error", Theme::new(state.no_color).error()),
        Level::Warning => ("warn ", Theme::new(state.no_color).warn()),
    };
    vec![
        Span::styled(format!("{tag} "), style),
        Span::styled(format!("{} ", p.path), Style::new().bold()),
        Span::raw(p.message.as_str()),
    ]
}

fn draw_problems(frame: &mut Frame, l: &EventsLayout, state: &EventsState) {
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
    frame.render_widget(block(title, focused), area);
    // Only the problems on screen are built, in the rows the layout gave them.
    for (i, rect) in &l.problem_rows {
        let spans = problem_spans(state, &state.problems[*i]);
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

fn draw_response_or_stored(frame: &mut Frame, area: Rect, state: &EventsState) {
    if area.height == 0 {
        return;
    }
    let mut lines: Vec<Line> = Vec::new();
    let title = match &state.response {
        None if state.sending => " Response: sending… ".to_string(),
        None => " Response ".to_string(),
        Some(Ok(r)) => format!(" Response: {} in {} ms ", r.status, r.elapsed_ms),
        Some(Err(_)) => " Response: failed ".to_string(),
    };
    match &state.response {
        Some(Ok(r)) => {
            let style = if (200..300).contains(&r.status) {
                Theme::new(state.no_color).ok()
            } else {
                Theme::new(state.no_color).error()
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
        Some(Err(why)) => lines.push(Line::styled(
            why.clone(),
            Theme::new(state.no_color).error(),
        )),
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
    frame.render_widget(
        Paragraph::new(lines)
            .block(block(title, false))
            .scroll((state.response_scroll, 0)),
        area,
    );
}
