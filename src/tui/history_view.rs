//! The history view: past sends, newest first, filtered by typing; the selected entry's request
//! and response in full; load an entry back into the request or events view; copy it as curl.
//!
//! Self-contained component (notes/CONTRACTS.md, TUI section). It works on [`HistoryRow`], a
//! display model the App builds from the store's history entries, so the view does not depend
//! on how history is kept on disk.

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;

use super::theme::Theme;

/// What was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// A signed indexing request (loads back into the request view).
    Request,
    /// An event batch to the collector (loads back into the events view).
    Events,
}

/// One past send, as the history view shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryRow {
    /// RFC 3339 time of the send (sorts newest first as text).
    pub time: String,
    pub profile: String,
    pub kind: RowKind,
    pub method: String,
    /// Full URL including the query.
    pub url: String,
    /// For event batches: the kinds of events sent, e.g. "view_recs_list, select_recs_list".
    pub event_kinds: Vec<String>,
    pub request_headers: Vec<(String, String)>,
    pub request_body: String,
    /// None when no response came (connection refused, timeout...).
    pub status: Option<u16>,
    pub duration_ms: Option<u64>,
    pub response_headers: Vec<(String, String)>,
    pub response_body: String,
    /// Why there is no response, when there is none.
    pub error: Option<String>,
}

impl HistoryRow {
    /// "PUT /v2/batch?x=1", or the event kinds of a batch ("view_recs_list, select_recs_list").
    pub fn what(&self) -> String {
        match self.kind {
            RowKind::Events if !self.event_kinds.is_empty() => self.event_kinds.join(", "),
            _ => format!("{} {}", self.method, path_of(&self.url)),
        }
    }

    /// The time as "MM-DD hh:mm:ss" UTC for the list (the stored text if it is not RFC 3339).
    pub fn short_time(&self) -> String {
        self.formatted_time("%m-%d %H:%M:%S")
    }

    /// The time as "YYYY-MM-DD hh:mm:ss UTC" for the detail panel.
    pub fn full_time(&self) -> String {
        self.formatted_time("%Y-%m-%d %H:%M:%S UTC")
    }

    fn formatted_time(&self, format: &str) -> String {
        match chrono::DateTime::parse_from_rfc3339(&self.time) {
            Ok(t) => t.with_timezone(&chrono::Utc).format(format).to_string(),
            Err(_) => self.time.clone(),
        }
    }

    fn status_text(&self) -> String {
        match self.status {
            Some(s) => s.to_string(),
            None => "error".into(),
        }
    }

    fn haystack(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.short_time(),
            self.profile,
            self.what(),
            self.status_text(),
            self.url,
            self.method
        )
        .to_lowercase()
    }

    /// The request as a curl command line (single-quoted for POSIX shells).
    pub fn to_curl(&self) -> String {
        crate::core::curl::to_curl(
            &self.method,
            &self.url,
            &self.request_headers,
            crate::core::curl::CurlBody::Inline(self.request_body.as_bytes()),
        )
    }
}

impl From<&crate::store::HistoryEntry> for HistoryRow {
    fn from(e: &crate::store::HistoryEntry) -> Self {
        let kind = if e.kind == "events" {
            RowKind::Events
        } else {
            RowKind::Request
        };
        // The kinds of events in a batch, in order, each once.
        let mut event_kinds: Vec<String> = Vec::new();
        if kind == RowKind::Events {
            if let Ok(serde_json::Value::Array(events)) =
                serde_json::from_str::<serde_json::Value>(&e.request.body)
            {
                for ev in &events {
                    if let Some(k) = ev.get("event").and_then(|k| k.as_str()) {
                        if !event_kinds.iter().any(|x| x == k) {
                            event_kinds.push(k.to_string());
                        }
                    }
                }
            }
        }
        let mut request_body = e.request.body.clone();
        if e.request.body_truncated {
            request_body.push_str(&format!(
                "\n… (history keeps the first {} of {} bytes)",
                e.request.body.len(),
                e.request.body_len
            ));
        }
        let (status, response_headers, response_body) = match &e.response {
            Some(r) => {
                let mut body = r.body.clone();
                if r.body_truncated {
                    body.push_str(&format!(
                        "\n… (history keeps the first {} of {} bytes)",
                        r.body.len(),
                        r.body_len
                    ));
                }
                (Some(r.status), r.headers.clone(), body)
            }
            None => (None, Vec::new(), String::new()),
        };
        HistoryRow {
            time: e.time.clone(),
            profile: e.profile.clone(),
            kind,
            method: e.request.method.clone(),
            url: e.request.url.clone(),
            event_kinds,
            request_headers: e.request.headers.clone(),
            request_body,
            status,
            duration_ms: e.timings.as_ref().map(|t| t.total_ms.round() as u64),
            response_headers,
            response_body,
            error: e.error.clone(),
        }
    }
}

