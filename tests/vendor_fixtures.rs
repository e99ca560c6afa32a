//! What the vendor's own clients sent (captured by `scripts/vendor-fixtures.sh` into
//! tests/data/vendor/), judged as docs/events.md, docs/server.md and docs/signing.md say:
//!
//! - each `@klevu/core` version was captured under node, in a jsdom window and in headless
//!   Chromium, the browsers from a page of another loopback origin; a browser's JSON body is
//!   the node one (5.x adds a returning visitor's session id from localStorage), and Chromium
//!   sends 5.x's multipart forms as beacons;
//! - every JSON batch each `@klevu/core` version (1.9.0 to 5.2.2) sent is valid, except the
//!   older SDKs' real variant bug (the group id sent as the variant id), an error at each such
//!   item's `item_id` that says so; 5.x's click without a variant id is a `VARIANT_ID` warning;
//! - every request to an older analytics endpoint is recorded and answered 200; 5.x's `buy`
//!   form with `[object Object]` in it is a 400 that names it;
//! - every `order_purchase` of the PHP SDK's CollectService is valid;
//! - every one of these requests passes through a forwarding server to its upstream unchanged
//!   (method, target, content type, body bytes);
//! - every browser request and Chromium preflight is answered with its origin mirrored and
//!   credentials allowed;
//! - every request the PHP SDK signed is accepted by a server started with
//!   `accept_forms = [php-sdk]`; without it, those whose text differs (a query, a trailing `/`)
//!   are refused as a mismatch that the PHP SDK form reproduces, and the others are accepted.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod server_common;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use server_common::*;
use signscope::core::collect::{judge, Endpoint};
use signscope::core::events::validate_bytes;
use signscope::core::http_text::parse_raw_request;
use signscope::core::time::parse_timestamp;
use signscope::core::verify::{bearer_token, ReceivedRequest};
use signscope::core::{Secret, SignableRequest, SigningForm};
use signscope::server::{ManualClock, ServerConfig};

fn vendor_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vendor")
}

/// One captured analytics request: where it came from and the request as sent.
struct Capture {
    source: String,
    file: String,
    request: ReceivedRequest,
}

impl Capture {
    fn name(&self) -> String {
        format!("{} {}", self.source, self.file)
    }
}

/// The environments `@klevu/core` was captured in, and where: node in klevu-core-VERSION/, the
/// browsers in a subdirectory of it named for the environment.
const ENVIRONMENTS: [(&str, &str); 3] =
    [("node", ""), ("jsdom", "jsdom"), ("chromium", "chromium")];

