//! TUI benchmarks.
//!
//! 1. Key event to frame: `update` for one key at the end of the body (a space, then a backspace
//!    removing it, alternately), then a full
//!    draw into a 120x40 TestBackend, for bodies of 1 KB, 1 MB and 16 MB.
//! 2. The signing that follows (off the draw path): the incremental re-sign after that edit.
//! 3. A 6 MB JSON response: bytes to the raw text on screen, and to the formatted text on screen.
//! 4. The running binary in a PTY: time to the first drawn frame, idle private memory, RSS and
//!    idle CPU with the demo profile, side by side with ATAC and Slumber when they are installed
//!    (`SIGNSCOPE_BENCH_ATAC`, `SIGNSCOPE_BENCH_SLUMBER`), and RSS with a 16 MB body (printed,
//!    not asserted).
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
/// it alone holds, shared libraries' pages left out), and of that the `Anonymous` pages (heap,
/// stacks: what it allocated, without the pages of its own executable file).
fn private_kib(pid: u32) -> (u64, u64) {
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).unwrap_or_default();
    let sum = |fields: &[&str]| -> u64 {
        rollup
            .lines()
            .filter(|l| fields.iter().any(|f| l.starts_with(f)))
            .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .sum()
    };
    (
        sum(&["Private_Clean:", "Private_Dirty:"]),
        sum(&["Anonymous:"]),
    )
}

/// utime + stime of a process in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    f.get(11).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
        + f.get(12).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
}

/// CPU time of a process so far in nanoseconds: the sum over its threads of
/// `/proc/PID/task/TID/schedstat`'s first field (time on a CPU), finer than clock ticks.
fn cpu_ns(pid: u32) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

/// What one start in the PTY measured.
#[derive(Clone, Copy)]
struct Figures {
    /// From the spawn to the first frame showing the program's marker text.
    first_frame: Duration,
    /// The CPU time the program had used by then (all its threads): on a shared machine the
    /// wall time above is mostly waiting for a core.
    first_frame_cpu: Duration,
    /// Private_Clean + Private_Dirty, KiB, 2 s after the first frame.
    private_kib: u64,
    /// Of that, anonymous memory (heap, stacks), KiB.
    anon_kib: u64,
    rss_kib: u64,
    /// CPU ticks over the 3 s after that.
    idle_ticks: u64,
}

