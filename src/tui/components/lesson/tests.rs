//! The lesson view through the whole workbench (TestApp): steps done in the request editor,
//! what changed, progress saved, exercises named and fixed, at 80x24.

use crossterm::event::KeyCode;

use super::{LessonEffect, LessonMsg};
use crate::learn::lesson::STEPS;
use crate::learn::progress::Progress;
use crate::tui::component::Clip;
use crate::tui::components::request::Field;
use crate::tui::effect::Command;
use crate::tui::layout::View;
use crate::tui::message::Message;
use crate::tui::test_util::TestApp;

/// The workbench on the Lesson view with `progress` read from the data directory.
fn lesson_app(progress: Progress) -> TestApp {
    let mut t = TestApp::new(80, 24);
    t.sign_now();
    let cmds = t.press(KeyCode::F(8));
    assert_eq!(t.view, View::Lesson);
    assert!(
        cmds.iter()
            .any(|c| matches!(c, Command::Lesson(LessonEffect::LoadProgress))),
        "opening the view reads the progress: {cmds:?}"
    );
    t.update(Message::Lesson(LessonMsg::ProgressLoaded(Ok(progress))));
    t
}

/// The progress the last save asked for, if any.
fn saved(cmds: &[Command]) -> Option<Progress> {
    cmds.iter().rev().find_map(|c| match c {
        Command::Lesson(LessonEffect::SaveProgress(p)) => Some(p.clone()),
        _ => None,
    })
}

/// Replace a one-line field's text in the request view, key by key.
fn set_field(t: &mut TestApp, field: Field, text: &str) -> Vec<Command> {
    t.press(KeyCode::F(2));
    t.app.request.focus = field;
    let old = t
        .app
        .request
        .line_edit(field)
        .map_or(0, |l| l.text().chars().count());
    let mut cmds = t.press(KeyCode::End);
    for _ in 0..old {
        cmds.extend(t.press(KeyCode::Backspace));
    }
    cmds.extend(t.type_str(text));
    cmds
}

/// Type at the end of the body.
fn type_in_body(t: &mut TestApp, text: &str) -> Vec<Command> {
    t.press(KeyCode::F(2));
    t.app.request.focus = Field::Body;
    let mut cmds = t.alt('>');
    cmds.extend(t.type_str(text));
    cmds
}

/// Each step is done by editing the request in the editor, as its hint in the workbench says.
fn do_step(t: &mut TestApp, step: usize) -> Vec<Command> {
    match step {
        0 => set_field(t, Field::Method, "POST"),
        1 => set_field(t, Field::Path, "/v2/batch/"),
        2 => set_field(t, Field::Query, "test=1"),
        3 => set_field(t, Field::Query, ""),
        4 => {
            t.press(KeyCode::F(2));
            t.ctrl('t')
        }
        5 => set_field(t, Field::Timestamp, "2020-01-01T00:00:00.000Z"),
        6 => set_field(t, Field::ApiKey, "my-public-key"),
        7 => set_field(t, Field::RestKey, "another-rest-key"),
        8 => type_in_body(t, " "),
        9 => type_in_body(t, "é"),
        _ => unreachable!("ten steps"),
    }
}

#[test]
fn the_lesson_walks_every_step_done_in_the_editor_and_saves_the_progress() {
    let mut t = lesson_app(Progress::default());
    t.assert_line("step 1 of 10: The method line");
    t.assert_line("Do: Change the method to POST");
    for step in 0..STEPS.len() {
        assert_eq!(t.lesson.step(), step);
        let cmds = do_step(&mut t, step);
        assert_eq!(t.lesson.step(), step + 1, "step {} not noticed", step + 1);
        let p = saved(&cmds).expect("a finished step saves the progress");
        assert_eq!(p.lesson_step, step + 1);
        assert!(t.status.contains("lesson:"), "{}", t.status);
    }
    t.press(KeyCode::F(8));
    t.assert_line("Lesson · 10 steps done");
    assert!(!t.lesson.watching());
}

