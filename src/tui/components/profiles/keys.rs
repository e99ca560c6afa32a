//! The profile manager's edit-form keys: one table that the dispatcher, help and the key checks
//! read (the list's single letters are in the view's help rows).

use crate::tui::keymap::{bind, KeySpec, Kind, Kinded, Table};

/// What the edit form does by key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormAction {
    Save,
    Reveal,
    VendorPreset,
}

impl Kinded for FormAction {
    fn kind(&self) -> Kind {
        match self {
            FormAction::Save => Kind::Save,
            FormAction::Reveal => Kind::Toggle,
            FormAction::VendorPreset => Kind::Edit,
        }
    }
}

/// The edit form's keys (Enter saves too; Esc leaves, asking first when fields changed).
pub const FORM_KEYS: Table<FormAction> = Table::new("profiles.form", &[
    bind(
        FormAction::Save,
        &[KeySpec::ctrl('s')],
        "save the profile",
        "save the edited profile (edit form; Enter too, Esc asks before dropping changes)",
    ),
    bind(
        FormAction::Reveal,
        &[KeySpec::ctrl('v')],
        "reveal / hide the stored REST key",
        "reveal or hide a stored REST key (edit form)",
    ),
    bind(
        FormAction::VendorPreset,
        &[KeySpec::alt('v')],
        "vendor preset",
        "fill the vendor preset (edit form; klevu): prefix and the vendor's URLs; keys stay yours",
    ),
]);
