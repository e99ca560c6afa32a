//! The HTTP client (reqwest with rustls): sends signed indexing requests and event batches.
//!
//! The life of a send: the caller (the engine) builds an [`OutgoingRequest`] with
//! [`build_signed`] from a [`RequestSpec`] and the timestamp it reads just before sending; the body is a [`Bytes`] that is signed in place and then
//! handed to reqwest by reference count, so the bytes signed are the bytes sent, never copied.
//! [`build_signed`] also refuses a path or query that the URL parser would re-encode, because the
//! server would then see (and check) different bytes than the ones signed.
//!
//! Errors are one sentence each ([`ClientError`]); nothing here panics on bad input.

use std::time::{Duration, Instant};

use bytes::Bytes;
use chrono::{DateTime, Utc};

use crate::core::sign::SignedHeaders;
use crate::core::spec::RequestSpec;
use crate::core::{Secret, SignError, SignableRequest, SignedRequest, SigningForm};

/// Default connect timeout.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Default total timeout (connect + send + whole response).
pub const DEFAULT_TOTAL_TIMEOUT: Duration = Duration::from_secs(30);
/// Clock skew above which a response carries a warning.
pub const CLOCK_SKEW_WARNING_SECONDS: i64 = 60;
/// The collector path appended to the analytics URL.
pub const COLLECT_PATH: &str = "/analytics/collect";

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

/// A reqwest client with the given timeouts (rustls; no proxy from the environment, so a
/// request to a loopback server never goes elsewhere).
pub fn build_client(opts: &ClientOptions) -> Result<reqwest::Client, ClientError> {
    reqwest::Client::builder()
        .connect_timeout(opts.connect_timeout)
        .timeout(opts.total_timeout)
        .no_proxy()
        .user_agent(concat!("signscope/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| ClientError::Other {
            detail: format!("the HTTP client could not be set up: {}", chain_text(&e)),
        })
}

/// Measures how long opening a connection (TCP, plus TLS for https) takes, for clients built
/// with [`build_client_probed`]. A pooled connection that is reused takes no connect time, so
/// the probe stays empty for that send. One probe per client: with concurrent sends on one
/// client the figure may belong to another send, so the CLI uses one client per send.
#[derive(Clone, Debug, Default)]
pub struct ConnectProbe(std::sync::Arc<std::sync::Mutex<Option<Duration>>>);

impl ConnectProbe {
    fn reset(&self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
    fn take(&self) -> Option<Duration> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

impl<S> tower::Layer<S> for ConnectProbe {
    type Service = TimedConnect<S>;
    fn layer(&self, inner: S) -> Self::Service {
        TimedConnect {
            inner,
            probe: self.clone(),
        }
    }
}

/// The connector wrapped by a [`ConnectProbe`].
#[derive(Clone, Debug)]
pub struct TimedConnect<S> {
    inner: S,
    probe: ConnectProbe,
}

impl<S, R> tower::Service<R> for TimedConnect<S>
where
    S: tower::Service<R>,
    S::Future: Send + 'static,
    S::Response: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future =
        std::pin::Pin<Box<dyn std::future::Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: R) -> Self::Future {
        let started = Instant::now();
        let fut = self.inner.call(req);
        let probe = self.probe.clone();
        Box::pin(async move {
            let out = fut.await;
            if out.is_ok() {
                *probe.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(started.elapsed());
            }
            out
        })
    }
}

