//! `signscope learn`: the lesson walked from the first step to the last through stdin, resumed
//! from the data directory, and one exercise of each level solved (and one missed).

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use assert_cmd::Command;
use signscope::learn::exercise::generate;
use signscope::learn::lesson::STEPS;

const TS: &str = "2026-11-22T10:00:00.000Z";

fn learn(data: &std::path::Path, args: &[&str], stdin: String) -> std::process::Output {
    Command::cargo_bin("signscope")
        .unwrap()
        .arg("learn")
        .args(args)
        .env("SIGNSCOPE_DATA_DIR", data)
        .env("SIGNSCOPE_CONFIG_DIR", data.join("config"))
        .write_stdin(stdin)
        .output()
        .unwrap()
}

fn hints(steps: std::ops::Range<usize>) -> String {
    STEPS[steps]
        .iter()
        .map(|s| format!("{}\n", s.hint))
        .collect()
}

#[test]
fn the_lesson_walks_from_the_first_step_to_the_last() {
    let dir = tempfile::tempdir().unwrap();
    let out = learn(
        dir.path(),
        &[],
        format!("hint\nshow\n{}", hints(0..STEPS.len())),
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for (i, step) in STEPS.iter().enumerate() {
        let header = format!("Step {} of {}: {}", i + 1, STEPS.len(), step.title);
        assert!(text.contains(&header), "{header} missing:\n{text}");
    }
    assert!(
        text.contains("  METHOD       was PUT\n               now POST\n"),
        "{text}"
    );
    assert!(
        text.contains("the signing text is unchanged"),
        "the REST key step: {text}"
    );
    assert!(text.contains("The lesson is complete"), "{text}");
    let score = learn(dir.path(), &["score"], String::new());
    let score = String::from_utf8(score.stdout).unwrap();
    assert!(score.contains("lesson: 10 of 10 steps done"), "{score}");
}

#[test]
fn the_lesson_resumes_where_it_was_left() {
    let dir = tempfile::tempdir().unwrap();
    let out = learn(dir.path(), &[], format!("{}quit\n", hints(0..3)));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Step 4 of 10"), "{text}");
    assert!(!text.contains("Step 5 of 10"), "{text}");
    // The next run starts at step 4, with the query the earlier steps added.
    let out = learn(dir.path(), &[], hints(3..4));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("Step 1 of 10"), "{text}");
    let first = text.find("Step 4 of 10").expect("resumes at step 4");
    assert!(text[first..].contains("QUERY        test=1\\n"), "{text}");
    assert!(
        text.contains("Step 5 of 10"),
        "the goal of step 4 is reached: {text}"
    );
    let out = learn(dir.path(), &["--restart"], "quit\n".into());
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("Step 1 of 10"));
}

/// The numbers (from 1) of the right choices.
fn answer(level: u8, seed: u64) -> String {
    let e = generate(level, seed, TS.parse().unwrap());
    let right: Vec<String> = (0..e.choices.len())
        .filter(|&i| e.mistakes.iter().any(|m| m.code() == e.choices[i].code()))
        .map(|i| (i + 1).to_string())
        .collect();
    assert_eq!(right.len(), level as usize);
    right.join(" ")
}

#[test]
fn one_exercise_of_each_level_is_solved_and_scored() {
    let dir = tempfile::tempdir().unwrap();
    for (level, seed) in [(1u8, 11u64), (2, 12)] {
        let lvl = level.to_string();
        let sd = seed.to_string();
        let args = [
            "exercise",
            "--level",
            &lvl,
            "--seed",
            &sd,
            "--timestamp",
            TS,
        ];
        // A first reply that is not an answer is asked again.
        let out = learn(dir.path(), &args, format!("x\n{}\n", answer(level, seed)));
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(0), "{text}");
        assert!(text.contains("Authorization: Bearer "), "{text}");
        assert!(text.contains("give "), "{text}");
        assert!(text.contains("Right."), "{text}");
        assert!(text.contains("The diagnosis:"), "{text}");
    }
    let score = learn(dir.path(), &["score"], String::new());
    let score = String::from_utf8(score.stdout).unwrap();
    assert!(score.contains("level 1: 1/1 solved"), "{score}");
    assert!(score.contains("level 2: 1/1 solved"), "{score}");
}

#[test]
fn a_missed_exercise_says_so_and_explains() {
    let dir = tempfile::tempdir().unwrap();
    let right = answer(1, 5);
    let wrong = if right == "1" { "2" } else { "1" };
    let args = ["exercise", "--seed", "5", "--timestamp", TS];
    let out = learn(dir.path(), &args, format!("{wrong}\n"));
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Not quite."), "{text}");
    let e = generate(1, 5, TS.parse().unwrap());
    assert!(
        text.contains(e.mistakes[0].code()),
        "the diagnosis names it: {text}"
    );
    assert!(text.contains("level 1: 0/1 solved"), "{text}");
}

/// The fix form: the client's settings changed (by number) until the server accepts; a send
/// before that is refused with the server's reason.
#[test]
fn an_exercise_is_solved_by_fixing_the_client_until_the_server_accepts() {
    let dir = tempfile::tempdir().unwrap();
    for (level, seed) in [(1u8, 3u64), (2, 4)] {
        let e = generate(level, seed, TS.parse().unwrap());
        let mut input = String::from("send\n9999\n");
        for (i, k) in e.knobs().iter().enumerate() {
            for _ in 0..(k.options.len() - k.chosen) % k.options.len() {
                input.push_str(&format!("{}\n", i + 1));
            }
        }
        input.push_str("send\n");
        let (lvl, sd) = (level.to_string(), seed.to_string());
        let args = [
            "exercise",
            "--fix",
            "--level",
            &lvl,
            "--seed",
            &sd,
            "--timestamp",
            TS,
        ];
        let out = learn(dir.path(), &args, input);
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(0), "{text}");
        assert!(text.contains("refused: "), "the first send: {text}");
        assert!(text.contains("type a number between 1 and"), "{text}");
        assert!(
            text.contains("Accepted: the server verified the signature."),
            "{text}"
        );
        for m in &e.mistakes {
            assert!(
                text.contains(m.code()),
                "the diagnosis names {}: {text}",
                m.code()
            );
        }
    }
    // Giving up counts as tried.
    let args = ["exercise", "--fix", "--seed", "6", "--timestamp", TS];
    let out = learn(dir.path(), &args, "send\nquit\n".into());
    assert_eq!(out.status.code(), Some(1));
    let score = learn(dir.path(), &["score"], String::new());
    let score = String::from_utf8(score.stdout).unwrap();
    assert!(score.contains("level 1: 1/2 solved"), "{score}");
    assert!(score.contains("level 2: 1/1 solved"), "{score}");
}
