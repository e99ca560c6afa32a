//! What the popups share of the one component protocol (`crate::tui::component::Component`):
//! what a popup reads ([`Ctx`]), what it is told ([`PopupInput`]) and what it answers
//! ([`PopupEffect`]).

use crossterm::event::{KeyCode, KeyEvent, MouseEvent};
use ratatui::layout::Rect;
use ratatui::Frame;

use crate::tui::component::{Clip, Component};
use crate::tui::components::events::EventsState;
use crate::tui::components::history::HistoryState;
use crate::tui::components::profiles::ProfilesState;
use crate::tui::components::request::{RequestMsg, RequestState};
use crate::tui::layout::View;
use crate::tui::model::PendingLoad;
use crate::tui::palette::PaletteAction;
use crate::tui::status::MessageLog;
use crate::tui::theme::Theme;

/// What the popups read of the workbench.
pub struct Ctx<'a> {
    pub view: View,
    /// The terminal's size (columns, rows).
    pub size: (u16, u16),
    pub log: &'a MessageLog,
    pub request: &'a RequestState,
    pub events: &'a EventsState,
    pub history: &'a HistoryState,
    pub profiles: &'a ProfilesState,
}

impl Ctx<'_> {
    /// The whole screen.
    pub fn screen(&self) -> Rect {
        Rect::new(0, 0, self.size.0, self.size.1)
    }
}

/// What a popup asks of the router.
#[derive(Debug)]
pub enum PopupEffect {
    /// The popup closes (without it, it stays open).
    Close,
    /// A message for the status line.
    Status(String),
    /// Run an action of the current view or a global one (the palette, the copy menu).
    Run(PaletteAction),
    /// Copy `text`, named `what` in the status line.
    Copy(Clip),
    /// Show the request view and hand it this message.
    Request(RequestMsg),
    /// Quit without saving.
    Quit,
    /// Save the profile (asking what the save needs), then quit.
    SaveThenQuit,
    /// Save the profile, then run this load.
    SaveThenLoad(Box<PendingLoad>),
    /// Load now (the unsaved edits are dropped).
    Load(PendingLoad),
    /// Load, asking first when unsaved edits would be lost.
    LoadOrAsk(PendingLoad),
}

/// What a popup is told: a key, or the mouse over the screen (most popups ignore it).
#[derive(Clone, Copy, Debug)]
pub enum PopupInput {
    Key(KeyEvent),
    Mouse(MouseEvent),
}

/// A popup that answers keys only (a click over it does nothing): it says what a key does and
/// how it draws, and it is a [`Component`] through the impl below, which every such popup shares.
pub trait KeyPopup {
    fn on_key(&mut self, key: &KeyEvent, ctx: &Ctx<'_>) -> Vec<PopupEffect>;
    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>, theme: &Theme);
}

impl<T: KeyPopup> Component for T {
    type Msg = PopupInput;
    type Effect = PopupEffect;
    type Ctx<'a> = Ctx<'a>;

    fn update(&mut self, input: PopupInput, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        match &input {
            PopupInput::Key(key) => self.on_key(key, ctx),
            PopupInput::Mouse(_) => vec![],
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>, theme: &Theme) {
        KeyPopup::draw(self, frame, area, ctx, theme)
    }
}

/// Where a scrolled popup (help, message log) goes on `key`, from row `at` of `max`: arrows (and
/// `j` / `k`) a row, pages ten, Home / End the ends; None for any other key (which closes it).
pub fn scroll_key(key: &KeyEvent, at: u16, max: u16) -> Option<u16> {
    let to = match key.code {
        KeyCode::Down | KeyCode::Char('j') => at.saturating_add(1),
        KeyCode::Up | KeyCode::Char('k') => at.saturating_sub(1),
        KeyCode::PageDown => at.saturating_add(10),
        KeyCode::PageUp => at.saturating_sub(10),
        KeyCode::Home => 0,
        KeyCode::End => max,
        _ => return None,
    };
    Some(to.min(max))
}

/// What a picker popup answers to its picker's outcome: nothing while it stays open, `Close`
/// when it is closed, and for a chosen row `Close` then what choosing row `i` does.
pub fn on_pick(
    picked: crate::tui::widgets::picker::Picked,
    choose: impl FnOnce(usize) -> PopupEffect,
) -> Vec<PopupEffect> {
    use crate::tui::widgets::picker::Picked;
    match picked {
        Picked::Open => vec![],
        Picked::Closed => vec![PopupEffect::Close],
        Picked::Row(i) => vec![PopupEffect::Close, choose(i)],
    }
}
