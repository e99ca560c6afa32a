//! The Traffic view end to end in a real terminal (a PTY read by a vt100 emulator, as in
//! `tests/tui_pty.rs`): `signscope --listen 127.0.0.1:PORT`, an application outside it (this
//! test, over a plain TCP socket) sends a request signed for another path, and the view shows its
//! line and the server's diagnosis without any key press. And `--listen` on a taken port fails
//! with one sentence naming it.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::io::{Read, Write};
use std::time::Duration;

use common::workbench::Home;

/// xterm's F7.
const F7: &str = "\x1b[18~";

/// A loopback port nobody listens on right now.
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// Send a demo request signed for `/v2/batch` to `/v2/batch/` (the trailing slash the client
/// trimmed before signing) at `port`; returns the status line of the answer.
fn send_mismatch(port: u16) -> String {
    send_signed(port, "/v2/batch/", b"[{\"id\":\"sku-1\"}]")
}

/// Send `body` as a demo request signed now for `PUT /v2/batch`, to `path` at `port`; returns
/// the status line of the answer.
fn send_signed(port: u16, path: &str, body: &'static [u8]) -> String {
    let spec = signscope::core::RequestSpec {
        api_key: signscope::server::DEMO_API_KEY.to_string(),
        body: bytes::Bytes::from_static(body),
        ..Default::default()
    };
    let ts = signscope::core::time::format_timestamp(chrono::Utc::now());
    let key = signscope::core::Secret::new(signscope::server::DEMO_REST_KEY);
    let base = format!("http://127.0.0.1:{port}");
    let out = signscope::engine::build_signed(&base, &spec, &ts, &key).unwrap();
    let mut raw = format!("PUT {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    for (n, v) in &out.headers {
        raw.push_str(&format!("{n}: {v}\r\n"));
    }
    raw.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        out.body.len()
    ));
    exchange(port, raw.as_bytes(), &out.body)
}

/// One request (`head`, then `body`) on a new connection to `port`; the answer's status line.
fn exchange(port: u16, head: &[u8], body: &[u8]) -> String {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    s.write_all(head).unwrap();
    s.write_all(body).unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    answer.lines().next().unwrap_or_default().to_string()
}

#[test]
fn an_outside_client_s_mismatch_appears_in_the_traffic_view_with_its_diagnosis() {
    let port = free_port();
    let home = Home::new();
    let mut pty = home.start(140, 45, &["--listen", &format!("127.0.0.1:{port}")], &[]);
    pty.wait_for("the workbench", |s| s.contains("F7 Traffic"));
    pty.send(F7);
    let address = format!("point applications at http://127.0.0.1:{port}");
    pty.wait_for("the address on the status line", |s| s.contains(&address));
    // The application, outside the workbench, sends its request: no key is pressed after it.
    let status = send_mismatch(port);
    assert!(status.contains("401"), "{status}");
    let screen = pty.wait_for("the request's line and its diagnosis", |s| {
        s.contains("PUT /v2/batch/ 401 SIGNATURE_MISMATCH") && s.contains("Conclusion:")
    });
    assert!(
        screen.contains("Server's signing text (expected)"),
        "{screen}"
    );
    assert!(screen.contains(&address), "{screen}");
    pty.send("\x11"); // Ctrl-Q
    pty.wait_exit();
}

