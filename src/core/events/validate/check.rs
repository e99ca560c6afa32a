//! Checking one event, the cross-event bookkeeping, and the end of the batch.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::net::Ipv4Addr;

use serde_json::Value;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::read::{EventRec, ItemRec, ProfileRec, Raw, Shaped, Skip};
use super::types::{codes, event_of_path, Level, Omitted, Problem, Report, MAX_LISTED_PROBLEMS};
use crate::core::events::model::{
    KNOWN_EVENTS, KNOWN_LIST_LOGICS, ORDER_PURCHASE, SELECT_RECS_LIST, VIEW_RECS_LIST,
};
use crate::core::events::nested::Shape;

// ---------------------------------------------------------------------------------------------
// Checking.

/// What the batch has said about one list id so far.
pub(super) struct ListSeen {
    pub(super) first_event: usize,
    pub(super) list_name: Option<String>,
    pub(super) list_logic: Option<String>,
}

/// A clicked item of a select event, checked against the views at the end of the batch.
pub(super) struct Click {
    pub(super) shape: Shape,
    pub(super) event: usize,
    pub(super) item: usize,
    pub(super) list_id: String,
    pub(super) item_id: String,
    pub(super) index: u64,
}

#[derive(Default)]
pub(super) struct Checker {
    pub(super) problems: Vec<Problem>,
    /// Problems found once `problems` is full.
    pub(super) omitted: Omitted,
    pub(super) events: usize,
    /// List ids named by view events.
    pub(super) viewed: HashSet<String>,
    /// Some event might have been a view but could not be read as one.
    pub(super) unsure_views: bool,
    /// Per viewed list id: item_id -> (view event, index) of the items its views showed.
    /// The flag marks an item shown more than once (then its position is ambiguous).
    pub(super) shown: HashMap<String, HashMap<String, (usize, u64, bool)>>,
    /// Viewed list ids with an item that could not be read.
    pub(super) incomplete: HashSet<String>,
    /// Clicked items waiting for the end of the batch.
    pub(super) clicks: Vec<Click>,
    /// Select events waiting for the end of the batch: (event index, its shape, list id).
    pub(super) selects: Vec<(usize, Shape, String)>,
    /// Per list id, what its first event said.
    pub(super) lists: HashMap<String, ListSeen>,
    /// The first API key of the batch and the event that carried it.
    pub(super) apikey: Option<(usize, String)>,
    /// Scratch space for duplicate-index detection: index -> item position.
    pub(super) seen_index: HashMap<u64, usize>,
}

pub(super) fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub(super) fn ev_path(i: usize, field: &str) -> String {
    format!("[{i}].{field}")
}

/// The name of a list-level member in a shape, as it appears in paths and messages:
/// `list_id` is `event_list_id` in the flat shape and `event_data.list_id` in the nested one
/// (`tags` is `event_tags`, `items` is `items`).
pub(super) fn field_name(shape: Shape, name: &str) -> String {
    match (shape, name) {
        (Shape::Flat, "items") => "items".to_owned(),
        (Shape::Flat, "tags") => "event_tags".to_owned(),
        (Shape::Flat, _) => format!("event_{name}"),
        (Shape::Nested, _) => format!("event_data.{name}"),
    }
}

/// The path of a list-level member of event `i` (see [`field_name`]).
pub(super) fn field_path(shape: Shape, i: usize, name: &str) -> String {
    format!("[{i}].{}", field_name(shape, name))
}

/// The path of a member of item `j` of event `i`, in the event's shape.
pub(super) fn item_path(shape: Shape, i: usize, j: usize, field: &str) -> String {
    match shape {
        Shape::Flat => format!("[{i}].items[{j}].{field}"),
        Shape::Nested => format!("[{i}].event_data.items[{j}].{field}"),
    }
}

