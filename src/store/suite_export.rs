//! What `profile request export --suite` and the workbench's "write as a suite entry" take from
//! the store (`docs/test.md`, "Writing the first suite"): a saved request with the answer of its
//! latest send as an [`ExportRequest`]; and the account's REST key as a reference, never the
//! key.

use crate::core::suite::export::{Answer, ExportRequest};

use super::{HistoryEntry, KeySource, Profile};

/// The environment variable a suite names for a key that has no reference (one kept in the
/// profile file): the user sets it where the suite runs.
pub const REST_KEY_ENV: &str = "SIGNSCOPE_REST_KEY";

/// The reference a suite's `rest_key` is written as for this key source, and whether it is a
/// stand-in (`env:SIGNSCOPE_REST_KEY` for a key kept in the profile file, which has none).
pub fn rest_key_reference(source: &KeySource) -> (String, bool) {
    match source {
        KeySource::Demo => ("demo".to_string(), false),
        s => match s.reference() {
            Some(r) => (r, false),
            None => (format!("env:{REST_KEY_ENV}"), true),
        },
    }
}

/// The answer of a history entry, when one came back whole.
fn answer_of(e: &HistoryEntry) -> Option<Answer> {
    let r = e.response.as_ref().filter(|r| !r.body_truncated)?;
    Some(Answer {
        status: r.status,
        body: r.body.clone(),
    })
}

/// A saved request of `profile` with the answer of its latest send in `history` (oldest
/// first), if it was sent.
pub fn saved_request(
    profile: &Profile,
    name: &str,
    history: &[HistoryEntry],
) -> Option<ExportRequest> {
    let saved = profile.find_request(name)?;
    let latest = history.iter().rev().find(|e| {
        e.kind == "request" && e.profile == profile.name && e.request_name.as_deref() == Some(name)
    });
    Some(ExportRequest {
        name: name.to_string(),
        spec: saved.spec.clone(),
        events: false,
        answer: latest.and_then(answer_of),
    })
}
