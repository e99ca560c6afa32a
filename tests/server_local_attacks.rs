//! The local server against clients on 127.0.0.1 that attack the inspection API and the
//! connections themselves (SECURITY.md, "The local server"): pages that pin memory, readers
//! that stop reading, hostile `Host` headers, cross-site writes, stream floods. Every test is
//! bounded; none asserts a time.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod server_common;

use std::time::Duration;

use server_common::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// An unsigned request with a 28 KiB head: a 16 KiB query and twelve 1,000-byte headers.
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

/// A list copied paths and queries whole (a page of a thousand 28 KiB heads was 28 MB): a list
/// record now shows at most 4 KiB of them and says `truncated`, `seq=N` shows the record
/// whole, and a page ends early, with its cursor, once it holds 4 MiB.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_are_cut_by_bytes_and_list_records_cut_their_heads() {
    let server = start_at_t0().await;
    let c = client();
    for i in 0..400 {
        big_head_request(&c, &server.url(), i).await;
    }
    let resp = c
        .get(format!("{}/_inspect/requests?limit=1000", server.url()))
        .send()
        .await
        .unwrap();
    let cursor = resp
        .headers()
        .get("x-next-cursor")
        .map(|v| v.to_str().unwrap().to_string());
    let bytes = resp.bytes().await.unwrap();
    let page: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let page = page.as_array().unwrap();
    assert!(bytes.len() <= 4 * 1024 * 1024, "{} bytes", bytes.len());
    assert!(page.len() < 400, "{} records", page.len());
    let first = page[0]["seq"].as_u64().unwrap();
    assert_eq!(cursor.as_deref(), Some(format!("before={first}").as_str()));
    for r in page {
        assert!(r["query"].as_str().unwrap().len() <= 4096, "{}", r["seq"]);
        assert_eq!(r["truncated"], true, "{}", r["seq"]);
    }
    // The rest is on the next pages, and one record asked for is whole.
    let (_, older) = get_json(
        &c,
        &format!(
            "{}/_inspect/requests?limit=1000&{}",
            server.url(),
            cursor.unwrap()
        ),
    )
    .await;
    assert_eq!(page.len() + older.as_array().unwrap().len(), 400);
    let (_, one) = get_json(
        &c,
        &format!("{}/_inspect/requests?seq={first}", server.url()),
    )
    .await;
    assert!(one[0]["query"].as_str().unwrap().len() > 16 * 1024, "{one}");
    assert!(one[0].get("truncated").is_none(), "{one}");
}

/// Nothing timed out a client that stopped reading: its answer (and the memory behind it)
/// stayed until it read. Thirty page requests pipelined on one connection (about 100 MB of
/// answers) by a client that then reads nothing: the server closes the connection once it has
/// been unable to write for the stall timeout (1 s here), so the client, reading at last, gets
/// only what the socket buffers held, not the thirty answers. The client waits for the fact:
/// the server's end of the connection no longer established in the kernel's table of TCP
/// sockets (a server that never disconnects fails at the deadline).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_disconnected() {
    if std::fs::read_to_string("/proc/net/tcp").is_err() {
        println!("skipped: /proc/net/tcp cannot be read, so the server's close cannot be seen");
        return;
    }
    let mut cfg = config_at_t0();
    cfg.write_stall_timeout = Duration::from_secs(1);
    let server = start(cfg).await;
    let c = client();
    for i in 0..200 {
        big_head_request(&c, &server.url(), i).await;
    }
    let mut s = TcpStream::connect(server.addr).await.unwrap();
    let client_port = s.local_addr().unwrap().port();
    let one = b"GET /_inspect/requests?limit=1000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    s.write_all(&one.repeat(30)).await.unwrap();
    // The thing tested: a client that reads nothing (reading would let the server write on)
    // until the server has given up on the connection.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while server_end_established(server.addr.port(), client_port) {
        assert!(
            std::time::Instant::now() < deadline,
            "the server kept the connection of a client that stopped reading for 120 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Now read everything there is, until the server's close arrives.
    let mut answers = 0usize;
    let mut tail: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    let closed = tokio::time::timeout(Duration::from_secs(120), async {
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    tail.extend_from_slice(&buf[..n]);
                    let text = &tail[..];
                    answers += text.windows(12).filter(|w| w == b"HTTP/1.1 200").count();
                    let keep = tail.len().saturating_sub(11);
                    tail.drain(..keep);
                }
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the connection stayed open");
    assert!(answers < 30, "all {answers} answers were written");
}

/// Whether the server's end (127.0.0.1:`server_port`, talking to 127.0.0.1:`client_port`) of a
/// TCP connection is in the kernel's table in state ESTABLISHED (`01` in /proc/net/tcp); once
/// the server has closed it, it is in FIN_WAIT1 or gone.
fn server_end_established(server_port: u16, client_port: u16) -> bool {
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    let local = format!("0100007F:{server_port:04X}");
    let remote = format!("0100007F:{client_port:04X}");
    table.lines().skip(1).any(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        f.len() > 3 && f[1] == local && f[2] == remote && f[3] == "01"
    })
}

