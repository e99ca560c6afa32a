//! `signscope key set|get|delete` against a real Secret Service (gnome-keyring-daemon under
//! dbus-run-session, unlocked with a password on stdin), cross-checked with `secret-tool`; a
//! profile whose key an earlier version kept in clear moves to the store and keeps working; and
//! a machine without a key store gets one sentence naming the reference and the fix.
#![cfg(target_os = "linux")]
// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::process::Command;

const CLEAR_KEY: &str = "clear-key-from-an-earlier-version-5d1e";
const TYPED_KEY: &str = "typed-key-for-the-store-93ab77";

/// Every file under `dir`, read whole.
fn files_under(dir: &Path, out: &mut Vec<(std::path::PathBuf, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push((path.clone(), std::fs::read(&path).unwrap()));
        }
    }
}

/// True (and says so) when this machine cannot run a Secret Service for a test: the tests then
/// skip, as every test whose tool is missing does.
fn no_secret_service() -> bool {
    let missing =
        common::missing_tools(&["dbus-run-session", "gnome-keyring-daemon", "secret-tool"]);
    if !missing.is_empty() {
        println!(
            "skipped: {} not installed (.ci/run installs dbus, gnome-keyring and libsecret-tools)",
            missing.join(", ")
        );
    }
    !missing.is_empty()
}

#[test]
fn keys_go_to_a_real_secret_service_and_a_clear_key_moves_there() {
    if no_secret_service() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("config");
    let data = home.path().join("data");
    let bin = assert_cmd::cargo::cargo_bin("signscope");
    // One D-Bus session for the whole script: the daemon lives as long as the bus.
    let script = format!(
        r#"
S="$1"
printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null
printf '{CLEAR_KEY}\n' | "$S" profile new shop --indexing-url http://127.0.0.1:9 --api-key pub --store-rest-key-from-stdin >/dev/null
echo "SIG_CLEAR=$("$S" sign --profile shop --timestamp 2026-11-22T10:00:00.000Z --output signature)"
"$S" key set shop --from-profile
echo "LOOKUP1=$(secret-tool lookup service signscope username shop)"
"$S" profile show shop
echo "SIG_STORE=$("$S" sign --profile shop --timestamp 2026-11-22T10:00:00.000Z --output signature)"
printf '{TYPED_KEY}\n' | "$S" key set shop
echo "LOOKUP2=$(secret-tool lookup service signscope username shop)"
"$S" key get shop
echo "REVEAL=$("$S" key get shop --reveal)"
echo "SERVE_REF=$("$S" sign --method PUT --path /v2/batch --api-key pub --body '[]' --timestamp 2026-11-22T10:00:00.000Z --rest-key keyring:signscope/shop --output signature)"
echo "SERVE_ENV=$(K={TYPED_KEY} "$S" sign --method PUT --path /v2/batch --api-key pub --body '[]' --timestamp 2026-11-22T10:00:00.000Z --rest-key env:K --output signature)"
"$S" key delete shop
"$S" key get shop || echo "GET_AFTER_DELETE_EXIT=$?"
"#
    );
    let out = Command::new("timeout")
        .args(["300", "dbus-run-session", "--", "sh", "-c", &script, "sh"])
        .arg(&bin)
        .env("HOME", home.path())
        .env("XDG_RUNTIME_DIR", home.path())
        .env("SIGNSCOPE_CONFIG_DIR", &config)
        .env("SIGNSCOPE_DATA_DIR", &data)
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let line = |name: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .unwrap_or_else(|| panic!("no {name}= in stdout:\n{stdout}\nstderr:\n{stderr}"))
            .to_string()
    };
    // The key in clear moved to the store, where secret-tool finds it; the profile reads it
    // from there and signs as before.
    assert_eq!(line("LOOKUP1"), CLEAR_KEY, "{stderr}");
    assert!(
        stdout.contains("keyring:signscope/shop"),
        "{stdout}\n{stderr}"
    );
    assert!(!line("SIG_CLEAR").is_empty());
    assert_eq!(line("SIG_CLEAR"), line("SIG_STORE"));
    // A key read from stdin replaces it; get says so without it, --reveal prints it.
    assert_eq!(line("LOOKUP2"), TYPED_KEY);
    assert!(
        stdout.contains("keyring:signscope/shop holds a REST key;"),
        "{stdout}"
    );
    assert_eq!(line("REVEAL"), TYPED_KEY);
    // --rest-key keyring: reads the same key as the same key from the environment.
    assert_eq!(line("SERVE_REF"), line("SERVE_ENV"));
    assert!(!line("SERVE_REF").is_empty(), "{stderr}");
    // Deleted: get fails with the sentence that names the entry and the fix.
    assert_eq!(line("GET_AFTER_DELETE_EXIT"), "2", "{stderr}");
    assert!(
        stderr.contains("the operating-system key store has no entry keyring:signscope/shop"),
        "{stderr}"
    );
    // No file signscope wrote holds either key, and only --reveal printed one.
    let mut files = Vec::new();
    files_under(&config, &mut files);
    if data.exists() {
        files_under(&data, &mut files);
    }
    assert!(!files.is_empty());
    for (path, bytes) in &files {
        let text = String::from_utf8_lossy(bytes);
        for key in [CLEAR_KEY, TYPED_KEY] {
            assert!(!text.contains(key), "{} holds a key", path.display());
        }
    }
    assert!(!stderr.contains(CLEAR_KEY) && !stderr.contains(TYPED_KEY));
    assert_eq!(stdout.matches(TYPED_KEY).count(), 2, "{stdout}"); // LOOKUP2 and REVEAL
}

