//! What a validation reports: problems, their levels and codes, and the report of a batch.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::core::json::json_pointer;

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The batch breaks a rule of the interface; a collector rejects it.
    Error,
    /// Accepted, but probably not what the sender meant.
    Warning,
}

impl Level {
    /// `error` or `warning`, as reports write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Stable problem codes.
pub mod codes {
    /// The body is not JSON (with line and column).
    pub const JSON_SYNTAX: &str = "JSON_SYNTAX";
    /// A value has the wrong JSON type (including the body not being an array).
    pub const TYPE: &str = "TYPE";
    /// A required member is missing.
    pub const REQUIRED: &str = "REQUIRED";
    /// A member expected in every event or item is missing (warning).
    pub const RECOMMENDED: &str = "RECOMMENDED";
    /// A required text is empty, or an array is empty.
    pub const EMPTY: &str = "EMPTY";
    /// A text does not have the prescribed form.
    pub const FORMAT: &str = "FORMAT";
    /// Two values that must agree do not.
    pub const MISMATCH: &str = "MISMATCH";
    /// `event` is not a known event kind.
    pub const UNKNOWN_EVENT: &str = "UNKNOWN_EVENT";
    /// Two items of one event use the same `index`.
    pub const DUPLICATE_INDEX: &str = "DUPLICATE_INDEX";
    /// An object names the same member twice.
    pub const DUPLICATE_FIELD: &str = "DUPLICATE_FIELD";
    /// A `select_recs_list` names a list id no `view_recs_list` of the batch names (warning).
    pub const LIST_NOT_VIEWED: &str = "LIST_NOT_VIEWED";
    /// `item_category` has an empty level: a leading or trailing `;`, or `;;;` (warning).
    pub const CATEGORY_EMPTY_LEVEL: &str = "CATEGORY_EMPTY_LEVEL";
    /// The `recsPageType` tag value is not upper case (warning).
    pub const PAGE_TYPE_CASE: &str = "PAGE_TYPE_CASE";
    /// A clicked item is not among the items the batch's view of that list shows (warning).
    pub const ITEM_NOT_VIEWED: &str = "ITEM_NOT_VIEWED";
    /// A `select_recs_list` event carries more than the one clicked item (warning).
    pub const SELECT_ITEMS: &str = "SELECT_ITEMS";
    /// A `view_recs_list` carries one item of a list its client sent whole as a
    /// `select_recs_list`: the two names swapped (`docs/events.md` rule E26; warning).
    pub const EVENT_NAMES_SWAPPED: &str = "EVENT_NAMES_SWAPPED";
    /// `item_variant_id` is the whole `item_id`, which is itself `group-SUFFIX` (warning: the
    /// variant id is probably SUFFIX).
    pub const VARIANT_ID: &str = "VARIANT_ID";
    /// A multipart form reached a JSON endpoint; with a part `[object Object]` it is the
    /// vendor's SDK's form bug (`docs/events.md` rule E22).
    pub const MULTIPART_FORM: &str = "MULTIPART_FORM";
    /// A field of an older analytics endpoint sent without its `klevu_` prefix (`apiKey` for
    /// `klevu_apiKey`; `docs/events.md` rule E21).
    pub const MISNAMED: &str = "MISNAMED";
}

/// One thing wrong with a batch. Serialized with two more members, as GA4's
/// `validationMessages` have them (`docs/events.md`, "Problem codes"): `fieldPath`, the path
/// as a JSON Pointer, and `description`, the sentence (the same as `message`).
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub level: Level,
    /// JSON path of the offending value, e.g. `[0].items[2].currency`; empty for the whole body.
    pub path: String,
    /// Stable code, see [`codes`].
    pub code: String,
    /// The offending value, when there is one.
    pub value: Option<Value>,
    /// One sentence naming the rule.
    pub message: String,
    /// For `JSON_SYNTAX`: 1-based line of the error.
    pub line: Option<usize>,
    /// For `JSON_SYNTAX`: 1-based column of the error.
    pub column: Option<usize>,
}