/// One raw request with this `Host`; the status line and the body.
async fn with_host(addr: std::net::SocketAddr, host: &str, path: &str) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    out
}

/// DNS rebinding (the browser test is in tests/browser.rs): a name the user did not allow is
/// refused with a sentence naming `--allow-host`; IP addresses, localhost and allowed names
/// are served, and the collector's CORS is unchanged for them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hosts_other_than_addresses_localhost_and_allowed_names_are_refused() {
    let mut cfg = config_at_t0();
    cfg.allowed_hosts = vec!["dev.shop.test".into()];
    let server = start(cfg).await;
    let refused = with_host(server.addr, "evil.test:8080", "/_inspect/requests").await;
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
    assert!(refused.contains("HOST_NOT_ALLOWED"), "{refused}");
    assert!(refused.contains("--allow-host evil.test"), "{refused}");
    for host in [
        "127.0.0.1".to_string(),
        format!("localhost:{}", server.addr.port()),
        "[::1]:1".into(),
        "dev.shop.test:8080".into(),
    ] {
        let ok = with_host(server.addr, &host, "/_inspect/summary").await;
        assert!(ok.starts_with("HTTP/1.1 200"), "{host}: {ok}");
    }
    // The collector still answers a page of any origin on an allowed host.
    let resp = client()
        .post(format!("{}/analytics/collect", server.url()))
        .header("Origin", "https://shop.example")
        .header("Content-Type", "application/json")
        .body("[]")
        .send()
        .await
        .unwrap();
    assert_eq!(
        resp.headers()["access-control-allow-origin"],
        "https://shop.example"
    );
}

/// Open a live stream and read its status line (the stream itself is left unread).
async fn open_stream(addr: std::net::SocketAddr) -> (TcpStream, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = get_head(&mut s, "/_inspect/stream").await;
    (s, head)
}

