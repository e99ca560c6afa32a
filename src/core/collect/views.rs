//! Event meaning across requests (`docs/events.md` rule E25). The SDKs send a list's
//! `view_recs_list` when it renders and the `select_recs_list` later, in another request, so
//! a click is judged against the views its client sent before, not only its own batch; and a
//! view carrying one item of a list its client sent earlier as a whole `select_recs_list` is the
//! two names swapped (the vendor's frontend SDK shipped that in 2022, rule E26).
//!
//! The memory is pure data, bounded ([`MAX_CLIENTS`], [`MAX_ITEMS`]), read and updated in the
//! order the caller hands it requests: the server in the order it judges them, `check` in the
//! capture's order.

use std::collections::{HashMap, VecDeque};

use serde_json::Value;

use crate::core::events::{codes, problem_value, Omitted, MAX_LISTED_PROBLEMS};
use crate::core::events::{SELECT_RECS_LIST as SELECT, VIEW_RECS_LIST as VIEW};

/// Clients remembered at most; the one seen longest ago is forgotten first.
pub const MAX_CLIENTS: usize = 1_000;
/// Items remembered at most, over every client and list (an item id is kept only up to
/// [`MAX_ID_BYTES`]): with [`MAX_CLIENTS`], the memory stays under about 16 MB.
pub const MAX_ITEMS: usize = 50_000;
/// Items remembered of one list at most (of its views, and of its last wide select).
pub const MAX_LIST_ITEMS: usize = 1_000;
/// Longest item or list id remembered; a longer one is not (nothing is judged against it).
pub const MAX_ID_BYTES: usize = 128;

/// What one client's events showed of one list: the items its views showed (with their first
/// index) and the items of its last `select_recs_list` that carried more than one.
#[derive(Clone, Debug, Default)]
struct ListMemory {
    shown: HashMap<String, Option<u64>>,
    wide_select: Vec<String>,
}

impl ListMemory {
    fn items(&self) -> usize {
        self.shown.len() + self.wide_select.len()
    }
}

/// The views (and wide selects) each client sent, by client and list id.
#[derive(Clone, Debug, Default)]
pub struct ViewMemory {
    clients: HashMap<String, HashMap<String, ListMemory>>,
    /// Clients, the one seen longest ago first.
    order: VecDeque<String>,
    items: usize,
}

/// One event of a batch as this judgement reads it.
struct Ev<'a> {
    index: usize,
    kind: &'a str,
    list: &'a str,
    items: Vec<(Option<&'a str>, Option<u64>)>,
    /// `items` or `event_data.items`, in the dotted path form.
    items_path: String,
    list_path: String,
    client: String,
}

fn read_event<'a>(index: usize, ev: &'a Value, fallback: &str) -> Option<Ev<'a>> {
    let kind = ev.get("event")?.as_str()?;
    let (list, items, items_path, list_path) = match ev.get("event_data") {
        Some(data) if data.is_object() => (
            data.get("list_id")?.as_str()?,
            data.get("items"),
            format!("[{index}].event_data.items"),
            format!("[{index}].event_data.list_id"),
        ),
        _ => (
            ev.get("event_list_id")?.as_str()?,
            ev.get("items"),
            format!("[{index}].items"),
            format!("[{index}].event_list_id"),
        ),
    };
    let items = items
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|it| {
                    let id = it.get("item_id").and_then(Value::as_str);
                    (id, it.get("index").and_then(Value::as_u64))
                })
                .collect()
        })
        .unwrap_or_default();
    Some(Ev {
        index,
        kind,
        list,
        items,
        items_path,
        list_path,
        client: client_of(ev, fallback),
    })
}

/// The client an event is from: its `user_profile.sessionId`, else its
/// `user_profile.ip_address`, else `fallback` (the request's address).
fn client_of(ev: &Value, fallback: &str) -> String {
    let profile = ev.get("user_profile");
    let text = |name: &str| {
        profile
            .and_then(|p| p.get(name))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty() && s.len() <= MAX_ID_BYTES)
    };
    match (text("sessionId"), text("ip_address")) {
        (Some(s), _) => format!("session:{s}"),
        (None, Some(ip)) => format!("ip:{ip}"),
        (None, None) => format!("ip:{fallback}"),
    }
}

