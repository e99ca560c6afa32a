//! Signing-core benchmarks. Quick by design: small samples, short measurement times.
//!
//! - `sign/*` next to `hmac_bare/*` over the same canonical bytes: their ratio is the overhead
//!   of building the canonical text (target <= 1.05).
//! - `verify/*`: a full verification of a correct request.
//! - `diagnose/1MB`: every mistake variant on a 1 MB mismatch.
//! - `incremental/16MB_edit_at_end`: re-signing after a 1-byte edit at the end of a 16 MB body.
//!
//! Run: `cargo bench --bench signing`.

// Bench code: an unwrap that fails is a failed bench, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Duration;

use chrono::TimeZone;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use signscope::core::diagnose::diagnose;
use signscope::core::incremental::IncrementalSigner;
use signscope::core::sign::hmac_sha384;
use signscope::core::verify::{verify, ReceivedRequest, VerifyOptions};
use signscope::core::{sign, Secret, SignableRequest};

const TS: &str = "2026-11-22T10:00:00.000Z";
const KEY: &str = "bench-rest-key";

fn req(b: &[u8]) -> SignableRequest<'_> {
    SignableRequest::new("PUT", "/v2/batch", "test=1", TS, "pub-key", b)
}

const SIZES: [(&str, usize); 3] = [("1KB", 1024), ("1MB", 1 << 20), ("16MB", 16 << 20)];

fn bench_sign(c: &mut Criterion) {
    let key = Secret::new(KEY);
    let mut g = c.benchmark_group("sign_vs_bare_hmac");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, n) in SIZES {
        let b = common::records_body(n);
        let r = req(&b);
        let canonical = r.canonical().to_bytes();
        g.throughput(Throughput::Bytes(canonical.len() as u64));
        g.bench_with_input(BenchmarkId::new("sign", name), &r, |bch, r| {
            bch.iter(|| sign(black_box(r), &key).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("hmac_bare", name), &canonical, |bch, c| {
            bch.iter(|| hmac_sha384(KEY.as_bytes(), &[black_box(c)]))
        });
    }
    g.finish();
}

fn received(b: &[u8], key: &str) -> ReceivedRequest {
    let r = req(b);
    let s = sign(&r, &Secret::new(key)).unwrap();
    ReceivedRequest::from_signed(&r, &s.headers)
}

fn bench_verify(c: &mut Criterion) {
    let keys = HashMap::from([("pub-key".to_string(), Secret::new(KEY))]);
    let now = chrono::Utc
        .with_ymd_and_hms(2026, 11, 22, 10, 0, 0)
        .unwrap();
    let opts = VerifyOptions::default();
    let mut g = c.benchmark_group("verify");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, n) in &SIZES[..2] {
        let rr = received(&common::records_body(*n), KEY);
        g.throughput(Throughput::Bytes(*n as u64));
        g.bench_function(*name, |bch| {
            bch.iter(|| verify(black_box(&rr), &keys, &opts, now).unwrap())
        });
    }
    g.finish();

    let mut g = c.benchmark_group("diagnose");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let rr = received(&common::records_body(1 << 20), "the-wrong-key");
    let provided = rr.header_text("Authorization")[7..].to_string();
    g.bench_function("1MB_mismatch_all_variants", |bch| {
        bch.iter(|| diagnose(black_box(&rr), "SVC", &Secret::new(KEY), &provided))
    });
    g.finish();
}

fn bench_incremental(c: &mut Criterion) {
    let key = Secret::new(KEY);
    let mut g = c.benchmark_group("incremental");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    let mut b = common::records_body(16 << 20);
    let mut signer = IncrementalSigner::new();
    signer.sign(&req(&b), &key, 0).unwrap();
    let last = b.len() - 1;
    let mut flip = false;
    g.bench_function("16MB_edit_last_byte", |bch| {
        bch.iter(|| {
            flip = !flip;
            b[last] = if flip { b'x' } else { b' ' };
            signer.sign(&req(&b), &key, last).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, bench_sign, bench_verify, bench_incremental);
criterion_main!(benches);
