//! The live stream and the forwarding proxy, on loopback.
//!
//! - `stream/deliver_1000`: 1,000 small requests (8 concurrent keep-alive clients, `GET` of an
//!   unknown path: the cheapest answer, so the stream is what is measured) and the time until
//!   one `/_inspect/stream` subscriber has received all 1,000 records. criterion's elements/s is
//!   records delivered per second (budget: 5,000/s). The subscriber panics on a `skipped`
//!   record, so a run that completes delivered every record.
//! - `forward/direct` and `forward/proxied`: one small signed `PUT /v2/batch` at a time, straight
//!   to an upstream server, and through a second server that verifies, records and forwards it
//!   there. The difference is what forwarding adds per request (budget: under 1 ms).
//!
//! Run: `cargo bench --bench watch -- --warm-up-time 1 --measurement-time 3`.

// Bench code: an unwrap that fails is a failed bench, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use futures::StreamExt;
use signscope::client::stream::events;
use signscope::core::time::format_timestamp;
use signscope::core::{sign, Secret, SignableRequest};
use signscope::server::{self, ServerConfig, DEMO_API_KEY, DEMO_REST_KEY};

const CONCURRENT: usize = 8;
const BATCH: usize = 1000;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn client() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

fn bench_stream(c: &mut Criterion) {
    let rt = runtime();
    let mut cfg = ServerConfig::demo();
    cfg.max_stored = 10_000;
    let srv = server::start(
        rt.handle(),
        cfg,
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let base = srv.url();
    let http = client();
    // One subscriber, reading on its own task; it reports every record's number.
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<u64>();
    let sub_url = format!("{base}/_inspect/stream");
    let sub_client = client();
    rt.spawn(async move {
        let resp = sub_client.get(sub_url).send().await.unwrap();
        let mut events = std::pin::pin!(events(resp));
        while let Some(Ok(ev)) = events.next().await {
            if ev.event == "request" {
                let _ = tx.send(ev.id.parse().unwrap_or(0));
            } else if ev.event == "skipped" {
                panic!("the subscriber fell behind: {}", ev.data);
            }
        }
    });
    // Let the subscription start.
    rt.block_on(async {
        for _ in 0..50 {
            http.get(format!("{base}/warm")).send().await.unwrap();
            if rx.try_recv().is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        while rx.try_recv().is_ok() {}
    });

    let mut g = c.benchmark_group("stream");
    g.sample_size(10);
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function("deliver_1000", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    let mut tasks = Vec::new();
                    for t in 0..CONCURRENT {
                        let http = http.clone();
                        let base = base.clone();
                        tasks.push(tokio::spawn(async move {
                            for i in (t..BATCH).step_by(CONCURRENT) {
                                http.get(format!("{base}/n/{i}")).send().await.unwrap();
                            }
                        }));
                    }
                    for t in tasks {
                        t.await.unwrap();
                    }
                    for _ in 0..BATCH {
                        rx.recv().await.unwrap();
                    }
                }
                start.elapsed()
            })
        })
    });
    g.finish();
    drop(srv);
}

fn signed(base: &str, http: &reqwest::Client, body: &'static str) -> reqwest::RequestBuilder {
    let ts = format_timestamp(chrono::Utc::now());
    let req = SignableRequest::new("PUT", "/v2/batch", "", &ts, DEMO_API_KEY, body.as_bytes());
    let signed = sign(&req, &Secret::new(DEMO_REST_KEY)).unwrap();
    let mut rb = http.put(format!("{base}/v2/batch"));
    for (n, v) in signed.headers.iter() {
        rb = rb.header(n, v);
    }
    rb.body(body)
}

fn bench_forward(c: &mut Criterion) {
    const BODY: &str = r#"[{"id":"sku-1","name":"Trail shoe"}]"#;
    let rt = runtime();
    let (upstream, proxy) = rt.block_on(async {
        let mut cfg = ServerConfig::demo();
        cfg.max_stored = 1000;
        let up = server::start(
            &tokio::runtime::Handle::current(),
            cfg,
            std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
        )
        .unwrap();
        let mut cfg = ServerConfig::demo();
        cfg.max_stored = 1000;
        cfg.forward_indexing = Some(up.url());
        let proxy = server::start(
            &tokio::runtime::Handle::current(),
            cfg,
            std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
        )
        .unwrap();
        (up, proxy)
    });
    let http = client();
    let mut g = c.benchmark_group("forward");
    for (name, base) in [("direct", upstream.url()), ("proxied", proxy.url())] {
        g.bench_function(name, |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let start = Instant::now();
                    for _ in 0..iters {
                        let resp = signed(&base, &http, BODY).send().await.unwrap();
                        assert_eq!(resp.status(), 200);
                        resp.bytes().await.unwrap();
                    }
                    start.elapsed()
                })
            })
        });
    }
    g.finish();
    drop(proxy);
    drop(upstream);
}

criterion_group!(benches, bench_stream, bench_forward);
criterion_main!(benches);
