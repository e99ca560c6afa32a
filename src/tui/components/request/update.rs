//! The request view's update: keys, mouse and pastes of the view and its prompts, and the
//! runtime's answers (signatures, JSON checks, responses, the external editor). Pure: no I/O,
//! no clock (time arrives as ticks).

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::key_choice;
use super::keys::{Action, KEYS, NORMAL_KEYS};
use super::layout::{request_layout, RequestLayout};
use super::message::{ProfileLoad, RequestEffect, RequestMsg};
use super::requests;
use super::response_pane::PaneTarget;
use super::state::NameAction;
use super::state::{
    Detail, Field, KeyLabel, ProfileKey, Prompt, RequestState, SearchIn, METHODS, TYPED_KEY,
};
use crate::core::time::format_timestamp;
use crate::core::{Secret, SigningForm};
use crate::tui::effect::SendJob;
use crate::tui::keymap;
use crate::tui::model::{CurrentProfile, EditorRequest, FormattedBody, ResponseView, SignedView};
use crate::tui::signing::SignJob;
use crate::tui::widgets::search;
use crate::tui::widgets::{Edit, LineInput};

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
        RequestMsg::Signed { id, result } => on_signed(req, id, result),
        RequestMsg::JsonChecked { rev, error } => {
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
        RequestMsg::LoadRequest {
            request,
            timestamp,
            what,
            note,
        } => {
            let effects = load_request(req, &request, timestamp, &what);
            if let Some(note) = note {
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
fn on_profile_loaded(req: &mut RequestState, p: ProfileLoad) -> Vec<RequestEffect> {
    load_profile(req, &p.name, &p.request, p.key, p.key_source);
    req.requests = p.requests;
    req.form = req.requests.selected_form();
    let mut effects = resign(req);
    match p.key_to_read {
        Some(source) => {
            let id = req.next_id();
            super::key_read::started(req, &p.name, id, &source.describe());
            effects.push(RequestEffect::ResolveKey { id, source });
        }
        None => req.key_resolving = None,
    }
    effects
}

/// A key for the request view: its open prompt takes it first.
fn on_key(req: &mut RequestState, profile: &CurrentProfile, key: KeyEvent) -> Vec<RequestEffect> {
    match req.prompt.take() {
        Some(prompt) => prompt_key(req, prompt, key),
        None => request_key(req, profile, key),
    }
}

/// The clock moved: a live timestamp follows it (and the request is signed again).
fn on_tick(req: &mut RequestState, now: chrono::DateTime<chrono::Utc>) -> Vec<RequestEffect> {
    req.now = now;
    if req.ts_live {
        let ts = format_timestamp(now);
        if ts != req.timestamp.text() {
            req.timestamp.set(ts);
            return resign(req);
        }
    }
    vec![]
}

/// A signing job finished. A send asked for while it was signing goes now, with this
/// signature.
fn on_signed(
    req: &mut RequestState,
    id: u64,
    result: Result<SignedView, String>,
) -> Vec<RequestEffect> {
    // No key because its source failed: say why the source failed, as the CLI does.
    let empty = req.rest_key.text().is_empty();
    let result = match (result, &req.key_error) {
        (Err(_), _) if empty && req.key_resolving.is_some() => {
            Err(super::state::RESOLVING.to_string())
        }
        (Err(_), Some(why)) if req.rest_key.text().is_empty() => Err(format!(
            "{why}; type a key in the REST key field or fix the profile's key source"
        )),
        (r, _) => r,
    };
    // An older job's answer still beats nothing, but never replaces a newer one.
    if id >= req.sign.shown || req.sign.result.is_none() {
        req.sign.shown = id;
        req.sign.result = Some(result);
    }
    if req.send_when_signed && !req.sign.updating() {
        req.send_when_signed = false;
        return send(req);
    }
    vec![]
}

/// The JSON check of body revision `rev`.
fn on_json_checked(req: &mut RequestState, rev: u64, error: Option<String>) {
    if rev >= req.body_state.json_rev {
        req.body_state.json_rev = rev;
        req.body_state.json_error = error;
    }
}

/// A send finished.
fn on_send_done(req: &mut RequestState, id: u64, result: Result<ResponseView, String>) {
    if Some(id) != req.pending_send {
        return;
    }
    req.pending_send = None;
    req.sending = false;
    match result {
        Ok(resp) => {
            req.status = match (&resp.code, &resp.job_id) {
                (_, Some(job)) => {
                    format!("{} in {:.0} ms, job {job}", resp.status, resp.elapsed_ms)
                }
                (Some(code), None) => {
                    format!("{} {code} in {:.0} ms", resp.status, resp.elapsed_ms)
                }
                (None, None) => format!("{} in {:.0} ms", resp.status, resp.elapsed_ms),
            };
            for w in &resp.warnings {
                req.status.push_str("; ");
                req.status.push_str(w);
            }
            req.detail = if resp.mismatch.is_some() {
                Detail::Diff
            } else {
                Detail::Response
            };
            req.detail_scroll = 0;
            req.detail_max.set(usize::MAX);
            req.show_sent = false;
            req.response = Some(resp);
        }
        Err(e) => {
            req.status = format!("send failed: {e}");
        }
    }
}

/// The pretty-printed response body of send `id`.
fn on_response_formatted(req: &mut RequestState, id: u64, body: Arc<FormattedBody>) {
    if let Some(r) = req.response.as_mut() {
        if r.id == id {
            r.formatted = Some(body);
        }
    }
}

/// The external editor returned.
fn on_editor_done(req: &mut RequestState, result: Result<String, String>) -> Vec<RequestEffect> {
    match result {
        Ok(text) => {
            let changed = req.body.set_text(&text);
            req.status = match changed {
                Some(_) => "body read back from the editor",
                None => "the editor left the body unchanged",
            }
            .into();
            body_changed(req, changed)
        }
        Err(e) => {
            req.status = e;
            vec![]
        }
    }
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

/// Keys of an open prompt (save as, search).
fn prompt_key(req: &mut RequestState, prompt: Prompt, key: KeyEvent) -> Vec<RequestEffect> {
    match prompt {
        Prompt::SaveAs(mut edit) => match key.code {
            KeyCode::Esc => vec![],
            KeyCode::Enter => {
                let name = edit.text().trim().to_string();
                if name.is_empty() {
                    req.status = "type a profile name to save as".into();
                    req.prompt = Some(Prompt::SaveAs(edit));
                    vec![]
                } else {
                    key_choice::save_or_ask(req, name, true)
                }
            }
            _ => {
                edit.edit(&key);
                req.prompt = Some(Prompt::SaveAs(edit));
                vec![]
            }
        },
        Prompt::RequestName { action, edit } => {
            let changed = requests::name_prompt_key(req, action, edit, key);
            resign_if(req, changed)
        }
        Prompt::DeleteRequest => {
            let changed = requests::delete_prompt_key(req, key);
            resign_if(req, changed)
        }
        Prompt::KeyChoice(choice) => key_choice::on_key(req, choice, key),
        Prompt::Search(within, mut b) => {
            let outcome = match within {
                SearchIn::Body => search::on_key(&mut b, &mut req.body, &key),
                SearchIn::Response => search::on_key(&mut b, &mut PaneTarget { req }, &key),
            };
            if let search::Outcome::Open(said) = outcome {
                if let Some(said) = said {
                    req.status = said;
                }
                req.prompt = Some(Prompt::Search(within, b));
            }
            vec![]
        }
    }
}

/// A paste (line ends already as the user copied them): into the open prompt, the focused
/// field (as one line) or the body.
fn on_paste(req: &mut RequestState, text: &str) -> Vec<RequestEffect> {
    match req.prompt.take() {
        // The search box takes a pasted pattern (one line) and searches at once.
        Some(Prompt::Search(within, mut b)) => {
            let outcome = match within {
                SearchIn::Body => search::on_paste(&mut b, &mut req.body, text),
                SearchIn::Response => search::on_paste(&mut b, &mut PaneTarget { req }, text),
            };
            if let search::Outcome::Open(Some(said)) = outcome {
                req.status = said;
            }
            req.prompt = Some(Prompt::Search(within, b));
            return vec![];
        }
        Some(other) => {
            req.prompt = Some(other);
            return vec![];
        }
        None => {}
    }
    if req.normal_mode {
        return vec![];
    }
    if req.focus == Field::Body {
        let changed = req.body.insert_str(text);
        body_changed(req, changed)
    } else {
        let focus = req.focus;
        if let Some(edit) = req.line_edit_mut(focus) {
            edit.insert_str(text);
        }
        field_changed(req, focus)
    }
}

/// Save under the current name; the built-in demo profile can only be saved as a new name. A
/// typed REST key asks first where it goes (`key_choice.rs`).
pub fn save_current(req: &mut RequestState, profile: &CurrentProfile) -> Vec<RequestEffect> {
    if profile.is_demo {
        req.status = "the demo profile is built in: save it under a new name".into();
        req.prompt = Some(Prompt::SaveAs(LineInput::default()));
        return vec![];
    }
    key_choice::save_or_ask(req, profile.name.clone(), false)
}

/// Keys of the request view: the table's actions ([`KEYS`], then [`NORMAL_KEYS`] in normal
/// mode), the keys that move between fields, then editing.
fn request_key(
    req: &mut RequestState,
    profile: &CurrentProfile,
    key: KeyEvent,
) -> Vec<RequestEffect> {
    if let Some(action) = keymap::lookup(&KEYS, &key) {
        return run(req, profile, action);
    }
    match key.code {
        KeyCode::Tab => {
            req.normal_mode = false;
            req.focus = req.focus.next();
            return vec![];
        }
        KeyCode::BackTab => {
            req.normal_mode = false;
            req.focus = req.focus.prev();
            return vec![];
        }
        KeyCode::Esc => {
            req.normal_mode = true;
            return vec![];
        }
        _ => {}
    }
    if req.normal_mode {
        return match keymap::lookup(&NORMAL_KEYS, &key) {
            Some(action) => run(req, profile, action),
            None => vec![],
        };
    }
    field_key(req, key)
}

/// Run one action of the request view (from its key or from the command palette).
pub fn run(req: &mut RequestState, profile: &CurrentProfile, action: Action) -> Vec<RequestEffect> {
    match action {
        Action::Send => return send(req),
        Action::ToggleTimestamp => return toggle_timestamp(req),
        Action::ToggleForm => return toggle_form(req),
        Action::Format => return reformat_body(req, true),
        Action::Minify => return reformat_body(req, false),
        Action::EditExternally => {
            return vec![RequestEffect::EditBody(req.body.text().to_string())]
        }
        // The Response panel when it is shown and the cursor is not in the body; else the body.
        Action::Search => {
            let within = if req.detail == Detail::Response
                && req.response.is_some()
                && (req.normal_mode || req.focus != Field::Body)
            {
                SearchIn::Response
            } else {
                req.focus = Field::Body;
                req.normal_mode = false;
                SearchIn::Body
            };
            req.prompt = Some(Prompt::Search(within, Default::default()));
        }
        Action::ShowSent => show_sent(req),
        Action::RevealKey => req.key_info.revealed = !req.key_info.revealed,
        Action::CopySignature => return copy_signature(req),
        Action::CopyHeaders => return copy_headers(req),
        Action::CopyCurl => return copy_curl(req),
        Action::CopyBody => return copy_body(req),
        Action::CopyCanonical => return copy_canonical(req),
        Action::CopyResponse => return copy_response(req),
        Action::NextDetail => cycle_detail(req),
        Action::DetailPageDown => scroll_detail(req, req.detail_page.get()),
        Action::DetailPageUp => {
            req.detail_scroll = req
                .detail_scroll
                .min(req.detail_max.get())
                .saturating_sub(req.detail_page.get())
        }
        Action::SwitchProfile => return vec![RequestEffect::ListProfiles],
        Action::Save => return save_current(req, profile),
        Action::SaveAs => {
            req.prompt = Some(Prompt::SaveAs(LineInput::new(profile.name.clone())));
        }
        Action::Edit => req.normal_mode = false,
        Action::ScrollCanonicalDown => {
            req.canon_scroll = req.canon_scroll.saturating_add(1).min(req.canon_max.get())
        }
        Action::ScrollCanonicalUp => {
            req.canon_scroll = req.canon_scroll.min(req.canon_max.get()).saturating_sub(1)
        }
        Action::CanonicalTop => req.canon_scroll = 0,
        Action::CanonicalEnd => req.canon_scroll = req.canon_max.get(),
        Action::ScrollDetailDown => scroll_detail(req, 1),
        Action::ScrollDetailUp => req.detail_scroll = req.detail_scroll.saturating_sub(1),
        Action::NextRequest | Action::PrevRequest => {
            let delta = if action == Action::NextRequest { 1 } else { -1 };
            let changed = requests::step(req, delta);
            return resign_if(req, changed);
        }
        Action::AddRequest => requests::ask_name(req, NameAction::Add),
        Action::DuplicateRequest => requests::ask_name(req, NameAction::Duplicate),
        Action::RenameRequest => requests::ask_name(req, NameAction::Rename),
        Action::DeleteRequest => requests::ask_delete(req),
        Action::MoveRequestUp => requests::move_selected(req, -1),
        Action::MoveRequestDown => requests::move_selected(req, 1),
    }
    vec![]
}

/// The Response panel, showing the request as sent for the response (again: the answer).
fn show_sent(req: &mut RequestState) {
    if req.response.is_none() {
        req.status = format!(
            "nothing was sent yet: {} sends the request",
            KEYS.label_of(Action::Send)
        );
        return;
    }
    req.show_sent = req.detail != Detail::Response || !req.show_sent;
    req.detail = Detail::Response;
    req.detail_scroll = 0;
    req.detail_max.set(usize::MAX);
}

fn cycle_detail(req: &mut RequestState) {
    let i = Detail::ALL
        .iter()
        .position(|d| *d == req.detail)
        .unwrap_or(0);
    req.detail = Detail::ALL[(i + 1) % Detail::ALL.len()];
    req.show_sent = false;
    req.detail_scroll = 0;
    req.detail_max.set(usize::MAX);
}

/// Keys that edit the focused field.
fn field_key(req: &mut RequestState, key: KeyEvent) -> Vec<RequestEffect> {
    let focus = req.focus;
    if focus == Field::Body {
        use super::clipboard::{body_key, SelectionKey};
        let cut = match body_key(req, &key) {
            SelectionKey::Copied(effects) => return effects,
            SelectionKey::Cut(copy) => Some(copy),
            SelectionKey::Other => None,
        };
        let input = ratatui_textarea::Input::from(key);
        let changed = req.body.input(input);
        let mut effects = body_changed(req, changed);
        effects.extend(cut);
        return effects;
    }
    if key.code == KeyCode::Enter {
        req.focus = focus.next();
        return vec![];
    }
    if focus == Field::Method && matches!(key.code, KeyCode::Up | KeyCode::Down) {
        let cur = METHODS
            .iter()
            .position(|m| m.eq_ignore_ascii_case(req.method.text()));
        let n = METHODS.len();
        let next = match (cur, key.code) {
            (Some(i), KeyCode::Down) => (i + 1) % n,
            (Some(i), _) => (i + n - 1) % n,
            (None, _) => 0,
        };
        req.method.set(METHODS[next]);
        req.dirty = true;
        return resign(req);
    }
    if matches!(key.code, KeyCode::Up) {
        req.focus = focus.prev();
        return vec![];
    }
    if matches!(key.code, KeyCode::Down) {
        req.focus = focus.next();
        return vec![];
    }
    let changed = req
        .line_edit_mut(focus)
        .is_some_and(|edit| edit.edit(&key) == Edit::Changed);
    if !changed {
        return vec![];
    }
    field_changed(req, focus)
}

/// After a one-line field changed: freeze the timestamp if typed, track the key, re-sign.
fn field_changed(req: &mut RequestState, focus: Field) -> Vec<RequestEffect> {
    match focus {
        Field::Timestamp => req.ts_live = false,
        Field::RestKey => {
            // Back to the profile's key (Ctrl-Z, or typed again): the profile's label, and
            // nothing to save. A typed key is not an edit of the profile: saving asks where it
            // goes (`key_choice.rs`), and `unsaved` counts it.
            let text = req.rest_key.text();
            let pk = &req.profile_key;
            if text == pk.secret.expose() && req.key_resolving.is_none() {
                req.key_info.source = pk.source.clone();
                req.key_error = pk.error.clone();
            } else {
                req.key_info.source = TYPED_KEY.into();
                // The sentence about the source's failure is no longer true of the key used.
                if req.key_error.take().is_some() {
                    req.status = "signing with the typed REST key (not saved)".into();
                }
            }
        }
        _ => {}
    }
    if !matches!(focus, Field::Timestamp | Field::RestKey) {
        req.dirty = true;
    }
    if focus == Field::Url {
        return vec![];
    }
    resign(req)
}

/// After an edit of the body: `changed` is the first changed byte (None: nothing changed).
pub fn body_changed(req: &mut RequestState, changed: Option<usize>) -> Vec<RequestEffect> {
    let Some(at) = changed else {
        return vec![];
    };
    req.body_changed_at(at);
    req.dirty = true;
    resign(req)
}

/// Ask for a new signature of the current fields (the worker drops stale jobs).
/// [`resign`] when the editor's request changed.
fn resign_if(req: &mut RequestState, changed: bool) -> Vec<RequestEffect> {
    if changed {
        resign(req)
    } else {
        vec![]
    }
}

pub fn resign(req: &mut RequestState) -> Vec<RequestEffect> {
    let id = req.next_id();
    req.sign.requested = id;
    let check_json = req.body_state.json_rev != req.body_state.rev || req.sign.shown == 0;
    let changed_from = req.body_state.changed_from.take();
    vec![RequestEffect::Sign(Box::new(sign_job(
        req,
        id,
        changed_from,
        check_json,
    )))]
}

fn sign_job(req: &RequestState, id: u64, changed_from: Option<usize>, check_json: bool) -> SignJob {
    SignJob {
        id,
        spec: req.spec(),
        timestamp: req.timestamp.text().to_string(),
        key: req.key(),
        body_rev: req.body_state.rev,
        changed_from,
        check_json,
        form: req.form,
        body_marks: req.body.line_marks(),
    }
}

/// Switch the signing form of the edited request: standard <-> the vendor's PHP SDK form. The
/// signature, the send and the saved request follow it (`docs/signing.md`).
fn toggle_form(req: &mut RequestState) -> Vec<RequestEffect> {
    req.form = match req.form {
        SigningForm::Standard => SigningForm::PhpSdk,
        SigningForm::PhpSdk => SigningForm::Standard,
    };
    req.dirty = true;
    let (path, query) = (req.path.text(), req.query.text());
    let differences = req.form.differences(path, query);
    req.status = match req.form {
        SigningForm::Standard => "signing form: standard (path and query signed as sent)".into(),
        _ if differences.is_empty() => format!(
            "signing form: {} (no line differs for this path and query)",
            req.form.name()
        ),
        _ => format!(
            "signing form: {} ({}; marked * in the canonical text)",
            req.form.name(),
            differences.join(" and ")
        ),
    };
    resign(req)
}

fn toggle_timestamp(req: &mut RequestState) -> Vec<RequestEffect> {
    req.ts_live = !req.ts_live;
    if req.ts_live {
        req.timestamp.set(format_timestamp(req.now));
        req.status = "timestamp live (follows the clock)".into();
        resign(req)
    } else {
        req.status = format!("timestamp frozen at {}", req.timestamp.text());
        vec![]
    }
}

fn send(req: &mut RequestState) -> Vec<RequestEffect> {
    if req.url.text().trim().is_empty() {
        req.status = "the URL is empty; set the indexing base URL before sending".into();
        return vec![];
    }
    if req.key_resolving.is_some() && !req.key_typed() {
        req.status = "not sent: the REST key is still being read from the profile's source (Esc cancels; or type a key)".into();
        return vec![];
    }
    // No key because its source failed (an unset variable, a missing file): say that, as
    // the signature line does, rather than send and fail with "the key is empty".
    if let (Some(why), true) = (&req.key_error, req.rest_key.text().is_empty()) {
        req.status = format!("not sent: {why}");
        return vec![];
    }
    // The send sends the signed request shown: while it is being signed, it waits for it.
    if req.sign.updating() {
        req.send_when_signed = true;
        req.status = "signing… the request is sent once it is signed".into();
        return vec![];
    }
    let signed = match &req.sign.result {
        Some(Ok(s)) => s.request.clone(),
        Some(Err(e)) => {
            req.status = format!("not sent: {e}");
            return vec![];
        }
        None => {
            req.send_when_signed = true;
            req.status = "signing… the request is sent once it is signed".into();
            return vec![];
        }
    };
    let id = req.next_id();
    req.pending_send = Some(id);
    req.sending = true;
    let base_url = req.url.text().trim().to_string();
    let url = signed.url(&base_url);
    req.status = format!("sending {} {url}…", signed.method());
    vec![RequestEffect::Send(Box::new(SendJob {
        id,
        request_name: Some(req.requests.selected_name().to_string()),
        url,
        base_url,
        key: req.key(),
        signed,
    }))]
}

/// The full URL the request goes to: the base URL with the signed request's path and query
/// (None until the request is signed).
pub fn target_url(req: &RequestState) -> Option<String> {
    signed_view(req).map(|s| s.url(req.url.text()))
}

/// The signed request shown, whether or not it is up to date with the fields.
pub fn signed_view(req: &RequestState) -> Option<&SignedView> {
    req.sign.result.as_ref().and_then(|r| r.as_ref().ok())
}

fn current_signature(req: &mut RequestState) -> Option<SignedView> {
    match (&req.sign.result, req.sign.updating()) {
        (Some(Ok(s)), false) => Some(s.clone()),
        (_, true) => {
            req.status = "the signature is still updating; try again in a moment".into();
            None
        }
        (Some(Err(e)), _) => {
            req.status = e.clone();
            None
        }
        (None, _) => None,
    }
}

fn copy_signature(req: &mut RequestState) -> Vec<RequestEffect> {
    match current_signature(req) {
        Some(s) => vec![RequestEffect::Copy {
            text: s.signature().to_string(),
            what: "the signature".into(),
        }],
        None => vec![],
    }
}

fn copy_headers(req: &mut RequestState) -> Vec<RequestEffect> {
    match current_signature(req) {
        Some(s) => {
            let headers = s.headers().to_vec();
            vec![RequestEffect::Copy {
                what: format!("the {} signed headers", headers.len()),
                text: header_text(&headers),
            }]
        }
        None => vec![],
    }
}

fn copy_curl(req: &mut RequestState) -> Vec<RequestEffect> {
    match current_signature(req) {
        Some(s) => vec![RequestEffect::Copy {
            text: crate::core::curl::to_curl(
                &s.method(),
                &s.url(req.url.text()),
                &s.headers().to_vec(),
                crate::core::curl::CurlBody::Inline(&s.spec().body),
            ),
            what: "the request as curl".into(),
        }],
        None => vec![],
    }
}

fn copy_body(req: &mut RequestState) -> Vec<RequestEffect> {
    match current_signature(req) {
        Some(s) => {
            let body = &s.spec().body;
            vec![RequestEffect::Copy {
                text: String::from_utf8_lossy(body).into_owned(),
                what: format!("the body ({} bytes)", body.len()),
            }]
        }
        None => vec![],
    }
}

/// The canonical text that was signed (the live clock or the frozen timestamp, in the form
/// chosen).
fn copy_canonical(req: &mut RequestState) -> Vec<RequestEffect> {
    match current_signature(req) {
        Some(s) => {
            let text = s.canonical().to_bytes();
            vec![RequestEffect::Copy {
                what: format!("the canonical text ({} bytes)", text.len()),
                text: String::from_utf8_lossy(&text).into_owned(),
            }]
        }
        None => vec![],
    }
}

fn copy_response(req: &mut RequestState) -> Vec<RequestEffect> {
    match &req.response {
        Some(r) => vec![RequestEffect::Copy {
            text: r.raw.lines.join("\n"),
            what: format!("the response body ({}, {} bytes)", r.status, r.body_len),
        }],
        None => {
            req.status = format!(
                "no response yet: send the request first ({})",
                KEYS.label_of(Action::Send)
            );
            vec![]
        }
    }
}

/// `Name: value` lines.
pub fn header_text(headers: &[(String, String)]) -> String {
    headers
        .iter()
        .map(|(n, v)| format!("{n}: {v}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Format (pretty) or minify the body as JSON. Invalid JSON is left alone with a status line.
fn reformat_body(req: &mut RequestState, pretty: bool) -> Vec<RequestEffect> {
    let value: serde_json::Value = match serde_json::from_slice(req.body.bytes()) {
        Ok(v) => v,
        Err(e) => {
            req.status = format!(
                "cannot {} the body: not valid JSON at line {} column {}",
                if pretty { "format" } else { "minify" },
                e.line(),
                e.column()
            );
            return vec![];
        }
    };
    let text = match if pretty {
        serde_json::to_string_pretty(&value)
    } else {
        serde_json::to_string(&value)
    } {
        Ok(t) => t,
        Err(e) => {
            req.status = format!("cannot write the body back as JSON: {e}");
            return vec![];
        }
    };
    let changed = req.body.set_text(&text);
    req.status = if pretty {
        "body formatted"
    } else {
        "body minified"
    }
    .into();
    body_changed(req, changed)
}

/// The mouse over the request view (`screen` is the whole terminal).
fn on_mouse(req: &mut RequestState, m: MouseEvent, screen: Rect) -> Vec<RequestEffect> {
    let l = request_layout(screen);
    let pos = Position::new(m.column, m.row);
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            for (field, rect) in &l.fields {
                if rect.contains(pos) {
                    req.focus = *field;
                    req.normal_mode = false;
                    if *field == Field::Body {
                        // Put the cursor where the click was (inside the block's border).
                        let (dy, dx) = (
                            m.row.saturating_sub(rect.y + 1),
                            m.column.saturating_sub(rect.x + 1),
                        );
                        req.body.click(dy as usize, dx as usize);
                    }
                    return vec![];
                }
            }
            if l.detail.contains(pos) {
                cycle_detail_if_title(req, &l, pos);
            }
            vec![]
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let down = m.kind == MouseEventKind::ScrollDown;
            let step = |v: usize| {
                if down {
                    v.saturating_add(3)
                } else {
                    v.saturating_sub(3)
                }
            };
            if l.canonical.contains(pos) {
                req.canon_scroll = step(req.canon_scroll);
            } else if l.detail.contains(pos) {
                req.detail_scroll = step(req.detail_scroll).min(req.detail_max.get());
            } else if l.body.contains(pos) {
                let input = ratatui_textarea::Input::from(m);
                req.body.input(input);
            }
            vec![]
        }
        _ => vec![],
    }
}

fn cycle_detail_if_title(req: &mut RequestState, l: &RequestLayout, pos: Position) {
    if pos.y == l.detail.y {
        cycle_detail(req);
    }
}

/// Scroll the detail panel down by `n` rows, no further than its last line.
fn scroll_detail(req: &mut RequestState, n: usize) {
    req.detail_scroll = req
        .detail_scroll
        .saturating_add(n)
        .min(req.detail_max.get());
}
