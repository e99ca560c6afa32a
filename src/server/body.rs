//! Reading a request body within the server's bounds (see `docs/server.md`, "Limits"):
//!
//! - **size**: more than `max_body` bytes answers 413; a Content-Length over the limit is
//!   refused before a byte is read, and with `Expect: 100-continue` before "100 Continue" is
//!   sent (the client never sends its body);
//! - **time**: the whole body must arrive within `body_timeout`, and, after a grace period of
//!   `body_rate_grace`, at an average of at least `min_body_rate` bytes per second (408);
//! - **memory**: the bytes of all bodies being read or handled at once share one budget,
//!   `body_budget_bytes`, taken as the bytes arrive. A client that sends one byte and stalls
//!   holds one byte of it, not a slot: 200 such clients cannot make a well-behaved request wait.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderMap};
use bytes::Bytes;
use futures::StreamExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use super::error::ApiError;

/// At most this much of an oversized body is read and thrown away before the 413 is sent, so
/// that a client still writing its body reads the answer instead of a reset connection.
const DRAIN_MAX: u64 = 32 * 1024 * 1024;
/// And for at most this long.
const DRAIN_TIME: Duration = Duration::from_secs(5);

/// Read and discard what is left of a body (bounded by [`DRAIN_MAX`] and [`DRAIN_TIME`]).
async fn drain(mut stream: axum::body::BodyDataStream, mut seen: u64) {
    let _ = tokio::time::timeout(DRAIN_TIME, async {
        while let Some(Ok(chunk)) = stream.next().await {
            seen += chunk.len() as u64;
            if seen > DRAIN_MAX {
                break;
            }
        }
    })
    .await;
}

/// Why a body could not be read.
#[derive(Clone, Debug)]
pub enum BodyError {
    /// Larger than the limit (by its Content-Length, or while streaming).
    TooLarge,
    /// Did not arrive within the body timeout.
    Timeout,
    /// Arrived slower than the minimum rate (bytes per second) after the grace period.
    TooSlow(u64),
    /// The client went away (or sent a broken chunked encoding) before the end.
    Aborted(String),
}

impl BodyError {
    /// The answer for this failure (for `Aborted` it is recorded but usually reaches nobody).
    pub fn to_api_error(&self, limit: usize) -> ApiError {
        match self {
            BodyError::TooLarge => ApiError::payload_too_large(limit),
            BodyError::Timeout => ApiError::body_timeout(),
            BodyError::TooSlow(rate) => ApiError::new(
                408,
                "REQUEST_TIMEOUT",
                format!(
                    "The request body arrived slower than {rate} bytes per second; send it at once."
                ),
            ),
            BodyError::Aborted(why) => ApiError::new(
                400,
                "BODY_READ_ERROR",
                format!("The request body could not be read: {why}."),
            ),
        }
    }
}

/// The time bounds of one body read.
#[derive(Clone, Copy, Debug)]
pub struct BodyPace {
    /// The whole body must have arrived by then.
    pub timeout: Duration,
    /// Minimum average rate in bytes per second once `grace` has passed (0: no minimum).
    pub min_rate: u64,
    pub grace: Duration,
}

/// The bytes budget shared by every body being read or handled.
#[derive(Clone, Debug)]
pub struct BodyBudget {
    sem: Arc<Semaphore>,
    bytes: usize,
}

impl BodyBudget {
    /// A budget of `bytes` (at least one body of `max_body` always fits).
    pub fn new(bytes: usize, max_body: usize) -> Self {
        let bytes = bytes.max(max_body).clamp(1, Semaphore::MAX_PERMITS);
        BodyBudget {
            sem: Arc::new(Semaphore::new(bytes)),
            bytes,
        }
    }

    /// The budget's size in bytes.
    pub fn size(&self) -> usize {
        self.bytes
    }

    /// Bytes not taken at the moment.
    pub fn available(&self) -> usize {
        self.sem.available_permits()
    }
}

/// The part of the budget one request holds; given back when dropped (once answered).
#[derive(Debug, Default)]
pub struct BodyPermit(Option<OwnedSemaphorePermit>);

