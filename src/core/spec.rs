//! The one request model: [`RequestSpec`], an owned description of an indexing request, kept
//! apart from the signing parameters ([`SigningParams`]: the REST key and the timestamp), as
//! aws-sigv4 keeps `SignableRequest` apart from `SigningParams`.
//!
//! A profile holds a `RequestSpec`, the engine sends one, a history entry names the one it sent.
//! [`SignableRequest`] borrows from it (plus one timestamp string) to build the signing text, so
//! nothing is copied field by field between shapes. The body is a [`Bytes`]: cloning a spec, or
//! handing its body to the HTTP client, shares the same buffer (`docs/signing.md` rule S8).

use std::borrow::Cow;

use bytes::Bytes;
use chrono::{DateTime, Utc};

use super::form::SigningForm;
use super::request::{SignableRequest, AUTH_ALGO, CONTENT_TYPE_JSON, DEFAULT_HEADER_PREFIX};
use super::secret::Secret;
use super::time::format_timestamp;

/// The method a new request starts with.
pub const DEFAULT_METHOD: &str = "PUT";
/// The path a new request starts with (the batch operation of the indexing API).
pub const DEFAULT_PATH: &str = "/v2/batch";
/// The body a new request starts with.
pub const DEFAULT_BODY: &str = "[]";

/// Everything that is signed except the timestamp, owned. Values are kept exactly as given
/// (`docs/signing.md` rules S4-S8). Serialized without its body (a history entry keeps the
/// body it sent beside the spec, capped).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RequestSpec {
    pub method: String,
    pub path: String,
    /// Without the leading `?`, exactly as sent; empty for none.
    pub query: String,
    pub header_prefix: String,
    /// The public API key (not a secret).
    pub api_key: String,
    pub content_type: String,
    pub auth_algo: String,
    /// The exact bytes sent; shared, never copied, by clones of the spec.
    #[serde(skip)]
    pub body: Bytes,
}

impl Default for RequestSpec {
    /// `PUT /v2/batch`, no query, prefix `SVC`, no API key, `application/json`, `HmacSHA384`,
    /// body `[]`.
    fn default() -> Self {
        RequestSpec {
            method: DEFAULT_METHOD.to_string(),
            path: DEFAULT_PATH.to_string(),
            query: String::new(),
            header_prefix: DEFAULT_HEADER_PREFIX.to_string(),
            api_key: String::new(),
            content_type: CONTENT_TYPE_JSON.to_string(),
            auth_algo: AUTH_ALGO.to_string(),
            body: Bytes::from_static(DEFAULT_BODY.as_bytes()),
        }
    }
}

impl RequestSpec {
    /// The request as the signer sees it, with this timestamp. The method is used as given; the
    /// signing text upper-cases it (`docs/signing.md` rule S6).
    pub fn signable<'a>(&'a self, timestamp: &'a str) -> SignableRequest<'a> {
        SignableRequest {
            method: &self.method,
            path: &self.path,
            query: &self.query,
            header_prefix: &self.header_prefix,
            timestamp,
            api_key: &self.api_key,
            auth_algo: &self.auth_algo,
            content_type: &self.content_type,
            body: &self.body,
        }
    }

    /// The body as text for a text field or a TOML file: borrowed when it is UTF-8 (no copy),
    /// lossy otherwise.
    pub fn body_text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.body)
    }

    /// The same request with another body (the other fields are cloned, the body is moved in).
    pub fn with_body(&self, body: Bytes) -> RequestSpec {
        // Cloning the old body only counts one more holder of its buffer.
        RequestSpec {
            body,
            ..self.clone()
        }
    }
}

/// A query as the user typed it, as it is sent and signed: without the one leading `?`, which
/// separates the query from the path in a URL and is not part of the query (`docs/signing.md`
/// rule S4). Returns the query and whether a `?` was left out. A second `?` is part of the
/// query (`??a=1` is the query `?a=1`, sent as `path??a=1`).
pub fn query_as_sent(typed: &str) -> (&str, bool) {
    match typed.strip_prefix('?') {
        Some(q) => (q, true),
        None => (typed, false),
    }
}

