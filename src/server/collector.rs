//! The analytics collector: `POST /analytics/collect` (`docs/server.md` rule R6).
//!
//! The body is validated with [`crate::core::events::validate_bytes`]. Every event valid:
//! `200 {"accepted": N, "rejected": 0, "warnings": [...]}`. Anything invalid: `400` in the
//! vendor's error shape (`code` `VALIDATION_ERROR`, one `debug` entry per problem) plus
//! `"accepted": 0, "rejected": N, "problems": [...]` listing every problem at once, each with its
//! JSON path, offending value and rule (up to [`MAX_LISTED_PROBLEMS`]; past that the rest are
//! counted in `"omitted"`, so one request cannot make an answer of hundreds of megabytes).
//! Malformed JSON: the same 400 with one `JSON_SYNTAX` problem naming line and column.
//!
//! Browsers: the route answers CORS preflights and puts `Access-Control-Allow-Origin` (the
//! request's origin, or `*` without one) and `Vary: Origin` on every answer, errors included
//! ([`with_cors`]), so the vendor's SDK on a shop page can post to it (docs/server.md).
//!
//! Every request, good or bad, is stored for inspection: one record per array element, or one
//! record for the whole body when it is not a non-empty JSON array (so nothing a client sent is
//! lost).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use axum::Json;
use bytes::Bytes;
use serde_json::{json, Value};
use tower::{Layer, Service};

use crate::core::events::{event_of_path, list_id_of, validate_bytes, MAX_LISTED_PROBLEMS};
use crate::core::time::format_timestamp;
use crate::core::visible::counted;
use crate::core::CONTENT_TYPE_JSON;

use super::body::admit_body;
use super::store::{preview, EventRecord};
use super::AppState;

/// The collector's routes with CORS: preflights (`OPTIONS`) are answered with `POST` allowed,
/// the requested headers allowed and a max age of 600 s; every answer, preflight or not,
/// errors included, gets `Access-Control-Allow-Origin` (the request's origin, or `*` when it
/// had none) and `Vary: Origin` (`docs/server.md`, "CORS").
///
/// Hand-written rather than tower-http's general `CorsLayer`: the collector's policy is fixed
/// (any origin, one method), so the layer copies one header and inserts two, without boxing
/// the handler's future (`benches/vendor.rs` measures what it adds per request).
pub fn with_cors(route: MethodRouter<AppState>) -> MethodRouter<AppState> {
    route.options(preflight).layer(CorsLayer)
}

/// The answer to a preflight; [`CorsLayer`] adds the origin and `Vary`.
async fn preflight(headers: HeaderMap) -> Response {
    let mut resp = StatusCode::OK.into_response();
    let h = resp.headers_mut();
    h.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("POST,OPTIONS"),
    );
    if let Some(asked) = headers.get(header::ACCESS_CONTROL_REQUEST_HEADERS) {
        h.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, asked.clone());
    }
    h.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("600"),
    );
    h.insert(
        header::VARY,
        HeaderValue::from_static("access-control-request-method, access-control-request-headers"),
    );
    resp
}

/// Puts the collector's CORS headers on every answer of the service it wraps.
#[derive(Clone, Copy, Debug, Default)]
pub struct CorsLayer;

impl<S> Layer<S> for CorsLayer {
    type Service = Cors<S>;
    fn layer(&self, inner: S) -> Cors<S> {
        Cors { inner }
    }
}

/// The service of [`CorsLayer`].
#[derive(Clone, Debug)]
pub struct Cors<S> {
    inner: S,
}

impl<S, B> Service<axum::http::Request<B>> for Cors<S>
where
    S: Service<axum::http::Request<B>, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = CorsFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: axum::http::Request<B>) -> Self::Future {
        let origin = req.headers().get(header::ORIGIN).cloned();
        CorsFuture {
            inner: self.inner.call(req),
            origin,
        }
    }
}

pin_project_lite::pin_project! {
    /// The wrapped answer, then the two headers.
    pub struct CorsFuture<F> {
        #[pin]
        inner: F,
        origin: Option<HeaderValue>,
    }
}

impl<F, E> Future for CorsFuture<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let mut resp = std::task::ready!(this.inner.poll(cx))?;
        let origin = this
            .origin
            .take()
            .unwrap_or_else(|| HeaderValue::from_static("*"));
        add_cors_headers(resp.headers_mut(), origin);
        Poll::Ready(Ok(resp))
    }
}

