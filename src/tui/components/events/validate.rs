//! Building and validating the batch: inside `update` for small batches, else on a worker thread
//! so that a key press costs the same at any batch size.

use crate::core::events::compose::ORDER_ID_PLACEHOLDER;
use crate::core::events::{self as ev, form_batch, ListDraft, Problem, Unshown};
use crate::tui::worker::LatestOnly;

/// What a validation job works on: the form (its draft and the members it does not show) or the
/// raw JSON text.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum JobInput {
    Form(Box<(ListDraft, Unshown)>),
    /// The form's products as one `order_purchase` event (`docs/events.md` rule E23).
    Order(Box<ListDraft>),
    /// The editor's bytes, shared (no copy on the draw path).
    Raw(std::sync::Arc<Vec<u8>>),
}

/// One revision of the batch to build and validate. The whole batch is validated every time:
/// rules span events (list ids, API key, clicks against views), so a partial check is not safe.
/// Small batches are validated inside `update`; bigger ones by the runtime on a worker thread
/// (`EventsEffect::Validate`), so a key press costs the same at any batch size.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidateJob {
    pub rev: u64,
    pub(super) input: JobInput,
}

/// The result of a [`ValidateJob`]: the batch text exactly as it would be sent, and its problems.
#[derive(Clone, Debug, PartialEq)]
pub struct Validated {
    pub rev: u64,
    pub preview: String,
    /// Number of events (0 when the text is not a JSON array).
    pub events: usize,
    /// Number of lines of the preview (bounds its scrolling).
    pub lines: usize,
    pub problems: Vec<Problem>,
    /// Problems past the validator's list limit (a raw batch can have that many).
    pub omitted: ev::Omitted,
}

impl ValidateJob {
    /// Build the batch text and validate it (pure; the cost grows with the batch).
    pub fn run(&self) -> Validated {
        let (preview, events, report) = match &self.input {
            JobInput::Form(form) => {
                let (draft, extras) = &**form;
                let batch = form_batch(draft, extras);
                let preview = serde_json::to_string_pretty(&batch).unwrap_or_default();
                let events = batch.as_array().map_or(0, Vec::len);
                (preview, events, ev::validate(&batch))
            }
            JobInput::Order(draft) => {
                let batch = draft.to_order_json(ORDER_ID_PLACEHOLDER);
                let preview = serde_json::to_string_pretty(&batch).unwrap_or_default();
                (preview, 1, ev::validate(&batch))
            }
            JobInput::Raw(bytes) => {
                let report = ev::validate_bytes(bytes);
                // The editor only ever holds text built from `str`s.
                let text = String::from_utf8_lossy(bytes).into_owned();
                (text, report.events, report)
            }
        };
        Validated {
            rev: self.rev,
            lines: preview.lines().count(),
            preview,
            events,
            problems: report.problems,
            omitted: report.omitted,
        }
    }
}

/// Batches up to this many items (form) are validated inside `update`: at that size it costs
/// well under a millisecond and the view never shows "validating…" between keys.
pub const INLINE_VALIDATE_ITEMS: usize = 100;
/// The same bound for the raw editor, in lines (about a dozen lines per pretty-printed item).
pub(super) const INLINE_VALIDATE_LINES: usize = 1_200;

/// The validation thread (a [`LatestOnly`] worker): builds and validates the batch off the draw
/// path. Only the newest job matters: jobs that queued up behind a running one are dropped, and
/// the view ignores answers for older revisions. Dropping it stops the worker.
pub struct ValidateWorker(LatestOnly<ValidateJob>);

impl ValidateWorker {
    /// Start the worker; each result goes to `out` (the runtime sends it to the view as
    /// `EventsMsg::Validated`).
    pub fn spawn(out: impl Fn(Validated) + Send + 'static) -> Self {
        ValidateWorker(LatestOnly::spawn(
            "signscope-validate",
            |_older, newer| newer,
            move |job: ValidateJob| {
                let v = job.run();
                out(v);
            },
        ))
    }

    pub fn submit(&self, job: ValidateJob) {
        self.0.submit(job);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{update, EventsEffect, EventsMsg, EventsState};
    use super::*;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use std::sync::mpsc;

    #[test]
    fn worker_answers_with_the_validated_batch_of_the_job() {
        let (tx, rx) = mpsc::channel();
        let w = ValidateWorker::spawn(move |m| {
            let _ = tx.send(m);
        });
        let mut s = EventsState::new("http://127.0.0.1:9", "k");
        s.inline_max_items = 0;
        let fx = update(
            &mut s,
            EventsMsg::Key(KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE)),
        );
        let job = fx
            .into_iter()
            .find_map(|e| match e {
                EventsEffect::Validate(j) => Some(*j),
                _ => None,
            })
            .expect("a validation job");
        let want = job.run();
        w.submit(job);
        assert_eq!(rx.recv().unwrap(), want);
    }
}