/// Start `cmd` in a 120x40 PTY and measure it: the first frame that shows `marker`, then
/// `after_first` typed (signscope: Ctrl-T freezes the timestamp, so no 1 s tick runs), 2 s of
/// rest (or `typing`: 50 keys at the end of the body, then 2 s), memory, 3 s of idle CPU.
fn run_in_pty(
    mut cmd: portable_pty::CommandBuilder,
    marker: &str,
    after_first: &[u8],
    typing: bool,
) -> Figures {
    use portable_pty::{native_pty_system, PtySize};
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 40,
            cols: 120,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    cmd.env("TERM", "xterm-256color");
    let started = Instant::now();
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let writer = Arc::new(Mutex::new(pair.master.take_writer().unwrap()));
    let pid = child.process_id().unwrap();
    let parser = Arc::new(Mutex::new(vt100::Parser::new(40, 120, 0)));
    let first = Arc::new(Mutex::new(None::<(Duration, Duration)>));
    let (p, f, text, answer) = (
        parser.clone(),
        first.clone(),
        marker.to_string(),
        writer.clone(),
    );
    std::thread::spawn(move || {
        let mut buf = [0u8; 65536];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            let mut p = p.lock().unwrap();
            p.process(&buf[..n]);
            // A program that asks where the cursor is (ESC [ 6 n; ATAC does at start) is
            // answered as a terminal would, or it waits for the answer and gives up.
            if buf[..n].windows(4).any(|w| w == b"\x1b[6n") {
                let (row, col) = p.screen().cursor_position();
                let reply = format!("\x1b[{};{}R", row + 1, col + 1);
                let _ = answer.lock().unwrap().write_all(reply.as_bytes());
            }
            if f.lock().unwrap().is_none() && p.screen().contents().contains(&text) {
                let cpu = Duration::from_nanos(cpu_ns(pid));
                *f.lock().unwrap() = Some((started.elapsed(), cpu));
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    while first.lock().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
    let (first_frame, first_frame_cpu) = first
        .lock()
        .unwrap()
        .unwrap_or((Duration::MAX, Duration::MAX));
    if first_frame == Duration::MAX {
        eprintln!(
            "no frame showed {marker:?} within 60 s; the screen:\n{}",
            parser.lock().unwrap().screen().contents()
        );
    }
    let write = |bytes: &[u8]| writer.lock().unwrap().write_all(bytes).unwrap();
    write(after_first);
    std::thread::sleep(Duration::from_secs(2));
    if typing {
        // Go to the end of the body (Alt->) and type there, a key every 20 ms, so the RSS below
        // includes the copies an edit makes while the signer holds the previous snapshot.
        write(b"\x1b>");
        for _ in 0..50 {
            write(b"x");
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_secs(2));
    }
    let ((private_kib, anon_kib), rss_kib) = (private_kib(pid), rss_kib(pid));
    let t0 = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(3));
    let idle_ticks = cpu_ticks(pid) - t0;
    let _ = child.kill();
    let _ = child.wait();
    Figures {
        first_frame,
        first_frame_cpu,
        private_kib,
        anon_kib,
        rss_kib,
        idle_ticks,
    }
}

/// A program measured side by side: signscope, ATAC or Slumber.
#[derive(Clone, Copy, PartialEq)]
enum Tool {
    Signscope,
    Atac,
    Slumber,
}

/// One binary to start on a fresh home, and what its first full frame shows.
struct Subject {
    tool: Tool,
    exe: std::path::PathBuf,
}

impl Subject {
    /// The text the first full frame draws once the collection (signscope: the demo profile,
    /// signed) is loaded: the canonical text panel, ATAC's collection with its one request
    /// (folded, as ATAC opens it), the recipe in Slumber's list.
    fn marker(&self) -> &'static str {
        match self.tool {
            Tool::Signscope => "Canonical text",
            Tool::Atac => "bench (1)",
            Tool::Slumber => "index_products",
        }
    }

    /// The command on a fresh home under `home`: every XDG directory there, the working
    /// directory too, and a minimal collection of one POST request with a JSON body (what the
    /// demo profile holds) for ATAC and Slumber.
    fn command(&self, home: &std::path::Path) -> portable_pty::CommandBuilder {
        let mut cmd = portable_pty::CommandBuilder::new(&self.exe);
        cmd.cwd(home);
        cmd.env("HOME", home);
        for (var, dir) in [
            ("XDG_CONFIG_HOME", ".config"),
            ("XDG_DATA_HOME", ".local/share"),
            ("XDG_STATE_HOME", ".local/state"),
            ("XDG_CACHE_HOME", ".cache"),
        ] {
            cmd.env(var, home.join(dir));
        }
        match self.tool {
            Tool::Signscope => {
                cmd.env("SIGNSCOPE_CONFIG_DIR", home.join("config"));
                cmd.env("SIGNSCOPE_DATA_DIR", home.join("data"));
            }
            Tool::Atac => {
                let dir = home.join("atac");
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(dir.join("bench.json"), ATAC_COLLECTION).unwrap();
                cmd.arg("--directory");
                cmd.arg(dir);
            }
            Tool::Slumber => std::fs::write(home.join("slumber.yml"), SLUMBER_COLLECTION).unwrap(),
        }
        cmd
    }

    fn measure(&self) -> Figures {
        let home = tempfile::tempdir().unwrap();
        let after_first: &[u8] = if self.tool == Tool::Signscope {
            b"\x14"
        } else {
            b""
        };
        run_in_pty(self.command(home.path()), self.marker(), after_first, false)
    }

    fn label(&self) -> String {
        let size = std::fs::metadata(&self.exe).map(|m| m.len()).unwrap_or(0) as f64;
        format!(
            "{} ({:.1} MiB)",
            self.exe.display(),
            size / (1024.0 * 1024.0)
        )
    }
}

/// ATAC's collection: one POST with a JSON body (its own example collections' format).
const ATAC_COLLECTION: &str = r#"{"name": "bench", "last_position": 0, "requests": [{
  "name": "index_products", "url": "http://127.0.0.1:9/v2/products", "params": [],
  "headers": [{"enabled": true, "data": ["content-type", "application/json"]}],
  "auth": "no_auth", "scripts": {"pre_request_script": null, "post_request_script": null},
  "settings": {"use_config_proxy": true, "allow_redirects": true, "timeout": 30000,
    "store_received_cookies": true, "pretty_print_response_content": true,
    "accept_invalid_certs": false, "accept_invalid_hostnames": false},
  "protocol": {"type": "http", "method": "POST", "body": {"json": "[{\"id\": \"sku-1\"}]"}}}]}
"#;

/// Slumber's collection: the same request.
const SLUMBER_COLLECTION: &str = r#"requests:
  index_products:
    method: POST
    url: "http://127.0.0.1:9/v2/products"
    body:
      type: json
      data: [{ "id": "sku-1" }]
"#;

/// The signscope binaries to measure: `SIGNSCOPE_BENCH_BINARY` (a path, or several separated by
/// `:`, e.g. builds before and after a change), else `target/release/signscope`.
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

