//! The verifying forward proxy (`serve --forward-indexing URL`, `--forward-analytics URL`; see
//! `docs/server.md`, "Forwarding"): a request is verified and recorded as without forwarding,
//! then sent on, byte for byte, to the upstream, and the upstream's status, headers and body go
//! back to the client. The record keeps signscope's own verdict next to the upstream's answer.
//!
//! Byte for byte: the method, the path and query exactly as received, every end-to-end header
//! (hop-by-hop ones such as `Connection` and `Transfer-Encoding` are the connection's, not the
//! request's) and the body as received (a chunked body is forwarded whole, with its length).
//! Nothing is re-encoded, so the signature the application made is the one the upstream checks;
//! a path or query the HTTP client would re-encode is refused with 502 instead of being sent
//! altered. signscope holds no key of the client's, so none can be sent: only what the client
//! sent is. Nothing is added either (`docs/server.md` rule W8): the client is hyper's own HTTP/1.1
//! client, which sends the headers it is given in their order and with the names' case as the
//! application wrote them (the server keeps it), and no `Accept` or `User-Agent` of its own;
//! only `Host` names the upstream and a chunked body is sent with its `Content-Length`.

use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use futures::StreamExt;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

use super::body::{read_body_within, BodyBudget, BodyFailed, BodyPace, BodyPermit, Budgeted};
use super::error::ApiError;
use super::stream::{self, STREAM_BODY_PREVIEW};
use crate::core::traffic::UpstreamSeen;
use crate::net::{tls_config, KeepReadingConnector};

/// Longest wait for an upstream's answer to begin, and then for each part of it (the time its
/// client takes to read it is the client's, not the upstream's).
const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(60);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Largest upstream answer passed back (a larger declared one answers 502; one that grows
/// past it while passed on is cut off).
const MAX_UPSTREAM_ANSWER: usize = 64 * 1024 * 1024;
/// An answer up to this size is read whole before it is passed on, so that its record holds
/// all of it (its code, its size); a larger one is passed on as it arrives (`docs/server.md`
/// rule W7).
const WHOLE_ANSWER: usize = 256 * 1024;
/// Bytes of the answers' budget reserved before each read from the upstream: a forwarded
/// answer waiting for room holds none of the upstream's bytes.
const READ_AHEAD: usize = 64 * 1024;
/// How much of the upstream's answer the record keeps.
const MAX_UPSTREAM_HEADERS: usize = 64;

/// Marks a response that came from the upstream (its `Date` is the upstream's, not replaced).
#[derive(Clone, Copy, Debug)]
pub struct Forwarded;

/// The HTTP/1.1 client a forwarded request goes out with (plain or TLS, connections reused).
type Client = hyper_util::client::legacy::Client<HttpsConnector<KeepReadingConnector>, Body>;

/// One upstream: where to, and the client that goes there.
pub struct Upstream {
    /// The base URL without a trailing slash, e.g. `https://indexing.example.com`.
    base: String,
    /// Its path without a trailing slash (`""` for most upstreams).
    base_path: String,
    /// The `Host` a forwarded request carries: the upstream's host, and its port unless it is
    /// the scheme's default.
    host: HeaderValue,
    client: Client,
    max_body: usize,
    /// The local server's body read bounds (`docs/server.md`, rule L2): a forwarded body is read
    /// under the same rules as a local one.
    pace: BodyPace,
    /// The server's bodies budget: a forwarded body's bytes are taken from it as they arrive
    /// and held until the upstream has answered (`docs/server.md`, rule L1).
    budget: BodyBudget,
    /// The answers' budget and write stall timeout: the upstream's answer is passed on a part
    /// at a time, each part holding its bytes of it until written (`docs/server.md` rule L5).
    answers: (BodyBudget, Duration),
}

/// The upstreams a server forwards to now, one per kind of route (indexing, then collector);
/// changed while it runs by [`super::AppState::set_forwarding`] (the workbench's per-profile
/// forwarding).
#[derive(Default)]
pub struct Forwarding(RwLock<[Option<Arc<Upstream>>; 2]>);

impl Forwarding {
    /// Forward to these from the next request on.
    pub fn set(&self, indexing: Option<Arc<Upstream>>, analytics: Option<Arc<Upstream>>) {
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = [indexing, analytics];
    }
}

/// What the [`proxy`] layer of a group of routes forwards to: the server's [`Forwarding`],
/// indexing or collector side.
#[derive(Clone)]
pub struct Target {
    forwarding: Arc<Forwarding>,
    analytics: bool,
}

impl Target {
    pub fn indexing(forwarding: Arc<Forwarding>) -> Target {
        Target {
            forwarding,
            analytics: false,
        }
    }

    pub fn analytics(forwarding: Arc<Forwarding>) -> Target {
        Target {
            forwarding,
            analytics: true,
        }
    }

    fn upstream(&self) -> Option<Arc<Upstream>> {
        let upstreams = self.forwarding.0.read();
        upstreams.unwrap_or_else(PoisonError::into_inner)[usize::from(self.analytics)].clone()
    }
}

/// Why an upstream cannot be used (one sentence naming the fix).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UpstreamError {
    #[error("{url:?} is not a URL ({reason}); use e.g. https://indexing.example.com")]
    NotAUrl { url: String, reason: String },
    #[error("{0:?} must start with http:// or https://")]
    Scheme(String),
    #[error("{0:?} names no host")]
    NoHost(String),
    #[error("{0:?} must not have a query or fragment: the request's own path and query are appended to it")]
    QueryOrFragment(String),
    #[error("{0:?} must not carry credentials")]
    Credentials(String),
    #[error("the HTTP client for {url} could not be set up: {reason}")]
    Client { url: String, reason: String },
}

