//! Budgets of the vendor-compatibility work (figures in benches/README.md):
//!
//! - `shape`: validating the nested event shape costs at most 1.2x the flat shape for the same
//!   items (`validate_bytes` over the same batch written both ways, compact JSON);
//! - `cors`: the collector's CORS layer adds under 5% per request: the same collector handler
//!   with and without `collector::with_cors`, driven in-process with `tower::ServiceExt::oneshot`
//!   (no sockets, so the figure is the layer's own cost on one request with an `Origin` header).
//!
//! `cargo bench --bench vendor`; prints both ratios at the end.

// Bench code: an unwrap that fails is a failed bench, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::Request;
use axum::routing::post;
use axum::Router;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use signscope::core::events::{validate_bytes, Batch, NestedEvent};
use signscope::server::{collector, AppState, ServerConfig};
use tower::ServiceExt;

/// The same batch in the nested shape (compact, like the SDK sends it).
fn nested_bytes(flat: &[u8]) -> Vec<u8> {
    let batch = Batch::from_slice(flat).unwrap();
    let nested: Vec<NestedEvent> = batch.events.iter().map(NestedEvent::from_flat).collect();
    serde_json::to_vec(&nested).unwrap()
}

fn bench_shape(c: &mut Criterion) {
    let mut g = c.benchmark_group("shape");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for n in [100, 10_000] {
        let flat = common::batch_bytes(n);
        let nested = nested_bytes(&flat);
        assert!(validate_bytes(&flat).problems.is_empty());
        assert!(validate_bytes(&nested).problems.is_empty());
        g.bench_with_input(BenchmarkId::new("flat", n), &flat, |b, body| {
            b.iter(|| validate_bytes(body))
        });
        g.bench_with_input(BenchmarkId::new("nested", n), &nested, |b, body| {
            b.iter(|| validate_bytes(body))
        });
    }
    g.finish();
}

fn routers() -> (Router, Router) {
    let mut cfg = ServerConfig::demo();
    cfg.max_stored = 100;
    let st = AppState::new(cfg);
    let plain = Router::new()
        .route("/analytics/collect", post(collector::collect))
        .with_state(st.clone());
    let cors = Router::new()
        .route(
            "/analytics/collect",
            collector::with_cors(post(collector::collect)),
        )
        .with_state(st);
    (plain, cors)
}

fn request(body: &'static [u8]) -> Request<Body> {
    Request::post("/analytics/collect")
        .header("Origin", "http://127.0.0.1:9999")
        .header("Content-Type", "application/json")
        .body(Body::from(body))
        .unwrap()
}

fn bench_cors(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let body: &'static [u8] = Box::leak(common::batch_bytes(1).into_boxed_slice());
    let (plain, cors) = routers();
    let mut g = c.benchmark_group("cors");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for (name, app) in [("without", &plain), ("with", &cors)] {
        g.bench_function(name, |b| {
            b.iter(|| rt.block_on(app.clone().oneshot(request(body))).unwrap())
        });
    }
    g.finish();
}

/// Plain side-by-side timings, best of several rounds, so both ratios print in one place.
fn ratios(_: &mut Criterion) {
    let best = |f: &mut dyn FnMut(), reps: u32| {
        let mut best = Duration::MAX;
        for _ in 0..7 {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            best = best.min(t.elapsed() / reps);
        }
        best
    };
    for n in [100, 10_000] {
        let flat = common::batch_bytes(n);
        let nested = nested_bytes(&flat);
        let reps = (4_000_000 / flat.len()).clamp(3, 2_000) as u32;
        let f = best(
            &mut || drop(std::hint::black_box(validate_bytes(&flat))),
            reps,
        );
        let m = best(
            &mut || drop(std::hint::black_box(validate_bytes(&nested))),
            reps,
        );
        println!(
            "shape/{n} items: flat {f:?} ({} bytes), nested {m:?} ({} bytes), nested/flat {:.3}",
            flat.len(),
            nested.len(),
            m.as_secs_f64() / f.as_secs_f64()
        );
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let body: &'static [u8] = Box::leak(common::batch_bytes(1).into_boxed_slice());
    let (plain, cors) = routers();
    let without = best(
        &mut || drop(rt.block_on(plain.clone().oneshot(request(body))).unwrap()),
        2_000,
    );
    let with = best(
        &mut || drop(rt.block_on(cors.clone().oneshot(request(body))).unwrap()),
        2_000,
    );
    println!(
        "cors/1 event: without {without:?}, with {with:?}, with/without {:.3}",
        with.as_secs_f64() / without.as_secs_f64()
    );
}

criterion_group!(benches, bench_shape, bench_cors, ratios);
criterion_main!(benches);
