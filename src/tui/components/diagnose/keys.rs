//! Everything the diagnose view can do by key or by name: the dispatcher, the help, the footer
//! and the palette read [`KEYS`].

use crate::tui::keymap::{self, Binding, KeySpec, Table};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Diagnose,
    ToggleKey,
    LoadIntoEditor,
    ToggleClientText,
    /// Empty the box shown (the capture, or the client's signing text); Ctrl-Z undoes it.
    Clear,
    /// Judge at the capture's own time (its timestamp header), as `verify --now` does, or at
    /// the current time again.
    OwnTime,
    /// The profile picker, as in the request view: the profile's REST key judges the capture.
    SwitchProfile,
}

impl keymap::Kinded for Action {
    fn kind(&self) -> keymap::Kind {
        match self {
            // The view's "go" key: the capture goes through the verifier (Ctrl-G / F9).
            Action::Diagnose => keymap::Kind::Send,
            Action::ToggleKey => keymap::Kind::Toggle,
            Action::LoadIntoEditor => keymap::Kind::Load,
            Action::ToggleClientText => keymap::Kind::Toggle,
            Action::Clear => keymap::Kind::Edit,
            Action::SwitchProfile => keymap::Kind::Load,
            Action::OwnTime => keymap::Kind::Toggle,
        }
    }
}

/// The diagnose view's key bindings: the dispatcher, help and the palette read this table.
pub const KEYS: Table<Action> = Table::new(
    "diagnose",
    &[
        Binding {
            action: Action::Diagnose,
            keys: &[KeySpec::ctrl('g'), KeySpec::f(9)],
            name: "verify and diagnose the capture",
            help: "verify and diagnose it",
        },
        Binding {
            action: Action::ToggleKey,
            keys: &[KeySpec::alt('k')],
            name: "switch the key source",
            help: "key source: the profile's REST key or the demo key",
        },
        Binding {
            action: Action::LoadIntoEditor,
            keys: &[KeySpec::alt('l')],
            name: "load the capture into the request editor",
            help: "load the captured request into the request editor",
        },
        Binding {
            action: Action::ToggleClientText,
            keys: &[KeySpec::alt('t')],
            name: "paste the client's own signing text",
            help: "show the client's signing text box (or the capture again)",
        },
        Binding {
            action: Action::Clear,
            keys: &[KeySpec::alt('x')],
            name: "clear the capture",
            help: "clear the box shown (the capture or the client's text); Ctrl-Z brings it back",
        },
        Binding {
            action: Action::OwnTime,
            keys: &[KeySpec::alt('i')],
            name: "judge at the capture's own time",
            help: "judge at the capture's own time (its timestamp header, as verify --now does) or at the current time",
        },
        Binding {
            action: Action::SwitchProfile,
            keys: &[KeySpec::ctrl('l')],
            name: "switch profile",
            help: "switch profile (popup list), as in the request view: its REST key judges the capture",
        },
    ],
);

/// The footer's word for `action`: what the key does now, in the words the box's bottom line
/// and help use (the first word of each name would say "paste" for the key that switches
/// boxes, and "switch" for two keys).
pub fn footer_word(action: Action, on_client_text: bool) -> &'static str {
    match action {
        Action::Diagnose => "verify",
        Action::ToggleKey => "key source",
        Action::LoadIntoEditor => "load",
        Action::ToggleClientText if on_client_text => "capture",
        Action::ToggleClientText => "client text",
        Action::Clear => "clear",
        Action::SwitchProfile => "profile",
        Action::OwnTime => "own time",
    }
}

/// Help rows for what is not an action of its own.
pub const CONTEXT_KEYS: &[(&str, &str)] = &[
    (
        "(type / paste)",
        "a raw HTTP request or a curl command line (or, after Alt-T, the client's signing text)",
    ),
    (
        "Esc / i or Enter",
        "normal mode (the verdict has the focus) / insert mode (typing in the capture), as in \
         the request view; Tab moves between the two",
    ),
    (
        "Up / Down / PageUp / PageDown / Home / End",
        "scroll the verdict (in normal mode)",
    ),
    (
        "Ctrl-Z / Ctrl-Y",
        "undo / redo in the capture (a clear too)",
    ),
    (
        "Mouse",
        "click the capture to type in it; wheel scrolls the box under it",
    ),
];
