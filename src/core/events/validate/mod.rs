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

use serde::de::{Deserialize, DeserializeSeed};
use serde_json::Value;

mod check;
mod item;
mod nested;
mod order;
mod read;
mod types;

use check::{Checker, RootSeed};
pub use item::{identity, IdNames, Identity};
use read::Skip;
pub use types::{
    codes, event_of_path, problem_value, Level, Omitted, Problem, Report, MAX_LISTED_PROBLEMS,
};

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
