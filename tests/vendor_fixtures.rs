//! What the vendor's own clients sent (captured by `scripts/vendor-fixtures.sh` into
//! tests/data/vendor/), judged as docs/events.md and docs/signing.md say:
//!
//! - every body `@klevu/core` sent for a view, a click and a static banner is valid (collector 200,
//!   `events validate` exit 0), except the 3.x view, whose real variant-id bug (the view sends the
//!   group id as `item_variant_id`) is an error at its path;
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
use signscope::core::events::validate_bytes;
use signscope::core::http_text::parse_raw_request;
use signscope::core::time::parse_timestamp;
use signscope::core::verify::{bearer_token, ReceivedRequest};
use signscope::core::{Secret, SignableRequest, SigningForm};
use signscope::server::{ManualClock, ServerConfig};

fn vendor_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vendor")
}

/// Every `@klevu/core` capture: (version, file name, path).
fn js_bodies() -> Vec<(String, String, PathBuf)> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(vendor_dir()).unwrap() {
        let dir = dir.unwrap().path();
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        let Some(version) = name.strip_prefix("klevu-core-") else {
            continue;
        };
        let source: Value =
            serde_json::from_slice(&std::fs::read(dir.join("source.json")).unwrap()).unwrap();
        assert_eq!(source["version"], version, "{name}/source.json");
        for file in source["bodies"].as_object().unwrap().keys() {
            out.push((version.to_string(), file.clone(), dir.join(file)));
        }
    }
    out.sort();
    out
}

/// The errors a capture must have: none, except the 3.x view's variant-id bug.
fn expected_errors(version: &str, file: &str) -> Vec<(String, String)> {
    let major: u32 = version.split('.').next().unwrap().parse().unwrap();
    if major < 4 && file == "view.json" {
        vec![("[0].items[0].item_id".into(), "MISMATCH".into())]
    } else {
        vec![]
    }
}

#[test]
fn the_captures_are_there_for_a_nested_and_a_flat_sdk() {
    let bodies = js_bodies();
    let versions: std::collections::BTreeSet<&str> =
        bodies.iter().map(|(v, _, _)| v.as_str()).collect();
    assert!(versions.len() >= 2, "{versions:?}");
    let shapes: std::collections::BTreeSet<bool> = bodies
        .iter()
        .map(|(_, _, p)| {
            let v: Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
            v[0].get("event_data").is_some()
        })
        .collect();
    assert_eq!(
        shapes.len(),
        2,
        "both the nested and the flat shape are captured"
    );
    assert!(bodies.iter().any(|(_, f, _)| f.starts_with("banner")));
}

#[test]
fn every_sdk_body_is_judged_as_the_rules_say() {
    for (version, file, path) in js_bodies() {
        let report = validate_bytes(&std::fs::read(&path).unwrap());
        let errors: Vec<(String, String)> = report
            .errors()
            .map(|p| (p.path.clone(), p.code.clone()))
            .collect();
        assert_eq!(
            errors,
            expected_errors(&version, &file),
            "@klevu/core {version} {file}: {:?}",
            report.problems
        );
    }
}

#[test]
fn events_validate_exits_0_for_valid_bodies_and_1_for_the_variant_id_bug() {
    for (version, file, path) in js_bodies() {
        let out = Command::cargo_bin("signscope")
            .unwrap()
            .args(["events", "validate"])
            .arg(&path)
            .output()
            .unwrap();
        let want = if expected_errors(&version, &file).is_empty() {
            0
        } else {
            1
        };
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(want), "{version} {file}: {text}");
        if want == 1 {
            assert!(
                text.contains("error MISMATCH at [0].items[0].item_id"),
                "{text}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_collector_answers_every_sdk_body_as_the_rules_say() {
    let server = start_at_t0().await;
    for (version, file, path) in js_bodies() {
        let body = std::fs::read_to_string(&path).unwrap();
        let (status, v) = collect(&client(), &server.url(), &body).await;
        let expected = expected_errors(&version, &file);
        if expected.is_empty() {
            assert_eq!(status, 200, "{version} {file}: {v}");
        } else {
            assert_eq!(status, 400, "{version} {file}: {v}");
            let paths: Vec<&str> = v["problems"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p["level"] == "error")
                .map(|p| p["path"].as_str().unwrap())
                .collect();
            assert_eq!(paths, ["[0].items[0].item_id"], "{v}");
        }
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
