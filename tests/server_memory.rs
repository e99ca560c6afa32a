//! Memory under attack, in a process of its own (resident memory is per process): batches that
//! make the collector keep far more than their size, and (ignored by default: 60 s) a soak of
//! mixed good, bad, slow and oversized clients. Figures are printed; run with --nocapture.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod server_common;

use std::time::{Duration, Instant};

use server_common::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const MIB: u64 = 1024 * 1024;

/// A 3.5 KB batch of one event with 1,112 empty items: 10,008 problems, which the store kept
/// (about 12.6 MiB) while counting 10 KB of it toward its limit.
fn problem_batch() -> String {
    let items = vec!["{}"; 1112].join(",");
    format!(
        r#"[{{"event":"view_recs_list","event_apikey":"demo-public-key","event_list_id":"l1","event_tags":[],"event_list_name":"n","event_list_logic":"TRENDING","items":[{items}]}}]"#
    )
}

/// Start `signscope serve --demo` (default limits: a 64 MiB store) on 127.0.0.1 port 0.
fn serve() -> ServeProcess {
    ServeProcess::start(&["--addr", "127.0.0.1:0", "--demo"], &[])
}

/// SIGTERM: the server exits with 0.
fn stop(p: ServeProcess) {
    assert_eq!(p.stop(), Some(0));
}

/// 200 such batches took the server to 2.5 GiB (each kept about 12.6 MiB while counting 10 KB)
/// and a reset gave nothing back. Now every record is counted with its problems and capped, so
/// the store's byte limit holds: the server's resident memory stays under the store limit plus
/// 64 MiB, and a reset hands the memory back. 20 batches by default (a debug build takes about
/// two seconds for each; before the fix the bound was crossed at the ninth);
/// `SIGNSCOPE_MEMORY_BATCHES=1000` runs the full attack.
#[test]
fn batches_with_ten_thousand_problems_stay_within_the_store_limit() {
    let batches: usize = std::env::var("SIGNSCOPE_MEMORY_BATCHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let limit = signscope::server::config::DEFAULT_MAX_STORED_BYTES as u64;
    let bound = limit + 64 * MIB;
    let child = serve();
    let (base, pid) = (child.url.clone(), child.pid());
    let body = problem_batch();
    assert!(body.len() < 3600, "{}", body.len());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (start_rss, _) = rss(pid);
    let t = Instant::now();
    let (stored, before_reset, after_reset, peak) = rt.block_on(async {
        let c = client();
        for i in 0..batches {
            let (status, v) = collect(&c, &base, &body).await;
            assert_eq!(status, 400);
            if i == 0 {
                let n = v["problems"].as_array().unwrap().len()
                    + v["omitted"]["errors"].as_u64().unwrap_or(0) as usize;
                assert!(n >= 10_000, "{n}");
            }
            let (now, _) = rss(pid);
            if (i + 1) % 50 == 0 || [1, 2, 5, 10, 20].contains(&(i + 1)) {
                let (_, sum) = get_json(&c, &format!("{base}/_inspect/summary")).await;
                eprintln!(
                    "after {} batches: server RSS {} MiB, store counts {} MiB",
                    i + 1,
                    now / MIB,
                    sum["stored_bytes"].as_u64().unwrap_or(0) / MIB
                );
            }
            assert!(
                now < bound,
                "after {} batches the server's resident memory is {} MiB (bound {} MiB)",
                i + 1,
                now / MIB,
                bound / MIB
            );
        }
        let (_, sum) = get_json(&c, &format!("{base}/_inspect/summary")).await;
        let stored = sum["stored_bytes"].as_u64().unwrap();
        assert!(stored <= limit, "{sum}");
        let (before_reset, peak) = rss(pid);
        let resp = c
            .post(format!("{base}/_inspect/reset"))
            .header("X-Signscope", "1")
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200);
        let (after_reset, _) = rss(pid);
        (stored, before_reset, after_reset, peak)
    });
    stop(child);
    eprintln!(
        "{batches} batches of {} bytes with 10,008 problems each in {:?}: server RSS {} MiB at start, {} MiB before reset (store {} MiB counted, limit {} MiB), {} MiB after reset, peak {} MiB",
        body.len(),
        t.elapsed(),
        start_rss / MIB,
        before_reset / MIB,
        stored / MIB,
        limit / MIB,
        after_reset / MIB,
        peak / MIB
    );
    assert!(peak < bound, "peak {} MiB", peak / MIB);
    // The store held about `stored` bytes; at least half of that is handed back.
    assert!(
        after_reset + stored / 2 < before_reset,
        "reset gave back {} MiB of {} MiB stored",
        before_reset.saturating_sub(after_reset) / MIB,
        stored / MIB
    );
}

