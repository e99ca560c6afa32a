//! The analytics collector: `POST /analytics/collect` and the older analytics endpoints
//! (`docs/server.md` rules R6, R11).
//!
//! What a request is answered is decided by the pure [`crate::core::collect::judge`] (the same
//! judgement any reader of a captured collector request gets): a batch is validated with
//! [`crate::core::events::validate_bytes`]; every event valid: `200 {"accepted": N, "rejected":
//! 0, "warnings": [...]}`; anything invalid: `400` in the vendor's error shape plus every problem
//! at once. The older endpoints are recorded and answered 200 when they carry an API key.
//!
//! Browsers: the analytics routes carry tower-http's `CorsLayer` ([`cors`]), mirroring the
//! request's origin with credentials allowed, so a `Blob` beacon or a credentialed `fetch` from a
//! shop page reaches the collector (docs/server.md rule R8).
//!
//! Every request, good or bad, is stored for inspection: one record per array element, or one
//! record for the whole body when it is not a non-empty JSON array (so nothing a client sent is
//! lost).

use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bytes::Bytes;
use serde_json::Value;
use tower_http::cors::{AllowHeaders, AllowMethods, AllowOrigin, CorsLayer};

use crate::core::collect::{event_index, judge, judge_with_views, Endpoint, Judgement};
use crate::core::events::{list_id_of, problem_value, MAX_LISTED_PROBLEMS};
use crate::core::time::format_timestamp;
use crate::core::verify::ReceivedRequest;

use super::body::admit_body;
use super::error::ApiError;
use super::store::{preview, EventRecord, RequestRecord};
use super::stream;
use super::AppState;
use crate::core::traffic::Verdict;

/// The analytics routes' CORS (`docs/server.md`, "CORS"): the request's `Origin` mirrored (never
/// `*`, which a browser refuses with credentials), `Access-Control-Allow-Credentials: true`,
/// `GET`, `POST` and `OPTIONS` allowed, the requested headers allowed, preflights cached 600 s.
/// A `Blob` beacon and `fetch(..., {credentials: "include"})` are credentialed requests: with
/// `*` or without the credentials header the browser drops them and nothing is recorded.
pub fn cors() -> CorsLayer {
    CorsLayer::new()
        .allow_origin(AllowOrigin::mirror_request())
        .allow_credentials(true)
        .allow_methods(AllowMethods::list([
            Method::GET,
            Method::POST,
            Method::OPTIONS,
        ]))
        .allow_headers(AllowHeaders::mirror_request())
        .max_age(Duration::from_secs(600))
}

/// Every request to an analytics path: `POST /analytics/collect`, the older endpoints with any
/// method, and any other path under `/analytics/` (404 locally; forwarded when an analytics
/// upstream is set, `docs/server.md` rule W5).
pub async fn analytics(State(st): State<AppState>, req: Request) -> Response {
    let path = req.uri().path().to_owned();
    match Endpoint::of(&path) {
        Some(Endpoint::Collect) if req.method() != Method::POST => ApiError::new(
            405,
            "METHOD_NOT_ALLOWED",
            format!(
                "{path} does not accept the method {}; events are POSTed.",
                req.method()
            ),
        )
        .into_response(),
        Some(_) => collect(State(st), req).await,
        None => ApiError::not_found(req.method().as_str(), &path).into_response(),
    }
}

/// Bodies up to this size are judged on the request's own task; larger ones on the blocking
/// pool, so that a big batch never holds up the runtime's threads. Handing a small batch to the
/// pool (a thread woken, the judgement handed back) cost more than judging it
/// (`benches/README.md`, "The collector's throughput").
const INLINE_JUDGE_BYTES: usize = 8 * 1024;

