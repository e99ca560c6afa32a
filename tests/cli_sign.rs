//! The `signscope sign` and `signscope verify` binaries: every flag, the outputs cross-checked
//! against the shared vectors and against each other, and the error paths (exit 2, one sentence).

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::Value;
use signscope::core::curl::parse_curl_command;
use signscope::core::http_text::parse_raw_request;
use signscope::core::{sign, Secret, SignableRequest};

const VECTORS: &str = include_str!("data/signing.json");
const TS: &str = "2026-11-22T10:00:00.000Z";
const REST: &str = "cli-test-rest-key-7f3a";

fn cmd() -> Command {
    let mut c = Command::cargo_bin("signscope").unwrap();
    c.env_remove("SIGNSCOPE_TEST_KEY");
    c
}

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

struct Dir(tempfile::TempDir);

impl Dir {
    fn new() -> Self {
        Dir(tempfile::tempdir().unwrap())
    }
    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.0.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }
    /// A REST key file, private as a user keeps one.
    fn key(&self, name: &str, bytes: &[u8]) -> PathBuf {
        common::write_key_file(self.0.path().join(name), bytes)
    }
}

fn stdout_of(c: &mut Command) -> Vec<u8> {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "exit {:?}, stderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A sign command for the usual test request, body given with --body.
fn sign_cmd(dir: &Dir, body: &str) -> Command {
    sign_cmd_query(dir, body, "test=1")
}

/// [`sign_cmd`] with the query given as `query`.
fn sign_cmd_query(dir: &Dir, body: &str, query: &str) -> Command {
    let key = dir.key("rest.key", format!("{REST}\n").as_bytes());
    let mut c = cmd();
    c.args([
        "sign",
        "--method",
        "PUT",
        "--path",
        "/v2/batch",
        "--query",
        query,
    ])
    .args(["--timestamp", TS, "--api-key", "pub-key", "--rest-key-file"])
    .arg(&key)
    .args(["--body", body]);
    c
}

fn expected(body: &[u8]) -> signscope::core::Signed {
    let req = SignableRequest::new("PUT", "/v2/batch", "test=1", TS, "pub-key", body);
    sign(&req, &Secret::new(REST)).unwrap()
}

#[test]
fn every_vector_through_the_binary_with_every_signing_flag() {
    let v: Value = serde_json::from_str(VECTORS).unwrap();
    let dir = Dir::new();
    for (i, c) in v["cases"].as_array().unwrap().iter().enumerate() {
        let s = |k: &str| c[k].as_str().unwrap().to_string();
        let body = dir.file(
            &format!("body{i}"),
            &STANDARD.decode(s("body_b64")).unwrap(),
        );
        // The key file ends with a newline, which is not part of the key.
        let key = dir.key(
            &format!("key{i}"),
            format!("{}\n", s("rest_key")).as_bytes(),
        );
        let base = |output: &str| {
            let mut c2 = cmd();
            c2.args(["sign", "--method", &s("method"), "--path", &s("path")])
                .args(["--query", &s("query"), "--timestamp", &s("timestamp")])
                .args(["--api-key", &s("api_key"), "--auth-algo", &s("auth_algo")])
                .args(["--content-type", &s("content_type")])
                .args(["--header-prefix", &s("header_prefix"), "--output", output])
                .arg("--rest-key-file")
                .arg(&key)
                .arg("--body-file")
                .arg(&body);
            c2
        };
        let sig = String::from_utf8(stdout_of(&mut base("signature"))).unwrap();
        assert_eq!(
            sig,
            format!("{}\n", s("signature")),
            "signature of {}",
            s("name")
        );

        let json: Value = serde_json::from_slice(&stdout_of(&mut base("json"))).unwrap();
        assert_eq!(json["canonical_b64"], s("canonical_b64"), "{}", s("name"));
        assert_eq!(json["signature"], s("signature"));
        let canonical = STANDARD.decode(s("canonical_b64")).unwrap();
        assert_eq!(
            json["canonical"],
            String::from_utf8_lossy(&canonical).as_ref()
        );
        let names: Vec<&String> = json["headers"].as_object().unwrap().keys().collect();
        let p = s("header_prefix").to_ascii_uppercase();
        assert_eq!(
            names,
            [
                &format!("X-{p}-TIMESTAMP"),
                &format!("X-{p}-APIKEY"),
                &format!("X-{p}-AUTH-ALGO"),
                &"Content-Type".to_string(),
                &"Authorization".to_string()
            ]
        );
        assert_eq!(
            json["headers"]["Authorization"],
            format!("Bearer {}", s("signature"))
        );
    }
}

#[test]
fn rest_key_from_env_and_body_from_stdin() {
    let body = b"[{\"a\":1}]\n";
    let out = cmd()
        .args([
            "sign",
            "--method",
            "put",
            "--path",
            "/v2/batch",
            "--query",
            "test=1",
        ])
        .args([
            "--timestamp",
            TS,
            "--api-key",
            "pub-key",
            "--rest-key-env",
            "SIGNSCOPE_TEST_KEY",
        ])
        .args(["--body-file", "-", "--output", "signature"])
        .env("SIGNSCOPE_TEST_KEY", format!("{REST}\r\n"))
        .write_stdin(body.to_vec())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}\n", expected(body).signature())
    );
}

