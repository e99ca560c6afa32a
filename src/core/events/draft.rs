//! A batch read back into a [`ListDraft`] (the composer's form), and the form written out again
//! with everything it does not show put back (rules of the shapes: `docs/events.md`).
//!
//! The form holds one recommendation list: the first `view_recs_list` event gives the list and its
//! items, and `select_recs_list` events of the same list that carry one of its items mark that
//! item clicked. What the form cannot show is kept in [`Unshown`]: unknown members (of the view
//! event, of the first select event, of `user_profile`, of each item), whole events that are not
//! part of the list, and the item members whose value as read differs from what the form would
//! write (an `index` that is not the item's position, an `item_id` that is not group-variant, a
//! price given as a number, a member left out). Writing the form back with [`form_batch`] puts
//! them where they were, so a batch read and written back is the same batch: the form never
//! renumbers or re-derives silently. The derived values are applied only when asked for
//! ([`Unshown::derive_ids`], a key in the workbench); editing a cell makes the form's value the
//! one written for that member (`docs/events.md`, "The composer").

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Serialize;
use serde_json::{Map, Value};

use super::compose::{ItemDraft, ListDraft};
use super::model::{Event, Item, UserProfile, SELECT_RECS_LIST, VIEW_RECS_LIST};
use super::nested::{Shape, DATA_ONLY, EVENT_VERSION};

/// Flat members and their names inside a nested event's `event_data`.
const DATA_NAMES: [(&str, &str); 5] = [
    ("event_list_id", "list_id"),
    ("event_list_name", "list_name"),
    ("event_list_logic", "list_logic"),
    ("event_tags", "tags"),
    ("items", "items"),
];

/// A nested event (`event_version`, `event_data`) as a flat one, every value kept: the
/// `event_data` members move to the top level under their flat names; an `event_version` other
/// than the SDK's own is kept as a member. A flat event is returned as it is.
pub fn nested_to_flat(event: &Value) -> Value {
    let Some(obj) = event.as_object() else {
        return event.clone();
    };
    let Some(Value::Object(data)) = obj.get("event_data") else {
        return event.clone();
    };
    let mut out = Map::new();
    for (k, v) in obj {
        match k.as_str() {
            "event_data" => {
                for (dk, dv) in data {
                    let name = DATA_NAMES
                        .iter()
                        .find(|(_, n)| n == dk)
                        .map_or(dk.as_str(), |(f, _)| f);
                    out.entry(name.to_string()).or_insert_with(|| dv.clone());
                }
            }
            "event_version" if v.as_str() == Some(EVENT_VERSION) => {}
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

/// A flat event in the nested shape, every value kept: the list members (and `action`,
/// `spot_*`, `segment_*`, `static_content`) move into `event_data`; `event_version` is the one
/// the event carries, else the SDK's. A nested event is returned as it is.
pub fn flat_to_nested(event: &Value) -> Value {
    let Some(obj) = event.as_object() else {
        return event.clone();
    };
    if obj.contains_key("event_data") {
        return event.clone();
    }
    let mut out = Map::new();
    let mut data = Map::new();
    let version = obj
        .get("event_version")
        .cloned()
        .unwrap_or_else(|| Value::from(EVENT_VERSION));
    for (k, v) in obj {
        if let Some((_, n)) = DATA_NAMES.iter().find(|(f, _)| f == k) {
            data.insert((*n).to_string(), v.clone());
        } else if DATA_ONLY.contains(&k.as_str()) {
            data.insert(k.clone(), v.clone());
        } else if k == "event" {
            out.insert(k.clone(), v.clone());
            out.insert("event_version".into(), version.clone());
        } else if k != "event_version" {
            out.insert(k.clone(), v.clone());
        }
    }
    out.entry("event_version").or_insert(version);
    out.insert("event_data".into(), Value::Object(data));
    Value::Object(out)
}

/// Every event of a batch in `shape`.
pub fn batch_in_shape(batch: &Value, shape: Shape) -> Value {
    match batch.as_array() {
        Some(events) => Value::Array(
            events
                .iter()
                .map(|e| match shape {
                    Shape::Flat => nested_to_flat(e),
                    Shape::Nested => flat_to_nested(e),
                })
                .collect(),
        ),
        None => batch.clone(),
    }
}

/// Why a batch cannot be read into the form (the raw JSON editor still can hold it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DraftError {
    #[error("the batch must be a JSON array of events")]
    NotAnArray,
    #[error("the first event of the batch is not a JSON object")]
    EventNotAnObject,
    #[error("{0} of the view event is not {1}")]
    WrongType(&'static str, &'static str),
    #[error("an item of the view event is not a JSON object")]
    ItemNotAnObject,
}

/// Members of the batch the form does not show, kept so that nothing read is lost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Unshown {
    /// Unknown members of the view event.
    pub view: Map<String, Value>,
    /// Unknown members of the first select event (given to every select event written).
    pub select: Map<String, Value>,
    /// Members of `user_profile` other than `ip_address`.
    pub user_profile: Map<String, Value>,
    /// Per item row, same order as the draft's items.
    pub items: Vec<ItemRest>,
    /// Events that are neither the list's view event nor one of its select events.
    pub other_events: Vec<Value>,
    /// The shape the batch is written in: the shape of its first event as read (a batch read in
    /// the nested shape is written back nested), switched by the composer.
    pub shape: Shape,
}

/// A known item member as read: its value, or `None` when the batch left it out.
pub type AsRead = BTreeMap<String, Option<Value>>;

/// What one item row keeps beside its [`ItemDraft`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ItemRest {
    /// Members the model does not know.
    pub unknown: Map<String, Value>,
    /// Known members whose value as read differs from what the form writes (see the module
    /// documentation); written instead of the form's value.
    pub as_read: AsRead,
    /// The same for the item of the row's select event (a click), compared with the view item.
    pub select_as_read: AsRead,
}

