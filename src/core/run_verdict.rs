//! A server run's verdict (`signscope serve --strict`, `docs/server.md` "Use in CI"): the
//! live stream's records of one run folded into counts (indexing requests by answer code,
//! collector events by problem code) and the list of what went wrong, each with the server's
//! one-sentence diagnosis. Pure: the records come in, the text goes out.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use super::traffic::{RequestSeen, Route, StreamMessage};

/// Most failures listed one by one; the rest are counted.
pub const MAX_LISTED: usize = 50;

/// The counts and failures of one run so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunVerdict {
    /// Indexing requests answered 2xx with a verified signature.
    pub accepted: u64,
    /// Indexing requests refused, by answer code (`SIGNATURE_MISMATCH`, ...).
    pub rejected: BTreeMap<String, u64>,
    /// Collector requests (batches and the older endpoints' requests).
    pub batches: u64,
    pub events_valid: u64,
    pub events_invalid: u64,
    /// Error-level event problems, by code (`ITEM_ID`, `MISSING_FIELD`, ...).
    pub invalid_by_code: BTreeMap<String, u64>,
    /// Warnings (events and signatures): counted, never a failure.
    pub warnings: u64,
    /// Records this run's verdict never saw (the stream skipped them).
    pub unseen: u64,
    /// What went wrong, one line each with its diagnosis, at most [`MAX_LISTED`].
    pub failures: Vec<String>,
    /// Failures beyond [`MAX_LISTED`].
    pub failures_omitted: u64,
}

impl RunVerdict {
    /// Fold one stream message in.
    pub fn add(&mut self, msg: &StreamMessage) {
        match msg {
            StreamMessage::Skipped { skipped } => self.unseen += skipped,
            StreamMessage::Request(r) => match r.route {
                Route::Indexing => self.add_indexing(r),
                Route::Collect => self.add_collect(r),
                Route::Inspect | Route::Other => {}
            },
        }
    }

    fn add_indexing(&mut self, r: &RequestSeen) {
        self.warnings += r.warnings.len() as u64;
        if !r.is_rejected() {
            self.accepted += 1;
            return;
        }
        let code = r
            .code
            .clone()
            .or_else(|| r.upstream.as_ref().and_then(|u| u.code.clone()))
            .unwrap_or_else(|| format!("HTTP_{}", r.status));
        *self.rejected.entry(code.clone()).or_default() += 1;
        let why = r
            .conclusion
            .as_deref()
            .or(r.message.as_deref())
            .unwrap_or("no diagnosis was given");
        self.fail(r, &code, why);
    }

    fn add_collect(&mut self, r: &RequestSeen) {
        self.batches += 1;
        let Some(b) = &r.batch else {
            if r.status >= 400 {
                let why = r.message.as_deref().unwrap_or("no reason was given");
                self.fail(r, &answer_code(r), why);
            }
            return;
        };
        self.events_valid += b.valid as u64;
        self.events_invalid += b.invalid as u64;
        let mut listed = false;
        for p in &b.problems {
            if text(p, "level").unwrap_or("error") != "error" {
                self.warnings += 1;
                continue;
            }
            let code = text(p, "code").unwrap_or("PROBLEM").to_string();
            *self.invalid_by_code.entry(code.clone()).or_default() += 1;
            let path = text(p, "path")
                .filter(|s| !s.is_empty())
                .unwrap_or("(body)");
            let why = text(p, "message").unwrap_or("");
            self.fail(r, &format!("{code} at {path}"), why);
            listed = true;
        }
        if !listed && (b.invalid > 0 || r.status >= 400) {
            let code = answer_code(r);
            *self.invalid_by_code.entry(code.clone()).or_default() += 1;
            let why = r.message.as_deref().unwrap_or("the batch was refused");
            self.fail(r, &code, why);
        }
    }

    /// A failure's line: the request, what went wrong (`code`, a problem's with its path) and
    /// why.
    fn fail(&mut self, r: &RequestSeen, code: &str, why: &str) {
        if self.failures.len() < MAX_LISTED {
            self.failures.push(format!(
                "{} {}: {code}: {why}",
                r.method,
                super::http_text::target(&r.path, &r.query)
            ));
        } else {
            self.failures_omitted += 1;
        }
    }

    /// Whether anything was rejected or invalid, or went unseen (what `--strict` fails on).
    pub fn failed(&self) -> bool {
        !self.rejected.is_empty()
            || self.events_invalid > 0
            || !self.failures.is_empty()
            || self.unseen > 0
    }

