//! Diagnosis budgets (docs/diagnosis.md): the full search (every single mistake, every pair,
//! the PHP SDK form with one more) of a mismatch nothing explains, which is the worst case, on
//! a 16 KB and a 1 MB JSON body (targets: < 20 ms and < 1 s on the 2-core machine); and a
//! mismatch explained by one body mistake, found after the singles.
//!
//! Run: `cargo bench --bench diagnosis -- --warm-up-time 1 --measurement-time 3`.

// Bench code: an unwrap that fails is a failed bench, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::hint::black_box;
use std::time::Duration;

use base64::Engine;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use signscope::core::diagnose::{diagnose_with, DiagnoseOptions, SERVER_CLOCK_UNITS};
use signscope::core::verify::ReceivedRequest;
use signscope::core::Secret;

const KEY: &str = "bench-rest-key";

/// A JSON batch of about `n` bytes, with non-ASCII text and URLs (so every body variant applies).
fn body(n: usize) -> Vec<u8> {
    let mut out = b"[".to_vec();
    let mut i = 0;
    while out.len() < n - 200 {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(
            format!(
                r#"{{"id": "{i}", "name": "Café crème {i}", "url": "https://shop.example/p/{i}", "price": "{}.99", "tags": ["a", "b"]}}"#,
                i % 100
            )
            .as_bytes(),
        );
        i += 1;
    }
    out.push(b']');
    out
}

fn request(body: Vec<u8>) -> ReceivedRequest {
    ReceivedRequest {
        method: "PUT".into(),
        path: "/v2/batch/".into(),
        query: "test=1&b=2".into(),
        headers: vec![
            ("Host".into(), b"localhost:8080".to_vec()),
            (
                "X-SVC-TIMESTAMP".into(),
                b"2026-11-22T10:00:00.000Z".to_vec(),
            ),
            ("X-SVC-APIKEY".into(), b"pub-key".to_vec()),
            ("X-SVC-AUTH-ALGO".into(), b"HmacSHA384".to_vec()),
            ("Content-Type".into(), b"application/json".to_vec()),
        ],
        body: body.into(),
    }
}

/// User and system CPU time of this process so far (seconds, every thread).
#[allow(unsafe_code)] // getrusage fills the struct it is given
fn cpu_seconds() -> f64 {
    let mut u = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `u` is a valid rusage to write into; RUSAGE_SELF is a valid target.
    let u = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, u.as_mut_ptr());
        u.assume_init()
    };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    t(u.ru_utime) + t(u.ru_stime)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("diagnosis");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    let key = Secret::new(KEY);
    let others = vec![("other-account".to_string(), Secret::new("other-rest-key"))];
    // A signature nothing reproduces: the whole search runs.
    let unexplained = base64::engine::general_purpose::STANDARD.encode([7u8; 48]);
    for (name, n) in [("16KB", 16 * 1024), ("1MB", 1_000_000)] {
        let req = request(body(n));
        // One thread (as the server runs each diagnosis) and two (as `verify` does here).
        for threads in [1, 2] {
            let opts = DiagnoseOptions {
                other_accounts: others.clone(),
                threads,
                ..DiagnoseOptions::default()
            };
            let d = diagnose_with(&req, "SVC", &key, &unexplained, &opts);
            assert!(d.findings.is_empty(), "nothing explains the signature");
            assert!(!d.cut_short, "the whole search runs");
            // CPU time as well as wall time: on this shared VM the wall clock mostly measures
            // the other jobs, the process's CPU time much less so.
            let runs = if n > 100_000 { 3 } else { 20 };
            let cpu0 = cpu_seconds();
            let wall0 = std::time::Instant::now();
            for _ in 0..runs {
                black_box(diagnose_with(&req, "SVC", &key, &unexplained, &opts));
            }
            let cpu = (cpu_seconds() - cpu0) / runs as f64;
            let wall = wall0.elapsed().as_secs_f64() / runs as f64;
            eprintln!(
                "diagnosis/full_unexplained/{name}, {threads} thread(s): {} signatures (exact, singles, pairs, PHP SDK form with one more: {:?}), {} bytes hashed ({:.0} bodies); per diagnosis {:.2} ms CPU, {:.2} ms wall (load average {})",
                d.signatures,
                d.round_signatures,
                d.hashed_bytes,
                d.hashed_bytes as f64 / n as f64,
                cpu * 1e3,
                wall * 1e3,
                std::fs::read_to_string("/proc/loadavg").unwrap_or_default().split(' ').next().unwrap_or("?"),
            );
            g.throughput(Throughput::Bytes(n as u64));
            g.bench_with_input(
                BenchmarkId::new(format!("full_unexplained_{threads}thread"), name),
                &req,
                |b, req| b.iter(|| diagnose_with(black_box(req), "SVC", &key, &unexplained, &opts)),
            );
        }
    }
    g.finish();
}

/// The server's diagnosis of a small mismatch (`tests/server_faults.rs` sends 2,500 of them):
/// a 21-byte body signed over `[]`, which nothing explains. With the server's cap on the clock
/// search (docs/diagnosis.md D9) against `verify`'s uncapped search (its 4 MiB clock budget
/// buys a small body thousands of instants), one thread each, as the server runs a diagnosis
/// when another runs.
fn bench_small(c: &mut Criterion) {
    let mut g = c.benchmark_group("diagnosis_small");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    let key = Secret::new(KEY);
    let mut req = request(br#"[{"task":3,"i":1001}]"#.to_vec());
    req.path = "/v2/batch".into();
    req.query = String::new();
    req.headers.retain(|(n, _)| n != "Host");
    let unexplained = base64::engine::general_purpose::STANDARD.encode([7u8; 48]);
    for (name, cap) in [("server", Some(SERVER_CLOCK_UNITS)), ("verify", None)] {
        let opts = DiagnoseOptions {
            clock_units_max: cap,
            threads: 1,
            ..DiagnoseOptions::default()
        };
        let d = diagnose_with(&req, "SVC", &key, &unexplained, &opts);
        assert!(d.findings.is_empty() && !d.cut_short);
        let runs = 20;
        let cpu0 = cpu_seconds();
        for _ in 0..runs {
            black_box(diagnose_with(&req, "SVC", &key, &unexplained, &opts));
        }
        let cpu = (cpu_seconds() - cpu0) / f64::from(runs);
        eprintln!(
            "diagnosis_small/{name}: {} signatures ({:?}), clock reach {} ms, {} bytes hashed; {:.2} ms CPU per diagnosis (load average {})",
            d.signatures,
            d.round_signatures,
            d.clock_reach_ms,
            d.hashed_bytes,
            cpu * 1e3,
            std::fs::read_to_string("/proc/loadavg").unwrap_or_default().split(' ').next().unwrap_or("?"),
        );
        g.bench_function(name, |b| {
            b.iter(|| diagnose_with(black_box(&req), "SVC", &key, &unexplained, &opts))
        });
    }
    g.finish();
}

criterion_group!(benches, bench, bench_small);
criterion_main!(benches);
