//! Secrets audit: a whole CLI session with a recognisable REST key (sign, verify, profile
//! new/show/list, send through the local server, history, forced errors), then a scan of every
//! file written under the config and data dirs and of every byte printed. The key may appear
//! only in the profile file the user asked to store it in, and that file must be mode 0600.
//! (The TUI part of the audit is added with the TUI.)

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use signscope::core::Secret;
use signscope::server::{spawn_background, ServerConfig};

const KEY: &str = "AUDIT-rest-key-Zq7Vx3Lm9Kp2";
const API: &str = "audit-public";

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
            .env("RUST_LOG", "trace")
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
    let server = spawn_background(
        ServerConfig::new().with_account(API, Secret::new(KEY)),
        ([127, 0, 0, 1], 0).into(),
    )
    .unwrap();
    let url = server.url();
    // The user's own key file lives outside signscope's directories.
    let keyfile = s.work().join("rest.key");
    fs::write(&keyfile, format!("{KEY}\n")).unwrap();
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
    fs::write(s.work().join("other.key"), "some-other-key").unwrap();
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
                &["send", "--profile", name, "--body", "[{\"id\":\"1\"}]"],
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
    let allowed = s.config().join("profiles/kept.toml");
    let mut found_in_allowed = false;
    for f in &files {
        let bytes = fs::read(f).unwrap();
        if contains(&bytes, KEY.as_bytes()) {
            assert_eq!(f, &allowed, "the REST key was written to {}", f.display());
            let mode = fs::metadata(f).unwrap().permissions().mode() & 0o777;
            assert_eq!(
                mode,
                0o600,
                "{} holds the key but is mode {mode:o}",
                f.display()
            );
            found_in_allowed = true;
        }
    }
    assert!(
        found_in_allowed,
        "the stored profile should hold the key (the scan can find it)"
    );
    let history = fs::read_to_string(s.data().join("history.jsonl")).unwrap();
    assert!(
        history.lines().count() >= 10,
        "every send is in the history"
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
