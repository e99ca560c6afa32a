//! The engine: one send, the same for the CLI and the workbench.
//!
//! Open a profile ([`Session::open`], which applies the one last-used policy of
//! `docs/architecture.md`), resolve its key once ([`Session::signing_params`]), then hand a
//! [`SendRequest`] to a [`Sender`]: it signs once (`core::sign`), checks that the bytes on the
//! wire will be the bytes signed (`docs/signing.md` rule S13), sends with `client`, builds the
//! [`Exchange`] (status, headers, body, timings, clock-skew warning, and the server's answer,
//! mismatch details included, parsed once: `docs/server.md` rule R5), records it in the history
//! (bodies capped, the REST key redacted) and marks the profile as last used.
//!
//! # From the workbench (tokio)
//!
//! ```no_run
//! # async fn demo() -> Result<(), signscope::engine::EngineError> {
//! use signscope::core::{RequestSpec, Timestamp};
//! use signscope::engine::{SendRequest, Session};
//!
//! // Once, at start (blocking: it reads files and may start the in-process server).
//! let mut session = Session::open(None)?;
//! // Per send: a cheap, cloneable handle that a tokio task owns.
//! let sender = session.sender();
//! let params = session.signing_params(Timestamp::Now)?; // or a key typed in the editor
//! let request = SendRequest {
//!     base_url: session.indexing_url()?,
//!     request: session.profile().request().clone(), // the body is shared, not copied
//!     params,
//! };
//! let task = tokio::spawn(async move { sender.send(request).await });
//! let exchange = task.await.expect("the send task ran")?;
//! println!("{:?} {:?}", exchange.status(), exchange.answer.code);
//! # Ok(()) }
//! ```
//!
//! [`Sender::send`] and [`Sender::send_events`] are `async` and never block the runtime: the
//! signing of a large body and the history append run on the blocking pool. A failed network
//! send is still an [`Exchange`] (its `response` is the error), recorded like any other; only a
//! request that cannot be built (bad URL, empty key, ...) is an [`EngineError`]. Switch profiles
//! with [`Session::switch`]; save the current one with [`Session::save`].
//!
//! # From the CLI (blocking)
//!
//! [`Sender::send_blocking`] / [`Sender::send_events_blocking`] run the same futures on a
//! current-thread runtime.

pub mod capture;
mod embedded;
mod error;
mod exchange;
mod judging;
mod outgoing;
mod record;
mod send;
mod session;

/// The client's types that the engine's API takes and gives.
pub use crate::client::{added_headers, ClientOptions, OutgoingRequest, Response};
pub use embedded::embedded_config;
pub use error::EngineError;
pub use exchange::{Exchange, ExchangeKind, ServerAnswer, ServerMismatch};
pub use outgoing::{
    build_signed, check_sendable, check_target_of, collect_url, events_request, outgoing,
    BuildError,
};
pub use record::history_entry;
pub use send::{SendRequest, Sender};
pub use session::Session;