/// The text of a query field for a query as sent: the query itself, with a `?` written before
/// it when it starts with one (so that [`query_as_sent`] gives it back unchanged).
pub fn query_as_typed(query: &str) -> Cow<'_, str> {
    if query.starts_with('?') {
        Cow::Owned(format!("?{query}"))
    } else {
        Cow::Borrowed(query)
    }
}

/// What is said when a typed query's leading `?` is left out (the CLI's stderr, the workbench's
/// query field).
pub fn query_mark_note(sent: &str) -> String {
    format!(
        "the leading '?' is not part of the query: signed and sent as {:?}",
        sent
    )
}

/// The timestamp a request is signed with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Timestamp {
    /// The time of signing, read by the caller just before sending (`docs/signing.md` rule S11).
    #[default]
    Now,
    /// Exactly this text, as typed (`docs/signing.md` rule S7): for reproducing a capture or a
    /// deliberate mistake.
    Frozen(String),
}

impl Timestamp {
    /// The text to sign, given the time now (used only for [`Timestamp::Now`]).
    pub fn text_at(&self, now: DateTime<Utc>) -> Cow<'_, str> {
        match self {
            Timestamp::Now => Cow::Owned(format_timestamp(now)),
            Timestamp::Frozen(t) => Cow::Borrowed(t),
        }
    }
}

/// What signs a request besides the request itself.
#[derive(Clone, Debug)]
pub struct SigningParams {
    /// The REST key (`docs/signing.md` rule S10).
    pub key: Secret,
    pub timestamp: Timestamp,
    /// How the path and query lines are written (`docs/signing.md`, "The PHP SDK's form");
    /// the standard form unless the user chose the vendor's PHP SDK form.
    pub form: SigningForm,
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn a_spec_borrows_into_the_signer_and_shares_its_body() {
        let spec = RequestSpec {
            query: "test=1".into(),
            api_key: "pub".into(),
            body: Bytes::from(vec![b'x'; 64]),
            ..RequestSpec::default()
        };
        let req = spec.signable("2026-11-22T10:00:00.000Z");
        assert_eq!(
            req.body.as_ptr(),
            spec.body.as_ptr(),
            "the body is borrowed"
        );
        assert_eq!(req.method, "PUT");
        assert_eq!(req.path, "/v2/batch");
        assert_eq!(req.query, "test=1");
        assert_eq!(req.header_prefix, "SVC");
        assert_eq!(req.api_key, "pub");
        let copy = spec.clone();
        assert_eq!(
            copy.body.as_ptr(),
            spec.body.as_ptr(),
            "a clone shares the body"
        );
        let other = spec.with_body(Bytes::from_static(b"[1]"));
        assert_eq!(
            (other.method.as_str(), &other.body[..]),
            ("PUT", &b"[1]"[..])
        );
    }

    #[test]
    fn one_leading_question_mark_is_not_part_of_the_query() {
        assert_eq!(query_as_sent("?a=1"), ("a=1", true));
        assert_eq!(query_as_sent("a=1"), ("a=1", false));
        assert_eq!(query_as_sent("??a=1"), ("?a=1", true));
        assert_eq!(query_as_sent(""), ("", false));
        for q in ["", "a=1", "?a=1", "??"] {
            assert_eq!(query_as_sent(&query_as_typed(q)).0, q);
        }
    }

    #[test]
    fn timestamps_are_now_or_exactly_as_frozen() {
        let now = Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap();
        assert_eq!(Timestamp::Now.text_at(now), "2026-11-22T10:00:00.000Z");
        let frozen = Timestamp::Frozen(" 2026-11-22T09:00:00Z".into());
        assert_eq!(frozen.text_at(now), " 2026-11-22T09:00:00Z");
    }
}
