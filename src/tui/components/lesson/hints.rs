//! The lesson view's one hint row (the workbench footer): the keys that do something in what
//! is shown, each with the word of what it does there. The lesson's step keys (how, skip,
//! restart) are not offered in an exercise, where they do nothing.

use super::state::{Action, LessonState, Mode, KEYS};

fn key(action: Action, word: &str) -> (String, String) {
    (KEYS.label_of(action), word.to_string())
}

fn fixed(k: &str, word: &str) -> (String, String) {
    (k.to_string(), word.to_string())
}

/// The keys that work now, most useful first.
pub fn footer_items(s: &LessonState) -> Vec<(String, String)> {
    let levels = (
        format!(
            "{} / {}",
            KEYS.label_of(Action::Level1),
            KEYS.label_of(Action::Level2)
        ),
        "new exercise".to_string(),
    );
    match (s.mode, &s.exercise) {
        (Mode::Lesson, _) => {
            let mut v = vec![];
            if s.watching() {
                v.push(key(Action::Hint, "how"));
                v.push(key(Action::Skip, "skip step"));
            }
            v.push(fixed("PageDown", "scroll"));
            v.push(key(Action::Exercises, "exercises"));
            v.push(key(Action::Restart, "restart"));
            v
        }
        (Mode::Exercise, None) => vec![levels, key(Action::Exercises, "lesson")],
        (Mode::Exercise, Some(ex)) if ex.outcome.is_some() => vec![
            fixed("PageDown", "scroll"),
            levels,
            key(Action::Exercises, "lesson"),
        ],
        (Mode::Exercise, Some(ex)) => {
            // Short words: the five that matter fit 80 columns with the palette's key.
            let (space, enter, toggle) = if ex.fixing {
                ("change", "check", "name")
            } else {
                ("tick", "answer", "fix")
            };
            vec![
                fixed("Space", space),
                fixed("Enter", enter),
                key(Action::ToggleFix, toggle),
                fixed("PageDown", "scroll"),
                key(Action::Exercises, "lesson"),
                fixed("Up/Down", "move"),
                levels,
            ]
        }
    }
}

/// Whether `action`'s key does something in `s` (the step keys only in the lesson; the fix
/// switch only in an exercise that is not answered).
pub fn key_works(s: &LessonState, action: Action) -> bool {
    match action {
        Action::Hint | Action::Skip => s.mode == Mode::Lesson && s.watching(),
        Action::Restart => s.mode == Mode::Lesson,
        Action::ToggleFix => {
            s.mode == Mode::Exercise && s.exercise.as_ref().is_some_and(|e| e.outcome.is_none())
        }
        Action::Exercises | Action::Level1 | Action::Level2 => true,
    }
}
