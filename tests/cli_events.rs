//! `signscope events new` and `signscope events validate`, run as the real binary.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn signscope() -> Command {
    Command::cargo_bin("signscope").unwrap()
}

fn asset(name: &str) -> String {
    format!("{}/assets/events/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn new_prints_a_batch_that_validates_clean() {
    let out = signscope()
        .args([
            "events",
            "new",
            "--items",
            "4",
            "--clicked",
            "2,4",
            "--api-key",
            "pk-1",
            "--list-id",
            "L9",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let batch: Value = serde_json::from_slice(&out.stdout).unwrap();
    let events = batch.as_array().unwrap();
    assert_eq!(events.len(), 3);
    assert_eq!(events[0]["event"], "view_recs_list");
    assert_eq!(events[0]["items"].as_array().unwrap().len(), 4);
    assert_eq!(events[1]["event"], "select_recs_list");
    assert_eq!(events[1]["items"][0]["index"], 2);
    assert_eq!(events[2]["items"][0]["index"], 4);
    for e in events {
        assert_eq!(e["event_apikey"], "pk-1");
        assert_eq!(e["event_list_id"], "L9");
    }

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("batch.json");
    std::fs::write(&file, &out.stdout).unwrap();
    signscope()
        .args(["events", "validate"])
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("batch.json: ok, 3 events"));
}

#[test]
fn new_kind_order_purchase_prints_an_order_that_validates_clean() {
    let out = signscope()
        .args([
            "events",
            "new",
            "--kind",
            "order_purchase",
            "--items",
            "3",
            "--api-key",
            "pk-1",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let batch: Value = serde_json::from_slice(&out.stdout).unwrap();
    let events = batch.as_array().unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["event"], "order_purchase");
    assert_eq!(events[0]["event_version"], "1.0.0");
    assert_eq!(events[0]["event_apikey"], "pk-1");
    let lines = events[0]["event_data"]["items"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["order_line_id"], (i + 1).to_string());
        let id = format!(
            "{}-{}",
            l["item_group_id"].as_str().unwrap(),
            l["item_variant_id"].as_str().unwrap()
        );
        assert_eq!(l["item_id"], id.as_str());
        assert!(l.get("index").is_none() && l.get("price").is_none(), "{l}");
        assert!(l["unit_price"].is_string() && l["units"] == 1, "{l}");
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("order.json");
    std::fs::write(&file, &out.stdout).unwrap();
    signscope()
        .args(["events", "validate"])
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("order.json: ok, 1 event"));
    // An unknown kind names the two.
    signscope()
        .args(["events", "new", "--kind", "order"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("order_purchase"));
}

#[test]
fn new_rejects_a_click_outside_the_list() {
    signscope()
        .args(["events", "new", "--items", "2", "--clicked", "3"])
        .assert()
        .code(2)
        .stdout("")
        .stderr("signscope: --clicked 3 is outside the list: positions run from 1 to 2\n");
}

/// `--items` has a bound: the batch is built in memory first, and `--items 100000000` was killed
/// by the OOM killer (exit 137) after eating every byte of RAM.
#[test]
fn new_refuses_more_items_than_it_can_sensibly_build() {
    signscope()
        .args(["events", "new", "--items", "100001"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "signscope: --items must be at most 100000 (that is already about 33 MB of JSON, far more than a collector takes in one request); 100001 would be built in memory first\n",
        );
}

#[test]
fn validate_clean_examples_exit_zero() {
    signscope()
        .args([
            "events",
            "validate",
            &asset("spec-batch.json"),
            &asset("multi-item.json"),
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("spec-batch.json: ok, 2 events"))
        .stdout(predicate::str::contains("multi-item.json: ok, 3 events"));
}

#[test]
fn validate_mistakes_text_names_file_path_code_and_value() {
    let out = signscope()
        .args(["events", "validate", &asset("mistakes.json")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("mistakes.json: error FORMAT at [0].items[0].currency: currency must be three upper-case letters: write \"EUR\". (value: \"eur\")"),
        "{text}"
    );
    assert!(
        text.contains("mistakes.json: warning LIST_NOT_VIEWED at [2].event_list_id"),
        "{text}"
    );
    assert!(
        text.contains("mistakes.json: 16 errors, 5 warnings (4 events)"),
        "{text}"
    );
}

#[test]
fn validate_json_output_splits_errors_and_warnings() {
    let out = signscope()
        .args([
            "events",
            "validate",
            "--output",
            "json",
            &asset("mistakes.json"),
            &asset("spec-batch.json"),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = doc["errors"].as_array().unwrap();
    let warnings = doc["warnings"].as_array().unwrap();
    assert_eq!((errors.len(), warnings.len()), (16, 5));
    let price = errors
        .iter()
        .find(|e| e["path"] == "[0].items[0].price")
        .unwrap();
    assert_eq!(price["code"], "TYPE");
    assert_eq!(price["value"], 89.9);
    assert_eq!(price["level"], "error");
    assert!(price["file"].as_str().unwrap().ends_with("mistakes.json"));
    assert!(price["message"].as_str().unwrap().contains("string"));
    assert!(warnings.iter().all(|w| w["level"] == "warning"));
}

#[test]
fn warnings_alone_exit_zero() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("w.json");
    let mut batch: Value =
        serde_json::from_str(&std::fs::read_to_string(asset("spec-batch.json")).unwrap()).unwrap();
    batch[0]["items"][0]["item_category"] = "Shoes;;;Running".into();
    std::fs::write(&file, serde_json::to_vec(&batch).unwrap()).unwrap();
    signscope()
        .args(["events", "validate"])
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "w.json: 0 errors, 1 warning (2 events)",
        ));
}

#[test]
fn malformed_json_is_an_error_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.json");
    std::fs::write(&file, "[\n  {\"event\": \"view_recs_list\",}\n]").unwrap();
    signscope()
        .args(["events", "validate", "--output", "json"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("\"code\": \"JSON_SYNTAX\""))
        .stdout(predicate::str::contains("\"line\": 2"))
        .stdout(predicate::str::contains("\"column\": 30"));
}

#[test]
fn missing_file_exits_two_and_still_checks_the_others() {
    signscope()
        .args([
            "events",
            "validate",
            "/nonexistent/batch.json",
            &asset("spec-batch.json"),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "signscope: cannot read /nonexistent/batch.json: ",
        ))
        .stdout(predicate::str::contains("spec-batch.json: ok, 2 events"));
}

#[test]
fn validate_reads_standard_input() {
    signscope()
        .args(["events", "validate", "-"])
        .write_stdin("{\"event\": \"view_recs_list\"}")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "<stdin>: error TYPE at (body): The body must be a JSON array of events",
        ));
}

#[test]
fn a_huge_bad_batch_lists_the_first_problems_and_counts_every_one() {
    use signscope::core::events::{validate_bytes, MAX_LISTED_PROBLEMS};
    let body = format!("[{}]", vec!["{}"; 5_000].join(","));
    // The expected totals, from the library (the counts are checked against a batch small
    // enough to list whole in its own tests).
    let r = validate_bytes(body.as_bytes());
    let errors = r.errors().count() + r.omitted.errors;
    let out = signscope()
        .args(["events", "validate", "-"])
        .write_stdin(body.clone())
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        MAX_LISTED_PROBLEMS + 2,
        "listed, the rest, the totals"
    );
    assert_eq!(
        lines[MAX_LISTED_PROBLEMS],
        format!(
            "<stdin>: ... and {} more problems not listed (only the first {MAX_LISTED_PROBLEMS} problems are)",
            r.omitted.total()
        )
    );
    assert!(
        lines[MAX_LISTED_PROBLEMS + 1].starts_with(&format!("<stdin>: {errors} errors")),
        "{}",
        lines[MAX_LISTED_PROBLEMS + 1]
    );
    // JSON: the counts per file.
    let out = signscope()
        .args(["events", "validate", "--output", "json", "-"])
        .write_stdin(body)
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["omitted"][0]["file"], "<stdin>");
    assert_eq!(v["omitted"][0]["errors"], r.omitted.errors);
    assert_eq!(v["errors"].as_array().unwrap().len(), r.errors().count());
}

/// Run the binary with its stdout read by nobody (the read end closed at once, as `| head -1`
/// does after one line) and more output than a pipe buffers; return (exit status, stderr).
#[cfg(unix)]
fn run_with_stdout_closed(
    args: &[&str],
    dir: &std::path::Path,
) -> (std::process::ExitStatus, String) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("signscope"))
        .args(args)
        .env("SIGNSCOPE_CONFIG_DIR", dir.join("config"))
        .env("SIGNSCOPE_DATA_DIR", dir.join("data"))
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap(), err)
}

