//! Profile store and history durability across processes: kill -9 during saves, concurrent
//! writers, corrupt files, permissions. Child processes are this test binary re-run in a helper
//! mode (the ignored test `child_writer`, driven by environment variables).

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use signscope::core::Secret;
use signscope::store::{
    History, HistoryEntry, KeySource, Paths, Profile, ProfileStore, RecordedRequest, SaveOptions,
};

const BIG: usize = 512 * 1024;

fn paths_in(dir: &Path) -> Paths {
    Paths::new(dir.join("config"), dir.join("data"))
}

fn entry(who: &str, i: usize) -> HistoryEntry {
    HistoryEntry {
        time: "2026-11-22T10:00:00.000Z".into(),
        profile: who.into(),
        request_name: None,
        kind: "request".into(),
        request: RecordedRequest {
            in_process: false,
            method: "PUT".into(),
            url: format!("http://127.0.0.1:9/v2/batch?i={i}"),
            headers: vec![],
            body: "x".repeat(3000),
            body_len: 3000,
            body_truncated: false,
            spec: None,
        },
        response: None,
        error: None,
        timings: None,
    }
}

/// Helper mode: saves profile `$CHILD_NAME` `$CHILD_COUNT` times (0 = until killed), each time a
/// body of BIG copies of one letter, and appends a history entry per save.
#[test]
#[ignore = "helper run as a child process by the other tests"]
fn child_writer() {
    let Ok(dir) = std::env::var("CHILD_DIR") else {
        return;
    };
    let name = std::env::var("CHILD_NAME").unwrap();
    let count: usize = std::env::var("CHILD_COUNT").unwrap().parse().unwrap();
    let store = ProfileStore::open(&paths_in(Path::new(&dir)));
    let history = History::open(&paths_in(Path::new(&dir))).with_max_entries(100_000);
    let mut p = match store.load(&name) {
        Ok(p) => p,
        Err(_) => Profile {
            rest_key: KeySource::Stored(Secret::new("child-stored-key")),
            ..Profile::new(name.clone())
        },
    };
    let mut i = 0usize;
    loop {
        let letter = (b'a' + (i % 26) as u8) as char;
        p.request_mut().body = letter.to_string().repeat(BIG).into();
        p.request_mut().query = format!("i={i}");
        store.save_with(&p, SaveOptions { force: true }).unwrap();
        history.append(&entry(&name, i)).unwrap();
        i += 1;
        if count != 0 && i >= count {
            break;
        }
    }
}

fn spawn_child(dir: &Path, name: &str, count: usize) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_writer",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CHILD_DIR", dir)
        .env("CHILD_NAME", name)
        .env("CHILD_COUNT", count.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn history_lines(dir: &Path) -> usize {
    fs::read(paths_in(dir).history_file())
        .map(|b| b.iter().filter(|c| **c == b'\n').count())
        .unwrap_or(0)
}

fn assert_profile_whole(store: &ProfileStore, name: &str) {
    let p = store
        .load(name)
        .unwrap_or_else(|e| panic!("profile {name} unreadable: {e}"));
    assert_eq!(p.request().body.len(), BIG, "{name}: body cut");
    let first = p.request().body[0];
    assert!(
        p.request().body.iter().all(|&b| b == first),
        "{name}: body mixes two saves"
    );
    assert_eq!(p.rest_key.resolve().unwrap().expose(), "child-stored-key");
}

#[test]
fn kill_9_during_saves_never_leaves_an_unreadable_profile() {
    let dir = tempfile::tempdir().unwrap();
    let store = ProfileStore::open(&paths_in(dir.path()));
    // A first complete save, so there is always an old version to fall back to.
    assert!(spawn_child(dir.path(), "victim", 1)
        .wait()
        .unwrap()
        .success());
    assert_profile_whole(&store, "victim");
    let mut killed_while_running = 0;
    for round in 0..20 {
        let before = history_lines(dir.path());
        let mut child = spawn_child(dir.path(), "victim", 0);
        // Wait until it is in its save loop (one more history line), then kill -9 at varying
        // moments of the next saves (each writes ~512 KiB and fsyncs).
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while history_lines(dir.path()) == before && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        std::thread::sleep(Duration::from_millis((round as u64 * 13) % 61));
        if child.try_wait().unwrap().is_none() {
            killed_while_running += 1;
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        assert_profile_whole(&store, "victim");
    }
    assert!(killed_while_running >= 18, "the child exited by itself");
    assert_profile_whole(&store, "victim");
    let report = store.list();
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    // Every .toml in the directory parses; only temp files (.signscope-*.tmp) of interrupted
    // saves may be left over.
    let mut interrupted = 0;
    for e in fs::read_dir(store.dir()).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        interrupted += name.ends_with(".tmp") as usize;
        assert!(
            name == "victim.toml" || (name.starts_with(".signscope-") && name.ends_with(".tmp")),
            "unexpected file {name}"
        );
    }
    eprintln!("{killed_while_running} kills, {interrupted} of them in the middle of a save");
    // History survived too: every complete line parses (a torn last line would be one warning).
    let (entries, warnings) = History::open(&paths_in(dir.path())).load(usize::MAX);
    assert!(!entries.is_empty());
    assert!(warnings.len() <= 20, "{warnings:?}");
}

#[test]
fn concurrent_processes_never_corrupt_each_other() {
    let dir = tempfile::tempdir().unwrap();
    const N: usize = 10;
    let children: Vec<Child> = ["alpha", "beta", "gamma"]
        .iter()
        .map(|n| spawn_child(dir.path(), n, N))
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let store = ProfileStore::open(&paths_in(dir.path()));
    for n in ["alpha", "beta", "gamma"] {
        assert_profile_whole(&store, n);
        assert_eq!(
            store.load(n).unwrap().request().query,
            format!("i={}", N - 1)
        );
    }
    let (entries, warnings) = History::open(&paths_in(dir.path())).load(usize::MAX);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        entries.len(),
        3 * N,
        "every append of every process is there"
    );
}

