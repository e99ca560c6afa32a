//! Records of `PUT /v2/batch` (`RecordValidator` and its `Record/*` parts), and the documented
//! rules the SDK does not check, as warnings: ids unique in the batch, a product's documented
//! attributes, custom attributes defined before use.

use std::collections::{BTreeSet, HashMap};

use serde_json::{Map, Value};

use super::names::{blank, entries, judge_attribute_names, judge_key_name, NameOf};
use super::{php_type, pointer, Level, Problems};

/// The attributes the vendor documents for every `KLEVU_PRODUCT` record.
pub const PRODUCT_ATTRIBUTES: [&str; 5] = ["name", "sku", "url", "prices", "visibility"];

/// The vendor's core (immutable) attributes: never "undefined".
pub const CORE_ATTRIBUTES: [&str; 22] = [
    "name",
    "sku",
    "url",
    "description",
    "shortDescription",
    "image",
    "images",
    "prices",
    "price",
    "salePrice",
    "currency",
    "visibility",
    "inStock",
    "rating",
    "ratingCount",
    "tags",
    "categoryPath",
    "title",
    "content",
    "boosting",
    "createdAt",
    "updatedAt",
];

/// Judge the records; gives how many there are.
pub(crate) fn judge_records(
    out: &mut Problems,
    body: &Value,
    defined: Option<&BTreeSet<String>>,
) -> usize {
    let Some(records) = body.as_array() else {
        out.error(
            String::new(),
            "BODY_NOT_ARRAY",
            format!("Records must be an array, received {}", php_type(body)),
            "Send the records as a JSON array of objects.".into(),
            None,
        );
        return 0;
    };
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, record) in records.iter().enumerate() {
        out.at_record(Some(i));
        let at = format!("/{i}");
        let Some(o) = record.as_object() else {
            out.error(
                at,
                "RECORD_NOT_OBJECT",
                format!("Record must be an object, received {}", php_type(record)),
                "Send each record as a JSON object (id, type, attributes, ...).".into(),
                Some(record),
            );
            continue;
        };
        judge_record(out, o, &at);
        judge_record_warnings(out, o, &at, defined);
        if let Some(Value::String(id)) = o.get("id") {
            if let Some(first) = seen.insert(id, i) {
                seen.insert(id, first);
                duplicate_id(out, &at, first, &o["id"]);
            }
        }
    }
    out.at_record(None);
    records.len()
}

/// The SDK's checks of one record, every part.
fn judge_record(out: &mut Problems, o: &Map<String, Value>, at: &str) {
    judge_text(out, o.get("id"), &pointer(at, "id"), Text::Id);
    judge_text(out, o.get("type"), &pointer(at, "type"), Text::Type);
    match o.get("relations") {
        None | Some(Value::Null | Value::Array(_) | Value::Object(_)) => {}
        Some(other) => out.error(
            pointer(at, "relations"),
            "RELATIONS_NOT_OBJECT",
            format!("relations: Relations must be array|null, received {}", php_type(other)),
            "Send relations as a JSON object (e.g. {\"categories\": {\"values\": [...]}}) or leave it out.".into(),
            Some(other),
        ),
    }
    if let Some(attributes) = o.get("attributes") {
        judge_attribute_names(out, attributes, &pointer(at, "attributes"));
    }
    for (field, of) in [("groups", NameOf::Group), ("channels", NameOf::Channel)] {
        if let Some(rows) = o.get(field).filter(|v| !v.is_null()) {
            judge_rows(out, rows, of, &pointer(at, field));
        }
    }
}

/// `id` or `type` of a record.
#[derive(Clone, Copy)]
pub(crate) enum Text {
    Id,
    Type,
}

/// A record's id or type: a string, not blank (`IdValidator`, `TypeValidator`).
pub(crate) fn judge_text(out: &mut Problems, v: Option<&Value>, at: &str, which: Text) {
    let (label, field, codes) = match which {
        Text::Id => ("Record Id", "id", ["ID_NOT_STRING", "ID_REQUIRED"]),
        Text::Type => ("Record Type", "type", ["TYPE_NOT_STRING", "TYPE_REQUIRED"]),
    };
    let (code, rule, fix) = match v {
        Some(Value::String(s)) if !blank(s) => return,
        None | Some(Value::Null | Value::String(_)) => (
            codes[1],
            format!("{field}: {label} is required"),
            format!("Give the record's {field} as a non-empty string."),
        ),
        Some(other) => (
            codes[0],
            format!(
                "{field}: {label} must be string, received {}",
                php_type(other)
            ),
            format!(
                "Send the {field} as a JSON string (in quotes), e.g. \"{}\".",
                plain(other)
            ),
        ),
    };
    out.error(at.to_string(), code, rule, fix, v);
}

