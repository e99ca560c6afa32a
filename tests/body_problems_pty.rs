//! The request view judges an indexing body as it is typed, in a real terminal at 80x24
//! (portable-pty read by vt100): a record whose id is a number shows its problem's code on the
//! Body's border without a send; Alt-H lists the problems, Enter puts the cursor on the id's
//! value (the terminal's cursor there, the status line naming its line and column); the fixed
//! id takes the problem away. Every wait is for the screen's text or the cursor itself.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use common::workbench::Home;
use common::{Pty, ENTER};

const ALT_H: &str = "\x1bh";
const RIGHT: &str = "\x1b[C";

/// Where `value` is drawn in the Body pane's row that starts with `line` (the pane is on the
/// left: its rows start with its border; the signing text on the right shows the body too).
fn in_body(tui: &Pty, line: &str, value: &str) -> Option<(u16, u16)> {
    tui.rows().iter().enumerate().find_map(|(y, row)| {
        let rest = row.strip_prefix('│')?.strip_prefix(line)?;
        let x = 1 + line.chars().count() + rest[..rest.find(value)?].chars().count();
        Some((y as u16, x as u16))
    })
}

#[test]
fn a_numeric_id_is_listed_as_typed_and_enter_puts_the_cursor_on_it() {
    let home = Home::new();
    // The demo profile (PUT /v2/batch to the embedded server) with an empty body to type into.
    home.demo_copy("bodies", "", "");
    let mut tui = home.start(80, 24, &["--profile", "bodies"], &[]);
    tui.wait_for_signature();
    // The cursor starts in the body: a CMS page whose id is a number, typed key by key.
    tui.send("[\r  {\"type\": \"KLEVU_CMS\",\r   \"id\": 42}\r]");
    tui.wait_for("the problem on the Body's border (nothing sent)", |s| {
        s.contains("⚠ ID_NOT_STRING /0/id · Alt-H")
    });
    // The list: the problem's level, code and place.
    tui.send(ALT_H);
    tui.wait_for_selected("error   ID_NOT_STRING /0/id");
    tui.send(ENTER);
    let status = tui.wait_for("the problem's place in the status line", |s| {
        s.contains("│ line 3, column 10: ID_NO")
    });
    assert!(
        !status.contains("The body's problems"),
        "the list closed: {status}"
    );
    let at = in_body(&tui, "   \"id\": ", "42}").expect("the id in the Body pane");
    tui.wait_for_rows(
        &format!("the terminal's cursor on the id's value at {at:?}"),
        |_| tui.cursor() == at,
    );
    // The id made a string: the problem goes, the body is judged clean.
    tui.send(format!("\"{RIGHT}{RIGHT}\""));
    let screen = tui.wait_for("the problem gone", |s| {
        s.contains("\"42\"}") && s.contains("JSON ✓")
    });
    assert!(!screen.contains("ID_NOT_STRING /0/id ·"), "{screen}");
    tui.quit_answering();
}
