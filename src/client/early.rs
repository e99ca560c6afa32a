//! Sending a large body so that a server's early answer is never lost.
//!
//! A server that refuses a body (413 for a body over its limit) may answer before it has read
//! the whole body and close the connection; the client's next write then fails ("Broken
//! pipe", "Connection reset") while the answer waits, unread, in the socket. reqwest (hyper's
//! client under it) reports the write failure and drops the answer. Here the connection keeps
//! reading after its writes fail: a write the peer has closed is counted as done (the bytes go
//! nowhere), hyper goes on to read the answer, and the answer says that the body was cut
//! short. A connection closed with no answer is the write failure, in one sentence.
//!
//! Used for bodies of [`EARLY_ANSWER_MIN_BODY`] bytes or more (a smaller body fits in the
//! socket's buffers before the server reads it, so its write cannot fail that way). It sends
//! the same headers reqwest would (`accept`, `user-agent`, `host`, `content-length`: the ones
//! `client::added_headers` lists).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::rt::{Read, ReadBufCursor, Write};
use hyper::Uri;
use hyper_util::client::legacy::connect::{Connected, Connection, HttpConnector};

/// The connect-time slot of the client's connect probe.
pub(super) type ConnectSlot = Arc<Mutex<Option<Duration>>>;

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
    probe: Option<ConnectSlot>,
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
                *p.lock().unwrap_or_else(|e| e.into_inner()) = Some(started.elapsed());
            }
            Ok(KeepReading { inner, failed })
        })
    }
}

/// The executor of a one-send client: hyper runs the connection (the writes of the body, the
/// reads of the answer) as a task of its own, which would go on writing a large body after the
/// send was cancelled or timed out. Its tasks are owned by the send: [`OwnedTasks::abort_on_drop`]
/// ends them, closing the connection, when the send ends in any way.
#[derive(Clone, Default)]
struct OwnedTasks(Arc<Mutex<Vec<tokio::task::AbortHandle>>>);

impl<F> hyper::rt::Executor<F> for OwnedTasks
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    fn execute(&self, fut: F) {
        let task = tokio::spawn(fut);
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(task.abort_handle());
    }
}

impl OwnedTasks {
    /// A guard that aborts every task spawned so far when it is dropped.
    fn abort_on_drop(&self) -> AbortOnDrop {
        AbortOnDrop(self.clone())
    }
}

struct AbortOnDrop(OwnedTasks);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        for task in self
            .0
             .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
        {
            task.abort();
        }
    }
}

/// The TLS set-up: the roots reqwest's own client trusts (webpki's).
fn tls_config() -> Result<rustls::ClientConfig, Failure> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    Ok(rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| Failure::Setup(format!("the TLS client could not be set up: {e}")))?
    .with_root_certificates(roots)
    .with_no_client_auth())
}

/// A one-connection client for one send, whose connection keeps reading after its writes fail.
fn one_send_client(
    connect_timeout: Duration,
    failed: &WriteFailure,
    probe: Option<ConnectSlot>,
    tasks: &OwnedTasks,
) -> Result<
    hyper_util::client::legacy::Client<
        hyper_rustls::HttpsConnector<KeepReadingConnector>,
        Full<bytes::Bytes>,
    >,
    Failure,
> {
    let mut tcp = HttpConnector::new();
    tcp.enforce_http(false);
    tcp.set_connect_timeout(Some(connect_timeout));
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(tls_config()?)
        .https_or_http()
        .enable_http1()
        .wrap_connector(KeepReadingConnector {
            tcp,
            failed: failed.clone(),
            probe,
        });
    Ok(hyper_util::client::legacy::Client::builder(tasks.clone())
        .pool_max_idle_per_host(0)
        .build(connector))
}

/// What [`send`] read: the answer, and when the server closed the connection before it had
/// read the whole body, the write failure's text.
pub(super) struct Answer {
    pub status: u16,
    pub headers: hyper::HeaderMap,
    pub body: bytes::Bytes,
    pub first_byte: Duration,
    pub total: Duration,
    pub cut_short: Option<String>,
}

/// Why [`send`] read no answer.
pub(super) enum Failure {
    /// The client could not be set up.
    Setup(String),
    /// No whole answer within the total timeout.
    Timeout,
    /// The server closed the connection while the body was being sent, with no answer: the
    /// write failure's text.
    ClosedWhileSending(String),
    /// hyper's error; whether it was opening the connection.
    Http(Box<dyn std::error::Error + Send + Sync>, bool),
}

/// Send `request` and read the whole answer within `total_timeout`, even one the server sent
/// before it read the whole body. `probe`, when given, gets the time the connection took.
pub(super) async fn send(
    request: hyper::Request<Full<bytes::Bytes>>,
    connect_timeout: Duration,
    total_timeout: Duration,
    probe: Option<ConnectSlot>,
) -> Result<Answer, Failure> {
    let failed = WriteFailure::default();
    let tasks = OwnedTasks::default();
    // The connection ends with the send: a cancelled send (its task aborted) or a timeout stops
    // writing the body and closes the socket, as a small body's send does.
    let _connection = tasks.abort_on_drop();
    let client = one_send_client(connect_timeout, &failed, probe, &tasks)?;
    let started = Instant::now();
    let deadline = tokio::time::Instant::now() + total_timeout;
    let no_answer =
        |e: Box<dyn std::error::Error + Send + Sync>, is_connect: bool| match failed.get() {
            Some(w) => Failure::ClosedWhileSending(w),
            None => Failure::Http(e, is_connect),
        };
    let response = match tokio::time::timeout_at(deadline, client.request(request)).await {
        Err(_) => return Err(Failure::Timeout),
        Ok(Err(e)) => {
            let is_connect = e.is_connect();
            return Err(no_answer(Box::new(e), is_connect));
        }
        Ok(Ok(r)) => r,
    };
    let first_byte = started.elapsed();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = match tokio::time::timeout_at(deadline, response.into_body().collect()).await {
        Err(_) => return Err(Failure::Timeout),
        Ok(Err(e)) => return Err(no_answer(Box::new(e), false)),
        Ok(Ok(b)) => b.to_bytes(),
    };
    Ok(Answer {
        status,
        headers,
        body,
        first_byte,
        total: started.elapsed(),
        cut_short: failed.get(),
    })
}
