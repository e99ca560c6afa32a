//! The inspection API, for tests and CI (like a test collector):
//!
//! - `GET /_inspect/health`: `{"status": "ok", "server_time", "header_prefix", "accounts"
//!   (public keys only), "max_body", "max_stored"}`;
//! - `GET /_inspect/requests?verdict=accepted|rejected|aborted&code=...`: indexing
//!   requests in arrival order (time, method, path, query, headers, verdict, status, code,
//!   body preview, ...);
//! - `GET /_inspect/events?valid=true|false&event=...&list_id=...&batch=N&match={json}`:
//!   collected events in arrival order (`match`: every member given must be equal);
//! - `GET /_inspect/summary?since=SEQ&test=ID`: counters since start or reset, including
//!   dropped records (with `since`/`test`, of the held records in that scope);
//! - `POST /_inspect/reset`: forget everything;
//! - `GET /_inspect/wait?events=N&requests=M&timeout_ms=T`: answers 200 as soon as at least N
//!   events and M indexing requests have been counted (since start or reset), or 408
//!   `WAIT_TIMEOUT` after T ms (default 5,000, at most 60,000). No polling needed.
//!
//! Both lists are paginated: a reply holds the last `limit` matches (default 100, at most
//! 1,000); when older matches remain, the `X-Next-Cursor` header holds the parameter for the
//! next page (`before=SEQ`: the matches older than record SEQ). `after=SEQ` pages forward
//! instead (the first `limit` matches newer than SEQ; the cursor is then `after=...`). In a list,
//! request bodies are cut to 1 KiB and events larger than 16 KiB are shown as a 1 KiB text
//! preview (`raw`); `seq=N` asks for record N alone, in full. Replies are written a chunk at a
//! time within a budget shared by all answers ([`super::page`], `docs/server.md` rule L5).

use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::core::time::format_timestamp;

use super::error::ApiError;
use super::page;
use super::store::{Counts, EventFilter, PageQuery, RequestFilter};
use super::AppState;
use crate::core::traffic::Verdict;

/// Longest wait a client may ask for.
pub const MAX_WAIT_MS: u64 = 60_000;
/// Wait used when `timeout_ms` is not given.
pub const DEFAULT_WAIT_MS: u64 = 5_000;

pub async fn health(State(st): State<AppState>) -> Response {
    let mut accounts: Vec<&String> = st.config.accounts.keys().collect();
    accounts.sort();
    Json(json!({
        "status": "ok",
        "server_time": format_timestamp(st.config.now()),
        "header_prefix": st.config.header_prefix.to_ascii_uppercase(),
        "accounts": accounts,
        // Each account's prefixes, the server's own first (docs/server.md rule R12).
        "account_prefixes": accounts
            .iter()
            .map(|k| ((*k).clone(), json!(st.config.prefixes_for(k))))
            .collect::<serde_json::Map<_, _>>(),
        "max_body": st.config.max_body,
        "max_stored": st.config.max_stored,
    }))
    .into_response()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestsQuery {
    verdict: Option<Verdict>,
    code: Option<String>,
    path: Option<String>,
    test: Option<String>,
    /// Only records after this sequence number (a `/_inspect/mark`), oldest first.
    since: Option<u64>,
    limit: Option<usize>,
    before: Option<u64>,
    after: Option<u64>,
    seq: Option<u64>,
    /// `har`: the page as a HAR 1.2 document (`docs/har.md` rule H8) instead of JSON records.
    format: Option<String>,
    /// With `format=har`: mask the Authorization header (`docs/har.md` rule H9).
    #[serde(default)]
    redact: bool,
    /// Every request the server received (indexing, collector, older endpoints) in arrival
    /// order, oldest first (`docs/server.md` rule R15).
    #[serde(default)]
    all: bool,
}

pub async fn requests(
    State(st): State<AppState>,
    q: Result<Query<RequestsQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q?;
    let har = match q.format.as_deref() {
        None | Some("json") => false,
        Some("har") => true,
        Some(other) => {
            return Err(ApiError::new(
                400,
                "BAD_QUERY",
                format!("format={other} is not known; use format=har or leave it out for JSON"),
            ))
        }
    };
    let after = since(&st, q.since, q.after)?;
    if q.all
        && (q.verdict.is_some()
            || q.code.is_some()
            || q.path.is_some()
            || q.before.is_some()
            || q.seq.is_some())
    {
        return Err(ApiError::new(
            400,
            "BAD_QUERY",
            "all=true takes only since, after, test and limit (every request the server received, oldest first); leave out verdict, code, path, before and seq",
        ));
    }
    let filter = RequestFilter {
        verdict: q.verdict,
        code: q.code,
        path: q.path,
        test: q.test,
        page: PageQuery {
            limit: q.limit,
            before: q.before,
            after,
            seq: q.seq,
        },
    };
    let kind = if har {
        page::Kind::Har {
            redact: q.redact,
            config: st.config.clone(),
        }
    } else {
        page::Kind::Requests {
            full: q.seq.is_some(),
        }
    };
    let slots = if q.all {
        st.store.all_slots(&filter.page, filter.test.as_deref())
    } else {
        st.store.request_slots(&filter)
    };
    Ok(page::reply(&st, slots, kind))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventsQuery {
    valid: Option<bool>,
    event: Option<String>,
    list_id: Option<String>,
    batch: Option<u64>,
    /// Events with a problem of this code.
    code: Option<String>,
    test: Option<String>,
    /// A JSON object: events whose data has every member given, equal (partial match).
    #[serde(rename = "match")]
    matching: Option<String>,
    /// Only records after this sequence number (a `/_inspect/mark`), oldest first.
    since: Option<u64>,
    limit: Option<usize>,
    before: Option<u64>,
    after: Option<u64>,
    seq: Option<u64>,
}

/// `match=` as the JSON object it must be, or the one-sentence 400 naming the parameter.
fn match_object(text: Option<&str>) -> Result<Option<serde_json::Value>, ApiError> {
    let Some(text) = text else {
        return Ok(None);
    };
    let refuse = |why: String| {
        ApiError::new(
            400,
            "BAD_QUERY",
            format!(
                "match={text} is {why}; give a JSON object of the fields that must be equal, \
                 such as match={{\"event\":\"view_recs_list\"}} (URL-encoded)"
            ),
        )
    };
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) if v.is_object() => Ok(Some(v)),
        Ok(_) => Err(refuse("not a JSON object".into())),
        Err(e) => Err(refuse(format!("not JSON ({e})"))),
    }
}