#[test]
fn a_finished_step_shows_what_changed_in_the_text_and_the_signature() {
    let mut t = lesson_app(Progress::default());
    let sig_before = t.lesson.seen.as_ref().unwrap().lines_and_signature().1;
    do_step(&mut t, 0);
    t.press(KeyCode::F(8));
    t.assert_line("✓ Step 1 done: METHOD changed; the signature changed.");
    let done = t.lesson.done.clone().unwrap();
    assert_eq!(done.changes.len(), 1);
    assert_eq!(
        (done.changes[0].1.as_str(), done.changes[0].2.as_str()),
        ("PUT", "POST")
    );
    assert_eq!(done.signature_before, sig_before);
    assert_ne!(done.signature_after, sig_before);
    // The next step's changes are marked in the signing text as they happen.
    t.assert_line("step 2 of 10: The path line");
    t.press(KeyCode::F(2));
    t.app.request.focus = Field::Path;
    t.press(KeyCode::End);
    t.type_str("x");
    assert_eq!(t.lesson.step(), 1, "not a trailing '/' yet");
    t.press(KeyCode::F(8));
    let row = t.assert_line("*PATH");
    assert!(
        row.contains("/v2/batchx\\n") && row.contains("was /v2/batch"),
        "{row}"
    );
    t.assert_line(" was          ");
    // Changing the REST key changes no line, only the signature (step 8's point).
    let mut t = lesson_app(Progress {
        lesson_step: 7,
        ..Progress::default()
    });
    do_step(&mut t, 7);
    t.press(KeyCode::F(8));
    t.assert_line("✓ Step 8 done: no line changed; the signature changed.");
}

/// Steps 5 and 6 done with exactly the keys their How lines name: Ctrl-T pressed in the
/// Lesson view itself does nothing (it is a Request-view key), and a timestamp typed without
/// Ctrl-U first would be appended to the one in the field.
#[test]
fn the_timestamp_steps_are_done_with_the_keys_their_how_lines_name() {
    let mut t = lesson_app(Progress {
        lesson_step: 4,
        ..Progress::default()
    });
    t.press(KeyCode::Char('h'));
    t.assert_line("How: F2, Ctrl-T freezes the timestamp");
    t.press(KeyCode::F(2));
    t.ctrl('t');
    t.press(KeyCode::F(8));
    t.assert_line("✓ Step 5 done");
    t.press(KeyCode::Char('h'));
    t.assert_line("How: F2, Tab to Timestamp, Ctrl-U clears it, type 2020-01-01T00:00:00.000Z");
    t.press(KeyCode::F(2));
    t.app.request.focus = Field::Timestamp;
    t.ctrl('u');
    t.type_str("2020-01-01T00:00:00.000Z");
    assert_eq!(
        t.app.request.line_edit(Field::Timestamp).unwrap().text(),
        "2020-01-01T00:00:00.000Z"
    );
    t.press(KeyCode::F(8));
    t.assert_line("✓ Step 6 done");
}

#[test]
fn progress_read_from_the_data_directory_resumes_and_restart_starts_again() {
    let mut t = lesson_app(Progress {
        lesson_step: 4,
        ..Progress::default()
    });
    t.assert_line("step 5 of 10: The timestamp line");
    t.press(KeyCode::Char('h'));
    t.assert_line("How: F2, Ctrl-T freezes the timestamp");
    let cmds = t.press(KeyCode::Char('n'));
    assert_eq!(saved(&cmds).unwrap().lesson_step, 5);
    t.assert_line("step 6 of 10");
    let cmds = t.press(KeyCode::Char('r'));
    assert_eq!(saved(&cmds).unwrap().lesson_step, 0);
    t.assert_line("step 1 of 10");
    // A broken file: the lesson runs from the start and says why.
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(8));
    t.update(Message::Lesson(LessonMsg::ProgressLoaded(Err(
        "the lesson progress file /x/learn.json is not valid; delete it to start again".into(),
    ))));
    assert!(t.status.contains("learn.json is not valid"), "{}", t.status);
    t.assert_line("step 1 of 10");
}

#[test]
fn nothing_is_watched_before_the_lesson_is_opened() {
    let mut t = TestApp::new(80, 24);
    assert!(!t.lesson.watching());
    let cmds = set_field(&mut t, Field::Method, "POST");
    assert!(saved(&cmds).is_none());
    assert!(t.lesson.seen.is_none());
}

/// Tick the right choices (found from the exercise's answer) and answer.
fn answer_right(t: &mut TestApp) -> Vec<Command> {
    let ex = t.lesson.exercise.as_ref().unwrap().exercise.clone();
    let mut cmds = vec![];
    for (i, c) in ex.choices.iter().enumerate() {
        if ex.mistakes.iter().any(|m| m.code() == c.code()) {
            t.app.lesson.exercise.as_mut().unwrap().cursor = 0;
            for _ in 0..i {
                t.press(KeyCode::Down);
            }
            t.press(KeyCode::Char(' '));
        }
    }
    cmds.extend(t.press(KeyCode::Enter));
    cmds
}

