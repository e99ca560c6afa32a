//! Request suites (`signscope test`, `docs/test.md`): a suite file parsed into requests with
//! expectations, judged against what came back. Pure: the file's text comes in, the judgement
//! and the reports go out; reading files and sending is the caller's (`cli::test` through the
//! engine).

pub mod export;
pub mod judge;
pub mod report;

use std::collections::BTreeMap;

use crate::core::visible::line_col;
use serde::Deserialize;

/// A suite file name ends so (`docs/test.md`); a folder is searched for such files.
pub const SUITE_SUFFIX: &str = ".signscope.toml";

/// A suite as written: the account, variables, requests in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Suite {
    pub account: Account,
    pub vars: BTreeMap<String, String>,
    pub requests: Vec<SuiteRequest>,
}

/// The account section. The REST key is a reference (`env:NAME`, `file:PATH`, `cmd:...`,
/// `demo`), resolved by the caller through the store.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Account {
    pub api_key: String,
    pub rest_key: String,
    #[serde(default = "default_prefix")]
    pub header_prefix: String,
    /// `embedded` (default) or a base URL; `--server` and `--target real` override it.
    pub indexing_url: Option<String>,
    pub analytics_url: Option<String>,
}

fn default_prefix() -> String {
    crate::core::DEFAULT_HEADER_PREFIX.to_string()
}

/// One request of a suite and what is expected of its answer.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteRequest {
    pub name: String,
    /// A profile's saved request to start from (its method, path, query and body).
    #[serde(default, rename = "use")]
    pub use_saved: Option<String>,
    pub method: Option<String>,
    pub path: Option<String>,
    pub query: Option<String>,
    pub content_type: Option<String>,
    /// Headers sent besides the signed ones (name -> value, `{{var}}` in values); not one the
    /// signature, the content type or HTTP itself sets.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    pub body: Option<String>,
    /// Relative to the suite file.
    pub body_file: Option<String>,
    /// A JSON array of collector events: sent to the collector instead of the indexing API.
    pub events: Option<String>,
    /// This request's REST key reference instead of the account's (a request built to fail).
    pub rest_key: Option<String>,
    /// Variable name -> JSON Pointer into the answer's body, for the requests after it.
    #[serde(default)]
    pub capture: BTreeMap<String, String>,
    #[serde(default)]
    pub expect: Expect,
    /// The line of the `[[request]]` header (1-based), set after parsing.
    #[serde(skip)]
    pub line: usize,
}

impl SuiteRequest {
    /// Whether it goes to the collector.
    pub fn is_events(&self) -> bool {
        self.events.is_some()
    }
}

/// Expectations of one request; each one set is one check.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub status: Option<u16>,
    /// `accepted` or `rejected`: the local verdict on the signature.
    pub verdict: Option<String>,
    /// The answer's `code` (`SIGNATURE_MISMATCH`, `VALIDATION_ERROR`, ...).
    pub code: Option<String>,
    /// A diagnosis finding code the answer must name (`docs/diagnosis.md`).
    pub diagnosis: Option<String>,
    /// The whole exchange took less than this many milliseconds.
    pub duration_below_ms: Option<u64>,
    /// Response header (any case) -> its exact value.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    #[serde(default)]
    pub json: Vec<JsonExpect>,
    /// For the collector: each object must be part of one event recorded from this batch.
    #[serde(default)]
    pub events: Vec<serde_json::Map<String, serde_json::Value>>,
}

/// An expectation on the answer's JSON body at a JSON Pointer.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonExpect {
    pub pointer: String,
    pub equals: Option<serde_json::Value>,
    /// A regular expression the value (a string, or the JSON text of another value) matches.
    pub matches: Option<String>,
    pub exists: Option<bool>,
}

/// Why a suite file cannot be used: where, and the fix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct SuiteError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SuiteFile {
    account: Account,
    #[serde(default)]
    vars: BTreeMap<String, String>,
    #[serde(default)]
    request: Vec<toml::Spanned<SuiteRequest>>,
}

