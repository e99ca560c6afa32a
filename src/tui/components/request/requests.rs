//! The profile's named requests in the request view: the list shown in the Request panel's
//! title, selecting one to edit, and adding, duplicating, renaming, deleting and reordering them
//! (`docs/profiles.md`). The editor holds the selected request; the others wait here with their
//! unsaved edits until the profile is saved, so switching requests never loses an edit.
//!
//! Pure functions over the request view's state ([`RequestState`]; the list's types are in
//! `state.rs`). Each returns whether the editor's request changed, so the caller signs it
//! again. The keys are the request view's table (`request::keys`), so help and the palette
//! list them.

use crossterm::event::{KeyCode, KeyEvent};

use super::keys::{Action, KEYS};
use super::state::{Entry, NameAction, Prompt, RequestState, RequestsList};
use crate::core::spec::RequestSpec;
use crate::store::profile::validate_request_name;
use crate::store::SavedRequest;
use crate::tui::model::EditorRequest;
use crate::tui::widgets::LineInput;

/// Keep the editor's request (and whether it has unsaved edits) in its entry.
fn stash(req: &mut RequestState) {
    let spec = req.spec();
    let (dirty, form) = (req.dirty, req.form);
    if let Some(e) = req.requests.entries.get_mut(req.requests.selected) {
        e.spec = spec;
        e.form = form;
        e.dirty |= dirty;
    }
}

/// Put entry `i` into the editor (the URL, prefix and API key stay: they are the account's).
fn load_entry(req: &mut RequestState, i: usize) {
    let Some(e) = req.requests.entries.get(i).cloned() else {
        return;
    };
    req.requests.selected = i;
    let request = EditorRequest {
        url: req.url.text().to_string(),
        spec: RequestSpec {
            header_prefix: req.prefix.text().to_string(),
            api_key: req.api_key.text().to_string(),
            ..e.spec
        },
    };
    req.set_request(&request);
    req.form = e.form;
    req.dirty = e.dirty;
    // The response and a frozen timestamp were the other request's.
    req.response = None;
    req.ts_live = true;
    req.timestamp.set(req.live_timestamp());
}

/// Edit request `i`: the editor's edits stay with the request they were made in.
pub fn select(req: &mut RequestState, i: usize) -> bool {
    if i >= req.requests.entries.len() || i == req.requests.selected {
        return false;
    }
    stash(req);
    load_entry(req, i);
    req.status = format!(
        "request \"{}\" ({} of {})",
        req.requests.selected_name(),
        i + 1,
        req.requests.entries.len()
    );
    true
}

/// The next (`+1`) or previous (`-1`) request, wrapping around.
pub fn step(req: &mut RequestState, delta: isize) -> bool {
    let n = req.requests.entries.len() as isize;
    if n < 2 {
        req.status = format!(
            "this profile has one request: {} adds another",
            KEYS.first_label_of(Action::AddRequest)
        );
        return false;
    }
    let i = (req.requests.selected as isize + delta).rem_euclid(n) as usize;
    select(req, i)
}

/// Move the selected request up (`-1`) or down (`+1`) in the list.
pub fn move_selected(req: &mut RequestState, delta: isize) {
    let list = &mut req.requests;
    let from = list.selected;
    let to = from as isize + delta;
    if to < 0 || to >= list.entries.len() as isize {
        req.status = "the request is already at that end of the list".into();
        return;
    }
    let to = to as usize;
    list.entries.swap(from, to);
    list.selected = to;
    list.changed = true;
    req.status = format!(
        "request \"{}\" moved to position {}",
        list.selected_name(),
        to + 1
    );
}

/// Open the name prompt for `action` (a copy is offered "NAME copy").
pub fn ask_name(req: &mut RequestState, action: NameAction) {
    let start = match action {
        NameAction::Add => String::new(),
        NameAction::Duplicate => free_name(
            &req.requests,
            &format!("{} copy", req.requests.selected_name()),
        ),
        NameAction::Rename => req.requests.selected_name().to_string(),
    };
    req.prompt = Some(Prompt::RequestName {
        action,
        edit: LineInput::new(start),
    });
}

/// Ask before deleting the selected request (the last one cannot be deleted).
pub fn ask_delete(req: &mut RequestState) {
    if req.requests.entries.len() == 1 {
        req.status = format!(
            "\"{}\" is the profile's only request and cannot be deleted",
            req.requests.selected_name()
        );
        return;
    }
    req.prompt = Some(Prompt::DeleteRequest);
}

/// `base`, or `base 2`, `base 3`... whichever no request has.
fn free_name(list: &RequestsList, base: &str) -> String {
    if list.position(base).is_none() {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base} {n}"))
        .find(|n| list.position(n).is_none())
        .unwrap_or_else(|| base.to_string())
}

/// Keys of the name prompt: Enter applies the name, Esc cancels.
pub fn name_prompt_key(
    req: &mut RequestState,
    action: NameAction,
    mut edit: LineInput,
    key: KeyEvent,
) -> bool {
    match key.code {
        KeyCode::Esc => false,
        KeyCode::Enter => {
            let name = edit.text().to_string();
            match apply_name(req, action, &name) {
                Ok(changed) => changed,
                Err(why) => {
                    req.status = why;
                    req.prompt = Some(Prompt::RequestName { action, edit });
                    false
                }
            }
        }
        _ => {
            edit.edit(&key);
            req.prompt = Some(Prompt::RequestName { action, edit });
            false
        }
    }
}

