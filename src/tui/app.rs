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
pub use super::global_keys::{GlobalAction, GLOBAL_COPY_KEYS, GLOBAL_KEYS};
use super::layout::View;
use super::model::{CurrentProfile, EditorRequest, KeyInfo};
pub use super::popups::Popup;
pub use super::status::{MessageLog, LOG_MESSAGES};

/// All state of the workbench.
pub struct App {
    pub view: View,
    pub popup: Option<Popup>,
    /// The status line: the last message of any view or popup. Set only by [`App::say`], the
    /// one status channel (every view's `Effect::Status` reaches it through the router).
    pub status: String,
    /// Every status message, for the message log (Alt-M).
    pub log: MessageLog,
    /// Quit once the profile save (asked from the quit popup) succeeded.
    pub quit_after_save: bool,
    /// Quit once the profile editor's save (asked from the quit popup) is done; the request
    /// and Events edits, if any, are saved after it.
    pub quit_after_draft_save: bool,
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
    /// Messages for the router to handle once the current one is done: what a part of the
    /// router outside `update.rs` (a popup, the unsaved-edits question) asks of a view.
    pub queued: std::collections::VecDeque<crate::tui::message::Message>,

    /// The profile being edited and sent with (its one owner in the workbench).
    pub profile: CurrentProfile,
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
            quit_after_draft_save: false,
            load_after_save: None,
            quit: false,
            sent_again: None,
            theme: crate::tui::theme::Theme::new(false),
            size: (80, 24),
            queued: Default::default(),
            profile: CurrentProfile {
                name: profile_name.to_string(),
                is_demo,
            },
            request: RequestState::new(request, key, now),
            diagnose: DiagnoseState::default(),
            events: EventsState::starter(),
            history: Default::default(),
            profiles: Default::default(),
            traffic: Default::default(),
            lesson: Default::default(),
        }
    }

    /// Say `text` in the status line and keep it in the message log (nothing when empty).
    pub fn say(&mut self, text: String) {
        if text.is_empty() {
            return;
        }
        self.log.push(text.clone());
        self.status = text;
    }

    /// An edit was made: the status line's sentence (about an earlier change, or from another
    /// view) is stale and leaves the line; the message log (Alt-M) keeps it.
    pub fn edited(&mut self) {
        self.status.clear();
    }

    /// Hand `msg` to the router once the message being handled is done.
    pub fn send(&mut self, msg: crate::tui::message::Message) {
        self.queued.push_back(msg);
    }

    /// What the popups read of the workbench (a popup never sees the App itself).
    pub fn popup_ctx(&self) -> super::popups::Ctx<'_> {
        super::popups::Ctx {
            view: self.view,
            size: self.size,
            log: &self.log,
            request: &self.request,
            events: &self.events,
            history: &self.history,
            profiles: &self.profiles,
        }
    }

    /// Whether the focused widget takes text (so `?` and `q` are typed, not shortcuts).
    pub fn text_input_focused(&self) -> bool {
        match self.view {
            View::Request => !self.request.normal_mode,
            View::Diagnose => !self.diagnose.normal_mode,
            View::Events => self.events.is_text_input_focused(),
            View::History => self.history.is_text_input_focused(),
            View::Profiles => self.profiles.is_text_input_focused(),
            View::Traffic => self.traffic.is_text_input_focused(),
            View::Lesson => false,
        }
    }

    /// Whether the profile has unsaved edits: its requests, a typed REST key, or the Events
    /// view's batch (quitting and loading another profile ask first).
    pub fn unsaved(&self) -> bool {
        self.request.unsaved() || self.events.unsaved()
    }

    /// Whether quitting loses something typed: the profile's unsaved edits or the profile
    /// editor's changes (the quit question names which).
    pub fn unsaved_anywhere(&self) -> bool {
        self.unsaved() || self.profiles.unsaved_draft().is_some()
    }

    /// Whether the terminal is below the size the views are laid out for (the "too small"
    /// screen is drawn instead, and keys are not read).
    pub fn too_small(&self) -> bool {
        crate::tui::layout::too_small(ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1))
    }

    /// Whether the runtime should send 1 s ticks: only while the timestamp is live and on screen.
    pub fn wants_tick(&self) -> bool {
        self.request.ts_live && self.view == View::Request && !self.quit
    }

    /// Whether the clock the App last heard of is in another second than `now`: the runtime then
    /// ticks before applying input, so a send from any view (a re-send from Traffic or History,
    /// the Lesson, Ctrl-G at once on coming back to the Request view) signs with the current
    /// time, and a live timestamp is current again the moment the Request view is shown.
    pub fn clock_is_stale(&self, now: DateTime<Utc>) -> bool {
        now.timestamp() != self.request.now.timestamp()
    }
}
