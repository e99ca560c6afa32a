//! Following a signscope server's live stream (`GET /_inspect/stream`, `docs/server.md`, "Live
//! stream"): `signscope watch` prints it and the workbench's Traffic view lists it, both through
//! [`follow_stream`].
//!
//! The `text/event-stream` body is parsed by the `eventsource-stream` crate over reqwest's byte
//! stream ([`events`]). That parser keeps the unfinished line, and the data lines of the event
//! being read, in memory until they end: a server that never ends a line (or an event) would
//! grow them without limit, so [`events`] refuses an event longer than [`MAX_EVENT_BYTES`] and
//! the follower reconnects. A record of a signscope server is at most a few dozen KiB (its
//! previews and header values are capped).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use eventsource_stream::{EventStreamError, Eventsource};
use futures::{Stream, StreamExt};

use crate::core::traffic::{StreamMessage, INSTANCE_HEADER, STREAM_PATH};

/// One Server-Sent Event: its type (`message` when not named), its id (empty when none) and its
/// data lines joined.
pub use eventsource_stream::Event;

/// The address `signscope serve` listens on by default (`signscope watch` follows it).
pub const DEFAULT_URL: &str = "http://127.0.0.1:8080";
/// The longest event (its lines, line ends included) a follower holds while reading it.
pub const MAX_EVENT_BYTES: usize = 1024 * 1024;
/// No byte for this long means a dead connection. The server sends a keep-alive comment every
/// 10 s; a comment is no event, but its bytes are heard ([`Silence`]).
const SILENCE: Duration = Duration::from_secs(30);
/// Waits between reconnection attempts, growing up to the last.
const RETRY: [u64; 4] = [100, 250, 500, 1000];

/// Why a stream cannot be followed at all (reported before anything is followed).
#[derive(Debug, thiserror::Error)]
pub enum FollowError {
    #[error("{flag} {base:?} is not a URL like {DEFAULT_URL}")]
    NotAUrl {
        flag: String,
        base: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    #[error("{flag} {base:?} must start with http:// or https://")]
    NotHttp { flag: String, base: String },
    #[error("could not set up the HTTP client: {0}")]
    Client(#[source] reqwest::Error),
}

/// Why reading a stream's events stopped.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{}", cause(.0))]
    Transport(#[from] reqwest::Error),
    #[error("an event longer than {} KiB (not a signscope stream?)", MAX_EVENT_BYTES / 1024)]
    TooLong,
    #[error("the stream is not UTF-8 text: {0}")]
    NotText(String),
    #[error("the stream could not be parsed: {0}")]
    Parse(String),
    #[error("nothing heard for {} s", .0.as_secs())]
    Silent(Duration),
}

/// What following a stream reports to its sink, in order.
#[derive(Debug)]
pub enum Follow {
    /// The stream is open (`again` after an outage).
    Connected { again: bool },
    /// One record: its JSON text, as the server sent it, and what it says.
    Message { json: String, msg: StreamMessage },
    /// The stream is not (or no longer) there, and why; reported once per outage, retrying
    /// until it is back.
    Waiting(String),
}

/// The stream URL of a server's base URL (`http://HOST:PORT`), or one sentence naming the flag
/// it came from.
pub fn stream_url(base: &str, flag: &str) -> Result<reqwest::Url, FollowError> {
    let base = base.trim_end_matches('/');
    let url =
        reqwest::Url::parse(&format!("{base}{STREAM_PATH}")).map_err(|e| FollowError::NotAUrl {
            flag: flag.to_string(),
            base: base.to_string(),
            source: Box::new(e),
        })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(FollowError::NotHttp {
            flag: flag.to_string(),
            base: base.to_string(),
        });
    }
    Ok(url)
}

/// Whether a signscope server answers its health check at `base` (`signscope wait`): `Ok` on
/// `200` with `"status": "ok"`, else one sentence saying what came instead.
pub async fn health(base: &str) -> Result<(), String> {
    let url = format!("{}/_inspect/health", base.trim_end_matches('/'));
    let client = plain_client(2, 5)?;
    let resp = client.get(&url).send().await.map_err(|e| {
        if e.is_connect() {
            format!("nothing listens at {base}")
        } else {
            format!("{url} did not answer: {e}")
        }
    })?;
    let status = resp.status();
    let bytes = resp.bytes().await.unwrap_or_default();
    let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    if status.is_success() && body.get("status").and_then(|s| s.as_str()) == Some("ok") {
        Ok(())
    } else {
        Err(format!(
            "{url} answered {status}, not a signscope server's health"
        ))
    }
}

/// A client with no proxy: for one short look at a server (`wait`'s health, `doctor`'s clock: 5 s
/// in all), for the inspection API's answers (`mark`, the HAR export: a minute an answer, a page
/// being at most a few MiB from a server on this machine or nearby).
fn plain_client(connect_secs: u64, total_secs: u64) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(connect_secs))
        .timeout(Duration::from_secs(total_secs))
        .no_proxy()
        .build()
        .map_err(|e| format!("could not set up the HTTP client: {e}"))
}

