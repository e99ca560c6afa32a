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

use ratatui::layout::Rect;
use ratatui::Frame;

use crate::tui::component::Component;
use crate::tui::theme::Theme;

/// The Profiles view's protocol ([`update`], [`draw`]); it reads the name of the profile in
/// use (marked "(in use)", never deleted, copied for `c`).
impl Component for ProfilesState {
    type Msg = ProfilesMsg;
    type Effect = ProfilesEffect;
    type Ctx<'a> = &'a str;

    fn update(&mut self, msg: ProfilesMsg, current: &&str) -> Vec<ProfilesEffect> {
        update(self, current, msg)
    }

    fn draw(&self, frame: &mut Frame, area: Rect, current: &&str, theme: &Theme) {
        draw(frame, area, self, current, theme)
    }
}

#[cfg(test)]
mod tests;
