//! Sending a large body so that a server's early answer is never lost.
//!
//! A server that refuses a body (413 for a body over its limit) may answer before it has read
//! the whole body and close the connection; the client's next write then fails ("Broken
//! pipe", "Connection reset") while the answer waits, unread, in the socket. reqwest (hyper's
//! client under it) reports the write failure and drops the answer. Here the connection keeps
//! reading after its writes fail: a write the peer has closed is counted as done (the bytes go
//! nowhere), hyper goes on to read the answer, and the [`Response`] says that the body was cut
//! short. A connection closed with no answer is the write failure, in one sentence.
//!
//! Used for bodies of [`EARLY_ANSWER_MIN_BODY`] bytes or more (a smaller body fits in the
//! socket's buffers before the server reads it, so its write cannot fail that way). It sends
//! the same headers reqwest would (`accept`, `user-agent`, `host`, `content-length`: the ones
//! [`super::added_headers`] lists).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Instant;

use http_body_util::{BodyExt, Full};
use hyper::rt::{Read, ReadBufCursor, Write};
use hyper::Uri;
use hyper_util::client::legacy::connect::{Connected, Connection, HttpConnector};
use hyper_util::rt::TokioExecutor;

use super::{
    chain_text, classify_parts, header_pairs, io_kinds, ClientError, ClientOptions, ConnectProbe,
    OutgoingRequest, Response, USER_AGENT,
};

/// Bodies at least this long are sent by [`send`].
pub const EARLY_ANSWER_MIN_BODY: usize = 256 * 1024;

/// The first write failure of a connection, as text (shared by the connection and the send).
#[derive(Clone, Debug, Default)]
struct WriteFailure(Arc<Mutex<Option<String>>>);

impl WriteFailure {
    fn get(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
    fn is_set(&self) -> bool {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).is_some()
    }
    fn set(&self, e: &io::Error) {
        let mut slot = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(e.to_string());
        }
    }
}

/// Whether a write failed because the peer closed the connection.
fn closed_by_peer(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::BrokenPipe
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionAborted
    )
}

/// A connection whose writes, once the peer has closed it, are counted as done so that its
/// answer is still read.
struct KeepReading<T> {
    inner: T,
    failed: WriteFailure,
}

impl<T> KeepReading<T> {
    /// A write's outcome: a peer's close is remembered and counted as `done`.
    fn absorb<O>(&self, out: Poll<io::Result<O>>, done: O) -> Poll<io::Result<O>> {
        match out {
            Poll::Ready(Err(e)) if closed_by_peer(&e) => {
                self.failed.set(&e);
                Poll::Ready(Ok(done))
            }
            other => other,
        }
    }
}

impl<T: Read + Unpin> Read for KeepReading<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: Write + Unpin> Write for KeepReading<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.failed.is_set() {
            return Poll::Ready(Ok(buf.len()));
        }
        let out = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.absorb(out, buf.len())
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let all = bufs.iter().map(|b| b.len()).sum();
        if this.failed.is_set() {
            return Poll::Ready(Ok(all));
        }
        let out = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.absorb(out, all)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.failed.is_set() {
            return Poll::Ready(Ok(()));
        }
        let out = Pin::new(&mut this.inner).poll_flush(cx);
        this.absorb(out, ())
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.failed.is_set() {
            return Poll::Ready(Ok(()));
        }
        let out = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.absorb(out, ())
    }
}

impl<T: Connection> Connection for KeepReading<T> {
    fn connected(&self) -> Connected {
        self.inner.connected()
    }
}

/// hyper's TCP connector, its connections wrapped in [`KeepReading`] and timed for the probe.
#[derive(Clone)]
struct KeepReadingConnector {
    tcp: HttpConnector,
    failed: WriteFailure,
    probe: Option<ConnectProbe>,
}

type Tcp = <HttpConnector as tower::Service<Uri>>::Response;
type ConnectFuture<T, E> = Pin<Box<dyn Future<Output = Result<T, E>> + Send>>;

impl tower::Service<Uri> for KeepReadingConnector {
    type Response = KeepReading<Tcp>;
    type Error = <HttpConnector as tower::Service<Uri>>::Error;
    type Future = ConnectFuture<Self::Response, Self::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.tcp.poll_ready(cx)
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        let started = Instant::now();
        let fut = self.tcp.call(uri);
        let (failed, probe) = (self.failed.clone(), self.probe.clone());
        Box::pin(async move {
            let inner = fut.await?;
            if let Some(p) = probe {
                *p.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(started.elapsed());
            }
            Ok(KeepReading { inner, failed })
        })
    }
}

