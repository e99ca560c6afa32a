//! Layout and drawing of the history view.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;

use super::keys::{Action, COPY_KEYS, KEYS};
use super::state::*;
use crate::tui::global_keys::copy_key;
use crate::tui::theme::Theme;
use crate::tui::widgets::list_window::window_first;
use crate::tui::widgets::text::fit_parts;

/// Where the parts of the history view are (shared by [`draw`] and mouse hit testing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryLayout {
    /// The list box (with its border).
    pub list: Rect,
    /// Index (into the filtered list) of the first row on screen.
    pub first: usize,
    /// The rows on screen: index into the filtered list and the row's cells.
    pub rows: Vec<(usize, Rect)>,
    /// The selected entry's box (with its border).
    pub detail: Rect,
}

/// The layout of the view in `area` for the current rows, filter and selection.
pub fn layout(area: Rect, state: &HistoryState) -> HistoryLayout {
    layout_for(area, state, state.visible().len())
}

pub(super) fn layout_for(area: Rect, state: &HistoryState, count: usize) -> HistoryLayout {
    let (list, detail) = if area.width >= 110 {
        let [a, b] = Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)])
            .areas(area);
        (a, b)
    } else {
        // At least 6 rows when the screen allows it, never more than half of it (a short
        // terminal gives less than 6: `clamp` would panic with min > max).
        let rows = u16::try_from(count).unwrap_or(u16::MAX).saturating_add(4);
        let list_h = rows.max(6).min(area.height / 2);
        let [a, b] = Layout::vertical([Constraint::Length(list_h), Constraint::Min(3)]).areas(area);
        (a, b)
    };
    // Inside the border, under the header row.
    let body = Rect::new(
        list.x + 1,
        list.y + 2,
        list.width.saturating_sub(2),
        list.height.saturating_sub(3),
    );
    let first = window_first(state.top, state.selected, usize::from(body.height));
    let rows = (first..count)
        .take(usize::from(body.height))
        .enumerate()
        .map(|(k, i)| (i, Rect::new(body.x, body.y + k as u16, body.width, 1)))
        .collect();
    HistoryLayout {
        list,
        first,
        rows,
        detail,
    }
}

/// Draw the history view into `area`.
pub fn draw(frame: &mut Frame, area: Rect, state: &HistoryState, theme: &Theme) {
    let visible = state.visible();
    let l = layout_for(area, state, visible.len());
    let (list_area, detail_area) = (l.list, l.detail);

    // The list, with the filter in its title.
    let title = if state.filter.is_empty() {
        format!(" History ({}) - type to filter ", visible.len())
    } else {
        format!(
            " History ({} of {}) - filter: {}▏ ",
            visible.len(),
            state.rows.len(),
            state.filter
        )
    };
    let header =
        Row::new(["time", "profile", "what", "status", "ms"].map(|h| Cell::from(h).bold()));
    let rows = visible.iter().map(|r| {
        let status_style = match r.status {
            Some(s) if (200..300).contains(&s) => theme.ok(),
            _ => theme.error(),
        };
        Row::new(vec![
            Cell::from(r.short_time()),
            Cell::from(r.profile.clone()),
            Cell::from(r.what()),
            Cell::from(r.status_text()).style(status_style),
            Cell::from(r.duration_ms.map(|d| d.to_string()).unwrap_or_default()),
        ])
    });
    let widths = [
        Constraint::Length(14),
        Constraint::Length(8),
        Constraint::Fill(1),
        Constraint::Length(6),
        Constraint::Length(5),
    ];
    // The window starts where the layout says, so a click hits the row drawn there.
    let mut table_state =
        TableState::default()
            .with_offset(l.first)
            .with_selected(if visible.is_empty() {
                None
            } else {
                Some(state.selected)
            });
    let table = Table::new(rows, widths)
        .header(header)
        .block(Block::new().borders(Borders::ALL).title(title))
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    frame.render_stateful_widget(table, list_area, &mut table_state);
    if visible.is_empty() && list_area.height > 3 {
        let msg = if state.rows.is_empty() {
            "No sends yet: what you send appears here."
        } else {
            "Nothing matches the filter (Esc clears it)."
        };
        frame.render_widget(
            Paragraph::new(msg).dim(),
            Rect::new(
                list_area.x + 2,
                list_area.y + 2,
                list_area.width.saturating_sub(4),
                1,
            ),
        );
    }

    // The selected entry in full.
    let mut lines: Vec<Line> = Vec::new();
    for w in &state.warnings {
        lines.push(Line::styled(format!("warning: {w}"), theme.warn()));
    }
    if let Some(r) = visible.get(state.selected) {
        lines.push(Line::from(format!("{} · profile {}", r.full_time(), r.profile)).dim());
        lines.push(Line::from(vec![
            Span::styled(format!("{} ", r.method), Style::new().bold()),
            Span::raw(r.url.clone()),
        ]));
        for (k, v) in &r.request_headers {
            lines.push(Line::from(format!("{k}: {v}")));
        }
        lines.push(Line::from(""));
        lines.extend(r.request_body.lines().map(|l| Line::from(l.to_string())));
        lines.push(Line::from(""));
        match (r.status, &r.error) {
            (Some(s), _) => {
                let style = if (200..300).contains(&s) {
                    theme.ok()
                } else {
                    theme.error()
                };
                lines.push(Line::styled(
                    format!(
                        "HTTP {s}{}",
                        r.duration_ms
                            .map(|d| format!(" in {d} ms"))
                            .unwrap_or_default()
                    ),
                    style,
                ));
                for (k, v) in &r.response_headers {
                    lines.push(Line::from(format!("{k}: {v}")));
                }
                lines.push(Line::from(""));
                lines.extend(r.response_body.lines().map(|l| Line::from(l.to_string())));
            }
            (None, Some(e)) => lines.push(Line::styled(format!("No response: {e}"), theme.error())),
            (None, None) => lines.push(Line::from("No response recorded.").dim()),
        }
    }
    let detail = Paragraph::new(lines)
        .block(Block::new().borders(Borders::ALL).title(format!(
            " {} ",
            fit_parts(
                &[
                    "Entry",
                    &format!("{}: load it", KEYS.label_of(Action::Load)),
                    &format!(
                        "{}: copy as curl",
                        copy_key(&COPY_KEYS.label_of(Action::CopyCurl))
                    ),
                ],
                " · ",
                usize::from(detail_area.width.saturating_sub(4)),
            )
        )))
        .wrap(Wrap { trim: false })
        .scroll((state.detail_scroll, 0));
    frame.render_widget(detail, detail_area);
}
