//! `signscope serve` as a CI test double (`docs/server.md`, "Use in CI"): the ready file and
//! `signscope wait`, the filters a test asserts with (`test`, `since` from `/_inspect/mark`,
//! `path`, `code`), the JSON-lines log, and the run's verdict on SIGTERM and after an idle
//! spell. Every server is a real `signscope serve` process on 127.0.0.1 port 0.

// Test code: an unwrap that fails is a failed test, with its message.
#![allow(clippy::unwrap_used)]

mod server_common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command};

use server_common::{client, get_json, send, signed_headers, GOOD_BATCH};
use signscope::core::time::format_timestamp;
use signscope::server::{DEMO_API_KEY, DEMO_REST_KEY};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_signscope"))
}

/// A `signscope serve --demo --addr 127.0.0.1:0 --ready-file ... EXTRA` whose stdout and stderr
/// go to files in `dir`, and its URL once `signscope wait` says it is ready. Dropped (a test
/// that ends or panics before `stop` or `exit`), it kills the process and reaps it.
struct Double {
    child: Child,
    dir: PathBuf,
    url: String,
}

impl Double {
    fn start(dir: &Path, extra: &[&str]) -> Double {
        let ready = dir.join("ready.json");
        let child = bin()
            .args(["serve", "--demo", "--addr", "127.0.0.1:0", "--ready-file"])
            .arg(&ready)
            .args(extra)
            .stdout(std::fs::File::create(dir.join("out.txt")).unwrap())
            .stderr(std::fs::File::create(dir.join("err.txt")).unwrap())
            .spawn()
            .unwrap();
        // Owned before anything below can panic, so a failed start leaves no server behind.
        let mut double = Double {
            child,
            dir: dir.to_path_buf(),
            url: String::new(),
        };
        // `signscope wait` on the ready file: what a CI step does.
        let waited = bin()
            .args(["wait", "--timeout", "120"])
            .arg(&ready)
            .output()
            .unwrap();
        assert_eq!(waited.status.code(), Some(0), "{waited:?}");
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&ready).unwrap()).unwrap();
        assert_eq!(v["pid"], double.child.id());
        double.url = v["url"].as_str().unwrap().to_string();
        assert_eq!(double.url, format!("http://127.0.0.1:{}", v["port"]));
        double
    }

    /// SIGTERM, wait: the exit code and what it printed.
    #[allow(unsafe_code)] // signals our own child process (libc::kill)
    fn stop(self) -> (Option<i32>, String) {
        // SAFETY: sending a signal to our own child process, which has not been reaped yet.
        let rc = unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
        assert_eq!(rc, 0);
        self.exit()
    }

    fn exit(mut self) -> (Option<i32>, String) {
        let code = self.child.wait().unwrap().code();
        let out = std::fs::read_to_string(self.dir.join("out.txt")).unwrap();
        (code, out)
    }
}