    /// The summary printed when the server stops; `dropped` are the inspection store's
    /// dropped request and event records.
    pub fn report(&self, dropped: (u64, u64)) -> String {
        let mut s = String::new();
        let rejected: u64 = self.rejected.values().sum();
        let _ = writeln!(s, "signscope serve: run summary");
        let _ = writeln!(
            s,
            "  indexing requests: {} accepted, {rejected} rejected{}",
            self.accepted,
            by_code(&self.rejected)
        );
        let _ = writeln!(
            s,
            "  collector: {} requests, {} events valid, {} invalid{}",
            self.batches,
            self.events_valid,
            self.events_invalid,
            by_code(&self.invalid_by_code)
        );
        let _ = writeln!(s, "  warnings: {}", self.warnings);
        let _ = writeln!(
            s,
            "  dropped from the inspection store: {} requests, {} events; not seen by this summary: {}",
            dropped.0, dropped.1, self.unseen
        );
        if !self.failures.is_empty() {
            let _ = writeln!(s, "what went wrong:");
            for f in &self.failures {
                let _ = writeln!(s, "  - {f}");
            }
            if self.failures_omitted > 0 {
                let _ = writeln!(s, "  … and {} more", self.failures_omitted);
            }
        }
        s
    }
}

fn by_code(m: &BTreeMap<String, u64>) -> String {
    if m.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = m.iter().map(|(c, n)| format!("{c} {n}")).collect();
    format!(" ({})", parts.join(", "))
}

/// The answer's code, else its HTTP status as `HTTP_NNN`.
fn answer_code(r: &RequestSeen) -> String {
    r.code
        .clone()
        .unwrap_or_else(|| format!("HTTP_{}", r.status))
}

fn text<'a>(p: &'a Value, name: &str) -> Option<&'a str> {
    p.get(name).and_then(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::traffic::{BatchSeen, Verdict};
    use serde_json::json;

    fn seen(route: Route, path: &str, status: u16) -> RequestSeen {
        serde_json::from_value(json!({
            "seq": 1, "time": "2026-11-29T10:00:00.000Z", "method": "PUT", "path": path,
            "query": "", "route": route, "status": status, "code": null, "message": null,
            "verdict": null, "conclusion": null, "request_bytes": null, "response_bytes": null,
            "duration_ms": 1.0, "record": null, "job_id": null, "batch": null, "upstream": null
        }))
        .unwrap()
    }

    #[test]
    fn a_clean_run_passes_and_says_so() {
        let mut v = RunVerdict::default();
        let mut ok = seen(Route::Indexing, "/v2/batch", 200);
        ok.verdict = Some(Verdict::Accepted);
        v.add(&StreamMessage::Request(Box::new(ok)));
        let mut b = seen(Route::Collect, "/analytics/collect", 200);
        b.batch = Some(BatchSeen {
            events: 2,
            valid: 2,
            problems: vec![
                json!({"level": "warning", "code": "LIST_NOT_VIEWED", "path": "[1]", "message": "m"}),
            ],
            ..BatchSeen::default()
        });
        v.add(&StreamMessage::Request(Box::new(b)));
        assert!(!v.failed());
        let text = v.report((0, 0));
        assert!(text.contains("1 accepted, 0 rejected"), "{text}");
        assert!(text.contains("2 events valid, 0 invalid"), "{text}");
        assert!(text.contains("warnings: 1"), "{text}");
        assert!(!text.contains("what went wrong"), "{text}");
    }

    #[test]
    fn rejections_and_invalid_events_are_listed_with_their_diagnosis() {
        let mut v = RunVerdict::default();
        let mut bad = seen(Route::Indexing, "/v2/batch", 401);
        bad.verdict = Some(Verdict::Rejected);
        bad.code = Some("SIGNATURE_MISMATCH".into());
        bad.conclusion = Some("The client signed the path without its trailing '/'.".into());
        v.add(&StreamMessage::Request(Box::new(bad)));
        let mut b = seen(Route::Collect, "/analytics/collect", 400);
        b.batch = Some(BatchSeen {
            events: 1,
            invalid: 1,
            problems: vec![
                json!({"level": "error", "code": "ITEM_ID", "path": "[0].items[0].item_id", "message": "item_id must be group-variant"}),
            ],
            ..BatchSeen::default()
        });
        v.add(&StreamMessage::Request(Box::new(b)));
        v.add(&StreamMessage::Skipped { skipped: 2 });
        assert!(v.failed());
        let text = v.report((3, 4));
        assert!(
            text.contains("0 accepted, 1 rejected (SIGNATURE_MISMATCH 1)"),
            "{text}"
        );
        assert!(
            text.contains("0 events valid, 1 invalid (ITEM_ID 1)"),
            "{text}"
        );
        assert!(text.contains("PUT /v2/batch: SIGNATURE_MISMATCH: The client signed the path without its trailing '/'."), "{text}");
        assert!(
            text.contains("ITEM_ID at [0].items[0].item_id: item_id must be group-variant"),
            "{text}"
        );
        assert!(
            text.contains("3 requests, 4 events; not seen by this summary: 2"),
            "{text}"
        );
    }

    #[test]
    fn the_list_is_bounded_and_counts_the_rest() {
        let mut v = RunVerdict::default();
        for _ in 0..(MAX_LISTED + 7) {
            let mut bad = seen(Route::Indexing, "/v2/batch", 401);
            bad.code = Some("TIMESTAMP_OUT_OF_WINDOW".into());
            v.add(&StreamMessage::Request(Box::new(bad)));
        }
        assert_eq!(v.failures.len(), MAX_LISTED);
        assert!(v.report((0, 0)).contains("… and 7 more"));
    }
}
