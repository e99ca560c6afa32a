//! End to end in a real terminal: `signscope` on the demo profile (embedded local
//! server), config and data in a temp dir. Compose a 3-item list in the events view (F3), mark
//! one item clicked, send, read `HTTP 200` and `accepted: 2` off the screen, then find the send
//! in the history view (F4).
//!
//! The screen is a vt100 parser fed by a real PTY (portable-pty). Waits poll the screen with a
//! generous deadline; they check that something appears, never how fast.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use common::{Pty, CTRL_G, CTRL_U, ENTER, F3, F4, TAB, UP};

const ROWS: u16 = 40;
const COLS: u16 = 120;

/// The workbench in a PTY (no colours, no $EDITOR), config and data in a temp dir.
struct Tui {
    pty: Pty,
    _dirs: tempfile::TempDir,
}

impl Tui {
    fn start() -> Tui {
        let dirs = tempfile::tempdir().unwrap();
        let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_signscope"));
        cmd.env("SIGNSCOPE_CONFIG_DIR", dirs.path().join("config"));
        cmd.env("SIGNSCOPE_DATA_DIR", dirs.path().join("data"));
        cmd.env("NO_COLOR", "1");
        cmd.env_remove("EDITOR");
        Tui {
            pty: Pty::spawn(cmd, COLS, ROWS),
            _dirs: dirs,
        }
    }

    /// Wait until the screen contains `text` (panics with the screen after `common::WAIT`).
    fn wait_for(&self, text: &str) -> String {
        self.pty
            .wait_for(&format!("{text:?} on screen"), |s| s.contains(text))
    }

    fn send(&mut self, bytes: &str) {
        self.pty.send(bytes);
        // Let the app handle each key before the next (keys are not coalesced by a terminal
        // either when typed by a person).
        std::thread::sleep(Duration::from_millis(30));
    }

    fn keys(&mut self, keys: &[&str]) {
        for k in keys {
            self.send(k);
        }
    }
}

#[test]
fn compose_three_items_click_one_send_and_find_it_in_history() {
    let mut tui = Tui::start();
    // The workbench is up on the demo profile.
    tui.wait_for("demo");
    tui.send(F3);
    tui.wait_for("Items (1, 0 clicked)");
    // From the list id field to the items table.
    tui.keys(&[TAB, TAB, TAB, TAB, TAB]);
    // Duplicate the starter item twice, giving each copy its own group id.
    tui.keys(&["y", ENTER, CTRL_U]);
    tui.keys(&["1", "0", "0", "2", ENTER]);
    tui.keys(&["y", ENTER, CTRL_U]);
    tui.keys(&["1", "0", "0", "3", ENTER]);
    tui.wait_for("1003-1");
    // Mark the second item clicked.
    tui.keys(&[UP, " "]);
    tui.wait_for("Items (3, 1 clicked)");
    tui.wait_for("Batch preview (2 events)");
    tui.send(CTRL_G);
    let screen = tui.wait_for("accepted: 2");
    assert!(screen.contains("HTTP 200"), "{screen}");
    // What the local collector stored is shown too.
    tui.wait_for("Stored by the local collector");
    // The send is in the history view.
    tui.send(F4);
    let screen = tui.wait_for("view_recs_list, select_recs_list");
    assert!(screen.contains("200"), "{screen}");
    assert!(screen.contains("/analytics/collect"), "{screen}");
}
