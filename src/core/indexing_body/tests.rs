use std::collections::BTreeSet;

use serde_json::json;

use super::*;

fn codes(kind: BodyKind, body: serde_json::Value) -> Vec<(String, &'static str)> {
    judge(kind, &body, None)
        .problems
        .into_iter()
        .map(|p| (p.field_path, p.code))
        .collect()
}

#[test]
fn a_record_the_sdk_would_refuse_names_every_problem_with_its_pointer() {
    let body = json!([
        {"id": "ok", "type": "KLEVU_CMS", "attributes": {"name": "x"}},
        {"id": 42, "type": "", "relations": "x",
         "attributes": {"colour-code": 1, "a/b": 2, "7": 3},
         "groups": {"trade 1": {"attributes": {"_x": 1}}},
         "channels": {"b2b": "yes"}}
    ]);
    let j = judge(BodyKind::Records, &body, None);
    let got: Vec<(&str, &str, Option<usize>)> = j
        .problems
        .iter()
        .map(|p| (p.field_path.as_str(), p.code, p.record))
        .collect();
    assert_eq!(
        got,
        [
            ("/1/id", "ID_NOT_STRING", Some(1)),
            ("/1/type", "TYPE_REQUIRED", Some(1)),
            ("/1/relations", "RELATIONS_NOT_OBJECT", Some(1)),
            (
                "/1/attributes/colour-code",
                "ATTRIBUTE_NAME_FORMAT",
                Some(1)
            ),
            ("/1/attributes/a~1b", "ATTRIBUTE_NAME_FORMAT", Some(1)),
            ("/1/attributes/7", "ATTRIBUTE_NAME_NOT_STRING", Some(1)),
            ("/1/groups/trade 1", "GROUP_NAME_FORMAT", Some(1)),
            (
                "/1/groups/trade 1/attributes/_x",
                "ATTRIBUTE_NAME_FORMAT",
                Some(1)
            ),
            ("/1/channels/b2b", "CHANNEL_NOT_OBJECT", Some(1)),
        ]
    );
    assert!(!j.is_ok());
    assert_eq!(j.records, 2);
    assert_eq!(
        j.problems[0].rule,
        "id: Record Id must be string, received int"
    );
    assert!(
        j.problems[0].description.contains("\"42\""),
        "{}",
        j.problems[0].description
    );
}

#[test]
fn documented_rules_the_sdk_does_not_check_are_warnings() {
    let body = json!([
        {"id": "a", "type": "KLEVU_PRODUCT", "attributes": {"name": "x", "sku": "a", "url": "u", "prices": [], "visibility": [], "fabric": "wool"}},
        {"id": "a", "type": "KLEVU_PRODUCT", "attributes": {"name": "y"}}
    ]);
    let defined = BTreeSet::from(["colour".to_string()]);
    let j = judge(BodyKind::Records, &body, Some(&defined));
    let got: Vec<(&str, &str)> = j
        .problems
        .iter()
        .map(|p| (p.field_path.as_str(), p.code))
        .collect();
    assert_eq!(
        got,
        [
            ("/0/attributes/fabric", "ATTRIBUTE_UNDEFINED"),
            ("/1/attributes", "PRODUCT_ATTRIBUTE_MISSING"),
            ("/1/id", "DUPLICATE_ID"),
        ]
    );
    assert!(j.is_ok(), "warnings only");
    assert!(j.problems[1]
        .description
        .contains("sku, url, prices, visibility"));
    // Without the account's attributes, no guess about what is defined.
    assert_eq!(judge(BodyKind::Records, &body, None).problems.len(), 2);
}