pub async fn events(
    State(st): State<AppState>,
    q: Result<Query<EventsQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q?;
    let full = q.seq.is_some();
    let after = since(&st, q.since, q.after)?;
    let matching = match_object(q.matching.as_deref())?;
    let page = st.store.event_slots(&EventFilter {
        valid: q.valid,
        event: q.event,
        list_id: q.list_id,
        batch: q.batch,
        code: q.code,
        test: q.test,
        matching,
        page: PageQuery {
            limit: q.limit,
            before: q.before,
            after,
            seq: q.seq,
        },
    });
    Ok(page::reply(&st, page, page::Kind::Events { full }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummaryQuery {
    /// Count only the records after this sequence number (a `/_inspect/mark`).
    since: Option<u64>,
    /// Count only the records of requests that carried this test id.
    test: Option<String>,
}

/// `GET /_inspect/summary`: the run's counters; with `since` or `test`, the counters of the
/// held records in that scope ([`super::store::Store::scoped_summary`]).
pub async fn summary(
    State(st): State<AppState>,
    q: Result<Query<SummaryQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q?;
    if q.since.is_none() && q.test.is_none() {
        return Ok(Json(st.store.summary()).into_response());
    }
    let after = since(&st, q.since, None)?;
    Ok(Json(st.store.scoped_summary(after, q.test.as_deref())).into_response())
}

/// `GET /_inspect/mark`: the newest sequence number given so far, for `since=SEQ`: a test
/// takes a mark, drives its client, and asks only about what came after it.
pub async fn mark(State(st): State<AppState>) -> Response {
    Json(json!({"since": st.store.head_seq()})).into_response()
}

/// `since=SEQ` as the page's `after` (the later of the two when both are given); a `since`
/// beyond the newest record is a mistake (a mark from another server run), refused.
fn since(st: &AppState, since: Option<u64>, after: Option<u64>) -> Result<Option<u64>, ApiError> {
    let Some(s) = since else {
        return Ok(after);
    };
    let newest = st.store.head_seq();
    if s > newest {
        return Err(ApiError::new(
            400,
            "BAD_QUERY",
            format!(
                "since={s} is beyond the newest record ({newest}); take it from /_inspect/mark of this server run"
            ),
        ));
    }
    Ok(Some(after.map_or(s, |a| a.max(s))))
}

pub async fn reset(State(st): State<AppState>) -> Response {
    st.store.reset();
    Json(json!({"message": "The inspection store was reset."})).into_response()
}

#[derive(Debug, Deserialize)]
pub struct WaitQuery {
    events: Option<u64>,
    requests: Option<u64>,
    timeout_ms: Option<u64>,
}

pub async fn wait(
    State(st): State<AppState>,
    q: Result<Query<WaitQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q?;
    let want_events = q.events.unwrap_or(0);
    let want_requests = q.requests.unwrap_or(0);
    let timeout = Duration::from_millis(q.timeout_ms.unwrap_or(DEFAULT_WAIT_MS).min(MAX_WAIT_MS));
    let (summary, reached) = st
        .store
        .wait_for(
            timeout,
            Counts {
                events: want_events,
                requests: want_requests,
            },
        )
        .await;
    if reached {
        Ok(Json(json!({"reached": true, "summary": summary})).into_response())
    } else {
        Err(ApiError::new(
            408,
            "WAIT_TIMEOUT",
            format!(
                "Waited {} ms for {want_events} events and {want_requests} requests; \
                 {} events and {} requests were counted.",
                timeout.as_millis(),
                summary.events(),
                summary.requests
            ),
        ))
    }
}