/// Check an upstream URL.
pub fn check_url(url: &str) -> Result<reqwest::Url, UpstreamError> {
    let parsed = reqwest::Url::parse(url).map_err(|e| UpstreamError::NotAUrl {
        url: url.to_string(),
        reason: e.to_string(),
    })?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(UpstreamError::Scheme(url.to_string()));
    }
    if parsed.host_str().is_none() {
        return Err(UpstreamError::NoHost(url.to_string()));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(UpstreamError::QueryOrFragment(url.to_string()));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(UpstreamError::Credentials(url.to_string()));
    }
    Ok(parsed)
}

/// Why a forwarded request has no answer to pass on: the end of the sentence "The upstream URL
/// could not be reached: ...".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum ForwardError {
    #[error("{target} is not a URL ({reason})")]
    NotAUrl { target: String, reason: String },
    #[error("the path and query {path_and_query:?} would be sent as {sent:?}, which would change what the signature covers, so it was not forwarded")]
    Normalised {
        path_and_query: String,
        sent: String,
    },
    #[error("it did not answer in time (nothing for {} s)", UPSTREAM_TIMEOUT.as_secs())]
    Late,
    #[error("it did not answer in time ({0})")]
    Timeout(String),
    #[error("the connection failed ({0})")]
    Connect(String),
    #[error("{0}")]
    Transport(String),
    #[error("its answer is larger than {MAX_UPSTREAM_ANSWER} bytes")]
    TooLarge,
    #[error("no room to pass its answer on for {0} s (the server's answers budget is held by clients that stopped reading)")]
    NoRoom(u64),
    #[error("its answer could not be passed on ({0})")]
    Answer(String),
}

impl Upstream {
    /// An upstream at `url` (checked with [`check_url`]) for a server of `config`: forwarded
    /// bodies are read within its bounds and taken from its bodies `budget`, answers passed on
    /// within its `answers` budget, waiting at most its write stall timeout for room.
    pub fn new(
        url: &str,
        config: &super::ServerConfig,
        budget: BodyBudget,
        answers: BodyBudget,
    ) -> Result<Upstream, UpstreamError> {
        let parsed = check_url(url)?;
        let failed = |reason: String| UpstreamError::Client {
            url: url.to_string(),
            reason,
        };
        // check_url made sure there is a host.
        let name = parsed.host_str().unwrap_or_default();
        let host = match parsed.port() {
            Some(port) => format!("{name}:{port}"),
            None => name.to_string(),
        };
        Ok(Upstream {
            base: url.trim_end_matches('/').to_string(),
            base_path: parsed.path().trim_end_matches('/').to_string(),
            host: HeaderValue::from_str(&host).map_err(|e| failed(e.to_string()))?,
            client: client().map_err(failed)?,
            max_body: config.max_body,
            pace: config.body_pace(),
            budget,
            answers: (answers, config.write_stall_timeout),
        })
    }
}

