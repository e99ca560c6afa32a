//! Nothing typed is lost or written where the user did not ask, and the workbench never freezes:
//! the `signscope` binary in a real terminal (portable-pty read by vt100), on its own temp
//! config and data directories, driven with the keys a person types. A wait gives up after
//! `common::WAIT`, so a hang fails instead of blocking.
//!
//! The behaviour is described in the README ("Workbench (TUI)", "Profiles and sending") and
//! SECURITY.md.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::os::unix::fs::PermissionsExt;

use common::workbench::Home;
use common::{value_after, Pty, BACKTAB, CTRL_G, CTRL_S, CTRL_U, ENTER, F3, F4, TAB};
use signscope::store::{KeySource, Paths, Profile, ProfileStore};

const ESC: &str = "\x1b";
const DOWN: &str = "\x1b[B";
const F5: &str = "\x1b[15~";
const F2: &str = "\x1bOQ";
const CTRL_L: &str = "\x0c";
const CTRL_O: &str = "\x0f";
const CTRL_Q: &str = "\x11";
const CTRL_Z: &str = "\x1a";

/// The status line (the last row).
fn status(tui: &Pty) -> String {
    tui.last_row()
}

/// From the body (where the workbench starts) to the REST key field:
/// Body -> URL -> Method -> Path -> Query -> Prefix -> API key -> REST key.
fn to_rest_key(tui: &mut Pty) {
    for _ in 0..7 {
        tui.send(TAB);
    }
}

fn store(home: &Home) -> ProfileStore {
    ProfileStore::open(&Paths::new(
        home.path().join("config"),
        home.path().join("data"),
    ))
}

/// A demo copy named `name` (the in-process server, the demo API key) whose REST key comes
/// from `source`.
fn profile_with_key(home: &Home, name: &str, source: KeySource) {
    let mut p = Profile::demo();
    p.name = name.to_string();
    p.rest_key = source;
    home.save_profile(&p);
}

/// Ctrl-S on a profile whose REST key was typed asks where the key goes; `k` keeps the
/// environment variable and writes no key, `s` stores it (0600) and says so; Ctrl-Z back to the
/// variable's key gives back its label and nothing to save.
#[test]
fn ctrl_s_asks_before_a_typed_rest_key_is_written_to_the_profile() {
    let home = Home::new();
    profile_with_key(&home, "shop", KeySource::Env("TPK".into()));
    let file = home.profile_file("shop");
    let mut tui = home.start(
        160,
        40,
        &["--profile", "shop"],
        &[("TPK", signscope::core::demo::DEMO_REST_KEY)],
    );
    tui.wait_for("the key read from the variable", |s| {
        s.contains("[environment variable TPK]") && s.contains(" ✓")
    });
    to_rest_key(&mut tui);
    tui.send(CTRL_U);
    tui.send("typed-secret-4f2a");
    tui.wait_for("the typed label", |s| s.contains("[typed (not saved)]"));

    // Ctrl-S asks; k keeps the variable and drops the typed key.
    tui.send(CTRL_S);
    let screen = tui.wait_for("the question", |s| s.contains("Save the typed REST key?"));
    assert!(
        screen.contains("s: store it in the profile file (mode 0600)"),
        "{screen}"
    );
    assert!(
        screen.contains("k: keep the profile's key source and drop the typed key"),
        "{screen}"
    );
    assert!(screen.contains("(environment variable TPK)"), "{screen}");
    assert!(
        screen.contains("Esc: cancel (nothing is saved)"),
        "{screen}"
    );
    tui.send("k");
    tui.wait_for("what was done", |s| {
        s.contains("typed REST key was dropped")
    });
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains("typed-secret-4f2a"), "{text}");
    assert!(text.contains("TPK"), "{text}");
    tui.wait_for("the variable's label back", |s| {
        s.contains("[environment variable TPK]")
    });

    // Typed, then undone: the variable's label, and quitting does not ask.
    tui.send("x");
    tui.wait_for("typed", |s| s.contains("[typed (not saved)]"));
    tui.send(CTRL_Z);
    tui.wait_for("the label after undo", |s| {
        s.contains("[environment variable TPK]") && !s.contains("typed (not")
    });
    let screen = tui.screen();
    assert!(
        !screen.contains(" shop* "),
        "not marked modified:\n{screen}"
    );

    // Typed again; Ctrl-S, Esc: nothing written; Ctrl-S, s: stored, 0600, and said.
    tui.send(CTRL_U);
    tui.send("typed-secret-4f2a");
    tui.send(CTRL_S);
    tui.wait_for("the question", |s| s.contains("Save the typed REST key?"));
    tui.send(ESC);
    tui.wait_for("cancelled", |s| {
        s.contains("not saved; the typed REST key stays")
    });
    assert!(!std::fs::read_to_string(&file)
        .unwrap()
        .contains("typed-secret-4f2a"));
    tui.send(CTRL_S);
    tui.wait_for("the question", |s| s.contains("Save the typed REST key?"));
    tui.send("s");
    tui.wait_for("what was done", |s| {
        s.contains("the typed REST key is stored in the profile file (mode 0600)")
    });
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("typed-secret-4f2a"), "{text}");
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    tui.wait_for("the stored label", |s| {
        s.contains("[stored in the profile file (***)]")
    });
    tui.quit_answering();
}

