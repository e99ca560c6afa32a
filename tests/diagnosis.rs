//! The diagnosis against an independent signer: every catalogued mistake, and pairs of them,
//! made by a Python client (tests/data/independent_signer.py, which uses Python's own hmac,
//! hashlib and json), must be named exactly by `signscope verify --output json` and by the local
//! server's 401 answer (docs/diagnosis.md).

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

use base64::Engine;
use chrono::TimeZone;
use serde_json::{json, Value};
use signscope::core::Secret;
use signscope::server::{fixed_clock, spawn, ServerConfig};

const TS: &str = "2026-11-22T10:00:00.000Z";
const KEY: &str = "rest-key-0123";
const SPACED_KEY: &str = " rest key with spaces ";
const B64_KEY: &str = "c2lnbnNjb3BlLXRlc3Qta2V5";
const OTHER_KEY: &str = "other-account-rest-key";
const BODY: &str =
    r#"[{"id":"{n}","name":"Café","url":"https://shop.example/p/1","b":1,"a":[1, 2]}]"#;

struct Case {
    mistakes: &'static [&'static str],
    method: &'static str,
    path: &'static str,
    query: &'static str,
    api: &'static str,
    signed_ts: Option<&'static str>,
    client_form: Option<&'static str>,
    /// Only the server knows several accounts.
    server_only: bool,
    /// The timestamp header sent (TS when `None`).
    ts: Option<&'static str>,
    /// More for the signer, as a JSON object: `url` (`https`, `http`, `vendor`), `ct` (the
    /// Content-Type signed), `order` (`"sorted"`, or the order signed and sent), `newline` and
    /// `quote` (around or after the key).
    extra: &'static str,
}

const fn case(mistakes: &'static [&'static str]) -> Case {
    Case {
        mistakes,
        method: "PUT",
        path: "/v2/batch",
        query: "",
        api: "pub-key",
        signed_ts: None,
        client_form: None,
        server_only: false,
        ts: None,
        extra: "{}",
    }
}

fn cases() -> Vec<Case> {
    let mut all = catalogue_cases();
    all.extend(round_three_cases());
    all
}

/// Changes made to the request after it was signed, a clock read twice 38 ms apart, and the
/// simplest of several explanations (docs/diagnosis.md D1, D8).
fn round_three_cases() -> Vec<Case> {
    vec![
        // A query appended after signing (a library adding `?test=1`), to no query or to one.
        Case {
            extra: r#"{"sent_query": "test=1"}"#,
            ..case(&["QUERY_ADDED_AFTER_SIGNING"])
        },
        Case {
            query: "a=1",
            extra: r#"{"sent_query": "a=1&test=1"}"#,
            ..case(&["QUERY_ADDED_AFTER_SIGNING"])
        },
        // The vendor's test query removed after signing.
        Case {
            query: "test=1",
            extra: r#"{"sent_query": ""}"#,
            ..case(&["QUERY_REMOVED_AFTER_SIGNING"])
        },
        // A LF appended to the body after signing (`echo >> body.json`, a middleware): to a
        // spaced body, to PHP's escaped compact JSON, and a CRLF.
        Case {
            extra: r#"{"after_body": "lf_added"}"#,
            ..case(&["LF_ADDED_AFTER_SIGNING"])
        },
        Case {
            extra: r#"{"after_body": "lf_added", "signed_as": "php"}"#,
            ..case(&["LF_ADDED_AFTER_SIGNING"])
        },
        Case {
            extra: r#"{"after_body": "crlf_added"}"#,
            ..case(&["LF_ADDED_AFTER_SIGNING"])
        },
        // The body's line ends converted on the way, both directions.
        Case {
            extra: concat!(
                r#"{"after_body": "to_crlf", "body": "[\n {\"id\":\"{n}\", \"name\": \"Café\"},"#,
                r#"\n {\"url\":\"https://shop.example/p/1\"}\n]"}"#
            ),
            ..case(&["LINE_ENDS_CONVERTED_AFTER_SIGNING"])
        },
        Case {
            extra: concat!(
                r#"{"after_body": "to_lf", "body": "[\r\n {\"id\":\"{n}\", \"name\": \"Café\"},"#,
                r#"\r\n {\"url\":\"https://shop.example/p/1\"}\r\n]"}"#
            ),
            ..case(&["LINE_ENDS_CONVERTED_AFTER_SIGNING"])
        },
        // Re-serialised after signing: PHP's json_encode($d) signed, JSON_PRETTY_PRINT sent;
        // Python's ASCII-escaped compact JSON signed, JavaScript's 2-space JSON sent.
        Case {
            extra: r#"{"after_body": "php_pretty", "signed_as": "php"}"#,
            ..case(&["BODY_RESERIALISED_AFTER_SIGNING"])
        },
        Case {
            extra: r#"{"after_body": "js_pretty", "signed_as": "python_ascii"}"#,
            ..case(&["BODY_RESERIALISED_AFTER_SIGNING"])
        },
        // curl -d @file: a 2-space file with a final LF, a 4-space CRLF file.
        Case {
            extra: r#"{"after_body": "curl_d", "signed_as": "pretty2_file"}"#,
            ..case(&["CURL_DATA_FILE_READ"])
        },
        Case {
            extra: r#"{"after_body": "curl_d", "signed_as": "pretty4_crlf_file"}"#,
            ..case(&["CURL_DATA_FILE_READ"])
        },
        // A clock read twice 38 ms apart (the search widens past ±5 ms).
        Case {
            signed_ts: Some("2026-11-22T10:00:00.038Z"),
            ..case(&["TIMESTAMP_DIFFERS"])
        },
        // Keys already sorted: re-serialising compactly alone explains it (sorting changed
        // nothing), not the pair of it and sorting.
        Case {
            extra: r#"{"body": "{\"a\": 1, \"b\": [1, 2], \"c\": \"{n}\"}"}"#,
            ..case(&["BODY_RESERIALISED_COMPACT"])
        },
        // The vendor's PHP SDK behind a middleware that appends a LF.
        Case {
            path: "/v2/batch/",
            query: "test=1",
            extra: r#"{"after_body": "lf_added"}"#,
            ..case(&[
                "QUESTION_MARK_BEFORE_QUERY",
                "TRAILING_SLASH_TRIMMED",
                "LF_ADDED_AFTER_SIGNING",
            ])
        },
    ]
}

