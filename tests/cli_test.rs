//! `signscope test`: the example suite passes against the in-process server, a failure names
//! `file:line` with expected and actual, unusable input exits 2 with nothing run, and the JUnit
//! report is well formed.

use assert_cmd::Command;

fn cmd(dir: &tempfile::TempDir) -> Command {
    let mut c =
        Command::cargo_bin("signscope").expect("the signscope binary is built for the tests");
    c.env("SIGNSCOPE_CONFIG_DIR", dir.path().join("config"))
        .env("SIGNSCOPE_DATA_DIR", dir.path().join("data"))
        .env("NO_COLOR", "1")
        .env_remove("SIGNSCOPE_REST_KEY");
    c
}

fn example() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/suites/demo.signscope.toml"
    ))
    .expect("the example suite is in the repository")
}

#[test]
fn the_example_suite_passes_and_writes_a_junit_report() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("junit.xml");
    let out = cmd(&dir)
        .arg("test")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/suites"))
        .arg("--report")
        .arg(format!("junit={}", junit.display()))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("9 requests, 0 failed"), "{text}");
    let checks: usize = text
        .lines()
        .last()
        .and_then(|l| l.split(", ").nth(2)?.split(' ').next()?.parse().ok())
        .unwrap();
    assert!(checks >= 25, "{text}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("<testsuites name=\"signscope\" tests=\"9\" failures=\"0\""),
        "{xml}"
    );
    assert_eq!(xml.matches("<testcase ").count(), 9, "{xml}");
}

#[test]
fn a_failed_expectation_names_file_line_expected_and_actual() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("bad.signscope.toml");
    let text = example()
        .replace(
            "equals = \"Job submitted successfully.\"",
            "equals = \"Nope\"",
        )
        .replace(
            "events = [{ event = \"select_recs_list\"",
            "events = [{ event = \"other\"",
        )
        .replace(
            "pointer = \"/0/datatype\", exists = true",
            "pointer = \"/0/absent\", exists = true",
        );
    std::fs::write(&suite, text).unwrap();
    let out = cmd(&dir)
        .arg("test")
        .arg(&suite)
        .arg("--report")
        .arg("tap=-")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let place = format!("{}:15: add a record: json /message equals: expected \"Nope\", got \"Job submitted successfully.\"", suite.display());
    assert!(stdout.contains(&place), "{stdout}");
    assert!(
        stdout.contains("json /0/absent exists: expected true, got false"),
        "{stdout}"
    );
    assert!(
        stdout.contains("event recorded: expected {\"event\":\"other\""),
        "{stdout}"
    );
    assert!(stdout.contains("not ok 1 - add a record"), "{stdout}");
}

#[test]
fn a_syntax_error_or_an_inline_key_runs_nothing_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("s.signscope.toml");
    std::fs::write(
        &suite,
        example().replace("method = \"PATCH\"", "method = PATCH"),
    )
    .unwrap();
    let out = cmd(&dir).arg("test").arg(&suite).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("{}:34:10", suite.display())), "{err}");
    assert!(out.stdout.is_empty());

    let key = "inline-secret-0123";
    std::fs::write(
        &suite,
        example().replace("rest_key = \"demo\"", &format!("rest_key = \"{key}\"")),
    )
    .unwrap();
    let out = cmd(&dir).arg("test").arg(&suite).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("env:NAME") && !err.contains(key), "{err}");
    assert!(out.stdout.is_empty());
}

/// A request's own headers go on the wire beside the signed ones (the server records them), with
/// variables put in; a header the signature sets is refused with the request's line, nothing
/// sent.
#[test]
fn a_request_sends_its_own_headers_and_cannot_replace_a_signed_one() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let server = signscope::server::start(
        rt.handle(),
        signscope::server::ServerConfig::demo(),
        listener,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("h.signscope.toml");
    let with_headers = |h: &str| {
        example().replacen(
            "capture = { job = \"/jobId\" }",
            &format!("capture = {{ job = \"/jobId\" }}\nheaders = {{ {h} }}"),
            1,
        )
    };
    std::fs::write(
        &suite,
        with_headers("\"X-Test-Run\" = \"run-{{sku}}\", \"User-Agent\" = \"suite/1\""),
    )
    .unwrap();
    let out = cmd(&dir)
        .arg("test")
        .arg(&suite)
        .arg("--server")
        .arg(server.url())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let recorded = rt
        .block_on(async {
            let client = reqwest::Client::builder().no_proxy().build()?;
            client
                .get(format!("{}/_inspect/requests", server.url()))
                .send()
                .await?
                .text()
                .await
        })
        .unwrap();
    let record: serde_json::Value = serde_json::from_str(&recorded).unwrap();
    let first = record
        .as_array()
        .or_else(|| record["requests"].as_array())
        .and_then(|a| a.first())
        .cloned()
        .unwrap_or_default();
    let headers = first["headers"].to_string().to_ascii_lowercase();
    assert!(
        headers.contains("[\"x-test-run\",\"run-sku-1001\"]"),
        "{recorded}"
    );
    assert!(
        headers.contains("[\"user-agent\",\"suite/1\"]"),
        "{recorded}"
    );
    assert_eq!(first["verdict"], "accepted", "{recorded}");

    std::fs::write(&suite, with_headers("\"X-SVC-APIKEY\" = \"other\"")).unwrap();
    let out = cmd(&dir).arg("test").arg(&suite).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("{}:15:1", suite.display())), "{err}");
    assert!(err.contains("the signature sets"), "{err}");
    assert!(out.stdout.is_empty());
}

/// `profile request export --suite`: a saved request with the answer of its latest send becomes
/// a suite entry that `signscope test` passes; added to an existing suite it keeps that suite;
/// the key is only ever a reference.
#[test]
fn a_saved_request_exported_with_its_answer_is_a_passing_suite() {
    let dir = tempfile::tempdir().unwrap();
    let out = cmd(&dir)
        .args(["profile", "request", "export", "demo", "default", "--suite"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("rest_key = \"demo\"") && !text.contains("[request.expect]"),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("has not been sent yet"));

    let sent = cmd(&dir)
        .args(["send", "--profile", "demo"])
        .output()
        .unwrap();
    assert_eq!(sent.status.code(), Some(0), "{sent:?}");
    let suite = dir.path().join("mine.signscope.toml");
    std::fs::write(&suite, example()).unwrap();
    let out = cmd(&dir)
        .args(["profile", "request", "export", "demo", "default", "--suite"])
        .arg(&suite)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty(), "written where asked only");
    let text = std::fs::read_to_string(&suite).unwrap();
    assert!(text.starts_with(&example()), "{text}");
    assert!(
        text.contains("[request.expect]\nstatus = 200\nverdict = \"accepted\""),
        "{text}"
    );
    assert!(
        text.contains("{ pointer = \"/jobId\", exists = true }"),
        "{text}"
    );
    let out = cmd(&dir).arg("test").arg(&suite).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("10 requests, 0 failed"), "{stdout}");

    // Into a file that is not a suite: refused with its place, the file left as it was.
    let other = dir.path().join("notes.toml");
    std::fs::write(&other, "title = [unclosed\n").unwrap();
    let out = cmd(&dir)
        .args(["profile", "request", "export", "demo", "default", "--suite"])
        .arg(&other)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("{}:1:", other.display())));
    assert_eq!(
        std::fs::read_to_string(&other).unwrap(),
        "title = [unclosed\n"
    );
}
