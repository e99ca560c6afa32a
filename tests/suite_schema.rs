//! The JSON Schema for suite files (`docs/signscope-suite.schema.json`, `docs/test.md`) takes
//! the example suite and refuses suites the parser refuses (an inline REST key, an unknown key, a
//! signed header among a request's headers, body and body_file both). Validation is Python's
//! `jsonschema` with `tomllib` (installed by `.ci/run`); without them the test says so in one
//! line and skips.

// Test code: an unwrap that fails is a failed test, with its message.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import jsonschema, tomllib"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("skipped: python3 (3.11+) with the jsonschema package is not installed (.ci/run installs it)");
    }
    ok
}

/// The schema's errors for a suite's text (empty: valid).
fn schema_errors(dir: &Path, suite: &str) -> Vec<String> {
    let file = dir.join("s.signscope.toml");
    std::fs::write(&file, suite).unwrap();
    let script = "import sys, json, tomllib, jsonschema\n\
                  schema = json.load(open(sys.argv[1]))\n\
                  jsonschema.Draft202012Validator.check_schema(schema)\n\
                  suite = tomllib.load(open(sys.argv[2], 'rb'))\n\
                  v = jsonschema.Draft202012Validator(schema)\n\
                  for e in v.iter_errors(suite): print(e.message)";
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(repo("docs/signscope-suite.schema.json"))
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_example_suite_is_valid_and_bad_suites_are_refused_as_the_parser_refuses_them() {
    if !available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let example = std::fs::read_to_string(repo("examples/suites/demo.signscope.toml")).unwrap();
    assert_eq!(schema_errors(dir.path(), &example), Vec::<String>::new());
    signscope::core::suite::parse(&example).unwrap();

    let bad = [
        ("rest_key = \"demo\"", "rest_key = \"inline-secret-0123\""),
        ("status = 401", "stauts = 401"),
        (
            "capture = { job = \"/jobId\" }",
            "capture = { job = \"/jobId\" }\nheaders = { Authorization = \"x\" }",
        ),
        ("body = \"[]\"", "body = \"[]\"\nbody_file = \"b.json\""),
        ("verdict = \"rejected\"", "verdict = \"refused\""),
    ];
    for (from, to) in bad {
        let text = example.replacen(from, to, 1);
        assert_ne!(text, example, "{from}");
        let errors = schema_errors(dir.path(), &text);
        assert!(!errors.is_empty(), "the schema took {to:?}");
        // The inline key is refused when the key is resolved (exit 2), the rest by the parser.
        if !to.contains("inline") {
            assert!(signscope::core::suite::parse(&text).is_err(), "{to}");
        }
    }
}
