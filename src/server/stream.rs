//! The live stream of what the server sees: `GET /_inspect/stream` (Server-Sent Events), one
//! JSON record per completed request (see `docs/server.md`, "Live stream").
//!
//! How a record is made:
//! - [`observe`], a middleware around every route, notes the request (method, path, query,
//!   headers, size, start time) and, once the handler has answered, the status, the time taken
//!   and, for error answers, the code, message and the diagnosis's mistake ids and conclusion
//!   (read from the answer's `debug` entries, the same text a client gets);
//! - the handler adds what only it knows to its answer's extensions, as it stores the request
//!   ([`note_request`], [`note_batch`]): the verdict, the body preview, the event counts and
//!   problems; a forwarding proxy adds the local answer and the upstream's ([`local_answer`],
//!   [`note_forwarded`]);
//! - the record is numbered and published by the [`Hub`]: a bounded ring (for `?after=SEQ`)
//!   and a bounded broadcast channel. A subscriber that falls behind the channel gets one
//!   `skipped` record naming how many it missed, never an unbounded buffer.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Map, Value};
use tokio::sync::{broadcast, watch};

use super::error::ApiError;
use super::page::cut;
use super::store::{Answered, EventRecord, RequestRecord};
use super::AppState;
use crate::core::traffic::{
    BatchSeen, BodySeen, RequestSeen, Route, StreamMessage, UpstreamSeen, Verdict, INSTANCE_HEADER,
    STREAM_PATH,
};

/// How much of a request body a stream record previews (the full preview stays in the store).
pub const STREAM_BODY_PREVIEW: usize = 2048;
/// How many headers, and how long each value, a stream record keeps.
const STREAM_MAX_HEADERS: usize = 64;
const STREAM_MAX_HEADER_VALUE: usize = 512;
/// How many event problems a stream record lists (the rest are counted).
pub const STREAM_MAX_PROBLEMS: usize = 20;
/// Records a subscriber may fall behind before it is told how many it skipped.
pub const STREAM_CHANNEL: usize = 1024;
/// Most records the ring keeps for `?after=SEQ`, whatever the store's limit.
const RING_MAX_RECORDS: usize = 10_000;
/// Keep-alive comment interval (proxies and clients notice a dead server within it).
const KEEP_ALIVE: Duration = Duration::from_secs(10);

/// A published record: its number and its JSON text (serialised once for every subscriber).
#[derive(Debug)]
pub struct Published {
    pub seq: u64,
    pub json: String,
    /// The record itself, on the channel only (the ring keeps the text alone): an in-process
    /// follower (`signscope serve`'s run verdict) reads it as it is instead of parsing the
    /// text back, which took an eighth of a busy server's time.
    pub message: Option<StreamMessage>,
}

impl Published {
    /// What the record says: the channel's carried whole, the ring's read back from its text
    /// (`None` if that cannot be read).
    pub fn message(&self) -> Option<std::borrow::Cow<'_, StreamMessage>> {
        match &self.message {
            Some(m) => Some(std::borrow::Cow::Borrowed(m)),
            None => serde_json::from_str(&self.json)
                .ok()
                .map(std::borrow::Cow::Owned),
        }
    }
}

struct Ring {
    records: VecDeque<Arc<Published>>,
    bytes: usize,
    next_seq: u64,
}

/// Numbers, keeps and broadcasts stream records. Memory: the ring holds at most
/// `max_records` records and `max_bytes` of their JSON; the channel at most
/// [`STREAM_CHANNEL`] records (shared with the ring).
pub struct Hub {
    /// Names this server run: a client resuming with another run's number starts from the
    /// oldest held record instead (the numbers started again at 1).
    instance: String,
    ring: Mutex<Ring>,
    tx: broadcast::Sender<Arc<Published>>,
    closed: watch::Sender<bool>,
    max_records: usize,
    max_bytes: usize,
}

