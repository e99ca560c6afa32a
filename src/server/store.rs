//! The inspection store: every indexing request and every collected event, kept in memory for
//! `/_inspect/...`, bounded by count and by bytes (oldest dropped first), with counters that
//! keep counting what was dropped.

use std::collections::VecDeque;

mod received;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::core::events::problem_value;
use crate::core::traffic::{BodySeen, Route, UpstreamSeen, Verdict};

pub use super::waiters::Counts;
use super::waiters::Waiters;

/// How much of an indexing request's body is kept for inspection.
pub const BODY_PREVIEW_BYTES: usize = 64 * 1024;
/// How much of a body (or of an event's JSON text) a list reply shows; asking for one record
/// (`seq=N`) shows all that is kept.
pub const LIST_PREVIEW_BYTES: usize = 1024;
/// An event whose JSON is larger than this is shown in list replies as a text preview (`raw`)
/// instead of as `data`.
pub const LIST_DATA_BYTES: usize = 16 * 1024;
/// Most problems one stored event record keeps; past that one note counts the rest.
pub const MAX_RECORD_PROBLEMS: usize = 100;
/// Most bytes one stored event record's `data` may take in memory; a larger event is kept as a
/// text preview of [`BODY_PREVIEW_BYTES`].
pub const MAX_RECORD_DATA_BYTES: usize = 1024 * 1024;
/// Default number of records in one inspection reply.
pub const DEFAULT_PAGE: usize = 100;
/// Largest number of records in one inspection reply.
pub const MAX_PAGE: usize = 1000;
/// After this many bytes of records have been freed (by eviction), unused heap is handed back
/// to the operating system.
const TRIM_AFTER_FREED: usize = 32 * 1024 * 1024;
/// A batch with at least this many problems has its transient memory handed back at once.
const HEAVY_BATCH_PROBLEMS: usize = 1_000;

/// One indexing (or bench) request as the server saw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestRecord {
    /// Position in arrival order (never reused, not reset).
    pub seq: u64,
    /// Server time (clock plus skew) when the answer was decided, `YYYY-MM-DDThh:mm:ss.mmmZ`.
    pub time: String,
    pub method: String,
    pub path: String,
    pub query: String,
    /// The public API key the request named, if any.
    pub api_key: Option<String>,
    /// Whether the signature check passed.
    pub verdict: Verdict,
    /// The HTTP status answered.
    pub status: u16,
    /// The error code answered (`SIGNATURE_MISMATCH`, `NOT_FOUND`, ...); `None` on 200.
    pub code: Option<String>,
    /// The one-sentence message answered.
    pub message: String,
    /// Verification warnings (e.g. a timestamp in an unusual but accepted form).
    pub warnings: Vec<String>,
    pub job_id: Option<String>,
    pub body_bytes: usize,
    /// The body as text (lossy UTF-8), at most [`BODY_PREVIEW_BYTES`] of it.
    pub body: String,
    pub body_truncated: bool,
    /// The request headers as received (names lower-case, values as lossy UTF-8), in order.
    /// Includes `authorization` (a signature, not a key).
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// What is wrong with an indexing body the vendor's SDK checks (`docs/indexing-bodies.md`),
    /// when anything is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_problems: Option<BodySeen>,
    /// What the live stream's record says of its answer (`docs/server.md` rule R14): its
    /// fields sit beside the others.
    #[serde(flatten)]
    pub answered: Answered,
}

/// What is known of a request once it has been answered, kept in its inspection record as in
/// its live stream record (the same names): the diagnosis of a refusal and, when forwarded,
/// the upstream's answer. Empty until the answer is decided.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Answered {
    /// `indexing` for every stored request (the stream's `route`).
    pub route: Option<Route>,
    /// Client mistakes the diagnosis recognised (ids such as `TRAILING_SLASH_TRIMMED`).
    pub mistakes: Vec<String>,
    /// The diagnosis's one-sentence conclusion.
    pub conclusion: Option<String>,
    /// The server's signing text of a `SIGNATURE_MISMATCH` answer (its `canonical:` entry).
    pub expected: Option<String>,
    /// Bytes of the answer signscope decided (when known).
    pub response_bytes: Option<u64>,
    /// Head received to answer decided, in milliseconds.
    pub duration_ms: f64,
    /// For a forwarded request: what the upstream answered, or why it could not.
    pub upstream: Option<UpstreamSeen>,
}

/// One collected event (or, when the body was not a non-empty JSON array, the whole body).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventRecord {
    pub seq: u64,
    /// The collector request this came from (its sequence number).
    pub batch: u64,
    pub time: String,
    /// Position in the batch array; `None` when the record stands for the whole body.
    pub index: Option<usize>,
    /// No error-level problem concerns this event (nor the batch as a whole).
    pub valid: bool,
    /// The `event` field, when there is one.
    pub event: Option<String>,
    /// The `event_list_id` field, when there is one.
    pub list_id: Option<String>,
    /// The HTTP status the batch was answered with.
    pub status: u16,
    /// Problems (errors and warnings) that concern this event.
    pub problems: Vec<serde_json::Value>,
    /// The event as sent (parsed JSON), when the body parsed.
    pub data: Option<serde_json::Value>,
    /// The body as text (lossy UTF-8) when it did not parse as JSON, at most
    /// [`BODY_PREVIEW_BYTES`].
    pub raw: Option<String>,
}