impl BodyPermit {
    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.0.as_ref().map_or(0, |p| p.num_permits())
    }

    pub(super) async fn take(&mut self, budget: &BodyBudget, n: usize) {
        if n == 0 {
            return;
        }
        // `n` is one chunk (at most the body limit, which fits the budget).
        let n = u32::try_from(n.min(budget.bytes)).unwrap_or(u32::MAX);
        let p = budget
            .sem
            .clone()
            .acquire_many_owned(n)
            .await
            .expect("the body budget is never closed");
        match &mut self.0 {
            Some(held) => held.merge(p),
            None => self.0 = Some(p),
        }
    }

    /// Take `n` more bytes of `budget`, waiting at most `stall` for them to come free; false
    /// when they did not (the readers of other answers stopped reading).
    pub(super) async fn take_within(
        &mut self,
        budget: &BodyBudget,
        n: usize,
        stall: Duration,
    ) -> bool {
        tokio::time::timeout(stall, self.take(budget, n))
            .await
            .is_ok()
    }

    /// Hold `other`'s bytes too.
    pub(super) fn merge(&mut self, other: BodyPermit) {
        match (&mut self.0, other.0) {
            (Some(held), Some(p)) => held.merge(p),
            (None, p) => self.0 = p,
            (Some(_), None) => {}
        }
    }

    /// Give back all but `n` of the bytes held (a chunk turned out smaller than reserved).
    pub(super) fn keep(&mut self, n: usize) {
        let held = self.bytes();
        if let (Some(p), true) = (self.0.as_mut(), held > n) {
            if n == 0 {
                self.0 = None;
            } else {
                drop(p.split(held - n));
            }
        }
    }
}

/// A chunk of an answer being written, holding its part of the answers' budget until hyper has
/// sent it and drops it (`docs/server.md` rule L5).
pub(super) struct Budgeted<T> {
    chunk: T,
    /// Held, not read: dropped with the chunk.
    _permit: BodyPermit,
}

impl<T: AsRef<[u8]>> AsRef<[u8]> for Budgeted<T> {
    fn as_ref(&self) -> &[u8] {
        self.chunk.as_ref()
    }
}

impl<T: AsRef<[u8]> + Send + 'static> Budgeted<T> {
    /// `chunk` as bytes that give `permit` back when hyper drops them.
    pub fn bytes(chunk: T, permit: BodyPermit) -> Bytes {
        Bytes::from_owner(Budgeted {
            chunk,
            _permit: permit,
        })
    }
}

/// Set on a request by the forward proxy when it could not read the body (too large, too slow,
/// cut off): the local handler answers and records this failure instead of reading the body
/// again (`docs/server.md`, rule W5).
#[derive(Clone, Debug)]
pub struct BodyFailed(pub BodyError);

impl super::config::ServerConfig {
    /// The time bounds of a body read on this server (`docs/server.md`, rule L2).
    pub fn body_pace(&self) -> BodyPace {
        BodyPace {
            timeout: self.body_timeout,
            min_rate: self.min_body_rate,
            grace: self.body_rate_grace,
        }
    }
}

/// Read the body within the server's bounds, taking its bytes from the shared budget as they
/// arrive. The permit is held until the caller has answered. A request whose body the forward
/// proxy already failed to read ([`BodyFailed`]) gets that failure.
pub async fn admit_body(
    st: &super::AppState,
    parts: &axum::http::request::Parts,
    body: Body,
) -> (BodyPermit, Result<Bytes, BodyError>) {
    let mut permit = BodyPermit::default();
    if let Some(BodyFailed(e)) = parts.extensions.get::<BodyFailed>() {
        return (permit, Err(e.clone()));
    }
    let read = read_body_within(
        &parts.headers,
        body,
        st.config.max_body,
        st.config.body_pace(),
        Some((&st.body_budget, &mut permit)),
    )
    .await;
    (permit, read)
}

fn expects_continue(headers: &HeaderMap) -> bool {
    headers
        .get(header::EXPECT)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"))
}

