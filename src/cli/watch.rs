//! `signscope watch`: follow a local server's live stream (`GET /_inspect/stream`, see
//! `docs/server.md`) and print one line per completed request, or one JSON line per record.
//!
//! It reconnects when the server goes away (and resumes after the last record it printed, or
//! from the oldest record a restarted server holds), and ends on Ctrl-C or when its reader
//! closes the pipe.

use std::io::Write;
use std::time::Duration;

use anyhow::Context;

use crate::server::store::Verdict;
use crate::server::stream::{RequestSeen, Route, StreamMessage, INSTANCE_HEADER, STREAM_PATH};

/// The default server address (the one `signscope serve` listens on).
pub const DEFAULT_URL: &str = "http://127.0.0.1:8080";
/// No byte for this long (the server sends a keep-alive every 10 s) means a dead connection.
const SILENCE: Duration = Duration::from_secs(30);
/// Waits between reconnection attempts, growing up to the last.
const RETRY: [u64; 4] = [100, 250, 500, 1000];

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    /// One readable line per request.
    Text,
    /// One JSON object per line, as the server sent it.
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Only {
    /// Indexing API requests.
    Indexing,
    /// Analytics collector requests.
    Collect,
    /// Requests refused (status 400 and above).
    Rejected,
}

#[derive(Debug, clap::Args)]
pub struct WatchArgs {
    /// The server to follow.
    #[arg(long, value_name = "URL", default_value = DEFAULT_URL)]
    pub url: String,

    /// Line format.
    #[arg(long, value_enum, default_value_t = Output::Text)]
    pub output: Output,

    /// Show only these requests.
    #[arg(long, value_enum)]
    pub only: Option<Only>,
}

pub fn run(args: WatchArgs) -> anyhow::Result<u8> {
    let base = args.url.trim_end_matches('/').to_string();
    let url = stream_url(&args.url, "--url")?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("could not start the async runtime")?;
    runtime.block_on(async move {
        let stop = tokio::signal::ctrl_c();
        tokio::select! {
            r = follow(&base, url, &args) => r,
            _ = stop => Ok(0),
        }
    })
}

/// Where the stream was left: the last number received and the server run that gave it.
#[derive(Default)]
struct Position {
    after: Option<u64>,
    instance: Option<String>,
}

/// What following a stream reports to its sink, in order.
#[derive(Debug)]
pub enum Follow {
    /// The stream is open (`again` after an outage).
    Connected { again: bool },
    /// One event: its JSON text, as the server sent it, and what it says.
    Message { json: String, msg: StreamMessage },
    /// The stream is not (or no longer) there, and why; reported once per outage, retrying
    /// until it is back.
    Waiting(String),
}

