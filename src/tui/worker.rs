//! A background thread that works on the newest job only: jobs that queue up while one runs are
//! folded into the newest (by a merge the caller gives) before the next run. The signing worker
//! and the events validation worker are both this.

use std::sync::mpsc;
use std::thread;

/// A handle to the worker thread. Dropping it stops the worker once its current job is done.
pub struct LatestOnly<J> {
    tx: mpsc::Sender<J>,
}

impl<J: Send + 'static> LatestOnly<J> {
    /// Start a thread named `name`. `merge(older, newer)` folds a queued job into the one after
    /// it (most callers just keep `newer`); `run` does the work.
    pub fn spawn(
        name: &str,
        merge: impl Fn(J, J) -> J + Send + 'static,
        mut run: impl FnMut(J) + Send + 'static,
    ) -> Self {
        let (tx, rx) = mpsc::channel::<J>();
        thread::Builder::new()
            .name(name.to_string())
            .spawn(move || {
                while let Ok(mut job) = rx.recv() {
                    while let Ok(newer) = rx.try_recv() {
                        job = merge(job, newer);
                    }
                    run(job);
                }
            })
            .unwrap_or_else(|e| panic!("cannot start the {name} thread: {e}"));
        LatestOnly { tx }
    }

    /// Queue a job (ignored once the thread is gone).
    pub fn submit(&self, job: J) {
        let _ = self.tx.send(job);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Barrier};

    #[test]
    fn jobs_queued_during_a_run_are_merged_into_one_run_in_order() {
        let started = Arc::new(Barrier::new(2));
        let release = Arc::new(Barrier::new(2));
        let (done_tx, done_rx) = mpsc::channel::<Vec<u32>>();
        let (s, r) = (started.clone(), release.clone());
        let w = LatestOnly::spawn(
            "test-worker",
            // Keep the history of merged jobs, so the test sees what was folded and in which order.
            |mut older: Vec<u32>, newer: Vec<u32>| {
                older.extend(newer);
                older
            },
            move |job: Vec<u32>| {
                if job == [0] {
                    s.wait();
                    r.wait();
                }
                done_tx.send(job).unwrap();
            },
        );
        w.submit(vec![0]);
        started.wait(); // job 0 is running
        for i in 1..=3 {
            w.submit(vec![i]);
        }
        release.wait();
        assert_eq!(done_rx.recv().unwrap(), [0]);
        assert_eq!(done_rx.recv().unwrap(), [1, 2, 3]);
        drop(w);
        // The thread ends when the handle is gone: the result channel closes.
        assert!(done_rx.recv().is_err());
    }
}
