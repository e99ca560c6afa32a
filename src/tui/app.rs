//! The Model: every piece of state the workbench shows, one field per component. Views read it;
//! only `update` changes it.

use chrono::{DateTime, Utc};

use super::components::diagnose::DiagnoseState;
use super::components::events::EventsState;
use super::components::history::HistoryState;
use super::components::lesson::LessonState;
use super::components::profiles::ProfilesState;
use super::components::request::RequestState;
use super::components::traffic::TrafficState;
use super::keymap::{Binding, KeySpec, Kind, Kinded, Table};
use super::layout::View;
use super::model::{EditorRequest, KeyInfo};
use super::widgets::LineInput;

/// A popup over every view (the router's; a component's own prompts are its state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Popup {
    /// The key bindings of the current view, scrolled down by `scroll` rows (a small terminal
    /// does not show them all).
    Help {
        scroll: u16,
    },
    ConfirmQuit,
    /// Unsaved edits would be lost by this load: save, discard or cancel
    /// (`crate::tui::unsaved`).
    ConfirmLoad(Box<crate::tui::model::PendingLoad>),
    /// Pick a profile: names and the selected index.
    Profiles {
        names: Vec<String>,
        selected: usize,
    },
    /// The command palette: the actions of the current view whose name contains the filter,
    /// and the selected one among them.
    Palette {
        filter: LineInput,
        selected: usize,
    },
    /// The message log, scrolled to row `scroll` of its wrapped text (clamped when drawn, so
    /// `u16::MAX` shows the newest messages).
    Messages {
        scroll: u16,
    },
    /// The copy menu (Alt-Y): what this view can copy, one letter each
    /// (`crate::tui::palette::copy_entries`).
    Copy,
    /// Copy as code: the languages (`crate::codegen::Lang::ALL`) and the selected one.
    CopyCode {
        selected: usize,
    },
    /// The SDK's indexing operations (`core::vendor::SDK_OPERATIONS`) as method + path presets.
    Operations {
        selected: usize,
    },
}

/// How many status messages the message log keeps.
pub const LOG_MESSAGES: usize = 100;

/// The last [`LOG_MESSAGES`] status messages of every view, in full (the status line and a
/// view's footer show only the latest, cut to the width).
#[derive(Clone, Debug, Default)]
pub struct MessageLog {
    messages: std::collections::VecDeque<String>,
    /// The last text seen from each source, so a message is logged once when it appears.
    seen: Vec<String>,
}

impl MessageLog {
    /// Log the current text of source `i` when it is new and not empty.
    pub fn observe(&mut self, i: usize, text: &str) {
        if self.seen.len() <= i {
            self.seen.resize(i + 1, String::new());
        }
        if text.is_empty() || self.seen[i] == text {
            return;
        }
        self.seen[i] = text.to_string();
        self.push(text.to_string());
    }

    pub fn push(&mut self, text: String) {
        if self.messages.len() == LOG_MESSAGES {
            self.messages.pop_front();
        }
        self.messages.push_back(text);
    }

    /// Oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &String> {
        self.messages.iter()
    }

    pub fn len(&self) -> usize {
        self.messages.len()
    }

    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
}

/// All state of the workbench.
pub struct App {
    pub view: View,
    pub popup: Option<Popup>,
    /// The status line (the last message of any view).
    pub status: String,
    /// Every status message, for the message log (Alt-M).
    pub log: MessageLog,
    /// Quit once the profile save (asked from the quit popup) succeeded.
    pub quit_after_save: bool,
    /// The load to run once the profile save (asked from the unsaved-edits question) succeeded.
    pub load_after_save: Option<Box<crate::tui::model::PendingLoad>>,
    pub quit: bool,
    /// The send of a history entry under way (its id and what was sent), answered in the
    /// status line.
    pub sent_again: Option<(u64, String)>,
    /// The one set of styles every view draws with (`NO_COLOR` is read once, at start).
    pub theme: crate::tui::theme::Theme,
    /// Terminal size (columns, rows), for mouse hit testing with the same layout the view uses.
    pub size: (u16, u16),

    pub request: RequestState,
    pub diagnose: DiagnoseState,
    pub events: EventsState,
    pub history: HistoryState,
    pub profiles: ProfilesState,
    pub traffic: TrafficState,
    pub lesson: LessonState,
}

impl App {
    pub fn new(
        profile_name: &str,
        is_demo: bool,
        request: EditorRequest,
        key: KeyInfo,
        now: DateTime<Utc>,
    ) -> Self {
        App {
            view: View::Request,
            popup: None,
            status: String::new(),
            log: MessageLog::default(),
            quit_after_save: false,
            load_after_save: None,
            quit: false,
            sent_again: None,
            theme: crate::tui::theme::Theme::new(false),
            size: (80, 24),
            request: RequestState::new(profile_name, is_demo, request, key, now),
            diagnose: DiagnoseState::default(),
            events: Default::default(),
            history: Default::default(),
            profiles: Default::default(),
            traffic: Default::default(),
            lesson: Default::default(),
        }
    }

