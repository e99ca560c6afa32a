//! The traffic view's state: the records received (bounded), the filter, the selection, the
//! pause, the connection to the stream and the address applications point at.

use std::collections::VecDeque;

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::layout::Rect;

use super::detail::Detail;
use crate::core::traffic::RequestSeen;
use crate::core::traffic::{Route, Verdict};
use crate::tui::component::Clip;
use crate::tui::model::EditorRequest;
use crate::tui::widgets::list::ListState;

/// How many records the view keeps; older ones are dropped (and counted) beyond it.
pub const KEEP: usize = 1000;

/// How a record's line is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Accepted (2xx, the signature verified).
    Ok,
    /// Refused: a 4xx/5xx answer or a signature that did not verify.
    Rejected,
    /// Accepted with warnings, or an upstream that disagreed or could not be reached.
    Warn,
    /// Anything else (inspection calls, 3xx).
    Other,
}

/// One received record and what the list shows of it (made once, when it arrives).
#[derive(Clone, Debug)]
pub struct Entry {
    pub seen: RequestSeen,
    /// The list line: `11:24:54 PUT /v2/batch 401 SIGNATURE_MISMATCH TRAILING_SLASH_TRIMMED`.
    pub line: String,
    pub tone: Tone,
    /// What the filter searches: the line, the conclusion and the route, lower-cased.
    hay: String,
}

impl Entry {
    pub fn new(seen: RequestSeen) -> Entry {
        let line = crate::core::traffic::request_line(&seen);
        let tone = tone_of(&seen);
        let mut hay = format!("{line} {}", seen.route.as_str());
        if let Some(c) = &seen.conclusion {
            hay.push(' ');
            hay.push_str(c);
        }
        let hay = hay.to_lowercase();
        Entry {
            seen,
            line,
            tone,
            hay,
        }
    }

    /// Whether every word of the (lower-cased) filter appears in the record. An inspection
    /// call (`/_inspect/*`: the workbench asking its server what it stored, a test harness)
    /// is not an application's request: the server's stream carries it (docs/server.md W1),
    /// the view shows it only when a filter word asks for it (`/inspect`).
    pub fn matches(&self, words: &[String]) -> bool {
        if self.seen.route == Route::Inspect && !words.iter().any(|w| w.contains("inspect")) {
            return false;
        }
        words.iter().all(|w| self.hay.contains(w.as_str()))
    }

    /// Whether the record is an inspection call (hidden unless the filter asks for it).
    pub fn is_inspection(&self) -> bool {
        self.seen.route == Route::Inspect
    }
}

fn tone_of(r: &RequestSeen) -> Tone {
    let upstream_bad = r
        .upstream
        .as_ref()
        .is_some_and(|u| u.status.is_none_or(|s| s >= 400));
    if r.status >= 400 || r.verdict == Some(Verdict::Rejected) {
        Tone::Rejected
    } else if upstream_bad || !r.warnings.is_empty() {
        Tone::Warn
    } else if (200..300).contains(&r.status) {
        Tone::Ok
    } else {
        Tone::Other
    }
}

/// Where the records come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Feed {
    /// Not connected yet.
    Connecting,
    /// The stream is open.
    Live,
    /// The stream is not there (why); the feed retries until it is back.
    Waiting(String),
}

/// What the HAR path prompt is for (`har.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HarAction {
    Open,
    /// The requests shown (a filter is set, or a capture was opened).
    Write,
    /// Every request the followed server received: its own HAR export (`docs/server.md` rule
    /// R15), bodies as it kept them.
    WriteReceived,
}

/// The open HAR path prompt.
#[derive(Clone, Debug)]
pub struct HarPrompt {
    pub action: HarAction,
    pub input: crate::tui::widgets::line_input::LineInput,
}

/// All state of the traffic view.
#[derive(Clone, Debug)]
pub struct TrafficState {
    /// Records shown, in arrival order (oldest first), at most `keep`.
    pub(super) entries: VecDeque<Entry>,
    /// Numbers of the entries the filter lets through, in arrival order.
    pub(super) matches: VecDeque<u64>,
    /// Records that arrived while paused, shown on resume (at most `keep`).
    pub(super) held: VecDeque<Entry>,
    /// The most records kept ([`KEEP`]).
    pub keep: usize,
    /// Records dropped because more than `keep` arrived.
    pub dropped: u64,
    /// Records the server said this view missed (it fell behind the stream).
    pub skipped: u64,
    pub paused: bool,
    /// The list (newest first, after the filter): its selection, window and `/` filter. At
    /// row 0 the selection follows the newest record; elsewhere it stays on its record as new
    /// ones arrive, counted in `unseen` (the list's top border says `↑ N new` until they
    /// scroll into view or the newest is selected again).
    pub list: ListState,
    pub detail_scroll: u16,
    /// The view's area on screen (set by the router before each key), so PageUp / PageDown
    /// scroll the request by its pane's height and stop at its last line.
    pub area: Rect,
    /// The selected record's text, built when the selection changes.
    pub detail: Option<Detail>,
    /// The address applications point at (the server's base URL).
    pub address: String,
    /// True when following another server (`signscope --watch URL`), not the in-process one.
    pub watching: bool,
    /// The API key and the algorithm of the request view (the profile's, as edited), set by
    /// the router before each message: a re-send of a record without them sends these, as the
    /// account's own client would (docs/server.md).
    pub account: (String, String),
    /// A captured request waiting for the user's `y` before it is signed with the profile's
    /// REST key and sent (any other key drops it), and the question shown.
    pub confirm: Option<(TrafficEffect, String)>,
    pub feed: Feed,
    /// The HAR path prompt, when open (`har.rs`).
    pub har: Option<HarPrompt>,
    /// Added to live records' numbers so that they follow imported ones (`har.rs`).
    pub(super) shift: u64,
    /// The server's number of the last live record.
    pub(super) last_live: u64,
    /// A capture was opened (Ctrl-O, `--har`): its requests are the view's, not the server's.
    pub(super) opened: bool,
}

