//! Key to frame in the events composer: one keystroke through the workbench's `update` (the
//! router, then the events view) plus a full draw of the workbench (the TUI test fixture,
//! `TestApp`, on a 120x40 screen), for lists of 10, 500 and 5,000 items, in the form and
//! in the raw JSON editor (Ctrl-P; the bench pressed Ctrl-R before, which left the form in
//! place, so its earlier `raw` figures are the form's). Batches above `INLINE_VALIDATE_ITEMS` are rebuilt and validated off
//! the draw path (`EventsEffect::Validate`, run by a worker in the TUI): `validate_job` measures
//! that work, i.e. how long after the last key the preview and problems are current.
//!
//! `cargo bench --bench tui_components`

// Bench code: an unwrap that fails is a failed bench, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use signscope::tui::components::events::{update, EventsMsg, Field, Focus, Mode};
use signscope::tui::layout::View;
use signscope::tui::test_util::TestApp;

mod common;

fn batch(items: usize) -> String {
    String::from_utf8(common::batch_bytes(items)).unwrap()
}

/// The workbench on the events view with `batch` loaded (in the raw JSON editor when `raw`).
fn events_view(batch: &str, raw: bool) -> TestApp {
    let mut t = TestApp::new(120, 40);
    t.view = View::Events;
    update(&mut t.events, EventsMsg::LoadBatch(batch.to_string()));
    if raw {
        update(
            &mut t.events,
            EventsMsg::Key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL)),
        );
        assert_eq!(t.events.mode, Mode::Raw, "Ctrl-P opens the raw JSON editor");
    } else {
        t.events.focus = Focus::Field(Field::ListName);
    }
    // The batch is on screen, and a key reaches the view (not a global binding).
    let before = t.screen();
    assert!(before.contains("Product number 0"), "{before}");
    t.press(KeyCode::Char(if raw { ' ' } else { 'x' }));
    assert_ne!(t.screen(), before, "the key reached the events view");
    t
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("events_view_key_to_frame");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for n in [10usize, 500, 5_000] {
        let text = batch(n);
        let mut form = events_view(&text, false);
        g.bench_function(BenchmarkId::new("form", n), |b| {
            b.iter(|| {
                form.press(KeyCode::Char('x'));
                form.draw();
            })
        });
        let job = form.events.validate_job();
        g.bench_function(BenchmarkId::new("validate_job_form", n), |b| {
            b.iter(|| job.run())
        });
        let mut raw = events_view(&text, true);
        g.bench_function(BenchmarkId::new("raw", n), |b| {
            b.iter(|| {
                // A space at the cursor (start of the text) keeps the JSON valid.
                raw.press(KeyCode::Char(' '));
                raw.draw();
            })
        });
        let job = raw.events.validate_job();
        g.bench_function(BenchmarkId::new("validate_job_raw", n), |b| {
            b.iter(|| job.run())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
