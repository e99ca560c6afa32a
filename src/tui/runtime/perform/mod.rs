//! The effect performer: runs the Commands `update` returns (signing worker, engine sends,
//! profile store, files, clipboard) off the draw path, and answers with Messages.
//!
//! [`Effects::execute`] is a dispatch: each effect family is performed by its own module —
//! [`request`] (signing, sends, the REST key read, the clipboard), [`profiles`] (the
//! workbench's profile and the profile manager), [`capture`] (the Diagnose view's captures),
//! [`traffic`] (the live stream and HAR files), [`events`] (the Events view's sends, files and
//! validation, [`validate`] its worker thread) and [`lesson`] (the lesson's progress file).

mod capture;
mod events;
mod lesson;
mod profiles;
mod request;
mod traffic;
mod validate;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::mpsc::UnboundedSender;

use crate::engine::{Sender, Session};
use crate::tui::components::events::EventsMsg;
use crate::tui::components::request::RequestMsg;
use crate::tui::effect::Command;
use crate::tui::message::Message;
use crate::tui::signing::SignWorker;

use crate::tui::component::{Clip, KeyRead};
pub use validate::ValidateWorker;

/// What "no session" answers (tests that need no disk).
const NO_SESSION: &str = "profiles are not available (no config directory)";

/// Everything the runtime owns besides the App.
pub struct Effects {
    pub tx: UnboundedSender<Message>,
    pub signer: SignWorker,
    /// Validates big event batches off the draw path.
    pub validator: ValidateWorker,
    /// Sends without a session (nothing recorded, no profile marked), and reads what the local
    /// collector stored.
    offline: Sender,
    pub clipboard: Option<arboard::Clipboard>,
    /// The engine's session: profiles, history, the embedded server (None in tests that need no
    /// disk).
    pub session: Option<Session>,
    /// The REST key read under way (its job id) and the flag that stops it.
    key_read: Option<(u64, Arc<AtomicBool>)>,
    /// The request view's send under way (its job id) and what stops it.
    send_task: Option<(u64, tokio::task::AbortHandle)>,
}

impl Effects {
    pub fn new(tx: UnboundedSender<Message>) -> Self {
        let out = tx.clone();
        let signer = SignWorker::spawn(move |a| {
            let _ = out.send(Message::Request(RequestMsg::Signing(a)));
        });
        let out = tx.clone();
        let validator = ValidateWorker::spawn(move |v| {
            let _ = out.send(Message::Events(EventsMsg::Validated(Box::new(v))));
        });
        Effects {
            tx,
            signer,
            validator,
            offline: Sender::unrecorded(),
            clipboard: None,
            session: None,
            key_read: None,
            send_task: None,
        }
    }

    /// The engine's sender for the profile in use (records in the history), or one that records
    /// nothing when there is no session.
    fn sender(&self) -> Sender {
        match &self.session {
            Some(s) => s.sender(),
            None => self.offline.clone(),
        }
    }

    /// Answer the event loop (it has closed only when the workbench quits).
    fn answer(&self, msg: Message) {
        let _ = self.tx.send(msg);
    }

    /// Remember the session's profile as the last used one, on a blocking thread (the write
    /// syncs to disk): the workbench opens its session unmarked and does this after the first
    /// frame (`docs/architecture.md`, "Last used profile").
    pub fn mark_last_used(&self) {
        if let Some(s) = &self.session {
            tokio::task::spawn_blocking(s.last_used_marker());
        }
    }

    /// Execute one command that does not need the terminal: each family to its performer.
    pub fn execute(&mut self, cmd: Command) {
        match cmd {
            Command::Sign(job) => self.sign(*job),
            Command::Send(job) => self.send(*job),
            Command::ResolveKey(KeyRead { id, source }) => self.resolve_key(id, source),
            Command::CancelKey(id) => self.cancel_key(id),
            Command::CancelSend(id) => self.cancel_send(id),
            Command::Copy(Clip { text, what }) => self.copy_text(&text, what),
            Command::ListProfiles => self.list_profiles(),
            Command::LoadProfile(name) => self.load_profile(&name),
            Command::SaveProfile(job) => self.save_profile(*job),
            Command::Profiles(e) => self.profiles_effect(e),
            Command::ReloadProfiles => self.reload_profiles(),
            Command::History(_) | Command::ReloadHistory => self.reload_history(),
            Command::Diagnose {
                effect,
                key,
                prefix,
            } => self.capture_effect(effect, &key, &prefix),
            Command::FollowTraffic(base) => self.follow_traffic(&base),
            Command::Traffic { effect, key } => self.traffic_effect(effect, key),
            Command::Events(e) => self.events_effect(e),
            Command::Lesson(e) => self.lesson_effect(e),
            Command::EditBody(_) | Command::Quit => {}
        }
    }
}

impl Drop for Effects {
    /// Quitting stops a key command still running (a `pass` waiting for a PIN): the runtime
    /// would otherwise wait for it before the process can exit.
    fn drop(&mut self) {
        if let Some((_, stop)) = self.key_read.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod body_file_tests;