/// The list-level members of an event, wherever its shape keeps them.
pub(super) struct ListRefs<'r, 'a> {
    pub(super) list_id: &'r Option<Raw<'a>>,
    pub(super) tags: &'r Option<Shaped<Vec<Raw<'a>>>>,
    pub(super) list_name: &'r Option<Raw<'a>>,
    pub(super) list_logic: &'r Option<Raw<'a>>,
    pub(super) items: &'r Option<Shaped<Vec<Shaped<ItemRec<'a>>>>>,
    /// `user_profile`, at the top level in both shapes.
    pub(super) profile: &'r Option<Shaped<ProfileRec<'a>>>,
    /// Whether the event has banners (`static_content`), which may stand in for items.
    pub(super) has_banners: bool,
}

pub(super) fn is_upper_snake(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_uppercase()
        && b[b.len() - 1] != b'_'
        && !s.contains("__")
        && b.iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
}

pub(super) fn is_decimal(s: &str) -> bool {
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s, None),
    };
    !int.is_empty()
        && int.bytes().all(|c| c.is_ascii_digit())
        && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|c| c.is_ascii_digit()))
}

/// An empty level in a category: a leading or trailing `;`, or a run of three or more. One `;`
/// separates levels and `;;` separates category paths (`docs/events.md` rule E10).
pub(super) fn has_empty_level(s: &str) -> bool {
    s.starts_with(';') || s.ends_with(';') || s.contains(";;;")
}

