use std::collections::BTreeMap;

use super::judge::{contains, judge, Observed};
use super::report::{junit, Case};
use super::*;

const SUITE: &str = r#"
[account]
api_key = "demo-public-key"
rest_key = "demo"

[[request]]
name = "add"
method = "PUT"
path = "/v2/batch"
body = "[]"
capture = { job = "/jobId" }
[request.expect]
status = 200
json = [{ pointer = "/jobId", exists = true }, { pointer = "/nope", equals = 1 }]
"#;

#[test]
fn a_suite_parses_with_the_line_of_each_request() {
    let s = parse(SUITE).unwrap();
    assert_eq!(s.requests.len(), 1);
    assert_eq!(s.requests[0].line, 6);
    assert_eq!(s.requests[0].capture["job"], "/jobId");
}

#[test]
fn a_syntax_error_names_line_and_column_and_the_fix() {
    let e = parse("[account]\napi_key = \"k\"\nrest_key = \n").unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("docs/test.md"), "{e}");
    let e = parse(&SUITE.replace("status = 200", "stauts = 200")).unwrap_err();
    assert!(e.message.contains("stauts"), "{e}");
}

#[test]
fn a_field_that_does_not_exist_fails_the_check_without_a_crash() {
    let s = parse(SUITE).unwrap();
    let seen = Observed {
        status: Some(200),
        body: br#"{"jobId":"j-1"}"#.to_vec(),
        ..Observed::default()
    };
    let checks = judge(&s.requests[0].expect, &seen);
    assert_eq!(checks.len(), 3);
    assert!(checks[0].passed && checks[1].passed && !checks[2].passed);
    assert_eq!(checks[2].actual, "(no such field)");
}

#[test]
fn variables_substitute_and_an_unknown_one_is_named() {
    let vars = BTreeMap::from([("job".to_string(), "j-1".to_string())]);
    assert_eq!(substitute("/x/{{ job }}?a", &vars).unwrap(), "/x/j-1?a");
    assert_eq!(substitute("{{other}}", &vars).unwrap_err(), "other");
}

#[test]
fn partial_match_of_events() {
    let have = serde_json::json!({"event": "view", "data": {"items": [{"id": "1", "x": 2}]}});
    assert!(contains(
        &have,
        &serde_json::json!({"data": {"items": [{"id": "1"}]}})
    ));
    assert!(!contains(&have, &serde_json::json!({"event": "click"})));
}

#[test]
fn junit_escapes_and_names_the_place_of_a_failure() {
    let mut case = Case {
        file: "a<b>.signscope.toml".into(),
        line: 7,
        name: "x & y".into(),
        ..Case::default()
    };
    case.error = Some("boom \u{1}".into());
    let xml = junit(&[case], "2026-01-01T00:00:00");
    assert!(
        xml.contains("a&lt;b&gt;.signscope.toml:7: x &amp; y: boom \\u{1}"),
        "{xml}"
    );
    assert!(xml.contains("failures=\"1\""));
}

#[test]
fn request_headers_parse_and_the_signed_ones_are_refused_with_the_request_line() {
    let with = |h: &str| {
        SUITE.replace(
            "body = \"[]\"",
            &format!("body = \"[]\"\nheaders = {{ {h} }}"),
        )
    };
    let s = parse(&with("\"X-Test-Run\" = \"{{run}}\"")).unwrap();
    assert_eq!(s.requests[0].headers["X-Test-Run"], "{{run}}");
    for (h, says) in [
        ("Authorization = \"x\"", "the signature sets"),
        ("\"x-svc-timestamp\" = \"x\"", "the signature sets"),
        ("\"Content-Type\" = \"text/plain\"", "content_type ="),
        ("Host = \"example.com\"", "set by HTTP itself"),
        ("\"Bad Name\" = \"x\"", "not one HTTP allows"),
        ("\"X-A\" = \" padded\"", "space at an end"),
    ] {
        let e = parse(&with(h)).unwrap_err();
        assert_eq!((e.line, e.column), (6, 1), "{h}: {e}");
        assert!(e.message.contains(says), "{h}: {e}");
    }
}
