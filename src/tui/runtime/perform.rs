//! The effect performer: runs the Commands `update` returns (signing worker, engine sends,
//! profile store, files, clipboard) off the draw path, and answers with Messages.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use chrono::Utc;
use tokio::sync::mpsc::UnboundedSender;

use super::profile::{open_current, stored_body, without_body};
use super::send::{send, send_events};
use crate::engine::{Sender, Session};
use crate::store::{KeySource, SaveOptions, EMBEDDED_URL};
use crate::tui::components::diagnose::capture::{
    capture_fields, diagnose_capture_with, judged_at, parse_capture_with,
};
use crate::tui::components::diagnose::DiagnoseMsg;
use crate::tui::components::events::{EventsEffect, EventsMsg, ValidateWorker};
use crate::tui::components::history::{HistoryMsg, HistoryRow};
use crate::tui::components::lesson::{LessonEffect, LessonMsg};
use crate::tui::components::profiles::{ProfilesEffect, ProfilesMsg};
use crate::tui::components::request::{AccountChange, RequestMsg};
use crate::tui::effect::Command;
use crate::tui::message::{LoadedProfile, Message};
use crate::tui::model::EditorRequest;
use crate::tui::signing::SignWorker;

/// What "no session" answers (tests that need no disk).
const NO_SESSION: &str = "profiles are not available (no config directory)";

/// Everything the runtime owns besides the App.
pub struct Effects {
    pub tx: UnboundedSender<Message>,
    pub signer: SignWorker,
    /// Validates big event batches off the draw path.
    pub validator: ValidateWorker,
    /// Sends without a session (nothing recorded, no profile marked), and reads what the local
    /// collector stored.
    offline: Sender,
    pub clipboard: Option<arboard::Clipboard>,
    /// The engine's session: profiles, history, the embedded server (None in tests that need no
    /// disk).
    pub session: Option<Session>,
    /// The REST key read under way (its job id) and the flag that stops it.
    key_read: Option<(u64, Arc<AtomicBool>)>,
}

/// The permission bits of an existing file.
fn existing_mode(path: &std::path::Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777)
}

impl Effects {
    pub fn new(tx: UnboundedSender<Message>) -> Self {
        let out = tx.clone();
        let signer = SignWorker::spawn(move |a| {
            let _ = out.send(Message::Request(RequestMsg::from(a)));
        });
        let out = tx.clone();
        let validator = ValidateWorker::spawn(move |v| {
            let _ = out.send(Message::Events(EventsMsg::Validated(Box::new(v))));
        });
        Effects {
            tx,
            signer,
            validator,
            offline: Sender::unrecorded(),
            clipboard: None,
            session: None,
            key_read: None,
        }
    }

    /// The engine's sender for the profile in use (records in the history), or one that records
    /// nothing when there is no session.
    fn sender(&self) -> Sender {
        match &self.session {
            Some(s) => s.sender(),
            None => self.offline.clone(),
        }
    }

    /// Remember the session's profile as the last used one, on a blocking thread (the write
    /// syncs to disk): the workbench opens its session unmarked and does this after the first
    /// frame (`docs/architecture.md`, "Last used profile").
    pub fn mark_last_used(&self) {
        if let Some(s) = &self.session {
            tokio::task::spawn_blocking(s.last_used_marker());
        }
    }

