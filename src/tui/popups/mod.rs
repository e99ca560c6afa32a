//! The router's popups, over every view: one module each, owning its state, its keys and its
//! drawing, as a view's component does (see `docs/architecture.md`, "The workbench"). A popup
//! reads the workbench through [`Ctx`] (never the App) and answers a key with
//! [`PopupEffect`]s, which the router in `update.rs` routes like every view's effects; it stays
//! open until it answers [`PopupEffect::Close`]. (The request view's own prompts are its state.)

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::layout::Rect;
use ratatui::Frame;

use super::global_keys::GlobalAction;
use super::model::PendingLoad;
use super::theme::Theme;

mod component;
pub mod confirm_load;
pub mod confirm_quit;
pub mod copy_code;
pub mod copy_menu;
pub mod help;
pub mod messages;
pub mod operations;
pub mod palette;
pub mod profiles;

pub use component::{Component, Ctx, PopupEffect};

/// The popup open over the view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Popup {
    Help(help::Help),
    ConfirmQuit(confirm_quit::ConfirmQuit),
    ConfirmLoad(confirm_load::ConfirmLoad),
    Profiles(profiles::Profiles),
    Palette(palette::Palette),
    Messages(messages::Messages),
    CopyMenu(copy_menu::CopyMenu),
    CopyCode(copy_code::CopyCode),
    Operations(operations::Operations),
}

impl Popup {
    fn component(&self) -> &dyn Component {
        match self {
            Popup::Help(p) => p,
            Popup::ConfirmQuit(p) => p,
            Popup::ConfirmLoad(p) => p,
            Popup::Profiles(p) => p,
            Popup::Palette(p) => p,
            Popup::Messages(p) => p,
            Popup::CopyMenu(p) => p,
            Popup::CopyCode(p) => p,
            Popup::Operations(p) => p,
        }
    }

    fn component_mut(&mut self) -> &mut dyn Component {
        match self {
            Popup::Help(p) => p,
            Popup::ConfirmQuit(p) => p,
            Popup::ConfirmLoad(p) => p,
            Popup::Profiles(p) => p,
            Popup::Palette(p) => p,
            Popup::Messages(p) => p,
            Popup::CopyMenu(p) => p,
            Popup::CopyCode(p) => p,
            Popup::Operations(p) => p,
        }
    }

    pub fn on_key(&mut self, key: &KeyEvent, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        self.component_mut().on_key(key, ctx)
    }

    pub fn on_mouse(&mut self, m: &MouseEvent, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        self.component_mut().on_mouse(m, ctx)
    }

    pub fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>, theme: &Theme) {
        self.component().draw(frame, area, ctx, theme)
    }

    /// The question asked before quitting with unsaved edits.
    pub fn confirm_quit() -> Popup {
        Popup::ConfirmQuit(confirm_quit::ConfirmQuit)
    }

    /// The question asked before `load` replaces unsaved edits.
    pub fn confirm_load(load: PendingLoad) -> Popup {
        Popup::ConfirmLoad(confirm_load::ConfirmLoad(Box::new(load)))
    }

    /// The profile switch over `names`, on `current` when it is one of them.
    pub fn switch_profile(names: Vec<String>, current: &str) -> Popup {
        Popup::Profiles(profiles::Profiles::open(names, current))
    }

    /// The popup a global action opens, if it opens one.
    pub fn of_action(action: GlobalAction, ctx: &Ctx<'_>) -> Option<Popup> {
        Some(match action {
            GlobalAction::Help => Popup::Help(help::Help::default()),
            GlobalAction::Palette => Popup::Palette(palette::Palette::default()),
            GlobalAction::Messages => Popup::Messages(messages::Messages::newest()),
            GlobalAction::CopyMenu => Popup::CopyMenu(copy_menu::CopyMenu),
            GlobalAction::CopyCode => Popup::CopyCode(copy_code::CopyCode::default()),
            GlobalAction::Operations => Popup::Operations(operations::Operations::open(ctx)),
            GlobalAction::Quit | GlobalAction::Show(_) => return None,
        })
    }
}

/// Whether a popup's answer closes it.
pub fn closes(effects: &[PopupEffect]) -> bool {
    effects.iter().any(|e| matches!(e, PopupEffect::Close))
}

#[cfg(test)]
mod tests;