/// Counters since start or the last reset, including records already dropped from storage.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Indexing requests (all verdicts).
    pub requests: u64,
    /// Indexing requests whose signature verified.
    pub accepted: u64,
    /// Indexing requests refused (signature, size, timeout).
    pub rejected: u64,
    /// Indexing requests whose client went away mid-body.
    pub aborted: u64,
    /// Collector requests.
    pub batches: u64,
    /// Collector requests answered 200.
    pub batches_good: u64,
    /// Collector requests answered 400.
    pub batches_bad: u64,
    /// Stored event records that are valid.
    pub events_good: u64,
    /// Stored event records that are not (including unparseable bodies).
    pub events_bad: u64,
    /// Request records dropped to respect the bounds.
    pub dropped_requests: u64,
    /// Event records dropped to respect the bounds.
    pub dropped_events: u64,
    /// Records currently held.
    pub stored_requests: u64,
    pub stored_events: u64,
    /// Approximate bytes currently held.
    pub stored_bytes: u64,
}

impl Summary {
    /// All events counted (good and bad).
    pub fn events(&self) -> u64 {
        self.events_good + self.events_bad
    }

    /// The counts `/_inspect/wait` waits for.
    pub fn waited(&self) -> Counts {
        Counts {
            events: self.events(),
            requests: self.requests,
        }
    }
}

/// One stored record: what it holds in memory (counted toward the byte limit), the bytes of its
/// list form (what a page of it costs to send), and the record, shared with the pages being
/// written so that serving a page copies nothing under the lock.
struct Held<T> {
    size: usize,
    list_bytes: usize,
    record: Arc<T>,
    /// The test id the request carried (`X-Signscope-Test` or the `signscope_test` cookie;
    /// `docs/server.md` "Use in CI"), for `?test=ID`.
    test: Option<Arc<str>>,
}

struct Inner {
    requests: VecDeque<Held<RequestRecord>>,
    events: VecDeque<Held<EventRecord>>,
    /// Position (counted since start) of the first request and of the first event held: a page
    /// names its records by position, which stays valid while older records are dropped.
    requests_base: u64,
    events_base: u64,
    stored_bytes: usize,
    counts: Summary,
    next_seq: u64,
    /// Bytes of records dropped since memory was last handed back.
    freed: usize,
    /// The collector's requests as received, for the HAR of everything ([`received`]).
    collected: received::Collected,
}

/// Measures the bytes of a record's list form (what a page of it costs to write), once, when it
/// is stored; without one the record's size in memory stands in.
pub trait Measure: Send + Sync {
    fn request(&self, record: &RequestRecord) -> usize;
    /// `size`: what the (capped) event holds in memory.
    fn event(&self, record: &EventRecord, size: usize) -> usize;
}

/// Filters for [`Store::events`].
#[derive(Clone, Debug, Default)]
pub struct EventFilter {
    pub valid: Option<bool>,
    pub event: Option<String>,
    pub list_id: Option<String>,
    pub batch: Option<u64>,
    /// Events with a problem of this code.
    pub code: Option<String>,
    /// Events of a request that carried this test id.
    pub test: Option<String>,
    /// Events whose data has every member of this object, equal
    /// ([`crate::core::json::matches_partially`]).
    pub matching: Option<serde_json::Value>,
    /// Which page of the matches.
    pub page: PageQuery,
}

/// Filters for [`Store::requests`].
#[derive(Clone, Debug, Default)]
pub struct RequestFilter {
    pub verdict: Option<Verdict>,
    pub code: Option<String>,
    /// Requests to exactly this path.
    pub path: Option<String>,
    /// Requests that carried this test id.
    pub test: Option<String>,
    pub page: PageQuery,
}

/// Which records of the matches a reply holds: by default the last `limit` ([`DEFAULT_PAGE`],
/// at most [`MAX_PAGE`]); `before=SEQ` the last `limit` older than record SEQ; `after=SEQ` the
/// first `limit` newer than it; `seq=N` record N alone, in full.
#[derive(Clone, Debug, Default)]
pub struct PageQuery {
    pub limit: Option<usize>,
    pub before: Option<u64>,
    pub after: Option<u64>,
    pub seq: Option<u64>,
}

impl PageQuery {
    fn size(&self) -> usize {
        self.limit.unwrap_or(DEFAULT_PAGE).min(MAX_PAGE)
    }

    fn admits(&self, seq: u64) -> bool {
        self.before.is_none_or(|b| seq < b)
            && self.after.is_none_or(|a| seq > a)
            && self.seq.is_none_or(|s| seq == s)
    }

    /// Whether the reply shows records in full (one record asked for by `seq`).
    pub fn full(&self) -> bool {
        self.seq.is_some()
    }
}

/// Where the next page starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cursor {
    Before(u64),
    After(u64),
}

impl Cursor {
    /// As a query parameter: `before=12` or `after=40`.
    pub fn query(&self) -> String {
        match self {
            Cursor::Before(s) => format!("before={s}"),
            Cursor::After(s) => format!("after={s}"),
        }
    }
}

/// Most bytes of list records one page holds (past that, the page ends early with a cursor):
/// a page of a thousand records with 32 KiB heads would otherwise be tens of megabytes.
pub const MAX_PAGE_BYTES: usize = 4 * 1024 * 1024;

/// One record of a page: its position in the store and the bytes of its list form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub pos: u64,
    pub bytes: usize,
    /// A position among the collector's requests ([`received`]), not the indexing ones.
    pub collected: bool,
}

