//! `signscope sign`: sign a request and print the signing text, the signature and the headers
//! (or a curl command, the raw HTTP request, or only the signature).

use std::io::{Read, Write};

use anyhow::{anyhow, bail, Context};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use crate::codegen::{
    explain::explain, CodeOptions, Lang, DEFAULT_BODY_FILE, DEFAULT_REST_KEY_ENV,
};
use crate::core::curl::{to_curl, CurlBody};
use crate::core::http_text::to_raw_request;
use crate::core::incremental::StreamingSigner;
use crate::core::sign::SignedHeaders;
use crate::core::time::{format_timestamp, parse_timestamp};
use crate::core::visible::{escape_visible, visible_lines};
use crate::core::{LineLabel, SignableRequest, SignedRequest, SigningForm};
use crate::engine::check_sendable;

use super::profile_request::{sign_inputs, SignInputs};
use super::sign_args::BodySource;
pub use super::sign_args::{Output, SignArgs, DEFAULT_BASE_URL};

impl BodySource {
    fn describe(&self) -> String {
        match self {
            BodySource::File(p) => format!("the body file {}", p.display()),
            BodySource::Stdin => "the body from stdin".to_string(),
            BodySource::Text(_) => "--body".to_string(),
            BodySource::Saved(_) => "the saved request's body".to_string(),
        }
    }

    fn read_all(&self) -> anyhow::Result<Vec<u8>> {
        match self {
            BodySource::File(p) => std::fs::read(p)
                .with_context(|| format!("cannot read the body file {}", p.display())),
            BodySource::Stdin => {
                let mut v = Vec::new();
                std::io::stdin()
                    .read_to_end(&mut v)
                    .context("cannot read the body from stdin")?;
                Ok(v)
            }
            BodySource::Text(t) => Ok(t.clone().into_bytes()),
            BodySource::Saved(b) => Ok(b.to_vec()),
        }
    }

    /// Feed the body through the MAC in 1 MiB pieces, never holding it whole.
    fn stream_into(&self, signer: &mut StreamingSigner<'_>) -> anyhow::Result<()> {
        let mut reader: Box<dyn Read> = match self {
            BodySource::File(p) => Box::new(
                std::fs::File::open(p)
                    .with_context(|| format!("cannot read the body file {}", p.display()))?,
            ),
            BodySource::Stdin => Box::new(std::io::stdin().lock()),
            BodySource::Text(t) => {
                signer.update(t.as_bytes());
                return Ok(());
            }
            BodySource::Saved(b) => {
                signer.update(b);
                return Ok(());
            }
        };
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let n = match reader.read(&mut buf) {
                Ok(0) => return Ok(()),
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot read {}", self.describe()))
                }
            };
            signer.update(&buf[..n]);
        }
    }
}

/// Check a timestamp given on the command line: any RFC 3339 time is signed exactly as typed;
/// a form other than YYYY-MM-DDThh:mm:ss.mmmZ gets a warning.
fn checked_timestamp(ts: Option<&str>) -> anyhow::Result<(String, Option<String>)> {
    let Some(ts) = ts else {
        return Ok((format_timestamp(chrono::Utc::now()), None));
    };
    let Some(parsed) = parse_timestamp(ts) else {
        bail!(
            "the --timestamp value \"{}\" is not an RFC 3339 time such as 2026-11-22T10:00:00.000Z",
            escape_visible(ts.as_bytes())
        );
    };
    let warning = (!parsed.known_form()).then(|| {
        format!(
            "warning: the timestamp {ts} is signed as given, but the usual form is {}",
            format_timestamp(parsed.time)
        )
    });
    Ok((ts.to_string(), warning))
}

