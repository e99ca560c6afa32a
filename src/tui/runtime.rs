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

use super::app::{App, FormattedBody, MismatchView, RequestFields, ResponseView};
use super::components::events::{EventsEffect, EventsMsg, SendReport, ValidateWorker};
use super::components::history::{HistoryEffect, HistoryMsg, HistoryRow};
use super::components::profiles::{ProfilesEffect, ProfilesMsg};
use super::message::{Command, LoadedProfile, Message, SendJob};
use super::signing::SignWorker;
use super::terminal::{self, Term};
use super::update::update;
use crate::core::time::format_timestamp;
use crate::core::visible::visible_lines;
use crate::store::{
    History, HistoryEntry, KeySource, Profile, ProfileStore, DEMO_PROFILE, EMBEDDED_URL,
};

/// Responses up to this size are formatted before they are shown; larger ones are shown raw
/// first and formatted on a blocking thread.
pub const FORMAT_INLINE_LIMIT: usize = 256 * 1024;

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
        if self.server.is_none() {
            self.server = Some(Embedded::start()?);
        }
        Ok(self.server.as_ref().expect("started").url.clone())
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
fn without_body(p: Profile) -> Profile {
    Profile {
        body: String::new(),
        ..p
    }
}

/// A copy of `p` without its body, without copying the body.
pub fn copy_without_body(p: &mut Profile) -> Profile {
    let body = std::mem::take(&mut p.body);
    let copy = p.clone();
    p.body = body;
    copy
}

/// The body a profile saved from the manager keeps: that of the stored profile `source` (the
/// built-in demo's for "demo"), or none.
fn stored_body(store: &ProfileStore, source: Option<&str>) -> Result<String, String> {
    match source {
        None => Ok(String::new()),
        Some(DEMO_PROFILE) => Ok(Profile::demo().body),
        Some(name) => store.load(name).map(|p| p.body).map_err(|e| e.to_string()),
    }
}

/// The in-process local server on 127.0.0.1:0 (stopped when dropped).
pub struct Embedded {
    pub url: String,
    _server: crate::server::BackgroundServer,
}