/// Every catalogued mistake and pairs of them.
fn catalogue_cases() -> Vec<Case> {
    vec![
        // Singles.
        Case {
            query: "test=1",
            client_form: Some("php-sdk"),
            ..case(&["QUESTION_MARK_BEFORE_QUERY"])
        },
        case(&["EMPTY_QUERY_LINE_OMITTED"]),
        Case {
            path: "/v2/batch/",
            client_form: Some("php-sdk"),
            ..case(&["TRAILING_SLASH_TRIMMED"])
        },
        Case {
            query: "a=1",
            ..case(&["CRLF_LINE_ENDINGS"])
        },
        case(&["TRAILING_LF_AFTER_BODY"]),
        case(&["LOWERCASE_HEADER_NAMES"]),
        case(&["LOWERCASE_METHOD"]),
        case(&["BODY_RESERIALISED_COMPACT"]),
        case(&["BODY_RESERIALISED_PRETTY"]),
        case(&["BODY_SORTED_KEYS"]),
        Case {
            api: "spaced-key",
            ..case(&["KEY_WHITESPACE_TRIMMED"])
        },
        case(&["KEY_WITH_TRAILING_NEWLINE"]),
        case(&["PUBLIC_API_KEY_AS_SECRET"]),
        case(&["HEX_INSTEAD_OF_BASE64"]),
        case(&["URL_SAFE_BASE64"]),
        case(&["SHA256_INSTEAD_OF_SHA384"]),
        case(&["HEADER_LINES_REORDERED"]),
        case(&["EMPTY_BODY_SIGNED"]),
        case(&["BODY_UNICODE_ESCAPED"]),
        case(&["BODY_SLASHES_ESCAPED"]),
        Case {
            query: "q=red%20shoes",
            ..case(&["QUERY_PERCENT_DECODED"])
        },
        Case {
            query: "b=2&a=1",
            ..case(&["QUERY_PARAMS_SORTED"])
        },
        case(&["FULL_URL_AS_PATH"]),
        Case {
            path: "/v2/attributes/my%20attr",
            ..case(&["PATH_PERCENT_DECODED"])
        },
        Case {
            signed_ts: Some("2026-11-22T10:00:00+00:00"),
            ..case(&["TIMESTAMP_FORM_DIFFERS"])
        },
        Case {
            signed_ts: Some("2026-11-22T10:00:00.003Z"),
            ..case(&["TIMESTAMP_DIFFERS"])
        },
        Case {
            ts: Some("2026-11-22T10:00:00Z"),
            signed_ts: Some("2026-11-22T10:00:00.372Z"),
            ..case(&["TIMESTAMP_MILLISECONDS_DROPPED"])
        },
        case(&["CONTENT_TYPE_DIFFERS"]),
        case(&["HEADER_PREFIX_DIFFERS"]),
        case(&["KEY_QUOTED"]),
        Case {
            api: "b64-key",
            ..case(&["KEY_BASE64_DECODED"])
        },
        Case {
            server_only: true,
            ..case(&["OTHER_ACCOUNT_KEY"])
        },
        // Encodings come with the hash: SHA-256 digests are padded, SHA-384 ones never are.
        case(&["SHA256_INSTEAD_OF_SHA384", "BASE64_PADDING_MISSING"]),
        // Pairs.
        Case {
            path: "/v2/batch/",
            query: "test=1",
            client_form: Some("php-sdk"),
            ..case(&["QUESTION_MARK_BEFORE_QUERY", "TRAILING_SLASH_TRIMMED"])
        },
        case(&["LOWERCASE_METHOD", "CRLF_LINE_ENDINGS"]),
        Case {
            signed_ts: Some("2026-11-22T10:00:00Z"),
            ..case(&["TIMESTAMP_FORM_DIFFERS", "BODY_RESERIALISED_PRETTY"])
        },
        case(&["LOWERCASE_HEADER_NAMES", "KEY_WITH_TRAILING_NEWLINE"]),
        case(&["EMPTY_BODY_SIGNED", "KEY_QUOTED"]),
        case(&["BODY_UNICODE_ESCAPED", "BODY_SLASHES_ESCAPED"]),
        case(&["CONTENT_TYPE_DIFFERS", "HEADER_PREFIX_DIFFERS"]),
        Case {
            server_only: true,
            ..case(&["OTHER_ACCOUNT_KEY", "TRAILING_LF_AFTER_BODY"])
        },
        // One pair of each family that can co-occur (docs/diagnosis.md D1).
        // Head and head: a clock read twice with headers signed from a sorted map; the same
        // query line sorted and given a '?'; a full URL of a trimmed path.
        Case {
            signed_ts: Some("2026-11-22T10:00:00.001Z"),
            extra: r#"{"order": "sorted"}"#,
            ..case(&["TIMESTAMP_DIFFERS", "HEADER_LINES_REORDERED"])
        },
        Case {
            query: "b=2&a=1",
            ..case(&["QUESTION_MARK_BEFORE_QUERY", "QUERY_PARAMS_SORTED"])
        },
        Case {
            path: "/v2/batch/",
            extra: r#"{"url": "vendor"}"#,
            ..case(&["FULL_URL_AS_PATH", "TRAILING_SLASH_TRIMMED"])
        },
        // Head and body.
        Case {
            signed_ts: Some("2026-11-22T09:59:59.999Z"),
            ..case(&["TIMESTAMP_DIFFERS", "BODY_RESERIALISED_COMPACT"])
        },
        Case {
            extra: r#"{"order": [3, 0, 1, 2]}"#,
            ..case(&["HEADER_LINES_REORDERED", "BODY_SLASHES_ESCAPED"])
        },
        // Key and head (a CRLF key, an http:// URL, another charset spelling).
        Case {
            extra: r#"{"newline": "\r\n"}"#,
            ..case(&["KEY_WITH_TRAILING_NEWLINE", "LOWERCASE_HEADER_NAMES"])
        },
        Case {
            api: "b64-key",
            extra: r#"{"url": "http"}"#,
            ..case(&["KEY_BASE64_DECODED", "FULL_URL_AS_PATH"])
        },
        Case {
            extra: r#"{"ct": "application/json;charset=UTF-8"}"#,
            ..case(&["PUBLIC_API_KEY_AS_SECRET", "CONTENT_TYPE_DIFFERS"])
        },
        // Key and body.
        Case {
            extra: r#"{"quote": "'"}"#,
            ..case(&["KEY_QUOTED", "BODY_UNICODE_ESCAPED"])
        },
        // A clock offset and a key.
        Case {
            api: "b64-key",
            signed_ts: Some("2026-11-22T09:59:59.999Z"),
            ..case(&["TIMESTAMP_DIFFERS", "KEY_BASE64_DECODED"])
        },
        // A header order and a key.
        Case {
            extra: r#"{"order": "sorted"}"#,
            ..case(&["HEADER_LINES_REORDERED", "PUBLIC_API_KEY_AS_SECRET"])
        },
        // A timestamp form with a body mistake (microseconds, as Python's isoformat writes).
        Case {
            signed_ts: Some("2026-11-22T10:00:00.000000+00:00"),
            ..case(&["TIMESTAMP_FORM_DIFFERS", "TRAILING_LF_AFTER_BODY"])
        },
        // The PHP SDK's form with one more mistake: a key, a head, a body, a clock.
        Case {
            path: "/v2/batch/",
            query: "test=1",
            ..case(&[
                "QUESTION_MARK_BEFORE_QUERY",
                "TRAILING_SLASH_TRIMMED",
                "KEY_WITH_TRAILING_NEWLINE",
            ])
        },
        Case {
            path: "/v2/batch/",
            query: "test=1",
            extra: r#"{"quote": "'"}"#,
            ..case(&[
                "QUESTION_MARK_BEFORE_QUERY",
                "TRAILING_SLASH_TRIMMED",
                "KEY_QUOTED",
            ])
        },
        Case {
            path: "/v2/batch/",
            query: "test=1",
            ..case(&[
                "QUESTION_MARK_BEFORE_QUERY",
                "TRAILING_SLASH_TRIMMED",
                "LOWERCASE_HEADER_NAMES",
            ])
        },
        Case {
            path: "/v2/batch/",
            query: "test=1&a=2",
            ..case(&[
                "QUESTION_MARK_BEFORE_QUERY",
                "TRAILING_SLASH_TRIMMED",
                "QUERY_PARAMS_SORTED",
            ])
        },
        Case {
            path: "/v2/batch/",
            query: "test=1",
            extra: r#"{"order": "sorted"}"#,
            ..case(&[
                "QUESTION_MARK_BEFORE_QUERY",
                "TRAILING_SLASH_TRIMMED",
                "HEADER_LINES_REORDERED",
            ])
        },
        Case {
            path: "/v2/batch/",
            query: "test=1",
            ..case(&[
                "QUESTION_MARK_BEFORE_QUERY",
                "TRAILING_SLASH_TRIMMED",
                "BODY_SLASHES_ESCAPED",
            ])
        },
        Case {
            path: "/v2/batch/",
            query: "test=1",
            ts: Some("2026-11-22T10:00:00+00:00"),
            signed_ts: Some("2026-11-22T10:00:01+00:00"),
            ..case(&[
                "QUESTION_MARK_BEFORE_QUERY",
                "TRAILING_SLASH_TRIMMED",
                "TIMESTAMP_DIFFERS",
            ])
        },
    ]
}

