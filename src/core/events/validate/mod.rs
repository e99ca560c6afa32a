//! Validation of an event batch: every problem at once, each with a JSON path, the offending
//! value, a stable code and a sentence naming the rule.
//!
//! The rules are `docs/events.md` rules E3-E12. Errors make a batch
//! invalid; warnings point at things the collector accepts but that are probably mistakes.
//!
//! `validate_bytes` does not build a `serde_json::Value`: it reads the bytes once with serde
//! visitors into small borrowed records (strings stay slices of the input, unknown members are
//! skipped with `Skip`, which still decodes their strings) and checks each event as soon as it has been read. A `Value` is built
//! only for an offending value that goes into a [`Problem`]. `validate(&Value)` runs the same
//! visitors over an already parsed value, so both give the same answers.

use std::fmt;

use serde::de::{Deserialize, DeserializeSeed};
use serde::Serialize;
use serde_json::Value;

mod check;
mod item;
mod nested;
mod read;

use check::Checker;
use read::{RootSeed, Skip};

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The batch breaks a rule of the interface; a collector rejects it.
    Error,
    /// Accepted, but probably not what the sender meant.
    Warning,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Error => "error",
            Level::Warning => "warning",
        })
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
}

/// One thing wrong with a batch.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// For `JSON_SYNTAX`: 1-based column of the error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
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

/// How deeply arrays and objects may nest in a body the server accepts (serde_json's own
/// recursion limit, which both the collector and the indexing route apply).
pub const MAX_JSON_DEPTH: usize = 127;

/// The one rule for "this body is JSON", shared by the indexing route and the collector
/// ([`validate_bytes`] applies the same parser, depth limit and string decoding): UTF-8, no
/// byte order mark, at most [`MAX_JSON_DEPTH`] levels of nesting, every number finite as an
/// `f64` (`1e999` is refused), every string escape valid (a lone surrogate `"\uD800"` is
/// refused), nothing after the value.
pub fn check_json(body: &[u8]) -> Result<(), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(body);
    Skip::deserialize(&mut de).and_then(|Skip| de.end())
}

/// Validate a request body as sent. Malformed JSON gives a single `JSON_SYNTAX` problem with line
/// and column.
pub fn validate_bytes(body: &[u8]) -> Report {
    // JSON text is UTF-8: check the whole body first, so the parser below works on a `&str`.
    // Skipped members go through `Skip`, which decodes their strings, so escapes (a lone
    // surrogate `\uDADD`) are checked there too.
    let text = match std::str::from_utf8(body) {
        Ok(t) => t,
        Err(e) => return utf8_report(body, e.valid_up_to()),
    };
    if text.starts_with('\u{FEFF}') {
        return bom_report();
    }
    let mut checker = Checker::default();
    let mut de = serde_json::Deserializer::from_str(text);
    let outcome = RootSeed(&mut checker)
        .deserialize(&mut de)
        .and_then(|()| de.end());
    match outcome {
        Ok(()) => checker.finish(),
        Err(e) => syntax_report(&e),
    }
}

/// Validate an already parsed batch (same rules as [`validate_bytes`]; a `Value` cannot hold a
/// duplicate member, so `DUPLICATE_FIELD` never appears).
pub fn validate(batch: &Value) -> Report {
    let mut checker = Checker::default();
    match RootSeed(&mut checker).deserialize(batch) {
        Ok(()) => checker.finish(),
        // Our visitors accept every shape; this is unreachable in practice.
        Err(e) => syntax_report(&e),
    }
}

fn utf8_report(body: &[u8], at: usize) -> Report {
    let before = &body[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = at
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    json_syntax_report(
        format!("The body is not valid JSON: invalid UTF-8 at line {line}, column {column}."),
        line,
        column,
    )
}

/// A UTF-8 byte order mark (Windows editors add one) is invisible in the editor, and the
/// parser only says "expected value at line 1, column 1".
fn bom_report() -> Report {
    json_syntax_report(
        "The body is not valid JSON: it starts with a UTF-8 byte order mark (bytes EF BB BF), which JSON does not allow; save it as UTF-8 without BOM.".to_owned(),
        1,
        1,
    )
}

fn syntax_report(e: &serde_json::Error) -> Report {
    let (line, column) = (e.line(), e.column());
    json_syntax_report(
        format!(
            "The body is not valid JSON: {} at line {line}, column {column}.",
            json_error_reason(e)
        ),
        line,
        column,
    )
}

/// serde_json's message without its trailing " at line L column C" (said in our own words).
pub fn json_error_reason(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The report of a body that is not JSON: one `JSON_SYNTAX` error at a line and column.
fn json_syntax_report(message: String, line: usize, column: usize) -> Report {
    Report {
        problems: vec![Problem {
            level: Level::Error,
            path: String::new(),
            code: codes::JSON_SYNTAX.to_owned(),
            value: None,
            message,
            line: Some(line),
            column: Some(column),
        }],
        events: 0,
        omitted: Omitted::default(),
    }
}
