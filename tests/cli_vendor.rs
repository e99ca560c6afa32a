//! The CLI with the vendor's clients in mind: `sign --form php-sdk` (the PHP SDK's signing
//! text, checked against an independent HMAC of the text written out by hand here).

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
