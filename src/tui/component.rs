//! The one protocol of the workbench's components, views and popups alike (as Slumber's
//! components): each owns its state (the type that implements [`Component`]), its messages
//! ([`Component::Msg`]), its effects ([`Component::Effect`]), its update and its draw. The
//! router (`tui/update.rs`) hands a view its message and routes the effects it answers with;
//! the screen (`tui/view/`) draws the view shown and the popup open through the same trait.
//!
//! A component reads nothing of the workbench but its own state and what its [`Component::Ctx`]
//! gives it (never the `App`): the profile in use, whether it shows the terminal cursor, what a
//! popup reads of the views. `tests/architecture.rs` checks that every view implements it.

use ratatui::layout::Rect;
use ratatui::Frame;

use super::theme::Theme;

/// One component: a view (`tui/components/X/`) or a popup (`tui/popups/`).
pub trait Component {
    /// What it is told: a view's own message (its input, the runtime's answers to what it
    /// asked), a popup's key or click (`popups::PopupInput`).
    type Msg;
    /// What it asks for: a view's effects (its status sentence, what the runtime is to do), a
    /// popup's `PopupEffect`s; the router routes them in the order given.
    type Effect;
    /// What it reads of the workbench besides its own state, for both its update and its
    /// draw (`()` when nothing).
    type Ctx<'a>;

    /// One message: the state changes, and what is asked of the router, in order. Pure: no
    /// I/O, no clock (a time is in the message).
    fn update(&mut self, msg: Self::Msg, ctx: &Self::Ctx<'_>) -> Vec<Self::Effect>;

    /// Draw it in `area` (a view: the main area, the request view the whole screen; a popup:
    /// the screen it centres itself on). Only draws: it changes nothing.
    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Self::Ctx<'_>, theme: &Theme);
}

/// A copy to the clipboard: `text`, named `what` in the status line ("copied the signature").
/// Every view's copy effect, the popups' and the runtime's command carry this one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clip {
    pub text: String,
    pub what: String,
}

/// A read of the profile's REST key from `source` off the UI thread (job `id`): the request
/// view's effect and the runtime's command carry this one value.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyRead {
    pub id: u64,
    pub source: crate::store::KeySource,
}
