//! Bounded cost of the diagnosis under load (docs/diagnosis.md rule D7), measured on the real
//! binary on 127.0.0.1. Both tests are `#[ignore]`d: they are measurements, run in release mode
//! and recorded in benches/README.md:
//!
//! `cargo test --release --test diagnosis_load -- --ignored --nocapture`
//!
//! Memory is asserted (a bound, not a timing); the health latency is printed, not asserted.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A JSON body of exactly `n` bytes.
fn body(n: usize) -> Vec<u8> {
    let item = br#"{"id":"1","name":"Caf\u00e9","url":"https://shop.example/p/1"},"#;
    let mut out = b"[".to_vec();
    while out.len() + item.len() + 1 < n {
        out.extend_from_slice(item);
    }
    out.pop();
    out.push(b']');
    while out.len() < n {
        out.insert(out.len() - 1, b' ');
    }
    out
}

/// A request signed with a key nobody has: the full diagnosis runs and finds nothing.
fn mismatched(body: &[u8], api: &str) -> Vec<u8> {
    // Base64 of 48 zero bytes: a digest, so the search runs (and nothing reproduces it).
    let sig = "A".repeat(64);
    let mut raw = format!(
        "PUT /v2/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nX-SVC-TIMESTAMP: 2030-01-01T00:00:00.000Z\r\nX-SVC-APIKEY: {api}\r\nX-SVC-AUTH-ALGO: HmacSHA384\r\nContent-Type: application/json\r\nAuthorization: Bearer {sig}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    raw.extend_from_slice(body);
    raw
}

fn kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap()
        .parse()
        .unwrap()
}

/// One request and the start of its answer, every step bounded by `timeout` (an error says
/// which step failed instead of hanging).
fn exchange(addr: SocketAddr, raw: &[u8], timeout: Duration) -> Result<String, String> {
    let mut s = TcpStream::connect_timeout(&addr, timeout).map_err(|e| format!("connect: {e}"))?;
    s.set_read_timeout(Some(timeout)).unwrap();
    s.set_write_timeout(Some(timeout)).unwrap();
    s.write_all(raw).map_err(|e| format!("write: {e}"))?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).map_err(|e| format!("read: {e}"))?;
    Ok(String::from_utf8_lossy(&out[..out.len().min(64 * 1024)]).into_owned())
}

/// The server under test, killed when dropped (also when an assertion fails, so that no server
/// outlives the test holding its output pipes).
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
#[ignore]
fn serve_under_32_concurrent_2mb_mismatches() {
    let mut server = Server(
        Command::new(env!("CARGO_BIN_EXE_signscope"))
            .args(["serve", "--addr", "127.0.0.1:0", "--demo"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    let mut stdout = BufReader::new(server.0.stdout.take().unwrap());
    stdout.read_line(&mut line).unwrap();
    // Keep reading the server's stdout: it exits when its stdout is closed under it.
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let addr: SocketAddr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap()
        .parse()
        .unwrap();
    let pid = server.0.id();
    let raw = Arc::new(mismatched(&body(2_000_000), "demo-public-key"));
    let idle = kib(pid, "VmRSS");

    let done = Arc::new(AtomicBool::new(false));
    let poller = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut worst = Duration::ZERO;
            let mut peak_rss = 0;
            let mut n = 0;
            let mut failed = Vec::new();
            while !done.load(Ordering::Relaxed) {
                let t = Instant::now();
                match exchange(
                    addr,
                    b"GET /_inspect/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                    Duration::from_secs(10),
                ) {
                    Ok(a) if a.starts_with("HTTP/1.1 200") => {}
                    other => failed.push(format!("{other:?}")),
                }
                worst = worst.max(t.elapsed());
                peak_rss = peak_rss.max(kib(pid, "VmRSS"));
                n += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            (worst, peak_rss, n, failed)
        })
    };
    let started = Instant::now();
    let clients: Vec<_> = (0..32)
        .map(|_| {
            let raw = raw.clone();
            std::thread::spawn(move || exchange(addr, &raw, Duration::from_secs(120)))
        })
        .collect();
    let answers: Vec<Result<String, String>> =
        clients.into_iter().map(|c| c.join().unwrap()).collect();
    let burst = started.elapsed();
    done.store(true, Ordering::Relaxed);
    let (worst, peak_rss, polls, health_failed) = poller.join().unwrap();
    // The printed figure is the resident memory 2 s after the burst (no assertion waits on it).
    std::thread::sleep(Duration::from_secs(2));
    let after = kib(pid, "VmRSS");
    let hwm = kib(pid, "VmHWM");
    drop(server);
    let busy = answers
        .iter()
        .filter(|a| a.as_ref().is_ok_and(|a| a.contains("server busy")))
        .count();
    println!(
        "serve, 32 concurrent 2 MB mismatches: burst {burst:.2?}, {busy} answered 'server busy'; \
         RSS idle {} MiB, peak {} MiB (VmHWM {} MiB), 2 s after {} MiB; \
         /_inspect/health worst {worst:.1?} over {polls} polls",
        idle / 1024,
        peak_rss / 1024,
        hwm / 1024,
        after / 1024
    );
    let wrong: Vec<String> = answers
        .iter()
        .filter(|a| !a.as_ref().is_ok_and(|a| a.starts_with("HTTP/1.1 401")))
        .map(|a| format!("{:.200}", format!("{a:?}")))
        .collect();
    // The answer stays small: the body part of the expected text is its ends (docs/server.md).
    let largest = answers
        .iter()
        .filter_map(|a| a.as_ref().ok())
        .map(String::len)
        .max()
        .unwrap_or(0);
    println!("largest answer: {largest} bytes");
    assert!(largest < 64 * 1024, "an answer of {largest} bytes");
    assert!(wrong.is_empty(), "answers other than 401: {wrong:?}");
    assert!(
        health_failed.is_empty(),
        "health polls failed: {health_failed:?}"
    );
    assert!(hwm < 400 * 1024, "peak RSS {} MiB", hwm / 1024);
}

#[test]
#[ignore]
fn verify_peak_rss_on_a_100mb_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("req.http");
    let b = body(100_000_000);
    std::fs::write(&file, mismatched(&b, "pub-key")).unwrap();
    drop(b);
    let size = std::fs::metadata(&file).unwrap().len();
    let started = Instant::now();
    let out = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(env!("CARGO_BIN_EXE_signscope"))
        .args([
            "verify",
            "--now",
            "2030-01-01T00:00:00.000Z",
            "--rest-key-env",
            "K",
        ])
        .arg("--request-file")
        .arg(&file)
        .env("K", "some-rest-key")
        .output()
        .unwrap();
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let max_kib: u64 = stderr
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .unwrap()
        .parse()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!(
        "verify, 100 MB mismatch: {took:.2?}, peak RSS {} MiB = {:.2}x the file ({} MiB); {}",
        max_kib / 1024,
        (max_kib * 1024) as f64 / size as f64,
        size / (1 << 20),
        stdout.lines().next().unwrap_or("")
    );
    assert!(max_kib * 1024 < 4 * size, "peak RSS {} KiB", max_kib);
}
