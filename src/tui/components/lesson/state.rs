//! The lesson view's state, messages and effects.

use crate::core::LineLabel;
use crate::learn::exercise::{Exercise, Knob};
use crate::learn::lesson::Draft;
use crate::learn::progress::Progress;
use crate::tui::components::request::state::RequestState;
use crate::tui::keymap::{bind, KeySpec, Table};

/// What the view shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    #[default]
    Lesson,
    Exercise,
}

/// A finished step: what changed in the signing text and the signature while it was done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Done {
    pub step: usize,
    pub changes: Vec<(LineLabel, String, String)>,
    pub signature_before: Option<String>,
    pub signature_after: Option<String>,
}

/// The answer to an exercise: right or not, and the diagnosis that explains it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub solved: bool,
    pub report: Vec<String>,
}

/// The exercise being solved.
#[derive(Clone, Debug)]
pub struct ExerciseState {
    pub exercise: Exercise,
    /// Ticked choices (name the mistake).
    pub picked: Vec<bool>,
    pub cursor: usize,
    /// Fix the client's settings instead of naming the mistake.
    pub fixing: bool,
    pub knobs: Vec<Knob>,
    pub knob_cursor: usize,
    /// The local server's answer to the last fixed request sent (`Ok`: accepted).
    pub last_send: Option<Result<(), String>>,
    pub outcome: Option<Outcome>,
    /// Rows of the diagnosis scrolled off the top.
    pub scroll: u16,
    /// Rows of what the server received scrolled off its pane's top (PageDown / PageUp
    /// before the answer).
    pub server_scroll: u16,
}

/// All state of the lesson view.
#[derive(Default)]
pub struct LessonState {
    pub mode: Mode,
    /// `None` until the runtime has read the progress file.
    pub progress: Option<Progress>,
    /// Why the progress file could not be read (the lesson then starts afresh, unsaved).
    pub progress_error: Option<String>,
    /// The request when the current step began, and as last seen.
    pub start: Option<Draft>,
    pub seen: Option<Draft>,
    pub done: Option<Done>,
    pub hint: bool,
    pub exercise: Option<ExerciseState>,
    /// Rows of the signing text scrolled off its pane's top (PageDown / PageUp).
    pub text_scroll: u16,
    /// The view's area on screen (set by the router before each key), so PageDown scrolls the
    /// signing text by its pane's height and stops at its last row.
    pub area: ratatui::layout::Rect,
}

impl LessonState {
    /// The step the learner is on (the number of steps when the lesson is done).
    pub fn step(&self) -> usize {
        self.progress
            .as_ref()
            .map_or(0, |p| p.lesson_step.min(crate::learn::lesson::STEPS.len()))
    }

    /// Whether the router should show this view every change of the request: the progress is
    /// read and a step is open. (Building a draft copies the request, body included, so a
    /// workbench that never opened the lesson pays nothing.)
    pub fn watching(&self) -> bool {
        self.progress.is_some() && self.step() < crate::learn::lesson::STEPS.len()
    }
}

/// The request being edited as the lesson sees it.
pub fn draft_of(req: &RequestState) -> Draft {
    Draft {
        method: req.method.text().to_string(),
        path: req.path.text().to_string(),
        query: req.query.text().to_string(),
        header_prefix: req.prefix.text().to_string(),
        timestamp: req.timestamp.text().to_string(),
        timestamp_frozen: !req.ts_live,
        api_key: req.api_key.text().to_string(),
        rest_key: req.key().expose().to_string(),
        auth_algo: req.auth_algo.text().to_string(),
        content_type: req.content_type.text().to_string(),
        body: req.body.bytes().to_vec(),
    }
}

/// Inputs of the lesson view.
#[derive(Debug)]
pub enum LessonMsg {
    /// A key while the view is shown; `now` is the clock the request view last heard.
    Key(crossterm::event::KeyEvent, chrono::DateTime<chrono::Utc>),
    /// The view was opened (the progress is read the first time).
    Opened,
    /// The progress file was read (or why not).
    ProgressLoaded(Result<Progress, String>),
    /// The progress file could not be written (why).
    SaveFailed(String),
    /// A palette action.
    Run(Action, chrono::DateTime<chrono::Utc>),
}