impl ItemRest {
    /// The user set `member` in the form: the form's value is the one written from now on.
    pub fn edited(&mut self, member: &str) {
        self.as_read.remove(member);
        self.select_as_read.remove(member);
    }

    /// Whether the row writes `member` as read rather than as the form derives it.
    pub fn keeps(&self, member: &str) -> bool {
        self.as_read.contains_key(member) || self.select_as_read.contains_key(member)
    }
}

/// The members the form derives from the others: `item_id` (group-variant) and `index` (the
/// 1-based position in the list).
pub const DERIVED_MEMBERS: [&str; 2] = ["item_id", "index"];

impl Unshown {
    /// Keep one entry per item of `draft` (new rows have nothing unshown).
    pub fn fit(&mut self, draft: &ListDraft) {
        self.items.resize(draft.items.len(), ItemRest::default());
    }

    /// Number of rows that write an `item_id` or `index` other than the derived one.
    pub fn rows_with_ids_as_read(&self) -> usize {
        self.items
            .iter()
            .filter(|r| DERIVED_MEMBERS.iter().any(|m| r.keeps(m)))
            .count()
    }

    /// Apply the derived `item_id` and `index` to every row (the user asked for it); returns
    /// the number of rows that changed.
    pub fn derive_ids(&mut self) -> usize {
        let n = self.rows_with_ids_as_read();
        for row in &mut self.items {
            for m in DERIVED_MEMBERS {
                row.edited(m);
            }
        }
        n
    }
}

/// The known members of `read` whose value differs from `written` (`None`: left out).
fn differences(read: &Map<String, Value>, written: &Value) -> AsRead {
    ITEM_MEMBERS
        .iter()
        .filter_map(|m| match (read.get(m), written.get(m)) {
            (Some(a), Some(b)) if a == b => None,
            (Some(a), _) => Some((m.clone(), Some(a.clone()))),
            (None, Some(_)) => Some((m.clone(), None)),
            (None, None) => None,
        })
        .collect()
}

/// Write the members kept as read over an item the form built.
fn apply_as_read(item: &mut Value, as_read: &AsRead) {
    let Some(obj) = item.as_object_mut() else {
        return;
    };
    for (k, v) in as_read {
        match v {
            Some(v) => {
                obj.insert(k.clone(), v.clone());
            }
            None => {
                obj.shift_remove(k);
            }
        }
    }
}

