//! Inspection pages as they are written (`docs/server.md` rule L5): what a list shows of a
//! record, and a reply that costs the server a bounded amount of memory however slowly (or not
//! at all) its client reads.
//!
//! - A list record is cut: the body to [`LIST_PREVIEW_BYTES`], every header value too and at
//!   most [`LIST_HEADERS`] headers, the path, query, key and texts to [`LIST_TEXT_BYTES`]
//!   (`truncated: true` says something other than the body was cut); `seq=N` shows one record
//!   whole.
//! - A page is chosen under the store's lock as positions only ([`Store::request_slots`]); the
//!   records are fetched a few at a time as the client reads, shared with the store (no copy
//!   under the lock), and serialized outside it.
//! - Every chunk being written takes its bytes from one budget shared by all answers
//!   ([`super::AppState::answers`]) and gives them back once written: a thousand readers that
//!   stop reading hold at most the budget. A chunk that cannot get its bytes within the write
//!   stall timeout ends the answer.

use std::borrow::Cow;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderValue};
use axum::response::Response;
use bytes::Bytes;
use serde::Serialize;

use super::body::{BodyBudget, BodyPermit, Budgeted};
use super::store::{
    event_preview, Answered, Cursor, EventRecord, Page, RequestRecord, Slot, Store,
    LIST_DATA_BYTES, LIST_PREVIEW_BYTES,
};
use crate::core::traffic::{BodySeen, Verdict};

/// Longest path, query, API key or message a list shows (`seq=N` shows all).
pub const LIST_TEXT_BYTES: usize = 4 * 1024;
/// Most headers a list record shows.
pub const LIST_HEADERS: usize = 64;
/// Most warnings a list record shows.
const LIST_WARNINGS: usize = 16;
/// A chunk of a page holds records up to about this many bytes (at least one record).
const CHUNK_BYTES: usize = 32 * 1024;

/// `s` cut to at most `max` bytes at a character boundary, and whether it was cut.
pub(super) fn cut(s: &str, max: usize) -> (&str, bool) {
    if s.len() <= max {
        return (s, false);
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    (&s[..end], true)
}

/// A request record as a list shows it: borrowed from the stored record, nothing copied.
#[derive(Serialize)]
struct RequestView<'a> {
    seq: u64,
    time: &'a str,
    method: &'a str,
    path: &'a str,
    query: &'a str,
    api_key: Option<&'a str>,
    verdict: Verdict,
    status: u16,
    code: Option<&'a str>,
    message: &'a str,
    warnings: Vec<&'a str>,
    job_id: Option<&'a str>,
    body_bytes: usize,
    body: Cow<'a, str>,
    body_truncated: bool,
    headers: Vec<(&'a str, &'a str)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    body_problems: Option<&'a BodySeen>,
    /// Something besides the body was cut (headers, path, query, key or texts).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    truncated: bool,
    /// What the answer told, as the live stream's record has it.
    #[serde(flatten)]
    answered: &'a Answered,
}

