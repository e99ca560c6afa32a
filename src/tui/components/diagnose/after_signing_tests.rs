//! The Diagnose view names what an independent signer (tests/data/independent_signer.py,
//! Python's own hmac and json) did: requests changed after signing, a clock read twice 38 ms
//! apart, the simplest of two explanations (docs/diagnosis.md D1, D8); and it takes the
//! client's own signing text (Alt-T), as `verify --client-text` does.

use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command as Process, Stdio};

use base64::Engine;
use serde_json::{json, Value};

use crate::tui::components::diagnose::capture::diagnose_capture_with;
use crate::tui::components::diagnose::{DiagnoseEffect, DiagnoseMsg};
use crate::tui::effect::Command;
use crate::tui::message::Message;
use crate::tui::test_util::TestApp;

const TS: &str = "2026-11-22T10:00:00.000Z";
const BODY: &str =
    r#"[{"id":"{n}","name":"Café","url":"https://shop.example/p/1","b":1,"a":[1, 2]}]"#;

/// A case for the signer: the ids it must be named by, then its fields.
fn case(ids: &[&str], more: Value) -> (BTreeSet<String>, Value) {
    let mut v = json!({
        "mistakes": ids, "method": "PUT", "path": "/v2/batch", "query": "", "ts": TS,
        "signed_ts": TS, "api": "pub-key", "key": crate::server::DEMO_REST_KEY,
        "other_key": "other-account-rest-key", "body": BODY,
    });
    for (k, x) in more.as_object().unwrap() {
        v[k] = x.clone();
    }
    (ids.iter().map(|s| s.to_string()).collect(), v)
}

/// The raw requests the Python signer makes for these inputs.
fn signed_by_python(input: &[Value]) -> Vec<String> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/independent_signer.py"
    );
    let mut child = Process::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
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
        .map(|b| {
            let raw = base64::engine::general_purpose::STANDARD.decode(b).unwrap();
            String::from_utf8(raw).unwrap()
        })
        .collect()
}

/// Paste a capture (and the client's text, when given) into the Diagnose view, press Ctrl-G,
/// run the diagnosis the command asks for at the capture's time, and show its answer.
fn diagnose_in_view(t: &mut TestApp, capture: &str, client_text: Option<&str>) -> Vec<String> {
    t.press(crossterm::event::KeyCode::F(6));
    t.paste(capture);
    if let Some(text) = client_text {
        t.alt('t');
        t.paste(text);
    }
    let cmds = t.ctrl('g');
    let [Command::Diagnose {
        effect:
            DiagnoseEffect::Diagnose {
                text,
                body,
                client_text,
                ..
            },
        key,
        prefix,
    }] = cmds.as_slice()
    else {
        panic!("{cmds:?}")
    };
    let now = chrono::DateTime::parse_from_rfc3339(TS).unwrap().to_utc();
    let (ok, lines) = diagnose_capture_with(
        text,
        body.as_deref(),
        client_text.as_deref().map(str::as_bytes),
        key,
        prefix,
        now,
    );
    assert!(!ok, "{lines:?}");
    t.update(Message::Diagnose(DiagnoseMsg::Diagnosed {
        ok,
        lines: lines.clone(),
    }));
    lines
}

/// The ids the report names: its `  ID: ...` lines.
fn named(lines: &[String]) -> BTreeSet<String> {
    lines
        .iter()
        .filter_map(|l| {
            let (id, _) = l.strip_prefix("  ")?.split_once(": ")?;
            id.chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
                .then(|| id.to_string())
        })
        .collect()
}

