//! Layout and drawing of the history view.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row};
use ratatui::Frame;

use super::keys::{Action, COPY_KEYS, KEYS};
use super::state::*;
use crate::tui::global_keys::copy_key;
use crate::tui::theme::Theme;
use crate::tui::widgets::list::{self, ListView, Window};
use crate::tui::widgets::text::{fit_parts, wrap_spans};

/// Where the parts of the history view are (shared by [`draw`] and mouse hit testing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryLayout {
    /// The list box (with its border).
    pub list: Rect,
    /// The rows on screen (indexes into the filtered list).
    pub window: Window,
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
    HistoryLayout {
        list,
        window: state.list.window(body, count),
        detail,
    }
}

/// Draw the history view into `area`.
/// The width of the list's profile column.
const PROFILE_W: usize = 8;

pub fn draw(frame: &mut Frame, area: Rect, state: &HistoryState, theme: &Theme) {
    let visible = state.visible();
    let l = layout_for(area, state, visible.len());
    let (list_area, detail_area) = (l.list, l.detail);

    // The list, with the filter in its title; only the rows on screen are built.
    let title = state
        .list
        .title("History", visible.len(), state.rows.len(), list_area.width);
    let header =
        Row::new(["time", "profile", "what", "status", "ms"].map(|h| Cell::from(h).bold()));
    let rows = l
        .window
        .rows
        .iter()
        .filter_map(|(i, _)| visible.get(*i))
        .map(|r| {
            let status_style = match r.status {
                Some(s) if (200..300).contains(&s) => theme.ok(),
                _ => theme.error(),
            };
            Row::new(vec![
                Cell::from(r.short_time()),
                // The column is 8 wide: a longer name is cut with a mark, not silently.
                Cell::from(crate::tui::widgets::text::clip_marked(
                    &r.profile, PROFILE_W,
                )),
                Cell::from(r.what()),
                Cell::from(r.status_text()).style(status_style),
                Cell::from(r.duration_ms.map(|d| d.to_string()).unwrap_or_default()),
            ])
        });
    let widths = vec![
        Constraint::Length(14),
        Constraint::Length(PROFILE_W as u16),
        Constraint::Fill(1),
        Constraint::Length(6),
        Constraint::Length(5),
    ];
    let empty = if state.rows.is_empty() {
        "No sends yet: what you send appears here."
    } else {
        "Nothing matches the filter (Esc clears it)."
    };
    list::draw(
        frame,
        list_area,
        ListView {
            block: Block::new().borders(Borders::ALL).title(title),
            header: Some(header),
            widths,
            rows: rows.collect(),
            empty: empty.to_string(),
            highlight: true,
        },
        &state.list,
        &l.window,
        theme,
    );

    // The selected entry in full, wrapped to the pane.
    let width = detail_area.width.saturating_sub(2);
    let lines = detail_lines(state, &visible, width, theme);
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
        .scroll((state.detail_scroll, 0));
    frame.render_widget(detail, detail_area);
}

/// The selected entry's rows in a pane `width` columns wide (wrapped here, so that the keys
/// can tell where its last row is).
pub(super) fn detail_lines(
    state: &HistoryState,
    visible: &[&HistoryRow],
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines: Vec<Line> = Vec::new();
    for w in &state.warnings {
        lines.push(Line::styled(format!("warning: {w}"), theme.warn()));
    }
    if let Some(r) = visible.get(state.list.selected) {
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
    lines
        .iter()
        .flat_map(|l| {
            let rows = wrap_spans(&l.spans, width);
            let style = l.style;
            rows.into_iter().map(move |r| r.style(style))
        })
        .collect()
}
