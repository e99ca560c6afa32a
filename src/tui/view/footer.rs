//! The footer: the keys that work where the cursor is, read from the key tables (each view's
//! table filtered for the focused field or list, the editable-text keys when text has focus,
//! the copy menu), cut with a visible `…` and the palette's key when it does not fit.

use crate::tui::app::{App, GlobalAction, GLOBAL_KEYS};
use crate::tui::components::{diagnose, events, history, lesson, profiles, request, traffic};
use crate::tui::keymap::{Binding, Table, TEXT_KEYS};
use crate::tui::layout::View;

/// (keys, word) for each action of `table` in `actions`, in the order of `actions`.
fn pick<A: Copy + PartialEq + std::fmt::Debug>(
    table: &Table<A>,
    actions: &[A],
) -> Vec<(String, String)> {
    actions
        .iter()
        .filter_map(|a| table.iter().find(|b| b.action == *a))
        .map(|b| item(table, b))
        .collect()
}

fn item<A: Copy + std::fmt::Debug>(table: &Table<A>, b: &Binding<A>) -> (String, String) {
    (table.label(b), b.short().to_string())
}

fn all<A: Copy + std::fmt::Debug>(table: &Table<A>) -> Vec<(String, String)> {
    table.iter().map(|b| item(table, b)).collect()
}

/// Keys of a list that are not actions of a table (the list widget's, a table's cell keys).
fn fixed(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(k, w)| (k.to_string(), w.to_string()))
        .collect()
}

fn global(action: GlobalAction) -> Vec<(String, String)> {
    pick(&GLOBAL_KEYS, &[action])
}

/// The editing mode of the request and diagnose views (one model: Esc for normal mode, where
/// single letters are keys; `i` or Enter to type again), first in their footers: `NORMAL`
/// while letters are keys, `INSERT` while they are typed (the footer's last keys give way; F1
/// and the palette list them all).
fn mode(normal: bool) -> Option<(String, String)> {
    Some((
        if normal { "NORMAL" } else { "INSERT" }.into(),
        String::new(),
    ))
}

/// The keys that work in the focused field or list of the current view, most useful first.
pub fn items(app: &App) -> Vec<(String, String)> {
    let mut v = match app.view {
        View::Request => request_items(&app.request),
        View::Events => events_items(&app.events),
        View::History => history_items(&app.history),
        View::Traffic => {
            let mut v = all(&traffic::KEYS);
            v.extend(global(GlobalAction::CopyMenu));
            v.extend(fixed(&[("/", "filter")]));
            v
        }
        View::Diagnose => diagnose_items(&app.diagnose),
        // The keys that work in what the lesson view shows (its only hint row).
        View::Lesson => lesson::footer_items(&app.lesson),
        View::Profiles => match app.profiles.mode {
            profiles::Mode::Edit(_) => {
                let mut v = all(&profiles::FORM_KEYS);
                v.splice(1..1, all(&TEXT_KEYS));
                v
            }
            _ => fixed(&[
                ("Enter", "use"),
                ("e", "edit"),
                ("n", "new"),
                ("/", "filter"),
                ("d", "delete"),
            ]),
        },
    };
    v.extend(global(GlobalAction::Help));
    v
}

/// The request view's: the mode word, the focused field's keys (the timestamp toggle's word
/// saying what it does now), the text keys while typing, the copy menu.
fn request_items(r: &request::RequestState) -> Vec<(String, String)> {
    let table = if r.normal_mode {
        request::keys::NORMAL_KEYS
    } else {
        request::keys::KEYS
    };
    let mut v = pick(
        &table,
        request::keys::footer_actions(r.focus, r.normal_mode),
    );
    if !r.ts_live {
        // The toggle's word says what it does now: frozen, it makes the timestamp live.
        let key = table.label_of(request::keys::Action::ToggleTimestamp);
        for item in v.iter_mut().filter(|(k, _)| *k == key) {
            item.1 = "live".into();
        }
    }
    // The field's two first keys (send among them), then undo/redo: with the mode word
    // first, the 80-column footer keeps the send key in every field.
    if !r.normal_mode && r.focus != request::Field::Method {
        let at = v.len().min(2);
        v.splice(at..at, all(&TEXT_KEYS));
    }
    v.splice(0..0, mode(r.normal_mode));
    v.extend(global(GlobalAction::CopyMenu));
    v
}

