//! What the events view shows: the batch as it says (never renumbered or re-derived without the
//! user's key), and every cell, problem and suggestion readable at 80x24, 120x40 and 200x50
//! (wrapped, or reachable by scrolling).

use super::tests::{render, said};
use super::*;
use crate::core::events::validate;
use crate::tui::component::Clip;
use crate::tui::widgets::body_editor::BodyEditor;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::{json, Value};

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 50)];

fn key(code: KeyCode) -> EventsMsg {
    EventsMsg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}
fn ctrl(c: char) -> EventsMsg {
    EventsMsg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// The view drawn where the App puts it on a `w`x`h` screen.
fn screen(s: &mut EventsState, w: u16, h: u16) -> String {
    render(s, w, h)
}

fn batch(s: &EventsState) -> Value {
    serde_json::from_str(s.batch_text()).expect("the preview is JSON")
}

fn item(g: &str, index: u64) -> Value {
    json!({"item_id": format!("{g}-1"), "item_group_id": g, "item_variant_id": "1",
           "item_name": format!("Product {g}"), "price": "1.00", "currency": "EUR",
           "item_brand": "b", "item_category": "c", "index": index})
}

/// Three items whose indexes say 1, 2, 2, and a click on the third that says 3.
fn duplicate_index_batch() -> Value {
    let shell = |kind: &str, items: Vec<Value>| {
        json!({"event": kind, "event_apikey": "k", "event_list_id": "L",
               "event_tags": ["recsPageType:HOME"], "event_list_name": "N",
               "event_list_logic": "SIMILAR", "items": items})
    };
    json!([
        shell(
            "view_recs_list",
            vec![item("A", 1), item("B", 2), item("C", 2)]
        ),
        shell("select_recs_list", vec![item("C", 3)]),
    ])
}

fn indexes(v: &Value) -> Vec<u64> {
    v[0]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["index"].as_u64().unwrap())
        .collect()
}

/// Loading a batch with a duplicate index renumbered its items: the click moved from the third
/// item to the second and a problem disappeared.
#[test]
fn a_loaded_batch_keeps_its_indexes_until_f_derives_them() {
    let original = duplicate_index_batch();
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    let fx = update(&mut s, EventsMsg::LoadBatch(original.to_string()));
    assert_eq!(s.mode, Mode::Form, "{fx:?}");
    assert_eq!(batch(&s), original, "the form shows what the batch says");
    let problems = |v: &Value| -> Vec<(String, String)> {
        validate(v)
            .problems
            .into_iter()
            .map(|p| (p.path, p.code))
            .collect()
    };
    let shown: Vec<(String, String)> = s
        .problems
        .iter()
        .map(|p| (p.path.clone(), p.code.clone()))
        .collect();
    assert_eq!(shown, problems(&original));
    assert!(
        shown.iter().any(|(p, _)| p == "[0].items[2].index"),
        "{shown:?}"
    );
    let text = screen(&mut s, 120, 40);
    assert!(
        text.contains("f derives item_id/index"),
        "the fix is offered\n{text}"
    );

    // The user asks for the derived values.
    s.focus = Focus::Items;
    let fx = update(&mut s, key(KeyCode::Char('f')));
    let fixed = batch(&s);
    assert_eq!(indexes(&fixed), [1, 2, 3]);
    assert_eq!(fixed[1]["items"][0]["item_id"], "C-1");
    assert_eq!(fixed[1]["items"][0]["index"], 3);
    assert!(said(&fx).contains("derived"), "{fx:?}");
    assert!(!screen(&mut s, 120, 40).contains("f derives"));
}

/// Going from the raw JSON back to the form renumbered the items.
#[test]
fn raw_json_to_form_keeps_the_batch_as_it_is() {
    let original = duplicate_index_batch();
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    update(&mut s, ctrl('p'));
    assert_eq!(s.mode, Mode::Raw);
    s.raw = BodyEditor::new(&serde_json::to_string_pretty(&original).unwrap());
    update(&mut s, key(KeyCode::Char(' '))); // an edit (a space before the array)
    let fx = update(&mut s, ctrl('p'));
    assert_eq!(s.mode, Mode::Form, "{fx:?}");
    assert_eq!(batch(&s), original);
    // Editing a cell of a row keeps the other rows' values as read.
    s.focus = Focus::Items;
    s.row = 0;
    s.col = Column::Price;
    update(&mut s, key(KeyCode::Enter));
    update(&mut s, key(KeyCode::Char('5')));
    update(&mut s, key(KeyCode::Enter));
    let v = batch(&s);
    assert_eq!(v[0]["items"][0]["price"], "1.005");
    assert_eq!(indexes(&v), [1, 2, 2]);
}

