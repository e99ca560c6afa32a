//! Reading a request body with a size limit and a deadline.

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderMap};
use bytes::{Bytes, BytesMut};
use futures::StreamExt;

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
#[derive(Debug)]
pub enum BodyError {
    /// Larger than the limit (by its Content-Length, or while streaming).
    TooLarge,
    /// Did not arrive within the body timeout.
    Timeout,
    /// The client went away (or sent a broken chunked encoding) before the end.
    Aborted(String),
}

impl BodyError {
    /// The answer for this failure (for `Aborted` it is recorded but usually reaches nobody).
    pub fn to_api_error(&self, limit: usize) -> ApiError {
        match self {
            BodyError::TooLarge => ApiError::payload_too_large(limit),
            BodyError::Timeout => ApiError::body_timeout(),
            BodyError::Aborted(why) => ApiError::new(
                400,
                "BODY_READ_ERROR",
                format!("The request body could not be read: {why}."),
            ),
        }
    }
}

/// Read the whole body, refusing more than `limit` bytes (up front when Content-Length says so)
/// and giving up after `timeout`.
/// Wait for one of the server's in-flight permits (bounded memory), then read the body with the
/// configured limit and deadline. The permit is held until the caller has answered.
pub async fn admit_body(
    st: &super::AppState,
    headers: &HeaderMap,
    body: Body,
) -> (tokio::sync::OwnedSemaphorePermit, Result<Bytes, BodyError>) {
    let permit = st
        .in_flight
        .clone()
        .acquire_owned()
        .await
        .expect("the in-flight semaphore is never closed");
    let read = read_body(headers, body, st.config.max_body, st.config.body_timeout).await;
    (permit, read)
}

pub async fn read_body(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
    timeout: Duration,
) -> Result<Bytes, BodyError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let Some(n) = declared {
        if n > limit as u64 {
            if n <= DRAIN_MAX {
                drain(body.into_data_stream(), 0).await;
            }
            return Err(BodyError::TooLarge);
        }
    }
    let capacity = declared.map(|n| n as usize).unwrap_or(0);
    let read = async move {
        let mut stream = body.into_data_stream();
        let mut buf = BytesMut::with_capacity(capacity);
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| BodyError::Aborted(e.to_string()))?;
            if buf.len() + chunk.len() > limit {
                let seen = (buf.len() + chunk.len()) as u64;
                drop(buf);
                drain(stream, seen).await;
                return Err(BodyError::TooLarge);
            }
            buf.extend_from_slice(&chunk);
        }
        Ok(buf.freeze())
    };
    match tokio::time::timeout(timeout, read).await {
        Ok(r) => r,
        Err(_) => Err(BodyError::Timeout),
    }
}
