//! The workbench end to end in a real terminal: a PTY (portable-pty) whose output is read by a
//! terminal emulator (vt100). Each test starts the `signscope` binary with its config and data
//! directories in a temp dir.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use common::{value_after, Pty};

/// The workbench in a PTY, with its config and data directories in temp dirs.
struct Tui {
    pty: Pty,
    _dirs: (tempfile::TempDir, tempfile::TempDir),
}

impl std::ops::Deref for Tui {
    type Target = Pty;
    fn deref(&self) -> &Pty {
        &self.pty
    }
}

impl std::ops::DerefMut for Tui {
    fn deref_mut(&mut self) -> &mut Pty {
        &mut self.pty
    }
}

impl Tui {
    fn start(cols: u16, rows: u16, env: &[(&str, &str)]) -> Tui {
        let config = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_signscope"));
        cmd.env("SIGNSCOPE_CONFIG_DIR", config.path());
        cmd.env("SIGNSCOPE_DATA_DIR", data.path());
        cmd.env_remove("NO_COLOR");
        for (k, v) in env {
            cmd.env(k, v);
        }
        Tui {
            pty: Pty::spawn(cmd, cols, rows),
            _dirs: (config, data),
        }
    }

    /// The terminal is back to normal (see `Pty::assert_restored`), and the program left the
    /// alternate screen after it last entered it.
    fn assert_restored(&self) {
        self.pty.assert_restored();
        let raw = self.raw();
        let text = String::from_utf8_lossy(&raw);
        let entered = text
            .rfind("\x1b[?1049h")
            .expect("entered the alternate screen");
        let left = text
            .rfind("\x1b[?1049l")
            .expect("left the alternate screen");
        assert!(left > entered);
    }
}

#[test]
fn signature_on_screen_equals_the_cli_send_is_accepted_and_quit_restores_the_terminal() {
    let mut tui = Tui::start(120, 40, &[]);
    tui.wait_for_signature();
    // The demo's first status line names the send key of each view that sends (it stays when
    // the user switches to F3, where Ctrl-G is not the send key).
    // At 120 columns it is cut with `…` (Alt-M shows the whole message).
    tui.wait_for("the demo note", |s| {
        s.contains("demo profile: Ctrl-G sends to the local server from Request")
            && signscope::tui::demo_note()
                .starts_with("demo profile: Ctrl-G sends to the local server from Request")
    });
    // Freeze the timestamp, clear the body (Alt-> to its end, then Backspace), type a new one.
    tui.send(b"\x14"); // Ctrl-T
    tui.wait_for("frozen timestamp", |s| s.contains("timestamp frozen"));
    tui.send(b"\x1b>");
    tui.send([0x7f; 400]);
    tui.wait_for("an empty body", |s| s.contains("Body (0 bytes)"));
    // A record the vendor's SDK would send: the local server judges the body too.
    let body = r#"[{"id": "wörld", "type": "KLEVU_CMS", "n": [1, 2]}]"#;
    tui.send(body.as_bytes());
    let want_len = format!("Body ({} bytes)", body.len());
    let screen = tui.wait_for("the typed body, signed", |s| {
        s.contains(&want_len) && s.contains(" ✓") && !s.contains("updating")
    });
    let timestamp = value_after(&screen, "Timestamp")
        .expect("timestamp on screen")
        .to_string();
    let signature = value_after(&screen, "sig ")
        .expect("signature on screen")
        .to_string();
    assert_eq!(signature.len(), 64, "{screen}");

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_signscope"))
        .args([
            "sign",
            "--method",
            "PUT",
            "--path",
            "/v2/batch",
            "--timestamp",
            &timestamp,
            "--api-key",
            signscope::server::DEMO_API_KEY,
            "--rest-key-env",
            "TUI_TEST_REST_KEY",
            "--body",
            body,
            "--output",
            "json",
        ])
        .env("TUI_TEST_REST_KEY", signscope::server::DEMO_REST_KEY)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["signature"].as_str().unwrap(), signature);

    // Send to the in-process local server: 200 and the job id on screen.
    tui.send(b"\x07"); // Ctrl-G
    let screen = tui.wait_for("the accepted response", |s| s.contains(" job "));
    assert!(screen.contains("200 "), "{screen}");
    let job = value_after(&screen, " job ")
        .expect("job id")
        .trim_end_matches(',');
    assert!(!job.is_empty(), "{screen}");
    assert!(screen.contains("Job submitted successfully."), "{screen}");
    assert!(
        screen.contains("http://127.0.0.1:"),
        "the demo targets the loopback server"
    );

    // Quit with Ctrl-C: asks because the body was edited; `y` confirms.
    tui.send(b"\x03");
    tui.wait_for("the quit question", |s| s.contains("unsaved edits"));
    tui.send(b"y");
    let status = tui.wait_exit();
    assert!(status.success());
    tui.assert_restored();
}

