//! `signscope send`, `profile`, `history` (and `events send`) as a user runs them: the binary,
//! with SIGNSCOPE_CONFIG_DIR / SIGNSCOPE_DATA_DIR in a temp dir, against the local server on
//! 127.0.0.1 port 0 (in this test process, or the in-process one the CLI starts for `demo`).

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use common::upstream::{payload_too_large, raw_answer, raw_upstream, refusing_upstream};
use signscope::core::Secret;
use signscope::server::{spawn, Server, ServerConfig};

const API: &str = "cli-test-public";
const KEY: &str = "cli-test-rest-key-5b1e";

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Self {
        Env {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn config(&self) -> std::path::PathBuf {
        self.dir.path().join("config")
    }
    fn data(&self) -> std::path::PathBuf {
        self.dir.path().join("data")
    }
    fn cmd(&self) -> Command {
        let mut c = Command::cargo_bin("signscope").unwrap();
        c.env("SIGNSCOPE_CONFIG_DIR", self.config())
            .env("SIGNSCOPE_DATA_DIR", self.data())
            .env_remove("SIGNSCOPE_REST_KEY");
        c
    }
    /// Run; return (exit code, stdout, stderr).
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        self.run_with(args, &[], None)
    }
    fn run_with(
        &self,
        args: &[&str],
        env: &[(&str, &str)],
        stdin: Option<&str>,
    ) -> (i32, String, String) {
        let mut c = self.cmd();
        c.args(args);
        for (k, v) in env {
            c.env(k, v);
        }
        if let Some(s) = stdin {
            c.write_stdin(s.to_string());
        }
        let out = c.output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

fn server() -> Server {
    spawn(
        ServerConfig::new().with_account(API, Secret::new(KEY)),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap()
}

fn new_profile(env: &Env, name: &str, url: &str, key_args: &[&str]) {
    let mut args = vec![
        "profile",
        "new",
        name,
        "--indexing-url",
        url,
        "--api-key",
        API,
    ];
    args.extend_from_slice(key_args);
    let (code, out, err) = env.run(&args);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn demo_send_works_offline_with_no_profiles() {
    let env = Env::new();
    let (code, out, err) = env.run(&["send", "--body", "[]"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("HTTP 200 OK"), "{out}");
    assert!(
        out.contains("\"message\": \"Job submitted successfully.\""),
        "pretty JSON: {out}"
    );
    let (code, out, _) = env.run(&[
        "send",
        "--profile",
        "demo",
        "--body",
        "[]",
        "--output",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["response"]["status"], 200);
    assert_eq!(v["request"]["method"], "PUT");
    // Both sends are in the history.
    let (code, out, _) = env.run(&["history", "--output", "json"]);
    assert_eq!(code, 0);
    let h: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(h.len(), 2);
    assert_eq!(h[1]["response"]["status"], 200);
    assert_eq!(h[1]["profile"], "demo");
}

#[test]
fn signed_send_accepted_and_wrong_key_rejected_with_the_server_error() {
    let env = Env::new();
    let srv = server();
    let keyfile = common::write_key_file(env.dir.path().join("rest.key"), format!("{KEY}\n"));
    new_profile(
        &env,
        "good",
        &srv.url(),
        &["--rest-key-file", keyfile.to_str().unwrap()],
    );
    new_profile(
        &env,
        "bad",
        &srv.url(),
        &["--rest-key-env", "CLI_TEST_WRONG"],
    );

    let body = env.dir.path().join("body.json");
    fs::write(&body, "[ {\"id\": \"é\", \"type\": \"KLEVU_CMS\"} ]\n").unwrap();
    let (code, out, err) = env.run(&[
        "send",
        "--profile",
        "good",
        "--body-file",
        body.to_str().unwrap(),
        "--query",
        "test=1",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("HTTP 200"), "{out}");
    // A leading '?' is not part of the query: sent as test=1 (accepted), and said on stderr.
    let (code, out, err) = env.run(&[
        "send",
        "--profile",
        "good",
        "--body",
        "[]",
        "--query",
        "?test=1",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("HTTP 200"), "{out}");
    assert!(
        err.contains("the leading '?' is not part of the query: signed and sent as \"test=1\""),
        "{err}"
    );
    let seen = common::stored_requests(&srv.store());
    assert_eq!(seen.last().map(|r| r.query.as_str()), Some("test=1"));

    let (code, out, err) = env.run_with(
        &["send", "--profile", "bad", "--body", "[]"],
        &[("CLI_TEST_WRONG", "not-the-key")],
        None,
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.starts_with("HTTP 401"), "{out}");
    assert!(
        out.contains("SIGNATURE_MISMATCH"),
        "the server's error is shown: {out}"
    );

    // A key source that cannot be read is one sentence, exit 2, nothing sent.
    let (code, out, err) = env.run(&["send", "--profile", "bad", "--body", "[]"]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(
        err.trim(),
        "signscope: profile \"bad\" has no usable REST key: the environment variable CLI_TEST_WRONG that should hold the REST key is not set"
    );
    // Several profiles and no last used one... the last used (bad) is remembered.
    let (_, out, _) = env.run(&["profile", "list"]);
    assert!(out.lines().any(|l| l.starts_with("* bad")), "{out}");
}

#[test]
fn timeout_and_refused_are_one_sentence_and_recorded() {
    let env = Env::new();
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let silent_addr = silent.local_addr().unwrap();
    // The connection is held open, unanswered, until the send has given up (however long a
    // loaded machine takes to start it): a closed one would be another error.
    let (release, hold) = std::sync::mpsc::channel::<()>();
    let held = std::thread::spawn(move || {
        let mut socks = Vec::new();
        for s in silent.incoming().take(1) {
            socks.push(s);
            let _ = hold.recv();
        }
    });
    new_profile(
        &env,
        "silent",
        &format!("http://{silent_addr}"),
        &["--rest-key-env", "K"],
    );
    let (code, out, err) = env.run_with(
        &[
            "send",
            "--profile",
            "silent",
            "--body",
            "[]",
            "--timeout",
            "0.5",
        ],
        &[("K", "k")],
        None,
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains(&format!("{silent_addr} did not answer within 0.5 s")),
        "{err}"
    );
    drop(release);
    held.join().unwrap();

    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    new_profile(
        &env,
        "closed",
        &format!("http://{closed}"),
        &["--rest-key-env", "K"],
    );
    let (code, _, err) = env.run_with(
        &["send", "--profile", "closed", "--body", "[]"],
        &[("K", "k")],
        None,
    );
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        format!("signscope: the connection to {closed} was refused; is the server running and is the URL right?")
    );
    let (_, out, _) = env.run(&["history", "--last", "5"]);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.contains("error: the connection to"), "{out}");
}

#[test]
fn profile_commands() {
    let env = Env::new();
    let (code, out, _) = env.run(&["profile", "path"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(&env.config().join("profiles").display().to_string()),
        "{out}"
    );

    // Stored key: only on request, read from stdin, file 0600, the outcome says so.
    let (code, out, err) = env.run_with(
        &[
            "profile",
            "new",
            "kept",
            "--indexing-url",
            "http://127.0.0.1:9",
            "--store-rest-key-from-stdin",
        ],
        &[],
        Some("kept-secret-key-99\n"),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("0600") && out.contains("plain text"), "{out}");
    let file = env.config().join("profiles/kept.toml");
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let (code, out, err) = env.run(&["profile", "show", "kept"]);
    assert_eq!(code, 0);
    assert!(
        !out.contains("kept-secret-key-99") && !err.contains("kept-secret-key-99"),
        "{out}"
    );
    assert!(
        out.contains("rest_key:      stored in the profile file (***)"),
        "{out}"
    );

    // --from copies, the command key source is split into argv.
    let (code, _, err) = env.run(&[
        "profile",
        "new",
        "copy",
        "--from",
        "kept",
        "--rest-key-command",
        "pass show 'shop/rest key'",
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = env.run(&["profile", "show", "copy"]);
    assert!(out.contains("command `pass show shop/rest key`"), "{out}");
    // Existing names are not overwritten.
    let (code, _, err) = env.run(&[
        "profile",
        "new",
        "copy",
        "--indexing-url",
        "http://127.0.0.1:1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("already exists"), "{err}");
    // A REST key is never a plain flag value.
    let (code, _, _) = env.run(&[
        "profile",
        "new",
        "x",
        "--indexing-url",
        "http://h",
        "--rest-key",
        "abc",
    ]);
    assert_eq!(code, 2);

    // A broken file is reported with its location; the rest still lists.
    fs::write(
        env.config().join("profiles/broken.toml"),
        "schema_version = 3\napi_key = \n",
    )
    .unwrap();
    let (code, out, err) = env.run(&["profile", "list"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("kept") && out.contains("copy") && out.contains("demo"),
        "{out}"
    );
    assert!(err.contains("broken.toml line 2 column"), "{err}");
    // Deleting.
    let (code, _, _) = env.run(&["profile", "delete", "copy"]);
    assert_eq!(code, 0);
    let (code, _, err) = env.run(&["profile", "show", "copy"]);
    assert_eq!(code, 2);
    assert!(err.contains("there is no profile named \"copy\""), "{err}");
    let (code, _, err) = env.run(&["profile", "delete", "demo"]);
    assert_eq!(code, 2);
    assert!(err.contains("built in"), "{err}");
}

#[test]
fn history_survives_a_corrupt_line() {
    let env = Env::new();
    assert_eq!(env.run(&["send", "--body", "[]"]).0, 0);
    let file = env.data().join("history.jsonl");
    let mut text = fs::read_to_string(&file).unwrap();
    text.push_str("{not json\n");
    fs::write(&file, &text).unwrap();
    let second = r#"[{"id":"2","type":"KLEVU_CMS"}]"#;
    assert_eq!(env.run(&["send", "--body", second]).0, 0);
    let (code, out, err) = env.run(&["history"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(err.contains("skipped line 2 of the history file"), "{err}");
}

fn assert_no(text: &str, needle: &str, what: &Path) {
    assert!(
        !text.contains(needle),
        "{} contains the key",
        what.display()
    );
}

#[test]
fn key_is_not_in_history_or_output() {
    let env = Env::new();
    let srv = server();
    new_profile(&env, "p", &srv.url(), &["--rest-key-env", "CLI_KEY"]);
    // The user pastes the key into the body by mistake: the history must still not keep it.
    let body = format!("[{{\"id\": \"1\", \"type\": \"KLEVU_CMS\", \"oops\": \"{KEY}\"}}]");
    let (code, out, err) = env.run_with(
        &["send", "--profile", "p", "--body", &body],
        &[("CLI_KEY", KEY)],
        None,
    );
    assert_eq!(code, 0, "{out}{err}");
    let hist = fs::read_to_string(env.data().join("history.jsonl")).unwrap();
    assert_no(&hist, KEY, &env.data().join("history.jsonl"));
    assert!(hist.contains("Bearer "), "the Authorization value is kept");
    let (_, out, err) = env.run(&["history", "--output", "json"]);
    assert!(!out.contains(KEY) && !err.contains(KEY));
}

#[test]
fn events_send_good_and_bad_batches() {
    let env = Env::new();
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/events");
    let good = assets.join("spec-batch.json");
    let (code, out, err) = env.run(&[
        "events",
        "send",
        good.to_str().unwrap(),
        "--profile",
        "demo",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("HTTP 200"), "{out}");
    let bad = assets.join("mistakes.json");
    let (code, out, err) = env.run(&["events", "send", bad.to_str().unwrap(), "--output", "json"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["response"]["status"], 400);
    assert_eq!(
        v["request"]["url"]
            .as_str()
            .unwrap()
            .rsplit_once('/')
            .unwrap()
            .1,
        "collect"
    );
    // The server's problems are shown (each with its JSON path).
    assert!(out.contains("[0]."), "{out}");
    // Malformed JSON is sent as is and rejected by the collector, not by the client.
    let broken = env.dir.path().join("broken.json");
    fs::write(&broken, "[{\"event\": ").unwrap();
    let (code, out, _) = env.run(&["events", "send", broken.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.starts_with("HTTP 400"), "{out}");
    let (_, out, _) = env.run(&["history", "--output", "json"]);
    let h: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(h.len(), 3);
    assert!(h.iter().all(|e| e["kind"] == "events"));
    // A missing file: one sentence, exit 2.
    let (code, _, err) = env.run(&["events", "send", "/nonexistent/batch.json"]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        "signscope: cannot read the body file /nonexistent/batch.json: no such file or directory"
    );
}

/// A header prefix HTTP cannot carry in a header name is named in one sentence (it used to be
/// reqwest's "builder error: invalid HTTP header name"). Nothing is sent: the request is
/// refused while it is assembled, before any connection.
#[test]
fn a_header_prefix_with_a_space_is_named_when_sending() {
    let env = Env::new();
    let keyfile = common::write_key_file(env.dir.path().join("rest.key"), format!("{KEY}\n"));
    let (code, out, err) = env.run(&[
        "profile",
        "new",
        "spaced",
        "--indexing-url",
        "http://127.0.0.1:9",
        "--api-key",
        API,
        "--header-prefix",
        "S V",
        "--rest-key-file",
        keyfile.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = env.run(&["send", "--profile", "spaced", "--body", "[]"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("the header prefix \"S V\" gives the header name X-S V-TIMESTAMP"),
        "{err}"
    );
    assert!(!err.contains("builder error"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one sentence: {err}");
}

/// `profile new` with a taken name says what the user can do; there is no "force" to use
/// (the message used to suggest saving "with force", which neither the CLI nor the workbench
/// offers).
/// `profile edit` changes where a profile's key comes from without the key touching a file: a
/// key kept in clear is replaced by the reference (and is gone from the file), the file keeps
/// its comments, a send reads the new reference; what is not given stays; a pasted key, a URL no
/// send could use, nothing to change, the demo profile and an unknown profile are one sentence
/// each and change nothing.
#[test]
fn profile_edit_points_the_key_elsewhere_and_keeps_the_file() {
    let env = Env::new();
    let srv = server();
    let (code, _, err) = env.run_with(
        &[
            "profile",
            "new",
            "shop",
            "--indexing-url",
            &srv.url(),
            "--api-key",
            API,
            "--store-rest-key-from-stdin",
        ],
        &[],
        Some(&format!("{KEY}\n")),
    );
    assert_eq!(code, 0, "{err}");
    let file = env.config().join("profiles/shop.toml");
    let text = fs::read_to_string(&file).unwrap();
    assert!(text.contains(KEY), "{text}");
    fs::write(&file, format!("# the shop's account\n{text}")).unwrap();

    let (code, out, err) = env.run(&["profile", "edit", "shop", "--rest-key", "env:SHOP_KEY"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("the REST key the file kept in clear is no longer in it"),
        "{out}"
    );
    let text = fs::read_to_string(&file).unwrap();
    assert!(!text.contains(KEY), "{text}");
    assert!(text.starts_with("# the shop's account\n"), "{text}");
    assert!(text.contains("source = \"env\""), "{text}");
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    let (_, out, _) = env.run(&["profile", "show", "shop"]);
    assert!(out.contains("environment variable SHOP_KEY"), "{out}");
    assert!(out.contains(&srv.url()) && out.contains(API), "{out}");
    let (code, out, err) = env.run_with(
        &["send", "--profile", "shop", "--body", "[]"],
        &[("SHOP_KEY", KEY)],
        None,
    );
    assert_eq!(code, 0, "{out}{err}");

    let before = fs::read_to_string(&file).unwrap();
    for (args, sentence) in [
        (
            vec!["shop", "--rest-key", "sk-pasted-where-a-reference-belongs"],
            "--rest-key: a REST key reference starts with env:, file:, cmd: or keyring:",
        ),
        (
            vec!["shop", "--indexing-url", "ftp://127.0.0.1"],
            "--indexing-url: ",
        ),
        (
            vec!["shop"],
            "profile edit shop changes nothing: give --rest-key REF",
        ),
        (
            vec!["demo", "--api-key", "x"],
            "the demo profile is built in and cannot be saved or deleted",
        ),
        (
            vec!["nosuch", "--api-key", "x"],
            "there is no profile named \"nosuch\"",
        ),
    ] {
        let mut all = vec!["profile", "edit"];
        all.extend(args);
        let (code, out, err) = env.run(&all);
        assert_eq!(code, 2, "{all:?}: {out}{err}");
        assert!(err.contains(sentence), "{all:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!err.contains("sk-pasted"), "{err}");
    }
    assert_eq!(fs::read_to_string(&file).unwrap(), before);
}

#[test]
fn profile_new_with_a_taken_name_suggests_only_what_exists() {
    let env = Env::new();
    new_profile(&env, "taken", "http://127.0.0.1:9", &[]);
    let before = fs::read_to_string(env.config().join("profiles/taken.toml")).unwrap();
    let (code, out, err) = env.run(&[
        "profile",
        "new",
        "taken",
        "--indexing-url",
        "http://127.0.0.1:10",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("taken.toml already exists"), "{err}");
    assert!(err.contains("choose another name"), "{err}");
    assert!(!err.contains("force"), "{err}");
    let after = fs::read_to_string(env.config().join("profiles/taken.toml")).unwrap();
    assert_eq!(before, after, "the existing profile is untouched");
}

/// A timeout of 0 is refused with a sentence that does not contradict itself (it said "between
/// 0 and 86400, not 0").
#[test]
fn a_zero_timeout_is_refused_in_a_consistent_sentence() {
    let env = Env::new();
    for flag in ["--timeout", "--connect-timeout"] {
        let (code, out, err) = env.run(&["send", "--body", "[]", flag, "0"]);
        assert_eq!(code, 2, "{out}{err}");
        assert_eq!(
            err.trim(),
            format!(
                "signscope: {flag} must be a number of seconds above 0 and at most 86400, not 0"
            )
        );
    }
}

/// `history --last 0` said "no sends recorded yet" although sends were recorded.
#[test]
fn history_last_zero_is_refused_rather_than_claiming_an_empty_history() {
    let env = Env::new();
    let (code, out, err) = env.run(&["send", "--body", "[]"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = env.run(&["history", "--last", "0"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(!out.contains("no sends recorded"), "{out}");
    assert_eq!(
        err.trim(),
        "signscope: --last must be at least 1 (how many of the latest sends to show)"
    );
    let (code, out, _) = env.run(&["history", "--last", "1"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1, "{out}");
}

/// `history --help` describes what history prints (it showed the doc lines of `send --output`).
#[test]
fn history_help_describes_history_output() {
    let env = Env::new();
    let (code, out, _) = env.run(&["history", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("One line per send"), "{out}");
    assert!(out.contains("A JSON array of the entries"), "{out}");
    assert!(!out.contains("Status line, headers, body"), "{out}");
}

/// A server started with a clock skew says so in its Date header too, so `send` can warn (the
/// Date header gave the machine's time while the server checked against the skewed one).
#[test]
fn send_warns_about_a_local_server_whose_clock_is_skewed() {
    let env = Env::new();
    let mut cfg = ServerConfig::new().with_account(API, Secret::new(KEY));
    cfg.clock_skew_seconds = 900;
    let srv = spawn(cfg, std::net::TcpListener::bind("127.0.0.1:0").unwrap()).unwrap();
    new_profile(&env, "skewed", &srv.url(), &["--rest-key-env", "K"]);
    let (code, out, err) = env.run_with(
        &["send", "--profile", "skewed", "--body", "[]"],
        &[("K", KEY)],
        None,
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("TIMESTAMP_OUT_OF_WINDOW"), "{out}");
    // The answer names the fix, not only the distance.
    assert!(
        out.contains("(allowed: ±600 s); sign the request again with the current time"),
        "{out}"
    );
    assert!(
        err.contains("the server's clock is 900 s ahead of this computer's")
            || err.contains("the server's clock is 899 s ahead of this computer's")
            || err.contains("the server's clock is 901 s ahead of this computer's"),
        "{err}"
    );
}

/// `signscope` with its output redirected says why the workbench cannot start (it printed
/// "could not set up the terminal: No such device or address (os error 6)").
#[test]
fn the_workbench_without_a_terminal_says_what_to_use_instead() {
    let env = Env::new();
    let (code, out, err) = env.run(&[]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(
        err.trim(),
        "signscope: the workbench needs a terminal, but standard output is not one; in scripts use a subcommand (`signscope --help` lists them)"
    );
    assert_eq!(out, "");
}

/// Bytes that act on a terminal or reorder what it shows: ESC, BEL, a C1 CSI, bidi controls.
fn terminal_controls(text: &str) -> Vec<String> {
    text.chars()
        .filter(|&c| (c.is_control() && c != '\n' && c != '\t') || hides_itself(c))
        .map(|c| format!("U+{:04X}", c as u32))
        .collect()
}

/// `send --output text` printed a non-JSON answer (and every header) as received: a server
/// could set the terminal's title, write its clipboard (OSC 52), clear the screen, or reorder
/// the line with a bidi override. Now the answer goes through the one escaping rule
/// (`core::visible`): escapes are shown, nothing acts, and a JSON answer stays JSON.
#[test]
fn send_shows_a_hostile_answer_escaped_in_text_and_json() {
    let env = Env::new();
    let (text, _) = raw_upstream(|_| {
        raw_answer(
            "502 Bad Gateway\r\nContent-Type: text/plain\r\nX-Note: a\u{202E}b",
            "\x1b]52;c;ZWNobyBoaQ==\x07\x1b[2J\u{009B}2Jgone\u{202E}txt.exe\r\n",
        )
    });
    new_profile(&env, "text", &text, &["--rest-key-env", "K"]);
    let (code, out, err) = env.run_with(
        &["send", "--profile", "text", "--body", "[]"],
        &[("K", KEY)],
        None,
    );
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(terminal_controls(&out), Vec::<String>::new(), "{out:?}");
    assert!(
        out.contains("\\x1B]52;c;ZWNobyBoaQ==\\x07\\x1B[2J\\u{009B}2Jgone\\u{202E}txt.exe\\r"),
        "{out}"
    );
    assert!(out.contains("x-note: a\\u{202E}b"), "{out}");

    let (json, _) = raw_upstream(|_| {
        raw_answer(
            "400 Bad Request\r\nContent-Type: application/json",
            "{\"code\":\"X\u{009B}2J\u{202E}\\u001b\"}",
        )
    });
    new_profile(&env, "json", &json, &["--rest-key-env", "K"]);
    for output in ["text", "json"] {
        let (code, out, err) = env.run_with(
            &[
                "send",
                "--profile",
                "json",
                "--body",
                "[]",
                "--output",
                output,
            ],
            &[("K", KEY)],
            None,
        );
        assert_eq!(code, 1, "{out}{err}");
        assert_eq!(
            terminal_controls(&out),
            Vec::<String>::new(),
            "{output}: {out:?}"
        );
        assert!(
            out.contains(r#""code": "X\u009b2J\u202e\u001b""#),
            "{output}: {out}"
        );
    }
}

/// A character that hides what it is on screen (a C1 control such as U+009B, a CSI; a
/// bidirectional embedding, override or isolate; a zero-width character): written out here,
/// not taken from the code under test.
fn hides_itself(c: char) -> bool {
    ('\u{0080}'..='\u{009F}').contains(&c)
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}')
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{FEFF}')
}

/// A header value with a space at an edge is refused, not sent: HTTP drops the space in transit,
/// so the server would check the signature against the value without it and answer
/// SIGNATURE_MISMATCH for a request that looked right (`docs/signing.md` rule S13). `sign
/// --output curl` refuses to print it for the same reason; `--output text` still shows what is
/// signed, the space made visible.
#[test]
fn a_header_value_with_a_trailing_space_is_refused_before_sending() {
    let env = Env::new();
    let srv = server();
    let (code, out, err) = env.run(&[
        "profile",
        "new",
        "spaced",
        "--indexing-url",
        &srv.url(),
        "--api-key",
        &format!("{API} "),
        "--rest-key-env",
        "CLI_KEY",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = env.run_with(
        &["send", "--profile", "spaced", "--body", "[]"],
        &[("CLI_KEY", KEY)],
        None,
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains(&format!(
            "the value of header X-SVC-APIKEY (\"{API} \") ends with a space, which HTTP drops in transit"
        )),
        "{err}"
    );
    assert!(err.trim_end().ends_with("remove the space"), "{err}");
    let seen = common::stored_requests(&srv.store());
    assert!(seen.is_empty(), "nothing is sent: {seen:?}");

    let sign = |output: &str| {
        env.run_with(
            &[
                "sign",
                "--method",
                "PUT",
                "--path",
                "/v2/batch",
                "--body",
                "[]",
                "--api-key",
                "pub ",
                "--timestamp",
                "2026-11-22T10:00:00.000Z",
                "--rest-key-env",
                "CLI_KEY",
                "--indexing-url",
                "http://127.0.0.1:9",
                "--output",
                output,
            ],
            &[("CLI_KEY", KEY)],
            None,
        )
    };
    let (code, out, err) = sign("curl");
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("header X-SVC-APIKEY (\"pub \") ends with a space"),
        "{err}"
    );
    assert!(out.is_empty(), "{out}");
    let (code, out, err) = sign("text");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("X-SVC-APIKEY=pub·"), "{out}");
}

/// `profile new` refuses a URL no send could use, naming the flag and the fix, and writes
/// nothing; before, `--indexing-url indexing.example.com` (no scheme) was saved and every send
/// failed with "relative URL without a base".
#[test]
fn profile_new_refuses_a_url_no_send_could_use() {
    let env = Env::new();
    for (flag, url, says) in [
        (
            "--indexing-url",
            "indexing.example.com",
            "write the base URL as http://host:port",
        ),
        (
            "--indexing-url",
            "ftp://127.0.0.1",
            "must be http:// or https://",
        ),
        (
            "--indexing-url",
            "http://127.0.0.1:9/v2/batch",
            "contains a path (/v2/batch)",
        ),
        (
            "--analytics-url",
            "stats",
            "write the base URL as http://host:port",
        ),
    ] {
        let mut args = vec![
            "profile",
            "new",
            "p",
            "--api-key",
            API,
            "--rest-key-env",
            "K",
        ];
        if flag == "--analytics-url" {
            args.extend(["--indexing-url", "http://127.0.0.1:9"]);
        }
        args.extend([flag, url]);
        let (code, out, err) = env.run(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(&format!("{flag}: ")), "{err}");
        assert!(err.contains(says), "{err}");
        assert!(err.trim_end().ends_with("nothing was saved"), "{err}");
        assert!(!env.config().join("profiles/p.toml").exists(), "{args:?}");
    }
    // The in-process server's word, and a URL with a trailing '/', are fine.
    let (code, out, err) = env.run(&[
        "profile",
        "new",
        "p",
        "--api-key",
        API,
        "--rest-key-env",
        "K",
        "--indexing-url",
        "embedded",
        "--analytics-url",
        "http://127.0.0.1:9/",
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

/// A body the server refuses before reading it (it answers 413 on the head and closes the
/// connection, the body unread): `send` prints the server's answer, not the write that failed.
#[test]
fn send_shows_the_answer_of_a_server_that_refused_the_body_unread() {
    let env = Env::new();
    let url = refusing_upstream(payload_too_large());
    new_profile(&env, "big", &url, &["--rest-key-env", "K"]);
    let file = env.dir.path().join("big.json");
    fs::write(&file, vec![b' '; 16 * 1024 * 1024]).unwrap();
    let (code, out, err) = env.run_with(
        &[
            "send",
            "--profile",
            "big",
            "--body-file",
            file.to_str().unwrap(),
        ],
        &[("K", KEY)],
        None,
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("413"), "{out}{err}");
    assert!(out.contains("PAYLOAD_TOO_LARGE"), "{out}{err}");
    assert!(!err.contains("Broken pipe"), "{err}");
}