#[test]
fn text_output_labels_lines_and_shows_line_ends() {
    let dir = Dir::new();
    let out = String::from_utf8(stdout_of(&mut sign_cmd(&dir, "[1, 2] "))).unwrap();
    assert!(out.contains("  METHOD       PUT\\n\n"), "{out}");
    assert!(out.contains("  QUERY        test=1\\n\n"), "{out}");
    assert!(out.contains("  BODY         [1, 2]·\n"), "{out}");
    let sig = expected(b"[1, 2] ").signature().to_string();
    assert!(
        out.contains(&format!("Authorization: Bearer {sig}")),
        "{out}"
    );
    assert!(!out.contains(REST));
}

#[test]
fn http_output_is_accepted_by_verify() {
    let dir = Dir::new();
    let body = "[{\"id\": \"1\", \"type\": \"KLEVU_CMS\"}]\n";
    let raw = stdout_of(sign_cmd(&dir, body).args(["--output", "http"]));
    let parsed = parse_raw_request(&raw).unwrap();
    assert_eq!(&parsed.body[..], body.as_bytes());
    let req_file = dir.file("req.http", &raw);
    let key = dir.key("k", REST.as_bytes());
    let out = cmd()
        .args(["verify", "--request-file"])
        .arg(&req_file)
        .arg("--rest-key-file")
        .arg(&key)
        .args(["--api-key", "pub-key", "--now", "2026-11-22T10:09:59Z"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.starts_with("accepted"), "{stdout}");

    // Eleven minutes later the same request is out of the window: exit 1.
    let out = cmd()
        .args(["verify", "--request-file"])
        .arg(&req_file)
        .arg("--rest-key-file")
        .arg(&key)
        .args(["--now", "2026-11-22T10:11:00Z"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("TIMESTAMP_OUT_OF_WINDOW"), "{stdout}");
    assert!(stdout.contains("660.000 s behind"), "{stdout}");

    // Bound to another API key: unknown key, exit 1.
    let out = cmd()
        .args(["verify", "--request-file"])
        .arg(&req_file)
        .arg("--rest-key-file")
        .arg(&key)
        .args(["--api-key", "someone-else", "--now", TS])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("UNKNOWN_API_KEY"), "{stdout}");
    // Offline there is no "server": the sentence reads right here and in the local server.
    assert!(
        stdout.contains("no REST key is known for the API key \"pub-key\" in X-SVC-APIKEY"),
        "{stdout}"
    );
}

#[test]
fn curl_output_sends_the_exact_body() {
    let dir = Dir::new();
    // --body TEXT: quoted safely, even with quotes and shell characters.
    let body = "[{\"name\": \"it's $HOME `x` 100%\"}]";
    let out =
        String::from_utf8(stdout_of(sign_cmd(&dir, body).args(["--output", "curl"]))).unwrap();
    let c = parse_curl_command(&out).unwrap();
    assert_eq!(&c.request.body[..], body.as_bytes());
    assert_eq!(c.request.method, "PUT");
    assert_eq!(c.request.query, "test=1");
    assert_eq!(
        c.request.header_text("Authorization"),
        format!("Bearer {}", expected(body.as_bytes()).signature())
    );

    // --body-file FILE: referenced with --data-binary @FILE, not re-typed.
    let file = dir.file("body file.json", b"[\n  1\n]\n");
    let key = dir.key("k", REST.as_bytes());
    let out = String::from_utf8(stdout_of(
        cmd()
            .args([
                "sign",
                "--method",
                "PUT",
                "--path",
                "/v2/batch",
                "--query",
                "test=1",
            ])
            .args([
                "--timestamp",
                TS,
                "--api-key",
                "pub-key",
                "--output",
                "curl",
            ])
            .arg("--rest-key-file")
            .arg(&key)
            .arg("--body-file")
            .arg(&file),
    ))
    .unwrap();
    let c = parse_curl_command(&out).unwrap();
    assert_eq!(c.body_file.as_deref(), Some(file.to_str().unwrap()));
    assert_eq!(
        c.request.header_text("Authorization"),
        format!("Bearer {}", expected(b"[\n  1\n]\n").signature())
    );

    // stdin with bytes a shell cannot quote: embedded through printf with octal escapes.
    let raw = b"[\"\x01\"]\r\n";
    let out = cmd()
        .args([
            "sign",
            "--method",
            "PUT",
            "--path",
            "/v2/batch",
            "--query",
            "test=1",
        ])
        .args([
            "--timestamp",
            TS,
            "--api-key",
            "pub-key",
            "--output",
            "curl",
        ])
        .arg("--rest-key-file")
        .arg(&key)
        .args(["--body-file", "-"])
        .write_stdin(raw.to_vec())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("printf '[\"\\001\"]\\015\n' | curl"),
        "{text}"
    );
    if Path::new("/bin/sh").exists() {
        // Run the printf part through a real shell and compare the bytes.
        let printf = text.split(" | curl").next().unwrap();
        let got = std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(printf)
            .output()
            .unwrap();
        assert_eq!(got.stdout, raw);
    }
}

