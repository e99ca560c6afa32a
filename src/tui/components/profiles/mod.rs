//! The profile manager: list, create (from scratch or from the current profile), rename,
//! duplicate, delete (after confirmation), and edit base URLs, header prefix, API key and REST
//! key source. Shows where each profile file lives. The REST key is never drawn unless revealed.
//!
//! A component (see `docs/architecture.md`, "The workbench"): [`update`] is pure and asks for
//! file work through [`ProfilesEffect`]s.

mod draw;
pub mod keys;
mod state;
mod update;

pub use draw::{draw, layout, ProfilesLayout};
pub use keys::{FormAction, FORM_KEYS};
pub use state::*;
pub use update::update;

#[cfg(test)]
mod tests;
