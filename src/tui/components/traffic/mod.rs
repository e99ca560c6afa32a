//! The traffic view (F7): every request that reaches the in-process local server (or the
//! server named with `signscope --watch URL`), newest first and live, already verified and
//! diagnosed by the server; filter by typing; pause and resume; the selected request in full
//! (the diagnosis first, the server's signing text next to what was received, headers, body,
//! the problems of an event batch with their paths); load it into the request editor or the
//! Diagnose view, or copy it as curl.
//!
//! A component (see `docs/architecture.md`, "The workbench"): [`TrafficState`] is its state
//! (`state.rs`), [`update`] its pure update, [`draw`] its view and [`layout`] shared by both;
//! [`keys`] is its key table (the dispatcher, help and the palette read it); [`detail`] builds
//! the selected record's text once, in `update`, never on the draw path. Following the
//! server's live stream (`GET /_inspect/stream`, see `docs/server.md`) is the runtime's
//! (`tui::runtime::perform`): each record arrives as a message.

pub mod detail;
mod draw;
pub mod har;
pub mod keys;
mod state;
mod update;

pub use draw::{draw, layout, TrafficLayout};
pub use keys::{Action, CONTEXT_KEYS, COPY_KEYS, KEYS};
pub use state::*;
pub use update::*;

use ratatui::layout::Rect;
use ratatui::Frame;

use crate::tui::component::Component;
use crate::tui::theme::Theme;

/// The Traffic view's protocol ([`update`], [`draw`]); it reads nothing but its state.
impl Component for TrafficState {
    type Msg = TrafficMsg;
    type Effect = TrafficEffect;
    type Ctx<'a> = ();

    fn update(&mut self, msg: TrafficMsg, _: &()) -> Vec<TrafficEffect> {
        update(self, msg)
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _: &(), theme: &Theme) {
        draw(frame, area, self, theme)
    }
}

#[cfg(test)]
mod tests;
