//! The workbench's runtime, in four parts that import each other one way only:
//!
//! - [`event_loop`]: terminal input, signals and effect results become Messages; `update` turns
//!   them into Commands; the screen is redrawn once per burst;
//! - [`perform`]: the effect performer ([`Effects`]) runs those Commands off the draw path;
//! - `send`: both sends (request and event batch) go through the engine's `Sender`, exactly as
//!   the CLI's do (`docs/architecture.md`, the request lifecycle); the exchange becomes a
//!   response view and a history row;
//! - [`profile`]: profiles as the workbench holds them (the body in the editor, not in the
//!   session).

pub mod event_loop;
pub mod perform;
pub mod profile;
mod send;

pub use event_loop::{build_runtime, run_app, run_app_with, LoopHooks};
pub use perform::Effects;
pub use profile::{loaded_profile, open_current};
#[cfg(test)]
#[cfg(test)]
mod tests;
