//! README's "Use in CI": the `run:` steps of `examples/ci/github-actions.yml` (job
//! `test-double`), run in order as bash scripts on 127.0.0.1, as a runner would run them: the
//! test double starts, `signscope wait` sees it ready, the PHP SDK's request and the JavaScript
//! SDK's events are replayed from the fixtures, and the stop step prints the summary and exits
//! with the server's exit code. Only the install step is left out: the binary under test is put
//! on PATH instead.

// Test code: an unwrap that fails is a failed test, with its message.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;

/// Each step of the job: its name and the lines of its `run: |` block, unindented.
fn steps(workflow: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut name = String::new();
    let mut block: Option<(usize, String)> = None;
    for line in workflow.lines() {
        let indent = line.len() - line.trim_start().len();
        if let Some((at, text)) = &mut block {
            if line.trim().is_empty() || indent > *at {
                text.push_str(line.get(*at + 2..).unwrap_or(""));
                text.push('\n');
                continue;
            }
            out.push((name.clone(), std::mem::take(text)));
            block = None;
        }
        let t = line.trim_start().trim_start_matches("- ");
        if let Some(n) = t.strip_prefix("name: ") {
            name = n.to_string();
        } else if t == "run: |" {
            block = Some((indent, String::new()));
        }
    }
    if let Some((_, text)) = block {
        out.push((name, text));
    }
    out
}

#[test]
fn the_example_workflow_gates_a_job_on_the_php_and_js_sdk_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workflow = std::fs::read_to_string(root.join("examples/ci/github-actions.yml")).unwrap();
    let steps = steps(&workflow);
    let names: Vec<&str> = steps.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "Install signscope",
            "Start the test double",
            "Drive the clients",
            "Stop and judge"
        ]
    );
    // The job's working directory: a fresh folder that sees the repository's fixtures.
    let work = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root.join("tests"), work.path().join("tests")).unwrap();
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_signscope"),
        bin.path().join("signscope"),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut results = Vec::new();
    for (name, script) in &steps[1..] {
        // As a runner runs a `run:` step: bash, stop at the first failing command.
        let out = Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
            .current_dir(work.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        results.push((name.clone(), out.status.code(), text));
    }
    let all = format!("{results:#?}");
    for (name, code, _) in &results {
        assert_eq!(*code, Some(0), "step {name} failed:\n{all}");
    }
    let (_, _, drive) = &results[1];
    assert!(drive.contains("Job submitted successfully"), "{all}");
    assert!(drive.contains("invalid events: []"), "{all}");
    let (_, _, summary) = &results[2];
    assert!(
        summary.contains("indexing requests: 1 accepted, 0 rejected"),
        "{all}"
    );
    assert!(summary.contains("collector: 2 requests"), "{all}");
    assert!(summary.contains(" 0 invalid"), "{all}");
    // The log holds the three requests the clients sent (and no key).
    let log = std::fs::read_to_string(work.path().join("signscope-run/log.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 3, "{log}");
    assert!(!log.contains("FixtureRestKey0123456789"), "{log}");
}
