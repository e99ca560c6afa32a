//! Sending a large body so that a server's early answer is never lost.
//!
//! reqwest drops a server's early answer when a write of the body fails (`net` says how): here
//! the send goes on a connection that keeps reading after its writes fail (`net::KeepReading`,
//! which the forwarding proxy uses too), and the answer says that the body was cut short. A
//! connection closed with no answer is the write failure, in one sentence.
//!
//! Used for bodies of [`EARLY_ANSWER_MIN_BODY`] bytes or more (a smaller body fits in the
//! socket's buffers before the server reads it, so its write cannot fail that way). It sends
//! the same headers reqwest would (`accept`, `user-agent`, `host`, `content-length`: the ones
//! `client::added_headers` lists).

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::connect::HttpConnector;
use tower::Layer;

use crate::net::{tls_config, ConnectProbe, KeepReadingConnector, TimedConnect, WriteFailure};

/// Bodies at least this long are sent by [`send`].
pub const EARLY_ANSWER_MIN_BODY: usize = 256 * 1024;

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

/// A one-connection client for one send, whose connection keeps reading after its writes fail.
fn one_send_client(
    connect_timeout: Duration,
    failed: &WriteFailure,
    probe: Option<ConnectProbe>,
    tasks: &OwnedTasks,
) -> Result<
    hyper_util::client::legacy::Client<
        hyper_rustls::HttpsConnector<TimedConnect<KeepReadingConnector>>,
        Full<bytes::Bytes>,
    >,
    Failure,
> {
    let mut tcp = HttpConnector::new();
    tcp.enforce_http(false);
    tcp.set_connect_timeout(Some(connect_timeout));
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(
            tls_config()
                .map_err(|e| Failure::Setup(format!("the TLS client could not be set up: {e}")))?,
        )
        .https_or_http()
        .enable_http1()
        .wrap_connector(
            probe
                .unwrap_or_default()
                .layer(KeepReadingConnector::new(tcp).reporting(failed)),
        );
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
    probe: Option<ConnectProbe>,
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