pub async fn collect(State(st): State<AppState>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let test = test_id_of(&parts.headers);

    // Bounded memory: a permit before taking in a body (released when answered).
    let (_permit, read) = admit_body(&st, &parts, body).await;
    let body = match read {
        Ok(b) => b,
        Err(e) => {
            let err = e.to_api_error(st.config.max_body);
            let problem = problem_value("error", "", &err.code, None, &err.message);
            let status = err.status;
            let received = received_record(&parts, &Bytes::new(), status, Some(err.code.clone()));
            let mut answer = err.into_response();
            store_batch(
                &st,
                status,
                &Bytes::new(),
                None,
                vec![problem],
                &[],
                None,
                test.as_deref(),
                &mut answer,
                received,
            );
            return answer;
        }
    };

    let received = ReceivedRequest {
        method: parts.method.as_str().to_owned(),
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().unwrap_or("").to_owned(),
        headers: parts
            .headers
            .iter()
            .map(|(n, v)| (n.as_str().to_owned(), v.as_bytes().to_vec()))
            .collect(),
        body: body.clone(),
    };
    let client = parts
        .extensions
        .get::<ClientAddr>()
        .map(|c| c.0.to_string())
        .unwrap_or_default();
    let views = st.views.clone();
    let judged = move || {
        let j = judge(&received)?;
        let mut views = views.lock().unwrap_or_else(|e| e.into_inner());
        Some(judge_with_views(j, &mut views, &client))
    };
    let judged = if body.len() <= INLINE_JUDGE_BYTES {
        judged()
    } else {
        match tokio::task::spawn_blocking(judged).await {
            Ok(j) => j,
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    };
    let Some(Judgement {
        endpoint,
        status,
        answer,
        problems,
        omitted,
        parsed,
        ..
    }) = judged
    else {
        return ApiError::not_found(parts.method.as_str(), parts.uri.path()).into_response();
    };
    let older = match endpoint {
        Endpoint::Older(name) => Some(name),
        Endpoint::Collect => None,
    };
    // The answer is serialised before the batch is stored: the store's count is what tests and
    // `/_inspect/wait` take as "answered".
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    let mut response = (code, Json(answer)).into_response();
    let failed = (status != 200).then(|| "VALIDATION_ERROR".to_string());
    let received = received_record(&parts, &body, status, failed);
    store_batch(
        &st,
        status,
        &body,
        parsed,
        problems,
        &omitted.error_events,
        older,
        test.as_deref(),
        &mut response,
        received,
    );
    response
}

/// The collector request as received, for the HAR of everything the server received
/// (`docs/server.md` rule R15): the body's bytes as they came (up to the store's preview), not
/// the events re-serialised. Its number and time are its batch's ([`store_batch`]).
fn received_record(
    parts: &axum::http::request::Parts,
    body: &Bytes,
    status: u16,
    code: Option<String>,
) -> RequestRecord {
    let (text, cut) = preview(body);
    RequestRecord {
        seq: 0,
        time: String::new(),
        method: parts.method.as_str().to_owned(),
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().unwrap_or("").to_owned(),
        api_key: None,
        verdict: if status == 200 {
            Verdict::Accepted
        } else {
            Verdict::Rejected
        },
        status,
        code,
        message: String::new(),
        warnings: Vec::new(),
        job_id: None,
        body_bytes: body.len(),
        body: text,
        body_truncated: cut,
        headers: parts
            .headers
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body_problems: None,
        answered: Default::default(),
    }
}

/// The address a request came from (set by the server on every request it reads from a
/// socket; a capture judged offline has none).
#[derive(Clone, Copy, Debug)]
pub struct ClientAddr(pub std::net::IpAddr);

/// The request's test id (`X-Signscope-Test` or the `signscope_test` cookie).
fn test_id_of(headers: &axum::http::HeaderMap) -> Option<String> {
    let pairs: Vec<(&str, &str)> = headers
        .iter()
        .filter_map(|(n, v)| Some((n.as_str(), v.to_str().ok()?)))
        .collect();
    crate::core::traffic::test_id(&pairs)
}

fn is_error(p: &Value) -> bool {
    p.get("level").and_then(Value::as_str) == Some("error")
}

fn str_field(v: &Value, name: &str) -> Option<String> {
    v.get(name).and_then(Value::as_str).map(str::to_string)
}

/// Store one record per event (or one for the whole body) with the problems that concern it,
/// and note them on `answer` for the live stream.
#[allow(clippy::too_many_arguments)]
fn store_batch(
    st: &AppState,
    status: u16,
    body: &Bytes,
    parsed: Option<Value>,
    problems: Vec<Value>,
    omitted_error_events: &[usize],
    older: Option<&str>,
    test: Option<&str>,
    answer: &mut Response,
    mut received: RequestRecord,
) {
    let batch = st.store.next_seq();
    tracing::debug!(
        batch,
        status,
        body_len = body.len(),
        problems = problems.len(),
        "event batch answered"
    );
    let time = format_timestamp(st.config.now());
    let at = BatchAt {
        batch,
        time,
        status,
    };
    let records = match parsed {
        // An older endpoint's request: one record, named by its endpoint.
        Some(fields) if older.is_some() => {
            let whole = Whole::Data(older.map(str::to_owned), None, fields);
            vec![(body.len() + 256, whole.record(st, at, problems))]
        }
        Some(Value::Array(items)) if !items.is_empty() => {
            // A parsed event takes a few times its text in memory.
            let share = 3 * body.len() / items.len();
            event_records(st, &at, items, share, problems, omitted_error_events)
        }
        Some(other) => {
            let (event, list_id) = (str_field(&other, "event"), list_id_of(&other));
            let whole = Whole::Data(event, list_id.map(str::to_owned), other);
            vec![(body.len(), whole.record(st, at, problems))]
        }
        None => {
            let (raw, _) = preview(body);
            vec![(raw.len(), Whole::Raw(raw).record(st, at, problems))]
        }
    };
    stream::note_batch(answer, body, &records, older);
    // The request as received, numbered as its batch, kept before the batch is counted (a
    // test that waits for the count finds it).
    received.seq = batch;
    received.time = records
        .first()
        .map(|(_, e)| e.time.clone())
        .unwrap_or_default();
    st.store.add_collected(received, test);
    st.store.add_batch(status == 200, records, test);
}

/// What every record of one batch shares: its sequence number, time and answer.
struct BatchAt {
    batch: u64,
    time: String,
    status: u16,
}

/// What a record of a whole request holds: the body as JSON (no list of events: an older
/// endpoint's fields with its name, or one value with its `event` and list id), or a preview
/// of a body that is no JSON.
enum Whole {
    Data(Option<String>, Option<String>, Value),
    Raw(String),
}

impl Whole {
    fn record(self, st: &AppState, at: BatchAt, problems: Vec<Value>) -> EventRecord {
        let (event, list_id, data, raw) = match self {
            Whole::Data(event, list_id, data) => (event, list_id, Some(data), None),
            Whole::Raw(raw) => (None, None, None, Some(raw)),
        };
        EventRecord {
            seq: st.store.next_seq(),
            batch: at.batch,
            time: at.time,
            index: None,
            valid: at.status == 200 && raw.is_none(),
            event,
            list_id,
            status: at.status,
            problems,
            data,
            raw,
        }
    }
}

/// One record per event of a batch array, each with the batch's own problems and its own (an
/// event whose errors were past the listed limit says so), and the memory it is counted for.
/// An event's own problems are moved into its record, not copied.
fn event_records(
    st: &AppState,
    at: &BatchAt,
    items: Vec<Value>,
    share: usize,
    problems: Vec<Value>,
    omitted_error_events: &[usize],
) -> Vec<(usize, EventRecord)> {
    let n = items.len();
    let mut records = Vec::with_capacity(n);
    // Each event's problems, in one pass (filtering every problem for every event took
    // events x problems steps: 74 s for 3,001 bad events in a debug build).
    let mut batch_level = Vec::new();
    let mut per_event: Vec<Vec<Value>> = vec![Vec::new(); n];
    for p in problems {
        match event_index(&p).map(|i| per_event.get_mut(i)) {
            None => batch_level.push(p),
            Some(Some(mine)) => mine.push(p),
            Some(None) => {}
        }
    }
    let batch_error = batch_level.iter().any(is_error);
    for ((i, item), own) in items.into_iter().enumerate().zip(per_event) {
        let mut mine: Vec<Value> = batch_level.clone();
        mine.extend(own);
        if omitted_error_events.binary_search(&i).is_ok() {
            mine.push(problem_value(
                "error",
                &format!("[{i}]"),
                "NOT_LISTED",
                None,
                &format!(
                    "This event has errors that are not listed: the batch had more than {MAX_LISTED_PROBLEMS} problems, and only the first {MAX_LISTED_PROBLEMS} are."
                ),
            ));
        }
        let valid = !batch_error && !mine.iter().any(is_error);
        records.push((
            share,
            EventRecord {
                seq: st.store.next_seq(),
                batch: at.batch,
                time: at.time.clone(),
                index: Some(i),
                valid,
                event: str_field(&item, "event"),
                list_id: list_id_of(&item).map(str::to_owned),
                status: at.status,
                problems: mine,
                data: Some(item),
                raw: None,
            },
        ));
    }
    records
}