/// Walk the held records for one page: the last `limit` matches (or the first after `after`),
/// stopping early once [`MAX_PAGE_BYTES`] of list records are taken (one record always fits);
/// the cursor is set when more matches remain.
fn select<T>(
    held: &VecDeque<Held<T>>,
    base: u64,
    q: &PageQuery,
    seq: impl Fn(&T) -> u64,
    matches: impl Fn(&Held<T>) -> bool,
) -> Page<Slot> {
    let n = q.size();
    let forward = q.after.is_some();
    let mut items = Vec::new();
    let mut bytes = 0usize;
    let mut more = None;
    let mut walk = |i: usize, h: &Held<T>| {
        if !matches(h) {
            return true;
        }
        let full = items.len() >= n
            || (!q.full() && !items.is_empty() && bytes + h.list_bytes > MAX_PAGE_BYTES);
        if full {
            more = Some(());
            return false;
        }
        bytes += h.list_bytes;
        items.push((
            i,
            Slot {
                pos: base + i as u64,
                bytes: h.list_bytes,
                collected: false,
            },
        ));
        true
    };
    if forward {
        for (i, h) in held.iter().enumerate() {
            if !walk(i, h) {
                break;
            }
        }
    } else {
        for (i, h) in held.iter().enumerate().rev() {
            if !walk(i, h) {
                break;
            }
        }
        items.reverse();
    }
    let seq_of = |i: usize| held.get(i).map(|h| seq(&h.record));
    let next = more.and_then(|()| {
        if forward {
            items
                .last()
                .and_then(|(i, _)| seq_of(*i))
                .map(Cursor::After)
        } else {
            items
                .first()
                .and_then(|(i, _)| seq_of(*i))
                .map(Cursor::Before)
        }
    });
    Page {
        items: items.into_iter().map(|(_, s)| s).collect(),
        next,
    }
}

/// One page of records and where the next one starts.
#[derive(Clone, Debug)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next: Option<Cursor>,
}

/// The shared, bounded inspection store.
pub struct Store {
    inner: Mutex<Inner>,
    /// The clients of `/_inspect/wait`, told the counts on every change.
    waiters: Waiters,
    /// Measures list forms (the inspection pages).
    measure: Option<Box<dyn Measure>>,
    max_stored: usize,
    max_bytes: usize,
}

impl Store {
    pub fn new(max_stored: usize, max_bytes: usize) -> Self {
        Store {
            inner: Mutex::new(Inner {
                requests: VecDeque::new(),
                events: VecDeque::new(),
                requests_base: 0,
                events_base: 0,
                stored_bytes: 0,
                counts: Summary::default(),
                next_seq: 1,
                freed: 0,
                collected: received::Collected::default(),
            }),
            waiters: Waiters::default(),
            measure: None,
            max_stored,
            max_bytes,
        }
    }