/// `Access-Control-Allow-Origin: origin` (unless the answer has one) and `Vary: origin`.
pub fn add_cors_headers(headers: &mut HeaderMap, origin: HeaderValue) {
    if headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN) {
        return;
    }
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.append(header::VARY, HeaderValue::from_static("origin"));
}

pub async fn collect(State(st): State<AppState>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());

    // Bounded memory: a permit before taking in a body (released when answered).
    let (_permit, read) = admit_body(&st, &parts, body).await;
    let body = match read {
        Ok(b) => b,
        Err(e) => {
            let err = e.to_api_error(st.config.max_body);
            let problem = json!({"level": "error", "path": "", "code": err.code,
                                 "value": null, "message": err.message});
            store_batch(&st, err.status, &Bytes::new(), None, vec![problem], &[]);
            return err.into_response();
        }
    };

    let body_for_work = body.clone();
    let (report_problems, events, omitted) = match tokio::task::spawn_blocking(move || {
        let report = validate_bytes(&body_for_work);
        let problems: Vec<Value> = report
            .problems
            .iter()
            .map(|p| serde_json::to_value(p).unwrap_or(Value::Null))
            .collect();
        (problems, report.events, report.omitted)
    })
    .await
    {
        Ok(r) => r,
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    };

    let mut problems = report_problems;
    if content_type.as_deref() != Some(CONTENT_TYPE_JSON) {
        problems.push(json!({
            "level": "warning",
            "path": "",
            "code": "CONTENT_TYPE",
            "value": content_type,
            "message": "the Content-Type header should be application/json",
        }));
    }

    let errors: Vec<&Value> = problems.iter().filter(|p| is_error(p)).collect();
    let status = if errors.is_empty() && omitted.errors == 0 {
        200
    } else {
        400
    };
    let parsed: Option<Value> = serde_json::from_slice(&body).ok();

    let answer = if status == 200 {
        let warnings: Vec<&Value> = problems.iter().filter(|p| !is_error(p)).collect();
        (
            StatusCode::OK,
            Json(json!({"accepted": events, "rejected": 0, "warnings": warnings})),
        )
            .into_response()
    } else {
        let bad_events = count_bad_events(&errors, &omitted.error_events, events);
        let message = if parsed.is_none() {
            match errors
                .first()
                .and_then(|p| p.get("message"))
                .and_then(Value::as_str)
            {
                // The validator's message already says "The body is not valid JSON: ...".
                Some(m) => m.to_string(),
                None => "The body is not valid JSON.".to_string(),
            }
        } else {
            let n = errors.len() + omitted.errors;
            let mut m = format!(
                "The batch was not accepted: {} in {bad_events} of {}.",
                counted(n, "problem"),
                counted(events, "event")
            );
            if !omitted.is_empty() {
                m.push_str(&format!(
                    " The first {} problems are listed; {} more ({}, {}) are counted in \"omitted\".",
                    problems.len(),
                    omitted.total(),
                    counted(omitted.errors, "error"),
                    counted(omitted.warnings, "warning"),
                ));
            }
            m
        };
        let debug: Vec<Value> = problems
            .iter()
            .map(|p| json!({"message": problem_line(p)}))
            .collect();
        let mut answer = json!({
            "status": 400,
            "code": "VALIDATION_ERROR",
            "message": message,
            "debug": debug,
            "accepted": 0,
            "rejected": events,
            "problems": problems,
        });
        if !omitted.is_empty() {
            answer["omitted"] = json!({"errors": omitted.errors, "warnings": omitted.warnings});
        }
        (StatusCode::BAD_REQUEST, Json(answer)).into_response()
    };
    store_batch(&st, status, &body, parsed, problems, &omitted.error_events);
    answer
}

fn is_error(p: &Value) -> bool {
    p.get("level").and_then(Value::as_str) == Some("error")
}

/// `path: message` for one problem, e.g. `[0].items[2].currency: must be three letters`.
fn problem_line(p: &Value) -> String {
    let path = p.get("path").and_then(Value::as_str).unwrap_or("");
    let msg = p.get("message").and_then(Value::as_str).unwrap_or("");
    let code = p.get("code").and_then(Value::as_str).unwrap_or("");
    if path.is_empty() {
        format!("{code}: {msg}")
    } else {
        format!("{path}: {code}: {msg}")
    }
}

/// The event a problem belongs to, from its path (`[3].items[0].price` -> 3).
fn event_index(p: &Value) -> Option<usize> {
    event_of_path(p.get("path").and_then(Value::as_str)?)
}