/// At 120 columns the table showed `varia`, `Kitch` and `item_i`.
#[test]
fn the_items_table_shows_every_cell_in_full_or_scrolls_to_it() {
    // The starter list fits whole from 120 columns on.
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    for (w, h) in [(120, 40), (200, 50)] {
        let text = screen(&mut s, w, h);
        for c in [
            "variant",
            "Home;;Kitchen",
            "item_id",
            "1001-1",
            "Example product",
        ] {
            assert!(text.contains(c), "{w}x{h}: {c}\n{text}");
        }
        assert!(!text.contains("←/→ more columns"), "{w}x{h}\n{text}");
    }
    // Longer cells: where they do not fit, the table scrolls and Right brings each into view.
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    s.focus = Focus::Items;
    s.draft.items[0].variant_id = "blue-XL".into();
    s.draft.items[0].category = "Home;;Kitchen;;Outdoor".into();
    s.refresh();
    update(&mut s, key(KeyCode::Char('y'))); // a second row, refreshed
    let cells = [
        "variant",
        "item_id",
        "1001",
        "blue-XL",
        "Example product",
        "19.90",
        "Acme",
        "Home;;Kitchen;;Outdoor",
        "1001-blue-XL",
    ];
    assert!(screen(&mut s, 80, 24).contains("←/→ more columns"));
    for (w, h) in SIZES {
        s.col = Column::GroupId;
        let mut seen = String::new();
        for _ in 0..Column::ALL.len() {
            seen.push_str(&screen(&mut s, w, h));
            update(&mut s, key(KeyCode::Right));
        }
        for c in cells {
            assert!(seen.contains(c), "{w}x{h}: {c}\n{seen}");
        }
    }
    assert!(!screen(&mut s, 200, 50).contains("←/→ more columns"));
}

/// The problems pane showed one problem at a time, cut in the middle of words.
#[test]
fn the_problems_pane_lists_several_problems_wrapped_at_spaces() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    s.focus = Focus::Items;
    for (col, value) in [
        (Column::Currency, "eu"),
        (Column::Price, "ten"),
        (Column::Category, ";Home"),
    ] {
        s.col = col;
        update(&mut s, key(KeyCode::Enter));
        update(&mut s, ctrl('u'));
        for c in value.chars() {
            update(&mut s, key(KeyCode::Char(c)));
        }
        update(&mut s, key(KeyCode::Enter));
    }
    assert!(s.problems.len() >= 3, "{:?}", s.problems);
    for (w, h) in SIZES {
        let text = screen(&mut s, w, h);
        let listed = s
            .problems
            .iter()
            .filter(|p| text.contains(p.path.as_str()))
            .count();
        // 80x24 leaves the pane eight rows: two wrapped problems; more room, more problems.
        let want = if w == 80 { 2 } else { 3 };
        assert!(listed >= want, "{w}x{h}: {listed} listed\n{text}");
        // The words of the first problems are whole on their rows.
        for p in s.problems.iter().take(2) {
            for word in p.message.split(' ').filter(|w| w.len() > 3).take(8) {
                assert!(text.contains(word), "{w}x{h}: {word:?} cut\n{text}");
            }
        }
    }
}

