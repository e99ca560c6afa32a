//! The history view's state, rows, messages and effects.

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::layout::Rect;

use crate::tui::component::Clip;
use crate::tui::widgets::list::ListState;

/// What was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// A signed indexing request (loads back into the request view).
    Request,
    /// An event batch to the collector (loads back into the events view).
    Events,
}

/// How a body the history keeps only the start of is marked in the view (`{KEPT_NOTE}N of M
/// bytes)`): such an entry is no request to write as a suite entry.
pub(super) const KEPT_NOTE: &str = "\n… (history keeps the first ";

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
    /// The request model sent (its body the recorded one), when the entry names it.
    pub spec: Option<crate::core::RequestSpec>,
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

    pub(super) fn formatted_time(&self, format: &str) -> String {
        match chrono::DateTime::parse_from_rfc3339(&self.time) {
            Ok(t) => t.with_timezone(&chrono::Utc).format(format).to_string(),
            Err(_) => self.time.clone(),
        }
    }

    pub(super) fn status_text(&self) -> String {
        match self.status {
            Some(s) => s.to_string(),
            None => "error".into(),
        }
    }

    pub(super) fn haystack(&self) -> String {
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
        // A body the history keeps only the start of says so at its end.
        let kept = |body: &str, truncated: bool, len: usize| {
            if truncated {
                format!("{body}{KEPT_NOTE}{} of {len} bytes)", body.len())
            } else {
                body.to_string()
            }
        };
        let request_body = kept(
            &e.request.body,
            e.request.body_truncated,
            e.request.body_len,
        );
        let (status, response_headers, response_body) = match &e.response {
            Some(r) => (
                Some(r.status),
                r.headers.clone(),
                kept(&r.body, r.body_truncated, r.body_len),
            ),
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
            spec: e.request.sent_spec(),
        }
    }
}

pub(super) fn path_of(url: &str) -> &str {
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
    /// Pasted text: goes to the filter (one line), which it opens.
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
    /// Run an action of the view (from the copy menu or the command palette).
    Run(super::keys::Action),
}

/// I/O the history view asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistoryEffect {
    /// Read the history again from disk.
    Reload,
    /// Put this indexing request back into the request view.
    LoadIntoRequest(Box<HistoryRow>),
    /// Send this entry's request again through the engine, as the request view sends: signed
    /// again now with the profile's REST key, to the entry's URL; the editor is not changed.
    Resend(Box<HistoryRow>),
    /// Put this batch back into the events view.
    LoadIntoEvents {
        body: String,
    },
    /// Copy `text` to the clipboard; `what` names it in the status line ("copied {what}").
    Copy(Clip),
    Status(String),
}

/// All state of the history view.
#[derive(Clone, Debug, Default)]
pub struct HistoryState {
    /// Newest first.
    pub(super) rows: Vec<HistoryRow>,
    /// The list's selection (into the filtered list), window and `/` filter.
    pub list: ListState,
    pub detail_scroll: u16,
    /// The view's area on screen (set by the router before each key), so PageUp / PageDown
    /// scroll the entry by its pane's height and stop at its last line.
    pub area: Rect,
    pub warnings: Vec<String>,
}

impl HistoryState {
    pub(super) fn set_rows(&mut self, mut rows: Vec<HistoryRow>) {
        // Newest first; equal times keep their recorded order, later ones first.
        rows.reverse();
        rows.sort_by(|a, b| b.time.cmp(&a.time));
        self.rows = rows;
        self.clamp();
    }

    /// Rows matching the filter (every word must appear), newest first.
    pub fn visible(&self) -> Vec<&HistoryRow> {
        let words = self.list.words();
        self.rows
            .iter()
            .filter(|r| {
                let hay = r.haystack();
                words.iter().all(|w| hay.contains(w.as_str()))
            })
            .collect()
    }

    pub fn selected_row(&self) -> Option<&HistoryRow> {
        self.visible().get(self.list.selected).copied()
    }

    pub(super) fn clamp(&mut self) {
        let n = self.visible().len();
        self.list.clamp(n);
    }

    /// While `/` has the filter open, typing goes to it.
    pub fn is_text_input_focused(&self) -> bool {
        self.list.typing()
    }

    /// Help rows for what is not an action of its own (the actions are in [`super::KEYS`]).
    pub fn help(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            (
                "/",
                "filter the list (every word must match; Enter keeps it, Esc clears it)",
            ),
            ("Up / Down, j / k", "select an entry (Home / End: first / last)"),
            ("PageUp / PageDown", "scroll the request and response"),
            ("Mouse", "click a row: select it; wheel: list / entry"),
            (
                "Panes",
                "the list cuts long cells to their column; the entry pane shows the selected entry whole, wrapped, and scrolls",
            ),
        ]
    }
}
