//! The JUnit reports validate against the JUnit XML schema Jenkins checks them with
//! (`tests/data/junit/junit-10.xsd`, its source in the README there): `signscope test` of a
//! passing and of a failing suite, and `signscope check --report junit=FILE` of a real capture.
//! Validation is Python's `xmlschema` (installed by `.ci/run`); without it the test says so in
//! one line and skips.

// Test code: an unwrap that fails is a failed test, with its message.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command as Std;

use assert_cmd::Command;

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn signscope(dir: &tempfile::TempDir) -> Command {
    let mut c = Command::cargo_bin("signscope").unwrap();
    c.env("SIGNSCOPE_CONFIG_DIR", dir.path().join("config"))
        .env("SIGNSCOPE_DATA_DIR", dir.path().join("data"))
        .env("NO_COLOR", "1");
    c
}

/// Python with `xmlschema`, or None after one line saying why the test skips.
fn validator() -> Option<()> {
    match Std::new("python3")
        .args(["-c", "import xmlschema"])
        .output()
    {
        Ok(o) if o.status.success() => Some(()),
        _ => {
            println!("skipped: python3 with the xmlschema package is not installed (.ci/run installs it)");
            None
        }
    }
}

/// The schema's verdict on `xml`: Ok, or the validator's reasons.
fn validate(xml: &Path) -> Result<(), String> {
    let script = "import sys, xmlschema\n\
                  s = xmlschema.XMLSchema(sys.argv[1])\n\
                  errs = [str(e) for e in s.iter_errors(sys.argv[2])]\n\
                  print('\\n'.join(errs)); sys.exit(1 if errs else 0)";
    let out = Std::new("python3")
        .args(["-c", script])
        .arg(repo("tests/data/junit/junit-10.xsd"))
        .arg(xml)
        .output()
        .unwrap();
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

#[test]
fn the_schema_refuses_a_report_it_should() {
    if validator().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.xml");
    // A test case without its required name.
    std::fs::write(
        &bad,
        "<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"0\" errors=\"0\"><testcase classname=\"c\"/></testsuite></testsuites>",
    )
    .unwrap();
    assert!(
        validate(&bad).is_err(),
        "the validator must be able to fail"
    );
}

#[test]
fn suite_reports_passing_and_failing_are_valid_junit() {
    if validator().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let passing = dir.path().join("pass.xml");
    let out = signscope(&dir)
        .arg("test")
        .arg(repo("examples/suites"))
        .arg("--report")
        .arg(format!("junit={}", passing.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    validate(&passing).unwrap();

    // A failing run: a changed expectation, a missing field, and markup in a name.
    let suite = dir.path().join("fail.signscope.toml");
    let text = std::fs::read_to_string(repo("examples/suites/demo.signscope.toml"))
        .unwrap()
        .replace(
            "name = \"add a record\"",
            "name = \"add <a> & \\\"record\\\"\"",
        )
        .replace(
            "equals = \"Job submitted successfully.\"",
            "equals = \"<Nope>\"",
        )
        .replace("status = 401", "status = 200");
    std::fs::write(&suite, text).unwrap();
    let failing = dir.path().join("fail.xml");
    let out = signscope(&dir)
        .arg("test")
        .arg(&suite)
        .arg("--report")
        .arg(format!("junit={}", failing.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let xml = std::fs::read_to_string(&failing).unwrap();
    assert_eq!(xml.matches("<failure ").count(), 2, "{xml}");
    assert!(xml.contains("expected &quot;&lt;Nope&gt;&quot;"), "{xml}");
    assert!(xml.contains("diagnosis: "), "{xml}");
    validate(&failing).unwrap();
}

#[test]
fn a_capture_checked_with_a_junit_report_is_one_valid_case_per_request() {
    if validator().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("check.xml");
    let har = repo("tests/data/har/mitmproxy-indexing.har");
    let out = signscope(&dir)
        .arg("check")
        .arg(&har)
        .args([
            "--key",
            "klevu-1234567890=K1",
            "--key",
            "klevu-2222222222=K2",
        ])
        .arg("--report")
        .arg(format!("junit={}", report.display()))
        .env("K1", "FixtureRestKey0123456789")
        .env("K2", "SecondFixtureKey98765")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let xml = std::fs::read_to_string(&report).unwrap();
    assert!(
        xml.contains("<testsuites name=\"signscope\" tests=\"6\" failures=\"3\""),
        "{xml}"
    );
    assert_eq!(xml.matches("<testcase ").count(), 6, "{xml}");
    assert_eq!(xml.matches("<failure ").count(), 3, "{xml}");
    // Each failure names the request's place and carries the diagnosis sentence.
    assert!(
        xml.contains(&format!("classname=\"{}:3\"", har.display())),
        "{xml}"
    );
    assert!(xml.contains("SIGNATURE_MISMATCH"), "{xml}");
    assert!(
        xml.contains("got rejected, SIGNATURE_MISMATCH: The signature does not match the request: the client signed as the vendor&apos;s PHP SDK signs: &apos;?&apos; before the query"),
        "{xml}"
    );
    assert_eq!(xml.matches("no known client mistake").count(), 2, "{xml}");
    validate(&report).unwrap();
}
