//! Key to frame in the events composer: one keystroke through the pure `update` plus
//! a full draw into a 120x40 TestBackend, for lists of 10, 500 and 5,000 items, in the form and
//! in the raw JSON editor. Batches above `INLINE_VALIDATE_ITEMS` are rebuilt and validated off
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
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use signscope::tui::components::events::{draw, update, EventsMsg, EventsState, Field, Focus};

mod common;

fn batch(items: usize) -> String {
    String::from_utf8(common::batch_bytes(items)).unwrap()
}

fn key(c: char) -> EventsMsg {
    EventsMsg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("events_view_key_to_frame");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap();
    for n in [10usize, 500, 5_000] {
        let text = batch(n);
        let mut form = EventsState::new("http://127.0.0.1:1", "demo-public-key");
        update(&mut form, EventsMsg::LoadBatch(text.clone()));
        form.focus = Focus::Field(Field::ListName);
        g.bench_function(BenchmarkId::new("form", n), |b| {
            b.iter(|| {
                update(&mut form, key('x'));
                term.draw(|f| draw(f, f.area(), &form)).unwrap();
            })
        });
        let job = form.validate_job();
        g.bench_function(BenchmarkId::new("validate_job_form", n), |b| {
            b.iter(|| job.run())
        });
        let mut raw = EventsState::new("http://127.0.0.1:1", "demo-public-key");
        update(&mut raw, EventsMsg::LoadBatch(text));
        update(
            &mut raw,
            EventsMsg::Key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL)),
        );
        g.bench_function(BenchmarkId::new("raw", n), |b| {
            b.iter(|| {
                // A space at the cursor (start of the text) keeps the JSON valid.
                update(&mut raw, key(' '));
                term.draw(|f| draw(f, f.area(), &raw)).unwrap();
            })
        });
        let job = raw.validate_job();
        g.bench_function(BenchmarkId::new("validate_job_raw", n), |b| {
            b.iter(|| job.run())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
