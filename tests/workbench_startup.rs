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
