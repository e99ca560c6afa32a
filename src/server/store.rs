//! The inspection store: every indexing request and every collected event, kept in memory for
//! `/_inspect/...`, bounded by count and by bytes (oldest dropped first), with counters that
//! keep counting what was dropped.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::Notify;

/// How much of an indexing request's body is kept for inspection.
pub const BODY_PREVIEW_BYTES: usize = 64 * 1024;

/// What became of an indexing request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Signature verified (the operation itself may still answer 400 or 404).
    Accepted,
    /// Refused before the operation: bad or missing signature, too large, too slow.
    Rejected,
    /// The client went away before its body arrived; nobody received an answer.
    Aborted,
}

/// One indexing (or bench) request as the server saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
}

struct Inner {
    requests: VecDeque<(usize, RequestRecord)>,
    events: VecDeque<(usize, EventRecord)>,
    stored_bytes: usize,
    counts: Summary,
    next_seq: u64,
}

/// Filters for [`Store::events`].
#[derive(Clone, Debug, Default)]
pub struct EventFilter {
    pub valid: Option<bool>,
    pub event: Option<String>,
    pub list_id: Option<String>,
    pub batch: Option<u64>,
    /// Keep only the last `limit` matches.
    pub limit: Option<usize>,
}

/// Filters for [`Store::requests`].
#[derive(Clone, Debug, Default)]
pub struct RequestFilter {
    pub verdict: Option<Verdict>,
    pub code: Option<String>,
    pub limit: Option<usize>,
}

/// The shared, bounded inspection store.
pub struct Store {
    inner: Mutex<Inner>,
    changed: Notify,
    /// The live stream of completed requests (`GET /_inspect/stream`).
    stream: super::stream::Hub,
    max_stored: usize,
    max_bytes: usize,
}

impl Store {
    pub fn new(max_stored: usize, max_bytes: usize) -> Self {
        Store {
            inner: Mutex::new(Inner {
                requests: VecDeque::new(),
                events: VecDeque::new(),
                stored_bytes: 0,
                counts: Summary::default(),
                next_seq: 1,
            }),
            changed: Notify::new(),
            // The stream's ring keeps at most as many records as the store, in an eighth of
            // its bytes (a stream record holds previews only).
            stream: super::stream::Hub::new(max_stored, max_bytes / 8),
            max_stored,
            max_bytes,
        }
    }

    /// The live stream of completed requests.
    pub fn stream(&self) -> &super::stream::Hub {
        &self.stream
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave the data half-updated in a way that
        // matters for inspection, so a poisoned lock is used as is.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
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
        super::stream::note_request(&record);
        {
            let mut g = self.lock();
            match record.verdict {
                Verdict::Accepted => g.counts.accepted += 1,
                Verdict::Rejected => g.counts.rejected += 1,
                Verdict::Aborted => g.counts.aborted += 1,
            }
            g.counts.requests += 1;
            let size = record_size_request(&record);
            g.stored_bytes += size;
            g.requests.push_back((size, record));
            self.enforce_bounds(&mut g);
        }
        self.changed.notify_waiters();
    }

    /// Store the events of one collector request and count them.
    pub fn add_batch(&self, good: bool, records: Vec<(usize, EventRecord)>) {
        super::stream::note_batch(&records);
        {
            let mut g = self.lock();
            g.counts.batches += 1;
            if good {
                g.counts.batches_good += 1;
            } else {
                g.counts.batches_bad += 1;
            }
            for (size, record) in records {
                if record.valid {
                    g.counts.events_good += 1;
                } else {
                    g.counts.events_bad += 1;
                }
                let size = size + EVENT_OVERHEAD;
                g.stored_bytes += size;
                g.events.push_back((size, record));
            }
            self.enforce_bounds(&mut g);
        }
        self.changed.notify_waiters();
    }

