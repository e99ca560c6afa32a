//! Mouse and off-path validation tests of the events composer. Mouse events are aimed at cells
//! taken from [`layout`], the same layout [`draw`] uses.

use super::draw::*;
use super::tests::{render, shown};
use super::update::*;
use super::*;
use crate::core::events::{ItemDraft, ListDraft};
use crate::core::events::{Level, Unshown};
use crate::tui::test_util::{click_at, click_in, reversed, wheel_in};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent};
use ratatui::layout::Rect;
use serde_json::Value;

/// The area the App gives the view on a `w`x`h` screen.
fn area(w: u16, h: u16) -> Rect {
    crate::tui::layout::frame_layout(Rect::new(0, 0, w, h)).1
}

fn key(code: KeyCode) -> EventsMsg {
    EventsMsg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn mouse(state: &mut EventsState, m: MouseEvent, a: Rect) -> Vec<EventsEffect> {
    update(state, EventsMsg::Mouse(m, a))
}

/// A state with `n` items (group ids 1000.., variant 1) and the first one clicked.
fn with_items(n: usize) -> EventsState {
    let mut s = EventsState::new("http://127.0.0.1:9", "demo-public-key");
    let items = (0..n)
        .map(|i| ItemDraft {
            group_id: format!("{}", 1000 + i),
            variant_id: "1".into(),
            name: format!("Product {i}"),
            price: "9.90".into(),
            currency: "EUR".into(),
            brand: "Acme".into(),
            category: "Home".into(),
            clicked: i == 0,
        })
        .collect();
    let draft = ListDraft {
        items,
        ..s.draft.clone()
    };
    s.set_draft(draft, Unshown::default());
    s.ensure_current();
    s
}

#[test]
fn clicking_a_field_focuses_it_in_the_narrow_and_the_wide_layout() {
    for (w, h) in [(80, 24), (120, 40)] {
        let a = area(w, h);
        let mut s = with_items(3);
        s.focus = Focus::Items;
        let l = layout(a, &s);
        assert_eq!(l.fields.len(), Field::ALL.len(), "{w}x{h}: {l:?}");
        for f in Field::ALL {
            let (_, r) = l.fields.iter().find(|(g, _)| *g == f).unwrap();
            // On the label and on the value.
            mouse(&mut s, click_at(r.x, r.y), a);
            assert_eq!(s.focus, Focus::Field(f), "{w}x{h} label of {f:?}");
            s.focus = Focus::Items;
            mouse(&mut s, click_at(r.x + l.label_w, r.y), a);
            assert_eq!(s.focus, Focus::Field(f), "{w}x{h} value of {f:?}");
        }
    }
}

#[test]
fn clicking_an_item_cell_selects_its_row_and_column_and_commits_an_edit() {
    let a = area(120, 40);
    let mut s = with_items(5);
    assert_eq!(s.focus, Focus::Field(Field::ListId));
    let l = layout(a, &s);
    let (_, row3) = l.item_rows.iter().find(|(i, _)| *i == 3).unwrap();
    let (_, price) = l
        .item_columns
        .iter()
        .find(|(c, _)| *c == Column::Price)
        .unwrap();
    mouse(&mut s, click_at(price.x, row3.y), a);
    assert_eq!((s.focus, s.row, s.col), (Focus::Items, 3, Column::Price));

    // Edit the cell, then click another row: the typed value is kept (as Enter would).
    update(&mut s, key(KeyCode::Enter));
    update(&mut s, key(KeyCode::Backspace));
    update(&mut s, key(KeyCode::Char('5')));
    let l = layout(a, &s);
    let (_, row1) = l.item_rows.iter().find(|(i, _)| *i == 1).unwrap();
    mouse(&mut s, click_at(price.x, row1.y), a);
    assert_eq!(s.draft.items[3].price, "9.95");
    assert_eq!(s.row, 1);
    assert!(s.batch_text().contains("9.95"), "preview follows the edit");
}

#[test]
fn the_clicked_item_row_is_drawn_highlighted() {
    let a = area(120, 40);
    let mut s = with_items(4);
    let l = layout(a, &s);
    let (_, row2) = *l.item_rows.iter().find(|(i, _)| *i == 2).unwrap();
    let (_, name) = *l
        .item_columns
        .iter()
        .find(|(c, _)| *c == Column::Name)
        .unwrap();
    mouse(&mut s, click_at(name.x + 1, row2.y), a);
    assert_eq!((s.row, s.col), (2, Column::Name));
    let buf = shown(&mut s, 120, 40);
    assert!(
        reversed(&buf, row2.y, name.x, name.x + name.width),
        "the clicked cell is highlighted"
    );
    let (_, row1) = *l.item_rows.iter().find(|(i, _)| *i == 1).unwrap();
    assert!(
        !reversed(&buf, row1.y, name.x, name.x + name.width),
        "other rows are not"
    );
    let text: String = (name.x..name.x + 9)
        .map(|x| buf[(x, row2.y)].symbol())
        .collect();
    assert_eq!(text, "Product 2");
}

#[test]
fn the_wheel_scrolls_preview_and_response_and_moves_item_and_problem_selection() {
    let a = area(120, 40);
    let mut s = with_items(30);
    // Two bad currencies: two problems.
    s.draft.items[4].currency = "eu".into();
    s.draft.items[7].currency = "eu".into();
    s.refresh();
    s.ensure_current();
    assert!(s.problems.len() >= 2, "{:?}", s.problems);
    s.response = Some(Ok(SendReport {
        status: 200,
        body: (0..40).map(|i| format!("line {i}\n")).collect(),
        elapsed_ms: 1,
    }));
    let l = layout(a, &s);

    let preview = l.preview.unwrap();
    let top = |s: &mut EventsState| {
        let buf = shown(s, 120, 40);
        (preview.x + 1..preview.x + preview.width - 1)
            .map(|x| buf[(x, preview.y + 1)].symbol().to_string())
            .collect::<String>()
    };
    assert!(top(&mut s).starts_with('['), "{}", top(&mut s));
    mouse(&mut s, wheel_in(preview, true), a);
    mouse(&mut s, wheel_in(preview, true), a);
    assert_eq!(s.preview_scroll, 6);
    assert!(!top(&mut s).starts_with('['), "the preview scrolled");
    mouse(&mut s, wheel_in(preview, false), a);
    assert_eq!(s.preview_scroll, 3);

    let response = l.response.unwrap();
    mouse(&mut s, wheel_in(response, true), a);
    assert_eq!(s.response_scroll, 3);

    assert_eq!(s.problem_sel, 0);
    mouse(&mut s, wheel_in(l.problems, true), a);
    assert_eq!(s.problem_sel, 1);
    mouse(&mut s, wheel_in(l.problems, false), a);
    assert_eq!(s.problem_sel, 0);

    let items = l.items.unwrap();
    s.row = 0;
    mouse(&mut s, wheel_in(items, true), a);
    mouse(&mut s, wheel_in(items, true), a);
    assert_eq!(s.row, 2);
    mouse(&mut s, wheel_in(items, false), a);
    assert_eq!(s.row, 1);
    // Scrolling is not focusing: the field keeps the keyboard.
    assert_eq!(s.focus, Focus::Field(Field::ListId));
}

#[test]
fn the_item_window_follows_the_wheel_and_clicks_hit_the_rows_drawn() {
    let a = area(80, 24);
    let mut s = with_items(20);
    let items = layout(a, &s).items.unwrap();
    for _ in 0..12 {
        mouse(&mut s, wheel_in(items, true), a);
    }
    assert_eq!(s.row, 12);
    let l = layout(a, &s);
    let (first, r) = l.item_rows[0];
    assert!(first > 0, "the window moved: {:?}", l.item_rows);
    mouse(&mut s, click_in(r), a);
    assert_eq!(s.row, first);
    assert_eq!(
        layout(a, &s).item_rows[0].0,
        first,
        "a click does not move the window"
    );
    let buf = shown(&mut s, 80, 24);
    let row_text: String = (r.x..r.x + r.width)
        .map(|x| buf[(x, r.y)].symbol().to_string())
        .collect();
    assert!(
        row_text.contains(&format!("{}", 1000 + first)),
        "row {first} is drawn where it was clicked: {row_text:?}"
    );
}

#[test]
fn clicking_a_problem_selects_it_and_focuses_the_list() {
    let a = area(80, 24);
    let mut s = with_items(3);
    s.draft.items[1].currency = "eu".into();
    s.draft.items[2].price = "cheap".into();
    s.refresh();
    s.ensure_current();
    let l = layout(a, &s);
    assert!(l.problem_rows.len() >= 2, "{:?}", l.problem_rows);
    let (i, r) = l.problem_rows[1];
    mouse(&mut s, click_in(r), a);
    assert_eq!((s.focus, s.problem_sel), (Focus::Problems, i));
    // Enter jumps to the field of the clicked problem.
    let path = s.problems[i].path.clone();
    update(&mut s, key(KeyCode::Enter));
    assert_eq!(s.focus, Focus::Items, "{path}");
    assert!(
        path.contains(&format!("items[{}]", s.row)),
        "{path} row {}",
        s.row
    );
}

#[test]
fn raw_mode_click_focuses_the_editor_and_a_prompt_ignores_clicks() {
    let a = area(120, 40);
    let mut s = with_items(2);
    update(
        &mut s,
        EventsMsg::Key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL)),
    );
    s.focus = Focus::Problems;
    let l = layout(a, &s);
    mouse(&mut s, click_in(l.raw.unwrap()), a);
    assert_eq!(s.focus, Focus::Raw);
    mouse(&mut s, click_in(l.problems), a);
    assert_eq!(s.focus, Focus::Problems);

    update(
        &mut s,
        EventsMsg::Key(KeyEvent::new(KeyCode::Char('o'), KeyModifiers::CONTROL)),
    );
    assert!(s.prompt.is_some());
    mouse(&mut s, click_in(l.raw.unwrap()), a);
    assert_eq!(s.focus, Focus::Problems, "the prompt keeps the keyboard");
    assert!(s.prompt.is_some());
}