impl<'a> RequestView<'a> {
    fn of(r: &'a RequestRecord) -> Self {
        let mut truncated = false;
        let mut text = |s: &'a str, max: usize| {
            let (s, c) = cut(s, max);
            truncated |= c;
            s
        };
        let path = text(&r.path, LIST_TEXT_BYTES);
        let query = text(&r.query, LIST_TEXT_BYTES);
        let api_key = r.api_key.as_deref().map(|k| text(k, LIST_TEXT_BYTES));
        let message = text(&r.message, LIST_TEXT_BYTES);
        let code = r.code.as_deref().map(|c| text(c, LIST_TEXT_BYTES));
        let job_id = r.job_id.as_deref().map(|j| text(j, LIST_TEXT_BYTES));
        let warnings: Vec<&str> = r
            .warnings
            .iter()
            .take(LIST_WARNINGS)
            .map(|w| text(w, LIST_TEXT_BYTES))
            .collect();
        let headers: Vec<(&str, &str)> = r
            .headers
            .iter()
            .take(LIST_HEADERS)
            .map(|(n, v)| (text(n, LIST_PREVIEW_BYTES), text(v, LIST_PREVIEW_BYTES)))
            .collect();
        let method = text(&r.method, LIST_TEXT_BYTES);
        truncated |= r.warnings.len() > LIST_WARNINGS || r.headers.len() > LIST_HEADERS;
        let (body, body_cut) = cut(&r.body, LIST_PREVIEW_BYTES);
        RequestView {
            seq: r.seq,
            time: &r.time,
            method,
            path,
            query,
            api_key,
            verdict: r.verdict,
            status: r.status,
            code,
            message,
            warnings,
            job_id,
            body_bytes: r.body_bytes,
            body: Cow::Borrowed(body),
            body_truncated: r.body_truncated || body_cut,
            headers,
            body_problems: r.body_problems.as_ref(),
            truncated,
            answered: &r.answered,
        }
    }
}

/// Counts what is written to it.
struct Counter(usize);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn json_len(value: &impl Serialize) -> usize {
    let mut c = Counter(0);
    // Records are plain data: serializing them cannot fail.
    let _ = serde_json::to_writer(&mut c, value);
    c.0
}

/// Measures the list forms of records as the store takes them.
pub struct ListBytes;

impl super::store::Measure for ListBytes {
    fn request(&self, r: &RequestRecord) -> usize {
        json_len(&RequestView::of(r))
    }

    fn event(&self, e: &EventRecord, size: usize) -> usize {
        if size <= LIST_DATA_BYTES {
            json_len(e)
        } else {
            json_len(&event_preview(e))
        }
    }
}

/// How a page's records are fetched from the store and written.
pub enum Kind {
    /// Requests, cut for a list unless `full`.
    Requests { full: bool },
    /// Events, cut for a list unless `full`.
    Events { full: bool },
    /// Requests as the entries of one HAR document, whole, the keys of `config`'s accounts
    /// blanked and Authorization masked when `redact` (`docs/har.md` rules H8-H9).
    Har {
        redact: bool,
        config: Arc<super::config::ServerConfig>,
    },
}

/// Most bytes making one record's HAR entry can take: its text escaped as `\u00XX` (six
/// bytes each) plus the two copies made on the way (the scrubbed record, the JSON value) and
/// the entry's frame. Reserved before the entry is made; the excess is given back after.
fn har_entry_bound(r: &RequestRecord) -> usize {
    super::store::record_size_request(r).saturating_mul(8) + 2048
}

impl Kind {
    /// What an answer of this kind starts and ends with.
    fn frame(&self) -> (Vec<u8>, &'static [u8]) {
        match self {
            Kind::Har { .. } => {
                let w = crate::core::har::write::HarWriter::begin(
                    Vec::new(),
                    env!("CARGO_PKG_VERSION"),
                )
                .map(|w| w.into_inner())
                .unwrap_or_default();
                (w, b"\n]}}\n")
            }
            _ => (b"[".to_vec(), b"]"),
        }
    }

    /// Append the HAR entries of `records` to `buf` (`first`: whether none was written before).
    fn write_har(&self, records: &[Arc<RequestRecord>], buf: &mut Vec<u8>, first: &mut bool) {
        let Kind::Har { redact, config } = self else {
            return;
        };
        let secrets: Vec<&crate::core::Secret> = config.accounts.values().collect();
        let mut w = crate::core::har::write::HarWriter::resume(&mut *buf, *first);
        for r in records {
            let entry = super::har_out::of_record(r, "localhost", &secrets, *redact);
            // Writing plain data into a Vec cannot fail.
            let _ = w.entry(&entry.exchange());
            *first = false;
        }
    }

