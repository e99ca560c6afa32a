//! Helpers shared by the server tests: signing requests the way a correct client does, and a
//! real server on 127.0.0.1 port 0.
#![allow(dead_code)]

use chrono::{DateTime, TimeZone, Utc};
use signscope::core::time::format_timestamp;
use signscope::core::{sign, Secret, SignableRequest};
use signscope::server::{self, Server, ServerConfig, DEMO_API_KEY, DEMO_REST_KEY};

/// The fixed "now" of servers started with [`start_at_t0`].
pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap()
}

pub fn ts(offset_ms: i64) -> String {
    format_timestamp(t0() + chrono::Duration::milliseconds(offset_ms))
}

/// The spec's two-event batch (`docs/events.md` rules E1, E8-E11): valid.
pub const GOOD_BATCH: &str = r#"[
  {"event": "view_recs_list", "event_apikey": "demo-public-key", "event_list_id": "home-trending-1",
   "event_tags": ["recsPageType:HOME"], "event_list_name": "Trending now", "event_list_logic": "TRENDING",
   "user_profile": {"ip_address": "203.0.113.7"},
   "items": [{"item_id": "10023-BLK-42", "item_group_id": "10023", "item_variant_id": "BLK-42",
              "item_name": "Trail running shoe", "price": "89.90", "currency": "EUR",
              "item_brand": "Northpeak", "item_category": "Shoes;;Running;;Trail", "index": 1}]},
  {"event": "select_recs_list", "event_apikey": "demo-public-key", "event_list_id": "home-trending-1",
   "event_tags": ["recsPageType:HOME"], "event_list_name": "Trending now", "event_list_logic": "TRENDING",
   "items": [{"item_id": "10023-BLK-42", "item_group_id": "10023", "item_variant_id": "BLK-42",
              "item_name": "Trail running shoe", "price": "89.90", "currency": "EUR",
              "item_brand": "Northpeak", "item_category": "Shoes;;Running;;Trail", "index": 1}]}
]"#;

/// The same batch with a wrong item_id in the first event and a lower-case currency in the
/// second: two errors, in events 0 and 1.
pub fn bad_batch() -> String {
    let mut v: serde_json::Value = serde_json::from_str(GOOD_BATCH).unwrap();
    v[0]["items"][0]["item_id"] = "10023_BLK-42".into();
    v[1]["items"][0]["currency"] = "eur".into();
    v.to_string()
}

/// Headers a correct client sends for this request (prefix SVC).
pub fn signed_headers(
    method: &str,
    path: &str,
    query: &str,
    timestamp: &str,
    api_key: &str,
    rest_key: &str,
    body: &[u8],
) -> Vec<(String, String)> {
    let req = SignableRequest::new(method, path, query, timestamp, api_key, body);
    sign(&req, &Secret::new(rest_key)).unwrap().headers.to_vec()
}

pub fn demo_headers(
    method: &str,
    path: &str,
    query: &str,
    timestamp: &str,
    body: &[u8],
) -> Vec<(String, String)> {
    signed_headers(
        method,
        path,
        query,
        timestamp,
        DEMO_API_KEY,
        DEMO_REST_KEY,
        body,
    )
}

/// A server with this configuration on 127.0.0.1 port 0.
pub async fn start(config: ServerConfig) -> Server {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    server::start(&tokio::runtime::Handle::current(), config, listener).unwrap()
}

/// Wait until the server holds at least `bytes` of its body budget (stalled bodies taken in:
/// their bytes arrived), with a generous deadline.
pub async fn wait_for_body_bytes(server: &Server, bytes: usize) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while server.body_bytes_held() < bytes {
        assert!(
            std::time::Instant::now() < deadline,
            "the server took in {} body bytes, not {bytes}",
            server.body_bytes_held()
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

pub fn config_at_t0() -> ServerConfig {
    let mut cfg = ServerConfig::demo();
    cfg.clock = server::fixed_clock(t0());
    cfg
}

pub async fn start_at_t0() -> Server {
    start(config_at_t0()).await
}

/// A client for the tests' servers. Its timeout only turns a hang into a failure: a debug
/// build judging a 100,000-event batch took over 30 s on a loaded 2-core machine (load 15), so
/// it is minutes, not seconds.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .timeout(std::time::Duration::from_secs(300))
        .build()
        .unwrap()
}

/// Send a request with these headers; returns status and JSON body (Null when not JSON).
pub async fn send(
    client: &reqwest::Client,
    base: &str,
    method: &str,
    path_and_query: &str,
    headers: &[(String, String)],
    body: Vec<u8>,
) -> (u16, serde_json::Value) {
    let mut rb = client.request(
        reqwest::Method::from_bytes(method.as_bytes()).unwrap(),
        format!("{base}{path_and_query}"),
    );
    for (n, v) in headers {
        rb = rb.header(n.as_str(), v.as_str());
    }
    let resp = rb.body(body).send().await.unwrap();
    let status = resp.status().as_u16();
    let bytes = resp.bytes().await.unwrap();
    let json = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
    (status, json)
}

/// A correctly signed `PUT /v2/batch` at `t0`.
pub async fn put_batch(
    client: &reqwest::Client,
    base: &str,
    body: &str,
) -> (u16, serde_json::Value) {
    let h = demo_headers("PUT", "/v2/batch", "", &ts(0), body.as_bytes());
    send(
        client,
        base,
        "PUT",
        "/v2/batch",
        &h,
        body.as_bytes().to_vec(),
    )
    .await
}

pub async fn get_json(client: &reqwest::Client, url: &str) -> (u16, serde_json::Value) {
    let resp = client.get(url).send().await.unwrap();
    let status = resp.status().as_u16();
    let bytes = resp.bytes().await.unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
    )
}

