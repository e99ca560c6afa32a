//! Secrets audit: a whole session with a recognisable REST key and logging at trace
//! level: the CLI (sign, verify, profile new/show/list, send through a local server, history,
//! forced errors including a wrong-key send the server explains), then the workbench in a real
//! terminal (PTY): a send with a wrong key from the environment, the right key typed, sent and
//! saved in a new profile (choosing to store it when asked), a send to a closed port, quit. Then a scan of every file written under the
//! config, data and working dirs (the workbench's `signscope.log` included) and of every byte
//! printed on stdout, stderr and the terminal. The key may appear only in the profile files the
//! user asked to store it in, and those must be mode 0600. The logs must really be there (the
//! test fails if logging silently stops), so the scan covers them. A second session takes the
//! key from the operating system's store (`keyring:`) in a real Secret Service, with the same scan.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use signscope::core::Secret;
use signscope::server::{spawn, ServerConfig};

const KEY: &str = "AUDIT-rest-key-Zq7Vx3Lm9Kp2";
const API: &str = "audit-public";
/// A key the server does not know for `API`: sends with it get SIGNATURE_MISMATCH.
const OTHER_KEY: &str = "other-key-not-the-audit-one";

struct Session {
    dir: tempfile::TempDir,
    /// Everything every command printed.
    printed: Vec<(String, Vec<u8>)>,
}