#[test]
fn corrupt_profile_is_reported_with_location_and_left_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let store = ProfileStore::open(&paths_in(dir.path()));
    store.save(&Profile::new("fine")).unwrap();
    let bad = store.paths().profile_file("broken");
    let bytes =
        b"schema_version = 3\r\n# comment\r\nindexing_url = \"http://x\nbody = 1\r\n\xff".to_vec();
    fs::write(&bad, &bytes).unwrap();
    let report = store.list();
    assert_eq!(
        report
            .profiles
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>(),
        ["demo", "fine"]
    );
    assert_eq!(report.errors.len(), 1);
    let e = &report.errors[0];
    assert_eq!(e.path, bad);
    assert!(e.line > 0 && e.column > 0, "{e}");
    assert_eq!(
        fs::read(&bad).unwrap(),
        bytes,
        "the broken file was modified"
    );
    // Saving another profile, and listing again, still leaves it alone.
    store.save(&Profile::new("other")).unwrap();
    let _ = store.list();
    assert_eq!(fs::read(&bad).unwrap(), bytes);
    // A broken TOML file (valid UTF-8) reports the exact place.
    fs::write(&bad, "schema_version = 3\nindexing_url = [\n").unwrap();
    let err = store.load("broken").unwrap_err().to_string();
    assert!(err.contains("broken.toml line 2 column "), "{err}");
}

#[test]
fn read_only_config_dir_gives_a_clear_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let paths = paths_in(dir.path());
    let store = ProfileStore::open(&paths);
    store.save(&Profile::new("first")).unwrap();
    let profiles = paths.profiles_dir();
    fs::set_permissions(&profiles, fs::Permissions::from_mode(0o555)).unwrap();
    let probe = profiles.join("probe");
    let root_bypasses = fs::write(&probe, "x").is_ok();
    let _ = fs::remove_file(&probe);
    if !root_bypasses {
        let err = store.save(&Profile::new("second")).unwrap_err().to_string();
        assert!(err.contains("permission denied"), "{err}");
        assert!(err.contains(&profiles.display().to_string()), "{err}");
    }
    fs::set_permissions(&profiles, fs::Permissions::from_mode(0o755)).unwrap();
    // Running as root (CI containers) ignores permission bits, so also check an unwritable
    // location that root cannot write either: a regular file where the config dir should be.
    let blocked = Paths::new(
        dir.path().join("config/profiles/first.toml"),
        dir.path().join("d"),
    );
    let err = ProfileStore::open(&blocked)
        .save(&Profile::new("x"))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("cannot create the profile directory"),
        "{err}"
    );
    assert!(err.contains("first.toml"), "{err}");
}