    /// The same store, measuring list forms with `measure`.
    pub fn with_measure(mut self, measure: impl Measure + 'static) -> Self {
        self.measure = Some(Box::new(measure));
        self
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave the data half-updated in a way that
        // matters for inspection, so a poisoned lock is used as is.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The newest sequence number given so far (0 before the first), without taking one.
    pub fn head_seq(&self) -> u64 {
        self.lock().next_seq.saturating_sub(1)
    }

    /// A fresh sequence number (for a request or a batch).
    pub fn next_seq(&self) -> u64 {
        let mut g = self.lock();
        let s = g.next_seq;
        g.next_seq += 1;
        s
    }

    /// Store an indexing request and count it.
    pub fn add_request(&self, record: RequestRecord) {
        // Measured before the lock is taken: the lock is held only to push the record.
        let size = record_size_request(&record);
        let list_bytes = self.measure.as_ref().map_or(size, |m| m.request(&record));
        let test = crate::core::traffic::test_id(&record.headers).map(Arc::from);
        let record = Arc::new(record);
        let trim = {
            let mut g = self.lock();
            match record.verdict {
                Verdict::Accepted => g.counts.accepted += 1,
                Verdict::Rejected => g.counts.rejected += 1,
                Verdict::Aborted => g.counts.aborted += 1,
            }
            g.counts.requests += 1;
            g.stored_bytes += size;
            g.requests.push_back(Held {
                size,
                list_bytes,
                record,
                test,
            });
            // Told under the lock: the waiters' counts are the store's, in order.
            self.waiters.counts(g.counts.waited());
            self.enforce_bounds(&mut g)
        };
        if trim {
            release_memory();
        }
    }

    /// Complete the stored request `seq` with what its answer told (the live stream's record
    /// of it); nothing when it is no longer held. Its sizes are measured again.
    pub fn complete_request(&self, seq: u64, answered: Answered) {
        let Some(held) = self.find_request(seq) else {
            return;
        };
        // Measured outside the lock, as when it was stored.
        let mut record = (*held).clone();
        record.answered = answered;
        let size = record_size_request(&record);
        let list_bytes = self.measure.as_ref().map_or(size, |m| m.request(&record));
        let mut g = self.lock();
        let Some(h) = g
            .requests
            .iter_mut()
            .rev()
            .find(|h| Arc::ptr_eq(&h.record, &held))
        else {
            return;
        };
        let before = h.size;
        h.size = size;
        h.list_bytes = list_bytes;
        h.record = Arc::new(record);
        g.stored_bytes = g.stored_bytes - before + size;
        if self.enforce_bounds(&mut g) {
            drop(g);
            release_memory();
        }
    }

    /// The stored request `seq`, if still held (the newest are looked at first).
    fn find_request(&self, seq: u64) -> Option<Arc<RequestRecord>> {
        let g = self.lock();
        g.requests
            .iter()
            .rev()
            .find(|h| h.record.seq == seq)
            .map(|h| h.record.clone())
    }

    /// Store the events of one collector request and count them. Each record is first capped
    /// ([`cap_event`]) and then counted at what it holds in memory (`size` is a lower bound
    /// the caller may give; the store measures the record itself).
    /// `test`: the test id the collector request carried.
    pub fn add_batch(&self, good: bool, records: Vec<(usize, EventRecord)>, test: Option<&str>) {
        let test: Option<Arc<str>> = test.map(Arc::from);
        // A batch with this many problems left megabytes of short-lived blocks (validation,
        // the answer) between the records the store keeps; without handing the free pages back
        // each such batch grew the heap (`docs/server.md` rule L4).
        let heavy =
            records.iter().map(|(_, r)| r.problems.len()).sum::<usize>() >= HEAVY_BATCH_PROBLEMS;
        let records: Vec<Held<EventRecord>> = records
            .into_iter()
            .map(|(size, mut record)| {
                cap_event(&mut record);
                let size = size.max(event_size(&record));
                Held {
                    size,
                    list_bytes: self
                        .measure
                        .as_ref()
                        .map_or(size, |m| m.event(&record, size)),
                    record: Arc::new(record),
                    test: test.clone(),
                }
            })
            .collect();
        let trim = {
            let mut g = self.lock();
            g.counts.batches += 1;
            if good {
                g.counts.batches_good += 1;
            } else {
                g.counts.batches_bad += 1;
            }
            for held in records {
                if held.record.valid {
                    g.counts.events_good += 1;
                } else {
                    g.counts.events_bad += 1;
                }
                g.stored_bytes += held.size;
                g.events.push_back(held);
            }
            // Told under the lock: the waiters' counts are the store's, in order.
            self.waiters.counts(g.counts.waited());
            self.enforce_bounds(&mut g)
        };
        if trim || heavy {
            release_memory();
        }
    }

    /// Drop the oldest records until within the bounds; true when enough memory has been freed
    /// since the last time that it should be handed back (after the lock is released).
    fn enforce_bounds(&self, g: &mut Inner) -> bool {
        received::trim(g, self.max_stored, self.max_bytes);
        while g.requests.len() > self.max_stored {
            drop_front_request(g);
        }
        while g.events.len() > self.max_stored {
            drop_front_event(g);
        }
        // Over the byte cap: drop the older of the two oldest records until under it.
        while g.stored_bytes > self.max_bytes && (!g.requests.is_empty() || !g.events.is_empty()) {
            let drop_request = match (g.requests.front(), g.events.front()) {
                (Some(r), Some(e)) => r.record.seq <= e.record.batch,
                (Some(_), None) => true,
                _ => false,
            };
            if drop_request {
                drop_front_request(g);
            } else {
                drop_front_event(g);
            }
        }
        if g.freed >= TRIM_AFTER_FREED {
            g.freed = 0;
            return true;
        }
        false
    }

    /// Counters, including what was dropped.
    pub fn summary(&self) -> Summary {
        let g = self.lock();
        let mut s = g.counts.clone();
        s.stored_requests = g.requests.len() as u64;
        s.stored_events = g.events.len() as u64;
        s.stored_bytes = g.stored_bytes as u64;
        s
    }

    /// Which stored requests match `f` and fit one page (by count and by bytes), in arrival
    /// order: their positions, not copies. Only this walk runs under the lock; the page's
    /// records are fetched a few at a time as the client reads ([`Store::requests_at`]).
    pub fn request_slots(&self, f: &RequestFilter) -> Page<Slot> {
        let g = self.lock();
        select(
            &g.requests,
            g.requests_base,
            &f.page,
            |r| r.seq,
            |h: &Held<RequestRecord>| {
                let r = &h.record;
                f.page.admits(r.seq)
                    && f.path.as_deref().is_none_or(|p| r.path == p)
                    && f.test
                        .as_deref()
                        .is_none_or(|t| h.test.as_deref() == Some(t))
                    && f.verdict.is_none_or(|v| r.verdict == v)
                    && f.code
                        .as_deref()
                        .is_none_or(|c| r.code.as_deref() == Some(c))
            },
        )
    }

    /// Which stored events match `f` and fit one page (see [`Store::request_slots`]).
    pub fn event_slots(&self, f: &EventFilter) -> Page<Slot> {
        let g = self.lock();
        select(
            &g.events,
            g.events_base,
            &f.page,
            |e| e.seq,
            |h: &Held<EventRecord>| {
                let e = &h.record;
                f.page.admits(e.seq)
                    && f.test
                        .as_deref()
                        .is_none_or(|t| h.test.as_deref() == Some(t))
                    && f.code.as_deref().is_none_or(|c| {
                        e.problems
                            .iter()
                            .any(|p| p.get("code").and_then(|v| v.as_str()) == Some(c))
                    })
                    && f.valid.is_none_or(|v| e.valid == v)
                    && f.event
                        .as_deref()
                        .is_none_or(|x| e.event.as_deref() == Some(x))
                    && f.list_id
                        .as_deref()
                        .is_none_or(|x| e.list_id.as_deref() == Some(x))
                    && f.batch.is_none_or(|b| e.batch == b)
                    && f.matching.as_ref().is_none_or(|m| {
                        e.data
                            .as_ref()
                            .is_some_and(|d| crate::core::json::matches_partially(m, d))
                    })
            },
        )
    }

    /// The requests at these positions that are still held (a record dropped since its page
    /// was chosen is left out), shared: no copy is made under the lock.
    pub fn requests_at(&self, slots: &[Slot]) -> Vec<Arc<RequestRecord>> {
        received::at_any(&self.lock(), slots)
    }

    /// The events at these positions that are still held, with what each holds in memory.
    pub fn events_at(&self, slots: &[Slot]) -> Vec<(usize, Arc<EventRecord>)> {
        let g = self.lock();
        slots
            .iter()
            .filter_map(|s| {
                let i = usize::try_from(s.pos.checked_sub(g.events_base)?).ok()?;
                g.events.get(i).map(|h| (h.size, h.record.clone()))
            })
            .collect()
    }

    /// Forget every record and zero the counters.
    pub fn reset(&self) {
        {
            let mut g = self.lock();
            // Positions are never reused: a page chosen before the reset finds nothing.
            g.requests_base += g.requests.len() as u64;
            g.events_base += g.events.len() as u64;
            g.requests.clear();
            g.events.clear();
            g.collected.clear();
            g.stored_bytes = 0;
            g.freed = 0;
            g.counts = Summary::default();
            self.waiters.counts(g.counts.waited());
        }
        release_memory();
    }

    /// Wait until at least `want` events and requests are counted or `timeout` passes;
    /// returns the summary and whether they were. Woken only by a change that reaches `want`
    /// ([`Waiters`]).
    pub async fn wait_for(&self, timeout: Duration, want: Counts) -> (Summary, bool) {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let Some(mut wait) = self.waiters.wait(want) else {
                let s = self.summary();
                // A reset may have come between: then wait again.
                if s.waited().reach(&want) {
                    return (s, true);
                }
                continue;
            };
            if tokio::time::timeout_at(deadline, &mut wait.woken)
                .await
                .is_err()
            {
                let s = self.summary();
                let ok = s.waited().reach(&want);
                return (s, ok);
            }
        }
    }
}

