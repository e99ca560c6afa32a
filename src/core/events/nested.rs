//! The nested event shape of the vendor's current JavaScript SDK (docs/events.md, "Two shapes"):
//!
//! ```text
//! {"event", "event_version": "1.0.0", "event_apikey", "user_profile": {"sessionId"?, "ip_address"?},
//!  "event_data": {"list_id", "list_name", "list_logic", "tags"?, "spot_id"?, "spot_name"?,
//!                 "segment_id"?, "segment_name"?, "action"?, "static_content"?, "items"?}}
//! ```
//!
//! Items have the same fields in both shapes. [`NestedEvent::from_flat`] and
//! `draft::nested_to_flat` convert without losing a value: what one shape has no field for is
//! kept among the other's unknown members.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::model::{Batch, Event, Item, UserProfile};

/// The `event_version` the vendor's SDK sends.
pub const EVENT_VERSION: &str = "1.0.0";

/// Which of the two event shapes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `event_list_id`, `event_tags`, ..., `items` at the top level of the event.
    #[default]
    Flat,
    /// `event_version` and `event_data: {list_id, ..., items}`.
    Nested,
}

impl Shape {
    pub const ALL: [Shape; 2] = [Shape::Flat, Shape::Nested];

    /// `flat` or `nested`.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Flat => "flat",
            Shape::Nested => "nested",
        }
    }

    /// The shape of one event as sent: nested when it has an `event_data` member.
    pub fn of(event: &Value) -> Shape {
        if event.get("event_data").is_some() {
            Shape::Nested
        } else {
            Shape::Flat
        }
    }
}

impl std::str::FromStr for Shape {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Shape::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown event shape {s:?}: use flat or nested"))
    }
}

/// The list id of an event in either shape (`event_list_id`, or `event_data.list_id`).
pub fn list_id_of(event: &Value) -> Option<&str> {
    match event.get("event_data") {
        Some(data) => data.get("list_id"),
        None => event.get("event_list_id"),
    }
    .and_then(Value::as_str)
}

