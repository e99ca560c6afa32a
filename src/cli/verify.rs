//! `signscope verify`: verify a captured raw HTTP/1.1 request and explain a failing signature.
//! Exit 0 when accepted, 1 when rejected, 2 for unusable input.

use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::{bail, Context};

use crate::core::diagnose::{expected_head, DiagnoseOptions};
use crate::core::http_text::parse_raw_request_with_notes;
use crate::core::indexing_body::{judge_bytes, shown_path, BodyKind, Judgement};
use crate::core::sign::{encode_signature, hmac_sha384};
use crate::core::verify::{verify_all, Checked, DiagnosisPlan, SingleKey, VerifyOptions};
use crate::core::ReceivedRequest;
use crate::core::Secret;
use crate::core::SigningForm;
use crate::engine::capture::curl_body_file;

use super::keys::profile_keys;

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The raw HTTP/1.1 request (request line, headers, blank line, body) or a curl command
    /// line (as `sign --output curl` prints); '-' reads stdin.
    #[arg(long, value_name = "FILE")]
    pub request_file: PathBuf,
    /// The body of a curl command that reads it from a file (`--data-binary @FILE`, as
    /// `sign --output curl --body-file` prints). Default: the file it names, looked up next to
    /// the request file, then in the working directory.
    #[arg(long, value_name = "FILE")]
    pub body_file: Option<PathBuf>,
    /// The REST key to verify with (this or --profile is needed).
    #[command(flatten)]
    pub key: super::keys::RestKeyArgs,
    /// Take the REST key and the API key from a saved profile, as `sign` and `send` do
    /// (--rest-key and --api-key still override it).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// The API key the REST key belongs to (default: whatever API key the request names).
    #[arg(long, value_name = "K")]
    pub api_key: Option<String>,
    /// The server time to check the timestamp against (default: now).
    #[arg(long, value_name = "TS")]
    pub now: Option<String>,
    /// The client's own signing text (the exact bytes it signed), compared byte by byte with
    /// the expected text when no known mistake explains a mismatch.
    #[arg(long, value_name = "FILE")]
    pub client_text: Option<PathBuf>,
    /// Also accept a signature made in this signing form (`php-sdk`: the vendor's PHP SDK's
    /// text, `docs/signing.md` rule S14), with a warning naming it, as `serve --accept-form`
    /// does. Repeatable.
    #[arg(long = "accept-form", value_name = "FORM")]
    pub accept_forms: Vec<SigningForm>,
    /// `text` (default) or `json`: one object with accepted, status, code, mistakes,
    /// client_form, message, checks, expected_text and expected_signature.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = ["text", "json"])]
    pub output: String,
}

/// The key to verify with: the flags', else the profile's (its API key too, unless --api-key
/// names one).
fn single_key(args: &VerifyArgs) -> anyhow::Result<SingleKey> {
    match &args.profile {
        Some(name) if !args.key.given() => {
            let (api_key, secret) = profile_keys(name)?;
            Ok(SingleKey {
                api_key: Some(args.api_key.clone().unwrap_or(api_key)),
                secret,
            })
        }
        None if !args.key.given() => bail!(
            "give the REST key to verify with: --rest-key REF (env:NAME, file:PATH, cmd:COMMAND or keyring:SERVICE/ACCOUNT) or --profile NAME"
        ),
        _ => Ok(SingleKey {
            api_key: args.api_key.clone(),
            secret: args.key.require()?,
        }),
    }
}

