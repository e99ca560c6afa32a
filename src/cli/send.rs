//! `signscope send`: sign and send one indexing request with a profile, print the response,
//! record it in the history. Also the shared pieces of `signscope events send`: choosing the
//! profile, starting the in-process server for the demo, printing a response.

use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, Context};
use bytes::Bytes;

use crate::client::{self, ClientError, ClientOptions, OutgoingRequest, RequestParts, Response};
use crate::core::Secret;
use crate::server::{spawn_background, BackgroundServer, ServerConfig};
use crate::store::{History, Paths, Profile, ProfileStore, DEMO_PROFILE};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    /// Status line, headers, body (pretty JSON when it is JSON).
    #[default]
    Text,
    /// One JSON object with request, response, timings and warnings.
    Json,
}

#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("body_source").multiple(false))]
pub struct SendArgs {
    /// Profile to use (default: the last used one; `demo` when there are no saved profiles).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// HTTP method (default: the profile's).
    #[arg(long, value_name = "M")]
    pub method: Option<String>,
    /// Path, e.g. /v2/batch (default: the profile's).
    #[arg(long, value_name = "P")]
    pub path: Option<String>,
    /// Query string without the leading '?', sent and signed exactly as given.
    #[arg(long, value_name = "Q")]
    pub query: Option<String>,
    /// Read the body from a file ('-' for standard input); its bytes are sent unchanged.
    #[arg(long, value_name = "FILE", group = "body_source")]
    pub body_file: Option<PathBuf>,
    /// The body text (default: the profile's saved body).
    #[arg(long, value_name = "TEXT", group = "body_source")]
    pub body: Option<String>,
    #[arg(long, value_enum, default_value_t = Output::Text)]
    pub output: Output,
    #[command(flatten)]
    pub timeouts: TimeoutArgs,
}

#[derive(Debug, Clone, clap::Args)]
pub struct TimeoutArgs {
    /// Seconds allowed to open the connection.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub connect_timeout: f64,
    /// Seconds allowed for the whole exchange.
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    pub timeout: f64,
}

impl TimeoutArgs {
    pub fn options(&self) -> anyhow::Result<ClientOptions> {
        let secs = |v: f64, flag: &str| {
            if v.is_finite() && v > 0.0 && v <= 86_400.0 {
                Ok(Duration::from_secs_f64(v))
            } else {
                Err(anyhow!(
                    "{flag} must be a number of seconds above 0 and at most 86400, not {v}"
                ))
            }
        };
        Ok(ClientOptions {
            connect_timeout: secs(self.connect_timeout, "--connect-timeout")?,
            total_timeout: secs(self.timeout, "--timeout")?,
        })
    }
}

/// A profile ready to send with: its key, and the in-process server when it uses one.
pub(crate) struct Session {
    pub paths: Paths,
    pub profile: Profile,
    pub indexing_url: String,
    pub analytics_url: String,
    /// Kept alive for the duration of the command (stopped on drop).
    pub _server: Option<BackgroundServer>,
}

impl Session {
    /// Choose the profile: the one named, else the last used, else `demo` when none is saved.
    pub fn open(name: Option<&str>) -> anyhow::Result<Session> {
        let paths = Paths::discover()?;
        let store = ProfileStore::open(&paths);
        let name = match name {
            Some(n) => n.to_string(),
            None => match store.last_used() {
                Some(n) if store.load(&n).is_ok() => n,
                _ => {
                    let saved = store.saved_names();
                    match saved.as_slice() {
                        [] => DEMO_PROFILE.to_string(),
                        [only] => only.clone(),
                        many => {
                            return Err(anyhow!(
                                "several profiles exist ({}); choose one with --profile NAME",
                                many.join(", ")
                            ))
                        }
                    }
                }
            },
        };
        let profile = store.load(&name)?;
        let server = if profile.uses_embedded_server() {
            let server = spawn_background(ServerConfig::demo(), ([127, 0, 0, 1], 0).into())
                .context("cannot start the in-process local server")?;
            Some(server)
        } else {
            None
        };
        let pick = |url: &str| match &server {
            Some(s) if url == crate::store::EMBEDDED_URL => s.url(),
            _ => url.to_string(),
        };
        let indexing_url = pick(&profile.indexing_url);
        let analytics_url = pick(&profile.analytics_url);
        Ok(Session {
            paths,
            profile,
            indexing_url,
            analytics_url,
            _server: server,
        })
    }

