//! The Traffic view (F7) under load.
//!
//! 1. `traffic/frame_16_arrivals_and_a_key`: the work of one frame at 1,000 records/s and 60
//!    frames/s: 16 records arrive (the runtime coalesces them into one frame), a key moves the
//!    selection, and a full 120x40 frame is drawn, with the list at its bound (1,000 records).
//!    Budget: under 16 ms.
//! 2. `traffic/filter_key_1000`: one filter key over 1,000 records (the list is filtered again)
//!    and the frame.
//! 3. `traffic/key_behind_1000_arrivals`: the worst a key can wait for: a whole second of
//!    arrivals (1,000, the runtime's drain limit is 1,024) applied in one batch, then the key
//!    and the frame. The runtime (`src/tui/runtime/event_loop.rs`) draws arrivals at most once
//!    per 16 ms frame and applies a key at once without draining the queue first, so a key
//!    normally waits behind at most one frame's arrivals (case 1). Budget for both: 16 ms.
//! 4. The release binary in a PTY (`signscope --listen`, Traffic view): a client sends 1,000
//!    small mismatched requests per second for 3 s; meanwhile a key typed into the filter is
//!    timed until the screen shows it (key to frame, through the terminal). Then the traffic
//!    stops: the bytes the workbench writes to its terminal and its CPU ticks over the next 3 s
//!    (idle: no redraw, 0 ticks). Printed, not asserted. Needs `cargo build --release`.
//!
//! Run: `cargo bench --bench traffic -- --warm-up-time 1 --measurement-time 3`.

// Bench code: an unwrap that fails is a failed bench, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::hint::black_box;
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use signscope::core::traffic::{RequestSeen, StreamMessage};
use signscope::tui::components::traffic::TrafficMsg;
use signscope::tui::message::Message;
use signscope::tui::test_util::TestApp;
use tower::ServiceExt;

/// A signed demo request, signed for `/v2/batch` and sent to `path`.
fn signed(path: &str) -> axum::http::Request<axum::body::Body> {
    let spec = signscope::core::RequestSpec {
        api_key: signscope::server::DEMO_API_KEY.to_string(),
        body: bytes::Bytes::from_static(b"[{\"id\":\"sku-1\",\"name\":\"Trail shoe\"}]"),
        ..Default::default()
    };
    let ts = signscope::core::time::format_timestamp(chrono::Utc::now());
    let key = signscope::core::Secret::new(signscope::server::DEMO_REST_KEY);
    let out = signscope::engine::build_signed("http://127.0.0.1:9", &spec, &ts, &key).unwrap();
    let mut b = axum::http::Request::builder()
        .method(out.method.as_str())
        .uri(path);
    for (n, v) in &out.headers {
        b = b.header(n.as_str(), v.as_str());
    }
    b.header("host", "127.0.0.1:8787")
        .body(axum::body::Body::from(out.body.clone()))
        .unwrap()
}

/// Two real records from a demo server: an accepted request and a mismatch with its diagnosis.
fn real_records() -> Vec<RequestSeen> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let state = signscope::server::AppState::new(signscope::server::ServerConfig::demo());
        let app = signscope::server::app(state.clone());
        for p in ["/v2/batch", "/v2/batch/"] {
            let resp = app.clone().oneshot(signed(p)).await.unwrap();
            let _ = axum::body::to_bytes(resp.into_body(), 1 << 20).await;
        }
        let (held, _, _rx) = state.stream.subscribe(Some(0));
        held.iter()
            .map(
                |p| match serde_json::from_str::<StreamMessage>(&p.json).unwrap() {
                    StreamMessage::Request(r) => *r,
                    StreamMessage::Skipped { .. } => unreachable!(),
                },
            )
            .collect()
    })
}

/// The workbench on the Traffic view, 120x40, with its list full (1,000 records).
fn full_app(records: &[RequestSeen], seq: &mut u64) -> TestApp {
    let mut app = TestApp::new(120, 40);
    app.update(Message::Traffic(TrafficMsg::Source {
        address: "http://127.0.0.1:8787".into(),
        watching: false,
    }));
    app.update(Message::Key(KeyEvent::new(
        KeyCode::F(7),
        KeyModifiers::NONE,
    )));
    for _ in 0..1000 {
        arrive(&mut app, records, seq);
    }
    app
}

fn arrive(app: &mut TestApp, records: &[RequestSeen], seq: &mut u64) {
    *seq += 1;
    let mut r = records[(*seq % records.len() as u64) as usize].clone();
    r.seq = *seq;
    app.update(Message::Traffic(TrafficMsg::Received(Box::new(r))));
}

fn key(code: KeyCode) -> Message {
    Message::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn view(c: &mut Criterion) {
    let records = real_records();
    let mut g = c.benchmark_group("traffic");
    g.sample_size(20);
    g.bench_function("frame_16_arrivals_and_a_key", |b| {
        let mut seq = 0;
        let mut app = full_app(&records, &mut seq);
        let mut down = false;
        b.iter(|| {
            for _ in 0..16 {
                arrive(&mut app, &records, &mut seq);
            }
            down = !down;
            app.update(key(if down { KeyCode::Down } else { KeyCode::Up }));
            black_box(app.draw());
        })
    });
    g.bench_function("key_behind_1000_arrivals", |b| {
        let mut seq = 0;
        let mut app = full_app(&records, &mut seq);
        let mut down = false;
        b.iter(|| {
            for _ in 0..1000 {
                arrive(&mut app, &records, &mut seq);
            }
            down = !down;
            app.update(key(if down { KeyCode::Down } else { KeyCode::Up }));
            black_box(app.draw());
        })
    });
    g.bench_function("filter_key_1000", |b| {
        let mut seq = 0;
        let mut app = full_app(&records, &mut seq);
        let mut typed = false;
        b.iter(|| {
            typed = !typed;
            app.update(key(if typed {
                KeyCode::Char('4')
            } else {
                KeyCode::Backspace
            }));
            black_box(app.draw());
        })
    });
    g.finish();
}

/// utime + stime of a process in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let n = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    n(11) + n(12)
}