    fn enforce_bounds(&self, g: &mut Inner) {
        while g.requests.len() > self.max_stored {
            drop_front_request(g);
        }
        while g.events.len() > self.max_stored {
            drop_front_event(g);
        }
        // Over the byte cap: drop the older of the two oldest records until under it.
        while g.stored_bytes > self.max_bytes && (!g.requests.is_empty() || !g.events.is_empty()) {
            let drop_request = match (g.requests.front(), g.events.front()) {
                (Some((_, r)), Some((_, e))) => r.seq <= e.batch,
                (Some(_), None) => true,
                _ => false,
            };
            if drop_request {
                drop_front_request(g);
            } else {
                drop_front_event(g);
            }
        }
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

    /// Stored requests in arrival order.
    pub fn requests(&self, f: &RequestFilter) -> Vec<RequestRecord> {
        let g = self.lock();
        let matching: Vec<&RequestRecord> = g
            .requests
            .iter()
            .map(|(_, r)| r)
            .filter(|r| f.verdict.is_none_or(|v| r.verdict == v))
            .filter(|r| {
                f.code
                    .as_deref()
                    .is_none_or(|c| r.code.as_deref() == Some(c))
            })
            .collect();
        last(matching, f.limit).into_iter().cloned().collect()
    }

    /// Stored events in arrival order.
    pub fn events(&self, f: &EventFilter) -> Vec<EventRecord> {
        let g = self.lock();
        let matching: Vec<&EventRecord> = g
            .events
            .iter()
            .map(|(_, e)| e)
            .filter(|e| f.valid.is_none_or(|v| e.valid == v))
            .filter(|e| {
                f.event
                    .as_deref()
                    .is_none_or(|x| e.event.as_deref() == Some(x))
            })
            .filter(|e| {
                f.list_id
                    .as_deref()
                    .is_none_or(|x| e.list_id.as_deref() == Some(x))
            })
            .filter(|e| f.batch.is_none_or(|b| e.batch == b))
            .collect();
        last(matching, f.limit).into_iter().cloned().collect()
    }

    /// Forget every record and zero the counters.
    pub fn reset(&self) {
        {
            let mut g = self.lock();
            g.requests.clear();
            g.events.clear();
            g.stored_bytes = 0;
            g.counts = Summary::default();
        }
        self.changed.notify_waiters();
    }

    /// Wait until `done(summary)` holds or `timeout` passes; returns the summary and whether
    /// the condition was reached. No polling: woken by every change.
    pub async fn wait_until(
        &self,
        timeout: Duration,
        done: impl Fn(&Summary) -> bool,
    ) -> (Summary, bool) {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let notified = self.changed.notified();
            tokio::pin!(notified);
            // Register before checking, so a change between the check and the await is seen.
            notified.as_mut().enable();
            let s = self.summary();
            if done(&s) {
                return (s, true);
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                let s = self.summary();
                let ok = done(&s);
                return (s, ok);
            }
        }
    }
}

const REQUEST_OVERHEAD: usize = 256;
const EVENT_OVERHEAD: usize = 256;

fn record_size_request(r: &RequestRecord) -> usize {
    let headers: usize = r.headers.iter().map(|(n, v)| n.len() + v.len() + 48).sum();
    REQUEST_OVERHEAD + r.body.len() + r.path.len() + r.query.len() + r.message.len() + headers
}

fn drop_front_request(g: &mut Inner) {
    if let Some((size, _)) = g.requests.pop_front() {
        g.stored_bytes -= size;
        g.counts.dropped_requests += 1;
    }
}

fn drop_front_event(g: &mut Inner) {
    if let Some((size, _)) = g.events.pop_front() {
        g.stored_bytes -= size;
        g.counts.dropped_events += 1;
    }
}

fn last<T>(mut v: Vec<T>, limit: Option<usize>) -> Vec<T> {
    if let Some(n) = limit {
        if v.len() > n {
            v.drain(..v.len() - n);
        }
    }
    v
}

