//! The live stream's records (`GET /_inspect/stream`, `docs/server.md`, "Live stream"): what
//! a local server saw of one completed request, as it sends it to its followers, and the one
//! readable line of it that `signscope watch` prints and the workbench's Traffic view lists.
//! Plain data: the server makes them, the stream client (`client::stream`) reads them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::visible::counted;

/// The stream's own path, left out of the stream.
pub const STREAM_PATH: &str = "/_inspect/stream";
/// The header naming the server run whose numbers a stream carries (see [`STREAM_PATH`]).
pub const INSTANCE_HEADER: &str = "x-stream-instance";

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

/// Which part of the server a request went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Route {
    Indexing,
    Collect,
    Inspect,
    Other,
}

impl Route {
    pub fn of(path: &str) -> Route {
        if path == "/v2" || path.starts_with("/v2/") || path == "/_bench/unverified" {
            Route::Indexing
        } else if path == "/analytics" || path.starts_with("/analytics/") {
            Route::Collect
        } else if path.starts_with("/_inspect/") {
            Route::Inspect
        } else {
            Route::Other
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Route::Indexing => "indexing",
            Route::Collect => "collect",
            Route::Inspect => "inspect",
            Route::Other => "other",
        }
    }
}

/// An event batch in a record: how many events, how many valid, and the first problems.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BatchSeen {
    pub events: usize,
    pub valid: usize,
    pub invalid: usize,
    /// Problems (errors and warnings), at most the server's limit, each with its `path`.
    pub problems: Vec<Value>,
    /// Problems not listed in `problems`.
    #[serde(default)]
    pub problems_omitted: usize,
    /// The older analytics endpoint the request went to (`n-search/search`, ...;
    /// `docs/events.md` rule E21), when it was not `/analytics/collect`: its one record holds
    /// the request's fields, not an event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    /// How many fields that request carried (its query's or form's).
    #[serde(default)]
    pub fields: usize,
}

/// An indexing body's judgement in a record (`docs/indexing-bodies.md`): how many errors and
/// warnings, and the first problems as the server's answer gives them (`level`, `code`,
/// `fieldPath`, `description`, `record`, `rule`, `value`). Present only when there are any.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BodySeen {
    /// Records (updates, ids) in the body.
    pub records: usize,
    /// Errors, listed or not: any makes the body one the vendor's SDK would refuse to send.
    pub errors: usize,
    pub warnings: usize,
    /// The first problems, at most [`BodySeen::MAX_LISTED`].
    pub problems: Vec<Value>,
    /// Problems not listed in `problems`.
    #[serde(default)]
    pub problems_omitted: usize,
}

impl BodySeen {
    /// Problems a record lists (the rest are counted).
    pub const MAX_LISTED: usize = 20;

    /// The record's part of a judgement; `None` when it found nothing.
    pub fn of(j: &crate::core::indexing_body::Judgement) -> Option<BodySeen> {
        let (errors, warnings) = (j.error_count(), j.warning_count());
        if errors + warnings == 0 {
            return None;
        }
        let problems: Vec<Value> = j
            .problems
            .iter()
            .take(Self::MAX_LISTED)
            .map(|p| serde_json::to_value(p).unwrap_or(Value::Null))
            .collect();
        Some(BodySeen {
            records: j.records,
            errors,
            warnings,
            problems_omitted: errors + warnings - problems.len(),
            problems,
        })
    }

    /// `2 errors, 1 warning: ID_NOT_STRING at /0/id` (the first problem).
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{}, {}",
            counted(self.errors, "error"),
            counted(self.warnings, "warning")
        );
        if let Some(p) = self.problems.first() {
            s.push_str(&format!(": {}", body_problem_head(p)));
        }
        s
    }
}

/// `CODE at /pointer` of one indexing body problem (the whole body is `(body)`).
pub fn body_problem_head(p: &Value) -> String {
    let text = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or("");
    let path = crate::core::indexing_body::shown_path(text("fieldPath"));
    format!("{} at {path}", text("code"))
}

/// `error ID_NOT_STRING at /0/id: Send the id as a JSON string...` of one indexing body
/// problem.
pub fn body_problem_line(p: &Value) -> String {
    let text = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or("");
    format!(
        "{} {}: {}",
        text("level"),
        body_problem_head(p),
        text("description")
    )
}

/// What the upstream answered a forwarded request (or why it could not).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UpstreamSeen {
    /// The upstream's base URL.
    pub url: String,
    /// Its status, `None` when it could not be reached.
    pub status: Option<u16>,
    /// Its `code`, when it answered in the vendor's error shape.
    pub code: Option<String>,
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    #[serde(default)]
    pub body: String,
    #[serde(default)]
    pub body_bytes: usize,
    pub duration_ms: f64,
    /// Why it could not be reached (one sentence).
    pub error: Option<String>,
}