/// Soak: 60 s (`SIGNSCOPE_SOAK_SECS`) of mixed clients from 8 tasks against the `serve` binary:
/// good signed requests, tampered ones, good and bad event batches, slow bodies (one byte per
/// 500 ms), oversized declared bodies and full inspection reads. Reports requests served, the
/// p99 time of good signed requests, and the server's peak RSS.
#[test]
#[ignore = "a 60 s soak; run with --ignored --nocapture"]
fn soak_mixed_clients_for_a_minute() {
    let secs: u64 = std::env::var("SIGNSCOPE_SOAK_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let child = serve();
    let (base, pid) = (child.url.clone(), child.pid());
    let addr: std::net::SocketAddr = base.trim_start_matches("http://").parse().unwrap();

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let end = Instant::now() + Duration::from_secs(secs);
    let (served, mut good_times, slow_408, too_large) = rt.block_on(async move {
        let mut tasks = Vec::new();
        for t in 0..8usize {
            let base = base.clone();
            tasks.push(tokio::spawn(async move {
                let c = client();
                let mut served = 0u64;
                let mut good = Vec::new();
                let (mut slow_408, mut too_large) = (0u64, 0u64);
                let bad = bad_batch();
                let problems = vec!["{}"; 1112].join(",");
                let problem_batch = format!(r#"[{{"event":"view_recs_list","items":[{problems}]}}]"#);
                let mut i = 0usize;
                while Instant::now() < end {
                    let now = signscope::core::time::format_timestamp(chrono::Utc::now());
                    let body = format!(r#"[{{"task":{t},"i":{i}}}]"#);
                    match (t, i % 4) {
                        // Tasks 0-3: good and tampered signed requests, event batches.
                        (0..=3, 0 | 2) => {
                            let h = demo_headers("PUT", "/v2/batch", "", &now, body.as_bytes());
                            let s0 = Instant::now();
                            let (s, v) = send(&c, &base, "PUT", "/v2/batch", &h, body.into_bytes()).await;
                            good.push(s0.elapsed());
                            assert_eq!(s, 200, "{v}");
                        }
                        (0..=3, 1) => {
                            let h = demo_headers("PUT", "/v2/batch", "", &now, b"[]");
                            let (s, _) = send(&c, &base, "PUT", "/v2/batch", &h, body.into_bytes()).await;
                            assert_eq!(s, 401);
                        }
                        (0..=3, _) => {
                            let (s, _) = collect(&c, &base, if i % 8 == 3 { GOOD_BATCH } else { &bad }).await;
                            assert!(s == 200 || s == 400, "{s}");
                        }
                        // Tasks 4-5: slow bodies, a few at a time, each held until refused.
                        (4..=5, _) => {
                            let mut held = Vec::new();
                            for _ in 0..25 {
                                let mut s = TcpStream::connect(addr).await.unwrap();
                                s.write_all(b"PUT /v2/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2000000\r\n\r\n[").await.unwrap();
                                held.push(s);
                            }
                            for mut s in held {
                                let mut buf = vec![0u8; 512];
                                let mut got = Vec::new();
                                let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
                                while let Ok(Ok(n)) = tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
                                    if n == 0 { break; }
                                    got.extend_from_slice(&buf[..n]);
                                    if got.windows(4).any(|w| w == b"\r\n\r\n") { break; }
                                }
                                if got.starts_with(b"HTTP/1.1 408") {
                                    slow_408 += 1;
                                }
                            }
                        }
                        // Task 6: oversized bodies and collector batches full of problems.
                        (6, _) => {
                            if i.is_multiple_of(2) {
                                let resp = c.put(format!("{base}/v2/batch"))
                                    .body(vec![b'x'; 3 * 1024 * 1024]).send().await;
                                if let Ok(r) = resp {
                                    if r.status() == 413 { too_large += 1; }
                                }
                            } else {
                                let (s, _) = collect(&c, &base, &problem_batch).await;
                                assert_eq!(s, 400);
                            }
                        }
                        // Task 7: inspection reads (full pages).
                        _ => {
                            let path = if i.is_multiple_of(2) { "requests" } else { "events" };
                            let (s, _) = get_json(&c, &format!("{base}/_inspect/{path}?limit=1000")).await;
                            assert_eq!(s, 200);
                        }
                    }
                    served += 1;
                    i += 1;
                }
                (served, good, slow_408, too_large)
            }));
        }
        let mut all = (0u64, Vec::new(), 0u64, 0u64);
        for t in tasks {
            let (s, g, sl, tl) = t.await.unwrap();
            all.0 += s;
            all.1.extend(g);
            all.2 += sl;
            all.3 += tl;
        }
        all
    });
    let (_, peak) = rss(pid);
    stop(child);
    good_times.sort();
    let p = |q: f64| good_times[((good_times.len() as f64 * q) as usize).min(good_times.len() - 1)];
    eprintln!(
        "soak {secs} s, 8 tasks: {served} client operations, {} good signed requests (p50 {:?}, p99 {:?}, max {:?}), {slow_408} slow bodies refused 408, {too_large} oversized refused 413, server peak RSS {} MiB",
        good_times.len(),
        p(0.5),
        p(0.99),
        good_times.last().unwrap(),
        peak / MIB
    );
    assert!(!good_times.is_empty());
    assert!(slow_408 > 0 && too_large > 0);
}

/// A request with a 28 KiB head (the limit is 32 KiB): a 16 KiB query and twelve 1,000-byte
/// headers, all kept. Unsigned, so it is refused and recorded.
async fn big_head_request(c: &reqwest::Client, base: &str, i: usize) {
    let mut rb = c.put(format!(
        "{base}/v2/batch?i={i}&pad={}",
        "q".repeat(16 * 1024)
    ));
    for h in 0..12 {
        rb = rb.header(format!("x-pad-{h}"), "p".repeat(1000));
    }
    let resp = rb.body("[]").send().await.unwrap();
    assert!(resp.status().is_client_error(), "{}", resp.status());
}

/// Open a page request, read its head and stop reading (the rest stays unread).
async fn stalled_page_reader(addr: std::net::SocketAddr) -> TcpStream {
    stalled_reader(addr, "/_inspect/requests?limit=1000").await
}

/// Send `GET path`, read the answer's head and stop reading (the rest stays unread).
async fn stalled_reader(addr: std::net::SocketAddr, path: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(s.read(&mut byte).await.unwrap(), 1, "the server closed");
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 200"), "{head:?}");
    s
}

/// A page of a thousand records with 28 KiB heads was copied whole (28 MB) for each reader and
/// held until the reader read it: 80 readers that stopped reading took the server to 2.4 GB.
/// Now a page names its records and writes them a chunk at a time, each chunk within one
/// budget shared by every answer, with headers cut in lists: 200 stalled readers keep the
/// server's resident memory under the store limit plus 64 MiB, and a signed request is still
/// answered while they stall.
#[test]
fn two_hundred_stalled_page_readers_stay_within_the_store_limit() {
    let limit = signscope::server::config::DEFAULT_MAX_STORED_BYTES as u64;
    let bound = limit + 64 * MIB;
    let child = serve();
    let (base, pid) = (child.url.clone(), child.pid());
    let addr: std::net::SocketAddr = base.trim_start_matches("http://").parse().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let c = client();
        for i in 0..1000 {
            big_head_request(&c, &base, i).await;
        }
        let (_, sum) = get_json(&c, &format!("{base}/_inspect/summary")).await;
        let stored = sum["stored_bytes"].as_u64().unwrap();
        assert!(stored > 20 * MIB, "{sum}");
        let (filled, _) = rss(pid);
        let mut readers = Vec::new();
        for i in 0..200 {
            readers.push(stalled_page_reader(addr).await);
            let (now, _) = rss(pid);
            if (i + 1) % 50 == 0 || i < 3 {
                eprintln!(
                    "{} stalled page readers: server RSS {} MiB (after filling {} MiB, store counts {} MiB)",
                    i + 1,
                    now / MIB,
                    filled / MIB,
                    stored / MIB
                );
            }
            assert!(
                now < bound,
                "with {} stalled page readers the server's resident memory is {} MiB (bound {} MiB)",
                i + 1,
                now / MIB,
                bound / MIB
            );
        }
        // The server still answers a signed request while they stall.
        let now = signscope::core::time::format_timestamp(chrono::Utc::now());
        let h = demo_headers("PUT", "/v2/batch", "", &now, b"[]");
        let (status, v) = send(&c, &base, "PUT", "/v2/batch", &h, b"[]".to_vec()).await;
        assert_eq!(status, 200, "{v}");
        drop(readers);
        let (_, peak) = rss(pid);
        assert!(peak < bound, "peak {} MiB", peak / MIB);
    });
    stop(child);
}

