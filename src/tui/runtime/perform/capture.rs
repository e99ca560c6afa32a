//! The Diagnose view's effects: judge a pasted capture (at the clock's time, or its own), read
//! the body file a curl command names, and parse a capture into the request editor.

use chrono::Utc;

use super::Effects;
use crate::core::Secret;
use crate::tui::components::diagnose::{
    capture_fields, diagnose_capture_with, judged_at, parse_capture_with, DiagnoseEffect,
    DiagnoseMsg,
};
use crate::tui::message::Message;

impl Effects {
    /// One of the Diagnose view's effects, with the REST key a diagnosis verifies with and the
    /// header prefix a capture is read with.
    pub(super) fn capture_effect(&mut self, effect: DiagnoseEffect, key: &Secret, prefix: &str) {
        match effect {
            DiagnoseEffect::Diagnose {
                text,
                body,
                client_text,
                own_time,
                ..
            } => self.diagnose(
                (&text, body.as_deref(), client_text.as_deref()),
                key,
                prefix,
                own_time,
            ),
            DiagnoseEffect::ReadBody { file } => self.read_capture_body(file),
            DiagnoseEffect::ParseCapture { text, body } => {
                self.parse_capture(&text, body.as_deref(), prefix)
            }
            // The router's: the status line, the profile picker.
            DiagnoseEffect::Status(_) | DiagnoseEffect::ListProfiles => {}
        }
    }

    /// Verify and diagnose the capture `text` (with `body`, the loaded body file of a curl
    /// command, and `client_text`, the client's own signing text) with `key`; answered with
    /// `DiagnoseMsg::Diagnosed`.
    fn diagnose(
        &mut self,
        (text, body, client_text): (&str, Option<&[u8]>, Option<&str>),
        key: &Secret,
        prefix: &str,
        own_time: bool,
    ) {
        let (at, note) = judged_at(text, body, prefix, own_time, Utc::now());
        let (ok, mut lines) =
            diagnose_capture_with(text, body, client_text.map(str::as_bytes), key, prefix, at);
        lines.extend(note);
        tracing::debug!(capture_len = text.len(), accepted = ok, "capture diagnosed");
        self.answer(Message::Diagnose(DiagnoseMsg::Diagnosed { ok, lines }));
    }

    fn read_capture_body(&mut self, file: String) {
        let result = read_capture_body(&file);
        self.answer(Message::Diagnose(DiagnoseMsg::BodyFile { file, result }));
    }

    /// Load the capture into the request editor, or say in the Diagnose view why it cannot be
    /// read.
    fn parse_capture(&mut self, text: &str, body: Option<&[u8]>, prefix: &str) {
        let msg = match parse_capture_with(text, body) {
            Ok(req) => {
                let (fields, timestamp) = capture_fields(&req, prefix);
                Message::LoadRequest {
                    request: Box::new(fields),
                    timestamp,
                }
            }
            Err(e) => Message::Diagnose(DiagnoseMsg::Diagnosed {
                ok: false,
                lines: vec![e],
            }),
        };
        self.answer(msg);
    }
}

/// The body file a pasted curl command names, read relative to the working directory; or why
/// not, in one sentence naming the file.
pub fn read_capture_body(file: &str) -> Result<Vec<u8>, String> {
    std::fs::read(file).map_err(|e| {
        let cwd = std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|_| "the working directory".into());
        format!(
            "cannot read the body file {file} (looked for from {cwd}): {}",
            crate::store::io_reason(&e)
        )
    })
}
