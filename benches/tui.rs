//! TUI benchmarks.
//!
//! 1. Key event to frame: `update` for one key at the end of the body (a space, then a backspace
//!    removing it, alternately), then a full
//!    draw into a 120x40 TestBackend, for bodies of 1 KB, 1 MB and 16 MB.
//! 2. The signing that follows (off the draw path): the incremental re-sign after that edit.
//! 3. A 6 MB JSON response: bytes to the raw text on screen, and to the formatted text on screen.
//! 4. The running binary in a PTY: time to the first drawn frame, idle RSS and idle CPU with the
//!    demo profile, and RSS with a 16 MB body (printed, not asserted).
//!
//! Run: `cargo bench --bench tui` (add `-- --quick` for a short run).

// Bench code: an unwrap that fails is a failed bench, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::hint::black_box;
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use signscope::core::Secret;
use signscope::tui::components::request::Field;
use signscope::tui::components::request::RequestMsg;
use signscope::tui::effect::Command;
use signscope::tui::message::Message;
use signscope::tui::signing::Incremental;
use signscope::tui::test_util::TestApp;

/// A pretty-printed JSON array of about `size` bytes (lines of ~60 bytes).
fn body_of(size: usize) -> String {
    let mut s = String::from("[\n");
    let mut i = 0;
    while s.len() + 64 < size {
        s.push_str(&format!(
            "  {{\"id\": \"sku-{i:08}\", \"name\": \"Item number {i}\"}},\n"
        ));
        i += 1;
    }
    s.push_str("  {\"id\": \"last\"}\n]");
    s
}

/// The demo workbench (the TUI test fixture) on a 120x40 screen with `body`, the timestamp
/// frozen, the cursor at the end of the body, signed.
fn app_with(body: &str) -> TestApp {
    let mut app = TestApp::with_body(120, 40, body);
    app.request.ts_live = false;
    app.request.focus = Field::Body;
    let end = app.request.body.len();
    app.request.body.move_to(end);
    // Signed once, as at the start: every frame draws the signed request (its canonical text
    // one edit behind while the next signature is on its way, read through its line index).
    app.sign_now();
    app
}

/// The key of each measured iteration: a space, then a backspace that removes it, and so on, so
/// the body stays the same size however many iterations criterion runs (typing only spaces would
/// grow one line to tens of thousands of characters).
#[derive(Default)]
struct Typing(bool);

impl Typing {
    fn next(&mut self) -> Message {
        self.0 = !self.0;
        let code = if self.0 {
            KeyCode::Char(' ')
        } else {
            KeyCode::Backspace
        };
        Message::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }
}

const SIZES: [(&str, usize); 3] = [("1KB", 1024), ("1MB", 1 << 20), ("16MB", 16 << 20)];

/// A group with the short sampling every TUI bench here uses.
fn group<'c>(
    c: &'c mut Criterion,
    name: &str,
) -> criterion::BenchmarkGroup<'c, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));
    g
}

/// Measure one key through `update` plus a full frame, on `app` as it is.
fn bench_key_to_frame(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: BenchmarkId,
    mut app: TestApp,
) {
    let mut typing = Typing::default();
    g.bench_function(id, |b| {
        b.iter(|| {
            let cmds = app.update(typing.next());
            black_box(app.draw());
            // The signing job goes to the worker; here it is dropped (measured below).
            black_box(cmds);
        })
    });
}

fn key_to_frame(c: &mut Criterion) {
    let mut g = group(c, "tui_key_to_frame");
    for (name, size) in SIZES {
        bench_key_to_frame(
            &mut g,
            BenchmarkId::from_parameter(name),
            app_with(&body_of(size)),
        );
    }
    g.finish();
}

/// The worst place to type: the start of a 16 MB body (every byte after the edit moves).
fn key_to_frame_at_start(c: &mut Criterion) {
    let mut g = group(c, "tui_key_to_frame_at_the_start");
    let mut app = app_with(&body_of(16 << 20));
    app.request.body.move_to(0);
    bench_key_to_frame(&mut g, BenchmarkId::from_parameter("16MB"), app);
    g.finish();
}

fn resign_after_edit(c: &mut Criterion) {
    let mut g = group(c, "tui_resign_after_typing_at_the_end");
    for (name, size) in SIZES {
        let mut app = app_with(&body_of(size));
        let mut inc = Incremental::default();
        // Prime the signer with the whole body.
        for cmd in app.resign() {
            if let Command::Sign(job) = cmd {
                inc.sign(&job).unwrap();
            }
        }
        g.throughput(Throughput::Elements(1));
        let mut typing = Typing::default();
        g.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                let cmds = app.update(typing.next());
                for cmd in cmds {
                    if let Command::Sign(job) = cmd {
                        black_box(inc.sign(&job).unwrap());
                    }
                }
            })
        });
    }
    g.finish();
}

