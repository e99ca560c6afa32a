//! Judging a capture's requests on every core, handed on in the capture's order
//! (`docs/har.md` H7).
//!
//! Three stages, each on its own thread, joined by channels that hold at most one window:
//! the reader turns the capture into [`Work`] (skipped and unreadable requests are already
//! [`Item`]s), a judging thread hands each window of up to [`WINDOW`] requests to rayon's pool
//! (one [`OfflineJudge`] per worker, checked out of a pool), and the caller's thread counts and
//! hands on the items of each window in order. Memory holds at most five windows (reading,
//! waiting, judging, judged, being handed on), whatever the capture's size.
//!
//! The judges share what one request can change for the next: the attributes an account has
//! put. A request that changes it ([`changes_later_judgements`]) is a barrier: every request
//! before it is judged first, it is judged alone, and the ones after it see its change, so
//! every verdict is the one a sequential judgement would give.

use std::ops::ControlFlow;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Mutex;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::core::traffic::RequestSeen;
use rayon::prelude::*;

use crate::core::ReceivedRequest;
use crate::server::judge::{changes_later_judgements, OfflineJudge};

/// Requests judged together at most (and at most [`WINDOW_BYTES`] of their bodies).
pub(crate) const WINDOW: usize = 256;
const WINDOW_BYTES: usize = 16 * 1024 * 1024;

/// What the real service answered, as the capture recorded it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Captured {
    pub status: u16,
    /// The `code` of an answer in the vendor's error shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Why a request was not judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Skip {
    /// To a host that is neither the vendor's, nor loopback, nor one given with `--host`.
    OtherHost,
    /// To a judged host, but a path the local server has no judgement on.
    OtherPath,
}

/// One request of the capture and what became of it.
#[derive(Clone, Debug)]
pub enum Item {
    Judged {
        /// Its position in the capture (HAR entry index, or block number), from 0.
        entry: usize,
        seen: Box<RequestSeen>,
        captured: Option<Captured>,
        /// Remarks on reading it (a cut body, a missing capture time...).
        notes: Vec<String>,
        /// The request's whole body as captured (the record previews only its start).
        body: bytes::Bytes,
    },
    Skipped {
        entry: usize,
        method: String,
        url: String,
        why: Skip,
    },
    /// Could not be read or put on the wire as captured: skipped, with why.
    Bad { entry: usize, why: String },
    /// A request to a judged host and path that is not judged, because the capture does not
    /// show what was sent (`docs/har.md` rule H12): never a verdict.
    NotJudged {
        entry: usize,
        method: String,
        url: String,
        why: NotJudged,
    },
}

/// Why a request the local server would judge is not judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotJudged {
    /// The capture has no answer to it (status 0): it was not sent, or not answered.
    NotSent,
    /// The capture did not keep its body whole; the sentence says how.
    BodyNotKept(String),
}

impl NotJudged {
    /// `not_sent` or `body_not_kept`, as `check --output json` writes it.
    pub fn id(&self) -> &'static str {
        match self {
            NotJudged::NotSent => "not_sent",
            NotJudged::BodyNotKept(_) => "body_not_kept",
        }
    }

    /// One sentence: "not sent: ..." or "not judged: the capture did not keep the body (...)".
    pub fn sentence(&self) -> String {
        match self {
            NotJudged::NotSent => {
                "not sent: the capture has no answer to it (status 0), so it is not judged".into()
            }
            NotJudged::BodyNotKept(how) => {
                format!("not judged: the capture did not keep the body ({how})")
            }
        }
    }
}

/// What the whole capture was.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    pub requests: usize,
    pub judged: usize,
    pub rejected: usize,
    pub skipped_other_host: usize,
    pub skipped_other_path: usize,
    pub unreadable: usize,
    /// Not judged: the capture has no answer to them (status 0).
    pub not_sent: usize,
    /// Not judged: the capture did not keep their bodies whole.
    pub body_not_kept: usize,
    /// `har` or `requests` (raw HTTP / curl blocks).
    pub format: &'static str,
}

impl Totals {
    /// `, N not judged (X not sent, Y body not kept)` when some were not (`docs/har.md` rule
    /// H12), for a summary line; empty otherwise.
    pub fn not_judged_text(&self) -> String {
        let n = self.not_sent + self.body_not_kept;
        if n == 0 {
            return String::new();
        }
        format!(
            ", {n} not judged ({} not sent, {} body not kept)",
            self.not_sent, self.body_not_kept
        )
    }
}

/// A request read from the capture: what became of it already, or what is to be judged.
pub(crate) enum Work {
    Done(Item),
    Judge(Box<Pending>),
}

/// A request the local server is to judge, with what the capture says of it.
pub(crate) struct Pending {
    pub entry: usize,
    pub req: ReceivedRequest,
    pub prefix: String,
    /// The time it is judged at (its capture's).
    pub at: DateTime<Utc>,
    pub captured: Option<Captured>,
    pub notes: Vec<String>,
}

impl Work {
    fn body_len(&self) -> usize {
        match self {
            Work::Judge(p) => p.req.body.len(),
            Work::Done(_) => 0,
        }
    }

    fn is_barrier(&self) -> bool {
        matches!(self, Work::Judge(p) if changes_later_judgements(&p.req))
    }
}

/// The reader's side: collects works into windows and sends each when full; a barrier goes
/// alone, after the window before it.
struct Windows {
    send: SyncSender<Vec<Work>>,
    window: Vec<Work>,
    bytes: usize,
    size: usize,
}

