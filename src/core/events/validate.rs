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

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::net::Ipv4Addr;

use serde::de::{
    self, value::MapAccessDeserializer, value::SeqAccessDeserializer, Deserialize, DeserializeSeed,
    Deserializer, MapAccess, SeqAccess, Visitor,
};
use serde::Serialize;
use serde_json::Value;

use super::model::{
    KNOWN_EVENTS, KNOWN_LIST_LOGICS, PAGE_TYPE_TAG, SELECT_RECS_LIST, VIEW_RECS_LIST,
};

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
    /// A member the interface document shows in every event or item is missing (warning).
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
    /// `item_category` contains a single `;` where levels are separated by `;;` (warning).
    pub const CATEGORY_SEPARATOR: &str = "CATEGORY_SEPARATOR";
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

// ---------------------------------------------------------------------------------------------
// Reading: borrowed records filled by serde visitors.

/// A member read where a string is expected: the string, or what was there instead.
#[derive(Debug)]
enum Raw<'a> {
    Str(Cow<'a, str>),
    Other(Value),
}

/// Something read where a particular shape is expected, or what was there instead.
#[derive(Debug)]
enum Shaped<T> {
    Ok(T),
    Wrong(Value),
}

trait Fallback: Sized {
    fn other(v: Value) -> Self;
}
impl Fallback for Raw<'_> {
    fn other(v: Value) -> Self {
        Raw::Other(v)
    }
}
impl<T> Fallback for Shaped<T> {
    fn other(v: Value) -> Self {
        Shaped::Wrong(v)
    }
}

macro_rules! fallback_scalars {
    () => {
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::Bool(v)))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::from(v)))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::from(v)))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::from(v)))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::Null))
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::Null))
        }
    };
}
macro_rules! fallback_str {
    () => {
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::String(v.to_owned())))
        }
    };
}
macro_rules! fallback_seq {
    () => {
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            Ok(Fallback::other(Value::deserialize(
                SeqAccessDeserializer::new(seq),
            )?))
        }
    };
}
macro_rules! fallback_map {
    () => {
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            Ok(Fallback::other(Value::deserialize(
                MapAccessDeserializer::new(map),
            )?))
        }
    };
}

impl<'de> Deserialize<'de> for Raw<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Raw<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Raw::Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Raw::Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Raw::Str(Cow::Owned(v)))
            }
            fallback_scalars!();
            fallback_seq!();
            fallback_map!();
        }
        d.deserialize_any(V)
    }
}

/// An object member name, borrowed from the input when it has no escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

/// Read the value of a known member into `slot`, noting a repeated member name.
fn read_member<'de, A, T>(
    map: &mut A,
    slot: &mut Option<T>,
    name: &'static str,
    dups: &mut Vec<&'static str>,
) -> Result<(), A::Error>
where
    A: MapAccess<'de>,
    T: Deserialize<'de>,
{
    let v = map.next_value::<T>()?;
    if slot.is_some() {
        dups.push(name);
    }
    // The last occurrence wins, as in serde_json::Value.
    *slot = Some(v);
    Ok(())
}

#[derive(Debug, Default)]
struct EventRec<'a> {
    event: Option<Raw<'a>>,
    apikey: Option<Raw<'a>>,
    list_id: Option<Raw<'a>>,
    tags: Option<Shaped<Vec<Raw<'a>>>>,
    list_name: Option<Raw<'a>>,
    list_logic: Option<Raw<'a>>,
    profile: Option<Shaped<ProfileRec<'a>>>,
    items: Option<Shaped<Vec<Shaped<ItemRec<'a>>>>>,
    dups: Vec<&'static str>,
}

#[derive(Debug, Default)]
struct ProfileRec<'a> {
    ip: Option<Raw<'a>>,
    dups: Vec<&'static str>,
}

#[derive(Debug, Default)]
struct ItemRec<'a> {
    item_id: Option<Raw<'a>>,
    group: Option<Raw<'a>>,
    variant: Option<Raw<'a>>,
    name: Option<Raw<'a>>,
    price: Option<Raw<'a>>,
    currency: Option<Raw<'a>>,
    brand: Option<Raw<'a>>,
    category: Option<Raw<'a>>,
    index: Option<Raw<'a>>,
    dups: Vec<&'static str>,
}