    /// The REST key (never printed).
    pub fn key(&self) -> anyhow::Result<Secret> {
        self.profile
            .rest_key
            .resolve()
            .with_context(|| format!("profile \"{}\" has no usable REST key", self.profile.name))
    }

    /// Send, record in the history (key redacted), remember the profile as last used.
    pub fn send_and_record(
        &self,
        kind: &str,
        req: &OutgoingRequest,
        opts: &ClientOptions,
        key: Option<&Secret>,
        sent_at: chrono::DateTime<chrono::Utc>,
    ) -> anyhow::Result<(Result<Response, ClientError>, Vec<String>)> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("cannot start the async runtime")?;
        let (http, probe) = client::build_client_probed(opts)?;
        let outcome = runtime.block_on(client::send_probed(&http, &probe, req, opts));
        let mut warnings = Vec::new();
        let entry = client::history_entry(
            &self.profile.name,
            kind,
            sent_at,
            req,
            outcome.as_ref(),
            key,
            crate::store::history::DEFAULT_BODY_CAP,
        );
        if let Err(e) = History::open(&self.paths).append(&entry) {
            warnings.push(format!("the send was not recorded in the history: {e}"));
        }
        if let Err(e) = ProfileStore::open(&self.paths).set_last_used(&self.profile.name) {
            warnings.push(format!("the last used profile was not remembered: {e}"));
        }
        Ok((outcome, warnings))
    }
}

pub fn run(args: SendArgs) -> anyhow::Result<u8> {
    let opts = args.timeouts.options()?;
    let session = Session::open(args.profile.as_deref())?;
    let body = match (&args.body_file, &args.body) {
        (Some(f), _) => read_body_file(f)?,
        (None, Some(text)) => Bytes::from(text.clone().into_bytes()),
        (None, None) => Bytes::from(session.profile.body.clone().into_bytes()),
    };
    let key = session.key()?;
    let p = &session.profile;
    let parts = RequestParts {
        base_url: &session.indexing_url,
        method: args.method.as_deref().unwrap_or(&p.method),
        path: args.path.as_deref().unwrap_or(&p.path),
        query: args.query.as_deref().unwrap_or(&p.query),
        header_prefix: &p.header_prefix,
        api_key: &p.api_key,
        auth_algo: &p.auth_algo,
        content_type: &p.content_type,
        body,
    };
    let now = chrono::Utc::now();
    let req = client::build_signed(&parts, &key, now)?;
    let (outcome, warnings) = session.send_and_record("request", &req, &opts, Some(&key), now)?;
    finish(&req, outcome, warnings, args.output)
}

/// `signscope events send FILE [--profile P]` (wired into `events` as its `Send` subcommand).
#[derive(Debug, clap::Args)]
pub struct EventsSendArgs {
    /// The batch file, sent byte for byte ('-' reads standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Profile whose analytics URL receives the batch (default as for `send`).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    #[arg(long, value_enum, default_value_t = Output::Text)]
    pub output: Output,
    #[command(flatten)]
    pub timeouts: TimeoutArgs,
}

/// Run `signscope events send`.
pub fn run_events_send(args: EventsSendArgs) -> anyhow::Result<u8> {
    send_events_file(
        &args.file,
        args.profile.as_deref(),
        args.output,
        &args.timeouts,
    )
}