/// The forwarding client: HTTP/1.1 over TCP or TLS (the roots reqwest's own client trusts),
/// names sent in the case they were received in, no redirects followed, no header added. No
/// total timeout: an answer passed on as it arrives takes as long as its client reads; the
/// upstream's own waits are bounded in `send`. Its connections keep reading after a write fails
/// (`net::KeepReading`), so an upstream that answers before it has read the whole body and
/// closes (a 413) has that answer passed on, not a 502 (`docs/server.md` rule W7).
fn client() -> Result<Client, String> {
    let mut tcp = HttpConnector::new();
    tcp.enforce_http(false);
    tcp.set_connect_timeout(Some(CONNECT_TIMEOUT));
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(tls_config()?)
        .https_or_http()
        .enable_http1()
        .wrap_connector(KeepReadingConnector::new(tcp));
    Ok(
        hyper_util::client::legacy::Client::builder(TokioExecutor::new())
            .http1_preserve_header_case(true)
            .build(connector),
    )
}

/// Headers that belong to one connection, not to the request (RFC 9110 7.6.1), plus those the
/// client sets for the upstream connection itself (`Host`, `Content-Length`).
fn hop_by_hop(name: &HeaderName, connection: &HeaderMap) -> bool {
    const HOP: [&str; 10] = [
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
    ];
    let n = name.as_str();
    if HOP.contains(&n) || n == "content-length" || n == "expect" {
        return true;
    }
    connection
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|token| token.trim().eq_ignore_ascii_case(n))
}

/// The headers a forwarded request carries, in the order received: every end-to-end one as
/// it came, `Host` (where the client put it) naming the upstream, and the body's
/// `Content-Length` where the client put its own (after the others when its body came
/// chunked; none for a body-less request that declared none).
fn upstream_headers(headers: &HeaderMap, host: &HeaderValue, body_len: usize) -> HeaderMap {
    let length = HeaderValue::from(body_len);
    let mut out = HeaderMap::with_capacity(headers.len() + 1);
    for (name, value) in headers {
        if name == header::HOST {
            out.entry(header::HOST).or_insert_with(|| host.clone());
        } else if name == header::CONTENT_LENGTH {
            out.entry(header::CONTENT_LENGTH)
                .or_insert_with(|| length.clone());
        } else if !hop_by_hop(name, headers) {
            out.append(name.clone(), value.clone());
        }
    }
    out.entry(header::HOST).or_insert_with(|| host.clone());
    if body_len > 0 || headers.contains_key(header::TRANSFER_ENCODING) {
        out.entry(header::CONTENT_LENGTH).or_insert(length);
    }
    out
}

