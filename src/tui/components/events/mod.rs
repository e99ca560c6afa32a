//! The events view: compose a recommendation list, preview the batch it becomes, validate it
//! live, edit it as raw JSON, and send it to the collector.
//!
//! A component (see `docs/architecture.md`, "The workbench"): [`EventsState`] (here) holds all
//! state, [`update`] is pure and returns [`EventsEffect`]s for the runtime to execute, [`draw`]
//! only draws, and [`layout`] says where everything is for both drawing and mouse hit tests.
//!
//! The form is a [`ListDraft`] plus what the form cannot show (fields of the batch it does not
//! know, kept from a loaded file or from the raw JSON mode: [`Unshown`]), so switching from raw
//! JSON to the form and back loses nothing. Reading a batch into a draft and writing it back is
//! the core's (`core::events::draft`); this module only shows and edits it.

mod draw;
mod items;
mod items_table;
#[cfg(test)]
mod items_tests;
pub mod keys;
mod message;
#[cfg(test)]
mod mouse_tests;
mod parts;
#[cfg(test)]
mod persist_tests;
mod raw;
mod revision;
mod saved;
#[cfg(test)]
mod screen_tests;
mod state;
mod update;
mod validate;

pub use draw::{draw_with_cursor, layout};
pub use keys::{Action, COPY_KEYS, KEYS};
pub use message::{EventsEffect, EventsMsg, SendReport};
pub use parts::EventsLayout;
pub use state::*;
pub use update::{run, update, update_on_screen};
pub use validate::{ValidateJob, Validated, INLINE_VALIDATE_ITEMS};

use ratatui::layout::Rect;
use ratatui::Frame;

use crate::tui::component::Component;
use crate::tui::theme::Theme;

/// The Events view's protocol ([`update_on_screen`], [`draw_with_cursor`]); it reads whether
/// it is on screen with no popup over it (its update validates inline, its draw shows the
/// terminal cursor).
impl Component for EventsState {
    type Msg = EventsMsg;
    type Effect = EventsEffect;
    type Ctx<'a> = bool;

    fn update(&mut self, msg: EventsMsg, on_screen: &bool) -> Vec<EventsEffect> {
        update_on_screen(self, msg, *on_screen)
    }

    fn draw(&self, frame: &mut Frame, area: Rect, cursor: &bool, theme: &Theme) {
        draw_with_cursor(frame, area, self, theme, *cursor)
    }
}

#[cfg(test)]
mod tests;
