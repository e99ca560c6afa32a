//! Events validation next to a bare `serde_json::Value` parse of the same bytes (budget:
//! validate_bytes <= ~1.5x the bare parse for 10,000 items).
//!
//! `cargo bench --bench events`; prints the validate/parse ratio for each size at the end.

// Bench code: an unwrap that fails is a failed bench, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use signscope::core::events::{validate, validate_bytes};

mod common;

const SIZES: [usize; 3] = [10, 1_000, 10_000];

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("events");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for n in SIZES {
        let body = common::batch_bytes(n);
        assert!(validate_bytes(&body).problems.is_empty());
        g.throughput(Throughput::Bytes(body.len() as u64));
        g.bench_with_input(BenchmarkId::new("parse_value", n), &body, |b, body| {
            b.iter(|| serde_json::from_slice::<serde_json::Value>(body).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("validate_bytes", n), &body, |b, body| {
            b.iter(|| validate_bytes(body))
        });
        let value: serde_json::Value = serde_json::from_slice(&body).unwrap();
        g.bench_with_input(BenchmarkId::new("validate_value", n), &value, |b, v| {
            b.iter(|| validate(v))
        });
    }
    g.finish();
    ratios();
}

/// A plain side-by-side timing so the ratio is printed in one place (criterion's own figures
/// above are the reference).
fn ratios() {
    for n in SIZES {
        let body = common::batch_bytes(n);
        let reps = (2_000_000 / body.len()).clamp(3, 2_000);
        let time = |f: &dyn Fn()| {
            let mut best = Duration::MAX;
            for _ in 0..5 {
                let t = Instant::now();
                for _ in 0..reps {
                    f();
                }
                best = best.min(t.elapsed() / reps as u32);
            }
            best
        };
        let parse = time(&|| {
            std::hint::black_box(serde_json::from_slice::<serde_json::Value>(&body).unwrap());
        });
        let val = time(&|| {
            std::hint::black_box(validate_bytes(&body));
        });
        println!(
            "events/{n} items ({} bytes): parse_value {parse:?}, validate_bytes {val:?}, ratio {:.2}",
            body.len(),
            val.as_secs_f64() / parse.as_secs_f64()
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