/// The members a serialized value has (all of its optional members set).
fn member_names<T: Serialize>(full: &T) -> Vec<String> {
    match serde_json::to_value(full) {
        Ok(Value::Object(map)) => map.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// Members of an event the form shows, as the model names them.
static EVENT_MEMBERS: LazyLock<Vec<String>> = LazyLock::new(|| {
    member_names(&Event {
        event_tags: Some(Vec::new()),
        event_list_name: Some(String::new()),
        event_list_logic: Some(String::new()),
        user_profile: Some(UserProfile::default()),
        ..Event::default()
    })
});

/// Members of an item the form shows or derives (`item_id`, `index`), as the model names them.
static ITEM_MEMBERS: LazyLock<Vec<String>> = LazyLock::new(|| {
    member_names(&Item {
        item_name: Some(String::new()),
        item_brand: Some(String::new()),
        item_category: Some(String::new()),
        ..Item::default()
    })
});

/// Members of `user_profile` the form shows.
static PROFILE_MEMBERS: LazyLock<Vec<String>> = LazyLock::new(|| {
    member_names(&UserProfile {
        ip_address: Some(String::new()),
        ..UserProfile::default()
    })
});

/// The text a form cell shows for a member: strings as they are, anything else as JSON.
fn str_of(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

fn unknown_members(obj: &Map<String, Value>, known: &[String]) -> Map<String, Value> {
    obj.iter()
        .filter(|(k, _)| !known.iter().any(|m| m == *k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn is_kind(event: &Value, kind: &str) -> bool {
    event.get("event").and_then(Value::as_str) == Some(kind)
}

/// Read a batch into the form: the first `view_recs_list` event (else the first event) gives the
/// list and its items; `select_recs_list` events of the same list carrying one of its items mark
/// that item clicked. Anything else is kept aside in [`Unshown`].
pub fn draft_from_value(value: &Value) -> Result<(ListDraft, Unshown), DraftError> {
    let events = value.as_array().ok_or(DraftError::NotAnArray)?;
    // Nested events are read as flat ones (every value kept), and written back nested.
    let shape = events.first().map_or(Shape::Flat, Shape::of);
    let flat: Vec<Value>;
    let events = if events.iter().any(|e| Shape::of(e) == Shape::Nested) {
        flat = events.iter().map(nested_to_flat).collect();
        &flat
    } else {
        events
    };
    let view_pos = events
        .iter()
        .position(|e| is_kind(e, VIEW_RECS_LIST))
        .or(if events.is_empty() { None } else { Some(0) });
    let mut unshown = Unshown {
        shape,
        ..Unshown::default()
    };
    let mut draft = ListDraft::default();
    let Some(view_pos) = view_pos else {
        return Ok((draft, unshown));
    };
    let view = events[view_pos]
        .as_object()
        .ok_or(DraftError::EventNotAnObject)?;
    read_list(view, &mut draft, &mut unshown)?;
    let items = read_items(view, &mut draft, &mut unshown)?;
    read_clicks(events, view_pos, items, &mut draft, &mut unshown);
    Ok((draft, unshown))
}

/// The list members of the view event, its user profile, and the members the form does not show.
fn read_list(
    view: &Map<String, Value>,
    draft: &mut ListDraft,
    unshown: &mut Unshown,
) -> Result<(), DraftError> {
    draft.api_key = str_of(view.get("event_apikey"));
    draft.list_id = str_of(view.get("event_list_id"));
    draft.list_name = str_of(view.get("event_list_name"));
    draft.list_logic = str_of(view.get("event_list_logic"));
    draft.tags = match view.get("event_tags") {
        Some(Value::Array(tags)) => tags.iter().map(|t| str_of(Some(t))).collect(),
        Some(Value::Null) | None => Vec::new(),
        Some(_) => return Err(DraftError::WrongType("event_tags", "an array")),
    };
    match view.get("user_profile") {
        Some(Value::Object(up)) => {
            draft.user_ip = up.get("ip_address").map(|v| str_of(Some(v)));
            unshown.user_profile = unknown_members(up, &PROFILE_MEMBERS);
        }
        Some(Value::Null) | None => {}
        Some(_) => return Err(DraftError::WrongType("user_profile", "an object")),
    }
    unshown.view = unknown_members(view, &EVENT_MEMBERS);
    Ok(())
}

/// The view event's items as rows of the form, each with what the form would write differently.
fn read_items<'v>(
    view: &'v Map<String, Value>,
    draft: &mut ListDraft,
    unshown: &mut Unshown,
) -> Result<&'v [Value], DraftError> {
    let items = match view.get("items") {
        Some(Value::Array(items)) => items.as_slice(),
        Some(Value::Null) | None => &[],
        Some(_) => return Err(DraftError::WrongType("items", "an array")),
    };
    for (row, item) in items.iter().enumerate() {
        let obj = item.as_object().ok_or(DraftError::ItemNotAnObject)?;
        let item = ItemDraft {
            group_id: str_of(obj.get("item_group_id")),
            variant_id: str_of(obj.get("item_variant_id")),
            name: str_of(obj.get("item_name")),
            price: str_of(obj.get("price")),
            currency: str_of(obj.get("currency")),
            brand: str_of(obj.get("item_brand")),
            category: str_of(obj.get("item_category")),
            clicked: false,
        };
        let written = serde_json::to_value(item.to_item(row as u64 + 1)).unwrap_or_default();
        unshown.items.push(ItemRest {
            unknown: unknown_members(obj, &ITEM_MEMBERS),
            as_read: differences(obj, &written),
            select_as_read: AsRead::new(),
        });
        draft.items.push(item);
    }
    Ok(items)
}

/// The other events: a select of the view's list carrying one of its unclicked items marks that
/// row clicked (the first select's unshown members kept); any other event is kept as it is.
fn read_clicks(
    events: &[Value],
    view_pos: usize,
    items: &[Value],
    draft: &mut ListDraft,
    unshown: &mut Unshown,
) {
    let view = &events[view_pos];
    let item_ids: Vec<String> = items.iter().map(|i| str_of(i.get("item_id"))).collect();
    let mut first_select = true;
    for (pos, event) in events.iter().enumerate() {
        if pos == view_pos {
            continue;
        }
        let same_list = event.get("event_list_id") == view.get("event_list_id");
        let clicked_row = event
            .get("items")
            .and_then(Value::as_array)
            .filter(|items| items.len() == 1)
            .and_then(|items| {
                let id = str_of(items[0].get("item_id"));
                item_ids
                    .iter()
                    .position(|x| *x == id)
                    .filter(|row| !draft.items[*row].clicked)
            });
        match (is_kind(event, SELECT_RECS_LIST) && same_list, clicked_row) {
            (true, Some(row)) => {
                draft.items[row].clicked = true;
                // The click's item as the form writes it: the view item of its row.
                if let Some(read) = event["items"][0].as_object() {
                    let mut written =
                        serde_json::to_value(draft.items[row].to_item(row as u64 + 1))
                            .unwrap_or_default();
                    apply_as_read(&mut written, &unshown.items[row].as_read);
                    unshown.items[row].select_as_read = differences(read, &written);
                }
                if first_select {
                    if let Some(obj) = event.as_object() {
                        unshown.select = unknown_members(obj, &EVENT_MEMBERS);
                    }
                    first_select = false;
                }
            }
            _ => unshown.other_events.push(event.clone()),
        }
    }
}

/// The batch of the form: the draft's events ([`ListDraft::to_batch`]) with the members the form
/// does not show put back, and the events that are not part of the list after them.
pub fn form_batch(draft: &ListDraft, unshown: &Unshown) -> Value {
    let mut batch = serde_json::to_value(draft.to_batch()).unwrap_or(Value::Array(Vec::new()));
    let Some(events) = batch.as_array_mut() else {
        return batch;
    };
    let put = |target: &mut Value, members: &Map<String, Value>| {
        if let Some(obj) = target.as_object_mut() {
            for (k, v) in members {
                obj.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    };
    let clicked_rows: Vec<usize> = draft.clicked().collect();
    for (pos, event) in events.iter_mut().enumerate() {
        if is_kind(event, VIEW_RECS_LIST) {
            put(event, &unshown.view);
            if !unshown.user_profile.is_empty() {
                if let Some(obj) = event.as_object_mut() {
                    let up = obj
                        .entry("user_profile")
                        .or_insert_with(|| Value::Object(Map::new()));
                    put(up, &unshown.user_profile);
                }
            }
            if let Some(items) = event.get_mut("items").and_then(Value::as_array_mut) {
                for (row, item) in items.iter_mut().enumerate() {
                    if let Some(rest) = unshown.items.get(row) {
                        put(item, &rest.unknown);
                        apply_as_read(item, &rest.as_read);
                    }
                }
            }
        } else {
            put(event, &unshown.select);
            let row = pos.checked_sub(1).and_then(|j| clicked_rows.get(j));
            if let (Some(row), Some(items)) =
                (row, event.get_mut("items").and_then(Value::as_array_mut))
            {
                if let (Some(item), Some(rest)) = (items.first_mut(), unshown.items.get(*row)) {
                    put(item, &rest.unknown);
                    apply_as_read(item, &rest.as_read);
                    apply_as_read(item, &rest.select_as_read);
                }
            }
        }
    }
    events.extend(unshown.other_events.iter().cloned());
    match unshown.shape {
        Shape::Flat => batch,
        Shape::Nested => batch_in_shape(&batch, Shape::Nested),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A list with an unknown member at every level the form keeps, a click, and a foreign event.
    fn rich() -> Value {
        json!([
            {"event": "view_recs_list", "event_apikey": "k", "event_list_id": "L",
             "event_tags": ["recsPageType:HOME"], "event_list_name": "N",
             "event_list_logic": "SIMILAR", "x_experiment": "B",
             "user_profile": {"ip_address": "10.0.0.1", "segment": "gold"},
             "items": [
                {"item_id": "1-a", "item_group_id": "1", "item_variant_id": "a",
                 "item_name": "One", "price": "1.00", "currency": "EUR", "item_brand": "b",
                 "item_category": "c", "index": 1, "item_color": "red"},
                {"item_id": "2-b", "item_group_id": "2", "item_variant_id": "b",
                 "item_name": "Two", "price": "2.00", "currency": "EUR", "item_brand": "b",
                 "item_category": "c", "index": 2}]},
            {"event": "select_recs_list", "event_apikey": "k", "event_list_id": "L",
             "event_tags": ["recsPageType:HOME"], "event_list_name": "N",
             "event_list_logic": "SIMILAR", "x_click_source": "email",
             "items": [{"item_id": "2-b", "item_group_id": "2", "item_variant_id": "b",
                 "item_name": "Two", "price": "2.00", "currency": "EUR", "item_brand": "b",
                 "item_category": "c", "index": 2}]},
            {"event": "custom_event", "foo": 1}
        ])
    }

    #[test]
    fn the_known_member_lists_are_the_models_names() {
        for m in [
            "event",
            "event_apikey",
            "event_list_id",
            "event_tags",
            "event_list_name",
            "event_list_logic",
            "user_profile",
            "items",
        ] {
            assert!(EVENT_MEMBERS.iter().any(|k| k == m), "{m}");
        }
        assert_eq!(EVENT_MEMBERS.len(), 8, "{:?}", *EVENT_MEMBERS);
        assert_eq!(ITEM_MEMBERS.len(), 9, "{:?}", *ITEM_MEMBERS);
        assert!(ITEM_MEMBERS.iter().any(|k| k == "item_category"));
        assert!(ITEM_MEMBERS.iter().any(|k| k == "index"));
        assert_eq!(*PROFILE_MEMBERS, ["ip_address"]);
    }

    #[test]
    fn reading_a_list_fills_the_draft_and_marks_clicks() {
        let (draft, unshown) = draft_from_value(&rich()).unwrap();
        assert_eq!(draft.api_key, "k");
        assert_eq!(draft.list_id, "L");
        assert_eq!(draft.list_name, "N");
        assert_eq!(draft.list_logic, "SIMILAR");
        assert_eq!(draft.tags, ["recsPageType:HOME"]);
        assert_eq!(draft.user_ip.as_deref(), Some("10.0.0.1"));
        assert_eq!(draft.items.len(), 2);
        assert_eq!(
            (draft.items[0].group_id.as_str(), draft.items[0].clicked),
            ("1", false)
        );
        assert_eq!(
            (draft.items[1].variant_id.as_str(), draft.items[1].clicked),
            ("b", true)
        );
        assert_eq!(unshown.view.get("x_experiment"), Some(&json!("B")));
        assert_eq!(unshown.select.get("x_click_source"), Some(&json!("email")));
        assert_eq!(unshown.user_profile.get("segment"), Some(&json!("gold")));
        assert_eq!(
            unshown.items[0].unknown.get("item_color"),
            Some(&json!("red"))
        );
        assert_eq!(unshown.items[1], ItemRest::default());
        assert_eq!(unshown.rows_with_ids_as_read(), 0);
        assert_eq!(
            unshown.other_events,
            [json!({"event": "custom_event", "foo": 1})]
        );
    }

    #[test]
    fn a_batch_read_and_written_back_is_the_same_batch() {
        let (draft, unshown) = draft_from_value(&rich()).unwrap();
        assert_eq!(form_batch(&draft, &unshown), rich());
    }

    #[test]
    fn unknown_item_members_follow_their_item() {
        let (mut draft, mut unshown) = draft_from_value(&rich()).unwrap();
        draft.items.swap(0, 1);
        unshown.items.swap(0, 1);
        let b = form_batch(&draft, &unshown);
        assert_eq!(b[0]["items"][1]["item_color"], "red");
        assert!(b[0]["items"][0].get("item_color").is_none());
        // The clicked item (now row 0) keeps its select event.
        assert_eq!(b[1]["items"][0]["item_id"], "2-b");
        assert_eq!(b[1]["x_click_source"], "email");
    }

    /// The form renumbered the items and re-derived their ids on load: a batch with a duplicate
    /// index lost it (and the click on the third item moved to the second).
    #[test]
    fn reading_keeps_what_the_batch_says_until_the_derived_values_are_asked_for() {
        let item = |g: &str, index: Value| {
            json!({"item_id": format!("{g}-1"), "item_group_id": g, "item_variant_id": "1",
                   "item_name": "n", "price": "1.00", "currency": "EUR", "item_brand": "b",
                   "item_category": "c", "index": index})
        };
        let batch = json!([
            {"event": "view_recs_list", "event_apikey": "k", "event_list_id": "L",
             "event_tags": [], "event_list_name": "N", "event_list_logic": "SIMILAR",
             "items": [item("A", json!(1)), item("B", json!(2)), item("C", json!(2)),
                       {"item_id": "31337", "item_group_id": "31337",
                        "item_variant_id": "31337", "price": 9.5, "currency": "EUR",
                        "index": 4}]},
            {"event": "select_recs_list", "event_apikey": "k", "event_list_id": "L",
             "event_tags": [], "event_list_name": "N", "event_list_logic": "SIMILAR",
             "items": [item("C", json!(3))]}
        ]);
        let (draft, mut unshown) = draft_from_value(&batch).unwrap();
        assert!(draft.items[2].clicked);
        assert_eq!(draft.items[3].price, "9.5");
        // Written back: the same batch (duplicate index, the click's own index, the simple
        // product's id, the number price and the members left out all kept).
        assert_eq!(form_batch(&draft, &unshown), batch);
        assert_eq!(unshown.rows_with_ids_as_read(), 2);
        assert!(unshown.items[2].keeps("index"));
        assert!(!unshown.items[0].keeps("index"));

        // Editing a cell makes the form's value the one written, for that member only.
        unshown.items[3].edited("price");
        let b = form_batch(&draft, &unshown);
        assert_eq!(b[0]["items"][3]["price"], "9.5");
        assert_eq!(b[0]["items"][3]["item_id"], "31337");
        assert!(b[0]["items"][3].get("item_name").is_none());

        // Asked for, the derived values replace the ones read.
        assert_eq!(unshown.derive_ids(), 2);
        let b = form_batch(&draft, &unshown);
        let indexes: Vec<&Value> = b[0]["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| &i["index"])
            .collect();
        assert_eq!(indexes, [&json!(1), &json!(2), &json!(3), &json!(4)]);
        assert_eq!(b[0]["items"][3]["item_id"], "31337-31337");
        assert_eq!(b[1]["items"][0]["index"], 3);
        assert_eq!(unshown.rows_with_ids_as_read(), 0);
    }

    #[test]
    fn a_second_click_on_the_same_item_and_other_lists_stay_events_of_their_own() {
        let click = |list: &str| {
            json!({"event": "select_recs_list", "event_list_id": list,
                   "items": [{"item_id": "1-a"}]})
        };
        let batch = json!([
            {"event": "view_recs_list", "event_list_id": "L", "items": [{"item_id": "1-a"}]},
            click("L"),
            click("L"),
            click("other")
        ]);
        let (draft, unshown) = draft_from_value(&batch).unwrap();
        assert!(draft.items[0].clicked);
        assert_eq!(unshown.other_events, [click("L"), click("other")]);
    }

    #[test]
    fn what_the_form_cannot_hold_is_refused_with_a_reason() {
        let cases = [
            (json!({"event": "view_recs_list"}), DraftError::NotAnArray),
            (json!([1]), DraftError::EventNotAnObject),
            (
                json!([{"event": "view_recs_list", "event_tags": "x"}]),
                DraftError::WrongType("event_tags", "an array"),
            ),
            (
                json!([{"event": "view_recs_list", "user_profile": 3}]),
                DraftError::WrongType("user_profile", "an object"),
            ),
            (
                json!([{"event": "view_recs_list", "items": {}}]),
                DraftError::WrongType("items", "an array"),
            ),
            (
                json!([{"event": "view_recs_list", "items": [1]}]),
                DraftError::ItemNotAnObject,
            ),
        ];
        for (batch, want) in cases {
            assert_eq!(draft_from_value(&batch), Err(want.clone()), "{batch}");
        }
        assert_eq!(
            DraftError::WrongType("items", "an array").to_string(),
            "items of the view event is not an array"
        );
        assert_eq!(
            draft_from_value(&json!([])).unwrap(),
            (ListDraft::default(), Unshown::default())
        );
    }

    /// A nested batch (the SDK's shape, with `static_content` and `spot_*`) is read into the
    /// form and written back the same; switching its shape to flat and back keeps every value.
    #[test]
    fn a_nested_batch_is_read_and_written_back_and_its_shape_switches_without_loss() {
        let nested: Value = serde_json::from_str(
            r#"[{"event":"view_recs_list","event_version":"1.0.0","event_apikey":"klevu-1",
                "user_profile":{"ip_address":"10.0.0.1","sessionId":"s-1"},
                "event_data":{"list_id":"k-1","list_name":"Trending","list_logic":"TRENDING",
                  "tags":["home"],"spot_id":"sp-1","action":"STATIC_CONTENT",
                  "static_content":[{"content_type":"image","resolution":"desktop",
                    "banner_image_url":"https://x/b.png","index":1}],
                  "items":[{"item_id":"g-v","item_group_id":"g","item_variant_id":"v",
                    "item_name":"Boot","price":"9.50","currency":"EUR","index":1}]}}]"#,
        )
        .unwrap();
        let (draft, mut unshown) = draft_from_value(&nested).unwrap();
        assert_eq!(unshown.shape, Shape::Nested);
        assert_eq!(draft.list_id, "k-1");
        assert_eq!(draft.items[0].name, "Boot");
        assert_eq!(draft.user_ip.as_deref(), Some("10.0.0.1"));
        assert_eq!(form_batch(&draft, &unshown), nested);
        unshown.shape = Shape::Flat;
        let flat = form_batch(&draft, &unshown);
        let ev = &flat[0];
        assert!(ev.get("event_data").is_none() && ev.get("event_version").is_none());
        assert_eq!(ev["event_list_id"], "k-1");
        assert_eq!(ev["spot_id"], "sp-1");
        assert_eq!(
            ev["static_content"][0]["banner_image_url"],
            "https://x/b.png"
        );
        assert_eq!(ev["items"][0]["price"], "9.50");
        // Read back from flat and switched to nested again: the same batch.
        let (draft2, mut unshown2) = draft_from_value(&flat).unwrap();
        assert_eq!(unshown2.shape, Shape::Flat);
        unshown2.shape = Shape::Nested;
        assert_eq!(form_batch(&draft2, &unshown2), nested);
        assert_eq!(batch_in_shape(&flat, Shape::Nested), nested);
        assert_eq!(batch_in_shape(&nested, Shape::Flat), flat);
    }
}
