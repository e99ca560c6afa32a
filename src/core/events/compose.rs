//! The batch composer: one recommendation list in, the usual batch out.
//!
//! `to_batch` yields a `view_recs_list` event with every shown item (and the user profile when an
//! IP is set), then one `select_recs_list` event per clicked item, all sharing the list id, name,
//! logic and tags. `item_id` is derived from group and variant, and `index` is the 1-based position
//! in the list, so both stay right whatever the editing helpers did to the items.

use serde::{Deserialize, Serialize};
use serde_json::Map;

use super::model::{
    derive_item_id, Batch, Event, Item, UserProfile, ORDER_PURCHASE, SELECT_RECS_LIST,
    VIEW_RECS_LIST,
};

/// One recommendation list as the user edits it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ListDraft {
    pub api_key: String,
    pub list_id: String,
    pub list_name: String,
    pub list_logic: String,
    pub tags: Vec<String>,
    pub user_ip: Option<String>,
    pub items: Vec<ItemDraft>,
}

/// One product of a list as the user edits it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ItemDraft {
    pub group_id: String,
    pub variant_id: String,
    pub name: String,
    pub price: String,
    pub currency: String,
    pub brand: String,
    pub category: String,
    pub clicked: bool,
}

impl ItemDraft {
    /// The item as it appears in an event, at 1-based position `index`.
    pub fn to_item(&self, index: u64) -> Item {
        Item {
            item_id: derive_item_id(&self.group_id, &self.variant_id),
            item_group_id: self.group_id.clone(),
            item_variant_id: self.variant_id.clone(),
            item_name: Some(self.name.clone()),
            price: self.price.clone(),
            currency: self.currency.clone(),
            item_brand: Some(self.brand.clone()),
            item_category: Some(self.category.clone()),
            index,
            extra: Map::new(),
        }
    }
}

/// The `order_id` an order made from the form's products carries (a placeholder: the shop's
/// order number goes there; `docs/events.md` rule E23).
pub const ORDER_ID_PLACEHOLDER: &str = "100000001";

impl ListDraft {
    /// The batch for this list: the view event, then one select event per clicked item (in list
    /// order), each carrying the clicked item with its position in the list.
    pub fn to_batch(&self) -> Batch {
        let all: Vec<Item> = self
            .items
            .iter()
            .enumerate()
            .map(|(i, d)| d.to_item(i as u64 + 1))
            .collect();
        let mut events = Vec::with_capacity(1 + self.clicked().count());
        let mut view = self.event_shell(VIEW_RECS_LIST);
        view.user_profile = self.user_ip.as_ref().map(|ip| UserProfile {
            ip_address: Some(ip.clone()),
            extra: Map::new(),
        });
        view.items = all.clone();
        events.push(view);
        for i in self.clicked() {
            let mut select = self.event_shell(SELECT_RECS_LIST);
            select.items = vec![all[i].clone()];
            events.push(select);
        }
        Batch { events }
    }

    /// The same products as one `order_purchase` event (`docs/events.md` rules E19-E20), as the
    /// vendor's PHP SDK's CollectService sends it: one order line per item, `unit_price` the
    /// item's price, one unit each, the user profile's `ip_address` when an IP is set. Order
    /// ids are placeholders (`order_id` shared, `order_line_id` the line's position).
    pub fn to_order_json(&self, order_id: &str) -> serde_json::Value {
        let lines: Vec<serde_json::Value> = self
            .items
            .iter()
            .enumerate()
            .map(|(i, d)| {
                serde_json::json!({
                    "order_id": order_id,
                    "order_line_id": (i + 1).to_string(),
                    "item_name": d.name,
                    "item_id": derive_item_id(&d.group_id, &d.variant_id),
                    "item_group_id": d.group_id,
                    "item_variant_id": d.variant_id,
                    "unit_price": d.price,
                    "currency": d.currency,
                    "units": 1,
                })
            })
            .collect();
        let mut event = serde_json::json!({
            "event": ORDER_PURCHASE,
            "event_apikey": self.api_key,
            "event_version": super::nested::EVENT_VERSION,
            "event_data": {"items": lines},
        });
        if let Some(ip) = &self.user_ip {
            event["user_profile"] = serde_json::json!({"ip_address": ip});
        }
        serde_json::Value::Array(vec![event])
    }

