//! The Events view's validation thread: big batches are built and validated off the draw path.

use crate::tui::components::events::{ValidateJob, Validated};
use crate::tui::worker::LatestOnly;

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
    use super::*;
    use crate::tui::components::events::{update, EventsState};
    use crate::tui::components::events::{EventsEffect, EventsMsg};
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
