//! The workbench's Diagnose view and `signscope verify` report the same failing checks, in the
//! same order: a wrong signature that is also out of the time window, and an unsigned request
//! missing three headers. The view is driven through the TUI fixture (paste, Ctrl-G, the
//! runtime's diagnosis, the screen); the CLI is the real binary.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use assert_cmd::Command;
use chrono::TimeZone;
use signscope::core::http_text::to_raw_request;
use signscope::core::{sign, Secret, SignableRequest};
use signscope::tui::components::diagnose::capture::diagnose_capture;
use signscope::tui::components::diagnose::{DiagnoseEffect, DiagnoseMsg};
use signscope::tui::effect::Command as TuiCommand;
use signscope::tui::layout::View;
use signscope::tui::message::Message;
use signscope::tui::test_util::TestApp;

const KEY: &str = signscope::server::DEMO_REST_KEY;
/// The verifier's clock: an hour after the timestamp signed below.
const NOW: &str = "2026-11-22T11:00:00.000Z";
const SIGNED_AT: &str = "2026-11-22T10:00:00.000Z";

/// Signed with another key, an hour before NOW: a mismatch and out of the window.
fn wrong_and_stale() -> String {
    let req = SignableRequest::new("PUT", "/v2/batch", "", SIGNED_AT, "demo-public-key", b"[]");
    let signed = sign(&req, &Secret::new("not-the-rest-key")).unwrap();
    String::from_utf8(to_raw_request(&req, &signed, "127.0.0.1:8080")).unwrap()
}

/// No signature at all: only the timestamp and the content type.
fn unsigned() -> String {
    format!(
        "PUT /v2/batch HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-SVC-TIMESTAMP: {NOW}\r\n\
         Content-Type: application/json\r\nContent-Length: 2\r\n\r\n[]"
    )
}

/// The verdict and failing-check lines `signscope verify` prints for `capture`.
fn cli_checks(capture: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("capture.http");
    std::fs::write(&file, capture).unwrap();
    let key = common::write_key_file(dir.path().join("key"), KEY);
    let out = Command::cargo_bin("signscope")
        .unwrap()
        .args(["verify", "--now", NOW, "--request-file"])
        .arg(&file)
        .arg("--rest-key-file")
        .arg(&key)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    checks(String::from_utf8_lossy(&out.stdout).lines())
}

fn checks<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<String> {
    lines
        .map(str::trim)
        .filter(|l| l.starts_with("rejected (") || l.starts_with("also failing ("))
        .map(str::to_string)
        .collect()
}

fn now() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc
        .with_ymd_and_hms(2026, 11, 22, 11, 0, 0)
        .unwrap()
}

#[test]
fn the_diagnose_view_lists_every_failing_check_the_cli_lists_in_its_order() {
    let key = Secret::new(KEY);
    for (capture, want) in [
        (
            wrong_and_stale(),
            vec!["401 SIGNATURE_MISMATCH", "401 TIMESTAMP_OUT_OF_WINDOW"],
        ),
        (
            unsigned(),
            vec![
                "400 MISSING_HEADER",
                "400 MISSING_HEADER",
                "400 MISSING_HEADER",
            ],
        ),
    ] {
        let cli = cli_checks(&capture);
        let codes: Vec<&str> = cli
            .iter()
            .map(|l| l.split(['(', ')']).nth(1).unwrap())
            .collect();
        assert_eq!(codes, want, "{cli:?}");
        // What the runtime computes for the view (the same clock).
        let (ok, lines) = diagnose_capture(&capture, &key, "SVC", now());
        assert!(!ok);
        // The view says the conclusion once, first; the verdict's line points to it where the
        // CLI (which has no conclusion line) ends with the same sentence.
        let conclusion = lines[0].trim_start_matches("Conclusion: ");
        let shown: Vec<String> = lines
            .iter()
            .map(|l| l.replace(" (the conclusion above)", &format!(": {conclusion}")))
            .collect();
        assert_eq!(checks(shown.iter().map(String::as_str)), cli, "{lines:?}");
    }
    // The unsigned request names each missing header.
    let cli = cli_checks(&unsigned());
    for name in ["X-SVC-APIKEY", "X-SVC-AUTH-ALGO", "Authorization"] {
        assert!(cli.iter().any(|l| l.contains(name)), "{name}: {cli:?}");
    }
}

/// Through the view: paste, Ctrl-G, the runtime's answer, and every check on screen.
#[test]
fn the_diagnose_view_shows_the_other_failing_checks_on_screen() {
    let mut app = TestApp::new(120, 40);
    app.app.view = View::Diagnose;
    app.paste(&wrong_and_stale());
    let cmds = app.ctrl('g');
    let Some(TuiCommand::Diagnose {
        effect: DiagnoseEffect::Diagnose { text, .. },
        key,
        prefix,
    }) = cmds.into_iter().next()
    else {
        panic!("Ctrl-G asks for a diagnosis");
    };
    let (ok, lines) = diagnose_capture(&text, &key, &prefix, now());
    app.update(Message::Diagnose(DiagnoseMsg::Diagnosed { ok, lines }));
    let screen = app.screen();
    assert!(
        screen.contains("rejected (401 SIGNATURE_MISMATCH)"),
        "{screen}"
    );
    assert!(
        screen.contains("also failing (401 TIMESTAMP_OUT_OF_WINDOW)"),
        "{screen}"
    );
}