impl Windows {
    fn push(&mut self, work: Work) -> ControlFlow<()> {
        if work.is_barrier() {
            self.flush()?;
            self.window.push(work);
            return self.flush();
        }
        self.bytes += work.body_len();
        self.window.push(work);
        if self.window.len() >= self.size || self.bytes >= WINDOW_BYTES {
            return self.flush();
        }
        ControlFlow::Continue(())
    }

    /// `Break` when the judging side has stopped (the caller's sink failed).
    fn flush(&mut self) -> ControlFlow<()> {
        self.bytes = 0;
        if self.window.is_empty() {
            return ControlFlow::Continue(());
        }
        match self.send.send(std::mem::take(&mut self.window)) {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        }
    }
}

/// Idle judges, all sharing the first one's state ([`OfflineJudge::sibling`]).
struct Judges {
    first: OfflineJudge,
    idle: Vec<OfflineJudge>,
}

fn judge_window(
    judges: &Mutex<Judges>,
    rt: &tokio::runtime::Handle,
    window: Vec<Work>,
) -> Vec<Item> {
    let lock = || judges.lock().unwrap_or_else(|e| e.into_inner());
    window
        .into_par_iter()
        .with_max_len(1)
        .map(|work| match work {
            Work::Done(item) => item,
            Work::Judge(p) => {
                let mut judge = {
                    let mut j = lock();
                    match j.idle.pop() {
                        Some(judge) => judge,
                        None => j.first.sibling(),
                    }
                };
                let item = judged(&mut judge, rt, *p);
                lock().idle.push(judge);
                item
            }
        })
        .collect()
}

/// One request through the local server's routes.
fn judged(judge: &mut OfflineJudge, rt: &tokio::runtime::Handle, p: Pending) -> Item {
    let body = p.req.body.clone();
    match rt.block_on(judge.judge(&p.req, &p.prefix, p.at)) {
        Ok(seen) => Item::Judged {
            entry: p.entry,
            seen: Box::new(seen),
            captured: p.captured,
            notes: p.notes,
            body,
        },
        Err(why) => Item::Bad {
            entry: p.entry,
            why: why.to_string(),
        },
    }
}

/// Count an item into the totals as it is handed on; a judged request is numbered in the
/// capture's order, and names no inspection record (the judging servers' stores are gone).
fn count(totals: &mut Totals, item: &mut Item) {
    totals.requests += 1;
    match item {
        Item::Judged { seen, .. } => {
            totals.judged += 1;
            seen.seq = totals.judged as u64;
            seen.record = None;
            if seen.is_rejected() {
                totals.rejected += 1;
            }
        }
        Item::Skipped { why, .. } => match why {
            Skip::OtherHost => totals.skipped_other_host += 1,
            Skip::OtherPath => totals.skipped_other_path += 1,
        },
        Item::Bad { .. } => totals.unreadable += 1,
        Item::NotJudged { why, .. } => match why {
            NotJudged::NotSent => totals.not_sent += 1,
            NotJudged::BodyNotKept(_) => totals.body_not_kept += 1,
        },
    }
}

/// Judge what `read` produces (it pushes each request in the capture's order and stops when
/// the push says `Break`), handing each item to `each` in that order. `window` is
/// [`WINDOW`] except in tests (1 judges one request at a time). Returns the totals and what
/// `read` returned; `Err` when `each` fails (the reading stops after at most two windows).
pub(crate) fn judge_all<T: Send>(
    judge: OfflineJudge,
    rt: &tokio::runtime::Handle,
    format: &'static str,
    window: usize,
    read: impl FnOnce(&mut dyn FnMut(Work) -> ControlFlow<()>) -> T + Send,
    each: &mut dyn FnMut(Item) -> anyhow::Result<()>,
) -> anyhow::Result<(Totals, T)> {
    let mut totals = Totals {
        format,
        ..Totals::default()
    };
    let judges = Mutex::new(Judges {
        first: judge,
        idle: Vec::new(),
    });
    let (to_judge, windows) = sync_channel::<Vec<Work>>(1);
    let (to_emit, judged_windows) = sync_channel::<Vec<Item>>(1);
    let (read_out, sink_error) = std::thread::scope(|s| {
        let reader = s.spawn(move || {
            let mut w = Windows {
                send: to_judge,
                window: Vec::new(),
                bytes: 0,
                size: window.max(1),
            };
            let out = read(&mut |work| w.push(work));
            let _ = w.flush();
            out
        });
        let judges = &judges;
        let judging = s.spawn(move || judge_windows(judges, rt, windows, to_emit));
        let sink_error = emit(judged_windows, &mut totals, each);
        rejoin(judging.join());
        (rejoin(reader.join()), sink_error)
    });
    match sink_error {
        Some(e) => Err(e),
        None => Ok((totals, read_out)),
    }
}

/// A stage's result, or its panic carried on to the caller.
fn rejoin<T>(r: std::thread::Result<T>) -> T {
    r.unwrap_or_else(|p| std::panic::resume_unwind(p))
}

fn judge_windows(
    judges: &Mutex<Judges>,
    rt: &tokio::runtime::Handle,
    windows: Receiver<Vec<Work>>,
    to_emit: SyncSender<Vec<Item>>,
) {
    for window in windows {
        if to_emit.send(judge_window(judges, rt, window)).is_err() {
            return;
        }
    }
}

/// Hand on every judged window's items in order; the sink's first error stops it (dropping
/// the receiver stops the judging thread, which stops the reader).
fn emit(
    judged: Receiver<Vec<Item>>,
    totals: &mut Totals,
    each: &mut dyn FnMut(Item) -> anyhow::Result<()>,
) -> Option<anyhow::Error> {
    for items in judged {
        for mut item in items {
            count(totals, &mut item);
            if let Err(e) = each(item) {
                return Some(e);
            }
        }
    }
    None
}