#[test]
fn an_exercise_named_right_is_scored_and_explained_by_the_diagnosis() {
    let mut t = lesson_app(Progress::default());
    let cmds = t.press(KeyCode::Char('x'));
    assert_eq!(saved(&cmds).unwrap().next_seed, 1);
    let ex = t.lesson.exercise.as_ref().unwrap().exercise.clone();
    assert_eq!(ex.level, 1);
    // Only what a server sees: the request line, the headers, the body.
    t.assert_line("Authorization: Bearer");
    t.assert_line(&format!("{} {}", ex.request.method, ex.request.path));
    t.assert_line("What did the client get wrong? (tick 1)");
    for c in &ex.choices {
        t.assert_line(crate::learn::exercise::short_label(c));
    }
    // Enter with nothing ticked asks for a tick.
    t.press(KeyCode::Enter);
    assert!(t.status.contains("tick 1 mistake"), "{}", t.status);
    let cmds = answer_right(&mut t);
    let p = saved(&cmds).unwrap();
    assert_eq!(p.score_lines(), ["level 1: 1/1 solved"]);
    t.assert_line("Right.");
    t.assert_line("level 1: 1/1 solved");
    let finding = ex.diagnosis().report();
    let first = finding.lines().next().unwrap();
    t.assert_line(&first[..first.len().min(40)]);
}

#[test]
fn a_wrong_answer_counts_as_tried_and_shows_the_diagnosis() {
    let mut t = lesson_app(Progress::default());
    t.press(KeyCode::Char('2'));
    let ex = t.lesson.exercise.as_ref().unwrap().exercise.clone();
    assert_eq!(ex.mistakes.len(), 2);
    t.assert_line("(tick 2)");
    // Tick the first two wrong choices.
    let wrong: Vec<usize> = (0..ex.choices.len())
        .filter(|&i| !ex.mistakes.iter().any(|m| m.code() == ex.choices[i].code()))
        .take(2)
        .collect();
    for &i in &wrong {
        t.app.lesson.exercise.as_mut().unwrap().cursor = i;
        t.press(KeyCode::Char(' '));
    }
    let cmds = t.press(KeyCode::Enter);
    assert_eq!(saved(&cmds).unwrap().score_lines(), ["level 2: 0/1 solved"]);
    t.assert_line("Not quite.");
}

#[test]
fn fixing_the_clients_settings_until_the_local_server_accepts_solves_level_two() {
    let mut t = lesson_app(Progress::default());
    t.press(KeyCode::Char('2'));
    t.press(KeyCode::Char('f'));
    t.assert_line("fix them until the server accepts");
    t.assert_line("line ends");
    // Sent as it is, the server refuses it.
    t.press(KeyCode::Enter);
    assert!(t.status.contains("the verifier refused it"), "{}", t.status);
    let knobs = t.lesson.exercise.as_ref().unwrap().knobs.clone();
    for (i, k) in knobs.iter().enumerate() {
        t.app.lesson.exercise.as_mut().unwrap().knob_cursor = 0;
        for _ in 0..i {
            t.press(KeyCode::Down);
        }
        for _ in 0..(k.options.len() - k.chosen) % k.options.len() {
            t.press(KeyCode::Char(' '));
        }
    }
    let cmds = t.press(KeyCode::Enter);
    assert_eq!(saved(&cmds).unwrap().score_lines(), ["level 2: 1/1 solved"]);
    t.assert_line("Right.");
}

#[test]
fn the_lesson_and_an_exercise_fit_80x24_with_their_keys_shown() {
    let mut t = lesson_app(Progress::default());
    let lines = t.lines();
    assert_eq!(lines.len(), 24);
    t.assert_line("h how");
    t.assert_line(" signature ");
    t.assert_line("BODY");
    t.press(KeyCode::Char('x'));
    t.assert_line("Enter answer");
    t.press(KeyCode::Char('f'));
    t.assert_line("Enter check");
    t.assert_line("signature");
}

