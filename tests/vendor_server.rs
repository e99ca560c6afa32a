//! The local server as the vendor's clients meet it: every indexing operation of its SDKs, the
//! PHP SDK's signing form (`--accept-form php-sdk`), and CORS on the collector. Real HTTP on
//! 127.0.0.1 port 0.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod server_common;

use server_common::*;
use signscope::core::{Secret, SignableRequest, SigningForm};
use signscope::server::{ServerConfig, DEMO_API_KEY, DEMO_REST_KEY};

/// Headers for a request signed in `form` with the demo account, a PHP-style timestamp.
fn form_headers(
    form: SigningForm,
    method: &str,
    path: &str,
    query: &str,
    body: &[u8],
) -> Vec<(String, String)> {
    let ts = "2026-11-22T10:00:00+00:00";
    let req = SignableRequest::new(method, path, query, ts, DEMO_API_KEY, body);
    form.sign(&req, &Secret::new(DEMO_REST_KEY))
        .unwrap()
        .headers
        .to_vec()
}

async fn signed(
    base: &str,
    form: SigningForm,
    method: &str,
    path: &str,
    query: &str,
    body: &str,
) -> (u16, serde_json::Value) {
    let h = form_headers(form, method, path, query, body.as_bytes());
    let pq = if query.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{query}")
    };
    send(&client(), base, method, &pq, &h, body.as_bytes().to_vec()).await
}