/// The files of one `@klevu/core` capture directory, as its source.json lists them (none when
/// the SDK could not run there: source.json then says why, in `error`).
fn listed_files(dir: &Path, version: &str, environment: &str) -> Vec<String> {
    let source: Value =
        serde_json::from_slice(&std::fs::read(dir.join("source.json")).unwrap()).unwrap();
    let at = dir.display();
    assert_eq!(source["version"], version, "{at}/source.json");
    assert_eq!(source["environment"], environment, "{at}/source.json");
    let files: Vec<String> = source["calls"]
        .as_object()
        .into_iter()
        .flatten()
        .flat_map(|(_, c)| c["requests"].as_array().cloned().unwrap_or_default())
        .map(|r| r["file"].as_str().unwrap().to_string())
        .collect();
    // A version that cannot run somewhere says so, with the error, instead of a capture.
    assert!(
        !files.is_empty() || source["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{at}/source.json: no capture and no error"
    );
    files
}

/// Every analytics request the SDKs sent: `@klevu/core` in each environment (each directory's
/// source.json names its files) and the PHP SDK's CollectService. A `.json` capture is a `POST
/// /analytics/collect` with that body, as the SDK sent it; a `.http` capture is the request as
/// it arrived, headers and all (a browser's Origin, Referer and Sec-Fetch-* among them).
fn captures() -> Vec<Capture> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(vendor_dir()).unwrap() {
        let dir = dir.unwrap().path();
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        let sets: Vec<(String, PathBuf, Vec<String>)> =
            if let Some(version) = name.strip_prefix("klevu-core-") {
                ENVIRONMENTS
                    .iter()
                    .map(|(env, sub)| {
                        let d = dir.join(sub);
                        let source = if sub.is_empty() {
                            name.clone()
                        } else {
                            format!("{name}/{sub}")
                        };
                        let files = listed_files(&d, version, env);
                        (source, d, files)
                    })
                    .collect()
            } else if name == "php-sdk-collect" {
                let mut f: Vec<String> = std::fs::read_dir(&dir)
                    .unwrap()
                    .map(|e| e.unwrap().file_name().to_str().unwrap().to_string())
                    .filter(|f| f.ends_with(".http"))
                    .collect();
                f.sort();
                vec![(name.clone(), dir.clone(), f)]
            } else {
                continue;
            };
        for (source, dir, files) in sets {
            for file in files {
                let bytes = std::fs::read(dir.join(&file)).unwrap();
                let request = if file.ends_with(".json") {
                    ReceivedRequest {
                        method: "POST".into(),
                        path: "/analytics/collect".into(),
                        headers: vec![("Content-Type".into(), b"application/json".to_vec())],
                        body: bytes.into(),
                        ..ReceivedRequest::default()
                    }
                } else {
                    parse_raw_request(&bytes).unwrap()
                };
                out.push(Capture {
                    source: source.clone(),
                    file,
                    request,
                });
            }
        }
    }
    out.sort_by_key(Capture::name);
    out
}

/// The `@klevu/core` major version of a capture, if it is one.
fn major(c: &Capture) -> Option<u32> {
    c.source
        .strip_prefix("klevu-core-")?
        .split('.')
        .next()?
        .parse()
        .ok()
}

/// The items of a JSON batch: (path of its item_id, item_id, group, variant).
fn items(body: &[u8]) -> Vec<(String, String, String, String)> {
    let v: Value = serde_json::from_slice(body).unwrap();
    let mut out = Vec::new();
    for (i, ev) in v.as_array().unwrap().iter().enumerate() {
        let (prefix, list) = match ev.get("event_data") {
            Some(d) => (format!("[{i}].event_data.items"), d.get("items")),
            None => (format!("[{i}].items"), ev.get("items")),
        };
        for (j, it) in list
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let s = |k: &str| it[k].as_str().unwrap().to_string();
            out.push((
                format!("{prefix}[{j}].item_id"),
                s("item_id"),
                s("item_group_id"),
                s("item_variant_id"),
            ));
        }
    }
    out
}

