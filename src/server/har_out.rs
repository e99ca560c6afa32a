//! The server's records as HAR 1.2 entries (`docs/har.md` rules H8-H10): the inspection API's
//! `?format=har` and the workbench's Traffic view write them with [`crate::core::har::write`].
//!
//! An entry starts at the time the server recorded the request (the one its timestamp was
//! checked against), so that `check` reads it back with the same verdict. What the server does
//! not keep is written as not known: the header block's size, the answer's headers and body
//! (the verdict is in the entry's `_signscope` member and `comment`).

use serde_json::json;

use crate::core::har::write::{headers_for_export, Exchange, ExchangeResponse, Timings};
use crate::core::Secret;

use super::store::RequestRecord;
use crate::core::traffic::RequestSeen;

/// What the server keeps of one request, owned, ready to be lent to an [`Exchange`].
pub struct HarRecord {
    pub started: String,
    pub time_ms: Option<f64>,
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub body_size: usize,
    pub status: u16,
    pub response_bytes: Option<u64>,
    pub verdict: serde_json::Value,
    pub comment: String,
}

impl HarRecord {
    pub fn exchange(&self) -> Exchange<'_> {
        Exchange {
            started: self.started.clone(),
            time_ms: self.time_ms,
            method: &self.method,
            url: self.url.clone(),
            headers: &self.headers,
            body: &self.body,
            body_size: Some(self.body_size),
            response: Some(ExchangeResponse {
                status: self.status,
                headers: &[],
                body: None,
                body_size: self.response_bytes,
            }),
            timings: self.time_ms.map(|t| Timings {
                // The server measures from the request's head to its answer: waiting, for a
                // HAR reader.
                wait: Some(t),
                ..Timings::default()
            }),
            comment: Some(self.comment.clone()),
            custom: Some(("_signscope".into(), self.verdict.clone())),
        }
    }
}

/// `http://HOST/path?query`: the host the client addressed (its `Host` header), else `fallback`.
fn url_of(headers: &[(String, String)], fallback: &str, path: &str, query: &str) -> String {
    let host = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("host"))
        .map_or(fallback, |(_, v)| v.as_str());
    format!(
        "http://{host}{}",
        crate::core::http_text::target(path, query)
    )
}

/// Every occurrence of a REST key replaced by `***` (a client may have put one where it does
/// not belong: keys are never written, `docs/har.md` rule H9).
fn scrub(text: &str, secrets: &[&Secret]) -> String {
    let mut out = text.to_string();
    for s in secrets {
        let key = s.expose();
        if !key.is_empty() && out.contains(key) {
            out = out.replace(key, "***");
        }
    }
    out
}

fn scrub_headers(
    h: &[(String, String)],
    secrets: &[&Secret],
    redact: bool,
) -> Vec<(String, String)> {
    headers_for_export(h, redact)
        .into_iter()
        .map(|(n, v)| (n, scrub(&v, secrets)))
        .collect()
}

/// An inspection store's indexing record as a HAR entry.
pub fn of_record(
    r: &RequestRecord,
    fallback_host: &str,
    secrets: &[&Secret],
    redact: bool,
) -> HarRecord {
    let verdict = json!({"verdict": r.verdict, "status": r.status, "code": r.code,
                         "message": r.message, "warnings": r.warnings});
    HarRecord {
        started: r.time.clone(),
        time_ms: None,
        method: r.method.clone(),
        url: url_of(&r.headers, fallback_host, &r.path, &r.query),
        headers: scrub_headers(&r.headers, secrets, redact),
        body: scrub(&r.body, secrets).into_bytes(),
        body_size: r.body_bytes,
        status: r.status,
        response_bytes: None,
        comment: comment(r.status, r.code.as_deref(), r.body_truncated),
        verdict,
    }
}

/// The entry's comment: the status and code signscope answered, and whether the body was cut.
fn comment(status: u16, code: Option<&str>, body_truncated: bool) -> String {
    let cut = if body_truncated {
        "; only the start of the body was kept"
    } else {
        ""
    };
    format!("signscope: {status} {}{cut}", code.unwrap_or("OK"))
}

/// A live stream record (the Traffic view's) as a HAR entry.
pub fn of_seen(r: &RequestSeen, fallback_host: &str, redact: bool) -> HarRecord {
    let verdict = json!({"verdict": r.verdict, "status": r.status, "code": r.code,
                         "message": r.message, "mistakes": r.mistakes, "conclusion": r.conclusion,
                         "warnings": r.warnings, "batch": r.batch, "upstream": r.upstream});
    let body_size = r.request_bytes.unwrap_or(r.body.len()).max(r.body.len());
    HarRecord {
        started: r.time.clone(),
        time_ms: Some(r.duration_ms),
        method: r.method.clone(),
        url: url_of(&r.headers, fallback_host, &r.path, &r.query),
        headers: headers_for_export(&r.headers, redact),
        body: r.body.clone().into_bytes(),
        body_size,
        status: r.status,
        response_bytes: r.response_bytes,
        comment: comment(r.status, r.code.as_deref(), r.body_truncated),
        verdict,
    }
}