/// The `Date` header a server at `url` answers a plain `GET` with (any status), for `doctor`'s
/// clock check; one sentence when nothing answers or no date came. Nothing is signed or sent
/// but the request line.
pub async fn server_date(url: &str) -> Result<String, String> {
    let client = plain_client(3, 5)?;
    let resp = client.get(url).send().await.map_err(|e| {
        if e.is_connect() {
            format!("nothing answers at {url}")
        } else {
            format!("{url} did not answer: {e}")
        }
    })?;
    resp.headers()
        .get(reqwest::header::DATE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .ok_or_else(|| format!("{url} answered without a Date header"))
}

/// `GET url` of a signscope server at `base`: its answer when it is a 200, else one sentence.
async fn inspect_get(
    client: &reqwest::Client,
    base: &str,
    url: &str,
) -> Result<reqwest::Response, String> {
    let resp = client.get(url).send().await.map_err(|e| {
        if e.is_connect() {
            format!("nothing answers at {base}; start the server or give its URL")
        } else {
            format!("{url} did not answer: {}", cause(&e))
        }
    })?;
    let status = resp.status();
    if status.is_success() {
        return Ok(resp);
    }
    let bytes = resp.bytes().await.unwrap_or_default();
    let said = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|v| {
            v.get("message")
                .and_then(|m| m.as_str())
                .map(str::to_string)
        })
        .unwrap_or_else(|| String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned());
    Err(format!("{url} answered {status}: {said}"))
}

/// The newest sequence number of the server at `base` (`GET /_inspect/mark`): what it
/// receives from now on comes after it (`docs/server.md` rule R13).
pub async fn mark(base: &str) -> Result<u64, String> {
    let base = base.trim_end_matches('/');
    let url = format!("{base}/_inspect/mark");
    let resp = inspect_get(&plain_client(5, 60)?, base, &url).await?;
    let bytes = resp
        .bytes()
        .await
        .map_err(|e| format!("{url} was cut off: {}", cause(&e)))?;
    let v: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| format!("{url} did not answer JSON: {e}"))?;
    v.get("since")
        .and_then(serde_json::Value::as_u64)
        .ok_or_else(|| format!("{url} answered {v}, not a signscope server's mark"))
}

/// Every request the server at `base` received after the mark `since` (all it holds without
/// one): indexing, collector and older endpoints, in arrival order, as one HAR 1.2 document,
/// and how many entries. Read page after page from `/_inspect/requests?format=har&all=true`
/// (`docs/server.md` rule R15), following `X-Next-Cursor`.
pub async fn received_har(base: &str, since: Option<u64>) -> Result<(String, usize), String> {
    let base = base.trim_end_matches('/');
    let client = plain_client(5, 60)?;
    let first = match since {
        Some(s) => format!("{base}/_inspect/requests?format=har&all=true&limit=1000&since={s}"),
        None => format!("{base}/_inspect/requests?format=har&all=true&limit=1000"),
    };
    let mut pages = Vec::new();
    let mut url = first.clone();
    let mut last_cursor = None;
    loop {
        let resp = inspect_get(&client, base, &url).await?;
        let cursor = resp
            .headers()
            .get("x-next-cursor")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("after="))
            .and_then(|v| v.parse::<u64>().ok());
        pages.push(
            resp.text()
                .await
                .map_err(|e| format!("{url} was cut off: {}", cause(&e)))?,
        );
        match cursor {
            // A cursor that does not move on would page for ever.
            Some(after) if last_cursor.is_none_or(|l| after > l) => {
                last_cursor = Some(after);
                url = format!("{first}&after={after}");
            }
            Some(after) => {
                return Err(format!("{url} gave the cursor after={after} again"));
            }
            None => break,
        }
    }
    crate::core::har::write::join_pages(env!("CARGO_PKG_VERSION"), &pages)
        .map_err(|e| format!("{first}: {e}"))
}

