//! `verify` on a curl command whose body is a file (`--data-binary @FILE`, what
//! `sign --output curl --body-file` prints): the file is found next to the request file, then
//! in the working directory, or given with `--body-file`; a hostile capture cannot name a
//! file elsewhere, and the key is in no output.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::process::{Command, Output};

const TS: &str = "2026-11-22T10:00:00.000Z";
const REST: &str = "cli-verify-body-file-key-51c2";
const BODY: &[u8] = b"[{\"id\": \"1\", \"type\": \"KLEVU_CMS\"}]\n";

fn signscope(cwd: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_signscope"));
    c.current_dir(cwd);
    c.env_remove("SIGNSCOPE_TEST_KEY");
    c
}

/// Sign the request with its body in `body.json` inside `dir`, run there, as curl.
fn curl_command(dir: &Path, key: &Path) -> Vec<u8> {
    curl_command_with(dir, key, BODY)
}

/// Like [`curl_command`], with `body` in `body.json`.
fn curl_command_with(dir: &Path, key: &Path, body: &[u8]) -> Vec<u8> {
    std::fs::write(dir.join("body.json"), body).unwrap();
    let out = signscope(dir)
        .args(["sign", "--method", "PUT", "--path", "/v2/batch"])
        .args(["--timestamp", TS, "--api-key", "pub-key", "--rest-key-file"])
        .arg(key)
        .args(["--body-file", "body.json", "--output", "curl"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("--data-binary @body.json"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    out.stdout
}

fn verify(cwd: &Path, request: &Path, key: &Path, extra: &[&str]) -> Output {
    signscope(cwd)
        .args(["verify", "--request-file"])
        .arg(request)
        .arg("--rest-key-file")
        .arg(key)
        .args(["--now", TS])
        .args(extra)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "exit {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn the_body_file_of_a_curl_command_is_found_and_verified() {
    let root = tempfile::tempdir().unwrap();
    let (here, there, elsewhere) = (
        root.path().join("here"),
        root.path().join("there"),
        root.path().join("elsewhere"),
    );
    for d in [&here, &there, &elsewhere] {
        std::fs::create_dir(d).unwrap();
    }
    let key = common::write_key_file(root.path().join("rest.key"), format!("{REST}\n"));
    let curl = curl_command(&here, &key);

    // Next to the request file, run from anywhere.
    let req = here.join("req.curl");
    std::fs::write(&req, &curl).unwrap();
    let out = verify(&elsewhere, &req, &key, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("accepted"), "{}", text(&out));
    assert!(
        text(&out).contains("body.json"),
        "the note names the file: {}",
        text(&out)
    );

    // The request file elsewhere: the working directory.
    let req_there = there.join("req.curl");
    std::fs::write(&req_there, &curl).unwrap();
    let out = verify(&here, &req_there, &key, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    // Found nowhere: one sentence naming the file and the way out, exit 2.
    let out = verify(&elsewhere, &req_there, &key, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("body.json") && err.contains("--body-file"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    // Given with --body-file.
    let given = here.join("body.json");
    let out = verify(
        &elsewhere,
        &req_there,
        &key,
        &["--body-file", given.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    // Another body than the one signed: rejected.
    let other = elsewhere.join("other.json");
    std::fs::write(&other, b"[{\"id\": \"2\", \"type\": \"KLEVU_CMS\"}]\n").unwrap();
    let out = verify(
        &elsewhere,
        &req_there,
        &key,
        &["--body-file", other.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("SIGNATURE_MISMATCH"), "{}", text(&out));
}

/// curl's `-d @FILE` drops the file's CR and LF, `--data-binary @FILE` keeps them: verify reads
/// the file the way the command would send it.
#[test]
fn d_at_file_drops_line_ends_as_curl_does_and_data_binary_keeps_every_byte() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path();
    let key = common::write_key_file(dir.join("rest.key"), format!("{REST}\n"));
    let swap = |curl: &[u8]| {
        String::from_utf8_lossy(curl).replace("--data-binary @body.json", "-d @body.json")
    };

    // Signed with the file's trailing LF: --data-binary verifies, -d sends one byte less.
    let curl = curl_command(dir, &key);
    let req = dir.join("binary.curl");
    std::fs::write(&req, &curl).unwrap();
    let out = verify(dir, &req, &key, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("byte for byte"), "{}", text(&out));
    let req_d = dir.join("d.curl");
    std::fs::write(&req_d, swap(&curl)).unwrap();
    let out = verify(dir, &req_d, &key, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("SIGNATURE_MISMATCH"), "{}", text(&out));

    // Signed as one line; the file on disk is the same JSON over several lines with CRLF:
    // -d sends the signed line, --data-binary the file as it is.
    let flat = b"[{\"id\": \"1\", \"type\": \"KLEVU_CMS\"}]";
    let curl = curl_command_with(dir, &key, flat);
    std::fs::write(
        dir.join("body.json"),
        b"[\r\n{\"id\": \"1\", \"type\": \"KLEVU_CMS\"}\r\n]\n",
    )
    .unwrap();
    std::fs::write(&req_d, swap(&curl)).unwrap();
    let out = verify(dir, &req_d, &key, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("without its CR and LF"),
        "{}",
        text(&out)
    );
    std::fs::write(&req, &curl).unwrap();
    let out = verify(dir, &req, &key, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
}

/// A capture written by someone else: a curl command naming `@target`.
fn hostile_capture(dir: &Path, target: &str) -> std::path::PathBuf {
    let cmd = format!(
        "curl -X PUT 'http://127.0.0.1:8080/v2/batch' -H 'X-SVC-APIKEY: pub-key' -H 'X-SVC-TIMESTAMP: {TS}' -H 'X-SVC-AUTH-ALGO: HmacSHA384' -H 'Content-Type: application/json' -H 'Authorization: Bearer AAAA' --data-binary @{target}\n"
    );
    let path = dir.join("capture.txt");
    std::fs::write(&path, cmd).unwrap();
    path
}

fn verify_env(cwd: &Path, request: &Path, key: &str) -> Output {
    signscope(cwd)
        .args(["verify", "--request-file"])
        .arg(request)
        .args(["--rest-key-env", "SHOP_KEY", "--now", TS])
        .env("SHOP_KEY", key)
        .output()
        .unwrap()
}

/// `verify --rest-key-env SHOP_KEY` on a capture reading `@/proc/self/environ` printed the
/// environment, the key with it; `@/dev/zero` read until memory ran out; a link in the
/// capture's folder to either did the same. A capture's `@FILE` is now read only when it is a
/// regular file inside the capture's folder or the working directory (links followed), and
/// the refusal names `--body-file`; the key is in no output.
#[test]
fn a_capture_cannot_make_verify_read_files_outside_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let key = "hostile-capture-key-90817";
    std::os::unix::fs::symlink("/proc/self/environ", dir.path().join("env.json")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.json")).unwrap();
    for target in [
        "/proc/self/environ",
        "/dev/zero",
        "env.json",
        "zero.json",
        "../../../../proc/self/environ",
    ] {
        let capture = hostile_capture(dir.path(), target);
        let out = verify_env(dir.path(), &capture, key);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{target}: {stdout}");
        assert!(
            !stdout.contains(key) && !stderr.contains(key),
            "{target}: {stdout}{stderr}"
        );
        assert!(!stdout.contains("SHOP_KEY"), "{target}: {stdout}");
        assert!(stderr.contains("--body-file"), "{target}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{target}: {stderr}");
    }
}

/// A body file in the capture's folder that holds the key (pasted by mistake, or planted): the
/// verdict and diagnosis are printed with the key blanked as `***`.
#[test]
fn verify_never_prints_the_key_even_when_the_body_holds_it() {
    let dir = tempfile::tempdir().unwrap();
    let key = "key-inside-the-body-55120";
    std::fs::write(
        dir.path().join("body.json"),
        format!("[{{\"id\":\"{key}\"}}]"),
    )
    .unwrap();
    let capture = hostile_capture(dir.path(), "body.json");
    for output in ["text", "json"] {
        let out = signscope(dir.path())
            .args(["verify", "--request-file"])
            .arg(&capture)
            .args([
                "--rest-key-env",
                "SHOP_KEY",
                "--now",
                TS,
                "--output",
                output,
            ])
            .env("SHOP_KEY", key)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("***"), "{output}: {stdout}");
        assert!(!stdout.contains(key), "{output}: {stdout}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains(key));
    }
}