const REQUEST_OVERHEAD: usize = 256;
const EVENT_OVERHEAD: usize = 256;

pub(super) fn record_size_request(r: &RequestRecord) -> usize {
    let headers = headers_size(&r.headers);
    let warnings: usize = r.warnings.iter().map(|w| w.len() + 24).sum();
    REQUEST_OVERHEAD
        + r.body.len()
        + r.path.len()
        + r.query.len()
        + r.message.len()
        + r.method.len()
        + r.time.len()
        + r.api_key.as_ref().map_or(0, String::len)
        + r.code.as_ref().map_or(0, String::len)
        + r.job_id.as_ref().map_or(0, String::len)
        + warnings
        + headers
        + r.body_problems.as_ref().map_or(0, body_problems_size)
        + answered_size(&r.answered)
}

/// Bytes an indexing body's judgement holds (its problems as JSON, about).
fn body_problems_size(b: &BodySeen) -> usize {
    64 + b
        .problems
        .iter()
        .map(|p| p.to_string().len() + 96)
        .sum::<usize>()
}

/// Bytes a list of headers holds.
fn headers_size(headers: &[(String, String)]) -> usize {
    headers.iter().map(|(n, v)| n.len() + v.len() + 48).sum()
}

/// Bytes an answer's part of a request record holds: its texts and the upstream's.
fn answered_size(a: &Answered) -> usize {
    let text = |s: &Option<String>| s.as_ref().map_or(0, String::len);
    let mistakes: usize = a.mistakes.iter().map(|m| m.len() + 24).sum();
    let upstream = a.upstream.as_ref().map_or(0, |u| {
        128 + u.url.len() + u.body.len() + text(&u.code) + text(&u.error) + headers_size(&u.headers)
    });
    mistakes + text(&a.conclusion) + text(&a.expected) + upstream
}

/// Bytes an event record holds in memory: its strings, its data and every problem.
pub fn event_size(e: &EventRecord) -> usize {
    let text = |s: &Option<String>| s.as_ref().map_or(0, String::len);
    EVENT_OVERHEAD
        + e.time.len()
        + text(&e.event)
        + text(&e.list_id)
        + text(&e.raw)
        + heap_block(e.problems.capacity() * std::mem::size_of::<serde_json::Value>())
        + e.problems.iter().map(value_size).sum::<usize>()
        + e.data.as_ref().map_or(0, value_size)
}

/// What the allocator really takes for a heap block of `n` bytes: glibc adds an 8-byte header,
/// rounds to 16 and never hands out less than 32 (an empty `String` or `Vec` allocates nothing).
/// Counting requested sizes alone under-counted a record of many small strings by about a
/// quarter (`docs/server.md` rule L4).
pub fn heap_block(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        ((n + 8 + 15) & !15).max(32)
    }
}

/// Heap and inline bytes of a JSON value as the allocator holds them (with `preserve_order`, an
/// object is an index map: an entries vector of hash, key and value per member plus a table of
/// indices).
pub fn value_size(v: &serde_json::Value) -> usize {
    use serde_json::Value;
    let own = std::mem::size_of::<Value>();
    match v {
        Value::Null | Value::Bool(_) | Value::Number(_) => own,
        Value::String(s) => own + heap_block(s.capacity()),
        Value::Array(items) => {
            // The elements live inline in the vector's block; count the block once and what
            // each element owns besides itself.
            heap_block(items.capacity() * own)
                + own
                + items.iter().map(|i| value_size(i) - own).sum::<usize>()
        }
        Value::Object(map) => {
            let n = map.len();
            // entries: hash + key `String` + value; indices: a usize and a control byte per
            // bucket, buckets a power of two at most 7/8 full.
            let entry = 8 + std::mem::size_of::<String>() + own;
            let buckets = if n == 0 {
                0
            } else {
                (n * 8 / 7 + 1).next_power_of_two().max(4)
            };
            own + heap_block(n * entry)
                + heap_block(buckets * 9 + 16)
                + map
                    .iter()
                    .map(|(k, v)| heap_block(k.capacity()) + value_size(v) - own)
                    .sum::<usize>()
        }
    }
}

