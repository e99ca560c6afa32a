//! Building and validating the batch: inside `update` for small batches, else as a job on the
//! runtime's worker thread so that a key press costs the same at any batch size.

use crate::core::events::compose::ORDER_ID_PLACEHOLDER;
use crate::core::events::{self as ev, form_batch, ListDraft, Problem, Unshown};

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
