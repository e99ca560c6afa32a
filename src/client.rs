//! The HTTP client (reqwest with rustls): sends signed indexing requests and event batches.
//!
//! It only sends: the engine hands it a finished [`OutgoingRequest`] (signed once through the
//! core, its URL and headers checked: `engine::outgoing`), whose body is a [`Bytes`] handed to
//! reqwest by reference count, so the bytes signed are the bytes sent, never copied.
//!
//! Errors are one sentence each ([`ClientError`]); nothing here panics on bad input.
//!
//! [`stream`] follows a local server's live stream of what it saw.

mod early;
pub mod stream;

pub use crate::net::ConnectProbe;
pub use early::EARLY_ANSWER_MIN_BODY;

use std::time::{Duration, Instant};

use bytes::Bytes;
use chrono::{DateTime, Utc};

/// Default connect timeout.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Default total timeout (connect + send + whole response).
pub const DEFAULT_TOTAL_TIMEOUT: Duration = Duration::from_secs(30);
/// Clock skew above which a response carries a warning.
pub const CLOCK_SKEW_WARNING_SECONDS: i64 = 60;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientOptions {
    pub connect_timeout: Duration,
    pub total_timeout: Duration,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            total_timeout: DEFAULT_TOTAL_TIMEOUT,
        }
    }
}

/// The User-Agent header every client built here sends.
pub const USER_AGENT: &str = concat!("signscope/", env!("CARGO_PKG_VERSION"));

/// The headers the HTTP client adds on its own to a request sent with [`send_with`] (in
/// neither the request's signed headers nor its record): reqwest's default `accept`, the
/// builders' `user-agent`, and hyper's `host` and `content-length`. Lower case, as sent. A
/// request that sets one of them itself keeps its own (it is in `headers`). Tests compare this
/// with what a real server received, so the list cannot drift from the sending code.
pub fn added_headers(
    url: &str,
    headers: &[(String, String)],
    body_len: usize,
) -> Vec<(String, String)> {
    let mut out = vec![
        ("accept".to_string(), "*/*".to_string()),
        ("user-agent".to_string(), USER_AGENT.to_string()),
    ];
    if let Ok(u) = reqwest::Url::parse(url) {
        out.push(("host".to_string(), host_of(&u)));
    }
    // hyper leaves the length out of an empty body, whatever the method.
    if body_len > 0 {
        out.push(("content-length".to_string(), body_len.to_string()));
    }
    out.retain(|(n, _)| !headers.iter().any(|(h, _)| h.eq_ignore_ascii_case(n)));
    out
}

/// A reqwest client with the given timeouts (rustls; no proxy from the environment, so a
/// request to a loopback server never goes elsewhere), whose connection set-up time is measured
/// by the probe.
pub fn build_client_probed(
    opts: &ClientOptions,
) -> Result<(reqwest::Client, ConnectProbe), ClientError> {
    let probe = ConnectProbe::default();
    let client = reqwest::Client::builder()
        .connect_timeout(opts.connect_timeout)
        .timeout(opts.total_timeout)
        .no_proxy()
        .user_agent(USER_AGENT)
        .connector_layer(probe.clone())
        .build()
        .map_err(|e| ClientError::Other {
            detail: format!("the HTTP client could not be set up: {}", chain_text(&e)),
        })?;
    Ok((client, probe))
}

/// A [`build_client_probed`] client set up on its first use, shared by every clone: setting one
/// up (rustls' root store, the connector) takes most of a millisecond, and the workbench's first
/// frame sends nothing. A client that cannot be set up is the error of the send that needed it.
#[derive(Clone, Debug)]
pub struct LazyClient {
    opts: ClientOptions,
    built: std::sync::Arc<std::sync::OnceLock<(reqwest::Client, ConnectProbe)>>,
}

impl LazyClient {
    pub fn new(opts: ClientOptions) -> Self {
        LazyClient {
            opts,
            built: Default::default(),
        }
    }

    pub fn options(&self) -> ClientOptions {
        self.opts
    }

    /// The client and its probe, set up now if this is their first use.
    pub fn get(&self) -> Result<&(reqwest::Client, ConnectProbe), ClientError> {
        if let Some(built) = self.built.get() {
            return Ok(built);
        }
        let built = build_client_probed(&self.opts)?;
        Ok(self.built.get_or_init(|| built))
    }
}