/// The middleware that forwards the requests of the routes it wraps to the target's upstream
/// (when there is one now).
pub async fn proxy(State(target): State<Target>, req: Request, next: Next) -> Response {
    // An OPTIONS under an indexing upstream is forwarded like any request (the indexing API
    // has no CORS); the analytics routes' CORS layer, outside this one, answers every OPTIONS
    // before it gets here (docs/server.md rule W9).
    let Some(up) = target.upstream() else {
        return next.run(req).await;
    };
    let (mut parts, body) = req.into_parts();
    // Held until the upstream has answered (the body is alive until then).
    let mut permit = BodyPermit::default();
    let budget = Some((&up.budget, &mut permit));
    let read = read_body_within(&parts.headers, body, up.max_body, up.pace, budget).await;
    let bytes = match read {
        Ok(b) => b,
        // Too large, too slow or cut off: not forwarded, not even in part. The local handler
        // answers and records this very failure (it does not read the body again).
        Err(e) => {
            drop(permit);
            parts.extensions.insert(BodyFailed(e));
            return next.run(Request::from_parts(parts, Body::empty())).await;
        }
    };
    let method = parts.method.clone();
    let path_and_query = parts
        .uri
        .path_and_query()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| parts.uri.path().to_string());
    let headers = upstream_headers(&parts.headers, &up.host, bytes.len());
    // The names' case as received (hyper's server keeps it there; its client writes it).
    let extensions = parts.extensions.clone();

    // Verify and record exactly as without forwarding; keep the local answer for the record.
    let local = next
        .run(Request::from_parts(parts, Body::from(bytes.clone())))
        .await;
    let local = stream::local_answer(local).await;

    let started = Instant::now();
    let sent = if method == Method::CONNECT {
        // The HTTP client would send `CONNECT host:port`, dropping the path, and an upstream
        // that agreed would turn the client's connection into a tunnel no one serves.
        Err(Failed::Connect)
    } else {
        let mut request = axum::http::Request::new(Body::from(bytes));
        *request.method_mut() = method;
        *request.headers_mut() = headers;
        *request.extensions_mut() = extensions;
        send(&up, request, &path_and_query).await
    };
    let (mut response, upstream) = match sent {
        Ok((response, seen)) => {
            let upstream = UpstreamSeen {
                duration_ms: started.elapsed().as_secs_f64() * 1000.0,
                ..seen
            };
            (response, upstream)
        }
        Err(failed) => {
            let err = failed.error(&up.base);
            let upstream = UpstreamSeen {
                url: up.base.clone(),
                duration_ms: started.elapsed().as_secs_f64() * 1000.0,
                error: Some(err.message.clone()),
                ..UpstreamSeen::default()
            };
            (err.into_response(), upstream)
        }
    };
    stream::note_forwarded(&mut response, local, upstream);
    response
}

/// Why a request was not passed on, or its answer not passed back.
#[derive(Debug)]
enum Failed {
    /// The upstream could not be reached or did not answer in time.
    Unreached(ForwardError),
    /// It answered a status the client's connection cannot carry.
    Unusable(UnusableStatus),
    /// CONNECT: no tunnel is opened.
    Connect,
}

impl From<ForwardError> for Failed {
    fn from(why: ForwardError) -> Failed {
        Failed::Unreached(why)
    }
}

impl Failed {
    /// The client's answer: one sentence naming the upstream.
    fn error(&self, base: &str) -> ApiError {
        match self {
            Failed::Unreached(why) => ApiError::new(
                502,
                "BAD_GATEWAY",
                format!("The upstream {base} could not be reached: {why}."),
            ),
            Failed::Unusable(why) => ApiError::new(
                502,
                "BAD_GATEWAY",
                format!("The answer of the upstream {base} cannot be passed on: {why}."),
            ),
            Failed::Connect => ApiError::new(
                405,
                "METHOD_NOT_ALLOWED",
                format!(
                    "CONNECT asks for a tunnel, which signscope's verifying proxy does not open: it \
                     forwards each request to {base} as it was received; send the request itself."
                ),
            ),
        }
    }
}

/// An upstream's status that cannot be passed back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum UnusableStatus {
    // Its Upgrade and Connection headers are the upstream connection's: without them the
    // client is told its connection switched protocols to nothing.
    #[error("it answered 101 Switching Protocols, a switch of the connection to another protocol, which the verifying proxy does not pass on (it forwards HTTP requests and their answers only)")]
    SwitchingProtocols,
    #[error("it answered status {0}, which is not an HTTP status (100-599)")]
    NotHttp(u16),
}

/// Why an upstream's status cannot be passed back, if it cannot.
fn unusable_status(status: u16) -> Option<UnusableStatus> {
    match status {
        101 => Some(UnusableStatus::SwitchingProtocols),
        100..=599 => None,
        _ => Some(UnusableStatus::NotHttp(status)),
    }
}

