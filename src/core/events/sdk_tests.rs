//! What the vendor's real clients send, judged as `docs/events.md` rules E17-E20 say: `null`
//! optional members, the three valid item identities, the 5.x click without a variant id, the
//! older SDKs' variant bug, and `order_purchase` as the PHP SDK's validator checks it.

use serde_json::{json, Value};

use super::validate::{validate, validate_bytes, Level};

fn problems(v: &Value) -> Vec<(Level, String, String)> {
    let r = validate(v);
    // Both readers agree.
    assert_eq!(r, validate_bytes(v.to_string().as_bytes()), "{v}");
    r.problems
        .iter()
        .map(|p| (p.level, p.path.clone(), p.code.clone()))
        .collect()
}

fn errors(v: &Value) -> Vec<(String, String)> {
    problems(v)
        .into_iter()
        .filter(|p| p.0 == Level::Error)
        .map(|p| (p.1, p.2))
        .collect()
}

fn item(id: &str, group: &str, variant: &str, index: u64) -> Value {
    json!({"item_id": id, "item_group_id": group, "item_variant_id": variant,
           "item_name": "Shoe", "price": "89.90", "currency": "EUR", "index": index,
           "item_brand": "Northpeak", "item_category": "Mens;Shoes"})
}

fn nested(kind: &str, data: Value) -> Value {
    json!({"event": kind, "event_version": "1.0.0", "event_apikey": "klevu-1",
           "user_profile": {}, "event_data": data})
}

#[test]
fn null_optional_members_of_event_data_are_absent() {
    // What @klevu/core 5.x sends for an ordinary list: the console's metadata, nulls included.
    let data = json!({"list_id": "k-1", "list_name": "Trending", "list_logic": "TRENDING",
        "action": null, "spot_id": null, "spot_name": null, "segment_id": null,
        "segment_name": null, "static_content": null, "tags": null,
        "items": [item("10023-BLK-42", "10023", "BLK-42", 1)]});
    let batch = json!([nested("view_recs_list", data.clone())]);
    assert_eq!(problems(&batch), []);
    // The values the SDK's type allows besides null are valid too.
    for action in ["STATIC_CONTENT", "FILTER", "HIDE_RECOMMENDATION"] {
        let mut d = data.clone();
        d["action"] = json!(action);
        assert_eq!(errors(&json!([nested("view_recs_list", d)])), []);
    }
    // A null profile member, or a null profile, of a nested event is absent too.
    let mut ev = nested("select_recs_list", data.clone());
    ev["user_profile"] = json!({"sessionId": null, "ip_address": null});
    assert_eq!(
        errors(&json!([nested("view_recs_list", data.clone()), ev])),
        []
    );
    // But the list id is required: null there is still an error.
    let mut d = data;
    d["list_id"] = Value::Null;
    assert_eq!(
        errors(&json!([nested("view_recs_list", d)])),
        [("[0].event_data.list_id".to_owned(), "TYPE".to_owned())]
    );
    // And a member that is not null must have its type.
    let bad = json!([nested(
        "view_recs_list",
        json!({"list_id": "k", "list_name": "T",
        "list_logic": "TRENDING", "action": 3, "items": [item("1-2", "1", "2", 1)]})
    )]);
    assert_eq!(
        errors(&bad),
        [("[0].event_data.action".to_owned(), "TYPE".to_owned())]
    );
}

#[test]
fn the_three_item_identities_are_valid_and_the_older_variant_bug_is_named() {
    let list = |items: Vec<Value>| {
        json!([nested(
            "view_recs_list",
            json!({"list_id": "k", "list_name": "T",
            "list_logic": "TRENDING", "items": items})
        )])
    };
    // group-variant; a simple product; a Shopify record whose id is its variant's.
    let ok = list(vec![
        item("10023-BLK-42", "10023", "BLK-42", 1),
        item("31337", "31337", "31337", 2),
        item("44120398987561", "8012345678901", "44120398987561", 3),
    ]);
    assert_eq!(problems(&ok), []);

    // 5.x click without variantId: the record id as the variant id. Valid, with a warning
    // naming the likely variant.
    let guess = list(vec![item("10023-BLK-42", "10023", "10023-BLK-42", 1)]);
    let r = validate(&guess);
    assert!(r.is_ok(), "{:?}", r.problems);
    let w: Vec<_> = r.warnings().collect();
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].code, "VARIANT_ID");
    assert_eq!(w[0].path, "[0].event_data.items[0].item_variant_id");
    assert!(w[0].message.contains("\"BLK-42\""), "{}", w[0].message);

    // The older SDKs' bug: the group id sent as the variant id. An error that says so.
    let bug = list(vec![item("1001-1002", "1001", "1001", 1)]);
    let r = validate(&bug);
    let e: Vec<_> = r.errors().collect();
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].path, "[0].event_data.items[0].item_id");
    assert_eq!(e[0].code, "MISMATCH");
    assert!(e[0].message.contains("group id"), "{}", e[0].message);
    assert!(e[0].message.contains("\"1002\""), "{}", e[0].message);

    // Anything else is an error too.
    let other = list(vec![item("abc", "1001", "77", 1)]);
    assert_eq!(
        errors(&other),
        [(
            "[0].event_data.items[0].item_id".to_owned(),
            "MISMATCH".to_owned()
        )]
    );
}