/// Like [`send_with`], filling `timings.connect` from the client's probe when this send opened
/// a new connection.
pub async fn send_probed(
    client: &reqwest::Client,
    probe: &ConnectProbe,
    req: &OutgoingRequest,
    opts: &ClientOptions,
) -> Result<Response, ClientError> {
    probe.reset();
    let mut resp = send_routed(client, req, opts, Some(probe)).await?;
    resp.timings.connect = probe.take();
    Ok(resp)
}

/// A request ready to send: exactly these headers and these body bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutgoingRequest {
    pub method: String,
    /// The full URL including `?query`.
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Bytes,
}

/// How long the parts of a send took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timings {
    /// Time to open the connection (TCP, plus TLS for https): measured by [`send_probed`] when
    /// the send opened a new connection; `None` for a reused connection or with [`send`].
    pub connect: Option<Duration>,
    /// From starting the send to the response headers.
    pub first_byte: Duration,
    /// From starting the send to the last body byte.
    pub total: Duration,
}

/// A response as received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Bytes,
    pub timings: Timings,
    /// Set when the server's Date differs from the local clock by more than 60 s.
    pub clock_skew_warning: Option<String>,
    /// Set when the server answered before it had read the whole body and closed the
    /// connection: the sentence that says so (the answer is the server's all the same).
    pub body_cut_short: Option<String>,
}

impl Response {
    /// An answer as read, its clock-skew warning from its `Date` (on a new connection's
    /// send, `timings.connect` is filled in by the caller).
    fn received(
        status: u16,
        headers: Vec<(String, String)>,
        body: Bytes,
        first_byte: Duration,
        total: Duration,
    ) -> Response {
        let clock_skew_warning = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("date"))
            .and_then(|(_, v)| clock_skew_warning(v, Utc::now()));
        Response {
            status,
            headers,
            body,
            timings: Timings {
                connect: None,
                first_byte,
                total,
            },
            clock_skew_warning,
            body_cut_short: None,
        }
    }

    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// Why a send failed, in one sentence.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClientError {
    #[error("the connection to {host} was refused; is the server running and is the URL right?")]
    Refused { host: String },
    #[error("the host name {host} could not be resolved (DNS lookup failed); check the URL")]
    Dns { host: String },
    #[error("the TLS handshake with {host} failed: {detail}")]
    Tls { host: String, detail: String },
    #[error("connecting to {host} took longer than {seconds} s and was abandoned")]
    ConnectTimeout { host: String, seconds: f64 },
    #[error("{host} did not answer within {seconds} s; the request was abandoned")]
    Timeout { host: String, seconds: f64 },
    #[error("the connection to {host} failed: {detail}")]
    Connect { host: String, detail: String },
    #[error("the request could not be sent: {detail}")]
    Other { detail: String },
}

/// Send a request and read the whole response.
pub async fn send(
    client: &reqwest::Client,
    req: &OutgoingRequest,
) -> Result<Response, ClientError> {
    send_with(client, req, &ClientOptions::default()).await
}

/// Like [`send`]; `opts` is only used to word timeout errors (the client carries the timeouts),
/// except for a body of [`EARLY_ANSWER_MIN_BODY`] bytes or more: that one is sent on a
/// connection of its own within `opts`, which reads the server's answer even when the server
/// sends it before it has read the whole body (a 413 for a body over its limit).
pub async fn send_with(
    client: &reqwest::Client,
    req: &OutgoingRequest,
    opts: &ClientOptions,
) -> Result<Response, ClientError> {
    send_routed(client, req, opts, None).await
}

async fn send_routed(
    client: &reqwest::Client,
    req: &OutgoingRequest,
    opts: &ClientOptions,
    probe: Option<&ConnectProbe>,
) -> Result<Response, ClientError> {
    let method =
        reqwest::Method::from_bytes(req.method.as_bytes()).map_err(|_| ClientError::Other {
            detail: format!("the method \"{}\" is not a valid HTTP method", req.method),
        })?;
    let url = reqwest::Url::parse(&req.url).map_err(|e| ClientError::Other {
        detail: format!("the URL {} is not valid: {e}", req.url),
    })?;
    let host = host_of(&url);
    if req.body.len() >= EARLY_ANSWER_MIN_BODY {
        return send_early(method, url, &host, req, opts, probe).await;
    }
    let mut builder = client.request(method, url);
    for (name, value) in &req.headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    let request = builder
        .body(req.body.clone())
        .build()
        .map_err(|e| ClientError::Other {
            detail: format!("the request could not be assembled: {}", chain_text(&e)),
        })?;
    tracing::debug!(method = %req.method, url = %req.url, body_len = req.body.len(), "sending");
    // The signing headers hold the public API key, the timestamp and the signature: never the
    // REST key, which is not sent at all.
    tracing::trace!(headers = ?req.headers, "request headers");
    let started = Instant::now();
    let response = client.execute(request).await.map_err(|e| {
        let err = classify(&e, &host, opts);
        tracing::debug!(url = %req.url, error = %err, "send failed");
        err
    })?;
    let first_byte = started.elapsed();
    let status = response.status().as_u16();
    let headers = header_pairs(response.headers());
    let body = response.bytes().await.map_err(|e| {
        let err = classify(&e, &host, opts);
        tracing::debug!(url = %req.url, status, error = %err, "response body not read");
        err
    })?;
    let total = started.elapsed();
    tracing::debug!(
        url = %req.url,
        status,
        first_byte_ms = first_byte.as_secs_f64() * 1000.0,
        total_ms = total.as_secs_f64() * 1000.0,
        body_len = body.len(),
        "response received"
    );
    Ok(Response::received(status, headers, body, first_byte, total))
}