/// Send the request (method, headers, body and the names' case as received) on to
/// `path_and_query` under the upstream and read the answer; `Err` says why not.
async fn send(
    up: &Upstream,
    mut request: axum::http::Request<Body>,
    path_and_query: &str,
) -> Result<(Response, UpstreamSeen), Failed> {
    let uri = target_uri(up, path_and_query)?;
    *request.uri_mut() = uri;
    let resp = tokio::time::timeout(UPSTREAM_TIMEOUT, up.client.request(request))
        .await
        .map_err(|_| ForwardError::Late)?
        .map_err(|e| cause(&e, e.is_connect()))?;
    let status = resp.status().as_u16();
    if let Some(why) = unusable_status(status) {
        return Err(Failed::Unusable(why));
    }
    let resp_headers = resp.headers().clone();
    let declared = resp_headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_UPSTREAM_ANSWER as u64) {
        return Err(ForwardError::TooLarge.into());
    }
    let mut answer = Answer {
        body: resp.into_body(),
        answers: up.answers.clone(),
        read: 0,
    };
    let (head, whole) = answer.head().await?;

    let mut out = Response::builder().status(status);
    for (name, value) in &resp_headers {
        if !hop_by_hop(name, &resp_headers) {
            out = out.header(name.as_str(), value.as_bytes());
        }
    }
    let seen = upstream_seen(up, status, &resp_headers, &head, whole, declared);
    let body = if whole {
        Body::from(head)
    } else {
        let rest = futures::stream::unfold(answer, |mut a| async move {
            let next = a.next().await.transpose()?;
            Some((next, a))
        });
        Body::from_stream(futures::stream::once(async move { Ok(head) }).chain(rest))
    };
    let mut response = out
        .body(body)
        .map_err(|e| ForwardError::Answer(e.to_string()))?;
    response.extensions_mut().insert(Forwarded);
    Ok((response, seen))
}

/// The upstream URL of `path_and_query`. The HTTP client sends the URI's path and query as
/// they are; refuse rather than alter what the signature covers should they ever differ.
fn target_uri(up: &Upstream, path_and_query: &str) -> Result<axum::http::Uri, Failed> {
    let target = format!("{}{path_and_query}", up.base);
    let uri: axum::http::Uri =
        target
            .parse()
            .map_err(|e: axum::http::uri::InvalidUri| ForwardError::NotAUrl {
                reason: e.to_string(),
                target: target.clone(),
            })?;
    let sent = uri.path_and_query().map_or("/", |p| p.as_str()).to_string();
    if sent != format!("{}{path_and_query}", up.base_path) {
        return Err(ForwardError::Normalised {
            path_and_query: path_and_query.to_string(),
            sent,
        }
        .into());
    }
    Ok(uri)
}

/// What the record keeps of the upstream's answer: its status, error code (of a whole JSON
/// answer), headers and body preview, and its size (declared, for one streamed on).
fn upstream_seen(
    up: &Upstream,
    status: u16,
    resp_headers: &axum::http::HeaderMap,
    head: &Bytes,
    whole: bool,
    declared: Option<u64>,
) -> UpstreamSeen {
    let (preview, _) = super::store::preview(&head[..head.len().min(STREAM_BODY_PREVIEW)]);
    let code = if whole {
        serde_json::from_slice::<ApiError>(head)
            .ok()
            .map(|e| e.code)
    } else {
        None
    };
    UpstreamSeen {
        url: up.base.clone(),
        status: Some(status),
        code,
        headers: resp_headers
            .iter()
            .take(MAX_UPSTREAM_HEADERS)
            .map(|(n, v)| {
                (
                    n.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes())
                        .chars()
                        .take(512)
                        .collect(),
                )
            })
            .collect(),
        body: preview,
        body_bytes: if whole {
            head.len()
        } else {
            declared.map_or(head.len(), |n| usize::try_from(n).unwrap_or(usize::MAX))
        },
        duration_ms: 0.0,
        error: None,
    }
}

struct Answer {
    body: Incoming,
    answers: (BodyBudget, Duration),
    read: usize,
}