fn order(items: Value) -> Value {
    json!({"event": "order_purchase", "event_apikey": "klevu-1", "event_version": "1.0.0",
           "event_data": {"items": items}, "user_profile": {"ip_address": "203.0.113.7",
           "email": "shopper@example.com"}})
}

fn line() -> Value {
    json!({"order_id": "100000123", "order_line_id": "1", "item_name": "Trail running shoe",
           "item_id": "10023-BLK-42", "item_group_id": "10023", "item_variant_id": "BLK-42",
           "unit_price": "89.90", "currency": "EUR", "units": 2})
}

#[test]
fn order_purchase_is_checked_as_the_php_sdks_validator_checks_it() {
    // What the PHP SDK's CollectService sends: no list id, no price, no index.
    assert_eq!(problems(&json!([order(json!([line()]))])), []);
    // Numbers and numeric strings as unit_price; units absent; the PHP SDK's empty profile `[]`;
    // a Shopify-style id; an IPv6 address.
    let mut l2 = line();
    l2["unit_price"] = json!(12.5);
    l2.as_object_mut().unwrap().remove("units");
    l2["item_id"] = json!("44120398987561");
    l2["item_variant_id"] = json!("44120398987561");
    let mut ev = order(json!([l2]));
    ev["user_profile"] = json!([]);
    let mut ev6 = order(json!([line()]));
    ev6["user_profile"]["ip_address"] = json!("2001:db8::7");
    assert_eq!(problems(&json!([ev, ev6])), []);
    // One batch may mix orders and recommendation events.
    let view = nested(
        "view_recs_list",
        json!({"list_id": "k", "list_name": "T", "list_logic": "TRENDING",
               "items": [item("1-2", "1", "2", 1)]}),
    );
    assert_eq!(errors(&json!([view, order(json!([line()]))])), []);

    // Each rule of the SDK's validator, one at a time.
    let cases: Vec<(&str, Value, &str)> = vec![
        ("item_name", Value::Null, "REQUIRED"),
        ("item_id", json!(""), "EMPTY"),
        ("item_group_id", json!(10023), "TYPE"),
        ("unit_price", json!("-1"), "FORMAT"),
        ("unit_price", json!(-0.5), "FORMAT"),
        ("unit_price", json!("twelve"), "FORMAT"),
        ("currency", json!("eur"), "FORMAT"),
        ("units", json!(-1), "TYPE"),
        ("units", json!(1.5), "TYPE"),
        ("units", json!("2"), "TYPE"),
        ("order_id", json!(100000123), "TYPE"),
        ("order_line_id", json!(true), "TYPE"),
    ];
    for (field, value, code) in cases {
        let mut l = line();
        l[field] = value.clone();
        let got = errors(&json!([order(json!([l]))]));
        assert_eq!(
            got,
            [(format!("[0].event_data.items[0].{field}"), code.to_owned())],
            "{field} = {value}"
        );
    }
    // Missing required members, the items array and its lines.
    let mut l = line();
    l.as_object_mut().unwrap().remove("unit_price");
    assert_eq!(
        errors(&json!([order(json!([l]))])),
        [(
            "[0].event_data.items[0].unit_price".to_owned(),
            "REQUIRED".to_owned()
        )]
    );
    assert_eq!(
        errors(&json!([order(json!([]))])),
        [("[0].event_data.items".to_owned(), "EMPTY".to_owned())]
    );
    let mut no_data = order(json!([]));
    no_data.as_object_mut().unwrap().remove("event_data");
    assert_eq!(
        errors(&json!([no_data])),
        [("[0].event_data".to_owned(), "REQUIRED".to_owned())]
    );
    // The older variant bug is an error in an order line too.
    let mut l = line();
    l["item_variant_id"] = json!("10023");
    assert_eq!(
        errors(&json!([order(json!([l]))])),
        [(
            "[0].event_data.items[0].item_id".to_owned(),
            "MISMATCH".to_owned()
        )]
    );
}

#[test]
fn an_unknown_event_names_the_three_kinds() {
    let r = validate(&json!([{"event": "order_purchased", "event_apikey": "k"}]));
    let e = r.errors().next().unwrap();
    assert_eq!(e.code, "UNKNOWN_EVENT");
    assert!(e.message.contains("order_purchase"), "{}", e.message);
}
