//! A capture from a real account's client carries `X-KLEVU-*` headers: the Diagnose view reads it
//! with that prefix (as `signscope verify` does), whatever the open profile's prefix
//! (`docs/verification.md` rule V11): Ctrl-G verifies it and Alt-L loads its fields.

use crate::core::{sign, Secret, SignableRequest};
use crate::tui::components::diagnose::capture::{
    capture_fields, diagnose_capture_with, parse_capture,
};
use crate::tui::components::diagnose::DiagnoseEffect;
use crate::tui::effect::Command;
use crate::tui::test_util::{t0, TestApp};

/// Raw HTTP of a `PUT /v2/batch` signed by the demo account with the prefix `prefix` at `t0()`.
fn capture(prefix: &str) -> String {
    let ts = crate::core::time::format_timestamp(t0());
    let body = b"[{\"id\":\"sku-1\"}]";
    let req = SignableRequest {
        header_prefix: prefix,
        ..SignableRequest::new(
            "PUT",
            "/v2/batch",
            "",
            &ts,
            crate::server::DEMO_API_KEY,
            body,
        )
    };
    let signed = sign(&req, &Secret::new(crate::server::DEMO_REST_KEY)).unwrap();
    let mut raw = String::from("PUT /v2/batch HTTP/1.1\r\nHost: indexing.ksearchnet.com\r\n");
    for (n, v) in signed.headers.iter() {
        raw.push_str(&format!("{n}: {v}\r\n"));
    }
    raw.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    raw.push_str(std::str::from_utf8(body).unwrap());
    raw
}

#[test]
fn a_klevu_capture_is_verified_and_loaded_with_its_own_prefix() {
    let text = capture("KLEVU");
    assert!(text.contains("X-KLEVU-TIMESTAMP"), "{text}");
    let mut t = TestApp::new(100, 30);
    t.press(crossterm::event::KeyCode::F(6));
    t.paste(&text);
    // The open profile is the demo one (prefix SVC); the capture is verified as X-KLEVU-*.
    let cmds = t.ctrl('g');
    let [Command::Diagnose {
        effect: DiagnoseEffect::Diagnose {
            text: sent, body, ..
        },
        key,
        prefix,
    }] = cmds.as_slice()
    else {
        panic!("{cmds:?}")
    };
    assert_eq!(prefix, "SVC");
    let (ok, lines) = diagnose_capture_with(sent, body.as_deref(), None, key, prefix, t0());
    assert!(ok, "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("X-SVC")), "{lines:?}");
    // Alt-L loads its fields, its API key and timestamp included, with the prefix KLEVU.
    let cmds = t.alt('l');
    let [Command::Diagnose {
        effect: DiagnoseEffect::ParseCapture { text: sent, .. },
        prefix,
        ..
    }] = cmds.as_slice()
    else {
        panic!("{cmds:?}")
    };
    let (fields, ts) = capture_fields(&parse_capture(sent).unwrap(), prefix);
    assert_eq!(fields.spec.header_prefix, "KLEVU");
    assert_eq!(fields.spec.api_key, crate::server::DEMO_API_KEY);
    assert_eq!(fields.spec.auth_algo, "HmacSHA384");
    assert_eq!(ts, crate::core::time::format_timestamp(t0()));
}

#[test]
fn a_capture_without_vendor_headers_is_read_with_the_profiles_prefix() {
    let text = "PUT /v2/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\r\n[]";
    let (fields, ts) = capture_fields(&parse_capture(text).unwrap(), "ACME");
    assert_eq!(fields.spec.header_prefix, "ACME");
    assert_eq!(ts, "");
}