/// Resident set size of a process in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Private memory of a process in KiB (`Private_Clean` + `Private_Dirty` of smaps_rollup: what
/// it alone holds, shared libraries' pages left out).
fn private_kib(pid: u32) -> u64 {
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).unwrap_or_default();
    rollup
        .lines()
        .filter(|l| l.starts_with("Private_Clean:") || l.starts_with("Private_Dirty:"))
        .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum()
}

/// utime + stime of a process in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    f.get(11).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
        + f.get(12).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
}

/// Start the binary in a PTY; return (time to the first frame, idle RSS KiB, idle CPU ticks over 3 s).
fn run_binary(
    exe: &std::path::Path,
    profile: Option<&str>,
    typing: bool,
    config: &std::path::Path,
    data: &std::path::Path,
) -> (Duration, u64, u64) {
    use portable_pty::{native_pty_system, CommandBuilder, PtySize};
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 40,
            cols: 120,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(exe);
    cmd.env("SIGNSCOPE_CONFIG_DIR", config);
    cmd.env("SIGNSCOPE_DATA_DIR", data);
    cmd.env("TERM", "xterm-256color");
    if let Some(p) = profile {
        cmd.args(["--profile", p]);
    }
    let started = Instant::now();
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    let parser = Arc::new(Mutex::new(vt100::Parser::new(40, 120, 0)));
    let first = Arc::new(Mutex::new(None::<Duration>));
    let (p, f) = (parser.clone(), first.clone());
    std::thread::spawn(move || {
        let mut buf = [0u8; 65536];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            let mut p = p.lock().unwrap();
            p.process(&buf[..n]);
            if f.lock().unwrap().is_none() && p.screen().contents().contains("Canonical text") {
                *f.lock().unwrap() = Some(started.elapsed());
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    while first.lock().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
    let first_frame = first.lock().unwrap().unwrap_or(Duration::MAX);
    // Freeze the timestamp (no 1 s tick), let signing finish, then measure idle.
    writer.write_all(b"\x14").unwrap();
    std::thread::sleep(Duration::from_secs(2));
    if typing {
        // Go to the end of the body (Alt->) and type there, a key every 20 ms, so the RSS below
        // includes the copies an edit makes while the signer holds the previous snapshot.
        writer.write_all(b"\x1b>").unwrap();
        for _ in 0..50 {
            writer.write_all(b"x").unwrap();
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_secs(2));
    }
    let pid = child.process_id().unwrap();
    let rss = rss_kib(pid);
    println!(
        "tui binary: idle private memory {:.2} MiB (RSS {:.1} MiB)",
        private_kib(pid) as f64 / 1024.0,
        rss as f64 / 1024.0
    );
    let t0 = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(3));
    let idle = cpu_ticks(pid) - t0;
    let _ = child.kill();
    let _ = child.wait();
    (first_frame, rss, idle)
}

/// The binaries to measure: `SIGNSCOPE_BENCH_BINARY` (a path, or several separated by `:`, e.g.
/// builds with different `[profile.release]` settings), else `target/release/signscope`.
fn binaries() -> Vec<std::path::PathBuf> {
    match std::env::var("SIGNSCOPE_BENCH_BINARY") {
        Ok(list) => list
            .split(':')
            .filter(|p| !p.is_empty())
            .map(std::path::PathBuf::from)
            .collect(),
        Err(_) => {
            vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/signscope")]
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn binary_figures() {
    let exes = binaries();
    if let Some(missing) = exes.iter().find(|e| !e.exists()) {
        eprintln!(
            "tui binary figures skipped: {} does not exist; build it first with `cargo build --release`",
            missing.display()
        );
        return;
    }
    // `SIGNSCOPE_BENCH_RUNS` starts of the demo per binary (default 1), alternating between the
    // binaries so that a change in the machine's load hits all of them alike.
    let runs: usize = std::env::var("SIGNSCOPE_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(1);
    let mut demo: Vec<Vec<(Duration, u64, u64)>> = vec![Vec::new(); exes.len()];
    for _ in 0..runs {
        for (exe, figures) in exes.iter().zip(&mut demo) {
            // A first start each time: no saved profile, so the demo opens.
            let config = tempfile::tempdir().unwrap();
            let data = tempfile::tempdir().unwrap();
            figures.push(run_binary(exe, None, false, config.path(), data.path()));
        }
    }
    for (exe, figures) in exes.iter().zip(demo) {
        let size = std::fs::metadata(exe).unwrap().len() as f64 / (1024.0 * 1024.0);
        let name = format!("{} ({size:.1} MiB)", exe.display());
        let ms: Vec<f64> = figures.iter().map(|f| f.0.as_secs_f64() * 1000.0).collect();
        let mib: Vec<f64> = figures.iter().map(|f| f.1 as f64 / 1024.0).collect();
        let idle = figures.iter().map(|f| f.2).max().unwrap_or(0);
        if runs == 1 {
            println!("tui binary, demo profile: first frame {:.1} ms, idle RSS {:.1} MiB, idle CPU {idle} ticks in 3 s; {name}", ms[0], mib[0]);
        } else {
            let (lo, hi) = (
                ms.iter().copied().fold(f64::MAX, f64::min),
                ms.iter().copied().fold(0.0, f64::max),
            );
            println!(
                "tui binary, demo profile, {runs} runs: first frame median {:.1} ms ({lo:.1}-{hi:.1}), idle RSS median {:.1} MiB ({:.1}-{:.1}), idle CPU at most {idle} ticks in 3 s; {name}",
                median(ms.clone()),
                median(mib.clone()),
                mib.iter().copied().fold(f64::MAX, f64::min),
                mib.iter().copied().fold(0.0, f64::max),
            );
        }
    }
    // A profile holding a 16 MB body.
    let config = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let body = body_of(16 << 20);
    let mut p = signscope::store::Profile::new("big");
    p.indexing_url = "http://127.0.0.1:9".into();
    p.set_api_key("pk");
    p.rest_key = signscope::store::KeySource::Stored(Secret::new("k"));
    p.request_mut().body = body.into();
    let paths = signscope::store::Paths::new(config.path(), data.path());
    signscope::store::ProfileStore::open(&paths)
        .save(&p)
        .unwrap();
    for exe in &exes {
        let (first, rss, idle) = run_binary(exe, Some("big"), false, config.path(), data.path());
        println!(
            "tui binary, 16 MiB body: first frame {:.1} ms, RSS {:.1} MiB ({:.2}x the body), idle CPU {} ticks in 3 s; {}",
            first.as_secs_f64() * 1000.0,
            rss as f64 / 1024.0,
            rss as f64 / 1024.0 / 16.0,
            idle,
            exe.display()
        );
        let (_, rss, _) = run_binary(exe, Some("big"), true, config.path(), data.path());
        println!(
            "tui binary, 16 MiB body after typing 50 keys at its end: RSS {:.1} MiB ({:.2}x the body); {}",
            rss as f64 / 1024.0,
            rss as f64 / 1024.0 / 16.0,
            exe.display()
        );
    }
}

/// A compact JSON response of about `size` bytes (an array of product records).
fn response_of(size: usize) -> Vec<u8> {
    let mut s = String::from("[");
    let mut i = 0;
    while s.len() + 120 < size {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            r#"{{"id":"sku-{i:08}","name":"Item number {i}","price":{}.99,"tags":["a","b"],"stock":{{"eu":{i},"us":null}}}}"#,
            i % 500
        ));
        i += 1;
    }
    s.push(']');
    s.into_bytes()
}

/// A 6 MB JSON response, from the bytes to frames: the raw text on screen first, then the
/// formatted text. Both steps run off the draw path in the workbench (the formatting on a
/// blocking thread); here they run back to back, so the total is an upper bound.
fn response_6mb(c: &mut Criterion) {
    use signscope::tui::components::request::response::{format_json, response_view};
    use signscope::tui::components::request::Detail;
    let body = response_of(6 << 20);
    let mut g = c.benchmark_group("tui_response_6MB");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_millis(500));
    let send = |app: &mut TestApp, id: u64| {
        app.request.pending_send = Some(id);
        app.request.sending = true;
        app.request.detail = Detail::Response;
        let view = response_view(id, 200, vec![], &body, 12.0, false, vec![]);
        app.update(Message::Request(RequestMsg::SendDone {
            id,
            result: Ok(view),
        }));
    };
    g.bench_function("raw_on_screen", |b| {
        let mut app = app_with("[]");
        let mut id = 0;
        b.iter(|| {
            id += 1;
            send(&mut app, id);
            black_box(app.draw());
        })
    });
    g.bench_function("formatted_on_screen", |b| {
        let mut app = app_with("[]");
        let mut id = 0;
        b.iter(|| {
            id += 1;
            send(&mut app, id);
            black_box(app.draw());
            let formatted = format_json(&body).expect("JSON");
            app.update(Message::Request(RequestMsg::ResponseFormatted {
                id,
                body: Arc::new(formatted),
            }));
            black_box(app.draw());
            let screen = app.screen();
            assert!(
                screen.contains("\"id\": \"sku-00000000\""),
                "formatted response on screen"
            );
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    key_to_frame,
    key_to_frame_at_start,
    resign_after_edit,
    response_6mb
);

fn main() {
    benches();
    if std::env::var_os("SIGNSCOPE_BENCH_SKIP_BINARY").is_none() {
        binary_figures();
    }
    Criterion::default().configure_from_args().final_summary();
}