    /// Positions (0-based) of the clicked items, in list order.
    pub fn clicked(&self) -> impl Iterator<Item = usize> + '_ {
        self.items
            .iter()
            .enumerate()
            .filter(|(_, d)| d.clicked)
            .map(|(i, _)| i)
    }

    fn event_shell(&self, kind: &str) -> Event {
        Event {
            event: kind.to_owned(),
            event_apikey: self.api_key.clone(),
            event_list_id: self.list_id.clone(),
            event_tags: Some(self.tags.clone()),
            event_list_name: Some(self.list_name.clone()),
            event_list_logic: Some(self.list_logic.clone()),
            ..Event::default()
        }
    }

    /// Append an item; returns its 0-based position.
    pub fn add_item(&mut self, item: ItemDraft) -> usize {
        self.items.push(item);
        self.items.len() - 1
    }

    /// Copy the item at `at` to just after it (the copy is not clicked); returns the copy's
    /// position, or `None` when there is no such item.
    pub fn duplicate(&mut self, at: usize) -> Option<usize> {
        let mut copy = self.items.get(at)?.clone();
        copy.clicked = false;
        self.items.insert(at + 1, copy);
        Some(at + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list edits the tests here and the property tests of `core::events` make (the
    /// workbench edits its list beside the rows' extras: `tui::components::events::items`).
    impl ListDraft {
        /// Insert an item at `at` (clamped to the end); returns its position.
        pub fn insert_item(&mut self, at: usize, item: ItemDraft) -> usize {
            let at = at.min(self.items.len());
            self.items.insert(at, item);
            at
        }

        /// Remove the item at `at`; `None` when there is no such item.
        pub fn remove_item(&mut self, at: usize) -> Option<ItemDraft> {
            (at < self.items.len()).then(|| self.items.remove(at))
        }

        /// Move the item at `at` one place up; returns its new position (unchanged at the top
        /// or when out of range).
        pub fn move_up(&mut self, at: usize) -> usize {
            if at == 0 || at >= self.items.len() {
                return at;
            }
            self.items.swap(at - 1, at);
            at - 1
        }

        /// Move the item at `at` one place down; returns its new position.
        pub fn move_down(&mut self, at: usize) -> usize {
            if at + 1 >= self.items.len() {
                return at;
            }
            self.items.swap(at, at + 1);
            at + 1
        }

        /// Flip the clicked flag of the item at `at`; returns the new flag.
        pub fn toggle_clicked(&mut self, at: usize) -> Option<bool> {
            let item = self.items.get_mut(at)?;
            item.clicked = !item.clicked;
            Some(item.clicked)
        }
    }

    fn item(g: &str, v: &str, clicked: bool) -> ItemDraft {
        ItemDraft {
            group_id: g.into(),
            variant_id: v.into(),
            name: format!("Product {g}"),
            price: "10.00".into(),
            currency: "EUR".into(),
            brand: "Acme".into(),
            category: "Home;;Kitchen".into(),
            clicked,
        }
    }

    fn draft() -> ListDraft {
        ListDraft {
            api_key: "pk".into(),
            list_id: "list-1".into(),
            list_name: "Trending".into(),
            list_logic: "TRENDING".into(),
            tags: vec!["recsPageType:HOME".into()],
            user_ip: Some("192.0.2.10".into()),
            items: vec![
                item("A", "1", false),
                item("B", "2", true),
                item("C", "3", true),
            ],
        }
    }

    fn indexes(b: &Batch) -> Vec<u64> {
        b.events[0].items.iter().map(|i| i.index).collect()
    }

    #[test]
    fn view_then_one_select_per_click_sharing_list_metadata() {
        let b = draft().to_batch();
        let kinds: Vec<&str> = b.events.iter().map(|e| e.event.as_str()).collect();
        assert_eq!(kinds, [VIEW_RECS_LIST, SELECT_RECS_LIST, SELECT_RECS_LIST]);
        for e in &b.events {
            assert_eq!(e.event_list_id, "list-1");
            assert_eq!(e.event_apikey, "pk");
            assert_eq!(e.event_list_name.as_deref(), Some("Trending"));
            assert_eq!(e.event_list_logic.as_deref(), Some("TRENDING"));
            assert_eq!(
                e.event_tags.as_deref(),
                Some(&["recsPageType:HOME".to_owned()][..])
            );
        }
        assert_eq!(
            b.events[0]
                .user_profile
                .as_ref()
                .unwrap()
                .ip_address
                .as_deref(),
            Some("192.0.2.10")
        );
        assert!(b.events[1].user_profile.is_none());
        assert_eq!(indexes(&b), [1, 2, 3]);
        // The select events carry the clicked item with its original position.
        assert_eq!(b.events[1].items.len(), 1);
        assert_eq!(b.events[1].items[0].item_id, "B-2");
        assert_eq!(b.events[1].items[0].index, 2);
        assert_eq!(b.events[2].items[0].item_id, "C-3");
        assert_eq!(b.events[2].items[0].index, 3);
    }

    #[test]
    fn no_ip_no_user_profile() {
        let mut d = draft();
        d.user_ip = None;
        assert!(d.to_batch().events[0].user_profile.is_none());
    }

    #[test]
    fn indexes_follow_edits() {
        let mut d = draft();
        assert_eq!(d.move_down(0), 1);
        let b = d.to_batch();
        let ids: Vec<&str> = b.events[0]
            .items
            .iter()
            .map(|i| i.item_id.as_str())
            .collect();
        assert_eq!(ids, ["B-2", "A-1", "C-3"]);
        assert_eq!(indexes(&b), [1, 2, 3]);
        assert_eq!(b.events[1].items[0].item_id, "B-2");
        assert_eq!(b.events[1].items[0].index, 1);

        assert_eq!(d.move_up(2), 1);
        assert_eq!(d.move_up(0), 0);
        assert_eq!(d.move_down(2), 2);
        assert_eq!(d.duplicate(0), Some(1));
        assert_eq!(d.duplicate(9), None);
        assert!(!d.items[1].clicked, "a copy starts unclicked");
        assert!(d.remove_item(3).is_some());
        assert!(d.remove_item(3).is_none());
        let b = d.to_batch();
        let ids: Vec<&str> = b.events[0]
            .items
            .iter()
            .map(|i| i.item_id.as_str())
            .collect();
        assert_eq!(ids, ["B-2", "B-2", "C-3"]);
        assert_eq!(indexes(&b), [1, 2, 3]);
        assert_eq!(d.insert_item(0, item("Z", "9", false)), 0);
        assert_eq!(indexes(&d.to_batch()), [1, 2, 3, 4]);
        assert_eq!(d.add_item(item("Y", "8", true)), 4);
        let b = d.to_batch();
        assert_eq!(b.events.last().unwrap().items[0].index, 5);
        assert_eq!(d.toggle_clicked(4), Some(false));
        assert_eq!(d.toggle_clicked(40), None);
    }

    #[test]
    fn item_id_is_derived() {
        let mut d = draft();
        d.items[0].group_id = "G-1".into();
        d.items[0].variant_id = "red".into();
        assert_eq!(d.to_batch().events[0].items[0].item_id, "G-1-red");
    }
}
