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

use common::Pty;

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
    let spec = signscope::core::RequestSpec {
        api_key: signscope::server::DEMO_API_KEY.to_string(),
        body: bytes::Bytes::from_static(b"[{\"id\":\"sku-1\"}]"),
        ..Default::default()
    };
    let ts = signscope::core::time::format_timestamp(chrono::Utc::now());
    let key = signscope::core::Secret::new(signscope::server::DEMO_REST_KEY);
    let base = format!("http://127.0.0.1:{port}");
    let out = signscope::engine::build_signed(&base, &spec, &ts, &key).unwrap();
    let mut raw = format!("PUT /v2/batch/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    for (n, v) in &out.headers {
        raw.push_str(&format!("{n}: {v}\r\n"));
    }
    raw.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        out.body.len()
    ));
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(raw.as_bytes()).unwrap();
    s.write_all(&out.body).unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    answer.lines().next().unwrap_or_default().to_string()
}

#[test]
fn an_outside_client_s_mismatch_appears_in_the_traffic_view_with_its_diagnosis() {
    let port = free_port();
    let dirs = tempfile::tempdir().unwrap();
    let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_signscope"));
    cmd.env("SIGNSCOPE_CONFIG_DIR", dirs.path().join("config"));
    cmd.env("SIGNSCOPE_DATA_DIR", dirs.path().join("data"));
    cmd.env("NO_COLOR", "1");
    cmd.args(["--listen", &format!("127.0.0.1:{port}")]);
    let mut pty = Pty::spawn(cmd, 140, 45);
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
    let dirs = tempfile::tempdir().unwrap();
    let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_signscope"));
    cmd.env("SIGNSCOPE_CONFIG_DIR", dirs.path().join("config"));
    cmd.env("SIGNSCOPE_DATA_DIR", dirs.path().join("data"));
    cmd.env("NO_COLOR", "1");
    cmd.args(["--listen", &format!("0.0.0.0:{port}")]);
    let mut pty = Pty::spawn(cmd, 80, 24);
    pty.wait_for("the warning", |s| {
        s.contains("warning: listening on 0.0.0.0") && s.contains("F7 Traffic")
    });
    pty.send("\x11"); // Ctrl-Q
    pty.wait_exit();
}
