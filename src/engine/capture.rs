//! Judging a capture file (a HAR, or a file of raw HTTP requests or curl commands) request by
//! request with the local server's own routes ([`crate::server::judge`]); `signscope check`
//! prints what comes out, the workbench's Traffic view shows it (`docs/har.md`).
//!
//! A HAR is read one entry at a time ([`crate::core::har`]) and its requests are judged on
//! every core, a window at a time, handed on in the capture's order (`super::judging`):
//! memory holds the reader's buffer and a few windows, whatever the file's size.

use std::io::{BufRead, BufReader, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use chrono::{DateTime, Utc};

use crate::core::capture::{split_blocks, Block};
use crate::core::har::{self, EntryView, HarError, HarLog};
use crate::core::http_text::parse_raw_request_with_notes;
use crate::core::visible::escape_visible;
use crate::core::{ReceivedRequest, SigningForm};
pub use crate::server::judge::JudgeKeys;
// The server's own: a record written as a HAR entry, and how much of a body it keeps.
pub use crate::server::har_out::of_seen as har_entry;
use crate::server::judge::{judged_route, OfflineJudge};

use super::judging::{judge_all, Pending, Work, WINDOW};
pub use super::judging::{Captured, Item, NotJudged, Skip, Totals};
pub use crate::server::store::BODY_PREVIEW_BYTES;
use crate::server::ServerConfig;

/// How a capture is judged.
#[derive(Clone, Debug)]
pub struct CaptureOptions {
    pub keys: JudgeKeys,
    /// Hosts judged besides the vendor's and loopback (`--host`).
    pub hosts: Vec<String>,
    pub accept_forms: Vec<SigningForm>,
    /// The time for requests whose capture has none (raw HTTP, curl, an entry without
    /// `startedDateTime`).
    pub now: DateTime<Utc>,
}

/// Hosts whose requests are judged without `--host`: the vendor's services and loopback (a
/// local `signscope serve`).
pub fn default_judged_host(host: &str) -> bool {
    let h = host.trim_end_matches('.').to_ascii_lowercase();
    let under = |domain: &str| h == domain || h.ends_with(&format!(".{domain}"));
    under("ksearchnet.com")
        || under("klevu.com")
        || h == "localhost"
        || h == "::1"
        || h.parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn judged_host(host: &str, extra: &[String]) -> bool {
    default_judged_host(host) || extra.iter().any(|h| h.eq_ignore_ascii_case(host))
}

/// The sink's error stops the reading.
type Sink<'s> = dyn FnMut(Item) -> anyhow::Result<()> + 's;

/// Judge the capture in `path` (`-`: stdin) on `rt`, handing each request to `each` in order.
/// The requests are judged on every core, a window at a time ([`judge_file_in_windows`]).
/// `Err` only when the file cannot be read at all or `each` fails; a HAR that breaks off is
/// reported in [`Outcome::broken`] after the entries before the break.
pub fn judge_file(
    path: &Path,
    opts: &CaptureOptions,
    rt: &tokio::runtime::Handle,
    each: &mut Sink<'_>,
) -> anyhow::Result<Outcome> {
    judge_file_in_windows(path, opts, rt, WINDOW, each)
}

/// [`judge_file`] with at most `window` requests judged at once: 1 judges them one after the
/// other (the order and verdicts are the same whatever the window: `tests/cli_check.rs`).
pub fn judge_file_in_windows(
    path: &Path,
    opts: &CaptureOptions,
    rt: &tokio::runtime::Handle,
    window: usize,
    each: &mut Sink<'_>,
) -> anyhow::Result<Outcome> {
    let input: Box<dyn Read + Send> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(
            std::fs::File::open(path)
                .with_context(|| format!("cannot read the capture {}", path.display()))?,
        )
    };
    let mut reader = BufReader::with_capacity(256 * 1024, input);
    let head = reader
        .fill_buf()
        .with_context(|| format!("cannot read the capture {}", path.display()))?;
    let (totals, (log, broken)) = if har::looks_like_json(head) {
        judge_all(
            offline_judge(opts),
            rt,
            "har",
            window,
            har_entries(reader, opts),
            each,
        )?
    } else {
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read the capture {}", path.display()))?;
        let blocks = split_blocks(&bytes);
        if blocks.is_empty() {
            anyhow::bail!(
                "{} holds no request: give a HAR, raw HTTP requests or curl commands (several separated by ### lines)",
                path.display()
            );
        }
        let read = text_requests(&blocks, path, opts);
        judge_all(offline_judge(opts), rt, "requests", window, read, each)?
    };
    Ok(Outcome {
        totals,
        log,
        broken,
    })
}

/// What a reader of a capture hands the judges: each request as work, in order, and at the end
/// the HAR's log and why it broke off (a text capture has neither).
type Reading = (HarLog, Option<HarError>);

/// The end of a capture: its totals and, for a HAR that could not be read to its end, why.
#[derive(Debug, Default)]
pub struct Outcome {
    pub totals: Totals,
    pub log: HarLog,
    pub broken: Option<HarError>,
}

/// The judge of one capture: the local server's settings with the accepted signing forms.
fn offline_judge(opts: &CaptureOptions) -> OfflineJudge {
    let mut base = ServerConfig::new();
    base.accept_forms = opts.accept_forms.clone();
    OfflineJudge::new(base, opts.keys.clone())
}

/// A request read from a capture, as work for the judges: skipped when its host or path is
/// not judged, else to be judged at `at`.
#[allow(clippy::too_many_arguments)]
fn work(
    opts: &CaptureOptions,
    entry: usize,
    host: Option<&str>,
    url: String,
    req: ReceivedRequest,
    at: DateTime<Utc>,
    captured: Option<Captured>,
    notes: Vec<String>,
) -> Work {
    let skipped = |why| {
        Work::Done(Item::Skipped {
            entry,
            method: req.method.clone(),
            url: url.clone(),
            why,
        })
    };
    if host.is_some_and(|h| !judged_host(h, &opts.hosts)) {
        return skipped(Skip::OtherHost);
    }
    if !judged_route(&req.path) {
        return skipped(Skip::OtherPath);
    }
    Work::Judge(Box::new(Pending {
        entry,
        prefix: crate::core::verify::prefix_or_default(&req),
        req,
        at,
        captured,
        notes,
    }))
}

/// A request the capture does not show as sent (`docs/har.md` rule H12).
fn not_judged(e: &EntryView<'_>, why: NotJudged) -> Work {
    Work::Done(Item::NotJudged {
        entry: e.index,
        method: e.method().to_string(),
        url: e.url().to_string(),
        why,
    })
}

fn bad(entry: usize, why: String) -> Work {
    Work::Done(Item::Bad { entry, why })
}

/// What the capture's answer said: its status and, for the vendor's error shape, its code.
fn captured_of(e: &EntryView<'_>) -> Option<Captured> {
    let status = e.response_status()?;
    let mut c = Captured {
        status,
        ..Captured::default()
    };
    if let Some(Ok(body)) = e.response_body() {
        if body.bytes.len() <= 256 * 1024 {
            if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&body.bytes) {
                c.code = v.get("code").and_then(|c| c.as_str()).map(str::to_string);
                c.message = v
                    .get("message")
                    .and_then(|c| c.as_str())
                    .map(str::to_string);
            }
        }
    }
    Some(c)
}