/// Events with an error: listed ones, plus those whose errors were past the list's limit.
fn count_bad_events(errors: &[&Value], omitted_error_events: &[usize], events: usize) -> usize {
    let mut seen: std::collections::BTreeSet<usize> =
        omitted_error_events.iter().copied().collect();
    let mut whole = false;
    for e in errors {
        match event_index(e) {
            Some(i) => {
                seen.insert(i);
            }
            None => whole = true,
        }
    }
    if whole {
        events
    } else {
        seen.len()
    }
}

fn str_field(v: &Value, name: &str) -> Option<String> {
    v.get(name).and_then(Value::as_str).map(str::to_string)
}

/// Store one record per event (or one for the whole body) with the problems that concern it.
fn store_batch(
    st: &AppState,
    status: u16,
    body: &Bytes,
    parsed: Option<Value>,
    problems: Vec<Value>,
    omitted_error_events: &[usize],
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
    let batch_level: Vec<Value> = problems
        .iter()
        .filter(|p| event_index(p).is_none())
        .cloned()
        .collect();
    let batch_error = batch_level.iter().any(is_error);

    let mut records = Vec::new();
    match parsed {
        Some(Value::Array(items)) if !items.is_empty() => {
            let n = items.len();
            // A parsed event takes a few times its text in memory.
            let share = 3 * body.len() / n;
            // Each event's problems, in one pass (filtering every problem for every event took
            // events x problems steps: 74 s for 3,001 bad events in a debug build).
            let mut per_event: Vec<Vec<Value>> = vec![Vec::new(); n];
            for p in &problems {
                if let Some(mine) = event_index(p).and_then(|i| per_event.get_mut(i)) {
                    mine.push(p.clone());
                }
            }
            for ((i, item), own) in items.into_iter().enumerate().zip(per_event) {
                let mut mine: Vec<Value> = batch_level.clone();
                mine.extend(own);
                if omitted_error_events.binary_search(&i).is_ok() {
                    mine.push(json!({
                        "level": "error",
                        "path": format!("[{i}]"),
                        "code": "NOT_LISTED",
                        "value": null,
                        "message": format!(
                            "This event has errors that are not listed: the batch had more than {MAX_LISTED_PROBLEMS} problems, and only the first {MAX_LISTED_PROBLEMS} are."
                        ),
                    }));
                }
                let valid = !batch_error && !mine.iter().any(is_error);
                records.push((
                    share,
                    EventRecord {
                        seq: st.store.next_seq(),
                        batch,
                        time: time.clone(),
                        index: Some(i),
                        valid,
                        event: str_field(&item, "event"),
                        list_id: list_id_of(&item).map(str::to_owned),
                        status,
                        problems: mine,
                        data: Some(item),
                        raw: None,
                    },
                ));
            }
        }
        Some(other) => records.push((
            body.len(),
            EventRecord {
                seq: st.store.next_seq(),
                batch,
                time,
                index: None,
                valid: status == 200,
                event: str_field(&other, "event"),
                list_id: list_id_of(&other).map(str::to_owned),
                status,
                problems,
                data: Some(other),
                raw: None,
            },
        )),
        None => {
            let (raw, _) = preview(body);
            records.push((
                raw.len(),
                EventRecord {
                    seq: st.store.next_seq(),
                    batch,
                    time,
                    index: None,
                    valid: false,
                    event: None,
                    list_id: None,
                    status,
                    problems,
                    data: None,
                    raw: Some(raw),
                },
            ));
        }
    }
    st.store.add_batch(status == 200, records);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_attributed_to_their_event() {
        assert_eq!(event_index(&json!({"path": "[3].items[0].price"})), Some(3));
        assert_eq!(event_index(&json!({"path": "[12]"})), Some(12));
        assert_eq!(event_index(&json!({"path": ""})), None);
        assert_eq!(event_index(&json!({"path": "items"})), None);
        let errs = [
            json!({"path": "[0].a"}),
            json!({"path": "[0].b"}),
            json!({"path": "[2]"}),
        ];
        let refs: Vec<&Value> = errs.iter().collect();
        assert_eq!(count_bad_events(&refs, &[], 5), 2);
        // Events whose errors were not listed count too, once.
        assert_eq!(count_bad_events(&refs, &[2, 4], 5), 3);
        let whole = [json!({"path": ""})];
        assert_eq!(
            count_bad_events(&whole.iter().collect::<Vec<_>>(), &[], 5),
            5
        );
    }
}