/// Problems found here, added to a batch's (past the listing limit, counted).
struct Found<'p> {
    problems: &'p mut Vec<Value>,
    omitted: &'p mut Omitted,
    changed: bool,
}

impl Found<'_> {
    fn warn(&mut self, path: &str, code: &str, value: Value, message: &str) {
        self.changed = true;
        if self.problems.len() >= MAX_LISTED_PROBLEMS {
            self.omitted.warnings += 1;
            return;
        }
        self.problems
            .push(problem_value("warning", path, code, Some(value), message));
    }
}

impl ViewMemory {
    /// Judge a batch's clicks against the views its clients sent before (a `LIST_NOT_VIEWED`
    /// its own batch gave is taken back when the client viewed the list earlier, and the click
    /// is checked against that view), name a view that is a click sent under the other name,
    /// then remember the batch's views. Gives whether the problems changed.
    pub fn judge(
        &mut self,
        batch: &Value,
        fallback: &str,
        problems: &mut Vec<Value>,
        omitted: &mut Omitted,
    ) -> bool {
        let Some(events) = batch.as_array() else {
            return false;
        };
        let events: Vec<Ev<'_>> = events
            .iter()
            .enumerate()
            .filter_map(|(i, ev)| read_event(i, ev, fallback))
            .collect();
        let mut found = Found {
            problems,
            omitted,
            changed: false,
        };
        for ev in &events {
            match ev.kind {
                SELECT => self.judge_click(ev, &mut found),
                VIEW => self.judge_view(ev, &events, &mut found),
                _ => {}
            }
        }
        for ev in &events {
            self.remember(ev);
        }
        found.changed
    }

    fn list(&self, client: &str, list: &str) -> Option<&ListMemory> {
        self.clients.get(client)?.get(list)
    }

    /// A click its batch could not place (`LIST_NOT_VIEWED`), on a list the client viewed in an
    /// earlier request: placed against that view.
    fn judge_click(&self, ev: &Ev<'_>, found: &mut Found<'_>) {
        let Some(at) = found.problems.iter().position(|p| {
            p.get("code").and_then(Value::as_str) == Some(codes::LIST_NOT_VIEWED)
                && p.get("path").and_then(Value::as_str) == Some(ev.list_path.as_str())
        }) else {
            return;
        };
        let Some(seen) = self
            .list(&ev.client, ev.list)
            .filter(|l| !l.shown.is_empty())
        else {
            return;
        };
        found.problems.remove(at);
        found.changed = true;
        for (j, (id, index)) in ev.items.iter().enumerate() {
            let Some(id) = id else { continue };
            match seen.shown.get(*id) {
                None => found.warn(
                    &format!("{}[{j}].item_id", ev.items_path),
                    codes::ITEM_NOT_VIEWED,
                    Value::from(*id),
                    "The view_recs_list events this client sent of this list do not show this item; a click is on a shown item.",
                ),
                Some(Some(shown)) if index.is_some_and(|i| i != *shown) => found.warn(
                    &format!("{}[{j}].index", ev.items_path),
                    codes::MISMATCH,
                    Value::from(index.unwrap_or_default()),
                    &format!("index differs from the position of {id} in the view this client sent earlier of this list ({shown}); a click carries the item's position in the list."),
                ),
                Some(_) => {}
            }
        }
    }

