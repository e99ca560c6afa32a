//! The router's popups, over every view: one module each, owning its state, its keys and its
//! drawing, as a view's component does (see `docs/architecture.md`, "The workbench"). A popup
//! reads the workbench through [`Ctx`] (never the App) and answers a key with
//! [`PopupEffect`]s, which the router in `update.rs` routes like every view's effects; it stays
//! open until it answers [`PopupEffect::Close`]. (The request view's own prompts are its state.)

use ratatui::layout::Rect;
use ratatui::Frame;

use super::component::Component;
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
pub mod problems;
pub mod profiles;

pub use component::{Ctx, PopupEffect, PopupInput};

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
    BodyProblems(problems::BodyProblems),
}

/// The open popup is a component: what it is told goes to the one open, and it draws.
impl Component for Popup {
    type Msg = PopupInput;
    type Effect = PopupEffect;
    type Ctx<'a> = Ctx<'a>;

    fn update(&mut self, input: PopupInput, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        match self {
            Popup::Help(p) => p.update(input, ctx),
            Popup::ConfirmQuit(p) => p.update(input, ctx),
            Popup::ConfirmLoad(p) => p.update(input, ctx),
            Popup::Profiles(p) => p.update(input, ctx),
            Popup::Palette(p) => p.update(input, ctx),
            Popup::Messages(p) => p.update(input, ctx),
            Popup::CopyMenu(p) => p.update(input, ctx),
            Popup::CopyCode(p) => p.update(input, ctx),
            Popup::Operations(p) => p.update(input, ctx),
            Popup::BodyProblems(p) => p.update(input, ctx),
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>, theme: &Theme) {
        match self {
            Popup::Help(p) => p.draw(frame, area, ctx, theme),
            Popup::ConfirmQuit(p) => p.draw(frame, area, ctx, theme),
            Popup::ConfirmLoad(p) => p.draw(frame, area, ctx, theme),
            Popup::Profiles(p) => p.draw(frame, area, ctx, theme),
            Popup::Palette(p) => p.draw(frame, area, ctx, theme),
            Popup::Messages(p) => p.draw(frame, area, ctx, theme),
            Popup::CopyMenu(p) => p.draw(frame, area, ctx, theme),
            Popup::CopyCode(p) => p.draw(frame, area, ctx, theme),
            Popup::Operations(p) => p.draw(frame, area, ctx, theme),
            Popup::BodyProblems(p) => p.draw(frame, area, ctx, theme),
        }
    }
}

impl Popup {
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

    /// The list of the request body's problems (the request view's Alt-H).
    pub fn body_problems(ctx: &Ctx<'_>) -> Popup {
        Popup::BodyProblems(problems::BodyProblems::open(ctx))
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