/// Where the stream was left: the last number received and the server run that gave it.
#[derive(Default)]
struct Position {
    after: Option<u64>,
    instance: Option<String>,
}

/// Follow a server's stream for ever: reconnect when it goes away and resume after the last
/// record received (or from the oldest record a restarted server holds). Ends only when `sink`
/// fails (a closed pipe, a closed channel), with its error.
pub async fn follow_stream<E: From<FollowError>>(
    url: reqwest::Url,
    mut sink: impl FnMut(Follow) -> Result<(), E>,
) -> Result<(), E> {
    let client = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(2))
        .build()
        .map_err(FollowError::Client)?;
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
                pos.instance = resp
                    .headers()
                    .get(INSTANCE_HEADER)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string);
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
async fn read_stream<E>(
    resp: reqwest::Response,
    pos: &mut Position,
    sink: &mut impl FnMut(Follow) -> Result<(), E>,
) -> Result<String, E> {
    let mut events = events(resp);
    loop {
        let ev = match events.next().await {
            None => return Ok("the server closed the stream".to_string()),
            Some(Err(e)) => return Ok(e.to_string()),
            Some(Ok(ev)) => ev,
        };
        let Ok(msg) = serde_json::from_str::<StreamMessage>(&ev.data) else {
            continue;
        };
        if let StreamMessage::Request(r) = &msg {
            pos.after = Some(r.seq);
        }
        sink(Follow::Message { json: ev.data, msg })?;
    }
}

/// The events of a `text/event-stream` response, each at most [`MAX_EVENT_BYTES`] long; the
/// stream ends with an error at the first longer one, or after [`SILENCE`] without a byte
/// (keep-alive comments count: they are bytes, though no event).
pub fn events(resp: reqwest::Response) -> impl Stream<Item = Result<Event, ReadError>> + Send {
    events_of(resp.bytes_stream(), SILENCE)
}

fn events_of<S, E>(
    bytes: S,
    silence: Duration,
) -> impl Stream<Item = Result<Event, ReadError>> + Send
where
    S: Stream<Item = Result<Bytes, E>> + Unpin + Send,
    ReadError: From<E>,
{
    Silence::new(Bounded::new(bytes), silence)
        .eventsource()
        .map(|r| r.map_err(read_error))
}

fn read_error(e: EventStreamError<ReadError>) -> ReadError {
    match e {
        EventStreamError::Transport(e) => e,
        EventStreamError::Utf8(e) => ReadError::NotText(e.to_string()),
        EventStreamError::Parser(e) => ReadError::Parse(e.to_string()),
    }
}

/// A byte stream that fails once an event (the bytes since the last blank line) grows past
/// [`MAX_EVENT_BYTES`]: the bound on what the event parser holds.
struct Bounded<S> {
    inner: S,
    /// Bytes since the last event ended.
    event_bytes: usize,
    /// The previous byte was a line end (`\n`, or a `\r` not followed by `\n`).
    after_line_end: bool,
    /// The previous byte was `\r` (a `\n` right after it ends the same line).
    after_cr: bool,
    failed: bool,
}

impl<S> Bounded<S> {
    fn new(inner: S) -> Self {
        Bounded {
            inner,
            event_bytes: 0,
            after_line_end: true,
            after_cr: false,
            failed: false,
        }
    }

