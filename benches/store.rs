//! Profile and history I/O: what a save (atomic: temp file, fsync, rename, fsync dir), a load,
//! a history append (flock, append, fsync) and loading a full 500-entry history cost.
//!
//! `cargo bench --bench store` (small samples: the machine is shared).

// Bench code: an unwrap that fails is a failed bench, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use signscope::store::{
    History, HistoryEntry, KeySource, Paths, Profile, ProfileStore, RecordedRequest, SaveOptions,
};

fn profile() -> Profile {
    let mut p = Profile {
        indexing_url: "http://127.0.0.1:8080".into(),
        analytics_url: "http://127.0.0.1:8080".into(),
        rest_key: KeySource::Env("SHOP_KEY".into()),
        ..Profile::new("bench")
    };
    p.set_api_key("pub");
    p.request_mut().body = "[{\"id\":\"1\",\"name\":\"x\"}]".repeat(200).into();
    p
}

fn entry(i: usize) -> HistoryEntry {
    HistoryEntry {
        time: "2026-11-22T10:00:00.000Z".into(),
        profile: "bench".into(),
        request_name: None,
        kind: "request".into(),
        request: RecordedRequest {
            in_process: false,
            method: "PUT".into(),
            url: format!("http://127.0.0.1:8080/v2/batch?i={i}"),
            headers: vec![("Authorization".into(), "Bearer abc".into())],
            body: "x".repeat(4000),
            body_len: 4000,
            body_truncated: false,
            spec: None,
        },
        response: None,
        error: None,
        timings: None,
    }
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::new(dir.path().join("c"), dir.path().join("d"));
    let store = ProfileStore::open(&paths);
    let p = profile();
    store.save(&p).unwrap();
    let mut g = c.benchmark_group("store");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    g.bench_function("profile_save_5kB_atomic_fsync", |b| {
        b.iter(|| store.save_with(&p, SaveOptions { force: true }).unwrap())
    });
    g.bench_function("profile_load_5kB", |b| {
        b.iter(|| store.load("bench").unwrap())
    });
    let history = History::open(&paths);
    for i in 0..500 {
        history.append(&entry(i)).unwrap();
    }
    g.bench_function("history_append_4kB_fsync", |b| {
        b.iter(|| history.append(&entry(1)).unwrap())
    });
    g.bench_function("history_load_500", |b| {
        b.iter(|| {
            let (e, w) = history.load(500);
            assert!(w.is_empty() && e.len() == 500);
        })
    });
    g.finish();
}

criterion_group!(store_benches, benches);
criterion_main!(store_benches);