/// Streams had no cap (1,014 idle ones stopped the server accepting): past 64 subscribers a
/// stream request is answered 503 with a sentence, ordinary requests keep being answered, and a
/// closed stream's place is free again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_past_the_cap_get_503_and_ordinary_requests_are_answered() {
    let server = start_at_t0().await;
    let mut open = Vec::new();
    let mut refused = Vec::new();
    for _ in 0..70 {
        let (s, head) = open_stream(server.addr).await;
        if head.starts_with("HTTP/1.1 200") {
            open.push(s);
        } else {
            refused.push(head);
        }
    }
    assert_eq!(open.len(), 64, "{refused:?}");
    assert_eq!(refused.len(), 6);
    assert!(refused[0].starts_with("HTTP/1.1 503"), "{}", refused[0]);
    let health = with_host(server.addr, "127.0.0.1", "/_inspect/health").await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    let full = with_host(server.addr, "127.0.0.1", "/_inspect/stream").await;
    assert!(full.contains("TOO_MANY_STREAMS"), "{full}");
    assert!(full.contains("close another watch"), "{full}");
    // One closes: its place is free once the server notices (at its next write, the keep-alive
    // comment every 10 s at the latest).
    drop(open.pop());
    let mut again = String::new();
    for _ in 0..400 {
        let (s, head) = open_stream(server.addr).await;
        if head.starts_with("HTTP/1.1 200") {
            open.push(s);
            again = head;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(again.starts_with("HTTP/1.1 200"), "no place came free");
}

/// A subscriber that stops reading while traffic flows is dropped once the server has been
/// unable to write to it for the stall timeout, and its place goes to the next one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_subscriber_that_stops_reading_is_dropped() {
    let mut cfg = config_at_t0();
    cfg.write_stall_timeout = Duration::from_secs(1);
    cfg.max_streams = 1;
    let server = start(cfg).await;
    let (_stalled, head) = open_stream(server.addr).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let (_, head) = open_stream(server.addr).await;
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    // Traffic the stalled subscriber never reads: far more than the socket buffers hold.
    let c = client();
    let mut freed = false;
    for i in 0..2000 {
        big_head_request(&c, &server.url(), i).await;
        if i % 50 == 49 {
            let (s, head) = open_stream(server.addr).await;
            if head.starts_with("HTTP/1.1 200") {
                drop(s);
                freed = true;
                break;
            }
        }
    }
    assert!(freed, "the stalled subscriber kept its place");
}

/// Counts the polls of the future it wraps (a woken waiter is polled).
struct Polls<F> {
    inner: std::pin::Pin<Box<F>>,
    polls: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl<F: std::future::Future> std::future::Future for Polls<F> {
    type Output = F::Output;
    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<F::Output> {
        self.polls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.as_mut().poll(cx)
    }
}

/// Every stored record woke every `/_inspect/wait` client, whatever it waited for (3,000
/// waiters made 5,000 requests take five times as long). Now a record wakes only the waiters
/// whose counts it reaches: 200 clients waiting for the 300th request are not woken by the
/// 299 before it (on every record each was polled again), and the 300th answers them all.
#[tokio::test(flavor = "current_thread")]
async fn a_record_wakes_only_the_waiters_whose_counts_it_reaches() {
    use axum::body::Body;
    use axum::http::Request;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tower::ServiceExt;

    let app = signscope::server::app(signscope::server::AppState::new(
        signscope::server::config::ServerConfig::demo(),
    ));
    let polls = std::sync::Arc::new(AtomicUsize::new(0));
    let mut waiters = Vec::new();
    for _ in 0..200 {
        let req = Request::get("/_inspect/wait?requests=300&timeout_ms=60000")
            .body(Body::empty())
            .unwrap();
        waiters.push(tokio::spawn(Polls {
            inner: Box::pin(app.clone().oneshot(req)),
            polls: polls.clone(),
        }));
    }
    let unsigned = || {
        Request::put("/v2/batch")
            .header("content-type", "application/json")
            .body(Body::from("[]"))
            .unwrap()
    };
    // Every waiter runs once and waits.
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    let before = polls.load(Ordering::Relaxed);
    for _ in 0..299 {
        let resp = app.clone().oneshot(unsigned()).await.unwrap();
        assert!(resp.status().is_client_error(), "{}", resp.status());
        tokio::task::yield_now().await;
    }
    let woken = polls.load(Ordering::Relaxed) - before;
    assert!(
        woken < 200,
        "299 requests that reach no waiter's count polled the 200 waiters {woken} times"
    );
    let resp = app.clone().oneshot(unsigned()).await.unwrap();
    assert!(resp.status().is_client_error());
    for w in waiters {
        assert_eq!(w.await.unwrap().unwrap().status(), 200);
    }
}