    /// Count `chunk`; false when the event it continues is too long.
    fn admit(&mut self, chunk: &[u8]) -> bool {
        for &b in chunk {
            match b {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' | b'\r' => {
                    if self.after_line_end {
                        // A blank line: the event ended.
                        self.event_bytes = 0;
                    }
                    self.after_line_end = true;
                    self.after_cr = b == b'\r';
                }
                _ => {
                    self.after_line_end = false;
                    self.after_cr = false;
                }
            }
            self.event_bytes += 1;
        }
        self.event_bytes <= MAX_EVENT_BYTES
    }
}

impl<S, E> Stream for Bounded<S>
where
    S: Stream<Item = Result<Bytes, E>> + Unpin,
    ReadError: From<E>,
{
    type Item = Result<Bytes, ReadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.failed {
            return Poll::Ready(None);
        }
        Poll::Ready(match std::task::ready!(self.inner.poll_next_unpin(cx)) {
            Some(Ok(chunk)) if !self.admit(&chunk) => {
                self.failed = true;
                Some(Err(ReadError::TooLong))
            }
            other => other.map(|r| r.map_err(ReadError::from)),
        })
    }
}

/// A byte stream that fails once no byte has come for `limit`: a dead connection. Any byte
/// counts, a keep-alive comment's included, where a timeout on the parsed events would not see
/// the comments the parser drops.
struct Silence<S> {
    inner: S,
    limit: Duration,
    timer: Pin<Box<tokio::time::Sleep>>,
    fired: bool,
}

impl<S> Silence<S> {
    fn new(inner: S, limit: Duration) -> Self {
        Silence {
            inner,
            limit,
            timer: Box::pin(tokio::time::sleep(limit)),
            fired: false,
        }
    }
}

