//! The nested shape and mixed batches: paths in the shape sent, nested-only members, and the
//! cross-event checks across shapes.

use serde_json::{json, Value};

use super::*;
use Level::{Error as E, Warning as W};

fn triples(r: &Report) -> Vec<(Level, String, String)> {
    r.problems
        .iter()
        .map(|p| (p.level, p.path.clone(), p.code.clone()))
        .collect()
}

fn expect(list: &[(Level, &str, &str)]) -> Vec<(Level, String, String)> {
    list.iter()
        .map(|(l, p, c)| (*l, p.to_string(), c.to_string()))
        .collect()
}

fn both(v: &Value) -> Report {
    let a = validate(v);
    let b = validate_bytes(&serde_json::to_vec(v).unwrap());
    assert_eq!(a, b, "validate and validate_bytes disagree on {v}");
    a
}

fn item(id: &str, group: &str, variant: &str, index: u64) -> Value {
    json!({"index": index, "item_id": id, "item_group_id": group, "item_name": "Shoe",
           "item_variant_id": variant, "price": "89.90", "currency": "EUR",
           "item_brand": "Northpeak", "item_category": "Mens;Shoes;Trainers;;Sale"})
}

/// What `@klevu/core` 5.x sends for a view with a banner, then a click (session id, spot,
/// segment and action as its `recommendationView` / `recommendationClick` fill them).
fn nested_batch() -> Value {
    let data = |items: Value| {
        json!({"list_id": "k-rec-1", "list_logic": "TRENDING", "list_name": "Trending now",
               "action": "STATIC_CONTENT", "spot_id": "spot-1", "spot_name": "Home top",
               "segment_id": "seg-1", "segment_name": "All",
               "static_content": [{"content_type": "image", "resolution": "desktop",
                   "banner_image_url": "https://cdn.example/b.png", "banner_alt_tag": "Sale", "index": 1}],
               "items": items})
    };
    json!([
        {"event": "view_recs_list", "event_version": "1.0.0", "event_apikey": "klevu-1",
         "user_profile": {"sessionId": "s-1"},
         "event_data": data(json!([item("10023-BLK-42", "10023", "BLK-42", 1), item("31337", "31337", "31337", 2)]))},
        {"event": "select_recs_list", "event_version": "1.0.0", "event_apikey": "klevu-1",
         "user_profile": {},
         "event_data": data(json!([item("31337", "31337", "31337", 2)]))}
    ])
}

#[test]
fn the_sdk_nested_batch_is_valid() {
    let r = both(&nested_batch());
    assert_eq!(triples(&r), vec![], "{:?}", r.problems);
    assert_eq!(r.events, 2);
}

#[test]
fn nested_problems_carry_nested_paths() {
    let mut v = nested_batch();
    v[0]["event_data"]["items"][1]["price"] = json!("89,90");
    v[0]["event_data"]["items"][0]["item_id"] = json!("10023_BLK-42");
    v[0]["event_data"]["list_logic"] = json!("trending");
    v[1]["event_data"]["items"][0]["currency"] = json!("eur");
    v[0]["event_data"]["items"][1]["index"] = json!(1);
    v[0]["event_data"]["tags"] = json!(["recsPageType:home"]);
    let r = both(&v);
    // (The click's index is not compared: the view's first item_id is unusable.)
    assert_eq!(
        triples(&r),
        expect(&[
            (W, "[0].event_data.tags[0]", "PAGE_TYPE_CASE"),
            (E, "[0].event_data.list_logic", "FORMAT"),
            (E, "[0].event_data.items[0].item_id", "MISMATCH"),
            (E, "[0].event_data.items[1].price", "FORMAT"),
            (E, "[0].event_data.items[1].index", "DUPLICATE_INDEX"),
            (E, "[1].event_data.items[0].currency", "FORMAT"),
        ])
    );
    let dup = r
        .problems
        .iter()
        .find(|p| p.code == "DUPLICATE_INDEX")
        .unwrap();
    assert!(
        dup.message.contains("[0].event_data.items[0]"),
        "{}",
        dup.message
    );
    assert_eq!(event_of_path("[0].event_data.items[1].price"), Some(0));
    for p in &r.problems {
        assert!(!p.message.contains("interface document"), "{}", p.message);
    }
}