    /// Execute one command that does not need the terminal.
    pub fn execute(&mut self, cmd: Command) {
        match cmd {
            Command::Sign(job) => {
                tracing::trace!(
                    job = job.id,
                    body_len = job.spec.body.len(),
                    changed_from = ?job.changed_from,
                    "sign job"
                );
                self.signer.submit(*job)
            }
            Command::Send(job) => {
                let tx = self.tx.clone();
                let sender = self.sender();
                // The history names the saved request the editor held.
                let sender = match &job.request_name {
                    Some(n) => sender.with_request_name(Some(n.clone())),
                    None => sender,
                };
                tracing::debug!(
                    job = job.id,
                    url = %job.url,
                    method = %job.signed.spec().method,
                    body_len = job.signed.spec().body.len(),
                    timestamp = %job.signed.timestamp(),
                    "send started"
                );
                tokio::spawn(async move {
                    let id = job.id;
                    let started = std::time::Instant::now();
                    let result = send(sender, *job, tx.clone()).await;
                    let ms = started.elapsed().as_secs_f64() * 1000.0;
                    match &result {
                        Ok(v) => tracing::debug!(
                            job = id,
                            status = v.status,
                            code = v.code.as_deref().unwrap_or("-"),
                            elapsed_ms = ms,
                            "send finished"
                        ),
                        Err(e) => {
                            tracing::debug!(job = id, error = %e, elapsed_ms = ms, "send failed")
                        }
                    }
                    let _ = tx.send(Message::Request(RequestMsg::SendDone { id, result }));
                });
            }
            Command::ListProfiles => {
                let msg = match &self.session {
                    Some(sess) => {
                        let mut names = vec![crate::store::DEMO_PROFILE.to_string()];
                        names.extend(sess.store().saved_names());
                        Ok(names)
                    }
                    None => Err(NO_SESSION.into()),
                };
                let _ = self.tx.send(Message::ProfileList(msg));
            }
            Command::LoadProfile(name) => {
                tracing::debug!(profile = %name, "load profile");
                let msg = self.load_profile(&name);
                let loaded = msg.is_ok();
                let _ = self.tx.send(Message::ProfileLoaded(msg));
                if loaded {
                    if let Some(note) = self.forward_for_profile() {
                        let _ = self.tx.send(Message::Status(note));
                    }
                }
            }
            Command::SaveProfile {
                name,
                as_new,
                requests,
                selected_request,
                request,
                typed_key,
                events,
                analytics_url,
            } => {
                tracing::debug!(
                    profile = %name,
                    typed_key = typed_key.is_some(),
                    requests = requests.len(),
                    "save profile"
                );
                let msg = self.save_profile(
                    (name, as_new),
                    (requests, selected_request),
                    *request,
                    (typed_key, events, analytics_url),
                );
                match &msg {
                    Ok(saved) => tracing::debug!(profile = %saved, "profile save done"),
                    Err(e) => tracing::debug!(error = %e, "profile save failed"),
                }
                let _ = self.tx.send(Message::ProfileSaved(msg));
            }
            Command::Diagnose {
                text,
                body,
                client_text,
                key,
                prefix,
                own_time,
            } => {
                let (at, note) = judged_at(&text, body.as_deref(), &prefix, own_time, Utc::now());
                let (ok, mut lines) = diagnose_capture_with(
                    &text,
                    body.as_deref(),
                    client_text.as_deref().map(str::as_bytes),
                    &key,
                    &prefix,
                    at,
                );
                lines.extend(note);
                tracing::debug!(capture_len = text.len(), accepted = ok, "capture diagnosed");
                let _ = self
                    .tx
                    .send(Message::Diagnose(DiagnoseMsg::Diagnosed { ok, lines }));
            }
            Command::ReadCaptureBody { file } => {
                let result = read_capture_body(&file);
                let _ = self
                    .tx
                    .send(Message::Diagnose(DiagnoseMsg::BodyFile { file, result }));
            }
            Command::ParseCapture { text, body, prefix } => {
                let msg = match parse_capture_with(&text, body.as_deref()) {
                    Ok(req) => {
                        let (fields, timestamp) = capture_fields(&req, &prefix);
                        Message::LoadRequest {
                            request: Box::new(fields),
                            timestamp,
                        }
                    }
                    Err(e) => Message::Diagnose(DiagnoseMsg::Diagnosed {
                        ok: false,
                        lines: vec![e],
                    }),
                };
                let _ = self.tx.send(msg);
            }
            Command::Events(e) => self.events_effect(e),
            Command::History(_) | Command::ReloadHistory => self.reload_history(),
            Command::Profiles(e) => self.profiles_effect(e),
            Command::ReloadProfiles => self.reload_profiles(),
            Command::FollowTraffic(base) => {
                let tx = self.tx.clone();
                let started = crate::tui::components::traffic::feed::spawn(&base, move |m| {
                    tx.send(Message::Traffic(m)).is_ok()
                });
                if let Err(e) = started {
                    let _ = self.tx.send(Message::Traffic(
                        crate::tui::components::traffic::TrafficMsg::Waiting(format!("{e:#}")),
                    ));
                }
            }
            Command::OpenHar { path, key } => {
                let (tx, done) = (self.tx.clone(), self.tx.clone());
                crate::tui::components::traffic::feed::open_har(
                    path,
                    key,
                    move |m| tx.send(Message::Traffic(m)).is_ok(),
                    move |s| {
                        let _ = done.send(Message::Status(s));
                    },
                );
            }
            Command::WriteHar { path, text } => {
                let tx = self.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let _ = tx.send(Message::Status(
                        crate::tui::components::traffic::har::write_file(&path, &text),
                    ));
                });
            }
            Command::Lesson(e) => self.lesson_effect(e),
            Command::Copy { text, what } => {
                tracing::debug!(what = %what, "copy");
                let result = self.copy(&text, what);
                let _ = self.tx.send(Message::Copied(result));
            }
            Command::ResolveKey { id, source } => {
                // One read at a time: a newer profile's read stops the older one.
                if let Some((_, stop)) = self.key_read.take() {
                    stop.store(true, Ordering::Relaxed);
                }
                let stop = Arc::new(AtomicBool::new(false));
                self.key_read = Some((id, stop.clone()));
                tracing::debug!(job = id, source = source.kind(), "REST key read started");
                let tx = self.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let result = source
                        .resolve_cancellable(crate::tui::KEY_COMMAND_TIMEOUT, &stop)
                        .map_err(|e| e.to_string());
                    let _ = tx.send(Message::Request(RequestMsg::KeyResolved { id, result }));
                });
            }
            Command::CancelKey(id) => {
                if let Some((running, stop)) = self.key_read.take() {
                    if running == id {
                        tracing::debug!(job = id, "REST key read cancelled");
                        stop.store(true, Ordering::Relaxed);
                    } else {
                        self.key_read = Some((running, stop));
                    }
                }
            }
            Command::EditBody(_) | Command::Quit => {}
        }
    }

    fn events_effect(&mut self, e: EventsEffect) {
        let tx = self.tx.clone();
        match e {
            EventsEffect::SendEvents {
                analytics_url,
                body,
            } => {
                tracing::debug!(url = %analytics_url, body_len = body.len(), "events send started");
                let sender = self.sender();
                let key_source = self.session.as_ref().map(|s| s.profile().rest_key.clone());
                tokio::spawn(async move {
                    let result =
                        send_events(sender, analytics_url, body, key_source, tx.clone()).await;
                    match &result {
                        Ok(r) => tracing::debug!(
                            status = r.status,
                            elapsed_ms = r.elapsed_ms,
                            "events send finished"
                        ),
                        Err(e) => tracing::debug!(error = %e, "events send failed"),
                    }
                    let _ = tx.send(Message::Events(EventsMsg::Sent(result)));
                });
            }
            EventsEffect::FetchStored { url } => {
                let sender = self.offline.clone();
                tokio::spawn(async move {
                    let result = sender.get_text(&url).await.map_err(|e| e.to_string());
                    let _ = tx.send(Message::Events(EventsMsg::Stored(result)));
                });
            }
            EventsEffect::LoadFile(path) => {
                tracing::debug!(path = %path.display(), "load events file");
                tokio::task::spawn_blocking(move || {
                    let msg = match std::fs::read_to_string(&path) {
                        Ok(text) => EventsMsg::FileLoaded { path, text },
                        Err(e) => {
                            EventsMsg::FileError(format!("cannot read {}: {e}", path.display()))
                        }
                    };
                    let _ = tx.send(Message::Events(msg));
                });
            }
            EventsEffect::SaveNewFile(path, text) => {
                tokio::task::spawn_blocking(move || {
                    let msg = if std::fs::symlink_metadata(&path).is_ok() {
                        EventsMsg::FileExists(path)
                    } else {
                        match crate::store::profile::write_atomic(&path, text.as_bytes(), 0o644) {
                            Ok(()) => EventsMsg::FileSaved(path),
                            Err(e) => EventsMsg::FileError(e.to_string()),
                        }
                    };
                    let _ = tx.send(Message::Events(msg));
                });
            }
            EventsEffect::SaveFile(path, text) => {
                tracing::debug!(path = %path.display(), bytes = text.len(), "save events file");
                tokio::task::spawn_blocking(move || {
                    // Atomic (temp file + rename): a failed save leaves the old file whole.
                    // An existing file keeps its permissions.
                    let mode = existing_mode(&path).unwrap_or(0o644);
                    let msg =
                        match crate::store::profile::write_atomic(&path, text.as_bytes(), mode) {
                            Ok(()) => EventsMsg::FileSaved(path),
                            Err(e) => EventsMsg::FileError(e.to_string()),
                        };
                    let _ = tx.send(Message::Events(msg));
                });
            }
            // The router says these itself (the status line, the one copy command).
            EventsEffect::Status(_) | EventsEffect::Copy { .. } => {}
            EventsEffect::Validate(job) => {
                tracing::trace!(rev = job.rev, "events validation job");
                self.validator.submit(*job);
            }
        }
    }

    /// The lesson's progress file, shared with `signscope learn` (`learn.json` in the data
    /// directory).
    fn lesson_effect(&mut self, e: LessonEffect) {
        let dir = crate::store::Paths::discover().map(|p| p.data_dir);
        match e {
            LessonEffect::LoadProgress => {
                let result = dir
                    .map_err(|e| e.to_string())
                    .and_then(|d| crate::learn::progress::load(&d).map_err(|e| format!("{e:#}")));
                let _ = self
                    .tx
                    .send(Message::Lesson(LessonMsg::ProgressLoaded(result)));
            }
            LessonEffect::SaveProgress(p) => {
                let saved = dir.map_err(|e| e.to_string()).and_then(|d| {
                    crate::learn::progress::save(&d, &p).map_err(|e| format!("{e:#}"))
                });
                if let Err(e) = saved {
                    tracing::debug!(error = %e, "lesson progress not saved");
                    let _ = self.tx.send(Message::Lesson(LessonMsg::SaveFailed(e)));
                }
            }
            LessonEffect::Status(_) => {}
        }
    }

    fn reload_history(&mut self) {
        let Some(sess) = &self.session else { return };
        let history = sess.history().clone();
        // Entries sent to the in-process server (the demo's) go to this run's, not to the port
        // of the run that recorded them.
        let in_process = sess.running_embedded_url();
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let (entries, warnings) = history.load(1000);
            let rows = entries
                .iter()
                .map(|e| {
                    let mut row = HistoryRow::from(e);
                    row.url = e.request.url_now(&e.profile, in_process.as_deref());
                    row
                })
                .collect();
            let _ = tx.send(Message::History(HistoryMsg::Loaded { rows, warnings }));
        });
    }

    fn reload_profiles(&mut self) {
        let Some(sess) = &self.session else { return };
        let report = sess.store().list();
        let msg = ProfilesMsg::Loaded {
            profiles: report.profiles.into_iter().map(without_body).collect(),
            errors: report.errors.iter().map(|e| e.to_string()).collect(),
            dir: sess.store().dir(),
        };
        let _ = self.tx.send(Message::Profiles(msg));
    }

    fn profiles_effect(&mut self, e: ProfilesEffect) {
        let Some(sess) = self.session.as_mut() else {
            let _ = self
                .tx
                .send(Message::Profiles(ProfilesMsg::Failed(NO_SESSION.into())));
            return;
        };
        tracing::debug!(effect = profiles_effect_name(&e), "profile manager");
        // The profile in use, saved with other forward URLs: the in-process server follows.
        let forward_change = match &e {
            ProfilesEffect::SaveProfile(p, _)
                if p.name == sess.profile().name
                    && (p.forward_indexing != sess.profile().forward_indexing
                        || p.forward_analytics != sess.profile().forward_analytics) =>
            {
                Some((p.forward_indexing.clone(), p.forward_analytics.clone()))
            }
            _ => None,
        };
        // A handle (cheap): the session itself changes when the profile in use is renamed.
        let store = &sess.store().clone();
        // Said after the manager's own answer, so that the status line ends with what the
        // request view kept.
        let mut account = None;
        let result = match e {
            ProfilesEffect::SaveProfile(mut p, source) => stored_body(store, source.as_deref())
                .and_then(|body| {
                    p.request_mut().body = body;
                    store.save(&p).map_err(|e| e.to_string())
                })
                .map(|o| {
                    // The profile in use: the session holds what was saved (the next Ctrl-S
                    // starts from it, with no conflict) and the request view follows.
                    if p.name == sess.profile().name {
                        let change = account_change(sess, &p);
                        let mut saved = *p;
                        saved.request_mut().body = bytes::Bytes::new();
                        saved.mark_saved(&o);
                        *sess.profile_mut() = saved;
                        let change = change(sess);
                        account = Some(change).filter(AccountChange::changes_anything);
                    }
                    o.message()
                }),
            ProfilesEffect::DeleteProfile(name) => store
                .delete(&name)
                .map(|path| format!("deleted profile {name} ({})", path.display()))
                .map_err(|e| e.to_string()),
            ProfilesEffect::RenameProfile { from, mut profile } => stored_body(store, Some(&from))
                .and_then(|body| {
                    profile.request_mut().body = body;
                    let outcome = store
                        .save(&profile)
                        .and_then(|o| store.delete(&from).map(|_| o))
                        .map_err(|e| e.to_string())?;
                    // The profile in use follows its file: the next Ctrl-S saves under the new
                    // name, not the old one again.
                    if sess.profile().name == from {
                        sess.profile_mut().name = profile.name.clone();
                        sess.profile_mut().mark_saved(&outcome);
                        let _ = self.tx.send(Message::ProfileRenamed {
                            from: from.clone(),
                            to: profile.name.clone(),
                        });
                    }
                    Ok(format!("renamed {from} to {}", profile.name))
                }),
            ProfilesEffect::Activate(_) | ProfilesEffect::Status(_) => return,
        };
        let msg = match result {
            Ok(mut m) => {
                tracing::debug!(outcome = %m, "profile manager done");
                if let Some((indexing, analytics)) = forward_change {
                    sess.profile_mut().forward_indexing = indexing;
                    sess.profile_mut().forward_analytics = analytics;
                    if let Some(note) = self.forward_for_profile() {
                        m = format!("{m}; {note}");
                    }
                }
                ProfilesMsg::Done(m)
            }
            Err(e) => {
                tracing::debug!(error = %e, "profile manager failed");
                ProfilesMsg::Failed(e)
            }
        };
        let _ = self.tx.send(Message::Profiles(msg));
        if let Some(change) = account {
            let msg = RequestMsg::AccountSaved(Box::new(change));
            let _ = self.tx.send(Message::Request(msg));
        }
        self.reload_profiles();
    }

    /// Switch the session to another profile (it becomes the last used one) and hand it to the
    /// workbench.
    fn load_profile(&mut self, name: &str) -> Result<LoadedProfile, String> {
        let sess = self.session.as_mut().ok_or(NO_SESSION)?;
        sess.switch(name).map_err(|e| e.to_string())?;
        let (loaded, note) = open_current(sess);
        if let Some(note) = note {
            tracing::debug!(note = %note, "profile URL not resolved");
        }
        Ok(loaded)
    }

    /// Point the in-process server's forwarding at the current profile's upstreams (none when
    /// it names none): a profile switch changes where requests go from the next one on, on the
    /// same address (`docs/server.md` rule W10). Returns why a URL of the profile cannot be
    /// used, for the status line.
    fn forward_for_profile(&mut self) -> Option<String> {
        self.session.as_ref()?.forward_embedded()
    }

    /// Save the editor's request under `name` in the session's profile (its key source and
    /// file state kept; a typed key stored only when the user chose that; the Events batch when
    /// it was edited). `as_new`: saved under a new name, a new file. The saved profile becomes
    /// the current, last used one.
    fn save_profile(
        &mut self,
        (name, as_new): (String, bool),
        (requests, selected): (Vec<crate::store::SavedRequest>, usize),
        request: EditorRequest,
        (typed_key, events, analytics_url): (
            Option<crate::core::Secret>,
            Option<String>,
            Option<String>,
        ),
    ) -> Result<String, String> {
        let sess = self.session.as_mut().ok_or(NO_SESSION)?;
        let embedded = sess.running_embedded_url();
        let mut p = sess.profile().clone();
        if as_new || p.name != name {
            p.origin = None; // a new file
        }
        if let Some(batch) = events {
            p.events = Some(batch);
        }
        p.name = name;
        if !requests.is_empty() {
            p.replace_requests(requests, selected)
                .map_err(|e| e.to_string())?;
        }
        // The in-process server's URL changes every run: saved as `embedded`.
        let as_saved = |url: String| {
            if Some(&url) == embedded.as_ref() {
                EMBEDDED_URL.to_string()
            } else {
                url
            }
        };
        p.indexing_url = as_saved(request.url);
        if let Some(url) = analytics_url {
            p.analytics_url = as_saved(url);
        }
        // The prefix and the public key are the account's: every request of the profile uses
        // them.
        p.set_header_prefix(&request.spec.header_prefix);
        p.set_api_key(&request.spec.api_key);
        // The editor's buffer itself (shared): the body is not copied to be saved.
        *p.request_mut() = request.spec;
        if let Some(k) = typed_key {
            p.rest_key = KeySource::Stored(k);
        }
        sess.save(p, SaveOptions::default())
            .map_err(|e| e.to_string())?;
        // The body lives in the editor; the session keeps the profile without it.
        sess.profile_mut().request_mut().body = bytes::Bytes::new();
        Ok(sess.profile().name.clone())
    }

    /// Copy to the system clipboard, or with an OSC 52 escape (works over SSH in most terminals).
    /// `what` names what was copied (the component that asked knows).
    fn copy(&mut self, text: &str, what: String) -> Result<String, String> {
        if self.clipboard.is_none() {
            self.clipboard = arboard::Clipboard::new().ok();
        }
        if let Some(cb) = self.clipboard.as_mut() {
            if cb.set_text(text.to_string()).is_ok() {
                return Ok(what);
            }
        }
        use base64::Engine;
        let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
        let mut out = std::io::stdout();
        write!(out, "\x1b]52;c;{b64}\x07")
            .and_then(|_| out.flush())
            .map_err(|e| format!("could not copy to the clipboard: {e}"))?;
        Ok(format!("{what} (via the terminal, OSC 52)"))
    }
}

