//! The lesson view's update: its keys, the progress the runtime read, and [`observe`], which the
//! router calls with the request being edited after every change. Pure: the clock is an input.

use chrono::{DateTime, Utc};
use crossterm::event::{KeyCode, KeyEvent};

use super::draw::{
    bottom_max_scroll, exercise_panes, server_max_scroll, text_max_scroll, text_pane,
};
use super::hints::key_works;
use super::state::{
    Action, Done, ExerciseState, LessonEffect, LessonMsg, LessonState, Mode, Outcome, KEYS,
};
use crate::learn::exercise;
use crate::learn::lesson::{changed_lines, Draft, Progress as Goal, STEPS};
use crate::learn::progress::Progress;

/// Handle one message of the lesson view.
pub fn update(s: &mut LessonState, msg: LessonMsg) -> Vec<LessonEffect> {
    match msg {
        LessonMsg::Opened => {
            if s.progress.is_none() {
                vec![LessonEffect::LoadProgress]
            } else {
                vec![]
            }
        }
        LessonMsg::ProgressLoaded(Ok(p)) => {
            s.progress = Some(p);
            s.progress_error = None;
            s.start = None;
            vec![]
        }
        LessonMsg::ProgressLoaded(Err(e)) => {
            // The lesson still runs; nothing is saved over a file the learner may want back.
            s.progress_error = Some(e.clone());
            s.progress = Some(Progress::default());
            vec![LessonEffect::Status(format!(
                "{e} (the lesson starts afresh)"
            ))]
        }
        LessonMsg::SaveFailed(e) => vec![LessonEffect::Status(format!(
            "the lesson progress was not saved: {e}"
        ))],
        LessonMsg::Run(action, now) => run(s, action, now),
        LessonMsg::Key(key, now) => on_key(s, key, now),
    }
}

fn on_key(s: &mut LessonState, key: KeyEvent, now: DateTime<Utc>) -> Vec<LessonEffect> {
    if let Some(action) = KEYS.lookup(&key) {
        if key_works(s, action) {
            return run(s, action, now);
        }
        // The lesson's step keys in an exercise: they would leave it (or restart the lesson
        // unasked); say where they work instead.
        if s.mode == Mode::Exercise && !matches!(action, Action::ToggleFix) {
            return vec![LessonEffect::Status(format!(
                "{}, {} and {} work in the lesson: {} goes back to it",
                KEYS.label_of(Action::Hint),
                KEYS.label_of(Action::Skip),
                KEYS.label_of(Action::Restart),
                KEYS.label_of(Action::Exercises)
            ))];
        }
        return vec![];
    }
    if s.mode == Mode::Lesson {
        // The signing text pages by its pane's height less a row (nothing is skipped) and
        // stops with its last row on the pane's last row.
        if let Some(pane) = text_pane(s.area, s) {
            let page = pane.height.saturating_sub(3).max(1);
            let max = text_max_scroll(s, pane);
            let at = s.text_scroll.min(max);
            match key.code {
                KeyCode::PageDown => s.text_scroll = at.saturating_add(page).min(max),
                KeyCode::PageUp => s.text_scroll = at.saturating_sub(page),
                _ => {}
            }
        }
        return vec![];
    }
    let area = s.area;
    let Some(ex) = s.exercise.as_mut().filter(|_| s.mode == Mode::Exercise) else {
        return vec![];
    };
    let [server, bottom] = exercise_panes(area, ex);
    if ex.outcome.is_some() {
        // The diagnosis scrolls a row or a page and stops with its last row at the bottom.
        let max = bottom_max_scroll(ex, bottom);
        let page = bottom.height.saturating_sub(3).max(1);
        let at = ex.scroll.min(max);
        ex.scroll = match key.code {
            KeyCode::Down => at.saturating_add(1).min(max),
            KeyCode::Up => at.saturating_sub(1),
            KeyCode::PageDown => at.saturating_add(page).min(max),
            KeyCode::PageUp => at.saturating_sub(page),
            KeyCode::End => max,
            KeyCode::Home => 0,
            _ => at,
        };
        return vec![];
    }
    // What the server received pages with PageDown / PageUp (Up / Down move in the list).
    let max = server_max_scroll(ex, server);
    let page = server.height.saturating_sub(3).max(1);
    let at = ex.server_scroll.min(max);
    match key.code {
        KeyCode::PageDown => ex.server_scroll = at.saturating_add(page).min(max),
        KeyCode::PageUp => ex.server_scroll = at.saturating_sub(page),
        _ => {}
    }
    let (len, cursor) = if ex.fixing {
        (ex.knobs.len(), &mut ex.knob_cursor)
    } else {
        (ex.picked.len(), &mut ex.cursor)
    };
    match key.code {
        KeyCode::Down => *cursor = (*cursor + 1).min(len.saturating_sub(1)),
        KeyCode::Up => *cursor = cursor.saturating_sub(1),
        KeyCode::Char(' ') | KeyCode::Right if ex.fixing => {
            if let Some(k) = ex.knobs.get_mut(ex.knob_cursor) {
                k.cycle();
                ex.last_send = None;
            }
        }
        KeyCode::Char(' ') => {
            if let Some(p) = ex.picked.get_mut(ex.cursor) {
                *p = !*p;
            }
        }
        KeyCode::Enter if ex.fixing => return send_fixed(s),
        KeyCode::Enter => return answer(s),
        _ => {}
    }
    vec![]
}