/// The entries of a HAR read one at a time (`docs/har.md` rule H7).
fn har_entries<'a, R: Read + Send + 'a>(
    reader: R,
    opts: &'a CaptureOptions,
) -> impl FnOnce(&mut dyn FnMut(Work) -> ControlFlow<()>) -> Reading + Send + 'a {
    move |push: &mut dyn FnMut(Work) -> ControlFlow<()>| {
        let mut de = serde_json::Deserializer::from_reader(reader);
        let read = har::read_har(&mut de, |item| {
            push(match item {
                Err(e) => bad(e.index, e.why),
                Ok(e) => entry_work(opts, &e),
            })
        });
        match read {
            Ok(log) => {
                let trailing = de.end().err().map(|e| HarError::Syntax {
                    after: log.entries,
                    line: e.line(),
                    column: e.column(),
                    why: "more after the end of the HAR".into(),
                });
                (log, trailing)
            }
            Err(e) => (HarLog::default(), Some(e)),
        }
    }
}

/// The capture time of an entry, or `now` with a note saying why.
fn entry_time(opts: &CaptureOptions, e: &EntryView<'_>, notes: &mut Vec<String>) -> DateTime<Utc> {
    if let Some(t) = e.started() {
        return t;
    }
    let now = crate::core::time::format_timestamp(opts.now);
    notes.push(match e.started_text() {
        Some(t) => format!(
            "its startedDateTime \"{}\" is not an RFC 3339 time: judged at {now}",
            crate::core::visible::escape_visible(t.as_bytes()),
        ),
        None => format!("it has no startedDateTime: judged at {now}"),
    });
    opts.now
}

