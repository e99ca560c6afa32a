//! HTTP connections that both the client (`client::early`, a large body's send) and the
//! server's forwarding proxy (`server::forward`) open: a connection that keeps reading after
//! its writes fail, so that a server's early answer is never lost, and the TLS set-up both use.
//!
//! A server that refuses a body (413 for a body over its limit) may answer before it has read
//! the whole body and close the connection; the next write then fails ("Broken pipe",
//! "Connection reset") while the answer waits, unread, in the socket. hyper's client reports
//! the write failure and drops the answer. [`KeepReading`] counts a write the peer has closed as
//! done (the bytes go nowhere), so hyper goes on to read the answer; the failure's text is kept
//! ([`WriteFailure`]) for whoever wants to say that the body was cut short.
//!
//! A layer of its own beside `core` (`docs/architecture.md`): it imports nothing of the crate.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use hyper::rt::{Read, ReadBufCursor, Write};
use hyper::Uri;
use hyper_util::client::legacy::connect::{Connected, Connection, HttpConnector};

/// The first write failure of a connection, as text.
#[derive(Clone, Debug, Default)]
pub struct WriteFailure(Arc<Mutex<Option<String>>>);

impl WriteFailure {
    /// The failure's text, once a write failed because the peer closed the connection.
    pub fn get(&self) -> Option<String> {
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
pub struct KeepReading<T> {
    inner: T,
    failed: WriteFailure,
}

impl<T: Unpin> KeepReading<T> {
    /// A write (or flush, or shutdown) of the inner connection: once the peer has closed it,
    /// `done` at once; otherwise its outcome, with a peer's close remembered and counted as
    /// `done`.
    fn write_op<O>(
        self: Pin<&mut Self>,
        done: O,
        op: impl FnOnce(Pin<&mut T>) -> Poll<io::Result<O>>,
    ) -> Poll<io::Result<O>> {
        let this = self.get_mut();
        if this.failed.is_set() {
            return Poll::Ready(Ok(done));
        }
        match op(Pin::new(&mut this.inner)) {
            Poll::Ready(Err(e)) if closed_by_peer(&e) => {
                this.failed.set(&e);
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
        self.write_op(buf.len(), |w| w.poll_write(cx, buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let all = bufs.iter().map(|b| b.len()).sum();
        self.write_op(all, |w| w.poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.write_op((), |w| w.poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.write_op((), |w| w.poll_shutdown(cx))
    }
}

impl<T: Connection> Connection for KeepReading<T> {
    fn connected(&self) -> Connected {
        self.inner.connected()
    }
}

/// hyper's TCP connector, its connections wrapped in [`KeepReading`].
#[derive(Clone)]
pub struct KeepReadingConnector {
    tcp: HttpConnector,
    /// The failure every connection shares (a client of one connection reads it after its
    /// send); `None`: each connection has its own (a pool of them).
    shared: Option<WriteFailure>,
}

impl KeepReadingConnector {
    /// Connections made with `tcp`, each with its own failure.
    pub fn new(tcp: HttpConnector) -> Self {
        KeepReadingConnector { tcp, shared: None }
    }

    /// The same, every connection reporting to `failed`.
    pub fn reporting(mut self, failed: &WriteFailure) -> Self {
        self.shared = Some(failed.clone());
        self
    }
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
        let fut = self.tcp.call(uri);
        let failed = self.shared.clone().unwrap_or_default();
        Box::pin(async move {
            Ok(KeepReading {
                inner: fut.await?,
                failed,
            })
        })
    }
}

/// Measures how long opening a connection (TCP, plus TLS for https) takes, for the connector
/// it wraps (`client::build_client_probed`'s, `client::early`'s). A pooled connection that is
/// reused takes no connect time, so the probe stays empty for that send. One probe per client:
/// with concurrent sends on one client the figure may belong to another send, so the CLI uses
/// one client per send.
#[derive(Clone, Debug, Default)]
pub struct ConnectProbe(Arc<Mutex<Option<Duration>>>);

impl ConnectProbe {
    pub fn reset(&self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
    pub fn take(&self) -> Option<Duration> {
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
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
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

/// The TLS client set-up both sides use: the roots reqwest's own client trusts (webpki's),
/// ring's provider; `Err` is the reason it could not be made.
pub fn tls_config() -> Result<rustls::ClientConfig, String> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    Ok(rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| e.to_string())?
    .with_root_certificates(roots)
    .with_no_client_auth())
}
