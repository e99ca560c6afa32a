//! What goes in an indexing body (`docs/indexing-bodies.md`): the rules the vendor's PHP SDK
//! checks before it sends a record, an update or an attribute, and the documented rules it does
//! not check (as warnings). One pure judgement for the server, the CLI and the workbench.
//!
//! ```
//! use signscope::core::indexing_body::{judge_bytes, BodyKind};
//! let j = judge_bytes(BodyKind::Records, br#"[{"id": 42, "type": "KLEVU_PRODUCT"}]"#, None).unwrap();
//! assert_eq!(j.problems[0].code, "ID_NOT_STRING");
//! assert_eq!(j.problems[0].field_path, "/0/id");
//! ```

mod names;
mod records;
mod updates;

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::Value;

pub use crate::core::events::Level;
pub use crate::core::json::pointer;
use crate::core::visible::counted;

/// Most problems a judgement lists; the rest are counted (`docs/indexing-bodies.md`).
pub const MAX_LISTED: usize = 100;

/// The body size the vendor documents per indexing request, 2 MB (`docs/server.md` rule R4):
/// the local server's default limit and the largest body the workbench judges as you type.
pub const DOCUMENTED_MAX_BODY: usize = 2 * 1024 * 1024;

/// Which indexing body this is, from the request's method and path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// `PUT /v2/batch`: an array of records.
    Records,
    /// `PATCH /v2/batch`: an object from record id to JSON-Patch operations.
    Updates,
    /// `PUT /v2/batch/delete`: `{"ids": [...]}`.
    Delete,
    /// `PUT /v2/attributes/{name}`: one attribute.
    Attribute,
}

impl BodyKind {
    /// The body a method and path take (a trailing `/` names the same operation).
    pub fn of(method: &str, path: &str) -> Option<BodyKind> {
        let path = path.trim_end_matches('/');
        match (method, path) {
            ("PUT", "/v2/batch") => Some(BodyKind::Records),
            ("PATCH", "/v2/batch") => Some(BodyKind::Updates),
            ("PUT", "/v2/batch/delete") => Some(BodyKind::Delete),
            ("PUT", p) => p
                .strip_prefix("/v2/attributes/")
                .filter(|n| !n.is_empty() && !n.contains('/'))
                .map(|_| BodyKind::Attribute),
            _ => None,
        }
    }
}

/// One thing wrong with an indexing body, in the machine-readable shape (`code`, `fieldPath`,
/// `description`) plus where and which rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BodyProblem {
    pub level: Level,
    /// Stable upper-case code (`docs/indexing-bodies.md` lists them).
    pub code: &'static str,
    /// JSON Pointer to the offending value (`""` is the whole body).
    #[serde(rename = "fieldPath")]
    pub field_path: String,
    /// One sentence naming the fix.
    pub description: String,
    /// The record (or update, or id) it is in, counted from 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<usize>,
    /// The rule, in the vendor SDK's words (or the documentation's, for a warning).
    pub rule: String,
    /// The offending value, cut to 200 bytes of JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// The judgement of one body: at most [`MAX_LISTED`] problems, the count of the rest.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Judgement {
    pub problems: Vec<BodyProblem>,
    /// Errors found after the list was full.
    #[serde(rename = "moreErrors")]
    pub more_errors: usize,
    /// Warnings found after the list was full.
    #[serde(rename = "moreWarnings")]
    pub more_warnings: usize,
    /// Records (updates, ids) in the body.
    pub records: usize,
}

impl Judgement {
    /// No error, listed or not (warnings allowed): the vendor's SDK would send it.
    pub fn is_ok(&self) -> bool {
        self.more_errors == 0 && !self.problems.iter().any(|p| p.level == Level::Error)
    }

    /// Every error, listed or not.
    pub fn error_count(&self) -> usize {
        self.more_errors
            + self
                .problems
                .iter()
                .filter(|p| p.level == Level::Error)
                .count()
    }

    /// Every warning, listed or not.
    pub fn warning_count(&self) -> usize {
        self.more_warnings + self.problems.len() + self.more_errors - self.error_count()
    }

    /// One line for a list or a status bar: "2 errors, 1 warning: ID_NOT_STRING at /0/id, ...".
    pub fn summary(&self) -> String {
        if self.problems.is_empty() && self.more_errors + self.more_warnings == 0 {
            return "no problems".to_string();
        }
        let (e, w) = (self.error_count(), self.warning_count());
        let first: Vec<String> = self
            .problems
            .iter()
            .take(3)
            .map(|p| format!("{} at {}", p.code, shown_path(&p.field_path)))
            .collect();
        format!(
            "{}, {}: {}",
            counted(e, "error"),
            counted(w, "warning"),
            first.join(", ")
        )
    }
}

/// A pointer as shown to a person: the whole body is `(body)`.
pub fn shown_path(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(body)"
    } else {
        pointer
    }
}

/// Judge a body's bytes; `None` when they are not JSON (the caller names the syntax error).
/// `defined` is the custom attributes the account has defined, when known.
pub fn judge_bytes(
    kind: BodyKind,
    body: &[u8],
    defined: Option<&BTreeSet<String>>,
) -> Option<Judgement> {
    let value: Value = serde_json::from_slice(body).ok()?;
    Some(judge(kind, &value, defined))
}

/// Judge a parsed body.
pub fn judge(kind: BodyKind, body: &Value, defined: Option<&BTreeSet<String>>) -> Judgement {
    let mut out = Problems::default();
    let records = match kind {
        BodyKind::Records => records::judge_records(&mut out, body, defined),
        BodyKind::Updates => updates::judge_updates(&mut out, body),
        BodyKind::Delete => updates::judge_delete(&mut out, body),
        BodyKind::Attribute => {
            names::judge_attribute(&mut out, body);
            1
        }
    };
    Judgement {
        problems: out.listed,
        more_errors: out.more_errors,
        more_warnings: out.more_warnings,
        records,
    }
}

/// Where problems are gathered while judging: the first [`MAX_LISTED`], then counts.
#[derive(Default)]
pub(crate) struct Problems {
    listed: Vec<BodyProblem>,
    more_errors: usize,
    more_warnings: usize,
    /// The record being judged.
    record: Option<usize>,
}

impl Problems {
    /// A problem at `pointer`: its rule's code and words, the fix, the offending value.
    pub(crate) fn push(
        &mut self,
        level: Level,
        pointer: String,
        code: &'static str,
        rule: String,
        fix: String,
        value: Option<&Value>,
    ) {
        if self.listed.len() >= MAX_LISTED {
            match level {
                Level::Error => self.more_errors += 1,
                Level::Warning => self.more_warnings += 1,
            }
            return;
        }
        self.listed.push(BodyProblem {
            level,
            code,
            field_path: pointer,
            description: fix,
            record: self.record,
            rule,
            value: value.map(short_json),
        });
    }

    pub(crate) fn error(
        &mut self,
        pointer: String,
        code: &'static str,
        rule: String,
        fix: String,
        value: Option<&Value>,
    ) {
        self.push(Level::Error, pointer, code, rule, fix, value);
    }

    pub(crate) fn at_record(&mut self, record: Option<usize>) {
        self.record = record;
    }
}

fn short_json(v: &Value) -> String {
    let s = v.to_string();
    if s.len() <= 200 {
        return s;
    }
    let mut end = 200;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// The type of a JSON value in the SDK's words (PHP's `get_debug_type` of the decoded value).
pub(crate) fn php_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "string",
        Value::Array(_) | Value::Object(_) => "array",
    }
}

#[cfg(test)]
mod tests;