/// The stream URL of a server's base URL (`http://HOST:PORT`), or one sentence naming the flag.
pub fn stream_url(base: &str, flag: &str) -> anyhow::Result<reqwest::Url> {
    let base = base.trim_end_matches('/');
    let url = reqwest::Url::parse(&format!("{base}{STREAM_PATH}"))
        .with_context(|| format!("{flag} {base:?} is not a URL like {DEFAULT_URL}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        anyhow::bail!("{flag} {base:?} must start with http:// or https://");
    }
    Ok(url)
}

async fn follow(base: &str, url: reqwest::Url, args: &WatchArgs) -> anyhow::Result<u8> {
    let out = std::io::stdout();
    follow_stream(url, |f| {
        match f {
            Follow::Connected { again: false } => {
                eprintln!("signscope: following {base} (Ctrl-C to stop)")
            }
            Follow::Connected { again: true } => eprintln!("signscope: following {base} again"),
            Follow::Waiting(why) => {
                eprintln!("signscope: no stream from {base} ({why}); retrying until it is back")
            }
            Follow::Message { json, msg } => {
                if let StreamMessage::Request(r) = &msg {
                    if !wanted(r, args.only) {
                        return Ok(());
                    }
                }
                let mut w = out.lock();
                match args.output {
                    Output::Json => writeln!(w, "{json}")?,
                    Output::Text => writeln!(w, "{}", line(&msg))?,
                }
                w.flush()?;
            }
        }
        Ok(())
    })
    .await?;
    Ok(0)
}

/// Follow a server's stream for ever: reconnect when it goes away and resume after the last
/// record received (or from the oldest record a restarted server holds). Ends only when `sink`
/// fails (a closed pipe, a closed channel), with its error.
pub async fn follow_stream(
    url: reqwest::Url,
    mut sink: impl FnMut(Follow) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let client = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(2))
        .build()
        .context("could not set up the HTTP client")?;
    let mut pos = Position::default();
    let mut attempt = 0usize;
    let mut connected_once = false;
    let mut told_waiting = false;
    loop {
        let mut req = client
            .get(url.clone())
            .header("accept", "text/event-stream");
        if let Some(after) = pos.after {
            req = req.query(&[("after", after.to_string())]);
            if let Some(i) = &pos.instance {
                req = req.query(&[("instance", i.as_str())]);
            }
        }
        let why = match req.send().await {
            Ok(resp) if resp.status().is_success() => {
                sink(Follow::Connected {
                    again: connected_once,
                })?;
                connected_once = true;
                told_waiting = false;
                attempt = 0;
                let instance = resp
                    .headers()
                    .get(INSTANCE_HEADER)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string);
                if instance != pos.instance {
                    pos.instance = instance;
                }
                read_stream(resp, &mut pos, &mut sink).await?
            }
            Ok(resp) => format!("it answered {} to {}", resp.status(), url.path()),
            Err(e) => cause(&e),
        };
        if !told_waiting {
            sink(Follow::Waiting(why))?;
            told_waiting = true;
        }
        let wait = RETRY[attempt.min(RETRY.len() - 1)];
        attempt += 1;
        tokio::time::sleep(Duration::from_millis(wait)).await;
    }
}

/// Hand the stream's records to `sink` until it ends; returns why it ended. Errors are only
/// the sink's.
async fn read_stream(
    mut resp: reqwest::Response,
    pos: &mut Position,
    sink: &mut impl FnMut(Follow) -> anyhow::Result<()>,
) -> anyhow::Result<String> {
    let mut parser = SseParser::default();
    loop {
        let chunk = match tokio::time::timeout(SILENCE, resp.chunk()).await {
            Err(_) => return Ok(format!("nothing heard for {} s", SILENCE.as_secs())),
            Ok(Err(e)) => return Ok(cause(&e)),
            Ok(Ok(None)) => return Ok("the server closed the stream".to_string()),
            Ok(Ok(Some(c))) => c,
        };
        for ev in parser.feed(&chunk) {
            let Ok(msg) = serde_json::from_str::<StreamMessage>(&ev.data) else {
                continue;
            };
            if let StreamMessage::Request(r) = &msg {
                pos.after = Some(r.seq);
            }
            sink(Follow::Message { json: ev.data, msg })?;
        }
    }
}

/// The root cause of a connection error, e.g. `Connection refused (os error 111)`.
fn cause(e: &reqwest::Error) -> String {
    let mut root: &dyn std::error::Error = e;
    while let Some(next) = root.source() {
        root = next;
    }
    let text = root.to_string();
    if e.is_connect() && !text.to_ascii_lowercase().contains("connect") {
        format!("could not connect: {text}")
    } else {
        text
    }
}

/// Whether `--only` lets this request through.
pub fn wanted(r: &RequestSeen, only: Option<Only>) -> bool {
    match only {
        None => true,
        Some(Only::Indexing) => r.route == Route::Indexing,
        Some(Only::Collect) => r.route == Route::Collect,
        Some(Only::Rejected) => {
            r.status >= 400
                || r.verdict == Some(Verdict::Rejected)
                || r.upstream
                    .as_ref()
                    .is_some_and(|u| u.status.is_none_or(|s| s >= 400))
        }
    }
}

/// One readable line: `11:24:54 PUT /v2/batch 401 SIGNATURE_MISMATCH TRAILING_SLASH_TRIMMED`.
pub fn line(msg: &StreamMessage) -> String {
    let r = match msg {
        StreamMessage::Skipped { skipped } => {
            return format!(
                "… {skipped} {} skipped (this watcher fell behind)",
                if *skipped == 1 { "record" } else { "records" }
            )
        }
        StreamMessage::Request(r) => r,
    };
    request_line(r)
}

