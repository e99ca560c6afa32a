//! The traffic view's key bindings: one table that the dispatcher, the help popup and the
//! command palette all read.

use crossterm::event::KeyCode;

use crate::tui::keymap::{bind, KeySpec, Kind, Kinded, Table};

/// Everything the traffic view can do by key or by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Stop showing new records (they are held) or show them again.
    Pause,
    LoadIntoRequest,
    LoadIntoDiagnose,
    CopyCurl,
    /// Forget the records shown.
    Clear,
    /// Select the newest record (the selection follows new ones again).
    Newest,
    /// Send the selected record again to the local server, signed again now with the profile's
    /// REST key (the editor is not changed).
    Send,
    /// Open a HAR file: its requests arrive as if just received (`docs/har.md`).
    OpenHar,
    /// Write the requests shown as a HAR file.
    WriteHar,
}

impl Kinded for Action {
    fn kind(&self) -> Kind {
        match self {
            Action::Pause => Kind::Toggle,
            Action::LoadIntoRequest | Action::LoadIntoDiagnose => Kind::Load,
            Action::CopyCurl => Kind::Copy,
            Action::Clear => Kind::Edit,
            Action::Newest => Kind::Navigate,
            Action::Send => Kind::Send,
            // A path prompt first: Ctrl-O opens a popup in the request view too.
            Action::OpenHar => Kind::Open,
            Action::WriteHar => Kind::Save,
        }
    }
}

/// The traffic view's key bindings.
pub const KEYS: Table<Action> = Table::new("traffic", &[
    bind(
        Action::Send,
        &[KeySpec::ctrl('g'), KeySpec::f(9)],
        "send the selected request again",
        "send the selected request again to the local server, signed again now with the profile's REST key (what a correct client sends; the editor is not changed)",
    ),
    bind(
        Action::Pause,
        &[KeySpec::alt('z')],
        "pause or resume the traffic list",
        "pause / resume: new requests are held, not shown, until resumed",
    ),
    bind(
        Action::LoadIntoRequest,
        &[KeySpec::key(KeyCode::Enter)],
        "load the request into the request editor",
        "load the selected request into the request editor (the profile's REST key stays)",
    ),
    bind(
        Action::LoadIntoDiagnose,
        &[KeySpec::ctrl('d')],
        "diagnose the request in the Diagnose view",
        "put the selected request into the Diagnose view and diagnose it there",
    ),
    bind(
        Action::Clear,
        &[KeySpec::alt('x')],
        "clear the traffic list",
        "clear the list (the server keeps its own records)",
    ),
    bind(
        Action::OpenHar,
        &[KeySpec::ctrl('o')],
        "open a HAR file",
        "open a HAR file (browser, mitmproxy...): its requests arrive as if just received, judged at their capture's time",
    ),
    bind(
        Action::WriteHar,
        &[KeySpec::ctrl('s')],
        "save the list as a HAR file",
        "save the requests shown (after the filter) as a HAR 1.2 file that DevTools imports (a new file)",
    ),
    bind(
        Action::Newest,
        &[KeySpec::key(KeyCode::Home)],
        "select the newest request",
        "select the newest request; the selection follows new ones again",
    ),
]);

/// What the copy menu (Alt-Y, then one letter) copies in the traffic view.
pub const COPY_KEYS: Table<Action> = Table::new(
    "traffic.copy",
    &[bind(
        Action::CopyCurl,
        &[KeySpec::char('c')],
        "copy the request as curl",
        "copy the selected request as a curl command",
    )],
);

/// Help rows for what is not an action of its own.
pub const CONTEXT_KEYS: &[(&str, &str)] = &[
    (
        "type",
        "filter the list (every word must match: path, code, mistake, status...)",
    ),
    ("Backspace / Esc", "edit / clear the filter"),
    (
        "Up / Down",
        "select a request (the selection then stays on it)",
    ),
    ("PageUp / PageDown", "scroll the selected request"),
    ("Mouse", "click a row: select it; wheel: list / request"),
];
