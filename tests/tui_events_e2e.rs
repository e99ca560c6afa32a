//! End to end in a real terminal: `signscope` on the demo profile (embedded local
//! server), config and data in a temp dir. Compose a 3-item list in the events view (F3), mark
//! one item clicked, send, read `HTTP 200` and `accepted: 2` off the screen, then find the send
//! in the history view (F4).
//!
//! The screen is a vt100 parser fed by a real PTY (portable-pty). Waits poll the screen with a
//! generous deadline; they check that something appears, never how fast. Keys are typed one at
//! a time, each after the frame that shows the one before was handled.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

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

    /// Type one key and wait for the frame the workbench draws once it has handled it (a key is
    /// applied and drawn at once), so the next key is read after this one, as when a person
    /// types: no fixed delay that a loaded machine can outrun.
    fn send(&mut self, bytes: &str) {
        self.pty.send_and_wait_frame(bytes);
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

/// A profile with no batch of its own (a fresh home's demo) shows the starter batch of one
/// item: its preview and problems settle by themselves, with no key pressed in the view. (The
/// profile load put the starter in beside `update`, so its validation never ran and the view
/// said "validating…" until the first key reached it.)
#[test]
fn the_starter_batch_settles_without_a_key() {
    let mut tui = Tui::start();
    tui.pty.wait_for_signature();
    tui.pty.send(F3);
    let screen = tui.pty.wait_for("the starter batch validated", |s| {
        s.contains("Batch preview (1 event)") && s.contains("Problems: none")
    });
    assert!(!screen.contains("validating"), "{screen}");
}

/// Two items as a Magento shop's recommendations send them: names and categories longer than
/// the starter's, so at 120 columns the items table cannot show every column at once.
const SHOP_BATCH: &str = r#"[{"event":"view_recs_list","event_apikey":"demo-public-key","event_list_id":"k-0a1b2c3d-4e5f-6789-abcd-ef0123456789","event_list_name":"Customers also bought","event_list_logic":"ALSO_BOUGHT","event_tags":["recsPageType:PRODUCT"],"items":[{"item_id":"MH01-XS-Black","item_group_id":"MH01","item_variant_id":"XS-Black","item_name":"Chaz Kangeroo Hoodie","price":"52.00","currency":"USD","item_brand":"Luma","item_category":"Men;;Tops;;Hoodies & Sweatshirts","index":1},{"item_id":"WJ12-M-Blue","item_group_id":"WJ12","item_variant_id":"M-Blue","item_name":"Olivia 1/4 Zip Light Jacket","price":"77.00","currency":"USD","item_brand":"Luma","item_category":"Women;;Tops;;Jackets","index":2}]}]"#;

/// At 120x40 the items table and the preview use the width they have: a table too wide for
/// its box scrolls sideways with no blank run padded into a column (the name column took the
/// room a hidden column could not use), and the room the table cannot use goes to the preview
/// beside it.
#[test]
fn at_120x40_the_items_table_and_the_preview_use_their_width() {
    let home = common::workbench::Home::new();
    let mut p = signscope::store::Profile::demo();
    p.name = "shop".into();
    p.events = Some(SHOP_BATCH.into());
    home.save_profile(&p);
    let mut pty = home.start(COLS, ROWS, &["--profile", "shop"], &[]);
    pty.wait_for_signature();
    pty.send(F3);
    let rows = pty.wait_for_rows("the shop's batch in the form", |rows| {
        rows.iter()
            .any(|r| r.contains("Olivia 1/4 Zip Light Jacket"))
            && rows.iter().any(|r| r.contains("Problems: none"))
    });
    let screen = rows.join("\n");
    // Every column is there at some scroll position; the title says so.
    assert!(screen.contains("←/→ more columns"), "{screen}");
    // The widest name is followed by the next column at once, not by a blank run.
    assert!(
        screen.contains("Olivia 1/4 Zip Light Jacket 77.00 USD Luma"),
        "{screen}"
    );
    // The preview beside the table gets the rest of the width: its box starts right after
    // the table's, and shows at least 40 columns of the batch on a line.
    let top = rows.iter().find(|r| r.contains("Batch preview")).unwrap();
    let preview_at = top.chars().position(|c| c == '┌').and_then(|first| {
        top.chars()
            .skip(first + 1)
            .position(|c| c == '┌')
            .map(|p| p + first + 1)
    });
    let preview_at = preview_at.expect("the preview's box beside the form's");
    assert!(
        usize::from(COLS) - preview_at - 2 >= 40,
        "the preview has {} columns:\n{screen}",
        usize::from(COLS) - preview_at - 2
    );
    pty.quit_answering();
}