impl Answer {
    /// The next part of the answer, its bytes held in the answers' budget; `None` at its end.
    async fn part(&mut self) -> Result<Option<(Bytes, BodyPermit)>, ForwardError> {
        let mut permit = BodyPermit::default();
        let (budget, stall) = &self.answers;
        if !permit.take_within(budget, READ_AHEAD, *stall).await {
            return Err(ForwardError::NoRoom(stall.as_secs()));
        }
        let chunk = tokio::time::timeout(UPSTREAM_TIMEOUT, self.data())
            .await
            .map_err(|_| ForwardError::Late)?
            .map_err(|e| cause(&e, false))?;
        let Some(chunk) = chunk else {
            return Ok(None);
        };
        self.read += chunk.len();
        if self.read > MAX_UPSTREAM_ANSWER {
            return Err(ForwardError::TooLarge);
        }
        // A part larger than reserved takes the rest (it is already read: this is the only
        // moment bytes are held outside the budget, one part per answer).
        let (budget, stall) = &self.answers;
        let more = chunk.len().saturating_sub(permit.bytes());
        if !permit.take_within(budget, more, *stall).await {
            return Err(ForwardError::NoRoom(stall.as_secs()));
        }
        permit.keep(chunk.len());
        Ok(Some((chunk, permit)))
    }

    /// The body's next bytes (trailers are the connection's and stay behind); `None` at its end.
    async fn data(&mut self) -> Result<Option<Bytes>, hyper::Error> {
        while let Some(frame) = self.body.frame().await {
            if let Ok(data) = frame?.into_data() {
                return Ok(Some(data));
            }
        }
        Ok(None)
    }

    /// The answer's start: all of it when it ends within [`WHOLE_ANSWER`] bytes (true), else
    /// its first [`WHOLE_ANSWER`] bytes or more; held in the answers' budget.
    async fn head(&mut self) -> Result<(Bytes, bool), ForwardError> {
        let mut buf = Vec::new();
        let mut held = BodyPermit::default();
        while buf.len() <= WHOLE_ANSWER {
            let Some((chunk, permit)) = self.part().await? else {
                return Ok((Budgeted::bytes(buf, held), true));
            };
            if buf.is_empty() && chunk.len() > WHOLE_ANSWER {
                return Ok((Budgeted::bytes(chunk, permit), false));
            }
            buf.extend_from_slice(&chunk);
            held.merge(permit);
        }
        Ok((Budgeted::bytes(buf, held), false))
    }

    /// The next part as it is passed on (an error cuts the answer off: its head is sent).
    async fn next(&mut self) -> Result<Option<Bytes>, std::io::Error> {
        match self.part().await {
            Ok(part) => Ok(part.map(|(chunk, permit)| Budgeted::bytes(chunk, permit))),
            Err(why) => {
                tracing::warn!("a forwarded answer was cut off: {why}");
                Err(std::io::Error::other(why))
            }
        }
    }
}