    /// Fetch the still-held records at `slots` and append them to `buf` (comma-separated,
    /// `first` telling whether one was written before).
    fn write(&self, store: &Store, slots: &[Slot], buf: &mut Vec<u8>, first: &mut bool) {
        let mut sep = |buf: &mut Vec<u8>| {
            if !*first {
                buf.push(b',');
            }
            *first = false;
        };
        // Serializing plain data into a Vec cannot fail.
        match self {
            Kind::Requests { full } => {
                for r in store.requests_at(slots) {
                    sep(buf);
                    let _ = if *full {
                        serde_json::to_writer(&mut *buf, &*r)
                    } else {
                        serde_json::to_writer(&mut *buf, &RequestView::of(&r))
                    };
                }
            }
            Kind::Har { .. } => self.write_har(&store.requests_at(slots), buf, first),
            Kind::Events { full } => {
                for (size, e) in store.events_at(slots) {
                    sep(buf);
                    let _ = if *full || size <= LIST_DATA_BYTES {
                        serde_json::to_writer(&mut *buf, &*e)
                    } else {
                        serde_json::to_writer(&mut *buf, &event_preview(&e))
                    };
                }
            }
        }
    }
}

struct Writer {
    store: Arc<Store>,
    budget: BodyBudget,
    stall: Duration,
    kind: Kind,
    slots: Vec<Slot>,
    next: usize,
    first: bool,
    done: bool,
}

impl Writer {
    /// The next chunk of the array, `None` once `]` is written; an error (the client stopped
    /// reading long enough that no budget came free) ends the answer.
    async fn chunk(&mut self) -> Option<Result<Bytes, std::io::Error>> {
        if self.done {
            return None;
        }
        // Give the worker back between chunks: hyper asks for the next chunk as long as the
        // socket takes it, and without this one page was written for as long as the task's
        // cooperative budget allowed (dozens of chunks) while a signed PUT waited its turn.
        if self.next > 0 {
            tokio::task::yield_now().await;
        }
        let start = self.next;
        let (open, close) = self.kind.frame();
        let mut est = open.len() + close.len();
        // A HAR entry holds its record whole: one record a chunk, its bytes reserved by what
        // it could take at most (the slots measure list forms).
        let har = if matches!(self.kind, Kind::Har { .. }) {
            self.next += 1;
            let records = self.store.requests_at(&self.slots[start..self.next]);
            est += records.iter().map(|r| har_entry_bound(r)).sum::<usize>();
            Some(records)
        } else {
            while self.next < self.slots.len()
                && (self.next == start || est + self.slots[self.next].bytes <= CHUNK_BYTES)
            {
                est += self.slots[self.next].bytes + 1;
                self.next += 1;
            }
            None
        };
        let mut permit = BodyPermit::default();
        if !permit.take_within(&self.budget, est, self.stall).await {
            self.done = true;
            return Some(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "no room in the answers' budget: the readers of other answers stopped reading",
            )));
        }
        let mut buf = Vec::with_capacity(if har.is_some() { 0 } else { est });
        if start == 0 {
            buf.extend_from_slice(&open);
        }
        match &har {
            Some(records) => self.kind.write_har(records, &mut buf, &mut self.first),
            None => self.kind.write(
                &self.store,
                &self.slots[start..self.next],
                &mut buf,
                &mut self.first,
            ),
        }
        if self.next == self.slots.len() {
            buf.extend_from_slice(close);
            self.done = true;
        }
        permit.keep(buf.capacity());
        Some(Ok(Budgeted::bytes(buf, permit)))
    }
}

