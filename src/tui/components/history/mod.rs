//! The history view: past sends, newest first, filtered by typing; the selected entry's request
//! and response in full; load an entry back into the request or events view; copy it as curl.
//!
//! A component (see `docs/architecture.md`, "The workbench"). It works on [`HistoryRow`], a
//! display model the App builds from the store's history entries, so the view does not depend
//! on how history is kept on disk.

mod draw;
pub mod keys;
mod state;
mod update;

pub use draw::{draw, layout, HistoryLayout};
pub use keys::{Action, COPY_KEYS, KEYS};
pub use state::*;
pub use update::{run, update};

use ratatui::layout::Rect;
use ratatui::Frame;

use crate::tui::component::Component;
use crate::tui::theme::Theme;

/// The History view's protocol ([`update`], [`draw`]); it reads nothing but its state.
impl Component for HistoryState {
    type Msg = HistoryMsg;
    type Effect = HistoryEffect;
    type Ctx<'a> = ();

    fn update(&mut self, msg: HistoryMsg, _: &()) -> Vec<HistoryEffect> {
        update(self, msg)
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _: &(), theme: &Theme) {
        draw(frame, area, self, theme)
    }
}

#[cfg(test)]
pub(crate) mod tests;