#[test]
fn streaming_signature_of_a_large_file_equals_the_library() {
    let dir = Dir::new();
    let body: Vec<u8> = (0..3_000_000u32).map(|i| (i * 7 % 256) as u8).collect();
    let file = dir.file("big.bin", &body);
    let key = dir.key("k", REST.as_bytes());
    let out = stdout_of(
        cmd()
            .args([
                "sign",
                "--method",
                "PUT",
                "--path",
                "/v2/batch",
                "--query",
                "test=1",
            ])
            .args([
                "--timestamp",
                TS,
                "--api-key",
                "pub-key",
                "--output",
                "signature",
            ])
            .arg("--rest-key-file")
            .arg(&key)
            .arg("--body-file")
            .arg(&file),
    );
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!("{}\n", expected(&body).signature())
    );
}

#[test]
fn verify_explains_the_shipped_captured_request() {
    let out = cmd()
        .args(["verify", "--request-file"])
        .arg(repo("assets/examples/captured-request.http"))
        .args([
            "--rest-key-env",
            "SIGNSCOPE_TEST_KEY",
            "--now",
            "2026-11-22T10:03:00Z",
        ])
        .env("SIGNSCOPE_TEST_KEY", "demo-rest-key-0123456789")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("rejected (401 SIGNATURE_MISMATCH)"),
        "{stdout}"
    );
    assert!(stdout.contains("QUESTION_MARK_BEFORE_QUERY"), "{stdout}");
    assert!(!stdout.contains("demo-rest-key-0123456789"));
}

#[test]
fn verify_reads_stdin_and_detects_the_header_prefix() {
    let dir = Dir::new();
    let key = dir.key("k", REST.as_bytes());
    // `docs/verification.md` rule V3: the PHP SDK's `date('c')` form is the vendor's own and gets
    // no remark; whole seconds with `Z` is another form, accepted with a warning.
    for (ts, warned) in [
        ("2026-11-22T10:00:00+00:00", false),
        ("2026-11-22T10:00:00Z", true),
    ] {
        let raw = stdout_of(
            cmd()
                .args([
                    "sign",
                    "--method",
                    "PUT",
                    "--path",
                    "/v2/batch",
                    "--header-prefix",
                    "klevu",
                ])
                .args(["--timestamp", ts, "--api-key", "pub-key"])
                .args(["--body", "[]", "--output", "http"])
                .arg("--rest-key-file")
                .arg(&key),
        );
        assert!(String::from_utf8_lossy(&raw).contains("X-KLEVU-TIMESTAMP"));
        let out = cmd()
            .args(["verify", "--request-file", "-", "--now", TS])
            .arg("--rest-key-file")
            .arg(&key)
            .write_stdin(raw)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{ts}: {stdout}");
        assert_eq!(
            stdout.contains("warning: the timestamp"),
            warned,
            "{ts}: {stdout}"
        );
    }
}

