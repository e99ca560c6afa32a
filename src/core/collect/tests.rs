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

/// A GET to an older endpoint with these query fields.
fn older(path: &str, query: &str) -> Judgement {
    judge(&req("GET", &format!("/analytics/{path}"), query, None, b"")).unwrap()
}

/// The problems' `level code path`, in order.
fn problem_codes(j: &Judgement) -> Vec<String> {
    j.problems
        .iter()
        .map(|p| format!("{} {} {}", p["level"], p["code"], p["path"]).replace('"', ""))
        .collect()
}

const SEARCH: &str =
    "klevu_apiKey=klevu-1&klevu_term=shoes%20red&klevu_totalResults=12&klevu_typeOfQuery=WILDCARD_AND";
const CLICK: &str = "klevu_apiKey=klevu-1&klevu_type=clicked&klevu_keywords=shoes&klevu_productId=10023-BLK-42&klevu_productGroupId=10023&klevu_productVariantId=BLK-42";

#[test]
fn older_endpoints_record_their_fields_and_accept_what_they_document() {
    // 1.x-3.x: GET with the fields in the query.
    let j = older("n-search/search", SEARCH);
    assert_eq!(j.status, 200, "{}", j.answer);
    assert_eq!(j.endpoint, Endpoint::Older("n-search/search"));
    let fields = &j.parsed.as_ref().unwrap()["fields"];
    assert_eq!(fields["klevu_term"], "shoes red");
    assert!(j.problems.is_empty(), "{:?}", j.problems);
    // 5.x: POST with a multipart form.
    let form = BUY_FORM
        .replace("name=\"event_apikey\"", "name=\"klevu_apiKey\"")
        .replace("name=\"event\"", "name=\"klevu_categoryName\"")
        .replace("name=\"event_version\"", "name=\"klevu_productIds\"")
        .replace("name=\"event_data\"", "name=\"klevu_categoryPath\"")
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
    assert_eq!(older("productTracking", CLICK).status, 200);
    // No API key: 400 naming the field.
    let j = older("dataTracking", "klevu_term=x");
    assert_eq!(j.status, 400);
    assert_eq!(j.problems[0]["path"], "klevu_apiKey");
    assert!(j.answer["message"]
        .as_str()
        .unwrap()
        .contains("klevu_apiKey is missing"));
}

/// A search sent with `apiKey=` and `term=` was told only that klevu_apiKey was missing; a
/// click without its keywords or its group and variant ids was accepted. Now each documented
/// field is required and a field without its prefix is named as misnamed.
#[test]
fn older_endpoints_name_each_missing_and_misnamed_field() {
    let j = older(
        "n-search/search",
        "apiKey=klevu-1&term=shoes&klevu_totalResults=3",
    );
    assert_eq!(j.status, 400, "{}", j.answer);
    assert_eq!(
        problem_codes(&j),
        [
            "error MISNAMED apiKey",
            "error MISNAMED term",
            "error REQUIRED klevu_typeOfQuery"
        ]
    );
    let message = j.answer["message"].as_str().unwrap();
    assert!(message.contains("3 problems"), "{message}");
    assert!(
        message.contains(
            "apiKey is misnamed: /analytics/n-search/search reads this field only as klevu_apiKey"
        ),
        "{message}"
    );
    let no_keywords = older(
        "productTracking",
        &CLICK.replace("&klevu_keywords=shoes", ""),
    );
    assert_eq!(
        problem_codes(&no_keywords),
        ["error REQUIRED klevu_keywords"]
    );
    assert_eq!(no_keywords.status, 400);
    let no_ids = older(
        "productTracking",
        "klevu_apiKey=k&klevu_type=clicked&klevu_keywords=s&klevu_productId=31337",
    );
    assert_eq!(
        problem_codes(&no_ids),
        [
            "error REQUIRED klevu_productGroupId",
            "error REQUIRED klevu_productVariantId"
        ]
    );
    let empty = older(
        "categoryProductViewTracking",
        "klevu_apiKey=k&klevu_categoryName=&klevu_categoryPath=A&klevu_productIds=1",
    );
    assert_eq!(problem_codes(&empty), ["error EMPTY klevu_categoryName"]);
}

/// The three ids follow the collector's identity rule: the group id sent as the variant id is
/// the same error on a click as in an event.
#[test]
fn older_endpoints_judge_the_three_ids_as_the_collector_does() {
    let group_as_variant = CLICK.replace(
        "klevu_productVariantId=BLK-42",
        "klevu_productVariantId=10023",
    );
    for path in ["productTracking", "categoryProductClickTracking"] {
        let q =
            format!("{group_as_variant}&klevu_categoryName=Shoes&klevu_categoryPath=Mens%3BShoes");
        let j = older(path, &q);
        assert_eq!(
            problem_codes(&j),
            ["error MISMATCH klevu_productId"],
            "{path}"
        );
        let message = j.problems[0]["message"].as_str().unwrap();
        assert!(message.contains("the older SDKs' bug"), "{message}");
        assert!(
            message.contains("send \"BLK-42\" as klevu_productVariantId"),
            "{message}"
        );
    }
    // A simple product (three equal ids) and a record whose id is its variant's: valid.
    let simple = CLICK
        .replace("10023-BLK-42", "31337")
        .replace("=10023&", "=31337&")
        .replace("=BLK-42", "=31337");
    assert_eq!(older("productTracking", &simple).status, 200);
    let shopify = CLICK
        .replace("10023-BLK-42", "44120398987561")
        .replace("=BLK-42", "=44120398987561");
    assert_eq!(older("productTracking", &shopify).status, 200);
    // 5.x's click without a variant: the record id as the variant id, a warning.
    let whole = CLICK.replace("=BLK-42", "=10023-BLK-42");
    let j = older("productTracking", &whole);
    assert_eq!(j.status, 200, "{}", j.answer);
    assert_eq!(
        problem_codes(&j),
        ["warning VARIANT_ID klevu_productVariantId"]
    );
    assert_eq!(j.answer["warnings"][0]["code"], "VARIANT_ID");
}

/// What the vendor's own SDK leaves out in a flow it supports is a warning: @klevu/core 1.x-3.x's
/// checkout sends productTracking without keywords.
#[test]
fn an_sdk_flow_that_omits_a_documented_field_is_warned_not_refused() {
    let checkout = "klevu_apiKey=klevu-1&klevu_currency=EUR&klevu_productGroupId=10023&klevu_productId=10023-BLK-42&klevu_salePrice=89.9&klevu_productVariantId=BLK-42&klevu_type=checkout&klevu_unit=2";
    let j = older("productTracking", checkout);
    assert_eq!(j.status, 200, "{}", j.answer);
    assert_eq!(problem_codes(&j), ["warning RECOMMENDED klevu_keywords"]);
    assert!(j.problems[0]["message"]
        .as_str()
        .unwrap()
        .contains("checkout"));
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
