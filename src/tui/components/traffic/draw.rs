//! Layout and drawing of the traffic view. Draw only reads: the list lines and the selected
//! record's text were made in `update`; only the rows on screen are drawn.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Wrap};
use ratatui::Frame;

use super::detail::{Detail, Kind};
use super::keys::{Action, COPY_KEYS, KEYS};
use super::state::{Feed, Tone, TrafficState};
use crate::tui::global_keys::copy_key;
use crate::tui::theme::Theme;
use crate::tui::widgets::list::{self, ListView, Window};
use crate::tui::widgets::pane;
use crate::tui::widgets::text::{clip_marked, fit_parts, wrap_chars, wrap_words};

/// Where the parts of the traffic view are (shared by [`draw`] and mouse hit testing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrafficLayout {
    /// The list box (with its border).
    pub list: Rect,
    /// The rows on screen (indexes into the newest-first filtered list).
    pub window: Window,
    /// The selected request's box (with its border).
    pub detail: Rect,
}

/// The layout of the view in `area` for the current records and selection.
pub fn layout(area: Rect, state: &TrafficState) -> TrafficLayout {
    let (list, detail) = if area.width >= 120 {
        let [a, b] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(area);
        (a, b)
    } else {
        let list_h = (area.height * 2 / 5).max(5.min(area.height));
        let [a, b] = Layout::vertical([Constraint::Length(list_h), Constraint::Min(0)]).areas(area);
        (a, b)
    };
    let body = Rect::new(
        list.x + 1,
        list.y + 1,
        list.width.saturating_sub(2),
        list.height.saturating_sub(2),
    );
    TrafficLayout {
        list,
        window: state.list.window(body, state.visible_len()),
        detail,
    }
}

fn tone_style(t: Tone, theme: &Theme) -> Style {
    match t {
        Tone::Ok => theme.ok(),
        Tone::Rejected => theme.error(),
        Tone::Warn => theme.warn(),
        Tone::Other => theme.base(),
    }
}

fn kind_style(k: Kind, theme: &Theme) -> Style {
    match k {
        Kind::Heading => theme.title(),
        Kind::Text => theme.base(),
        Kind::Ok => theme.ok(),
        Kind::Error => theme.error(),
        Kind::Warn => theme.warn(),
        Kind::Dim => theme.dim(),
    }
}

/// The list's title: counts, the filter, the pause and what was dropped.
fn list_title(state: &TrafficState) -> String {
    let mut t = state
        .list
        // Hidden inspection calls are not counted as filtered out (the bottom line says them).
        .title(
            "Traffic",
            state.visible_len(),
            state.len() - state.hidden_inspections(),
            u16::MAX,
        );
    if state.paused {
        t.push_str(&format!("· PAUSED, {} held ", state.held_len()));
    }
    t
}

/// The list's bottom line: the feed, the bound and what was dropped or skipped.
fn list_footer(state: &TrafficState) -> String {
    let feed = match &state.feed {
        Feed::Connecting => "connecting".to_string(),
        // Paused, the stream is still open but the list is not live: new records are held.
        Feed::Live if state.paused => "paused".to_string(),
        Feed::Live => "live".to_string(),
        Feed::Waiting(why) => format!("waiting: {why}"),
    };
    let mut t = format!(" {feed} · newest {} kept", state.keep);
    if state.dropped > 0 {
        t.push_str(&format!(", {} older dropped", state.dropped));
    }
    if state.skipped > 0 {
        t.push_str(&format!(", {} skipped by the server", state.skipped));
    }
    let hidden = state.hidden_inspections();
    if hidden > 0 {
        t.push_str(&format!(", {hidden} /_inspect hidden (/inspect shows)"));
    }
    t.push(' ');
    t
}

/// Draw the traffic view into `area`.
pub fn draw(frame: &mut Frame, area: Rect, state: &TrafficState, theme: &Theme) {
    let l = layout(area, state);
    let marker = list::new_marker(
        &state.list,
        &l.window,
        &KEYS.label_of(Action::Newest),
        theme,
    );
    // The title gives way to the marker and is cut with `…` when the box is narrow.
    let room = usize::from(l.list.width.saturating_sub(2)).saturating_sub(marker.width());
    let title = Span::styled(clip_marked(&list_title(state), room), theme.title());
    let block = pane(title, true, theme)
        .title(marker)
        .title_bottom(Line::from(Span::styled(
            clip_marked(
                &list_footer(state),
                usize::from(l.list.width.saturating_sub(2)),
            ),
            theme.dim(),
        )));
    let width = usize::from(l.list.width.saturating_sub(2));
    // Only the rows on screen are built, each cut with `…` (the detail below shows it whole).
    let rows = l
        .window
        .rows
        .iter()
        .filter_map(|(i, _)| state.visible(*i))
        .map(|e| {
            Row::new([Cell::from(clip_marked(&e.line, width))]).style(tone_style(e.tone, theme))
        })
        .collect();
    let empty = if state.is_empty() {
        format!(
            "No requests yet. Point an application at {} and they appear here.",
            if state.address.is_empty() {
                "the local server"
            } else {
                state.address.as_str()
            }
        )
    } else {
        "Nothing matches the filter (Esc clears it).".to_string()
    };
    list::draw(
        frame,
        l.list,
        ListView {
            block,
            header: None,
            widths: vec![Constraint::Fill(1)],
            rows,
            empty,
            highlight: true,
        },
        &state.list,
        &l.window,
        theme,
    );
    draw_detail(frame, l.detail, state, theme);
    super::har::draw(frame, area, state, theme);
}

