//! `signscope test` on a real terminal (portable-pty read by vt100): one progress line per
//! request as it runs, a failure named by `file:line` with expected, actual and the diagnosis
//! sentence, coloured on a terminal and plain with NO_COLOR.

// Test code: an unwrap that fails is a failed test, with its message.
#![allow(clippy::unwrap_used)]

mod common;

use common::Pty;
use portable_pty::CommandBuilder;

const FAILING: &str = "signed with the public API key (built to fail)";

/// The example suite with its request built to fail expecting 200: one failed check.
fn failing_suite(dir: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/suites/demo.signscope.toml"
    ))
    .unwrap()
    .replace("status = 401", "status = 200");
    std::fs::write(dir.join("f.signscope.toml"), &text).unwrap();
    // The line of the failing request's [[request]] header (1-based): the line before its name,
    // which is the name's 0-based index.
    text.lines().position(|l| l.contains(FAILING)).unwrap()
}

fn run(dir: &std::path::Path, no_color: bool) -> (Pty, String) {
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_signscope"));
    cmd.env("SIGNSCOPE_CONFIG_DIR", dir.join("config"));
    cmd.env("SIGNSCOPE_DATA_DIR", dir.join("data"));
    cmd.env_remove("NO_COLOR");
    if no_color {
        cmd.env("NO_COLOR", "1");
    }
    cmd.cwd(dir);
    cmd.args(["test", "f.signscope.toml"]);
    let pty = Pty::spawn(cmd, 160, 40);
    let screen = pty.wait_for("the summary line", |s| s.contains("9 requests, 1 failed"));
    (pty, screen)
}

#[test]
fn progress_lines_and_a_failure_with_its_place_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let line = failing_suite(dir.path());
    let (mut pty, screen) = run(dir.path(), false);
    let rows = pty.rows();
    // One progress line per request, in order, each with its checks and place.
    let progress: Vec<&String> = rows
        .iter()
        .filter(|r| r.starts_with("ok   ") || r.starts_with("FAIL "))
        .collect();
    assert_eq!(progress.len(), 9, "{screen}");
    assert!(
        progress[0].starts_with("ok   add a record (")
            && progress[0].contains("f.signscope.toml:15"),
        "{screen}"
    );
    assert!(
        progress[6].starts_with(&format!("FAIL {FAILING} (3/4 checks,")),
        "{screen}"
    );
    assert!(
        progress[6]
            .trim_end()
            .ends_with(&format!("f.signscope.toml:{line}")),
        "{screen}"
    );
    // The failure under it: file:line, what, expected and actual, then the diagnosis sentence.
    let failure = format!("  f.signscope.toml:{line}: {FAILING}: status: expected 200, got 401");
    assert!(rows.iter().any(|r| r.trim_end() == failure), "{screen}");
    assert!(
        rows.iter().any(|r| r.starts_with("    diagnosis: ")),
        "{screen}"
    );
    assert_eq!(pty.wait_exit().exit_code(), 1);
    // Colours on a terminal: the mark is red or green.
    let raw = String::from_utf8_lossy(&pty.raw()).into_owned();
    assert!(raw.contains("\x1b[31mFAIL\x1b[0m"), "{raw:?}");
    assert!(raw.contains("\x1b[32mok  \x1b[0m"), "{raw:?}");

    // NO_COLOR: the same lines, no colour at all.
    let (mut plain, screen) = run(dir.path(), true);
    assert!(screen.contains(&failure), "{screen}");
    assert_eq!(plain.wait_exit().exit_code(), 1);
    let raw = plain.raw();
    assert!(
        !raw.windows(2).any(|w| w == b"\x1b["),
        "{:?}",
        String::from_utf8_lossy(&raw)
    );
}