/// ATAC and Slumber, side by side with signscope: `SIGNSCOPE_BENCH_ATAC` and
/// `SIGNSCOPE_BENCH_SLUMBER` (paths), else `atac` and `slumber` on the PATH; one that is not
/// there is skipped with one line.
fn other_tools() -> Vec<Subject> {
    let mut found = Vec::new();
    for (tool, var, name) in [
        (Tool::Atac, "SIGNSCOPE_BENCH_ATAC", "atac"),
        (Tool::Slumber, "SIGNSCOPE_BENCH_SLUMBER", "slumber"),
    ] {
        let exe = match std::env::var_os(var) {
            Some(path) => Some(std::path::PathBuf::from(path)),
            None => std::env::var_os("PATH").and_then(|path| {
                std::env::split_paths(&path)
                    .map(|dir| dir.join(name))
                    .find(|p| p.is_file())
            }),
        };
        match exe.filter(|p| p.is_file()) {
            Some(exe) => found.push(Subject { tool, exe }),
            None => println!(
                "tui binary figures: {name} skipped: not installed (set {var} to its path)"
            ),
        }
    }
    found
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// "median (lowest-highest)" of some figures.
fn spread(v: &[f64], digits: usize) -> String {
    let lo = v.iter().copied().fold(f64::MAX, f64::min);
    let hi = v.iter().copied().fold(0.0, f64::max);
    if v.len() == 1 {
        return format!("{:.digits$}", v[0]);
    }
    format!(
        "median {:.digits$} ({lo:.digits$}-{hi:.digits$})",
        median(v.to_vec())
    )
}

/// The figures of each subject, started `SIGNSCOPE_BENCH_RUNS` times (default 1) in rounds: each
/// round starts every subject once, the order turned by one each round, so a change in the
/// machine's load hits all of them alike and none always goes first.
fn side_by_side(subjects: &[Subject], runs: usize) {
    let mut figures: Vec<Vec<Figures>> = vec![Vec::new(); subjects.len()];
    for round in 0..runs {
        for i in 0..subjects.len() {
            let at = (i + round) % subjects.len();
            figures[at].push(subjects[at].measure());
        }
    }
    for (subject, mut figures) in subjects.iter().zip(figures) {
        // A start whose first frame never came is counted, not averaged in.
        let all = figures.len();
        figures.retain(|f| f.first_frame != Duration::MAX);
        if figures.len() < all {
            println!(
                "tui binary, first screen: {} of {all} starts showed no first frame within 60 s; {}",
                all - figures.len(),
                subject.label()
            );
        }
        if figures.is_empty() {
            continue;
        }
        let ms: Vec<f64> = figures
            .iter()
            .map(|f| f.first_frame.as_secs_f64() * 1000.0)
            .collect();
        let cpu: Vec<f64> = figures
            .iter()
            .map(|f| f.first_frame_cpu.as_secs_f64() * 1000.0)
            .collect();
        let mib = |kib: u64| kib as f64 / 1024.0;
        let private: Vec<f64> = figures.iter().map(|f| mib(f.private_kib)).collect();
        let anon: Vec<f64> = figures.iter().map(|f| mib(f.anon_kib)).collect();
        let rss: Vec<f64> = figures.iter().map(|f| mib(f.rss_kib)).collect();
        let idle = figures.iter().map(|f| f.idle_ticks).max().unwrap_or(0);
        println!(
            "tui binary, first screen, {runs} runs: first frame {} ms (CPU {} ms), idle private memory {} MiB (anonymous {} MiB), RSS {} MiB, idle CPU at most {idle} ticks in 3 s; {}",
            spread(&ms, 1),
            spread(&cpu, 1),
            spread(&private, 2),
            spread(&anon, 2),
            spread(&rss, 1),
            subject.label()
        );
    }
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
    let runs: usize = std::env::var("SIGNSCOPE_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(1);
    let mut subjects: Vec<Subject> = exes
        .iter()
        .map(|exe| Subject {
            tool: Tool::Signscope,
            exe: exe.clone(),
        })
        .collect();
    subjects.extend(other_tools());
    side_by_side(&subjects, runs);
    big_body_figures(&exes);
}

/// signscope on a profile holding a 16 MB body: first frame and RSS, then RSS after typing.
fn big_body_figures(exes: &[std::path::PathBuf]) {
    let home = tempfile::tempdir().unwrap();
    let body = body_of(16 << 20);
    let mut p = signscope::store::Profile::new("big");
    p.indexing_url = "http://127.0.0.1:9".into();
    p.set_api_key("pk");
    p.rest_key = signscope::store::KeySource::Stored(Secret::new("k"));
    p.request_mut().body = body.into();
    let paths = signscope::store::Paths::new(home.path().join("config"), home.path().join("data"));
    signscope::store::ProfileStore::open(&paths)
        .save(&p)
        .unwrap();
    for exe in exes {
        let subject = Subject {
            tool: Tool::Signscope,
            exe: exe.clone(),
        };
        let start = |typing| {
            let mut cmd = subject.command(home.path());
            cmd.args(["--profile", "big"]);
            run_in_pty(cmd, subject.marker(), b"\x14", typing)
        };
        let f = start(false);
        let rss = f.rss_kib as f64 / 1024.0;
        println!(
            "tui binary, 16 MiB body: first frame {:.1} ms, RSS {rss:.1} MiB ({:.2}x the body), idle CPU {} ticks in 3 s; {}",
            f.first_frame.as_secs_f64() * 1000.0,
            rss / 16.0,
            f.idle_ticks,
            exe.display()
        );
        let rss = start(true).rss_kib as f64 / 1024.0;
        println!(
            "tui binary, 16 MiB body after typing 50 keys at its end: RSS {rss:.1} MiB ({:.2}x the body); {}",
            rss / 16.0,
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
        let answer = signscope::engine::ServerAnswer::parse(&body);
        let view = response_view(id, 200, vec![], &body, 12.0, false, answer, vec![]);
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