fn path_of(url: &str) -> &str {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    match after_scheme.find('/') {
        Some(i) => &after_scheme[i..],
        None => "/",
    }
}

/// Messages of the history view.
#[derive(Clone, Debug)]
pub enum HistoryMsg {
    Key(KeyEvent),
    /// Pasted text: goes to the filter (one line).
    Paste(String),
    /// A mouse event and the view's area on screen (for hit testing with [`layout`]).
    Mouse(MouseEvent, Rect),
    /// The history as loaded, with warnings about lines that could not be read.
    Loaded {
        rows: Vec<HistoryRow>,
        warnings: Vec<String>,
    },
    /// A send just finished.
    Appended(Box<HistoryRow>),
}

/// I/O the history view asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistoryEffect {
    /// Read the history again from disk.
    Reload,
    /// Put this indexing request back into the request view.
    LoadIntoRequest(Box<HistoryRow>),
    /// Put this batch back into the events view.
    LoadIntoEvents {
        body: String,
    },
    CopyText(String),
    Status(String),
}

/// All state of the history view.
#[derive(Clone, Debug)]
pub struct HistoryState {
    /// Newest first.
    rows: Vec<HistoryRow>,
    pub filter: String,
    /// Index into the filtered list.
    pub selected: usize,
    /// First row of the list window (see [`super::view::window_first`]).
    top: usize,
    pub detail_scroll: u16,
    pub warnings: Vec<String>,
    /// Draw without colours (NO_COLOR).
    pub no_color: bool,
}

impl Default for HistoryState {
    fn default() -> Self {
        HistoryState {
            rows: Vec::new(),
            filter: String::new(),
            selected: 0,
            top: 0,
            detail_scroll: 0,
            warnings: Vec::new(),
            no_color: Theme::no_color_from_env(),
        }
    }
}

impl HistoryState {
    pub fn new(rows: Vec<HistoryRow>) -> Self {
        let mut s = HistoryState::default();
        s.set_rows(rows);
        s
    }

    fn set_rows(&mut self, mut rows: Vec<HistoryRow>) {
        // Newest first; equal times keep their recorded order, later ones first.
        rows.reverse();
        rows.sort_by(|a, b| b.time.cmp(&a.time));
        self.rows = rows;
        self.clamp();
    }

    /// Rows matching the filter (every word must appear), newest first.
    pub fn visible(&self) -> Vec<&HistoryRow> {
        let words: Vec<String> = self
            .filter
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
        self.rows
            .iter()
            .filter(|r| {
                let hay = r.haystack();
                words.iter().all(|w| hay.contains(w.as_str()))
            })
            .collect()
    }

    pub fn selected_row(&self) -> Option<&HistoryRow> {
        self.visible().get(self.selected).copied()
    }

    fn clamp(&mut self) {
        let n = self.visible().len();
        self.selected = self.selected.min(n.saturating_sub(1));
    }

    /// Typing goes to the filter, so the view is always a text input.
    pub fn is_text_input_focused(&self) -> bool {
        true
    }

    pub fn help(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("type", "filter the list (every word must match)"),
            ("Backspace / Esc", "edit / clear the filter"),
            ("Up / Down", "select an entry"),
            ("PageUp / PageDown", "scroll the request and response"),
            ("Mouse", "click a row: select it; wheel: list / entry"),
            ("Enter", "load the entry into the request or events view"),
            ("Ctrl-Y", "copy the request as a curl command"),
            ("Ctrl-R", "reload the history from disk"),
        ]
    }
}

