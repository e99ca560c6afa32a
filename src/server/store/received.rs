//! The collector's requests as received, beside the indexing requests and the events, for
//! the HAR of everything the server received (`/_inspect/requests?format=har&all=true`,
//! `docs/server.md` rule R15), and the counters of one scope (`/_inspect/summary?since=&test=`).
//!
//! A collector request is kept as the record shape of an indexing request (method, path,
//! query, headers, its body as received up to [`super::BODY_PREVIEW_BYTES`], status and code),
//! bounded like the others: at most `max_stored` of them, and the first dropped when the
//! store is over its bytes (the events hold what they say). They are not counted as indexing
//! requests.

use std::collections::VecDeque;
use std::sync::Arc;

use super::{
    record_size_request, Cursor, Held, Inner, Page, PageQuery, RequestRecord, Slot, Store, Summary,
    Verdict, MAX_PAGE_BYTES,
};

/// The held collector requests and the position of the first.
#[derive(Default)]
pub(super) struct Collected {
    held: VecDeque<Held<RequestRecord>>,
    base: u64,
}

impl Collected {
    /// Forget them all (positions are never reused).
    pub(super) fn clear(&mut self) {
        self.base += self.held.len() as u64;
        self.held.clear();
    }
}

fn drop_front(g: &mut Inner) {
    if let Some(h) = g.collected.held.pop_front() {
        g.collected.base += 1;
        g.stored_bytes -= h.size;
        g.freed += h.size;
    }
}

/// Keep the collector's requests within the bounds: `max_stored` of them, and none while the
/// store is over its bytes.
pub(super) fn trim(g: &mut Inner, max_stored: usize, max_bytes: usize) {
    while g.collected.held.len() > max_stored
        || (g.stored_bytes > max_bytes && !g.collected.held.is_empty())
    {
        drop_front(g);
    }
}

/// The records at these positions (indexing or collector) that are still held.
pub(super) fn at_any(g: &Inner, slots: &[Slot]) -> Vec<Arc<RequestRecord>> {
    slots
        .iter()
        .filter_map(|s| {
            let (held, base) = if s.collected {
                (&g.collected.held, g.collected.base)
            } else {
                (&g.requests, g.requests_base)
            };
            let i = usize::try_from(s.pos.checked_sub(base)?).ok()?;
            held.get(i).map(|h| h.record.clone())
        })
        .collect()
}

impl Store {
    /// Keep a collector request as received (its record numbered as its batch).
    pub fn add_collected(&self, record: RequestRecord, test: Option<&str>) {
        let size = record_size_request(&record);
        let list_bytes = self.measure.as_ref().map_or(size, |m| m.request(&record));
        let held = Held {
            size,
            list_bytes,
            record: Arc::new(record),
            test: test.map(Arc::from),
        };
        let trim = {
            let mut g = self.lock();
            g.stored_bytes += size;
            g.collected.held.push_back(held);
            self.enforce_bounds(&mut g)
        };
        if trim {
            super::release_memory();
        }
    }

    /// Every held request, indexing and collector, in arrival order: the first `limit` after
    /// `q.after` (oldest first) that carried test id `test`, within a page's bytes; the
    /// cursor is `after=SEQ` when more remain.
    pub fn all_slots(&self, q: &PageQuery, test: Option<&str>) -> Page<Slot> {
        let g = self.lock();
        let keep = |h: &Held<RequestRecord>| {
            q.after.is_none_or(|a| h.record.seq > a)
                && test.is_none_or(|t| h.test.as_deref() == Some(t))
        };
        // Each list's kept records with their positions (one iterator type for both).
        let inner: &Inner = &g;
        let kept = move |collected: bool| {
            let (list, base) = if collected {
                (&inner.collected.held, inner.collected.base)
            } else {
                (&inner.requests, inner.requests_base)
            };
            let at = move |(i, h)| (base + i as u64, collected, h);
            list.iter()
                .enumerate()
                .filter(move |(_, h)| keep(h))
                .map(at)
                .peekable()
        };
        let (mut a, mut c) = (kept(false), kept(true));
        let (n, mut bytes, mut items) = (q.size(), 0usize, Vec::new());
        let mut last = None;
        loop {
            let next = match (a.peek(), c.peek()) {
                (Some(x), Some(y)) if y.2.record.seq < x.2.record.seq => &mut c,
                (None, Some(_)) => &mut c,
                (Some(_), _) => &mut a,
                (None, None) => break,
            };
            let Some(&(pos, collected, h)) = next.peek() else {
                break;
            };
            if items.len() >= n || (!items.is_empty() && bytes + h.list_bytes > MAX_PAGE_BYTES) {
                return Page {
                    items,
                    next: last.map(Cursor::After),
                };
            }
            bytes += h.list_bytes;
            last = Some(h.record.seq);
            items.push(Slot {
                pos,
                bytes: h.list_bytes,
                collected,
            });
            next.next();
        }
        Page { items, next: None }
    }

    /// Counters of the held records after sequence `after` that carried test id `test`
    /// (`/_inspect/summary?since=&test=`): what was dropped cannot be told apart, so the
    /// `dropped_*` counters stay the run's, and a non-zero one says the counts may be short.
    pub fn scoped_summary(&self, after: Option<u64>, test: Option<&str>) -> Summary {
        let g = self.lock();
        let keep = |seq: u64, t: &Option<Arc<str>>| {
            after.is_none_or(|a| seq > a) && test.is_none_or(|w| t.as_deref() == Some(w))
        };
        let mut s = Summary {
            dropped_requests: g.counts.dropped_requests,
            dropped_events: g.counts.dropped_events,
            ..Summary::default()
        };
        for h in g.requests.iter().filter(|h| keep(h.record.seq, &h.test)) {
            match h.record.verdict {
                Verdict::Accepted => s.accepted += 1,
                Verdict::Rejected => s.rejected += 1,
                Verdict::Aborted => s.aborted += 1,
            }
            s.requests += 1;
            s.stored_requests += 1;
            s.stored_bytes += h.size as u64;
        }
        let mut last_batch = None;
        for h in g.events.iter().filter(|h| keep(h.record.seq, &h.test)) {
            let e = &h.record;
            if last_batch != Some(e.batch) {
                last_batch = Some(e.batch);
                s.batches += 1;
                if e.status == 200 {
                    s.batches_good += 1;
                } else {
                    s.batches_bad += 1;
                }
            }
            if e.valid {
                s.events_good += 1;
            } else {
                s.events_bad += 1;
            }
            s.stored_events += 1;
            s.stored_bytes += h.size as u64;
        }
        s
    }
}
