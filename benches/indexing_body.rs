//! Judging an indexing body (`docs/indexing-bodies.md` rule B9): a 2 MB `PUT /v2/batch` of
//! 10,000 records with problems in every one (an id that is a number, an empty type, an
//! attribute name with a hyphen), next to the verification of the same request, so that the
//! judgement's share of a verified request is visible.
//!
//! `cargo bench --bench indexing_body`; prints the medians and the share at the end.

// Bench code: an unwrap that fails is a failed bench, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use chrono::TimeZone;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use signscope::core::indexing_body::{judge_bytes, BodyKind, MAX_LISTED};
use signscope::core::verify::{verify, ReceivedRequest, VerifyOptions};
use signscope::core::{sign, Secret, SignableRequest};

const TS: &str = "2026-11-22T10:00:00.000Z";
const KEY: &str = "bench-rest-key";
const RECORDS: usize = 10_000;

/// 10,000 records of about 200 bytes each (2 MB), every one with three errors.
fn bad_batch() -> Vec<u8> {
    let pad = "x".repeat(108);
    let mut s = String::from("[");
    for i in 0..RECORDS {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            r#"{{"id":{i},"type":"","attributes":{{"colour-code":"BLK","name":"Shoe {i}","description":"{pad}"}}}}"#
        ));
    }
    s.push(']');
    s.into_bytes()
}

fn received(b: &[u8]) -> ReceivedRequest {
    let r = SignableRequest::new("PUT", "/v2/batch", "", TS, "pub-key", b);
    let s = sign(&r, &Secret::new(KEY)).unwrap();
    ReceivedRequest::from_signed(&r, &s.headers)
}

fn bench(c: &mut Criterion) {
    let body = bad_batch();
    assert!(
        (1_900_000..2_100_000).contains(&body.len()),
        "{}",
        body.len()
    );
    let j = judge_bytes(BodyKind::Records, &body, None).unwrap();
    assert_eq!(
        (j.problems.len(), j.error_count()),
        (MAX_LISTED, 3 * RECORDS)
    );
    let keys = HashMap::from([("pub-key".to_string(), Secret::new(KEY))]);
    let now = chrono::Utc
        .with_ymd_and_hms(2026, 11, 22, 10, 0, 0)
        .unwrap();
    let opts = VerifyOptions::default();
    let rr = received(&body);
    let mut g = c.benchmark_group("indexing_body");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(body.len() as u64));
    g.bench_function("judge_2MB_10000_bad_records", |b| {
        b.iter(|| judge_bytes(BodyKind::Records, black_box(&body), None))
    });
    g.bench_function("verify_2MB", |b| {
        b.iter(|| verify(black_box(&rr), &keys, &opts, now).unwrap())
    });
    g.finish();
    share(&body, &rr, &keys, &opts, now);
}

/// Median of 15 runs of each, and the judgement's share of verify + judge.
fn share(
    body: &[u8],
    rr: &ReceivedRequest,
    keys: &HashMap<String, Secret>,
    opts: &VerifyOptions,
    now: chrono::DateTime<chrono::Utc>,
) {
    let median = |f: &dyn Fn()| {
        let mut t: Vec<Duration> = (0..15)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed()
            })
            .collect();
        t.sort();
        t[7]
    };
    let judge = median(&|| drop(black_box(judge_bytes(BodyKind::Records, body, None))));
    let verified = median(&|| drop(black_box(verify(rr, keys, opts, now))));
    let share = judge.as_secs_f64() / (judge + verified).as_secs_f64() * 100.0;
    println!(
        "indexing body, {} bytes, {RECORDS} records: judge {:.1} ms, verify {:.1} ms, judge's share of a verified request {share:.0}%",
        body.len(),
        judge.as_secs_f64() * 1e3,
        verified.as_secs_f64() * 1e3
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
