//! The request view's key bindings: one table that the dispatcher (`on_key`), the help
//! popup and the command palette all read.

use crossterm::event::{KeyCode, KeyModifiers};

use crate::tui::keymap::{bind, KeySpec, Kind, Kinded, Table};

/// Everything the request view can do by key or by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Send,
    /// Stop the send in flight (one send at a time).
    CancelSend,
    /// The list of what the vendor's SDK would refuse in the body; Enter goes to one.
    ShowProblems,
    ToggleTimestamp,
    /// Standard form <-> the vendor's PHP SDK form (`core::form`).
    ToggleForm,
    Format,
    Minify,
    EditExternally,
    Search,
    RevealKey,
    CopySignature,
    CopyHeaders,
    CopyCurl,
    CopyBody,
    CopyCanonical,
    CopyResponse,
    /// The request as a `signscope test` suite entry, its last answer as the expectation.
    CopySuite,
    NextDetail,
    /// The Response panel shows the request as the engine sent it (again: the answer).
    ShowSent,
    DetailPageDown,
    DetailPageUp,
    SwitchProfile,
    Save,
    SaveAs,
    /// Normal mode only.
    Edit,
    ScrollCanonicalDown,
    ScrollCanonicalUp,
    CanonicalTop,
    CanonicalEnd,
    ScrollDetailDown,
    ScrollDetailUp,
    /// The profile's named requests (`request::requests`).
    NextRequest,
    PrevRequest,
    AddRequest,
    DuplicateRequest,
    RenameRequest,
    DeleteRequest,
    MoveRequestUp,
    MoveRequestDown,
}

impl Kinded for Action {
    fn kind(&self) -> Kind {
        use Action::*;
        match self {
            Send => Kind::Send,
            // Stops what runs, as a pause does.
            CancelSend => Kind::Toggle,
            ToggleTimestamp | RevealKey | ToggleForm => Kind::Toggle,
            Format | Minify | AddRequest | DuplicateRequest | RenameRequest | DeleteRequest
            | MoveRequestUp | MoveRequestDown => Kind::Edit,
            // Opens the body in $EDITOR (Ctrl-O opens a file in the events view).
            EditExternally => Kind::Open,
            Search | ShowSent | ShowProblems => Kind::Inspect,
            CopySignature | CopyHeaders | CopyCurl | CopyBody | CopyCanonical | CopyResponse
            | CopySuite => Kind::Copy,
            NextDetail | DetailPageDown | DetailPageUp | Edit | ScrollCanonicalDown
            | ScrollCanonicalUp | CanonicalTop | CanonicalEnd | ScrollDetailDown
            | ScrollDetailUp | NextRequest | PrevRequest => Kind::Navigate,
            SwitchProfile => Kind::Load,
            Save | SaveAs => Kind::Save,
        }
    }
}

