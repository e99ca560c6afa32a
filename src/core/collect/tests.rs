use super::*;

fn req(method: &str, path: &str, query: &str, ct: Option<&str>, body: &[u8]) -> ReceivedRequest {
    ReceivedRequest {
        method: method.into(),
        path: path.into(),
        query: query.into(),
        headers: ct
            .map(|c| vec![("Content-Type".to_owned(), c.as_bytes().to_vec())])
            .unwrap_or_default(),
        body: bytes::Bytes::copy_from_slice(body),
    }
}

/// What Chromium's FormData sends for @klevu/core 5.2.2's `buy` (boundary as the browser makes it).
const BUY_FORM: &str = "------WebKitFormBoundaryq2b7\r\nContent-Disposition: form-data; name=\"event\"\r\n\r\norder_purchase\r\n------WebKitFormBoundaryq2b7\r\nContent-Disposition: form-data; name=\"event_version\"\r\n\r\n1.0.0\r\n------WebKitFormBoundaryq2b7\r\nContent-Disposition: form-data; name=\"event_apikey\"\r\n\r\nklevu-1\r\n------WebKitFormBoundaryq2b7\r\nContent-Disposition: form-data; name=\"event_data\"\r\n\r\n[object Object]\r\n------WebKitFormBoundaryq2b7--\r\n";

#[test]
fn endpoints_are_named_by_path() {
    assert_eq!(Endpoint::of("/analytics/collect"), Some(Endpoint::Collect));
    assert_eq!(Endpoint::of("/analytics/collect/"), Some(Endpoint::Collect));
    assert_eq!(
        Endpoint::of("/analytics/n-search/search"),
        Some(Endpoint::Older("n-search/search"))
    );
    assert_eq!(
        Endpoint::of("/analytics/categoryProductClickTracking"),
        Some(Endpoint::Older("categoryProductClickTracking"))
    );
    assert_eq!(Endpoint::of("/analytics/other"), None);
    assert_eq!(Endpoint::of("/v2/batch"), None);
}

#[test]
fn the_object_object_form_is_named_never_a_json_error() {
    let ct = "multipart/form-data; boundary=----WebKitFormBoundaryq2b7";
    for ct in [Some(ct), None] {
        let j = judge(&req("POST", COLLECT_PATH, "", ct, BUY_FORM.as_bytes())).unwrap();
        assert_eq!(j.status, 400);
        let msg = j.answer["message"].as_str().unwrap();
        assert!(msg.contains("multipart form"), "{msg}");
        assert!(
            msg.contains("event, event_version, event_apikey, event_data"),
            "{msg}"
        );
        assert!(
            msg.contains("\"event_data\" is the text \"[object Object]\""),
            "{msg}"
        );
        assert!(!msg.contains("invalid number"), "{msg}");
        assert_eq!(j.problems[0]["code"], "MULTIPART_FORM");
        assert_eq!(j.parsed.as_ref().unwrap()["event"], "order_purchase");
    }
    // The SDK's replay of a failed send names its part "0".
    let replay = BUY_FORM.replace("name=\"event_data\"", "name=\"0\"");
    let j = judge(&req("POST", COLLECT_PATH, "", None, replay.as_bytes())).unwrap();
    assert!(j.answer["message"]
        .as_str()
        .unwrap()
        .contains("part \"0\" is the text"));
}

#[test]
fn older_endpoints_record_their_fields_and_need_only_an_api_key() {
    // 1.x-3.x: GET with the fields in the query.
    let j = judge(&req(
        "GET",
        "/analytics/n-search/search",
        "klevu_apiKey=klevu-1&klevu_term=shoes%20red&klevu_totalResults=12",
        None,
        b"",
    ))
    .unwrap();
    assert_eq!(j.status, 200, "{}", j.answer);
    assert_eq!(j.endpoint, Endpoint::Older("n-search/search"));
    let fields = &j.parsed.as_ref().unwrap()["fields"];
    assert_eq!(fields["klevu_term"], "shoes red");
    // 5.x: POST with a multipart form.
    let form = BUY_FORM
        .replace("name=\"event_apikey\"", "name=\"klevu_apiKey\"")
        .replace("[object Object]", "Mens;Shoes");
    let j = judge(&req(
        "POST",
        "/analytics/categoryProductViewTracking",
        "",
        None,
        form.as_bytes(),
    ))
    .unwrap();
    assert_eq!(j.status, 200, "{}", j.answer);
    assert_eq!(
        j.parsed.as_ref().unwrap()["fields"]["klevu_apiKey"],
        "klevu-1"
    );
    // No API key: 400 naming the field.
    let j = judge(&req(
        "GET",
        "/analytics/productTracking",
        "klevu_term=x",
        None,
        b"",
    ))
    .unwrap();
    assert_eq!(j.status, 400);
    assert_eq!(j.problems[0]["path"], "klevu_apiKey");
    assert!(j.answer["message"]
        .as_str()
        .unwrap()
        .contains("klevu_apiKey is missing"));
}

#[test]
fn a_json_batch_is_judged_as_before() {
    let j = judge(&req(
        "POST",
        COLLECT_PATH,
        "",
        Some("application/json"),
        b"[1,",
    ))
    .unwrap();
    assert_eq!(j.status, 400);
    assert_eq!(j.problems[0]["code"], "JSON_SYNTAX");
    assert!(multipart_fields(None, b"[{\"event\":\"x\"}]").is_none());
    assert!(multipart_fields(None, b"--x\r\nno disposition here").is_none());
}

#[test]
fn problems_are_attributed_to_their_event() {
    assert_eq!(event_index(&json!({"path": "[3].items[0].price"})), Some(3));
    assert_eq!(event_index(&json!({"path": "[12]"})), Some(12));
    assert_eq!(event_index(&json!({"path": ""})), None);
    assert_eq!(event_index(&json!({"path": "items"})), None);
    let errs = [
        json!({"path": "[0].a"}),
        json!({"path": "[0].b"}),
        json!({"path": "[2]"}),
    ];
    let refs: Vec<&Value> = errs.iter().collect();
    assert_eq!(count_bad_events(&refs, &[], 5), 2);
    // Events whose errors were not listed count too, once.
    assert_eq!(count_bad_events(&refs, &[2, 4], 5), 3);
    let whole = [json!({"path": ""})];
    assert_eq!(
        count_bad_events(&whole.iter().collect::<Vec<_>>(), &[], 5),
        5
    );
}