/// Exit 2 with one sentence on stderr that mentions `needle`.
fn fails_with(c: &mut Command, needle: &str) {
    let out = c.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(stderr.contains(needle), "expected {needle:?} in: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains(REST), "{stderr}");
}

#[test]
fn printed_requests_get_the_checks_of_send_and_go_to_the_given_url() {
    let dir = Dir::new();
    let key = dir.key("rest.key", format!("{REST}\n").as_bytes());
    // (method, query, api key, extra args)
    let run = |method: &str, query: &str, api_key: &str, extra: &[&str]| {
        let mut c = cmd();
        c.args([
            "sign",
            "--method",
            method,
            "--path",
            "/v2/batch",
            "--query",
            query,
        ])
        .args(["--timestamp", TS, "--api-key", api_key, "--body", "[]"])
        .arg("--rest-key-file")
        .arg(&key)
        .args(extra);
        c
    };
    // A line break in the API key would print as a header of its own ("X-Evil: 1").
    let mut c = run("PUT", "test=1", "a\nX-Evil: 1", &["--output", "http"]);
    assert!(c.output().unwrap().stdout.is_empty(), "nothing printed");
    fails_with(
        &mut c,
        "--output http cannot print this request: the value of header X-SVC-APIKEY cannot be sent",
    );
    // The text output still signs it as given, the line break made visible.
    let text =
        String::from_utf8(stdout_of(&mut run("PUT", "test=1", "a\nX-Evil: 1", &[]))).unwrap();
    assert!(text.contains("X-SVC-APIKEY=a\\nX-Evil: 1"), "{text}");
    // A prefix that makes no header name.
    fails_with(
        &mut run(
            "PUT",
            "",
            "pub-key",
            &["--header-prefix", "S V", "--output", "curl"],
        ),
        "the header prefix \"S V\" gives the header name X-S V-TIMESTAMP",
    );
    // A query the URL would re-encode (the server would see other bytes than were signed).
    fails_with(
        &mut run("PUT", "a=1 2", "pub-key", &["--output", "curl"]),
        "--output curl cannot print this request",
    );
    // --indexing-url sets where the printed request goes.
    let url = ["--indexing-url", "http://127.0.0.1:9999/"];
    let http = stdout_of(&mut run(
        "PUT",
        "test=1",
        "pub-key",
        &[url[0], url[1], "--output", "http"],
    ));
    let http = String::from_utf8(http).unwrap();
    assert!(
        http.starts_with("PUT /v2/batch?test=1 HTTP/1.1\r\nHost: 127.0.0.1:9999\r\n"),
        "{http}"
    );
    let curl = stdout_of(&mut run(
        "put",
        "test=1",
        "pub-key",
        &[url[0], url[1], "--output", "curl"],
    ));
    let curl = String::from_utf8(curl).unwrap();
    assert!(
        curl.contains("http://127.0.0.1:9999/v2/batch?test=1"),
        "{curl}"
    );
    assert!(
        curl.contains("-X PUT"),
        "the method as signed, upper-cased: {curl}"
    );
    fails_with(
        &mut run(
            "PUT",
            "",
            "pub-key",
            &["--indexing-url", "ftp://127.0.0.1", "--output", "curl"],
        ),
        "ftp://127.0.0.1",
    );
}

#[test]
fn sign_error_paths() {
    let dir = Dir::new();
    let key = dir.key("k", REST.as_bytes());
    let empty = dir.key("empty", b"\n");
    let base = || {
        let mut c = cmd();
        c.args([
            "sign",
            "--method",
            "PUT",
            "--path",
            "/v2/batch",
            "--api-key",
            "pub-key",
        ]);
        c
    };
    // Missing body file.
    let mut c = base();
    c.arg("--rest-key-file")
        .arg(&key)
        .args(["--body-file", "/nonexistent/body.json"]);
    fails_with(&mut c, "cannot read the body file /nonexistent/body.json");
    // Missing key file.
    let mut c = base();
    c.args(["--rest-key-file", "/nonexistent/key", "--body", "[]"]);
    // The same sentence as a profile's key file gives (`send`), with the flag named.
    fails_with(
        &mut c,
        "cannot read the REST key file /nonexistent/key: no such file or directory (--rest-key-file)",
    );
    // Empty key (a file holding only a newline).
    let mut c = base();
    c.arg("--rest-key-file").arg(&empty).args(["--body", "[]"]);
    fails_with(&mut c, "is empty");
    // Unset environment variable.
    let mut c = base();
    c.args(["--rest-key-env", "SIGNSCOPE_TEST_KEY", "--body", "[]"]);
    fails_with(
        &mut c,
        "the environment variable SIGNSCOPE_TEST_KEY that should hold the REST key is not set (--rest-key-env)",
    );
    // Invalid timestamp.
    let mut c = base();
    c.arg("--rest-key-file")
        .arg(&key)
        .args(["--body", "[]", "--timestamp", "yesterday"]);
    fails_with(
        &mut c,
        "the --timestamp value \"yesterday\" is not an RFC 3339 time",
    );
    // Both and neither body flags; both key flags.
    let mut c = base();
    c.arg("--rest-key-file")
        .arg(&key)
        .args(["--body", "[]", "--body-file", "x"]);
    fails_with(&mut c, "cannot be used with");
    let mut c = base();
    c.arg("--rest-key-file").arg(&key);
    fails_with(&mut c, "--body-file");
    let mut c = base();
    c.arg("--rest-key-file")
        .arg(&key)
        .args(["--rest-key-env", "X", "--body", "[]"]);
    fails_with(&mut c, "cannot be used with");
    // Unknown output.
    let mut c = base();
    c.arg("--rest-key-file")
        .arg(&key)
        .args(["--body", "[]", "--output", "yaml"]);
    fails_with(&mut c, "yaml");
}

#[test]
fn verify_error_paths() {
    let dir = Dir::new();
    let key = dir.key("k", REST.as_bytes());
    let bad = dir.file(
        "bad.http",
        b"PUT /v2/batch HTTP/1.1\nthis is not a header\n\n[]",
    );
    let mut c = cmd();
    c.args(["verify", "--request-file", "/nonexistent/req.http"])
        .arg("--rest-key-file")
        .arg(&key);
    fails_with(&mut c, "cannot read the request file /nonexistent/req.http");
    let mut c = cmd();
    c.args(["verify", "--request-file"])
        .arg(&bad)
        .arg("--rest-key-file")
        .arg(&key);
    fails_with(&mut c, "line 2: a header must look like `Name: value`");
    let good = dir.file("good.http", b"PUT /v2/batch HTTP/1.1\n\n");
    let mut c = cmd();
    c.args(["verify", "--request-file"])
        .arg(&good)
        .arg("--rest-key-file")
        .arg(&key);
    c.args(["--now", "noon"]);
    fails_with(&mut c, "the --now value \"noon\"");
    let mut c = cmd();
    c.args(["verify", "--request-file"]).arg(&good);
    fails_with(&mut c, "give the REST key to verify with: --rest-key REF");
    // A request without the signing headers is a rejection (exit 1), not unusable input.
    let out = cmd()
        .args(["verify", "--request-file"])
        .arg(&good)
        .arg("--rest-key-file")
        .arg(&key)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("MISSING_HEADER"));
}

