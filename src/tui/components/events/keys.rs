//! The events view's key bindings (the keys that work in every part of the view): one table
//! that the dispatcher, the help popup and the command palette read, and the copies the copy
//! menu (Alt-Y) offers.

use crate::tui::keymap::{bind, KeySpec, Kind, Kinded, Table};

/// Everything the events view does by a key of its own or by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Send,
    /// Form <-> raw JSON.
    NextMode,
    /// Flat <-> nested (SDK) event shape.
    ToggleShape,
    /// The recommendation list <-> one order_purchase event of its products.
    ToggleOrder,
    Open,
    Save,
    CopyBatch,
}

impl Kinded for Action {
    fn kind(&self) -> Kind {
        match self {
            Action::Send => Kind::Send,
            Action::NextMode => Kind::Navigate,
            Action::ToggleShape | Action::ToggleOrder => Kind::Toggle,
            Action::Open => Kind::Open,
            Action::Save => Kind::Save,
            Action::CopyBatch => Kind::Copy,
        }
    }
}

/// The events view's keys (a path prompt or a cell being edited takes keys first).
pub const KEYS: Table<Action> = Table::new("events", &[
    bind(
        Action::Send,
        &[KeySpec::ctrl('g'), KeySpec::f(9)],
        "send the batch",
        "send the batch to the profile's analytics URL + /analytics/collect",
    ),
    bind(
        Action::NextMode,
        &[KeySpec::ctrl('p')],
        "form / raw JSON",
        "next view of the batch: the form or raw JSON",
    ),
    bind(
        Action::ToggleShape,
        &[KeySpec::ctrl('b')],
        "flat / nested event shape",
        "switch the batch between the flat and the nested (SDK) event shape, keeping every value",
    ),
    bind(
        Action::ToggleOrder,
        &[KeySpec::alt('b')],
        "recommendation list / order_purchase",
        "switch what the form writes: the recommendation list (its view and clicks) or its products as one order_purchase event, as the vendor's PHP SDK sends an order",
    ),
    bind(
        Action::Open,
        &[KeySpec::ctrl('o')],
        "open a batch file",
        "open: load the batch from a file",
    ),
    bind(
        Action::Save,
        &[KeySpec::ctrl('s')],
        "save the batch to a file",
        "save the batch to a file",
    ),
]);

/// What the copy menu (Alt-Y, then one letter) copies in the events view.
pub const COPY_KEYS: Table<Action> = Table::new(
    "events.copy",
    &[bind(
        Action::CopyBatch,
        &[KeySpec::char('b')],
        "copy the batch JSON",
        "copy the batch JSON (the body that is sent)",
    )],
);