/// A batch loaded in the Events view (a member written twice in it) makes quitting ask; saved,
/// it is in the profile file byte for byte, and the next run shows it with the same 16 errors
/// `signscope events validate` reports.
#[test]
fn the_events_batch_is_saved_with_the_profile_and_survives_a_restart() {
    let home = Home::new();
    home.demo_copy("shop", "", "[]");
    let mistakes = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/events/mistakes.json"),
    )
    .unwrap();
    let batch = home.path().join("mistakes.json");
    std::fs::write(&batch, &mistakes).unwrap();
    let mut tui = home.start(120, 40, &["--profile", "shop"], &[]);
    tui.wait_for_signature();
    tui.send(F3);
    tui.wait_for("the events view", |s| s.contains("Batch preview"));
    tui.send(CTRL_O);
    tui.wait_for("the path prompt", |s| s.contains("Load batch from:"));
    tui.send(batch.to_str().unwrap());
    tui.send(ENTER);
    let screen = tui.wait_for("the batch and its problems", |s| {
        s.contains("Problems: 16 errors, 5 warnings")
    });
    assert!(screen.contains("written twice"), "{screen}");

    // Quitting asks; s saves, then quits.
    tui.send(CTRL_Q);
    tui.wait_for("the quit question", |s| s.contains("unsaved edits"));
    tui.send("s");
    assert!(tui.wait_exit().success());
    let saved = store(&home).load("shop").unwrap();
    assert_eq!(
        saved.events.as_deref(),
        Some(mistakes.as_str()),
        "byte for byte"
    );

    // The next run: the same batch, the same problems.
    let mut tui = home.start(120, 40, &["--profile", "shop"], &[]);
    tui.wait_for_signature();
    tui.send(F3);
    let screen = tui.wait_for("the saved batch", |s| {
        s.contains("Problems: 16 errors, 5 warnings")
    });
    assert!(screen.contains("written twice"), "{screen}");
    // Nothing edited since it was loaded with the profile: quitting does not ask.
    tui.send(CTRL_Q);
    assert!(tui.wait_exit().success());
    tui.assert_restored();
}

/// A send of the demo profile, re-sent from the History view in a later run, goes to that run's
/// in-process server (the first run's port is gone) and is accepted.
#[test]
fn the_demo_history_re_sends_to_the_in_process_server_of_a_later_run() {
    let home = Home::new();
    let mut tui = home.start(120, 40, &[], &[]);
    let screen = tui.wait_for_signature();
    let first = value_after(&screen, "│URL").unwrap().to_string();
    tui.send(CTRL_G);
    tui.wait_for("the accepted send", |s| s.contains(" job "));
    tui.quit_answering();

    let mut tui = home.start(120, 40, &[], &[]);
    let screen = tui.wait_for_signature();
    let second = value_after(&screen, "│URL").unwrap().to_string();
    assert_ne!(first, second, "each run has its own port");
    tui.send(F4);
    tui.wait_for("the history entry", |s| s.contains("PUT /v2/batch"));
    tui.send(CTRL_G);
    let screen = tui.wait_for("the answer to the re-send", |s| {
        let st = s.lines().last().unwrap_or("");
        st.contains("sent PUT") || st.contains("send failed")
    });
    let st = status(&tui);
    assert!(
        st.contains(&format!("sent PUT {second}/v2/batch")),
        "{st}\n{screen}"
    );
    // The re-send is the newest entry, accepted.
    let screen = tui.wait_for("the new entry", |s| s.contains("History (2)"));
    let rows: Vec<&str> = screen
        .lines()
        .filter(|l| l.contains("PUT /v2/batch"))
        .collect();
    assert!(
        rows.len() == 2 && rows.iter().all(|r| r.contains(" 200 ")),
        "{screen}"
    );
    tui.quit_answering();
}