/// A problem as it is written: the one shape of every problem the collector reports.
#[derive(Serialize)]
struct Wire<'a> {
    level: &'a str,
    path: &'a str,
    code: &'a str,
    value: Option<&'a Value>,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    #[serde(rename = "fieldPath")]
    field_path: String,
    description: &'a str,
}

impl<'a> Wire<'a> {
    fn new(
        level: &'a str,
        path: &'a str,
        code: &'a str,
        value: Option<&'a Value>,
        message: &'a str,
    ) -> Self {
        Wire {
            level,
            path,
            code,
            value,
            message,
            line: None,
            column: None,
            field_path: json_pointer(path),
            description: message,
        }
    }
}

impl Serialize for Problem {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut wire = Wire::new(
            self.level.as_str(),
            &self.path,
            &self.code,
            self.value.as_ref(),
            &self.message,
        );
        wire.line = self.line;
        wire.column = self.column;
        wire.serialize(s)
    }
}

/// A problem the server adds beside the validator's (a body it could not read, a `note` that
/// problems were not kept), in the same shape as a [`Problem`]; `level` is `error`, `warning`
/// or `note`.
pub fn problem_value(
    level: &str,
    path: &str,
    code: &str,
    value: Option<Value>,
    message: &str,
) -> Value {
    serde_json::to_value(Wire::new(level, path, code, value.as_ref(), message))
        .unwrap_or(Value::Null)
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "(body)"
        } else {
            &self.path
        };
        write!(
            f,
            "{} {} at {}: {}",
            self.level, self.code, path, self.message
        )?;
        if let Some(v) = &self.value {
            write!(f, " (value: {})", short_json(v))?;
        }
        Ok(())
    }
}

fn short_json(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        let cut: String = s.chars().take(77).collect();
        format!("{cut}...")
    } else {
        s
    }
}

/// Most problems a report lists. Every problem of any realistic batch is listed at once
/// (`docs/events.md` rule E14); beyond this many, the rest are counted, not listed, so that one malformed
/// request (300 KB of `{}` is 100,000 events with several problems each) cannot make an answer
/// of hundreds of megabytes and take the local server's memory with it.
pub const MAX_LISTED_PROBLEMS: usize = 10_000;

/// The outcome of validating one batch.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    /// The problems found, in order, at most [`MAX_LISTED_PROBLEMS`].
    pub problems: Vec<Problem>,
    /// Number of events in the array (0 when the body is not an array).
    pub events: usize,
    /// Problems found after the list was full: how many, and which events (ascending) had an
    /// error among them.
    #[serde(skip_serializing_if = "Omitted::is_empty")]
    pub omitted: Omitted,
}

/// What a full report did not list.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Omitted {
    pub errors: usize,
    pub warnings: usize,
    /// Indices of the events with an unlisted error, ascending, each once.
    pub error_events: Vec<usize>,
}

impl Omitted {
    pub fn is_empty(&self) -> bool {
        self.errors == 0 && self.warnings == 0
    }

    /// All unlisted problems.
    pub fn total(&self) -> usize {
        self.errors + self.warnings
    }
}

impl Report {
    pub fn errors(&self) -> impl Iterator<Item = &Problem> {
        self.problems.iter().filter(|p| p.level == Level::Error)
    }
    pub fn warnings(&self) -> impl Iterator<Item = &Problem> {
        self.problems.iter().filter(|p| p.level == Level::Warning)
    }
    /// No errors, listed or not (warnings allowed).
    pub fn is_ok(&self) -> bool {
        self.errors().next().is_none() && self.omitted.errors == 0
    }
}

/// The event a problem path points into: `[12].items[0].price` is event 12.
pub fn event_of_path(path: &str) -> Option<usize> {
    path.strip_prefix('[')?.split(']').next()?.parse().ok()
}
