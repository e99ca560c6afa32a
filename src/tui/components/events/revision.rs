//! The validation of the view's batch as the view holds it: which revision is shown, a job for
//! the current one (`validate.rs` builds and runs it), its result shown.

use super::state::{EventsState, Mode};
use super::validate::{JobInput, ValidateJob, Validated, INLINE_VALIDATE_LINES};

impl EventsState {
    /// True while the preview and problems on screen are older than the form.
    pub fn validating(&self) -> bool {
        self.shown_rev != self.rev
    }

    /// A job for the current revision.
    pub fn validate_job(&self) -> ValidateJob {
        let input = match (self.mode, &self.exact) {
            // Loaded and not edited since: the bytes as loaded, not the form's rendering of
            // them (the same problems as `signscope events validate` on the file).
            (Mode::Form, Some((rev, bytes))) if *rev == self.rev => {
                JobInput::Raw(std::sync::Arc::clone(bytes))
            }
            (Mode::Form, _) if self.order => JobInput::Order(Box::new(self.draft.clone())),
            (Mode::Form, _) => JobInput::Form(Box::new((self.draft.clone(), self.extras.clone()))),
            (Mode::Raw, _) => JobInput::Raw(std::sync::Arc::clone(self.raw.bytes())),
        };
        ValidateJob {
            rev: self.rev,
            input,
        }
    }

    /// Show a validation result if it is for the current revision; a stale one is dropped
    /// (returns false).
    pub(super) fn apply(&mut self, v: Validated) -> bool {
        if v.rev != self.rev {
            return false;
        }
        self.preview = v.preview;
        self.preview_events = v.events;
        self.preview_lines = v.lines;
        self.problems = v.problems;
        self.omitted = v.omitted;
        self.problem_sel = self.problem_sel.min(self.problems.len().saturating_sub(1));
        self.preview_scroll = self.preview_scroll.min(self.max_preview_scroll());
        self.shown_rev = v.rev;
        true
    }

    /// The view was opened: a batch small enough to validate inside `update` is validated now
    /// if the worker has not answered for it yet; a larger one stays "validating…" until the
    /// worker answers, as it does on screen (the draw path never validates it).
    pub fn opened(&mut self) {
        if self.validate_inline() {
            self.ensure_current();
        }
    }

    /// Validate now if what is shown is stale (before sending, copying or saving the text,
    /// which must be the current batch).
    pub(super) fn ensure_current(&mut self) {
        if self.validating() {
            let v = self.validate_job().run();
            self.requested = self.rev;
            self.apply(v);
        }
    }

    /// Whether the current revision is small enough to validate inside `update`.
    pub(super) fn validate_inline(&self) -> bool {
        match self.mode {
            Mode::Form => self.draft.items.len() <= self.inline_max_items,
            Mode::Raw => {
                self.raw.line_count()
                    <= INLINE_VALIDATE_LINES.min(self.inline_max_items.saturating_mul(12))
            }
        }
    }
}
