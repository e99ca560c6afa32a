//! The batch as text: into the raw JSON editor and back to the form, and a batch loaded from
//! JSON text (a file, a profile, a history entry), into the form when it can hold it.

use serde_json::Value;

use super::state::{EventsState, Field, Focus, Mode};
use crate::core::events::{self as ev, draft_from_value};
use crate::tui::widgets::body_editor::BodyEditor;

impl EventsState {
    pub(super) fn enter_raw(&mut self) {
        self.ensure_current();
        let text = self.preview.clone();
        self.raw = BodyEditor::new(&text);
        self.mode = Mode::Raw;
        self.set_focus(Focus::Raw);
        self.refresh();
    }

    /// Back to the form; refused (nothing lost) when the raw text is not a JSON array.
    pub(super) fn leave_raw(&mut self) -> Result<(), String> {
        let value: Value = serde_json::from_str(self.raw.text()).map_err(|e| {
            format!(
                "The raw JSON does not parse (line {} column {}); fix it before going back to the form.",
                e.line(),
                e.column()
            )
        })?;
        let (draft, extras) = draft_from_value(&value).map_err(|e| e.to_string())?;
        self.raw_why = None;
        self.mode = Mode::Form;
        self.focus = Focus::Field(Field::ListId);
        self.set_draft(draft, extras);
        Ok(())
    }

    /// Load a batch from JSON text: into the form, keeping the exact bytes as what is validated
    /// and sent until the first edit; into the raw editor when the form cannot hold it (not a
    /// batch the form knows, or a member written twice, which a form has one cell for), so
    /// nothing is lost or rewritten.
    pub(super) fn load_text(&mut self, text: &str) -> String {
        let parsed = serde_json::from_str::<Value>(text)
            .map_err(|e| format!("line {} column {}: {e}", e.line(), e.column()))
            .and_then(|v| draft_from_value(&v).map_err(|e| e.to_string()))
            .and_then(|form| match duplicate_member(text) {
                Some(path) => Err(format!(
                    "{path} is written twice, and the form has one cell for it"
                )),
                None => Ok(form),
            });
        match parsed {
            Ok((draft, extras)) => {
                self.mode = Mode::Form;
                if !matches!(self.focus, Focus::Field(_) | Focus::Items | Focus::Problems) {
                    self.focus = Focus::Field(Field::ListId);
                }
                self.set_draft(draft, extras);
                self.exact = Some((self.rev, std::sync::Arc::new(text.as_bytes().to_vec())));
                self.raw_why = None;
                "Batch loaded into the form.".into()
            }
            Err(why) => {
                self.raw = BodyEditor::new(text);
                self.mode = Mode::Raw;
                self.set_focus(Focus::Raw);
                self.refresh();
                let said = format!("Loaded as raw JSON (the form cannot show it: {why}).");
                self.raw_why = Some(why);
                said
            }
        }
    }
}

/// The path of the first member written twice in one object of `text`, if any (as
/// `signscope events validate` reports it).
fn duplicate_member(text: &str) -> Option<String> {
    ev::validate_bytes(text.as_bytes())
        .problems
        .into_iter()
        .find(|p| p.code == ev::codes::DUPLICATE_FIELD)
        .map(|p| p.path)
}
