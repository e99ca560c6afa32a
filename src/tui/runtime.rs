//! The event loop: terminal input, command results and signals become Messages; `update` turns
//! them into Commands, executed here off the draw path; the screen is redrawn only after
//! something changed. No timer runs unless the live timestamp is on screen (1 s tick).

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use chrono::Utc;
use crossterm::event::{Event, EventStream};
use futures::StreamExt;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use super::app::App;
use super::components::diagnose::capture::{capture_fields, diagnose_capture, parse_capture};
use super::components::events::{EventsEffect, EventsMsg, SendReport, ValidateWorker};
use super::components::history::{HistoryEffect, HistoryMsg, HistoryRow};
use super::components::profiles::{ProfilesEffect, ProfilesMsg};
use super::components::request::response::{format_json, response_view, FORMAT_INLINE_LIMIT};
use super::effect::{Command, SendJob};
use super::message::{LoadedProfile, Message};
use super::model::{RequestFields, ResponseView};
use super::signing::SignWorker;
use super::terminal::{self, Term};
use super::update::update;
use crate::core::time::format_timestamp;
use crate::core::visible::visible_lines;
use crate::store::{
    History, HistoryEntry, KeySource, Profile, ProfileStore, DEMO_PROFILE, EMBEDDED_URL,
};

/// Everything the runtime owns besides the App.
pub struct Effects {
    pub tx: UnboundedSender<Message>,
    pub signer: SignWorker,
    /// Validates big event batches off the draw path.
    pub validator: ValidateWorker,
    pub http: reqwest::Client,
    pub clipboard: Option<arboard::Clipboard>,
    /// Profiles, history and the embedded server (None in tests that need no disk).
    pub session: Option<Session>,
}

/// The on-disk side of a run: where profiles and history live, the profile being edited, and
/// the in-process local server when a profile uses it.
pub struct Session {
    pub store: ProfileStore,
    pub history: History,
    /// The profile as loaded or last saved (its key source, events, file state).
    pub current: Profile,
    pub server: Option<Embedded>,
}

impl Session {
    /// The URL of the embedded server, starting it on first use.
    pub fn embedded_url(&mut self) -> Result<String, String> {
        let server = match self.server.take() {
            Some(s) => s,
            None => Embedded::start()?,
        };
        let url = server.url.clone();
        self.server = Some(server);
        Ok(url)
    }

    /// The base URL a profile's indexing URL stands for.
    pub fn base_url(&mut self, p: &Profile) -> Result<String, String> {
        if p.indexing_url == EMBEDDED_URL {
            self.embedded_url()
        } else {
            Ok(p.indexing_url.clone())
        }
    }
}

/// The permission bits of an existing file.
fn existing_mode(path: &std::path::Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777)
}

/// A profile as the profile manager and the session hold it: without its body, which can be
/// many megabytes, lives in the editor and stays on disk (a save from the manager takes it from
/// there, see [`stored_body`]).
fn without_body(mut p: Profile) -> Profile {
    p.request.body = bytes::Bytes::new();
    p
}

/// A copy of `p` without its body, without copying the body.
pub fn copy_without_body(p: &mut Profile) -> Profile {
    let body = std::mem::take(&mut p.request.body);
    let copy = p.clone();
    p.request.body = body;
    copy
}