/// The workbench footer (row 22) against what each key does: one hint row, and every key
/// it names does something in what is shown; the lesson's step keys are neither offered nor
/// run in an exercise (n did nothing, h left it, r restarted the lesson unasked).
#[test]
fn the_lesson_has_one_hint_row_and_every_key_it_names_works_in_that_mode() {
    let mut t = lesson_app(Progress::default());
    let footer = t.lines()[22].clone();
    for want in [
        "h how",
        "n skip step",
        "PageDown scroll",
        "x exercises",
        "r restart",
    ] {
        assert!(footer.contains(want), "{want}: {footer}");
    }
    t.press(KeyCode::Char('x'));
    let lines = t.lines();
    let footer = lines[22].clone();
    for want in [
        "Space tick",
        "Enter answer",
        "f fix",
        "PageDown scroll",
        "x lesson",
    ] {
        assert!(footer.contains(want), "{want}: {footer}");
    }
    for gone in ["h how", "n skip", "r restart"] {
        assert!(!footer.contains(gone), "{gone}: {footer}");
    }
    // One hint row: no other row of the view names the answer key.
    let hint_rows = lines.iter().filter(|l| l.contains("Enter")).count();
    assert_eq!(hint_rows, 1, "{}", lines.join("\n"));
    // n, h and r in the exercise: it stays, the lesson's progress is untouched, the status
    // says where they work.
    let before = t.lesson.progress.clone();
    for k in ['n', 'h', 'r'] {
        let cmds = t.press(KeyCode::Char(k));
        assert_eq!(t.lesson.mode, super::Mode::Exercise, "{k}");
        assert!(saved(&cmds).is_none(), "{k}: {cmds:?}");
    }
    assert_eq!(
        t.lesson.progress.as_ref().map(|p| p.lesson_step),
        before.as_ref().map(|p| p.lesson_step)
    );
    assert!(
        t.status.contains("work in the lesson: x goes back"),
        "{}",
        t.status
    );
    // Fixing: Enter checks (nothing is sent); the words follow.
    t.press(KeyCode::Char('f'));
    let footer = t.lines()[22].clone();
    for want in ["Space change", "Enter check", "f name", "x lesson"] {
        assert!(footer.contains(want), "{want}: {footer}");
    }
}

/// What the server received scrolls from the keyboard to its last line (its body), a page at a
/// time with nothing skipped; the pane's title is cut with `…`.
#[test]
fn the_exercises_server_pane_pages_to_its_last_line_at_80x24() {
    let mut t = lesson_app(Progress::default());
    t.press(KeyCode::Char('x'));
    t.press(KeyCode::Char('f'));
    let want = t.lesson.exercise.as_ref().unwrap().exercise.server_view();
    let last = want.lines().last().unwrap().to_string();
    let last = last.chars().take(60).collect::<String>();
    let server = |t: &TestApp| {
        let area = crate::tui::layout::frame_layout(ratatui::layout::Rect::new(0, 0, 80, 24)).1;
        super::draw::exercise_panes(area, t.lesson.exercise.as_ref().unwrap())[0]
    };
    assert!(
        !t.pane_rows(server).iter().any(|r| r.contains(&last)),
        "the body starts below the pane at 80x24"
    );
    let seen = t.page_down_through(20, server);
    let rows = t.pane_rows(server);
    assert!(rows.iter().any(|r| r.contains(&last)), "{rows:#?}");
    assert!(seen.iter().any(|r| r.contains("Authorization:")));
    let title = t.lines()[1].clone();
    assert!(title.ends_with("…┐"), "{title}");
    // PageUp goes back to the request line.
    for _ in 0..10 {
        t.press(KeyCode::PageUp);
    }
    assert!(t.pane_rows(server)[0].contains("HTTP/1.1"));
}

/// The diagnosis of an answered exercise stops with its last row at the pane's bottom: however
/// often PageDown or Down is pressed, the pane is never blank, and one PageUp shows more.
#[test]
fn the_diagnosis_scroll_stops_at_its_last_row() {
    let mut t = lesson_app(Progress::default());
    t.press(KeyCode::Char('x'));
    t.press(KeyCode::Char(' '));
    t.press(KeyCode::Enter);
    assert!(t.lesson.exercise.as_ref().unwrap().outcome.is_some());
    let bottom = |t: &TestApp| {
        let area = crate::tui::layout::frame_layout(ratatui::layout::Rect::new(0, 0, 80, 24)).1;
        super::draw::exercise_panes(area, t.lesson.exercise.as_ref().unwrap())[1]
    };
    let report = t
        .lesson
        .exercise
        .as_ref()
        .unwrap()
        .outcome
        .clone()
        .unwrap()
        .report;
    let last = report
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap()
        .clone();
    let last: String = last.trim().chars().take(40).collect();
    for _ in 0..30 {
        t.press(KeyCode::PageDown);
        t.press(KeyCode::Down);
    }
    let rows = t.pane_rows(bottom);
    assert!(
        rows.iter().any(|r| r.contains(&last)),
        "the last line is shown: {rows:#?}"
    );
    assert!(
        !rows[0].trim_matches(|c| c == '│' || c == ' ').is_empty(),
        "the pane's top row is text, not the blank past the end: {rows:#?}"
    );
    // The position is the end, not past it: Up or PageUp moves back at once.
    let max = super::draw::bottom_max_scroll(t.lesson.exercise.as_ref().unwrap(), bottom(&t));
    assert_eq!(t.lesson.exercise.as_ref().unwrap().scroll, max);
}