/// Handle a message; pure.
pub fn update(state: &mut HistoryState, msg: HistoryMsg) -> Vec<HistoryEffect> {
    match msg {
        HistoryMsg::Paste(text) => {
            state
                .filter
                .extend(text.chars().filter(|c| !c.is_control()));
            state.selected = 0;
            state.top = 0;
            state.clamp();
            Vec::new()
        }
        HistoryMsg::Loaded { rows, warnings } => {
            state.set_rows(rows);
            state.warnings = warnings;
            Vec::new()
        }
        HistoryMsg::Appended(row) => {
            let mut rows = std::mem::take(&mut state.rows);
            rows.reverse(); // back to recorded order
            rows.push(*row);
            state.set_rows(rows);
            state.selected = 0;
            Vec::new()
        }
        HistoryMsg::Mouse(m, area) => {
            on_mouse(state, m, area);
            Vec::new()
        }
        HistoryMsg::Key(key) if key.kind == KeyEventKind::Release => Vec::new(),
        HistoryMsg::Key(key) => on_key(state, key),
    }
}

fn on_key(state: &mut HistoryState, key: KeyEvent) -> Vec<HistoryEffect> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('y') if ctrl => {
            return match state.selected_row() {
                Some(row) => vec![
                    HistoryEffect::CopyText(row.to_curl()),
                    HistoryEffect::Status("Copied the request as curl.".into()),
                ],
                None => vec![HistoryEffect::Status("No entry selected.".into())],
            };
        }
        KeyCode::Char('r') if ctrl => return vec![HistoryEffect::Reload],
        KeyCode::Enter => {
            return match state.selected_row() {
                Some(row) if row.kind == RowKind::Events => vec![
                    HistoryEffect::LoadIntoEvents {
                        body: row.request_body.clone(),
                    },
                    HistoryEffect::Status("Batch loaded into the events view.".into()),
                ],
                Some(row) => vec![
                    HistoryEffect::LoadIntoRequest(Box::new(row.clone())),
                    HistoryEffect::Status("Request loaded into the request view.".into()),
                ],
                None => vec![HistoryEffect::Status("No entry selected.".into())],
            };
        }
        KeyCode::Up => {
            state.selected = state.selected.saturating_sub(1);
            state.top = state.top.min(state.selected);
            state.detail_scroll = 0;
        }
        KeyCode::Down => {
            state.selected += 1;
            state.detail_scroll = 0;
        }
        KeyCode::Home => {
            state.selected = 0;
            state.top = 0;
        }
        KeyCode::End => state.selected = usize::MAX,
        KeyCode::PageDown => state.detail_scroll = state.detail_scroll.saturating_add(10),
        KeyCode::PageUp => state.detail_scroll = state.detail_scroll.saturating_sub(10),
        KeyCode::Esc => state.filter.clear(),
        KeyCode::Backspace => {
            state.filter.pop();
        }
        KeyCode::Char(c) if !ctrl && !key.modifiers.contains(KeyModifiers::ALT) => {
            state.filter.push(c);
            state.selected = 0;
            state.top = 0;
        }
        _ => {}
    }
    state.clamp();
    Vec::new()
}

/// Click a row to select it; the wheel over the list moves the selection, over the entry it
/// scrolls the entry.
fn on_mouse(state: &mut HistoryState, m: MouseEvent, area: Rect) {
    let l = layout(area, state);
    // The window stays where it is on screen; the selection moves within it.
    state.top = l.first;
    let pos = Position::new(m.column, m.row);
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            if let Some((i, _)) = l.rows.iter().find(|(_, r)| r.contains(pos)) {
                if state.selected != *i {
                    state.selected = *i;
                    state.detail_scroll = 0;
                }
            }
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let down = m.kind == MouseEventKind::ScrollDown;
            if l.list.contains(pos) {
                let before = state.selected;
                state.selected = if down {
                    state.selected.saturating_add(1)
                } else {
                    state.selected.saturating_sub(1)
                };
                state.clamp();
                if state.selected != before {
                    state.detail_scroll = 0;
                }
            } else if l.detail.contains(pos) {
                state.detail_scroll = if down {
                    state.detail_scroll.saturating_add(3)
                } else {
                    state.detail_scroll.saturating_sub(3)
                };
            }
        }
        _ => {}
    }
}

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