impl<'de> Deserialize<'de> for Shaped<Vec<Raw<'de>>> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Shaped<Vec<Raw<'de>>>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
                while let Some(v) = seq.next_element::<Raw<'de>>()? {
                    out.push(v);
                }
                Ok(Shaped::Ok(out))
            }
            fallback_scalars!();
            fallback_str!();
            fallback_map!();
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Shaped<Vec<Shaped<ItemRec<'de>>>> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Shaped<Vec<Shaped<ItemRec<'de>>>>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(v) = seq.next_element::<Shaped<ItemRec<'de>>>()? {
                    out.push(v);
                }
                Ok(Shaped::Ok(out))
            }
            fallback_scalars!();
            fallback_str!();
            fallback_map!();
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Shaped<ItemRec<'de>> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Shaped<ItemRec<'de>>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut r = ItemRec::default();
                while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
                    let d = &mut r.dups;
                    match &*k {
                        "item_id" => read_member(&mut map, &mut r.item_id, "item_id", d)?,
                        "item_group_id" => read_member(&mut map, &mut r.group, "item_group_id", d)?,
                        "item_variant_id" => {
                            read_member(&mut map, &mut r.variant, "item_variant_id", d)?
                        }
                        "item_name" => read_member(&mut map, &mut r.name, "item_name", d)?,
                        "price" => read_member(&mut map, &mut r.price, "price", d)?,
                        "currency" => read_member(&mut map, &mut r.currency, "currency", d)?,
                        "item_brand" => read_member(&mut map, &mut r.brand, "item_brand", d)?,
                        "item_category" => {
                            read_member(&mut map, &mut r.category, "item_category", d)?
                        }
                        "index" => read_member(&mut map, &mut r.index, "index", d)?,
                        _ => {
                            map.next_value::<Skip>()?;
                        }
                    }
                }
                Ok(Shaped::Ok(r))
            }
            fallback_scalars!();
            fallback_str!();
            fallback_seq!();
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Shaped<ProfileRec<'de>> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Shaped<ProfileRec<'de>>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut r = ProfileRec::default();
                while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
                    match &*k {
                        "ip_address" => {
                            read_member(&mut map, &mut r.ip, "ip_address", &mut r.dups)?
                        }
                        _ => {
                            map.next_value::<Skip>()?;
                        }
                    }
                }
                Ok(Shaped::Ok(r))
            }
            fallback_scalars!();
            fallback_str!();
            fallback_seq!();
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Shaped<EventRec<'de>> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Shaped<EventRec<'de>>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut r = EventRec::default();
                while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
                    let d = &mut r.dups;
                    match &*k {
                        "event" => read_member(&mut map, &mut r.event, "event", d)?,
                        "event_apikey" => read_member(&mut map, &mut r.apikey, "event_apikey", d)?,
                        "event_list_id" => {
                            read_member(&mut map, &mut r.list_id, "event_list_id", d)?
                        }
                        "event_tags" => read_member(&mut map, &mut r.tags, "event_tags", d)?,
                        "event_list_name" => {
                            read_member(&mut map, &mut r.list_name, "event_list_name", d)?
                        }
                        "event_list_logic" => {
                            read_member(&mut map, &mut r.list_logic, "event_list_logic", d)?
                        }
                        "user_profile" => read_member(&mut map, &mut r.profile, "user_profile", d)?,
                        "items" => read_member(&mut map, &mut r.items, "items", d)?,
                        _ => {
                            map.next_value::<Skip>()?;
                        }
                    }
                }
                Ok(Shaped::Ok(r))
            }
            fallback_scalars!();
            fallback_str!();
            fallback_seq!();
        }
        d.deserialize_any(V)
    }
}

/// Skips a value the validator does not look at (an unknown member). Unlike `IgnoredAny` it has
/// serde_json decode every string, so an invalid escape such as a lone surrogate (`"\uDADD"`) is
/// a syntax error here exactly as it is for `serde_json::Value`.
struct Skip;

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Skip;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_none<E: de::Error>(self) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
                while seq.next_element::<Skip>()?.is_some() {}
                Ok(Skip)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
                while map.next_entry::<Skip, Skip>()?.is_some() {}
                Ok(Skip)
            }
        }
        d.deserialize_any(V)
    }
}

