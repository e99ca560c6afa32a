//! The command palette (Ctrl-K): every action of the current view and every global one, with
//! its keys, from the same tables the dispatcher and help read; type to filter, Enter runs.
//! Also the copy menu (Alt-Y): the copies of the current view, one letter each.

use super::components::{diagnose, events, history, lesson, profiles, request, traffic};
use super::global_keys::{GlobalAction, GLOBAL_COPY_KEYS, GLOBAL_KEYS};
use super::keymap::{KeySpec, Table};
use super::layout::View;

/// The key that opens the copy menu; a copy is written "Alt-Y s".
pub const COPY_PREFIX: KeySpec = KeySpec::alt('y');

/// An action the palette can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaletteAction {
    Global(GlobalAction),
    Request(request::keys::Action),
    Diagnose(diagnose::Action),
    Events(events::Action),
    History(history::Action),
    Traffic(traffic::Action),
    Lesson(lesson::Action),
    Profiles(profiles::FormAction),
}

/// One row of the palette.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: &'static str,
    /// The keys that run it directly, e.g. "Ctrl-G / F9" or "Alt-Y s".
    pub keys: String,
    pub action: PaletteAction,
}

fn entries_of<A: Copy + std::fmt::Debug>(
    table: &Table<A>,
    wrap: impl Fn(A) -> PaletteAction,
) -> Vec<Entry> {
    table
        .iter()
        .filter(|b| !b.name.is_empty())
        .map(|b| Entry {
            name: b.name,
            keys: table.label(b),
            action: wrap(b.action),
        })
        .collect()
}

/// One copy of the copy menu: its letter and the entry (keys written "Alt-Y s").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyEntry {
    pub key: KeySpec,
    pub help: &'static str,
    pub entry: Entry,
}

fn copies_of<A: Copy + std::fmt::Debug>(
    table: &Table<A>,
    wrap: impl Fn(A) -> PaletteAction,
) -> Vec<CopyEntry> {
    table
        .iter()
        .flat_map(|b| {
            let wrap = &wrap;
            table
                .keys(b)
                .into_owned()
                .into_iter()
                .map(move |k| CopyEntry {
                    key: k,
                    help: b.help,
                    entry: Entry {
                        name: b.name,
                        keys: format!("{} {}", COPY_PREFIX.label(), k.label()),
                        action: wrap(b.action),
                    },
                })
        })
        .collect()
}

/// What the copy menu offers in `view`: the view's copies, then the global ones.
pub fn copy_entries(view: View) -> Vec<CopyEntry> {
    let mut all = match view {
        View::Request => copies_of(&request::keys::COPY_KEYS, PaletteAction::Request),
        View::Events => copies_of(&events::COPY_KEYS, PaletteAction::Events),
        View::History => copies_of(&history::COPY_KEYS, PaletteAction::History),
        View::Traffic => copies_of(&traffic::COPY_KEYS, PaletteAction::Traffic),
        View::Diagnose | View::Profiles | View::Lesson => vec![],
    };
    all.extend(copies_of(&GLOBAL_COPY_KEYS, PaletteAction::Global));
    all
}

/// The actions of `view` first (its copies as "Alt-Y s"), then the global ones (the palette's
/// picker filters them). The Profiles view's come from its edit form, while it is open
/// (`profiles`).
pub fn entries(view: View, profiles: &profiles::ProfilesState) -> Vec<Entry> {
    let mut all = match view {
        View::Request => entries_of(&request::keys::KEYS, PaletteAction::Request),
        View::Diagnose => entries_of(&diagnose::KEYS, PaletteAction::Diagnose),
        View::Events => entries_of(&events::KEYS, PaletteAction::Events),
        View::History => entries_of(&history::KEYS, PaletteAction::History),
        View::Traffic => entries_of(&traffic::KEYS, PaletteAction::Traffic),
        View::Lesson => entries_of(&lesson::KEYS, PaletteAction::Lesson),
        // The edit form's actions while it is open (Alt-V has no other key).
        View::Profiles => match profiles.mode {
            profiles::Mode::Edit(_) => entries_of(&profiles::FORM_KEYS, PaletteAction::Profiles),
            _ => vec![],
        },
    };
    all.extend(copy_entries(view).into_iter().map(|c| c.entry));
    all.extend(
        entries_of(&GLOBAL_KEYS, PaletteAction::Global)
            .into_iter()
            .filter(|e| {
                !matches!(
                    e.action,
                    PaletteAction::Global(GlobalAction::Palette | GlobalAction::CopyCode)
                )
            }),
    );
    all
}