fn layout_for(area: Rect, state: &HistoryState, count: usize) -> HistoryLayout {
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
    let first = super::view::window_first(state.top, state.selected, usize::from(body.height));
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
pub fn draw(frame: &mut Frame, area: Rect, state: &HistoryState) {
    let theme = Theme::new(state.no_color);
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
        .block(
            Block::new()
                .borders(Borders::ALL)
                .title(" Entry - Enter: load it, Ctrl-Y: copy as curl "),
        )
        .wrap(Wrap { trim: false })
        .scroll((state.detail_scroll, 0));
    frame.render_widget(detail, detail_area);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn row(time: &str, profile: &str, kind: RowKind, status: Option<u16>) -> HistoryRow {
        let (method, url, kinds, body) = match kind {
            RowKind::Request => (
                "PUT",
                "http://127.0.0.1:4000/v2/batch?test=1",
                vec![],
                r#"[{"id":"it's"}]"#,
            ),
            RowKind::Events => (
                "POST",
                "http://127.0.0.1:4000/analytics/collect",
                vec!["view_recs_list".to_string(), "select_recs_list".to_string()],
                r#"[{"event":"view_recs_list"}]"#,
            ),
        };
        HistoryRow {
            time: time.into(),
            profile: profile.into(),
            kind,
            method: method.into(),
            url: url.into(),
            event_kinds: kinds,
            request_headers: vec![("Content-Type".into(), "application/json".into())],
            request_body: body.into(),
            status,
            duration_ms: status.map(|_| 12),
            response_headers: vec![],
            response_body: r#"{"accepted":2,"rejected":0}"#.into(),
            error: status.is_none().then(|| "connection refused".to_string()),
        }
    }

    fn key(code: KeyCode) -> HistoryMsg {
        HistoryMsg::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    fn sample() -> HistoryState {
        HistoryState::new(vec![
            row(
                "2026-11-22T10:00:00.000Z",
                "demo",
                RowKind::Request,
                Some(200),
            ),
            row(
                "2026-11-22T10:05:00.000Z",
                "shop",
                RowKind::Events,
                Some(200),
            ),
            row(
                "2026-11-22T10:10:00.000Z",
                "demo",
                RowKind::Request,
                Some(401),
            ),
        ])
    }

    #[test]
    fn newest_first_and_appended_entries_go_on_top() {
        let mut s = sample();
        let times: Vec<_> = s.visible().iter().map(|r| r.time.clone()).collect();
        assert_eq!(
            times,
            [
                "2026-11-22T10:10:00.000Z",
                "2026-11-22T10:05:00.000Z",
                "2026-11-22T10:00:00.000Z"
            ]
        );
        update(
            &mut s,
            HistoryMsg::Appended(Box::new(row(
                "2026-11-22T11:00:00.000Z",
                "x",
                RowKind::Events,
                None,
            ))),
        );
        assert_eq!(s.visible()[0].profile, "x");
        assert_eq!(s.selected, 0);
    }

    #[test]
    fn typing_filters_by_every_word_and_esc_clears() {
        let mut s = sample();
        for c in "demo 401".chars() {
            update(&mut s, key(KeyCode::Char(c)));
        }
        let v = s.visible();
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].status, Some(401));
        update(&mut s, key(KeyCode::Backspace));
        update(&mut s, key(KeyCode::Backspace));
        update(&mut s, key(KeyCode::Backspace));
        assert_eq!(s.filter, "demo ");
        assert_eq!(s.visible().len(), 2);
        for c in "select".chars() {
            update(&mut s, key(KeyCode::Char(c)));
        }
        assert_eq!(s.visible().len(), 0, "demo has no event batches");
        update(&mut s, key(KeyCode::Esc));
        assert_eq!(s.visible().len(), 3);
    }

    #[test]
    fn selection_stays_within_the_filtered_list() {
        let mut s = sample();
        for _ in 0..5 {
            update(&mut s, key(KeyCode::Down));
        }
        assert_eq!(s.selected, 2);
        update(&mut s, key(KeyCode::Char('s')));
        update(&mut s, key(KeyCode::Char('h')));
        assert_eq!(s.selected, 0);
        assert_eq!(s.selected_row().unwrap().profile, "shop");
    }

    #[test]
    fn enter_loads_into_the_matching_view_and_ctrl_y_copies_curl() {
        let mut s = sample();
        update(&mut s, key(KeyCode::Down)); // the events entry
        let effects = update(&mut s, key(KeyCode::Enter));
        assert_eq!(
            effects[0],
            HistoryEffect::LoadIntoEvents {
                body: r#"[{"event":"view_recs_list"}]"#.into()
            }
        );
        update(&mut s, key(KeyCode::Down));
        let effects = update(&mut s, key(KeyCode::Enter));
        assert!(matches!(&effects[0], HistoryEffect::LoadIntoRequest(r) if r.method == "PUT"));
        let effects = update(
            &mut s,
            HistoryMsg::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::CONTROL)),
        );
        // The copied command sends the recorded request: parse it back.
        let HistoryEffect::CopyText(cmd) = &effects[0] else {
            panic!("{effects:?}")
        };
        let c = crate::core::curl::parse_curl_command(cmd).unwrap();
        assert_eq!(c.request.method, "PUT");
        assert_eq!(c.url, "http://127.0.0.1:4000/v2/batch?test=1");
        assert_eq!(c.request.body, br#"[{"id":"it's"}]"#.to_vec());
        assert!(c
            .request
            .headers
            .iter()
            .any(|(n, v)| n == "Content-Type" && v == b"application/json"));
    }

    #[test]
    fn a_store_entry_becomes_a_row_with_its_event_kinds_and_duration() {
        use crate::store::{HistoryEntry, RecordedRequest, RecordedResponse, RecordedTimings};
        let body = r#"[{"event":"view_recs_list"},{"event":"select_recs_list"},{"event":"select_recs_list"}]"#;
        let entry = HistoryEntry {
            time: "2026-11-22T10:05:00.000Z".into(),
            profile: "demo".into(),
            kind: "events".into(),
            request: RecordedRequest {
                method: "POST".into(),
                url: "http://127.0.0.1:4000/analytics/collect".into(),
                headers: vec![("Content-Type".into(), "application/json".into())],
                body: body.into(),
                body_len: body.len(),
                body_truncated: false,
            },
            response: Some(RecordedResponse {
                status: 200,
                headers: vec![],
                body: r#"{"accepted":3}"#.into(),
                body_len: 14,
                body_truncated: false,
            }),
            error: None,
            timings: Some(RecordedTimings {
                connect_ms: None,
                first_byte_ms: 2.0,
                total_ms: 7.6,
            }),
        };
        let r = HistoryRow::from(&entry);
        assert_eq!(r.kind, RowKind::Events);
        assert_eq!(r.what(), "view_recs_list, select_recs_list");
        assert_eq!((r.status, r.duration_ms), (Some(200), Some(8)));
        assert_eq!(r.short_time(), "11-22 10:05:00");
        assert_eq!(r.full_time(), "2026-11-22 10:05:00 UTC");
        let req = HistoryEntry {
            kind: "request".into(),
            request: RecordedRequest {
                method: "PUT".into(),
                url: "http://127.0.0.1:4000/v2/batch".into(),
                headers: vec![],
                body: "[]".into(),
                body_len: 2,
                body_truncated: false,
            },
            response: None,
            error: Some("connection refused".into()),
            timings: None,
            ..entry
        };
        let r = HistoryRow::from(&req);
        assert_eq!(r.what(), "PUT /v2/batch");
        assert_eq!(r.status_text(), "error");
    }

    fn render(state: &HistoryState, w: u16, h: u16) -> String {
        crate::tui::test_util::render_text(w, h, |f| draw(f, f.area(), state))
    }

    #[test]
    fn draws_list_and_selected_entry_at_80x24_and_120x40() {
        let mut s = sample();
        update(&mut s, key(KeyCode::Down));
        for (w, h) in [(80, 24), (120, 40)] {
            let screen = render(&s, w, h);
            assert!(screen.contains("History (3)"), "{w}x{h}\n{screen}");
            assert!(screen.contains("11-22 10:10:00"), "{w}x{h}\n{screen}");
            assert!(
                screen.contains("2026-11-22 10:05:00 UTC"),
                "{w}x{h}\n{screen}"
            );
            assert!(screen.contains("PUT /v2/batch?test=1"), "{w}x{h}\n{screen}");
            assert!(
                screen.contains("view_recs_list, select_recs_list"),
                "{w}x{h}\n{screen}"
            );
            assert!(screen.contains("401"), "{w}x{h}\n{screen}");
            // Detail of the selected (events) entry.
            assert!(
                screen.contains("POST http://127.0.0.1:4000/analytics/collect"),
                "{w}x{h}\n{screen}"
            );
            assert!(screen.contains("HTTP 200 in 12 ms"), "{w}x{h}\n{screen}");
            assert!(
                screen.contains(r#"{"accepted":2,"rejected":0}"#),
                "{w}x{h}\n{screen}"
            );
        }
        for c in "zzz".chars() {
            update(&mut s, key(KeyCode::Char(c)));
        }
        let screen = render(&s, 80, 24);
        assert!(
            screen.contains("History (0 of 3) - filter: zzz"),
            "{screen}"
        );
        assert!(screen.contains("Nothing matches the filter"), "{screen}");
    }

    // -----------------------------------------------------------------------------------------
    // Mouse: events aimed at cells from `layout`, the layout `draw` uses.

    use crate::tui::test_util::{click_in, render_buffer, reversed, wheel_in};

    fn area(w: u16, h: u16) -> Rect {
        crate::tui::view::frame_layout(Rect::new(0, 0, w, h)).1
    }

    /// `n` entries, one a minute, newest first on screen.
    fn many(n: usize) -> HistoryState {
        HistoryState::new(
            (0..n)
                .map(|i| {
                    row(
                        &format!("2026-11-22T10:{i:02}:00.000Z"),
                        &format!("p{i}"),
                        RowKind::Request,
                        Some(200),
                    )
                })
                .collect(),
        )
    }

    #[test]
    fn clicking_a_row_selects_it_and_it_is_drawn_highlighted() {
        for (w, h) in [(80, 24), (120, 40)] {
            let a = area(w, h);
            let mut s = sample();
            s.detail_scroll = 6;
            let l = layout(a, &s);
            let (i, r) = l.rows[2];
            update(&mut s, HistoryMsg::Mouse(click_in(r), a));
            assert_eq!(s.selected, i, "{w}x{h}");
            assert_eq!(s.detail_scroll, 0, "a new entry shows from its top");
            let buf = render_buffer(w, h, |f| draw(f, a, &s));
            assert!(reversed(&buf, r.y, r.x, r.x + r.width), "{w}x{h}");
            let (_, other) = l.rows[0];
            assert!(!reversed(&buf, other.y, other.x, other.x + other.width));
            let detail = crate::tui::test_util::render_text(w, h, |f| draw(f, a, &s));
            assert!(
                detail.contains("2026-11-22 10:00:00 UTC · profile demo"),
                "the oldest entry is shown\n{detail}"
            );
        }
    }

    #[test]
    fn the_wheel_moves_the_selection_over_the_list_and_scrolls_the_entry() {
        let a = area(120, 40);
        let mut s = many(30);
        let l = layout(a, &s);
        for _ in 0..3 {
            update(&mut s, HistoryMsg::Mouse(wheel_in(l.list, true), a));
        }
        assert_eq!(s.selected, 3);
        update(&mut s, HistoryMsg::Mouse(wheel_in(l.list, false), a));
        assert_eq!(s.selected, 2);
        update(&mut s, HistoryMsg::Mouse(wheel_in(l.detail, true), a));
        update(&mut s, HistoryMsg::Mouse(wheel_in(l.detail, true), a));
        assert_eq!((s.selected, s.detail_scroll), (2, 6));
        update(&mut s, HistoryMsg::Mouse(wheel_in(l.detail, false), a));
        assert_eq!(s.detail_scroll, 3);
        // Past the end of the list the selection stays on the last entry.
        for _ in 0..40 {
            update(&mut s, HistoryMsg::Mouse(wheel_in(l.list, true), a));
        }
        assert_eq!(s.selected, 29);
    }

    #[test]
    fn a_click_in_a_scrolled_list_hits_the_row_drawn_and_keeps_the_window() {
        let a = area(80, 24);
        let mut s = many(30);
        s.selected = 25;
        let l = layout(a, &s);
        assert!(l.first > 0, "{l:?}");
        let (i, r) = l.rows[1];
        update(&mut s, HistoryMsg::Mouse(click_in(r), a));
        assert_eq!(s.selected, i);
        assert_eq!(layout(a, &s).first, l.first, "the window did not move");
        let screen = crate::tui::test_util::render_text(80, 24, |f| draw(f, a, &s));
        let drawn = screen.lines().nth(usize::from(r.y)).unwrap();
        let want = s.visible()[i].profile.clone();
        assert!(drawn.contains(&format!(" {want} ")), "{drawn:?} vs {want}");
    }
}
