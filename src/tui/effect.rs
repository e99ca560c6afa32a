//! Everything `update` can ask the runtime to do. Components return these (or their own effect
//! types, wrapped as they are) and the runtime runs them: no effect is translated on the way.

use crate::core::{Secret, SignedRequest};
use crate::tui::component::{Clip, KeyRead};
use crate::tui::components::diagnose::DiagnoseEffect;
use crate::tui::components::events::EventsEffect;
use crate::tui::components::history::HistoryEffect;
use crate::tui::components::lesson::LessonEffect;
use crate::tui::components::profiles::ProfilesEffect;
use crate::tui::components::traffic::TrafficEffect;
use crate::tui::model::EditorRequest;
use crate::tui::signing::SignJob;

/// What to send: the signed request the view shows, sent as it is (nothing is signed again).
#[derive(Clone, Debug)]
pub struct SendJob {
    pub id: u64,
    /// The profile's saved request it is (named in the history entry).
    pub request_name: Option<String>,
    /// The full URL (for messages).
    pub url: String,
    /// The base URL the profile names (scheme://host:port).
    pub base_url: String,
    /// The REST key it was signed with (redacted from the history record).
    pub key: Secret,
    pub signed: std::sync::Arc<SignedRequest>,
}

/// A save of the profile: what the request view holds, and (added by the router) what the
/// Events view has unsaved. One shape from the key to the runtime.
#[derive(Debug)]
pub struct ProfileSave {
    pub name: String,
    /// Saved under a new name (Alt-S): a new file, never over the one the profile came from.
    pub as_new: bool,
    /// Every request of the profile, in order (the editor's one among them, also in
    /// `request`), and the index of the editor's one; empty keeps the profile's requests.
    pub requests: Vec<crate::store::SavedRequest>,
    pub selected_request: usize,
    pub request: EditorRequest,
    /// A key typed in the workbench, to keep, only when the user chose that when saving: in
    /// the operating system's key store when `typed_key_to_os_store`, else in the profile file
    /// (mode 0600); None keeps the profile's key source.
    pub typed_key: Option<Secret>,
    /// The typed key goes to the operating system's key store as `keyring:signscope/NAME`,
    /// and the profile keeps that reference (`docs/profiles.md`).
    pub typed_key_to_os_store: bool,
    /// The Events view's batch, when it has unsaved edits (the profile's `events`); None keeps
    /// the profile's.
    pub events: Option<String>,
    /// The Events view's analytics URL, when it was edited there (the profile's
    /// `analytics_url`); None keeps the profile's.
    pub analytics_url: Option<String>,
}

/// Effects `update` asks for; the runtime executes them and answers with Messages.
#[derive(Debug)]
pub enum Command {
    Sign(Box<SignJob>),
    Send(Box<SendJob>),
    /// Copy `text` to the clipboard, said in the status line as `what` ("the python
    /// program"): every copy of every view is this one command.
    Copy(Clip),
    EditBody(String),
    ListProfiles,
    LoadProfile(String),
    /// Save the editor's request in the profile (the Events view's unsaved batch with it).
    SaveProfile(Box<ProfileSave>),
    /// The Diagnose view's effects as it asked them (a capture to judge, to load into the
    /// editor, a body file to read), with what only the router knows: the REST key a diagnosis
    /// verifies with (the profile's, or the demo account's when the view chose it) and the
    /// profile's header prefix, which a capture is read with.
    Diagnose {
        effect: DiagnoseEffect,
        key: Secret,
        prefix: String,
    },
    /// Effects of the events, history and profiles views, run as they come.
    Events(EventsEffect),
    History(HistoryEffect),
    Profiles(ProfilesEffect),
    /// The lesson view's progress file (read / write).
    Lesson(LessonEffect),
    ReloadHistory,
    ReloadProfiles,
    /// Read the profile's REST key from `source` off the UI thread (job `id`), a command for at
    /// most [`crate::tui::KEY_COMMAND_TIMEOUT`]; answered with `RequestMsg::KeyResolved`.
    ResolveKey(KeyRead),
    /// Stop the key read `id` (Esc): a command still running is killed.
    CancelKey(u64),
    /// Stop the send `id` (Alt-G): its task is aborted, which closes its connection.
    CancelSend(u64),
    /// Follow the live stream of the server at this base URL for the traffic view.
    FollowTraffic(String),
    /// The Traffic view's file effects as it asked them (open a HAR, write one, write what a
    /// server received), with the profile's REST key, which the requests of a HAR opened are
    /// verified with, as the local server would (`docs/har.md`).
    Traffic {
        effect: TrafficEffect,
        key: Secret,
    },
    Quit,
}
