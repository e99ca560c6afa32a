//! The one keymap in a real terminal (portable-pty read by vt100): the footer row shows the
//! keys of the focused field and changes with the focus at 80x24, and the Diagnose view offers
//! to load the body file a pasted curl command names, read from the working directory.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use common::workbench::Home;
use common::{write_key_file, Pty, BACKTAB, CTRL_C, CTRL_G, F4};

const ESC: &str = "\x1b";
const F2: &str = "\x1bOQ";
const F6: &str = "\x1b[17~";

/// The row above the status line.
fn footer(tui: &Pty) -> String {
    let rows = tui.rows();
    rows[rows.len() - 2].clone()
}

fn quit(tui: &mut Pty) {
    // Nothing was edited: Ctrl-C quits without asking.
    tui.send(CTRL_C);
    assert!(tui.wait_exit().success());
    tui.assert_restored();
}

#[test]
fn the_footer_follows_the_focus_and_fits_at_80x24() {
    let home = Home::new();
    let mut tui = home.start(80, 24, &[], &[]);
    tui.wait_for_signature();
    // The body has the focus at start: its keys, cut with the palette's key.
    let body = footer(&tui);
    assert!(
        body.starts_with(" INSERT  Ctrl-G / F9 send  Alt-J format  Ctrl-Z undo"),
        "{body:?}"
    );
    assert!(body.trim_end().ends_with("… Ctrl-K all keys"), "{body:?}");
    assert!(body.chars().count() <= 80);
    // Shift-Tab: the timestamp field, whose first key freezes it.
    tui.send(BACKTAB);
    let screen = tui.wait_for("the timestamp field's keys", |s| {
        s.lines().any(|l| l.starts_with(" INSERT  Ctrl-T freeze"))
    });
    assert!(!screen.contains("Alt-J format"), "{screen}");
    // Esc: normal mode, single keys (the footer says NORMAL first).
    tui.send(ESC);
    tui.wait_for("the normal-mode keys", |s| {
        s.lines()
            .any(|l| l.starts_with(" NORMAL  s send  i / Enter back"))
    });
    // A list: the history's keys.
    tui.send(F4);
    tui.wait_for("the history's keys", |s| {
        s.lines()
            .any(|l| l.starts_with(" Ctrl-G / F9 send  Enter load  Ctrl-R reload  Alt-Y copy…"))
    });
    tui.send(F2);
    tui.wait_for("the request view", |s| s.contains("Canonical text"));
    quit(&mut tui);
}

#[test]
fn diagnose_offers_to_load_the_body_file_of_a_pasted_curl_command() {
    let home = Home::new();
    // The command `sign --output curl --body-file` prints, run in the program's working
    // directory: the body file is named relative to it.
    let key = write_key_file(
        home.path().join("demo.key"),
        signscope::server::DEMO_REST_KEY,
    );
    std::fs::write(
        home.path().join("body.json"),
        b"[\n  {\"id\": \"sku-1\"}\n]\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_signscope"))
        .current_dir(home.path())
        .args(["sign", "--method", "PUT", "--path", "/v2/batch"])
        .args([
            "--api-key",
            signscope::server::DEMO_API_KEY,
            "--rest-key-file",
        ])
        .arg(&key)
        .args(["--body-file", "body.json", "--output", "curl"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let curl = String::from_utf8(out.stdout).unwrap();
    assert!(curl.contains("--data-binary @body.json"), "{curl}");

    let mut tui = home.start(100, 30, &[], &[]);
    tui.wait_for_signature();
    tui.send(F6);
    tui.wait_for("the diagnose view", |s| s.contains("Captured request"));
    tui.send(format!("\x1b[200~{}\x1b[201~", curl.trim_end()));
    tui.wait_for("the pasted command", |s| s.contains("body.json"));
    tui.send(CTRL_G);
    tui.wait_for("the offer", |s| s.contains("load body from body.json? y/n"));
    tui.send("y");
    let screen = tui.wait_for("the verdict", |s| s.contains("Verdict: accepted"));
    assert!(
        screen.contains("accepted: the signature is valid for API key"),
        "{screen}"
    );

    quit(&mut tui);
}

/// The keys file in the config directory: a bad entry is one sentence before the terminal is
/// taken (the workbench does not start, exit 2); a good one rebinds the send key, and the
/// footer says so.
#[test]
fn the_keys_file_rebinds_and_a_bad_entry_is_one_sentence_at_start() {
    let home = Home::new();
    let config = home.path().join("config");
    std::fs::create_dir_all(&config).unwrap();
    let file = config.join("keys.toml");
    std::fs::write(&file, "[request]\nsend = \"Ctl-E\"\n").unwrap();
    // Wide enough for the sentence on one row.
    let mut tui = home.start(400, 24, &[], &[]);
    let status = tui.wait_exit();
    assert_eq!(status.exit_code(), 2);
    let said = format!(
        "signscope: {}: [request] send = \"Ctl-E\": \"Ctl-E\" is not a key; write keys as help does (Ctrl-G, Alt-Y, F9, PageDown, Enter, s)",
        file.display()
    );
    let screen = tui.screen();
    assert!(screen.lines().any(|l| l.trim_end() == said), "{screen}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "[request]\nsend = \"Ctl-E\"\n"
    );

    std::fs::write(&file, "[request]\nsend = [\"Ctrl-E\", \"F10\"]\n").unwrap();
    let mut tui = home.start(80, 24, &[], &[]);
    tui.wait_for_signature();
    let row = footer(&tui);
    assert!(row.starts_with(" INSERT  Ctrl-E / F10 send"), "{row:?}");
    quit(&mut tui);
}
