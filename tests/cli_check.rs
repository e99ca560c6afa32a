//! `signscope check`: real captures (tests/data/har/, written by headless Chromium running the
//! vendor's JavaScript SDK and by mitmproxy in front of signed indexing requests; see
//! scripts/har-fixtures.sh) judged as the local server judges them, at the capture's own time;
//! hostile HAR input; request files of raw HTTP and curl blocks.

// Test code: an unwrap that fails is a failed test, with its message.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use signscope::core::Secret;
use signscope::engine::capture::{
    judge_file, judge_file_in_windows, CaptureOptions, Item, JudgeKeys, Totals,
};

#[path = "../benches/common/sdk_har.rs"]
mod sdk_har;

const KEY1: &str = "FixtureRestKey0123456789";
const KEY2: &str = "SecondFixtureKey98765";

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/har")
        .join(name)
}

fn check(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("signscope")
        .unwrap()
        .arg("check")
        .args(args)
        .env("K1", KEY1)
        .env("K2", KEY2)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn records(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn of_type<'a>(recs: &'a [Value], t: &str) -> Vec<&'a Value> {
    recs.iter().filter(|r| r["type"] == t).collect()
}

#[test]
fn chromium_capture_of_the_vendor_sdk_is_judged_as_the_collector_judges_it() {
    let har = data("chromium-klevu-core.har");
    let (code, out, err) = check(&[har.to_str().unwrap(), "--output", "json"]);
    let recs = records(&out);
    let judged = of_type(&recs, "request");
    // The view, the click and the purchase beacon reach the collector; the page, its image, the
    // SDK's modules and the SDK's visitor-service call do not.
    assert_eq!(judged.len(), 3, "{out}\n{err}");
    assert!(judged
        .iter()
        .all(|r| r["route"] == "collect" && r["path"] == "/analytics/collect"));
    let statuses: Vec<u64> = judged
        .iter()
        .map(|r| r["status"].as_u64().unwrap())
        .collect();
    // The JSON view and click are valid; the purchase is the SDK's multipart beacon whose
    // event part is "[object Object]": an error.
    assert_eq!(statuses, [200, 200, 400], "{out}");
    assert_eq!(judged[0]["batch"]["events"], 1);
    assert_eq!(judged[2]["code"], "VALIDATION_ERROR");
    // Beside each local verdict, what the (recorded) service answered.
    for r in &judged {
        assert!(r["captured"]["status"].as_u64().is_some(), "{r}");
    }
    // Judged at the capture's own time, not now.
    let started = judged[0]["time"].as_str().unwrap();
    assert!(started.starts_with("2026-11-25T21:47:"), "{started}");
    let skipped = of_type(&recs, "skipped");
    assert!(skipped
        .iter()
        .any(|s| s["url"] == "http://shop.example/" && s["why"] == "other_host"));
    assert!(skipped.iter().any(|s| s["url"]
        .as_str()
        .unwrap()
        .starts_with("https://visitor.service.ksearchnet.com/")
        && s["why"] == "other_path"));
    let summary = recs.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["judged"], 3);
    assert_eq!(summary["rejected"], 1);
    assert_eq!(
        summary["requests"].as_u64().unwrap() as usize,
        recs.len() - 1
    );
    assert_eq!(code, 1, "one request rejected: exit 1");

    // The text report: one line per judged request as `watch` prints it, the captured answer
    // beside it, then the problems with their paths, then the counts.
    let (code, text, _) = check(&[har.to_str().unwrap()]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].contains("POST /analytics/collect 200 OK (1 event, 0 invalid"),
        "{text}"
    );
    assert!(lines[0].ends_with("[captured: 200]"), "{text}");
    assert!(lines[2].contains(" 400 VALIDATION_ERROR"), "{text}");
    assert!(lines.contains(&"problems:"), "{text}");
    assert!(
        text.contains("error JSON_SYNTAX at $") || text.contains("error MULTIPART"),
        "{text}"
    );
    assert!(
        lines
            .last()
            .unwrap()
            .contains("3 judged (2 accepted, 1 rejected)")
            && lines.last().unwrap().contains("to other hosts skipped"),
        "{text}"
    );
}