/// One completed request, as the stream sends it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestSeen {
    /// Position in the stream (numbered when published; never reused).
    pub seq: u64,
    /// Server time when the answer was decided, `YYYY-MM-DDThh:mm:ss.mmmZ`.
    pub time: String,
    pub method: String,
    pub path: String,
    pub query: String,
    pub route: Route,
    /// The status the client got.
    pub status: u16,
    /// The error code answered, `None` on success.
    pub code: Option<String>,
    pub message: Option<String>,
    /// Whether the signature verified (indexing requests only).
    pub verdict: Option<Verdict>,
    /// Client mistakes the diagnosis recognised (ids such as `TRAILING_SLASH_TRIMMED`).
    #[serde(default)]
    pub mistakes: Vec<String>,
    /// The diagnosis's one-sentence conclusion.
    pub conclusion: Option<String>,
    /// The server's signing text for a `SIGNATURE_MISMATCH` answer, as the answer gave it (its
    /// `canonical:` debug entry: `\n` markers on one line).
    pub expected: Option<String>,
    /// Verifier warnings.
    #[serde(default)]
    pub warnings: Vec<String>,
    pub request_bytes: Option<usize>,
    pub response_bytes: Option<u64>,
    pub duration_ms: f64,
    /// Request headers as received (lower-case names), at most 64, values cut at 512 bytes.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// The start of the body as text (lossy UTF-8), at most the server's limit of bytes.
    #[serde(default)]
    pub body: String,
    #[serde(default)]
    pub body_truncated: bool,
    /// The inspection store's sequence number of the full record (request or batch).
    pub record: Option<u64>,
    pub job_id: Option<String>,
    /// For collector requests: the event counts and problems.
    pub batch: Option<BatchSeen>,
    /// For an indexing body the vendor's SDK checks: what is wrong with it (none: `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_problems: Option<BodySeen>,
    /// For forwarded requests: what the upstream answered.
    pub upstream: Option<UpstreamSeen>,
}

impl RequestSeen {
    /// Whether it was refused: a status of 400 and above, a rejected signature, or an upstream
    /// that refused it or could not be reached (`signscope watch --only rejected`).
    pub fn is_rejected(&self) -> bool {
        self.status >= 400
            || self.verdict == Some(Verdict::Rejected)
            || self
                .upstream
                .as_ref()
                .is_some_and(|u| u.status.is_none_or(|s| s >= 400))
    }
}

/// A message on the stream: a request, or a note that some were skipped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum StreamMessage {
    Request(Box<RequestSeen>),
    /// `skipped` records were not delivered (the subscriber fell behind, or they were no
    /// longer held when it asked to resume).
    Skipped {
        skipped: u64,
    },
}

/// The request header that names the test a request belongs to (`docs/server.md`, "Use in
/// CI"); never part of what is signed.
pub const TEST_HEADER: &str = "x-signscope-test";
/// The cookie a shop page sets for the same purpose (a browser's beacon cannot add a header).
pub const TEST_COOKIE: &str = "signscope_test";

/// The test id of a request from its headers (names in any case): the `X-Signscope-Test`
/// header, else the `signscope_test` cookie. Never the query or body: those are signed, and a
/// test id there would change what is signed.
pub fn test_id<N: AsRef<str>, V: AsRef<str>>(headers: &[(N, V)]) -> Option<String> {
    fn values<'h, N: AsRef<str>, V: AsRef<str>>(
        headers: &'h [(N, V)],
        name: &'h str,
    ) -> impl Iterator<Item = &'h str> {
        headers
            .iter()
            .filter(move |(n, _)| n.as_ref().eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_ref().trim())
    }
    if let Some(v) = values(headers, TEST_HEADER).find(|v| !v.is_empty()) {
        return Some(v.to_string());
    }
    values(headers, "cookie")
        .flat_map(|c| c.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, v)| *k == TEST_COOKIE && !v.is_empty())
        .map(|(_, v)| v.trim_matches('"').to_string())
}

/// One readable line: `11:24:54 PUT /v2/batch 401 SIGNATURE_MISMATCH TRAILING_SLASH_TRIMMED`.
pub fn line(msg: &StreamMessage) -> String {
    let r = match msg {
        StreamMessage::Skipped { skipped } => {
            let records = counted(*skipped as usize, "record");
            return format!("… {records} skipped (this watcher fell behind)");
        }
        StreamMessage::Request(r) => r,
    };
    request_line(r)
}

