//! The signing vectors from an independent implementation (shared/vectors/signing.json), byte for
//! byte. A copy lives in tests/data so the suite runs without shared/ beside the checkout; when
//! shared/ is there, the two copies must agree.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::Value;
use signscope::core::{sign, Secret, SignableRequest};

const VECTORS: &str = include_str!("data/signing.json");

fn cases() -> Vec<Value> {
    let v: Value = serde_json::from_str(VECTORS).unwrap();
    v["cases"].as_array().unwrap().clone()
}

#[test]
fn every_vector_matches_byte_for_byte() {
    let cases = cases();
    assert!(
        cases.len() >= 5,
        "expected the shipped vectors, got {}",
        cases.len()
    );
    for c in cases {
        let s = |k: &str| c[k].as_str().unwrap().to_string();
        let body = STANDARD.decode(s("body_b64")).unwrap();
        let (method, path, query, ts, api, algo, ct, prefix) = (
            s("method"),
            s("path"),
            s("query"),
            s("timestamp"),
            s("api_key"),
            s("auth_algo"),
            s("content_type"),
            s("header_prefix"),
        );
        let req = SignableRequest {
            method: &method,
            path: &path,
            query: &query,
            header_prefix: &prefix,
            timestamp: &ts,
            api_key: &api,
            auth_algo: &algo,
            content_type: &ct,
            body: &body,
        };
        let want_canonical = STANDARD.decode(s("canonical_b64")).unwrap();
        assert_eq!(
            req.canonical().to_bytes(),
            want_canonical,
            "canonical text of {}",
            s("name")
        );
        let signed = sign(&req, &Secret::new(s("rest_key"))).unwrap();
        assert_eq!(
            signed.signature(),
            s("signature"),
            "signature of {}",
            s("name")
        );
    }
}

#[test]
fn shipped_copy_equals_shared_vectors_when_present() {
    let shared =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/vectors/signing.json");
    if let Ok(text) = std::fs::read_to_string(&shared) {
        // The cases must be the same, byte for byte in every field; the shipped copy's "about"
        // line describes the vectors in this repository's words (it cites docs/signing.md).
        let a: Value = serde_json::from_str(&text).unwrap();
        let b: Value = serde_json::from_str(VECTORS).unwrap();
        assert!(
            a["cases"].as_array().is_some_and(|c| !c.is_empty()),
            "no cases in {}",
            shared.display()
        );
        assert_eq!(
            a["cases"],
            b["cases"],
            "tests/data/signing.json is out of date with {}",
            shared.display()
        );
    }
}