/// Run one action of the lesson view (from its key or the palette).
pub fn run(s: &mut LessonState, action: Action, now: DateTime<Utc>) -> Vec<LessonEffect> {
    match action {
        Action::Hint => {
            s.mode = Mode::Lesson;
            s.hint = true;
            vec![]
        }
        Action::Skip => {
            let Some(p) = s.progress.as_mut() else {
                return vec![];
            };
            if p.lesson_step >= STEPS.len() {
                return vec![];
            }
            p.lesson_step += 1;
            s.start = s.seen.clone();
            s.hint = false;
            s.done = None;
            vec![LessonEffect::SaveProgress(p.clone())]
        }
        Action::Restart => {
            let Some(p) = s.progress.as_mut() else {
                return vec![];
            };
            p.lesson_step = 0;
            s.mode = Mode::Lesson;
            s.start = s.seen.clone();
            s.done = None;
            s.hint = false;
            vec![
                LessonEffect::SaveProgress(p.clone()),
                LessonEffect::Status("lesson started again from the first step".into()),
            ]
        }
        Action::Exercises => {
            s.mode = match s.mode {
                Mode::Lesson => Mode::Exercise,
                Mode::Exercise => Mode::Lesson,
            };
            if s.mode == Mode::Exercise && s.exercise.is_none() {
                return new_exercise(s, 1, now);
            }
            vec![]
        }
        Action::Level1 => new_exercise(s, 1, now),
        Action::Level2 => new_exercise(s, 2, now),
        Action::ToggleFix => {
            if let Some(ex) = s.exercise.as_mut() {
                if ex.outcome.is_none() {
                    ex.fixing = !ex.fixing;
                }
            }
            vec![]
        }
    }
}

/// A new exercise of `level`, from the next seed of the progress.
fn new_exercise(s: &mut LessonState, level: u8, now: DateTime<Utc>) -> Vec<LessonEffect> {
    s.mode = Mode::Exercise;
    let seed = s.progress.as_ref().map_or(0, |p| p.next_seed);
    let ex = exercise::generate(level, seed, now);
    let knobs = ex.knobs();
    s.exercise = Some(ExerciseState {
        picked: vec![false; ex.choices.len()],
        exercise: ex,
        cursor: 0,
        fixing: false,
        knobs,
        knob_cursor: 0,
        last_send: None,
        outcome: None,
        scroll: 0,
        server_scroll: 0,
    });
    match s.progress.as_mut() {
        Some(p) => {
            p.next_seed += 1;
            vec![LessonEffect::SaveProgress(p.clone())]
        }
        None => vec![],
    }
}