/// Renaming a profile keeps the selection on it (the sorted list moved it), so `d` offers to
/// delete the renamed one; the profile in use is not deleted, and its file stays.
#[test]
fn after_a_rename_the_selection_stays_on_the_profile_and_the_one_in_use_is_not_deleted() {
    let home = Home::new();
    home.demo_copy("alpha", "", "[]");
    home.demo_copy("zeta", "", "[]");
    let mut tui = home.start(120, 40, &["--profile", "alpha"], &[]);
    tui.wait_for_signature();
    tui.send(F5);
    tui.wait_for("the profile list", |s| s.contains("zeta"));
    tui.send(DOWN);
    tui.send(DOWN);
    tui.send("r");
    tui.wait_for("the name prompt", |s| {
        s.contains("zeta") && s.contains("name")
    });
    tui.send(CTRL_U);
    tui.send("aaa");
    tui.send(ENTER);
    tui.wait_for("the rename", |s| s.contains("renamed zeta to aaa"));
    tui.send("d");
    let screen = tui.wait_for("the delete question", |s| s.contains("Delete profile"));
    assert!(screen.contains("Delete profile aaa "), "{screen}");
    tui.send(ESC);
    tui.wait_for("kept", |s| s.contains("Kept profile aaa."));

    // The profile in use (alpha, now after aaa): refused in one sentence.
    tui.send(DOWN);
    tui.send("d");
    tui.wait_for("the refusal", |s| {
        s.contains("Profile alpha is in use, so it was not deleted")
    });
    assert!(home.profile_file("alpha").exists());
    assert!(home.profile_file("aaa").exists());
    assert!(!home.profile_file("zeta").exists());
    tui.quit_answering();
}

/// A key command that takes long (`pass` waiting for a PIN; here `sleep 30`): the first frame
/// is drawn at once and says the key is being resolved, the workbench takes keys and draws
/// meanwhile (typing, Ctrl-L), and Esc stops the command. The test never waits for it.
#[test]
fn a_slow_key_command_never_freezes_the_workbench_and_esc_cancels_it() {
    let home = Home::new();
    profile_with_key(
        &home,
        "slow",
        KeySource::Command(vec!["sleep".into(), "30".into()]),
    );
    let mut tui = home.start(120, 40, &["--profile", "slow"], &[]);
    tui.wait_for("the first frame while the command runs", |s| {
        s.contains("[resolving the REST key")
            && s.contains("resolving the REST key (command `sleep 30`)")
    });
    // Keys are taken and drawn while it runs.
    tui.send("ZQX");
    tui.wait_for("the typed text", |s| s.contains("ZQX"));
    tui.send(CTRL_L);
    tui.wait_for("the profile list", |s| s.contains("Switch profile"));
    tui.wait_for_selected("slow");
    tui.send(ESC);
    // Waits for the list to be gone before the next Esc: sent at once, the two would arrive
    // as one Alt-Esc.
    tui.wait_for("the list closed, still resolving", |s| {
        !s.contains("Switch profile") && s.contains("resolving the REST key")
    });
    // Esc stops the command.
    tui.send(ESC);
    tui.wait_for("the cancellation", |s| {
        s.contains("reading the REST key (command `sleep 30`) was cancelled")
    });
    tui.quit_answering();
}

