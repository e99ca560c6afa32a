//! Everything that can happen to the workbench (Messages): terminal input, ticks, the answers
//! of the runtime that more than one view takes (a profile loaded or saved), and one message
//! per view wrapping that view's own (`components/*`). Only the runtime does I/O.

use chrono::{DateTime, Utc};
use crossterm::event::{KeyEvent, MouseEvent};

use crate::tui::components::diagnose::DiagnoseMsg;
use crate::tui::components::events::EventsMsg;
use crate::tui::components::history::HistoryMsg;
use crate::tui::components::lesson::LessonMsg;
use crate::tui::components::profiles::ProfilesMsg;
use crate::tui::components::request::RequestMsg;
use crate::tui::components::traffic::TrafficMsg;
use crate::tui::model::{EditorRequest, LoadedProfile};

/// Inputs to `update`.
#[derive(Debug)]
pub enum Message {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Paste(String),
    Resize(u16, u16),
    /// The clock, once a second while the live timestamp is visible (and once at start).
    Tick(DateTime<Utc>),
    /// A clipboard copy finished: what was copied, or why not.
    Copied(Result<String, String>),
    /// A sentence for the status line (e.g. a forward URL of the profile just opened that
    /// cannot be used).
    Status(String),
    /// A profile was loaded (switch) or failed to load.
    ProfileLoaded(Result<LoadedProfile, String>),
    /// The profile in use was renamed in the profile manager (its file moved).
    ProfileRenamed {
        from: String,
        to: String,
    },
    /// The list of profiles for the switch popup.
    ProfileList(Result<Vec<String>, String>),
    /// A profile was saved (its name) or not.
    ProfileSaved(Result<String, String>),
    /// A captured request parsed for loading into the editor, with its timestamp.
    LoadRequest {
        request: Box<EditorRequest>,
        timestamp: String,
    },
    /// SIGTERM or SIGHUP: leave now, restoring the terminal.
    Terminate,
    /// Messages of each view (`crate::tui::components`): its input, and the answers to its
    /// effects.
    Request(RequestMsg),
    Diagnose(DiagnoseMsg),
    Events(EventsMsg),
    History(HistoryMsg),
    Profiles(ProfilesMsg),
    /// Messages of the traffic view (its records arrive from the runtime's stream feed).
    Traffic(TrafficMsg),
    Lesson(LessonMsg),
}
