//! The live stream (`GET /_inspect/stream`) and `signscope watch`, against real servers on
//! 127.0.0.1.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod server_common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use futures::StreamExt;
use serde_json::Value;
use server_common::*;
use signscope::client::stream::{events, Event, ReadError};
use signscope::server::{ServerConfig, DEMO_API_KEY};

const BODY: &str = r#"[{"id":"sku-1","type":"KLEVU_CMS","name":"Trail shoe"}]"#;

/// The longest wait for anything to arrive (a hang guard: generous for a loaded machine).
const WAIT: Duration = Duration::from_secs(60);

type Events = std::pin::Pin<Box<dyn futures::Stream<Item = Result<Event, ReadError>> + Send>>;

/// An open stream read event by event.
struct Stream {
    events: Events,
}

impl Stream {
    async fn open(c: &reqwest::Client, url: &str) -> Stream {
        let resp = c.get(url).send().await.unwrap();
        assert_eq!(resp.status(), 200);
        assert_eq!(
            resp.headers()["content-type"].to_str().unwrap(),
            "text/event-stream"
        );
        Stream {
            events: Box::pin(events(resp)),
        }
    }

    /// The next event: (type, id, data). Panics after a minute of nothing (a hang guard, never
    /// reached on a loaded machine).
    async fn next(&mut self) -> Option<(String, Option<String>, Value)> {
        let ev = tokio::time::timeout(WAIT, self.events.next())
            .await
            .expect("no stream event within a minute")?
            .ok()?;
        let data: Value = serde_json::from_str(&ev.data).unwrap();
        let id = (!ev.id.is_empty()).then_some(ev.id);
        Some((ev.event, id, data))
    }

    async fn record(&mut self) -> Value {
        let (kind, id, data) = self.next().await.expect("the stream ended");
        assert_eq!(kind, "request", "{data}");
        assert_eq!(id.as_deref(), Some(data["seq"].to_string().as_str()));
        data
    }
}