// ---------------------------------------------------------------------------------------------
// Validation off the draw path

fn job_of(effects: Vec<EventsEffect>) -> ValidateJob {
    let jobs: Vec<ValidateJob> = effects
        .into_iter()
        .filter_map(|e| match e {
            EventsEffect::Validate(j) => Some(*j),
            _ => None,
        })
        .collect();
    assert_eq!(jobs.len(), 1, "one job per message");
    jobs.into_iter().next().unwrap()
}

fn screen(s: &mut EventsState) -> String {
    render(s, 120, 40)
}

#[test]
fn a_stale_validation_result_is_ignored_and_the_current_one_shown() {
    let mut s = with_items(3);
    s.inline_max_items = 0; // every batch goes to the worker
    s.focus = Focus::Field(Field::ListName);
    update(&mut s, key(KeyCode::End));
    let before = s.batch_text().to_string();

    let first = job_of(update(&mut s, key(KeyCode::Char('A'))));
    let second = job_of(update(&mut s, key(KeyCode::Char('B'))));
    assert!(second.rev > first.rev);
    assert!(s.validating());
    let shown = screen(&mut s);
    assert!(shown.contains("Batch preview (validating…)"), "{shown}");
    assert!(shown.contains("Problems: validating…"), "{shown}");
    assert_eq!(
        s.batch_text(),
        before,
        "nothing new is shown before an answer"
    );

    // The answer for the first key arrives after the second key: dropped.
    update(&mut s, EventsMsg::Validated(Box::new(first.run())));
    assert!(s.validating());
    assert_eq!(s.batch_text(), before);
    assert!(screen(&mut s).contains("validating…"));

    // The answer for the current revision is shown as current.
    update(&mut s, EventsMsg::Validated(Box::new(second.run())));
    assert!(!s.validating());
    assert!(
        s.batch_text().contains("\"Trending nowAB\""),
        "{}",
        s.batch_text()
    );
    let shown = screen(&mut s);
    assert!(!shown.contains("validating"), "{shown}");
    assert!(shown.contains("Batch preview (2 events)"), "{shown}");
    assert!(shown.contains("Problems: none, batch is valid"), "{shown}");

    // A late answer for an old revision never replaces the current one.
    update(&mut s, EventsMsg::Validated(Box::new(first.run())));
    assert!(s.batch_text().contains("\"Trending nowAB\""));
}