#[test]
fn updates_need_a_known_op_and_a_json_pointer_path() {
    let body = json!({"p1": [
        {"op": "replace", "path": "/attributes/name", "value": "x"},
        {"op": "upsert", "path": "/attributes/my name"},
        {"path": "/a"},
        {"op": "remove"}
    ], " ": []});
    assert_eq!(
        codes(BodyKind::Updates, body),
        [
            ("/p1/1/op".to_string(), "UPDATE_OP_UNKNOWN"),
            ("/p1/1/path".to_string(), "UPDATE_PATH_FORMAT"),
            ("/p1/2/op".to_string(), "UPDATE_OP_REQUIRED"),
            ("/p1/3/path".to_string(), "UPDATE_PATH_REQUIRED"),
            ("/ ".to_string(), "ID_REQUIRED"),
        ]
    );
    assert_eq!(codes(BodyKind::Updates, json!(1))[0].1, "BODY_NOT_OBJECT");
    // A JSON Patch array naming the record in its paths.
    assert!(codes(
        BodyKind::Updates,
        json!([{"op": "add", "path": "/", "value": {}}])
    )
    .is_empty());
    assert_eq!(
        codes(
            BodyKind::Updates,
            json!([{"op": "move", "path": "/sku-2/name"}])
        ),
        [("/0/op".to_string(), "UPDATE_OP_UNKNOWN")]
    );
}

#[test]
fn deletes_and_attributes() {
    assert_eq!(
        codes(BodyKind::Delete, json!({"ids": []}))[0].1,
        "DELETE_IDS_REQUIRED"
    );
    assert_eq!(
        codes(BodyKind::Delete, json!({"ids": ["a", 3, " "]})),
        [
            ("/ids/1".to_string(), "ID_NOT_STRING"),
            ("/ids/2".to_string(), "ID_REQUIRED")
        ]
    );
    assert_eq!(
        codes(
            BodyKind::Attribute,
            json!({"attributeName": "colour-x", "datatype": "JSON"})
        ),
        [
            ("/attributeName".to_string(), "ATTRIBUTE_NAME_FORMAT"),
            ("/datatype".to_string(), "DATATYPE_NOT_CUSTOM")
        ]
    );
    assert!(codes(
        BodyKind::Attribute,
        json!({"attributeName": "specs", "datatype": "JSON", "immutable": true})
    )
    .is_empty());
}

#[test]
fn a_body_with_problems_everywhere_lists_the_first_hundred_and_counts_the_rest() {
    let records: Vec<_> = (0..1000).map(|i| json!({"id": i, "type": ""})).collect();
    let j = judge(BodyKind::Records, &json!(records), None);
    assert_eq!(j.problems.len(), MAX_LISTED);
    assert_eq!(j.more_errors, 2000 - MAX_LISTED);
    assert_eq!(j.error_count(), 2000);
    assert_eq!(j.warning_count(), 0);
    assert!(
        j.summary()
            .starts_with("2000 errors, 0 warnings: ID_NOT_STRING at /0/id"),
        "{}",
        j.summary()
    );
}

#[test]
fn kinds_follow_method_and_path() {
    assert_eq!(BodyKind::of("PUT", "/v2/batch/"), Some(BodyKind::Records));
    assert_eq!(BodyKind::of("PATCH", "/v2/batch"), Some(BodyKind::Updates));
    assert_eq!(
        BodyKind::of("PUT", "/v2/batch/delete"),
        Some(BodyKind::Delete)
    );
    assert_eq!(
        BodyKind::of("PUT", "/v2/attributes/colour"),
        Some(BodyKind::Attribute)
    );
    assert_eq!(BodyKind::of("GET", "/v2/attributes"), None);
    assert_eq!(BodyKind::of("DELETE", "/v2/attributes/colour"), None);
}

#[test]
fn php_reads_numeric_keys_as_integers() {
    for (k, int) in [
        ("7", true),
        ("-3", true),
        ("0", true),
        ("07", false),
        ("-0", false),
        ("1e3", false),
        ("99999999999999999999", false),
        ("", false),
    ] {
        assert_eq!(names::is_php_int_key(k), int, "{k:?}");
    }
}
