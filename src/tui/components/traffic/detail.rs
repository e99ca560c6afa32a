//! What the traffic view derives from one record, in `update` (never while drawing): the text
//! of the selected request in full, the request as the editor's fields, as a raw HTTP capture
//! for the Diagnose view, and as a curl command.

use serde_json::Value;

use crate::core::indexing_body::shown_path;
use crate::core::traffic::Verdict;
use crate::core::traffic::{BatchSeen, RequestSeen, Route};
use crate::core::verify::ReceivedRequest;
use crate::core::visible::{counted, escape_hidden, escape_visible, visible_lines};
use crate::core::{CanonicalText, HeaderNames};
use crate::tui::components::diagnose::capture::capture_fields;
use crate::tui::model::EditorRequest;

/// How a line of the detail is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Heading,
    Text,
    Ok,
    Error,
    Warn,
    Dim,
}

/// The selected record's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detail {
    /// The record it was made from.
    pub seq: u64,
    /// The verdict and the diagnosis's conclusion first, then the mistakes, warnings and the
    /// problems of an event batch with their paths.
    pub summary: Vec<(Kind, String)>,
    /// The signing text the server expected (title, lines), for indexing requests.
    pub expected: Option<(String, Vec<String>)>,
    /// The signed parts as received, in signing-text order, and the signature.
    pub received: Vec<String>,
    /// Headers, body, the upstream's answer.
    pub rest: Vec<(Kind, String)>,
}

/// The vendor header prefix a request used (as `verify` finds it), `SVC` when it names none.
pub fn prefix_of(headers: &[(String, String)]) -> String {
    crate::core::verify::prefix_of_names(headers.iter().map(|(n, _)| n.as_str()))
        .unwrap_or_else(|| crate::core::DEFAULT_HEADER_PREFIX.to_string())
}

fn header<'a>(r: &'a RequestSeen, name: &str) -> Option<&'a str> {
    r.headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// The record as a received request (its body is the preview the stream carries).
pub fn received(r: &RequestSeen) -> ReceivedRequest {
    ReceivedRequest {
        method: r.method.clone(),
        path: r.path.clone(),
        query: r.query.clone(),
        headers: r
            .headers
            .iter()
            .map(|(n, v)| (n.clone(), v.as_bytes().to_vec()))
            .collect(),
        body: bytes::Bytes::copy_from_slice(r.body.as_bytes()),
    }
}

/// The request for the editor of a record, and its timestamp. `base` is the server's URL
/// (the address the application sent it to).
pub fn fields(r: &RequestSeen, base: &str) -> (EditorRequest, String) {
    let (mut f, ts) = capture_fields(&received(r), &prefix_of(&r.headers));
    f.url = base.to_string();
    (f, ts)
}

/// The record as a raw HTTP request (LF line ends), as the Diagnose view reads captures.
pub fn capture(r: &RequestSeen) -> String {
    let mut out = format!(
        "{} {} HTTP/1.1\n",
        r.method,
        crate::core::http_text::target(&r.path, &r.query)
    );
    for (n, v) in &r.headers {
        out.push_str(&format!("{n}: {v}\n"));
    }
    out.push('\n');
    out.push_str(&r.body);
    out
}

/// The record as a curl command aimed at `base` (hop-by-hop and length headers left to curl).
pub fn curl(r: &RequestSeen, base: &str) -> String {
    let url = format!(
        "{}{}",
        base.trim_end_matches('/'),
        crate::core::http_text::target(&r.path, &r.query)
    );
    let skip = ["host", "content-length", "connection", "transfer-encoding"];
    let headers: Vec<(String, String)> = r
        .headers
        .iter()
        .filter(|(n, _)| !skip.iter().any(|s| n.eq_ignore_ascii_case(s)))
        .cloned()
        .collect();
    crate::core::curl::to_curl(
        &r.method,
        &url,
        &headers,
        crate::core::curl::CurlBody::Inline(r.body.as_bytes()),
    )
}

/// A note when the record's body is only a preview (a reproduction would differ from it).
pub fn cut_note(r: &RequestSeen) -> Option<String> {
    r.body_truncated.then(|| {
        format!(
            "the stream carries the first {} bytes of the body{}; the rest is not reproduced",
            r.body.len(),
            r.request_bytes
                .map(|n| format!(" (of {n})"))
                .unwrap_or_default()
        )
    })
}