/// The ticked choices are the answer: right or not, the diagnosis explains, the score counts.
fn answer(s: &mut LessonState) -> Vec<LessonEffect> {
    let Some(ex) = s.exercise.as_mut() else {
        return vec![];
    };
    let picked: Vec<usize> = (0..ex.picked.len()).filter(|&i| ex.picked[i]).collect();
    let want = ex.exercise.mistakes.len();
    if picked.len() != want {
        return vec![LessonEffect::Status(format!(
            "tick {want} mistake(s) with Space, then Enter"
        ))];
    }
    let solved = ex.exercise.is_answer(&picked);
    finish(s, solved)
}

/// Check the request the fixed client makes with the local server's verifier, in process
/// (nothing goes over the network: the exercise's accounts are not the server's).
fn send_fixed(s: &mut LessonState) -> Vec<LessonEffect> {
    let Some(ex) = s.exercise.as_mut() else {
        return vec![];
    };
    // The server's clock is the exercise's: the point is the signature, not the window.
    let answer = ex
        .exercise
        .send_with(&ex.knobs, ex.exercise.time)
        .map_err(|e| e.to_string());
    ex.last_send = Some(answer.clone());
    match answer {
        Ok(()) => finish(s, true),
        Err(e) => vec![LessonEffect::Status(format!(
            "the verifier refused it: {e}"
        ))],
    }
}

fn finish(s: &mut LessonState, solved: bool) -> Vec<LessonEffect> {
    let Some(ex) = s.exercise.as_mut() else {
        return vec![];
    };
    let level = ex.exercise.level;
    ex.outcome = Some(Outcome {
        solved,
        report: ex
            .exercise
            .diagnosis()
            .report()
            .lines()
            .map(str::to_string)
            .collect(),
    });
    ex.scroll = 0;
    let status = if solved {
        format!("exercise solved (level {level})")
    } else {
        format!("not quite: the diagnosis shows the mistake(s) (level {level})")
    };
    let mut fx = vec![LessonEffect::Status(status)];
    if let Some(p) = s.progress.as_mut() {
        p.record(level, solved);
        fx.insert(0, LessonEffect::SaveProgress(p.clone()));
    }
    fx
}

/// The request being edited changed (or time passed): a step whose goal is reached is done,
/// what changed while it was done is kept to show, and the next step begins here.
pub fn observe(s: &mut LessonState, now: Draft, clock: DateTime<Utc>) -> Vec<LessonEffect> {
    let Some(p) = s.progress.as_mut() else {
        return vec![];
    };
    let step = p.lesson_step;
    if step >= STEPS.len() {
        return vec![];
    }
    let start = s.start.get_or_insert_with(|| now.clone()).clone();
    let reached = (STEPS[step].goal)(&Goal {
        start: &start,
        now: &now,
        clock,
    });
    if s.seen.as_ref() != Some(&now) {
        s.seen = Some(now.clone());
    }
    if !reached {
        return vec![];
    }
    let (_, before) = start.lines_and_signature();
    let (_, after) = now.lines_and_signature();
    s.done = Some(Done {
        step,
        changes: changed_lines(&start, &now),
        signature_before: before,
        signature_after: after,
    });
    p.lesson_step = step + 1;
    s.start = Some(now);
    s.hint = false;
    let view_key = crate::tui::global_keys::GLOBAL_KEYS.first_label_of(
        crate::tui::global_keys::GlobalAction::Show(crate::tui::layout::View::Lesson),
    );
    let status = if p.lesson_step == STEPS.len() {
        format!(
            "lesson: the last step is done; {} in the lesson view ({view_key}) starts an exercise",
            KEYS.label_of(Action::Exercises)
        )
    } else {
        format!(
            "lesson: step {} done; next: {} ({view_key})",
            step + 1,
            STEPS[step + 1].title
        )
    };
    vec![
        LessonEffect::SaveProgress(p.clone()),
        LessonEffect::Status(status),
    ]
}