    /// Whether the focused widget takes text (so `?` and `q` are typed, not shortcuts).
    pub fn text_input_focused(&self) -> bool {
        match self.view {
            View::Request => self.request.text_input_focused(),
            View::Diagnose => !self.diagnose.normal_mode,
            View::Events => self.events.is_text_input_focused(),
            View::History => self.history.is_text_input_focused(),
            View::Profiles => self.profiles.is_text_input_focused(),
            View::Traffic => self.traffic.is_text_input_focused(),
            View::Lesson => false,
        }
    }

    /// Whether the runtime should send 1 s ticks: only while the timestamp is live and on screen.
    pub fn wants_tick(&self) -> bool {
        self.request.ts_live && self.view == View::Request && !self.quit
    }
}

/// What the router does by key or by name, in every view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalAction {
    Help,
    Palette,
    Messages,
    /// The copy menu: Alt-Y, then one letter.
    CopyMenu,
    CopyCode,
    Operations,
    Quit,
    Show(View),
}

impl Kinded for GlobalAction {
    fn kind(&self) -> Kind {
        match self {
            GlobalAction::Help
            | GlobalAction::Palette
            | GlobalAction::Messages
            | GlobalAction::Operations => Kind::Open,
            GlobalAction::CopyMenu | GlobalAction::CopyCode => Kind::Copy,
            GlobalAction::Quit => Kind::Quit,
            GlobalAction::Show(_) => Kind::Navigate,
        }
    }
}

const fn global(
    action: GlobalAction,
    keys: &'static [KeySpec],
    name: &'static str,
    help: &'static str,
) -> Binding<GlobalAction> {
    Binding {
        action,
        keys,
        name,
        help,
    }
}

/// Keys that work in every view: the router, help and the palette read this table.
pub const GLOBAL_KEYS: Table<GlobalAction> = Table::new("global", &[
    global(
        GlobalAction::Help,
        &[KeySpec::f(1), KeySpec::alt('1')],
        "help",
        "this help (? too, when no text field has focus)",
    ),
    global(
        GlobalAction::Palette,
        &[KeySpec::ctrl('k')],
        "command palette",
        "command palette: every action of this view, run by name",
    ),
    global(
        GlobalAction::Messages,
        &[KeySpec::alt('m')],
        "message log",
        "message log: the last 100 status messages in full",
    ),
    global(
        GlobalAction::CopyMenu,
        &[KeySpec::alt('y')],
        "copy…",
        "copy menu: what this view can copy, one letter each (Alt-Y s, Alt-Y c ...; Esc cancels)",
    ),
    global(
        GlobalAction::CopyCode,
        &[KeySpec::alt('p')],
        "copy the request as code",
        "copy as code: a program that signs the request being edited (pick one of 8 languages)",
    ),
    global(
        GlobalAction::Operations,
        &[KeySpec::alt('o')],
        "pick an indexing operation",
        "indexing operation presets: the SDK's method + path (batch, delete, attributes)",
    ),
    global(
        GlobalAction::Quit,
        &[KeySpec::ctrl('c'), KeySpec::ctrl('q')],
        "quit",
        "quit (asks only when there are unsaved edits; q too, when no text field has focus)",
    ),
    global(
        GlobalAction::Show(View::Request),
        &[KeySpec::f(2), KeySpec::alt('2')],
        "go to the Request view",
        "Request view",
    ),
    global(
        GlobalAction::Show(View::Events),
        &[KeySpec::f(3), KeySpec::alt('3')],
        "go to the Events view",
        "Events view",
    ),
    global(
        GlobalAction::Show(View::History),
        &[KeySpec::f(4), KeySpec::alt('4')],
        "go to the History view",
        "History view",
    ),
    global(
        GlobalAction::Show(View::Profiles),
        &[KeySpec::f(5), KeySpec::alt('5')],
        "go to the Profiles view",
        "Profiles view",
    ),
    global(
        GlobalAction::Show(View::Diagnose),
        &[KeySpec::f(6), KeySpec::alt('6')],
        "go to the Diagnose view",
        "Diagnose view",
    ),
    global(
        GlobalAction::Show(View::Traffic),
        &[KeySpec::f(7), KeySpec::alt('7')],
        "go to the Traffic view",
        "Traffic view: the requests reaching the local server, live",
    ),
    global(
        GlobalAction::Show(View::Lesson),
        &[KeySpec::f(8), KeySpec::alt('8')],
        "go to the Lesson view",
        "Lesson view: the signing scheme step by step, and exercises",
    ),
]);

/// What the copy menu (Alt-Y, then one letter) offers in every view, after the view's own.
pub const GLOBAL_COPY_KEYS: Table<GlobalAction> = Table::new(
    "global.copy",
    &[global(
        GlobalAction::CopyCode,
        &[KeySpec::char('p')],
        "copy the request as a program",
        "copy the request being edited as a program that signs it (pick one of 8 languages)",
    )],
);
