//! What a crashing or racing process, or another local user, could do to signscope's files
//! (see SECURITY.md): the binary with SIGNSCOPE_CONFIG_DIR / SIGNSCOPE_DATA_DIR in a temp dir,
//! and a local server on 127.0.0.1 port 0 where a send is needed.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use signscope::core::Secret;
use signscope::server::{spawn, ServerConfig};

const API: &str = "file-safety-public";
const KEY: &str = "file-safety-rest-key-77c1";

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Self {
        Env {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn config(&self) -> PathBuf {
        self.dir.path().join("config")
    }
    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }
    fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_signscope"));
        c.args(args)
            .env("SIGNSCOPE_CONFIG_DIR", self.config())
            .env("SIGNSCOPE_DATA_DIR", self.data())
            .env_remove("SIGNSCOPE_LOG")
            .env_remove("RUST_LOG")
            .env("FILE_SAFETY_KEY", KEY)
            .stdin(Stdio::null());
        c
    }
    fn run(&self, args: &[&str]) -> Output {
        self.cmd(args).output().unwrap()
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    fs::metadata(p).unwrap().permissions().mode() & 0o777
}

fn new_args<'a>(name: &'a str, url: &'a str) -> Vec<&'a str> {
    vec![
        "profile",
        "new",
        name,
        "--indexing-url",
        url,
        "--api-key",
        API,
        "--rest-key-env",
        "FILE_SAFETY_KEY",
    ]
}

/// Two `profile new` of one name at once: both printed "saved" and one profile was lost. Now
/// exactly one wins; the other says the profile was created meanwhile (or, if it started after
/// the winner finished, that it already exists), and exits non-zero.
#[test]
fn of_two_concurrent_profile_new_of_one_name_exactly_one_succeeds() {
    let env = Env::new();
    let mut meanwhile = 0;
    for i in 0..20 {
        let name = format!("shop-{i}");
        // Two hosts, not two paths: a base URL with a path is refused before the race.
        let url = format!("http://a-{i}.example:9");
        let a = env
            .cmd(&new_args(&name, &url))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let url_b = format!("http://b-{i}.example:9");
        let b = env
            .cmd(&new_args(&name, &url_b))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let outs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
        let ok: Vec<&Output> = outs.iter().filter(|o| o.status.success()).collect();
        assert_eq!(
            ok.len(),
            1,
            "{name}: {}",
            outs.iter().map(text).collect::<String>()
        );
        let loser = outs.iter().find(|o| !o.status.success()).unwrap();
        let said = text(loser);
        if said.contains(&format!("a profile named \"{name}\" was created meanwhile")) {
            meanwhile += 1;
        } else {
            assert!(said.contains("already exists"), "{said}");
        }
        // The file is the winner's.
        let winner_url = if outs[0].status.success() {
            &url
        } else {
            &url_b
        };
        let saved =
            fs::read_to_string(env.config().join("profiles").join(format!("{name}.toml"))).unwrap();
        assert!(saved.contains(winner_url.as_str()), "{saved}");
    }
    eprintln!("20 races: the loser was told 'created meanwhile' {meanwhile} times, 'already exists' {} times", 20 - meanwhile);
}