/// A scalar as the text the user probably meant.
fn plain(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => "...".to_string(),
    }
}

/// `groups` or `channels`: rows by name, each an object whose `attributes` are checked as a
/// record's (`GroupsValidator`, `ChannelsValidator`).
fn judge_rows(out: &mut Problems, rows: &Value, of: NameOf, at: &str) {
    let (what, not_object, row_not_object) = match of {
        NameOf::Group => ("Groups", "GROUPS_NOT_OBJECT", "GROUP_NOT_OBJECT"),
        _ => ("Channels", "CHANNELS_NOT_OBJECT", "CHANNEL_NOT_OBJECT"),
    };
    let Some(list) = entries(rows) else {
        out.error(
            at.to_string(),
            not_object,
            format!("{what} must be array or null, received {}", php_type(rows)),
            format!(
                "Send {} as a JSON object by name, or leave it out.",
                what.to_lowercase()
            ),
            Some(rows),
        );
        return;
    };
    for (token, key, data) in list {
        judge_key_name(out, of, key, &token, at);
        let row_at = pointer(at, &token);
        match data {
            Value::Array(_) | Value::Object(_) => {
                if let Some(attributes) = data.get("attributes").filter(|v| !v.is_null()) {
                    judge_attribute_names(out, attributes, &pointer(&row_at, "attributes"));
                }
                let groups = data.get("groups").filter(|v| !v.is_null());
                if let (NameOf::Channel, Some(groups)) = (of, groups) {
                    judge_rows(out, groups, NameOf::Group, &pointer(&row_at, "groups"));
                }
            }
            other => out.error(
                row_at,
                row_not_object,
                format!(
                    "[{token}] {} data must be array, received {}",
                    &what[..what.len() - 1],
                    php_type(other)
                ),
                "Send each row as a JSON object, e.g. {\"attributes\": {...}}.".into(),
                Some(other),
            ),
        }
    }
}

/// The documented rules the SDK does not check.
fn judge_record_warnings(
    out: &mut Problems,
    o: &Map<String, Value>,
    at: &str,
    defined: Option<&BTreeSet<String>>,
) {
    let attributes = o.get("attributes").and_then(Value::as_object);
    if o.get("type").and_then(Value::as_str) == Some("KLEVU_PRODUCT") {
        let missing: Vec<&str> = PRODUCT_ATTRIBUTES
            .into_iter()
            .filter(|a| attributes.is_none_or(|m| !m.contains_key(*a)))
            .collect();
        if !missing.is_empty() {
            out.push(
                Level::Warning,
                pointer(at, "attributes"),
                "PRODUCT_ATTRIBUTE_MISSING",
                format!(
                    "A KLEVU_PRODUCT record carries the documented product attributes ({})",
                    PRODUCT_ATTRIBUTES.join(", ")
                ),
                format!("Add {} to the product's attributes.", missing.join(", ")),
                None,
            );
        }
    }
    let (Some(defined), Some(attributes)) = (defined, attributes) else {
        return;
    };
    for name in attributes.keys() {
        if !CORE_ATTRIBUTES.contains(&name.as_str()) && !defined.contains(name) {
            out.push(
                Level::Warning,
                pointer(&pointer(at, "attributes"), name),
                    "ATTRIBUTE_UNDEFINED",
                "A custom attribute is defined with PUT /v2/attributes/{name} before a record uses it".into(),
                format!("Define {name} first with PUT /v2/attributes/{name}, or check its spelling."),
                None,
        );
        }
    }
}

fn duplicate_id(out: &mut Problems, at: &str, first: usize, id: &Value) {
    out.push(
        Level::Warning,
        pointer(at, "id"),
        "DUPLICATE_ID",
        "Record ids are unique across the whole index".into(),
        format!(
            "Record {first} has the same id; send each record once, or give them different ids."
        ),
        Some(id),
    );
}