/// The line of one request (see [`line`]).
pub fn request_line(r: &RequestSeen) -> String {
    // `2026-11-22T11:24:54.123Z` -> `11:24:54`
    let time = r.time.get(11..19).unwrap_or(&r.time);
    let mut s = format!("{time} {} {}", r.method, r.path);
    if !r.query.is_empty() {
        s.push('?');
        s.push_str(&r.query);
    }
    s.push_str(&format!(" {}", r.status));
    match &r.code {
        Some(code) => s.push_str(&format!(" {code}")),
        None if r.status < 400 => s.push_str(" OK"),
        None => {}
    }
    if !r.mistakes.is_empty() {
        s.push(' ');
        s.push_str(&r.mistakes.join("+"));
    }
    if let Some(b) = &r.batch {
        s.push_str(&format!(
            " ({} {}, {} invalid",
            b.events,
            if b.events == 1 { "event" } else { "events" },
            b.invalid
        ));
        if let Some(p) = b.problems.first() {
            let path = p.get("path").and_then(|v| v.as_str()).unwrap_or("");
            let code = p.get("code").and_then(|v| v.as_str()).unwrap_or("");
            s.push_str(&format!(
                "; {code} at {}",
                if path.is_empty() { "$" } else { path }
            ));
        }
        s.push(')');
    }
    if let Some(u) = &r.upstream {
        match (u.status, &u.error) {
            (Some(status), _) => {
                s.push_str(&format!(" -> upstream {status}"));
                if let Some(code) = &u.code {
                    s.push_str(&format!(" {code}"));
                }
            }
            (None, _) => s.push_str(" -> upstream unreachable"),
        }
    }
    // Every part of the line came from outside (the client's request, an upstream's answer):
    // a control byte, a C1 control or a bidi override is shown as an escape, never sent to the
    // terminal (an upstream code set a tmux pane's title and wrote the clipboard).
    crate::core::visible::escape_visible(s.as_bytes())
}

/// One Server-Sent Event: its type (`message` when not named) and its data lines joined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    pub event: String,
    pub id: Option<String>,
    pub data: String,
}

/// An incremental parser of a `text/event-stream` body (the WHATWG format: `field: value`
/// lines, events ended by a blank line, `:` comments, LF, CRLF or CR line ends).
#[derive(Debug, Default)]
pub struct SseParser {
    buf: Vec<u8>,
    event: String,
    id: Option<String>,
    data: Vec<String>,
}

