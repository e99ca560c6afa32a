//! The diagnose view's state.

use super::keys::Action;
use crate::tui::widgets::body_editor::BodyEditor;

/// Which key source the diagnose view uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiagKey {
    /// The REST key of the current profile.
    #[default]
    Profile,
    /// The demo account's key.
    Demo,
}

/// State of the diagnose view. Its boxes start empty: their instructions are drawn by the view
/// (`draw::placeholder`), wrapped and naming the keys the keymap has when it is drawn.
#[derive(Default)]
pub struct DiagnoseState {
    /// The capture, in the request body's editor: its bytes are kept exactly as pasted (CRs
    /// included), with the same undo, search-free editing and large-text window.
    pub input: BodyEditor,
    /// The client's own signing text, when the user pastes it (Alt-T shows this box in the
    /// capture's place); compared byte by byte with the expected text when no known mistake
    /// explains a mismatch, as `verify --client-text` does.
    pub client_text: BodyEditor,
    /// The top box shows (and takes keys for) the client's signing text, not the capture.
    pub on_client_text: bool,
    pub key: DiagKey,
    /// Judge at the capture's own time (its timestamp header), not the current time.
    pub own_time: bool,
    /// Verdict and findings as lines (computed by a command).
    pub report: Vec<String>,
    pub ok: Option<bool>,
    /// Rows of the report scrolled off the top (mouse wheel).
    pub report_scroll: u16,
    /// Normal mode (Esc, as in the request view): the capture box takes no text, the keys
    /// scroll the verdict; `i` or Enter goes back to typing (insert mode).
    pub normal_mode: bool,
    /// The body file of a pasted curl command, loaded: its name as the command writes it and
    /// its bytes (read as curl reads them when verified).
    pub body_file: Option<(String, bytes::Bytes)>,
    /// The question "load body from FILE? y/n" and the action to run once it is loaded.
    pub offer: Option<(String, Action)>,
    /// The body file being read (the runtime answers with [`on_body_file`]).
    pub reading: Option<(String, Action)>,
}

impl DiagnoseState {
    /// The box shown at the top: the capture, or the client's signing text.
    pub fn shown_mut(&mut self) -> &mut BodyEditor {
        if self.on_client_text {
            &mut self.client_text
        } else {
            &mut self.input
        }
    }

    /// The box shown at the top: the capture, or the client's signing text.
    pub fn shown(&self) -> &BodyEditor {
        if self.on_client_text {
            &self.client_text
        } else {
            &self.input
        }
    }

    /// The client's signing text as pasted (`None` when its box is empty).
    pub fn client_text(&self) -> Option<String> {
        let text = self.client_text.text();
        (!text.is_empty()).then(|| text.to_string())
    }
}