#[test]
fn problems_arrive_with_the_current_revision_and_a_send_uses_the_current_batch() {
    let mut s = with_items(3);
    s.inline_max_items = 0;
    s.focus = Focus::Items;
    s.row = 1;
    s.col = Column::Currency;
    update(&mut s, key(KeyCode::Enter));
    for _ in 0..3 {
        update(&mut s, key(KeyCode::Backspace));
    }
    update(&mut s, key(KeyCode::Char('x')));
    let job = job_of(update(&mut s, key(KeyCode::Enter)));
    assert!(
        s.problems.is_empty(),
        "the old (valid) result is still shown"
    );
    update(&mut s, EventsMsg::Validated(Box::new(job.run())));
    assert!(
        s.problems.iter().any(|p| p.path == "[0].items[1].currency"),
        "{:?}",
        s.problems
    );

    // Edit again and send before the worker answers: the batch sent is the current one.
    update(&mut s, key(KeyCode::Enter));
    update(&mut s, key(KeyCode::Backspace));
    for c in "EUR".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    let _pending = job_of(update(&mut s, key(KeyCode::Enter)));
    assert!(s.validating());
    let fx = update(
        &mut s,
        EventsMsg::Key(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::CONTROL)),
    );
    let body = fx
        .iter()
        .find_map(|e| match e {
            EventsEffect::SendEvents { body, .. } => Some(body.clone()),
            _ => None,
        })
        .expect("a send");
    let sent: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(sent[0]["items"][1]["currency"], "EUR");
    assert!(!s.validating(), "sending validated the current batch");
    assert!(s.problems.is_empty(), "{:?}", s.problems);
}

