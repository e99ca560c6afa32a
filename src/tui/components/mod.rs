//! The workbench's views as components (see `docs/architecture.md`, TUI section): a folder per
//! view owning its state, messages, effects, pure `update` and `draw`.

pub mod events;
pub mod history;
pub mod profiles;