/// At most [`BODY_PREVIEW_BYTES`] of `body` as lossy UTF-8, and whether it was cut.
pub fn preview(body: &[u8]) -> (String, bool) {
    let cut = body.len() > BODY_PREVIEW_BYTES;
    let slice = if cut {
        &body[..BODY_PREVIEW_BYTES]
    } else {
        body
    };
    // The same text as `String::from_utf8_lossy`, but the valid prefix (usually all of it) is
    // checked with the faster `str::from_utf8` and copied once; only what follows the first
    // invalid (or cut) sequence goes through the lossy decoder.
    let text = match std::str::from_utf8(slice) {
        Ok(s) => s.to_owned(),
        Err(e) => {
            let (valid, rest) = slice.split_at(e.valid_up_to());
            let rest = String::from_utf8_lossy(rest);
            let mut text = String::with_capacity(valid.len() + rest.len());
            // `valid_up_to` marks the end of the longest valid prefix.
            text.push_str(std::str::from_utf8(valid).unwrap_or_default());
            text.push_str(&rest);
            text
        }
    };
    (text, cut)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn oldest_requests_are_dropped_but_still_counted() {
        let s = Store::new(3, usize::MAX);
        for i in 1..=5 {
            s.add_request(req(i, Verdict::Accepted, "{}"));
        }
        s.add_request(req(6, Verdict::Rejected, "{}"));
        let kept: Vec<u64> = s
            .requests(&RequestFilter::default())
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

    #[test]
    fn event_filters_and_limit() {
        let s = Store::new(100, usize::MAX);
        s.add_batch(
            true,
            vec![
                ev(1, true, "view_recs_list"),
                ev(2, false, "select_recs_list"),
            ],
        );
        s.add_batch(true, vec![ev(3, true, "select_recs_list")]);
        let f = |valid, event: Option<&str>, limit| EventFilter {
            valid,
            event: event.map(String::from),
            limit,
            ..Default::default()
        };
        assert_eq!(s.events(&f(None, None, None)).len(), 3);
        assert_eq!(s.events(&f(Some(false), None, None))[0].seq, 2);
        let sel = s.events(&f(None, Some("select_recs_list"), None));
        assert_eq!(sel.iter().map(|e| e.seq).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(s.events(&f(None, None, Some(1)))[0].seq, 3);
        let by_list = s.events(&EventFilter {
            list_id: Some("list-1".into()),
            ..Default::default()
        });
        assert_eq!(by_list.len(), 1);
        let sum = s.summary();
        assert_eq!((sum.events_good, sum.events_bad, sum.batches), (2, 1, 2));
        s.reset();
        assert_eq!(s.summary(), Summary::default());
        assert!(s.events(&f(None, None, None)).is_empty());
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
        // The same text as the standard library's lossy decoding of the kept bytes.
        let tricky: [&[u8]; 6] = [
            b"\xf0\x9f\x98\x80 ok",
            b"\xf0\x9f\x98",
            b"\xed\xa0\x80 surrogate",
            b"\xc0\xaf overlong",
            b"ok \xf4\x90\x80\x80 too high",
            b"\x80\x80\x80",
        ];
        for bytes in tricky {
            let mut body = b"prefix ".to_vec();
            body.extend_from_slice(bytes);
            let want = String::from_utf8_lossy(&body).into_owned();
            assert_eq!(preview(&body), (want, false), "{bytes:?}");
        }
    }

    #[tokio::test]
    async fn wait_returns_when_reached_and_times_out_otherwise() {
        let s = std::sync::Arc::new(Store::new(100, usize::MAX));
        let s2 = s.clone();
        let waiter = tokio::spawn(async move {
            s2.wait_until(Duration::from_secs(10), |x| x.events() >= 2)
                .await
        });
        s.add_batch(true, vec![ev(1, true, "a")]);
        tokio::task::yield_now().await;
        s.add_batch(true, vec![ev(2, true, "a")]);
        let (sum, reached) = waiter.await.unwrap();
        assert!(reached);
        assert_eq!(sum.events(), 2);
        let (sum, reached) = s
            .wait_until(Duration::from_millis(20), |x| x.events() >= 3)
            .await;
        assert!(!reached);
        assert_eq!(sum.events(), 2);
    }
}
