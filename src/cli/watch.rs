//! `signscope watch`: follow a local server's live stream (`GET /_inspect/stream`, see
//! `docs/server.md`) and print one line per completed request, or one JSON line per record.
//!
//! It reconnects when the server goes away (and resumes after the last record it printed, or
//! from the oldest record a restarted server holds), and ends on Ctrl-C or when its reader
//! closes the pipe.
//!
//! `--output har` prints the lines on stderr instead and, when it is stopped (Ctrl-C,
//! SIGTERM), writes every request the server received while it ran (indexing, collector and
//! older endpoints, in arrival order) as one HAR 1.2 document on stdout: the server's own
//! export, `/_inspect/requests?format=har&all=true` (`docs/server.md` rule R15), from the mark
//! taken when it started.

use std::io::Write;

use anyhow::Context;

use crate::client::stream::{follow_stream, mark, received_har, stream_url, Follow, DEFAULT_URL};
use crate::core::traffic::{line, RequestSeen, Route, StreamMessage};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    /// One readable line per request.
    Text,
    /// One JSON object per line, as the server sent it.
    Json,
    /// Lines on stderr; when stopped (Ctrl-C), every request the server received meanwhile
    /// as one HAR on stdout.
    Har,
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
    if args.output == Output::Har && args.only.is_some() {
        anyhow::bail!(
            "--only does not apply to --output har (the HAR holds every request the server received); leave --only out"
        );
    }
    let runtime = super::runtime()?;
    runtime.block_on(async move {
        if args.output == Output::Har {
            return har(&base, url, &args).await;
        }
        let stop = tokio::signal::ctrl_c();
        tokio::select! {
            r = follow(&base, url, &args) => r,
            _ = stop => Ok(0),
        }
    })
}

/// `--output har`: take the server's mark, follow its stream (the lines on stderr) until
/// Ctrl-C or SIGTERM, then write every request it received since the mark as one HAR on
/// stdout.
async fn har(base: &str, url: reqwest::Url, args: &WatchArgs) -> anyhow::Result<u8> {
    let since = mark(base).await.map_err(anyhow::Error::msg)?;
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .context("could not install a signal handler")?;
    tokio::select! {
        r = follow(base, url, args) => { r?; }
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
    // A server that restarted meanwhile numbers from 1 again: what it holds came after the mark.
    let now = mark(base).await.map_err(anyhow::Error::msg)?;
    let (text, n) = received_har(base, (now >= since).then_some(since))
        .await
        .map_err(anyhow::Error::msg)?;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    eprintln!("signscope: wrote {n} requests {base} received as HAR");
    Ok(0)
}

async fn follow(base: &str, url: reqwest::Url, args: &WatchArgs) -> anyhow::Result<u8> {
    follow_stream::<anyhow::Error>(url, |f| {
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
                // With --output har, stdout is the document's: the lines go to stderr.
                let mut w: Box<dyn Write> = match args.output {
                    Output::Har => Box::new(std::io::stderr().lock()),
                    _ => Box::new(std::io::stdout().lock()),
                };
                match args.output {
                    Output::Json => writeln!(w, "{json}")?,
                    Output::Text | Output::Har => writeln!(w, "{}", line(&msg))?,
                }
                w.flush()?;
            }
        }
        Ok(())
    })
    .await?;
    Ok(0)
}

/// Whether `--only` lets this request through.
pub fn wanted(r: &RequestSeen, only: Option<Only>) -> bool {
    match only {
        None => true,
        Some(Only::Indexing) => r.route == Route::Indexing,
        Some(Only::Collect) => r.route == Route::Collect,
        Some(Only::Rejected) => r.is_rejected(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::traffic::{request_line, BatchSeen, Verdict};

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
            ..BatchSeen::default()
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