/// `signscope events send FILE`: post an event batch file to the profile's collector.
pub fn send_events_file(
    file: &std::path::Path,
    profile: Option<&str>,
    output: Output,
    timeouts: &TimeoutArgs,
) -> anyhow::Result<u8> {
    let opts = timeouts.options()?;
    let session = Session::open(profile)?;
    let body = read_body_file(file)?;
    let req = client::events_request(&session.analytics_url, body);
    // The collector takes no key, but redact the profile's key anyway if it can be read.
    let key = session.profile.rest_key.resolve().ok();
    let now = chrono::Utc::now();
    let (outcome, warnings) = session.send_and_record("events", &req, &opts, key.as_ref(), now)?;
    finish(&req, outcome, warnings, output)
}

fn read_body_file(f: &std::path::Path) -> anyhow::Result<Bytes> {
    if f.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("cannot read the body from standard input")?;
        return Ok(Bytes::from(buf));
    }
    let bytes = std::fs::read(f).map_err(|e| {
        anyhow!(
            "cannot read the body file {}: {}",
            f.display(),
            io_phrase(&e)
        )
    })?;
    Ok(Bytes::from(bytes))
}

fn io_phrase(e: &std::io::Error) -> String {
    crate::store::io_reason(e)
}

fn finish(
    req: &OutgoingRequest,
    outcome: Result<Response, ClientError>,
    mut warnings: Vec<String>,
    output: Output,
) -> anyhow::Result<u8> {
    if let Ok(r) = &outcome {
        warnings.extend(r.clock_skew_warning.clone());
    }
    for w in &warnings {
        eprintln!("signscope: warning: {w}");
    }
    match outcome {
        Err(e) => {
            if output == Output::Json {
                let v = serde_json::json!({
                    "request": request_json(req),
                    "error": e.to_string(),
                    "warnings": warnings,
                });
                println!("{}", serde_json::to_string_pretty(&v).expect("json"));
            }
            eprintln!("signscope: {e}");
            Ok(1)
        }
        Ok(resp) => {
            match output {
                Output::Text => print!("{}", response_text(&resp)),
                Output::Json => {
                    let v = serde_json::json!({
                        "request": request_json(req),
                        "response": {
                            "status": resp.status,
                            "headers": resp.headers,
                            "body": body_json(&resp.body),
                        },
                        "timings": {
                            "connect_ms": resp.timings.connect.map(|d| d.as_secs_f64() * 1000.0),
                            "first_byte_ms": resp.timings.first_byte.as_secs_f64() * 1000.0,
                            "total_ms": resp.timings.total.as_secs_f64() * 1000.0,
                        },
                        "warnings": warnings,
                    });
                    println!("{}", serde_json::to_string_pretty(&v).expect("json"));
                }
            }
            Ok(if resp.is_success() { 0 } else { 1 })
        }
    }
}

fn request_json(req: &OutgoingRequest) -> serde_json::Value {
    serde_json::json!({
        "method": req.method,
        "url": req.url,
        "headers": req.headers,
        "body_len": req.body.len(),
    })
}

/// The body as JSON when it parses, else as a string.
fn body_json(body: &[u8]) -> serde_json::Value {
    serde_json::from_slice(body)
        .unwrap_or_else(|_| serde_json::Value::String(String::from_utf8_lossy(body).into_owned()))
}

/// Status line, headers, a blank line, the body (pretty when JSON).
pub fn response_text(resp: &Response) -> String {
    let reason = reqwest::StatusCode::from_u16(resp.status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("");
    let connect = resp
        .timings
        .connect
        .map(|d| format!("connect {:.1} ms, ", d.as_secs_f64() * 1000.0))
        .unwrap_or_default();
    let mut out = format!(
        "HTTP {} {reason}  ({connect}first byte {:.1} ms, total {:.1} ms)\n",
        resp.status,
        resp.timings.first_byte.as_secs_f64() * 1000.0,
        resp.timings.total.as_secs_f64() * 1000.0
    );
    for (n, v) in &resp.headers {
        out.push_str(&format!("{n}: {v}\n"));
    }
    out.push('\n');
    match serde_json::from_slice::<serde_json::Value>(&resp.body) {
        Ok(v) => out.push_str(&serde_json::to_string_pretty(&v).expect("json")),
        Err(_) => out.push_str(&String::from_utf8_lossy(&resp.body)),
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}
