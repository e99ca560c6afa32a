//! Budgets of the vendor-compatibility work (figures in benches/README.md):
//!
//! - `shape`: validating the nested event shape costs at most 1.2x the flat shape for the same
//!   items (`validate_bytes` over the same batch written both ways, compact JSON);
//! - `order`: validating an `order_purchase` line costs at most 1.2x a recommendation item
//!   (`validate_bytes` over one view event of N items and one order of N lines, per item);
//! - `cors`: the collector's CORS layer (tower-http's `CorsLayer`, `collector::cors`) adds under
//!   5% per request. The collector handler with and without it, driven in-process with `tower::ServiceExt::oneshot` (no
//!   sockets), one request with an `Origin` header and a one-event batch. The handler itself
//!   hops to the blocking pool to validate, so two separate timing runs differ by more than the
//!   layer costs: the verdict comes from `ratios`, which interleaves the two routers in the same
//!   loop (rounds of 200 requests each, the order alternating) and prints the median of the
//!   per-round ratios with its quartiles, and the layer's own cost measured around a handler
//!   that does nothing (again interleaved), as a share of one collector request.
//!
//! `cargo bench --bench vendor`; prints both ratios at the end (`cargo bench --bench vendor --
//! ratios` runs only them).

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

/// One view event of `n` recommendation items, and one `order_purchase` of `n` lines with the
/// same ids, names and prices (compact JSON, as the SDKs send them).
fn view_and_order(n: usize) -> (Vec<u8>, Vec<u8>) {
    let items: Vec<serde_json::Value> = (1..=n)
        .map(|i| {
            serde_json::json!({"item_id": format!("G{i}-V{i}"), "item_group_id": format!("G{i}"),
                "item_variant_id": format!("V{i}"), "item_name": format!("Product {i}"),
                "price": "19.99", "currency": "EUR", "item_brand": "Brand",
                "item_category": "Mens;Shoes", "index": i})
        })
        .collect();
    let lines: Vec<serde_json::Value> = (1..=n)
        .map(|i| {
            serde_json::json!({"order_id": "100000123", "order_line_id": i.to_string(),
                "item_id": format!("G{i}-V{i}"), "item_group_id": format!("G{i}"),
                "item_variant_id": format!("V{i}"), "item_name": format!("Product {i}"),
                "unit_price": "19.99", "currency": "EUR", "units": 1})
        })
        .collect();
    let view = serde_json::json!([{"event": "view_recs_list", "event_version": "1.0.0",
        "event_apikey": "klevu-1", "event_data": {"list_id": "k-1", "list_name": "Trending",
        "list_logic": "TRENDING", "items": items}}]);
    let order = serde_json::json!([{"event": "order_purchase", "event_version": "1.0.0",
        "event_apikey": "klevu-1", "event_data": {"items": lines}}]);
    (
        serde_json::to_vec(&view).unwrap(),
        serde_json::to_vec(&order).unwrap(),
    )
}