fn stream_client() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_completed_request_becomes_one_record_with_its_verdict_and_diagnosis() {
    let server = start_at_t0().await;
    let c = client();
    let mut s = Stream::open(
        &stream_client(),
        &format!("{}/_inspect/stream", server.url()),
    )
    .await;

    // 1. a correctly signed batch
    let (status, _) = put_batch(&c, &server.url(), BODY).await;
    assert_eq!(status, 200);
    // 2. signed with the public API key as the REST key: a recognised mistake
    let h = signed_headers(
        "PUT",
        "/v2/batch",
        "a=1",
        &ts(0),
        DEMO_API_KEY,
        DEMO_API_KEY,
        BODY.as_bytes(),
    );
    let (status, answer) = send(&c, &server.url(), "PUT", "/v2/batch?a=1", &h, BODY.into()).await;
    assert_eq!(status, 401, "{answer}");
    // 3. an event batch with two errors
    let (status, _) = collect(&c, &server.url(), &bad_batch()).await;
    assert_eq!(status, 400);
    // 4. an inspection call and 5. an unknown path
    let (status, _) = get_json(&c, &format!("{}/_inspect/summary", server.url())).await;
    assert_eq!(status, 200);
    let (status, _) = get_json(&c, &format!("{}/nowhere?x=1", server.url())).await;
    assert_eq!(status, 404);

    let good = s.record().await;
    assert_eq!(good["type"], "request");
    assert_eq!(good["seq"], 1);
    assert_eq!(good["route"], "indexing");
    assert_eq!(good["method"], "PUT");
    assert_eq!(good["path"], "/v2/batch");
    assert_eq!(good["status"], 200);
    assert_eq!(good["verdict"], "accepted");
    assert_eq!(good["code"], Value::Null);
    assert_eq!(good["body"], BODY);
    assert_eq!(good["request_bytes"], BODY.len());
    assert_eq!(good["time"], "2026-11-22T10:00:00.000Z");
    assert!(good["job_id"].as_str().unwrap().len() == 36, "{good}");
    assert!(good["duration_ms"].as_f64().unwrap() >= 0.0);
    assert!(good["response_bytes"].as_u64().unwrap() > 10, "{good}");
    let headers = good["headers"].as_array().unwrap();
    assert!(headers
        .iter()
        .any(|h| h[0] == "x-svc-apikey" && h[1] == DEMO_API_KEY));

    let bad = s.record().await;
    assert_eq!(bad["seq"], 2);
    assert_eq!(bad["query"], "a=1");
    assert_eq!(bad["status"], 401);
    assert_eq!(bad["verdict"], "rejected");
    assert_eq!(bad["code"], "SIGNATURE_MISMATCH");
    assert_eq!(
        bad["mistakes"],
        serde_json::json!(["PUBLIC_API_KEY_AS_SECRET"])
    );
    // The conclusion is the diagnosis the client got in its answer.
    let diagnosis = answer["debug"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|d| d["message"].as_str()?.strip_prefix("diagnosis: "))
        .unwrap()
        .to_string();
    assert_eq!(bad["conclusion"], diagnosis.as_str());
    assert_eq!(bad["message"], answer["message"]);

    let batch = s.record().await;
    assert_eq!(batch["route"], "collect");
    assert_eq!(batch["status"], 400);
    assert_eq!(batch["code"], "VALIDATION_ERROR");
    assert_eq!(batch["verdict"], Value::Null);
    assert_eq!(batch["batch"]["events"], 2);
    assert_eq!(batch["batch"]["invalid"], 2);
    assert_eq!(batch["batch"]["valid"], 0);
    let paths: Vec<&str> = batch["batch"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["level"] == "error")
        .map(|p| p["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["[0].items[0].item_id", "[1].items[0].currency"]);
    assert!(batch["body"].as_str().unwrap().contains("10023_BLK-42"));

    let inspect = s.record().await;
    assert_eq!(
        (inspect["route"].as_str(), inspect["path"].as_str()),
        (Some("inspect"), Some("/_inspect/summary"))
    );
    let other = s.record().await;
    assert_eq!(other["route"], "other");
    assert_eq!(other["status"], 404);
    assert_eq!(other["code"], "NOT_FOUND");
    assert_eq!(other["query"], "x=1");
    assert_eq!(other["seq"], 5);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_seq_resumes_without_gaps_and_another_run_starts_from_the_oldest() {
    let server = start_at_t0().await;
    let c = client();
    for i in 0..3 {
        get_json(&c, &format!("{}/nowhere/{i}", server.url())).await;
    }
    let sc = stream_client();
    let mut s = Stream::open(&sc, &format!("{}/_inspect/stream?after=1", server.url())).await;
    assert_eq!(s.record().await["path"], "/nowhere/1");
    assert_eq!(s.record().await["path"], "/nowhere/2");
    get_json(&c, &format!("{}/nowhere/3", server.url())).await;
    let live = s.record().await;
    assert_eq!(
        (live["seq"].as_u64(), live["path"].as_str()),
        (Some(4), Some("/nowhere/3"))
    );

    // Last-Event-ID works as `after`.
    let resp = sc
        .get(format!("{}/_inspect/stream", server.url()))
        .header("Last-Event-ID", "3")
        .send()
        .await
        .unwrap();
    let mut s2 = Stream {
        events: Box::pin(events(resp)),
    };
    assert_eq!(s2.record().await["seq"], 4);

    // Numbers from another server run: everything held, from the oldest.
    let mut s3 = Stream::open(
        &sc,
        &format!("{}/_inspect/stream?after=3&instance=0000", server.url()),
    )
    .await;
    assert_eq!(s3.record().await["seq"], 1);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_no_longer_held_are_announced_as_skipped() {
    let mut cfg = config_at_t0();
    cfg.max_stored = 2;
    let server = start(cfg).await;
    let c = client();
    for i in 0..5 {
        get_json(&c, &format!("{}/nowhere/{i}", server.url())).await;
    }
    let mut s = Stream::open(
        &stream_client(),
        &format!("{}/_inspect/stream?after=0", server.url()),
    )
    .await;
    let (kind, _, data) = s.next().await.unwrap();
    assert_eq!(kind, "skipped");
    assert_eq!(data, serde_json::json!({"type": "skipped", "skipped": 3}));
    assert_eq!(s.record().await["seq"], 4);
    assert_eq!(s.record().await["seq"], 5);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_the_server_ends_open_streams() {
    let mut cfg = ServerConfig::demo();
    // If open streams held the shutdown, it would wait this long.
    cfg.shutdown_grace = Duration::from_secs(60);
    let server = start(cfg).await;
    let mut s = Stream::open(
        &stream_client(),
        &format!("{}/_inspect/stream", server.url()),
    )
    .await;
    tokio::time::timeout(Duration::from_secs(30), server.shutdown())
        .await
        .expect("shutdown waited for the open stream");
    assert!(s.next().await.is_none());
}

// ---- `signscope watch` against `signscope serve` processes ----

/// `signscope serve --demo` on `addr`.
fn serve_demo(addr: &str) -> ServeProcess {
    ServeProcess::start(&["--addr", addr, "--demo"], &[])
}

#[allow(unsafe_code)] // signals a child process (libc::kill)
fn signal(child: &Child, sig: i32) {
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as i32, sig);
    }
}

/// `signscope watch` with its stdout lines delivered on a channel.
struct Watch {
    child: Child,
    lines: mpsc::Receiver<String>,
    /// Its stderr, line by line (where it says it is following the stream).
    errors: mpsc::Receiver<String>,
}

/// The lines of a child's pipe, delivered on a channel by a thread of their own.
fn lines_of(pipe: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

impl Watch {
    fn start(args: &[&str]) -> Watch {
        let mut child = Command::new(env!("CARGO_BIN_EXE_signscope"))
            .arg("watch")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = lines_of(child.stdout.take().unwrap());
        let errors = lines_of(child.stderr.take().unwrap());
        Watch {
            child,
            lines,
            errors,
        }
    }

    /// Wait until watch says it follows the stream: the server subscribes it before it answers,
    /// so every request sent after this reaches it (a first connection starts from now).
    fn connected(&self) {
        loop {
            let l = self
                .errors
                .recv_timeout(WAIT)
                .expect("watch did not say it follows the stream within a minute");
            if l.starts_with("signscope: following ") {
                return;
            }
        }
    }

    fn line(&self) -> String {
        self.lines
            .recv_timeout(WAIT)
            .expect("no line from watch within a minute")
    }

    /// Everything it wrote to stderr, once it has ended.
    fn stderr(&mut self) -> String {
        self.errors.iter().map(|l| l + "\n").collect()
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A GET from a plain thread (the watch tests run no runtime of their own).
fn blocking_get(url: &str) -> u16 {
    let url = url.to_string();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            stream_client()
                .get(url)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        })
    })
    .join()
    .unwrap()
}

/// Poke `url` every 100 ms from another thread until the returned guard is dropped.
struct Poker(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Poker {
    fn start(url: &str, path: &'static str) -> Poker {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let url = url.to_string();
        std::thread::spawn(move || {
            let mut i = 0;
            while !flag.load(std::sync::atomic::Ordering::Relaxed) && i < 600 {
                blocking_get(&format!("{url}/{path}/{i}"));
                i += 1;
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        Poker(stop)
    }
}

impl Drop for Poker {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Wait until the watcher is subscribed: it announces it on stderr, but reading stderr would
/// block, so poke the server until a line comes.
fn first_line_after_pokes(w: &Watch, url: &str) -> String {
    let start = std::time::Instant::now();
    let mut i = 0;
    while start.elapsed() < WAIT {
        blocking_get(&format!("{url}/poke/{i}"));
        if let Ok(line) = w.lines.recv_timeout(Duration::from_millis(200)) {
            return line;
        }
        i += 1;
    }
    panic!("watch printed nothing");
}

/// Drain lines until one contains `needle`.
fn line_with(w: &Watch, needle: &str) -> String {
    loop {
        let l = w.line();
        if l.contains(needle) {
            return l;
        }
    }
}

#[test]
fn watch_prints_a_line_per_request_and_follows_a_restarted_server() {
    let serve = serve_demo("127.0.0.1:0");
    let url = serve.url.clone();
    let w = Watch::start(&["--url", &url]);
    let first = first_line_after_pokes(&w, &url);
    assert!(first.contains(" GET /poke/"), "{first}");
    assert!(first.ends_with(" 404 NOT_FOUND"), "{first}");

    assert_eq!(blocking_get(&format!("{url}/_inspect/summary?test=x")), 200);
    let l = line_with(&w, "/_inspect/summary");
    // `HH:MM:SS GET /_inspect/summary?test=x 200 OK`
    let (time, rest) = l.split_once(' ').unwrap();
    assert_eq!(time.len(), 8, "{l}");
    assert_eq!(time.as_bytes()[2], b':');
    assert_eq!(rest, "GET /_inspect/summary?test=x 200 OK");

    // Restart the server on the same port: the watcher reconnects and keeps printing.
    let addr = url.strip_prefix("http://").unwrap().to_string();
    let _ = serve.stop();
    let serve = serve_demo(&addr);
    assert_eq!(serve.url, url);
    let after = first_line_after_pokes(&w, &url);
    assert!(after.contains("/poke/"), "{after}");
    drop(serve);
}

#[test]
fn watch_json_only_rejected_prints_the_records_asked_for() {
    let serve = serve_demo("127.0.0.1:0");
    let url = serve.url.clone();
    let w = Watch::start(&["--url", &url, "--output", "json", "--only", "rejected"]);
    // 404s are rejected: they come through; the 200s do not.
    let first = first_line_after_pokes(&w, &url);
    let v: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["status"], 404);
    for _ in 0..3 {
        assert_eq!(blocking_get(&format!("{url}/_inspect/health")), 200);
    }
    assert_eq!(blocking_get(&format!("{url}/last-one")), 404);
    // Every line up to the last 404 is JSON for a refused request.
    loop {
        let l = w.line();
        let v: Value = serde_json::from_str(&l).unwrap_or_else(|e| panic!("{e}: {l}"));
        assert_eq!(v["type"], "request");
        assert!(v["status"].as_u64().unwrap() >= 400, "{l}");
        if v["path"] == "/last-one" {
            break;
        }
    }
}

#[test]
fn watch_ends_cleanly_on_ctrl_c_and_on_a_closed_pipe() {
    let serve = serve_demo("127.0.0.1:0");
    let url = serve.url.clone();

    let mut w = Watch::start(&["--url", &url]);
    first_line_after_pokes(&w, &url);
    signal(&w.child, libc::SIGINT);
    let status = w.child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
    let err = w.stderr();
    assert!(!err.contains("panicked"), "{err}");

    // A reader that goes away: the next line cannot be written and watch ends by itself.
    let mut child = Command::new(env!("CARGO_BIN_EXE_signscope"))
        .args(["watch", "--url", &url])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let poker = Poker::start(&url, "pipe");
    out.read_line(&mut line).unwrap();
    drop(poker);
    assert!(line.contains("/pipe/"), "{line}");
    drop(out);
    let start = std::time::Instant::now();
    let mut i = 0;
    while start.elapsed() < WAIT {
        i += 1;
        blocking_get(&format!("{url}/after-close/{i}"));
        if let Some(status) = child.try_wait().unwrap() {
            assert!(
                status.code() == Some(141) || status.code() == Some(0),
                "{status:?}"
            );
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            assert!(
                !err.contains("panicked") && !err.contains("Broken pipe"),
                "{err}"
            );
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("watch kept running after its reader went away");
}

/// A header value that is not UTF-8 (a Latin-1 `é`, one byte) next to UTF-8 text: the record
/// (the stream the Traffic view reads, and the inspection list) shows the UTF-8 as it is and
/// the stray byte as `\xE9`, never as `�` or another letter.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_header_byte_that_is_not_utf8_is_recorded_escaped_and_utf8_as_it_is() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = start_at_t0().await;
    let mut s = Stream::open(
        &stream_client(),
        &format!("{}/_inspect/stream", server.url()),
    )
    .await;
    let addr = server.url().trim_start_matches("http://").to_string();
    let mut tcp = tokio::net::TcpStream::connect(&addr).await.unwrap();
    tcp.write_all(
        b"PUT /v2/batch?q=caf\xc3\xa9 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: caf\xe9 \xc3\xbc\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]",
    )
    .await
    .unwrap();
    let mut answer = Vec::new();
    tcp.read_to_end(&mut answer).await.unwrap();
    assert!(answer.starts_with(b"HTTP/1.1 400"), "{answer:?}");
    let rec = s.record().await;
    assert_eq!(rec["query"], "q=café", "{rec}");
    let note = |headers: &Value| {
        headers
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h[0] == "x-note")
            .map(|h| h[1].as_str().unwrap().to_string())
    };
    assert_eq!(
        note(&rec["headers"]).as_deref(),
        Some("caf\\xE9 ü"),
        "{rec}"
    );
    let (_, listed) = get_json(
        &client(),
        &format!("{}/_inspect/requests?limit=1", server.url()),
    )
    .await;
    assert_eq!(
        note(&listed[0]["headers"]).as_deref(),
        Some("caf\\xE9 ü"),
        "{listed}"
    );
}

/// A request captured from the vendor's SDK (tests/data/vendor/), sent as raw HTTP to `url`'s
/// host with its own method, target, headers and body.
fn send_capture(url: &str, raw: &[u8]) -> u16 {
    use std::io::Write;
    let host = url.strip_prefix("http://").unwrap();
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let head: Vec<&str> = head
        .split("\r\n")
        .filter(|l| !l.starts_with("Host: "))
        .collect();
    let mut out = format!("{}\r\nHost: {host}\r\n", head[0]);
    for h in &head[1..] {
        out.push_str(&format!("{h}\r\n"));
    }
    out.push_str("Connection: close\r\n\r\n");
    out.push_str(body);
    let mut s = std::net::TcpStream::connect(host).unwrap();
    s.write_all(out.as_bytes()).unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    answer[9..12].parse().unwrap()
}

/// The fields an older endpoint's request carries, counted from the capture itself: the
/// query's names and the multipart form's parts, each name once.
fn field_names(raw: &[u8]) -> usize {
    let text = String::from_utf8_lossy(raw);
    let target = text.split(' ').nth(1).unwrap();
    let mut names: std::collections::BTreeSet<String> = target
        .split_once('?')
        .map(|(_, q)| q)
        .unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split('=').next().unwrap().to_string())
        .collect();
    for part in text
        .split("Content-Disposition: form-data; name=\"")
        .skip(1)
    {
        names.insert(part.split('"').next().unwrap().to_string());
    }
    names.len()
}

#[test]
fn the_older_endpoints_show_their_endpoint_and_fields_in_watch_and_the_traffic_line() {
    // docs/events.md rule E21: what @klevu/core 1.x (GET with a query) and 5.x (POST with a
    // multipart form) send to the older endpoints is a request with fields, not an event
    // batch. The line names the endpoint and how many fields came, GET or POST; a request
    // without its API key names the missing field.
    let serve = serve_demo("127.0.0.1:0");
    let url = serve.url.clone();
    let text = Watch::start(&["--url", &url]);
    let json = Watch::start(&["--url", &url, "--output", "json", "--only", "collect"]);
    // The JSON watch lets no poke through: wait for it to follow before sending anything.
    json.connected();
    first_line_after_pokes(&text, &url);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vendor");
    let mut captures: Vec<(String, Vec<u8>)> = Vec::new();
    for (version, names) in [
        (
            "klevu-core-1.9.0",
            &["search", "search-click", "category-view", "category-click"][..],
        ),
        (
            "klevu-core-5.2.2",
            &[
                "search",
                "search-click",
                "category-view",
                "category-click",
                "banner-click-v1",
            ][..],
        ),
    ] {
        for name in names {
            let raw = std::fs::read(dir.join(version).join(format!("{name}.http"))).unwrap();
            captures.push((format!("{version}/{name}"), raw));
        }
    }
    for (what, raw) in &captures {
        assert_eq!(send_capture(&url, raw), 200, "{what}");
        let request = String::from_utf8_lossy(raw);
        let request_line = request.split("\r\n").next().unwrap();
        let (method, target) = request_line
            .strip_suffix(" HTTP/1.1")
            .unwrap()
            .split_once(' ')
            .unwrap();
        let endpoint = target
            .split('?')
            .next()
            .unwrap()
            .strip_prefix("/analytics/")
            .unwrap();
        let fields = field_names(raw);
        let want = format!("{method} {target} 200 OK ({endpoint}: {fields} fields)");
        // watch: `HH:MM:SS <the line>`.
        let got = line_with(&text, &format!("{method} {target} "));
        assert_eq!(got.split_once(' ').unwrap().1, want, "{what}");
        // The Traffic view's row is `core::traffic::request_line` of the same record.
        let record: signscope::core::traffic::RequestSeen =
            serde_json::from_str(&json.line()).unwrap();
        let row = signscope::core::traffic::request_line(&record);
        assert_eq!(row.split_once(' ').unwrap().1, want, "{what}");
    }
    // Without its API key: refused, the missing field named.
    let bare = b"GET /analytics/productTracking?klevu_type=clicked&klevu_productId=31337 HTTP/1.1\r\nHost: x\r\n\r\n";
    assert_eq!(send_capture(&url, bare), 400);
    let got = line_with(&text, "GET /analytics/productTracking?klevu_type=clicked");
    assert!(
        got.ends_with(
            " 400 VALIDATION_ERROR (productTracking: 2 fields; REQUIRED at klevu_apiKey)"
        ),
        "{got}"
    );
    drop(serve);
}
