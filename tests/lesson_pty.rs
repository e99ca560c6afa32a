//! The Lesson view end to end in a real terminal (80x24): the lesson walked from the first step to
//! the last by editing the request in the editor with keys, then one exercise of each level
//! solved (level 1 by naming the mistake, level 2 by fixing the client until the server's
//! verifier accepts), and the progress read back by `signscope learn score` (one file shared).

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use common::{value_after, Pty};
use signscope::learn::exercise::{generate, short_label, Exercise};
use signscope::learn::lesson::STEPS;

const F2: &str = "\x1bOQ";
const F8: &str = "\x1b[19~";
const TAB: &str = "\t";
const BACKTAB: &str = "\x1b[Z";
const END: &str = "\x1b[F";
const DOWN: &str = "\x1b[B";
const ENTER: &str = "\r";
const BACKSPACE: &[u8] = b"\x7f";
const CTRL_T: &str = "\x14";
const BODY_END: &str = "\x1b>";

/// The request view's fields in Tab order (focus starts on the body).
const FIELDS: [&str; 11] = [
    "url", "method", "path", "query", "prefix", "apikey", "restkey", "ctype", "algo", "ts", "body",
];

struct Editor {
    pty: Pty,
    focus: usize,
}

impl Editor {
    /// The workbench at 80x24 on a fresh config and data folder (kept while the test runs), its
    /// first frame drawn; focus on the body.
    fn start() -> (Editor, [tempfile::TempDir; 2]) {
        let config = tempfile::tempdir().unwrap();
        let data = tempfile::tempdir().unwrap();
        let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_signscope"));
        cmd.env("SIGNSCOPE_CONFIG_DIR", config.path());
        cmd.env("SIGNSCOPE_DATA_DIR", data.path());
        let pty = Pty::spawn(cmd, 80, 24);
        let ed = Editor { pty, focus: 10 };
        ed.pty
            .wait_for("the first frame", |s| s.contains("Canonical"));
        (ed, [config, data])
    }

    /// Move the focus to `field` with Tab / Shift-Tab, the short way round.
    fn go(&mut self, field: &str) {
        let to = FIELDS.iter().position(|f| *f == field).unwrap();
        let n = FIELDS.len();
        let fwd = (to + n - self.focus) % n;
        if fwd <= n / 2 {
            self.pty.send(TAB.repeat(fwd));
        } else {
            self.pty.send(BACKTAB.repeat(n - fwd));
        }
        self.focus = to;
    }

    /// Clear the focused one-line field (End, then Backspace) and type `text`.
    fn replace(&mut self, field: &str, old_len: usize, text: &str) {
        self.go(field);
        self.pty.send(END);
        self.pty.send(BACKSPACE.repeat(old_len));
        self.pty.send(text);
    }

    /// Show the lesson and wait until it is at `step` (0-based; STEPS.len() when done).
    fn lesson_at(&mut self, step: usize) -> String {
        self.pty.send(F8);
        let want = if step == STEPS.len() {
            format!("Lesson · {} steps done", STEPS.len())
        } else {
            format!(
                "step {} of {}: {}",
                step + 1,
                STEPS.len(),
                STEPS[step].title
            )
        };
        // The step's title and, after the first, the banner of the step just done (waiting for
        // both reads a whole frame, not one half drawn).
        let done = format!("✓ Step {step} done");
        self.pty.wait_for(&want, |s| {
            s.contains(&want) && (step == 0 || s.contains(&done))
        })
    }
}

/// The exercise on screen, rebuilt from its level, seed and the timestamp the server view shows
/// (an exercise is a pure function of the three).
fn exercise_on_screen(screen: &str, level: u8, seed: u64) -> Exercise {
    let ts = value_after(screen, "X-SVC-TIMESTAMP:").unwrap();
    let time = signscope::core::time::parse_timestamp(ts).unwrap().time;
    let ex = generate(level, seed, time);
    assert!(
        screen.contains(&format!("{} {}", ex.request.method, ex.request.path)),
        "{screen}"
    );
    ex
}

