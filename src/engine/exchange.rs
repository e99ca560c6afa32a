//! What one send produced: the request as sent, the response or the error, and what the server's
//! answer says, parsed once.

use chrono::{DateTime, Utc};

use crate::client::{ClientError, OutgoingRequest, Response};
use crate::core::spec::RequestSpec;
use crate::core::visible::visible_lines;
use crate::core::{SignedRequest, SigningForm};
use crate::store::HistoryEntry;

/// Answers up to this size are parsed for their code, message, job id and mismatch details;
/// a larger one is not an error answer of the local server.
pub const PARSE_ANSWER_LIMIT: usize = 256 * 1024;

/// Which kind of send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExchangeKind {
    /// A signed indexing request.
    Request,
    /// An event batch for the collector.
    Events,
}

impl ExchangeKind {
    /// The `kind` written in the history.
    pub fn as_str(self) -> &'static str {
        match self {
            ExchangeKind::Request => "request",
            ExchangeKind::Events => "events",
        }
    }
}

/// The server's canonical text and diagnosis from a `SIGNATURE_MISMATCH` answer
/// (`docs/server.md` rule R5).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerMismatch {
    /// The server's signing text, as it sent it (escaped: `\n` markers on one line).
    pub canonical: String,
    /// The `diagnosis: ...` sentence, if any.
    pub diagnosis: Option<String>,
    /// Each `finding CODE: explanation`, without the word `finding`.
    pub findings: Vec<String>,
}

impl ServerMismatch {
    /// The server's canonical text as visible lines (it may come raw or escaped).
    pub fn canonical_lines(&self) -> Vec<String> {
        split_canonical(&self.canonical)
    }

    /// The diagnosis and findings in one sentence, if there are any.
    pub fn summary(&self) -> Option<String> {
        match (&self.diagnosis, self.findings.is_empty()) {
            (Some(d), true) => Some(d.clone()),
            (Some(d), false) => Some(format!("{d} ({})", self.findings.join("; "))),
            (None, false) => Some(self.findings.join("; ")),
            (None, true) => None,
        }
    }
}

/// What a JSON answer of the service says (all empty for another answer).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerAnswer {
    pub code: Option<String>,
    pub message: Option<String>,
    /// `jobId` of an accepted batch.
    pub job_id: Option<String>,
    pub mismatch: Option<ServerMismatch>,
    /// The problems of an indexing body the local server judged (`docs/indexing-bodies.md`),
    /// one line each: `error ID_NOT_STRING at /0/id: Send the id as a JSON string.`
    pub problems: Vec<String>,
    /// Problems the answer counted without listing them (`moreProblems`).
    pub more_problems: usize,
}

impl ServerAnswer {
    /// Parse a response body (once). Bodies over [`PARSE_ANSWER_LIMIT`] or not JSON objects
    /// give an empty answer.
    pub fn parse(body: &[u8]) -> ServerAnswer {
        if body.len() > PARSE_ANSWER_LIMIT {
            return ServerAnswer::default();
        }
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(body) else {
            return ServerAnswer::default();
        };
        let text = |k: &str| v.get(k).and_then(|j| j.as_str()).map(str::to_string);
        let code = text("code");
        let mismatch = if code.as_deref() == Some("SIGNATURE_MISMATCH") {
            mismatch_from(&v)
        } else {
            None
        };
        let problems = v
            .get("problems")
            .and_then(|p| p.as_array())
            .map(|list| {
                list.iter()
                    .filter(|p| p.get("fieldPath").is_some())
                    .map(crate::core::traffic::body_problem_line)
                    .collect()
            })
            .unwrap_or_default();
        ServerAnswer {
            message: text("message"),
            job_id: text("jobId"),
            code,
            mismatch,
            problems,
            more_problems: v
                .get("moreProblems")
                .and_then(|n| n.as_u64())
                .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX)),
        }
    }
}

