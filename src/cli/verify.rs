//! `signscope verify`: verify a captured raw HTTP/1.1 request and explain a failing signature.
//! Exit 0 when accepted, 1 when rejected, 2 for unusable input.

use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::{bail, Context};

use crate::core::http_text::parse_raw_request_with_notes;
use crate::core::time::parse_timestamp;
use crate::core::verify::{verify, SingleKey, VerifyOptions};
use crate::core::visible::escape_visible;
use crate::core::ReceivedRequest;

use super::keys::rest_key_from_env_or_file;

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("rest_key").required(true).args(["rest_key_env", "rest_key_file"])))]
pub struct VerifyArgs {
    /// The raw HTTP/1.1 request (request line, headers, blank line, body) or a curl command
    /// line (as `sign --output curl` prints); '-' reads stdin.
    #[arg(long, value_name = "FILE")]
    pub request_file: PathBuf,
    /// Read the REST key from this environment variable.
    #[arg(long, value_name = "VAR")]
    pub rest_key_env: Option<String>,
    /// Read the REST key from this file (one trailing newline is ignored).
    #[arg(long, value_name = "FILE")]
    pub rest_key_file: Option<PathBuf>,
    /// The API key the REST key belongs to (default: whatever API key the request names).
    #[arg(long, value_name = "K")]
    pub api_key: Option<String>,
    /// The server time to check the timestamp against (default: now).
    #[arg(long, value_name = "TS")]
    pub now: Option<String>,
}

/// The header prefix a request uses, found from its `X-<PREFIX>-TIMESTAMP` or
/// `X-<PREFIX>-APIKEY` header; `SVC` when neither is there.
pub fn detect_prefix(req: &ReceivedRequest) -> String {
    for (name, _) in &req.headers {
        let upper = name.to_ascii_uppercase();
        for suffix in ["-TIMESTAMP", "-APIKEY", "-AUTH-ALGO"] {
            if let Some(p) = upper
                .strip_prefix("X-")
                .and_then(|r| r.strip_suffix(suffix))
            {
                if !p.is_empty() {
                    return p.to_string();
                }
            }
        }
    }
    crate::core::DEFAULT_HEADER_PREFIX.to_string()
}

pub fn run(args: VerifyArgs) -> anyhow::Result<u8> {
    let now = match &args.now {
        None => chrono::Utc::now(),
        Some(ts) => match parse_timestamp(ts) {
            Some(p) => p.time,
            None => bail!(
                "the --now value \"{}\" is not an RFC 3339 time such as 2026-11-22T10:00:00.000Z",
                escape_visible(ts.as_bytes())
            ),
        },
    };
    let raw = if args.request_file.as_os_str() == "-" {
        let mut v = Vec::new();
        std::io::stdin()
            .read_to_end(&mut v)
            .context("cannot read the request from stdin")?;
        v
    } else {
        std::fs::read(&args.request_file).with_context(|| {
            format!(
                "cannot read the request file {}",
                args.request_file.display()
            )
        })?
    };
    // A curl command line (the workbench's Diagnose view takes both; `sign --output curl`
    // prints one) or raw HTTP.
    let curl = std::str::from_utf8(&raw)
        .ok()
        .map(str::trim_start)
        .filter(|t| t.starts_with("curl ") || t.starts_with("curl\t"));
    let parsed = match curl {
        Some(cmd) => crate::core::curl::parse_curl(cmd)
            .map(|request| crate::core::http_text::ParsedRaw {
                request,
                version: "HTTP/1.1".into(),
                notes: Vec::new(),
            })
            .with_context(|| {
                format!(
                    "cannot read the curl command in {}",
                    args.request_file.display()
                )
            })?,
        None => parse_raw_request_with_notes(&raw).with_context(|| {
            format!("cannot read the request in {}", args.request_file.display())
        })?,
    };
    let secret =
        rest_key_from_env_or_file(args.rest_key_env.as_deref(), args.rest_key_file.as_deref())?;
    let keys = SingleKey {
        api_key: args.api_key.clone(),
        secret,
    };
    let opts = VerifyOptions {
        header_prefix: detect_prefix(&parsed.request),
        ..VerifyOptions::default()
    };

    let mut out = std::io::stdout().lock();
    for note in &parsed.notes {
        writeln!(out, "note: {note}")?;
    }
    let verdict = verify(&parsed.request, &keys, &opts, now);
    tracing::debug!(
        method = %parsed.request.method,
        path = %parsed.request.path,
        body_len = parsed.request.body.len(),
        accepted = verdict.is_ok(),
        "capture verified"
    );
    match verdict {
        Ok(accepted) => {
            writeln!(out, "{accepted}")?;
            for w in &accepted.warnings {
                writeln!(out, "warning: {w}")?;
            }
            Ok(0)
        }
        Err(rejection) => {
            writeln!(
                out,
                "rejected ({} {}): {}",
                rejection.status(),
                rejection.code(),
                rejection
            )?;
            if let Some(m) = rejection.mismatch() {
                out.write_all(m.diagnosis.details().as_bytes())?;
            }
            Ok(1)
        }
    }
}
