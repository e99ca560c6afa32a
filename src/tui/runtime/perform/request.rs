//! The request view's effects: signing (the worker), the send through the engine, the REST key
//! read off the UI thread, and the clipboard (every view's copy is this one).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::super::send::send;
use super::Effects;
use crate::tui::components::request::RequestMsg;
use crate::tui::effect::SendJob;
use crate::tui::message::Message;
use crate::tui::signing::SignJob;

impl Effects {
    pub(super) fn sign(&mut self, job: SignJob) {
        tracing::trace!(
            job = job.id,
            body_len = job.spec.body.len(),
            changed_from = ?job.changed_from,
            "sign job"
        );
        self.signer.submit(job)
    }

    /// Send the signed request as it is, on the runtime's tokio threads; answered with
    /// `RequestMsg::SendDone`.
    pub(super) fn send(&mut self, job: SendJob) {
        let tx = self.tx.clone();
        // The history names the saved request the editor held.
        let sender = match &job.request_name {
            Some(n) => self.sender().with_request_name(Some(n.clone())),
            None => self.sender(),
        };
        tracing::debug!(
            job = job.id,
            url = %job.url,
            method = %job.signed.spec().method,
            body_len = job.signed.spec().body.len(),
            timestamp = %job.signed.timestamp(),
            "send started"
        );
        let id = job.id;
        let task = tokio::spawn(async move {
            let id = job.id;
            let started = std::time::Instant::now();
            let result = send(sender, job, tx.clone()).await;
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            match &result {
                Ok(v) => tracing::debug!(
                    job = id,
                    status = v.status,
                    code = v.code.as_deref().unwrap_or("-"),
                    elapsed_ms = ms,
                    "send finished"
                ),
                Err(e) => {
                    tracing::debug!(job = id, error = %e, elapsed_ms = ms, "send failed")
                }
            }
            let _ = tx.send(Message::Request(RequestMsg::SendDone { id, result }));
        });
        self.send_task = Some((id, task.abort_handle()));
    }

    /// Stop the send `id` if it is the one under way (Alt-G): its task is aborted, which drops
    /// the request and closes its connection; no `SendDone` comes.
    pub(super) fn cancel_send(&mut self, id: u64) {
        if let Some((running, task)) = self.send_task.take() {
            if running == id {
                tracing::debug!(job = id, "send cancelled");
                task.abort();
            } else {
                self.send_task = Some((running, task));
            }
        }
    }

    /// Read the REST key from `source` on a blocking thread (job `id`); answered with
    /// `RequestMsg::KeyResolved`. One read at a time: a newer profile's read stops the older one.
    pub(super) fn resolve_key(&mut self, id: u64, source: crate::store::KeySource) {
        if let Some((_, stop)) = self.key_read.take() {
            stop.store(true, Ordering::Relaxed);
        }
        let stop = Arc::new(AtomicBool::new(false));
        self.key_read = Some((id, stop.clone()));
        tracing::debug!(job = id, source = source.kind(), "REST key read started");
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let result = source
                .resolve_cancellable(crate::tui::KEY_COMMAND_TIMEOUT, &stop)
                .map_err(|e| e.to_string());
            let _ = tx.send(Message::Request(RequestMsg::KeyResolved { id, result }));
        });
    }

    /// Stop the key read `id` if it is the one running (Esc).
    pub(super) fn cancel_key(&mut self, id: u64) {
        if let Some((running, stop)) = self.key_read.take() {
            if running == id {
                tracing::debug!(job = id, "REST key read cancelled");
                stop.store(true, Ordering::Relaxed);
            } else {
                self.key_read = Some((running, stop));
            }
        }
    }

    /// Copy `text`, answered with `Message::Copied` (`what` names it in the status line).
    pub(super) fn copy_text(&mut self, text: &str, what: String) {
        tracing::debug!(what = %what, "copy");
        let result = self.copy(text, what);
        self.answer(Message::Copied(result));
    }

    /// Copy to the system clipboard, or with an OSC 52 escape (works over SSH in most terminals).
    /// `what` names what was copied (the component that asked knows).
    fn copy(&mut self, text: &str, what: String) -> Result<String, String> {
        if self.clipboard.is_none() {
            self.clipboard = arboard::Clipboard::new().ok();
        }
        if let Some(cb) = self.clipboard.as_mut() {
            if cb.set_text(text.to_string()).is_ok() {
                return Ok(what);
            }
        }
        use base64::Engine;
        let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
        let mut out = std::io::stdout();
        write!(out, "\x1b]52;c;{b64}\x07")
            .and_then(|_| out.flush())
            .map_err(|e| format!("could not copy to the clipboard: {e}"))?;
        Ok(format!("{what} (via the terminal, OSC 52)"))
    }
}