const STD: SigningForm = SigningForm::Standard;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_sdk_indexing_operation_is_emulated() {
    let server = start_at_t0().await;
    let base = server.url();

    // Each with a body the vendor's SDK sends (docs/indexing-bodies.md).
    for (method, path, body) in [
        ("PUT", "/v2/batch", r#"[{"id": "1", "type": "KLEVU_CMS"}]"#),
        (
            "PATCH",
            "/v2/batch",
            r#"{"1": [{"op": "replace", "path": "/attributes/name", "value": "x"}]}"#,
        ),
        ("PUT", "/v2/batch/delete", r#"{"ids": ["1"]}"#),
    ] {
        let (status, v) = signed(&base, STD, method, path, "", body).await;
        assert_eq!(status, 200, "{method} {path}: {v}");
        assert_eq!(v["message"], "Job submitted successfully.");
        assert_eq!(v["jobId"].as_str().unwrap().len(), 36, "{v}");
    }
    // Batch delete takes JSON like the batch does.
    let (status, v) = signed(&base, STD, "PUT", "/v2/batch/delete", "", "{ids").await;
    assert_eq!(status, 400, "{v}");
    assert_vendor_error(&v, 400, "VALIDATION_ERROR");

    // Attributes: none, then two, listed by name, then one deleted.
    let (status, v) = signed(&base, STD, "GET", "/v2/attributes", "", "").await;
    assert_eq!((status, v.clone()), (200, serde_json::json!([])), "{v}");
    let colour = r#"{"attributeName":"colour","datatype":"STRING","label":{"default":"Colour"},"searchable":true}"#;
    let (status, v) = signed(&base, STD, "PUT", "/v2/attributes/colour", "", colour).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["attributeName"], "colour");
    let (status, _) = signed(
        &base,
        STD,
        "PUT",
        "/v2/attributes/brand",
        "",
        r#"{"datatype":"STRING"}"#,
    )
    .await;
    assert_eq!(status, 200);
    let (status, v) = signed(&base, STD, "GET", "/v2/attributes", "", "").await;
    assert_eq!(status, 200);
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["attributeName"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["brand", "colour"]);
    assert_eq!(v[1]["label"]["default"], "Colour");
    let (status, v) = signed(&base, STD, "DELETE", "/v2/attributes/colour", "", "").await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = signed(&base, STD, "DELETE", "/v2/attributes/colour", "", "").await;
    assert_eq!(status, 404, "{v}");
    assert_vendor_error(&v, 404, "NOT_FOUND");
    let (_, v) = signed(&base, STD, "GET", "/v2/attributes", "", "").await;
    assert_eq!(v.as_array().unwrap().len(), 1, "{v}");

    // A wrong signature is refused on every operation, before any effect.
    let mut h = form_headers(STD, "DELETE", "/v2/attributes/brand", "", b"");
    h[4].1 = format!("Bearer {}", "A".repeat(64));
    let (status, v) = send(
        &client(),
        &base,
        "DELETE",
        "/v2/attributes/brand",
        &h,
        vec![],
    )
    .await;
    assert_eq!(status, 401, "{v}");
    let (_, v) = signed(&base, STD, "GET", "/v2/attributes", "", "").await;
    assert_eq!(v.as_array().unwrap().len(), 1, "{v}");

    // Anything else with a valid signature: 404 that says the signature was valid.
    let (status, v) = signed(&base, STD, "GET", "/v2/search", "q=shoe", "").await;
    assert_eq!(status, 404, "{v}");
    assert_vendor_error(&v, 404, "NOT_FOUND");
    let msg = v["message"].as_str().unwrap();
    assert!(
        msg.starts_with("The signature is valid, but GET /v2/search is not an operation"),
        "{msg}"
    );
    server.shutdown().await;
}

/// The exercises' requests, without their mistakes, are what a correct client sends: the
/// server takes each whole (signature and body, `docs/indexing-bodies.md`), with no warning.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_exercise_requests_without_their_mistakes_are_accepted_by_the_server() {
    use signscope::learn::exercise::{generate, API_KEY, REST_KEY};
    let config = config_at_t0().with_account(API_KEY, Secret::new(REST_KEY));
    let server = start(config).await;
    let mut paths = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let e = generate(1, seed, t0());
        let mut knobs = e.knobs();
        for k in &mut knobs {
            k.chosen = 0;
        }
        let r = e.request_with(&knobs);
        let headers: Vec<(String, String)> = r
            .headers
            .iter()
            .map(|(n, v)| (n.clone(), String::from_utf8_lossy(v).into_owned()))
            .collect();
        let target = signscope::core::http_text::target(&r.path, &r.query);
        let body = r.body.to_vec();
        let (status, v) = send(&client(), &server.url(), &r.method, &target, &headers, body).await;
        assert_eq!(status, 200, "seed {seed}, {} {target}: {v}", r.method);
        assert!(
            v.get("warnings").is_none() && v.get("problems").is_none(),
            "{v}"
        );
        paths.insert(format!("{} {}", r.method, r.path));
    }
    // Every request the exercises draw from was sent.
    assert_eq!(paths.len(), 3, "{paths:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn php_sdk_signatures_are_refused_by_default_and_accepted_with_a_warning_when_asked() {
    let strict = start_at_t0().await;
    let mut cfg: ServerConfig = config_at_t0();
    cfg.accept_forms = vec![SigningForm::PhpSdk];
    let lenient = start(cfg).await;
    let php = SigningForm::PhpSdk;

    // (path, query) combinations: query only, trailing '/' only, both, neither.
    let cases = [
        ("PUT", "/v2/batch", "test=1", "[]"),
        ("PUT", "/v2/batch/", "", "[]"),
        ("PUT", "/v2/batch/", "test=1", "[]"),
        ("GET", "/v2/attributes/", "", ""),
        (
            "PUT",
            "/v2/attributes/size",
            "",
            r#"{"datatype": "STRING"}"#,
        ),
    ];
    for (method, path, query, body) in cases {
        let (status, v) = signed(&strict.url(), php, method, path, query, body).await;
        if php.differing_lines(path, query).is_empty() {
            // No query and no trailing '/': the PHP SDK signs the documented text.
            assert_eq!(status, 200, "{v}");
        } else {
            assert_eq!(status, 401, "{method} {path}?{query}: {v}");
            assert_vendor_error(&v, 401, "SIGNATURE_MISMATCH");
        }

        let (status, v) = signed(&lenient.url(), php, method, path, query, body).await;
        assert_eq!(status, 200, "{method} {path}?{query}: {v}");
        if v.is_object() && !php.differing_lines(path, query).is_empty() {
            let warnings = v["warnings"].as_array().unwrap();
            let w = warnings.last().unwrap().as_str().unwrap();
            assert!(w.starts_with("accepted in the php-sdk form"), "{w}");
        }
        // The documented form is still accepted, without a form warning.
        let (status, v) = signed(&lenient.url(), STD, method, path, query, body).await;
        assert_eq!(status, 200, "{v}");
        assert!(!v.to_string().contains("php-sdk"), "{v}");
    }
    // The record keeps the warning, with what differed.
    let (_, reqs) = get_json(&client(), &format!("{}/_inspect/requests", lenient.url())).await;
    let first = &reqs.as_array().unwrap()[0];
    assert_eq!(first["verdict"], "accepted");
    let w = first["warnings"].to_string();
    // Only the query differed in that request: the warning says so.
    assert!(w.contains("here: '?' before the query)"), "{w}");

    // The PHP SDK's form does not lift the other checks: out of the window is still refused.
    let req = SignableRequest::new(
        "PUT",
        "/v2/batch/",
        "",
        "2026-11-22T09:00:00+00:00",
        DEMO_API_KEY,
        b"[]",
    );
    let h = php
        .sign(&req, &Secret::new(DEMO_REST_KEY))
        .unwrap()
        .headers
        .to_vec();
    let (status, v) = send(
        &client(),
        &lenient.url(),
        "PUT",
        "/v2/batch/",
        &h,
        b"[]".to_vec(),
    )
    .await;
    assert_eq!(status, 401, "{v}");
    assert_vendor_error(&v, 401, "TIMESTAMP_OUT_OF_WINDOW");
    strict.shutdown().await;
    lenient.shutdown().await;
}