/// Copy as code (Alt-P, from any view): the picker lists the eight languages, and the program
/// copied is the code generator's for the request being edited, the key left to the environment.
#[test]
fn copy_as_code_picks_a_language_and_copies_the_program_for_the_request_being_edited() {
    use crate::codegen::{CodeOptions, Lang};
    let mut t = TestApp::new(80, 24);
    set_field(&mut t, Field::Query, "page=2");
    t.sign_now();
    t.alt('p');
    for l in <Lang as clap::ValueEnum>::value_variants() {
        t.assert_line(&format!("{:<7} {}", l.name(), l.file_name()));
    }
    t.press(KeyCode::Down);
    t.press(KeyCode::Down);
    let cmds = t.press(KeyCode::Enter);
    assert!(t.popup.is_none());
    let shown = t.request.sign.result.clone().unwrap().unwrap();
    let want = crate::codegen::render_signed(&shown, Lang::Php, &CodeOptions::default()).unwrap();
    match cmds.as_slice() {
        [Command::Copy(Clip { text, what })] => {
            assert_eq!(text, &want);
            assert!(text.contains("page=2") && text.contains("SIGNSCOPE_REST_KEY"));
            assert!(
                !text.contains(crate::server::DEMO_REST_KEY),
                "the key is never in code"
            );
            assert!(what.starts_with("the php program (sign.php"), "{what}");
        }
        other => panic!("expected one copy, got {other:?}"),
    }
    // A digit picks directly; Esc copies nothing.
    t.alt('p');
    let cmds = t.press(KeyCode::Char('8'));
    assert!(
        matches!(cmds.as_slice(), [Command::Copy(Clip { what, .. })] if what.starts_with("the shell program"))
    );
    t.alt('p');
    assert!(t.press(KeyCode::Esc).is_empty());
    assert!(t.popup.is_none());
}

/// The SDK's indexing operations as presets (Alt-O): picking one sets the method and the path
/// of the request being edited and signs it again.
#[test]
fn an_operation_preset_sets_method_and_path() {
    let mut t = TestApp::new(80, 24);
    t.sign_now();
    t.press(KeyCode::F(8));
    t.alt('o');
    for o in crate::core::vendor::SDK_OPERATIONS {
        t.assert_line(&format!("{:<6} {:<22} {}", o.method, o.path, o.what));
    }
    t.press(KeyCode::Down);
    t.press(KeyCode::Down);
    let cmds = t.press(KeyCode::Enter);
    assert_eq!(t.view, View::Request);
    assert_eq!(t.request.method.text(), "PUT");
    assert_eq!(t.request.path.text(), "/v2/batch/delete");
    assert!(
        cmds.iter().any(|c| matches!(c, Command::Sign(_))),
        "{cmds:?}"
    );
    t.alt('o');
    t.press(KeyCode::Char('6'));
    assert_eq!(t.request.method.text(), "DELETE");
    assert_eq!(t.request.path.text(), "/v2/attributes/colour");
    assert!(t.status.contains("delete an attribute"), "{}", t.status);
}

/// The footer names each lesson key by what it does, not by the first word its name shares
/// with the others ("lesson:", "new").
#[test]
fn the_lesson_footer_says_what_each_key_does_at_80x24() {
    let mut t = lesson_app(Progress::default());
    let footer = t.lines()[22].clone();
    assert!(
        footer.contains("h how") && footer.contains("n skip step"),
        "{footer}"
    );
    assert!(
        !footer.contains("lesson:") && !footer.contains(" new "),
        "{footer}"
    );
}