/// Keys that work in every mode of the request view (in the fields too).
pub const KEYS: Table<Action> = Table::new("request", &[
    bind(
        Action::Send,
        &[KeySpec::ctrl('g'), KeySpec::f(9)],
        "send the request",
        "send the request (signed again at send time)",
    ),
    bind(
        Action::CancelSend,
        &[KeySpec::alt('g')],
        "cancel the send",
        "cancel the send in flight, closing its connection (one send at a time)",
    ),
    bind(
        Action::ToggleTimestamp,
        &[KeySpec::ctrl('t')],
        "freeze / unfreeze the timestamp",
        "freeze the timestamp / make it live again (typing in it freezes it)",
    ),
    bind(
        Action::ToggleForm,
        &[KeySpec::alt('f')],
        "standard / PHP SDK signing form",
        "sign in the standard form or as the vendor's PHP SDK signs ('?' before the query, trailing '/' trimmed)",
    ),
    bind(
        Action::Format,
        // Alt-J (JSON): F7 opens the Traffic view.
        &[KeySpec::alt('j')],
        "format the body",
        "format the body as JSON (changes the signature)",
    ),
    bind(
        Action::Minify,
        &[KeySpec::alt('n')],
        "minify the body",
        "minify the body as JSON (changes the signature)",
    ),
    bind(
        Action::EditExternally,
        &[KeySpec::ctrl('o')],
        "open the body in $EDITOR",
        "open the body in $EDITOR to edit it",
    ),
    bind(
        Action::Search,
        &[KeySpec::ctrl('f')],
        "search",
        "search the body, or the Response panel when it is shown and the cursor is not in the body (a regex; Enter/Down next, Up previous, Esc close; n of m)",
    ),
    bind(
        Action::ShowProblems,
        // Alt-H (hints): Alt-G cancels a send, Alt-I and Alt-K are the Diagnose view's.
        &[KeySpec::alt('h')],
        "list the body's problems",
        "list the body's problems; Enter puts the cursor on one",
    ),
    bind(
        Action::ShowSent,
        &[KeySpec::alt('d')],
        "sent request of the response",
        "Response panel: the request as sent for that response (request line, headers, body: the engine's record, not the fields now), or the answer again",
    ),
    bind(
        Action::RevealKey,
        &[KeySpec::alt('r')],
        "reveal / mask the REST key",
        "reveal / mask the REST key",
    ),
    bind(
        Action::NextDetail,
        &[KeySpec::ctrl('p')],
        "next detail panel",
        "next detail panel: Pipeline, Headers, Response, Diff",
    ),
    bind(
        Action::DetailPageDown,
        &[KeySpec::key(KeyCode::PageDown)],
        "scroll the detail panel down",
        "scroll the detail panel down",
    ),
    bind(
        Action::DetailPageUp,
        &[KeySpec::key(KeyCode::PageUp)],
        "scroll the detail panel up",
        "scroll the detail panel up",
    ),
    bind(
        Action::SwitchProfile,
        &[KeySpec::ctrl('l')],
        "switch profile",
        "switch profile (popup list)",
    ),
    bind(
        Action::Save,
        &[KeySpec::ctrl('s')],
        "save the profile",
        "save the profile",
    ),
    bind(
        Action::SaveAs,
        &[KeySpec::alt('s')],
        "save the profile as",
        "save the profile under a new name",
    ),
    bind(
        Action::NextRequest,
        &[KeySpec {
            code: KeyCode::PageDown,
            mods: KeyModifiers::ALT,
        }],
        "next saved request",
        "edit the profile's next saved request (edits stay with their request until saved)",
    ),
    bind(
        Action::PrevRequest,
        &[KeySpec {
            code: KeyCode::PageUp,
            mods: KeyModifiers::ALT,
        }],
        "previous saved request",
        "edit the profile's previous saved request",
    ),
    bind(
        Action::AddRequest,
        &[KeySpec::alt('a')],
        "add a saved request",
        "add a request to the profile (asks its name)",
    ),
    bind(
        Action::DuplicateRequest,
        &[KeySpec::alt('u')],
        "duplicate the saved request",
        "copy the request under a new name",
    ),
    bind(
        Action::RenameRequest,
        &[KeySpec::alt('e')],
        "rename the saved request",
        "rename the request",
    ),
    bind(
        Action::DeleteRequest,
        &[KeySpec::alt('w')],
        "delete the saved request",
        "delete the request from the profile (asks first; Ctrl-S saves)",
    ),
    bind(
        Action::MoveRequestUp,
        &[KeySpec::alt(',')],
        "move the saved request up",
        "move the request one place up in the profile's list",
    ),
    bind(
        Action::MoveRequestDown,
        &[KeySpec::alt('.')],
        "move the saved request down",
        "move the request one place down in the profile's list",
    ),
]);

/// Single-key shortcuts of normal mode (after Esc, when no field takes text).
pub const NORMAL_KEYS: Table<Action> = Table::new(
    "request.normal",
    &[
        bind(Action::Send, &[KeySpec::char('s')], "", "(after Esc) send"),
        bind(
            Action::Format,
            &[KeySpec::char('f')],
            "",
            "(after Esc) format",
        ),
        bind(
            Action::Minify,
            &[KeySpec::char('m')],
            "",
            "(after Esc) minify",
        ),
        bind(
            Action::ToggleTimestamp,
            &[KeySpec::char('t')],
            "",
            "(after Esc) toggle the timestamp",
        ),
        bind(
            Action::EditExternally,
            &[KeySpec::char('e')],
            "",
            "(after Esc) $EDITOR",
        ),
        bind(
            Action::SwitchProfile,
            &[KeySpec::char('p')],
            "",
            "(after Esc) switch profile",
        ),
        bind(Action::Save, &[KeySpec::char('w')], "", "(after Esc) save"),
        bind(
            Action::SaveAs,
            &[KeySpec::char('W')],
            "",
            "(after Esc) save as",
        ),
        bind(
            Action::RevealKey,
            &[KeySpec::char('r')],
            "",
            "(after Esc) reveal / mask the key",
        ),
        bind(
            Action::NextDetail,
            &[KeySpec::char('d'), KeySpec::char(']')],
            "",
            "(after Esc) next detail panel",
        ),
        bind(
            Action::ShowSent,
            &[KeySpec::char('D')],
            "",
            "(after Esc) sent request of the response",
        ),
        bind(
            Action::ScrollCanonicalDown,
            &[KeySpec::char('j'), KeySpec::key(KeyCode::Down)],
            "",
            "(after Esc) scroll the canonical text down",
        ),
        bind(
            Action::ScrollCanonicalUp,
            &[KeySpec::char('k'), KeySpec::key(KeyCode::Up)],
            "",
            "(after Esc) scroll the canonical text up",
        ),
        bind(
            Action::CanonicalTop,
            &[KeySpec::char('g')],
            "",
            "(after Esc) top of the canonical text",
        ),
        bind(
            Action::CanonicalEnd,
            &[KeySpec::char('G')],
            "",
            "(after Esc) end of the canonical text",
        ),
        bind(
            Action::ScrollDetailDown,
            &[KeySpec::char('J')],
            "",
            "(after Esc) scroll the detail panel down",
        ),
        bind(
            Action::ScrollDetailUp,
            &[KeySpec::char('K')],
            "",
            "(after Esc) scroll the detail panel up",
        ),
        bind(
            Action::Edit,
            &[KeySpec::char('i'), KeySpec::key(KeyCode::Enter)],
            "",
            "(after Esc) back to editing",
        ),
    ],
);