/// The profile editor's typed fields were lost by Ctrl-Q (no question). At 80x24: the quit
/// question names them, Enter (by habit) stays, and `s` writes them to the file, then quits.
#[test]
fn quitting_with_profile_editor_changes_asks_and_s_writes_them_to_the_file() {
    let home = Home::new();
    home.demo_copy("alpha", "", "[]");
    let mut tui = home.start(80, 24, &["--profile", "alpha"], &[]);
    tui.wait_for_signature();
    tui.send(F5);
    tui.wait_for("the profile list", |s| s.contains("alpha (in use)"));
    tui.send("/alpha");
    tui.send(ENTER);
    tui.send("e");
    tui.wait_for("the edit form", |s| s.contains("Editing alpha"));
    for _ in 0..3 {
        tui.send(TAB);
    }
    tui.send("qq");
    tui.wait_for("the typed key", |s| s.contains("keyqq"));
    tui.send(CTRL_Q);
    tui.wait_for("the quit question", |s| {
        s.contains("unsaved changes to alpha") && s.contains("d: quit without saving")
    });
    tui.send(ENTER);
    tui.wait_for("the question closed", |s| {
        !s.contains("Quit?") && s.contains("keyqq")
    });
    assert!(!tui.has_exited());
    tui.send(CTRL_Q);
    tui.wait_for("the quit question", |s| s.contains("s: save, then quit"));
    tui.send("s");
    assert!(tui.wait_exit().success());
    tui.assert_restored();
    let text = home.profile_text("alpha");
    assert!(text.contains("keyqq"), "{text}");
}

/// The Events view's Analytics URL was never written, though Ctrl-S said the profile was
/// saved, and the status bar's `*` did not count it. At 80x24: typed in Events, the bar marks
/// the profile edited, Ctrl-S writes it to the file and the mark goes.
#[test]
fn the_events_analytics_url_is_saved_with_the_profile_and_marked_until_then() {
    let home = Home::new();
    home.demo_copy("alpha", "", "[]");
    let mut tui = home.start(80, 24, &["--profile", "alpha"], &[]);
    tui.wait_for_signature();
    tui.send(F3);
    tui.wait_for("the events view", |s| s.contains("Analytics URL"));
    tui.send(BACKTAB);
    tui.send(BACKTAB);
    tui.send(CTRL_U);
    tui.send("http://stats.example.com");
    tui.wait_for("the typed URL and the mark", |s| {
        s.contains("http://stats.example.com") && s.contains("alpha*")
    });
    // Ctrl-S in Events saves the batch to a file: the profile is saved from the Request view.
    tui.send(F2);
    tui.wait_for("the request view", |s| {
        s.contains("Canonical text") && s.contains("alpha*")
    });
    tui.send(CTRL_S);
    tui.wait_for("the save", |s| s.contains("saved") && !s.contains("alpha*"));
    let text = home.profile_text("alpha");
    assert!(
        text.contains("analytics_url = \"http://stats.example.com\""),
        "{text}"
    );
    tui.quit_answering();
}

/// One default body for a new profile: F5 `n` in the workbench made a profile whose body was
/// empty where `profile new` gives `[]`. At 80x24: the profile F5 `n` makes opens with the
/// body `[]` (not the body of the profile in use), and its file holds the same request as the
/// one `profile new` writes.
#[test]
fn a_profile_made_with_f5_n_starts_with_the_body_profile_new_gives() {
    let home = Home::new();
    home.demo_copy("alpha", "", r#"{"kept":"alpha's body"}"#);
    let mut tui = home.start(80, 24, &["--profile", "alpha"], &[]);
    tui.wait_for_signature();
    tui.send(F5);
    tui.wait_for("the profile list", |s| s.contains("alpha (in use)"));
    tui.send("n");
    tui.wait_for("the name prompt", |s| s.contains("New profile name:"));
    tui.send("fresh");
    tui.send(ENTER);
    tui.wait_for("the new profile listed", |s| {
        s.contains("fresh") && !s.contains("New profile name:")
    });
    tui.send("/fresh");
    tui.send(ENTER);
    tui.wait_for_selected("fresh");
    tui.send(ENTER);
    tui.wait_for("the new profile in use, its body []", |s| {
        s.contains("Canonical text")
            && s.contains("fresh")
            && s.contains("[]")
            && !s.contains("alpha's body")
    });
    tui.quit_answering();

    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_signscope"))
        .env("SIGNSCOPE_CONFIG_DIR", home.path().join("config"))
        .env("SIGNSCOPE_DATA_DIR", home.path().join("data"))
        .args([
            "profile",
            "new",
            "other",
            "--indexing-url",
            "http://127.0.0.1:1",
        ])
        .output()
        .unwrap();
    assert!(cli.status.success(), "{cli:?}");
    let body = |name: &str| store(&home).load(name).unwrap().request().body.clone();
    assert_eq!(body("fresh"), "[]");
    assert_eq!(body("fresh"), body("other"));
}
