//! Connections under the file limit (`docs/server.md` rule L12).
//!
//! Every connection holds a file descriptor. At start the soft `RLIMIT_NOFILE` is raised to the
//! hard limit ([`raise_open_files_limit`]), as most servers do, and the server keeps
//! [`RESERVE_DESCRIPTORS`] of them for the listener, files and the upstream: it holds at most
//! [`connection_limit`] connections. A connection accepted beyond it closes the oldest idle
//! keep-alive connection (one with no request in flight) first, as nginx and hyper do; when every
//! connection is busy, the new one is answered 503 and closed.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

/// Descriptors kept below the file limit for the listener, files and the upstream.
pub const RESERVE_DESCRIPTORS: u64 = 64;

/// Raise the soft limit on open files to the hard limit (once is enough; a second call finds
/// them equal); the soft limit in force after it, where the system says.
// SAFETY: getrlimit and setrlimit are given a valid, local rlimit (see each call).
#[cfg(unix)]
#[allow(unsafe_code)] // getrlimit/setrlimit on a local struct
#[allow(clippy::unnecessary_cast)] // rlim_t is u64 on Linux, not on every unix
pub fn raise_open_files_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `lim` is a valid, writable rlimit for the call's duration.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return None;
    }
    if lim.rlim_cur < lim.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: lim.rlim_max,
            rlim_max: lim.rlim_max,
        };
        // SAFETY: `raised` is a valid rlimit; a refusal (an unlimited hard limit some systems
        // do not take as a soft one) leaves the limit as it was.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            lim.rlim_cur = lim.rlim_max;
        }
    }
    Some(lim.rlim_cur as u64)
}

#[cfg(not(unix))]
pub fn raise_open_files_limit() -> Option<u64> {
    None
}

/// The most connections served at once: `configured`, and never more than the open-files
/// limit (`soft`) less [`RESERVE_DESCRIPTORS`] (at least one).
pub fn connection_limit(configured: usize, soft: Option<u64>) -> usize {
    match soft {
        Some(soft) => {
            let fit = soft.saturating_sub(RESERVE_DESCRIPTORS).max(1);
            configured.min(usize::try_from(fit).unwrap_or(usize::MAX))
        }
        None => configured,
    }
}

/// `resp` with `Connection: close`: hyper closes the connection once it is written.
pub fn close_after(mut resp: axum::response::Response) -> axum::response::Response {
    resp.headers_mut().insert(
        axum::http::header::CONNECTION,
        axum::http::HeaderValue::from_static("close"),
    );
    resp
}

/// One served connection: requests in flight on it, and how to close it.
struct Entry {
    busy: Arc<AtomicUsize>,
    close: Arc<Notify>,
}

/// The connections being served, oldest first.
#[derive(Default)]
pub struct Connections {
    open: Mutex<BTreeMap<u64, Entry>>,
    next: AtomicU64,
}

/// A connection's place in [`Connections`]: its busy count, its close signal, and its removal
/// when dropped (the connection ended, however it ended).
pub struct Registered {
    conns: Arc<Connections>,
    id: u64,
    pub busy: Arc<AtomicUsize>,
    pub close: Arc<Notify>,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.conns.lock().remove(&self.id);
    }
}

impl Connections {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Entry>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Make room for one more under `limit`: close the oldest idle connections until it fits.
    /// False when every connection is busy and there is no room.
    pub fn make_room(&self, limit: usize) -> bool {
        let mut open = self.lock();
        while open.len() >= limit {
            let idle = open
                .iter()
                .find(|(_, e)| e.busy.load(Ordering::Acquire) == 0)
                .map(|(id, _)| *id);
            let Some(id) = idle else {
                return false;
            };
            if let Some(e) = open.remove(&id) {
                e.close.notify_one();
            }
        }
        true
    }

    /// Register a new connection.
    pub fn register(self: &Arc<Self>) -> Registered {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let busy = Arc::new(AtomicUsize::new(0));
        let close = Arc::new(Notify::new());
        self.lock().insert(
            id,
            Entry {
                busy: busy.clone(),
                close: close.clone(),
            },
        );
        Registered {
            conns: self.clone(),
            id,
            busy,
            close,
        }
    }
}

/// A request in flight on a connection, from its head to the end of its answer's body.
pub struct InFlight(Arc<AtomicUsize>);

impl InFlight {
    pub fn enter(busy: &Arc<AtomicUsize>) -> InFlight {
        busy.fetch_add(1, Ordering::AcqRel);
        InFlight(busy.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Connections {
        /// How many are open.
        fn len(&self) -> usize {
            self.lock().len()
        }
    }

    #[test]
    fn the_limit_keeps_the_reserve_below_the_open_files_limit() {
        assert_eq!(connection_limit(4096, Some(1024)), 960);
        assert_eq!(connection_limit(100, Some(1024)), 100);
        assert_eq!(connection_limit(100, None), 100);
        assert_eq!(connection_limit(100, Some(10)), 1);
    }

    #[test]
    fn room_is_made_by_closing_the_oldest_idle_connection_and_never_a_busy_one() {
        let conns = Arc::new(Connections::default());
        let first = conns.register();
        let second = conns.register();
        let _busy = InFlight::enter(&first.busy);
        assert!(conns.make_room(2));
        assert_eq!(conns.len(), 1, "the idle second one was closed");
        // The busy one is never closed: no room.
        assert!(!conns.make_room(1));
        drop(_busy);
        assert!(conns.make_room(1));
        assert_eq!(conns.len(), 0);
        drop((first, second));
    }
}
