//! The lesson view (F8): the guided lesson of `signscope learn` (`crate::learn::lesson`) over the
//! live request in the editor, and the exercises (`crate::learn::exercise`).
//!
//! A component (see `docs/architecture.md`, "The workbench"): [`LessonState`] is its state,
//! [`update`] turns its messages into state changes and [`LessonEffect`]s, [`draw`] reads it.
//! The router shows it every change of the request being edited ([`observe`] with
//! [`draft_of`]), so a step notices when the learner has done what it asks, wherever they did
//! it. Progress and scores live in the data directory, shared with `signscope learn`
//! (`crate::learn::progress`); the runtime reads and writes them ([`LessonEffect`]).

mod draw;
mod hints;
mod state;
mod update;

pub use draw::draw;
pub use hints::footer_items;
pub use state::*;
pub use update::{observe, update};

use ratatui::layout::Rect;
use ratatui::Frame;

use crate::tui::component::Component;
use crate::tui::theme::Theme;

/// The Lesson view's protocol ([`update`], [`draw`]); it reads nothing but its state.
impl Component for LessonState {
    type Msg = LessonMsg;
    type Effect = LessonEffect;
    type Ctx<'a> = ();

    fn update(&mut self, msg: LessonMsg, _: &()) -> Vec<LessonEffect> {
        update(self, msg)
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _: &(), theme: &Theme) {
        draw(frame, area, self, theme)
    }
}

#[cfg(test)]
mod tests;
