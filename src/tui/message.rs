//! Everything that can happen to the workbench (Messages) and everything it can ask the runtime
//! to do (Commands). `update` turns one into the other; only the runtime does I/O.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use crossterm::event::{KeyEvent, MouseEvent};

use super::app::{FormattedBody, RequestFields, ResponseView, SignedView};
use super::components::events::{EventsEffect, EventsMsg};
use super::components::history::{HistoryEffect, HistoryMsg};
use super::components::profiles::{ProfilesEffect, ProfilesMsg};
use super::signing::SignJob;
use crate::core::Secret;

/// Inputs to `update`.
#[derive(Debug)]
pub enum Message {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Paste(String),
    Resize(u16, u16),
    /// The clock, once a second while the live timestamp is visible (and once at start).
    Tick(DateTime<Utc>),
    /// A signing job finished.
    Signed {
        id: u64,
        result: Result<SignedView, String>,
    },
    /// The JSON check of body revision `rev`.
    JsonChecked {
        rev: u64,
        error: Option<String>,
    },
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
    /// A clipboard copy finished: what was copied, or why not.
    Copied(Result<String, String>),
    /// A profile was loaded (switch) or failed to load.
    ProfileLoaded(Result<LoadedProfile, String>),
    /// The list of profiles for the switch popup.
    ProfileList(Result<Vec<String>, String>),
    /// A profile was saved (its name) or not.
    ProfileSaved(Result<String, String>),
    /// The diagnose view's report: verdict ok?, lines.
    Diagnosed {
        ok: bool,
        lines: Vec<String>,
    },
    /// A captured request parsed for loading into the editor, with its timestamp.
    LoadRequest {
        fields: Box<RequestFields>,
        timestamp: String,
    },
    /// SIGTERM or SIGHUP: leave now, restoring the terminal.
    Terminate,
    /// Messages of the issue-7 components.
    Events(EventsMsg),
    History(HistoryMsg),
    Profiles(ProfilesMsg),
}

/// A profile loaded by the runtime.
#[derive(Clone, Debug)]
pub struct LoadedProfile {
    pub name: String,
    pub is_demo: bool,
    /// The collector base URL (the embedded server's for the demo) and whether it is local.
    pub analytics_url: String,
    pub local: bool,
    /// The last edited event batch.
    pub events: Option<String>,
    /// The profile itself (for the profile manager).
    pub profile: Option<Box<crate::store::Profile>>,
    pub fields: RequestFields,
    pub key: Option<Secret>,
    pub key_source: String,
}

/// What to send: everything needed to sign it again at send time.
#[derive(Clone, Debug)]
pub struct SendJob {
    pub id: u64,
    /// The full URL (for messages).
    pub url: String,
    /// The base URL the profile names (scheme://host:port).
    pub base_url: String,
    /// Sign with the clock at send time (live) or with `sign.timestamp` (frozen).
    pub live_timestamp: bool,
    pub sign: SignJob,
}

/// Effects `update` asks for; the runtime executes them and answers with Messages.
#[derive(Debug)]
pub enum Command {
    Sign(Box<SignJob>),
    Send(Box<SendJob>),
    Copy(String),
    EditBody(String),
    ListProfiles,
    LoadProfile(String),
    SaveProfile {
        name: String,
        fields: Box<RequestFields>,
        /// A key typed in the workbench (stored in the profile file, mode 0600); None keeps the
        /// profile's key source.
        typed_key: Option<Secret>,
    },
    /// Run verify + diagnose on a pasted capture.
    Diagnose {
        text: String,
        key: Secret,
        prefix: String,
    },
    /// Parse a pasted capture and load it into the request editor.
    ParseCapture {
        text: String,
        prefix: String,
    },
    /// Effects of the issue-7 components.
    Events(EventsEffect),
    History(HistoryEffect),
    Profiles(ProfilesEffect),
    ReloadHistory,
    ReloadProfiles,
    Quit,
}