/// Keys of the delete question: `y` deletes, anything else keeps the request.
pub fn delete_prompt_key(req: &mut RequestState, key: KeyEvent) -> bool {
    if !matches!(key.code, KeyCode::Char('y' | 'Y')) {
        req.status = "nothing deleted".into();
        return false;
    }
    let list = &mut req.requests;
    let gone = list.entries.remove(list.selected);
    list.changed = true;
    let next = list.selected.min(list.entries.len() - 1);
    // The editor held the deleted request: load the one that takes its place.
    list.selected = usize::MAX;
    load_entry(req, next);
    req.status = format!(
        "request \"{}\" deleted ({} saves the profile without it)",
        gone.name,
        KEYS.first_label_of(Action::Save)
    );
    true
}

fn apply_name(req: &mut RequestState, action: NameAction, name: &str) -> Result<bool, String> {
    validate_request_name(name).map_err(|e| e.to_string())?;
    let taken = req.requests.position(name);
    if taken.is_some() && !(action == NameAction::Rename && taken == Some(req.requests.selected)) {
        return Err(format!(
            "this profile already has a request named \"{name}\"; choose another name"
        ));
    }
    match action {
        NameAction::Rename => {
            let list = &mut req.requests;
            let old = std::mem::replace(&mut list.entries[list.selected].name, name.to_string());
            if old != name {
                list.changed = true;
            }
            req.status = format!("request \"{old}\" renamed to \"{name}\"");
            Ok(false)
        }
        NameAction::Add | NameAction::Duplicate => {
            stash(req);
            let list = &mut req.requests;
            let entry = match action {
                NameAction::Add => Entry {
                    name: name.to_string(),
                    dirty: true,
                    ..Entry::default()
                },
                _ => Entry {
                    name: name.to_string(),
                    dirty: true,
                    ..list.entries[list.selected].clone()
                },
            };
            let at = match action {
                NameAction::Add => list.entries.len(),
                _ => list.selected + 1,
            };
            list.entries.insert(at, entry);
            list.changed = true;
            if at <= list.selected {
                list.selected += 1;
            }
            let verb = if action == NameAction::Add {
                "added"
            } else {
                "copied"
            };
            let changed = select(req, at);
            req.status = format!(
                "request \"{name}\" {verb} ({} saves it in the profile)",
                KEYS.first_label_of(Action::Save)
            );
            Ok(changed)
        }
    }
}

/// Every request as the profile saves them (the editor's values for the selected one) and the
/// index of the selected one.
pub fn to_saved(req: &mut RequestState) -> (Vec<SavedRequest>, usize) {
    stash(req);
    let (prefix, key) = (
        req.prefix.text().to_string(),
        req.api_key.text().to_string(),
    );
    let list = req
        .requests
        .entries
        .iter()
        .map(|e| SavedRequest {
            name: e.name.clone(),
            spec: RequestSpec {
                header_prefix: prefix.clone(),
                api_key: key.clone(),
                ..e.spec.clone()
            },
            body_file: e.body_file.clone(),
            form: e.form,
        })
        .collect();
    (list, req.requests.selected)
}

/// The profile was saved: no request has unsaved edits any more.
pub fn mark_saved(req: &mut RequestState) {
    for e in &mut req.requests.entries {
        e.dirty = false;
    }
    req.requests.changed = false;
}

/// The list as the Request panel's title shows it: the selected request in brackets, an
/// asterisk after a request with unsaved edits, a window of names around the selected one when
/// they do not fit in `width` columns.
pub fn title_names(req: &RequestState, width: usize) -> Vec<(String, bool)> {
    let list = &req.requests;
    let label = |i: usize, e: &Entry| {
        let dirty = if (i == list.selected && req.dirty) || e.dirty {
            "*"
        } else {
            ""
        };
        if i == list.selected {
            format!("[{}{dirty}]", e.name)
        } else {
            format!("{}{dirty}", e.name)
        }
    };
    let labels: Vec<(String, bool)> = list
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| (label(i, e), i == list.selected))
        .collect();
    // Grow a window around the selected one while it fits (one space between names).
    let (mut lo, mut hi) = (list.selected, list.selected + 1);
    let cost = |s: &str| s.chars().count() + 1;
    let mut used = labels.get(list.selected).map_or(0, |l| cost(&l.0)) + 4;
    loop {
        let mut grew = false;
        if hi < labels.len() && used + cost(&labels[hi].0) <= width {
            used += cost(&labels[hi].0);
            hi += 1;
            grew = true;
        }
        if lo > 0 && used + cost(&labels[lo - 1].0) <= width {
            lo -= 1;
            used += cost(&labels[lo].0);
            grew = true;
        }
        if !grew {
            break;
        }
    }
    let mut out = Vec::new();
    if lo > 0 {
        out.push(("‹".to_string(), false));
    }
    out.extend(labels[lo..hi].iter().cloned());
    if hi < labels.len() {
        out.push(("›".to_string(), false));
    }
    out
}