pub async fn collect(client: &reqwest::Client, base: &str, body: &str) -> (u16, serde_json::Value) {
    let resp = client
        .post(format!("{base}/analytics/collect"))
        .header("Content-Type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    let bytes = resp.bytes().await.unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
    )
}

/// The vendor's error shape: exactly status, code, message, debug[{message}].
pub fn assert_vendor_error(v: &serde_json::Value, status: u16, code: &str) {
    assert_eq!(v["status"], status, "{v}");
    assert_eq!(v["code"], code, "{v}");
    let msg = v["message"].as_str().expect("message");
    assert!(!msg.is_empty());
    assert!(msg.ends_with('.'), "one sentence: {msg}");
    for d in v["debug"].as_array().expect("debug array") {
        assert!(d["message"].is_string(), "{v}");
    }
}

/// A `signscope serve` process on 127.0.0.1 (the binary under test), its stdout drained so it
/// never blocks on a full pipe; killed when dropped.
pub struct ServeProcess {
    pub child: std::process::Child,
    /// Its base URL, from its "listening on URL" line.
    pub url: String,
}

impl ServeProcess {
    /// Run `signscope serve ARGS` with the environment variables `envs`; returns once it listens.
    pub fn start(args: &[&str], envs: &[(&str, &str)]) -> ServeProcess {
        use std::io::{BufRead, BufReader};
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_signscope"))
            .arg("serve")
            .args(args)
            .envs(envs.iter().copied())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("signscope serve starts");
        let mut out = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut first = String::new();
        out.read_line(&mut first).expect("its first line");
        let url = first
            .trim_end()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("not a listening line: {first:?}"))
            .to_string();
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut out, &mut std::io::sink());
        });
        ServeProcess { child, url }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGTERM, then wait: the exit code (None when a signal ended it).
    #[allow(unsafe_code)] // signals our own child process (libc::kill)
    pub fn stop(mut self) -> Option<i32> {
        // SAFETY: sending a signal to our own child process, which has not been reaped yet.
        let rc = unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
        assert_eq!(rc, 0, "SIGTERM sent");
        self.child.wait().expect("the server exits").code()
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Resident memory of a process, in bytes: current (VmRSS) and peak (VmHWM); 0 when unknown.
pub fn rss(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| -> u64 {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap_or(0)
            * 1024
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// A request as an upstream received it: method, path and query, content type, body.
pub type Seen = (String, String, String, Vec<u8>);

/// An upstream on 127.0.0.1 (port 0) that keeps every request it receives and answers each
/// with `answer`: its base URL and what it received.
pub async fn recording_upstream(
    answer: &'static str,
) -> (String, std::sync::Arc<std::sync::Mutex<Vec<Seen>>>) {
    let seen: std::sync::Arc<std::sync::Mutex<Vec<Seen>>> = Default::default();
    let keep = seen.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let app = axum::Router::new().fallback(move |req: axum::extract::Request| {
        let keep = keep.clone();
        async move {
            let (parts, body) = req.into_parts();
            let body = axum::body::to_bytes(body, 1 << 20).await.unwrap();
            let target = parts.uri.path_and_query().unwrap().as_str().to_owned();
            let content_type = parts
                .headers
                .get("content-type")
                .map(|v| v.to_str().unwrap().to_owned())
                .unwrap_or_default();
            keep.lock().unwrap().push((
                parts.method.to_string(),
                target,
                content_type,
                body.to_vec(),
            ));
            answer
        }
    });
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (url, seen)
}

/// Send a GET of `path` on `s` (kept alive) and read the answer's head up to its blank line
/// (what arrived, should the server close first); the head.
pub async fn get_head(s: &mut tokio::net::TcpStream, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let req = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if s.read(&mut byte).await.unwrap() == 0 {
            break;
        }
        head.push(byte[0]);
    }
    String::from_utf8_lossy(&head).into_owned()
}