#[test]
fn the_captures_cover_every_sdk_line_and_what_the_issue_names() {
    let all = captures();
    let versions: std::collections::BTreeSet<&str> =
        all.iter().map(|c| c.source.as_str()).collect();
    for want in [
        "klevu-core-1.9.0",
        "klevu-core-1.10.2",
        "klevu-core-2.0.10",
        "klevu-core-3.0.0",
        "klevu-core-5.2.2",
        "php-sdk-collect",
    ] {
        assert!(versions.contains(want), "{want}: {versions:?}");
    }
    let has = |source: &str, file: &str| all.iter().any(|c| c.source == source && c.file == file);
    for file in [
        "view.json",
        "view-static.json",
        "view-filter.json",
        "click-shopify.json",
        "click-no-variant.json",
        "segment-view.json",
        "buy.http",
        "search.http",
        "category-view.http",
        "category-click.http",
    ] {
        assert!(has("klevu-core-5.2.2", file), "5.2.2 {file}");
    }
    // The older SDKs send the older endpoints with GET.
    let older_get = all
        .iter()
        .filter(|c| major(c).is_some_and(|m| m < 4) && c.request.path != "/analytics/collect")
        .all(|c| c.request.method == "GET");
    assert!(older_get);
    // 5.x's ordinary list carries "action": null.
    let view: Value = serde_json::from_slice(
        &std::fs::read(vendor_dir().join("klevu-core-5.2.2/view.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(view[0]["event_data"]["action"], Value::Null);
    assert!(view[0]["event_data"].get("action").is_some());
}

/// A file's name without its extension: the SDK call that sent it.
fn stem(file: &str) -> &str {
    file.rsplit_once('.').map_or(file, |(s, _)| s)
}

#[test]
fn every_version_was_captured_in_jsdom_and_chromium_as_a_browser_sends() {
    let all = captures();
    let of =
        |source: &str| -> Vec<&Capture> { all.iter().filter(|c| c.source == source).collect() };
    let mut bugs = 0;
    for version in ["1.9.0", "1.10.2", "2.0.10", "3.0.0", "5.2.2"] {
        let node = of(&format!("klevu-core-{version}"));
        for env in ["jsdom", "chromium"] {
            let source = format!("klevu-core-{version}/{env}");
            let mine = of(&source);
            // The same calls sent the same number of requests as under node, and a returning
            // visitor's view and click (browsers only: a session id in localStorage).
            let stems = |cs: &[&Capture]| -> Vec<String> {
                let mut v: Vec<String> = cs.iter().map(|c| stem(&c.file).to_string()).collect();
                v.sort();
                v
            };
            let mut want = stems(&node);
            want.extend(["returning-click".to_string(), "returning-view".to_string()]);
            want.sort();
            assert_eq!(stems(&mine), want, "{source}");
            for c in &mine {
                let name = c.name();
                let r = &c.request;
                // A page on another loopback origin: the browser names it, and it is not the
                // collector's own.
                let origin = r.header_text("origin");
                assert!(
                    origin.starts_with("http://127.0.0.1:"),
                    "{name}: {origin:?}"
                );
                assert_ne!(
                    origin,
                    format!("http://{}", r.header_text("host")),
                    "{name}"
                );
                assert!(r.header_text("referer").starts_with(&origin), "{name}");
                // A JSON body is the same bytes the SDK sent under node: a browser changes the
                // transport and the headers, not the event.
                let ct = r.header_text("content-type");
                let returning = stem(&c.file).strip_prefix("returning-");
                let twin_stem = returning.unwrap_or(stem(&c.file));
                let twin = node.iter().find(|n| stem(&n.file) == twin_stem).unwrap();
                if ct == "application/json" && !r.body.is_empty() {
                    let mut body: Value = serde_json::from_slice(&r.body).unwrap();
                    if returning.is_some() && major(c) == Some(5) {
                        // 5.x reads the session id from localStorage into every event.
                        for ev in body.as_array_mut().unwrap() {
                            let profile = ev["user_profile"].as_object_mut().unwrap();
                            let id = profile.remove("sessionId");
                            assert_eq!(id, Some("fixture-session-7f3a".into()), "{name}");
                        }
                        let twin: Value = serde_json::from_slice(&twin.request.body).unwrap();
                        assert_eq!(body, twin, "{name}");
                    } else {
                        assert_eq!(r.body, twin.request.body, "{name}");
                    }
                }
                assert_eq!(
                    (&r.method, &r.path, &r.query),
                    (
                        &twin.request.method,
                        &twin.request.path,
                        &twin.request.query
                    ),
                    "{name}"
                );
                if env == "chromium" {
                    // 5.x posts its multipart forms with navigator.sendBeacon (a no-cors
                    // request, never preflighted); everything else is a CORS fetch.
                    let mode = r.header_text("sec-fetch-mode");
                    let beacon = ct.starts_with("multipart/form-data");
                    assert_eq!(mode, if beacon { "no-cors" } else { "cors" }, "{name}");
                    assert_eq!(
                        beacon,
                        major(c) == Some(5) && r.method == "POST" && !ct.contains("json"),
                        "{name}"
                    );
                }
                if let Some(j) = judge(r) {
                    bugs += j
                        .problems
                        .iter()
                        .filter(|p| p["code"] == "MISMATCH")
                        .count();
                }
            }
        }
    }
    // The older SDKs' variant bug is in the browser captures too (judged in the next test).
    assert!(bugs > 0);
}

#[test]
fn every_sdk_request_is_judged_as_the_rules_say() {
    for c in captures() {
        let name = c.name();
        let j = judge(&c.request).unwrap_or_else(|| panic!("{name}: not an analytics path"));
        let errors: Vec<(String, String)> = j
            .problems
            .iter()
            .filter(|p| p["level"] == "error")
            .map(|p| {
                (
                    p["path"].as_str().unwrap().to_string(),
                    p["code"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        match j.endpoint {
            Endpoint::Older(_) => {
                assert_eq!(j.status, 200, "{name}: {}", j.answer);
                assert_eq!(j.answer["apikey"], "klevu-1234567890", "{name}");
            }
            Endpoint::Collect if c.file == "buy.http" && major(&c) == Some(5) => {
                // 5.x's buy: a multipart form with [object Object] in it, named for what it is.
                assert_eq!(j.status, 400, "{name}");
                assert_eq!(
                    errors,
                    [(String::new(), "MULTIPART_FORM".to_string())],
                    "{name}"
                );
                let msg = j.answer["message"].as_str().unwrap();
                assert!(
                    msg.contains("multipart form") && msg.contains("[object Object]"),
                    "{msg}"
                );
                assert!(!msg.contains("line 1"), "{msg}");
            }
            Endpoint::Collect => {
                // The rules, said independently of the validator: an item is an error only when
                // its variant id is the group id and its own id is not (the older SDKs' bug).
                let body = &c.request.body;
                let bug: Vec<(String, String)> = items(body)
                    .into_iter()
                    .filter(|(_, id, g, v)| v == g && id != g)
                    .map(|(path, ..)| (path, "MISMATCH".to_string()))
                    .collect();
                assert_eq!(errors, bug, "{name}: {:?}", j.problems);
                assert_eq!(j.status, if bug.is_empty() { 200 } else { 400 }, "{name}");
                if major(&c).is_some_and(|m| m >= 4) {
                    assert!(
                        bug.is_empty(),
                        "{name}: the current SDK sends no variant bug"
                    );
                }
                for p in j.problems.iter().filter(|p| p["level"] == "error") {
                    assert!(
                        p["message"].as_str().unwrap().contains("older SDKs' bug"),
                        "{p}"
                    );
                }
                // 5.x's click without a variantId: a warning naming the likely variant.
                let guesses = j
                    .problems
                    .iter()
                    .filter(|p| p["code"] == "VARIANT_ID")
                    .count();
                let expected = items(body)
                    .iter()
                    .filter(|(_, id, g, v)| v == id && id.starts_with(&format!("{g}-")))
                    .count();
                assert_eq!(guesses, expected, "{name}");
                if c.source == "php-sdk-collect" {
                    let v: Value = serde_json::from_slice(body).unwrap();
                    assert_eq!(v[0]["event"], "order_purchase", "{name}");
                }
            }
        }
    }
}

#[test]
fn events_validate_exits_0_for_valid_bodies_and_1_for_the_variant_id_bug() {
    // A browser's JSON capture is a whole request: its body goes to a file of its own.
    let scratch = tempfile::tempdir().unwrap();
    let json = captures().into_iter().filter(|c| {
        c.request.header_text("content-type") == "application/json" && !c.request.body.is_empty()
    });
    let mut browsers = 0;
    for c in json {
        let path = if c.file.ends_with(".json") {
            vendor_dir().join(&c.source).join(&c.file)
        } else {
            browsers += 1;
            let p = scratch
                .path()
                .join(format!("{}.json", c.name().replace(['/', ' '], "_")));
            std::fs::write(&p, &c.request.body).unwrap();
            p
        };
        let out = Command::cargo_bin("signscope")
            .unwrap()
            .args(["events", "validate"])
            .arg(&path)
            .output()
            .unwrap();
        let report = validate_bytes(&c.request.body);
        let want = if report.is_ok() { 0 } else { 1 };
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(want), "{}: {text}", c.name());
        if want == 1 {
            assert!(text.contains("error MISMATCH at"), "{text}");
        }
    }
    assert!(
        browsers > 0,
        "the browsers' JSON captures were validated too"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_collector_answers_every_sdk_request_as_judged_and_forwards_it_unchanged() {
    let (upstream, seen) = recording_upstream("{}").await;
    let local = start_at_t0().await;
    let mut cfg = config_at_t0();
    cfg.forward_analytics = Some(upstream);
    let proxy = start(cfg).await;
    let all = captures();
    let mut want = Vec::new();
    for c in &all {
        let r = &c.request;
        let target = if r.query.is_empty() {
            r.path.clone()
        } else {
            format!("{}?{}", r.path, r.query)
        };
        let headers: Vec<(String, String)> = r
            .headers
            .iter()
            .filter(|(n, _)| {
                !n.eq_ignore_ascii_case("host") && !n.eq_ignore_ascii_case("content-length")
            })
            .map(|(n, v)| (n.clone(), String::from_utf8(v.clone()).unwrap()))
            .collect();
        // The local collector answers as judged.
        let (status, v) = send(
            &client(),
            &local.url(),
            &r.method,
            &target,
            &headers,
            r.body.to_vec(),
        )
        .await;
        assert_eq!(status, judge(r).unwrap().status, "{}: {v}", c.name());
        // Through the forwarding server: the upstream gets the same request.
        let (status, _) = send(
            &client(),
            &proxy.url(),
            &r.method,
            &target,
            &headers,
            r.body.to_vec(),
        )
        .await;
        assert_eq!(status, 200, "{}: the upstream's answer", c.name());
        want.push((
            r.method.clone(),
            target,
            r.header_text("content-type"),
            r.body.to_vec(),
        ));
    }
    assert_eq!(*seen.lock().unwrap(), want);
    // And every one is recorded locally (one record per event, one per older request).
    let (_, summary) = get_json(&client(), &format!("{}/_inspect/summary", local.url())).await;
    assert_eq!(summary["batches"], all.len(), "{summary}");
    local.shutdown().await;
    proxy.shutdown().await;
}

/// The preflights Chromium sent before the SDK's CORS requests, as each source.json records
/// them: (where, path, origin, method asked for, headers asked for).
fn preflights() -> Vec<(String, String, String, String, String)> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(vendor_dir()).unwrap() {
        let dir = dir.unwrap().path();
        for env in ["jsdom", "chromium"] {
            let Ok(bytes) = std::fs::read(dir.join(env).join("source.json")) else {
                continue;
            };
            let source: Value = serde_json::from_slice(&bytes).unwrap();
            for (call, c) in source["calls"].as_object().into_iter().flatten() {
                for p in c["preflights"].as_array().into_iter().flatten() {
                    let s = |k: &str| p[k].as_str().unwrap_or_default().to_string();
                    out.push((
                        format!("{} {env} {call}", dir.display()),
                        s("path"),
                        s("origin"),
                        s("request_method"),
                        s("request_headers"),
                    ));
                }
            }
        }
    }
    out
}

/// A browser reads an answer (or sends the request a preflight asked for) only when the
/// collector mirrors its origin and allows credentials (a beacon is always credentialed):
/// every request the SDK made from a page, and every preflight Chromium sent first, replayed
/// against the collector with its own headers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_browser_request_and_preflight_is_answered_for_its_origin() {
    let server = start_at_t0().await;
    let all = captures();
    let from_pages: Vec<&Capture> = all
        .iter()
        .filter(|c| !c.request.header_text("origin").is_empty())
        .collect();
    assert!(from_pages.len() >= 100, "{}", from_pages.len());
    let cors = |h: &reqwest::header::HeaderMap| {
        let get = |n: &str| {
            h.get(n)
                .map(|v| v.to_str().unwrap().to_string())
                .unwrap_or_default()
        };
        (
            get("access-control-allow-origin"),
            get("access-control-allow-credentials"),
        )
    };
    for c in from_pages {
        let r = &c.request;
        let target = if r.query.is_empty() {
            r.path.clone()
        } else {
            format!("{}?{}", r.path, r.query)
        };
        let mut rb = client().request(
            reqwest::Method::from_bytes(r.method.as_bytes()).unwrap(),
            format!("{}{target}", server.url()),
        );
        for (n, v) in &r.headers {
            if !n.eq_ignore_ascii_case("host") && !n.eq_ignore_ascii_case("content-length") {
                rb = rb.header(n.as_str(), v.as_slice());
            }
        }
        let resp = rb.body(r.body.to_vec()).send().await.unwrap();
        assert_eq!(
            resp.status().as_u16(),
            judge(r).unwrap().status,
            "{}",
            c.name()
        );
        let origin = r.header_text("origin");
        assert_eq!(
            cors(resp.headers()),
            (origin, "true".into()),
            "{}",
            c.name()
        );
    }
    let asked = preflights();
    // Chromium preflights the JSON posts (and the older SDKs' GET with a JSON content type).
    assert!(asked.len() >= 10, "{asked:?}");
    for (at, path, origin, method, headers) in asked {
        let resp = client()
            .request(reqwest::Method::OPTIONS, format!("{}{path}", server.url()))
            .header("Origin", &origin)
            .header("Access-Control-Request-Method", &method)
            .header("Access-Control-Request-Headers", &headers)
            .send()
            .await
            .unwrap();
        assert!(resp.status().is_success(), "{at}: {}", resp.status());
        let h = resp.headers();
        assert_eq!(cors(h), (origin, "true".into()), "{at}");
        let allowed = |n: &str| h.get(n).unwrap().to_str().unwrap().to_ascii_lowercase();
        assert!(
            allowed("access-control-allow-methods").contains(&method.to_ascii_lowercase()),
            "{at}"
        );
        assert!(
            allowed("access-control-allow-headers").contains(&headers.to_ascii_lowercase()),
            "{at}"
        );
    }
    server.shutdown().await;
}

/// The PHP SDK's captures, in the order it sent them, with the fixture account's keys.
fn php_requests() -> (Vec<(String, ReceivedRequest)>, String, String) {
    let dir = vendor_dir().join("php-sdk");
    let source: Value =
        serde_json::from_slice(&std::fs::read(dir.join("source.json")).unwrap()).unwrap();
    assert_eq!(source["package"], "klevu/php-sdk");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "http"))
        .collect();
    files.sort();
    let requests = files
        .iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_str().unwrap().to_string();
            (name, parse_raw_request(&std::fs::read(p).unwrap()).unwrap())
        })
        .collect();
    (
        requests,
        source["api_key"].as_str().unwrap().to_string(),
        source["rest_key"].as_str().unwrap().to_string(),
    )
}

async fn php_server(
    api_key: &str,
    rest_key: &str,
    forms: Vec<SigningForm>,
    clock: &ManualClock,
) -> signscope::server::Server {
    let mut cfg = ServerConfig::new().with_account(api_key, Secret::new(rest_key));
    cfg.header_prefix = "KLEVU".into();
    cfg.clock = clock.clock();
    cfg.accept_forms = forms;
    start(cfg).await
}

async fn replay(base: &str, r: &ReceivedRequest) -> (u16, Value) {
    let headers: Vec<(String, String)> = r
        .headers
        .iter()
        .filter(|(n, _)| {
            !n.eq_ignore_ascii_case("host") && !n.eq_ignore_ascii_case("content-length")
        })
        .map(|(n, v)| (n.clone(), String::from_utf8(v.clone()).unwrap()))
        .collect();
    let target = if r.query.is_empty() {
        r.path.clone()
    } else {
        format!("{}?{}", r.path, r.query)
    };
    send(
        &client(),
        base,
        &r.method,
        &target,
        &headers,
        r.body.to_vec(),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn php_sdk_requests_are_accepted_in_its_form_and_named_without_it() {
    let (requests, api_key, rest_key) = php_requests();
    assert!(requests.len() >= 8, "{}", requests.len());
    let clock = ManualClock::new(t0());
    let lenient = php_server(&api_key, &rest_key, vec![SigningForm::PhpSdk], &clock).await;
    let strict = php_server(&api_key, &rest_key, vec![], &clock).await;
    let mut differing = 0;
    for (name, r) in &requests {
        let ts = r.header_text("X-KLEVU-TIMESTAMP");
        // The PHP SDK's timestamp form: no milliseconds, an offset instead of Z.
        assert!(ts.ends_with("+00:00"), "{name}: {ts}");
        clock.set(parse_timestamp(&ts).unwrap().time);

        let (status, v) = replay(&lenient.url(), r).await;
        assert_eq!(status, 200, "{name}: {v}");
        // The PHP SDK's timestamp form is the vendor's own client's: no remark on it
        // (docs/verification.md rule V3).
        assert!(!v.to_string().contains("timestamp"), "{name}: {v}");

        let differs = !SigningForm::PhpSdk
            .differing_lines(&r.path, &r.query)
            .is_empty();
        let (status, v) = replay(&strict.url(), r).await;
        if differs {
            differing += 1;
            assert_eq!(status, 401, "{name}: {v}");
            assert_eq!(v["code"], "SIGNATURE_MISMATCH", "{name}: {v}");
            // The PHP SDK form reproduces the signature it sent: that is the form it is in.
            let auth = r.header("authorization").unwrap();
            let provided = bearer_token(auth).unwrap();
            let signable = SignableRequest {
                method: &r.method,
                path: &r.path,
                query: &r.query,
                header_prefix: "KLEVU",
                timestamp: &ts,
                api_key: &api_key,
                auth_algo: "HmacSHA384",
                content_type: "application/json",
                body: &r.body,
            };
            let php = SigningForm::PhpSdk
                .sign(&signable, &Secret::new(rest_key.as_str()))
                .unwrap();
            assert_eq!(php.signature(), provided, "{name}");
            let standard = SigningForm::Standard
                .sign(&signable, &Secret::new(rest_key.as_str()))
                .unwrap();
            assert_ne!(standard.signature(), provided, "{name}");
        } else {
            // No query, no trailing '/': the PHP SDK signs the documented text.
            assert_eq!(status, 200, "{name}: {v}");
            assert!(
                v.get("warnings")
                    .is_none_or(|w| w.as_array().is_some_and(Vec::is_empty)),
                "{name}: {v}"
            );
        }
    }
    assert!(
        differing >= 3,
        "captures with a query and/or a trailing '/': {differing}"
    );
    lenient.shutdown().await;
    strict.shutdown().await;
}

#[test]
fn verify_accepts_the_php_sdk_form_when_asked_and_never_remarks_on_its_timestamps() {
    let dir = vendor_dir().join("php-sdk");
    let (requests, _, rest_key) = php_requests();
    for (name, r) in &requests {
        let ts = r.header_text("X-KLEVU-TIMESTAMP");
        let file = dir.join(format!("{name}.http"));
        let run = |extra: &[&str]| {
            let out = Command::cargo_bin("signscope")
                .unwrap()
                .args(["verify", "--rest-key-env", "FIXTURE_REST_KEY", "--now", &ts])
                .arg("--request-file")
                .arg(&file)
                .args(extra)
                .env("FIXTURE_REST_KEY", &rest_key)
                .output()
                .unwrap();
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stdout).into_owned(),
            )
        };
        let differs = !SigningForm::PhpSdk
            .differing_lines(&r.path, &r.query)
            .is_empty();
        let (code, text) = run(&[]);
        assert!(!text.contains("timestamp"), "{name}: {text}");
        if differs {
            assert_eq!(code, Some(1), "{name}: {text}");
            let (code, text) = run(&["--accept-form", "php-sdk"]);
            assert_eq!(code, Some(0), "{name}: {text}");
            assert!(
                text.contains("warning: accepted in the php-sdk form"),
                "{name}: {text}"
            );
            assert!(!text.contains("timestamp"), "{name}: {text}");
        } else {
            assert_eq!(code, Some(0), "{name}: {text}");
            assert!(!text.contains("warning"), "{name}: {text}");
        }
    }
}
