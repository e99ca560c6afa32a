//! The CLI with the vendor's clients in mind: `sign --form php-sdk` (the PHP SDK's signing
//! text, checked against an independent HMAC of the text written out by hand here).

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use assert_cmd::Command;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha384;
use signscope::core::curl::parse_curl_command;

const REST: &str = "vendor-test-rest-key";
const TS: &str = "2026-11-23T11:24:54+00:00";

fn sign(form: &str, path: &str, query: &str, output: &str) -> std::process::Output {
    Command::cargo_bin("signscope")
        .unwrap()
        .args(["sign", "--method", "PUT", "--path", path, "--query", query])
        .args([
            "--timestamp",
            TS,
            "--api-key",
            "klevu-123",
            "--header-prefix",
            "KLEVU",
        ])
        .args(["--rest-key-env", "VENDOR_TEST_KEY", "--body", "[]"])
        .args(["--form", form, "--output", output])
        .args(["--indexing-url", "http://127.0.0.1:8080"])
        .env("VENDOR_TEST_KEY", REST)
        .output()
        .unwrap()
}

fn hmac_b64(text: &str) -> String {
    let mut mac = Hmac::<Sha384>::new_from_slice(REST.as_bytes()).unwrap();
    mac.update(text.as_bytes());
    STANDARD.encode(mac.finalize().into_bytes())
}

const HEADERS: &str = "X-KLEVU-TIMESTAMP=2026-11-23T11:24:54+00:00\nX-KLEVU-APIKEY=klevu-123\nX-KLEVU-AUTH-ALGO=HmacSHA384\nContent-Type=application/json\n[]";

#[test]
fn php_sdk_form_signs_the_php_text_and_sends_the_same_request() {
    let out = sign("php-sdk", "/v2/batch/", "test=1", "json");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let php_text = format!("PUT\n/v2/batch\n?test=1\n{HEADERS}");
    assert_eq!(v["canonical"], php_text.as_str());
    assert_eq!(v["signature"], hmac_b64(&php_text).as_str());
    assert_eq!(v["form"], "php-sdk");

    // The standard form of the same request signs another text.
    let std_out = sign("standard", "/v2/batch/", "test=1", "json");
    let s: Value = serde_json::from_slice(&std_out.stdout).unwrap();
    let std_text = format!("PUT\n/v2/batch/\ntest=1\n{HEADERS}");
    assert_eq!(s["signature"], hmac_b64(&std_text).as_str());

    // The curl command sends the path and query as given, with the PHP form's signature.
    let out = sign("php-sdk", "/v2/batch/", "test=1", "curl");
    let curl = String::from_utf8(out.stdout).unwrap();
    let parsed = parse_curl_command(curl.trim()).unwrap();
    assert!(parsed.url.ends_with("/v2/batch/?test=1"), "{}", parsed.url);
    assert_eq!(parsed.request.path, "/v2/batch/");
    assert_eq!(parsed.request.query, "test=1");
    assert_eq!(
        parsed.request.header_text("Authorization"),
        format!("Bearer {}", hmac_b64(&php_text))
    );

    // --output signature streams the body and gives the same signature.
    let out = sign("php-sdk", "/v2/batch/", "test=1", "signature");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim(),
        hmac_b64(&php_text)
    );
}

#[test]
fn text_output_names_the_form_and_what_differs() {
    let out = sign("php-sdk", "/v2/batch/", "", "text");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("Form: php-sdk (signed as the vendor's PHP SDK signs"),
        "{text}"
    );
    assert!(
        text.contains("differs from the documented form by: the trailing '/' trimmed.\n"),
        "{text}"
    );
    assert!(text.contains("  PATH         /v2/batch\\n\n"), "{text}");
    let out = sign("php-sdk", "/v2/batch", "", "text");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("the same text as the documented form"),
        "{text}"
    );
    // The standard form prints no form line.
    let out = sign("standard", "/v2/batch/", "", "text");
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("Signing text"));
}