impl Hub {
    pub fn new(max_records: usize, max_bytes: usize) -> Hub {
        let (tx, _) = broadcast::channel(STREAM_CHANNEL);
        Hub {
            instance: format!("{:016x}", rand::random::<u64>()),
            ring: Mutex::new(Ring {
                records: VecDeque::new(),
                bytes: 0,
                next_seq: 1,
            }),
            tx,
            closed: watch::Sender::new(false),
            max_records: max_records.clamp(1, RING_MAX_RECORDS),
            max_bytes: max_bytes.max(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Ring> {
        self.ring.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Number, keep and broadcast one record; returns its number.
    pub fn publish(&self, mut record: RequestSeen) -> u64 {
        let mut g = self.lock();
        let seq = g.next_seq;
        g.next_seq += 1;
        record.seq = seq;
        let message = StreamMessage::Request(Box::new(record));
        let json = serde_json::to_string(&message)
            .unwrap_or_else(|_| format!("{{\"type\":\"request\",\"seq\":{seq}}}"));
        // The channel's item carries the record besides its text; the ring's, the text alone.
        let sent = (self.tx.receiver_count() > 0).then(|| Published {
            seq,
            json: json.clone(),
            message: Some(message),
        });
        let item = Arc::new(Published {
            seq,
            json,
            message: None,
        });
        g.bytes += item.json.len();
        g.records.push_back(item);
        while g.records.len() > self.max_records
            || (g.bytes > self.max_bytes && g.records.len() > 1)
        {
            if let Some(old) = g.records.pop_front() {
                g.bytes -= old.json.len();
            }
        }
        // Sent under the lock, so that a subscriber's backlog and its channel never overlap
        // nor leave a gap.
        if let Some(sent) = sent {
            let _ = self.tx.send(Arc::new(sent));
        }
        seq
    }

    /// Subscribe: the held records after `after` (none when `after` is `None`), how many records
    /// after it are no longer held, and a receiver for everything published from now on.
    pub fn subscribe(
        &self,
        after: Option<u64>,
    ) -> (
        Vec<Arc<Published>>,
        u64,
        broadcast::Receiver<Arc<Published>>,
    ) {
        let g = self.lock();
        let rx = self.tx.subscribe();
        let Some(after) = after else {
            return (Vec::new(), 0, rx);
        };
        let backlog: Vec<Arc<Published>> = g
            .records
            .iter()
            .filter(|r| r.seq > after)
            .cloned()
            .collect();
        let first_held = g.records.front().map_or(g.next_seq, |r| r.seq);
        let missing = first_held.saturating_sub(after.saturating_add(1));
        (backlog, missing, rx)
    }

    /// This server run's name (the `X-Stream-Instance` header of the stream).
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// The next number to be given (records so far + 1).
    pub fn next_seq(&self) -> u64 {
        self.lock().next_seq
    }

    /// End every open stream (the server is stopping).
    pub fn close(&self) {
        self.closed.send_replace(true);
    }

    fn closed(&self) -> watch::Receiver<bool> {
        self.closed.subscribe()
    }
}

/// What a handler adds to the record of the request it serves. It travels in its answer's
/// extensions to [`observe`], which takes it out again: nothing of it reaches the client.
#[derive(Clone, Default)]
pub struct Detail {
    /// The local answer of a forwarded request (the client got the upstream's).
    local: Option<LocalAnswer>,
    request: Option<RequestPart>,
    batch: Option<(u64, String, BatchSeen)>,
    upstream: Option<UpstreamSeen>,
}

#[derive(Clone)]
struct LocalAnswer {
    status: u16,
    bytes: Option<u64>,
    answer: Option<Answer>,
}

#[derive(Clone)]
struct RequestPart {
    record: u64,
    time: String,
    verdict: Verdict,
    code: Option<String>,
    message: String,
    warnings: Vec<String>,
    job_id: Option<String>,
    body_bytes: usize,
    body: String,
    body_truncated: bool,
    body_problems: Option<BodySeen>,
}

/// The detail `response` carries so far (an empty one is added when it has none).
fn detail_mut(response: &mut Response) -> &mut Detail {
    response.extensions_mut().get_or_insert_default::<Detail>()
}

/// Note an indexing request on its answer (called with the record as it is stored).
pub fn note_request(response: &mut Response, r: &RequestRecord) {
    let (body, cut) = cut(&r.body, STREAM_BODY_PREVIEW);
    detail_mut(response).request = Some(RequestPart {
        record: r.seq,
        time: r.time.clone(),
        verdict: r.verdict,
        code: r.code.clone(),
        message: r.message.clone(),
        warnings: r.warnings.clone(),
        job_id: r.job_id.clone(),
        body_bytes: r.body_bytes,
        body: body.to_string(),
        body_truncated: cut || r.body_truncated,
        body_problems: r.body_problems.clone(),
    });
}

/// Note a collector request's events on its answer (called with the records as they are
/// stored, and `body`, the request's bytes as they came); `older` names the older endpoint it
/// went to, if it was one.
pub fn note_batch(
    response: &mut Response,
    body: &[u8],
    records: &[(usize, EventRecord)],
    older: Option<&str>,
) {
    let Some((_, first)) = records.first() else {
        return;
    };
    let mut seen = BatchSeen {
        endpoint: older.map(str::to_owned),
        // The fields the collector read from its query or form (`core::collect`).
        fields: match (older, &first.data) {
            (Some(_), Some(data)) => data
                .get("fields")
                .and_then(Value::as_object)
                .map_or(0, Map::len),
            _ => 0,
        },
        ..BatchSeen::default()
    };
    // Batch-level problems (path not under an event) are repeated in every event's record:
    // counted once, from the first. Linear: a batch may have 100,000 events.
    let batch_level = |p: &Value| {
        !p.get("path")
            .and_then(Value::as_str)
            .is_some_and(|s| s.starts_with('['))
    };
    let mut total = 0usize;
    for (i, (_, e)) in records.iter().enumerate() {
        if e.index.is_some() || e.data.is_some() {
            seen.events += 1;
            if e.valid {
                seen.valid += 1;
            } else {
                seen.invalid += 1;
            }
        }
        for p in &e.problems {
            if i > 0 && batch_level(p) {
                continue;
            }
            total += 1;
            if seen.problems.len() < STREAM_MAX_PROBLEMS {
                seen.problems.push(p.clone());
            }
        }
    }
    if first.index.is_none() && first.data.is_none() {
        // The body did not parse: no events, one record for the whole body.
        seen.invalid = 0;
    }
    seen.problems_omitted = total - seen.problems.len();
    let (preview, cut_short) = match (&first.raw, first.index) {
        (Some(raw), _) => (raw.clone(), false),
        // A batch: its bytes as they came (a pretty batch stays pretty in the Traffic view's
        // HAR), only as far as the preview goes.
        (None, Some(_)) => super::store::preview_n(body, STREAM_BODY_PREVIEW),
        (None, None) => (
            first
                .data
                .as_ref()
                .map(|d| d.to_string())
                .unwrap_or_default(),
            false,
        ),
    };
    let (body, cut) = cut(&preview, STREAM_BODY_PREVIEW);
    let cut = cut || cut_short;
    let d = detail_mut(response);
    d.batch = Some((first.batch, first.time.clone(), seen));
    d.request = d.request.take().or(Some(RequestPart {
        record: first.batch,
        time: first.time.clone(),
        verdict: Verdict::Accepted,
        code: None,
        message: String::new(),
        warnings: Vec::new(),
        job_id: None,
        body_bytes: 0,
        body: body.to_string(),
        body_truncated: cut,
        body_problems: None,
    }));
}

/// A forwarding proxy's reading of the local server's own answer (which the client does not
/// get), with what its handler noted; [`note_forwarded`] puts it on the answer the client gets.
pub async fn local_answer(mut local: Response) -> Detail {
    let mut detail = local
        .extensions_mut()
        .remove::<Detail>()
        .unwrap_or_default();
    let status = local.status().as_u16();
    let bytes = axum::body::HttpBody::size_hint(local.body()).exact();
    let answer = if status >= 400 {
        read_answer(local).await.1
    } else {
        None
    };
    detail.local = Some(LocalAnswer {
        status,
        bytes,
        answer,
    });
    detail
}

/// A forwarding proxy's note, on the answer the client gets, of the local answer and of what
/// the upstream answered.
pub fn note_forwarded(response: &mut Response, mut local: Detail, upstream: UpstreamSeen) {
    local.upstream = Some(upstream);
    response.extensions_mut().insert(local);
}

fn header_list(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .take(STREAM_MAX_HEADERS)
        .map(|(n, v)| {
            let value = crate::core::visible::utf8_or_escaped(v.as_bytes());
            (
                n.as_str().to_string(),
                cut(&value, STREAM_MAX_HEADER_VALUE).0.to_string(),
            )
        })
        .collect()
}

/// Error answers larger than this are not read for their code and diagnosis.
const MAX_READ_ANSWER: usize = 256 * 1024;

/// The middleware that turns every completed request into a stream record.
pub async fn observe(State(st): State<AppState>, req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    if path == STREAM_PATH {
        return next.run(req).await;
    }
    let start = Instant::now();
    let route = Route::of(&path);
    let method = req.method().as_str().to_string();
    let query = req.uri().query().unwrap_or("").to_string();
    let headers = header_list(req.headers());
    let content_length = req
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());

    let mut response = next.run(req).await;
    let detail = response
        .extensions_mut()
        .remove::<Detail>()
        .unwrap_or_default();
    let collector_batch = detail.batch.is_some();
    let (status, response_bytes, response, answer) = match detail.local {
        // Forwarded: the record gives signscope's own answer; the upstream's is in `upstream`.
        Some(local) => (local.status, local.bytes, response, local.answer),
        None => {
            let status = response.status().as_u16();
            let bytes = axum::body::HttpBody::size_hint(response.body()).exact();
            // The code and diagnosis of an error answer (not a collector batch's: its detail
            // has the problems, and its answer may be large). Another answer under
            // /analytics/ (no such endpoint, a body too large) gives its code and sentence.
            let (response, answer) =
                if status >= 400 && !(route == Route::Collect && collector_batch) {
                    read_answer(response).await
                } else {
                    (response, None)
                };
            (status, bytes, response, answer)
        }
    };

    let mut record = RequestSeen {
        seq: 0,
        time: String::new(),
        method,
        path,
        query,
        route,
        status,
        code: None,
        message: None,
        verdict: None,
        mistakes: Vec::new(),
        conclusion: None,
        expected: None,
        warnings: Vec::new(),
        request_bytes: content_length,
        response_bytes,
        duration_ms: start.elapsed().as_secs_f64() * 1000.0,
        headers,
        body: String::new(),
        body_truncated: false,
        record: None,
        job_id: None,
        batch: None,
        body_problems: None,
        upstream: detail.upstream,
    };
    let stored_request = detail.request.as_ref().map(|part| part.record);
    if let Some(part) = detail.request {
        fill_from_request(&mut record, part);
    }
    if let Some(batch) = detail.batch {
        fill_from_batch(&mut record, batch);
    }
    if let Some(answer) = answer {
        fill_from_answer(&mut record, answer);
    }
    if record.time.is_empty() {
        record.time = crate::core::time::format_timestamp(st.config.now());
    }
    if let Some(stored) = stored_request {
        // The inspection record keeps what this one says of the answer (docs/server.md rule R14).
        st.store.complete_request(stored, answered(&record));
    }
    st.stream.publish(record);
    response
}

/// What the inspection record of the request says: its time and record, the verdict and size
/// of an indexing request, the code, message and warnings of the answer, and the body.
fn fill_from_request(record: &mut RequestSeen, part: RequestPart) {
    record.time = part.time;
    record.record = Some(part.record);
    if record.route == Route::Indexing {
        record.verdict = Some(part.verdict);
        record.request_bytes = Some(part.body_bytes);
    }
    record.code = part.code;
    if !part.message.is_empty() {
        record.message = Some(part.message);
    }
    record.warnings = part.warnings;
    record.job_id = part.job_id;
    record.body = part.body;
    record.body_truncated = part.body_truncated;
    record.body_problems = part.body_problems;
}

/// A collector batch's record and time, and its code when it was refused for its errors.
fn fill_from_batch(record: &mut RequestSeen, (batch_seq, time, seen): (u64, String, BatchSeen)) {
    record.record = Some(batch_seq);
    record.time = time;
    if record.status >= 400 {
        record.code = seen
            .problems
            .iter()
            .find(|p| p.get("level").and_then(Value::as_str) == Some("error"))
            .map(|_| "VALIDATION_ERROR".to_string());
    }
    record.batch = Some(seen);
}

/// An error answer's code and message (unless the request's record gave them) and diagnosis.
fn fill_from_answer(record: &mut RequestSeen, answer: Answer) {
    if record.code.is_none() {
        record.code = answer.code;
    }
    if record.message.is_none() {
        record.message = answer.message;
    }
    record.mistakes = answer.mistakes;
    record.conclusion = answer.conclusion;
    record.expected = answer.canonical;
}

/// What a stream record says of its answer, for the inspection record of the same request.
fn answered(record: &RequestSeen) -> Answered {
    Answered {
        route: Some(record.route),
        mistakes: record.mistakes.clone(),
        conclusion: record.conclusion.clone(),
        expected: record.expected.clone(),
        response_bytes: record.response_bytes,
        duration_ms: record.duration_ms,
        upstream: record.upstream.clone(),
    }
}

/// What an error answer in the vendor's shape says.
#[derive(Clone, Default)]
struct Answer {
    code: Option<String>,
    message: Option<String>,
    mistakes: Vec<String>,
    conclusion: Option<String>,
    canonical: Option<String>,
}

/// Read a (small) error answer and give it back unchanged, with what it says.
async fn read_answer(response: Response) -> (Response, Option<Answer>) {
    let small = axum::body::HttpBody::size_hint(response.body())
        .upper()
        .is_some_and(|n| n <= MAX_READ_ANSWER as u64);
    if !small {
        return (response, None);
    }
    let (parts, body) = response.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_READ_ANSWER).await {
        Ok(b) => b,
        Err(_) => return (Response::from_parts(parts, axum::body::Body::empty()), None),
    };
    let answer = serde_json::from_slice::<ApiError>(&bytes)
        .ok()
        .map(|e| parse_answer(&e));
    (
        Response::from_parts(parts, axum::body::Body::from(bytes)),
        answer,
    )
}

/// The code, message, mistake ids and conclusion of an answer in the vendor's error shape:
/// `debug` entries `finding <ID>: ...` name a mistake, `diagnosis: ...` (or `conclusion: ...`)
/// is the conclusion (see `docs/server.md`).
fn parse_answer(e: &ApiError) -> Answer {
    let mut a = Answer {
        code: Some(e.code.clone()),
        message: Some(e.message.clone()),
        ..Answer::default()
    };
    for d in &e.debug {
        let m = d.message.as_str();
        if let Some(c) = m.strip_prefix("canonical: ") {
            a.canonical.get_or_insert_with(|| c.to_string());
        } else if let Some(rest) = m.strip_prefix("finding ") {
            if let Some((id, _)) = rest.split_once(':') {
                let id = id.trim();
                if !id.is_empty() && !a.mistakes.iter().any(|x| x == id) {
                    a.mistakes.push(id.to_string());
                }
            }
        } else if m.starts_with("diagnosis skipped: ") {
            a.conclusion = Some(m.to_string());
        } else if let Some(rest) = m
            .strip_prefix("diagnosis: ")
            .or_else(|| m.strip_prefix("conclusion: "))
        {
            if a.conclusion.is_none() {
                a.conclusion = Some(rest.to_string());
            }
        }
    }
    a
}

#[derive(Debug, Deserialize)]
pub struct StreamQuery {
    after: Option<u64>,
    /// The run `after` was numbered by (from `X-Stream-Instance`).
    instance: Option<String>,
}

/// `GET /_inspect/stream[?after=SEQ]`: Server-Sent Events, one `request` event per completed
/// request (`id:` its number), `skipped` events for records not delivered. With `after` (or a
/// `Last-Event-ID` header) the held records after that number come first.
pub async fn stream(
    State(st): State<AppState>,
    headers: HeaderMap,
    q: Result<Query<StreamQuery>, QueryRejection>,
) -> Response {
    let Query(q) = match q {
        Ok(q) => q,
        Err(e) => return ApiError::from(e).into_response(),
    };
    let after = q.after.or_else(|| {
        headers
            .get("last-event-id")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse().ok())
    });
    // A stream holds a connection for as long as it is open: past the cap, say so rather than
    // let streams take every descriptor (1,014 idle ones stopped the server accepting).
    // The refused connection is then closed: left open, 1,100 refused clients held every
    // descriptor (`docs/server.md` rule L12).
    let Ok(permit) = st.streams.clone().try_acquire_owned() else {
        return super::connections::close_after(ApiError::new(
            503,
            "TOO_MANY_STREAMS",
            format!(
                "This server already has {} live streams open, the most it serves at once so that ordinary requests keep being answered; close another watch or Traffic view and connect again.",
                st.config.max_streams
            ),
        )
        .into_response());
    };
    let hub = st.stream;
    // Numbers from another run of the server mean nothing here: start from the oldest held.
    let after = match (&q.instance, after) {
        (Some(i), Some(_)) if i != hub.instance() => Some(0),
        _ => after,
    };
    let (backlog, missing, rx) = hub.subscribe(after);
    let state = Subscriber {
        pending: if missing > 0 { Some(missing) } else { None },
        backlog: backlog.into(),
        rx,
        closed: hub.closed(),
        _permit: permit,
    };
    let events = futures::stream::unfold(state, |mut s| async move {
        let event = s.next().await?;
        Some((Ok::<Event, Infallible>(event), s))
    });
    let mut response = Sse::new(events)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response();
    if let Ok(v) = axum::http::HeaderValue::from_str(hub.instance()) {
        response.headers_mut().insert(INSTANCE_HEADER, v);
    }
    response
}

struct Subscriber {
    pending: Option<u64>,
    backlog: VecDeque<Arc<Published>>,
    rx: broadcast::Receiver<Arc<Published>>,
    closed: watch::Receiver<bool>,
    /// Given back when the stream ends (its client went away or the server stops).
    _permit: tokio::sync::OwnedSemaphorePermit,
}

impl Subscriber {
    /// The next event to send, `None` when the server stops.
    async fn next(&mut self) -> Option<Event> {
        if let Some(n) = self.pending.take() {
            return Some(skipped_event(n));
        }
        if let Some(item) = self.backlog.pop_front() {
            return Some(request_event(&item));
        }
        if *self.closed.borrow() {
            return None;
        }
        tokio::select! {
            got = self.rx.recv() => match got {
                Ok(item) => Some(request_event(&item)),
                Err(broadcast::error::RecvError::Lagged(n)) => Some(skipped_event(n)),
                Err(broadcast::error::RecvError::Closed) => None,
            },
            _ = self.closed.wait_for(|c| *c) => None,
        }
    }
}

fn request_event(item: &Published) -> Event {
    Event::default()
        .event("request")
        .id(item.seq.to_string())
        .data(&item.json)
}

fn skipped_event(n: u64) -> Event {
    let json = serde_json::to_string(&StreamMessage::Skipped { skipped: n })
        .unwrap_or_else(|_| format!("{{\"type\":\"skipped\",\"skipped\":{n}}}"));
    Event::default().event("skipped").data(json)
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Hub {
        /// Records and bytes currently held by the ring.
        fn held(&self) -> (usize, usize) {
            let g = self.lock();
            (g.records.len(), g.bytes)
        }
    }

    fn seen(path: &str) -> RequestSeen {
        RequestSeen {
            seq: 0,
            time: "t".into(),
            method: "PUT".into(),
            path: path.into(),
            query: String::new(),
            route: Route::of(path),
            status: 200,
            code: None,
            message: None,
            verdict: None,
            mistakes: vec![],
            conclusion: None,
            expected: None,
            warnings: vec![],
            request_bytes: None,
            response_bytes: None,
            duration_ms: 0.0,
            headers: vec![],
            body: String::new(),
            body_truncated: false,
            record: None,
            job_id: None,
            batch: None,
            body_problems: None,
            upstream: None,
        }
    }

    #[test]
    fn routes_are_named_by_path() {
        assert_eq!(Route::of("/v2/batch"), Route::Indexing);
        assert_eq!(Route::of("/v2"), Route::Indexing);
        assert_eq!(Route::of("/v2x"), Route::Other);
        assert_eq!(Route::of("/analytics/collect"), Route::Collect);
        assert_eq!(Route::of("/_inspect/summary"), Route::Inspect);
        assert_eq!(Route::of("/"), Route::Other);
    }

    #[test]
    fn resume_gives_held_records_after_the_number_and_counts_the_rest() {
        let hub = Hub::new(3, usize::MAX);
        for i in 0..5 {
            assert_eq!(hub.publish(seen(&format!("/v2/{i}"))), i + 1);
        }
        // Held: 3, 4, 5. After 1: record 2 is gone (1 missing), 3..5 follow.
        let (backlog, missing, _rx) = hub.subscribe(Some(1));
        assert_eq!(backlog.iter().map(|r| r.seq).collect::<Vec<_>>(), [3, 4, 5]);
        assert_eq!(missing, 1);
        let (backlog, missing, _rx) = hub.subscribe(Some(4));
        assert_eq!(backlog.iter().map(|r| r.seq).collect::<Vec<_>>(), [5]);
        assert_eq!(missing, 0);
        let (backlog, missing, mut rx) = hub.subscribe(None);
        assert!(backlog.is_empty() && missing == 0);
        hub.publish(seen("/v2/x"));
        let got = rx.try_recv().unwrap();
        assert_eq!(got.seq, 6);
        let v: Value = serde_json::from_str(&got.json).unwrap();
        assert_eq!(v["type"], "request");
        assert_eq!(v["seq"], 6);
        assert_eq!(v["path"], "/v2/x");
        assert_eq!(v["route"], "indexing");
    }

    #[test]
    fn the_ring_is_bounded_by_bytes() {
        let hub = Hub::new(1000, 2000);
        for _ in 0..100 {
            let mut r = seen("/v2/batch");
            r.body = "x".repeat(300);
            hub.publish(r);
        }
        let (n, bytes) = hub.held();
        assert!(bytes <= 2000, "{bytes}");
        assert!((2..=6).contains(&n), "{n}");
    }

    #[test]
    fn a_lagging_receiver_is_told_how_many_it_missed() {
        let hub = Hub::new(10, usize::MAX);
        let (_, _, mut rx) = hub.subscribe(None);
        for _ in 0..(STREAM_CHANNEL + 5) {
            hub.publish(seen("/v2/batch"));
        }
        match rx.try_recv() {
            Err(broadcast::error::TryRecvError::Lagged(n)) => assert_eq!(n, 5),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn answers_give_their_mistakes_and_conclusion() {
        let e = ApiError::new(401, "SIGNATURE_MISMATCH", "The signature does not match.")
            .with_debug("canonical: PUT\\n/v2/batch")
            .with_debug("provided signature: abc")
            .with_debug("diagnosis: the client trimmed the trailing slash.")
            .with_debug("finding TRAILING_SLASH_TRIMMED: the client signed /v2/batch")
            .with_debug("finding QUESTION_MARK_BEFORE_QUERY: and a question mark");
        let a = parse_answer(&e);
        assert_eq!(a.code.as_deref(), Some("SIGNATURE_MISMATCH"));
        assert_eq!(
            a.mistakes,
            ["TRAILING_SLASH_TRIMMED", "QUESTION_MARK_BEFORE_QUERY"]
        );
        assert_eq!(
            a.conclusion.as_deref(),
            Some("the client trimmed the trailing slash.")
        );
        assert_eq!(a.canonical.as_deref(), Some("PUT\\n/v2/batch"));
    }

    #[test]
    fn cuts_keep_whole_characters() {
        assert_eq!(cut("héllo", 2), ("h", true));
        assert_eq!(cut("hé", 3), ("hé", false));
    }
}