fn entry_work(opts: &CaptureOptions, e: &EntryView<'_>) -> Work {
    let Some(url) = har::split_url(e.url()) else {
        return bad(e.index, "its URL is not absolute".into());
    };
    let mut notes = Vec::new();
    let at = entry_time(opts, e, &mut notes);
    let mut req = ReceivedRequest {
        method: e.method().to_string(),
        path: url.path.to_string(),
        ..ReceivedRequest::default()
    };
    let mut captured = None;
    // Bodies are decoded only for requests that are judged (`work` skips the others).
    if judged_host(url.host, &opts.hosts) && judged_route(url.path) {
        if e.not_answered() {
            return not_judged(e, NotJudged::NotSent);
        }
        let body = match e.request_body() {
            Ok(b) => b,
            Err(why) => return bad(e.index, why.to_string()),
        };
        if let Some(how) = body.cut {
            return not_judged(e, NotJudged::BodyNotKept(how));
        }
        notes.extend(body.notes);
        req.query = url.query.to_string();
        req.headers = e
            .request_headers()
            .map(|(n, v)| (n.to_string(), v.as_bytes().to_vec()))
            .collect();
        req.body = body.bytes;
        captured = captured_of(e);
    }
    let url_text = e.url().to_string();
    work(
        opts,
        e.index,
        Some(url.host),
        url_text,
        req,
        at,
        captured,
        notes,
    )
}

/// The requests of a text capture (raw HTTP or curl), one block at a time.
fn text_requests<'a>(
    blocks: &'a [Block<'a>],
    path: &'a Path,
    opts: &'a CaptureOptions,
) -> impl FnOnce(&mut dyn FnMut(Work) -> ControlFlow<()>) -> Reading + Send + 'a {
    move |push: &mut dyn FnMut(Work) -> ControlFlow<()>| {
        for (i, b) in blocks.iter().enumerate() {
            let w = match block_request(b.text, b.curl, path) {
                Err(why) => bad(i, format!("the request starting at line {}: {why}", b.line)),
                Ok((req, url, host, notes)) => {
                    work(opts, i, host.as_deref(), url, req, opts.now, None, notes)
                }
            };
            if push(w).is_break() {
                break;
            }
        }
        (HarLog::default(), None)
    }
}

