//! Names: of attributes (`AttributeNameValidator`), of groups and channels
//! (`GroupNameValidator`, `ChannelNameValidator`), and the attribute body of
//! `PUT /v2/attributes/{name}` (`AttributeValidator`). The SDK checks PHP values; a JSON object's
//! key such as `"12"` is a PHP integer key, so the SDK refuses it as a name ("received int").

use serde_json::Value;

use super::{php_type, pointer, Problems};

/// Longest attribute name, in bytes.
pub const ATTRIBUTE_NAME_MAXLENGTH: usize = 200;

/// The custom attribute data types (`DataType::isAvailableToCustomAttributes`).
pub const CUSTOM_DATATYPES: [&str; 4] = ["STRING", "MULTIVALUE", "NUMBER", "MULTIVALUE_NUMBER"];
/// The data types of core attributes only, or reserved.
const CORE_DATATYPES: [&str; 3] = ["DATETIME", "JSON", "BOOLEAN"];

/// What a name is checked as.
#[derive(Clone, Copy)]
pub(crate) enum NameOf {
    Attribute,
    Group,
    Channel,
}

impl NameOf {
    fn label(self) -> &'static str {
        match self {
            NameOf::Attribute => "Attribute Name",
            NameOf::Group => "Group Name",
            NameOf::Channel => "Channel Name",
        }
    }

    fn codes(self) -> [&'static str; 3] {
        match self {
            NameOf::Attribute => [
                "ATTRIBUTE_NAME_NOT_STRING",
                "ATTRIBUTE_NAME_REQUIRED",
                "ATTRIBUTE_NAME_FORMAT",
            ],
            NameOf::Group => [
                "GROUP_NAME_NOT_STRING",
                "GROUP_NAME_REQUIRED",
                "GROUP_NAME_FORMAT",
            ],
            NameOf::Channel => [
                "CHANNEL_NAME_NOT_STRING",
                "CHANNEL_NAME_REQUIRED",
                "CHANNEL_NAME_FORMAT",
            ],
        }
    }
}

/// A key of a PHP array made from JSON: a list's index, or an object's key (an integer when it
/// reads as one, as PHP makes it).
#[derive(Clone, Copy)]
pub(crate) enum Key<'a> {
    Int,
    Text(&'a str),
}

/// Whether PHP turns this string key into an integer key (`"12"`, `"-3"`, not `"012"`).
pub(crate) fn is_php_int_key(k: &str) -> bool {
    let digits = k.strip_prefix('-').unwrap_or(k);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    if digits.len() > 1 && digits.starts_with('0') || k == "-0" {
        return false;
    }
    k.parse::<i64>().is_ok()
}

/// The entries of a JSON value read as a PHP array: `(pointer token, key, value)`; `None` when
/// it is neither an array nor an object.
pub(crate) fn entries(v: &Value) -> Option<Vec<(String, Key<'_>, &Value)>> {
    match v {
        Value::Array(a) => Some(
            a.iter()
                .enumerate()
                .map(|(i, v)| (i.to_string(), Key::Int, v))
                .collect(),
        ),
        Value::Object(o) => Some(
            o.iter()
                .map(|(k, v)| {
                    let key = if is_php_int_key(k) {
                        Key::Int
                    } else {
                        Key::Text(k)
                    };
                    (k.clone(), key, v)
                })
                .collect(),
        ),
        _ => None,
    }
}

/// PHP's `trim` of a string is empty.
pub(crate) fn blank(s: &str) -> bool {
    s.trim_matches(crate::core::form::PHP_TRIM).is_empty()
}