#[test]
fn the_lesson_is_walked_in_the_editor_and_an_exercise_of_each_level_is_solved() {
    let (mut ed, [config, data]) = Editor::start();

    ed.lesson_at(0);
    // Each step, done with keys in the request editor (F2); the lesson view notices it.
    let steps: [&dyn Fn(&mut Editor); 10] = [
        &|e| e.replace("method", 10, "POST"),
        &|e| {
            e.go("path");
            e.pty.send(format!("{END}/"));
        },
        &|e| e.replace("query", 0, "test=1"),
        &|e| e.replace("query", 10, ""),
        &|e| e.pty.send(CTRL_T),
        &|e| e.replace("ts", 30, "2020-01-01T00:00:00.000Z"),
        &|e| {
            e.go("apikey");
            e.pty.send(format!("{END}x"));
        },
        &|e| {
            e.go("restkey");
            e.pty.send(format!("{END}x"));
        },
        &|e| {
            e.go("body");
            e.pty.send(format!("{BODY_END} "));
        },
        &|e| e.pty.send("é"),
    ];
    for (i, step) in steps.iter().enumerate() {
        ed.pty.send(F2);
        step(&mut ed);
        ed.lesson_at(i + 1);
    }

    // Level 1: name the mistake from the list.
    ed.pty.send("1");
    let screen = ed
        .pty
        .wait_for("a level 1 exercise", |s| s.contains("(tick 1)"));
    let ex = exercise_on_screen(&screen, 1, 0);
    for (i, c) in ex.choices.iter().enumerate() {
        assert!(screen.contains(short_label(c)), "{screen}");
        if ex.mistakes.iter().any(|m| m.code() == c.code()) {
            ed.pty.send(" ");
        }
        if i + 1 < ex.choices.len() {
            ed.pty.send(DOWN);
        }
    }
    ed.pty.send(ENTER);
    let screen = ed.pty.wait_for("the answer", |s| s.contains("Right."));
    assert!(screen.contains("level 1: 1/1 solved"), "{screen}");

    // Level 2: fix the client's settings, reading each value as a learner would, until the
    // server accepts.
    ed.pty.send("2");
    let screen = ed
        .pty
        .wait_for("a level 2 exercise", |s| s.contains("(tick 2)"));
    let ex = exercise_on_screen(&screen, 2, 1);
    ed.pty.send("f");
    ed.pty
        .wait_for("the client's settings", |s| s.contains("fix them until"));
    for (i, knob) in ex.knobs().iter().enumerate() {
        // The value of its first option, the documented way.
        let mut first = knob.clone();
        first.chosen = 0;
        let right = &first.value();
        let row = |s: &str| {
            s.lines()
                .find(|l| l.contains(&format!("{:<13}", knob.name)))
                .map(str::to_string)
                .unwrap_or_default()
        };
        for _ in 0..knob.options.len() {
            let screen = ed.pty.screen();
            let line = row(&screen);
            let value = line
                .split_once(&format!("{:<13}", knob.name))
                .map(|(_, v)| v.trim_end_matches([' ', '│']).to_string())
                .unwrap_or_default();
            if value == *right {
                break;
            }
            ed.pty.send(" ");
            ed.pty.wait_for("the setting to change", |s| row(s) != line);
        }
        if i + 1 < ex.knobs().len() {
            ed.pty.send(DOWN);
            let name = format!("›{}", knob.name);
            ed.pty
                .wait_for("the cursor to move", |s| !s.contains(&name));
        }
    }
    ed.pty.send(ENTER);
    let screen = ed
        .pty
        .wait_for("the server to accept", |s| s.contains("Right."));
    assert!(screen.contains("level 2: 1/1 solved"), "{screen}");

    // Quit (the edited request asks first), then the CLI reads the same progress.
    ed.pty.send("q");
    ed.pty
        .wait_for("the quit question", |s| s.contains("unsaved edits"));
    ed.pty.send("y");
    assert!(ed.pty.wait_exit().success());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_signscope"))
        .args(["learn", "score"])
        .env("SIGNSCOPE_CONFIG_DIR", config.path())
        .env("SIGNSCOPE_DATA_DIR", data.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("lesson: 10 of 10 steps done"), "{text}");
    assert!(text.contains("level 1: 1/1 solved"), "{text}");
    assert!(text.contains("level 2: 1/1 solved"), "{text}");
}

/// A query typed with its '?' in the editor is the query the Lesson signs: the step is done, and
/// the Lesson's QUERY line is the editor's signing-text line, the '?' left out (`docs/signing.md`
/// S15: one signed request everywhere). Before, the Lesson signed `?test=1` and the step stayed
/// undone while the editor signed `test=1`.
#[test]
fn a_query_typed_with_its_mark_is_the_query_the_lesson_signs() {
    let (mut ed, _dirs) = Editor::start();
    ed.lesson_at(0);
    ed.pty.send(F2);
    ed.replace("method", 10, "POST");
    ed.lesson_at(1);
    ed.pty.send(F2);
    ed.go("path");
    ed.pty.send(format!("{END}/"));
    ed.lesson_at(2);
    ed.pty.send(F2);
    ed.replace("query", 0, "?test=1");
    // The editor's own line, once it has signed what was typed.
    let editor = ed.pty.wait_for("the editor's query line", |s| {
        s.lines()
            .any(|l| l.contains("QUERY") && l.contains("test=1"))
    });
    let editor_line = editor
        .lines()
        .find(|l| l.contains("QUERY") && l.contains("test=1"))
        .unwrap()
        .to_string();
    assert!(!editor_line.contains("?test=1"), "{editor}");
    let screen = ed.lesson_at(3);
    let query = screen
        .lines()
        .find(|l| l.contains("QUERY"))
        .unwrap_or_else(|| panic!("no QUERY line in the Lesson: {screen}"));
    assert!(query.contains("test=1\\n"), "{screen}");
    assert!(!query.contains("?test=1"), "{screen}");
}
