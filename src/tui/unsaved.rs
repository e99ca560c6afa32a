//! Asking before a load replaces unsaved edits. Every way of putting something else into the
//! request editor (switching profile, loading a history entry, a Traffic record or the Diagnose
//! view's capture) goes through [`load_or_ask`]: it loads at once when nothing would be lost,
//! and otherwise asks save / discard / cancel, as quitting does.

use crossterm::event::{KeyCode, KeyEvent};

use super::app::{App, Popup};
use super::components::request::RequestMsg;
use super::effect::Command;
use super::layout::View;
use super::message::Message;
use super::model::PendingLoad;

/// Load `load` now when the current profile has no unsaved edits; otherwise open the question
/// (s: save, then load · d: discard the edits and load · Esc: cancel, nothing loaded).
pub fn load_or_ask(app: &mut App, load: PendingLoad) -> Vec<Command> {
    if app.unsaved() {
        app.popup = Some(Popup::ConfirmLoad(Box::new(load)));
        vec![]
    } else {
        run_load(app, load)
    }
}

/// Load without asking (the request view shows what was loaded).
pub fn run_load(app: &mut App, load: PendingLoad) -> Vec<Command> {
    app.view = View::Request;
    match load {
        PendingLoad::Profile(name) => vec![Command::LoadProfile(name)],
        PendingLoad::Request {
            request: r,
            timestamp,
            what,
            note,
        } => {
            app.send(Message::Request(RequestMsg::LoadRequest {
                request: r,
                timestamp,
                what,
                note,
            }));
            vec![]
        }
    }
}

/// A key while the question is open.
pub fn on_key(app: &mut App, load: Box<PendingLoad>, key: KeyEvent) -> Vec<Command> {
    match key.code {
        KeyCode::Char('d') | KeyCode::Char('D') => run_load(app, *load),
        KeyCode::Char('s') | KeyCode::Char('S') => {
            // Saved first (the demo profile asks for a name); the load follows the save.
            app.view = View::Request;
            app.load_after_save = Some(load);
            app.send(Message::Request(RequestMsg::Save));
            vec![]
        }
        KeyCode::Esc | KeyCode::Char('c') | KeyCode::Char('C') | KeyCode::Char('q') => {
            app.status = format!("kept the unsaved edits; {} not loaded", load.describe());
            vec![]
        }
        _ => {
            app.popup = Some(Popup::ConfirmLoad(load));
            vec![]
        }
    }
}

/// The question's lines.
pub fn question(load: &PendingLoad) -> Vec<String> {
    vec![
        "There are unsaved edits to this profile.".into(),
        format!("Loading {} replaces them.", load.describe()),
        "s: save, then load".into(),
        "d: discard the edits and load".into(),
        "Esc: cancel (nothing is loaded)".into(),
    ]
}

#[cfg(test)]
#[path = "unsaved_tests.rs"]
mod tests;
