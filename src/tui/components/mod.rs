//! The workbench's views as components (see `docs/architecture.md`, "The workbench"): a folder
//! per view owning its state, messages, effects, pure `update` and `draw`.

pub mod diagnose;
pub mod events;
pub mod history;
pub mod lesson;
pub mod profiles;
pub mod request;
pub mod traffic;
