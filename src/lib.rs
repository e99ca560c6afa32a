//! signscope: a terminal workbench for a signed indexing API (HMAC-SHA384 request signing) and
//! its recommendation-analytics collector.
//!
//! The crate is a pure core surrounded by rooms for each kind of I/O:
//!
//! - [`core`]: signing, verification, diagnosis, and the event model. Pure functions and types:
//!   no I/O, no clock reads, no tokio.
//! - [`store`]: profiles, secrets and history on disk.
//! - [`client`]: sending signed requests and event batches (reqwest).
//! - [`net`]: the HTTP connections both the client and the server's forwarding proxy open (a
//!   connection that keeps reading after its writes fail, so an early answer is never lost).
//! - [`engine`]: one send for the CLI and the workbench: profile, key, sign once, send, exchange,
//!   history (see `docs/architecture.md`).
//! - [`codegen`]: the request as a signing program in eight languages, and `sign --explain`.
//! - [`learn`]: the guided lesson and the exercises (pure models) and the learner's progress.
//! - [`server`]: the local verifying server (axum), usable in-process.
//! - [`cli`]: the headless commands (clap).
//! - [`tui`]: the interactive workbench (ratatui, Elm-style `update`).
//! - [`logging`]: diagnostic logging (tracing), off unless `SIGNSCOPE_LOG` is set.

pub mod cli;
pub mod client;
pub mod codegen;
pub mod core;
pub mod engine;
pub mod learn;
pub mod logging;
pub mod net;
pub mod server;
pub mod store;
pub mod tui;