fn rest_key(api: &str) -> &'static str {
    match api {
        "spaced-key" => SPACED_KEY,
        "b64-key" => B64_KEY,
        _ => KEY,
    }
}

/// The raw requests the Python client signs for these inputs.
fn signed_by_python_values(input: &[Value]) -> Vec<Vec<u8>> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/independent_signer.py"
    );
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs the independent signer");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(input).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the independent signer failed");
    let list: Vec<String> = serde_json::from_slice(&out.stdout).unwrap();
    list.iter()
        .map(|b| base64::engine::general_purpose::STANDARD.decode(b).unwrap())
        .collect()
}

/// The raw requests the Python client signs, one per case.
fn signed_by_python(cases: &[Case]) -> Vec<Vec<u8>> {
    let input: Vec<Value> = cases
        .iter()
        .map(|c| {
            let mut v = json!({
                "mistakes": c.mistakes,
                "method": c.method,
                "path": c.path,
                "query": c.query,
                "ts": c.ts.unwrap_or(TS),
                "signed_ts": c.signed_ts.or(c.ts).unwrap_or(TS),
                "api": c.api,
                "key": rest_key(c.api),
                "other_key": OTHER_KEY,
                "body": BODY,
            });
            let extra: Value = serde_json::from_str(c.extra).unwrap();
            for (k, x) in extra.as_object().unwrap() {
                v[k] = x.clone();
            }
            v
        })
        .collect();
    signed_by_python_values(&input)
}