/// A HAR page (`?format=har`) was built whole, outside the answers' budget, for every reader:
/// with a thousand records with 28 KiB heads each page was several MiB, held until read. Now it
/// is written a record at a time within the same budget as list pages: 200 stalled HAR
/// readers keep the server under the store limit plus 64 MiB.
#[test]
fn two_hundred_stalled_har_readers_stay_within_the_store_limit() {
    let limit = signscope::server::config::DEFAULT_MAX_STORED_BYTES as u64;
    let bound = limit + 64 * MIB;
    let child = serve();
    let (base, pid) = (child.url.clone(), child.pid());
    let addr: std::net::SocketAddr = base.trim_start_matches("http://").parse().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let c = client();
        for i in 0..1000 {
            big_head_request(&c, &base, i).await;
        }
        // A HAR page read to its end is a whole HAR document with every header kept.
        let whole = c
            .get(format!("{base}/_inspect/requests?limit=1000&format=har"))
            .send()
            .await
            .unwrap();
        assert_eq!(whole.status(), 200);
        let har: serde_json::Value = serde_json::from_slice(&whole.bytes().await.unwrap()).unwrap();
        let entries = har["log"]["entries"].as_array().unwrap();
        assert!(entries.len() > 100, "{} entries", entries.len());
        let first = &entries[0]["request"]["headers"];
        assert!(
            first
                .as_array()
                .unwrap()
                .iter()
                .any(|h| h["name"] == "x-pad-11" && h["value"].as_str().unwrap().len() == 1000),
            "{first}"
        );
        let (filled, _) = rss(pid);
        let mut readers = Vec::new();
        for i in 0..200 {
            readers.push(stalled_reader(addr, "/_inspect/requests?limit=1000&format=har").await);
            let (now, _) = rss(pid);
            if (i + 1) % 50 == 0 || i < 3 {
                eprintln!(
                    "{} stalled HAR readers: server RSS {} MiB (after filling {} MiB)",
                    i + 1,
                    now / MIB,
                    filled / MIB
                );
            }
            assert!(
                now < bound,
                "with {} stalled HAR readers the server's resident memory is {} MiB (bound {} MiB)",
                i + 1,
                now / MIB,
                bound / MIB
            );
        }
        drop(readers);
        let (_, peak) = rss(pid);
        assert!(peak < bound, "peak {} MiB", peak / MIB);
    });
    stop(child);
}