#[test]
fn the_diagnose_view_names_changes_after_signing_and_the_simplest_explanation() {
    // The cases of tests/diagnosis.rs whose sent body has no CR (a paste keeps no CR bytes).
    let cases = [
        case(
            &["QUERY_ADDED_AFTER_SIGNING"],
            json!({"sent_query": "test=1"}),
        ),
        case(
            &["QUERY_ADDED_AFTER_SIGNING"],
            json!({"query": "a=1", "sent_query": "a=1&test=1"}),
        ),
        case(
            &["QUERY_REMOVED_AFTER_SIGNING"],
            json!({"query": "test=1", "sent_query": ""}),
        ),
        case(
            &["LF_ADDED_AFTER_SIGNING"],
            json!({"after_body": "lf_added"}),
        ),
        case(
            &["LF_ADDED_AFTER_SIGNING"],
            json!({"after_body": "lf_added", "signed_as": "php"}),
        ),
        case(
            &["LINE_ENDS_CONVERTED_AFTER_SIGNING"],
            json!({"after_body": "to_lf",
                   "body": "[\r\n {\"id\":\"{n}\", \"name\": \"Café\"},\r\n {\"url\":\"https://shop.example/p/1\"}\r\n]"}),
        ),
        case(
            &["BODY_RESERIALISED_AFTER_SIGNING"],
            json!({"after_body": "php_pretty", "signed_as": "php"}),
        ),
        case(
            &["BODY_RESERIALISED_AFTER_SIGNING"],
            json!({"after_body": "js_pretty", "signed_as": "python_ascii"}),
        ),
        case(
            &["CURL_DATA_FILE_READ"],
            json!({"after_body": "curl_d", "signed_as": "pretty2_file"}),
        ),
        case(
            &["CURL_DATA_FILE_READ"],
            json!({"after_body": "curl_d", "signed_as": "pretty4_crlf_file"}),
        ),
        case(
            &["TIMESTAMP_DIFFERS"],
            json!({"signed_ts": "2026-11-22T10:00:00.038Z"}),
        ),
        case(
            &["BODY_RESERIALISED_COMPACT"],
            json!({"body": "{\"a\": 1, \"b\": [1, 2], \"c\": \"{n}\"}"}),
        ),
    ];
    let input: Vec<Value> = cases.iter().map(|(_, v)| v.clone()).collect();
    let raws = signed_by_python(&input);
    let mut failures = Vec::new();
    for ((want, _), raw) in cases.iter().zip(&raws) {
        let mut t = TestApp::new(80, 24);
        let lines = diagnose_in_view(&mut t, raw, None);
        if named(&lines) != *want {
            failures.push(format!("{want:?}: {lines:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn at_80x24_the_view_says_the_request_was_signed_then_changed() {
    let (_, v) = case(
        &["LF_ADDED_AFTER_SIGNING"],
        json!({"after_body": "lf_added"}),
    );
    let raw = signed_by_python(&[v]).remove(0);
    let mut t = TestApp::new(80, 24);
    diagnose_in_view(&mut t, &raw, None);
    t.assert_line("Conclusion: the request was signed, then changed: a LF was");
}

#[test]
fn the_clients_own_text_pasted_with_alt_t_shows_the_rest_key_differs() {
    // Signed right, with another key.
    let (_, v) = case(&["OTHER_ACCOUNT_KEY"], json!({}));
    let raw = signed_by_python(&[v]).remove(0);
    let body = BODY.replace("{n}", "0");
    let text = format!(
        "PUT\n/v2/batch\n\nX-SVC-TIMESTAMP={TS}\nX-SVC-APIKEY=pub-key\nX-SVC-AUTH-ALGO=HmacSHA384\nContent-Type=application/json\n{body}"
    );
    let mut t = TestApp::new(80, 24);
    // Without the client's text: nothing is known about the key.
    let lines = diagnose_in_view(&mut t, &raw, None);
    assert!(
        !lines.iter().any(|l| l.contains("so the REST key differs")),
        "{lines:?}"
    );
    let mut t = TestApp::new(80, 24);
    let lines = diagnose_in_view(&mut t, &raw, Some(&text));
    assert!(
        lines[0].starts_with(
            "Conclusion: the client's signing text is identical to the expected one, so the REST key differs"
        ),
        "{lines:?}"
    );
    // The box shows the client's text under its own title; Alt-T brings the capture back.
    t.assert_line("Client's signing text");
    t.alt('t');
    t.assert_line("Captured request");
}