pub fn run(args: VerifyArgs) -> anyhow::Result<u8> {
    let now = super::now_from_flag(args.now.as_deref())?;
    let (parsed, curl_file) = read_capture(&args)?;
    let client_text = match &args.client_text {
        Some(path) => Some(std::fs::read(path).with_context(|| {
            format!("cannot read the client's signing text {}", path.display())
        })?),
        None => None,
    };
    let keys = single_key(&args)?;
    let secret = keys.secret.clone();
    let opts = VerifyOptions {
        header_prefix: crate::core::verify::prefix_or_default(&parsed.request),
        ..VerifyOptions::default()
    };
    // The diagnosis hashes its variants on every core (the search is pure CPU work).
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let plan = DiagnosisPlan::Run(DiagnoseOptions {
        client_text,
        curl_file,
        threads,
        ..DiagnoseOptions::default()
    });
    let checked = verify_all(&parsed.request, &keys, &opts, now, &plan);
    let checked = accept_in_forms(
        checked,
        &parsed.request,
        &keys,
        &opts,
        now,
        &args.accept_forms,
    );
    tracing::debug!(
        method = %parsed.request.method,
        path = %parsed.request.path,
        body_len = parsed.request.body.len(),
        accepted = checked.accepted.is_some(),
        "capture verified"
    );
    // A verified indexing body is judged as the server judges it (`docs/indexing-bodies.md`).
    let body = checked
        .accepted
        .as_ref()
        .and_then(|_| body_judgement(&parsed.request));
    let refused = body.as_ref().is_some_and(|j| !j.is_ok());
    // Written whole once the key is blanked out of it: a capture's body or headers may hold
    // the key itself (a body file such as /proc/self/environ), and no output may show it.
    let mut out: Vec<u8> = Vec::new();
    let code = if args.output == "json" {
        let mut report = json_report(&parsed.request, &opts.header_prefix, &secret, &checked);
        report["body"] = serde_json::json!(body);
        if refused {
            report["status"] = serde_json::json!(400);
            report["code"] = serde_json::json!("VALIDATION_ERROR");
        }
        serde_json::to_writer(&mut out, &report)?;
        writeln!(out)?;
        if checked.accepted.is_some() && !refused {
            0
        } else {
            1
        }
    } else {
        let code = text_report(&mut out, &parsed.notes, &checked)?;
        if let Some(j) = &body {
            body_report(&mut out, j)?;
        }
        code.max(u8::from(refused))
    };
    crate::logging::redact_in_logs(&secret);
    let text = String::from_utf8_lossy(&out);
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(crate::logging::redact_line(&text).as_bytes())?;
    stdout.flush()?;
    Ok(code)
}

/// The capture: a curl command line (the workbench's Diagnose view takes both; `sign --output
/// curl` prints one) or raw HTTP, with the body file as written when the curl command reads
/// it changed (what a client may have signed).
fn read_capture(
    args: &VerifyArgs,
) -> anyhow::Result<(crate::core::http_text::ParsedRaw, Option<Vec<u8>>)> {
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
    let curl = std::str::from_utf8(&raw)
        .ok()
        .map(str::trim_start)
        .filter(|t| t.starts_with("curl ") || t.starts_with("curl\t"));
    match curl {
        Some(cmd) => read_curl_capture(args, cmd),
        None => Ok((
            parse_raw_request_with_notes(&raw).with_context(|| {
                format!("cannot read the request in {}", args.request_file.display())
            })?,
            None,
        )),
    }
}

/// A curl command line as the request it sends, its body file read as curl would.
fn read_curl_capture(
    args: &VerifyArgs,
    cmd: &str,
) -> anyhow::Result<(crate::core::http_text::ParsedRaw, Option<Vec<u8>>)> {
    let mut curl_file = None;
    let c = crate::core::curl::parse_curl_command(cmd).with_context(|| {
        format!(
            "cannot read the curl command in {}",
            args.request_file.display()
        )
    })?;
    let mut request = c.request;
    let mut notes = c.notes;
    if let Some(named) = &c.body_file {
        let (path, body) = curl_body_file(named, &args.request_file, args.body_file.as_deref())?;
        notes.push(format!(
            "the body is the file {}, read {}",
            path.display(),
            c.body_file_read.describe()
        ));
        let sent = c.body_file_read.apply(body.clone());
        // The file as written is what a client may have signed (docs/diagnosis.md D8).
        if sent != body {
            curl_file = Some(body);
        }
        request.body = sent.into();
    }
    let parsed = crate::core::http_text::ParsedRaw {
        request,
        version: "HTTP/1.1".into(),
        notes,
    };
    Ok((parsed, curl_file))
}

/// The text report: the capture's notes, the verdict and every failing check (the lines the
/// workbench's Diagnose view shows), and a mismatch's diagnosis. Returns the exit code.
fn text_report(out: &mut Vec<u8>, notes: &[String], checked: &Checked) -> anyhow::Result<u8> {
    for note in notes {
        writeln!(out, "note: {note}")?;
    }
    // The verdict and every failing check, in the lines the workbench's Diagnose view
    // shows.
    for line in checked.verdict_lines() {
        writeln!(out, "{line}")?;
    }
    if checked.accepted.is_some() {
        return Ok(0);
    }
    if let Some(m) = checked.mismatch() {
        if let Some(form) = m.diagnosis.client_form {
            writeln!(out, "client form: {form}")?;
        }
        out.write_all(m.diagnosis.details().as_bytes())?;
    }
    Ok(1)
}

