//! The workbench in a real terminal (portable-pty read by vt100): what a person sees after an
//! external program had the terminal.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use common::Pty;

const CTRL_O: &str = "\x0f";
const CTRL_T: &str = "\x14";

/// An "editor" that behaves like a full-screen one: it takes the alternate screen, fills it
/// with text, leaves it, and writes the new body into the file it was given.
const EDITOR: &str = r#"#!/bin/sh
printf '\033[?1049h\033[2J\033[H'
i=0
while [ $i -lt 60 ]; do
  printf 'EDITOR-JUNK-%s-EDITOR-JUNK-EDITOR-JUNK-EDITOR-JUNK-EDITOR-JUNK-EDITOR-JUNK\r\n' $i
  i=$((i+1))
done
sleep 0.3
printf '\033[?1049l'
printf '[{"edited": "by the editor"}]' > "$1"
"#;

#[test]
fn the_screen_is_whole_after_the_external_editor_returns() {
    use std::os::unix::fs::PermissionsExt;
    let dirs = tempfile::tempdir().unwrap();
    let editor = dirs.path().join("editor.sh");
    std::fs::write(&editor, EDITOR).unwrap();
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_signscope"));
    cmd.env("SIGNSCOPE_CONFIG_DIR", dirs.path().join("config"));
    cmd.env("SIGNSCOPE_DATA_DIR", dirs.path().join("data"));
    cmd.env("NO_COLOR", "1");
    cmd.env_remove("VISUAL");
    cmd.env("EDITOR", editor.to_str().unwrap());
    let (cols, rows) = (120u16, 40u16);
    let mut tui = Pty::spawn(cmd, cols, rows);
    tui.wait_for_signature();
    tui.send(CTRL_T);
    tui.wait_for("a frozen timestamp", |s| s.contains("timestamp frozen"));
    tui.send(CTRL_O);
    let body = r#"[{"edited": "by the editor"}]"#;
    let want = format!("Body ({} bytes)", body.len());
    let screen = tui.wait_for("the edited body, signed", |s| {
        s.contains(&want) && s.contains(" ✓") && s.contains("body read back from the editor")
    });
    // Give a damaged frame the time to show, then read the screen row by row.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let screen_now = tui.screen();
    let lines: Vec<&str> = screen_now.lines().collect();
    assert!(
        !screen_now.contains("JUNK"),
        "the editor's text is gone:\n{screen_now}"
    );
    assert!(
        lines.len() >= rows as usize - 1,
        "every row drawn:\n{screen_now}"
    );
    assert!(lines[0].contains("F2 Request"), "{screen_now}");
    assert!(screen_now.contains("Canonical text"), "{screen_now}");
    assert!(
        screen_now.contains("BODY         [{\"edited\": \"by the editor\"}]"),
        "{screen_now}"
    );
    // The left border of the request and body boxes runs down the whole view (above the
    // footer row of keys and the status line).
    assert!(
        lines[rows as usize - 2].starts_with(" INSERT  Ctrl-G / F9 send"),
        "the footer row:\n{screen_now}"
    );
    for (y, line) in lines.iter().enumerate().take(rows as usize - 3).skip(1) {
        let first = line.chars().next().unwrap_or(' ');
        assert!(
            matches!(first, '┌' | '│' | '└'),
            "row {y} starts with {first:?}, not a box border:\n{screen_now}"
        );
    }
    assert!(screen.contains(&want));
    // Quit (the body was edited: confirm).
    tui.send("\x03");
    tui.wait_for("the quit question", |s| s.contains("unsaved edits"));
    tui.send("y");
    assert!(tui.wait_exit().success());
}