/// The line of one request (see [`line`]).
pub fn request_line(r: &RequestSeen) -> String {
    // `2026-11-22T11:24:54.123Z` -> `11:24:54`
    let time = r.time.get(11..19).unwrap_or(&r.time);
    let target = crate::core::http_text::target(&r.path, &r.query);
    let mut s = format!("{time} {} {target} {}", r.method, r.status);
    match &r.code {
        Some(code) => s.push_str(&format!(" {code}")),
        None if r.status < 400 => s.push_str(" OK"),
        None => {}
    }
    if !r.mistakes.is_empty() {
        s.push(' ');
        s.push_str(&r.mistakes.join("+"));
    }
    if let Some(b) = &r.batch {
        match &b.endpoint {
            // An older endpoint's request carries fields, not events (docs/events.md E21).
            Some(endpoint) => s.push_str(&format!(" ({endpoint}: {}", counted(b.fields, "field"))),
            None => s.push_str(&format!(
                " ({}, {} invalid",
                counted(b.events, "event"),
                b.invalid
            )),
        }
        if let Some(p) = b.problems.first() {
            let path = p.get("path").and_then(|v| v.as_str()).unwrap_or("");
            let code = p.get("code").and_then(|v| v.as_str()).unwrap_or("");
            s.push_str(&format!(
                "; {code} at {}",
                if path.is_empty() { "$" } else { path }
            ));
        }
        s.push(')');
    }
    if let Some(b) = &r.body_problems {
        s.push_str(&format!(" (body: {})", b.summary()));
    }
    if let Some(u) = &r.upstream {
        match (u.status, &u.error) {
            (Some(status), _) => {
                s.push_str(&format!(" -> upstream {status}"));
                if let Some(code) = &u.code {
                    s.push_str(&format!(" {code}"));
                }
            }
            (None, _) => s.push_str(" -> upstream unreachable"),
        }
    }
    // Every part of the line came from outside (the client's request, an upstream's answer):
    // a control byte, a C1 control or a bidi override is shown as an escape, never sent to the
    // terminal (an upstream code set a tmux pane's title and wrote the clipboard).
    crate::core::visible::escape_visible(s.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_notes_what_is_wrong_with_an_indexing_body() {
        use crate::core::indexing_body::{judge_bytes, BodyKind};
        let j = judge_bytes(
            BodyKind::Records,
            br#"[{"id":42,"type":"KLEVU_CMS"}]"#,
            None,
        );
        let body = BodySeen::of(&j.unwrap());
        let mut r: RequestSeen = serde_json::from_value(serde_json::json!({
            "seq": 1, "time": "2026-11-22T11:24:54.123Z", "method": "PUT", "path": "/v2/batch",
            "query": "", "route": "indexing", "status": 400, "code": "VALIDATION_ERROR",
            "message": null, "verdict": "accepted", "conclusion": null, "request_bytes": 2,
            "response_bytes": null, "duration_ms": 1.0, "record": 1, "job_id": null,
            "batch": null, "upstream": null
        }))
        .unwrap();
        assert_eq!(
            request_line(&r),
            "11:24:54 PUT /v2/batch 400 VALIDATION_ERROR"
        );
        r.body_problems = body;
        assert_eq!(
            request_line(&r),
            "11:24:54 PUT /v2/batch 400 VALIDATION_ERROR (body: 1 error, 0 warnings: ID_NOT_STRING at /0/id)"
        );
        // A body with nothing wrong carries no note.
        let ok = judge_bytes(
            BodyKind::Records,
            br#"[{"id":"a","type":"KLEVU_CMS"}]"#,
            None,
        );
        assert_eq!(BodySeen::of(&ok.unwrap()), None);
    }

    #[test]
    fn the_test_id_comes_from_its_header_or_its_cookie_never_elsewhere() {
        let h = |pairs: &[(&str, &str)]| test_id(pairs);
        assert_eq!(h(&[("X-Signscope-Test", " t1 ")]), Some("t1".into()));
        assert_eq!(
            h(&[("cookie", "a=1; signscope_test=\"t2\"; b=2")]),
            Some("t2".into())
        );
        // The header wins over the cookie; an empty one is no id.
        assert_eq!(
            h(&[("cookie", "signscope_test=c"), ("x-signscope-test", "h")]),
            Some("h".into())
        );
        assert_eq!(h(&[("x-signscope-test", "")]), None);
        assert_eq!(h(&[("cookie", "my_signscope_test=x")]), None);
        assert_eq!(h(&[("x-other", "signscope_test=x")]), None);
    }
}
