//! The command palette (Ctrl-K): every action of the current view and every global one, with
//! its keys, from the same tables the dispatcher and help read; type to filter, Enter runs.

use super::app::{App, GlobalAction, GLOBAL_KEYS};
use super::components::{diagnose, lesson, request, traffic};
use super::keymap::Binding;
use super::layout::View;

/// An action the palette can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaletteAction {
    Global(GlobalAction),
    Request(request::keys::Action),
    Diagnose(diagnose::Action),
    Traffic(traffic::Action),
    Lesson(lesson::Action),
}

/// One row of the palette.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: &'static str,
    /// The keys that run it directly, e.g. "Ctrl-G / F9".
    pub keys: String,
    pub action: PaletteAction,
}

fn entries_of<A: Copy>(table: &[Binding<A>], wrap: impl Fn(A) -> PaletteAction) -> Vec<Entry> {
    table
        .iter()
        .filter(|b| !b.name.is_empty())
        .map(|b| Entry {
            name: b.name,
            keys: b.keys_label(),
            action: wrap(b.action),
        })
        .collect()
}

/// The actions of the current view first, then the global ones; only those whose name
/// contains `filter` (ignoring case).
pub fn entries(app: &App, filter: &str) -> Vec<Entry> {
    let mut all = match app.view {
        View::Request => entries_of(request::keys::KEYS, PaletteAction::Request),
        View::Diagnose => entries_of(diagnose::KEYS, PaletteAction::Diagnose),
        View::Traffic => entries_of(traffic::KEYS, PaletteAction::Traffic),
        View::Lesson => entries_of(lesson::KEYS, PaletteAction::Lesson),
        View::Events | View::History | View::Profiles => vec![],
    };
    all.extend(
        entries_of(GLOBAL_KEYS, PaletteAction::Global)
            .into_iter()
            .filter(|e| e.action != PaletteAction::Global(GlobalAction::Palette)),
    );
    let filter = filter.to_lowercase();
    all.retain(|e| e.name.to_lowercase().contains(&filter));
    all
}