/// Build the text of a record.
pub fn build(r: &RequestSeen) -> Detail {
    Detail {
        seq: r.seq,
        summary: summary(r),
        expected: expected(r),
        received: received_lines(r),
        rest: rest(r),
    }
}

/// A request to one of the older analytics endpoints (not an event batch).
fn older(b: &BatchSeen) -> bool {
    b.endpoint.is_some()
}

fn summary(r: &RequestSeen) -> Vec<(Kind, String)> {
    let mut out = Vec::new();
    let verdict = match (r.route, r.verdict, r.status) {
        (_, Some(Verdict::Rejected), _) => (Kind::Error, "signature rejected".to_string()),
        (_, Some(Verdict::Accepted), s) if s < 400 => {
            (Kind::Ok, "signature verified, accepted".to_string())
        }
        (Route::Collect, _, s) if s < 400 && r.batch.as_ref().is_some_and(older) => {
            (Kind::Ok, "recorded".to_string())
        }
        (Route::Collect, _, s) if s < 400 => (Kind::Ok, "batch accepted".to_string()),
        (_, _, s) if s >= 400 => (Kind::Error, "refused".to_string()),
        _ => (Kind::Text, "answered".to_string()),
    };
    let code = r
        .code
        .as_deref()
        .unwrap_or(if r.status < 400 { "OK" } else { "" });
    out.push((
        verdict.0,
        format!(
            "{} · {} {code} · {:.1} ms",
            verdict.1, r.status, r.duration_ms
        ),
    ));
    // The conclusion first: what the client most likely did wrong.
    if let Some(c) = &r.conclusion {
        out.push((Kind::Heading, format!("Conclusion: {}", escape_hidden(c))));
    }
    if !r.mistakes.is_empty() {
        out.push((Kind::Warn, format!("Mistakes: {}", r.mistakes.join(", "))));
    }
    if let Some(m) = &r.message {
        // The server's answer can quote what the client sent.
        out.push((Kind::Text, escape_hidden(m)));
    }
    for w in &r.warnings {
        out.push((Kind::Warn, format!("warning: {}", escape_hidden(w))));
    }
    out.extend(body_lines(r));
    if let Some(b) = &r.batch {
        out.push(match &b.endpoint {
            // An older endpoint's request carries fields, not events (docs/events.md E21).
            Some(endpoint) => (
                if r.status >= 400 {
                    Kind::Error
                } else {
                    Kind::Ok
                },
                format!("Older endpoint {endpoint}: {} fields", b.fields),
            ),
            None => (
                if b.invalid > 0 { Kind::Error } else { Kind::Ok },
                format!(
                    "Batch: {} events, {} valid, {} invalid",
                    b.events, b.valid, b.invalid
                ),
            ),
        });
        for p in &b.problems {
            let text = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or("");
            let path = match text("path") {
                "" => "$",
                p => p,
            };
            let kind = if text("level") == "error" {
                Kind::Error
            } else {
                Kind::Warn
            };
            out.push((
                kind,
                format!("  {path}  {} {}", text("code"), text("message"))
                    .trim_end()
                    .to_string(),
            ));
        }
        if b.problems_omitted > 0 {
            out.push((
                Kind::Dim,
                format!(
                    "  … {} more problems (see /_inspect/events)",
                    b.problems_omitted
                ),
            ));
        }
    }
    out
}

/// What is wrong with an indexing body (`docs/indexing-bodies.md`): a problems line, then each
/// problem with its JSON Pointer.
fn body_lines(r: &RequestSeen) -> Vec<(Kind, String)> {
    let Some(b) = &r.body_problems else {
        return Vec::new();
    };
    let kind = if b.errors > 0 {
        Kind::Error
    } else {
        Kind::Warn
    };
    let verdict = if b.errors > 0 {
        "the vendor's SDK would refuse it"
    } else {
        "accepted"
    };
    let mut out = vec![(
        kind,
        format!(
            "Body problems: {}, {}; {verdict}",
            counted(b.errors, "error"),
            counted(b.warnings, "warning")
        ),
    )];
    for p in &b.problems {
        let kind = if p.get("level").and_then(Value::as_str) == Some("error") {
            Kind::Error
        } else {
            Kind::Warn
        };
        let text = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or("");
        out.push((
            kind,
            escape_hidden(&format!(
                "  {}  {} {}",
                shown_path(text("fieldPath")),
                text("code"),
                text("description")
            )),
        ));
    }
    if b.problems_omitted > 0 {
        out.push((
            Kind::Dim,
            format!("  … {} more problems (see the answer)", b.problems_omitted),
        ));
    }
    out
}