impl Default for TrafficState {
    fn default() -> Self {
        TrafficState {
            entries: VecDeque::new(),
            matches: VecDeque::new(),
            held: VecDeque::new(),
            keep: KEEP,
            dropped: 0,
            skipped: 0,
            paused: false,
            list: ListState::default(),
            detail_scroll: 0,
            area: Rect::new(0, 1, 80, 21),
            detail: None,
            address: String::new(),
            watching: false,
            account: (String::new(), String::new()),
            confirm: None,
            feed: Feed::Connecting,
            har: None,
            shift: 0,
            last_live: 0,
            opened: false,
        }
    }
}

impl TrafficState {
    /// Records shown (after the filter).
    pub fn visible_len(&self) -> usize {
        self.matches.len()
    }

    /// Inspection calls held but not shown (the filter does not ask for them).
    pub fn hidden_inspections(&self) -> usize {
        let words = self.list.words();
        if words.iter().any(|w| w.contains("inspect")) {
            return 0;
        }
        self.entries.iter().filter(|e| e.is_inspection()).count()
    }

    /// Records held (before the filter).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Records that arrived while paused.
    pub fn held_len(&self) -> usize {
        self.held.len()
    }

    /// The `i`-th record of the newest-first filtered list.
    pub fn visible(&self, i: usize) -> Option<&Entry> {
        let n = self.matches.len();
        let seq = *self.matches.get(n.checked_sub(i + 1)?)?;
        self.entry(seq)
    }

    /// The record numbered `seq`, if held.
    pub fn entry(&self, seq: u64) -> Option<&Entry> {
        let i = self
            .entries
            .binary_search_by_key(&seq, |e| e.seen.seq)
            .ok()?;
        self.entries.get(i)
    }

    pub fn selected_entry(&self) -> Option<&Entry> {
        self.visible(self.list.selected)
    }

    /// While `/` has the filter open (or the HAR path prompt is), typing goes to it.
    pub fn is_text_input_focused(&self) -> bool {
        self.list.typing() || self.har.is_some()
    }
}

/// Messages of the traffic view.
#[derive(Clone, Debug)]
pub enum TrafficMsg {
    Key(KeyEvent),
    /// Pasted text: goes to the filter (one line), which it opens.
    Paste(String),
    /// A mouse event and the view's area on screen (for hit testing with `layout`).
    Mouse(MouseEvent, Rect),
    /// Where the records come from: the address applications point at, and whether it is
    /// another server (`--watch`).
    Source {
        address: String,
        watching: bool,
    },
    /// One completed request, as the server's stream sent it.
    Received(Box<RequestSeen>),
    /// One request of an opened HAR, as the local server judged it (`har.rs`).
    Imported(Box<RequestSeen>),
    /// The server's stream skipped this many records (the view fell behind).
    Skipped(u64),
    /// The stream is open (`again` after an outage).
    Connected {
        again: bool,
    },
    /// The stream is not there (why); the feed retries.
    Waiting(String),
}

/// What the traffic view asks of the router and the runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrafficEffect {
    /// Load this request into the request editor (the profile's REST key stays).
    LoadIntoRequest {
        request: Box<EditorRequest>,
        timestamp: String,
        /// What of the record is not reproduced (a body the stream cut), said after the load.
        note: Option<String>,
    },
    /// Put this capture (raw HTTP) into the Diagnose view and diagnose it.
    Diagnose {
        capture: String,
    },
    /// Copy `text`, said in the status line as `what`.
    Copy(Clip),
    /// Send this request again (to `url`, the local server), signed again now with the
    /// profile's REST key.
    SendAgain {
        request: Box<EditorRequest>,
        url: String,
    },
    Status(String),
    /// Judge the capture in this file and show its requests (`har.rs`).
    OpenHar(std::path::PathBuf),
    /// Write this HAR text to this (new) file.
    WriteHar {
        path: std::path::PathBuf,
        text: String,
    },
    /// Write every request the server at `base` received, as its HAR export, to this (new)
    /// file.
    WriteReceivedHar {
        path: std::path::PathBuf,
        base: String,
    },
}
