//! Messages of the events view (input, and the results of its effects) and the effects it asks
//! the runtime for.

use std::path::PathBuf;

use bytes::Bytes;
use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::layout::Rect;

use super::validate::{ValidateJob, Validated};
use crate::tui::component::Clip;

/// The result of a send, as the runtime reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SendReport {
    pub status: u16,
    pub body: String,
    pub elapsed_ms: u64,
}

/// Messages of the events view: input, and the results of its effects.
#[derive(Clone, Debug)]
pub enum EventsMsg {
    Key(KeyEvent),
    /// Run an action of the view's table (from the copy menu or the command palette).
    Run(super::keys::Action),
    /// Pasted text: goes to the path prompt, the cell being edited, the focused field (one
    /// line each) or the raw JSON editor (as it is).
    Paste(String),
    /// A mouse event and the view's area on screen (for hit testing with [`layout`]).
    Mouse(MouseEvent, Rect),
    /// A validation job finished (see [`ValidateJob`]); ignored unless it is for the current
    /// revision of the batch.
    Validated(Box<Validated>),
    /// The active profile's collector and public key (`local`: the embedded server, whose
    /// inspection API shows what was stored).
    SetTarget {
        analytics_url: String,
        api_key: String,
        local: bool,
    },
    /// Put a batch (JSON text) into the view, e.g. from history or a profile.
    LoadBatch(String),
    /// Put the starter batch in place of an edited one whose edits a profile load discarded
    /// (the profile loaded holds no batch of its own). Through [`update`](super::update) like
    /// every change of the batch, so its validation runs and the view settles by itself.
    Starter,
    /// A file read for the view (Ctrl-O): the router asks before it replaces an unsaved batch
    /// and then hands it on as [`EventsMsg::LoadFile`].
    FileLoaded {
        path: PathBuf,
        text: String,
    },
    /// Put the batch read from `path` into the view (the load was asked for and agreed to).
    LoadFile {
        path: PathBuf,
        text: String,
    },
    FileSaved(PathBuf),
    /// A save to a new path found a file there (nothing was written).
    FileExists(PathBuf),
    FileError(String),
    Sent(Result<SendReport, String>),
    /// The body of `GET {analytics_url}/_inspect/events`, or why it could not be read.
    Stored(Result<String, String>),
}

/// I/O the events view asks the runtime for.
#[derive(Clone, Debug, PartialEq)]
pub enum EventsEffect {
    /// Build and validate the batch off the draw path; answer with [`EventsMsg::Validated`].
    Validate(Box<ValidateJob>),
    /// Post `body` to `{analytics_url}/analytics/collect` (through the engine).
    SendEvents {
        analytics_url: String,
        body: Bytes,
    },
    FetchStored {
        url: String,
    },
    LoadFile(PathBuf),
    /// Write the batch to the path, replacing what is there.
    SaveFile(PathBuf, String),
    /// Write the batch to the path unless a file is there; answer [`EventsMsg::FileExists`].
    SaveNewFile(PathBuf, String),
    /// Copy `text` to the clipboard; `what` names it in the status line ("copied {what}").
    Copy(Clip),
    Status(String),
}
