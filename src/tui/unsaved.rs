//! Asking before a load replaces unsaved edits. Every way of putting something else into the
//! request editor (switching profile, loading a history entry, a Traffic record or the Diagnose
//! view's capture), and every batch put into the Events view (a file opened there, a history
//! entry's batch), goes through [`load_or_ask`]: it loads at once when nothing would be lost,
//! and otherwise asks save / discard / cancel, as quitting does.

use super::app::{App, Popup};
use super::components::events::EventsMsg;
use super::components::request::RequestMsg;
use super::effect::Command;
use super::layout::View;
use super::message::Message;
use super::model::PendingLoad;

/// Load `load` now when the current profile has no unsaved edits; otherwise open the question
/// (s: save, then load · d: discard the edits and load · Esc: cancel, nothing loaded).
pub fn load_or_ask(app: &mut App, load: PendingLoad) -> Vec<Command> {
    // A batch replaces only the Events view's batch: the request's edits stay as they are.
    let loses_edits = match &load {
        PendingLoad::Batch { .. } => app.events.batch_unsaved(),
        _ => app.unsaved(),
    };
    if loses_edits {
        app.popup = Some(Popup::confirm_load(load));
        vec![]
    } else {
        run_load(app, load)
    }
}

/// Load without asking (the request view shows what was loaded).
pub fn run_load(app: &mut App, load: PendingLoad) -> Vec<Command> {
    if let PendingLoad::Batch { text, path, .. } = load {
        app.view = View::Events;
        let msg = match path {
            Some(path) => EventsMsg::LoadFile { path, text },
            None => EventsMsg::LoadBatch(text),
        };
        app.send(Message::Events(msg));
        return vec![];
    }
    app.view = View::Request;
    match load {
        PendingLoad::Profile(name) => vec![Command::LoadProfile(name)],
        PendingLoad::Request(load) => {
            app.send(Message::Request(RequestMsg::LoadRequest(load)));
            vec![]
        }
        PendingLoad::Batch { .. } => vec![],
    }
}

#[cfg(test)]
#[path = "unsaved_tests.rs"]
mod tests;
