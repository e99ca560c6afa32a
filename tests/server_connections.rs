//! The local server's connections under the open-files limit (`docs/server.md` rule L12), on
//! 127.0.0.1 port 0: a refused stream's connection is closed, the oldest idle keep-alive
//! connection makes room for a new one, a server whose connections are all busy answers 503
//! and closes, and `signscope serve` under `prlimit --nofile=1024:1024` keeps answering 1,100
//! stream clients and its health check. Every wait is for the fact itself, with a deadline.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod server_common;

use std::io::BufRead;
use std::net::SocketAddr;
use std::time::Duration;

use server_common::*;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

const DEADLINE: Duration = Duration::from_secs(60);

/// Read `s` to its end (the server closed it) within the deadline; what was left.
async fn closed(s: &mut TcpStream, what: &str) -> String {
    let mut rest = Vec::new();
    tokio::time::timeout(DEADLINE, s.read_to_end(&mut rest))
        .await
        .unwrap_or_else(|_| panic!("{what}: the connection was never closed"))
        .unwrap();
    String::from_utf8_lossy(&rest).into_owned()
}

/// A new connection's answer to `/_inspect/health` (status line first).
async fn health(addr: SocketAddr) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    get_head(&mut s, "/_inspect/health").await
}

/// A stream refused past the cap gets its 503 and then the connection is closed (it stayed
/// open, holding a descriptor).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_stream_is_answered_503_and_its_connection_closed() {
    let mut cfg = config_at_t0();
    cfg.max_streams = 1;
    let server = start(cfg).await;
    let mut held = TcpStream::connect(server.addr).await.unwrap();
    assert!(get_head(&mut held, "/_inspect/stream")
        .await
        .starts_with("HTTP/1.1 200"));
    let mut refused = TcpStream::connect(server.addr).await.unwrap();
    let head = get_head(&mut refused, "/_inspect/stream").await;
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    assert!(
        head.to_ascii_lowercase().contains("connection: close"),
        "{head}"
    );
    let body = closed(&mut refused, "the refused stream").await;
    assert!(body.contains("TOO_MANY_STREAMS"), "{body}");
}

/// At the connection limit a new connection closes the oldest idle keep-alive connection and
/// is served; busy ones (a stream) are never closed, and when all are busy the new one is
/// answered 503 with a sentence and closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_oldest_idle_connection_makes_room_and_busy_ones_are_kept() {
    let mut cfg = config_at_t0();
    cfg.max_connections = 3;
    let server = start(cfg).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    assert!(get_head(&mut stream, "/_inspect/stream")
        .await
        .starts_with("HTTP/1.1 200"));
    let mut idle = Vec::new();
    for _ in 0..2 {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        let head = get_head(&mut s, "/_inspect/summary").await;
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        idle.push(s);
    }
    // A fourth: the oldest idle one (the first summary's) is closed for it.
    let head = health(server.addr).await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    closed(&mut idle[0], "the oldest idle connection").await;

    // Three streams: every connection busy; the next is refused with a sentence and closed.
    let mut streams = vec![stream];
    while streams.len() < 3 {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        let head = get_head(&mut s, "/_inspect/stream").await;
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        streams.push(s);
    }
    let mut s = TcpStream::connect(server.addr).await.unwrap();
    let head = get_head(&mut s, "/_inspect/health").await;
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    let body = closed(&mut s, "the refused connection").await;
    assert!(body.contains("TOO_MANY_CONNECTIONS"), "{body}");
    assert!(body.contains("ulimit -n"), "{body}");
}

/// `signscope serve` under `prlimit --nofile=1024:1024`: 1,100 clients ask for a stream; the
/// 64 under the cap are served, the rest are refused and closed, and the health check on a
/// new connection is answered (it never was: the refused ones held every descriptor).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_a_1024_file_limit_1100_stream_clients_leave_health_answering() {
    if std::process::Command::new("prlimit")
        .arg("--version")
        .output()
        .is_err()
    {
        println!("skipped: prlimit (util-linux) is not installed");
        return;
    }
    // This test process holds 1,100 sockets itself.
    let soft = signscope::server::connections::raise_open_files_limit().unwrap_or(0);
    if soft < 1300 {
        println!("skipped: this test needs 1,300 open files and the hard limit is {soft}");
        return;
    }
    let mut child = std::process::Command::new("prlimit")
        .args(["--nofile=1024:1024", env!("CARGO_BIN_EXE_signscope")])
        .args(["serve", "--demo", "--addr", "127.0.0.1:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The rest of its output is read (kept open) until it stops: a closed pipe ends it.
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let drain = std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let addr: SocketAddr = first
        .split_whitespace()
        .find_map(|w| w.trim_start_matches("http://").parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    let mut open = Vec::new();
    let mut refused = 0;
    for i in 0..1100 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        let head = get_head(&mut s, "/_inspect/stream").await;
        if head.starts_with("HTTP/1.1 200") {
            open.push(s);
        } else {
            assert!(head.starts_with("HTTP/1.1 503"), "client {i}: {head}");
            closed(&mut s, "a refused stream").await;
            refused += 1;
        }
    }
    let head = tokio::time::timeout(DEADLINE, health(addr)).await;
    let _ = child.kill();
    let _ = child.wait();
    let _ = drain.join();
    assert_eq!(open.len(), 64);
    assert_eq!(refused, 1100 - 64);
    let head = head.expect("the health check was never answered");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
}
