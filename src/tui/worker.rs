//! A background thread that works on the newest job only: jobs that queue up while one runs are
//! folded into the newest (by a merge the caller gives) before the next run. The signing worker
//! and the events validation worker are both this. The thread starts with the first job, not
//! before: the first frame does not wait for it, and a worker never used (the events validation
//! in a session that never opens the Events view) holds no thread.

use std::sync::{mpsc, Mutex};
use std::thread;

/// How the thread is started, until the first job; then the way to it.
enum State<J> {
    Idle(Box<dyn FnOnce() -> mpsc::Sender<J> + Send>),
    Running(mpsc::Sender<J>),
    Gone,
}

/// A handle to the worker thread. Dropping it stops the worker once its current job is done.
pub struct LatestOnly<J> {
    state: Mutex<State<J>>,
}

impl<J: Send + 'static> LatestOnly<J> {
    /// A worker whose thread, named `name`, starts with the first job. `merge(older, newer)`
    /// folds a queued job into the one after it (most callers just keep `newer`); `run` does
    /// the work.
    pub fn spawn(
        name: &str,
        merge: impl Fn(J, J) -> J + Send + 'static,
        mut run: impl FnMut(J) + Send + 'static,
    ) -> Self {
        let name = name.to_string();
        let start = move || {
            let (tx, rx) = mpsc::channel::<J>();
            thread::Builder::new()
                .name(name.clone())
                .spawn(move || {
                    while let Ok(mut job) = rx.recv() {
                        while let Ok(newer) = rx.try_recv() {
                            job = merge(job, newer);
                        }
                        run(job);
                    }
                })
                .unwrap_or_else(|e| panic!("cannot start the {name} thread: {e}"));
            tx
        };
        LatestOnly {
            state: Mutex::new(State::Idle(Box::new(start))),
        }
    }

    /// Queue a job, starting the thread for the first one (ignored once the thread is gone).
    pub fn submit(&self, job: J) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if matches!(*state, State::Idle(_)) {
            if let State::Idle(start) = std::mem::replace(&mut *state, State::Gone) {
                *state = State::Running(start());
            }
        }
        if let State::Running(tx) = &*state {
            let _ = tx.send(job);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Barrier};

    /// Threads of this process with this name (Linux: /proc/self/task/*/comm).
    fn threads_named(name: &str) -> usize {
        std::fs::read_dir("/proc/self/task")
            .unwrap()
            .filter_map(|t| std::fs::read_to_string(t.unwrap().path().join("comm")).ok())
            .filter(|comm| comm.trim_end() == name)
            .count()
    }

    #[test]
    fn the_thread_starts_with_the_first_job_not_before() {
        let (done_tx, done_rx) = mpsc::channel::<u32>();
        let w = LatestOnly::spawn(
            "lazy-worker",
            |_, newer| newer,
            move |job| {
                done_tx.send(job).unwrap();
            },
        );
        assert_eq!(threads_named("lazy-worker"), 0, "no thread before a job");
        w.submit(7);
        assert_eq!(done_rx.recv().unwrap(), 7);
        assert_eq!(threads_named("lazy-worker"), 1);
        w.submit(8);
        assert_eq!(done_rx.recv().unwrap(), 8);
        assert_eq!(threads_named("lazy-worker"), 1, "one thread for every job");
    }

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
