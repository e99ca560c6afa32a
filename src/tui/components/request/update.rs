//! The request view's update: one message at a time, to the pane or the part it is for; here
//! the runtime's answers about the profile (loaded, saved) and a request loaded from
//! elsewhere. Pure: no I/O, no clock (time arrives as ticks).

use super::body_pane::{go_to_problem, on_body_judged, on_editor_done, on_json_checked};
use super::input::{on_key, on_mouse, on_paste, run, save_current};
use super::key_choice;
use super::keys::{Action, KEYS};
use super::message::{RequestEffect, RequestMsg};
use super::requests;
use super::send::{on_response_formatted, on_send_done};
use super::sign::{on_signed, on_tick, resign, resign_if};
use super::state::{KeyLabel, ProfileKey, RequestState, RequestsList};
use crate::core::time::format_timestamp;
use crate::core::Secret;
use crate::tui::component::KeyRead;
use crate::tui::model::{CurrentProfile, EditorRequest, LoadedProfile};
use crate::tui::signing::SignAnswer;

/// Handle one message of the request view; pure (no I/O): what needs I/O comes back as
/// effects. `profile` is the profile being edited (the App owns it: a save under another name
/// or a load changes it there).
pub fn update(
    req: &mut RequestState,
    profile: &CurrentProfile,
    msg: RequestMsg,
) -> Vec<RequestEffect> {
    let mut effects = update_msg(req, profile, msg);
    // What the view said while handling it leaves as its one Status effect.
    if !req.status.is_empty() {
        effects.push(RequestEffect::Status(std::mem::take(&mut req.status)));
    }
    effects
}

fn update_msg(
    req: &mut RequestState,
    profile: &CurrentProfile,
    msg: RequestMsg,
) -> Vec<RequestEffect> {
    match msg {
        RequestMsg::Key(key) => on_key(req, profile, key),
        RequestMsg::Mouse(m, screen) => on_mouse(req, m, screen),
        RequestMsg::Paste(text) => on_paste(req, &text),
        RequestMsg::Tick(now) => on_tick(req, now),
        RequestMsg::Run(action) => run(req, profile, action),
        RequestMsg::Signing(SignAnswer::Signed { id, result }) => on_signed(req, id, result),
        RequestMsg::Signing(SignAnswer::BodyJudged { rev, judgement }) => {
            on_body_judged(req, rev, judgement);
            vec![]
        }
        RequestMsg::GoToProblem(p) => {
            go_to_problem(req, &p);
            vec![]
        }
        RequestMsg::Signing(SignAnswer::JsonChecked { rev, error }) => {
            on_json_checked(req, rev, error);
            vec![]
        }
        RequestMsg::SendDone { id, result } => {
            on_send_done(req, id, result);
            vec![]
        }
        RequestMsg::ResponseFormatted { id, body } => {
            on_response_formatted(req, id, body);
            vec![]
        }
        RequestMsg::EditorDone(result) => on_editor_done(req, result),
        RequestMsg::KeyResolved { id, result } => {
            let changed = super::key_read::finished(req, &profile.name, id, result);
            resign_if(req, changed)
        }
        RequestMsg::ProfileLoaded(p) => on_profile_loaded(req, *p),
        RequestMsg::LoadRequest(load) => {
            let effects = load_request(req, &load.request, load.timestamp, &load.what);
            if let Some(note) = load.note {
                req.status.push_str(&format!(", but {note}"));
            }
            effects
        }
        RequestMsg::Save => save_current(req, profile),
        RequestMsg::Saved(name) => {
            on_saved(req, &name);
            vec![]
        }
        RequestMsg::SaveFailed => {
            req.key_choice_made = None;
            vec![]
        }
        RequestMsg::CancelKeyRead => match super::key_read::cancel(req) {
            Some(id) => vec![RequestEffect::CancelKey(id)],
            None => vec![],
        },
        RequestMsg::AccountSaved(change) => {
            let key_read = super::account::on_account_saved(req, *change);
            let mut effects = resign(req);
            effects.extend(key_read);
            effects
        }
        RequestMsg::Preset { method, path, what } => {
            req.method.set(method);
            req.path.set(path);
            req.dirty = true;
            req.status = what;
            resign(req)
        }
    }
}

/// A profile was loaded: its fields, key and saved requests replace the editor's, and it is
/// signed; a key source that may take long is read off the UI thread (Esc cancels).
fn on_profile_loaded(req: &mut RequestState, p: LoadedProfile) -> Vec<RequestEffect> {
    load_profile(req, &p.name, &p.request, p.key, p.key_source);
    req.requests = p
        .profile
        .as_deref()
        .map(RequestsList::of_profile)
        .unwrap_or_default();
    req.form = req.requests.selected_form();
    let mut effects = resign(req);
    match p.key_to_read {
        Some(source) => {
            let id = req.next_id();
            super::key_read::started(req, &p.name, id, &source.describe());
            effects.push(RequestEffect::ResolveKey(KeyRead { id, source }));
        }
        None => req.key_resolving = None,
    }
    effects
}

/// A profile was loaded: its fields and key replace the request's (not signed yet: the caller
/// signs once everything is loaded).
fn load_profile(
    req: &mut RequestState,
    name: &str,
    request: &EditorRequest,
    key: Option<Secret>,
    key_source: String,
) {
    req.set_request(request);
    // A source that failed is described as "<source> — <why>" (the runtime's `loaded_profile`).
    let (key_source, key_error) = match (&key, key_source.split_once(" — ")) {
        (None, Some((source, why))) => (source.to_string(), Some(why.to_string())),
        _ => (key_source, None),
    };
    req.key_error = key_error;
    let secret = key.unwrap_or_else(|| Secret::new(""));
    req.profile_key = ProfileKey {
        secret: secret.clone(),
        source: key_source.clone(),
        error: req.key_error.clone(),
    };
    req.rest_key.set(secret.expose());
    req.key_info = KeyLabel {
        source: key_source,
        revealed: false,
    };
    // A frozen timestamp belongs to the request it was frozen in: another profile starts live.
    req.ts_live = true;
    req.timestamp.set(format_timestamp(req.now));
    req.response = None;
    req.status = match &req.key_error {
        // Said at once, as the CLI would: the key source that failed and why.
        Some(why) => format!("profile {name} loaded, without its REST key: {why}"),
        None => format!("profile {name} loaded"),
    };
}

/// The profile was saved under `name`.
fn on_saved(req: &mut RequestState, name: &str) {
    req.dirty = false;
    requests::mark_saved(req);
    req.status = match key_choice::on_saved(req) {
        Some(what) => format!("profile {name} saved; {what}"),
        None => format!("profile {name} saved"),
    };
}

/// A request from elsewhere loaded into the editor, with its timestamp frozen; `what` names it
/// in the status line ("the history entry", "the captured request").
fn load_request(
    req: &mut RequestState,
    request: &EditorRequest,
    timestamp: String,
    what: &str,
) -> Vec<RequestEffect> {
    let url = req.url.text().to_string();
    req.set_request(request);
    if req.url.text().is_empty() {
        req.url.set(url);
    }
    req.timestamp.set(timestamp);
    req.dirty = true;
    req.ts_live = false;
    // The response shown was the previous request's.
    req.response = None;
    req.status = match req.timestamp.text() {
        "" => format!(
            "{what} loaded into the request view (it had no timestamp: the field is empty and \
             frozen; {} makes it live)",
            KEYS.label_of(Action::ToggleTimestamp)
        ),
        ts => format!("{what} loaded into the request view (timestamp frozen at {ts})"),
    };
    resign(req)
}
