//! HAR written by signscope (`/_inspect/requests?format=har`, `history --output har`): valid
//! HAR 1.2 by the npm `har-validator` schema, and read back by `check` with the verdicts the
//! server gave (docs/har.md rules H8-H10).
//!
//! The schema check needs node and `target/npm/node_modules/har-validator` (.ci/run installs
//! it); without them that part says so in one printed line and is skipped.

// Test code: an unwrap that fails is a failed test, with its message.
#![allow(clippy::unwrap_used)]

mod server_common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{json, Value};
use signscope::core::Secret;
use signscope::server::{fixed_clock, spawn, ServerConfig};

const KEY1: &str = "FixtureRestKey0123456789";
const KEY2: &str = "SecondFixtureKey98765";

fn fixture() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/har/mitmproxy-indexing.har");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// One raw HTTP/1.1 exchange; returns the status and the body.
fn http(addr: &str, raw: &[u8]) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(raw).unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let status = String::from_utf8_lossy(&out[9..12]).parse().unwrap();
    let split = out.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let head = String::from_utf8_lossy(&out[..split]).to_ascii_lowercase();
    if !head.contains("transfer-encoding: chunked") {
        return (status, out[split..].to_vec());
    }
    // A page is written a chunk at a time: undo the chunked framing.
    let (mut rest, mut body) = (&out[split..], Vec::new());
    loop {
        let eol = rest.windows(2).position(|w| w == b"\r\n").unwrap();
        let size =
            usize::from_str_radix(std::str::from_utf8(&rest[..eol]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            return (status, body);
        }
        body.extend_from_slice(&rest[eol + 2..eol + 2 + size]);
        rest = &rest[eol + 4 + size..];
    }
}

fn check(har: &Path, args: &[&str]) -> (i32, Vec<Value>) {
    let out = Command::cargo_bin("signscope")
        .unwrap()
        .arg("check")
        .arg(har)
        .args(["--output", "json"])
        .args(args)
        .env("K1", KEY1)
        .env("K2", KEY2)
        .env("DEMO_KEY", signscope::core::demo::DEMO_REST_KEY)
        .output()
        .unwrap();
    let recs = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out.status.code().unwrap(), recs)
}

fn statuses(recs: &[Value]) -> Vec<u64> {
    recs.iter()
        .filter(|r| r["type"] == "request")
        .map(|r| r["status"].as_u64().unwrap())
        .collect()
}