async fn raw(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, reqwest::header::HeaderMap, String) {
    let mut rb = client().request(reqwest::Method::from_bytes(method.as_bytes()).unwrap(), url);
    for (n, v) in headers {
        rb = rb.header(*n, *v);
    }
    let resp = rb.body(body.to_string()).send().await.unwrap();
    let status = resp.status().as_u16();
    let h = resp.headers().clone();
    (status, h, resp.text().await.unwrap())
}

fn header<'h>(h: &'h reqwest::header::HeaderMap, name: &str) -> Vec<&'h str> {
    h.get_all(name)
        .iter()
        .map(|v| v.to_str().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_collector_answers_browsers_from_any_origin() {
    let server = start_at_t0().await;
    let url = format!("{}/analytics/collect", server.url());
    let origin = "http://127.0.0.1:9999";

    // The preflight a browser sends before posting JSON.
    let (status, h, _) = raw(
        "OPTIONS",
        &url,
        &[
            ("Origin", origin),
            ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "content-type"),
        ],
        "",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(header(&h, "access-control-allow-origin"), [origin]);
    assert_eq!(header(&h, "access-control-allow-credentials"), ["true"]);
    assert!(header(&h, "access-control-allow-methods")[0].contains("POST"));
    assert_eq!(
        header(&h, "access-control-allow-headers")[0].to_ascii_lowercase(),
        "content-type"
    );
    assert!(header(&h, "vary").join(",").contains("origin"), "{h:?}");

    // Accepted, refused and malformed answers all carry the origin and Vary.
    let bad = bad_batch();
    for (body, want) in [(GOOD_BATCH, 200), (bad.as_str(), 400), ("[{", 400)] {
        let (status, h, text) = raw(
            "POST",
            &url,
            &[("Origin", origin), ("Content-Type", "application/json")],
            body,
        )
        .await;
        assert_eq!(status, want, "{text}");
        assert_eq!(header(&h, "access-control-allow-origin"), [origin]);
        // A Blob beacon and a credentialed fetch need this, and never `*` (docs/server.md R8).
        assert_eq!(header(&h, "access-control-allow-credentials"), ["true"]);
        assert!(header(&h, "vary").join(",").contains("origin"), "{h:?}");
    }
    // No Origin (curl, a server): not a CORS request, no CORS answer.
    let (status, h, _) = raw(
        "POST",
        &url,
        &[("Content-Type", "application/json")],
        GOOD_BATCH,
    )
    .await;
    assert_eq!(status, 200);
    assert!(h.get("access-control-allow-origin").is_none(), "{h:?}");

    // Only the collector: the indexing API and the inspection API send no CORS headers.
    let (_, h, _) = raw(
        "PUT",
        &format!("{}/v2/batch", server.url()),
        &[("Origin", origin)],
        "[]",
    )
    .await;
    assert!(h.get("access-control-allow-origin").is_none(), "{h:?}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_inspection_filters_work_for_both_shapes() {
    let server = start_at_t0().await;
    let base = server.url();
    // A flat view of list A and a nested view and click of list B, in one batch.
    let mut flat: serde_json::Value = serde_json::from_str(GOOD_BATCH).unwrap();
    flat[0]["event_list_id"] = "list-a".into();
    let nested = serde_json::json!([
        {"event": "view_recs_list", "event_version": "1.0.0", "event_apikey": "demo-public-key",
         "user_profile": {"sessionId": "s"},
         "event_data": {"list_id": "list-b", "list_name": "B", "list_logic": "TRENDING",
            "items": [{"item_id": "1", "item_group_id": "1", "item_variant_id": "1", "item_name": "x",
                       "price": "1.00", "currency": "EUR", "index": 1}]}},
        {"event": "select_recs_list", "event_version": "1.0.0", "event_apikey": "demo-public-key",
         "event_data": {"list_id": "list-b", "list_name": "B", "list_logic": "TRENDING",
            "items": [{"item_id": "1", "item_group_id": "1", "item_variant_id": "1", "item_name": "x",
                       "price": "1.00", "currency": "EUR", "index": 1}]}}
    ]);
    let batch = serde_json::json!([flat[0], nested[0], nested[1]]);
    let (status, v) = collect(&client(), &base, &batch.to_string()).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["accepted"], 3);
    let (_, b) = get_json(&client(), &format!("{base}/_inspect/events?list_id=list-b")).await;
    let b = b.as_array().unwrap();
    assert_eq!(b.len(), 2, "{b:?}");
    assert!(b.iter().all(|e| e["list_id"] == "list-b"));
    let (_, a) = get_json(&client(), &format!("{base}/_inspect/events?list_id=list-a")).await;
    assert_eq!(a.as_array().unwrap().len(), 1);
    let (_, clicks) = get_json(
        &client(),
        &format!("{base}/_inspect/events?event=select_recs_list&list_id=list-b"),
    )
    .await;
    assert_eq!(clicks.as_array().unwrap().len(), 1, "{clicks}");

    // A bad nested event: 400 with the nested path.
    let mut bad = nested.clone();
    bad[0]["event_data"]["items"][0]["price"] = "1,00".into();
    let (status, v) = collect(&client(), &base, &bad.to_string()).await;
    assert_eq!(status, 400, "{v}");
    let errors: Vec<&str> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["level"] == "error")
        .map(|p| p["path"].as_str().unwrap())
        .collect();
    assert_eq!(errors, ["[0].event_data.items[0].price"], "{v}");
    server.shutdown().await;
}