/// `verify` reads the curl command `sign --output curl` prints (as the workbench's Diagnose view
/// does); it said "the request line must look like `PUT /v2/batch HTTP/1.1`, got "curl -X PUT".
#[test]
fn verify_reads_a_curl_command() {
    let dir = Dir::new();
    let curl = stdout_of(
        sign_cmd(&dir, "[{\"id\": \"it's\", \"type\": \"KLEVU_CMS\"}]").args(["--output", "curl"]),
    );
    assert!(curl.starts_with(b"curl "));
    let req_file = dir.file("req.curl", &curl);
    let key = dir.key("k", REST.as_bytes());
    let out = cmd()
        .args(["verify", "--request-file"])
        .arg(&req_file)
        .arg("--rest-key-file")
        .arg(&key)
        .args(["--now", TS])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.starts_with("accepted"), "{stdout}");
    // Another key: the mismatch is diagnosed as for raw HTTP.
    let wrong = dir.key("wrong", b"not-the-key");
    let out = cmd()
        .args(["verify", "--request-file"])
        .arg(&req_file)
        .arg("--rest-key-file")
        .arg(&wrong)
        .args(["--now", TS])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("SIGNATURE_MISMATCH"));
}

/// A leading '?' is not part of the query: `sign --query '?test=1'` signs and prints exactly
/// what `--query test=1` does (curl command included: one '?' in the URL), and says so on
/// stderr.
#[test]
fn a_leading_question_mark_in_the_query_is_left_out_and_said() {
    let dir = Dir::new();
    for output in ["text", "curl", "signature", "json"] {
        let plain = stdout_of(sign_cmd(&dir, "[]").args(["--output", output]));
        let mut marked = sign_cmd_query(&dir, "[]", "?test=1");
        marked.args(["--output", output]);
        let out = marked.output().unwrap();
        assert!(out.status.success(), "{output}: {out:?}");
        assert_eq!(out.stdout, plain, "{output}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("the leading '?' is not part of the query: signed and sent as \"test=1\""),
            "{output}: {err}"
        );
        assert!(!String::from_utf8_lossy(&out.stdout).contains("??"));
    }
}