/// `har-validator`'s verdict on a file: Ok, Err(its errors), or None when it is not installed.
fn har_validator(file: &Path) -> Option<Result<(), String>> {
    let module =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("target/npm/node_modules/har-validator");
    if !module.is_dir() {
        println!("har_out: skipped the HAR 1.2 schema check: target/npm/node_modules/har-validator is missing (.ci/run installs it)");
        return None;
    }
    let script = format!(
        "const v = require({m:?}); const h = JSON.parse(require('fs').readFileSync({f:?}, 'utf8'));\
         v.har(h).then(() => console.log('valid')).catch(e => {{ console.log(JSON.stringify(e.errors || e.message)); process.exit(1); }});",
        m = module.to_str().unwrap(),
        f = file.to_str().unwrap()
    );
    let out = match std::process::Command::new("node")
        .args(["-e", &script])
        .output()
    {
        Ok(o) => o,
        Err(_) => {
            println!("har_out: skipped the HAR 1.2 schema check: node is not installed");
            return None;
        }
    };
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    Some(if out.status.success() {
        Ok(())
    } else {
        Err(text)
    })
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn the_inspection_api_writes_valid_har_that_check_reads_back_with_the_same_verdicts() {
    // A server whose clock reads the capture's time, so that the captured signed requests are
    // in its window; the six requests mitmproxy recorded are sent to it again, byte for byte.
    let har = fixture();
    let entries = har["log"]["entries"].as_array().unwrap();
    let start = entries[0]["startedDateTime"].as_str().unwrap();
    let t = chrono::DateTime::parse_from_rfc3339(start)
        .unwrap()
        .with_timezone(&chrono::Utc);
    let mut cfg = ServerConfig::new()
        .with_account("klevu-1234567890", Secret::new(KEY1))
        .with_account("klevu-2222222222", Secret::new(KEY2));
    cfg.header_prefix = "KLEVU".into();
    cfg.clock = fixed_clock(t);
    let server = spawn(cfg, std::net::TcpListener::bind("127.0.0.1:0").unwrap()).unwrap();
    let addr = server.url().trim_start_matches("http://").to_string();
    let mut live = Vec::new();
    for e in entries {
        let r = &e["request"];
        let url = r["url"].as_str().unwrap();
        let target = &url[url.find("/v2").unwrap()..];
        let body = r["postData"]["text"].as_str().unwrap_or("");
        let mut raw = format!("{} {target} HTTP/1.1\r\n", r["method"].as_str().unwrap());
        for h in r["headers"].as_array().unwrap() {
            let n = h["name"].as_str().unwrap();
            if !n.eq_ignore_ascii_case("content-length") && !n.eq_ignore_ascii_case("connection") {
                raw.push_str(&format!("{n}: {}\r\n", h["value"].as_str().unwrap()));
            }
        }
        raw.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ));
        live.push(http(&addr, raw.as_bytes()).0 as u64);
    }
    assert_eq!(live, [200, 200, 200, 401, 401, 401]);

    let (status, body) = http(
        &addr,
        format!("GET /_inspect/requests?format=har HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    );
    assert_eq!(status, 200);
    let text = String::from_utf8(body).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "inspect.har", &text);
    let written: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(written["log"]["version"], "1.2");
    assert_eq!(written["log"]["creator"]["name"], "signscope");
    let first = &written["log"]["entries"][0];
    // Unknown sizes are -1, not guessed.
    assert_eq!(first["request"]["headersSize"], -1);
    assert_eq!(first["response"]["headersSize"], -1);
    assert_eq!(first["timings"]["dns"], -1);
    assert!(
        first["request"]["headers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h["name"] == "authorization"
                && h["value"].as_str().unwrap().starts_with("Bearer ")
                && h["value"] != "Bearer ***"),
        "the signature is kept: {first}"
    );
    assert!(
        !text.contains(KEY1) && !text.contains(KEY2),
        "no REST key in a HAR"
    );

    let (code, recs) = check(
        &path,
        &[
            "--key",
            "klevu-1234567890=K1",
            "--key",
            "klevu-2222222222=K2",
        ],
    );
    assert_eq!(statuses(&recs), live, "{recs:?}");
    assert_eq!(code, 1);
    let mistakes: Vec<&Value> = recs
        .iter()
        .filter(|r| r["type"] == "request")
        .map(|r| &r["mistakes"])
        .collect();
    assert_eq!(
        mistakes[3],
        &serde_json::json!(["QUESTION_MARK_BEFORE_QUERY"])
    );
    assert_eq!(mistakes[4], &serde_json::json!(["TRAILING_SLASH_TRIMMED"]));
    if let Some(v) = har_validator(&path) {
        v.unwrap();
    }

    // redact=1 masks the signature.
    let (_, body) = http(
        &addr,
        format!("GET /_inspect/requests?format=har&redact=true HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    );
    let text = String::from_utf8(body).unwrap();
    assert!(text.contains("\"Bearer ***\""), "{text}");
    assert!(!text.contains(
        entries[0]["request"]["headers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["name"] == "Authorization")
            .unwrap()["value"]
            .as_str()
            .unwrap()
    ));
    // An unknown format is one sentence naming the known one.
    let (status, body) = http(
        &addr,
        b"GET /_inspect/requests?format=xml HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 400);
    assert!(String::from_utf8_lossy(&body).contains("use format=har"));
}

/// `signscope ARGS` with its configuration and data in `dir` (no REST key from outside).
fn signscope_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("signscope")
        .unwrap()
        .args(args)
        .env("SIGNSCOPE_CONFIG_DIR", dir.join("config"))
        .env("SIGNSCOPE_DATA_DIR", dir.join("data"))
        .env_remove("SIGNSCOPE_REST_KEY")
        .output()
        .unwrap()
}

#[test]
fn history_writes_valid_har_that_check_reads_back_with_the_same_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| signscope_in(dir.path(), args);
    // Two sends through the demo profile's in-process server: one taken, one whose (correctly
    // signed) body is not JSON.
    assert_eq!(run(&["send", "--body", "[]"]).status.code(), Some(0));
    let bad = run(&["send", "--body", "[1,"]);
    assert_ne!(bad.status.code(), Some(0));
    let out = run(&["history", "--output", "har"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let path = write(dir.path(), "history.har", &text);
    let har: Value = serde_json::from_str(&text).unwrap();
    let entries = har["log"]["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0]["response"]["status"], 200);
    assert_eq!(entries[1]["response"]["status"], 400);
    // Measured timings are written as measured: the total is the entry's time.
    assert!(entries[0]["time"].as_f64().unwrap() > 0.0);
    assert!(!text.contains(signscope::core::demo::DEMO_REST_KEY));

    let (code, recs) = check(&path, &["--rest-key-env", "DEMO_KEY"]);
    assert_eq!(statuses(&recs), [200, 400], "{recs:?}");
    let captured: Vec<u64> = recs
        .iter()
        .filter(|r| r["type"] == "request")
        .map(|r| r["captured"]["status"].as_u64().unwrap())
        .collect();
    assert_eq!(captured, [200, 400]);
    assert_eq!(code, 1);
    if let Some(v) = har_validator(&path) {
        v.unwrap();
    }

    // --redact masks the Authorization header: the signature is gone, so nothing verifies.
    let out = run(&["history", "--output", "har", "--redact"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\"Bearer ***\""), "{text}");
    let path = write(dir.path(), "redacted.har", &text);
    let (_, recs) = check(&path, &["--rest-key-env", "DEMO_KEY"]);
    let judged: Vec<&Value> = recs.iter().filter(|r| r["type"] == "request").collect();
    assert_eq!(judged.len(), 2);
    assert!(
        judged
            .iter()
            .all(|r| r["rejected"] == true && r["code"] == "MALFORMED_AUTHORIZATION"),
        "{recs:?}"
    );
}

#[test]
fn check_does_not_judge_what_history_did_not_send_or_did_not_keep() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| signscope_in(dir.path(), args);
    // A body of 200 KB, signed and sent whole; history keeps its first 64 KiB.
    let name = "n".repeat(200_000);
    let big =
        format!(r#"[{{"id":"sku-1","type":"KLEVU_PRODUCT","attributes":{{"name":"{name}"}}}}]"#);
    let file = write(dir.path(), "big.json", &big);
    let sent = run(&["send", "--body-file", file.to_str().unwrap()]);
    assert_eq!(sent.status.code(), Some(0), "{sent:?}");
    // A send to a port nothing listens on: never answered.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}");
    let made = run(&[
        "profile",
        "new",
        "closed",
        "--from",
        "demo",
        "--indexing-url",
        &url,
    ]);
    assert_eq!(made.status.code(), Some(0), "{made:?}");
    let refused = run(&["send", "--profile", "closed", "--body", "[]"]);
    assert_ne!(refused.status.code(), Some(0));
    let out = run(&["history", "--output", "har"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let path = write(dir.path(), "history.har", &text);
    let har: Value = serde_json::from_str(&text).unwrap();
    let entries = har["log"]["entries"].as_array().unwrap();
    let statuses: Vec<&Value> = entries.iter().map(|e| &e["response"]["status"]).collect();
    assert_eq!(statuses, [200, 0], "history's order: oldest first");

    let (code, recs) = check(&path, &["--rest-key-env", "DEMO_KEY"]);
    assert_eq!(code, 2, "nothing judged, a body not kept: {recs:?}");
    let not_judged: Vec<(&Value, &Value)> = recs
        .iter()
        .filter(|r| r["type"] == "not_judged")
        .map(|r| (&r["entry"], &r["why"]))
        .collect();
    assert_eq!(
        not_judged,
        [
            (&json!(0), &json!("body_not_kept")),
            (&json!(1), &json!("not_sent"))
        ],
        "{recs:?}"
    );
    assert!(
        recs.iter().all(|r| r["type"] != "request"),
        "never a verdict: {recs:?}"
    );
    let summary = recs.last().unwrap();
    assert_eq!(
        (
            &summary["judged"],
            &summary["not_sent"],
            &summary["body_not_kept"]
        ),
        (&json!(0), &json!(1), &json!(1)),
        "{summary}"
    );

    // In text: one line each, counted in the summary, and no 200 KB of expected text.
    let out = Command::cargo_bin("signscope")
        .unwrap()
        .args([
            "check",
            path.to_str().unwrap(),
            "--rest-key-env",
            "DEMO_KEY",
        ])
        .env("DEMO_KEY", signscope::core::demo::DEMO_REST_KEY)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.len() < 4096,
        "{} bytes: {}",
        stdout.len(),
        &stdout[..4096]
    );
    assert!(!stdout.contains("SIGNATURE_MISMATCH"), "{stdout}");
    assert!(
        stdout.contains("/v2/batch: not judged: the capture did not keep the body (the capture holds 65536 of the request body's 200064 bytes)"),
        "{stdout}"
    );
    assert!(stdout.contains("#1 PUT "), "{stdout}");
    assert!(
        stdout.contains(": not sent: the capture has no answer to it"),
        "{stdout}"
    );
    assert!(
        stdout.contains("2 not judged (1 not sent, 1 body not kept)"),
        "{stdout}"
    );
}

/// One HAR of everything the server received (`docs/server.md` rule R15): indexing, collector
/// and older endpoints' requests in arrival order, the collector's body as its bytes came, and
/// `check` reads it back with the verdicts the server gave.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_har_holds_every_request_received_and_check_gives_the_same_verdicts() {
    use server_common::{bad_batch, client, config_at_t0, put_batch, start};
    let server = start(config_at_t0()).await;
    let (c, base) = (client(), server.url());
    let body = r#"[{"id":"1","type":"KLEVU_CMS"}]"#;
    let mut live = vec![put_batch(&c, &base, body).await.0];
    // The collector: a pretty batch (its bytes must stay as they came), a bad one, and an
    // older endpoint's GET.
    let pretty = server_common::GOOD_BATCH;
    for b in [pretty.to_string(), bad_batch()] {
        let r = c
            .post(format!("{base}/analytics/collect"))
            .header("Content-Type", "application/json")
            .body(b)
            .send()
            .await
            .unwrap();
        live.push(r.status().as_u16());
    }
    let older = c
        .get(format!("{base}/analytics/productTracking?klevu_apiKey=demo-public-key&klevu_type=clicked&klevu_productId=1"))
        .send()
        .await
        .unwrap();
    live.push(older.status().as_u16());
    assert_eq!(&live[..3], [200, 200, 400]);

    let har_url = format!("{base}/_inspect/requests?format=har&all=true");
    let text = c.get(&har_url).send().await.unwrap().text().await.unwrap();
    let har: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let entries = har["log"]["entries"].as_array().unwrap();
    let urls: Vec<&str> = entries
        .iter()
        .map(|e| e["request"]["url"].as_str().unwrap())
        .map(|u| &u[u.find("/v2").or_else(|| u.find("/analytics")).unwrap()..])
        .collect();
    assert_eq!(
        urls,
        [
            "/v2/batch",
            "/analytics/collect",
            "/analytics/collect",
            "/analytics/productTracking?klevu_apiKey=demo-public-key&klevu_type=clicked&klevu_productId=1"
        ]
    );
    assert_eq!(
        entries[1]["request"]["postData"]["text"], pretty,
        "the collector's body as received, not re-serialised"
    );
    assert_eq!(entries[1]["request"]["bodySize"], pretty.len());
    // Without all=true the page is the indexing requests only, as before.
    let (st, only) =
        server_common::get_json(&c, &format!("{base}/_inspect/requests?format=har")).await;
    assert_eq!(st, 200, "{only}");
    assert_eq!(only["log"]["entries"].as_array().unwrap().len(), 1);
    let (st, _) = server_common::get_json(&c, &format!("{har_url}&verdict=accepted")).await;
    assert_eq!(st, 400, "all=true takes no verdict filter");

    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "all.har", &text);
    let (code, recs) =
        tokio::task::spawn_blocking(move || check(&path, &["--rest-key-env", "DEMO_KEY"]))
            .await
            .unwrap();
    let judged: Vec<u64> = statuses(&recs);
    let live: Vec<u64> = live.iter().map(|s| u64::from(*s)).collect();
    assert_eq!(judged, live, "{recs:?}");
    assert_eq!(code, 1, "the bad batch is rejected");
    server.shutdown().await;
}

/// `signscope watch --output har`: every request the server received while watch ran (not the
/// one before), indexing and collector alike, in arrival order, written as one HAR on stdout
/// when it is stopped (Ctrl-C); `check` reads it back with the verdicts the server gave.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_output_har_writes_what_the_server_received_while_it_ran() {
    use server_common::{bad_batch, client, config_at_t0, put_batch, start};
    use std::io::BufRead;
    let server = start(config_at_t0()).await;
    let (c, base) = (client(), server.url());
    let collect = |body: String| {
        c.post(format!("{base}/analytics/collect"))
            .header("Content-Type", "application/json")
            .body(body)
            .send()
    };
    // Before watch: not in its HAR.
    let before = collect(server_common::GOOD_BATCH.to_string())
        .await
        .unwrap();
    assert_eq!(before.status(), 200);

    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_signscope"))
        .args(["watch", "--url", &base, "--output", "har"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // It says it follows once it has taken the server's mark and subscribed.
    let rx = tokio::task::spawn_blocking(move || loop {
        let l = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("watch did not say it follows the stream within a minute");
        if l.starts_with("signscope: following ") {
            return rx;
        }
    })
    .await
    .unwrap();

    let body = r#"[{"id":"1","type":"KLEVU_CMS"}]"#;
    let mut live = vec![put_batch(&c, &base, body).await.0];
    live.push(collect(bad_batch()).await.unwrap().status().as_u16());
    assert_eq!(live, [200, 400]);

    // Ctrl-C: the HAR on stdout, a line saying so on stderr.
    interrupt(&child);
    let (status, text, said) = tokio::task::spawn_blocking(move || {
        let mut text = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        let status = child.wait().unwrap();
        let said: Vec<String> = rx.iter().collect();
        (status, text, said)
    })
    .await
    .unwrap();
    assert!(status.success(), "{status:?} {said:?}");
    assert!(
        said.iter()
            .any(|l| l.starts_with("signscope: wrote 2 requests")),
        "{said:?}"
    );
    let har: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let urls: Vec<&str> = har["log"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["request"]["url"].as_str().unwrap())
        .collect();
    assert_eq!(
        urls,
        [
            format!("{base}/v2/batch"),
            format!("{base}/analytics/collect")
        ],
        "{text}"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "watched.har", &text);
    let (_, recs) =
        tokio::task::spawn_blocking(move || check(&path, &["--rest-key-env", "DEMO_KEY"]))
            .await
            .unwrap();
    let live: Vec<u64> = live.iter().map(|s| u64::from(*s)).collect();
    assert_eq!(statuses(&recs), live, "{recs:?}");
    server.shutdown().await;
}

/// Ctrl-C to a child process (SIGINT).
#[allow(unsafe_code)] // signals our own child process (libc::kill)
fn interrupt(child: &std::process::Child) {
    // SAFETY: a signal to our own child process, which has not been reaped yet.
    let rc = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(rc, 0);
}