/// Ctrl-N changed the list logic without showing the list it cycles through.
#[test]
fn ctrl_n_shows_the_suggestions_with_the_current_one() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    s.focus = Focus::Field(Field::ListLogic);
    update(&mut s, ctrl('n'));
    assert_eq!(s.draft.list_logic, "TRENDING_PERSONALIZED");
    for (w, h) in SIZES {
        let text = screen(&mut s, w, h);
        let row = text
            .lines()
            .find(|l| l.contains("Ctrl-N:"))
            .unwrap_or_else(|| panic!("{w}x{h}: no suggestions\n{text}"));
        assert!(row.contains("TRENDING_PERSONALIZED"), "{w}x{h}: {row}");
        assert!(row.contains("NEWEST_ARRIVALS"), "{w}x{h}: {row}");
    }
    // Far down the list, the row scrolls to the current one.
    for _ in 0..8 {
        update(&mut s, ctrl('n'));
    }
    assert_eq!(s.draft.list_logic, "VISUALLY_SIMILAR");
    let text = screen(&mut s, 80, 24);
    let row = text.lines().find(|l| l.contains("Ctrl-N:")).unwrap();
    assert!(row.contains("VISUALLY_SIMILAR"), "{row}");
    // Tags suggest page types.
    s.focus = Focus::Field(Field::Tags);
    update(&mut s, key(KeyCode::Char('x')));
    let text = screen(&mut s, 80, 24);
    let row = text.lines().find(|l| l.contains("Ctrl-N:")).unwrap();
    assert!(row.contains("recsPageType:CATEGORY"), "{row}");
}

/// The preview and the response cut long lines at the pane's edge.
#[test]
fn long_preview_and_response_lines_wrap() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    let long = "A very long product name that does not fit in the preview pane at all";
    s.draft.items[0].name = long.into();
    s.refresh();
    update(
        &mut s,
        EventsMsg::Sent(Ok(SendReport {
            status: 400,
            body: format!("{{\"error\":\"{long} (the collector's words)\"}}"),
            elapsed_ms: 2,
        })),
    );
    // The preview starts at the item's name (PageDown/the wheel get there).
    s.preview_scroll = s
        .batch_text()
        .lines()
        .position(|l| l.contains("item_name"))
        .unwrap() as u16;
    for (w, h) in SIZES {
        let text = screen(&mut s, w, h);
        for word in ["preview", "pane", "all\","] {
            assert!(text.contains(word), "{w}x{h}: {word}\n{text}");
        }
        if w > 80 {
            assert!(text.contains("words)"), "{w}x{h}\n{text}");
        }
    }
}

/// Copying the batch said "copied the headers": the runtime guessed the label from the text.
#[test]
fn copying_the_batch_names_the_batch() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    let fx = update(
        &mut s,
        EventsMsg::Run(crate::tui::components::events::Action::CopyBatch),
    );
    assert_eq!(
        fx,
        vec![EventsEffect::Copy(Clip {
            text: s.batch_text().to_string(),
            what: "the batch JSON (1 event)".into(),
        })]
    );
    update(&mut s, ctrl('p'));
    let fx = update(
        &mut s,
        EventsMsg::Run(crate::tui::components::events::Action::CopyBatch),
    );
    assert!(
        matches!(&fx[..], [EventsEffect::Copy(Clip { what, .. })] if what == "the raw batch JSON"),
        "{fx:?}"
    );
}

/// A long status (a file error with its path) was cut at the screen's edge. It is said in the
/// workbench's status line, the one status channel: cut there only with "… Alt-M", and whole
/// in the message log (Alt-M).
#[test]
fn a_long_status_is_cut_marked_and_whole_in_the_message_log() {
    use crate::tui::message::Message;
    use crate::tui::test_util::TestApp;
    let why = "could not read /home/someone/projects/shop/recommendations/batches/2026-11-23-home.json: No such file or directory (os error 2)";
    let squeezed = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    for (w, h) in SIZES {
        let mut t = TestApp::new(w, h);
        t.press(KeyCode::F(3));
        t.update(Message::Events(EventsMsg::FileError(why.into())));
        let lines = t.lines();
        let status = lines.last().expect("the status line").trim_end();
        assert!(
            status.contains(why)
                || (status.ends_with("… Alt-M") && status.contains("could not read /home/")),
            "{w}x{h}: {status}"
        );
        t.alt('m');
        // The text inside the log's box (the view under it shows at its sides).
        let rows: Vec<Vec<char>> = t.lines().iter().map(|l| l.chars().collect()).collect();
        let top = rows
            .iter()
            .position(|r| r.iter().collect::<String>().contains("┌ Messages"))
            .expect("the log's box");
        let x0 = rows[top].iter().position(|&c| c == '┌').unwrap_or(0);
        let x0 = (x0..rows[top].len())
            .find(|&x| {
                rows[top][x..]
                    .iter()
                    .collect::<String>()
                    .starts_with("┌ Messages")
            })
            .unwrap_or(x0);
        let x1 = (x0 + 1..rows[top].len())
            .find(|&x| rows[top][x] == '┐')
            .unwrap_or(rows[top].len());
        let log: String = rows[top + 1..]
            .iter()
            .take_while(|r| r.get(x0) != Some(&'└'))
            .map(|r| r[x0 + 1..x1.min(r.len())].iter().collect::<String>())
            .collect();
        assert!(
            squeezed(&log).contains(&squeezed(why)),
            "{w}x{h}\n{}",
            t.screen()
        );
    }
}

