//! Parity with the vendor's PHP SDK: every validator test case of `klevu/php-sdk` (and the
//! held-out shapes a real shop sends), with the SDK's own answer, transcribed into
//! `tests/data/vendor/php-sdk-validators/` by `scripts/indexing-parity.sh`. The core's judgement
//! of the body each case would be on the wire must give the same answer: no error at the case's
//! place when the SDK accepts it, at least one when it refuses.

use serde_json::Value;
use signscope::core::indexing_body::{judge_bytes, BodyKind, Level};

const CASES: &str = include_str!("data/vendor/php-sdk-validators/cases.jsonl");

fn kind(name: &str) -> BodyKind {
    match name {
        "records" => BodyKind::Records,
        "updates" => BodyKind::Updates,
        "delete" => BodyKind::Delete,
        "attribute" => BodyKind::Attribute,
        other => panic!("unknown kind {other}"),
    }
}

#[test]
fn every_transcribed_sdk_case_gets_the_sdks_answer() {
    let mut disagreements = Vec::new();
    let (mut judged, mut held_out) = (0, 0);
    for line in CASES.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let Some(body) = case["body"].as_str() else {
            assert!(
                case["skipped"].is_string(),
                "a case without a body says why: {line}"
            );
            continue;
        };
        let focus = case["focus"].as_str().unwrap();
        let judgement = judge_bytes(kind(case["kind"].as_str().unwrap()), body.as_bytes(), None)
            .expect("the transcribed body is JSON");
        let errors: Vec<String> = judgement
            .problems
            .iter()
            .filter(|p| p.level == Level::Error)
            .filter(|p| p.field_path == focus || p.field_path.starts_with(&format!("{focus}/")))
            .map(|p| format!("{} at {}", p.code, p.field_path))
            .collect();
        let accepted = case["accepted"].as_bool().unwrap();
        if accepted != errors.is_empty() {
            disagreements.push(format!(
                "{} {} {}: SDK accepted={accepted}, errors {:?}, ours {errors:?}, body {body}",
                case["validator"], case["test"], case["case"], case["errors"]
            ));
        }
        judged += 1;
        held_out += usize::from(case["test"] == "held-out");
    }
    assert!(
        judged >= 150 && held_out >= 20,
        "{judged} cases, {held_out} held out"
    );
    assert!(
        disagreements.is_empty(),
        "{} of {judged} cases disagree with the SDK:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}
