//! `signscope test` of the example suite (`examples/suites/demo.signscope.toml`: 9 requests, 34
//! expectations) through the engine, judged as the command judges it (`cli::test::run_cases`,
//! the progress lines left out): against a local server already running on 127.0.0.1 (the
//! requests and judging alone), and as `signscope test examples/suites` runs by default, the
//! in-process server started by the run.
//!
//! `cargo bench --bench suite`. Figures in benches/README.md.

// Bench code: an unwrap that fails is a failed bench, with its message.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use signscope::cli::send::TimeoutArgs;
use signscope::cli::test::{run_cases, Target, TestArgs};
use signscope::server::{self, ServerConfig};

fn args(server: Option<String>) -> TestArgs {
    TestArgs {
        paths: vec![PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/suites"
        ))],
        server,
        target: Target::Embedded,
        profile: None,
        reports: Vec::new(),
        timeouts: TimeoutArgs {
            connect_timeout: 10.0,
            timeout: 30.0,
        },
    }
}

/// One run; every check must pass and there must be 25 or more of them.
fn run(args: &TestArgs) -> usize {
    let cases = run_cases(args, &mut |_| Ok(())).unwrap();
    assert!(cases.iter().all(|c| c.passed()), "{cases:?}");
    let checks: usize = cases.iter().map(|c| c.checks.len()).sum();
    assert!(checks >= 25, "{checks} checks");
    checks
}

fn suite(c: &mut Criterion) {
    let home = tempfile::tempdir().unwrap();
    // The bench's own profiles and history: the user's are never touched.
    std::env::set_var("SIGNSCOPE_CONFIG_DIR", home.path().join("config"));
    std::env::set_var("SIGNSCOPE_DATA_DIR", home.path().join("data"));
    let rt = tokio::runtime::Runtime::new().unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let local = server::start(rt.handle(), ServerConfig::demo(), listener).unwrap();
    let running = args(Some(local.url()));
    let checks = run(&running);
    let mut g = c.benchmark_group("suite");
    g.sample_size(20);
    g.bench_function(
        format!("example suite, 9 requests / {checks} expectations, running local server"),
        |b| b.iter(|| run(&running)),
    );
    let embedded = args(None);
    g.bench_function(
        format!("example suite, 9 requests / {checks} expectations, in-process server started by the run"),
        |b| b.iter(|| run(&embedded)),
    );
    g.finish();
}

criterion_group!(benches, suite);
criterion_main!(benches);