impl SseParser {
    /// Feed bytes; returns the events they completed.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        self.buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        let mut start = 0;
        let mut i = 0;
        while i < self.buf.len() {
            let b = self.buf[i];
            if b == b'\n' || b == b'\r' {
                // A CR at the very end may be the first half of a CRLF: wait for more.
                if b == b'\r' && i + 1 == self.buf.len() {
                    break;
                }
                let line = String::from_utf8_lossy(&self.buf[start..i]).into_owned();
                let next = if b == b'\r' && self.buf.get(i + 1) == Some(&b'\n') {
                    i + 2
                } else {
                    i + 1
                };
                if let Some(ev) = self.line(&line) {
                    out.push(ev);
                }
                start = next;
                i = next;
            } else {
                i += 1;
            }
        }
        self.buf.drain(..start);
        out
    }

    fn line(&mut self, line: &str) -> Option<SseEvent> {
        if line.is_empty() {
            if self.data.is_empty() {
                self.event.clear();
                return None;
            }
            let ev = SseEvent {
                event: if self.event.is_empty() {
                    "message".to_string()
                } else {
                    std::mem::take(&mut self.event)
                },
                id: self.id.clone(),
                data: std::mem::take(&mut self.data).join("\n"),
            };
            self.event.clear();
            return Some(ev);
        }
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "event" => self.event = value.to_string(),
            "data" => self.data.push(value.to_string()),
            "id" => self.id = Some(value.to_string()),
            _ => {}
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::stream::BatchSeen;

    #[test]
    fn sse_events_are_parsed_across_chunks_and_line_ends() {
        let mut p = SseParser::default();
        assert!(p
            .feed(b": keep-alive\n\nevent: request\r\nid: 7\r")
            .is_empty());
        let evs = p.feed(b"\ndata: {\"a\":\ndata: 1}\r\n\r\n");
        assert_eq!(
            evs,
            [SseEvent {
                event: "request".into(),
                id: Some("7".into()),
                data: "{\"a\":\n1}".into()
            }]
        );
        let evs = p.feed(b"data:x\r\rdata: y\n\n");
        assert_eq!(evs.len(), 2);
        assert_eq!(
            (evs[0].event.as_str(), evs[0].data.as_str()),
            ("message", "x")
        );
        assert_eq!(evs[1].data, "y");
    }

    fn seen() -> RequestSeen {
        serde_json::from_value(serde_json::json!({
            "seq": 3, "time": "2026-11-22T11:24:54.123Z", "method": "PUT", "path": "/v2/batch/",
            "query": "", "route": "indexing", "status": 401, "code": "SIGNATURE_MISMATCH",
            "message": "m", "verdict": "rejected",
            "mistakes": ["QUESTION_MARK_BEFORE_QUERY", "TRAILING_SLASH_TRIMMED"],
            "conclusion": null, "request_bytes": 2, "response_bytes": null, "duration_ms": 1.0,
            "record": 1, "job_id": null, "batch": null, "upstream": null
        }))
        .unwrap()
    }

    /// An upstream's error code is text from outside: escapes, C1 controls and bidi overrides in
    /// it reached the terminal raw (OSC 52 wrote the clipboard, CSI cleared the screen).
    #[test]
    fn text_from_outside_never_reaches_the_terminal_raw() {
        let mut r = seen();
        r.upstream = Some(
            serde_json::from_value(serde_json::json!({
                "url": "http://127.0.0.1:9", "status": 401,
                "code": "\u{1b}]52;c;aGk=\u{7}\u{1b}[2J\u{9b}2J\u{202e}DEVRESER",
                "headers": [], "body": "", "body_bytes": 0, "duration_ms": 1.0, "error": null
            }))
            .unwrap(),
        );
        r.method = "PUT\u{202e}".into();
        let line = request_line(&r);
        for raw in ['\u{1b}', '\u{7}', '\u{9b}', '\u{202e}'] {
            assert!(!line.contains(raw), "{raw:?} in {line:?}");
        }
        assert!(
            line.contains("-> upstream 401 \\x1B]52;c;aGk=\\x07"),
            "{line}"
        );
        assert!(line.contains("\\u{202E}"), "{line}");
    }

    #[test]
    fn lines_read_like_the_documented_example() {
        let r = seen();
        assert_eq!(
            line(&StreamMessage::Request(Box::new(r.clone()))),
            "11:24:54 PUT /v2/batch/ 401 SIGNATURE_MISMATCH QUESTION_MARK_BEFORE_QUERY+TRAILING_SLASH_TRIMMED"
        );
        let mut b = r.clone();
        b.method = "POST".into();
        b.path = "/analytics/collect".into();
        b.route = Route::Collect;
        b.status = 400;
        b.code = Some("VALIDATION_ERROR".into());
        b.mistakes.clear();
        b.batch = Some(BatchSeen {
            events: 2,
            valid: 1,
            invalid: 1,
            problems: vec![serde_json::json!({"path": "[0].items[0].item_id", "code": "PATTERN"})],
            problems_omitted: 0,
        });
        assert_eq!(
            line(&StreamMessage::Request(Box::new(b.clone()))),
            "11:24:54 POST /analytics/collect 400 VALIDATION_ERROR (2 events, 1 invalid; PATTERN at [0].items[0].item_id)"
        );
        assert_eq!(
            line(&StreamMessage::Skipped { skipped: 1 }),
            "… 1 record skipped (this watcher fell behind)"
        );
        assert!(wanted(&r, Some(Only::Rejected)));
        assert!(wanted(&r, Some(Only::Indexing)));
        assert!(!wanted(&r, Some(Only::Collect)));
        assert!(wanted(&b, Some(Only::Collect)));
        let mut ok = r;
        ok.status = 200;
        ok.verdict = Some(Verdict::Accepted);
        assert!(!wanted(&ok, Some(Only::Rejected)));
    }
}