/// Reads the body: an array of events, each checked as soon as it is read.
struct RootSeed<'c>(&'c mut Checker);

impl<'de> DeserializeSeed<'de> for RootSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for RootSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON array of events")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        while let Some(ev) = seq.next_element::<Shaped<EventRec<'de>>>()? {
            self.0.check_event(i, ev);
            i += 1;
        }
        self.0.events = i;
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_entry::<Skip, Skip>()?.is_some() {}
        self.0.not_array("a JSON object", None);
        Ok(())
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.0.not_array("a boolean", Some(Value::Bool(v)));
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.0.not_array("a number", Some(Value::from(v)));
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.0.not_array("a number", Some(Value::from(v)));
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        self.0.not_array("a number", Some(Value::from(v)));
        Ok(())
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.0.not_array("a string", Some(Value::from(v)));
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.not_array("null", Some(Value::Null));
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Checking.

/// What the batch has said about one list id so far.
struct ListSeen {
    first_event: usize,
    list_name: Option<String>,
    list_logic: Option<String>,
}

/// A clicked item of a select event, checked against the views at the end of the batch.
struct Click {
    event: usize,
    item: usize,
    list_id: String,
    item_id: String,
    index: u64,
}

#[derive(Default)]
struct Checker {
    problems: Vec<Problem>,
    /// Problems found once `problems` is full.
    omitted: Omitted,
    events: usize,
    /// List ids named by view events.
    viewed: HashSet<String>,
    /// Some event might have been a view but could not be read as one.
    unsure_views: bool,
    /// Per viewed list id: item_id -> (view event, index) of the items its views showed.
    /// The flag marks an item shown more than once (then its position is ambiguous).
    shown: HashMap<String, HashMap<String, (usize, u64, bool)>>,
    /// Viewed list ids with an item that could not be read.
    incomplete: HashSet<String>,
    /// Clicked items waiting for the end of the batch.
    clicks: Vec<Click>,
    /// Select events waiting for the end of the batch: (event index, list id).
    selects: Vec<(usize, String)>,
    /// Per list id, what its first event said.
    lists: HashMap<String, ListSeen>,
    /// The first API key of the batch and the event that carried it.
    apikey: Option<(usize, String)>,
    /// Scratch space for duplicate-index detection: index -> item position.
    seen_index: HashMap<u64, usize>,
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn ev_path(i: usize, field: &str) -> String {
    format!("[{i}].{field}")
}

fn item_path(i: usize, j: usize, field: &str) -> String {
    format!("[{i}].items[{j}].{field}")
}

fn is_upper_snake(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_uppercase()
        && b[b.len() - 1] != b'_'
        && !s.contains("__")
        && b.iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
}

fn is_decimal(s: &str) -> bool {
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s, None),
    };
    !int.is_empty()
        && int.bytes().all(|c| c.is_ascii_digit())
        && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|c| c.is_ascii_digit()))
}

/// A `;` run of a length other than two (levels are separated by exactly `;;`).
fn has_odd_separator(s: &str) -> bool {
    s.split(|c| c != ';')
        .any(|run| !run.is_empty() && run.len() != 2)
}

impl Checker {
    fn push(
        &mut self,
        level: Level,
        path: String,
        code: &str,
        value: Option<Value>,
        message: String,
    ) {
        if self.problems.len() >= MAX_LISTED_PROBLEMS {
            match level {
                Level::Error => {
                    self.omitted.errors += 1;
                    self.omitted.error_events.extend(event_of_path(&path));
                }
                Level::Warning => self.omitted.warnings += 1,
            }
            return;
        }
        self.problems.push(Problem {
            level,
            path,
            code: code.to_owned(),
            value,
            message,
            line: None,
            column: None,
        });
    }

    fn not_array(&mut self, what: &str, value: Option<Value>) {
        self.push(
            Level::Error,
            String::new(),
            codes::TYPE,
            value,
            format!(
                "The body must be a JSON array of events, not {what}; wrap a single event in [ ]."
            ),
        );
    }