fn ids(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn want(c: &Case) -> BTreeSet<String> {
    c.mistakes.iter().map(|s| s.to_string()).collect()
}

#[test]
fn verify_json_names_every_mistake_and_pair_of_an_independent_signer() {
    let cases = cases();
    let raws = signed_by_python(&cases);
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (c, raw) in cases.iter().zip(&raws).filter(|(c, _)| !c.server_only) {
        let file = dir.path().join("req.http");
        std::fs::write(&file, raw).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_signscope"))
            .args([
                "verify",
                "--output",
                "json",
                "--now",
                TS,
                "--rest-key-env",
                "DIAG_KEY",
            ])
            .arg("--request-file")
            .arg(&file)
            .env("DIAG_KEY", rest_key(c.api))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{:?}: rejected", c.mistakes);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["accepted"], false);
        assert_eq!(v["status"], 401);
        assert_eq!(v["code"], "SIGNATURE_MISMATCH");
        let got = ids(&v["mistakes"]);
        if got != want(c) || v["client_form"].as_str() != c.client_form {
            failures.push(format!(
                "{:?}: got {got:?}, client_form {}; {}",
                c.mistakes, v["client_form"], v["message"]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn verify_json_has_exactly_the_documented_fields_and_every_failing_check() {
    let c = case(&["KEY_WITH_TRAILING_NEWLINE"]);
    let raw = &signed_by_python(std::slice::from_ref(&c))[0];
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("req.http");
    std::fs::write(&file, raw).unwrap();
    // A clock an hour ahead: the signature and the time window both fail.
    let out = Command::new(env!("CARGO_BIN_EXE_signscope"))
        .args(["verify", "--output", "json", "--rest-key-env", "DIAG_KEY"])
        .args(["--now", "2026-11-22T11:00:00.000Z", "--request-file"])
        .arg(&file)
        .env("DIAG_KEY", KEY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys: BTreeSet<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        BTreeSet::from([
            "accepted",
            "status",
            "code",
            "mistakes",
            "client_form",
            "message",
            "checks",
            "expected_text",
            "expected_signature",
            "body"
        ])
    );
    // The body is judged only once the signature verifies (docs/diagnosis.md).
    assert_eq!(v["body"], Value::Null);
    let codes: Vec<&str> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["SIGNATURE_MISMATCH", "TIMESTAMP_OUT_OF_WINDOW"]);
    assert!(v["expected_text"]
        .as_str()
        .unwrap()
        .starts_with("PUT\n/v2/batch\n\nX-SVC-TIMESTAMP=2026-11-22T10:00:00.000Z\n"));
    assert_eq!(v["client_form"], Value::Null);
    assert_eq!(v["expected_signature"].as_str().unwrap().len(), 64);
}

#[test]
fn verify_client_text_locates_the_first_difference() {
    // Signed by Python with the header names in lower case; the user pastes that text.
    let c = case(&["LOWERCASE_HEADER_NAMES", "KEY_QUOTED", "EMPTY_BODY_SIGNED"]);
    let raw = &signed_by_python(std::slice::from_ref(&c))[0];
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("req.http");
    std::fs::write(&file, raw).unwrap();
    let client_text = dir.path().join("client.txt");
    std::fs::write(
        &client_text,
        "PUT\n/v2/batch\n\nx-svc-timestamp=2026-11-22T10:00:00.000Z\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_signscope"))
        .args([
            "verify",
            "--now",
            TS,
            "--rest-key-env",
            "DIAG_KEY",
            "--request-file",
        ])
        .arg(&file)
        .arg("--client-text")
        .arg(&client_text)
        .env("DIAG_KEY", KEY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("first differs from the expected one at byte offset 15, in the TIMESTAMP line: expected 0x58 ('X'), the client's has 0x78 ('x')"),
        "{text}"
    );
}

/// POST raw bytes to the server and read its JSON answer.
fn send(addr: std::net::SocketAddr, raw: &[u8]) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(raw).unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out);
    let status: u16 = text[9..12].parse().unwrap();
    let body = &text[text.find("\r\n\r\n").unwrap() + 4..];
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

fn debug_findings(v: &Value) -> (BTreeSet<String>, Option<String>) {
    let mut ids = BTreeSet::new();
    let mut form = None;
    for e in v["debug"].as_array().unwrap() {
        let m = e["message"].as_str().unwrap();
        if let Some(rest) = m.strip_prefix("finding ") {
            ids.insert(rest.split(':').next().unwrap().to_string());
        }
        if let Some(f) = m.strip_prefix("client form: ") {
            form = Some(f.to_string());
        }
    }
    (ids, form)
}

#[test]
fn the_servers_401_names_every_mistake_and_pair_of_an_independent_signer() {
    let cases = cases();
    let raws = signed_by_python(&cases);
    let mut cfg = ServerConfig::new()
        .with_account("pub-key", Secret::new(KEY))
        .with_account("spaced-key", Secret::new(SPACED_KEY))
        .with_account("b64-key", Secret::new(B64_KEY))
        .with_account("other-account", Secret::new(OTHER_KEY));
    // The independent signer's captures name the host they were sent to, as a real capture
    // does; the server refuses an unknown Host unless it is allowed (`docs/server.md` rule L9).
    cfg.allowed_hosts = vec!["example.test".to_string()];
    cfg.clock = fixed_clock(
        chrono::Utc
            .with_ymd_and_hms(2026, 11, 22, 10, 0, 0)
            .unwrap(),
    );
    let server = spawn(cfg, std::net::TcpListener::bind("127.0.0.1:0").unwrap()).unwrap();
    let mut failures = Vec::new();
    for (c, raw) in cases.iter().zip(&raws) {
        let (status, v) = send(server.addr, raw);
        assert_eq!(status, 401, "{:?}: {v}", c.mistakes);
        assert_eq!(v["code"], "SIGNATURE_MISMATCH");
        let (got, form) = debug_findings(&v);
        if got != want(c) || form.as_deref() != c.client_form {
            failures.push(format!("{:?}: got {got:?}, form {form:?}; {v}", c.mistakes));
        }
        if c.mistakes.contains(&"OTHER_ACCOUNT_KEY") {
            assert!(v.to_string().contains("the account other-account"), "{v}");
        }
    }
    server.stop();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_server_with_no_free_diagnosis_still_answers_the_verdict_and_the_text() {
    let c = case(&["KEY_WITH_TRAILING_NEWLINE"]);
    let raw = &signed_by_python(std::slice::from_ref(&c))[0];
    let mut cfg = ServerConfig::new().with_account("pub-key", Secret::new(KEY));
    cfg.allowed_hosts = vec!["example.test".to_string()];
    cfg.clock = fixed_clock(
        chrono::Utc
            .with_ymd_and_hms(2026, 11, 22, 10, 0, 0)
            .unwrap(),
    );
    cfg.max_diagnoses = 0;
    let server = spawn(cfg, std::net::TcpListener::bind("127.0.0.1:0").unwrap()).unwrap();
    let (status, v) = send(server.addr, raw);
    server.stop();
    assert_eq!(status, 401);
    assert_eq!(v["code"], "SIGNATURE_MISMATCH");
    let msgs: Vec<&str> = v["debug"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert!(msgs.contains(&"diagnosis skipped: server busy"), "{msgs:?}");
    assert!(
        msgs.iter()
            .any(|m| m.starts_with("canonical: PUT\\n/v2/batch\\n")),
        "{msgs:?}"
    );
    assert!(!msgs.iter().any(|m| m.starts_with("finding ")), "{msgs:?}");
}

#[test]
fn the_servers_401_for_a_2mb_body_stays_small_and_says_how_long_the_body_is() {
    // A 2 MB body signed with a key the server does not have: the answer carries the head
    // whole, the body's first and last 4 KiB, and the body's length.
    let mut body = b"[".to_vec();
    while body.len() < 2_000_000 - 40 {
        body.extend_from_slice(br#"{"id":"1","name":"Caf\u00e9"},"#);
    }
    body.extend_from_slice(br#"{"id":"last-item-marker"}]"#);
    let sig = base64::engine::general_purpose::STANDARD.encode([9u8; 48]);
    let mut raw = format!(
        "PUT /v2/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nX-SVC-TIMESTAMP: {TS}\r\nX-SVC-APIKEY: pub-key\r\nX-SVC-AUTH-ALGO: HmacSHA384\r\nContent-Type: application/json\r\nAuthorization: Bearer {sig}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    raw.extend_from_slice(&body);
    let mut cfg = ServerConfig::new().with_account("pub-key", Secret::new(KEY));
    cfg.clock = fixed_clock(
        chrono::Utc
            .with_ymd_and_hms(2026, 11, 22, 10, 0, 0)
            .unwrap(),
    );
    cfg.max_diagnoses = 0;
    let server = spawn(cfg, std::net::TcpListener::bind("127.0.0.1:0").unwrap()).unwrap();
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.write_all(&raw).unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    server.stop();
    assert!(out.len() < 64 * 1024, "answer of {} bytes", out.len());
    let text = String::from_utf8_lossy(&out);
    let v: Value = serde_json::from_str(&text[text.find("\r\n\r\n").unwrap() + 4..]).unwrap();
    let canonical = v["debug"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["message"].as_str()?.strip_prefix("canonical: "))
        .next()
        .unwrap()
        .to_string();
    let head = format!("PUT\\n/v2/batch\\n\\nX-SVC-TIMESTAMP={TS}\\nX-SVC-APIKEY=pub-key\\nX-SVC-AUTH-ALGO=HmacSHA384\\nContent-Type=application/json\\n[{{\"id\":\"1\"");
    assert!(canonical.starts_with(&head), "{}", &canonical[..200]);
    assert!(
        canonical.contains(&format!("of the body's {} bytes not shown]…", body.len())),
        "{}",
        &canonical[..300]
    );
    assert!(canonical.ends_with(r#"{"id":"last-item-marker"}]"#));
    // 4 KiB at each end, escaped (`\\` doubles each backslash of the body's `\u00e9`).
    assert!(canonical.len() < 3 * 8 * 1024, "{}", canonical.len());
}

/// Run `signscope verify --output json` on a request file, with the key and extra arguments.
fn verify_json(file: &std::path::Path, key: &str, more: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_signscope"))
        .args(["verify", "--output", "json", "--now", TS])
        .args(["--rest-key-env", "DIAG_KEY", "--request-file"])
        .arg(file)
        .args(more)
        .env("DIAG_KEY", key)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "rejected");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn verify_names_a_curl_data_file_read_from_the_file_a_curl_command_names() {
    // A file a person wrote (no serialiser indents it so), signed as written by Python; curl's
    // -d @file sends it without its CR and LF bytes.
    let file_body =
        "[\n {\"id\":\"{n}\", \"name\": \"Café\"},\r\n {\"url\":\"https://shop.example/p/1\"}\n]\n";
    let c = Case {
        extra: "{}",
        ..case(&[])
    };
    let mut input = json!({
        "mistakes": c.mistakes, "method": "PUT", "path": "/v2/batch", "query": "",
        "ts": TS, "signed_ts": TS, "api": "pub-key", "key": KEY, "other_key": OTHER_KEY,
        "body": file_body,
    });
    input["after_body"] = json!("curl_d");
    let raw = signed_by_python_values(&[input]).remove(0);
    let text = String::from_utf8(raw).unwrap();
    let header = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}: ")))
            .unwrap()
            .trim()
            .to_string()
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("body.json"), file_body.replace("{n}", "0")).unwrap();
    let cmd = format!(
        "curl -X PUT 'http://127.0.0.1:8080/v2/batch' -H 'X-SVC-TIMESTAMP: {}' -H 'X-SVC-APIKEY: pub-key' -H 'X-SVC-AUTH-ALGO: HmacSHA384' -H 'Content-Type: application/json' -H 'Authorization: {}' -d @body.json",
        header("X-SVC-TIMESTAMP"),
        header("Authorization"),
    );
    let req = dir.path().join("req.sh");
    std::fs::write(&req, cmd).unwrap();
    let v = verify_json(&req, KEY, &[]);
    assert_eq!(
        ids(&v["mistakes"]),
        BTreeSet::from(["CURL_DATA_FILE_READ".to_string()]),
        "{v}"
    );
    let message = v["message"].as_str().unwrap();
    assert!(
        message.contains("the request was signed, then changed: curl read the body with -d @file"),
        "{message}"
    );
}

#[test]
fn nothing_found_says_how_far_the_clock_search_looked() {
    // Signed 30 s after the header's instant with a short body: beyond the search.
    let c = Case {
        signed_ts: Some("2026-11-22T10:00:30.000Z"),
        extra: r#"{"body": "[{\"id\":\"{n}\"}]"}"#,
        ..case(&["TIMESTAMP_DIFFERS"])
    };
    let raw = &signed_by_python(std::slice::from_ref(&c))[0];
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("req.http");
    std::fs::write(&file, raw).unwrap();
    let v = verify_json(&file, KEY, &[]);
    assert_eq!(v["mistakes"], json!([]), "{v}");
    let message = v["message"].as_str().unwrap();
    let reach: u64 = message
        .split("a clock read twice was tried up to ")
        .nth(1)
        .and_then(|r| r.split(" ms either side").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{message}"));
    // 4 MiB of hashing over a small request reaches far past ±5 ms, but not 30 s.
    assert!((38..30_000).contains(&reach), "{message}");
    // It describes; it does not instruct.
    assert!(!message.contains("compare the"), "{message}");
}

/// A server that knows the test's account, on the test's fixed clock.
fn diagnosing_server() -> signscope::server::Server {
    let mut cfg = ServerConfig::new().with_account("pub-key", Secret::new(KEY));
    cfg.allowed_hosts = vec!["example.test".to_string()];
    cfg.clock = fixed_clock(
        chrono::Utc
            .with_ymd_and_hms(2026, 11, 22, 10, 0, 0)
            .unwrap(),
    );
    spawn(cfg, std::net::TcpListener::bind("127.0.0.1:0").unwrap()).unwrap()
}

/// The `diagnosis: ...` entry of a 401.
fn diagnosis_entry(v: &Value) -> String {
    v["debug"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["message"].as_str()?.strip_prefix("diagnosis: "))
        .next()
        .unwrap_or_else(|| panic!("{v}"))
        .to_string()
}

#[test]
fn the_server_searches_a_clock_read_twice_64_ms_either_way_and_verify_further() {
    // docs/diagnosis.md D9: the server diagnoses every mismatch it answers, so its clock
    // search stops at 64 units either way; `verify` (asked about one request) goes on within
    // its 4 MiB budget. Signed 64 ms and 65 ms after the header's instant, with a short body.
    let dir = tempfile::tempdir().unwrap();
    let server = diagnosing_server();
    for (signed, server_names) in [
        ("2026-11-22T10:00:00.064Z", true),
        ("2026-11-22T09:59:59.936Z", true),
        ("2026-11-22T10:00:00.065Z", false),
        ("2026-11-22T10:00:00.200Z", false),
    ] {
        let c = Case {
            signed_ts: Some(signed),
            extra: r#"{"body": "[{\"id\":\"{n}\"}]"}"#,
            ..case(&["TIMESTAMP_DIFFERS"])
        };
        let raw = &signed_by_python(std::slice::from_ref(&c))[0];
        let file = dir.path().join("req.http");
        std::fs::write(&file, raw).unwrap();
        let v = verify_json(&file, KEY, &[]);
        assert_eq!(v["mistakes"], json!(["TIMESTAMP_DIFFERS"]), "{signed}: {v}");
        let (status, v) = send(server.addr, raw);
        assert_eq!(status, 401, "{v}");
        let (got, _) = debug_findings(&v);
        if server_names {
            assert_eq!(got, want(&c), "{signed}: {v}");
        } else {
            assert!(got.is_empty(), "{signed}: {v}");
            let said = diagnosis_entry(&v);
            assert!(
                said.contains("a clock read twice was tried up to 64 ms either side"),
                "{signed}: {said}"
            );
        }
    }
    server.stop();
}

#[test]
fn identical_texts_conclude_that_the_rest_key_differs() {
    // Signed right, with another key: the client's own text is the expected one.
    let c = case(&["OTHER_ACCOUNT_KEY"]);
    let raw = &signed_by_python(std::slice::from_ref(&c))[0];
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("req.http");
    std::fs::write(&file, raw).unwrap();
    let v = verify_json(&file, KEY, &[]);
    let expected = v["expected_text"].as_str().unwrap().to_string();
    let client = dir.path().join("client.txt");
    std::fs::write(&client, &expected).unwrap();
    let v = verify_json(&file, KEY, &["--client-text", client.to_str().unwrap()]);
    let message = v["message"].as_str().unwrap();
    assert!(
        message.contains(
            "the client's signing text is identical to the expected one, so the REST key differs"
        ),
        "{message}"
    );
    assert!(!message.contains("either"), "{message}");
}
