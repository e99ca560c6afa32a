//! Messages of the diagnose view (input, and the runtime's answers) and the effects it asks the
//! runtime for.

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::layout::Rect;

use super::keys::Action;
use super::state::DiagKey;

/// Messages of the diagnose view.
#[derive(Debug)]
pub enum DiagnoseMsg {
    /// A key, and the view's area on screen (the verdict's page is its height).
    Key(KeyEvent, Rect),
    /// A mouse event and the view's area on screen (for hit testing with [`layout`]).
    Mouse(MouseEvent, Rect),
    /// Pasted text: into the box shown (the capture, or the client's signing text).
    Paste(String),
    /// Run an action of the view's table (from the command palette).
    Run(Action),
    /// A capture from elsewhere (a Traffic record): shown in the capture box and diagnosed.
    Open(String),
    /// The verdict of the capture: accepted?, the report lines.
    Diagnosed { ok: bool, lines: Vec<String> },
    /// The body file of a pasted curl command, read (or why not, in one sentence).
    BodyFile {
        file: String,
        result: Result<Vec<u8>, String>,
    },
}

/// What the diagnose view asks the runtime for. The profile's REST key and header prefix are
/// the request view's: the router adds them.
#[derive(Debug)]
pub enum DiagnoseEffect {
    /// Verify and diagnose the capture (`body`: the loaded body file of a curl command that
    /// reads one; `client_text`: the client's own signing text, when pasted) with `key`.
    Diagnose {
        text: String,
        body: Option<bytes::Bytes>,
        client_text: Option<String>,
        key: DiagKey,
        /// At the capture's own time (its timestamp header), not now.
        own_time: bool,
    },
    /// Parse the capture and load it into the request editor.
    ParseCapture {
        text: String,
        body: Option<bytes::Bytes>,
    },
    /// Read the body file a pasted curl command names; answered with
    /// [`DiagnoseMsg::BodyFile`].
    ReadBody { file: String },
    /// A sentence for the status line.
    Status(String),
    /// Open the profile picker (Ctrl-L, as in the request view).
    ListProfiles,
}
