//! The event loop: terminal input, command results and signals become Messages; `update` turns
//! them into Commands, executed here off the draw path; the screen is redrawn only after
//! something changed. No timer runs unless the live timestamp is on screen (1 s tick).

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use chrono::Utc;
use crossterm::event::{Event, EventStream};
use futures::{FutureExt, StreamExt};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use super::app::{App, FormattedBody, MismatchView, ResponseView};
use super::message::{Command, Message, SendJob};
use super::signing::SignWorker;
use super::terminal::{self, Term};
use super::update::update;
use crate::core::time::format_timestamp;
use crate::core::visible::visible_lines;

/// Responses up to this size are formatted before they are shown; larger ones are shown raw
/// first and formatted on a blocking thread.
pub const FORMAT_INLINE_LIMIT: usize = 256 * 1024;

/// Everything the runtime owns besides the App.
pub struct Effects {
    pub tx: UnboundedSender<Message>,
    pub signer: SignWorker,
    pub http: reqwest::Client,
    pub clipboard: Option<arboard::Clipboard>,
}

impl Effects {
    pub fn new(tx: UnboundedSender<Message>) -> Self {
        let out = tx.clone();
        let signer = SignWorker::spawn(move |m| {
            let _ = out.send(m);
        });
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(60))
            .no_proxy()
            .build()
            .expect("build the HTTP client");
        Effects {
            tx,
            signer,
            http,
            clipboard: None,
        }
    }

    /// Execute one command that does not need the terminal.
    pub fn execute(&mut self, cmd: Command) {
        match cmd {
            Command::Sign(job) => self.signer.submit(*job),
            Command::Send(job) => {
                let tx = self.tx.clone();
                let http = self.http.clone();
                tokio::spawn(async move {
                    let id = job.id;
                    let result = send(&http, *job, tx.clone()).await;
                    let _ = tx.send(Message::SendDone { id, result });
                });
            }
            Command::Copy(text) => {
                let result = self.copy(&text);
                let _ = self.tx.send(Message::Copied(result));
            }
            Command::ListProfiles => {
                let _ = self.tx.send(Message::ProfileList(Err(
                    "saved profiles are not available in this build yet".into(),
                )));
            }
            Command::LoadProfile(name) => {
                let _ = self.tx.send(Message::ProfileLoaded(Err(format!(
                    "cannot load profile {name}: saved profiles are not available in this build yet"
                ))));
            }
            Command::SaveProfile { name, .. } => {
                let _ = self.tx.send(Message::ProfileSaved(Err(format!(
                    "cannot save profile {name}: saved profiles are not available in this build yet"
                ))));
            }
            Command::Diagnose { .. } | Command::ParseCapture(_) => {
                let _ = self.tx.send(Message::Diagnosed {
                    ok: false,
                    lines: vec!["Diagnosis is not available in this build yet.".into()],
                });
            }
            Command::EditBody(_) | Command::Quit => {}
        }
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

/// Sign (at send time when the timestamp is live) and send; build the response view.
pub async fn send(
    http: &reqwest::Client,
    job: SendJob,
    tx: UnboundedSender<Message>,
) -> Result<ResponseView, String> {
    let mut sign = job.sign;
    if job.live_timestamp {
        sign.timestamp = format_timestamp(Utc::now());
    }
    let (sign, signed, canonical) = tokio::task::spawn_blocking(move || {
        let req = sign.request();
        let signed = crate::core::sign(&req, &sign.key).map_err(|e| e.to_string());
        let canonical = visible_lines(&req.canonical().to_bytes());
        (sign, signed, canonical)
    })
    .await
    .map_err(|e| format!("signing failed: {e}"))?;
    let signed = signed?;
    let method = reqwest::Method::from_bytes(sign.method.to_ascii_uppercase().as_bytes())
        .map_err(|_| format!("the method {:?} is not a valid HTTP method", sign.method))?;
    let url = reqwest::Url::parse(&job.url)
        .map_err(|e| format!("the URL {:?} is not valid: {e}", job.url))?;
    let mut rb = http.request(method, url);
    for (n, v) in &signed.headers {
        rb = rb.header(n, v);
    }
    let body = bytes::Bytes::from_owner(ArcBody(Arc::clone(&sign.body)));
    let started = Instant::now();
    let resp = rb
        .body(body)
        .send()
        .await
        .map_err(|e| format!("could not reach {}: {}", job.url, error_chain(&e)))?;
    let status = resp.status().as_u16();
    let headers: Vec<(String, String)> = resp
        .headers()
        .iter()
        .map(|(n, v)| {
            (
                n.to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let body = resp
        .bytes()
        .await
        .map_err(|e| format!("the response body was cut off: {}", error_chain(&e)))?;
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    let id = job.id;
    let big = body.len() > FORMAT_INLINE_LIMIT;
    let body2 = body.clone();
    let mut view = tokio::task::spawn_blocking(move || {
        response_view(id, status, headers, &body2, elapsed_ms, !big, canonical)
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
    view.elapsed_ms = elapsed_ms;
    Ok(view)
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(inner) = src {
        s.push_str(": ");
        s.push_str(&inner.to_string());
        src = inner.source();
    }
    s
}

/// Pretty-print a JSON body into lines (None when it is not JSON).
pub fn format_json(body: &[u8]) -> Option<FormattedBody> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    let text = serde_json::to_string_pretty(&value).ok()?;
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

/// Find the server's canonical text and diagnosis in a SIGNATURE_MISMATCH error body.
pub fn mismatch_from(v: &serde_json::Value, ours: Vec<String>) -> Option<MismatchView> {
    let debug = v.get("debug")?;
    let mut canonical: Option<String> = None;
    let mut diagnosis: Option<String> = None;
    let mut visit = |obj: &serde_json::Value| {
        for key in [
            "canonical",
            "canonical_text",
            "canonicalText",
            "server_canonical",
        ] {
            if let Some(s) = obj.get(key).and_then(|s| s.as_str()) {
                canonical.get_or_insert_with(|| s.to_string());
            }
        }
        for key in ["diagnosis", "summary"] {
            if let Some(s) = obj.get(key).and_then(|s| s.as_str()) {
                diagnosis.get_or_insert_with(|| s.to_string());
            }
        }
    };
    match debug {
        serde_json::Value::Array(items) => items.iter().for_each(&mut visit),
        other => visit(other),
    }
    let canonical = canonical?;
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
pub fn run_app(mut app: App, server_note: Option<String>) -> anyhow::Result<u8> {
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
    let result = rt.block_on(event_loop(&mut term, &mut app, tx, rx));
    terminal::restore();
    result.map(|_| 0)
}

async fn event_loop(
    term: &mut Term,
    app: &mut App,
    tx: UnboundedSender<Message>,
    mut rx: UnboundedReceiver<Message>,
) -> anyhow::Result<()> {
    let mut fx = Effects::new(tx.clone());
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
            _ = sigterm.recv() => pending.push(Message::Terminate),
            _ = sighup.recv() => pending.push(Message::Terminate),
        }
        // Coalesce bursts (fast typing, paste, worker answers) into one frame.
        while let Ok(m) = rx.try_recv() {
            pending.push(m);
        }
        while let Some(Some(Ok(e))) = ev.next().now_or_never() {
            if let Some(m) = event_message(e) {
                pending.push(m);
            }
            if pending.len() > 256 {
                break;
            }
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