impl Session {
    fn config(&self) -> PathBuf {
        self.dir.path().join("config")
    }
    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }
    fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }
    fn run(&mut self, args: &[&str], stdin: Option<&str>) -> i32 {
        let mut c = Command::cargo_bin("signscope").unwrap();
        c.env("SIGNSCOPE_CONFIG_DIR", self.config())
            .env("SIGNSCOPE_DATA_DIR", self.data())
            .env("AUDIT_KEY", KEY)
            .env("OTHER_KEY", OTHER_KEY)
            // RUST_LOG rather than SIGNSCOPE_LOG: a bare level there is for every crate, so
            // the records of reqwest, hyper and rustls are audited too.
            .env("RUST_LOG", "trace")
            .env_remove("SIGNSCOPE_LOG")
            .current_dir(self.work())
            .args(args);
        if let Some(s) = stdin {
            c.write_stdin(s.to_string());
        }
        let out = c.output().unwrap();
        let what = args.join(" ");
        self.printed
            .push((format!("stdout of `{what}`"), out.stdout));
        self.printed
            .push((format!("stderr of `{what}`"), out.stderr));
        out.status.code().unwrap_or(-1)
    }

    /// Everything printed on stderr by commands whose arguments start with `prefix`.
    fn stderr_of(&self, prefix: &str) -> String {
        let label = format!("stderr of `{prefix}");
        self.printed
            .iter()
            .filter(|(what, _)| what.starts_with(&label))
            .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
            .collect()
    }
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries {
        let p = e.unwrap().path();
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn the_rest_key_appears_only_where_the_user_stored_it() {
    let mut s = Session {
        dir: tempfile::tempdir().unwrap(),
        printed: Vec::new(),
    };
    fs::create_dir_all(s.work()).unwrap();
    let server = spawn(
        ServerConfig::new().with_account(API, Secret::new(KEY)),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let url = server.url();
    // The user's own key file lives outside signscope's directories.
    let keyfile = common::write_key_file(s.work().join("rest.key"), format!("{KEY}\n"));
    let keyfile = keyfile.to_str().unwrap().to_string();

    // sign (text, json, curl, raw http) and verify (good, and a forced mismatch).
    for output in ["text", "json", "curl", "http"] {
        assert_eq!(
            s.run(
                &[
                    "sign",
                    "--method",
                    "PUT",
                    "--path",
                    "/v2/batch",
                    "--api-key",
                    API,
                    "--rest-key-env",
                    "AUDIT_KEY",
                    "--body",
                    "[]",
                    "--output",
                    output
                ],
                None
            ),
            0
        );
    }
    let raw = s.printed[s.printed.len() - 2].1.clone();
    fs::write(s.work().join("captured.http"), &raw).unwrap();
    assert_eq!(
        s.run(
            &[
                "verify",
                "--request-file",
                "captured.http",
                "--rest-key-file",
                &keyfile
            ],
            None
        ),
        0
    );
    common::write_key_file(s.work().join("other.key"), "some-other-key");
    let code = s.run(
        &[
            "verify",
            "--request-file",
            "captured.http",
            "--rest-key-file",
            "other.key",
        ],
        None,
    );
    assert_ne!(code, 0, "a wrong key must not verify");

    // Profiles from every key source; one stored on request.
    assert_eq!(
        s.run(
            &[
                "profile",
                "new",
                "env",
                "--indexing-url",
                &url,
                "--api-key",
                API,
                "--rest-key-env",
                "AUDIT_KEY"
            ],
            None
        ),
        0
    );
    assert_eq!(
        s.run(
            &[
                "profile",
                "new",
                "file",
                "--indexing-url",
                &url,
                "--api-key",
                API,
                "--rest-key-file",
                &keyfile
            ],
            None
        ),
        0
    );
    let cat = format!("cat {keyfile}");
    assert_eq!(
        s.run(
            &[
                "profile",
                "new",
                "cmd",
                "--indexing-url",
                &url,
                "--api-key",
                API,
                "--rest-key-command",
                &cat
            ],
            None
        ),
        0
    );
    assert_eq!(
        s.run(
            &[
                "profile",
                "new",
                "kept",
                "--indexing-url",
                &url,
                "--api-key",
                API,
                "--store-rest-key-from-stdin"
            ],
            Some(&format!("{KEY}\n"))
        ),
        0
    );
    for name in ["env", "file", "cmd", "kept", "demo"] {
        assert_eq!(s.run(&["profile", "show", name], None), 0);
    }
    assert_eq!(s.run(&["profile", "list"], None), 0);
    assert_eq!(s.run(&["profile", "path"], None), 0);

    // Sends through the local server, text and JSON, each key source.
    for name in ["env", "file", "cmd", "kept"] {
        assert_eq!(
            s.run(
                &[
                    "send",
                    "--profile",
                    name,
                    "--body",
                    "[{\"id\":\"1\",\"type\":\"KLEVU_CMS\"}]",
                ],
                None
            ),
            0,
            "{name}"
        );
        assert_eq!(
            s.run(
                &[
                    "send",
                    "--profile",
                    name,
                    "--body",
                    "[]",
                    "--output",
                    "json"
                ],
                None
            ),
            0
        );
    }
    assert_eq!(
        s.run(&["send", "--profile", "demo", "--body", "[]"], None),
        0
    );
    // `--rest-key REF` of each kind on the command line (the profile's key left aside), a
    // generated program, and doctor, which says each key resolves without showing it.
    let file_ref = format!("file:{keyfile}");
    let cmd_ref = format!("cmd:cat '{keyfile}'");
    for reference in ["env:AUDIT_KEY", file_ref.as_str(), cmd_ref.as_str()] {
        let args = [
            "send",
            "--profile",
            "env",
            "--body",
            "[]",
            "--rest-key",
            reference,
        ];
        assert_eq!(s.run(&args, None), 0, "{reference}");
        let args = [
            "sign",
            "--profile",
            "env",
            "--rest-key",
            reference,
            "--output",
            "code",
            "--lang",
            "python",
        ];
        assert_eq!(s.run(&args, None), 0, "{reference}");
    }
    assert_eq!(s.run(&["doctor"], None), 1, "the stored key is a problem");

    // Forced errors: rejected (path the server does not serve), refused connection, bad body file,
    // a key command that fails.
    assert_eq!(
        s.run(
            &[
                "send",
                "--profile",
                "kept",
                "--path",
                "/v2/nothing",
                "--body",
                "[]"
            ],
            None
        ),
        1
    );
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    assert_eq!(
        s.run(
            &[
                "profile",
                "new",
                "down",
                "--indexing-url",
                &format!("http://{closed}"),
                "--api-key",
                API,
                "--rest-key-env",
                "AUDIT_KEY"
            ],
            None
        ),
        0
    );
    assert_eq!(
        s.run(
            &[
                "send",
                "--profile",
                "down",
                "--body",
                "[]",
                "--output",
                "json"
            ],
            None
        ),
        1
    );
    assert_eq!(
        s.run(
            &["send", "--profile", "kept", "--body-file", "missing.json"],
            None
        ),
        2
    );
    assert_eq!(
        s.run(
            &[
                "profile",
                "new",
                "failing",
                "--indexing-url",
                &url,
                "--rest-key-command",
                "sh -c 'echo no such entry >&2; exit 1'"
            ],
            None
        ),
        0
    );
    assert_eq!(
        s.run(&["send", "--profile", "failing", "--body", "[]"], None),
        2
    );
    // A key the server does not hold for this account: its SIGNATURE_MISMATCH answer (canonical
    // text, provided signature, diagnosis) is printed, and must not hold the account's key.
    assert_eq!(
        s.run(
            &[
                "profile",
                "new",
                "wrong",
                "--indexing-url",
                &url,
                "--api-key",
                API,
                "--rest-key-env",
                "OTHER_KEY"
            ],
            None
        ),
        0
    );
    assert_eq!(
        s.run(
            &[
                "send",
                "--profile",
                "wrong",
                "--body",
                "[]",
                "--output",
                "json"
            ],
            None
        ),
        1
    );
    let mismatch = String::from_utf8_lossy(&s.printed[s.printed.len() - 2].1).into_owned();
    assert!(
        mismatch.contains("SIGNATURE_MISMATCH") && mismatch.contains("canonical: "),
        "the server's explanation is printed: {mismatch}"
    );

    // Event batches through each profile's collector.
    let batch = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/events/spec-batch.json");
    for name in ["env", "kept"] {
        assert_eq!(
            s.run(
                &["events", "send", batch.to_str().unwrap(), "--profile", name],
                None
            ),
            0
        );
    }

    // History, both outputs.
    assert_eq!(s.run(&["history", "--last", "100"], None), 0);
    assert_eq!(s.run(&["history", "--output", "json"], None), 0);

    // The CLI really logged at trace level (else the scan below would prove little).
    let sign_log = s.stderr_of("sign ");
    assert!(
        sign_log.contains("signscope::cli::sign: request signed canonical_len="),
        "sign logs the canonical text's length at trace level: {sign_log}"
    );
    assert!(
        sign_log.contains("REST key read source=\"env\""),
        "{sign_log}"
    );
    let send_log = s.stderr_of("send --profile env");
    for event in [
        "signscope::client: sending method=PUT",
        "signscope::client: request headers",
        "signscope::client: response received",
        "status=200",
        "REST key read source=\"env\"",
    ] {
        assert!(send_log.contains(event), "no {event:?} in: {send_log}");
    }
    let demo_log = s.stderr_of("send --profile demo");
    assert!(
        demo_log.contains("signscope::server::indexing: indexing request answered"),
        "the embedded server logs its verdicts: {demo_log}"
    );
    assert!(s
        .stderr_of("send --profile down")
        .contains("signscope::client: send failed"));

    let tui_log = run_the_workbench(&mut s, &url);
    server.stop();

    // The scan.
    let mut files = Vec::new();
    files_under(&s.config(), &mut files);
    files_under(&s.data(), &mut files);
    assert!(files.len() >= 7, "the session wrote files: {files:?}");
    // Files the commands wrote in the working directory too (the user's own key file aside).
    let mut work_files = Vec::new();
    files_under(&s.work(), &mut work_files);
    for f in &work_files {
        if f.file_name().unwrap() == "rest.key" {
            continue;
        }
        let bytes = fs::read(f).unwrap();
        assert!(
            !contains(&bytes, KEY.as_bytes()),
            "the REST key is in {}",
            f.display()
        );
    }
    assert!(
        files.contains(&tui_log),
        "the scan covers the workbench's log file"
    );
    // Stored on request: by `profile new kept --store-rest-key-from-stdin` and by the
    // workbench's "save as" after the key was typed.
    let allowed = [
        s.config().join("profiles/kept.toml"),
        s.config().join("profiles/typed.toml"),
    ];
    let mut found_in_allowed = Vec::new();
    for f in &files {
        let bytes = fs::read(f).unwrap();
        if contains(&bytes, KEY.as_bytes()) {
            assert!(
                allowed.contains(f),
                "the REST key was written to {}",
                f.display()
            );
            let mode = fs::metadata(f).unwrap().permissions().mode() & 0o777;
            assert_eq!(
                mode,
                0o600,
                "{} holds the key but is mode {mode:o}",
                f.display()
            );
            found_in_allowed.push(f.clone());
        }
    }
    assert_eq!(
        found_in_allowed.len(),
        2,
        "both stored profiles should hold the key (the scan can find it): {found_in_allowed:?}"
    );
    let history = fs::read_to_string(s.data().join("history.jsonl")).unwrap();
    assert!(
        history.lines().count() >= 15,
        "every send, the workbench's too, is in the history"
    );
    let mut printed_bytes = 0;
    for (what, bytes) in &s.printed {
        printed_bytes += bytes.len();
        assert!(
            !contains(bytes, KEY.as_bytes()),
            "the REST key was printed on {what}"
        );
    }
    assert!(printed_bytes > 2000, "the session printed output to scan");
}

/// The workbench in a real terminal with trace logging, on the `env` profile (key from the
/// environment, here a wrong one): send (the server's mismatch diff is shown); type the audit key
/// and send; save as `typed`, choosing to store the typed key (0600); point the URL at a closed
/// port and send (an error); quit. Everything printed on the terminal joins `s.printed`.
/// Returns the path of the log file, after checking it recorded the session.
fn run_the_workbench(s: &mut Session, url: &str) -> PathBuf {
    use common::*;
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_signscope"));
    cmd.args(["--profile", "env"]);
    cmd.cwd(s.work());
    cmd.env("SIGNSCOPE_CONFIG_DIR", s.config());
    cmd.env("SIGNSCOPE_DATA_DIR", s.data());
    // The profile's variable holds a wrong key in this run: the right one is typed below.
    cmd.env("AUDIT_KEY", OTHER_KEY);
    // Every crate's records (see `Session::run`).
    cmd.env("RUST_LOG", "trace");
    cmd.env_remove("SIGNSCOPE_LOG");
    cmd.env("NO_COLOR", "1");
    cmd.env_remove("EDITOR");
    cmd.env_remove("VISUAL");
    let mut tui = Pty::spawn(cmd, 120, 40);
    tui.wait_for("the first frame with a signature", |s| {
        s.contains(" ✓") && s.contains(url)
    });

    // 1. Send with the (wrong) key from the environment: the server explains the mismatch.
    tui.send(CTRL_G);
    let screen = tui.wait_for("the mismatch diff", |s| s.contains("Conclusion:"));
    assert!(screen.contains("SIGNATURE_MISMATCH"), "{screen}");

    // 2. Body -> URL -> Method -> Path -> Query -> Prefix -> API key -> REST key: clear it,
    // type the audit key itself and send: accepted.
    for _ in 0..7 {
        tui.send(TAB);
    }
    tui.send(CTRL_U);
    tui.send(KEY);
    tui.wait_for("the typed key", |s| s.contains("typed (not saved)"));
    tui.send(CTRL_G);
    let screen = tui.wait_for("the accepted response", |s| s.contains(" job "));
    assert!(screen.contains("200 "), "{screen}");

    // 3. Save as a new profile, choosing to store the typed key in it (mode 0600).
    tui.send(ALT_S);
    tui.wait_for("the save-as prompt", |s| s.contains("Save profile as"));
    tui.send(CTRL_U);
    tui.send("typed");
    tui.send(ENTER);
    tui.wait_for("where the typed key goes", |s| {
        s.contains("Save the typed REST key?")
    });
    tui.send("s");
    tui.wait_for("the saved message", |s| {
        s.contains("profile typed saved; the typed REST key is stored")
    });

    // 4. REST key -> ... -> URL: a closed port; the send fails.
    for _ in 0..6 {
        tui.send(BACKTAB);
    }
    tui.send(CTRL_U);
    tui.send(format!("http://{closed}"));
    tui.send(CTRL_G);
    tui.wait_for("the failed send", |s| s.contains("send failed"));

    // 5. Quit (the URL edit is unsaved: confirm).
    tui.send(CTRL_C);
    tui.wait_for("the quit question", |s| s.contains("unsaved edits"));
    tui.send("y");
    assert!(tui.wait_exit().success());
    tui.assert_restored();
    let raw = tui.raw();
    assert!(raw.len() > 2000, "the workbench drew screens to scan");
    assert!(
        !contains(&raw, b"signscope::"),
        "the workbench logs to its file, never to the terminal"
    );
    s.printed
        .push(("the workbench's terminal".to_string(), raw));

    // The log file recorded the session at trace level (the scan then covers it).
    let log = s.data().join("signscope.log");
    let text = fs::read_to_string(&log).expect("the workbench writes signscope.log");
    for event in [
        "workbench starting",
        "REST key read source=\"env\"",
        "sign job",
        "send started",
        "send finished",
        "status=200",
        "code=\"SIGNATURE_MISMATCH\"",
        "signscope::client: request headers",
        "signscope::store::profile: profile saved profile=typed",
        "send failed",
        "workbench quitting",
        // The runtime's effects, in whichever of its modules they are performed.
        "signscope::tui::runtime::perform",
    ] {
        assert!(
            text.contains(event),
            "no {event:?} in signscope.log:\n{text}"
        );
    }
    log
}

/// With logging on but no way to open the log file (the data dir would be inside a regular
/// file), the workbench still runs, says logging is off, and prints no log line on the terminal.
#[test]
fn an_unopenable_log_file_leaves_the_workbench_running() {
    use common::*;
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("blocker");
    fs::write(&blocker, "a file, not a directory").unwrap();
    let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_signscope"));
    cmd.cwd(dir.path());
    cmd.env("SIGNSCOPE_CONFIG_DIR", dir.path().join("config"));
    cmd.env("SIGNSCOPE_DATA_DIR", blocker.join("data"));
    cmd.env("SIGNSCOPE_LOG", "trace");
    cmd.env("NO_COLOR", "1");
    let mut tui = Pty::spawn(cmd, 200, 30);
    tui.wait_for("the warning in the status line", |s| {
        s.contains("cannot open the log file") && s.contains("logging is off")
    });
    tui.wait_for("a signed request all the same", |s| s.contains(" ✓"));
    tui.send(CTRL_C);
    assert!(tui.wait_exit().success());
    tui.assert_restored();
    let raw = tui.raw();
    assert!(
        !contains(&raw, b"signscope::"),
        "no log line on the terminal"
    );
    assert!(!contains(&raw, b"TRACE"), "no log line on the terminal");
}

/// A key from the operating system's store (`keyring:`), in a real Secret Service
/// (gnome-keyring-daemon under dbus-run-session, as `tests/os_key_store.rs`): `key set` files it
/// and every command that takes a key reads it from there, logging at trace level: profile
/// show, key get (without --reveal), sign in every output and as generated code, verify, check
/// with a JUnit report, send (text, JSON, `--rest-key keyring:`), a suite exported from the
/// profile and run with its reports, doctor, history, and `serve --account API=keyring:` taking
/// a send. Then every byte printed, logged or written (config, data, working directory) is
/// scanned for the key: zero hits.
#[cfg(target_os = "linux")]
#[test]
fn a_key_from_the_os_store_is_never_printed_logged_or_written() {
    const STORED: &str = "AUDIT-keyring-key-Hw4Rt8Nc2";
    let missing = common::missing_tools(&["dbus-run-session", "gnome-keyring-daemon"]);
    if !missing.is_empty() {
        println!(
            "skipped: {} not installed (.ci/run installs dbus and gnome-keyring)",
            missing.join(", ")
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (out, work) = (dir.path().join("out"), dir.path().join("work"));
    let (config, data) = (dir.path().join("config"), dir.path().join("data"));
    fs::create_dir_all(&out).unwrap();
    fs::create_dir_all(&work).unwrap();
    let server = spawn(
        ServerConfig::new().with_account(API, Secret::new(STORED)),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let status = std::process::Command::new("timeout")
        .args([
            "300",
            "dbus-run-session",
            "--",
            "sh",
            "-c",
            KEYRING_SESSION,
            "sh",
        ])
        .arg(assert_cmd::cargo::cargo_bin("signscope"))
        .args([&out, &work])
        .args([server.url().as_str(), API])
        .current_dir(&work)
        .env("STORED_KEY", STORED)
        .env("HOME", dir.path())
        .env("XDG_RUNTIME_DIR", dir.path())
        .env("SIGNSCOPE_CONFIG_DIR", &config)
        .env("SIGNSCOPE_DATA_DIR", &data)
        .env("RUST_LOG", "trace")
        .env_remove("SIGNSCOPE_LOG")
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .status()
        .unwrap();
    server.stop();
    let index = fs::read_to_string(out.join("index")).unwrap_or_default();
    let printed = |n: usize| {
        let read = |ext: &str| fs::read_to_string(out.join(format!("{n}.{ext}"))).unwrap();
        format!("stdout:\n{}\nstderr:\n{}", read("out"), read("err"))
    };
    // Every command succeeded (the index lists each one's exit status and arguments).
    for (n, line) in index.lines().enumerate() {
        assert!(line.starts_with("0 "), "{line}\n{}", printed(n + 1));
    }
    assert!(status.success(), "{index}");
    assert!(index.lines().count() >= 20, "{index}");
    // The key really came from the store, and the records were written at trace level.
    let logged: String = (1..=index.lines().count()).map(printed).collect();
    for event in [
        "REST key read source=\"keyring\"",
        "signscope::client: request headers",
        "status=200",
    ] {
        assert!(logged.contains(event), "no {event:?} in:\n{logged}");
    }
    let served = fs::read_to_string(out.join("serve.err")).unwrap();
    assert!(
        served.contains("signscope::server::indexing: indexing request answered"),
        "{served}"
    );
    let history = fs::read_to_string(data.join("history.jsonl")).unwrap();
    assert!(history.lines().count() >= 4, "{history}");
    // The scan: what was printed (out/), the files the commands wrote (reports, the suite,
    // the capture) and signscope's own config and data.
    let mut files = Vec::new();
    for d in [&out, &work, &config, &data] {
        files_under(d, &mut files);
    }
    assert!(files.len() >= 50, "{files:?}");
    for f in &files {
        let bytes = fs::read(f).unwrap();
        assert!(
            !contains(&bytes, STORED.as_bytes()),
            "the key from the store is in {}",
            f.display()
        );
    }
}

/// The session of [`a_key_from_the_os_store_is_never_printed_logged_or_written`], run under one
/// D-Bus session: `$1` signscope, `$2` where each command's stdout and stderr go (`N.out`,
/// `N.err`, and a line `STATUS ARGS` in `index`), `$3` the working directory, `$4` the server's
/// URL, `$5` its API key. The key reaches `key set` on stdin only (a here-document: a pipe
/// would run `run` in a subshell, whose count is lost).
const KEYRING_SESSION: &str = r#"
S="$1"; OUT="$2"; WORK="$3"; URL="$4"; API="$5"; n=0
run() {
    n=$((n + 1))
    "$S" "$@" >"$OUT/$n.out" 2>"$OUT/$n.err"
    echo "$? $*" >>"$OUT/index"
}
printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null
REF=keyring:signscope/kr
run profile new kr --indexing-url "$URL" --api-key "$API" --rest-key "$REF"
run key set kr <<KEY
$STORED_KEY
KEY
run profile show kr
run key get kr
for output in text json curl http; do
    run sign --profile kr --body '[]' --output "$output"
done
cp "$OUT/$n.out" "$WORK/captured.http"
run sign --profile kr --output code --lang python
run verify --request-file "$WORK/captured.http" --rest-key "$REF"
run check "$WORK/captured.http" --key "$API=$REF" --report "junit=$WORK/check.xml"
run send --profile kr --body '[{"id":"1","type":"KLEVU_CMS"}]'
run send --profile kr --body '[]' --output json
run send --profile kr --body '[]' --rest-key "$REF"
run profile request export kr default --suite "$WORK/kr.signscope.toml"
run test "$WORK/kr.signscope.toml" --server "$URL" --report "junit=$WORK/suite.xml" --report "json=$WORK/suite.json"
run doctor --profile kr --offline
"$S" serve --addr 127.0.0.1:0 --account "$API=$REF" --ready-file "$WORK/ready.json" \
    >"$OUT/serve.out" 2>"$OUT/serve.err" &
serve=$!
run wait "$WORK/ready.json" --timeout 60
served=$(sed -e 's/.*"url":"\([^"]*\)".*/\1/' "$WORK/ready.json")
run profile new served --from kr --indexing-url "$served"
run send --profile served --body '[]'
kill "$serve"
wait "$serve"
run history --output json
run history --last 100
"#;