/// A save killed with SIGKILL leaves `.signscope-<pid>-*.tmp` (with the key in it, for a
/// stored key). The next start removes those of dead processes, and so does `profile delete`.
#[test]
fn temporary_files_of_killed_saves_are_removed_at_start_and_on_delete() {
    let env = Env::new();
    let out = env.run(&new_args("shop", "http://127.0.0.1:9"));
    assert!(out.status.success(), "{}", text(&out));
    let profiles = env.config().join("profiles");
    // The name a process that no longer exists gave its temporary file.
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = profiles.join(format!(".signscope-{dead}-AbC123.tmp"));
    fs::write(&stale, format!("rest_key = \"{KEY}\"\n")).unwrap();
    let out = env.run(&["profile", "list"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(!stale.exists(), "left after a start");

    fs::write(&stale, format!("rest_key = \"{KEY}\"\n")).unwrap();
    let lib = signscope::store::ProfileStore::open(&signscope::store::Paths::new(
        env.config(),
        env.data(),
    ));
    lib.delete("shop").unwrap();
    assert!(!stale.exists(), "left after delete");
    // Nothing with the key is left anywhere.
    for e in fs::read_dir(&profiles).unwrap().flatten() {
        let content = fs::read_to_string(e.path()).unwrap_or_default();
        assert!(!content.contains(KEY), "{}", e.path().display());
    }
}

/// Directories are created 0700 and files 0600 (the history holds signed requests, replayable
/// for ten minutes); existing ones (written 0755/0644 by an older version) are tightened at the
/// next start, with one notice.
#[cfg(unix)]
#[test]
fn files_are_private_and_existing_ones_are_tightened_with_one_notice() {
    let env = Env::new();
    let srv = spawn(
        ServerConfig::new().with_account(API, Secret::new(KEY)),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let out = env.run(&new_args("shop", &srv.url()));
    assert!(out.status.success(), "{}", text(&out));
    let out = env.run(&["send", "--profile", "shop", "--body", "[]"]);
    assert!(out.status.success(), "{}", text(&out));
    let profiles = env.config().join("profiles");
    let history = env.data().join("history.jsonl");
    let profile = profiles.join("shop.toml");
    for d in [&env.config(), &profiles, &env.data()] {
        assert_eq!(mode(d), 0o700, "{}", d.display());
    }
    for f in [&history, &profile] {
        assert_eq!(mode(f), 0o600, "{}", f.display());
    }
    assert!(
        !text(&out).contains("readable by you only"),
        "{}",
        text(&out)
    );

    // As an older version left them.
    for d in [&env.config(), &profiles, &env.data()] {
        fs::set_permissions(d, fs::Permissions::from_mode(0o755)).unwrap();
    }
    for f in [&history, &profile] {
        fs::set_permissions(f, fs::Permissions::from_mode(0o644)).unwrap();
    }
    let out = env.run(&["profile", "list"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.matches("readable by you only").count(),
        1,
        "{stderr}"
    );
    for d in [&env.config(), &profiles, &env.data()] {
        assert_eq!(mode(d), 0o700, "{}", d.display());
    }
    for f in [&history, &profile] {
        assert_eq!(mode(f), 0o600, "{}", f.display());
    }
    let out = env.run(&["profile", "list"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("readable by you only"));
}

/// A REST key typed into the query or the path was redacted in the history but printed by the
/// debug log: it is blanked in every log line now.
#[test]
fn a_rest_key_typed_into_the_url_is_not_in_the_debug_log() {
    let env = Env::new();
    let srv = spawn(
        ServerConfig::new().with_account(API, Secret::new(KEY)),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let out = env.run(&new_args("shop", &srv.url()));
    assert!(out.status.success(), "{}", text(&out));
    let query = format!("key={KEY}");
    let out = env
        .cmd(&[
            "send",
            "--profile",
            "shop",
            "--path",
            &format!("/v2/{KEY}/items"),
            "--query",
            &query,
            "--body",
            "[]",
        ])
        .env("SIGNSCOPE_LOG", "trace")
        .output()
        .unwrap();
    // The log (stderr) is there: the request was logged ...
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("sending"), "{log}");
    assert!(log.contains("/v2/***/items?key=***"), "{log}");
    // ... and the key is in none of its lines. (Stdout shows the server's answer as received,
    // which here names the path the user typed.)
    assert!(!log.contains(KEY), "{log}");
    let history = fs::read_to_string(env.data().join("history.jsonl")).unwrap();
    assert!(!history.contains(KEY));
}

fn history_entry() -> signscope::store::HistoryEntry {
    signscope::store::HistoryEntry {
        time: "2026-11-22T10:00:00.000Z".into(),
        profile: "p".into(),
        request_name: None,
        kind: "request".into(),
        request: signscope::store::RecordedRequest {
            method: "PUT".into(),
            url: "http://127.0.0.1:8080/v2/batch".into(),
            headers: vec![("Authorization".into(), "Bearer signed".into())],
            body: "[]".into(),
            body_len: 2,
            body_truncated: false,
            spec: None,
            in_process: false,
        },
        response: None,
        error: None,
        timings: None,
    }
}

/// A `history.jsonl` (or `history.lock`) replaced by a symbolic link was followed: signed
/// requests went wherever it pointed, and the 0600 promise did not hold there. Both are now
/// opened without following links, and the append fails with one sentence that says so; the
/// file the link points at is untouched.
#[test]
fn a_symlinked_history_or_lock_file_is_not_followed() {
    for name in ["history.jsonl", "history.lock"] {
        let d = tempfile::tempdir().unwrap();
        let paths = signscope::store::Paths::new(d.path().join("c"), d.path().join("d"));
        std::fs::create_dir_all(d.path().join("d")).unwrap();
        let elsewhere = d.path().join("elsewhere.txt");
        std::fs::write(&elsewhere, "someone else's file\n").unwrap();
        std::os::unix::fs::symlink(&elsewhere, d.path().join("d").join(name)).unwrap();
        let history = signscope::store::History::open(&paths);
        let err = history.append(&history_entry()).unwrap_err().to_string();
        assert!(err.contains("symbolic link"), "{name}: {err}");
        assert!(!err.contains('\n'), "{name}: {err}");
        assert_eq!(
            std::fs::read_to_string(&elsewhere).unwrap(),
            "someone else's file\n",
            "{name}"
        );
    }
}
