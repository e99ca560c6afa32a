//! Messages of the request view (input, and the runtime's answers to its effects) and the
//! effects it asks the runtime for.

use std::sync::Arc;

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::layout::Rect;

use super::keys::Action;
use crate::core::Secret;
use crate::tui::component::{Clip, KeyRead};
use crate::tui::effect::{ProfileSave, SendJob};
use crate::tui::model::{FormattedBody, LoadedProfile, RequestLoad, ResponseView};
use crate::tui::signing::{SignAnswer, SignJob};

/// Messages of the request view.
#[derive(Debug)]
pub enum RequestMsg {
    Key(KeyEvent),
    /// A mouse event and the whole screen (the view's layout is computed from it).
    Mouse(MouseEvent, Rect),
    /// Pasted text, line ends already as the user copied them.
    Paste(String),
    /// The clock (a live timestamp follows it).
    Tick(chrono::DateTime<chrono::Utc>),
    /// Run an action of the view's table (from the copy menu or the command palette).
    Run(Action),
    /// What the signing worker answered: a signature, a JSON check, a body judgement.
    Signing(SignAnswer),
    /// A send finished (the response or one sentence saying why not).
    SendDone {
        id: u64,
        result: Result<ResponseView, String>,
    },
    /// The pretty-printed response body of send `id`, formatted off the draw path.
    ResponseFormatted {
        id: u64,
        body: Arc<FormattedBody>,
    },
    /// The external editor returned (the new body, or why it failed).
    EditorDone(Result<String, String>),
    /// The profile's REST key, read off the UI thread for job `id` (or why not, in one
    /// sentence naming the source).
    KeyResolved {
        id: u64,
        result: Result<Secret, String>,
    },
    /// A profile was loaded: its request, key and saved requests replace the editor's.
    ProfileLoaded(Box<LoadedProfile>),
    /// A request from elsewhere.
    LoadRequest(RequestLoad),
    /// Save the profile under its name (the demo profile asks for one first).
    Save,
    /// The profile was saved under this name.
    Saved(String),
    /// The save failed (the edits stay).
    SaveFailed,
    /// Esc anywhere while the REST key is being read: stop the read.
    CancelKeyRead,
    /// The profile manager saved the profile in use with other account values: the fields the
    /// user has not edited take them (the file has them, so they are not unsaved edits).
    AccountSaved(Box<AccountChange>),
    /// The body's cursor to a problem's place (Enter in the list of the body's problems).
    GoToProblem(Box<crate::core::indexing_body::BodyProblem>),
    /// Set the method and path (an SDK operation preset); `what` is said in the status line.
    Preset {
        method: &'static str,
        path: &'static str,
        what: String,
    },
}

/// The account values of the profile in use before and after a save from the profile manager.
#[derive(Debug)]
pub struct AccountChange {
    pub name: String,
    /// (before, after) of the indexing URL, header prefix and API key as the fields show them.
    pub url: (String, String),
    pub prefix: (String, String),
    pub api_key: (String, String),
    /// The new REST key source when it changed (read off the UI thread).
    pub key_source: Option<crate::store::KeySource>,
}

impl AccountChange {
    /// Whether the request view has anything to follow.
    pub fn changes_anything(&self) -> bool {
        self.url.0 != self.url.1
            || self.prefix.0 != self.prefix.1
            || self.api_key.0 != self.api_key.1
            || self.key_source.is_some()
    }
}

/// What the request view asks the runtime for.
#[derive(Debug)]
pub enum RequestEffect {
    Sign(Box<SignJob>),
    Send(Box<SendJob>),
    /// Open the body in `$EDITOR`; answered with [`RequestMsg::EditorDone`].
    EditBody(String),
    /// Copy `text`; `what` names it in the status line ("the signature").
    Copy(Clip),
    /// The profile switcher: list the profiles.
    ListProfiles,
    /// Save the profile (the router adds the Events view's unsaved batch).
    SaveProfile(Box<ProfileSave>),
    /// Read the REST key from `source` off the UI thread (job `id`); answered with
    /// [`RequestMsg::KeyResolved`].
    ResolveKey(KeyRead),
    /// Stop the key read `id`.
    CancelKey(u64),
    /// Stop the send `id`: its task is dropped, with its connection.
    CancelSend(u64),
    /// Open the list of the body's problems (`RequestState::body_state`'s judgement).
    ShowProblems,
    /// A sentence for the status line.
    Status(String),
}
