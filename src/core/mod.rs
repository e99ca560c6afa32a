//! The pure core: signing, verification, diagnosis, and the recommendation-event model.
//!
//! Nothing in here touches the file system, the network, the clock, tokio or the terminal:
//! time comes in as an argument, bytes come in as slices. The TUI, the CLI and the local server
//! all call these functions, so what the workbench shows is what the server checks.
//!
//! The life of a signature:
//! ```text
//! SignableRequest --canonical()--> CanonicalText --sign()--> Signed { digest, headers }
//! ```
//!
//! `Signed::signature()` is the base64 signature; `Signed::headers` keeps the canonical head
//! (moved, not copied) and hands out the five headers to send as `(&str, &str)` pairs.

pub mod canonical;
pub mod capture;
pub mod collect;
pub mod curl;
pub mod demo;
pub mod diagnose;
pub mod events;
pub mod form;
pub mod har;
pub mod http_text;
pub mod incremental;
pub mod indexing_body;
pub mod json;
pub mod received;
pub mod request;
pub mod run_verdict;
pub mod secret;
pub mod sign;
pub mod signed_request;
pub mod spec;
pub mod suite;
pub mod time;
pub mod traffic;
pub mod vendor;
pub mod verify;
pub mod visible;

pub use canonical::{CanonicalLine, CanonicalText, LineLabel};
pub use collect::COLLECT_PATH;
pub use diagnose::{diagnose, Diagnosis, Mistake};
pub use form::SigningForm;
pub use request::{
    HeaderNames, SignableRequest, AUTH_ALGO, CONTENT_TYPE_JSON, DEFAULT_HEADER_PREFIX,
    RESERVED_REQUEST_HEADERS,
};
pub use secret::Secret;
pub use sign::{sign, SignError, Signed};
pub use signed_request::{request_url, SignedRequest};
pub use spec::{RequestSpec, SigningParams, Timestamp};
pub use verify::{
    verify, verify_all, Accepted, Checked, DiagnosisPlan, KeyStore, Mismatch, ReceivedRequest,
    Rejection, VerifyOptions,
};
