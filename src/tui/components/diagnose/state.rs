//! The diagnose view's state.

use ratatui_textarea::TextArea;

use super::keys::Action;

/// Which key source the diagnose view uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagKey {
    /// The REST key of the current profile.
    Profile,
    /// The demo account's key.
    Demo,
}

/// State of the diagnose view.
pub struct DiagnoseState {
    pub input: TextArea<'static>,
    /// The client's own signing text, when the user pastes it (Alt-T shows this box in the
    /// capture's place); compared byte by byte with the expected text when no known mistake
    /// explains a mismatch, as `verify --client-text` does.
    pub client_text: TextArea<'static>,
    /// The top box shows (and takes keys for) the client's signing text, not the capture.
    pub on_client_text: bool,
    pub key: DiagKey,
    /// Verdict and findings as lines (computed by a command).
    pub report: Vec<String>,
    pub ok: Option<bool>,
    /// Rows of the report scrolled off the top (mouse wheel).
    pub report_scroll: u16,
    /// Normal mode: the capture box takes no text (Esc toggles).
    pub normal_mode: bool,
    /// The body file of a pasted curl command, loaded: its name as the command writes it and
    /// its bytes (read as curl reads them when verified).
    pub body_file: Option<(String, bytes::Bytes)>,
    /// The question "load body from FILE? y/n" and the action to run once it is loaded.
    pub offer: Option<(String, Action)>,
    /// The body file being read (the runtime answers with [`on_body_file`]).
    pub reading: Option<(String, Action)>,
}

impl Default for DiagnoseState {
    fn default() -> Self {
        let mut input = TextArea::default();
        input.set_placeholder_text("Paste a raw HTTP request or a curl command, then press Ctrl-G");
        let mut client_text = TextArea::default();
        client_text.set_placeholder_text(
            "Optional: paste the text the client signed (Alt-T back to the capture), then Ctrl-G",
        );
        DiagnoseState {
            input,
            client_text,
            on_client_text: false,
            key: DiagKey::Profile,
            report: Vec::new(),
            ok: None,
            report_scroll: 0,
            normal_mode: false,
            body_file: None,
            offer: None,
            reading: None,
        }
    }
}

impl DiagnoseState {
    /// The box shown at the top: the capture, or the client's signing text.
    pub fn shown_mut(&mut self) -> &mut TextArea<'static> {
        if self.on_client_text {
            &mut self.client_text
        } else {
            &mut self.input
        }
    }

    /// The client's signing text as pasted (`None` when its box is empty).
    pub fn client_text(&self) -> Option<String> {
        let text = self.client_text.lines().join("\n");
        (!text.is_empty()).then_some(text)
    }
}