/// Every frame is written between the synchronized-update marks (DEC mode 2026), so a
/// terminal shows it whole: the marks alternate, start then end, and each frame drawn is in a
/// pair (typing draws frames of its own).
#[test]
fn every_frame_is_drawn_between_synchronized_update_marks() {
    let mut tui = Tui::start(80, 24, &[]);
    tui.wait_for_signature();
    tui.send(b"\x14"); // Ctrl-T
    tui.wait_for("frozen timestamp", |s| s.contains("timestamp frozen"));
    tui.send(b"abc");
    tui.wait_for("the typed text", |s| s.contains("abc[]"));
    tui.send(b"\x03");
    tui.wait_for("the quit question", |s| s.contains("unsaved edits"));
    tui.send(b"y");
    assert!(tui.wait_exit().success());
    let raw = tui.raw();
    let marks: Vec<bool> = raw
        .windows(8)
        .filter_map(|w| match w {
            b"\x1b[?2026h" => Some(true),
            b"\x1b[?2026l" => Some(false),
            _ => None,
        })
        .collect();
    // The first frame, Ctrl-T, three letters, the question: at least six frames.
    assert!(marks.len() >= 12, "{marks:?}");
    for (i, start) in marks.iter().enumerate() {
        // The last end may be the one the restore writes (harmless when no frame is open).
        assert!(*start == (i % 2 == 0) || i == marks.len() - 1, "{marks:?}");
    }
    // The frames hold the screen's text: what is outside them is only the terminal set-up.
    let text = String::from_utf8_lossy(&raw);
    let first = text.find("\x1b[?2026h").unwrap();
    assert!(!text[..first].contains("Canonical"), "{}", &text[..first]);
}

/// The tests' emulator is given a frame only once it has ended, however the reads cut it.
#[test]
fn the_emulator_is_given_whole_frames_only() {
    let mut f = common::Frames::default();
    // Outside a frame: at once.
    assert_eq!(f.push(b"\x1b[?1049h"), b"\x1b[?1049h");
    // A frame in three reads, the end mark cut in two: nothing until it has ended.
    assert_eq!(f.push(b"\x1b[?2026hTOP "), b"");
    assert_eq!(f.push(b"BOTTOM\x1b[?20"), b"");
    assert_eq!(f.push(b"26l"), b"\x1b[?2026hTOP BOTTOM\x1b[?2026l");
    // A start mark cut by the read is held; the frame before it is given.
    assert_eq!(
        f.push(b"\x1b[?2026hA\x1b[?2026l\x1b[?2"),
        b"\x1b[?2026hA\x1b[?2026l"
    );
    assert_eq!(f.push(b"026hB"), b"");
    assert_eq!(f.push(b"\x1b[?2026lafter"), b"\x1b[?2026hB\x1b[?2026lafter");
}

#[allow(unsafe_code)] // signals a child process (libc::kill)
#[test]
fn sigterm_restores_the_terminal() {
    let tui = Tui::start(80, 24, &[]);
    tui.wait_for("the first frame", |s| s.contains("Canonical text"));
    unsafe {
        libc::kill(tui.pid() as i32, libc::SIGTERM);
    }
    let mut tui = tui;
    tui.wait_exit();
    tui.assert_restored();
}

#[test]
fn a_panic_restores_the_terminal() {
    // This test binary runs `panicking_workbench` (below) in a PTY: the workbench's own event
    // loop and terminal setup, with a test double that panics after the first frame.
    let config = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let mut cmd = portable_pty::CommandBuilder::new(std::env::current_exe().unwrap());
    cmd.args([
        "--exact",
        "panicking_workbench",
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ]);
    cmd.env(PANIC_CHILD, "1");
    cmd.env("SIGNSCOPE_CONFIG_DIR", config.path());
    cmd.env("SIGNSCOPE_DATA_DIR", data.path());
    let mut tui = Tui {
        pty: Pty::spawn(cmd, 80, 24),
        _dirs: (config, data),
    };
    let status = tui.wait_exit();
    assert!(!status.success(), "a panic exits with failure");
    tui.assert_restored();
    let raw = String::from_utf8_lossy(&tui.raw()).into_owned();
    let left = raw.rfind("\x1b[?1049l").unwrap();
    let msg = raw
        .find("forced panic")
        .expect("the panic message is printed");
    assert!(
        msg > left,
        "the panic message comes after the terminal was restored"
    );
}

/// Set in the environment of the child that runs [`panicking_workbench`].
const PANIC_CHILD: &str = "SIGNSCOPE_PTY_PANIC_CHILD";

/// The workbench whose event loop panics after its first frame; run by
/// `a_panic_restores_the_terminal` in a PTY (it does nothing when run any other way).
#[test]
#[ignore = "run inside a PTY by a_panic_restores_the_terminal"]
fn panicking_workbench() {
    if std::env::var_os(PANIC_CHILD).is_none() {
        return;
    }
    let app = signscope::tui::test_util::TestApp::new(80, 24).app;
    let hooks = signscope::tui::runtime::LoopHooks {
        after_draw: Some(Box::new(|| {
            panic!("a forced panic after the first frame, to test terminal restoration")
        })),
    };
    let _ = signscope::tui::runtime::run_app_with(app, None, None, vec![], hooks);
}

#[test]
fn a_wrong_key_gets_the_servers_mismatch_diff_and_diagnosis() {
    let mut tui = Tui::start(120, 40, &[]);
    tui.wait_for_signature();
    // Body -> URL -> Method -> Path -> Query -> Prefix -> API key -> REST key; spoil the key.
    tui.send(b"\t\t\t\t\t\t\t");
    tui.send(b"X");
    tui.wait_for("the typed key", |s| s.contains("typed (not saved)"));
    tui.send(b"\x07"); // Ctrl-G
    let screen = tui.wait_for("the mismatch diff", |s| s.contains("Conclusion:"));
    assert!(screen.contains("SIGNATURE_MISMATCH"), "{screen}");
    assert!(screen.contains("+ server signed"), "{screen}");
    assert!(
        screen.contains("  METHOD       PUT\\n"),
        "both sides line by line, labelled:\n{screen}"
    );
    assert!(
        !screen.contains("demo-rest-key-0123456789X"),
        "the key is never shown"
    );
    tui.send(b"\x03");
    tui.wait_for("the quit question", |s| s.contains("unsaved edits"));
    tui.send(b"y");
    tui.wait_exit();
    tui.assert_restored();
}
