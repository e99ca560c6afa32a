//! Local server throughput: verified `PUT /v2/batch` against the same server's
//! `PUT /_bench/unverified` (identical work except the signature check), for 1 KiB and 1 MiB
//! bodies. Each iteration sends 8 concurrent requests over keep-alive loopback connections, so
//! criterion's "time" is per 8 requests and its "elements/s" is requests per second; the ratio
//! of the two routes is the cost of verification. For instructions per request (one request at
//! a time, not sensitive to the machine's load) see `benches/server_instructions.sh`.
//!
//! Run: `cargo bench --bench server` (quick settings: 2 s measurement, 10 samples).
//! Client and server share the machine, so absolute figures understate a dedicated server;
//! the ratio is the point.

// Bench code: an unwrap that fails is a failed bench, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use chrono::{TimeZone, Utc};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use signscope::core::time::format_timestamp;
use signscope::core::{sign, Secret, SignableRequest};
use signscope::server::{self, ServerConfig, DEMO_API_KEY, DEMO_REST_KEY};

const CONCURRENT: usize = 8;

fn bench_server(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let t0 = Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap();
    let mut cfg = ServerConfig::demo();
    cfg.clock = server::fixed_clock(t0);
    cfg.unverified_route = true;
    cfg.max_stored = 100;
    let srv = server::start(
        rt.handle(),
        cfg,
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let base = srv.url();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let ts = format_timestamp(t0);

    let mut group = c.benchmark_group("server");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (label, size) in [("1KiB", 1024usize), ("1MiB", 1024 * 1024)] {
        let body = bytes::Bytes::from(common::json_body(size));
        let req = SignableRequest::new("PUT", "/v2/batch", "", &ts, DEMO_API_KEY, &body);
        let headers = sign(&req, &Secret::new(DEMO_REST_KEY)).unwrap().headers;
        group.throughput(Throughput::Elements(CONCURRENT as u64));
        for (route, path, signed) in [
            ("verified", "/v2/batch", true),
            ("unverified", "/_bench/unverified", false),
        ] {
            let url = format!("{base}{path}");
            group.bench_with_input(BenchmarkId::new(route, label), &body, |b, body| {
                b.iter(|| {
                    let futures = (0..CONCURRENT).map(|_| {
                        let mut rb = client.put(&url).body(body.clone());
                        if signed {
                            for (n, v) in &headers {
                                rb = rb.header(n, v);
                            }
                        }
                        async move {
                            let resp = rb.send().await.unwrap();
                            assert_eq!(resp.status().as_u16(), 200);
                            resp.bytes().await.unwrap();
                        }
                    });
                    rt.block_on(futures::future::join_all(futures))
                });
            });
        }
    }
    group.finish();
    rt.block_on(srv.shutdown());
}

/// A small signed `PUT` (one at a time) while 4 clients page `/_inspect/requests?limit=1000`
/// in a loop over a full store (10,000 records with 4 KiB heads). The page used to be copied
/// under the store's lock, so every PUT waited for a copy (`docs/server.md` rule L5); the goal
/// is a median under 5 ms.
fn bench_put_while_paging(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let t0 = Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap();
    let mut cfg = ServerConfig::demo();
    cfg.clock = server::fixed_clock(t0);
    // The server on its own runtime (as `serve` runs it), the pagers on another and the
    // measured client on a third: the PUT waits only for the server, not for the pagers' reads.
    let srv = server::start(
        rt.handle(),
        cfg,
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let base = srv.url();
    let pager_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let put_rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    pager_rt.block_on(async {
        let pad = "p".repeat(1000);
        for i in 0..10_000 {
            let mut rb = client.put(format!("{base}/v2/batch?i={i}"));
            for h in 0..4 {
                rb = rb.header(format!("x-pad-{h}"), &pad);
            }
            rb.body("[]").send().await.unwrap().bytes().await.unwrap();
        }
    });
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let pagers: Vec<_> = (0..4)
        .map(|_| {
            let (client, base, stop) = (client.clone(), base.clone(), stop.clone());
            pager_rt.spawn(async move {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let resp = client
                        .get(format!("{base}/_inspect/requests?limit=1000"))
                        .send()
                        .await
                        .unwrap();
                    resp.bytes().await.unwrap();
                }
            })
        })
        .collect();
    let ts = format_timestamp(t0);
    let body = bytes::Bytes::from_static(b"[{\"id\":\"sku-1\"}]");
    let req = SignableRequest::new("PUT", "/v2/batch", "", &ts, DEMO_API_KEY, &body);
    let headers = sign(&req, &Secret::new(DEMO_REST_KEY)).unwrap().headers;
    let mut group = c.benchmark_group("server_paging");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    let put_client = reqwest::Client::builder().no_proxy().build().unwrap();
    group.bench_function("signed_put_while_4_clients_page", |b| {
        b.iter(|| {
            let mut rb = put_client
                .put(format!("{base}/v2/batch"))
                .body(body.clone());
            for (n, v) in &headers {
                rb = rb.header(n, v);
            }
            put_rt.block_on(async {
                let resp = rb.send().await.unwrap();
                assert_eq!(resp.status().as_u16(), 200);
                resp.bytes().await.unwrap();
            })
        });
    });
    group.finish();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for p in pagers {
        let _ = pager_rt.block_on(p);
    }
    rt.block_on(srv.shutdown());
}

/// One small request at a time, as `tests/server_faults.rs`'s load test sends them: accepted,
/// and signed over `[]` but sent with another body (a mismatch nothing explains, so the
/// server's whole diagnosis runs: every single mistake, every pair, the PHP SDK form with one
/// more, the clock search capped at ±64 ms, docs/diagnosis.md D9). The difference is what a
/// mismatch costs the server.
fn bench_small_mismatch(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let t0 = Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap();
    let mut cfg = ServerConfig::demo();
    cfg.clock = server::fixed_clock(t0);
    cfg.max_stored = 100;
    let srv = server::start(
        rt.handle(),
        cfg,
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let url = format!("{}/v2/batch", srv.url());
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let ts = format_timestamp(t0);
    let body = bytes::Bytes::from_static(br#"[{"task":3,"i":1001}]"#);
    let mut group = c.benchmark_group("server_small");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (name, signed_body, status) in [
        ("accepted", &body[..], 200),
        ("mismatch_diagnosed", &b"[]"[..], 401),
    ] {
        let req = SignableRequest::new("PUT", "/v2/batch", "", &ts, DEMO_API_KEY, signed_body);
        let headers = sign(&req, &Secret::new(DEMO_REST_KEY)).unwrap().headers;
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut rb = client.put(&url).body(body.clone());
                for (n, v) in &headers {
                    rb = rb.header(n, v);
                }
                rt.block_on(async {
                    let resp = rb.send().await.unwrap();
                    assert_eq!(resp.status().as_u16(), status);
                    resp.bytes().await.unwrap();
                })
            });
        });
    }
    group.finish();
    rt.block_on(srv.shutdown());
}

criterion_group!(
    benches,
    bench_server,
    bench_put_while_paging,
    bench_small_mismatch
);
criterion_main!(benches);