#[test]
fn an_unknown_form_is_one_sentence() {
    let out = sign("php", "/v2/batch", "", "text");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("unknown signing form \"php\": use standard or php-sdk"),
        "{err}"
    );
}

fn events(args: &[&str], stdin: Option<Vec<u8>>) -> std::process::Output {
    let mut c = Command::cargo_bin("signscope").unwrap();
    c.arg("events").args(args);
    if let Some(input) = stdin {
        c.write_stdin(input);
    }
    c.output().unwrap()
}

#[test]
fn events_new_prints_either_shape_and_both_validate() {
    let flat = events(&["new", "--items", "3", "--clicked", "2"], None);
    let nested = events(
        &["new", "--items", "3", "--clicked", "2", "--shape", "nested"],
        None,
    );
    assert!(
        nested.status.success(),
        "{}",
        String::from_utf8_lossy(&nested.stderr)
    );
    let f: Value = serde_json::from_slice(&flat.stdout).unwrap();
    let n: Value = serde_json::from_slice(&nested.stdout).unwrap();
    assert!(f[0].get("event_data").is_none() && f[0]["event_list_id"].is_string());
    assert_eq!(n[0]["event_version"], "1.0.0");
    // The same values, moved: list id, items and the clicked item.
    assert_eq!(n[0]["event_data"]["list_id"], f[0]["event_list_id"]);
    assert_eq!(n[0]["event_data"]["items"], f[0]["items"]);
    assert_eq!(n[1]["event_data"]["items"], f[1]["items"]);
    assert!(n[0].get("event_list_id").is_none());
    for out in [flat, nested] {
        let v = events(&["validate", "-"], Some(out.stdout));
        let text = String::from_utf8_lossy(&v.stdout);
        assert_eq!(v.status.code(), Some(0), "{text}");
    }
    let bad = events(&["new", "--shape", "tree"], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("use flat or nested"));
}

#[test]
fn validate_reports_nested_paths() {
    let out = events(&["new", "--shape", "nested"], None);
    let mut v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v[0]["event_data"]["items"][0]["price"] = Value::from("1,00");
    let res = events(&["validate", "-"], Some(serde_json::to_vec(&v).unwrap()));
    assert_eq!(res.status.code(), Some(1));
    let text = String::from_utf8_lossy(&res.stdout);
    assert!(
        text.contains("error FORMAT at [0].event_data.items[0].price"),
        "{text}"
    );
}

#[test]
fn profile_new_with_the_vendor_preset_fills_prefix_and_urls_not_keys() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::cargo_bin("signscope")
            .unwrap()
            .env("SIGNSCOPE_CONFIG_DIR", dir.path().join("config"))
            .env("SIGNSCOPE_DATA_DIR", dir.path().join("data"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&[
        "profile",
        "new",
        "shop",
        "--vendor",
        "klevu",
        "--api-key",
        "klevu-123",
        "--rest-key-env",
        "SHOP_REST_KEY",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let show = String::from_utf8(run(&["profile", "show", "shop"]).stdout).unwrap();
    for want in [
        "https://indexing.ksearchnet.com",
        "https://stats.ksearchnet.com",
        "KLEVU",
        "klevu-123",
        "SHOP_REST_KEY",
    ] {
        assert!(show.contains(want), "{want} missing from {show}");
    }
    // An explicit flag still wins over the preset.
    let out = run(&[
        "profile",
        "new",
        "staging",
        "--vendor",
        "klevu",
        "--indexing-url",
        "http://127.0.0.1:8080",
    ]);
    assert!(out.status.success());
    let show = String::from_utf8(run(&["profile", "show", "staging"]).stdout).unwrap();
    assert!(show.contains("http://127.0.0.1:8080"), "{show}");
    assert!(show.contains("https://stats.ksearchnet.com"), "{show}");
    let out = run(&["profile", "new", "x", "--vendor", "acme"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("known presets are klevu"));
}
