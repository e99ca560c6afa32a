//! Plain data that crosses the workbench's layers: the request fields as values, a signing
//! result, a response as the request view shows it. No behaviour beyond construction.

use std::sync::Arc;

use crate::core::Secret;

/// Where the REST key came from (shown next to the masked key; never the key itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyInfo {
    pub secret: Secret,
    /// e.g. "demo key", "env SIGNSCOPE_KEY", "typed (not saved)".
    pub source: String,
    pub revealed: bool,
}

/// The values of the request fields as plain data (what a profile fills in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestFields {
    pub url: String,
    pub method: String,
    pub path: String,
    pub query: String,
    pub prefix: String,
    pub api_key: String,
    pub content_type: String,
    pub auth_algo: String,
    pub body: String,
}

impl RequestFields {
    pub fn demo(url: &str) -> Self {
        RequestFields {
            url: url.to_string(),
            method: "PUT".into(),
            path: "/v2/batch".into(),
            query: String::new(),
            prefix: crate::core::DEFAULT_HEADER_PREFIX.into(),
            api_key: crate::server::DEMO_API_KEY.into(),
            content_type: crate::core::CONTENT_TYPE_JSON.into(),
            auth_algo: crate::core::AUTH_ALGO.into(),
            body: "[{\"id\": \"sku-1\", \"name\": \"Blue shirt\"}]".into(),
        }
    }
}

/// The result of a signing job as the view shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedView {
    pub digest_hex: String,
    pub signature: String,
    pub headers: Vec<(String, String)>,
    /// Length of the canonical text in bytes.
    pub canonical_len: usize,
}

/// A formatted response body, prepared off the draw path: the lines to draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FormattedBody {
    pub lines: Vec<String>,
    /// True when the text is pretty-printed JSON (so the view highlights it).
    pub json: bool,
}

/// A response as the view shows it.
#[derive(Clone, Debug, Default)]
pub struct ResponseView {
    /// The send this answers.
    pub id: u64,
    pub status: u16,
    pub elapsed_ms: f64,
    pub headers: Vec<(String, String)>,
    pub body_len: usize,
    /// Raw body text split into lines (shown until the formatted text is ready).
    pub raw: Arc<FormattedBody>,
    pub formatted: Option<Arc<FormattedBody>>,
    pub scroll: usize,
    /// When the server said SIGNATURE_MISMATCH and carried its canonical text.
    pub mismatch: Option<MismatchView>,
    /// The job id the server gave (for accepted batches).
    pub job_id: Option<String>,
    /// The error code from the error body, if any.
    pub code: Option<String>,
    pub message: Option<String>,
    /// What the user should know besides the answer (the server's clock far off, the send not
    /// recorded in the history).
    pub warnings: Vec<String>,
}

/// What we signed next to what the server signed, with the diagnosis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MismatchView {
    /// Our canonical text, visible lines.
    pub ours: Vec<String>,
    /// The server's canonical text, visible lines.
    pub theirs: Vec<String>,
    pub diagnosis: Option<String>,
}