/// Bound what one event record keeps: at most [`MAX_RECORD_PROBLEMS`] problems (a note counts
/// the rest), and `data` of at most [`MAX_RECORD_DATA_BYTES`] (a larger event is kept as a
/// text preview in `raw`). The record's validity is decided before and does not change.
pub fn cap_event(e: &mut EventRecord) {
    if e.problems.len() > MAX_RECORD_PROBLEMS {
        let rest = e.problems.len() - MAX_RECORD_PROBLEMS;
        e.problems.truncate(MAX_RECORD_PROBLEMS);
        e.problems.push(problem_value(
            "note",
            &e.index.map(|i| format!("[{i}]")).unwrap_or_default(),
            "PROBLEMS_NOT_KEPT",
            Some(rest.into()),
            &format!(
                "{rest} more problems of this event are not kept for inspection (at most {MAX_RECORD_PROBLEMS} are); the answer to the batch listed them"
            ),
        ));
        e.problems.shrink_to_fit();
    }
    if e.data
        .as_ref()
        .is_some_and(|d| value_size(d) > MAX_RECORD_DATA_BYTES)
    {
        let text = e.data.take().map(|d| d.to_string()).unwrap_or_default();
        let (raw, _) = preview(text.as_bytes());
        e.raw = Some(raw);
    }
}

/// A copy of an event record whose data is shown as the first [`LIST_PREVIEW_BYTES`] of its
/// JSON text (in `raw`).
pub(crate) fn event_preview(e: &EventRecord) -> EventRecord {
    let text = match (&e.data, &e.raw) {
        (Some(d), _) => d.to_string(),
        (None, Some(r)) => r.clone(),
        (None, None) => String::new(),
    };
    let (raw, _) = preview_n(text.as_bytes(), LIST_PREVIEW_BYTES);
    EventRecord {
        seq: e.seq,
        batch: e.batch,
        time: e.time.clone(),
        index: e.index,
        valid: e.valid,
        event: e.event.clone(),
        list_id: e.list_id.clone(),
        status: e.status,
        problems: e.problems.clone(),
        data: None,
        raw: Some(raw),
    }
}

/// Hand freed heap memory back to the operating system (glibc keeps it otherwise: after a
/// reset the server's RSS stayed at its peak).
///
/// Kept instead of a maintained allocator that returns memory by itself, by measurement
/// (`benches/README.md`, "Allocator"): with `mimalloc` or `jemalloc` as the global allocator
/// and no trim, the 1,000 problem-heavy batches of `tests/server_memory.rs` crossed the bound
/// of `docs/server.md` rule L4 (store limit + 64 MiB = 128 MiB) at the 199th and the 204th
/// batch, with 56 MiB counted; with this call the release server peaks at 123 MiB over all
/// 1,000.
#[allow(unsafe_code)] // the audited block below (SAFETY comment)
pub(crate) fn release_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the allocator's own arenas.
    unsafe {
        libc::malloc_trim(0);
    }
}

fn drop_front_request(g: &mut Inner) {
    if let Some(Held { size, .. }) = g.requests.pop_front() {
        g.requests_base += 1;
        g.stored_bytes -= size;
        g.freed += size;
        g.counts.dropped_requests += 1;
    }
}

fn drop_front_event(g: &mut Inner) {
    if let Some(Held { size, .. }) = g.events.pop_front() {
        g.events_base += 1;
        g.stored_bytes -= size;
        g.freed += size;
        g.counts.dropped_events += 1;
    }
}

/// At most [`BODY_PREVIEW_BYTES`] of `body` as lossy UTF-8, and whether it was cut.
pub fn preview(body: &[u8]) -> (String, bool) {
    preview_n(body, BODY_PREVIEW_BYTES)
}