/// `signscope ... | head -1`: a closed stdout ends the command quietly, as it ends `cat`. It
/// used to print "signscope: Broken pipe (os error 32)" (exit 2), or panic in `println!` with
/// a backtrace (exit 101) for history, profile list and events validate.
#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_the_command_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let key = common::write_key_file(dir.path().join("rest.key"), "demo-rest-key-0123456789\n");
    let body = dir.path().join("body.json");
    std::fs::write(&body, format!("[{}1]", "1,".repeat(100_000))).unwrap();
    // Many invalid events: a long validation report, and a long collector answer.
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, format!("[{}{{}}]", "{\"event\": \"x\"},".repeat(300))).unwrap();
    let (key, body, bad) = (
        key.to_str().unwrap(),
        body.to_str().unwrap(),
        bad.to_str().unwrap(),
    );
    let sign = [
        "sign",
        "--method",
        "PUT",
        "--path",
        "/v2/batch",
        "--api-key",
        "k",
        "--rest-key-file",
        key,
        "--body-file",
        body,
        "--output",
    ];
    let runs: Vec<Vec<&str>> = vec![
        [&sign[..], &["text"]].concat(),
        [&sign[..], &["http"]].concat(),
        vec!["events", "new", "--items", "3000"],
        vec!["events", "validate", bad],
        vec!["events", "send", bad, "--profile", "demo"],
    ];
    for args in runs {
        let (status, err) = run_with_stdout_closed(&args, dir.path());
        assert_eq!(err, "", "{args:?}: {status:?}");
        assert!(
            status.signal() == Some(libc::SIGPIPE) || status.code() == Some(141),
            "{args:?}: {status:?}"
        );
    }
}

