//! Key to frame in the events composer (issue 7): one keystroke through the pure `update` plus
//! a full draw into a 120x40 TestBackend, for lists of 10, 500 and 5,000 items, in the form and
//! in the raw JSON editor. Batches above `INLINE_VALIDATE_ITEMS` are rebuilt and validated off
//! the draw path (`EventsEffect::Validate`, run by a worker in the TUI): `validate_job` measures
//! that work, i.e. how long after the last key the preview and problems are current.
//!
//! `cargo bench --bench tui_components`

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use signscope::core::events::{ItemDraft, ListDraft};
use signscope::tui::events_view::{draw, update, EventsMsg, EventsState, Field, Focus};

fn batch(items: usize) -> String {
    let draft = ListDraft {
        api_key: "demo-public-key".into(),
        list_id: "home-trending-1".into(),
        list_name: "Trending now".into(),
        list_logic: "TRENDING".into(),
        tags: vec!["recsPageType:HOME".into()],
        user_ip: Some("203.0.113.7".into()),
        items: (0..items)
            .map(|i| ItemDraft {
                group_id: format!("{}", 10_000 + i),
                variant_id: format!("V{}", i % 7),
                name: format!("Product number {i}"),
                price: format!("{}.{:02}", 5 + i % 200, i % 100),
                currency: "EUR".into(),
                brand: "Northpeak".into(),
                category: "Clothing;;Jackets;;Rain".into(),
                clicked: i % 10 == 0,
            })
            .collect(),
    };
    String::from_utf8(draft.to_batch().to_json_bytes()).unwrap()
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