/// Parse a suite's text. A syntax or shape error names its line and column and the fix; a
/// request without exactly one of a body source, events or `use` conflict is refused too.
pub fn parse(text: &str) -> Result<Suite, SuiteError> {
    let file: SuiteFile = toml::from_str(text).map_err(|e| {
        let (line, column) = e.span().map(|s| line_col(text, s.start)).unwrap_or((1, 1));
        SuiteError {
            line,
            column,
            message: format!(
                "{}; fix the suite file (its format is in docs/test.md)",
                e.message().trim_end_matches('.')
            ),
        }
    })?;
    let mut requests = Vec::with_capacity(file.request.len());
    for spanned in file.request {
        let (line, column) = line_col(text, spanned.span().start);
        let mut r = spanned.into_inner();
        r.line = line;
        check_request(&r, &file.account.header_prefix).map_err(|message| SuiteError {
            line,
            column,
            message,
        })?;
        requests.push(r);
    }
    if requests.is_empty() {
        return Err(SuiteError {
            line: 1,
            column: 1,
            message: "the suite has no [[request]]; add one (docs/test.md)".to_string(),
        });
    }
    Ok(Suite {
        account: file.account,
        vars: file.vars,
        requests,
    })
}

fn check_request(r: &SuiteRequest, prefix: &str) -> Result<(), String> {
    for (name, value) in &r.headers {
        check_header(&r.name, name, value, prefix)?;
    }
    if r.body.is_some() && r.body_file.is_some() {
        return Err(format!(
            "request {:?} has both body and body_file; keep one",
            r.name
        ));
    }
    let indexing = r.method.is_some() || r.path.is_some() || r.body.is_some();
    if r.events.is_some() && (indexing || r.use_saved.is_some() || r.body_file.is_some()) {
        return Err(format!(
            "request {:?} has events and an indexing request; split it into two requests",
            r.name
        ));
    }
    for j in &r.expect.json {
        if !(j.pointer.is_empty() || j.pointer.starts_with('/')) {
            return Err(format!(
                "the JSON Pointer {:?} of request {:?} must start with '/'",
                j.pointer, r.name
            ));
        }
        if let Some(re) = &j.matches {
            regex::Regex::new(re).map_err(|e| {
                format!(
                    "the pattern {re:?} of request {:?} is not a regular expression: {e}",
                    r.name
                )
            })?;
        }
    }
    match r.expect.verdict.as_deref() {
        None | Some("accepted" | "rejected") => Ok(()),
        Some(v) => Err(format!(
            "verdict {v:?} of request {:?} must be \"accepted\" or \"rejected\"",
            r.name
        )),
    }
}

/// Why a request header of a suite cannot be sent as written: a name HTTP does not allow, one
/// that something else sets (the signature, `content_type`, the HTTP client), or a value with a
/// control character or a space HTTP would drop.
fn check_header(request: &str, name: &str, value: &str, prefix: &str) -> Result<(), String> {
    if !crate::core::http_text::is_token(name) {
        return Err(format!(
            "the header name {name:?} of request {request:?} is not one HTTP allows; use letters, digits and '-'"
        ));
    }
    let lower = name.to_ascii_lowercase();
    if lower == "content-type" {
        return Err(format!(
            "request {request:?} sets Content-Type under headers; write it as content_type = \"...\" (it is signed)"
        ));
    }
    if lower == "authorization" || lower.starts_with(&format!("x-{}-", prefix.to_ascii_lowercase()))
    {
        return Err(format!(
            "the header {name} of request {request:?} is one the signature sets; remove it (to send a wrong signature, give the request its own rest_key)"
        ));
    }
    if crate::core::RESERVED_REQUEST_HEADERS.contains(&lower.as_str()) {
        return Err(format!(
            "the header {name} of request {request:?} is set by HTTP itself; remove it"
        ));
    }
    if value.chars().any(|c| c.is_control() && c != '\t')
        || value.starts_with([' ', '\t'])
        || value.ends_with([' ', '\t'])
    {
        return Err(format!(
            "the value of header {name} of request {request:?} has a control character or a space at an end, which HTTP cannot carry as written; remove it"
        ));
    }
    Ok(())
}

/// `text` with every `{{name}}` replaced by its variable; an unknown name is left as written
/// and returned, so the caller can report it.
pub fn substitute(text: &str, vars: &BTreeMap<String, String>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("{{") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[i..]);
            return Ok(out);
        };
        let name = after[..end].trim();
        match vars.get(name) {
            Some(v) => out.push_str(v),
            None => return Err(name.to_string()),
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests;