/// One banner of `event_data.static_content`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StaticContent {
    /// `image`.
    pub content_type: String,
    /// `desktop` or `mobile`.
    pub resolution: String,
    pub banner_image_url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub banner_alt_tag: Option<String>,
    /// 1-based position.
    pub index: u64,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `event_data` of a nested event.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EventData {
    pub list_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_logic: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spot_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spot_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segment_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segment_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub static_content: Option<Vec<StaticContent>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<Item>>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One event in the nested shape.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NestedEvent {
    pub event: String,
    pub event_version: String,
    pub event_apikey: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_profile: Option<UserProfile>,
    pub event_data: EventData,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `event_data` members with no flat counterpart, moved to and from a flat event's unknown
/// members so a round trip keeps them.
pub(super) const DATA_ONLY: [&str; 6] = [
    "action",
    "spot_id",
    "spot_name",
    "segment_id",
    "segment_name",
    "static_content",
];

impl NestedEvent {
    /// The same event in the nested shape. Members the flat shape has no field for
    /// (`spot_id`, ...) move from the flat event's unknown members into `event_data`; one whose
    /// value its field cannot hold (an `action` that is a number) goes there as it is, among
    /// `event_data`'s unknown members, so no value is lost (the validator then names it).
    pub fn from_flat(ev: &Event) -> NestedEvent {
        let mut extra = ev.extra.clone();
        let mut data_extra = Map::new();
        let mut take = |name: &str| take_as::<String>(&mut extra, &mut data_extra, name);
        let action = take("action");
        let spot_id = take("spot_id");
        let spot_name = take("spot_name");
        let segment_id = take("segment_id");
        let segment_name = take("segment_name");
        let event_version = take("event_version").unwrap_or_else(|| EVENT_VERSION.into());
        let static_content = take_as(&mut extra, &mut data_extra, "static_content");
        NestedEvent {
            event: ev.event.clone(),
            event_version,
            event_apikey: ev.event_apikey.clone(),
            user_profile: ev.user_profile.clone(),
            event_data: EventData {
                list_id: ev.event_list_id.clone(),
                list_name: ev.event_list_name.clone(),
                list_logic: ev.event_list_logic.clone(),
                tags: ev.event_tags.clone(),
                action,
                spot_id,
                spot_name,
                segment_id,
                segment_name,
                static_content,
                items: Some(ev.items.clone()),
                extra: data_extra,
            },
            extra,
        }
    }
}

/// Member `name` of `from` read as a `T`, removed; a value that is no `T` moves to `rest` as it
/// is (nothing is dropped).
fn take_as<T: serde::de::DeserializeOwned>(
    from: &mut Map<String, Value>,
    rest: &mut Map<String, Value>,
    name: &str,
) -> Option<T> {
    let v = from.remove(name)?;
    match T::deserialize(&v) {
        Ok(t) => Some(t),
        Err(_) => {
            rest.insert(name.to_owned(), v);
            None
        }
    }
}

impl Batch {
    /// The batch in a shape, as pretty-printed JSON (two-space indent).
    pub fn to_json_pretty_in(&self, shape: Shape) -> String {
        match shape {
            Shape::Flat => self.to_json_pretty(),
            Shape::Nested => {
                let nested: Vec<NestedEvent> =
                    self.events.iter().map(NestedEvent::from_flat).collect();
                serde_json::to_string_pretty(&nested).unwrap_or_else(|_| "[]".to_owned())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl NestedEvent {
        /// The same event in the flat shape; `event_version` and the `event_data` members with no
        /// flat field are kept among its unknown members.
        pub fn to_flat(&self) -> Event {
            let d = &self.event_data;
            let mut extra = self.extra.clone();
            extra.insert(
                "event_version".into(),
                Value::from(self.event_version.clone()),
            );
            let opt = |v: &Option<String>| v.clone().map(Value::from);
            for (name, value) in DATA_ONLY.iter().zip([
                opt(&d.action),
                opt(&d.spot_id),
                opt(&d.spot_name),
                opt(&d.segment_id),
                opt(&d.segment_name),
                d.static_content
                    .as_ref()
                    .and_then(|s| serde_json::to_value(s).ok()),
            ]) {
                if let Some(v) = value {
                    extra.insert((*name).into(), v);
                }
            }
            for (k, v) in &d.extra {
                extra.insert(k.clone(), v.clone());
            }
            Event {
                event: self.event.clone(),
                event_apikey: self.event_apikey.clone(),
                event_list_id: d.list_id.clone(),
                event_tags: d.tags.clone(),
                event_list_name: d.list_name.clone(),
                event_list_logic: d.list_logic.clone(),
                user_profile: self.user_profile.clone(),
                items: d.items.clone().unwrap_or_default(),
                extra,
            }
        }
    }

    const NESTED: &str = r#"{"event":"view_recs_list","event_version":"1.0.0","event_apikey":"klevu-1",
        "user_profile":{"sessionId":"s-1"},
        "event_data":{"list_id":"k-1","list_name":"Trending","list_logic":"TRENDING","action":"STATIC_CONTENT",
          "spot_id":"sp-1","spot_name":"Home","segment_id":"seg","segment_name":"All",
          "static_content":[{"content_type":"image","resolution":"desktop","banner_image_url":"https://x/b.png","banner_alt_tag":"Sale","index":1}],
          "items":[{"item_id":"1-2","item_group_id":"1","item_variant_id":"2","price":"1.00","currency":"EUR","index":1}]}}"#;

    #[test]
    fn nested_to_flat_and_back_keeps_every_value() {
        let n: NestedEvent = serde_json::from_str(NESTED).unwrap();
        let flat = n.to_flat();
        assert_eq!(flat.event_list_id, "k-1");
        assert_eq!(flat.items[0].item_id, "1-2");
        assert_eq!(flat.extra["spot_id"], "sp-1");
        let back = NestedEvent::from_flat(&flat);
        assert_eq!(back, n);
        let orig: Value = serde_json::from_str(NESTED).unwrap();
        assert_eq!(serde_json::to_value(&back).unwrap(), orig);
    }

    /// A member whose value its nested field cannot hold (a number where a string goes, a
    /// `static_content` that is not a list of banners) is kept in `event_data` as it is.
    #[test]
    fn a_value_the_nested_field_cannot_hold_is_kept_in_event_data() {
        let flat: Batch = Batch::from_slice(
            br#"[{"event":"view_recs_list","event_apikey":"k","event_list_id":"l","items":[],
                 "action":5,"spot_id":"sp-1","segment_name":null,"static_content":"banner"}]"#,
        )
        .unwrap();
        let v: Value = serde_json::from_str(&flat.to_json_pretty_in(Shape::Nested)).unwrap();
        let data = &v[0]["event_data"];
        assert_eq!(data["action"], 5, "{v}");
        assert_eq!(data["spot_id"], "sp-1");
        assert_eq!(data["segment_name"], Value::Null);
        assert!(
            data.as_object().unwrap().contains_key("segment_name"),
            "{v}"
        );
        assert_eq!(data["static_content"], "banner");
    }

    #[test]
    fn a_flat_batch_prints_nested_in_the_sdk_field_order() {
        let flat: Batch = Batch::from_slice(
            br#"[{"event":"view_recs_list","event_apikey":"k","event_list_id":"l","event_list_name":"N",
                 "event_list_logic":"TRENDING","event_tags":["recsPageType:HOME"],"items":[]}]"#,
        )
        .unwrap();
        let text = flat.to_json_pretty_in(Shape::Nested);
        let v: Value = serde_json::from_str(&text).unwrap();
        let keys: Vec<&str> = v[0]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            ["event", "event_version", "event_apikey", "event_data"]
        );
        assert_eq!(v[0]["event_version"], EVENT_VERSION);
        assert_eq!(v[0]["event_data"]["list_id"], "l");
        assert_eq!(v[0]["event_data"]["tags"][0], "recsPageType:HOME");
        assert_eq!(Shape::of(&v[0]), Shape::Nested);
        assert_eq!(list_id_of(&v[0]), Some("l"));
        let f: Value = serde_json::from_str(&flat.to_json_pretty_in(Shape::Flat)).unwrap();
        assert_eq!(Shape::of(&f[0]), Shape::Flat);
        assert_eq!(list_id_of(&f[0]), Some("l"));
    }
}