/// `--rest-key REF` and its older spellings are one reference, read by one resolver: the same
/// signature from every kind; a bad reference or an unreadable one is one sentence naming it
/// and the fix, never the key.
#[test]
fn every_key_reference_signs_the_same_and_bad_ones_are_one_sentence() {
    let dir = Dir::new();
    let key = dir.key("rest.key", format!("{REST}\n").as_bytes());
    let base = || {
        let mut c = cmd();
        c.args(["sign", "--method", "PUT", "--path", "/v2/batch"])
            .args([
                "--query",
                "test=1",
                "--timestamp",
                TS,
                "--api-key",
                "pub-key",
            ])
            .args(["--body", "[]", "--output", "signature"])
            .env("SIGNSCOPE_TEST_KEY", REST);
        c
    };
    let want = format!("{}\n", expected(b"[]").signature());
    let file_ref = format!("file:{}", key.display());
    let cmd_ref = format!("cmd:cat '{}'", key.display());
    let cmd_line = format!("cat '{}'", key.display());
    for args in [
        ["--rest-key", "env:SIGNSCOPE_TEST_KEY"],
        ["--rest-key", &file_ref],
        ["--rest-key", &cmd_ref],
        ["--rest-key-env", "SIGNSCOPE_TEST_KEY"],
        ["--rest-key-command", &cmd_line],
    ] {
        let out = stdout_of(base().args(args));
        assert_eq!(String::from_utf8(out).unwrap(), want, "{args:?}");
    }
    // A key pasted where a reference belongs: refused, not repeated.
    fails_with(
        base().args(["--rest-key", REST]),
        "--rest-key: a REST key reference starts with env:, file:, cmd: or keyring:",
    );
    // Two spellings at once.
    fails_with(
        base().args(["--rest-key", "env:A", "--rest-key-env", "B"]),
        "cannot be used with",
    );
    // An empty variable, a command that prints nothing, a directory: the reference and the fix.
    fails_with(
        base().args(["--rest-key", "env:SIGNSCOPE_EMPTY_KEY"]).env("SIGNSCOPE_EMPTY_KEY", ""),
        "the REST key from environment variable SIGNSCOPE_EMPTY_KEY is empty; put the key there or give another reference (--rest-key)",
    );
    fails_with(
        base().args(["--rest-key", "cmd:true"]),
        "the REST key from command `true` is empty",
    );
    let dir_ref = format!("file:{}", dir.0.path().display());
    fails_with(
        base().args(["--rest-key", &dir_ref]),
        "is a directory; give the file inside it",
    );
    // A key file other users may read: refused before it is read, with the command that fixes
    // it, whichever spelling names it.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let open = dir.file("open.key", format!("{REST}\n").as_bytes());
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o644)).unwrap();
        let sentence = format!(
            "signscope: the REST key file {0} can be read by other users of this machine (mode 644); make it yours only with `chmod 600 {0}`",
            open.display()
        );
        fails_with(
            base().arg("--rest-key-file").arg(&open),
            &format!("{sentence} (--rest-key-file)"),
        );
        let open_ref = format!("file:{}", open.display());
        fails_with(
            base().args(["--rest-key", &open_ref]),
            &format!("{sentence} (--rest-key)"),
        );
    }
    // A failing command: its stderr is shown, its stdout (the key) never.
    let failing = format!(
        "cmd:sh -c 'cat \"{}\"; echo vault locked >&2; exit 1'",
        key.display()
    );
    fails_with(base().args(["--rest-key", &failing]), "vault locked");
}