/// Headers of a request signed with `prefix` (a real account's clients send `X-KLEVU-*`).
fn headers_with_prefix(
    prefix: &str,
    api_key: &str,
    rest_key: &str,
    body: &[u8],
) -> Vec<(String, String)> {
    let stamp = ts(0);
    let req = SignableRequest {
        header_prefix: prefix,
        ..SignableRequest::new("PUT", "/v2/batch", "", &stamp, api_key, body)
    };
    signscope::core::sign(&req, &Secret::new(rest_key))
        .unwrap()
        .headers
        .to_vec()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_header_prefix_belongs_to_the_account() {
    // The demo account answers to SVC and KLEVU.
    let server = start_at_t0().await;
    let body = b"[]".to_vec();
    for prefix in ["SVC", "KLEVU"] {
        let h = headers_with_prefix(prefix, DEMO_API_KEY, DEMO_REST_KEY, &body);
        assert!(h.iter().any(|(n, _)| n == &format!("X-{prefix}-TIMESTAMP")));
        let (status, v) = send(
            &client(),
            &server.url(),
            "PUT",
            "/v2/batch",
            &h,
            body.clone(),
        )
        .await;
        assert_eq!(status, 200, "{prefix}: {v}");
    }
    // The request's own prefix names its API key in the record.
    let (_, recs) = get_json(&client(), &format!("{}/_inspect/requests", server.url())).await;
    assert_eq!(recs[1]["api_key"], DEMO_API_KEY, "{recs}");
    server.shutdown().await;

    // An account told only SVC: a KLEVU request is answered naming both prefixes and the flag,
    // not as a missing X-SVC-TIMESTAMP.
    let mut cfg = config_at_t0();
    cfg.accounts.clear();
    cfg.account_prefixes.clear();
    cfg = cfg.with_account("acme", Secret::new("acme-rest-key-0123"));
    let server = start(cfg).await;
    let h = headers_with_prefix("KLEVU", "acme", "acme-rest-key-0123", &body);
    let (status, v) = send(
        &client(),
        &server.url(),
        "PUT",
        "/v2/batch",
        &h,
        body.clone(),
    )
    .await;
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["code"], "WRONG_HEADER_PREFIX", "{v}");
    let msg = v["message"].as_str().unwrap();
    for part in ["KLEVU", "X-SVC-*", "acme", "--header-prefix KLEVU"] {
        assert!(msg.contains(part), "{part}: {msg}");
    }
    // Its own prefix still works.
    let h = headers_with_prefix("SVC", "acme", "acme-rest-key-0123", &body);
    let (status, v) = send(&client(), &server.url(), "PUT", "/v2/batch", &h, body).await;
    assert_eq!(status, 200, "{v}");
    server.shutdown().await;
}