impl<S> Stream for Silence<S>
where
    S: Stream<Item = Result<Bytes, ReadError>> + Unpin,
{
    type Item = Result<Bytes, ReadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.fired {
            return Poll::Ready(None);
        }
        match self.inner.poll_next_unpin(cx) {
            Poll::Ready(item) => {
                let next = tokio::time::Instant::now() + self.limit;
                self.timer.as_mut().reset(next);
                Poll::Ready(item)
            }
            Poll::Pending => match self.timer.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    self.fired = true;
                    Poll::Ready(Some(Err(ReadError::Silent(self.limit))))
                }
                Poll::Pending => Poll::Pending,
            },
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

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(parts: &[&[u8]]) -> Vec<Result<Bytes, ReadError>> {
        parts
            .iter()
            .map(|p| Ok(Bytes::copy_from_slice(p)))
            .collect()
    }

    /// The parser as [`events`] runs it, over chunks instead of a response.
    async fn parse(parts: &[&[u8]]) -> Vec<Result<Event, String>> {
        futures::stream::iter(chunks(parts))
            .eventsource()
            .map(|r| r.map_err(|e| read_error(e).to_string()))
            .collect()
            .await
    }

    #[tokio::test]
    async fn events_are_parsed_across_chunks_and_line_ends() {
        let evs = parse(&[
            b": keep-alive\n\nevent: request\r\nid: 7\r",
            b"\ndata: {\"a\":\ndata: 1}\r\n\r\n",
            b"data:x\r\rdata: y\n\n",
        ])
        .await;
        let evs: Vec<Event> = evs.into_iter().map(Result::unwrap).collect();
        assert_eq!(evs.len(), 3, "{evs:?}");
        assert_eq!(
            (
                evs[0].event.as_str(),
                evs[0].id.as_str(),
                evs[0].data.as_str()
            ),
            ("request", "7", "{\"a\":\n1}")
        );
        assert_eq!(
            (evs[1].event.as_str(), evs[1].data.as_str()),
            ("message", "x")
        );
        assert_eq!(evs[2].data, "y");
    }

    #[test]
    fn an_event_is_bounded_whatever_its_line_ends() {
        let mut b = Bounded::new(());
        // Many complete events, each small: never refused, whatever the total.
        for _ in 0..10_000 {
            assert!(b.admit(b"data: 0123456789abcdef0123456789abcdef\n\n"));
            assert!(b.admit(b"data: x\r\n\r\n"));
            assert!(b.admit(b"data: y\r\r"));
        }
        // One line that never ends: refused past the bound, fed in small chunks.
        let mut b = Bounded::new(());
        let piece = [b'a'; 4096];
        let fed = (0..).take_while(|_| b.admit(&piece)).count();
        assert_eq!(fed, MAX_EVENT_BYTES / piece.len());
        // Many data lines with no blank line between them: one event, refused too.
        let mut b = Bounded::new(());
        let line = b"data: 0123456789abcdef\n";
        let fed = (0..).take_while(|_| b.admit(line)).count();
        assert_eq!(fed, MAX_EVENT_BYTES / line.len());
        // A CRLF is one line end, not a blank line: "\r\n" then data continues the event.
        let mut b = Bounded::new(());
        assert!(b.admit(b"data: a\r\n"));
        assert!(b.admit(b"data: b\r\n"));
        assert_eq!(b.event_bytes, 18);
        assert!(b.admit(b"\r\n"));
        assert_eq!(b.event_bytes, 2, "the blank line ended it");
    }

    /// An idle server's stream: keep-alive comments only. Each is heard (its bytes restart
    /// the silence clock) though the parser makes no event of it.
    #[tokio::test]
    async fn a_keep_alive_comment_restarts_the_silence_clock() {
        let (tx, rx) = futures::channel::mpsc::unbounded::<Result<Bytes, ReadError>>();
        let limit = Duration::from_secs(30);
        let mut heard = Silence::new(rx, limit);
        let first = heard.timer.deadline();
        tx.unbounded_send(Ok(Bytes::from_static(b": keep-alive\n\n")))
            .unwrap();
        let before = tokio::time::Instant::now();
        assert!(heard.next().await.expect("the comment").is_ok());
        let now = heard.timer.deadline();
        assert!(now >= before + limit && now > first, "{now:?} {first:?}");
    }

    /// No byte at all for the limit: the stream ends with "nothing heard", once.
    #[tokio::test]
    async fn silence_ends_the_stream_with_one_sentence() {
        let (_tx, rx) = futures::channel::mpsc::unbounded::<Result<Bytes, ReadError>>();
        let mut silent = Silence::new(rx, Duration::ZERO);
        let err = silent.next().await.expect("an item").unwrap_err();
        assert!(matches!(err, ReadError::Silent(_)), "{err:?}");
        assert_eq!(err.to_string(), "nothing heard for 0 s");
        assert!(silent.next().await.is_none());
        // Through the parser, as a follower reads it.
        let (_tx, rx) = futures::channel::mpsc::unbounded::<Result<Bytes, ReadError>>();
        let mut evs = Box::pin(events_of(rx, Duration::ZERO));
        let err = evs.next().await.expect("an item").unwrap_err();
        assert!(matches!(err, ReadError::Silent(_)), "{err:?}");
    }

    #[tokio::test]
    async fn a_stream_that_never_ends_a_line_ends_with_an_error_after_the_bound() {
        let fed = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = fed.clone();
        let piece = Bytes::from(vec![b'a'; 64 * 1024]);
        // 64 MiB of one line, if nothing stopped it.
        let endless = futures::stream::iter(std::iter::repeat_n(piece, 1024)).map(move |p| {
            counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok::<_, ReadError>(p)
        });
        let body =
            futures::stream::once(async { Ok(Bytes::from_static(b"data: ")) }).chain(endless);
        let mut events = Bounded::new(Box::pin(body)).eventsource();
        let first = events.next().await.expect("an item").map_err(read_error);
        assert!(matches!(first, Err(ReadError::TooLong)), "{first:?}");
        let read = fed.load(std::sync::atomic::Ordering::Relaxed);
        // The six bytes of `data: ` and 16 pieces of 64 KiB pass 1 MiB: refused at the 16th.
        assert_eq!(
            read,
            MAX_EVENT_BYTES / (64 * 1024),
            "read no further than the bound"
        );
        assert!(events.next().await.is_none(), "and the stream ends there");
    }
}