#[test]
fn mitmproxy_capture_of_signed_requests_is_verified_and_diagnosed_per_account() {
    let har = data("mitmproxy-indexing.har");
    let h = har.to_str().unwrap();
    let keys = [
        "--key",
        "klevu-1234567890=K1",
        "--key",
        "klevu-2222222222=K2",
    ];
    let mut args = vec![h, "--output", "json"];
    args.extend(keys);
    let (code, out, err) = check(&args);
    let recs = records(&out);
    let judged = of_type(&recs, "request");
    let statuses: Vec<u64> = judged
        .iter()
        .map(|r| r["status"].as_u64().unwrap())
        .collect();
    assert_eq!(statuses, [200, 200, 200, 401, 401, 401], "{out}\n{err}");
    assert_eq!(
        judged[3]["mistakes"],
        serde_json::json!(["QUESTION_MARK_BEFORE_QUERY"])
    );
    assert_eq!(
        judged[4]["mistakes"],
        serde_json::json!(["TRAILING_SLASH_TRIMMED"])
    );
    // The tampered body: a mismatch that no known client mistake explains.
    assert_eq!(judged[5]["code"], "SIGNATURE_MISMATCH");
    assert_eq!(judged[5]["mistakes"], serde_json::json!([]));
    // Local verdicts agree with what the recorded server answered.
    for r in &judged {
        assert_eq!(r["captured"]["status"], r["status"], "{r}");
    }
    assert_eq!(code, 1);

    // The PHP SDK's form accepted on request, as `serve --accept-form php-sdk` does.
    let mut args = vec![h, "--output", "json", "--accept-form", "php-sdk"];
    args.extend(keys);
    let (_, out, _) = check(&args);
    let statuses: Vec<u64> = of_type(&records(&out), "request")
        .iter()
        .map(|r| r["status"].as_u64().unwrap())
        .collect();
    assert_eq!(statuses, [200, 200, 200, 200, 200, 401]);

    // One key for every account: the second account's request does not verify with it.
    let (_, out, _) = check(&[h, "--output", "json", "--rest-key-env", "K1"]);
    let recs = records(&out);
    let judged = of_type(&recs, "request");
    assert_eq!(judged[2]["code"], "SIGNATURE_MISMATCH", "{out}");
    assert_eq!(judged[0]["status"], 200);

    // No key at all: nothing can be verified; the report names the flags, and exit 2.
    let (code, text, _) = check(&[h]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("give it with --rest-key REF, or --key API_KEY=REF"),
        "{text}"
    );
}

#[test]
fn a_capture_is_judged_at_its_own_time() {
    // The same capture an hour later: every signed request is now outside the window, which
    // is what the server would have said had they arrived then.
    let text = std::fs::read_to_string(data("mitmproxy-indexing.har")).unwrap();
    let mut har: Value = serde_json::from_str(&text).unwrap();
    for e in har["log"]["entries"].as_array_mut().unwrap() {
        let t = e["startedDateTime"]
            .as_str()
            .unwrap()
            .replace("T21:47:", "T22:47:");
        e["startedDateTime"] = Value::String(t);
    }
    let shifted = har.to_string();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("later.har");
    std::fs::write(&path, shifted).unwrap();
    let (code, out, _) = check(&[
        path.to_str().unwrap(),
        "--output",
        "json",
        "--rest-key-env",
        "K1",
    ]);
    let recs = records(&out);
    let first = of_type(&recs, "request")[0];
    assert_eq!(first["status"], 401, "{first}");
    assert!(
        first["code"].as_str().unwrap().contains("TIMESTAMP"),
        "{first}"
    );
    assert_eq!(code, 1);
}

fn entry(url: &str, post: Value) -> Value {
    serde_json::json!({
        "startedDateTime": "2026-11-25T21:47:26.000Z", "time": 3.5,
        "request": {"method": "POST", "url": url, "httpVersion": "HTTP/1.1",
                    "headers": [{"name": "Content-Type", "value": "application/json"}],
                    "postData": post, "bodySize": -1},
        "response": {"status": 200, "statusText": "OK", "headers": [], "content": {"size": 0, "mimeType": ""}},
    })
}