impl Embedded {
    pub fn start() -> Result<Embedded, String> {
        let addr = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
        let server = crate::server::spawn_background(crate::server::ServerConfig::demo(), addr)
            .map_err(|e| format!("the local server could not start on 127.0.0.1: {e}"))?;
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
            method: p.method.clone(),
            path: p.path.clone(),
            query: p.query.clone(),
            prefix: p.header_prefix.clone(),
            api_key: p.api_key.clone(),
            content_type: p.content_type.clone(),
            auth_algo: p.auth_algo.clone(),
            // The body moves to the editor; the profile kept for the manager has none.
            body: std::mem::take(&mut p.body),
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
                tracing::debug!(what = %describe_copy(&text), "copy");
                let result = self.copy(&text);
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
            Command::History(HistoryEffect::CopyText(t)) => {
                let result = self.copy(&t);
                let _ = self.tx.send(Message::Copied(result));
            }
            Command::History(_) | Command::ReloadHistory => self.reload_history(),
            Command::Profiles(e) => self.profiles_effect(e),
            Command::ReloadProfiles => self.reload_profiles(),
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
            EventsEffect::CopyText(t) => {
                let result = self.copy(&t);
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
                        p.body = body;
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
                    profile.body = body;
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
        p.method = fields.method.clone();
        p.path = fields.path.clone();
        p.query = fields.query.clone();
        p.header_prefix = fields.prefix.clone();
        p.api_key = fields.api_key.clone();
        p.content_type = fields.content_type.clone();
        p.auth_algo = fields.auth_algo.clone();
        p.body = fields.body.clone();
        if let Some(k) = typed_key {
            p.rest_key = KeySource::Stored(k);
        }
        let outcome = sess.store.save(&p).map_err(|e| e.to_string())?;
        p.mark_saved(&outcome);
        let _ = sess.store.set_last_used(&p.name);
        let name = p.name.clone();
        sess.current = Profile {
            body: String::new(),
            ..p
        };
        Ok(name)
    }

    /// Copy to the system clipboard, or with an OSC 52 escape (works over SSH in most terminals).
    fn copy(&mut self, text: &str) -> Result<String, String> {
        let what = describe_copy(text);
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
        let parts = crate::client::RequestParts {
            base_url: &base_url,
            method: &sign.method,
            path: &sign.path,
            query: &sign.query,
            header_prefix: &sign.prefix,
            api_key: &sign.api_key,
            auth_algo: &sign.auth_algo,
            content_type: &sign.content_type,
            body: bytes::Bytes::from_owner(ArcBody(Arc::clone(&sign.body))),
        };
        // The client checks the URL (no re-encoding) and signs with the clock...
        let mut out =
            crate::client::build_signed(&parts, &sign.key, now).map_err(|e| e.to_string())?;
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
    crate::client::history_entry(
        profile,
        kind,
        Utc::now(),
        out,
        result.as_ref(),
        key,
        crate::store::history::DEFAULT_BODY_CAP,
    )
}

/// Pretty-print a JSON body into lines (None when it is not JSON).
pub fn format_json(body: &[u8]) -> Option<FormattedBody> {
    // Transcode token by token: no `Value` tree is built (6 MB of JSON would be hundreds of
    // thousands of small allocations). Trailing data after the value makes it "not JSON".
    let mut de = serde_json::Deserializer::from_slice(body);
    let mut out = Vec::with_capacity(body.len() * 2);
    let mut ser = serde_json::Serializer::pretty(&mut out);
    serde_transcode::transcode(&mut de, &mut ser).ok()?;
    de.end().ok()?;
    let text = String::from_utf8(out).ok()?;
    Some(FormattedBody {
        lines: text.lines().map(str::to_string).collect(),
        json: true,
    })
}

/// Build the view of a response: raw lines, formatted lines (when `format_now`), and what the
/// error body says (code, message, job id, and the server's canonical text on a mismatch).
pub fn response_view(
    id: u64,
    status: u16,
    headers: Vec<(String, String)>,
    body: &[u8],
    elapsed_ms: f64,
    format_now: bool,
    our_canonical: Vec<String>,
) -> ResponseView {
    let text = String::from_utf8_lossy(body);
    let looks_json = matches!(text.trim_start().chars().next(), Some('{') | Some('['));
    let raw = Arc::new(FormattedBody {
        lines: text.lines().map(str::to_string).collect(),
        json: looks_json,
    });
    let mut view = ResponseView {
        id,
        status,
        elapsed_ms,
        headers,
        body_len: body.len(),
        raw,
        ..Default::default()
    };
    if format_now && looks_json {
        view.formatted = format_json(body).map(Arc::new);
    }
    if body.len() <= FORMAT_INLINE_LIMIT {
        if let Ok(v) = serde_json::from_slice::<serde_json::Value>(body) {
            view.job_id = v.get("jobId").and_then(|j| j.as_str()).map(str::to_string);
            view.code = v.get("code").and_then(|j| j.as_str()).map(str::to_string);
            view.message = v
                .get("message")
                .and_then(|j| j.as_str())
                .map(str::to_string);
            if view.code.as_deref() == Some("SIGNATURE_MISMATCH") {
                view.mismatch = mismatch_from(&v, our_canonical);
            }
        }
    }
    view
}

/// Find the server's canonical text and diagnosis in a SIGNATURE_MISMATCH error body. The local
/// server puts them in `debug` as messages `canonical: <escaped text>`, `diagnosis: <sentence>`
/// and `finding <CODE>: <explanation>`.
pub fn mismatch_from(v: &serde_json::Value, ours: Vec<String>) -> Option<MismatchView> {
    let debug = v.get("debug")?.as_array()?;
    let mut canonical: Option<String> = None;
    let mut diagnosis: Option<String> = None;
    let mut findings: Vec<String> = Vec::new();
    for entry in debug {
        let Some(msg) = entry.get("message").and_then(|m| m.as_str()) else {
            continue;
        };
        if let Some(c) = msg.strip_prefix("canonical: ") {
            canonical.get_or_insert_with(|| c.to_string());
        } else if let Some(d) = msg.strip_prefix("diagnosis: ") {
            diagnosis.get_or_insert_with(|| d.to_string());
        } else if let Some(f) = msg.strip_prefix("finding ") {
            findings.push(f.to_string());
        }
    }
    let canonical = canonical?;
    let diagnosis = match (diagnosis, findings.is_empty()) {
        (Some(d), true) => Some(d),
        (Some(d), false) => Some(format!("{d} ({})", findings.join("; "))),
        (None, false) => Some(findings.join("; ")),
        (None, true) => None,
    };
    Some(MismatchView {
        theirs: split_canonical(&canonical),
        ours,
        diagnosis,
    })
}

/// The server's canonical text as visible lines. It may come raw (real LFs) or already escaped
/// (`\n` markers on one line).
pub fn split_canonical(s: &str) -> Vec<String> {
    if s.contains('\n') {
        return visible_lines(s.as_bytes());
    }
    let mut lines = Vec::new();
    let mut cur = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        cur.push(c);
        if c == '\\' {
            if let Some(n) = chars.next() {
                cur.push(n);
                if n == 'n' {
                    lines.push(std::mem::take(&mut cur));
                }
            }
        }
    }
    lines.push(cur);
    lines
}

/// Run the workbench until the user quits. Returns the process exit code.
pub fn run_app(
    mut app: App,
    session: Option<Session>,
    server_note: Option<String>,
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
    let result = rt.block_on(event_loop(&mut term, &mut app, session, tx, rx));
    terminal::restore();
    result.map(|_| 0)
}

async fn event_loop(
    term: &mut Term,
    app: &mut App,
    session: Option<Session>,
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
    let test_panic = std::env::var_os("SIGNSCOPE_TEST_PANIC").is_some_and(|v| v == "1");
    // Sign the initial request.
    for cmd in super::update::resign(app) {
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
        if test_panic {
            panic!("SIGNSCOPE_TEST_PANIC is set: a forced panic to test terminal restoration");
        }
        let tick = if app.wants_tick() {
            let now = Utc::now();
            let ms_to_next = 1000 - (now.timestamp_subsec_millis() as u64 % 1000);
            Some(tokio::time::sleep(Duration::from_millis(ms_to_next)))
        } else {
            None
        };
        let ev = events.as_mut().expect("event stream");
        tokio::select! {
            e = ev.next() => match e {
                Some(Ok(e)) => if let Some(m) = event_message(e) { pending.push(m) },
                Some(Err(e)) => return Err(e).context("reading the terminal failed"),
                None => return Ok(()),
            },
            m = rx.recv() => if let Some(m) = m { pending.push(m) },
            _ = async { tick.unwrap().await }, if tick.is_some() => pending.push(Message::Tick(Utc::now())),
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

/// Read a pasted capture: a curl command line or raw HTTP.
pub fn parse_capture(text: &str) -> Result<crate::core::verify::ReceivedRequest, String> {
    let t = text.trim_start();
    if t.is_empty() {
        return Err("paste a raw HTTP request or a curl command first".into());
    }
    if t.starts_with("curl ") || t.starts_with("curl\t") {
        crate::core::curl::parse_curl(t)
            .map_err(|e| format!("could not read the curl command: {e}"))
    } else {
        crate::core::http_text::parse_raw_request(t.as_bytes())
            .map_err(|e| format!("could not read the raw HTTP request: {e}"))
    }
}

/// The request fields (and timestamp) of a captured request.
pub fn capture_fields(
    req: &crate::core::verify::ReceivedRequest,
    prefix: &str,
) -> (RequestFields, String) {
    let names = crate::core::HeaderNames::for_prefix(prefix);
    let fields = RequestFields {
        url: String::new(),
        method: req.method.clone(),
        path: req.path.clone(),
        query: req.query.clone(),
        prefix: prefix.to_string(),
        api_key: req.header_text(&names.api_key),
        content_type: req.header_text("Content-Type"),
        auth_algo: req.header_text(&names.auth_algo),
        body: String::from_utf8_lossy(&req.body).into_owned(),
    };
    (fields, req.header_text(&names.timestamp))
}

/// Verify a capture with one key and explain the verdict: (accepted?, report lines).
pub fn diagnose_capture(
    text: &str,
    key: &crate::core::Secret,
    prefix: &str,
    now: chrono::DateTime<Utc>,
) -> (bool, Vec<String>) {
    use crate::core::verify::{verify, SingleKey, VerifyOptions};
    let req = match parse_capture(text) {
        Ok(r) => r,
        Err(e) => return (false, vec![e]),
    };
    if key.is_empty() {
        return (
            false,
            vec![
                "the REST key is empty: set it in the request view or pick the demo key (Alt-K)"
                    .into(),
            ],
        );
    }
    let keys = SingleKey {
        api_key: None,
        secret: key.clone(),
    };
    let opts = VerifyOptions {
        header_prefix: prefix.to_string(),
        window_seconds: 600,
    };
    match verify(&req, &keys, &opts, now) {
        Ok(acc) => {
            let mut lines = vec![format!(
                "accepted: the signature matches (API key {})",
                acc.api_key
            )];
            lines.extend(acc.warnings.iter().map(|w| format!("warning: {w}")));
            (true, lines)
        }
        Err(rej) => {
            let mut lines = vec![format!("{} ({}): {rej}", rej.code(), rej.status())];
            let diagnosis = match rej.mismatch() {
                Some(m) => Some(m.diagnosis.clone()),
                None => crate::core::diagnose::provided_signature(&req)
                    .map(|sig| crate::core::diagnose::diagnose(&req, prefix, key, &sig))
                    .filter(|d| !d.signature_matches()),
            };
            if let Some(d) = diagnosis {
                lines.push(String::new());
                lines.extend(d.report().lines().map(str::to_string));
            }
            (false, lines)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_json_pretty_prints_like_serde_json_and_refuses_what_is_not_json() {
        let body = br#"{"b":[1,2.5,{"c":null}],"a":"x\u00e9","n":-3,"t":true,"e":{},"l":[]}"#;
        let v: serde_json::Value = serde_json::from_slice(body).unwrap();
        let want = serde_json::to_string_pretty(&v).unwrap();
        let got = format_json(body).unwrap();
        assert_eq!(got.lines.join("\n"), want);
        assert!(got.json);
        assert_eq!(format_json(b"[1] [2]"), None, "trailing data");
        assert_eq!(format_json(b"{\"a\":"), None, "truncated");
        assert_eq!(format_json(b""), None);
    }

    #[test]
    fn manager_saves_keep_the_stored_body_that_the_listing_leaves_out() {
        let dir = tempfile::tempdir().unwrap();
        let paths = crate::store::Paths::new(dir.path().join("c"), dir.path().join("d"));
        let store = ProfileStore::open(&paths);
        let mut big = Profile::new("big");
        big.body = "[\"a body that stays on disk\"]".into();
        store.save(&big).unwrap();
        let listed = without_body(store.load("big").unwrap());
        assert!(listed.body.is_empty());
        let mut full = store.load("big").unwrap();
        let copy = copy_without_body(&mut full);
        assert!(copy.body.is_empty());
        assert_eq!(full.body, big.body, "the original keeps its body");
        assert_eq!(
            Profile {
                body: full.body.clone(),
                ..copy
            },
            full
        );
        // Loading hands the body to the editor fields and keeps a body-less profile.
        let loaded = loaded_profile(full, String::new(), None);
        assert_eq!(loaded.fields.body, big.body);
        assert!(loaded.profile.unwrap().body.is_empty());
        assert_eq!(stored_body(&store, Some("big")).unwrap(), big.body);
        assert_eq!(stored_body(&store, None).unwrap(), "");
        assert_eq!(
            stored_body(&store, Some(DEMO_PROFILE)).unwrap(),
            Profile::demo().body
        );
        let err = stored_body(&store, Some("gone")).unwrap_err();
        assert!(err.contains("gone"), "{err}");
    }

    #[test]
    fn mismatch_debug_of_the_local_server_becomes_a_diff() {
        let body = serde_json::json!({
            "status": 401, "code": "SIGNATURE_MISMATCH", "message": "The signature does not match.",
            "debug": [
                {"message": "canonical: PUT\\n/v2/batch\\na=1\\nX-SVC-TIMESTAMP=t\\n[]"},
                {"message": "provided signature: abc"},
                {"message": "diagnosis: the client put a '?' before the query"},
                {"message": "finding QUERY_QUESTION_MARK: a '?' was signed"}
            ]
        });
        let bytes = serde_json::to_vec(&body).unwrap();
        let ours = visible_lines(b"PUT\n/v2/batch\n?a=1\nX-SVC-TIMESTAMP=t\n[]");
        let v = response_view(3, 401, vec![], &bytes, 1.0, true, ours);
        assert_eq!(v.code.as_deref(), Some("SIGNATURE_MISMATCH"));
        let m = v.mismatch.expect("a diff");
        assert_eq!(
            m.theirs,
            [
                "PUT\\n",
                "/v2/batch\\n",
                "a=1\\n",
                "X-SVC-TIMESTAMP=t\\n",
                "[]"
            ]
        );
        assert_eq!(m.ours[2], "?a=1\\n");
        let d = m.diagnosis.unwrap();
        assert!(
            d.starts_with("the client put a '?'") && d.contains("QUERY_QUESTION_MARK"),
            "{d}"
        );
    }

    #[test]
    fn accepted_batch_shows_the_job_id_and_big_bodies_wait_for_formatting() {
        let body = br#"{"message":"Job submitted successfully.","jobId":"j-1"}"#;
        let v = response_view(1, 200, vec![], body, 1.0, true, vec![]);
        assert_eq!(v.job_id.as_deref(), Some("j-1"));
        assert!(
            v.formatted.as_ref().unwrap().lines.len() > 1,
            "pretty-printed"
        );
        let v = response_view(1, 200, vec![], body, 1.0, false, vec![]);
        assert!(
            v.formatted.is_none() && v.raw.json,
            "raw first, formatting later"
        );
        assert_eq!(format_json(b"not json"), None);
    }

    #[test]
    fn diagnose_capture_explains_a_mismatch_and_accepts_a_good_request() {
        use crate::core::{sign, Secret, SignableRequest};
        let key = Secret::new("demo-rest-key-0123456789");
        let now = chrono::Utc::now();
        let ts = format_timestamp(now);
        let req = SignableRequest::new("PUT", "/v2/batch", "a=1", &ts, "pk", b"[]");
        let signed = sign(&req, &key).unwrap();
        let raw = crate::core::http_text::to_raw_request(&req, &signed, "127.0.0.1");
        let text = String::from_utf8(raw).unwrap();
        let (ok, lines) = diagnose_capture(&text, &key, "SVC", now);
        assert!(ok, "{lines:?}");
        // Sign "?a=1" instead: the classic mistake.
        let bad = SignableRequest::new("PUT", "/v2/batch", "?a=1", &ts, "pk", b"[]");
        let bad_sig = sign(&bad, &key).unwrap().signature().to_string();
        let tampered = text.replace(signed.signature(), &bad_sig);
        let (ok, lines) = diagnose_capture(&tampered, &key, "SVC", now);
        assert!(!ok);
        assert!(
            lines[0].starts_with("SIGNATURE_MISMATCH (401)"),
            "{lines:?}"
        );
        assert!(lines.iter().any(|l| l.contains("'?'")), "{lines:?}");
        // Loading it into the editor keeps the captured timestamp.
        let parsed = parse_capture(&text).unwrap();
        let (fields, t) = capture_fields(&parsed, "SVC");
        assert_eq!((fields.query.as_str(), t.as_str()), ("a=1", ts.as_str()));
        assert!(parse_capture("  ").is_err());
    }
}