/// Names and values from the file reached the terminal as they were: a bidi override
/// reordered the problem's line, a C1 CSI acted on the terminal. Now text and JSON output show
/// them escaped (`core::visible`), and the JSON still holds the same value.
#[test]
fn validate_shows_bidi_overrides_and_c1_controls_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("trojan.json");
    std::fs::write(&file, "[{\"event\":\"view\u{202E}\u{009B}2J\"}]").unwrap();
    let hidden = |text: &str| -> Vec<u32> {
        text.chars()
            .filter(|&c| (c.is_control() && c != '\n') || hides_itself(c))
            .map(|c| c as u32)
            .collect()
    };
    let out = signscope()
        .args(["events", "validate", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(hidden(&text), Vec::<u32>::new(), "{text:?}");
    assert!(text.contains("view\\u{202E}\\u{009B}2J"), "{text}");
    let out = signscope()
        .args([
            "events",
            "validate",
            "--output",
            "json",
            file.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(hidden(&text), Vec::<u32>::new(), "{text:?}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(
        v["errors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["value"] == "view\u{202E}\u{009B}2J"),
        "{v}"
    );
}

/// A character that hides what it is on screen (a C1 control such as U+009B, a CSI; a
/// bidirectional embedding, override or isolate; a zero-width character): written out here,
/// not taken from the code under test.
fn hides_itself(c: char) -> bool {
    ('\u{0080}'..='\u{009F}').contains(&c)
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}')
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{FEFF}')
}