impl Drop for Effects {
    /// Quitting stops a key command still running (a `pass` waiting for a PIN): the runtime
    /// would otherwise wait for it before the process can exit.
    fn drop(&mut self) {
        if let Some((_, stop)) = self.key_read.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The account values of the profile in use before a save of `new`; the returned closure
/// completes them with the session's values after it (URLs as the fields show them: the
/// in-process server's address for `embedded`).
fn account_change(
    sess: &mut Session,
    new: &crate::store::Profile,
) -> impl FnOnce(&mut Session) -> AccountChange {
    let url = sess.indexing_url().unwrap_or_default();
    let old = sess.profile();
    let before = (
        url,
        old.request().header_prefix.clone(),
        old.request().api_key.clone(),
    );
    let key_source = (old.rest_key != new.rest_key).then(|| new.rest_key.clone());
    let name = new.name.clone();
    move |sess| {
        let url = sess.indexing_url().unwrap_or_default();
        let p = sess.profile();
        AccountChange {
            name,
            url: (before.0, url),
            prefix: (before.1, p.request().header_prefix.clone()),
            api_key: (before.2, p.request().api_key.clone()),
            key_source,
        }
    }
}

fn profiles_effect_name(e: &ProfilesEffect) -> &'static str {
    match e {
        ProfilesEffect::SaveProfile(..) => "save",
        ProfilesEffect::DeleteProfile(_) => "delete",
        ProfilesEffect::RenameProfile { .. } => "rename",
        ProfilesEffect::Activate(_) => "activate",
        ProfilesEffect::Status(_) => "status",
    }
}

/// The body file a pasted curl command names, read relative to the working directory; or why
/// not, in one sentence naming the file.
pub fn read_capture_body(file: &str) -> Result<Vec<u8>, String> {
    std::fs::read(file).map_err(|e| {
        let cwd = std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|_| "the working directory".into());
        format!(
            "cannot read the body file {file} (looked for from {cwd}): {}",
            crate::store::io_reason(&e)
        )
    })
}