/// An upstream on a thread of its own that answers every request with the same `size` bytes
/// (one buffer shared by every answer, so the test process holds it once).
fn big_answer_upstream(size: usize) -> String {
    let body = bytes::Bytes::from(vec![b'x'; size]);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let app = axum::Router::new().fallback(move || {
                let b = body.clone();
                async move { b }
            });
            axum::serve(listener, app).await.unwrap();
        });
    });
    format!("http://{addr}")
}

/// A forwarded answer was read whole (up to 64 MiB) before it was passed on and held until its
/// client read it, outside any budget: 8 clients that stopped reading a 63 MiB answer held
/// 519 MiB. Now an answer is passed on as it arrives, each part within the answers' budget: the
/// 8 stalled readers keep the server under the store limit plus 64 MiB, a signed request is
/// still answered, and a client that reads gets the answer whole.
#[test]
fn eight_stalled_readers_of_a_63_mib_forwarded_answer_stay_within_the_bound() {
    let size = 63 * MIB as usize;
    let upstream = big_answer_upstream(size);
    let bound = signscope::server::config::DEFAULT_MAX_STORED_BYTES as u64 + 64 * MIB;
    let child = ServeProcess::start(
        &[
            "--addr",
            "127.0.0.1:0",
            "--demo",
            "--forward-indexing",
            &upstream,
        ],
        &[],
    );
    let (base, pid) = (child.url.clone(), child.pid());
    let addr: std::net::SocketAddr = base.trim_start_matches("http://").parse().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut readers = Vec::new();
        for i in 0..8 {
            readers.push(stalled_reader(addr, &format!("/v2/export?i={i}")).await);
            let (now, _) = rss(pid);
            eprintln!("{} stalled readers: server RSS {} MiB", i + 1, now / MIB);
            assert!(
                now < bound,
                "with {} stalled readers of a forwarded 63 MiB answer the server's resident memory is {} MiB (bound {} MiB)",
                i + 1,
                now / MIB,
                bound / MIB
            );
        }
        // The thing tested: readers that stay stalled a while, so the answers fill whatever
        // they would hold (the bound is checked after, not raced against).
        tokio::time::sleep(Duration::from_secs(1)).await;
        let c = client();
        let (status, _) = get_json(&c, &format!("{base}/_inspect/summary")).await;
        assert_eq!(status, 200, "the server answers while they stall");
        // A client that reads gets every byte.
        let mut resp = c.get(format!("{base}/v2/export")).send().await.unwrap();
        assert_eq!(resp.status(), 200);
        let mut got = 0usize;
        while let Some(chunk) = resp.chunk().await.unwrap() {
            assert!(chunk.iter().all(|&b| b == b'x'));
            got += chunk.len();
        }
        assert_eq!(got, size);
        let (_, peak) = rss(pid);
        eprintln!("peak RSS {} MiB", peak / MIB);
        assert!(peak < bound, "peak {} MiB (bound {} MiB)", peak / MIB, bound / MIB);
        drop(readers);
    });
    stop(child);
}
