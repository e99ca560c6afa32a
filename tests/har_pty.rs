//! A HAR in the workbench's Traffic view, in a real terminal at 80x24 (a PTY read by a vt100
//! emulator): `signscope --har FILE` shows the capture's collector requests as the local server
//! judges them, with the filter and the detail; Ctrl-O opens another capture from the
//! keyboard; Ctrl-S writes the requests shown as a HAR that `check` reads back alike.

// Test code: an unwrap that fails is a failed test, with its message.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use common::workbench::Home;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/har")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_har_opens_in_the_traffic_view_and_is_written_back_as_har() {
    let home = Home::new();
    let mut pty = home.start(80, 24, &["--har", &fixture("chromium-klevu-core.har")], &[]);
    // The view opens on the capture: its three collector requests, judged at capture time.
    let screen = pty.wait_for("the capture's requests", |s| {
        s.contains("21:47:26 POST /analytics/collect 400") && s.contains("opened ")
    });
    assert!(
        screen.matches("POST /analytics/collect").count() >= 3,
        "{screen}"
    );
    // The status line says what was opened (cut at 80 columns).
    assert!(screen.contains("opened chromium-klevu"), "{screen}");
    // The filter (`/`, as in every list) narrows it like live traffic.
    pty.send("/400");
    let screen = pty.wait_for("the filtered list", |s| {
        s.contains("POST /analytics/collect 400") && !s.contains("POST /analytics/collect 200")
    });
    assert!(screen.contains("VALIDATION_ERROR"), "{screen}");
    pty.send("\x1b"); // Esc clears the filter
    pty.wait_for("the whole list again", |s| s.contains("Traffic (3) "));

    // Ctrl-S writes the requests shown as HAR (the prompt offers traffic.har).
    pty.send("\x13");
    // The prompt offers the whole path: the working directory's traffic.har.
    let written = home.path().join("traffic.har");
    let whole = written.display().to_string();
    pty.wait_for("the write prompt", |s| {
        s.contains("Write the requests shown as HAR") && s.contains(&whole)
    });
    pty.send("\r");
    // The message names the whole path written (the status row cuts it at 80 columns; the
    // messages popup, Alt-M, has it whole).
    pty.wait_for("the file written", |s| s.contains("wrote /"));
    pty.send("\x1bm");
    pty.wait_for("the message in full", |s| {
        s.contains(&format!("wrote {whole}"))
    });
    pty.send("\x1b");
    pty.wait_for("the popup closed", |s| {
        !s.contains(&format!("wrote {whole}"))
    });
    let out = assert_cmd::Command::cargo_bin("signscope")
        .unwrap()
        .args(["check", written.to_str().unwrap(), "--output", "json"])
        .output()
        .unwrap();
    let statuses: Vec<u64> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r["type"] == "request")
        .map(|r| r["status"].as_u64().unwrap())
        .collect();
    assert_eq!(
        statuses,
        [200, 200, 400],
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Written again: an existing file is never overwritten.
    pty.send("\x13");
    pty.wait_for("the write prompt", |s| {
        s.contains("Write the requests shown as HAR")
    });
    pty.send("\r");
    pty.wait_for("the refusal", |s| s.contains("not overwritten"));

    // Ctrl-O opens another capture: its signed requests are verified with the profile's key
    // (the demo's), so they are refused, and arrive after the ones already shown.
    pty.send("\x0f");
    pty.wait_for("the open prompt", |s| s.contains("Open a HAR file"));
    pty.send(fixture("mitmproxy-indexing.har"));
    pty.send("\r");
    // Each signed request is diagnosed as it arrives (seconds apiece in a debug build), so wait
    // for the last one: 3 + 6, after the first capture's requests, not instead of them.
    let screen = pty.wait_within(
        std::time::Duration::from_secs(120),
        "the second capture",
        |s| s.contains("Traffic (9)"),
    );
    assert!(
        screen.matches("21:47:34 PUT /v2/batch").count() >= 4,
        "{screen}"
    );
    pty.send("\x11"); // Ctrl-Q
    pty.wait_exit();
}