/// The request as hyper sends it for [`early::send`]: its own headers, then those of
/// [`added_headers`] it does not have but `host` and `content-length`, which hyper adds.
fn hyper_request(
    method: reqwest::Method,
    url: &reqwest::Url,
    req: &OutgoingRequest,
) -> Result<hyper::Request<http_body_util::Full<Bytes>>, ClientError> {
    let reqwest_adds = added_headers(url.as_str(), &req.headers, 0)
        .into_iter()
        .filter(|(n, _)| n != "host");
    let mut builder = hyper::Request::builder()
        .method(method.as_str())
        .uri(url.as_str());
    for (name, value) in req.headers.iter().cloned().chain(reqwest_adds) {
        builder = builder.header(name, value);
    }
    builder
        .body(http_body_util::Full::new(req.body.clone()))
        .map_err(|e| ClientError::Other {
            detail: format!("the request could not be assembled: {}", chain_text(&e)),
        })
}

/// A large body's send ([`early::send`]): the server's answer even when it came before the
/// server read the whole body, with a warning that the body was cut short.
async fn send_early(
    method: reqwest::Method,
    url: reqwest::Url,
    host: &str,
    req: &OutgoingRequest,
    opts: &ClientOptions,
    probe: Option<&ConnectProbe>,
) -> Result<Response, ClientError> {
    let request = hyper_request(method, &url, req)?;
    let sent = early::send(
        request,
        opts.connect_timeout,
        opts.total_timeout,
        probe.cloned(),
    )
    .await;
    let answer = sent.map_err(|f| match f {
        early::Failure::Setup(detail) => ClientError::Other { detail },
        early::Failure::Timeout => ClientError::Timeout {
            host: host.to_string(),
            seconds: opts.total_timeout.as_secs_f64(),
        },
        early::Failure::ClosedWhileSending(w) => ClientError::Other {
            detail: format!(
                "the server closed the connection while the body was being sent ({w}) and sent no answer; it may refuse bodies this large"
            ),
        },
        early::Failure::Http(e, is_connect) => {
            let kinds = io_kinds(&*e);
            let timed_out = is_connect && kinds.contains(&std::io::ErrorKind::TimedOut);
            classify_parts(&chain_text(&*e), &kinds, timed_out, is_connect, host, opts)
        }
    })?;
    tracing::debug!(url = %req.url, status = answer.status, cut_short = answer.cut_short.is_some(), "response received");
    let headers = header_pairs(&answer.headers);
    let mut resp = Response::received(
        answer.status,
        headers,
        answer.body,
        answer.first_byte,
        answer.total,
    );
    resp.body_cut_short = answer.cut_short.map(|w| {
        format!(
            "the server answered before it had read the whole body and closed the connection ({w}): not all of the {} body bytes reached it",
            req.body.len()
        )
    });
    Ok(resp)
}