/// Ctrl-S in the Traffic view writes every request the workbench's server received (indexing,
/// collector, an older analytics endpoint), in arrival order, as the server exports it
/// (`/_inspect/requests?format=har&all=true`): a collector batch longer than the stream's
/// preview is written whole, and `check` reads the file back with the verdicts the server gave.
#[test]
fn ctrl_s_writes_every_request_the_server_received_and_check_agrees() {
    let home = Home::new();
    let mut pty = home.start(160, 45, &[], &[]);
    pty.wait_for("the workbench", |s| s.contains("F7 Traffic"));
    pty.send(F7);
    let screen = pty.wait_for("the address", |s| {
        s.contains("point applications at http://127.0.0.1:")
    });
    let at = screen
        .find("point applications at http://127.0.0.1:")
        .unwrap();
    let port: u16 = screen[at + "point applications at http://127.0.0.1:".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap();

    // An indexing batch, a collector batch of 3 KB (spaces between its events: the stream
    // previews 2 KiB of a body), and a GET of an older analytics endpoint.
    let mut live = vec![send_signed(
        port,
        "/v2/batch",
        b"[{\"id\":\"1\",\"type\":\"KLEVU_CMS\"}]",
    )];
    let event = r#"{"event": "view_recs_list", "event_apikey": "demo-public-key", "event_list_id": "home-trending-1", "event_tags": ["recsPageType:HOME"], "event_list_name": "Trending now", "event_list_logic": "TRENDING", "user_profile": {"ip_address": "203.0.113.7"}, "items": [{"item_id": "10023-BLK-42", "item_group_id": "10023", "item_variant_id": "BLK-42", "item_name": "Trail running shoe", "price": "89.90", "currency": "EUR", "item_brand": "Northpeak", "item_category": "Shoes;;Running;;Trail", "index": 1}]}"#;
    let batch = format!("[{event},{}{event}]", " ".repeat(3000));
    let head = format!(
        "POST /analytics/collect HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        batch.len()
    );
    live.push(exchange(port, head.as_bytes(), batch.as_bytes()));
    let older = "/analytics/productTracking?klevu_apiKey=demo-public-key&klevu_type=clicked&klevu_productId=1";
    let head =
        format!("GET {older} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    live.push(exchange(port, head.as_bytes(), b""));
    let live: Vec<u64> = live
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(&live[..2], [200, 200], "{live:?}");
    pty.wait_for("the three requests", |s| {
        s.contains("PUT /v2/batch 200")
            && s.contains("POST /analytics/collect 200")
            && s.contains("GET /analytics/productTracking")
    });

    pty.send("\x13"); // Ctrl-S
    pty.wait_for("the write prompt", |s| {
        s.contains("Write every request the server received as HAR")
    });
    pty.send("\r");
    pty.wait_for("the file written", |s| s.contains("wrote 3 requests"));
    let written = home.path().join("traffic.har");
    let har: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
    let entries = har["log"]["entries"].as_array().unwrap();
    let paths: Vec<&str> = entries
        .iter()
        .map(|e| e["request"]["url"].as_str().unwrap())
        .map(|u| &u[u.find("/v2").or_else(|| u.find("/analytics")).unwrap()..])
        .collect();
    assert_eq!(paths, ["/v2/batch", "/analytics/collect", older]);
    assert_eq!(
        entries[1]["request"]["postData"]["text"], batch,
        "the collector's body whole, as it came"
    );

    let out = assert_cmd::Command::cargo_bin("signscope")
        .unwrap()
        .args(["check", written.to_str().unwrap(), "--output", "json"])
        .args(["--rest-key-env", "DEMO_KEY"])
        .env("DEMO_KEY", signscope::server::DEMO_REST_KEY)
        .output()
        .unwrap();
    let judged: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &serde_json::Value| r["type"] == "request")
        .collect();
    let statuses: Vec<u64> = judged
        .iter()
        .map(|r| r["status"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(statuses, live, "{judged:?}");
    pty.send("\x11"); // Ctrl-Q
    pty.wait_exit();
}

#[test]
fn listen_on_a_taken_port_fails_with_one_sentence_naming_it() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let dirs = tempfile::tempdir().unwrap();
    let out = assert_cmd::Command::cargo_bin("signscope")
        .unwrap()
        .env("SIGNSCOPE_CONFIG_DIR", dirs.path().join("config"))
        .env("SIGNSCOPE_DATA_DIR", dirs.path().join("data"))
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim_end(),
        format!(
            "signscope: --listen 127.0.0.1:{port}: port {port} is already in use on 127.0.0.1; choose another port or stop the program holding it"
        )
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    drop(taken);
}

#[test]
fn watch_needs_a_url() {
    let out = assert_cmd::Command::cargo_bin("signscope")
        .unwrap()
        .args(["--watch", "localhost:8080"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--watch \"localhost:8080\" must start with http:// or https://")
            || err.contains("--watch \"localhost:8080\" is not a URL"),
        "{err}"
    );
}

/// `--listen 0.0.0.0:P` opened the workbench's server to the network without a word (`serve
/// --addr 0.0.0.0` warns): the workbench now says so on its status line at start, at 80x24.
#[test]
fn listen_on_all_interfaces_is_warned_about_on_the_status_line() {
    let port = free_port();
    let home = Home::new();
    let mut pty = home.start(80, 24, &["--listen", &format!("0.0.0.0:{port}")], &[]);
    pty.wait_for("the warning", |s| {
        s.contains("warning: listening on 0.0.0.0") && s.contains("F7 Traffic")
    });
    pty.send("\x11"); // Ctrl-Q
    pty.wait_exit();
}
