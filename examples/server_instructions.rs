//! Sends N requests to an in-process local server over one keep-alive loopback connection, one
//! after the other, for counting instructions under callgrind (`benches/server_instructions.sh`
//! runs it with N = 0 and N = 10 and prints the per-request difference for the verified and the
//! unverified route) and for timing one request at a time without concurrency (the wall time per
//! request is printed on stderr).
//!
//! Usage: `server_instructions <verified|unverified> <requests> <body bytes>`.

// Example code: an unwrap that fails is a failed example, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

#[path = "../benches/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Instant;

use chrono::{TimeZone, Utc};
use signscope::core::time::format_timestamp;
use signscope::core::{sign, Secret, SignableRequest};
use signscope::server::{self, ServerConfig, DEMO_API_KEY, DEMO_REST_KEY};

/// One request on `conn`; returns the status code after reading the whole answer.
fn roundtrip(conn: &mut BufReader<TcpStream>, head: &[u8], body: &[u8]) -> u16 {
    let s = conn.get_mut();
    s.write_all(head).unwrap();
    s.write_all(body).unwrap();
    let mut line = String::new();
    conn.read_line(&mut line).unwrap();
    let status: u16 = line.split(' ').nth(1).unwrap().parse().unwrap();
    let mut len = 0usize;
    loop {
        line.clear();
        conn.read_line(&mut line).unwrap();
        if line == "\r\n" {
            break;
        }
        if let Some((n, v)) = line.split_once(':') {
            if n.eq_ignore_ascii_case("content-length") {
                len = v.trim().parse().unwrap();
            }
        }
    }
    let mut answer = vec![0; len];
    conn.read_exact(&mut answer).unwrap();
    status
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [route, requests, size] = args.as_slice() else {
        eprintln!("usage: server_instructions <verified|unverified> <requests> <body bytes>");
        std::process::exit(2);
    };
    let requests: usize = requests.parse().expect("requests is a number");
    let size: usize = size.parse().expect("body bytes is a number");
    let t0 = Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap();
    let mut cfg = ServerConfig::demo();
    cfg.clock = server::fixed_clock(t0);
    cfg.unverified_route = true;
    cfg.max_stored = 100;
    let srv = server::spawn(cfg, std::net::TcpListener::bind("127.0.0.1:0").unwrap()).unwrap();

    let body = common::json_body(size);
    let ts = format_timestamp(t0);
    let req = SignableRequest::new("PUT", "/v2/batch", "", &ts, DEMO_API_KEY, &body);
    let signed = sign(&req, &Secret::new(DEMO_REST_KEY)).unwrap();
    let path = match route.as_str() {
        "verified" => "/v2/batch",
        "unverified" => "/_bench/unverified",
        _ => {
            eprintln!("the first argument must be verified or unverified");
            std::process::exit(2);
        }
    };
    let mut head = format!(
        "PUT {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n",
        srv.addr,
        body.len()
    );
    if path == "/v2/batch" {
        for (n, v) in &signed.headers {
            head.push_str(&format!("{n}: {v}\r\n"));
        }
    } else {
        head.push_str("Content-Type: application/json\r\n");
    }
    head.push_str("\r\n");

    let mut conn = BufReader::new(TcpStream::connect(srv.addr).unwrap());
    conn.get_ref().set_nodelay(true).unwrap();
    // One request before counting starts in earnest: connection set-up, lazy statics.
    assert_eq!(roundtrip(&mut conn, head.as_bytes(), &body), 200);
    let start = Instant::now();
    for _ in 0..requests {
        assert_eq!(roundtrip(&mut conn, head.as_bytes(), &body), 200);
    }
    if requests > 0 {
        eprintln!(
            "{route} {size} bytes: {:.1} µs per request ({requests} sequential requests)",
            start.elapsed().as_secs_f64() * 1e6 / requests as f64
        );
    }
    drop(conn);
    srv.stop();
}
