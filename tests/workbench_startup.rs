//! The workbench's start in a real terminal (portable-pty read by vt100, as in
//! `tests/tui_pty.rs`): the first frame comes before the work that can wait, and that work still
//! happens (`docs/architecture.md`, "Last used profile").

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::time::{Duration, Instant};

use common::Pty;

/// The workbench opens its profile unmarked and remembers it as the last used one after the
/// first frame: the state file still says so.
#[test]
fn the_profile_opened_is_remembered_as_the_last_used_one_after_the_first_frame() {
    let dirs = tempfile::tempdir().unwrap();
    let data = dirs.path().join("data");
    let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_signscope"));
    cmd.env("SIGNSCOPE_CONFIG_DIR", dirs.path().join("config"));
    cmd.env("SIGNSCOPE_DATA_DIR", &data);
    cmd.env("NO_COLOR", "1");
    let mut tui = Pty::spawn(cmd, 120, 40);
    tui.wait_for("the first frame with a signature", |s| s.contains(" ✓"));
    let paths = signscope::store::Paths::new(dirs.path().join("config"), &data);
    let store = signscope::store::ProfileStore::open(&paths);
    let deadline = Instant::now() + common::WAIT;
    while store.last_used().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(store.last_used().as_deref(), Some("demo"));
    tui.send("\x11"); // Ctrl-Q
    tui.wait_exit();
    tui.assert_restored();
}

/// The workbench draws its first frame before its in-process server is built: the session
/// keeps the bound address (the first frame shows it) and serves on it just after. A request
/// that reaches the address in between waits in the listener's backlog and is answered.
#[test]
fn a_request_to_the_reserved_address_is_answered_once_the_server_serves() {
    use std::io::{Read, Write};
    let dirs = tempfile::tempdir().unwrap();
    let paths = signscope::store::Paths::new(dirs.path().join("config"), dirs.path().join("data"));
    let opts = signscope::engine::ClientOptions::default();
    let mut session = signscope::engine::Session::open_unmarked_in(paths, None, opts).unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    assert_eq!(session.reserve_embedded(listener), None);
    // The demo's URLs say `embedded`: they resolve to the reserved address, no other server.
    assert_eq!(session.indexing_url().unwrap(), format!("http://{addr}"));
    assert_eq!(session.analytics_url().unwrap(), format!("http://{addr}"));
    assert_eq!(session.running_embedded_url(), None, "not serving yet");
    let mut conn = std::net::TcpStream::connect(addr).unwrap();
    conn.set_read_timeout(Some(common::WAIT)).unwrap();
    let ask = format!("GET /_inspect/health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    conn.write_all(ask.as_bytes()).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    session.serve_reserved(rt.handle()).unwrap();
    assert_eq!(
        session.running_embedded_url(),
        Some(format!("http://{addr}"))
    );
    let mut answer = String::new();
    conn.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"status\":\"ok\""), "{answer}");
}
