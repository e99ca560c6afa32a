//! The typed model of an event batch (`docs/events.md` rules E4-E9).
//!
//! Field order on output follows the spec's tables; members the model does not know are kept in
//! `extra` (in the order they were read, after the known fields) so a batch read from a file and
//! written back loses nothing.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `event` value of an impression report.
pub const VIEW_RECS_LIST: &str = "view_recs_list";
/// `event` value of a click report.
pub const SELECT_RECS_LIST: &str = "select_recs_list";
/// `event` value of an order line report: the PHP SDK's `CollectService`, the order-sync module
/// and `@klevu/core`'s `buy` send it to the same path (`docs/events.md` rule E19).
pub const ORDER_PURCHASE: &str = "order_purchase";
/// Every event kind the collector knows.
pub const KNOWN_EVENTS: &[&str] = &[VIEW_RECS_LIST, SELECT_RECS_LIST, ORDER_PURCHASE];

/// List logics the vendor documents (`docs/events.md` rule E12). Suggestions, not a closed set: any
/// upper-case-with-underscores name is valid.
pub const KNOWN_LIST_LOGICS: &[&str] = &[
    "TRENDING",
    "TRENDING_PERSONALIZED",
    "NEWEST_ARRIVALS",
    "RECENTLY_VIEWED",
    "HAND_PICKED",
    "OTHER_ALSO_VIEWED",
    "SIMILAR",
    "BOUGHT_TOGETHER",
    "BOUGHT_TOGETHER_PDP",
    "VISUALLY_SIMILAR",
    "CUSTOM_LOGIC",
];

/// Page types the vendor's scripts send in the `recsPageType` tag (`docs/events.md` rule E11).
pub const KNOWN_PAGE_TYPES: &[&str] = &["HOME", "CATEGORY", "PRODUCT", "CHECKOUT"];

/// Name of the tag that carries the page type.
pub const PAGE_TYPE_TAG: &str = "recsPageType";

/// The body sent to the collector: a JSON array of events.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Batch {
    pub events: Vec<Event>,
}

impl Batch {
    /// Read a batch from JSON bytes. Unknown members are kept. This is strict about the types of
    /// the known fields; use [`super::validate_bytes`] to get every problem of a doubtful batch.
    pub fn from_slice(bytes: &[u8]) -> Result<Batch, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// The batch as pretty-printed JSON (two-space indent), fields in the spec's order.
    pub fn to_json_pretty(&self) -> String {
        // Serialising plain strings, numbers and maps cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_else(|_| "[]".to_owned())
    }

    /// The batch as compact JSON bytes (what is sent).
    pub fn to_json_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_else(|_| b"[]".to_vec())
    }
}

/// One recommendation event (2.1).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Kind of event: `view_recs_list` or `select_recs_list`.
    pub event: String,
    /// Public API key of the account (not a secret).
    pub event_apikey: String,
    /// Identifier of the recommendation list.
    pub event_list_id: String,
    /// `name:value` entries, e.g. `recsPageType:HOME`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_tags: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_list_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_list_logic: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_profile: Option<UserProfile>,
    pub items: Vec<Item>,
    /// Members the model does not know, kept as read.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `user_profile` of an event.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UserProfile {
    /// Dotted IPv4 text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ip_address: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One product of a list (2.2).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// `item_group_id + "-" + item_variant_id`.
    pub item_id: String,
    pub item_group_id: String,
    pub item_variant_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_name: Option<String>,
    /// Decimal number carried as text.
    pub price: String,
    /// Three upper-case letters.
    pub currency: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_brand: Option<String>,
    /// Levels separated by `;;`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_category: Option<String>,
    /// 1-based position in the list.
    pub index: u64,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The `item_id` the interface document prescribes for a group and a variant.
pub fn derive_item_id(group_id: &str, variant_id: &str) -> String {
    format!("{group_id}-{variant_id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const WITH_UNKNOWN: &str = r#"[{"event":"view_recs_list","zeta":1,"event_apikey":"k","event_list_id":"l",
        "items":[{"item_id":"g-v","item_group_id":"g","item_variant_id":"v","price":"1.00",
        "currency":"EUR","index":1,"custom":{"a":[1,2]},"another":null}],
        "user_profile":{"ip_address":"10.0.0.1","user_id":"u-7"},"alpha":"x"}]"#;

    #[test]
    fn unknown_fields_round_trip() {
        let batch = Batch::from_slice(WITH_UNKNOWN.as_bytes()).unwrap();
        let ev = &batch.events[0];
        assert_eq!(ev.extra.get("zeta"), Some(&Value::from(1)));
        assert_eq!(ev.extra.get("alpha"), Some(&Value::from("x")));
        assert_eq!(ev.items[0].extra.get("another"), Some(&Value::Null));
        let profile = ev.user_profile.as_ref().unwrap();
        assert_eq!(profile.extra.get("user_id"), Some(&Value::from("u-7")));

        // Written back, every member read is still there with the same value.
        let again: Value = serde_json::from_slice(&batch.to_json_bytes()).unwrap();
        let orig: Value = serde_json::from_str(WITH_UNKNOWN).unwrap();
        let sort = |v: &Value| {
            let mut s = serde_json::to_value(v).unwrap();
            s.sort_all_objects();
            s
        };
        assert_eq!(sort(&again), sort(&orig));
        // And a second round trip is byte-identical.
        let twice = Batch::from_slice(&batch.to_json_bytes()).unwrap();
        assert_eq!(twice.to_json_bytes(), batch.to_json_bytes());
    }

    #[test]
    fn output_follows_spec_field_order_then_unknown_in_read_order() {
        let batch = Batch::from_slice(WITH_UNKNOWN.as_bytes()).unwrap();
        let out: Value = serde_json::from_slice(&batch.to_json_bytes()).unwrap();
        let keys: Vec<&str> = out[0]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "event",
                "event_apikey",
                "event_list_id",
                "user_profile",
                "items",
                "zeta",
                "alpha"
            ]
        );
        let item_keys: Vec<&str> = out[0]["items"][0]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            item_keys,
            [
                "item_id",
                "item_group_id",
                "item_variant_id",
                "price",
                "currency",
                "index",
                "custom",
                "another"
            ]
        );
    }

    #[test]
    fn derive_item_id_joins_with_hyphen() {
        assert_eq!(derive_item_id("G12", "V3"), "G12-V3");
    }
}