/// What the lesson view asks the runtime (or the router) to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonEffect {
    /// Read `learn.json` from the data directory.
    LoadProgress,
    /// Write it.
    SaveProgress(Progress),
    /// A message for the status line.
    Status(String),
}

/// Everything the lesson view does by key or by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Hint,
    Skip,
    Restart,
    Exercises,
    Level1,
    Level2,
    ToggleFix,
}

impl crate::tui::keymap::Kinded for Action {
    fn kind(&self) -> crate::tui::keymap::Kind {
        use crate::tui::keymap::Kind;
        match self {
            Action::Hint => Kind::Inspect,
            Action::Skip | Action::Exercises => Kind::Navigate,
            Action::Restart | Action::Level1 | Action::Level2 => Kind::Load,
            Action::ToggleFix => Kind::Toggle,
        }
    }
}

/// The lesson view's keys: the dispatcher, help and the palette read this table.
pub const KEYS: Table<Action> = Table::new(
    "lesson",
    &[
        bind(
            Action::Hint,
            &[KeySpec::char('h')],
            "lesson: show how to do this step",
            "show how to do this step in the editor",
        ),
        bind(
            Action::Skip,
            &[KeySpec::char('n')],
            "lesson: skip this step",
            "skip to the next step",
        ),
        bind(
            Action::Restart,
            &[KeySpec::char('r')],
            "lesson: start again from the first step",
            "start the lesson again from the first step",
        ),
        bind(
            Action::Exercises,
            &[KeySpec::char('x')],
            "lesson / exercises",
            "switch between the lesson and the exercises",
        ),
        bind(
            Action::Level1,
            &[KeySpec::char('1')],
            "new exercise, level 1 (one mistake)",
            "new exercise at level 1: one mistake",
        ),
        bind(
            Action::Level2,
            &[KeySpec::char('2')],
            "new exercise, level 2 (two mistakes)",
            "new exercise at level 2: two mistakes at once",
        ),
        bind(
            Action::ToggleFix,
            &[KeySpec::char('f')],
            "exercise: name the mistake / fix the client",
            "exercise: name the mistake, or fix the client until the server accepts",
        ),
    ],
);

/// Help rows for keys that depend on what is shown.
pub const CONTEXT_KEYS: &[(&str, &str)] = &[
    (
        "F2",
        "Request view: edit the request; the lesson follows every change",
    ),
    ("Up / Down", "exercise: move in the list"),
    (
        "Space",
        "exercise: tick a mistake, or change the client's setting",
    ),
    (
        "Enter",
        "exercise: answer, or check the fixed request (with the local server's verifier, in \
         process: nothing is sent)",
    ),
    (
        "PageDown / PageUp",
        "scroll the signing text (lesson), what the server received (exercise) or the \
         diagnosis (answered exercise; Up / Down, Home / End too)",
    ),
];

/// How to do each step in the workbench (the CLI's hints name its line commands).
pub const TUI_HINTS: [&str; 10] = [
    "F2, Tab to Method, Up/Down to POST (or type it)",
    "F2, Tab to Path, type '/' at its end",
    "F2, Tab to Query, type test=1",
    "F2, Tab to Query, delete it (Ctrl-U clears the field)",
    // Ctrl-T is a Request-view key: from the Lesson view it does nothing, hence the F2.
    "F2, Ctrl-T freezes the timestamp (typing in it freezes it too)",
    // Typed into the field as it is, the text would be appended to the live timestamp.
    "F2, Tab to Timestamp, Ctrl-U clears it, type 2020-01-01T00:00:00.000Z",
    "F2, Tab to API key, change it",
    "F2, Tab to REST key, change it",
    "F2, Tab to Body, End of the body, type a space",
    "F2, Tab to Body, type é",
];
