//! The code tables of the documentation list every code the core and the server can produce
//! (`docs/events.md` "Problem codes", `docs/verification.md` rules V8 and V12,
//! `docs/indexing-bodies.md` "Codes"). The codes are read from the source text (the problem
//! code constants, the verifier's `refusal_codes`, the indexing body checks' `code: "..."`,
//! every `ApiError::new(STATUS, "CODE", ...)` of the server), so a code added without its row
//! fails here.

// Test code: an unwrap that fails is a failed test, with its message.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::path::Path;

use regex::Regex;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The sources of a folder of `src/`, concatenated.
fn read_dir(dir: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut names: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// The first capture of every match of `pattern` in `text`.
fn captures(pattern: &str, text: &str) -> BTreeSet<String> {
    Regex::new(pattern)
        .unwrap()
        .captures_iter(text)
        .map(|c| c[1].to_string())
        .collect()
}

/// The codes of the table rows (`| \`CODE\` | ...`) of `doc`.
fn table_codes(doc: &str) -> BTreeSet<String> {
    captures(r"(?m)^\s*\| `([A-Z][A-Z_]+)` \|", &read(doc))
}

fn missing(produced: &BTreeSet<String>, listed: &BTreeSet<String>) -> Vec<String> {
    produced.difference(listed).cloned().collect()
}

#[test]
fn every_collector_problem_code_has_a_row_in_docs_events() {
    let types = read("src/core/events/validate/types.rs");
    let module = &types[types.find("pub mod codes {").unwrap()..];
    let module = &module[..module.find("\n}").unwrap()];
    let mut produced = captures(r#"pub const [A-Z_]+: &str = "([A-Z_]+)";"#, module);
    assert!(
        produced.contains("JSON_SYNTAX") && produced.len() >= 18,
        "{produced:?}"
    );
    // The server's own problems on event records (the inspection store's note, the
    // collector's mark on an event whose errors were not listed).
    produced.extend(captures(
        r#"problem_value\(\s*"[a-z]+",[^;]*?"([A-Z][A-Z_]+)""#,
        &read_dir("src/server"),
    ));
    assert!(
        produced.contains("PROBLEMS_NOT_KEPT") && produced.contains("NOT_LISTED"),
        "{produced:?}"
    );
    let listed = table_codes("docs/events.md");
    assert_eq!(
        missing(&produced, &listed),
        Vec::<String>::new(),
        "docs/events.md \"Problem codes\" lacks these"
    );
}

#[test]
fn every_indexing_refusal_and_server_answer_code_has_a_row_in_docs_verification() {
    // The refusal codes are one list (`refusal_codes`): `Rejection::code_and_status` gives each
    // variant one of its constants, and `ALL` (which `is_refusal_code` reads) holds every one.
    let verify = read("src/core/verify.rs");
    let module = &verify[verify.find("pub mod refusal_codes {").unwrap()..];
    let module = &module[..module.find("\n}").unwrap()];
    let refusals = captures(r#"pub const [A-Z_]+: &str = "([A-Z_]+)";"#, module);
    let all = &module[module.find("pub const ALL").unwrap()..];
    assert_eq!(
        captures(r"(?m)^\s+([A-Z][A-Z_]+),$", all),
        refusals,
        "refusal_codes::ALL lists every refusal code"
    );
    let code_fn = &verify[verify.find("fn code_and_status(&self)").unwrap()..];
    let code_fn = &code_fn[..code_fn.find("\n    }\n").unwrap()];
    let arms = captures(r"=> \(([A-Z_]+), \d+\),", code_fn);
    assert_eq!(arms, refusals, "one code per refusal");
    assert_eq!(
        code_fn.matches("Rejection::").count(),
        refusals.len(),
        "one code per refusal: {refusals:?}"
    );
    assert!(refusals.contains("SIGNATURE_MISMATCH"), "{refusals:?}");
    let answers = captures(
        r#"ApiError::new\(\s*\d+,\s*"([A-Z_]+)""#,
        &read_dir("src/server"),
    );
    assert!(
        answers.contains("PAYLOAD_TOO_LARGE") && answers.len() >= 12,
        "{answers:?}"
    );
    let listed = table_codes("docs/verification.md");
    let produced: BTreeSet<String> = refusals.union(&answers).cloned().collect();
    assert_eq!(
        missing(&produced, &listed),
        Vec::<String>::new(),
        "docs/verification.md (rules V8 and V12) lacks these"
    );
}

#[test]
fn every_indexing_body_code_has_a_row_in_docs_indexing_bodies() {
    // Codes are passed to helpers as literals: every upper-case literal with an underscore
    // outside comments, tests and suffix tests (`ends_with("NOT_STRING")`), less the values
    // the checks compare with (record types `KLEVU_*` and the datatypes).
    let mut text = String::new();
    for file in ["mod", "names", "records", "updates"] {
        let src = read(&format!("src/core/indexing_body/{file}.rs"));
        let src = &src[..src.find("#[cfg(test)]").unwrap_or(src.len())];
        let code_lines = src
            .lines()
            .filter(|l| !l.trim_start().starts_with("//") && !l.contains("ends_with("));
        for line in code_lines {
            text.push_str(line);
            text.push('\n');
        }
    }
    let values = ["MULTIVALUE_NUMBER"];
    let produced: BTreeSet<String> = captures(r#""([A-Z]+(?:_[A-Z]+)+)""#, &text)
        .into_iter()
        .filter(|c| !c.starts_with("KLEVU_") && !values.contains(&c.as_str()))
        .collect();
    assert!(
        produced.contains("BODY_NOT_ARRAY") && produced.contains("ID_REQUIRED"),
        "{produced:?}"
    );
    let listed = table_codes("docs/indexing-bodies.md");
    assert_eq!(
        missing(&produced, &listed),
        Vec::<String>::new(),
        "docs/indexing-bodies.md \"Codes\" lacks these"
    );
}