/// Read a body within `limit` and `pace`, its bytes taken from `budget` as they arrive (the
/// local handlers through [`admit_body`], the forward proxy directly).
pub async fn read_body_within(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
    pace: BodyPace,
    mut budget: Option<(&BodyBudget, &mut BodyPermit)>,
) -> Result<Bytes, BodyError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let Some(n) = declared {
        if n > limit as u64 {
            // A client waiting for "100 Continue" has sent no body: answer 413 now (polling
            // the body would make hyper send "100 Continue" first).
            if n <= DRAIN_MAX && !expects_continue(headers) {
                drain(body.into_data_stream(), 0).await;
            }
            return Err(BodyError::TooLarge);
        }
    }
    let start = Instant::now();
    let end = start + pace.timeout;
    // The time by which the body must hold more than `received` bytes.
    let due = |received: usize| -> (Instant, bool) {
        if pace.min_rate == 0 {
            return (end, false);
        }
        let secs = (received as f64 + 1.0) / pace.min_rate as f64;
        let by_rate = start + pace.grace + Duration::from_secs_f64(secs.min(1e9));
        if by_rate < end {
            (by_rate, true)
        } else {
            (end, false)
        }
    };
    // The buffer grows by doubling up to the declared length (never beyond the limit), and
    // every byte of its capacity is taken from the budget before it is allocated; a client that
    // declares 2 MB and sends one byte holds one byte.
    let grow_to = declared.map_or(limit, |n| (n as usize).min(limit));
    let mut stream = body.into_data_stream();
    let mut buf: Vec<u8> = Vec::new();
    loop {
        let (at, by_rate) = due(buf.len());
        let chunk = match tokio::time::timeout_at(at, stream.next()).await {
            Err(_) if by_rate => return Err(BodyError::TooSlow(pace.min_rate)),
            Err(_) => return Err(BodyError::Timeout),
            Ok(None) => break,
            Ok(Some(chunk)) => chunk.map_err(|e| BodyError::Aborted(e.to_string()))?,
        };
        let needed = buf.len() + chunk.len();
        if needed > limit {
            drop(buf);
            drain(stream, needed as u64).await;
            return Err(BodyError::TooLarge);
        }
        if needed > buf.capacity() {
            let new_cap = needed.max((buf.capacity() * 2).min(grow_to));
            if let Some((b, p)) = budget.as_mut() {
                let more = new_cap.saturating_sub(p.bytes());
                if tokio::time::timeout_at(end, p.take(b, more)).await.is_err() {
                    return Err(BodyError::Timeout);
                }
            }
            buf.reserve_exact(new_cap - buf.len());
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(Bytes::from(buf))
}

#[cfg(test)]
mod tests {
    use super::*;

    impl BodyPace {
        /// Only a total deadline.
        fn deadline(timeout: Duration) -> Self {
            BodyPace {
                timeout,
                min_rate: 0,
                grace: timeout,
            }
        }
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (n, v) in pairs {
            h.insert(*n, v.parse().unwrap());
        }
        h
    }

    #[tokio::test]
    async fn the_budget_is_taken_as_bytes_arrive_and_given_back_when_dropped() {
        let budget = BodyBudget::new(1000, 100);
        let mut permit = BodyPermit::default();
        let body = Body::from(vec![b'x'; 60]);
        let got = read_body_within(
            &HeaderMap::new(),
            body,
            100,
            BodyPace::deadline(Duration::from_secs(5)),
            Some((&budget, &mut permit)),
        )
        .await
        .unwrap();
        assert_eq!(got.len(), 60);
        assert_eq!(permit.bytes(), 60);
        assert_eq!(budget.available(), 940);
        drop(permit);
        assert_eq!(budget.available(), 1000);
    }

    #[tokio::test]
    async fn a_body_waits_for_budget_and_times_out_when_none_comes_back() {
        let budget = BodyBudget::new(100, 100);
        let held = budget.sem.clone().acquire_many_owned(100).await.unwrap();
        let mut permit = BodyPermit::default();
        let err = read_body_within(
            &headers(&[("content-length", "10")]),
            Body::from(vec![b'x'; 10]),
            100,
            BodyPace::deadline(Duration::from_millis(50)),
            Some((&budget, &mut permit)),
        )
        .await
        .unwrap_err();
        assert!(matches!(err, BodyError::Timeout), "{err:?}");
        drop(held);
        assert_eq!(budget.available(), 100);
    }

    #[tokio::test]
    async fn a_body_slower_than_the_minimum_rate_is_refused_before_the_deadline() {
        let (mut tx, rx) = futures::channel::mpsc::channel::<Result<Bytes, std::io::Error>>(4);
        tx.try_send(Ok(Bytes::from_static(b"["))).unwrap();
        let body = Body::from_stream(rx);
        let pace = BodyPace {
            timeout: Duration::from_secs(30),
            min_rate: 1000,
            grace: Duration::from_millis(100),
        };
        let t = Instant::now();
        let err = read_body_within(&HeaderMap::new(), body, 1000, pace, None)
            .await
            .unwrap_err();
        assert!(matches!(err, BodyError::TooSlow(1000)), "{err:?}");
        assert!(t.elapsed() < Duration::from_secs(30));
        assert_eq!(
            err.to_api_error(1000).message,
            "The request body arrived slower than 1000 bytes per second; send it at once."
        );
        drop(tx);
    }
}