/// A problem of a click jumped to the row its (wrong) index named, not to the clicked item.
#[test]
fn a_problem_of_a_click_jumps_to_the_clicked_row() {
    let mut b = duplicate_index_batch();
    b[1]["items"][0]["index"] = json!(1);
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    update(&mut s, EventsMsg::LoadBatch(b.to_string()));
    assert_eq!(batch(&s), b);
    let idx = s
        .problems
        .iter()
        .position(|p| p.path == "[1].items[0].index")
        .unwrap_or_else(|| panic!("{:?}", s.problems));
    s.focus = Focus::Problems;
    s.problem_sel = idx;
    update(&mut s, key(KeyCode::Enter));
    assert_eq!((s.focus, s.row, s.col), (Focus::Items, 2, Column::GroupId));
}

/// The previous batch's response stayed beside a changed batch, unmarked. At 80x24 it says
/// it answers the batch as it was sent once the batch changes.
#[test]
fn the_response_beside_a_changed_batch_says_it_answers_the_batch_as_sent() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    let fx = update(&mut s, ctrl('g'));
    assert!(s.sending, "{fx:?}");
    update(
        &mut s,
        EventsMsg::Sent(Ok(SendReport {
            status: 400,
            body: "{\"accepted\":0,\"rejected\":1}".into(),
            elapsed_ms: 2,
        })),
    );
    let text = screen(&mut s, 80, 24);
    assert!(text.contains("Response: 400 in 2 ms"), "{text}");
    assert!(
        !text.contains("(as sent)") && !text.contains("Answers the batch"),
        "{text}"
    );
    s.focus = Focus::Field(Field::ListName);
    update(&mut s, key(KeyCode::Char('X')));
    let text = screen(&mut s, 80, 24);
    assert!(text.contains("Response: 400 in 2 ms (as sent)"), "{text}");
    assert!(text.contains("Answers the batch as it was"), "{text}");
}

/// The problems pane gave no hint that Enter goes to the field a problem is about (the footer
/// names the view's keys). Focused with a problem listed, its border says so at 80x24.
#[test]
fn the_focused_problems_pane_says_enter_goes_to_the_field() {
    let mut s = EventsState::new("http://127.0.0.1:9", "");
    s.refresh();
    assert!(!s.problems.is_empty(), "an empty API key is a problem");
    let text = screen(&mut s, 80, 24);
    assert!(!text.contains("Enter: go to its field"), "{text}");
    s.focus = Focus::Problems;
    let text = screen(&mut s, 80, 24);
    assert!(text.contains("Enter: go to its field"), "{text}");
}

/// In the narrow layout (80x24) the cursor of the Analytics URL field stood 4 columns left of
/// where typing goes: its label is wider than the label column the cursor was placed with.
/// Every field's cursor stands right after its text.
#[test]
fn every_fields_cursor_stands_where_typing_goes_at_80x24_and_120x40() {
    use crate::tui::test_util::TestApp;
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        let mut t = TestApp::new(w, h);
        t.press(KeyCode::F(3));
        for f in Field::ALL {
            t.app.events.focus = Focus::Field(f);
            t.press(KeyCode::End);
            t.type_str("Q");
            t.draw();
            let b = t.term.backend();
            assert!(b.cursor_visible(), "{f:?}");
            let p = b.cursor_position();
            let row = &t.lines()[p.y as usize];
            let before: String = row.chars().take(p.x as usize).collect();
            assert!(
                before.ends_with('Q'),
                "{w}x{h} {f:?}: the cursor at column {} follows {before:?}",
                p.x
            );
        }
    }
}