/// At most `max` bytes of `body` as lossy UTF-8, and whether it was cut.
pub fn preview_n(body: &[u8], max: usize) -> (String, bool) {
    let cut = body.len() > max;
    let slice = if cut { &body[..max] } else { body };
    // A character split by the cut becomes U+FFFD like any other invalid sequence.
    let text = String::from_utf8_lossy(slice).into_owned();
    (text, cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Store {
        /// One page of the stored requests, in arrival order, whole (the inspection API writes
        /// them as lists show them, `super::page`).
        pub(crate) fn requests(&self, f: &RequestFilter) -> Page<RequestRecord> {
            let slots = self.request_slots(f);
            Page {
                items: self
                    .requests_at(&slots.items)
                    .iter()
                    .map(|r| (**r).clone())
                    .collect(),
                next: slots.next,
            }
        }

        /// One page of the stored events, in arrival order, whole.
        pub(crate) fn events(&self, f: &EventFilter) -> Page<EventRecord> {
            let slots = self.event_slots(f);
            Page {
                items: self
                    .events_at(&slots.items)
                    .iter()
                    .map(|(_, e)| (**e).clone())
                    .collect(),
                next: slots.next,
            }
        }
    }

    fn req(seq: u64, verdict: Verdict, body: &str) -> RequestRecord {
        RequestRecord {
            seq,
            time: "t".into(),
            method: "PUT".into(),
            path: "/v2/batch".into(),
            query: String::new(),
            api_key: None,
            verdict,
            status: 200,
            code: None,
            message: String::new(),
            warnings: vec![],
            job_id: None,
            body_bytes: body.len(),
            body: body.into(),
            body_truncated: false,
            headers: vec![],
            body_problems: None,
            answered: Answered::default(),
        }
    }

    fn ev(seq: u64, valid: bool, event: &str) -> (usize, EventRecord) {
        (
            10,
            EventRecord {
                seq,
                batch: seq,
                time: "t".into(),
                index: Some(0),
                valid,
                event: Some(event.into()),
                list_id: Some(format!("list-{seq}")),
                status: 200,
                problems: vec![],
                data: None,
                raw: None,
            },
        )
    }

    #[test]
    fn a_completed_request_holds_its_answer_and_is_counted_at_its_new_size() {
        let s = Store::new(10, 1 << 20);
        s.add_request(req(1, Verdict::Accepted, "{}"));
        let before = s.summary().stored_bytes;
        let upstream = UpstreamSeen {
            url: "http://up".into(),
            status: Some(401),
            body: "x".repeat(1000),
            ..UpstreamSeen::default()
        };
        let answered = Answered {
            mistakes: vec!["PUBLIC_API_KEY_AS_SECRET".into()],
            upstream: Some(upstream),
            ..Answered::default()
        };
        s.complete_request(1, answered.clone());
        // One no longer held (or never stored) changes nothing.
        s.complete_request(99, Answered::default());
        let got = s.requests(&RequestFilter::default()).items;
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].answered, answered);
        assert!(s.summary().stored_bytes >= before + 1000);
    }

    #[test]
    fn oldest_requests_are_dropped_but_still_counted() {
        let s = Store::new(3, usize::MAX);
        for i in 1..=5 {
            s.add_request(req(i, Verdict::Accepted, "{}"));
        }
        s.add_request(req(6, Verdict::Rejected, "{}"));
        let kept: Vec<u64> = s
            .requests(&RequestFilter::default())
            .items
            .iter()
            .map(|r| r.seq)
            .collect();
        assert_eq!(kept, [4, 5, 6]);
        let sum = s.summary();
        assert_eq!((sum.requests, sum.accepted, sum.rejected), (6, 5, 1));
        assert_eq!((sum.dropped_requests, sum.stored_requests), (3, 3));
    }

    #[test]
    fn byte_cap_drops_oldest_records() {
        let big = "x".repeat(1000);
        let s = Store::new(100, 3 * (1000 + REQUEST_OVERHEAD) + 100);
        for i in 1..=10 {
            s.add_request(req(i, Verdict::Accepted, &big));
        }
        let sum = s.summary();
        assert_eq!(sum.stored_requests, 3);
        assert_eq!(sum.dropped_requests, 7);
        assert!(sum.stored_bytes <= 3 * (1000 + 256) as u64 + 100 + 60);
    }

    fn page(limit: Option<usize>, before: Option<u64>, after: Option<u64>) -> RequestFilter {
        RequestFilter {
            page: PageQuery {
                limit,
                before,
                after,
                seq: None,
            },
            ..Default::default()
        }
    }

    #[test]
    fn lists_are_paged_with_a_cursor() {
        let s = Store::new(10_000, usize::MAX);
        let big = "b".repeat(5000);
        for i in 1..=250 {
            s.add_request(req(i, Verdict::Accepted, &big));
        }
        // Default: the last 100, then older pages by cursor.
        let p = s.requests(&RequestFilter::default());
        let seqs: Vec<u64> = p.items.iter().map(|r| r.seq).collect();
        assert_eq!(seqs, (151..=250).collect::<Vec<_>>());
        assert_eq!(p.next, Some(Cursor::Before(151)));
        assert_eq!(p.next.unwrap().query(), "before=151");
        let p = s.requests(&page(None, Some(151), None));
        assert_eq!(p.items.first().map(|r| r.seq), Some(51));
        assert_eq!(p.next, Some(Cursor::Before(51)));
        let p = s.requests(&page(None, Some(51), None));
        assert_eq!(p.items.len(), 50);
        assert_eq!(p.next, None);
        // Forward.
        let p = s.requests(&page(Some(10), None, Some(240)));
        assert_eq!(
            p.items.iter().map(|r| r.seq).collect::<Vec<_>>(),
            (241..=250).collect::<Vec<_>>()
        );
        assert_eq!(p.next, None);
        let p = s.requests(&page(Some(5), None, Some(240)));
        assert_eq!(p.next, Some(Cursor::After(245)));
        // At most MAX_PAGE however many are asked for.
        for i in 251..=1300 {
            s.add_request(req(i, Verdict::Accepted, "{}"));
        }
        assert_eq!(
            s.requests(&page(Some(5000), None, None)).items.len(),
            MAX_PAGE
        );
        // One record asked for.
        let one = s.requests(&RequestFilter {
            page: PageQuery {
                seq: Some(1),
                ..Default::default()
            },
            ..Default::default()
        });
        assert_eq!(one.items.len(), 1);
        assert_eq!(one.items[0].body, big);
        assert!(!one.items[0].body_truncated);
    }

    fn many_problems(n: usize) -> Vec<serde_json::Value> {
        (0..n)
            .map(|i| {
                serde_json::json!({"level": "error", "path": format!("[0].items[{i}].item_id"),
                    "code": "MISSING_FIELD", "value": null,
                    "message": "the field item_id is required"})
            })
            .collect()
    }

    #[test]
    fn event_records_are_counted_with_their_problems_and_capped() {
        // One event with 10,000 problems (what 1,112 empty items give) was counted as 10 bytes.
        let (_, mut e) = ev(1, false, "view_recs_list");
        e.problems = many_problems(10_000);
        let uncapped = event_size(&e);
        assert!(uncapped > 10_000 * 200, "{uncapped}");
        let s = Store::new(100, usize::MAX);
        s.add_batch(false, vec![(10, e)], None);
        let kept = &s.events(&EventFilter::default()).items[0];
        assert_eq!(kept.problems.len(), MAX_RECORD_PROBLEMS + 1);
        assert_eq!(
            kept.problems[MAX_RECORD_PROBLEMS]["code"],
            "PROBLEMS_NOT_KEPT"
        );
        assert_eq!(
            kept.problems[MAX_RECORD_PROBLEMS]["value"],
            10_000 - MAX_RECORD_PROBLEMS
        );
        let stored = s.summary().stored_bytes as usize;
        assert!(stored >= event_size(kept), "{stored}");
        assert!(stored < uncapped / 50, "{stored}");
        // A byte cap of 1 MiB holds only as many such records as fit.
        let s = Store::new(10_000, 1024 * 1024);
        for i in 0..200 {
            let (_, mut e) = ev(i, false, "x");
            e.problems = many_problems(1000);
            s.add_batch(false, vec![(10, e)], None);
        }
        let sum = s.summary();
        assert!(sum.stored_bytes <= 1024 * 1024, "{sum:?}");
        assert!(sum.dropped_events > 100, "{sum:?}");
        assert_eq!(sum.stored_events + sum.dropped_events, 200);
    }

    #[test]
    fn a_huge_event_is_kept_as_a_preview() {
        let (_, mut e) = ev(1, true, "x");
        let items: Vec<serde_json::Value> = (0..20_000)
            .map(|i| serde_json::json!({"item_id": format!("sku-{i}")}))
            .collect();
        e.data = Some(serde_json::json!({"items": items}));
        cap_event(&mut e);
        assert!(e.data.is_none());
        let raw = e.raw.as_deref().unwrap();
        assert_eq!(raw.len(), BODY_PREVIEW_BYTES);
        assert!(
            raw.starts_with("{\"items\":[{\"item_id\":\"sku-0\"}"),
            "{}",
            &raw[..40]
        );
    }

    #[test]
    fn event_filters_and_limit() {
        let s = Store::new(100, usize::MAX);
        s.add_batch(
            true,
            vec![
                ev(1, true, "view_recs_list"),
                ev(2, false, "select_recs_list"),
            ],
            None,
        );
        s.add_batch(true, vec![ev(3, true, "select_recs_list")], None);
        let f = |valid, event: Option<&str>, limit| EventFilter {
            valid,
            event: event.map(String::from),
            page: PageQuery {
                limit,
                ..Default::default()
            },
            ..Default::default()
        };
        assert_eq!(s.events(&f(None, None, None)).items.len(), 3);
        assert_eq!(s.events(&f(Some(false), None, None)).items[0].seq, 2);
        let sel = s.events(&f(None, Some("select_recs_list"), None)).items;
        assert_eq!(sel.iter().map(|e| e.seq).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(s.events(&f(None, None, Some(1))).items[0].seq, 3);
        let by_list = s.events(&EventFilter {
            list_id: Some("list-1".into()),
            ..Default::default()
        });
        assert_eq!(by_list.items.len(), 1);
        let sum = s.summary();
        assert_eq!((sum.events_good, sum.events_bad, sum.batches), (2, 1, 2));
        s.reset();
        assert_eq!(s.summary(), Summary::default());
        assert!(s.events(&f(None, None, None)).items.is_empty());
    }

    #[test]
    fn previews_are_lossy_utf8_cut_at_the_preview_size() {
        assert_eq!(preview(b""), (String::new(), false));
        assert_eq!(
            preview("[\"héllo €\"]".as_bytes()),
            ("[\"héllo €\"]".into(), false)
        );
        // Invalid bytes become U+FFFD, one per maximal invalid sequence, valid text around them
        // is kept as is.
        assert_eq!(
            preview(b"ab\xffcd\xc3(\xe2\x82"),
            ("ab\u{FFFD}cd\u{FFFD}(\u{FFFD}".into(), false)
        );
        // Exactly the preview size: kept whole.
        let full = vec![b'a'; BODY_PREVIEW_BYTES];
        let (text, cut) = preview(&full);
        assert_eq!((text.len(), cut), (BODY_PREVIEW_BYTES, false));
        // One byte more: cut, and a character split by the cut becomes U+FFFD.
        let mut body = vec![b'a'; BODY_PREVIEW_BYTES - 1];
        body.extend_from_slice("é and more".as_bytes());
        let (text, cut) = preview(&body);
        assert!(cut);
        assert_eq!(text.len(), BODY_PREVIEW_BYTES - 1 + 3);
        assert!(text.starts_with("aaaa"));
        assert!(text.ends_with("a\u{FFFD}"), "{:?}", &text[text.len() - 8..]);
    }

    #[tokio::test]
    async fn wait_returns_when_reached_and_times_out_otherwise() {
        let s = std::sync::Arc::new(Store::new(100, usize::MAX));
        let s2 = s.clone();
        let waiter = tokio::spawn(async move {
            s2.wait_for(
                Duration::from_secs(10),
                Counts {
                    events: 2,
                    requests: 0,
                },
            )
            .await
        });
        s.add_batch(true, vec![ev(1, true, "a")], None);
        tokio::task::yield_now().await;
        s.add_batch(true, vec![ev(2, true, "a")], None);
        let (sum, reached) = waiter.await.unwrap();
        assert!(reached);
        assert_eq!(sum.events(), 2);
        let (sum, reached) = s
            .wait_for(
                Duration::from_millis(20),
                Counts {
                    events: 3,
                    requests: 0,
                },
            )
            .await;
        assert!(!reached);
        assert_eq!(sum.events(), 2);
    }
}