/// The `debug` entries of a mismatch answer: `canonical: ...`, `diagnosis: ...`,
/// `finding CODE: ...`. None when there is no canonical text.
fn mismatch_from(v: &serde_json::Value) -> Option<ServerMismatch> {
    let debug = v.get("debug")?.as_array()?;
    let mut m = ServerMismatch::default();
    let mut canonical = None;
    for entry in debug {
        let Some(msg) = entry.get("message").and_then(|m| m.as_str()) else {
            continue;
        };
        if let Some(c) = msg.strip_prefix("canonical: ") {
            canonical.get_or_insert_with(|| c.to_string());
        } else if let Some(d) = msg.strip_prefix("diagnosis: ") {
            m.diagnosis.get_or_insert_with(|| d.to_string());
        } else if let Some(f) = msg.strip_prefix("finding ") {
            m.findings.push(f.to_string());
        }
    }
    m.canonical = canonical?;
    Some(m)
}

/// The server's canonical text as visible lines. It may come raw (real LFs) or already escaped
/// (`\n` markers on one line).
pub fn split_canonical(s: &str) -> Vec<String> {
    if s.contains('\n') {
        return visible_lines(s.as_bytes());
    }
    let mut lines = Vec::new();
    let mut cur = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        cur.push(c);
        if c == '\\' {
            if let Some(n) = chars.next() {
                cur.push(n);
                if n == 'n' {
                    lines.push(std::mem::take(&mut cur));
                }
            }
        }
    }
    lines.push(cur);
    lines
}

/// One send, as it happened.
#[derive(Clone, Debug)]
pub struct Exchange {
    pub kind: ExchangeKind,
    /// The profile it was sent with.
    pub profile: String,
    /// When it was sent (the clock read once, just before signing).
    pub sent_at: DateTime<Utc>,
    /// The request model that was sent (for an events batch: only the body is meaningful).
    pub spec: RequestSpec,
    /// The timestamp signed (None for an events batch).
    pub timestamp: Option<String>,
    /// The form the path and query lines were signed in (`docs/signing.md`).
    pub form: SigningForm,
    /// The signed request sent (None for an event batch): the text we signed, as it was kept.
    pub signed: Option<SignedRequest>,
    /// Exactly what went on the wire (the body shares the spec's buffer).
    pub request: OutgoingRequest,
    /// The response, or why nothing came back.
    pub response: Result<Response, ClientError>,
    /// What the answer says (empty when nothing came back).
    pub answer: ServerAnswer,
    /// The history entry recorded for it (bodies capped, the key redacted).
    pub entry: HistoryEntry,
    /// Things the user should know: the history or the last used profile not written, the
    /// server's clock far off.
    pub warnings: Vec<String>,
}

impl Exchange {
    /// The HTTP status, when a response came back.
    pub fn status(&self) -> Option<u16> {
        self.response.as_ref().ok().map(|r| r.status)
    }

    /// A 2xx response came back.
    pub fn is_success(&self) -> bool {
        self.response.as_ref().is_ok_and(Response::is_success)
    }

    /// Our signing text as visible lines (to compare with [`ServerMismatch::canonical_lines`]).
    /// Built on demand: it holds the whole body.
    pub fn our_canonical_lines(&self) -> Vec<String> {
        match &self.signed {
            Some(s) => visible_lines(&s.canonical().to_bytes()),
            None => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mismatch_answer_is_parsed_once_into_its_parts() {
        let body = serde_json::json!({
            "status": 401, "code": "SIGNATURE_MISMATCH", "message": "no",
            "debug": [
                {"message": "canonical: PUT\\n/v2/batch\\n\\nX"},
                {"message": "provided signature: abc"},
                {"message": "diagnosis: the client put a '?' before the query"},
                {"message": "finding QUESTION_MARK_BEFORE_QUERY: put a '?'"},
            ]
        })
        .to_string();
        let a = ServerAnswer::parse(body.as_bytes());
        assert_eq!(a.code.as_deref(), Some("SIGNATURE_MISMATCH"));
        assert_eq!(a.message.as_deref(), Some("no"));
        let m = a.mismatch.expect("mismatch details");
        assert_eq!(
            m.canonical_lines(),
            ["PUT\\n", "/v2/batch\\n", "\\n", "X"].map(String::from)
        );
        assert_eq!(
            m.summary().as_deref(),
            Some("the client put a '?' before the query (QUESTION_MARK_BEFORE_QUERY: put a '?')")
        );
        let ok = ServerAnswer::parse(br#"{"message":"Job submitted successfully.","jobId":"j-1"}"#);
        assert_eq!(ok.job_id.as_deref(), Some("j-1"));
        assert_eq!(ok.mismatch, None);
        assert_eq!(ServerAnswer::parse(b"not json"), ServerAnswer::default());
    }
}