const VIEW: &str = r#"[{"event":"view_recs_list","event_apikey":"klevu-1","event_version":"1.0.0","user_profile":{},"event_data":{"list_id":"k-1","list_name":"Trending","list_logic":"TRENDING","items":[{"item_id":"31337","item_group_id":"31337","item_variant_id":"31337","item_name":"Bottle","price":"12.00","currency":"EUR","index":1}]}}]"#;

#[test]
fn hostile_har_input_is_reported_by_entry_and_never_stops_the_rest() {
    use base64::Engine;
    let collect = "https://stats.ksearchnet.com/analytics/collect";
    let b64 = base64::engine::general_purpose::STANDARD.encode(VIEW);
    let entries = serde_json::json!([
        entry(collect, serde_json::json!({"mimeType": "application/json", "text": VIEW})),
        {"startedDateTime": "2026-11-25T21:47:26Z"},
        entry("not a url", serde_json::json!({"text": VIEW})),
        entry(collect, serde_json::json!({"text": "%%%", "encoding": "base64"})),
        entry(collect, serde_json::json!({"mimeType": "application/json", "text": b64, "encoding": "base64"})),
        42,
        entry(collect, serde_json::json!({"text": 17})),
    ]);
    let har = serde_json::json!({"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": entries}});
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.har");
    std::fs::write(&path, har.to_string()).unwrap();
    let (code, out, err) = check(&[path.to_str().unwrap(), "--output", "json"]);
    let recs = records(&out);
    let judged = of_type(&recs, "request");
    // The text body and the same body in base64 are judged alike.
    assert_eq!(judged.len(), 2, "{out}\n{err}");
    assert_eq!(judged[0]["entry"], 0);
    assert_eq!(judged[1]["entry"], 4);
    assert_eq!(judged[0]["status"], 200);
    assert_eq!(judged[1]["status"], 200);
    assert_eq!(judged[0]["body"], judged[1]["body"]);
    let bad: Vec<u64> = of_type(&recs, "unreadable")
        .iter()
        .map(|r| r["entry"].as_u64().unwrap())
        .collect();
    assert_eq!(bad, [1, 2, 3, 5, 6], "{out}");
    let why = |i: u64| -> String {
        of_type(&recs, "unreadable")
            .iter()
            .find(|r| r["entry"] == i)
            .unwrap()["why"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(why(1).contains("missing field `request`"), "{}", why(1));
    assert!(why(2).contains("not an absolute URL"), "{}", why(2));
    assert!(why(3).contains("base64"), "{}", why(3));
    // Nothing rejected, but entries could not be read: not "all good".
    assert_eq!(code, 2);

    // Cut short (a download that broke off): the entries before the break are judged, and
    // the report says where it broke.
    let text = har.to_string();
    let cut = &text[..text
        .find(r#"{"startedDateTime":"2026-11-25T21:47:26Z"}"#)
        .unwrap()
        + 20];
    std::fs::write(&path, cut).unwrap();
    let (code, out, _) = check(&[path.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("POST /analytics/collect 200 OK"), "{out}");
    assert!(
        out.contains("the HAR is not valid JSON at line 1, column"),
        "{out}"
    );
    assert!(out.contains("1 entries before it were read"), "{out}");

    // Not a HAR at all.
    for (body, says) in [
        ("[1, 2]", "not a HAR"),
        ("{\"log\": {\"entries\": {}}}", "not a HAR"),
        ("{\"something\": 1}", "no log.entries"),
    ] {
        std::fs::write(&path, body).unwrap();
        let (code, out, _) = check(&[path.to_str().unwrap()]);
        assert_eq!(code, 2, "{body}: {out}");
        assert!(out.contains(says), "{body}: {out}");
    }
    // A file that is not there: one sentence on stderr.
    let (code, _, err) = check(&[dir.path().join("missing.har").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("signscope: cannot read the capture"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn request_files_of_raw_http_and_curl_blocks_are_judged_like_a_har() {
    let php = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vendor/php-sdk");
    let mut file = Vec::new();
    for name in ["01-batch-put.http", "07-batch-put-slash.http"] {
        file.extend(std::fs::read(php.join(name)).unwrap());
        file.extend(b"\n### next request\n");
    }
    // A curl command, and a collector request with no Host (judged: nothing to skip it by).
    file.extend(
        br#"curl -X POST 'http://127.0.0.1:9/analytics/collect' -H 'Content-Type: application/json' --data-binary '[{}]'"#,
    );
    file.extend(b"\n###\ncurl 'https://www.example.com/' \n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("requests.http");
    std::fs::write(&path, &file).unwrap();
    // Raw requests carry no capture time: judged at --now, here the time the SDK signed them.
    let text = String::from_utf8_lossy(&file).into_owned();
    let signed_at = text
        .lines()
        .find_map(|l| l.strip_prefix("X-KLEVU-TIMESTAMP: "))
        .unwrap()
        .trim()
        .to_string();
    let (code, out, err) = check(&[
        path.to_str().unwrap(),
        "--output",
        "json",
        "--rest-key-env",
        "K1",
        "--now",
        &signed_at,
    ]);
    let recs = records(&out);
    let judged = of_type(&recs, "request");
    let statuses: Vec<u64> = judged
        .iter()
        .map(|r| r["status"].as_u64().unwrap())
        .collect();
    assert_eq!(statuses, [200, 401, 400], "{out}\n{err}");
    assert_eq!(
        judged[1]["mistakes"],
        serde_json::json!(["TRAILING_SLASH_TRIMMED"])
    );
    assert_eq!(of_type(&recs, "skipped").len(), 1);
    assert_eq!(recs.last().unwrap()["format"], "requests");
    assert_eq!(code, 1);
}

/// A request to an analytics path the collector does not serve is rejected with the server's
/// own code and sentence (`NOT_FOUND`, "There is no operation ..."), in the text's problem line
/// and in the JSON record; it used to print "rejected: " and nothing after it.
#[test]
fn an_unknown_analytics_path_is_rejected_with_its_sentence() {
    let har = serde_json::json!({"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": [
        entry("https://stats.ksearchnet.com/analytics/nothing", serde_json::json!({"mimeType": "application/json", "text": "[]"})),
    ]}});
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("unknown.har");
    std::fs::write(&path, har.to_string()).unwrap();
    let sentence = "There is no operation POST /analytics/nothing on this server.";
    let (code, out, err) = check(&[path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        out.contains(&format!(
            "#0 POST /analytics/nothing: NOT_FOUND: {sentence}"
        )),
        "{out}"
    );
    let (_, out, _) = check(&[path.to_str().unwrap(), "--output", "json"]);
    let recs = records(&out);
    let judged = of_type(&recs, "request");
    assert_eq!(judged[0]["status"], 404, "{out}");
    assert_eq!(judged[0]["code"], "NOT_FOUND", "{out}");
    assert_eq!(judged[0]["message"], sentence, "{out}");
}

/// docs/har.md H3 named `/v2/...` and `/analytics/collect` only, though `check` judges the
/// older analytics endpoints, any other analytics path and the preflights too. Now H3 names
/// every path `check` judges, and each one it names is judged (the rest are skipped).
#[test]
fn har_h3_names_every_path_check_judges() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/har.md")).unwrap();
    let h3 = &docs[docs.find("- **H3.").unwrap()..docs.find("- **H4.").unwrap()];
    // (request line, extra head lines, what H3 says of it)
    let judged: Vec<(String, &str, String)> = [
        ("PUT /v2/batch", "", "`/v2/`"),
        ("GET /v2", "", "`/v2`"),
        ("POST /_bench/unverified", "", "`/_bench/unverified`"),
        ("POST /analytics/collect", "", "`/analytics/collect`"),
        (
            "GET /analytics/somethingNew",
            "",
            "any other path under `/analytics/`",
        ),
        (
            "OPTIONS /analytics/productTracking",
            "Origin: http://shop.example\r\nAccess-Control-Request-Method: POST\r\n",
            "`OPTIONS`",
        ),
    ]
    .into_iter()
    .map(|(l, h, d)| (l.to_string(), h, d.to_string()))
    .chain(signscope::core::collect::OLDER_ENDPOINTS.iter().map(|e| {
        (
            format!("GET /analytics/{e}?klevu_apiKey=k"),
            "",
            format!("`/analytics/{e}`"),
        )
    }))
    .collect();
    let mut file = String::new();
    for (line, head, _) in &judged {
        file.push_str(&format!(
            "{line} HTTP/1.1\r\nHost: 127.0.0.1:9\r\n{head}\r\n\n###\n"
        ));
    }
    file.push_str("GET /visitor/session HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("paths.http");
    std::fs::write(&path, &file).unwrap();
    let (_, out, err) = check(&[path.to_str().unwrap(), "--output", "json"]);
    let recs = records(&out);
    let got: Vec<String> = of_type(&recs, "request")
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r["method"].as_str().unwrap(),
                r["path"].as_str().unwrap()
            )
        })
        .collect();
    let want: Vec<String> = judged
        .iter()
        .map(|(l, _, _)| l.split('?').next().unwrap().to_string())
        .collect();
    assert_eq!(got, want, "{out}\n{err}");
    assert_eq!(of_type(&recs, "skipped").len(), 1, "{out}");
    for (line, _, named) in &judged {
        assert!(
            h3.contains(named.as_str()),
            "H3 does not name {named} ({line}): {h3}"
        );
    }
    assert!(h3.contains("other paths"), "{h3}");
}

/// What is handed on for one item, without what differs between two judgements of the same
/// request (the job id the server draws, how long it took).
fn shown(item: &Item) -> String {
    match item {
        Item::Judged {
            entry,
            seen,
            captured,
            notes,
            ..
        } => {
            let mut v = serde_json::to_value(seen).unwrap();
            v["job_id"] = Value::Null;
            v["duration_ms"] = Value::Null;
            format!("#{entry} {v} {captured:?} {notes:?}")
        }
        Item::Skipped { entry, why, .. } => format!("#{entry} skipped {why:?}"),
        Item::Bad { entry, why } => format!("#{entry} bad {why}"),
        Item::NotJudged { entry, why, .. } => format!("#{entry} not judged {why:?}"),
    }
}

/// `judge_file` (or, with a window, `judge_file_in_windows`) of `path` with `keys` at a fixed
/// time: the totals and each item as [`shown`].
fn judged_in(path: &Path, keys: JudgeKeys, window: Option<usize>) -> (Totals, Vec<String>) {
    let opts = CaptureOptions {
        keys,
        hosts: vec![],
        accept_forms: vec![],
        now: chrono::DateTime::parse_from_rfc3339("2026-11-25T22:00:00Z")
            .unwrap()
            .into(),
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut items = Vec::new();
    let mut each = |item: Item| {
        items.push(shown(&item));
        Ok(())
    };
    let outcome = match window {
        Some(w) => judge_file_in_windows(path, &opts, rt.handle(), w, &mut each),
        None => judge_file(path, &opts, rt.handle(), &mut each),
    }
    .unwrap();
    (outcome.totals, items)
}

/// `check` judges on every core (`docs/har.md` H7); what it hands on is what one judge, one
/// request after the other, hands on: every item in the capture's order with the same verdict,
/// the account's attributes listed after one was put or deleted included (those definitions
/// change what later requests are answered, so they are judged between the others).
#[test]
fn judging_on_every_core_hands_on_what_one_judge_in_order_would() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.har");
    sdk_har::write_sdk_har(&path, 300, 40, sdk_har::Mix::Everything);
    let keys = JudgeKeys {
        default: Some(Secret::new(sdk_har::SDK_REST)),
        ..JudgeKeys::default()
    };
    let run = |window: Option<usize>| judged_in(&path, keys.clone(), window);
    let (one_totals, one) = run(Some(1));
    assert_eq!(one.len(), 300);
    // The capture is what the test says it is: mismatches, and lists of the account's
    // attributes whose answer depends on the definitions judged before them.
    assert!(one_totals.rejected > 80, "{one_totals:?}");
    let listed: std::collections::BTreeSet<String> = one
        .iter()
        .filter(|l| l.contains(r#""method":"GET","path":"/v2/attributes""#))
        .map(|l| l.split(r#""response_bytes":"#).nth(1).unwrap()[..4].to_string())
        .collect();
    assert!(listed.len() > 1, "{listed:?}");
    for (what, window) in [("the default window", None), ("windows of 7", Some(7))] {
        let (totals, items) = run(window);
        assert_eq!(totals, one_totals, "{what}");
        for (i, (a, b)) in one.iter().zip(&items).enumerate() {
            assert_eq!(a, b, "{what}: item {i} differs");
        }
    }
}

/// A raw HTTP `PUT /v2/batch` signed with [`KEY1`] at `ts`.
fn signed_batch(ts: &str, body: &str) -> String {
    let req =
        signscope::core::SignableRequest::new("PUT", "/v2/batch", "", ts, "shop", body.as_bytes());
    let signed = signscope::core::sign(&req, &Secret::new(KEY1)).unwrap();
    let mut text = String::from("PUT /v2/batch HTTP/1.1\nHost: 127.0.0.1\n");
    for (n, v) in signed.headers.iter() {
        text.push_str(&format!("{n}: {v}\n"));
    }
    text.push('\n');
    text.push_str(body);
    text
}

/// An indexing body is judged as the server judges it (`docs/indexing-bodies.md`), in
/// `check` (each request's problems and the summary) and in `verify`.
#[test]
fn check_and_verify_name_what_is_wrong_with_an_indexing_body() {
    let ts = "2026-11-22T10:00:00.000Z";
    let refused = signed_batch(ts, r#"[{"id":42,"type":"KLEVU_CMS"}]"#);
    let warned = signed_batch(
        ts,
        r#"[{"id":"a","type":"KLEVU_CMS"},{"id":"a","type":"KLEVU_CMS"}]"#,
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bodies.http");
    std::fs::write(&path, format!("{refused}\n###\n{warned}")).unwrap();
    let p = path.to_str().unwrap();
    let args = |extra: &[&'static str]| {
        let mut a = vec![p, "--rest-key-env", "K1", "--now", ts];
        a.extend_from_slice(extra);
        a
    };
    let (code, out, err) = check(&args(&["--output", "json"]));
    let recs = records(&out);
    let judged = of_type(&recs, "request");
    assert_eq!(judged.len(), 2, "{out}\n{err}");
    assert_eq!(judged[0]["status"], 400, "{out}");
    let b = &judged[0]["body_problems"];
    assert_eq!(
        (b["errors"].as_u64(), b["warnings"].as_u64()),
        (Some(1), Some(0)),
        "{b}"
    );
    assert_eq!(b["problems"][0]["code"], "ID_NOT_STRING", "{b}");
    assert_eq!(b["problems"][0]["fieldPath"], "/0/id", "{b}");
    assert_eq!(judged[1]["status"], 200, "{out}");
    assert_eq!(
        judged[1]["body_problems"]["problems"][0]["code"],
        "DUPLICATE_ID"
    );
    // The body's warnings are in its problems, not again among the verifier's warnings.
    assert_eq!(judged[1]["warnings"], serde_json::json!([]), "{out}");
    let summary = recs.last().unwrap();
    assert_eq!(
        (
            summary["bodies_refused"].as_u64(),
            summary["bodies_with_warnings"].as_u64()
        ),
        (Some(1), Some(1)),
        "{summary}"
    );
    assert_eq!(code, 1);

    let (code, text, _) = check(&args(&[]));
    assert!(
        text.contains("#0 PUT /v2/batch: body: error ID_NOT_STRING at /0/id: "),
        "{text}"
    );
    assert!(
        text.contains("#1 PUT /v2/batch: body: warning DUPLICATE_ID at /1/id: "),
        "{text}"
    );
    assert!(
        text.contains("(body: 1 error, 0 warnings: ID_NOT_STRING at /0/id)"),
        "{text}"
    );
    assert!(
        text.contains("; indexing bodies: 1 the vendor's SDK would refuse, 1 with warnings"),
        "{text}"
    );
    assert_eq!(code, 1);

    // verify: the signature is accepted, the body is not.
    let one = dir.path().join("one.http");
    std::fs::write(&one, &refused).unwrap();
    let verify = |extra: &[&str]| {
        let out = Command::cargo_bin("signscope")
            .unwrap()
            .args([
                "verify",
                "--request-file",
                one.to_str().unwrap(),
                "--rest-key-env",
                "K1",
                "--now",
                ts,
            ])
            .args(extra)
            .env("K1", KEY1)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, text) = verify(&[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("body: refused (400 VALIDATION_ERROR)"),
        "{text}"
    );
    assert!(text.contains("  error ID_NOT_STRING at /0/id: "), "{text}");
    let (code, text) = verify(&["--output", "json"]);
    assert_eq!(code, Some(1), "{text}");
    let v: Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(
        (v["accepted"].as_bool(), v["status"].as_u64()),
        (Some(true), Some(400)),
        "{v}"
    );
    assert_eq!(v["code"], "VALIDATION_ERROR");
    assert_eq!(v["body"]["problems"][0]["code"], "ID_NOT_STRING", "{v}");
}

/// `check` judges a click against the views before it in the capture (`docs/events.md` rule
/// E25), whatever the threads: the collector requests with recommendation events are judged
/// one at a time in the capture's order, so every run, in any window, gives the same verdicts;
/// and the 2022 release's swapped names are named (rule E26).
#[test]
fn a_captures_clicks_are_judged_against_its_earlier_views_the_same_every_run() {
    let vendor = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vendor");
    let read = |p: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(vendor.join(p)).unwrap()).unwrap()
    };
    let (view, click) = (
        read("klevu-core-2.0.10/view.json"),
        read("klevu-core-2.0.10/click.json"),
    );
    let of_list = |batch: &Value, list: usize| {
        let mut b = batch.clone();
        b[0]["event_list_id"] = Value::from(format!("list-{list}"));
        b.to_string()
    };
    let url = "https://stats.ksearchnet.com/analytics/collect";
    let post = |text: String| serde_json::json!({"mimeType": "application/json", "text": text});
    let mut entries = Vec::new();
    // The click of list 0 comes before any view of it: no impression.
    entries.push(entry(url, post(of_list(&click, 0))));
    for list in 0..40 {
        entries.push(entry(url, post(of_list(&view, list))));
        if list > 0 {
            entries.push(entry(url, post(of_list(&click, list - 1))));
        }
    }
    entries.push(entry(
        url,
        post(read("swapped-names-2022/render.json").to_string()),
    ));
    entries.push(entry(
        url,
        post(read("swapped-names-2022/click.json").to_string()),
    ));
    let har = serde_json::json!({"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": entries}});
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clicks.har");
    std::fs::write(&path, har.to_string()).unwrap();
    let run = |window: Option<usize>| judged_in(&path, JudgeKeys::default(), window).1;
    let one = run(Some(1));
    assert_eq!(one.len(), entries.len());
    let not_viewed: Vec<usize> = one
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains("LIST_NOT_VIEWED"))
        .map(|(i, _)| i)
        .collect();
    // Only the click sent before its list's view, and the swapped release's "select" of the
    // whole list (no view before it either), have no impression.
    assert_eq!(not_viewed, [0, entries.len() - 2], "{one:#?}");
    assert!(
        one[entries.len() - 1].contains("EVENT_NAMES_SWAPPED"),
        "{}",
        one[entries.len() - 1]
    );
    for run_no in 0..3 {
        for window in [None, Some(7), Some(2)] {
            let items = run(window);
            for (i, (a, b)) in one.iter().zip(&items).enumerate() {
                assert_eq!(a, b, "run {run_no}, window {window:?}: item {i} differs");
            }
        }
    }
}