    /// A view of one item that a `select_recs_list` of the same client and list carried with
    /// the whole list, before it (in an earlier request or earlier in the batch): the two names
    /// swapped.
    fn judge_view(&self, ev: &Ev<'_>, batch: &[Ev<'_>], found: &mut Found<'_>) {
        let [(Some(id), _)] = ev.items.as_slice() else {
            return;
        };
        let earlier_in_batch = batch.iter().take_while(|e| e.index < ev.index).any(|e| {
            e.kind == SELECT
                && e.client == ev.client
                && e.list == ev.list
                && e.items.len() > 1
                && e.items.iter().any(|(i, _)| i == &Some(*id))
        });
        let remembered = self
            .list(&ev.client, ev.list)
            .is_some_and(|l| l.wide_select.iter().any(|i| i == id));
        if earlier_in_batch || remembered {
            found.warn(
                &format!("[{}].event", ev.index),
                codes::EVENT_NAMES_SWAPPED,
                Value::from(VIEW),
                "This view_recs_list carries one item of a list this client sent whole as a select_recs_list: the two events' names look swapped (the vendor's frontend SDK did this in 2022); send the list's items as view_recs_list when it renders, and the clicked item as select_recs_list.",
            );
        }
    }

    /// Keep what a view showed, and the items of a select carrying more than one.
    fn remember(&mut self, ev: &Ev<'_>) {
        let wide = ev.kind == SELECT && ev.items.len() > 1;
        if !(ev.kind == VIEW || wide) || ev.list.len() > MAX_ID_BYTES {
            return;
        }
        self.touch(&ev.client);
        let lists = self.clients.entry(ev.client.clone()).or_default();
        let list = lists.entry(ev.list.to_owned()).or_default();
        let before = list.items();
        let ids = ev
            .items
            .iter()
            .filter_map(|(id, index)| Some((id.filter(|s| s.len() <= MAX_ID_BYTES)?, *index)));
        if wide {
            let ids = ids.take(MAX_LIST_ITEMS);
            list.wide_select = ids.map(|(id, _)| id.to_owned()).collect();
        } else {
            for (id, index) in ids {
                if list.shown.len() >= MAX_LIST_ITEMS {
                    break;
                }
                list.shown.entry(id.to_owned()).or_insert(index);
            }
        }
        self.items = self.items + list.items() - before;
        self.forget_oldest(ev.list);
    }

    /// `client` becomes the one seen last.
    fn touch(&mut self, client: &str) {
        if let Some(at) = self.order.iter().position(|c| c == client) {
            self.order.remove(at);
        }
        self.order.push_back(client.to_owned());
    }

    /// Forget the clients seen longest ago until the memory is within its bounds; the one seen
    /// last, alone over the item bound, keeps only the list `current`.
    fn forget_oldest(&mut self, current: &str) {
        while self.order.len() > 1 && (self.order.len() > MAX_CLIENTS || self.items > MAX_ITEMS) {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if let Some(lists) = self.clients.remove(&old) {
                self.items -= lists.values().map(ListMemory::items).sum::<usize>();
            }
        }
        if self.items > MAX_ITEMS {
            if let Some(lists) = self.order.back().and_then(|c| self.clients.get_mut(c)) {
                lists.retain(|name, _| name == current);
                self.items = lists.values().map(ListMemory::items).sum();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::collect::{judge, judge_with_views, Judgement};
    use crate::core::received::ReceivedRequest;

    impl ViewMemory {
        /// Clients and items remembered now.
        fn held(&self) -> (usize, usize) {
            (self.order.len(), self.items)
        }
    }

    fn item(id: &str, index: u64) -> Value {
        serde_json::json!({"item_id": id, "item_group_id": id, "item_variant_id": id,
            "item_name": "Bottle", "price": "12.00", "currency": "EUR", "index": index,
            "item_brand": "Northpeak", "item_category": "Accessories;Bottles"})
    }

    /// A nested event of `kind` for list `k-1` from `session`, with these items.
    fn event(kind: &str, session: &str, items: &[(&str, u64)]) -> Value {
        let items: Vec<Value> = items.iter().map(|(id, i)| item(id, *i)).collect();
        serde_json::json!({"event": kind, "event_apikey": "klevu-1", "event_version": "1.0.0",
            "user_profile": {"sessionId": session},
            "event_data": {"list_id": "k-1", "list_name": "Trending", "list_logic": "TRENDING",
                           "items": items}})
    }

    fn collect(views: &mut ViewMemory, events: &[Value]) -> Judgement {
        let req = ReceivedRequest {
            method: "POST".into(),
            path: "/analytics/collect".into(),
            headers: vec![("content-type".into(), b"application/json".to_vec())],
            body: serde_json::to_vec(events).unwrap().into(),
            ..ReceivedRequest::default()
        };
        judge_with_views(judge(&req).unwrap(), views, "127.0.0.1")
    }

    fn codes(j: &Judgement) -> Vec<(String, String)> {
        j.problems
            .iter()
            .map(|p| {
                let s = |k: &str| p[k].as_str().unwrap_or("").to_string();
                (s("code"), s("fieldPath"))
            })
            .collect()
    }

    #[test]
    fn a_click_is_judged_against_the_views_its_client_sent_before() {
        let mut views = ViewMemory::default();
        let view = event(VIEW, "s1", &[("a", 1), ("b", 2), ("c", 3)]);
        assert_eq!(codes(&collect(&mut views, &[view])), []);
        // The click comes later, alone in its request: placed against the earlier view.
        let j = collect(&mut views, &[event(SELECT, "s1", &[("b", 2)])]);
        assert_eq!(codes(&j), [], "{:?}", j.answer);
        assert_eq!(j.answer["warnings"], serde_json::json!([]));
        // On an item the view did not show, or at another position: said so.
        let j = collect(&mut views, &[event(SELECT, "s1", &[("z", 1)])]);
        let z = (
            "ITEM_NOT_VIEWED".to_string(),
            "/0/event_data/items/0/item_id".to_string(),
        );
        assert_eq!(codes(&j), [z]);
        let j = collect(&mut views, &[event(SELECT, "s1", &[("c", 1)])]);
        let c = (
            "MISMATCH".to_string(),
            "/0/event_data/items/0/index".to_string(),
        );
        assert_eq!(codes(&j), [c]);
        assert_eq!(j.status, 200);
        // Another client never viewed it: the click has no impression.
        let j = collect(&mut views, &[event(SELECT, "s2", &[("b", 2)])]);
        let l = (
            "LIST_NOT_VIEWED".to_string(),
            "/0/event_data/list_id".to_string(),
        );
        assert_eq!(codes(&j), [l]);
    }

    #[test]
    fn a_view_of_one_item_after_a_select_of_the_whole_list_is_the_names_swapped() {
        let mut views = ViewMemory::default();
        // The 2022 release: the rendered list sent as a select, the click as a view.
        let whole = event(SELECT, "s1", &[("a", 1), ("b", 2), ("c", 3)]);
        let first = codes(&collect(&mut views, &[whole]));
        assert!(first.iter().any(|(c, _)| c == "SELECT_ITEMS"), "{first:?}");
        let j = collect(&mut views, &[event(VIEW, "s1", &[("b", 2)])]);
        let swapped = ("EVENT_NAMES_SWAPPED".to_string(), "/0/event".to_string());
        assert_eq!(codes(&j), [swapped]);
        // The same in one batch.
        let mut fresh = ViewMemory::default();
        let both = [
            event(SELECT, "s9", &[("a", 1), ("b", 2)]),
            event(VIEW, "s9", &[("a", 1)]),
        ];
        let found = codes(&collect(&mut fresh, &both));
        assert!(
            found.contains(&("EVENT_NAMES_SWAPPED".into(), "/1/event".into())),
            "{found:?}"
        );
        // A view of one item with no whole select before it is an ordinary view.
        assert_eq!(
            codes(&collect(&mut fresh, &[event(VIEW, "s3", &[("a", 1)])])),
            []
        );
    }

    #[test]
    fn the_memory_is_bounded_and_forgets_the_client_seen_longest_ago() {
        let mut views = ViewMemory::default();
        for s in 0..=MAX_CLIENTS {
            let view = event(VIEW, &format!("s{s}"), &[("a", 1)]);
            collect(&mut views, &[view]);
        }
        assert_eq!(views.held(), (MAX_CLIENTS, MAX_CLIENTS));
        // s0 was forgotten: its click has no view any more; s1's still has.
        let j = collect(&mut views, &[event(SELECT, "s0", &[("a", 1)])]);
        assert_eq!(codes(&j).len(), 1);
        let j = collect(&mut views, &[event(SELECT, "s1", &[("a", 1)])]);
        assert_eq!(codes(&j), []);
        // One client's items are bounded too.
        let many: Vec<(String, u64)> = (0..3 * MAX_LIST_ITEMS as u64)
            .map(|i| (format!("i{i}"), i + 1))
            .collect();
        let many: Vec<(&str, u64)> = many.iter().map(|(s, i)| (s.as_str(), *i)).collect();
        collect(&mut views, &[event(VIEW, "big", &many)]);
        assert!(views.held().1 <= MAX_ITEMS, "{:?}", views.held());
    }
}
