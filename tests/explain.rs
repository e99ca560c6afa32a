//! `sign --explain`: the handout for the public vector "object body with query", compared with
//! a golden file written by hand from docs/signing.md (the byte counts and the lines from the
//! scheme, the hex digest decoded from the vector's published signature), not produced by the
//! code under test.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use assert_cmd::Command;

const GOLDEN: &str = include_str!("data/explain/object-body-with-query.txt");

fn explain(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("signscope")
        .unwrap()
        .args(["sign", "--explain", "--rest-key-env", "EXPLAIN_KEY"])
        .args(args)
        .env("EXPLAIN_KEY", "ABCDE1234567890")
        .output()
        .unwrap()
}

#[test]
fn explain_matches_the_handwritten_golden_file() {
    let out = explain(&[
        "--method",
        "PUT",
        "--path",
        "/v2/batch",
        "--query",
        "test=1",
        "--timestamp",
        "2026-11-22T10:00:00.000Z",
        "--api-key",
        "klevu-1234567890",
        "--body",
        "{}",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    if text != GOLDEN {
        for (i, (got, want)) in text.lines().zip(GOLDEN.lines()).enumerate() {
            assert_eq!(got, want, "line {}", i + 1);
        }
        assert_eq!(text.lines().count(), GOLDEN.lines().count(), "line count");
        panic!("the outputs differ only in their line ends");
    }
}

#[test]
fn explain_shows_spaces_and_line_ends_in_a_multi_line_body() {
    let out = explain(&[
        "--method",
        "post",
        "--path",
        "/v2/batch",
        "--timestamp",
        "2026-11-22T10:00:00.000Z",
        "--api-key",
        "k",
        "--body",
        "[\n  1 ]\n",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("adds 5 bytes: POST\\n"), "{text}");
    assert!(
        text.contains("adds 1 byte: \\n"),
        "the empty query line: {text}"
    );
    assert!(
        text.contains("  adds 8 bytes, nothing after them:\n    [\\n\n    ··1·]\\n\n"),
        "{text}"
    );
}

#[test]
fn explain_and_another_output_conflict_in_one_sentence() {
    let out = explain(&[
        "--method",
        "PUT",
        "--path",
        "/",
        "--api-key",
        "k",
        "--body",
        "",
        "--output",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--explain") && err.contains("--output"),
        "{err}"
    );
}