/// The judgement of an indexing body (`PUT /v2/batch`, ...), as the server makes it; `None`
/// for another request or a body that is not JSON.
fn body_judgement(req: &ReceivedRequest) -> Option<Judgement> {
    let kind = BodyKind::of(&req.method, &req.path)?;
    judge_bytes(kind, &req.body, None)
}

/// The body's problems after the verdict: `body: 1 error, ...` then one line each.
fn body_report(out: &mut Vec<u8>, j: &Judgement) -> anyhow::Result<()> {
    if j.problems.is_empty() && j.more_errors + j.more_warnings == 0 {
        return Ok(());
    }
    let verdict = if j.is_ok() {
        "accepted with warnings"
    } else {
        "refused (400 VALIDATION_ERROR): the vendor's SDK would not send it"
    };
    writeln!(out, "body: {verdict}; {}", j.summary())?;
    for p in &j.problems {
        writeln!(
            out,
            "  {} {} at {}: {}",
            p.level,
            p.code,
            shown_path(&p.field_path),
            p.description
        )?;
    }
    if j.more_errors + j.more_warnings > 0 {
        let more = j.more_errors + j.more_warnings;
        writeln!(out, "  and {more} more problems not listed")?;
    }
    Ok(())
}

/// A request refused for its signature but signed in one of `forms`: accepted in that form, with
/// a warning naming it (`docs/verification.md` rule V7), as the server with `--accept-form`
/// does. A request whose signature matches in a form but fails another check (the time window)
/// gets that check's verdict.
pub fn accept_in_forms(
    checked: Checked,
    req: &ReceivedRequest,
    keys: &SingleKey,
    opts: &VerifyOptions,
    now: chrono::DateTime<chrono::Utc>,
    forms: &[SigningForm],
) -> Checked {
    if checked.mismatch().is_none() {
        return checked;
    }
    for form in forms {
        let Some(rewritten) = form.as_standard(req) else {
            continue;
        };
        let plan = DiagnosisPlan::Skip("checked in another signing form".into());
        let mut again = verify_all(&rewritten, keys, opts, now, &plan);
        if let Some(accepted) = &mut again.accepted {
            accepted
                .warnings
                .push(form.accepted_warning(&req.path, &req.query));
            return again;
        }
        if again.mismatch().is_none() {
            return again;
        }
    }
    checked
}

/// The `--output json` object (docs/diagnosis.md): the verdict, every failing check, the ids of
/// the explanation found, and the expected text and signature for the key given.
fn json_report(
    req: &ReceivedRequest,
    prefix: &str,
    secret: &Secret,
    checked: &Checked,
) -> serde_json::Value {
    let first = checked.failures.first();
    let mismatch = checked.mismatch();
    let (text, signature) = match mismatch {
        Some(m) => (
            m.diagnosis.expected_canonical(),
            m.diagnosis.expected_signature.clone(),
        ),
        None => {
            let head = expected_head(req, prefix);
            let text = [head.as_bytes(), &req.body].concat();
            let sig = encode_signature(&hmac_sha384(secret.expose().as_bytes(), &[&text]));
            (text, sig)
        }
    };
    let message = match (&checked.accepted, first) {
        (Some(a), _) => a.to_string(),
        (None, Some(r)) => r.to_string(),
        (None, None) => String::new(),
    };
    serde_json::json!({
        "accepted": checked.accepted.is_some(),
        "status": first.map(|r| r.status()).unwrap_or(200),
        "code": first.map(|r| r.code()),
        "mistakes": mismatch.map(|m| m.diagnosis.ids()).unwrap_or_default(),
        "client_form": mismatch.and_then(|m| m.diagnosis.client_form),
        "message": message,
        "checks": checked.failures.iter().map(|r| serde_json::json!({
            "code": r.code(),
            "status": r.status(),
            "message": r.to_string(),
        })).collect::<Vec<_>>(),
        "expected_text": String::from_utf8_lossy(&text),
        "expected_signature": signature,
    })
}
