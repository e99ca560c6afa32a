//! `signscope doctor`: per profile, where the key comes from and whether it resolves (never the
//! key), the header prefix, the clock offset from the profile server's `Date` header (a server
//! on 127.0.0.1 whose clock is ten minutes behind), a key kept in clear named with the command
//! that moves it, and the files' permissions.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::io::{Read, Write};
use std::net::TcpListener;

use assert_cmd::Command;

const KEY: &str = "doctor-env-key-4c1f9a";
const CLEAR: &str = "doctor-clear-key-77e0b2";

/// A server on 127.0.0.1 that answers every request `200` with a `Date` ten minutes ago.
fn server_ten_minutes_behind() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { continue };
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let date = (chrono::Utc::now() - chrono::Duration::seconds(600))
                .format("%a, %d %b %Y %H:%M:%S GMT");
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\nDate: {date}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
        }
    });
    format!("http://{addr}")
}

struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn cmd(&self) -> Command {
        let mut c = Command::cargo_bin("signscope").unwrap();
        c.env("SIGNSCOPE_CONFIG_DIR", self.dir.path().join("config"))
            .env("SIGNSCOPE_DATA_DIR", self.dir.path().join("data"))
            .env_remove("DOCTOR_KEY");
        c
    }
}

#[test]
fn doctor_names_each_problem_and_its_fix_and_never_the_key() {
    let home = Home {
        dir: tempfile::tempdir().unwrap(),
    };
    let url = server_ten_minutes_behind();
    home.cmd()
        .args(["profile", "new", "shop", "--indexing-url", &url])
        .args(["--api-key", "pub", "--rest-key", "env:DOCTOR_KEY"])
        .assert()
        .success();
    home.cmd()
        .args(["profile", "new", "old", "--indexing-url", &url])
        .args(["--api-key", "pub", "--store-rest-key-from-stdin"])
        .write_stdin(format!("{CLEAR}\n"))
        .assert()
        .success();

    let out = home
        .cmd()
        .args(["doctor", "--profile", "shop"])
        .env("DOCTOR_KEY", KEY)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "ok       REST key from the environment variable DOCTOR_KEY (env:DOCTOR_KEY) resolves"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("ok       header prefix SVC"), "{stdout}");
    assert!(stdout.contains("is yours only"), "{stdout}");
    // 600 s, give or take the second the Date header is rounded to.
    let clock = stdout
        .lines()
        .find(|l| l.contains("clock:"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(clock.starts_with("  PROBLEM  clock: "), "{clock}");
    assert!(
        ["599 s behind", "600 s behind", "601 s behind"]
            .iter()
            .any(|s| clock.contains(s)),
        "{clock}"
    );
    assert!(clock.contains("TIMESTAMP_OUT_OF_WINDOW"), "{clock}");
    assert!(
        stdout.contains("fix: set this computer's clock"),
        "{stdout}"
    );
    assert!(stdout.contains("1 problem found"), "{stdout}");
    assert!(!stdout.contains(KEY));

    // Every profile: the key in clear is named with the command that moves it; the unset
    // variable with its sentence; the demo profile resolves; --offline leaves the clock out.
    let out = home.cmd().args(["doctor", "--offline"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(!stdout.contains("clock:"), "{stdout}");
    assert!(stdout.contains("profile demo\n"), "{stdout}");
    assert!(
        stdout.contains(
            "the environment variable DOCTOR_KEY that should hold the REST key is not set"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("PROBLEM  the REST key of profile \"old\" is kept in its file in clear"),
        "{stdout}"
    );
    assert!(
        stdout.contains("fix: `signscope key set old --from-profile` moves it to the operating-system key store"),
        "{stdout}"
    );
    for text in [&stdout, &stderr] {
        assert!(!text.contains(KEY) && !text.contains(CLEAR), "{text}");
    }
}
