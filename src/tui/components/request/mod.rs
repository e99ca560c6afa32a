//! The request view: the fields of one signed indexing request, its body, the labelled
//! canonical text, the detail panel (pipeline / headers / response / diff) and the signature.
//!
//! A component (see `docs/architecture.md`, "The workbench"): [`RequestState`] is all its
//! state, [`update`] turns keys, mouse, pastes and the runtime's answers into state changes and
//! the `Command`s the runtime runs; [`draw`] reads the state. [`layout`] places its parts for
//! both. The profile being edited (name, demo or not, unsaved edits) belongs here too: only
//! this view edits it.

mod account;
mod body_pane;
mod canonical_pane;
mod clipboard;
mod copy;
mod detail_pane;
mod diff;
mod draw;
mod fields_pane;
#[cfg(test)]
mod form_tests;
mod input;
pub mod key_choice;
pub mod key_read;
#[cfg(test)]
mod key_tests;
pub mod keys;
mod labels;
pub mod layout;
mod message;
pub mod requests;
#[cfg(test)]
mod requests_tests;
pub mod response;
pub mod response_pane;
mod send;
mod sign;
mod signature_line;
pub mod state;
mod update;

pub use clipboard::copy_selection_or_say;
pub use draw::draw;
pub use layout::{request_layout, RequestLayout};
pub use message::{AccountChange, RequestEffect, RequestMsg};
pub use response::{format_json, response_view, FORMAT_INLINE_LIMIT};
pub use sign::resign;
pub use state::*;
pub use update::update;

use ratatui::layout::Rect;
use ratatui::Frame;

use crate::tui::component::Component;
use crate::tui::model::CurrentProfile;
use crate::tui::theme::Theme;

/// What the request view reads of the workbench: the profile being edited (it saves under it
/// and names it), and whether it shows the terminal cursor (no popup over it).
pub struct RequestCtx<'a> {
    pub profile: &'a CurrentProfile,
    pub cursor: bool,
}

/// The request view's protocol ([`update`], [`draw`]; it draws on the whole screen, its
/// status line included).
impl Component for RequestState {
    type Msg = RequestMsg;
    type Effect = RequestEffect;
    type Ctx<'a> = RequestCtx<'a>;

    fn update(&mut self, msg: RequestMsg, ctx: &RequestCtx<'_>) -> Vec<RequestEffect> {
        update(self, ctx.profile, msg)
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &RequestCtx<'_>, theme: &Theme) {
        draw(frame, area, self, theme, ctx.cursor)
    }
}
