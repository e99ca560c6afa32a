//! `PATCH /v2/batch` (`UpdateValidator`: record id, `op`, JSON Pointer `path`) and
//! `PUT /v2/batch/delete` (ids).

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::names::blank;
use super::records::{judge_text, Text};
use super::{php_type, pointer, Problems};

/// The update operations (`UpdateOperations`).
pub const OPERATIONS: [&str; 3] = ["add", "remove", "replace"];

/// The SDK's JSON Pointer pattern (`UpdateValidator::REGEX_JSON_POINTER`), as written there.
const JSON_POINTER: &str = concat!(
    r"^(?:(?:(?:[-._~a-zA-Z0-9]|%[a-fA-F0-9]{2}|[!$&'()*+,;=]|@)+/(?:[-._~a-zA-Z0-9]|%[a-fA-F0-9]{2}|[!$&'()*+,;=]|@|:)*)",
    r"|(?:[-._~a-zA-Z0-9]|%[a-fA-F0-9]{2}|[!$&'()*+,;=]|@)+/?(?:[-._~a-zA-Z0-9]|%[a-fA-F0-9]{2}|[!$&'()*+,;=]|@|:)*(/(?:[-._~a-zA-Z0-9]|%[a-fA-F0-9]{2}|[!$&'()*+,;=]|@|:)*)?",
    r"|/(?:[-._~a-zA-Z0-9]|%[a-fA-F0-9]{2}|[!$&'()*+,;=]|@)+(/(?:[-._~a-zA-Z0-9]|%[a-fA-F0-9]{2}|[!$&'()*+,;=]|@|:)*)*",
    r"|(?:/(?:[-._~a-zA-Z0-9]|%[a-fA-F0-9]{2}|[!$&'()*+,;=]|@|:)*)*)$",
);

static POINTER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(JSON_POINTER).expect("the SDK's JSON Pointer pattern compiles"));

/// Whether the SDK takes `path` as a JSON Pointer (PHP's `$` also matches before one final
/// newline).
pub fn is_sdk_pointer(path: &str) -> bool {
    POINTER.is_match(path.strip_suffix('\n').unwrap_or(path))
}

/// `{"RECORD_ID": [{"op", "path", "value"}, ...], ...}` (the SDK's form), or a JSON Patch array
/// whose paths name the record (`[{"op", "path": "/ID/attributes/name", "value"}]`); gives how
/// many records (or operations) it has.
pub(crate) fn judge_updates(out: &mut Problems, body: &Value) -> usize {
    if let Some(ops) = body.as_array() {
        for (i, op) in ops.iter().enumerate() {
            out.at_record(Some(i));
            judge_update(out, op, &format!("/{i}"));
        }
        out.at_record(None);
        return ops.len();
    }
    let Some(records) = body.as_object() else {
        out.error(
        String::new(),
            "BODY_NOT_OBJECT",
            format!("Updates must be an object by record id, received {}", php_type(body)),
            "Send updates as a JSON object from record id to a list of operations, e.g. {\"ID\": [{\"op\": \"replace\", \"path\": \"/attributes/name\", \"value\": ...}]}.".into(),
                None,
        );
        return 0;
    };
    for (i, (id, ops)) in records.iter().enumerate() {
        out.at_record(Some(i));
        let at = pointer("", id);
        if blank(id) {
            judge_text(out, Some(&Value::String(id.clone())), &at, Text::Id);
        }
        let Some(ops) = ops.as_array() else {
            out.error(
                at,
                "UPDATES_NOT_ARRAY",
                format!("Operations must be an array, received {}", php_type(ops)),
                "Give each record id a JSON array of operations.".into(),
                Some(ops),
            );
            continue;
        };
        for (j, op) in ops.iter().enumerate() {
            judge_update(out, op, &pointer(&at, &j.to_string()));
        }
    }
    out.at_record(None);
    records.len()
}

/// One operation: `op` one of add, remove, replace; `path` set and a JSON Pointer.
fn judge_update(out: &mut Problems, op: &Value, at: &str) {
    let Some(o) = op.as_object() else {
        out.error(
            at.to_string(),
            "UPDATE_NOT_OBJECT",
            format!("Update must be an object, received {}", php_type(op)),
            "Send each operation as a JSON object with op, path and value.".into(),
            Some(op),
        );
        return;
    };
    let name = o
        .get("op")
        .and_then(Value::as_str)
        .map(|s| s.trim_matches(crate::core::form::PHP_TRIM));
    match (name, o.get("op")) {
        (Some(n), _) if OPERATIONS.contains(&n) => {}
        (Some(""), _) | (None, None | Some(Value::Null)) => out.error(
            pointer(at, "op"),
            "UPDATE_OP_REQUIRED",
            "Update operation [op] is required".into(),
            "Give op: add, remove or replace.".into(),
            None,
        ),
        (_, v) => out.error(
            pointer(at, "op"),
            "UPDATE_OP_UNKNOWN",
            format!(
                "Unrecognised update operation [op] \"{}\", must be one of {}",
                name.unwrap_or_default(),
                OPERATIONS.join(", ")
            ),
            "Use op add, remove or replace (lower case).".into(),
            v,
        ),
    }
    match o.get("path") {
        None | Some(Value::Null) => out.error(
            pointer(at, "path"),
            "UPDATE_PATH_REQUIRED",
            "Path must be set".into(),
            "Give path, a JSON Pointer such as /attributes/name (\"\" is the whole record).".into(),
            None,
        ),
        Some(Value::String(p)) if is_sdk_pointer(p) => {}
        Some(p) => out.error(
            pointer(at, "path"),
            "UPDATE_PATH_FORMAT",
            format!("Path \"{}\" is not a valid JSON Pointer value", p.as_str().map_or_else(|| p.to_string(), str::to_string)),
            "Write path as a JSON Pointer: /attributes/name, each part of letters, digits, -._~ or %XX.".into(),
            Some(p),
        ),
    }
}

/// `{"ids": ["ID", ...]}`: at least one id, each a non-empty string; gives how many.
pub(crate) fn judge_delete(out: &mut Problems, body: &Value) -> usize {
    let ids = body
        .get("ids")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty());
    let Some(ids) = ids else {
        out.error(
            if body.is_object() {
                "/ids".into()
            } else {
                String::new()
            },
            "DELETE_IDS_REQUIRED",
            "Records to delete are named by id".into(),
            "Send {\"ids\": [\"ID\", ...]} with at least one record id.".into(),
            body.get("ids"),
        );
        return 0;
    };
    for (i, id) in ids.iter().enumerate() {
        out.at_record(Some(i));
        judge_text(out, Some(id), &format!("/ids/{i}"), Text::Id);
    }
    out.at_record(None);
    ids.len()
}