impl Drop for Double {
    fn drop(&mut self) {
        // A child already waited for (`stop`, `exit`) is not signalled again: std knows it
        // has exited, so its id (perhaps another process's by now) is left alone.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn signed_put(body: &str, rest_key: &str, test: Option<&str>) -> Vec<(String, String)> {
    let now = format_timestamp(chrono::Utc::now());
    let mut h = signed_headers(
        "PUT",
        "/v2/batch",
        "",
        &now,
        DEMO_API_KEY,
        rest_key,
        body.as_bytes(),
    );
    if let Some(t) = test {
        h.push(("X-Signscope-Test".into(), t.into()));
    }
    h
}

async fn post_events(base: &str, body: &str, headers: &[(&str, &str)]) -> u16 {
    let mut rb = client()
        .post(format!("{base}/analytics/collect"))
        .header("Content-Type", "application/json");
    for (n, v) in headers {
        rb = rb.header(*n, *v);
    }
    rb.body(body.to_string())
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[test]
fn a_ready_file_in_a_missing_folder_is_refused_before_listening() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["serve", "--demo", "--addr", "127.0.0.1:0", "--ready-file"])
        .arg(dir.path().join("nope/ready.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("listening"), "{stdout}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("does not exist") && err.contains("nope"),
        "{err}"
    );
}

#[test]
fn wait_gives_up_with_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    // A ready file that never appears.
    let out = bin()
        .args(["wait", "--timeout", "1"])
        .arg(dir.path().join("ready.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no signscope server answered") && err.contains("is not there yet"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_strict_run_fails_with_what_went_wrong_and_the_filters_find_each_test() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.jsonl");
    let log_arg = log.to_str().unwrap().to_string();
    let d = Double::start(dir.path(), &["--strict", "--log-json", &log_arg]);
    let (c, base) = (client(), d.url.clone());

    // Test "good": an accepted request and a valid batch; test "bad": a wrong key and an
    // invalid batch (its id in a cookie, as a shop page sets it).
    let body = r#"[{"id":"1","type":"KLEVU_CMS"}]"#;
    let h = signed_put(body, DEMO_REST_KEY, Some("good"));
    let (st, _) = send(&c, &base, "PUT", "/v2/batch", &h, body.into()).await;
    assert_eq!(st, 200);
    let h = signed_put(body, "not-the-key", Some("bad"));
    let (st, _) = send(&c, &base, "PUT", "/v2/batch", &h, body.into()).await;
    assert_eq!(st, 401);
    assert_eq!(
        post_events(&base, GOOD_BATCH, &[("X-Signscope-Test", "good")]).await,
        200
    );
    let bad = server_common::bad_batch();
    assert_eq!(
        post_events(&base, &bad, &[("Cookie", "a=1; signscope_test=bad")]).await,
        400
    );

    let ids = |v: &serde_json::Value, field: &str| -> Vec<String> {
        v.as_array()
            .unwrap_or_else(|| panic!("{v}"))
            .iter()
            .map(|r| r[field].to_string())
            .collect()
    };
    let (_, v) = get_json(&c, &format!("{base}/_inspect/requests?test=bad")).await;
    assert_eq!(ids(&v, "code"), ["\"SIGNATURE_MISMATCH\""], "{v}");
    let (_, v) = get_json(
        &c,
        &format!("{base}/_inspect/requests?test=good&path=/v2/batch"),
    )
    .await;
    assert_eq!(ids(&v, "status"), ["200"], "{v}");
    let (_, v) = get_json(&c, &format!("{base}/_inspect/events?test=bad")).await;
    assert_eq!(ids(&v, "valid"), ["false", "false"], "{v}");
    let (_, v) = get_json(&c, &format!("{base}/_inspect/events?test=good&valid=false")).await;
    assert_eq!(v.as_array().map(Vec::len), Some(0), "none such: {v}");
    let (_, v) = get_json(&c, &format!("{base}/_inspect/events?code=MISMATCH")).await;
    assert_eq!(ids(&v, "index"), ["0"], "{v}");

    // A mark, then only what came after it.
    let (_, m) = get_json(&c, &format!("{base}/_inspect/mark")).await;
    let mark = m["since"].as_u64().unwrap();
    let (_, v) = get_json(&c, &format!("{base}/_inspect/events?since={mark}")).await;
    assert_eq!(v.as_array().map(Vec::len), Some(0), "{v}");
    assert_eq!(post_events(&base, GOOD_BATCH, &[]).await, 200);
    let (_, v) = get_json(&c, &format!("{base}/_inspect/events?since={mark}")).await;
    assert_eq!(
        ids(&v, "event"),
        ["\"view_recs_list\"", "\"select_recs_list\""]
    );

    // Bad filters: one sentence naming the parameter.
    let (st, v) = get_json(&c, &format!("{base}/_inspect/events?since=999999")).await;
    assert_eq!(st, 400);
    assert!(
        v["message"].as_str().unwrap().contains("since=999999"),
        "{v}"
    );
    let (st, v) = get_json(&c, &format!("{base}/_inspect/requests?colour=red")).await;
    assert_eq!(st, 400);
    assert!(v["message"].as_str().unwrap().contains("colour"), "{v}");

    let (code, out) = d.stop();
    assert_eq!(code, Some(1), "strict and something failed: {out}");
    assert!(
        out.contains("1 accepted, 1 rejected (SIGNATURE_MISMATCH 1)"),
        "{out}"
    );
    assert!(
        out.contains("3 requests, 4 events valid, 2 invalid"),
        "{out}"
    );
    assert!(out.contains("what went wrong:"), "{out}");
    assert!(out.contains("PUT /v2/batch: SIGNATURE_MISMATCH: "), "{out}");
    assert!(out.contains("MISMATCH at [0].items[0].item_id"), "{out}");

    // The log: one line per request answered (inspection requests are not recorded), each
    // JSON, and no key anywhere.
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines.iter().all(|l| l["type"] == "request"), "{text}");
    assert!(!text.contains(DEMO_REST_KEY));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quiet_server_stops_by_itself_and_a_clean_strict_run_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let d = Double::start(dir.path(), &["--strict", "--exit-after-idle", "2"]);
    let body = r#"[{"id":"1","type":"KLEVU_CMS"}]"#;
    let h = signed_put(body, DEMO_REST_KEY, None);
    let (st, _) = send(&client(), &d.url, "PUT", "/v2/batch", &h, body.into()).await;
    assert_eq!(st, 200);
    // No signal: the server stops once nothing has come for 2 s.
    let (code, out) = tokio::task::spawn_blocking(move || d.exit()).await.unwrap();
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("1 accepted, 0 rejected"), "{out}");
    assert!(!out.contains("what went wrong"), "{out}");
}