fn draw_detail(frame: &mut Frame, area: Rect, state: &TrafficState, theme: &Theme) {
    let block = pane(
        Span::styled(
            format!(
                " {} ",
                fit_parts(
                    &[
                        "Request",
                        &format!("{}: edit", KEYS.label_of(Action::LoadIntoRequest)),
                        &format!("{}: diagnose", KEYS.label_of(Action::LoadIntoDiagnose)),
                        &format!("{}: curl", copy_key(&COPY_KEYS.label_of(Action::CopyCurl))),
                    ],
                    " · ",
                    usize::from(area.width.saturating_sub(4)),
                )
            ),
            theme.title(),
        ),
        false,
        theme,
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    // A re-send waiting for `y`: the whole question, wrapped, where the record was (the status
    // line cuts it at 80 columns).
    if let Some((_, prompt)) = &state.confirm {
        frame.render_widget(
            Paragraph::new(Span::styled(prompt.clone(), theme.title())).wrap(Wrap { trim: true }),
            inner,
        );
        return;
    }
    // Arrivals move the selection (on the newest record) without building its text: it is
    // built here, once per frame, until the next key or click keeps it (`update`).
    let fresh;
    let (d, scroll) = match (&state.detail, state.selected_entry()) {
        (Some(d), Some(e)) if d.seq == e.seen.seq => (d, state.detail_scroll),
        (_, Some(e)) => {
            fresh = super::detail::build(&e.seen);
            (&fresh, 0)
        }
        (_, None) => return,
    };
    let lines = detail_lines(d, usize::from(inner.width), theme);
    // Only the rows on screen are handed to the widget.
    let from = usize::from(scroll).min(lines.len().saturating_sub(1));
    let shown: Vec<Line> = lines
        .into_iter()
        .skip(from)
        .take(usize::from(inner.height))
        .collect();
    frame.render_widget(Paragraph::new(shown), inner);
}

/// The rows of the selected record: the summary, the server's signing text next to what was
/// received (one above the other when the pane is narrow), then headers, body and upstream.
pub fn detail_lines(d: &Detail, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let wrapped = |rows: &[(Kind, String)], out: &mut Vec<Line<'static>>| {
        for (k, t) in rows {
            let style = kind_style(*k, theme);
            out.extend(
                wrap_words(t, width)
                    .into_iter()
                    .map(|row| Line::styled(row, style)),
            );
        }
    };
    let mut out: Vec<Line<'static>> = Vec::new();
    wrapped(&d.summary, &mut out);
    out.push(Line::raw(""));
    let received_title = "Received".to_string();
    match &d.expected {
        Some((title, expected)) if width >= 70 => {
            let half = (width - 1) / 2;
            out.push(Line::from(vec![
                // Cut with `…` when a half is narrower than its title.
                Span::styled(
                    format!("{:<half$}", clip_marked(title, half)),
                    theme.title(),
                ),
                Span::raw(" "),
                Span::styled(clip_marked(&received_title, half), theme.title()),
            ]));
            let n = expected.len().max(d.received.len());
            for i in 0..n {
                // Each side wraps in its half (between characters: signing text), the
                // continuation rows of a line starting with `↪`.
                let side = |l: Option<&String>| -> Vec<String> {
                    let l = l.map_or("", String::as_str);
                    let mut rows = wrap_chars(l, half);
                    if rows.len() > 1 {
                        rows = std::iter::once(l.chars().take(half).collect())
                            .chain(
                                wrap_chars(&l.chars().skip(half).collect::<String>(), half - 2)
                                    .into_iter()
                                    .map(|r| format!("↪ {r}")),
                            )
                            .collect();
                    }
                    rows
                };
                let (left, right) = (side(expected.get(i)), side(d.received.get(i)));
                for k in 0..left.len().max(right.len()) {
                    let l = left.get(k).map_or("", String::as_str);
                    let r = right.get(k).map_or("", String::as_str);
                    out.push(Line::from(vec![
                        Span::styled(format!("{l:<half$}"), theme.marker()),
                        Span::raw(" "),
                        Span::raw(r.to_string()),
                    ]));
                }
            }
        }
        other => {
            if let Some((title, expected)) = other {
                out.extend(
                    wrap_words(title, width)
                        .into_iter()
                        .map(|t| Line::styled(t, theme.title())),
                );
                out.extend(
                    expected
                        .iter()
                        .flat_map(|l| wrap_chars(l, width))
                        .map(|l| Line::styled(l, theme.marker())),
                );
            }
            out.push(Line::styled(received_title, theme.title()));
            out.extend(
                d.received
                    .iter()
                    .flat_map(|l| wrap_chars(l, width))
                    .map(Line::raw),
            );
        }
    }
    out.push(Line::raw(""));
    wrapped(&d.rest, &mut out);
    out
}
