//! The Events view's effects: the batch's send through the engine, the collector's stored
//! copy, the batch's files, and validation on the worker thread ([`super::ValidateWorker`]).

use std::path::PathBuf;

use super::super::send::send_events;
use super::Effects;
use crate::tui::component::Clip;
use crate::tui::components::events::{EventsEffect, EventsMsg};
use crate::tui::message::Message;

impl Effects {
    pub(super) fn events_effect(&mut self, e: EventsEffect) {
        match e {
            EventsEffect::SendEvents {
                analytics_url,
                body,
            } => self.send_events(analytics_url, body),
            EventsEffect::FetchStored { url } => self.fetch_stored(url),
            EventsEffect::LoadFile(path) => self.events_file(load_file(path)),
            EventsEffect::SaveNewFile(path, text) => {
                self.events_file(move || save_file(path, &text, true))
            }
            EventsEffect::SaveFile(path, text) => {
                tracing::debug!(path = %path.display(), bytes = text.len(), "save events file");
                self.events_file(move || save_file(path, &text, false))
            }
            // The router says these itself (the status line, the one copy command).
            EventsEffect::Status(_) | EventsEffect::Copy(Clip { .. }) => {}
            EventsEffect::Validate(job) => {
                tracing::trace!(rev = job.rev, "events validation job");
                self.validator.submit(*job);
            }
        }
    }

    /// Send the batch to the collector at `analytics_url` through the engine (the profile's
    /// REST key source for its key references); answered with `EventsMsg::Sent`.
    fn send_events(&mut self, analytics_url: String, body: bytes::Bytes) {
        tracing::debug!(url = %analytics_url, body_len = body.len(), "events send started");
        let tx = self.tx.clone();
        let sender = self.sender();
        let key_source = self.session.as_ref().map(|s| s.profile().rest_key.clone());
        tokio::spawn(async move {
            let result = send_events(sender, analytics_url, body, key_source, tx.clone()).await;
            match &result {
                Ok(r) => tracing::debug!(
                    status = r.status,
                    elapsed_ms = r.elapsed_ms,
                    "events send finished"
                ),
                Err(e) => tracing::debug!(error = %e, "events send failed"),
            }
            let _ = tx.send(Message::Events(EventsMsg::Sent(result)));
        });
    }

    /// What the local collector stored at `url`; answered with `EventsMsg::Stored`.
    fn fetch_stored(&mut self, url: String) {
        let tx = self.tx.clone();
        let sender = self.offline.clone();
        tokio::spawn(async move {
            let result = sender.get_text(&url).await.map_err(|e| e.to_string());
            let _ = tx.send(Message::Events(EventsMsg::Stored(result)));
        });
    }

    /// Run a file operation of the view on a blocking thread and answer with its message.
    fn events_file(&mut self, op: impl FnOnce() -> EventsMsg + Send + 'static) {
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let _ = tx.send(Message::Events(op()));
        });
    }
}

/// Read a batch file: its text, or why not.
fn load_file(path: PathBuf) -> impl FnOnce() -> EventsMsg + Send + 'static {
    tracing::debug!(path = %path.display(), "load events file");
    move || match std::fs::read_to_string(&path) {
        Ok(text) => EventsMsg::FileLoaded { path, text },
        Err(e) => EventsMsg::FileError(format!("cannot read {}: {e}", path.display())),
    }
}

/// Write a batch file, atomically (temp file + rename): a failed save leaves the old file
/// whole. `new`: a new file, never over an existing one (answered with `FileExists`); an
/// existing file keeps its permissions.
fn save_file(path: PathBuf, text: &str, new: bool) -> EventsMsg {
    let mode = if new {
        if std::fs::symlink_metadata(&path).is_ok() {
            return EventsMsg::FileExists(path);
        }
        0o644
    } else {
        existing_mode(&path).unwrap_or(0o644)
    };
    match crate::store::profile::write_atomic(&path, text.as_bytes(), mode) {
        Ok(()) => EventsMsg::FileSaved(path),
        Err(e) => EventsMsg::FileError(e.to_string()),
    }
}

/// The permission bits of an existing file.
fn existing_mode(path: &std::path::Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777)
}
