//! The router's keys: what works in every view (help, palette, copy menu, quit, the views'
//! function keys), in a table of its own so that every view can name them (a title that says
//! "Alt-Y c" asks this table for the copy menu's key).

use super::keymap::{bind, KeySpec, Kind, Kinded, Table};
use super::layout::View;

/// What the router does by key or by name, in every view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalAction {
    Help,
    Palette,
    Messages,
    /// The copy menu: Alt-Y, then one letter.
    CopyMenu,
    CopyCode,
    Operations,
    Quit,
    Show(View),
}

impl Kinded for GlobalAction {
    fn kind(&self) -> Kind {
        match self {
            GlobalAction::Help
            | GlobalAction::Palette
            | GlobalAction::Messages
            | GlobalAction::Operations => Kind::Open,
            GlobalAction::CopyMenu | GlobalAction::CopyCode => Kind::Copy,
            GlobalAction::Quit => Kind::Quit,
            GlobalAction::Show(_) => Kind::Navigate,
        }
    }
}

/// Keys that work in every view: the router, help and the palette read this table.
pub const GLOBAL_KEYS: Table<GlobalAction> = Table::new("global", &[
    bind(
        GlobalAction::Help,
        &[KeySpec::f(1), KeySpec::alt('1')],
        "help",
        "this help (? too, when no text field has focus)",
    ),
    bind(
        GlobalAction::Palette,
        &[KeySpec::ctrl('k')],
        "command palette",
        "command palette: every action of this view, run by name",
    ),
    bind(
        GlobalAction::Messages,
        &[KeySpec::alt('m')],
        "message log",
        "message log: the last 100 status messages in full",
    ),
    bind(
        GlobalAction::CopyMenu,
        &[KeySpec::alt('y')],
        "copy…",
        "copy menu: what this view can copy, one letter each (Alt-Y s, Alt-Y c ...; Esc cancels)",
    ),
    bind(
        GlobalAction::CopyCode,
        &[KeySpec::alt('p')],
        "copy the request as code",
        "copy as code: a program that signs the request being edited (pick one of 8 languages)",
    ),
    bind(
        GlobalAction::Operations,
        &[KeySpec::alt('o')],
        "pick an indexing operation",
        "indexing operation presets: the SDK's method + path (batch, delete, attributes)",
    ),
    bind(
        GlobalAction::Quit,
        &[KeySpec::ctrl('c'), KeySpec::ctrl('q')],
        "quit",
        "quit (asks only when there are unsaved edits; q too, when no text field has focus; Ctrl-C copies a selection in the body instead)",
    ),
    bind(
        GlobalAction::Show(View::Request),
        &[KeySpec::f(2), KeySpec::alt('2')],
        "go to the Request view",
        "Request view",
    ),
    bind(
        GlobalAction::Show(View::Events),
        &[KeySpec::f(3), KeySpec::alt('3')],
        "go to the Events view",
        "Events view",
    ),
    bind(
        GlobalAction::Show(View::History),
        &[KeySpec::f(4), KeySpec::alt('4')],
        "go to the History view",
        "History view",
    ),
    bind(
        GlobalAction::Show(View::Profiles),
        &[KeySpec::f(5), KeySpec::alt('5')],
        "go to the Profiles view",
        "Profiles view",
    ),
    bind(
        GlobalAction::Show(View::Diagnose),
        &[KeySpec::f(6), KeySpec::alt('6')],
        "go to the Diagnose view",
        "Diagnose view",
    ),
    bind(
        GlobalAction::Show(View::Traffic),
        &[KeySpec::f(7), KeySpec::alt('7')],
        "go to the Traffic view",
        "Traffic view: the requests reaching the local server, live",
    ),
    bind(
        GlobalAction::Show(View::Lesson),
        &[KeySpec::f(8), KeySpec::alt('8')],
        "go to the Lesson view",
        "Lesson view: the signing scheme step by step, and exercises",
    ),
]);

/// What the copy menu (Alt-Y, then one letter) offers in every view, after the view's own.
pub const GLOBAL_COPY_KEYS: Table<GlobalAction> = Table::new(
    "global.copy",
    &[bind(
        GlobalAction::CopyCode,
        &[KeySpec::char('p')],
        "copy the request as a program",
        "copy the request being edited as a program that signs it (pick one of 8 languages)",
    )],
);

/// The copy menu's key followed by `letter`, as help writes it ("Alt-Y c"): the copies a view's
/// titles and hints name.
pub fn copy_key(letter: &str) -> String {
    let menu = GLOBAL_KEYS.first_label_of(GlobalAction::CopyMenu);
    format!("{menu} {letter}")
}