/// A body as the editor's text: the buffer itself when it is not shared and is UTF-8.
fn body_string(body: bytes::Bytes) -> String {
    String::from_utf8(Vec::from(body))
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The body a profile saved from the manager keeps: that of the stored profile `source` (the
/// built-in demo's for "demo"), or none.
fn stored_body(store: &ProfileStore, source: Option<&str>) -> Result<bytes::Bytes, String> {
    match source {
        None => Ok(bytes::Bytes::new()),
        Some(DEMO_PROFILE) => Ok(Profile::demo().request.body),
        Some(name) => store
            .load(name)
            .map(|p| p.request.body)
            .map_err(|e| e.to_string()),
    }
}

/// The in-process local server on 127.0.0.1:0 (stopped when dropped).
pub struct Embedded {
    pub url: String,
    _server: crate::server::BackgroundServer,
}

impl Embedded {
    /// The demo server on a free loopback port.
    pub fn start() -> Result<Embedded, String> {
        Embedded::start_with(crate::server::ServerConfig::demo(), None)
    }

    /// A server with `config` on `listen` (`signscope --listen`), or on a free loopback port.
    /// A taken port is one sentence naming it.
    pub fn start_with(
        config: crate::server::ServerConfig,
        listen: Option<std::net::SocketAddr>,
    ) -> Result<Embedded, String> {
        let addr = listen.unwrap_or_else(|| std::net::SocketAddr::from(([127, 0, 0, 1], 0)));
        let server = crate::server::spawn_background(config, addr).map_err(|e| match listen {
            Some(a) if e.kind() == std::io::ErrorKind::AddrInUse => format!(
                "--listen {a}: port {} is already in use on {}; choose another port or stop the program holding it",
                a.port(),
                a.ip()
            ),
            Some(a) => format!("--listen {a}: the local server could not listen there: {e}"),
            None => format!("the local server could not start on 127.0.0.1: {e}"),
        })?;
        Ok(Embedded {
            url: server.url(),
            _server: server,
        })
    }
}

/// A profile as the workbench shows it (its REST key resolved). `embedded` is the URL of the
/// in-process server (for profiles whose URLs say "embedded").
pub fn loaded_profile(mut p: Profile, base_url: String, embedded: Option<&str>) -> LoadedProfile {
    let local = p.analytics_url == EMBEDDED_URL;
    let analytics_url = if local {
        embedded.unwrap_or_default().to_string()
    } else {
        p.analytics_url.clone()
    };
    let (key, key_source) = match p.rest_key.resolve() {
        Ok(k) => (Some(k), p.rest_key.describe()),
        Err(e) => (None, format!("{} — {e}", p.rest_key.describe())),
    };
    LoadedProfile {
        name: p.name.clone(),
        is_demo: p.is_demo(),
        analytics_url,
        local,
        events: p.events.clone(),
        fields: RequestFields {
            url: base_url,
            method: p.request.method.clone(),
            path: p.request.path.clone(),
            query: p.request.query.clone(),
            prefix: p.request.header_prefix.clone(),
            api_key: p.request.api_key.clone(),
            content_type: p.request.content_type.clone(),
            auth_algo: p.request.auth_algo.clone(),
            // The body moves to the editor (its buffer, when not shared); the profile kept for
            // the manager has none.
            body: body_string(std::mem::take(&mut p.request.body)),
        },
        profile: Some(Box::new(p)),
        key,
        key_source,
    }
}

impl Effects {
    pub fn new(tx: UnboundedSender<Message>) -> Self {
        let out = tx.clone();
        let signer = SignWorker::spawn(move |m| {
            let _ = out.send(m);
        });
        let out = tx.clone();
        let validator = ValidateWorker::spawn(move |m| {
            let _ = out.send(Message::Events(m));
        });
        let http = crate::client::build_client(&crate::client::ClientOptions::default())
            .unwrap_or_else(|_| reqwest::Client::new());
        Effects {
            tx,
            signer,
            validator,
            http,
            clipboard: None,
            session: None,
        }
    }

    /// Execute one command that does not need the terminal.
    pub fn execute(&mut self, cmd: Command) {
        match cmd {
            Command::Sign(job) => {
                tracing::trace!(
                    job = job.id,
                    body_len = job.body.len(),
                    changed_from = ?job.changed_from,
                    "sign job"
                );
                self.signer.submit(*job)
            }
            Command::Send(job) => {
                let tx = self.tx.clone();
                let http = self.http.clone();
                let record = self.session.as_ref().map(|s| HistoryTarget {
                    history: s.history.clone(),
                    profile: s.current.name.clone(),
                });
                tracing::debug!(
                    job = job.id,
                    url = %job.url,
                    method = %job.sign.method,
                    body_len = job.sign.body.len(),
                    live_timestamp = job.live_timestamp,
                    "send started"
                );
                tokio::spawn(async move {
                    let id = job.id;
                    let started = std::time::Instant::now();
                    let result = send(&http, *job, tx.clone(), record).await;
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
                    let _ = tx.send(Message::SendDone { id, result });
                });
            }
            Command::Copy(text) => {
                let what = describe_copy(&text);
                tracing::debug!(what = %what, "copy");
                let result = self.copy(&text, what);
                let _ = self.tx.send(Message::Copied(result));
            }
            Command::ListProfiles => {
                let msg = match &self.session {
                    Some(sess) => {
                        let mut names = vec![crate::store::DEMO_PROFILE.to_string()];
                        names.extend(sess.store.saved_names());
                        Ok(names)
                    }
                    None => Err("profiles are not available (no config directory)".into()),
                };
                let _ = self.tx.send(Message::ProfileList(msg));
            }
            Command::LoadProfile(name) => {
                tracing::debug!(profile = %name, "load profile");
                let msg = self.load_profile(&name);
                let _ = self.tx.send(Message::ProfileLoaded(msg));
            }
            Command::SaveProfile {
                name,
                fields,
                typed_key,
            } => {
                tracing::debug!(
                    profile = %name,
                    typed_key = typed_key.is_some(),
                    "save profile"
                );
                let msg = self.save_profile(name, &fields, typed_key);
                match &msg {
                    Ok(saved) => tracing::debug!(profile = %saved, "profile save done"),
                    Err(e) => tracing::debug!(error = %e, "profile save failed"),
                }
                let _ = self.tx.send(Message::ProfileSaved(msg));
            }
            Command::Diagnose { text, key, prefix } => {
                let (ok, lines) = diagnose_capture(&text, &key, &prefix, Utc::now());
                tracing::debug!(capture_len = text.len(), accepted = ok, "capture diagnosed");
                let _ = self.tx.send(Message::Diagnosed { ok, lines });
            }
            Command::ParseCapture { text, prefix } => {
                let msg = match parse_capture(&text) {
                    Ok(req) => {
                        let (fields, timestamp) = capture_fields(&req, &prefix);
                        Message::LoadRequest {
                            fields: Box::new(fields),
                            timestamp,
                        }
                    }
                    Err(e) => Message::Diagnosed {
                        ok: false,
                        lines: vec![e],
                    },
                };
                let _ = self.tx.send(msg);
            }
            Command::Events(e) => self.events_effect(e),
            Command::History(HistoryEffect::CopyText { text, what }) => {
                let result = self.copy(&text, what);
                let _ = self.tx.send(Message::Copied(result));
            }
            Command::History(_) | Command::ReloadHistory => self.reload_history(),
            Command::Profiles(e) => self.profiles_effect(e),
            Command::ReloadProfiles => self.reload_profiles(),
            Command::FollowTraffic(base) => {
                let tx = self.tx.clone();
                let sent = super::components::traffic::feed::spawn(&base, move |m| {
                    tx.send(Message::Traffic(m)).is_ok()
                });
                if let Err(e) = sent {
                    let _ = self.tx.send(Message::Traffic(
                        super::components::traffic::TrafficMsg::Waiting(format!("{e:#}")),
                    ));
                }
            }
            Command::EditBody(_) | Command::Quit => {}
        }
    }

    fn events_effect(&mut self, e: EventsEffect) {
        let tx = self.tx.clone();
        match e {
            EventsEffect::SendEvents { url, body } => {
                tracing::debug!(url = %url, body_len = body.len(), "events send started");
                let http = self.http.clone();
                let record = self.session.as_ref().map(|s| HistoryTarget {
                    history: s.history.clone(),
                    profile: s.current.name.clone(),
                });
                tokio::spawn(async move {
                    let out = crate::client::OutgoingRequest {
                        method: "POST".into(),
                        url,
                        headers: vec![(
                            "Content-Type".into(),
                            crate::core::CONTENT_TYPE_JSON.into(),
                        )],
                        body,
                    };
                    let result = crate::client::send(&http, &out).await;
                    if let Some(rec) = record {
                        let entry = history_entry(&rec.profile, "events", &out, &result, None);
                        let row = HistoryRow::from(&entry);
                        let _ = tx.send(Message::History(HistoryMsg::Appended(Box::new(row))));
                        tokio::task::spawn_blocking(move || {
                            let _ = rec.history.append(&entry);
                        });
                    }
                    match &result {
                        Ok(r) => tracing::debug!(
                            status = r.status,
                            elapsed_ms = r.timings.total.as_secs_f64() * 1000.0,
                            "events send finished"
                        ),
                        Err(e) => tracing::debug!(error = %e, "events send failed"),
                    }
                    let msg = result
                        .map(|r| SendReport {
                            status: r.status,
                            body: String::from_utf8_lossy(&r.body).into_owned(),
                            elapsed_ms: r.timings.total.as_millis() as u64,
                        })
                        .map_err(|e| e.to_string());
                    let _ = tx.send(Message::Events(EventsMsg::Sent(msg)));
                });
            }
            EventsEffect::FetchStored { url } => {
                let http = self.http.clone();
                tokio::spawn(async move {
                    let result = async {
                        let r = http.get(&url).send().await.map_err(|e| {
                            format!("could not read what the collector stored from {url}: {e}")
                        })?;
                        r.text()
                            .await
                            .map_err(|e| format!("the answer from {url} was cut off: {e}"))
                    }
                    .await;
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
            EventsEffect::CopyText { text, what } => {
                let result = self.copy(&text, what);
                let _ = tx.send(Message::Copied(result));
            }
            EventsEffect::Status(_) => {}
            EventsEffect::Validate(job) => {
                tracing::trace!(rev = job.rev, "events validation job");
                self.validator.submit(*job);
            }
        }
    }

    fn reload_history(&mut self) {
        let Some(sess) = &self.session else { return };
        let history = sess.history.clone();
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let (entries, warnings) = history.load(1000);
            let rows = entries.iter().map(HistoryRow::from).collect();
            let _ = tx.send(Message::History(HistoryMsg::Loaded { rows, warnings }));
        });
    }

    fn reload_profiles(&mut self) {
        let Some(sess) = &self.session else { return };
        let report = sess.store.list();
        let msg = ProfilesMsg::Loaded {
            profiles: report.profiles.into_iter().map(without_body).collect(),
            errors: report.errors.iter().map(|e| e.to_string()).collect(),
            dir: sess.store.dir(),
            current: sess.current.name.clone(),
        };
        let _ = self.tx.send(Message::Profiles(msg));
    }

    fn profiles_effect(&mut self, e: ProfilesEffect) {
        let Some(sess) = self.session.as_mut() else {
            let _ = self.tx.send(Message::Profiles(ProfilesMsg::Failed(
                "profiles are not available (no config directory)".into(),
            )));
            return;
        };
        tracing::debug!(effect = profiles_effect_name(&e), "profile manager");
        let result = match e {
            ProfilesEffect::SaveProfile(mut p, source) => {
                stored_body(&sess.store, source.as_deref())
                    .and_then(|body| {
                        p.request.body = body;
                        sess.store.save(&p).map_err(|e| e.to_string())
                    })
                    .map(|o| o.message())
            }
            ProfilesEffect::DeleteProfile(name) => sess
                .store
                .delete(&name)
                .map(|path| format!("deleted profile {name} ({})", path.display()))
                .map_err(|e| e.to_string()),
            ProfilesEffect::RenameProfile { from, mut profile } => {
                stored_body(&sess.store, Some(&from)).and_then(|body| {
                    profile.request.body = body;
                    sess.store
                        .save(&profile)
                        .and_then(|_| sess.store.delete(&from))
                        .map(|_| format!("renamed {from} to {}", profile.name))
                        .map_err(|e| e.to_string())
                })
            }
            ProfilesEffect::Activate(_) | ProfilesEffect::Status(_) => return,
        };
        let msg = match result {
            Ok(m) => {
                tracing::debug!(outcome = %m, "profile manager done");
                ProfilesMsg::Done(m)
            }
            Err(e) => {
                tracing::debug!(error = %e, "profile manager failed");
                ProfilesMsg::Failed(e)
            }
        };
        let _ = self.tx.send(Message::Profiles(msg));
        self.reload_profiles();
    }

    fn load_profile(&mut self, name: &str) -> Result<LoadedProfile, String> {
        let sess = self
            .session
            .as_mut()
            .ok_or("profiles are not available (no config directory)")?;
        let mut p = sess.store.load(name).map_err(|e| e.to_string())?;
        let base = sess.base_url(&p)?;
        let embedded = sess.server.as_ref().map(|s| s.url.clone());
        let _ = sess.store.set_last_used(&p.name);
        // The body lives in the editor; saving takes it from there.
        sess.current = copy_without_body(&mut p);
        Ok(loaded_profile(p, base, embedded.as_deref()))
    }

    fn save_profile(
        &mut self,
        name: String,
        fields: &RequestFields,
        typed_key: Option<crate::core::Secret>,
    ) -> Result<String, String> {
        let sess = self
            .session
            .as_mut()
            .ok_or("profiles are not available (no config directory)")?;
        let mut p = sess.current.clone();
        if p.name != name {
            p.origin = None; // a new file
        }
        p.name = name;
        let embedded = sess.server.as_ref().map(|s| s.url.clone());
        p.indexing_url = if Some(&fields.url) == embedded.as_ref() {
            EMBEDDED_URL.to_string()
        } else {
            fields.url.clone()
        };
        p.request = crate::core::RequestSpec {
            method: fields.method.clone(),
            path: fields.path.clone(),
            query: fields.query.clone(),
            header_prefix: fields.prefix.clone(),
            api_key: fields.api_key.clone(),
            content_type: fields.content_type.clone(),
            auth_algo: fields.auth_algo.clone(),
            body: bytes::Bytes::from(fields.body.clone()),
        };
        if let Some(k) = typed_key {
            p.rest_key = KeySource::Stored(k);
        }
        let outcome = sess.store.save(&p).map_err(|e| e.to_string())?;
        p.mark_saved(&outcome);
        let _ = sess.store.set_last_used(&p.name);
        let name = p.name.clone();
        sess.current = without_body(p);
        Ok(name)
    }

    /// Copy to the system clipboard, or with an OSC 52 escape (works over SSH in most terminals).
    /// `what` names what was copied (the component that asked knows; see `describe_copy` for the
    /// request view's copies).
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

fn profiles_effect_name(e: &ProfilesEffect) -> &'static str {
    match e {
        ProfilesEffect::SaveProfile(..) => "save",
        ProfilesEffect::DeleteProfile(_) => "delete",
        ProfilesEffect::RenameProfile { .. } => "rename",
        ProfilesEffect::Activate(_) => "activate",
        ProfilesEffect::Status(_) => "status",
    }
}

fn describe_copy(text: &str) -> String {
    if text.starts_with("curl ") {
        "the request as curl".into()
    } else if text.contains(": ") {
        "the headers".into()
    } else {
        "the signature".into()
    }
}

struct ArcBody(Arc<Vec<u8>>);
impl AsRef<[u8]> for ArcBody {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// What the send task records in the history file.
pub struct HistoryTarget {
    pub history: History,
    pub profile: String,
}

/// Sign (at send time when the timestamp is live) and send with the client; build the response
/// view; record the exchange in the history (the key redacted).
pub async fn send(
    http: &reqwest::Client,
    job: SendJob,
    tx: UnboundedSender<Message>,
    record: Option<HistoryTarget>,
) -> Result<ResponseView, String> {
    let sign = job.sign;
    let base_url = job.base_url;
    let live = job.live_timestamp;
    let (out, canonical, key) = tokio::task::spawn_blocking(move || {
        let now = Utc::now();
        let spec = crate::core::RequestSpec {
            method: sign.method.clone(),
            path: sign.path.clone(),
            query: sign.query.clone(),
            header_prefix: sign.prefix.clone(),
            api_key: sign.api_key.clone(),
            auth_algo: sign.auth_algo.clone(),
            content_type: sign.content_type.clone(),
            body: bytes::Bytes::from_owner(ArcBody(Arc::clone(&sign.body))),
        };
        // The client checks the URL (no re-encoding) and signs with the clock...
        let mut out =
            crate::client::build_signed(&base_url, &spec, &format_timestamp(now), &sign.key)
                .map_err(|e| e.to_string())?;
        let mut req = sign.request();
        let ts = format_timestamp(now);
        if live {
            req.timestamp = &ts;
        } else {
            // ...or with the frozen timestamp exactly as typed.
            out.headers = crate::core::sign(&req, &sign.key)
                .map_err(|e| e.to_string())?
                .headers
                .to_vec();
        }
        let canonical = visible_lines(&req.canonical().to_bytes());
        Ok::<_, String>((out, canonical, sign.key.clone()))
    })
    .await
    .map_err(|e| format!("signing failed: {e}"))??;
    let result = crate::client::send(http, &out).await;
    if let Some(rec) = record {
        let entry = history_entry(&rec.profile, "request", &out, &result, Some(&key));
        let row = HistoryRow::from(&entry);
        let _ = tx.send(Message::History(HistoryMsg::Appended(Box::new(row))));
        tokio::task::spawn_blocking(move || {
            let _ = rec.history.append(&entry);
        });
    }
    let resp = result.map_err(|e| e.to_string())?;
    let elapsed_ms = resp.timings.total.as_secs_f64() * 1000.0;
    let id = job.id;
    let big = resp.body.len() > FORMAT_INLINE_LIMIT;
    let body = resp.body.clone();
    let headers = resp.headers.clone();
    let view = tokio::task::spawn_blocking(move || {
        response_view(
            id,
            resp.status,
            headers,
            &resp.body,
            elapsed_ms,
            !big,
            canonical,
        )
    })
    .await
    .map_err(|e| format!("reading the response failed: {e}"))?;
    if big && view.raw.json {
        // Shown raw first; formatted once, off the draw path, then cached in the App.
        tokio::task::spawn_blocking(move || {
            if let Some(f) = format_json(&body) {
                let _ = tx.send(Message::ResponseFormatted {
                    id,
                    body: Arc::new(f),
                });
            }
        });
    }
    Ok(view)
}

/// The history record of one send, recorded now (the shared builder in `client`; the key, when
/// given, is redacted from it).
fn history_entry(
    profile: &str,
    kind: &str,
    out: &crate::client::OutgoingRequest,
    result: &Result<crate::client::Response, crate::client::ClientError>,
    key: Option<&crate::core::Secret>,
) -> HistoryEntry {
    crate::engine::history_entry(
        profile,
        kind,
        Utc::now(),
        out,
        result.as_ref(),
        key,
        crate::store::history::DEFAULT_BODY_CAP,
    )
}

/// Test doubles the event loop calls; the workbench itself passes none
/// ([`LoopHooks::default`]).
#[derive(Default)]
pub struct LoopHooks {
    /// Called after every frame is drawn (the PTY test makes it panic, to check that the
    /// terminal is restored before the panic message is printed).
    pub after_draw: Option<Box<dyn FnMut()>>,
}

/// Run the workbench until the user quits. Returns the process exit code.
pub fn run_app(
    app: App,
    session: Option<Session>,
    server_note: Option<String>,
    startup: Vec<Command>,
) -> anyhow::Result<u8> {
    run_app_with(app, session, server_note, startup, LoopHooks::default())
}

/// [`run_app`] with test doubles.
pub fn run_app_with(
    mut app: App,
    session: Option<Session>,
    server_note: Option<String>,
    startup: Vec<Command>,
    hooks: LoopHooks,
) -> anyhow::Result<u8> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("could not start the async runtime")?;
    let (tx, rx) = unbounded_channel();
    if let Some(note) = server_note {
        app.status = note;
    }
    let (mut term, _guard) = terminal::init().context("could not set up the terminal")?;
    let result = rt.block_on(event_loop(
        &mut term, &mut app, session, startup, hooks, tx, rx,
    ));
    terminal::restore();
    result.map(|_| 0)
}

async fn event_loop(
    term: &mut Term,
    app: &mut App,
    session: Option<Session>,
    startup: Vec<Command>,
    mut hooks: LoopHooks,
    tx: UnboundedSender<Message>,
    mut rx: UnboundedReceiver<Message>,
) -> anyhow::Result<()> {
    let mut fx = Effects::new(tx.clone());
    fx.session = session;
    let size = term.size()?;
    let mut pending: Vec<Message> = vec![
        Message::Resize(size.width, size.height),
        Message::Tick(Utc::now()),
    ];
    let mut events = Some(EventStream::new());
    let mut sigterm = signal(tokio::signal::unix::SignalKind::terminate())?;
    let mut sighup = signal(tokio::signal::unix::SignalKind::hangup())?;
    // Everything `update` asked for while the App was filled (the first signature, the
    // validation of a saved events batch...).
    for cmd in startup {
        fx.execute(cmd);
    }
    loop {
        // Apply everything that is already waiting, then draw once.
        for msg in pending.drain(..) {
            for cmd in update(app, msg) {
                match cmd {
                    Command::Quit => {}
                    Command::EditBody(text) => {
                        // Stop reading the terminal while the editor owns it.
                        drop(events.take());
                        let result = edit_externally(term, &text);
                        events = Some(EventStream::new());
                        let _ = tx.send(Message::EditorDone(result));
                    }
                    other => fx.execute(other),
                }
            }
        }
        if app.quit {
            tracing::debug!("workbench quitting");
            return Ok(());
        }
        term.draw(|f| super::view::draw(f, app))?;
        if let Some(after_draw) = hooks.after_draw.as_mut() {
            after_draw();
        }
        let tick = if app.wants_tick() {
            let now = Utc::now();
            let ms_to_next = 1000 - (now.timestamp_subsec_millis() as u64 % 1000);
            Some(tokio::time::sleep(Duration::from_millis(ms_to_next)))
        } else {
            None
        };
        let ev = events.get_or_insert_with(EventStream::new);
        tokio::select! {
            e = ev.next() => match e {
                Some(Ok(e)) => if let Some(m) = event_message(e) { pending.push(m) },
                Some(Err(e)) => return Err(e).context("reading the terminal failed"),
                None => return Ok(()),
            },
            m = rx.recv() => if let Some(m) = m { pending.push(m) },
            _ = async { if let Some(t) = tick { t.await } }, if tick.is_some() => pending.push(Message::Tick(Utc::now())),
            _ = sigterm.recv() => {
                tracing::debug!("SIGTERM: quitting");
                pending.push(Message::Terminate)
            }
            _ = sighup.recv() => {
                tracing::debug!("SIGHUP: quitting");
                pending.push(Message::Terminate)
            }
        }
        // Coalesce bursts of internal results (worker answers, responses) into one frame.
        // (Terminal input is not drained with a no-op waker: crossterm's EventStream would then
        // wake that waker instead of this task, and keys would arrive one event late.)
        while let Ok(m) = rx.try_recv() {
            pending.push(m);
        }
    }
}

fn signal(kind: tokio::signal::unix::SignalKind) -> anyhow::Result<tokio::signal::unix::Signal> {
    tokio::signal::unix::signal(kind).context("could not install a signal handler")
}

fn event_message(e: Event) -> Option<Message> {
    match e {
        Event::Key(k) => Some(Message::Key(k)),
        Event::Mouse(m) => match m.kind {
            crossterm::event::MouseEventKind::Moved | crossterm::event::MouseEventKind::Drag(_) => {
                None
            }
            _ => Some(Message::Mouse(m)),
        },
        Event::Paste(p) => Some(Message::Paste(p)),
        Event::Resize(w, h) => Some(Message::Resize(w, h)),
        _ => None,
    }
}

/// Open `$VISUAL`/`$EDITOR` (default `vi`) on a temporary copy of the body; read it back.
fn edit_externally(term: &mut Term, text: &str) -> Result<String, String> {
    let editor = std::env::var("VISUAL")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .or_else(|| {
            std::env::var("EDITOR")
                .ok()
                .filter(|s| !s.trim().is_empty())
        })
        .unwrap_or_else(|| "vi".to_string());
    let file = tempfile::Builder::new()
        .prefix("signscope-body-")
        .suffix(".json")
        .tempfile()
        .map_err(|e| format!("could not create a temporary file for the editor: {e}"))?;
    std::fs::write(file.path(), text)
        .map_err(|e| format!("could not write the body for the editor: {e}"))?;
    terminal::restore();
    let mut parts = editor.split_whitespace();
    let program = parts.next().unwrap_or("vi");
    let status = std::process::Command::new(program)
        .args(parts)
        .arg(file.path())
        .status();
    let _ = terminal::enter();
    let _ = term.clear();
    match status {
        Ok(s) if s.success() => std::fs::read_to_string(file.path())
            .map_err(|e| format!("could not read the edited body back: {e}")),
        Ok(s) => Err(format!(
            "the editor {program} exited with {s}; the body is unchanged"
        )),
        Err(e) => Err(format!("could not start the editor {program}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manager_saves_keep_the_stored_body_that_the_listing_leaves_out() {
        let dir = tempfile::tempdir().unwrap();
        let paths = crate::store::Paths::new(dir.path().join("c"), dir.path().join("d"));
        let store = ProfileStore::open(&paths);
        let mut big = Profile::new("big");
        big.request.body = "[\"a body that stays on disk\"]".into();
        store.save(&big).unwrap();
        let listed = without_body(store.load("big").unwrap());
        assert!(listed.request.body.is_empty());
        let mut full = store.load("big").unwrap();
        let copy = copy_without_body(&mut full);
        assert!(copy.request.body.is_empty());
        assert_eq!(
            full.request.body, big.request.body,
            "the original keeps its body"
        );
        let mut with_body = copy.clone();
        with_body.request.body = full.request.body.clone();
        assert_eq!(with_body, full);
        // Loading hands the body to the editor fields and keeps a body-less profile.
        let loaded = loaded_profile(full, String::new(), None);
        assert_eq!(loaded.fields.body.as_bytes(), &big.request.body[..]);
        assert!(loaded.profile.unwrap().request.body.is_empty());
        assert_eq!(stored_body(&store, Some("big")).unwrap(), big.request.body);
        assert_eq!(stored_body(&store, None).unwrap(), "");
        assert_eq!(
            stored_body(&store, Some(DEMO_PROFILE)).unwrap(),
            Profile::demo().request.body
        );
        let err = stored_body(&store, Some("gone")).unwrap_err();
        assert!(err.contains("gone"), "{err}");
    }

    /// The demo profile as the workbench opens it, its URLs pointing at `url`.
    fn demo_on(url: &str, events: Option<String>) -> LoadedProfile {
        let mut p = Profile::demo();
        p.events = events;
        loaded_profile(p, url.to_string(), Some(url))
    }

    /// Run `cmds` in a fresh runtime and feed the answers to `app` until `done(app)` holds.
    fn run_until(
        app: &mut App,
        session: Option<Session>,
        cmds: Vec<Command>,
        done: impl Fn(&App) -> bool,
    ) -> Option<Session> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let (tx, mut rx) = unbounded_channel();
            let mut fx = Effects::new(tx);
            fx.session = session;
            for c in cmds {
                fx.execute(c);
            }
            let deadline = std::time::Instant::now() + Duration::from_secs(60);
            while !done(app) {
                let left = deadline.saturating_duration_since(std::time::Instant::now());
                let msg = tokio::time::timeout(left, rx.recv())
                    .await
                    .expect("an answer from the runtime within 60 s")
                    .expect("the channel stays open");
                for c in update(app, msg) {
                    fx.execute(c);
                }
            }
            fx.session.take()
        })
    }

    #[test]
    fn startup_runs_every_command_update_returns_so_a_saved_10000_item_batch_is_validated() {
        use crate::core::events::{ItemDraft, ListDraft};
        let draft = ListDraft {
            api_key: "demo-public-key".into(),
            list_id: "home-trending-1".into(),
            list_name: "Trending now".into(),
            list_logic: "TRENDING".into(),
            tags: vec!["recsPageType:HOME".into()],
            user_ip: Some("203.0.113.7".into()),
            items: (0..10_000)
                .map(|i| ItemDraft {
                    group_id: format!("{}", 10_000 + i),
                    variant_id: format!("V{}", i % 7),
                    name: format!("Product number {i}"),
                    price: "5.00".into(),
                    currency: "EUR".into(),
                    brand: "Northpeak".into(),
                    category: "Clothing;;Jackets".into(),
                    clicked: i == 3,
                })
                .collect(),
        };
        let batch = String::from_utf8(draft.to_batch().to_json_bytes()).unwrap();
        let (mut app, startup) =
            crate::tui::open_app(demo_on("http://127.0.0.1:9", Some(batch)), Utc::now());
        // Too big to validate inside `update`: the validation is one of the startup commands.
        assert!(app.events.validating());
        assert!(
            startup
                .iter()
                .any(|c| matches!(c, Command::Events(EventsEffect::Validate(_)))),
            "{startup:?}"
        );
        assert!(startup.iter().any(|c| matches!(c, Command::Sign(_))));
        run_until(&mut app, None, startup, |a| {
            !a.events.validating() && a.request.sign.result.is_some()
        });
        assert!(app.events.problems.is_empty(), "{:?}", app.events.problems);
        assert!(matches!(app.request.sign.result, Some(Ok(_))));
    }

    #[test]
    fn a_send_goes_to_a_real_local_server_and_is_recorded_in_the_history() {
        let dir = tempfile::tempdir().unwrap();
        let paths = crate::store::Paths::new(dir.path().join("c"), dir.path().join("d"));
        let server = Embedded::start().unwrap();
        let url = server.url.clone();
        let session = Session {
            store: ProfileStore::open(&paths),
            history: History::open(&paths),
            current: Profile::demo(),
            server: Some(server),
        };
        let (mut app, startup) = crate::tui::open_app(demo_on(&url, None), Utc::now());
        let session = run_until(&mut app, Some(session), startup, |a| {
            a.request.sign.result.is_some()
        });
        let send = update(
            &mut app,
            Message::Key(crossterm::event::KeyEvent::new(
                crossterm::event::KeyCode::Char('g'),
                crossterm::event::KeyModifiers::CONTROL,
            )),
        );
        assert!(matches!(send.as_slice(), [Command::Send(_)]), "{send:?}");
        let session = run_until(&mut app, session, send, |a| !a.request.sending).unwrap();
        let resp = app.request.response.as_ref().expect("a response");
        assert_eq!(resp.status, 200, "{:?}", app.status);
        assert!(
            resp.job_id.is_some(),
            "the demo server accepts the demo request"
        );
        // The history file holds the send (appended off the draw path: wait for it).
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let entries = loop {
            let (entries, _) = session.history.load(10);
            if !entries.is_empty() || std::time::Instant::now() > deadline {
                break entries;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].kind, "request");
        assert_eq!(entries[0].response.as_ref().map(|r| r.status), Some(200));
        assert!(entries[0].request.url.starts_with(&url));
    }
}