fn bench_order(c: &mut Criterion) {
    let mut g = c.benchmark_group("order");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for n in [100, 10_000] {
        let (view, order) = view_and_order(n);
        assert!(validate_bytes(&view).problems.is_empty());
        assert!(validate_bytes(&order).problems.is_empty());
        g.bench_with_input(BenchmarkId::new("recommendation", n), &view, |b, body| {
            b.iter(|| validate_bytes(body))
        });
        g.bench_with_input(BenchmarkId::new("order_purchase", n), &order, |b, body| {
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
        .route("/analytics/collect", post(collector::collect))
        .route_layer(collector::cors())
        .with_state(st);
    (plain, cors)
}

/// The same two routers around a handler that does nothing: what is left is the layer.
fn bare_routers() -> (Router, Router) {
    async fn nothing() -> &'static str {
        "{}"
    }
    let st = AppState::new(ServerConfig::demo());
    let plain = Router::new()
        .route("/analytics/collect", post(nothing))
        .with_state(st.clone());
    let cors = Router::new()
        .route("/analytics/collect", post(nothing))
        .route_layer(collector::cors())
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
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let body: &'static [u8] = Box::leak(common::batch_bytes(1).into_boxed_slice());
    let mut g = c.benchmark_group("cors");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for (what, (plain, cors)) in [("collector", routers()), ("bare", bare_routers())] {
        for (name, app) in [("without", &plain), ("with", &cors)] {
            g.bench_function(BenchmarkId::new(what, name), |b| {
                b.iter(|| rt.block_on(app.clone().oneshot(request(body))).unwrap())
            });
        }
    }
    g.finish();
}

/// Time `plain` and `cors` in the same loop: `rounds` rounds of `per_round` requests each, the
/// order alternating between rounds. Returns the per-request times of each round, paired.
fn interleaved(
    rt: &tokio::runtime::Runtime,
    (plain, cors): &(Router, Router),
    body: &'static [u8],
    rounds: usize,
    per_round: u32,
) -> Vec<(Duration, Duration)> {
    let time = |app: &Router| {
        let t = Instant::now();
        for _ in 0..per_round {
            drop(rt.block_on(app.clone().oneshot(request(body))).unwrap());
        }
        t.elapsed() / per_round
    };
    // Warm both up (first requests allocate the store's buffers, the blocking pool's threads).
    time(plain);
    time(cors);
    (0..rounds)
        .map(|r| {
            if r % 2 == 0 {
                let p = time(plain);
                (p, time(cors))
            } else {
                let c = time(cors);
                (time(plain), c)
            }
        })
        .collect()
}

/// The `q`-quantile of `v` (sorted in place).
fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn cors_ratio(rt: &tokio::runtime::Runtime) {
    let body: &'static [u8] = Box::leak(common::batch_bytes(1).into_boxed_slice());
    let full = interleaved(rt, &routers(), body, 41, 200);
    let mut ratios: Vec<f64> = full
        .iter()
        .map(|(p, c)| c.as_secs_f64() / p.as_secs_f64())
        .collect();
    let mut plain: Vec<f64> = full.iter().map(|(p, _)| p.as_secs_f64()).collect();
    let plain_median = quantile(&mut plain, 0.5);
    println!(
        "cors/1 event, paired over {} interleaved rounds: without {:.1} µs (median), with/without median {:.3} (quartiles {:.3}-{:.3})",
        full.len(),
        plain_median * 1e6,
        quantile(&mut ratios, 0.5),
        quantile(&mut ratios, 0.25),
        quantile(&mut ratios, 0.75),
    );
    let bare = interleaved(rt, &bare_routers(), body, 41, 2_000);
    let mut added: Vec<f64> = bare
        .iter()
        .map(|(p, c)| c.as_secs_f64() - p.as_secs_f64())
        .collect();
    let added_median = quantile(&mut added, 0.5);
    println!(
        "cors/layer alone (around a handler that does nothing): adds {:.0} ns per request (quartiles {:.0}-{:.0} ns) = {:.2}% of one collector request",
        added_median * 1e9,
        quantile(&mut added, 0.25) * 1e9,
        quantile(&mut added, 0.75) * 1e9,
        100.0 * added_median / plain_median,
    );
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
    for n in [100, 10_000] {
        let (view, order) = view_and_order(n);
        let reps = (4_000_000 / view.len()).clamp(3, 2_000) as u32;
        let v = best(
            &mut || drop(std::hint::black_box(validate_bytes(&view))),
            reps,
        );
        let o = best(
            &mut || drop(std::hint::black_box(validate_bytes(&order))),
            reps,
        );
        println!(
            "order/{n} items: recommendation {:.0} ns per item, order_purchase {:.0} ns per line, order/recommendation {:.3}",
            v.as_secs_f64() * 1e9 / n as f64,
            o.as_secs_f64() * 1e9 / n as f64,
            o.as_secs_f64() / v.as_secs_f64()
        );
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    cors_ratio(&rt);
}

criterion_group!(benches, bench_shape, bench_order, bench_cors, ratios);
criterion_main!(benches);
