//! The diagnose view: paste a captured request (raw HTTP or curl), pick a key source, read the
//! verifier's verdict and the diagnosis (`docs/diagnosis.md`); load the capture into the request
//! view to fix it there.
//!
//! A component (see `docs/architecture.md`, "The workbench"): [`DiagnoseState`] is its state,
//! [`update`] turns its [`DiagnoseMsg`]s into state changes and the [`DiagnoseEffect`]s the
//! runtime runs, [`draw`] is its view, [`layout`] shared by both. Reading and verifying a
//! capture is [`capture`] (pure).

#[cfg(test)]
mod after_signing_tests;
pub mod capture;
mod draw;
#[cfg(test)]
mod editing_tests;
mod keys;
mod message;
#[cfg(test)]
mod prefix_tests;
mod state;
mod update;

pub use capture::{capture_fields, diagnose_capture_with, judged_at, parse_capture_with};
pub use draw::{draw, layout, DiagnoseLayout};
pub use keys::{footer_word, Action, CONTEXT_KEYS, KEYS};
pub use message::{DiagnoseEffect, DiagnoseMsg};
pub use state::{DiagKey, DiagnoseState};
pub use update::update;

use ratatui::layout::Rect;
use ratatui::Frame;

use crate::tui::component::Component;
use crate::tui::theme::Theme;

/// The Diagnose view's protocol ([`update`], [`draw`]); it reads where the profile's REST key
/// comes from (the request view's key source), which its key choice names.
impl Component for DiagnoseState {
    type Msg = DiagnoseMsg;
    type Effect = DiagnoseEffect;
    type Ctx<'a> = &'a str;

    fn update(&mut self, msg: DiagnoseMsg, _: &&str) -> Vec<DiagnoseEffect> {
        update(self, msg)
    }

    fn draw(&self, frame: &mut Frame, area: Rect, key_source: &&str, theme: &Theme) {
        draw(frame, area, self, key_source, theme)
    }
}