/// A header map's names and values as text (a value that is not UTF-8, lossily).
fn header_pairs(map: &reqwest::header::HeaderMap) -> Vec<(String, String)> {
    map.iter()
        .map(|(n, v)| {
            (
                n.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect()
}

/// A warning when an HTTP `Date` header is more than 60 s away from `local`.
pub fn clock_skew_warning(date_header: &str, local: DateTime<Utc>) -> Option<String> {
    let server = DateTime::parse_from_rfc2822(date_header.trim())
        .ok()?
        .with_timezone(&Utc);
    let skew = (server - local).num_seconds();
    if skew.abs() <= CLOCK_SKEW_WARNING_SECONDS {
        return None;
    }
    let direction = if skew > 0 { "ahead of" } else { "behind" };
    Some(format!(
        "the server's clock is {} s {direction} this computer's (server Date: {}); signed timestamps may be rejected, check the local clock",
        skew.abs(),
        date_header.trim()
    ))
}

fn host_of(url: &reqwest::Url) -> String {
    match (url.host_str(), url.port()) {
        (Some(h), Some(p)) => format!("{h}:{p}"),
        (Some(h), None) => h.to_string(),
        _ => url.to_string(),
    }
}

/// Every message in an error's source chain, joined by ": ".
fn chain_text(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = vec![e.to_string()];
    let mut cur = e.source();
    while let Some(s) = cur {
        let t = s.to_string();
        if !parts.iter().any(|p| p.contains(&t)) {
            parts.push(t);
        }
        cur = s.source();
    }
    parts.join(": ")
}

/// The kinds of the I/O errors in an error's source chain.
fn io_kinds(e: &(dyn std::error::Error + 'static)) -> Vec<std::io::ErrorKind> {
    let mut kinds = Vec::new();
    let mut cur = Some(e);
    while let Some(s) = cur {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            kinds.push(io.kind());
        }
        cur = s.source();
    }
    kinds
}

fn classify(e: &reqwest::Error, host: &str, opts: &ClientOptions) -> ClientError {
    classify_parts(
        &chain_text(e),
        &io_kinds(e),
        e.is_timeout(),
        e.is_connect(),
        host,
        opts,
    )
}

/// The classification, separated from reqwest's error type so it can be unit tested.
fn classify_parts(
    chain: &str,
    io_kinds: &[std::io::ErrorKind],
    is_timeout: bool,
    is_connect: bool,
    host: &str,
    opts: &ClientOptions,
) -> ClientError {
    let host = host.to_string();
    let lower = chain.to_ascii_lowercase();
    if is_timeout {
        return if is_connect {
            ClientError::ConnectTimeout {
                host,
                seconds: opts.connect_timeout.as_secs_f64(),
            }
        } else {
            ClientError::Timeout {
                host,
                seconds: opts.total_timeout.as_secs_f64(),
            }
        };
    }
    if io_kinds.contains(&std::io::ErrorKind::ConnectionRefused)
        || lower.contains("connection refused")
    {
        return ClientError::Refused { host };
    }
    if lower.contains("dns error") || lower.contains("failed to lookup address") {
        return ClientError::Dns { host };
    }
    let tls_markers = [
        "tls",
        "certificate",
        "handshake",
        "corrupt message",
        "invalid peer",
    ];
    if tls_markers.iter().any(|m| lower.contains(m)) {
        // The last part of the chain is the most specific.
        let detail = chain.rsplit(": ").next().unwrap_or(chain).to_string();
        return ClientError::Tls { host, detail };
    }
    if is_connect {
        let detail = chain.rsplit(": ").next().unwrap_or(chain).to_string();
        return ClientError::Connect { host, detail };
    }
    ClientError::Other {
        detail: chain.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap()
    }

    #[test]
    fn clock_skew() {
        assert_eq!(
            clock_skew_warning("Sun, 22 Nov 2026 10:01:00 GMT", now()),
            None
        );
        let w = clock_skew_warning("Sun, 22 Nov 2026 10:01:01 GMT", now()).unwrap();
        assert!(w.contains("61 s ahead"), "{w}");
        let w = clock_skew_warning("Sun, 22 Nov 2026 09:50:00 GMT", now()).unwrap();
        assert!(w.contains("600 s behind"), "{w}");
        assert_eq!(clock_skew_warning("garbage", now()), None);
    }

    #[test]
    fn classification() {
        let o = ClientOptions::default();
        let dns = classify_parts(
            "error sending request: client error (Connect): dns error: failed to lookup address information",
            &[],
            false,
            true,
            "nohost.invalid",
            &o,
        );
        assert!(matches!(dns, ClientError::Dns { .. }), "{dns}");
        let tls = classify_parts(
            "error sending request: client error (Connect): invalid peer certificate: UnknownIssuer",
            &[],
            false,
            true,
            "h",
            &o,
        );
        assert_eq!(
            tls.to_string(),
            "the TLS handshake with h failed: UnknownIssuer"
        );
        let ct = classify_parts("x", &[], true, true, "h", &o);
        assert!(matches!(ct, ClientError::ConnectTimeout { .. }));
        let refused = classify_parts(
            "x",
            &[std::io::ErrorKind::ConnectionRefused],
            false,
            true,
            "h",
            &o,
        );
        assert!(matches!(refused, ClientError::Refused { .. }));
    }
}