    /// A member that must be a string: returns it, or records why not. `required` decides
    /// between an error (`REQUIRED`) and a warning (`RECOMMENDED`) when it is missing.
    fn string<'r>(
        &mut self,
        raw: &'r Option<Raw<'_>>,
        path: impl FnOnce() -> String,
        name: &str,
        owner: &str,
        required: bool,
    ) -> Option<&'r str> {
        match raw {
            Some(Raw::Str(s)) => Some(s),
            Some(Raw::Other(v)) => {
                let msg = if name == "price" && v.is_number() {
                    "price must be a decimal number written as a JSON string (e.g. \"19.99\"), not a JSON number.".to_owned()
                } else {
                    format!("{name} must be a JSON string, not {}.", json_type(v))
                };
                self.push(Level::Error, path(), codes::TYPE, Some(v.clone()), msg);
                None
            }
            None if required => {
                self.push(
                    Level::Error,
                    path(),
                    codes::REQUIRED,
                    None,
                    format!("{name} is required in every {owner}."),
                );
                None
            }
            None => {
                self.push(
                    Level::Warning,
                    path(),
                    codes::RECOMMENDED,
                    None,
                    format!("{name} is missing; the interface document shows it in every {owner}."),
                );
                None
            }
        }
    }

    /// A required string that must not be empty.
    fn nonempty<'r>(
        &mut self,
        raw: &'r Option<Raw<'_>>,
        path: impl Fn() -> String,
        name: &str,
        owner: &str,
    ) -> Option<&'r str> {
        let s = self.string(raw, &path, name, owner, true)?;
        if s.trim().is_empty() {
            self.push(
                Level::Error,
                path(),
                codes::EMPTY,
                Some(Value::from(s)),
                format!("{name} must not be empty."),
            );
            return None;
        }
        Some(s)
    }

    fn check_dups(&mut self, dups: &[&'static str], path: impl Fn(&str) -> String) {
        for name in dups {
            self.push(
                Level::Error,
                path(name),
                codes::DUPLICATE_FIELD,
                None,
                format!("{name} appears more than once in the same object; a reader keeps only one of them."),
            );
        }
    }

    fn check_event(&mut self, i: usize, ev: Shaped<EventRec<'_>>) {
        let ev = match ev {
            Shaped::Ok(ev) => ev,
            Shaped::Wrong(v) => {
                let msg = format!(
                    "Each element of the batch must be an event object, not {}.",
                    json_type(&v)
                );
                self.push(Level::Error, format!("[{i}]"), codes::TYPE, Some(v), msg);
                return;
            }
        };
        self.check_dups(&ev.dups, |n| ev_path(i, n));

        let kind = self.nonempty(&ev.event, || ev_path(i, "event"), "event", "event");
        if let Some(k) = kind {
            if !KNOWN_EVENTS.contains(&k) {
                let hint = KNOWN_EVENTS
                    .iter()
                    .find(|known| known.eq_ignore_ascii_case(k.trim()))
                    .map(|known| format!(" (did you mean \"{known}\"?)"))
                    .unwrap_or_default();
                self.push(
                    Level::Error,
                    ev_path(i, "event"),
                    codes::UNKNOWN_EVENT,
                    Some(Value::from(k)),
                    format!("event must be \"view_recs_list\" or \"select_recs_list\"{hint}."),
                );
            }
        }
        let kind_unreadable = kind.is_none();
        let kind = kind.filter(|k| KNOWN_EVENTS.contains(k));

        if let Some(key) = self.nonempty(
            &ev.apikey,
            || ev_path(i, "event_apikey"),
            "event_apikey",
            "event",
        ) {
            match &self.apikey {
                None => self.apikey = Some((i, key.to_owned())),
                Some((first, k)) if k != key => {
                    let msg = format!("event_apikey differs from the one of event [{first}] (\"{k}\"); one batch normally carries one account's key.");
                    self.push(
                        Level::Warning,
                        ev_path(i, "event_apikey"),
                        codes::MISMATCH,
                        Some(Value::from(key)),
                        msg,
                    );
                }
                Some(_) => {}
            }
        }

        let list_id = self.nonempty(
            &ev.list_id,
            || ev_path(i, "event_list_id"),
            "event_list_id",
            "event",
        );

        match &ev.tags {
            None => self.push(
                Level::Warning,
                ev_path(i, "event_tags"),
                codes::RECOMMENDED,
                None,
                "event_tags is missing; the interface document shows it in every event (e.g. [\"recsPageType:HOME\"]).".to_owned(),
            ),
            Some(Shaped::Wrong(v)) => {
                let msg = format!("event_tags must be an array of \"name:value\" strings, not {}.", json_type(v));
                self.push(Level::Error, ev_path(i, "event_tags"), codes::TYPE, Some(v.clone()), msg);
            }
            Some(Shaped::Ok(tags)) => {
                for (t, tag) in tags.iter().enumerate() {
                    self.check_tag(i, t, tag);
                }
            }
        }

        let list_name = self.string(
            &ev.list_name,
            || ev_path(i, "event_list_name"),
            "event_list_name",
            "event",
            false,
        );
        if list_name.is_some_and(|s| s.trim().is_empty()) {
            self.push(
                Level::Warning,
                ev_path(i, "event_list_name"),
                codes::EMPTY,
                list_name.map(Value::from),
                "event_list_name is empty; it is the human-readable name of the list.".to_owned(),
            );
        }

        let mut logic = self.string(
            &ev.list_logic,
            || ev_path(i, "event_list_logic"),
            "event_list_logic",
            "event",
            false,
        );
        if let Some(l) = logic {
            if !is_upper_snake(l) {
                let upper = l.trim().to_ascii_uppercase().replace([' ', '-'], "_");
                let hint = if KNOWN_LIST_LOGICS.contains(&upper.as_str()) {
                    format!(" (write \"{upper}\")")
                } else {
                    String::new()
                };
                self.push(
                    Level::Error,
                    ev_path(i, "event_list_logic"),
                    codes::FORMAT,
                    Some(Value::from(l)),
                    format!("event_list_logic must be upper case with underscores, like TRENDING or BOUGHT_TOGETHER{hint}."),
                );
                // Already reported; do not compare it with the other events of the list.
                logic = None;
            }
        }

        match &ev.profile {
            None => {}
            Some(Shaped::Wrong(v)) => {
                let msg = format!("user_profile must be an object, not {}.", json_type(v));
                self.push(
                    Level::Error,
                    ev_path(i, "user_profile"),
                    codes::TYPE,
                    Some(v.clone()),
                    msg,
                );
            }
            Some(Shaped::Ok(p)) => {
                self.check_dups(&p.dups, |n| format!("[{i}].user_profile.{n}"));
                let path = || format!("[{i}].user_profile.ip_address");
                if let Some(ip) = self.string(&p.ip, path, "ip_address", "user_profile", false) {
                    if ip.parse::<Ipv4Addr>().is_err() {
                        self.push(
                            Level::Error,
                            path(),
                            codes::FORMAT,
                            Some(Value::from(ip)),
                            "user_profile.ip_address must be a dotted IPv4 address such as 203.0.113.7.".to_owned(),
                        );
                    }
                }
            }
        }

        match &ev.items {
            None => self.push(
                Level::Error,
                ev_path(i, "items"),
                codes::REQUIRED,
                None,
                "items is required in every event.".to_owned(),
            ),
            Some(Shaped::Wrong(v)) => {
                let msg = format!(
                    "items must be an array of item objects, not {}.",
                    json_type(v)
                );
                self.push(
                    Level::Error,
                    ev_path(i, "items"),
                    codes::TYPE,
                    Some(v.clone()),
                    msg,
                );
            }
            Some(Shaped::Ok(items)) => {
                if items.is_empty() {
                    self.push(
                        Level::Warning,
                        ev_path(i, "items"),
                        codes::EMPTY,
                        Some(Value::Array(vec![])),
                        "items is empty; an event reports the products of the list it concerns."
                            .to_owned(),
                    );
                } else if kind == Some(SELECT_RECS_LIST) && items.len() > 1 {
                    let msg = format!("A select_recs_list event normally carries only the clicked item, this one has {}.", items.len());
                    self.push(
                        Level::Warning,
                        ev_path(i, "items"),
                        codes::SELECT_ITEMS,
                        None,
                        msg,
                    );
                }
                self.seen_index.clear();
                // Items shown by the views of this list so far, to check clicks against.
                let mut shown = match (kind, list_id) {
                    (Some(VIEW_RECS_LIST), Some(id)) => {
                        Some(self.shown.remove(id).unwrap_or_default())
                    }
                    _ => None,
                };
                for (j, item) in items.iter().enumerate() {
                    let Some((item_id, index)) = self.check_item(i, j, item) else {
                        if let (Some(VIEW_RECS_LIST), Some(id)) = (kind, list_id) {
                            // A view item we cannot read: do not second-guess this list's clicks.
                            self.incomplete.insert(id.to_owned());
                        }
                        continue;
                    };
                    if let Some(shown) = &mut shown {
                        if let Some(seen) = shown.get_mut(item_id) {
                            seen.2 = true;
                        } else {
                            shown.insert(item_id.to_owned(), (i, index, false));
                        }
                    } else if let (Some(SELECT_RECS_LIST), Some(id)) = (kind, list_id) {
                        self.clicks.push(Click {
                            event: i,
                            item: j,
                            list_id: id.to_owned(),
                            item_id: item_id.to_owned(),
                            index,
                        });
                    }
                }
                if let (Some(shown), Some(id)) = (shown, list_id) {
                    self.shown.insert(id.to_owned(), shown);
                }
            }
        }

        // Cross-event bookkeeping. An event whose kind or (for a view) list id is unusable might
        // have been the view of a later select: then LIST_NOT_VIEWED would only be noise.
        if kind_unreadable || (kind == Some(VIEW_RECS_LIST) && list_id.is_none()) {
            self.unsure_views = true;
        }
        if let (Some(kind), Some(id)) = (kind, list_id) {
            if kind == VIEW_RECS_LIST {
                if !self.viewed.contains(id) {
                    self.viewed.insert(id.to_owned());
                }
            } else {
                self.selects.push((i, id.to_owned()));
            }
        }
        if let Some(id) = list_id {
            self.check_list_consistency(i, id, list_name, logic);
        }
    }

    fn check_list_consistency(
        &mut self,
        i: usize,
        id: &str,
        name: Option<&str>,
        logic: Option<&str>,
    ) {
        let Some(seen) = self.lists.get(id) else {
            self.lists.insert(
                id.to_owned(),
                ListSeen {
                    first_event: i,
                    list_name: name.map(str::to_owned),
                    list_logic: logic.map(str::to_owned),
                },
            );
            return;
        };
        let first = seen.first_event;
        let mut found = Vec::new();
        if let (Some(a), Some(b)) = (seen.list_name.as_deref(), name) {
            if a != b {
                found.push(("event_list_name", a.to_owned(), b.to_owned()));
            }
        }
        if let (Some(a), Some(b)) = (seen.list_logic.as_deref(), logic) {
            if a != b {
                found.push(("event_list_logic", a.to_owned(), b.to_owned()));
            }
        }
        for (field, a, b) in found {
            self.push(
                Level::Warning,
                ev_path(i, field),
                codes::MISMATCH,
                Some(Value::from(b)),
                format!("{field} differs from event [{first}] (\"{a}\") of the same list id; the events of one list share it."),
            );
        }
    }

    fn check_tag(&mut self, i: usize, t: usize, tag: &Raw<'_>) {
        let path = || format!("[{i}].event_tags[{t}]");
        let s = match tag {
            Raw::Str(s) => s,
            Raw::Other(v) => {
                let msg = format!(
                    "Each entry of event_tags must be a \"name:value\" string, not {}.",
                    json_type(v)
                );
                self.push(Level::Error, path(), codes::TYPE, Some(v.clone()), msg);
                return;
            }
        };
        match s.split_once(':') {
            Some((name, value)) if !name.trim().is_empty() && !value.trim().is_empty() => {
                if name == PAGE_TYPE_TAG && value != value.to_ascii_uppercase() {
                    let msg = format!(
                        "The vendor's scripts send page types in upper case: write \"{PAGE_TYPE_TAG}:{}\".",
                        value.to_ascii_uppercase()
                    );
                    self.push(Level::Warning, path(), codes::PAGE_TYPE_CASE, Some(Value::from(&**s)), msg);
                }
            }
            _ => self.push(
                Level::Error,
                path(),
                codes::FORMAT,
                Some(Value::from(&**s)),
                "Each entry of event_tags has the form name:value (e.g. \"recsPageType:HOME\"), with a non-empty name and value.".to_owned(),
            ),
        }
    }

    /// Checks one item; returns its item_id and index when both are usable.
    fn check_item<'r>(
        &mut self,
        i: usize,
        j: usize,
        item: &'r Shaped<ItemRec<'_>>,
    ) -> Option<(&'r str, u64)> {
        let it = match item {
            Shaped::Ok(it) => it,
            Shaped::Wrong(v) => {
                let msg = format!(
                    "Each entry of items must be an item object, not {}.",
                    json_type(v)
                );
                self.push(
                    Level::Error,
                    format!("[{i}].items[{j}]"),
                    codes::TYPE,
                    Some(v.clone()),
                    msg,
                );
                return None;
            }
        };
        self.check_dups(&it.dups, |n| item_path(i, j, n));
        let id = self.nonempty(
            &it.item_id,
            || item_path(i, j, "item_id"),
            "item_id",
            "item",
        );
        let group = self.nonempty(
            &it.group,
            || item_path(i, j, "item_group_id"),
            "item_group_id",
            "item",
        );
        let variant = self.nonempty(
            &it.variant,
            || item_path(i, j, "item_variant_id"),
            "item_variant_id",
            "item",
        );
        let mut usable_id = None;
        if let (Some(id), Some(g), Some(v)) = (id, group, variant) {
            usable_id = Some(id);
            if id.len() != g.len() + 1 + v.len()
                || !id.starts_with(g)
                || !id.ends_with(v)
                || id.as_bytes()[g.len()] != b'-'
            {
                usable_id = None;
                self.push(
                    Level::Error,
                    item_path(i, j, "item_id"),
                    codes::MISMATCH,
                    Some(Value::from(id)),
                    format!("item_id must equal item_group_id + \"-\" + item_variant_id, here \"{g}-{v}\"."),
                );
            }
        }
        self.string(
            &it.name,
            || item_path(i, j, "item_name"),
            "item_name",
            "item",
            false,
        );
        self.string(
            &it.brand,
            || item_path(i, j, "item_brand"),
            "item_brand",
            "item",
            false,
        );
        if let Some(c) = self.string(
            &it.category,
            || item_path(i, j, "item_category"),
            "item_category",
            "item",
            false,
        ) {
            if has_odd_separator(c) {
                self.push(
                    Level::Warning,
                    item_path(i, j, "item_category"),
                    codes::CATEGORY_SEPARATOR,
                    Some(Value::from(c)),
                    "item_category levels are separated by the two characters \";;\"; a single or tripled ';' is probably a mistake.".to_owned(),
                );
            }
        }
        if let Some(p) = self.string(
            &it.price,
            || item_path(i, j, "price"),
            "price",
            "item",
            true,
        ) {
            if !is_decimal(p) {
                self.push(
                    Level::Error,
                    item_path(i, j, "price"),
                    codes::FORMAT,
                    Some(Value::from(p)),
                    "price must be a non-negative decimal number written as text, with '.' as the decimal point (e.g. \"19.99\").".to_owned(),
                );
            }
        }
        if let Some(c) = self.string(
            &it.currency,
            || item_path(i, j, "currency"),
            "currency",
            "item",
            true,
        ) {
            let b = c.as_bytes();
            if !(b.len() == 3 && b.iter().all(u8::is_ascii_uppercase)) {
                let msg = if b.len() == 3 && b.iter().all(u8::is_ascii_alphabetic) {
                    format!(
                        "currency must be three upper-case letters: write \"{}\".",
                        c.to_ascii_uppercase()
                    )
                } else {
                    "currency must be three upper-case letters (an ISO 4217 code such as \"EUR\")."
                        .to_owned()
                };
                self.push(
                    Level::Error,
                    item_path(i, j, "currency"),
                    codes::FORMAT,
                    Some(Value::from(c)),
                    msg,
                );
            }
        }
        let index = self.check_index(i, j, &it.index)?;
        Some((usable_id?, index))
    }

    fn check_index(&mut self, i: usize, j: usize, raw: &Option<Raw<'_>>) -> Option<u64> {
        let path = || item_path(i, j, "index");
        let v = match raw {
            None => {
                self.push(
                    Level::Error,
                    path(),
                    codes::REQUIRED,
                    None,
                    "index is required in every item.".to_owned(),
                );
                return None;
            }
            Some(Raw::Str(s)) => {
                self.push(
                    Level::Error,
                    path(),
                    codes::TYPE,
                    Some(Value::from(&**s)),
                    "index must be a JSON integer (e.g. 1), not a string.".to_owned(),
                );
                return None;
            }
            Some(Raw::Other(v)) => v,
        };
        let n = match v {
            Value::Number(n) if n.as_u64().is_some() => n.as_u64().unwrap_or(0),
            Value::Number(n) if n.as_i64().is_some() => 0,
            _ => {
                let msg = format!(
                    "index must be a JSON integer (e.g. 1), not {}.",
                    if v.is_number() {
                        "a fraction"
                    } else {
                        json_type(v)
                    }
                );
                self.push(Level::Error, path(), codes::TYPE, Some(v.clone()), msg);
                return None;
            }
        };
        if n < 1 {
            self.push(
                Level::Error,
                path(),
                codes::FORMAT,
                Some(v.clone()),
                "index is the 1-based position in the list: the first item is 1.".to_owned(),
            );
            return None;
        }
        if let Some(first) = self.seen_index.insert(n, j) {
            // Keep the first holder for later duplicates.
            self.seen_index.insert(n, first);
            self.push(
                Level::Error,
                path(),
                codes::DUPLICATE_INDEX,
                Some(v.clone()),
                format!("index {n} is already used by [{i}].items[{first}]; each position appears once in a list."),
            );
        }
        Some(n)
    }

    fn finish(mut self) -> Report {
        let selects = if self.unsure_views {
            Vec::new()
        } else {
            std::mem::take(&mut self.selects)
        };
        for (i, id) in selects {
            if !self.viewed.contains(&id) {
                self.push(
                    Level::Warning,
                    ev_path(i, "event_list_id"),
                    codes::LIST_NOT_VIEWED,
                    Some(Value::from(id)),
                    "No view_recs_list event in this batch names this list id; fine if the view was sent earlier, otherwise the click has no impression.".to_owned(),
                );
            }
        }
        let clicks = if self.unsure_views {
            Vec::new()
        } else {
            std::mem::take(&mut self.clicks)
        };
        for c in clicks {
            if self.incomplete.contains(&c.list_id) {
                continue;
            }
            let Some(shown) = self.shown.get(&c.list_id) else {
                continue; // LIST_NOT_VIEWED already says it
            };
            match shown.get(&c.item_id) {
                Some(&(view, index, false)) if index != c.index => {
                    let msg = format!("index differs from the position of {} in the view event [{view}] of this list ({index}); a click carries the item's position in the list.", c.item_id);
                    self.push(
                        Level::Warning,
                        item_path(c.event, c.item, "index"),
                        codes::MISMATCH,
                        Some(Value::from(c.index)),
                        msg,
                    );
                }
                Some(_) => {}
                None => self.push(
                    Level::Warning,
                    item_path(c.event, c.item, "item_id"),
                    codes::ITEM_NOT_VIEWED,
                    Some(Value::from(c.item_id)),
                    "The view_recs_list events of this list in the batch do not show this item; a click is on a shown item.".to_owned(),
                ),
            }
        }
        if self.events == 0 && self.problems.is_empty() {
            self.push(
                Level::Warning,
                String::new(),
                codes::EMPTY,
                Some(Value::Array(vec![])),
                "The batch is an empty array; it reports nothing.".to_owned(),
            );
        }
        let mut omitted = self.omitted;
        omitted.error_events.sort_unstable();
        omitted.error_events.dedup();
        Report {
            problems: self.problems,
            events: self.events,
            omitted,
        }
    }
}