/// The TLS set-up: the roots reqwest's own client trusts (webpki's).
fn tls_config() -> Result<rustls::ClientConfig, ClientError> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    Ok(rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| ClientError::Other {
        detail: format!("the TLS client could not be set up: {e}"),
    })?
    .with_root_certificates(roots)
    .with_no_client_auth())
}

/// A one-connection client for one send, whose connection keeps reading after its writes fail.
fn one_send_client(
    opts: &ClientOptions,
    failed: &WriteFailure,
    probe: Option<&ConnectProbe>,
) -> Result<
    hyper_util::client::legacy::Client<
        hyper_rustls::HttpsConnector<KeepReadingConnector>,
        Full<bytes::Bytes>,
    >,
    ClientError,
> {
    let mut tcp = HttpConnector::new();
    tcp.enforce_http(false);
    tcp.set_connect_timeout(Some(opts.connect_timeout));
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(tls_config()?)
        .https_or_http()
        .enable_http1()
        .wrap_connector(KeepReadingConnector {
            tcp,
            failed: failed.clone(),
            probe: probe.cloned(),
        });
    Ok(
        hyper_util::client::legacy::Client::builder(TokioExecutor::new())
            .pool_max_idle_per_host(0)
            .build(connector),
    )
}

/// The request as hyper sends it: its own headers, then `accept` and `user-agent` unless it
/// has them (reqwest's defaults); hyper adds `host` and `content-length`.
fn hyper_request(
    method: reqwest::Method,
    url: &reqwest::Url,
    req: &OutgoingRequest,
) -> Result<hyper::Request<Full<bytes::Bytes>>, ClientError> {
    let has = |name: &str| {
        req.headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    };
    let mut builder = hyper::Request::builder()
        .method(method.as_str())
        .uri(url.as_str());
    for (name, value) in &req.headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    if !has("accept") {
        builder = builder.header("accept", "*/*");
    }
    if !has("user-agent") {
        builder = builder.header("user-agent", USER_AGENT);
    }
    builder
        .body(Full::new(req.body.clone()))
        .map_err(|e| ClientError::Other {
            detail: format!("the request could not be assembled: {}", chain_text(&e)),
        })
}

/// Send `req` (its method and URL parsed already) and read the whole answer, even one the
/// server sent before it read the whole body. `probe`, when given, times the connection.
pub(super) async fn send(
    method: reqwest::Method,
    url: reqwest::Url,
    host: &str,
    req: &OutgoingRequest,
    opts: &ClientOptions,
    probe: Option<&ConnectProbe>,
) -> Result<Response, ClientError> {
    let failed = WriteFailure::default();
    let client = one_send_client(opts, &failed, probe)?;
    let request = hyper_request(method, &url, req)?;
    let started = Instant::now();
    let deadline = tokio::time::Instant::now() + opts.total_timeout;
    let timeout = || ClientError::Timeout {
        host: host.to_string(),
        seconds: opts.total_timeout.as_secs_f64(),
    };
    let no_answer = |e: &(dyn std::error::Error + 'static), is_connect: bool| {
        match failed.get() {
        Some(w) => ClientError::Other {
            detail: format!(
                "the server closed the connection while the body was being sent ({w}) and sent no answer; it may refuse bodies this large"
            ),
        },
        None => {
            let kinds = io_kinds(e);
            let timed_out = is_connect && kinds.contains(&io::ErrorKind::TimedOut);
            classify_parts(&chain_text(e), &kinds, timed_out, is_connect, host, opts)
        }
    }
    };
    let response = match tokio::time::timeout_at(deadline, client.request(request)).await {
        Err(_) => return Err(timeout()),
        Ok(Err(e)) => return Err(no_answer(&e, e.is_connect())),
        Ok(Ok(r)) => r,
    };
    let first_byte = started.elapsed();
    let status = response.status().as_u16();
    let headers = header_pairs(response.headers());
    let body = match tokio::time::timeout_at(deadline, response.into_body().collect()).await {
        Err(_) => return Err(timeout()),
        Ok(Err(e)) => return Err(no_answer(&e, false)),
        Ok(Ok(b)) => b.to_bytes(),
    };
    let total = started.elapsed();
    tracing::debug!(url = %req.url, status, body_len = body.len(), cut_short = failed.is_set(), "response received");
    let mut answer = Response::received(status, headers, body, first_byte, total);
    answer.body_cut_short = failed.get().map(|w| {
        format!(
            "the server answered before it had read the whole body and closed the connection ({w}): not all of the {} body bytes reached it",
            req.body.len()
        )
    });
    Ok(answer)
}