/// The events view's: send, the text keys in a field, the item list's keys, the modes.
fn events_items(e: &events::EventsState) -> Vec<(String, String)> {
    use events::{Action, Focus};
    let mut v = pick(&events::KEYS, &[Action::Send]);
    if matches!(e.focus, Focus::Field(_) | Focus::Raw) {
        v.extend(all(&TEXT_KEYS));
    }
    if e.focus == Focus::Items {
        v.extend(fixed(&[
            ("Enter", "edit"),
            ("a", "add"),
            ("d", "delete"),
            ("/", "filter"),
        ]));
        v.extend(pick(&TEXT_KEYS, &[crate::tui::keymap::TextAction::Undo]));
    }
    let mut modes = pick(
        &events::KEYS,
        &[Action::NextMode, Action::Open, Action::Save],
    );
    // The switch's word says what it does now: from the form it opens the raw JSON.
    if e.mode == events::Mode::Form {
        modes[0].1 = "raw JSON".into();
    }
    v.extend(modes);
    v.extend(global(GlobalAction::CopyMenu));
    v
}

/// The history view's: what works on the selected entry, the copy menu, the filter.
fn history_items(h: &history::HistoryState) -> Vec<(String, String)> {
    use history::{Action, RowKind};
    // The keys that do something to the selected entry: an event batch is not sent
    // from here (its send key only says so), it loads into the Events view.
    let mut v = match h.selected_row().map(|r| r.kind) {
        Some(RowKind::Events) => {
            let mut v = pick(&history::KEYS, &[Action::Load, Action::Reload]);
            v[0].1 = "load in Events".into();
            v
        }
        Some(RowKind::Request) | None => all(&history::KEYS),
    };
    v.extend(global(GlobalAction::CopyMenu));
    v.extend(fixed(&[("/", "filter")]));
    v
}

/// The diagnose view's: the mode word, then its keys, the box switch second.
fn diagnose_items(d: &diagnose::DiagnoseState) -> Vec<(String, String)> {
    let mut v: Vec<_> = mode(d.normal_mode).into_iter().collect();
    let on_client_text = d.on_client_text;
    // The box switch second: it is the key the box's state changes the word of.
    use diagnose::Action as D;
    let order = [
        D::Diagnose,
        D::ToggleClientText,
        D::LoadIntoEditor,
        D::ToggleKey,
        D::Clear,
    ];
    v.extend(order.iter().map(|&a| {
        (
            diagnose::KEYS.label_of(a),
            diagnose::footer_word(a, on_client_text).to_string(),
        )
    }));
    v
}

/// The footer for `width` columns: every item when they fit; otherwise as many as fit, then
/// `…` and the palette's key (the palette lists them all).
pub fn line(items: &[(String, String)], width: usize) -> String {
    const SEP: &str = "  ";
    let palette = format!("… {} all keys", GLOBAL_KEYS.label_of(GlobalAction::Palette));
    let parts: Vec<String> = items
        .iter()
        .map(|(k, w)| format!("{k} {w}").trim_end().to_string())
        .collect();
    let whole = format!(" {}", parts.join(SEP));
    if whole.chars().count() <= width {
        return whole;
    }
    let mut out = String::from(" ");
    for p in &parts {
        let n = out.chars().count();
        let need = if n > 1 { SEP.len() } else { 0 } + p.chars().count();
        if n + need + SEP.len() + palette.chars().count() > width {
            break;
        }
        if n > 1 {
            out.push_str(SEP);
        }
        out.push_str(p);
    }
    if out.chars().count() > 1 {
        out.push_str(SEP);
    }
    out.push_str(&palette);
    out.chars().take(width).collect()
}