/// Without a Secret Service, `keyring:` is one sentence naming the reference and the other
/// references; nothing hangs.
#[test]
fn a_machine_without_a_key_store_gets_one_sentence() {
    let home = tempfile::tempdir().unwrap();
    let out = assert_cmd::Command::cargo_bin("signscope")
        .unwrap()
        .args(["sign", "--method", "PUT", "--path", "/v2/batch"])
        .args(["--api-key", "pub", "--body", "[]"])
        .args(["--rest-key", "keyring:signscope/shop"])
        .env("HOME", home.path())
        .env("XDG_RUNTIME_DIR", home.path())
        .env(
            "DBUS_SESSION_BUS_ADDRESS",
            format!("unix:path={}/no-bus", home.path().display()),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(
            "signscope: no operating-system key store is reachable for keyring:signscope/shop"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("give the key as env:NAME, file:PATH or cmd:COMMAND"),
        "{stderr}"
    );
}

/// The workbench asks where a typed key goes and offers the operating system's key store first:
/// `o` files it there as `keyring:signscope/shop` (what `secret-tool` then finds) and the profile
/// file keeps only that reference; the key is never on the terminal. The workbench runs in a
/// real terminal inside one D-Bus session with an unlocked gnome-keyring.
#[test]
fn the_workbench_keeps_a_typed_key_in_the_os_store_first() {
    use common::workbench::Home;
    use common::{Pty, CTRL_C, CTRL_S, CTRL_U, TAB};
    const TYPED: &str = "typed-in-the-workbench-key-6c0d";
    if no_secret_service() {
        return;
    }
    let home = Home::new();
    let mut p = signscope::store::Profile::demo();
    p.name = "shop".into();
    p.rest_key = signscope::store::KeySource::Env("TPK".into());
    home.save_profile(&p);
    let lookup = home.path().join("lookup");
    let script = r#"printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null
"$1" --profile shop
status=$?
secret-tool lookup service signscope username shop > "$2"
exit $status"#;
    let (bin, out) = (env!("CARGO_BIN_EXE_signscope"), lookup.to_str().unwrap());
    let dir = home.path().to_str().unwrap();
    let mut cmd = home.command(
        "dbus-run-session",
        &["--", "sh", "-c", script, "sh", bin, out],
        &[
            ("TPK", signscope::core::demo::DEMO_REST_KEY),
            ("HOME", dir),
            ("XDG_RUNTIME_DIR", dir),
        ],
    );
    cmd.env_remove("DBUS_SESSION_BUS_ADDRESS");
    let mut tui = Pty::spawn(cmd, 160, 40);
    tui.wait_for("the key read from the variable", |s| {
        s.contains("[environment variable TPK]") && s.contains(" ✓")
    });
    for _ in 0..7 {
        tui.send(TAB);
    }
    tui.send(CTRL_U);
    tui.send(TYPED);
    tui.wait_for("the typed label", |s| s.contains("[typed (not saved)]"));
    tui.send(CTRL_S);
    let screen = tui.wait_for("the question", |s| s.contains("Save the typed REST key?"));
    let (o, s) = (
        screen.find("o: keep it in the operating system's key store"),
        screen.find("s: store it in the profile file"),
    );
    assert!(o.is_some() && o < s, "the OS store comes first: {screen}");
    tui.send("o");
    tui.wait_for("what was done", |s| {
        s.contains("kept in the operating system's key store (keyring:signscope/shop)")
    });
    tui.send(CTRL_C);
    assert!(tui.wait_exit().success(), "{}", tui.screen());
    let text = home.profile_text("shop");
    assert!(text.contains("source = \"keyring\""), "{text}");
    assert!(!text.contains(TYPED), "{text}");
    assert_eq!(std::fs::read_to_string(&lookup).unwrap(), TYPED);
    let raw = String::from_utf8_lossy(&tui.raw()).into_owned();
    assert!(
        !raw.contains(TYPED),
        "the typed key was printed on the terminal"
    );
}

/// Without a key store, `o` saves nothing and says so in the status line (the store's sentence,
/// then the other choices); the profile file is left as it was.
#[test]
fn without_a_key_store_o_saves_nothing_and_names_the_other_choices() {
    use common::workbench::Home;
    use common::{CTRL_S, CTRL_U, TAB};
    let home = Home::new();
    let mut p = signscope::store::Profile::demo();
    p.name = "shop".into();
    p.rest_key = signscope::store::KeySource::Env("TPK".into());
    home.save_profile(&p);
    let before = home.profile_text("shop");
    let dir = home.path().to_str().unwrap().to_string();
    let bus = format!("unix:path={dir}/no-bus");
    let mut tui = home.start(
        200,
        40,
        &["--profile", "shop"],
        &[
            ("TPK", signscope::core::demo::DEMO_REST_KEY),
            ("HOME", &dir),
            ("XDG_RUNTIME_DIR", &dir),
            ("DBUS_SESSION_BUS_ADDRESS", &bus),
        ],
    );
    tui.wait_for("the key read from the variable", |s| {
        s.contains("[environment variable TPK]") && s.contains(" ✓")
    });
    for _ in 0..7 {
        tui.send(TAB);
    }
    tui.send(CTRL_U);
    tui.send("typed-with-no-store-1d2e");
    tui.wait_for("the typed label", |s| s.contains("[typed (not saved)]"));
    tui.send(CTRL_S);
    tui.wait_for("the question", |s| s.contains("Save the typed REST key?"));
    tui.send("o");
    tui.wait_for("the refusal", |s| {
        s.contains(
            "not saved: no operating-system key store is reachable for keyring:signscope/shop",
        )
    });
    assert_eq!(home.profile_text("shop"), before);
    tui.quit_answering();
}