/// `url` with `params` URL-encoded, as a CI script's `curl --data-urlencode` sends them.
fn with_params(url: &str, params: &[(&str, &str)]) -> String {
    reqwest::Url::parse_with_params(url, params)
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partial_matches_find_events_and_summaries_keep_to_a_test_or_a_mark() {
    let dir = tempfile::tempdir().unwrap();
    let d = Double::start(dir.path(), &[]);
    let (c, base) = (client(), d.url.clone());
    let body = r#"[{"id":"1","type":"KLEVU_CMS"}]"#;
    let h = signed_put(body, DEMO_REST_KEY, Some("t1"));
    assert_eq!(
        send(&c, &base, "PUT", "/v2/batch", &h, body.into()).await.0,
        200
    );
    let h = signed_put(body, "not-the-key", Some("t2"));
    assert_eq!(
        send(&c, &base, "PUT", "/v2/batch", &h, body.into()).await.0,
        401
    );
    let t1 = [("X-Signscope-Test", "t1")];
    assert_eq!(post_events(&base, GOOD_BATCH, &t1).await, 200);
    let bad = server_common::bad_batch();
    let t2 = [("X-Signscope-Test", "t2")];
    assert_eq!(post_events(&base, &bad, &t2).await, 400);

    let events = format!("{base}/_inspect/events");
    let found = |v: &serde_json::Value| -> Vec<(String, bool)> {
        v.as_array()
            .unwrap_or_else(|| panic!("{v}"))
            .iter()
            .map(|e| (e["event"].as_str().unwrap().to_string(), e["valid"] == true))
            .collect()
    };
    // A member given must be equal; the others are not looked at, nested objects included.
    let q = with_params(&events, &[("match", r#"{"event":"select_recs_list"}"#)]);
    let (st, v) = get_json(&c, &q).await;
    assert_eq!(st, 200);
    let select = |valid| ("select_recs_list".to_string(), valid);
    assert_eq!(found(&v), [select(true), select(false)], "{v}");
    let nested =
        r#"{"user_profile":{"ip_address":"203.0.113.7"},"event_list_id":"home-trending-1"}"#;
    let q = with_params(&events, &[("match", nested), ("test", "t2")]);
    let (_, v) = get_json(&c, &q).await;
    assert_eq!(found(&v), [("view_recs_list".to_string(), false)], "{v}");
    // An item's wrong id is not the one sent by the good batch: arrays must be equal whole.
    let item = r#"{"items":[{"item_id":"10023_BLK-42"}]}"#;
    let (_, v) = get_json(&c, &with_params(&events, &[("match", item)])).await;
    assert_eq!(v, serde_json::json!([]), "arrays are compared whole");
    // None such: an empty list, whatever was counted before.
    let q = with_params(&events, &[("match", r#"{"event":"purchase"}"#)]);
    let (st, v) = get_json(&c, &q).await;
    assert_eq!((st, v), (200, serde_json::json!([])));
    // A match that is not a JSON object: one sentence naming the parameter.
    for bad in ["{event:view}", "[1]"] {
        let (st, v) = get_json(&c, &with_params(&events, &[("match", bad)])).await;
        assert_eq!(st, 400, "{bad}: {v}");
        let msg = v["message"].as_str().unwrap();
        assert!(msg.starts_with(&format!("match={bad} is not")), "{msg}");
        assert_eq!(msg.matches(". ").count(), 0, "one sentence: {msg}");
    }

    // Summaries of one test's traffic, then of what came after a mark.
    let summary = format!("{base}/_inspect/summary");
    let counts = |v: &serde_json::Value| -> [u64; 6] {
        [
            "requests",
            "accepted",
            "rejected",
            "batches",
            "events_good",
            "events_bad",
        ]
        .map(|k| v[k].as_u64().unwrap_or_else(|| panic!("{k}: {v}")))
    };
    let (_, v) = get_json(&c, &with_params(&summary, &[("test", "t1")])).await;
    assert_eq!(counts(&v), [1, 1, 0, 1, 2, 0], "{v}");
    let (_, v) = get_json(&c, &with_params(&summary, &[("test", "t2")])).await;
    assert_eq!(counts(&v), [1, 0, 1, 1, 0, 2], "{v}");
    assert_eq!(v["batches_bad"], 1, "{v}");
    let (_, v) = get_json(&c, &summary).await;
    assert_eq!(counts(&v), [2, 1, 1, 2, 2, 2], "the run's: {v}");
    let (_, m) = get_json(&c, &format!("{base}/_inspect/mark")).await;
    let mark = m["since"].to_string();
    let (_, v) = get_json(&c, &with_params(&summary, &[("since", &mark)])).await;
    assert_eq!(counts(&v), [0; 6], "nothing after the mark yet: {v}");
    assert_eq!(post_events(&base, GOOD_BATCH, &t1).await, 200);
    let q = with_params(&summary, &[("since", &mark), ("test", "t1")]);
    let (_, v) = get_json(&c, &q).await;
    assert_eq!(counts(&v), [0, 0, 0, 1, 2, 0], "{v}");
    // Bad scopes: one sentence naming the parameter.
    let (st, v) = get_json(&c, &with_params(&summary, &[("since", "999999")])).await;
    assert_eq!(st, 400);
    assert!(
        v["message"].as_str().unwrap().contains("since=999999"),
        "{v}"
    );
    let (st, v) = get_json(&c, &with_params(&summary, &[("colour", "red")])).await;
    assert_eq!(st, 400);
    assert!(v["message"].as_str().unwrap().contains("colour"), "{v}");
    let (code, _) = d.stop();
    assert_eq!(code, Some(0), "not strict");
}

/// A test that panics while its double runs leaves no `serve` process behind: the fixture kills
/// and reaps it as the panic unwinds.
#[cfg(target_os = "linux")]
#[test]
fn a_test_that_panics_leaves_no_server_running() {
    let dir = tempfile::tempdir().unwrap();
    let pid = std::sync::Mutex::new(None);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let double = Double::start(dir.path(), &[]);
        *pid.lock().unwrap() = Some(double.child.id());
        panic!("a failing assertion with the double running");
    }));
    assert!(caught.is_err());
    let pid = pid.lock().unwrap().expect("the double started");
    // Reaped, not a zombie: the process is gone from /proc.
    assert!(
        !Path::new(&format!("/proc/{pid}")).exists(),
        "signscope serve (pid {pid}) outlived the test"
    );
}