pub fn run(args: SignArgs) -> anyhow::Result<u8> {
    if args.form != SigningForm::Standard && args.explain {
        bail!(
            "--explain shows the documented form only; drop --form {} (--output text shows the {} form's signing text)",
            args.form,
            args.form
        );
    }
    let (timestamp, warning) = checked_timestamp(args.timestamp.as_deref())?;
    let given = given_body(&args)?;
    let SignInputs {
        spec,
        key,
        body: source,
        indexing_url,
        rest_key_env,
    } = sign_inputs(&args, given)?;
    if let Some(w) = warning {
        eprintln!("{w}");
    }
    let head = spec.signable(&timestamp);
    // A printed request is sent by someone else: it gets the checks `send` makes first (a value
    // with a line break would print as another header; a prefix with a space as no header).
    let output = clap::ValueEnum::to_possible_value(&args.output)
        .map(|v| v.get_name().to_owned())
        .unwrap_or_default();
    let sendable = |headers: &SignedHeaders| {
        check_sendable(&indexing_url, &head, headers).map_err(|e| {
            anyhow!(
                "--output {output} cannot print this request: {e}; --output text shows what is signed"
            )
        })
    };
    let method = spec.method.to_ascii_uppercase();
    let mut out = std::io::stdout().lock();

    // Outputs that do not print the body stream it through the MAC.
    let streams = matches!(args.output, Output::Signature)
        || (matches!(args.output, Output::Curl) && matches!(source, BodySource::File(_)));
    if streams {
        print_streamed(&args, &head, &key, &source, &method, &sendable, &mut out)?;
        return Ok(0);
    }

    // One signed request: every output below prints from it (`docs/signing.md`, "One signed
    // value").
    let body = bytes::Bytes::from(source.read_all()?);
    let signed = SignedRequest::sign(spec.with_body(body), timestamp.clone(), args.form, &key)?;
    tracing::trace!(
        canonical_len = signed.canonical().len(),
        body_len = signed.spec().body.len(),
        headers = ?signed.headers().iter().map(|(n, _)| n).collect::<Vec<_>>(),
        "request signed"
    );
    if args.explain {
        out.write_all(explain(&signed.as_sent(), signed.signed()).as_bytes())?;
    } else {
        let printing = Printing {
            source: &source,
            rest_key_env: rest_key_env.as_deref(),
            method: &method,
            indexing_url: &indexing_url,
            sendable: &sendable,
        };
        print_signed(&args, &signed, &printing, &mut out)?;
    }
    out.flush()?;
    Ok(0)
}

/// The body the flags give, if any: a file (`-` for stdin) or text, never both.
fn given_body(args: &SignArgs) -> anyhow::Result<Option<BodySource>> {
    Ok(
        match (&args.request_flags.body_file, &args.request_flags.body) {
            (Some(p), None) if p.as_os_str() == "-" => Some(BodySource::Stdin),
            (Some(p), None) => Some(BodySource::File(p.clone())),
            (None, Some(t)) => Some(BodySource::Text(t.clone())),
            (None, None) => None,
            _ => bail!("give the body with exactly one of --body-file FILE or --body TEXT"),
        },
    )
}

/// The check a printed request gets first: the URL it goes to, or why it cannot be printed.
type Sendable<'a> = dyn Fn(&SignedHeaders) -> anyhow::Result<String> + 'a;

/// The outputs that do not print the body (the signature; curl reading a body file): the body
/// streamed through the MAC in the signing form, never held whole.
fn print_streamed(
    args: &SignArgs,
    head: &SignableRequest<'_>,
    key: &crate::core::Secret,
    source: &BodySource,
    method: &str,
    sendable: &Sendable<'_>,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let mut signer = StreamingSigner::in_form(head, args.form, key)?;
    source.stream_into(&mut signer)?;
    let signed = signer.finish();
    match (&args.output, source) {
        (Output::Curl, BodySource::File(p)) => {
            let url = sendable(&signed.headers)?;
            let path = p.to_str().with_context(|| {
                format!("the body file path {} is not valid UTF-8", p.display())
            })?;
            writeln!(
                out,
                "{}",
                to_curl(method, &url, &signed.headers.to_vec(), CurlBody::File(path))
            )?;
        }
        _ => writeln!(out, "{}", signed.signature())?,
    }
    Ok(())
}

/// What the printed outputs need besides the signed request.
struct Printing<'a> {
    source: &'a BodySource,
    rest_key_env: Option<&'a str>,
    method: &'a str,
    indexing_url: &'a str,
    sendable: &'a Sendable<'a>,
}