#[test]
fn small_batches_are_validated_inside_update_and_big_ones_are_not() {
    let mut small = with_items(3);
    small.focus = Focus::Field(Field::ListName);
    let fx = update(&mut small, key(KeyCode::Char('x')));
    assert!(fx.is_empty(), "{fx:?}");
    assert!(!small.validating());
    assert!(small.batch_text().contains("Trending nowx"));

    let mut big = with_items(INLINE_VALIDATE_ITEMS + 1);
    big.focus = Focus::Field(Field::ListName);
    let job = job_of(update(&mut big, key(KeyCode::Char('x'))));
    assert!(big.validating());
    update(&mut big, EventsMsg::Validated(Box::new(job.run())));
    assert!(!big.validating());
    assert!(big.batch_text().contains("Trending nowx"));
}

#[test]
fn raw_edits_are_validated_by_revision_too() {
    let mut s = with_items(2);
    s.inline_max_items = 0;
    update(
        &mut s,
        EventsMsg::Key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL)),
    );
    // Entering raw mode shows the current text at once (no edit yet).
    let first = job_of(update(&mut s, key(KeyCode::Char('x'))));
    assert!(s.validating());
    let v = first.run();
    assert!(v.problems.iter().any(|p| p.level == Level::Error), "{v:?}");
    update(&mut s, EventsMsg::Validated(Box::new(v)));
    assert!(!s.validating());
    let sc = screen(&mut s);
    assert!(sc.contains("Problems: ") && sc.contains(" error"), "{sc}");
}

#[test]
fn the_wheel_scrolls_the_raw_editor_without_changing_the_text() {
    let a = area(120, 40);
    let mut s = with_items(20);
    update(
        &mut s,
        EventsMsg::Key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL)),
    );
    let rev = s.rev;
    let text = s.raw.text().to_string();
    let raw = layout(a, &s).raw.unwrap();
    let first_line = |s: &mut EventsState| {
        let buf = shown(s, 120, 40);
        (raw.x + 1..raw.x + raw.width - 1)
            .map(|x| buf[(x, raw.y + 1)].symbol().to_string())
            .collect::<String>()
    };
    assert!(
        first_line(&mut s).starts_with('['),
        "{}",
        first_line(&mut s)
    );
    for _ in 0..3 {
        update(&mut s, EventsMsg::Mouse(wheel_in(raw, true), a));
    }
    assert!(
        !first_line(&mut s).starts_with('['),
        "{}",
        first_line(&mut s)
    );
    assert_eq!(s.raw.text(), text);
    assert_eq!(s.rev, rev, "no new revision to validate");
}

#[test]
fn a_raw_batch_with_more_problems_than_listed_counts_them_all_in_the_title() {
    let mut s = with_items(2);
    s.inline_max_items = 0;
    update(
        &mut s,
        EventsMsg::Key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL)),
    );
    assert_eq!(s.focus, Focus::Raw);
    // Select all of the raw text and paste 5,000 empty events over it.
    let body = format!("[{}]", vec!["{}"; 5_000].join(","));
    let want = crate::core::events::validate_bytes(body.as_bytes());
    assert!(
        !want.omitted.is_empty(),
        "more problems than the list holds"
    );
    let mut job = None;
    // Clear the raw text (the editor's undoable set_text), then paste.
    s.raw.set_text("");
    for e in update(&mut s, EventsMsg::Paste(body)) {
        if let EventsEffect::Validate(j) = e {
            job = Some(*j);
        }
    }
    let v = job.expect("a validation job").run();
    assert_eq!(v.omitted, want.omitted);
    update(&mut s, EventsMsg::Validated(Box::new(v)));
    let errors = want.errors().count() + want.omitted.errors;
    let warnings = want.warnings().count() + want.omitted.warnings;
    let title = format!(
        "Problems: {errors} errors, {warnings} warning{} ({} shown)",
        if warnings == 1 { "" } else { "s" },
        crate::core::events::MAX_LISTED_PROBLEMS
    );
    // Wide enough for the whole title (at 120 columns the pane cuts it after the counts).
    let sc = render(&mut s, 240, 40);
    assert!(sc.contains(&title), "want {title:?} in\n{sc}");
}