/// What the copy menu (Alt-Y, then one letter) copies in the request view.
pub const COPY_KEYS: Table<Action> = Table::new(
    "request.copy",
    &[
        bind(
            Action::CopySignature,
            &[KeySpec::char('s')],
            "copy the signature",
            "copy the signature",
        ),
        bind(
            Action::CopyHeaders,
            &[KeySpec::char('h')],
            "copy the signed headers",
            "copy the signed headers",
        ),
        bind(
            Action::CopyCurl,
            &[KeySpec::char('c')],
            "copy the request as curl",
            "copy the request as a curl command",
        ),
        bind(
            Action::CopyBody,
            &[KeySpec::char('b')],
            "copy the body",
            "copy the body, byte for byte as it is signed",
        ),
        bind(
            Action::CopyCanonical,
            &[KeySpec::char('t')],
            "copy the canonical text",
            "copy the canonical text (the exact bytes that are signed)",
        ),
        bind(
            Action::CopyResponse,
            &[KeySpec::char('r')],
            "copy the response body",
            "copy the body of the last response",
        ),
        bind(
            Action::CopySuite,
            &[KeySpec::char('e')],
            "copy the request as a suite entry",
            "copy the request as signed as a `signscope test` suite entry, its last answer as the expectation (docs/test.md); paste it into a suite file",
        ),
    ],
);

/// The actions the footer shows where the cursor is: a filter on [`KEYS`] (or, in normal mode,
/// on [`NORMAL_KEYS`]); the keys and words come from those tables.
pub fn footer_actions(focus: super::state::Field, normal_mode: bool) -> &'static [Action] {
    use super::state::Field;
    if normal_mode {
        return &[
            Action::Send,
            Action::Edit,
            Action::NextDetail,
            Action::ShowSent,
            Action::ScrollCanonicalDown,
            Action::Format,
            Action::Save,
        ];
    }
    match focus {
        Field::Body => &[
            Action::Send,
            Action::Format,
            Action::Minify,
            Action::EditExternally,
            Action::Search,
        ],
        Field::Timestamp => &[Action::ToggleTimestamp, Action::Send],
        Field::RestKey => &[Action::RevealKey, Action::Send, Action::Save],
        Field::Method => &[Action::Send, Action::NextDetail, Action::ShowSent],
        _ => &[
            Action::Send,
            Action::Save,
            Action::NextDetail,
            Action::ShowSent,
            Action::Search,
        ],
    }
}

/// Help rows for keys that depend on where the cursor is (not actions of their own).
pub const CONTEXT_KEYS: &[(&str, &str)] = &[
    (
        "Tab / Shift-Tab",
        "next / previous field (Up/Down too, outside the body)",
    ),
    ("Up / Down on Method", "cycle GET, POST, PUT, PATCH, DELETE"),
    (
        "Ctrl-Z / Ctrl-Y",
        "undo / redo in every text: the body and each field (Ctrl-Shift-Z redoes too)",
    ),
    ("Ctrl-U", "in a one-line field: clear to its start"),
    (
        "Shift-arrows",
        "select in the body; Ctrl-X cuts and Alt-C (or Ctrl-C) copies it to the clipboard; Ctrl-W / Alt-D delete a word; Ctrl-J is Enter",
    ),
    ("Alt-< / Alt->", "top / end of the body"),
    ("Esc", "leave the field: single-key shortcuts (after Esc)"),
    (
        "Mouse",
        "click a field to focus it; wheel scrolls the panel under it",
    ),
];