/// The release binary in a PTY under 1,000 requests/s, then idle.
fn binary_figures() {
    let exe = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/signscope");
    if !exe.exists() {
        eprintln!("traffic binary figures skipped: build it first with `cargo build --release`");
        return;
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dirs = tempfile::tempdir().unwrap();
    let pair = portable_pty::native_pty_system()
        .openpty(portable_pty::PtySize {
            rows: 40,
            cols: 120,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = portable_pty::CommandBuilder::new(&exe);
    cmd.env("SIGNSCOPE_CONFIG_DIR", dirs.path().join("config"));
    cmd.env("SIGNSCOPE_DATA_DIR", dirs.path().join("data"));
    cmd.env("TERM", "xterm-256color");
    cmd.args(["--listen", &format!("127.0.0.1:{port}")]);
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    let parser = Arc::new(Mutex::new(vt100::Parser::new(40, 120, 0)));
    let written = Arc::new(Mutex::new(0usize));
    let (p, w) = (parser.clone(), written.clone());
    std::thread::spawn(move || {
        let mut buf = [0u8; 65536];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            *w.lock().unwrap() += n;
            p.lock().unwrap().process(&buf[..n]);
        }
    });
    let screen = |p: &Arc<Mutex<vt100::Parser>>| p.lock().unwrap().screen().contents();
    let wait_for = |what: &str| -> Duration {
        let t = Instant::now();
        while !screen(&parser).contains(what) {
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "{what:?} never shown"
            );
            std::thread::sleep(Duration::from_micros(200));
        }
        t.elapsed()
    };
    wait_for("F7 Traffic");
    writer.write_all(b"\x1b[18~").unwrap();
    wait_for("point applications at");
    let pid = child.process_id().unwrap();

    // 1,000 small signed (mismatched) requests per second for 3 s, on 4 keep-alive clients.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sent = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let load = {
        let (stop, sent) = (stop.clone(), sent.clone());
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let http = reqwest::Client::builder().no_proxy().build().unwrap();
                let base = format!("http://127.0.0.1:{port}");
                let mut tasks = Vec::new();
                for _ in 0..4 {
                    let (http, base, stop, sent) =
                        (http.clone(), base.clone(), stop.clone(), sent.clone());
                    tasks.push(tokio::spawn(async move {
                        let mut tick = tokio::time::interval(Duration::from_millis(4));
                        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                            tick.tick().await;
                            let ts = signscope::core::time::format_timestamp(chrono::Utc::now());
                            let spec = signscope::core::RequestSpec {
                                api_key: signscope::server::DEMO_API_KEY.to_string(),
                                ..Default::default()
                            };
                            let key =
                                signscope::core::Secret::new(signscope::server::DEMO_REST_KEY);
                            let mut out =
                                signscope::engine::build_signed(&base, &spec, &ts, &key).unwrap();
                            out.url.push('/');
                            let _ = signscope::client::send(&http, &out).await;
                            sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }));
                }
                for t in tasks {
                    let _ = t.await;
                }
            });
        })
    };
    std::thread::sleep(Duration::from_millis(500));
    // Key to frame under load: type a digit into the filter, wait for it on screen, erase it.
    let t0 = cpu_ticks(pid);
    let started = Instant::now();
    let mut times = Vec::new();
    for i in 0..20 {
        let c = char::from(b'0' + (i % 10) as u8);
        let t = Instant::now();
        writer.write_all(c.to_string().as_bytes()).unwrap();
        while !screen(&parser).contains(&format!("filter: {c}")) {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "the key never showed"
            );
            std::thread::sleep(Duration::from_micros(200));
        }
        times.push(t.elapsed());
        writer.write_all(b"\x7f").unwrap();
        std::thread::sleep(Duration::from_millis(100));
    }
    let busy_secs = started.elapsed().as_secs_f64();
    let busy_ticks = cpu_ticks(pid) - t0;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    load.join().unwrap();
    let n = sent.load(std::sync::atomic::Ordering::Relaxed);
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "traffic binary under load: {n} requests sent ({:.0}/s); key to frame through the PTY: median {:.1} ms, max {:.1} ms (20 keys); {busy_ticks} CPU ticks in {busy_secs:.1} s",
        n as f64 / (busy_secs + 0.5),
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1]),
    );
    // Traffic stopped: let the last records arrive, then measure idle.
    std::thread::sleep(Duration::from_secs(1));
    let w0 = *written.lock().unwrap();
    let t0 = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(3));
    let idle_ticks = cpu_ticks(pid) - t0;
    let idle_bytes = *written.lock().unwrap() - w0;
    println!(
        "traffic binary idle after the load: {idle_bytes} bytes drawn and {idle_ticks} CPU ticks in 3 s"
    );
    let _ = child.kill();
    let _ = child.wait();
}

criterion_group!(benches, view);

fn main() {
    benches();
    binary_figures();
    Criterion::default().configure_from_args().final_summary();
}