#[test]
fn nested_only_members_are_checked() {
    let mut v = nested_batch();
    v[0]["event_version"] = json!("2.0.0");
    v[0]["event_data"]["spot_id"] = json!(7);
    let banner = &mut v[0]["event_data"]["static_content"][0];
    banner["resolution"] = json!("tablet");
    banner["index"] = json!(0);
    banner.as_object_mut().unwrap().remove("banner_image_url");
    v[1].as_object_mut().unwrap().remove("event_version");
    v[1]["user_profile"]["sessionId"] = json!(12);
    v[1]["event_list_id"] = json!("k-rec-1");
    let r = both(&v);
    assert_eq!(
        triples(&r),
        expect(&[
            (W, "[0].event_version", "FORMAT"),
            (E, "[0].event_data.spot_id", "TYPE"),
            (W, "[0].event_data.static_content[0].resolution", "FORMAT"),
            (
                E,
                "[0].event_data.static_content[0].banner_image_url",
                "REQUIRED"
            ),
            (E, "[0].event_data.static_content[0].index", "FORMAT"),
            (W, "[1].event_version", "RECOMMENDED"),
            (W, "[1].event_list_id", "MISMATCH"),
            (E, "[1].user_profile.sessionId", "TYPE"),
        ])
    );
}

#[test]
fn a_banner_only_event_needs_no_items_but_an_empty_one_does() {
    let mut v = nested_batch();
    v[0]["event_data"].as_object_mut().unwrap().remove("items");
    v[1] = v[0].clone();
    v[1]["event_data"]
        .as_object_mut()
        .unwrap()
        .remove("static_content");
    let r = both(&v);
    assert_eq!(
        triples(&r),
        expect(&[(E, "[1].event_data.items", "REQUIRED")])
    );
    v[1]["event_data"] = json!("k-rec-1");
    assert_eq!(triples(&both(&v)), expect(&[(E, "[1].event_data", "TYPE")]));
}

#[test]
fn one_batch_may_mix_the_shapes() {
    // A nested view and a flat click of the same list: the click is checked against the view.
    let nested = nested_batch();
    let flat_click = json!({"event": "select_recs_list", "event_apikey": "klevu-1",
        "event_list_id": "k-rec-1", "event_list_name": "Trending now", "event_list_logic": "TRENDING",
        "event_tags": ["recsPageType:HOME"], "items": [item("31337", "31337", "31337", 2)]});
    let v = json!([nested[0], flat_click]);
    assert_eq!(triples(&both(&v)), vec![]);
    // A flat click on an item the nested view did not show, at another list name.
    let mut click = flat_click.clone();
    click["items"][0] = item("999", "999", "999", 1);
    click["event_list_name"] = json!("Other");
    let v = json!([nested[0], click]);
    assert_eq!(
        triples(&both(&v)),
        expect(&[
            (W, "[1].event_list_name", "MISMATCH"),
            (W, "[1].items[0].item_id", "ITEM_NOT_VIEWED"),
        ])
    );
    // A nested click of a list no event viewed: the path is the nested list id.
    let v = json!([nested[1]]);
    assert_eq!(
        triples(&both(&v)),
        expect(&[(W, "[0].event_data.list_id", "LIST_NOT_VIEWED")])
    );
}

#[test]
fn composed_batches_in_either_shape_validate_clean() {
    let draft: ListDraft =
        serde_json::from_str(include_str!("../../../assets/events/template.json")).unwrap();
    let batch = draft.to_batch();
    for shape in Shape::ALL {
        let text = batch.to_json_pretty_in(shape);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(Shape::of(&v[0]), shape);
        let r = both(&v);
        assert!(r.problems.is_empty(), "{shape:?}: {:?}", r.problems);
    }
}