fn vendor_file(path: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/vendor")
            .join(path),
    )
    .unwrap()
}

fn warning_codes(v: &serde_json::Value) -> Vec<String> {
    // A 200 lists its warnings in `warnings`, a 400 every problem in `problems`.
    ["warnings", "problems"]
        .iter()
        .filter_map(|k| v[*k].as_array())
        .flatten()
        .map(|w| w["code"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// A click comes in its own request after its list's view (`docs/events.md` rule E25): the
/// server places it against that view; and the 2022 release's two requests are named as the
/// names swapped (rule E26).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_after_its_view_is_not_warned_and_the_2022_swap_is_named() {
    let server = start_at_t0().await;
    let base = server.url();
    let c = client();
    // Alone, as the first request, the click has no impression.
    let click = vendor_file("klevu-core-5.2.2/click.json");
    let (status, v) = collect(&c, &base, &click).await;
    assert_eq!(status, 200, "{v}");
    assert!(
        warning_codes(&v).contains(&"LIST_NOT_VIEWED".to_string()),
        "{v}"
    );
    // After the view the SDK sent when the list rendered, the same click is placed.
    let (status, v) = collect(&c, &base, &vendor_file("klevu-core-5.2.2/view.json")).await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = collect(&c, &base, &click).await;
    assert_eq!(status, 200, "{v}");
    let codes = warning_codes(&v);
    assert!(!codes.iter().any(|c| c.ends_with("NOT_VIEWED")), "{v}");

    // The 2022 release: the rendered list as a select, then the click as a view.
    let (_, v) = collect(&c, &base, &vendor_file("swapped-names-2022/render.json")).await;
    assert!(
        warning_codes(&v).contains(&"SELECT_ITEMS".to_string()),
        "{v}"
    );
    let (status, v) = collect(&c, &base, &vendor_file("swapped-names-2022/click.json")).await;
    assert_eq!(status, 200, "{v}");
    let swapped: Vec<&serde_json::Value> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == "EVENT_NAMES_SWAPPED")
        .collect();
    assert_eq!(swapped.len(), 1, "{v}");
    assert_eq!(swapped[0]["fieldPath"], "/0/event", "{v}");
    server.shutdown().await;
}