/// The server's signing text: from a mismatch answer as it gave it; for another indexing
/// request, rebuilt from the request as received (what the server checked) when the stream
/// carries the whole body.
fn expected(r: &RequestSeen) -> Option<(String, Vec<String>)> {
    if r.route != Route::Indexing {
        return None;
    }
    if let Some(e) = &r.expected {
        return Some((
            "Server's signing text (expected)".to_string(),
            crate::engine::ServerMismatch {
                canonical: e.clone(),
                ..Default::default()
            }
            .canonical_lines(),
        ));
    }
    if r.body_truncated {
        return Some((
            "Server's signing text".to_string(),
            vec![cut_note(r).unwrap_or_default()],
        ));
    }
    // The request as the editor would take it: its fields are what the server signs.
    let (request, timestamp) = fields(r, "");
    let text = CanonicalText::new(&request.spec.signable(&timestamp)).to_bytes();
    let title = if r.verdict == Some(Verdict::Accepted) {
        "Signing text (verified)"
    } else {
        // Short enough for its half of an 80-column pane.
        "Signing text (as received)"
    };
    Some((title.to_string(), visible_lines(&text)))
}

fn received_lines(r: &RequestSeen) -> Vec<String> {
    // Everything below came from the client: shown escaped as the list row is
    // (`core::traffic::request_line`), so a control or bidi character cannot act on the terminal.
    let mut out = vec![
        escape_visible(format!("{} {}", r.method, r.path).as_bytes()),
        if r.query.is_empty() {
            "(no query)".to_string()
        } else {
            escape_visible(format!("?{}", r.query).as_bytes())
        },
    ];
    if r.route == Route::Indexing {
        let names = HeaderNames::for_prefix(&prefix_of(&r.headers));
        for n in [
            names.timestamp.as_str(),
            names.api_key.as_str(),
            names.auth_algo.as_str(),
            "Content-Type",
            "Authorization",
        ] {
            match header(r, n) {
                Some(v) => out.push(format!("{n}: {}", escape_visible(v.as_bytes()))),
                None => out.push(format!("{n}: (missing)")),
            }
        }
    }
    let bytes = r.request_bytes.unwrap_or(r.body.len());
    out.push(format!("body: {bytes} bytes"));
    out
}

fn rest(r: &RequestSeen) -> Vec<(Kind, String)> {
    let mut out = vec![(Kind::Heading, format!("Headers ({})", r.headers.len()))];
    out.extend(
        r.headers
            .iter()
            .map(|(n, v)| (Kind::Text, escape_visible(format!("{n}: {v}").as_bytes()))),
    );
    out.push((Kind::Heading, "Body".to_string()));
    if r.body.is_empty() {
        out.push((Kind::Dim, "(empty)".to_string()));
    }
    out.extend(r.body.lines().map(|l| (Kind::Text, escape_hidden(l))));
    if let Some(note) = cut_note(r) {
        out.push((Kind::Dim, format!("… {note}")));
    }
    if let Some(u) = &r.upstream {
        out.push((Kind::Heading, format!("Upstream {}", u.url)));
        match (u.status, &u.error) {
            (Some(s), _) => out.push((
                if s >= 400 { Kind::Error } else { Kind::Ok },
                format!(
                    "answered {s} {} in {:.1} ms",
                    escape_visible(u.code.as_deref().unwrap_or("").as_bytes()),
                    u.duration_ms
                ),
            )),
            (None, Some(e)) => {
                out.push((Kind::Error, format!("not reached: {}", escape_hidden(e))))
            }
            (None, None) => out.push((Kind::Error, "not reached".to_string())),
        }
        out.extend(
            u.body
                .lines()
                .take(20)
                .map(|l| (Kind::Text, escape_hidden(l))),
        );
    }
    out
}