/// The root cause of a client error in words, e.g. `Connection refused (os error 111)`;
/// `connect` when it came while connecting.
fn cause(e: &(dyn std::error::Error + 'static), connect: bool) -> ForwardError {
    let mut root = e;
    while let Some(next) = root.source() {
        root = next;
    }
    let text = root.to_string();
    let timed_out = root
        .downcast_ref::<std::io::Error>()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::TimedOut);
    if timed_out {
        ForwardError::Timeout(text)
    } else if connect {
        ForwardError::Connect(text)
    } else {
        ForwardError::Transport(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hop_by_hop_headers_stay_behind_and_host_and_length_keep_their_places() {
        let mut h = HeaderMap::new();
        h.insert("host", "a".parse().unwrap());
        h.insert("connection", "keep-alive, x-private".parse().unwrap());
        h.insert("x-private", "1".parse().unwrap());
        h.insert("transfer-encoding", "chunked".parse().unwrap());
        h.insert("authorization", "Bearer sig".parse().unwrap());
        h.append("x-svc-apikey", "k".parse().unwrap());
        h.append("x-multi", "1".parse().unwrap());
        h.append("x-multi", "2".parse().unwrap());
        let kept = upstream_headers(&h, &HeaderValue::from_static("up:9"), 3);
        let names: Vec<&str> = kept.keys().map(|n| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "host",
                "authorization",
                "x-svc-apikey",
                "x-multi",
                "content-length"
            ]
        );
        assert_eq!(kept["host"], "up:9");
        assert_eq!(kept["content-length"], "3");
        assert_eq!(kept.get_all("x-multi").iter().count(), 2);

        // A request without a body and without a length gets none.
        let mut get = HeaderMap::new();
        get.insert("host", "a".parse().unwrap());
        get.insert("x-svc-apikey", "k".parse().unwrap());
        let kept = upstream_headers(&get, &HeaderValue::from_static("up:9"), 0);
        let names: Vec<&str> = kept.keys().map(|n| n.as_str()).collect();
        assert_eq!(names, ["host", "x-svc-apikey"]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_forwarded_body_is_taken_from_the_bodies_budget_until_the_upstream_answers() {
        use tower::ServiceExt;
        // An upstream that says when the request reached it and answers only when told to.
        let (go_tx, go_rx) = tokio::sync::oneshot::channel::<()>();
        let go = Arc::new(tokio::sync::Mutex::new(Some(go_rx)));
        let (arrived_tx, arrived_rx) = tokio::sync::oneshot::channel::<()>();
        let arrived = Arc::new(std::sync::Mutex::new(Some(arrived_tx)));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let app = axum::Router::new().route(
            "/analytics/collect",
            axum::routing::post(move || {
                let go = go.clone();
                let arrived = arrived.clone();
                async move {
                    if let Some(tx) = arrived.lock().unwrap().take() {
                        let _ = tx.send(());
                    }
                    if let Some(rx) = go.lock().await.take() {
                        let _ = rx.await;
                    }
                    "{}"
                }
            }),
        );
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        let mut config = crate::server::ServerConfig::demo();
        config.forward_analytics = Some(url);
        let state = crate::server::AppState::new(config);
        let size = state.body_budget.size();
        let router = crate::server::app(state.clone());
        let body = format!("[{}]", "\"x\",".repeat(20_000).trim_end_matches(','));
        let len = body.len();
        let req = axum::http::Request::post("/analytics/collect")
            .header("content-type", "application/json")
            .body(Body::from(body))
            .unwrap();
        let call = tokio::spawn(router.oneshot(req));
        // The request reached the upstream: the local handler has answered (the proxy waits
        // for its answer before it forwards) and given its own copy's bytes back, while the
        // upstream has not answered: the proxy still holds the body's bytes.
        tokio::time::timeout(Duration::from_secs(60), arrived_rx)
            .await
            .expect("the request never reached the upstream")
            .unwrap();
        assert_eq!(
            state.store.summary().batches,
            1,
            "recorded before forwarded"
        );
        assert_eq!(
            size - state.body_budget.available(),
            len,
            "the bytes held while the upstream answers"
        );
        let _ = go_tx.send(());
        let resp = call.await.unwrap().unwrap();
        assert_eq!(resp.status(), 200);
        drop(resp);
        assert_eq!(
            state.body_budget.available(),
            size,
            "given back once answered"
        );
    }

    #[test]
    fn forwarding_servers_have_room_for_two_of_the_largest_bodies() {
        let mut config = crate::server::ServerConfig::demo();
        config.max_body = 1000;
        config.body_budget_bytes = 1000;
        assert_eq!(
            crate::server::AppState::new(config.clone())
                .body_budget
                .size(),
            1000
        );
        config.forward_indexing = Some("http://127.0.0.1:9".into());
        assert_eq!(
            crate::server::AppState::new(config).body_budget.size(),
            2000
        );
    }

    #[test]
    fn upstream_urls_are_checked_in_one_sentence() {
        assert!(check_url("https://indexing.example.com").is_ok());
        assert!(check_url("http://127.0.0.1:9000/base/").is_ok());
        let err = |url: &str| check_url(url).unwrap_err().to_string();
        assert_eq!(
            err("ftp://x"),
            "\"ftp://x\" must start with http:// or https://"
        );
        assert!(err("http://x/?a=1").contains("query"));
        assert!(err("nonsense").contains("not a URL"));
        assert!(err("http://u:p@x").contains("credentials"));
    }
}
