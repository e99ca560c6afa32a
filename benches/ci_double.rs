//! `signscope serve` as a CI test double (`docs/server.md` rule R13): how long from spawning
//! the process to its socket being ready (the ready file is written, then the first stdout line),
//! and what a `test=`/`since=`/`match=` query and a scoped summary cost on a full store of
//! 10,000 records.
//!
//! `cargo bench --bench ci_double` (small samples: the machine is shared).

// Bench code: an unwrap that fails is a failed bench, with its message.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use signscope::server::store::{EventFilter, EventRecord, PageQuery, RequestFilter, RequestRecord};
use signscope::server::Store;

/// Spawn `signscope serve` on port 0 and wait for its first line (it is printed once the socket
/// listens and the ready file is written); then stop it.
fn spawn_to_ready(dir: &std::path::Path) -> Duration {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_signscope"))
        .args(["serve", "--demo", "--addr", "127.0.0.1:0", "--ready-file"])
        .arg(dir.join("ready.json"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let took = start.elapsed();
    assert!(line.starts_with("listening on"), "{line}");
    let _ = child.kill();
    let _ = child.wait();
    took
}

fn record(seq: u64, test: &str) -> RequestRecord {
    serde_json::from_value(serde_json::json!({
        "seq": seq, "time": "2026-11-29T10:00:00.000Z", "method": "PUT", "path": "/v2/batch",
        "query": "", "api_key": "demo-public-key", "verdict": "accepted", "status": 200,
        "code": null, "message": "Job submitted successfully", "warnings": [],
        "job_id": null, "body_bytes": 2, "body": "[]", "body_truncated": false,
        "headers": [["x-signscope-test", test], ["content-type", "application/json"]],
    }))
    .unwrap()
}

/// A valid `view_recs_list` of list `list-N` (the data a `match` is compared with).
fn event(seq: u64) -> EventRecord {
    serde_json::from_value(serde_json::json!({
        "seq": seq, "batch": seq, "time": "2026-11-29T10:00:00.000Z", "index": 0,
        "valid": true, "event": "view_recs_list", "list_id": format!("list-{}", seq % 100),
        "status": 200, "problems": [],
        "data": {"event": "view_recs_list", "event_apikey": "demo-public-key",
                 "event_data": {"list_id": format!("list-{}", seq % 100), "list_name": "Trending",
                                "items": [{"item_id": format!("sku-{seq}"), "index": 1}]}},
        "raw": null,
    }))
    .unwrap()
}

/// The event filters and the scoped summary on 10,000 events (one a batch) from 100 tests.
fn event_queries(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    let store = Store::new(10_000, usize::MAX);
    for seq in 1..=10_000u64 {
        store.add_batch(
            true,
            vec![(0, event(seq))],
            Some(&format!("t{}", seq % 100)),
        );
    }
    let matching: serde_json::Value = serde_json::json!({"event_data": {"list_id": "list-42"}});
    g.bench_function("events_match_10k", |b| {
        b.iter(|| {
            store.event_slots(&EventFilter {
                matching: Some(matching.clone()),
                ..EventFilter::default()
            })
        })
    });
    g.bench_function("events_test_filter_10k", |b| {
        b.iter(|| {
            store.event_slots(&EventFilter {
                test: Some("t42".into()),
                ..EventFilter::default()
            })
        })
    });
    g.bench_function("summary_test_scope_10k", |b| {
        b.iter(|| store.scoped_summary(None, Some("t42")))
    });
    g.bench_function("summary_since_near_head_10k", |b| {
        b.iter(|| store.scoped_summary(Some(9_990), None))
    });
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let mut g = c.benchmark_group("ci_double");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.bench_function("spawn_to_ready", |b| {
        b.iter_custom(|n| (0..n).map(|_| spawn_to_ready(dir.path())).sum())
    });

    // A full store: 10,000 requests from 100 tests.
    let store = Store::new(10_000, usize::MAX);
    for seq in 1..=10_000u64 {
        store.add_request(record(seq, &format!("t{}", seq % 100)));
    }
    let q = |test: Option<&str>, since: Option<u64>| RequestFilter {
        test: test.map(String::from),
        page: PageQuery {
            after: since,
            ..PageQuery::default()
        },
        ..RequestFilter::default()
    };
    g.bench_function("requests_test_filter_10k", |b| {
        b.iter(|| store.request_slots(&q(Some("t42"), None)))
    });
    g.bench_function("requests_since_near_head_10k", |b| {
        b.iter(|| store.request_slots(&q(None, Some(9_990))))
    });
    g.bench_function("requests_unfiltered_page_10k", |b| {
        b.iter(|| store.request_slots(&q(None, None)))
    });
    event_queries(&mut g);
    g.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
