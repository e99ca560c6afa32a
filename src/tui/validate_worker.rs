//! The events composer's validation worker: builds and validates the batch off the draw path.
//! Only the newest job matters: jobs that queued up behind a running one are dropped, and the
//! view ignores answers for older revisions.

use super::events_view::{EventsMsg, ValidateJob};
use super::message::Message;
use super::worker::LatestOnly;

/// The validation thread (a [`LatestOnly`] worker). Dropping it stops the worker.
pub struct ValidateWorker(LatestOnly<ValidateJob>);

impl ValidateWorker {
    /// Start the worker; results go to `out`.
    pub fn spawn(out: impl Fn(Message) + Send + 'static) -> Self {
        ValidateWorker(LatestOnly::spawn(
            "signscope-validate",
            |_older, newer| newer,
            move |job: ValidateJob| {
                let v = job.run();
                out(Message::Events(EventsMsg::Validated(Box::new(v))));
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
    use crate::tui::events_view::{update, EventsState};
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
                crate::tui::events_view::EventsEffect::Validate(j) => Some(*j),
                _ => None,
            })
            .expect("a validation job");
        let want = job.run();
        w.submit(job);
        match rx.recv().unwrap() {
            Message::Events(EventsMsg::Validated(v)) => assert_eq!(*v, want),
            other => panic!("unexpected {other:?}"),
        }
    }
}
