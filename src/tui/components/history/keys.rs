//! The history view's key bindings: one table that the dispatcher, the help popup and the
//! command palette all read, and the copies the copy menu (Alt-Y) offers.

use crossterm::event::KeyCode;

use crate::tui::keymap::{bind, KeySpec, Kind, Kinded, Table};

/// Everything the history view can do by key or by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Send the selected entry's request again (signed again now, with the profile's key).
    Send,
    /// Load the selected entry into the request (or events) view.
    Load,
    /// Copy the selected entry as a curl command.
    CopyCurl,
    /// Copy the selected entry's response body.
    CopyResponse,
    /// Copy the selected entry as a suite entry for `signscope test`, its answer as the
    /// expectation (`docs/test.md`).
    CopySuite,
    /// Read the history again from disk.
    Reload,
}

impl Kinded for Action {
    fn kind(&self) -> Kind {
        match self {
            Action::Send => Kind::Send,
            Action::Load | Action::Reload => Kind::Load,
            Action::CopyCurl | Action::CopyResponse | Action::CopySuite => Kind::Copy,
        }
    }
}

/// The history view's keys.
pub const KEYS: Table<Action> = Table::new("history", &[
    bind(
        Action::Send,
        &[KeySpec::ctrl('g'), KeySpec::f(9)],
        "send the selected entry again",
        "send the selected request again, as the request view sends it: signed again now with the profile's REST key, to the entry's URL (the editor is not changed; an event batch is sent from the Events view: Enter loads it)",
    ),
    bind(
        Action::Load,
        &[KeySpec::key(KeyCode::Enter)],
        "load the entry into the editor",
        "load the entry into the request or events view (asks first when that would lose edits)",
    ),
    bind(
        Action::Reload,
        &[KeySpec::ctrl('r')],
        "reload the history",
        "reload the history from disk",
    ),
]);

/// What the copy menu (Alt-Y, then one letter) copies in the history view.
pub const COPY_KEYS: Table<Action> = Table::new(
    "history.copy",
    &[
        bind(
            Action::CopyCurl,
            &[KeySpec::char('c')],
            "copy the entry as curl",
            "copy the selected request as a curl command",
        ),
        bind(
            Action::CopyResponse,
            &[KeySpec::char('r')],
            "copy the entry's response body",
            "copy the selected entry's response body",
        ),
        bind(
            Action::CopySuite,
            &[KeySpec::char('e')],
            "copy the entry as a suite entry",
            "copy the selected entry as a `signscope test` suite entry with its answer as the expectation (docs/test.md); paste it into a suite file",
        ),
    ],
);