/// One signed request printed in the output asked for.
fn print_signed(
    args: &SignArgs,
    signed: &SignedRequest,
    p: &Printing<'_>,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let body = &signed.spec().body;
    match args.output {
        Output::Text => out.write_all(text_output(signed).as_bytes())?,
        Output::Json => writeln!(out, "{}", json_output(signed))?,
        Output::Code => {
            let lang = args
                .lang
                .context("--output code needs --lang to say which language")?;
            print_code(signed, lang, p, out)?
        }
        Output::Curl => {
            let url = (p.sendable)(signed.headers())?;
            let curl = to_curl(
                p.method,
                &url,
                &signed.headers().to_vec(),
                CurlBody::Inline(body),
            );
            writeln!(out, "{curl}")?
        }
        Output::Http => {
            (p.sendable)(signed.headers())?;
            let host = host_of(p.indexing_url.trim_end_matches('/'));
            out.write_all(&to_raw_request(&signed.as_sent(), signed.signed(), host))?
        }
        Output::Signature => writeln!(out, "{}", signed.signature())?,
    }
    Ok(())
}

/// `--output code`: the program in the language asked for, and notes on stderr of how to run it.
fn print_code(
    signed: &SignedRequest,
    lang: Lang,
    p: &Printing,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let opts = CodeOptions {
        rest_key_env: p.rest_key_env.unwrap_or(DEFAULT_REST_KEY_ENV),
        body_file: match p.source {
            BodySource::File(path) => path.to_str().with_context(|| {
                format!("the body file path {} is not valid UTF-8", path.display())
            })?,
            _ => DEFAULT_BODY_FILE,
        },
    };
    let code = crate::codegen::render_signed(signed, lang, &opts)?;
    out.write_all(code.as_bytes())?;
    let body = &signed.spec().body;
    if crate::codegen::body_read_from_file(body) && !matches!(p.source, BodySource::File(_)) {
        eprintln!(
            "note: the program reads the {}-byte body from {DEFAULT_BODY_FILE}; save the body there",
            body.len()
        );
    }
    eprintln!(
        "note: run as {} with {} set; it prints Authorization: Bearer {}",
        lang.file_name(),
        opts.rest_key_env,
        signed.signature()
    );
    Ok(())
}

fn host_of(url: &str) -> &str {
    url.split_once("://").map(|(_, h)| h).unwrap_or(url)
}

/// The labelled signing text, each line made visible, then the signature and the headers.
///
/// A form other than the standard one is named first, with the lines it writes differently.
pub fn text_output(signed: &SignedRequest) -> String {
    let canonical = signed.canonical();
    let form = signed.form();
    let req = signed.as_sent();
    let mut s = String::new();
    if form != SigningForm::Standard {
        let differs = form.differences(req.path, req.query);
        s.push_str(&format!(
            "Form: {} ({}).\n",
            form.name(),
            form.description()
        ));
        if differs.is_empty() {
            s.push_str("For this request it signs the same text as the documented form.\n");
        } else {
            s.push_str(&format!(
                "For this request it differs from the documented form by: {}.\n",
                differs.join(", ")
            ));
        }
        s.push('\n');
    }
    s.push_str("Signing text (\\n marks each LF; nothing follows the body):\n");
    for line in canonical.lines() {
        let label = line.label.as_str();
        if line.label == LineLabel::Body {
            let lines = visible_lines(line.bytes);
            for (i, l) in lines.iter().enumerate() {
                let shown_label = if i == 0 { label } else { "" };
                s.push_str(&format!("  {shown_label:<13}{l}\n"));
            }
            if line.bytes.is_empty() {
                s.push_str("  (the body is empty)\n");
            }
        } else {
            s.push_str(&format!("  {label:<13}{}\\n\n", escape_visible(line.bytes)));
        }
    }
    s.push_str(&format!(
        "\nSignature (HMAC-SHA384, base64): {}\n",
        signed.signature()
    ));
    s.push_str("\nHeaders:\n");
    for (n, v) in signed.headers() {
        s.push_str(&format!("  {n}: {v}\n"));
    }
    s
}

/// `{"canonical", "canonical_b64", "signature", "headers": {...}, "form"}` with headers in order.
pub fn json_output(signed: &SignedRequest) -> serde_json::Value {
    let bytes = signed.canonical().to_bytes();
    let mut headers = serde_json::Map::new();
    for (n, v) in signed.headers() {
        headers.insert(n.to_string(), serde_json::Value::String(v.to_string()));
    }
    serde_json::json!({
        "canonical": String::from_utf8_lossy(&bytes),
        "canonical_b64": STANDARD.encode(&bytes),
        "signature": signed.signature(),
        "headers": headers,
        "form": signed.form().name(),
    })
}