impl Checker {
    pub(super) fn push(
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

    /// `event_data` of event `i` is not an object; `holding` names what the object holds for
    /// this kind of event (docs/events.md).
    pub(super) fn event_data_not_object(&mut self, i: usize, v: &Value, holding: &str) {
        let what = format!("event_data must be an object holding {holding}");
        self.wrong_type(ev_path(i, "event_data"), &what, v);
    }

    /// A value of the wrong JSON type: "`what`, not `v`'s type."
    pub(super) fn wrong_type(&mut self, path: String, what: &str, v: &Value) {
        let msg = format!("{what}, not {}.", json_type(v));
        self.push(Level::Error, path, codes::TYPE, Some(v.clone()), msg);
    }

    pub(super) fn not_array(&mut self, what: &str, value: Option<Value>) {
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
    pub(super) fn string<'r>(
        &mut self,
        raw: &'r Option<Raw<'_>>,
        path: impl FnOnce() -> String,
        name: &str,
        owner: &str,
        required: bool,
    ) -> Option<&'r str> {
        match raw {
            Some(Raw::Str(s)) => Some(s),
            Some(Raw::Other(v)) if name == "price" && v.is_number() => {
                let msg = "price must be a decimal number written as a JSON string (e.g. \"19.99\"), not a JSON number.".to_owned();
                self.push(Level::Error, path(), codes::TYPE, Some(v.clone()), msg);
                None
            }
            Some(Raw::Other(v)) => {
                self.wrong_type(path(), &format!("{name} must be a JSON string"), v);
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
                    format!("{name} is missing; it is expected in every {owner}."),
                );
                None
            }
        }
    }

    /// A required string that must not be empty.
    pub(super) fn nonempty<'r>(
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

    pub(super) fn check_dups(&mut self, dups: &[&'static str], path: impl Fn(&str) -> String) {
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

    pub(super) fn check_event(&mut self, i: usize, ev: Shaped<EventRec<'_>>) {
        let ev = match ev {
            Shaped::Ok(ev) => ev,
            Shaped::Wrong(v) => {
                let what = "Each element of the batch must be an event object";
                self.wrong_type(format!("[{i}]"), what, &v);
                return;
            }
        };
        self.check_dups(&ev.dups, |n| ev_path(i, n));

        let (kind, kind_unreadable) = self.check_kind(i, &ev);
        self.check_apikey(i, &ev);

        if kind == Some(ORDER_PURCHASE) {
            self.check_order(i, &ev);
            return;
        }
        match &ev.data {
            None => self.check_list(
                i,
                Shape::Flat,
                kind,
                kind_unreadable,
                ListRefs {
                    list_id: &ev.list_id,
                    tags: &ev.tags,
                    list_name: &ev.list_name,
                    list_logic: &ev.list_logic,
                    items: &ev.items,
                    profile: &ev.profile,
                    has_banners: false,
                },
            ),
            Some(Shaped::Wrong(v)) => {
                self.event_data_not_object(i, v, "list_id, list_name, list_logic and items");
                if kind.is_none() || kind == Some(VIEW_RECS_LIST) {
                    self.unsure_views = true;
                }
            }
            Some(Shaped::Ok(d)) => {
                self.check_nested(i, &ev, d);
                self.check_list(
                    i,
                    Shape::Nested,
                    kind,
                    kind_unreadable,
                    ListRefs {
                        list_id: &d.list_id,
                        tags: &d.tags,
                        list_name: &d.list_name,
                        list_logic: &d.list_logic,
                        items: &d.items,
                        profile: &ev.profile,
                        has_banners: matches!(&d.banners, Some(Shaped::Ok(b)) if !b.is_empty()),
                    },
                );
            }
        }
    }

    /// `event`: present, a string, one of the known kinds (with a hint for a case slip). Returns
    /// the known kind, and whether the member could not be read at all.
    fn check_kind<'r>(&mut self, i: usize, ev: &'r EventRec<'_>) -> (Option<&'r str>, bool) {
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
                    format!("event must be \"view_recs_list\", \"select_recs_list\" or \"order_purchase\"{hint}."),
                );
            }
        }
        (kind.filter(|k| KNOWN_EVENTS.contains(k)), kind.is_none())
    }

    /// `event_apikey`: present, and the same as the batch's first one.
    fn check_apikey(&mut self, i: usize, ev: &EventRec<'_>) {
        let Some(key) = self.nonempty(
            &ev.apikey,
            || ev_path(i, "event_apikey"),
            "event_apikey",
            "event",
        ) else {
            return;
        };
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

    /// The list-level members and items of one event, in either shape.
    fn check_list(
        &mut self,
        i: usize,
        shape: Shape,
        kind: Option<&str>,
        kind_unreadable: bool,
        l: ListRefs<'_, '_>,
    ) {
        let list_id = self.nonempty(
            l.list_id,
            || field_path(shape, i, "list_id"),
            &field_name(shape, "list_id"),
            "event",
        );
        self.check_tags(shape, i, l.tags);
        let list_name = self.check_list_name(shape, i, l.list_name);
        let logic = self.check_list_logic(shape, i, l.list_logic);
        self.check_profile(i, shape, l.profile, false);
        self.check_items(shape, i, kind, list_id, &l);
        self.note_list(shape, i, kind, kind_unreadable, list_id);
        if let Some(id) = list_id {
            self.check_list_consistency(shape, i, id, list_name, logic);
        }
    }

    /// `event_tags`: expected in the flat shape, an array of `name:value` strings.
    fn check_tags(&mut self, shape: Shape, i: usize, tags: &Option<Shaped<Vec<Raw<'_>>>>) {
        match tags {
            None if shape == Shape::Nested => {}
            None => self.push(
                Level::Warning,
                field_path(shape, i, "tags"),
                codes::RECOMMENDED,
                None,
                "event_tags is missing; it is expected in every flat-shape event (e.g. [\"recsPageType:HOME\"]).".to_owned(),
            ),
            Some(Shaped::Wrong(v)) => {
                let what = format!("{} must be an array of \"name:value\" strings", field_name(shape, "tags"));
                self.wrong_type(field_path(shape, i, "tags"), &what, v);
            }
            Some(Shaped::Ok(tags)) => {
                for (t, tag) in tags.iter().enumerate() {
                    self.check_tag(shape, i, t, tag);
                }
            }
        }
    }

    /// `list_name`: a string, and not blank. Returns it, to compare with the list's other events.
    fn check_list_name<'r>(
        &mut self,
        shape: Shape,
        i: usize,
        raw: &'r Option<Raw<'_>>,
    ) -> Option<&'r str> {
        let list_name = self.string(
            raw,
            || field_path(shape, i, "list_name"),
            &field_name(shape, "list_name"),
            "event",
            false,
        );
        if list_name.is_some_and(|s| s.trim().is_empty()) {
            self.push(
                Level::Warning,
                field_path(shape, i, "list_name"),
                codes::EMPTY,
                list_name.map(Value::from),
                format!(
                    "{} is empty; it is the human-readable name of the list.",
                    field_name(shape, "list_name")
                ),
            );
        }
        list_name
    }

    /// `list_logic`: upper snake case. Returns it when it is, to compare with the list's other
    /// events (a malformed one is reported once, here).
    fn check_list_logic<'r>(
        &mut self,
        shape: Shape,
        i: usize,
        raw: &'r Option<Raw<'_>>,
    ) -> Option<&'r str> {
        let mut logic = self.string(
            raw,
            || field_path(shape, i, "list_logic"),
            &field_name(shape, "list_logic"),
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
                    field_path(shape, i, "list_logic"),
                    codes::FORMAT,
                    Some(Value::from(l)),
                    format!("{} must be upper case with underscores, like TRENDING or BOUGHT_TOGETHER{hint}.", field_name(shape, "list_logic")),
                );
                // Already reported; do not compare it with the other events of the list.
                logic = None;
            }
        }
        logic
    }

    /// `items`: required unless banners stand in for them, an array of items; each item is
    /// checked and remembered for the end of the batch.
    fn check_items(
        &mut self,
        shape: Shape,
        i: usize,
        kind: Option<&str>,
        list_id: Option<&str>,
        l: &ListRefs<'_, '_>,
    ) {
        match l.items {
            // A nested event may report banners only.
            None if l.has_banners => {}
            None => self.push(
                Level::Error,
                field_path(shape, i, "items"),
                codes::REQUIRED,
                None,
                match shape {
                    Shape::Flat => "items is required in every event.".to_owned(),
                    Shape::Nested => "event_data.items is required in every nested event that has no static_content.".to_owned(),
                },
            ),
            Some(Shaped::Wrong(v)) => {
                let what = format!("{} must be an array of item objects", field_name(shape, "items"));
                self.wrong_type(field_path(shape, i, "items"), &what, v);
            }
            Some(Shaped::Ok(items)) => {
                self.check_item_count(shape, i, kind, items.len());
                self.note_items(shape, i, kind, list_id, items);
            }
        }
    }

    /// An empty item list, or a select event with more than its clicked item.
    fn check_item_count(&mut self, shape: Shape, i: usize, kind: Option<&str>, count: usize) {
        if count == 0 {
            self.push(
                Level::Warning,
                field_path(shape, i, "items"),
                codes::EMPTY,
                Some(Value::Array(vec![])),
                format!(
                    "{} is empty; an event reports the products of the list it concerns.",
                    field_name(shape, "items")
                ),
            );
        } else if kind == Some(SELECT_RECS_LIST) && count > 1 {
            let msg = format!(
                "A select_recs_list event normally carries only the clicked item, this one has {}.",
                count
            );
            self.push(
                Level::Warning,
                field_path(shape, i, "items"),
                codes::SELECT_ITEMS,
                None,
                msg,
            );
        }
    }

    /// Checks each item, and remembers what a view showed (to check clicks against) and what a
    /// select clicked (checked at the end of the batch).
    fn note_items(
        &mut self,
        shape: Shape,
        i: usize,
        kind: Option<&str>,
        list_id: Option<&str>,
        items: &[Shaped<ItemRec<'_>>],
    ) {
        self.seen_index.clear();
        // Items shown by the views of this list so far, to check clicks against.
        let mut shown = match (kind, list_id) {
            (Some(VIEW_RECS_LIST), Some(id)) => Some(self.shown.remove(id).unwrap_or_default()),
            _ => None,
        };
        for (j, item) in items.iter().enumerate() {
            let Some((item_id, index)) = self.check_item(shape, i, j, item) else {
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
                    shape,
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

    /// Cross-event bookkeeping: the lists viewed, the selects to check at the end of the batch.
    fn note_list(
        &mut self,
        shape: Shape,
        i: usize,
        kind: Option<&str>,
        kind_unreadable: bool,
        list_id: Option<&str>,
    ) {
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
                self.selects.push((i, shape, id.to_owned()));
            }
        }
    }

    /// `user_profile`: `{sessionId?, ip_address?}` of a recommendation event, or
    /// `{ip_address?, email?}` of an `order_purchase` (`order`). An empty array is the PHP SDK's
    /// empty profile (PHP encodes an empty map as `[]`): nothing to check.
    pub(super) fn check_profile(
        &mut self,
        i: usize,
        shape: Shape,
        profile: &Option<Shaped<ProfileRec<'_>>>,
        order: bool,
    ) {
        match profile {
            None => {}
            Some(Shaped::Wrong(Value::Array(a))) if a.is_empty() => {}
            // A nested event's null profile is an absent one (rule E17).
            Some(Shaped::Wrong(Value::Null)) if shape == Shape::Nested => {}
            Some(Shaped::Wrong(v)) => {
                self.wrong_type(
                    ev_path(i, "user_profile"),
                    "user_profile must be an object",
                    v,
                );
            }
            Some(Shaped::Ok(p)) => {
                self.check_dups(&p.dups, |n| format!("[{i}].user_profile.{n}"));
                for (name, raw) in [("sessionId", &p.session), ("email", &p.email)] {
                    if let Some(Raw::Other(v)) = raw {
                        let what = format!("user_profile.{name} must be a JSON string");
                        self.wrong_type(format!("[{i}].user_profile.{name}"), &what, v);
                    }
                }
                let path = || format!("[{i}].user_profile.ip_address");
                // The nested shape's profile is {sessionId?, ip_address?}: nothing expected.
                let optional = shape == Shape::Nested && p.ip.is_none();
                let ip = if optional {
                    None
                } else {
                    self.string(&p.ip, path, "ip_address", "user_profile", false)
                };
                let Some(ip) = ip else { return };
                if order {
                    // The order-sync module sends the shopper's address as the shop saw it,
                    // IPv6 included; the PHP SDK's validator does not check it.
                    if ip.parse::<std::net::IpAddr>().is_err() {
                        self.push(
                            Level::Warning,
                            path(),
                            codes::FORMAT,
                            Some(Value::from(ip)),
                            "user_profile.ip_address is not an IP address such as 203.0.113.7 or 2001:db8::7.".to_owned(),
                        );
                    }
                } else if ip.parse::<Ipv4Addr>().is_err() {
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

    pub(super) fn check_list_consistency(
        &mut self,
        shape: Shape,
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
        let found: Vec<(String, String, &str)> = [
            ("list_name", &seen.list_name, name),
            ("list_logic", &seen.list_logic, logic),
        ]
        .into_iter()
        .filter_map(|(member, a, b)| match (a.as_deref(), b) {
            (Some(a), Some(b)) if a != b => Some((field_name(shape, member), a.to_owned(), b)),
            _ => None,
        })
        .collect();
        for (field, a, b) in found {
            self.push(
                Level::Warning,
                format!("[{i}].{field}"),
                codes::MISMATCH,
                Some(Value::from(b)),
                format!("{field} differs from event [{first}] (\"{a}\") of the same list id; the events of one list share it."),
            );
        }
    }

    pub(super) fn finish(mut self) -> Report {
        if self.unsure_views {
            self.selects.clear();
            self.clicks.clear();
        }
        for (i, shape, id) in std::mem::take(&mut self.selects) {
            if !self.viewed.contains(&id) {
                self.push(
                    Level::Warning,
                    field_path(shape, i, "list_id"),
                    codes::LIST_NOT_VIEWED,
                    Some(Value::from(id)),
                    "No view_recs_list event in this batch names this list id; fine if the view was sent earlier, otherwise the click has no impression.".to_owned(),
                );
            }
        }
        for c in std::mem::take(&mut self.clicks) {
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
                        item_path(c.shape, c.event, c.item, "index"),
                        codes::MISMATCH,
                        Some(Value::from(c.index)),
                        msg,
                    );
                }
                Some(_) => {}
                None => self.push(
                    Level::Warning,
                    item_path(c.shape, c.event, c.item, "item_id"),
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

/// Reads the body: an array of events, each checked as soon as it is read.
pub(super) struct RootSeed<'c>(pub(super) &'c mut Checker);

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
