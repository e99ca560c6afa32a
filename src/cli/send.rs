//! `signscope send` and `signscope events send`: thin callers of the engine (`crate::engine`,
//! which opens the profile, signs once, sends and records); here only the arguments and the
//! printing of the exchange.

use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, Context};
use bytes::Bytes;

use super::request_flags::RequestFlags;
use crate::core::spec::{RequestSpec, Timestamp};
use crate::core::visible::{escape_visible, escape_visible_lines, json_visible};
use crate::engine::{ClientOptions, Response};
use crate::engine::{Exchange, SendRequest, Session};
use crate::store::Paths;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    /// Status line, headers, body (pretty JSON when it is JSON).
    #[default]
    Text,
    /// One JSON object with request, response, timings and warnings.
    Json,
}

#[derive(Debug, clap::Args)]
pub struct SendArgs {
    /// Profile to use (default: the last used one; `demo` when there are no saved profiles).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// The profile's saved request to send (default: its first; `signscope profile request list
    /// NAME` lists them). The flags below override its values.
    #[arg(long, value_name = "NAME")]
    pub request: Option<String>,
    /// Method, path, query and body (each one left out is the profile's request's).
    #[command(flatten)]
    pub request_flags: RequestFlags,
    /// The REST key for this send (default: the profile's; the profile is not changed).
    #[command(flatten)]
    pub key: super::keys::RestKeyArgs,
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

pub fn run(args: SendArgs) -> anyhow::Result<u8> {
    let opts = args.timeouts.options()?;
    let mut session = Session::open_in(Paths::discover()?, args.profile.as_deref(), opts)?;
    if let Some(name) = &args.request {
        session.profile_mut().select_request(name)?;
    }
    if let Some(source) = args.key.source()? {
        session.profile_mut().rest_key = source;
    }
    let p = session.profile().request();
    let flags = &args.request_flags;
    let body = match (&flags.body_file, &flags.body) {
        (Some(f), _) => read_body_file(f)?,
        (None, Some(text)) => Bytes::from(text.clone().into_bytes()),
        (None, None) => p.body.clone(), // shared with the profile, not copied
    };
    let request = RequestSpec {
        method: flags.method.clone().unwrap_or_else(|| p.method.clone()),
        path: flags.path.clone().unwrap_or_else(|| p.path.clone()),
        query: flags.query().unwrap_or_else(|| p.query.clone()),
        ..p.with_body(body)
    };
    let params = session.signing_params(Timestamp::Now)?;
    let send = SendRequest {
        base_url: session.indexing_url()?,
        request,
        params,
    };
    let exchange = session.sender().send_blocking(send)?;
    finish(exchange, args.output)
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

/// Run `signscope events send FILE`: post an event batch file to the profile's collector.
pub fn run_events_send(args: EventsSendArgs) -> anyhow::Result<u8> {
    let opts = args.timeouts.options()?;
    let mut session = Session::open_in(Paths::discover()?, args.profile.as_deref(), opts)?;
    let body = read_body_file(&args.file)?;
    let url = session.analytics_url()?;
    // The collector takes no key, but redact the profile's key anyway if it can be read.
    let key = session.key().ok();
    let exchange = session.sender().send_events_blocking(&url, body, key)?;
    finish(exchange, args.output)
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
        let reason = crate::store::io_reason(&e);
        anyhow!("cannot read the body file {}: {reason}", f.display())
    })?;
    Ok(Bytes::from(bytes))
}

fn finish(exchange: Exchange, output: Output) -> anyhow::Result<u8> {
    let Exchange {
        request: req,
        response: outcome,
        warnings,
        ..
    } = exchange;
    for w in &warnings {
        eprintln!("signscope: warning: {w}");
    }
    let mut v = serde_json::json!({"request": {
        "method": req.method,
        "url": req.url,
        "headers": req.headers,
        "body_len": req.body.len(),
    }});
    let code = match &outcome {
        Err(e) => {
            v["error"] = e.to_string().into();
            1
        }
        Ok(resp) if output == Output::Text => {
            print_out(&response_text(resp))?;
            u8::from(!resp.is_success())
        }
        Ok(resp) => {
            v["response"] = serde_json::json!({
                "status": resp.status,
                "headers": resp.headers,
                "body": body_json(&resp.body),
            });
            v["timings"] = serde_json::json!({
                "connect_ms": resp.timings.connect.map(|d| d.as_secs_f64() * 1000.0),
                "first_byte_ms": resp.timings.first_byte.as_secs_f64() * 1000.0,
                "total_ms": resp.timings.total.as_secs_f64() * 1000.0,
            });
            u8::from(!resp.is_success())
        }
    };
    if output == Output::Json {
        v["warnings"] = serde_json::json!(warnings);
        print_out(&format!("{}\n", json_visible(&format!("{v:#}"))))?;
    }
    if let Err(e) = &outcome {
        eprintln!("signscope: {e}");
    }
    Ok(code)
}

/// Write to stdout; an error (e.g. the reader of a pipe went away) is returned, where
/// `print!` would panic.
fn print_out(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
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
    // Everything from the server is text from outside: shown through the one escaping rule
    // (`core::visible`), so an answer cannot write terminal controls or reorder the screen.
    for (n, v) in &resp.headers {
        out.push_str(&escape_visible(format!("{n}: {v}").as_bytes()));
        out.push('\n');
    }
    out.push('\n');
    match serde_json::from_slice::<serde_json::Value>(&resp.body)
        .and_then(|v| serde_json::to_string_pretty(&v))
    {
        Ok(pretty) => out.push_str(&json_visible(&pretty)),
        Err(_) => out.push_str(&escape_visible_lines(&resp.body)),
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}
