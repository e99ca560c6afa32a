//! The clients of `GET /_inspect/wait?events=N&requests=M` (`docs/server.md` rule L11): each
//! waits for two counters to reach its thresholds, and a stored record wakes only the waiters
//! whose thresholds it reaches. Waking every waiter on every record (3,000 waiters) made 5,000
//! requests take five times as long.
//!
//! A waiter is queued under one counter it still waits for, ordered by its threshold; when that
//! counter reaches it, it moves to the other counter's queue if that one is still short, else
//! it is woken. So a record costs a lookup plus the waiters it really wakes, and a waiter moves
//! at most a few times. The store tells the counts while it holds its lock, so the counts here
//! are always the store's own and no change is missed between a check and a registration.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

use tokio::sync::oneshot;

/// Counters a waiter waits for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub events: u64,
    pub requests: u64,
}

impl Counts {
    /// Whether these counts are at least `want`.
    pub fn reach(&self, want: &Counts) -> bool {
        self.events >= want.events && self.requests >= want.requests
    }
}

struct Waiter {
    want: Counts,
    wake: oneshot::Sender<()>,
}

#[derive(Default)]
struct Queues {
    /// The store's counts now.
    now: Counts,
    next_id: u64,
    /// Waiters short of requests, by (threshold, id).
    by_requests: BTreeMap<(u64, u64), Waiter>,
    /// Waiters whose requests are reached, short of events, by (threshold, id).
    by_events: BTreeMap<(u64, u64), Waiter>,
}

impl Queues {
    /// Queue `w` under a counter it is short of; wake it when it is short of none.
    fn place(&mut self, id: u64, w: Waiter) {
        if self.now.requests < w.want.requests {
            self.by_requests.insert((w.want.requests, id), w);
        } else if self.now.events < w.want.events {
            self.by_events.insert((w.want.events, id), w);
        } else {
            // A waiter that stopped waiting (timed out) is not there to hear it.
            let _ = w.wake.send(());
        }
    }

    /// Take out the waiters of `queue` whose threshold is at most `reached`.
    fn due(queue: &mut BTreeMap<(u64, u64), Waiter>, reached: u64) -> Vec<((u64, u64), Waiter)> {
        let mut out = Vec::new();
        while let Some(e) = queue.first_entry() {
            if e.key().0 > reached {
                break;
            }
            out.push(e.remove_entry());
        }
        out
    }
}

/// Everyone waiting for the store's counts.
#[derive(Default)]
pub struct Waiters {
    queues: Mutex<Queues>,
}

/// A registered wait; dropping it (a timeout, a client gone) takes it out of the queues.
pub struct Wait<'a> {
    waiters: &'a Waiters,
    id: u64,
    want: Counts,
    pub woken: oneshot::Receiver<()>,
}

impl Drop for Wait<'_> {
    fn drop(&mut self) {
        let mut q = self.waiters.lock();
        q.by_requests.remove(&(self.want.requests, self.id));
        q.by_events.remove(&(self.want.events, self.id));
    }
}

impl Waiters {
    fn lock(&self) -> MutexGuard<'_, Queues> {
        // Queues are valid after any panic between two statements: a poisoned lock is used.
        self.queues.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The store's counts are now `now` (told under the store's lock): wake the waiters they
    /// reach, move those still short of the other counter.
    pub fn counts(&self, now: Counts) {
        let mut q = self.lock();
        q.now = now;
        let due = Queues::due(&mut q.by_requests, now.requests);
        for ((_, id), w) in due {
            q.place(id, w);
        }
        let due = Queues::due(&mut q.by_events, now.events);
        for ((_, id), w) in due {
            // Requests may have gone back to zero (a reset) since it was queued here.
            q.place(id, w);
        }
    }

    /// Wait for `want`: `None` when the counts reach it now, else a registration whose
    /// receiver fires once they do.
    pub fn wait(&self, want: Counts) -> Option<Wait<'_>> {
        let mut q = self.lock();
        if q.now.reach(&want) {
            return None;
        }
        let id = q.next_id;
        q.next_id += 1;
        let (wake, woken) = oneshot::channel();
        q.place(id, Waiter { want, wake });
        Some(Wait {
            waiters: self,
            id,
            want,
            woken,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Waiters {
        /// Waiters queued now.
        fn queued(&self) -> usize {
            let q = self.lock();
            q.by_requests.len() + q.by_events.len()
        }
    }

    fn counts(events: u64, requests: u64) -> Counts {
        Counts { events, requests }
    }

    #[test]
    fn a_change_wakes_only_the_waiters_it_reaches() {
        let w = Waiters::default();
        let mut a = w.wait(counts(0, 2)).unwrap();
        let mut b = w.wait(counts(1, 1)).unwrap();
        let mut c = w.wait(counts(0, 1000)).unwrap();
        w.counts(counts(0, 1));
        // b's requests are reached: it moved to the events queue, not woken.
        assert!(a.woken.try_recv().is_err());
        assert!(b.woken.try_recv().is_err());
        assert_eq!(w.queued(), 3);
        w.counts(counts(0, 2));
        assert!(a.woken.try_recv().is_ok());
        assert!(b.woken.try_recv().is_err());
        w.counts(counts(1, 2));
        assert!(b.woken.try_recv().is_ok());
        assert!(c.woken.try_recv().is_err());
        assert_eq!(w.queued(), 1);
        // A reached condition needs no registration.
        assert!(w.wait(counts(1, 2)).is_none());
    }

    #[test]
    fn a_reset_sends_a_waiter_back_to_the_counter_it_is_short_of() {
        let w = Waiters::default();
        let mut a = w.wait(counts(2, 1)).unwrap();
        w.counts(counts(0, 1));
        w.counts(counts(0, 0));
        w.counts(counts(2, 0));
        assert!(a.woken.try_recv().is_err(), "requests went back to 0");
        w.counts(counts(2, 1));
        assert!(a.woken.try_recv().is_ok());
    }

    #[test]
    fn a_wait_given_up_leaves_the_queues() {
        let w = Waiters::default();
        let a = w.wait(counts(5, 5)).unwrap();
        let b = w.wait(counts(5, 0)).unwrap();
        assert_eq!(w.queued(), 2);
        drop(a);
        drop(b);
        assert_eq!(w.queued(), 0);
    }
}
