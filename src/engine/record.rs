//! The history entry of one send (the store only keeps entries; building them from a client
//! exchange is the engine's job, so that `client` and `store` need not know each other).

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::client::{ClientError, OutgoingRequest, Response};
use crate::core::spec::RequestSpec;
use crate::core::time::format_timestamp;
use crate::core::Secret;
use crate::store::history::capped_body;
use crate::store::{HistoryEntry, RecordedRequest, RecordedResponse, RecordedTimings};

/// A history record of one send (bodies capped at `body_cap` bytes; every occurrence of `key`
/// redacted). `spec`, for a signed request, is the request model it was built from: the entry
/// names it (without a second copy of the body), so it loads back as it was.
#[allow(clippy::too_many_arguments)] // the parts of one send, each used once
pub fn history_entry(
    profile: &str,
    kind: &str,
    sent_at: DateTime<Utc>,
    spec: Option<&RequestSpec>,
    req: &OutgoingRequest,
    outcome: Result<&Response, &ClientError>,
    key: Option<&Secret>,
    body_cap: usize,
) -> HistoryEntry {
    let (body, body_truncated) = capped_body(&req.body, body_cap);
    let mut entry = HistoryEntry {
        time: format_timestamp(sent_at),
        profile: profile.to_string(),
        request_name: None,
        kind: kind.to_string(),
        request: RecordedRequest {
            in_process: false,
            method: req.method.clone(),
            url: req.url.clone(),
            headers: req.headers.clone(),
            body,
            body_len: req.body.len(),
            body_truncated,
            spec: spec.map(|s| s.with_body(bytes::Bytes::new())),
        },
        response: None,
        error: None,
        timings: None,
    };
    match outcome {
        Ok(resp) => {
            let (body, body_truncated) = capped_body(&resp.body, body_cap);
            entry.response = Some(RecordedResponse {
                status: resp.status,
                headers: resp.headers.clone(),
                body,
                body_len: resp.body.len(),
                body_truncated,
            });
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            entry.timings = Some(RecordedTimings {
                connect_ms: resp.timings.connect.map(ms),
                first_byte_ms: ms(resp.timings.first_byte),
                total_ms: ms(resp.timings.total),
            });
        }
        Err(e) => entry.error = Some(e.to_string()),
    }
    if let Some(k) = key {
        entry.redact(k);
    }
    entry
}