/// A client like [`build_client`] whose connection set-up time is measured by the probe.
pub fn build_client_probed(
    opts: &ClientOptions,
) -> Result<(reqwest::Client, ConnectProbe), ClientError> {
    let probe = ConnectProbe::default();
    let client = reqwest::Client::builder()
        .connect_timeout(opts.connect_timeout)
        .timeout(opts.total_timeout)
        .no_proxy()
        .user_agent(concat!("signscope/", env!("CARGO_PKG_VERSION")))
        .connector_layer(probe.clone())
        .build()
        .map_err(|e| ClientError::Other {
            detail: format!("the HTTP client could not be set up: {}", chain_text(&e)),
        })?;
    Ok((client, probe))
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
    let mut resp = send_with(client, req, opts).await?;
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

/// Why a request could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    #[error("the URL {url} is not valid: {reason}")]
    BadUrl { url: String, reason: String },
    #[error("the base URL {url} must be http:// or https://")]
    BadScheme { url: String },
    #[error("the base URL {url} contains a path ({path}); put the path in the path field instead")]
    PathInBaseUrl { url: String, path: String },
    #[error("the path must start with '/' (got \"{path}\")")]
    PathWithoutSlash { path: String },
    #[error("the {part} \"{given}\" would be sent as \"{sent}\" (the URL parser re-encodes it), so the signature would not match; percent-encode it yourself")]
    WouldBeReencoded {
        part: &'static str,
        given: String,
        sent: String,
    },
    #[error("the method \"{method}\" is not a valid HTTP method")]
    BadMethod { method: String },
    #[error("the value of header {name} cannot be sent: it contains characters HTTP headers do not allow")]
    BadHeaderValue { name: String },
    #[error("the header prefix \"{prefix}\" gives the header name {name}, which HTTP does not allow; use letters, digits, '-' or '_' (e.g. SVC or KLEVU)")]
    BadHeaderPrefix { prefix: String, name: String },
    #[error(transparent)]
    Sign(#[from] SignError),
}

/// The upper-cased method and the full URL of a request, or why it cannot be sent as signed: a
/// base URL that is not `http(s)://host[:port]`, a path without its leading `/`, a method HTTP
/// does not allow, or a path or query the URL would re-encode (the server would then see other
/// bytes than were signed).
fn check_target(
    base_url: &str,
    method: &str,
    path: &str,
    query: &str,
) -> Result<(String, String), BuildError> {
    let base = base_url.trim_end_matches('/');
    let parsed_base = reqwest::Url::parse(base).map_err(|e| BuildError::BadUrl {
        url: base_url.to_string(),
        reason: e.to_string(),
    })?;
    if !matches!(parsed_base.scheme(), "http" | "https") {
        return Err(BuildError::BadScheme {
            url: base_url.to_string(),
        });
    }
    if parsed_base.path() != "/" || parsed_base.query().is_some() {
        return Err(BuildError::PathInBaseUrl {
            url: base_url.to_string(),
            path: parsed_base.path().to_string(),
        });
    }
    if !path.starts_with('/') {
        return Err(BuildError::PathWithoutSlash {
            path: path.to_string(),
        });
    }
    let upper = method.to_ascii_uppercase();
    if reqwest::Method::from_bytes(upper.as_bytes()).is_err() {
        return Err(BuildError::BadMethod {
            method: method.to_string(),
        });
    }
    let url = crate::core::request_url(base, path, query);
    let parsed = reqwest::Url::parse(&url).map_err(|e| BuildError::BadUrl {
        url: url.clone(),
        reason: e.to_string(),
    })?;
    if parsed.path() != path {
        return Err(BuildError::WouldBeReencoded {
            part: "path",
            given: path.to_string(),
            sent: parsed.path().to_string(),
        });
    }
    if parsed.query().unwrap_or("") != query {
        return Err(BuildError::WouldBeReencoded {
            part: "query",
            given: query.to_string(),
            sent: parsed.query().unwrap_or("").to_string(),
        });
    }
    Ok((upper, url))
}

/// Whether the signed headers can go on the wire: a header prefix that makes an invalid header
/// name, or a value with a line break or other control character, cannot.
fn check_headers(prefix: &str, headers: &SignedHeaders) -> Result<(), BuildError> {
    for (name, value) in headers {
        if reqwest::header::HeaderName::from_bytes(name.as_bytes()).is_err() {
            return Err(BuildError::BadHeaderPrefix {
                prefix: prefix.to_string(),
                name: name.to_string(),
            });
        }
        if reqwest::header::HeaderValue::from_str(value).is_err() {
            return Err(BuildError::BadHeaderValue {
                name: name.to_string(),
            });
        }
    }
    Ok(())
}

/// The URL a signed request goes to, after the checks [`build_signed`] makes before sending
/// (for `sign --output curl|http`, which print a request instead of sending it).
pub fn check_sendable(
    base_url: &str,
    req: &SignableRequest<'_>,
    headers: &SignedHeaders,
) -> Result<String, BuildError> {
    let (_, url) = check_target(base_url, req.method, req.path, req.query)?;
    check_headers(req.header_prefix, headers)?;
    Ok(url)
}

/// Sign and assemble a request: the [`RequestSpec`] to `base_url`, signed with `key` and exactly
/// this `timestamp` (the caller reads the clock, once, just before sending). The body is shared
/// with the spec, not copied.
pub fn build_signed(
    base_url: &str,
    spec: &RequestSpec,
    timestamp: &str,
    key: &Secret,
) -> Result<OutgoingRequest, BuildError> {
    build_signed_in(base_url, spec, timestamp, key, SigningForm::Standard)
}

/// [`build_signed`] with the path and query lines written in `form` (`docs/signing.md`, "The
/// PHP SDK's form"): the request sent is the same, only the signature differs.
pub fn build_signed_in(
    base_url: &str,
    spec: &RequestSpec,
    timestamp: &str,
    key: &Secret,
    form: SigningForm,
) -> Result<OutgoingRequest, BuildError> {
    // A key typed into the URL by mistake must not reach the debug log either.
    crate::logging::redact_in_logs(key);
    // The URL is checked before the body is hashed: a request that cannot go is refused fast.
    check_target_of(base_url, spec)?;
    let signed = SignedRequest::sign(spec.clone(), timestamp.to_string(), form, key)?;
    outgoing(base_url, &signed, key)
}

/// The checks of the base URL, method, path and query that [`outgoing`] makes, before signing.
pub fn check_target_of(base_url: &str, spec: &RequestSpec) -> Result<(), BuildError> {
    check_target(base_url, &spec.method, &spec.path, &spec.query).map(|_| ())
}

/// The request to send for a request signed already: exactly its headers and body, to its URL.
/// Nothing is signed again; the checks of `docs/signing.md` rule S13 are made (the bytes on the
/// wire must be the bytes signed).
pub fn outgoing(
    base_url: &str,
    signed: &SignedRequest,
    key: &Secret,
) -> Result<OutgoingRequest, BuildError> {
    crate::logging::redact_in_logs(key);
    let spec = signed.spec();
    let (method, url) = check_target(base_url, &spec.method, &spec.path, &spec.query)?;
    // Lengths and names only here; `send_with` logs the header values (none holds the key).
    tracing::trace!(
        canonical_len = signed.canonical().len(),
        body_len = spec.body.len(),
        headers = ?signed.headers().iter().map(|(n, _)| n).collect::<Vec<_>>(),
        "request signed"
    );
    check_headers(&spec.header_prefix, signed.headers())?;
    Ok(OutgoingRequest {
        method,
        url,
        headers: signed.headers().to_vec(),
        body: spec.body.clone(), // reference count, not a copy
    })
}

/// The collector URL for an analytics base URL.
pub fn collect_url(analytics_url: &str) -> String {
    format!("{}{COLLECT_PATH}", analytics_url.trim_end_matches('/'))
}

/// An event batch request (no signature: the collector takes none).
pub fn events_request(analytics_url: &str, body: Bytes) -> OutgoingRequest {
    OutgoingRequest {
        method: "POST".to_string(),
        url: collect_url(analytics_url),
        headers: vec![(
            "Content-Type".to_string(),
            crate::core::CONTENT_TYPE_JSON.to_string(),
        )],
        body,
    }
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
}

impl Response {
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The first header of that name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
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

/// Like [`send`]; `opts` is only used to word timeout errors (the client carries the timeouts).
pub async fn send_with(
    client: &reqwest::Client,
    req: &OutgoingRequest,
    opts: &ClientOptions,
) -> Result<Response, ClientError> {
    let method =
        reqwest::Method::from_bytes(req.method.as_bytes()).map_err(|_| ClientError::Other {
            detail: format!("the method \"{}\" is not a valid HTTP method", req.method),
        })?;
    let url = reqwest::Url::parse(&req.url).map_err(|e| ClientError::Other {
        detail: format!("the URL {} is not valid: {e}", req.url),
    })?;
    let host = host_of(&url);
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
    let headers: Vec<(String, String)> = response
        .headers()
        .iter()
        .map(|(n, v)| {
            (
                n.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
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
    let clock_skew_warning = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("date"))
        .and_then(|(_, v)| clock_skew_warning(v, Utc::now()));
    Ok(Response {
        status,
        headers,
        body,
        timings: Timings {
            connect: None,
            first_byte,
            total,
        },
        clock_skew_warning,
    })
}

/// Send an event batch to `{analytics_url}/analytics/collect` as `application/json`.
pub async fn send_events(
    client: &reqwest::Client,
    analytics_url: &str,
    body: Bytes,
) -> Result<Response, ClientError> {
    send(client, &events_request(analytics_url, body)).await
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

fn classify(e: &reqwest::Error, host: &str, opts: &ClientOptions) -> ClientError {
    let mut io_kinds = Vec::new();
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = cur {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            io_kinds.push(io.kind());
        }
        cur = s.source();
    }
    classify_parts(
        &chain_text(e),
        &io_kinds,
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

    const BASE: &str = "http://127.0.0.1:9/";
    const TS: &str = "2026-11-22T10:00:00.000Z";

    fn parts(body: &'static [u8]) -> RequestSpec {
        RequestSpec {
            method: "put".into(),
            query: "test=1".into(),
            api_key: "pub".into(),
            body: Bytes::from_static(body),
            ..RequestSpec::default()
        }
    }

    fn build(base: &str, p: &RequestSpec, key: &str) -> Result<OutgoingRequest, BuildError> {
        build_signed(base, p, TS, &Secret::new(key))
    }

    #[test]
    fn built_request_sends_the_signed_bytes_without_copying() {
        let p = parts(b"[{\"id\":1}]");
        let out = build(BASE, &p, "k").unwrap();
        assert_eq!(out.url, "http://127.0.0.1:9/v2/batch?test=1");
        assert_eq!(out.method, "PUT");
        assert_eq!(
            out.body.as_ptr(),
            p.body.as_ptr(),
            "body shares the same buffer"
        );
        assert_eq!(
            out.headers[0],
            ("X-SVC-TIMESTAMP".into(), "2026-11-22T10:00:00.000Z".into())
        );
        let req = SignableRequest {
            method: "PUT",
            path: "/v2/batch",
            query: "test=1",
            header_prefix: "SVC",
            timestamp: "2026-11-22T10:00:00.000Z",
            api_key: "pub",
            auth_algo: "HmacSHA384",
            content_type: "application/json",
            body: b"[{\"id\":1}]",
        };
        let expected = crate::core::sign(&req, &Secret::new("k")).unwrap();
        assert_eq!(out.headers, expected.headers.to_vec());
    }

    #[test]
    fn reencoding_and_bad_urls_are_refused() {
        let mut p = parts(b"[]");
        p.query = "q=a b".into();
        let e = build(BASE, &p, "k").unwrap_err();
        assert!(
            matches!(e, BuildError::WouldBeReencoded { part: "query", .. }),
            "{e}"
        );
        let mut p = parts(b"[]");
        p.path = "/v2/bätch".into();
        assert!(matches!(
            build(BASE, &p, "k"),
            Err(BuildError::WouldBeReencoded { part: "path", .. })
        ));
        let p = parts(b"[]");
        assert!(matches!(
            build("http://127.0.0.1:9/api", &p, "k"),
            Err(BuildError::PathInBaseUrl { .. })
        ));
        assert!(matches!(
            build("ftp://127.0.0.1", &p, "k"),
            Err(BuildError::BadScheme { .. })
        ));
        assert!(matches!(
            build("not a url", &p, "k"),
            Err(BuildError::BadUrl { .. })
        ));
        let mut p = parts(b"[]");
        p.path = "v2/batch".into();
        assert!(matches!(
            build(BASE, &p, "k"),
            Err(BuildError::PathWithoutSlash { .. })
        ));
        assert_eq!(
            build(BASE, &parts(b"[]"), ""),
            Err(BuildError::Sign(SignError::EmptyKey))
        );
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