/// Why a block of a text capture is no request (the end of a sentence naming the block).
#[derive(Debug, thiserror::Error)]
enum BlockError {
    #[error("the curl command is not UTF-8 text")]
    CurlNotUtf8,
    #[error(transparent)]
    Curl(#[from] crate::core::curl::ParseError),
    #[error("{0}")]
    BodyFile(String),
    #[error(transparent)]
    Raw(#[from] crate::core::http_text::ParseError),
}

/// One block as a request: the request, its URL as shown, its host (when it names one) and
/// notes.
fn block_request(
    text: &[u8],
    curl: bool,
    path: &Path,
) -> Result<(ReceivedRequest, String, Option<String>, Vec<String>), BlockError> {
    if curl {
        let cmd = std::str::from_utf8(text).map_err(|_| BlockError::CurlNotUtf8)?;
        let c = crate::core::curl::parse_curl_command(cmd)?;
        let mut req = c.request;
        let mut notes = c.notes;
        if let Some(named) = &c.body_file {
            let (p, body): (PathBuf, Vec<u8>) = curl_body_file(named, path, None)
                .map_err(|e| BlockError::BodyFile(format!("{e:#}")))?;
            notes.push(format!(
                "the body is the file {}, read {}",
                p.display(),
                c.body_file_read.describe()
            ));
            req.body = c.body_file_read.apply(body).into();
        }
        let host = har::split_url(&c.url).map(|u| u.host.to_string());
        return Ok((req, c.url, host, notes));
    }
    let parsed = parse_raw_request_with_notes(text)?;
    let host_header = parsed.request.header_text("host");
    let host = (!host_header.is_empty()).then(|| {
        // `Host: name:port` or `[v6]:port`.
        match host_header.strip_prefix('[') {
            Some(v6) => v6.split(']').next().unwrap_or("").to_string(),
            None => host_header.split(':').next().unwrap_or("").to_string(),
        }
    });
    let url = crate::core::http_text::target(&parsed.request.path, &parsed.request.query);
    Ok((parsed.request, url, host, parsed.notes))
}

/// Largest body file a capture's `@FILE` may name (`--body-file` is read whatever its size).
pub const MAX_CAPTURE_BODY_FILE: u64 = 64 * 1024 * 1024;

/// The body of a curl command that reads it from the file `named` (`--data-binary @named`):
/// `--body-file` when given; else `named` next to the request file, then in the working
/// directory (`sign --output curl --body-file` prints the path as it was given, usually
/// relative to where it was run). Returns the path read.
///
/// A capture is text from elsewhere, so what it names is read only if it is a regular file of
/// at most [`MAX_CAPTURE_BODY_FILE`] bytes inside the capture's folder or the working directory
/// (after following links): `@/proc/self/environ` would print the environment, `@/dev/zero`
/// would read until memory runs out. Anything else needs `--body-file`.
pub fn curl_body_file(
    named: &str,
    request_file: &std::path::Path,
    given: Option<&std::path::Path>,
) -> anyhow::Result<(PathBuf, Vec<u8>)> {
    if let Some(path) = given {
        let body = std::fs::read(path)
            .with_context(|| format!("cannot read the body file {}", path.display()))?;
        return Ok((path.to_path_buf(), body));
    }
    if named == "-" {
        bail!(
            "the curl command reads its body from stdin (@-); give the body with --body-file FILE"
        );
    }
    let shown = escape_visible(named.as_bytes());
    let named_path = PathBuf::from(named);
    let capture_dir =
        (request_file.as_os_str() != "-").then(|| crate::store::atomic::dir_of(request_file));
    let mut roots = Vec::new();
    if let Some(dir) = capture_dir {
        roots.extend(std::fs::canonicalize(dir).ok());
    }
    roots.extend(
        std::env::current_dir()
            .ok()
            .and_then(|d| std::fs::canonicalize(d).ok()),
    );
    let mut candidates = vec![];
    if named_path.is_absolute() {
        candidates.push(named_path.clone());
    } else {
        if let Some(dir) = capture_dir {
            candidates.push(dir.join(&named_path));
        }
        candidates.push(named_path.clone());
    }
    candidates.dedup();
    for path in &candidates {
        let real = match std::fs::canonicalize(path) {
            Ok(real) => real,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => bail!("cannot read the body file {}: {e}", path.display()),
        };
        if !roots.iter().any(|r| real.starts_with(r)) {
            bail!(
                "the curl command reads its body from {shown}, which is outside the capture's folder and the working directory; give the body with --body-file FILE if you mean that file"
            );
        }
        let meta = std::fs::metadata(&real)
            .with_context(|| format!("cannot read the body file {}", path.display()))?;
        if !meta.is_file() {
            bail!(
                "the curl command reads its body from {shown}, which is not a regular file; give the body with --body-file FILE"
            );
        }
        if meta.len() > MAX_CAPTURE_BODY_FILE {
            bail!(
                "the curl command reads its body from {shown}, {} bytes, more than the {} a capture may name; give it with --body-file FILE",
                meta.len(),
                MAX_CAPTURE_BODY_FILE
            );
        }
        let mut body = Vec::new();
        std::fs::File::open(&real)
            .and_then(|f| f.take(MAX_CAPTURE_BODY_FILE + 1).read_to_end(&mut body))
            .with_context(|| format!("cannot read the body file {}", path.display()))?;
        if body.len() as u64 > MAX_CAPTURE_BODY_FILE {
            bail!(
                "the body file {shown} grew past {MAX_CAPTURE_BODY_FILE} bytes while it was read; give it with --body-file FILE"
            );
        }
        return Ok((path.clone(), body));
    }
    let looked: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
    bail!(
        "the curl command reads its body from the file {shown}, which is not at {}; give it with --body-file FILE",
        looked.join(" nor at ")
    )
}