fn word_chars(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

pub(crate) fn name_format_ok(of: NameOf, name: &str) -> bool {
    // PHP's `$` also matches before one final newline.
    let s = name.strip_suffix('\n').unwrap_or(name);
    match of {
        NameOf::Attribute => word_chars(s) && !s.starts_with('_') && !s.ends_with('_'),
        NameOf::Group | NameOf::Channel => word_chars(s),
    }
}

/// The SDK's error for a name, if any: `(code, its words)`.
pub(crate) fn name_error(of: NameOf, key: Key<'_>) -> Option<(&'static str, String)> {
    let [not_string, required, format] = of.codes();
    let label = of.label();
    let name = match key {
        Key::Int => return Some((not_string, format!("{label} must be string, received int"))),
        Key::Text(t) => t,
    };
    if blank(name) {
        return Some((required, format!("{label} is required")));
    }
    if let NameOf::Attribute = of {
        if name.len() > ATTRIBUTE_NAME_MAXLENGTH {
            return Some((
                "ATTRIBUTE_NAME_TOO_LONG",
                format!(
                    "{label} must be less than or equal to {ATTRIBUTE_NAME_MAXLENGTH} characters"
                ),
            ));
        }
    }
    if name_format_ok(of, name) {
        return None;
    }
    let words = match of {
        NameOf::Attribute => "Attribute Name must be alphanumeric, can include underscores (_) but cannot start or end with an underscore",
        NameOf::Group => "Group Name must be alphanumeric, and can include underscores (_)",
        NameOf::Channel => "Channel Name must be alphanumeric, and can include underscores (_)",
    };
    Some((format, words.to_string()))
}

fn name_fix(of: NameOf, code: &str) -> String {
    let what = match of {
        NameOf::Attribute => "an attribute name",
        NameOf::Group => "a group name",
        NameOf::Channel => "a channel name",
    };
    if code.ends_with("NOT_STRING") {
        format!("Use {what} that is not a number (the SDK reads a numeric key as an integer).")
    } else if code.ends_with("REQUIRED") {
        format!("Give {what}; it must not be empty.")
    } else if code.ends_with("TOO_LONG") {
        format!("Shorten {what} to {ATTRIBUTE_NAME_MAXLENGTH} bytes or fewer.")
    } else if let NameOf::Attribute = of {
        format!("Write {what} with letters, digits and underscores only, not starting or ending with an underscore.")
    } else {
        format!("Write {what} with letters, digits and underscores only.")
    }
}

/// Check the keys of an `attributes` object (`AttributesValidator`) at `at`.
pub(crate) fn judge_attribute_names(out: &mut Problems, attributes: &Value, at: &str) {
    let Some(list) = entries(attributes) else {
        out.error(
            at.to_string(),
            "ATTRIBUTES_NOT_OBJECT",
            format!(
                "Attributes must be array, received {}",
                php_type(attributes)
            ),
            "Send attributes as a JSON object from attribute name to value.".into(),
            Some(attributes),
        );
        return;
    };
    for (token, key, _) in list {
        judge_key_name(out, NameOf::Attribute, key, &token, at);
    }
}

/// Check one name that is a key: of `attributes`, `groups` or `channels`.
pub(crate) fn judge_key_name(out: &mut Problems, of: NameOf, key: Key<'_>, token: &str, at: &str) {
    if let Some((code, words)) = name_error(of, key) {
        out.error(
            pointer(at, token),
            code,
            format!("[{token}] {words}"),
            name_fix(of, code),
            None,
        );
    }
}

/// The body of `PUT /v2/attributes/{name}` (`AttributeValidator`): an object whose
/// `attributeName` (when given; the path names it otherwise) is a valid name and whose
/// `datatype`, unless the attribute is `immutable` (a core attribute), is a custom data type.
pub(crate) fn judge_attribute(out: &mut Problems, body: &Value) {
    let Some(o) = body.as_object() else {
        out.error(
            String::new(),
            "BODY_NOT_OBJECT",
            format!("Attribute must be an object, received {}", php_type(body)),
            "Send the attribute as a JSON object (attributeName, datatype, label, ...).".into(),
            None,
        );
        return;
    };
    let name = match o.get("attributeName") {
        None => None,
        Some(Value::String(s)) => name_error(NameOf::Attribute, Key::Text(s)),
        Some(Value::Null) => name_error(NameOf::Attribute, Key::Text("")),
        Some(other) => Some((
            "ATTRIBUTE_NAME_NOT_STRING",
            format!(
                "Attribute Name must be string, received {}",
                php_type(other)
            ),
        )),
    };
    if let Some((code, rule)) = name {
        out.error(
            "/attributeName".into(),
            code,
            rule,
            name_fix(NameOf::Attribute, code),
            o.get("attributeName"),
        );
    }
    if o.get("immutable") == Some(&Value::Bool(true)) {
        return;
    }
    judge_datatype(out, o.get("datatype"));
}

fn judge_datatype(out: &mut Problems, datatype: Option<&Value>) {
    let given = datatype.filter(|d| !d.is_null() && !d.as_str().is_some_and(blank));
    let (code, rule, fix) = match given {
        Some(Value::String(d)) if CUSTOM_DATATYPES.contains(&d.as_str()) => return,
        None => (
            "DATATYPE_REQUIRED",
            "Attribute datatype must not be empty".to_string(),
            "Give a datatype: STRING, MULTIVALUE, NUMBER or MULTIVALUE_NUMBER.",
        ),
        Some(Value::String(d)) if CORE_DATATYPES.contains(&d.as_str()) => (
            "DATATYPE_NOT_CUSTOM",
            format!("Attribute datatype \"{d}\" is not available to custom attributes"),
            "Use STRING, MULTIVALUE, NUMBER or MULTIVALUE_NUMBER for a custom attribute.",
        ),
        Some(Value::String(d)) => (
            "DATATYPE_UNKNOWN",
            format!("Attribute datatype \"{d}\" is not a recognised value"),
            "Use STRING, MULTIVALUE, NUMBER or MULTIVALUE_NUMBER (upper case).",
        ),
        Some(other) => (
            "DATATYPE_UNKNOWN",
            format!(
                "Attribute datatype must be string, received {}",
                php_type(other)
            ),
            "Give datatype as a string: STRING, MULTIVALUE, NUMBER or MULTIVALUE_NUMBER.",
        ),
    };
    out.error("/datatype".into(), code, rule, fix.into(), datatype);
}