/// A page as a JSON array written a chunk at a time as the client reads, each chunk within the
/// answers' budget, with the cursor of the next page in `X-Next-Cursor`.
pub fn reply(st: &super::AppState, page: Page<Slot>, kind: Kind) -> Response {
    let Page { items, next } = page;
    let body = if items.is_empty() {
        let (mut open, close) = kind.frame();
        open.extend_from_slice(close);
        Body::from(open)
    } else {
        let writer = Writer {
            store: st.store.clone(),
            budget: st.answers.clone(),
            stall: st.config.write_stall_timeout,
            kind,
            slots: items,
            next: 0,
            first: true,
            done: false,
        };
        Body::from_stream(futures::stream::unfold(writer, |mut w| async move {
            let chunk = w.chunk().await?;
            Some((chunk, w))
        }))
    };
    let mut resp = Response::new(body);
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    if let Some(cursor) = next {
        if let Ok(v) = HeaderValue::from_str(&Cursor::query(&cursor)) {
            resp.headers_mut().insert("x-next-cursor", v);
        }
    }
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request record as a list shows it, owned.
    fn request_preview(r: &RequestRecord) -> RequestRecord {
        let v = RequestView::of(r);
        RequestRecord {
            seq: v.seq,
            time: v.time.to_owned(),
            method: v.method.to_owned(),
            path: v.path.to_owned(),
            query: v.query.to_owned(),
            api_key: v.api_key.map(str::to_owned),
            verdict: v.verdict,
            status: v.status,
            code: v.code.map(str::to_owned),
            message: v.message.to_owned(),
            warnings: v.warnings.into_iter().map(str::to_owned).collect(),
            job_id: v.job_id.map(str::to_owned),
            body_bytes: v.body_bytes,
            body: v.body.into_owned(),
            body_truncated: v.body_truncated,
            headers: v
                .headers
                .into_iter()
                .map(|(n, v)| (n.to_owned(), v.to_owned()))
                .collect(),
            body_problems: v.body_problems.cloned(),
            answered: v.answered.clone(),
        }
    }

    #[test]
    fn lists_cut_bodies_heads_and_texts() {
        let r = RequestRecord {
            seq: 1,
            time: "t".into(),
            method: "PUT".into(),
            path: format!("/v2/{}", "p".repeat(5000)),
            query: "q=1".into(),
            api_key: None,
            verdict: Verdict::Rejected,
            status: 400,
            code: None,
            message: String::new(),
            warnings: vec![],
            job_id: None,
            body_bytes: 5000,
            body: "b".repeat(5000),
            body_truncated: false,
            headers: (0..100)
                .map(|i| (format!("x-{i}"), "v".repeat(2000)))
                .collect(),
            body_problems: None,
            answered: Answered::default(),
        };
        let p = request_preview(&r);
        assert_eq!(p.body.len(), LIST_PREVIEW_BYTES);
        assert!(p.body_truncated);
        assert_eq!(p.path.len(), LIST_TEXT_BYTES);
        assert_eq!(p.query, "q=1");
        assert_eq!(p.headers.len(), LIST_HEADERS);
        assert!(p.headers.iter().all(|(_, v)| v.len() == LIST_PREVIEW_BYTES));
        let json = serde_json::to_value(RequestView::of(&r)).unwrap();
        assert_eq!(json["truncated"], true);
        // What the store is told a record costs is what is written.
        use crate::server::store::Measure;
        assert_eq!(
            ListBytes.request(&r),
            serde_json::to_vec(&RequestView::of(&r)).unwrap().len()
        );
        // A record with nothing cut says nothing.
        let small = RequestRecord {
            path: "/v2/batch".into(),
            body: "[]".into(),
            headers: vec![],
            ..r
        };
        let json = serde_json::to_value(RequestView::of(&small)).unwrap();
        assert!(json.get("truncated").is_none(), "{json}");
        assert_eq!(json["body_truncated"], false);
    }

    #[test]
    fn cuts_fall_on_character_boundaries() {
        assert_eq!(cut("abc", 3), ("abc", false));
        assert_eq!(cut("abcd", 3), ("abc", true));
        // "é" is two bytes: a cut inside it keeps the character out.
        assert_eq!(cut("aé", 2), ("a", true));
        assert_eq!(cut("", 0), ("", false));
    }
}
