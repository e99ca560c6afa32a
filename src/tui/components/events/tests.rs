//! Tests of the events composer: keys, form <-> batch, raw mode, files, send, drawing.

use super::update::*;
use super::*;
use crate::core::events as ev;
use crate::core::events::{Level, Problem};
use crate::tui::widgets::body_editor::BodyEditor;
use bytes::Bytes;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::Value;
use std::path::PathBuf;

impl EventsState {
    /// The batch JSON exactly as it would be sent.
    pub(crate) fn batch_text(&self) -> &str {
        &self.preview
    }
}

/// What `effects` say in the status line (every `Status`, joined).
pub(super) fn said(effects: &[EventsEffect]) -> String {
    effects
        .iter()
        .filter_map(|e| match e {
            EventsEffect::Status(s) => Some(s.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// `effects` without what they say: what the runtime is asked to do.
pub(super) fn work(effects: Vec<EventsEffect>) -> Vec<EventsEffect> {
    effects
        .into_iter()
        .filter(|e| !matches!(e, EventsEffect::Status(_)))
        .collect()
}

fn key(code: KeyCode) -> EventsMsg {
    EventsMsg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}
fn ctrl(c: char) -> EventsMsg {
    EventsMsg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}
fn type_text(state: &mut EventsState, text: &str) {
    for c in text.chars() {
        update(state, key(KeyCode::Char(c)));
    }
}
fn batch(state: &EventsState) -> Value {
    serde_json::from_str(state.batch_text()).expect("preview is JSON")
}

/// A state with three items 1001-1, 1002-1, 1003-2, focus on the items table.
fn three_items() -> EventsState {
    let mut s = EventsState::new("http://127.0.0.1:9", "demo-public-key");
    s.focus = Focus::Items;
    for (g, v) in [("1002", "1"), ("1003", "2")] {
        update(&mut s, key(KeyCode::Char('a')));
        update(&mut s, key(KeyCode::Enter));
        type_text(&mut s, g);
        update(&mut s, key(KeyCode::Tab)); // commit and go to variant
        update(&mut s, key(KeyCode::Enter));
        type_text(&mut s, v);
        update(&mut s, key(KeyCode::Enter));
        s.col = Column::GroupId;
    }
    s
}

fn ids_and_indexes(v: &Value) -> Vec<(String, u64)> {
    v[0]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["item_id"].as_str().unwrap().to_string(),
                i["index"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn adding_items_derives_ids_and_numbers_indexes_from_one() {
    let s = three_items();
    let v = batch(&s);
    assert_eq!(
        ids_and_indexes(&v),
        vec![
            ("1001-1".to_string(), 1),
            ("1002-1".to_string(), 2),
            ("1003-2".to_string(), 3)
        ]
    );
    assert_eq!(v.as_array().unwrap().len(), 1, "no click, no select event");
}

#[test]
fn moving_deleting_and_duplicating_renumber_indexes() {
    let mut s = three_items();
    s.row = 2;
    update(&mut s, key(KeyCode::Char('K')));
    assert_eq!(s.row, 1);
    assert_eq!(
        ids_and_indexes(&batch(&s)),
        vec![
            ("1001-1".to_string(), 1),
            ("1003-2".to_string(), 2),
            ("1002-1".to_string(), 3)
        ]
    );
    update(
        &mut s,
        EventsMsg::Key(KeyEvent::new(KeyCode::Down, KeyModifiers::ALT)),
    );
    assert_eq!(s.row, 2);
    assert_eq!(ids_and_indexes(&batch(&s))[2].0, "1003-2");
    s.row = 0;
    update(&mut s, key(KeyCode::Char('d')));
    assert_eq!(
        ids_and_indexes(&batch(&s)),
        vec![("1002-1".to_string(), 1), ("1003-2".to_string(), 2)]
    );
    update(&mut s, key(KeyCode::Char('y')));
    assert_eq!(
        ids_and_indexes(&batch(&s)),
        vec![
            ("1002-1".to_string(), 1),
            ("1002-1".to_string(), 2),
            ("1003-2".to_string(), 3)
        ]
    );
}

#[test]
fn clicked_items_produce_one_select_event_each_in_item_order() {
    let mut s = three_items();
    s.row = 2;
    update(&mut s, key(KeyCode::Char(' ')));
    s.row = 1;
    update(&mut s, key(KeyCode::Char(' ')));
    let v = batch(&s);
    let events = v.as_array().unwrap();
    assert_eq!(events.len(), 3);
    assert_eq!(events[0]["event"], "view_recs_list");
    assert_eq!(events[1]["event"], "select_recs_list");
    assert_eq!(events[1]["items"][0]["item_id"], "1002-1");
    assert_eq!(events[1]["items"][0]["index"], 2);
    assert_eq!(events[2]["items"][0]["item_id"], "1003-2");
    assert_eq!(events[1]["event_list_id"], events[0]["event_list_id"]);
    // Unmark: the select event goes away.
    update(&mut s, key(KeyCode::Char(' ')));
    assert_eq!(batch(&s).as_array().unwrap().len(), 2);
}

#[test]
fn editing_a_cell_in_place_commits_on_enter_and_esc_cancels() {
    let mut s = three_items();
    s.row = 0;
    s.col = Column::Currency;
    update(&mut s, key(KeyCode::Enter));
    assert!(s.is_text_input_focused());
    update(&mut s, ctrl('u'));
    type_text(&mut s, "USD");
    update(&mut s, key(KeyCode::Enter));
    assert!(!s.is_text_input_focused());
    assert_eq!(batch(&s)[0]["items"][0]["currency"], "USD");
    update(&mut s, key(KeyCode::Enter));
    type_text(&mut s, "XX");
    update(&mut s, key(KeyCode::Esc));
    assert_eq!(batch(&s)[0]["items"][0]["currency"], "USD");
}

#[test]
fn top_fields_feed_every_event_and_tags_complete_page_types() {
    let mut s = three_items();
    s.row = 0;
    update(&mut s, key(KeyCode::Char(' ')));
    s.focus = Focus::Field(Field::ListId);
    update(&mut s, ctrl('u'));
    type_text(&mut s, "banner-7");
    s.focus = Focus::Field(Field::Tags);
    update(&mut s, ctrl('u'));
    type_text(&mut s, "recsPageType:CAT");
    update(&mut s, ctrl('n'));
    s.focus = Focus::Field(Field::ListLogic);
    update(&mut s, ctrl('u'));
    type_text(&mut s, "newest");
    update(&mut s, ctrl('n'));
    let v = batch(&s);
    for e in v.as_array().unwrap() {
        assert_eq!(e["event_list_id"], "banner-7");
        assert_eq!(
            e["event_tags"],
            serde_json::json!(["recsPageType:CATEGORY"])
        );
        assert_eq!(e["event_list_logic"], "NEWEST_ARRIVALS");
        assert_eq!(e["event_apikey"], "demo-public-key");
    }
}

#[test]
fn problem_paths_map_to_form_fields_and_item_cells() {
    let mut s = three_items();
    s.draft.items[2].clicked = true;
    let d = &s.draft;
    match target_of_path("[0].items[1].currency", d) {
        Some(Target::Item(1, Column::Currency)) => {}
        _ => panic!("view item 1 currency"),
    }
    // The first select event is the first clicked row's, whatever index it carries.
    match target_of_path("[1].items[0].item_id", d) {
        Some(Target::Item(2, Column::GroupId)) => {}
        _ => panic!("select item maps back to its clicked row"),
    }
    assert!(
        target_of_path("[2].items[0].price", d).is_none(),
        "an event the form does not show"
    );
    match target_of_path("[0].user_profile.ip_address", d) {
        Some(Target::Field(Field::UserIp)) => {}
        _ => panic!("ip address"),
    }
    match target_of_path("[0].event_list_logic", d) {
        Some(Target::Field(Field::ListLogic)) => {}
        _ => panic!("list logic"),
    }
}

#[test]
fn selecting_a_problem_jumps_to_its_field() {
    let mut s = three_items();
    s.problems = vec![Problem {
        level: Level::Error,
        path: "[0].items[2].currency".into(),
        code: "FORMAT".into(),
        value: None,
        message: "currency must be three upper-case letters".into(),
        line: None,
        column: None,
    }];
    s.focus = Focus::Problems;
    update(&mut s, key(KeyCode::Enter));
    assert_eq!(s.focus, Focus::Items);
    assert_eq!((s.row, s.col), (2, Column::Currency));
}

#[test]
fn raw_mode_round_trip_keeps_unknown_fields() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    let text = r#"[
  {"event": "view_recs_list", "event_apikey": "k", "event_list_id": "L",
   "event_tags": ["recsPageType:HOME"], "event_list_name": "N", "event_list_logic": "SIMILAR",
   "x_experiment": "B", "user_profile": {"ip_address": "10.0.0.1", "segment": "gold"},
   "items": [
 {"item_id": "1-a", "item_group_id": "1", "item_variant_id": "a", "item_name": "One",
  "price": "1.00", "currency": "EUR", "item_brand": "b", "item_category": "c", "index": 1,
  "item_color": "red"},
 {"item_id": "2-b", "item_group_id": "2", "item_variant_id": "b", "item_name": "Two",
  "price": "2.00", "currency": "EUR", "item_brand": "b", "item_category": "c", "index": 2}
   ]},
  {"event": "select_recs_list", "event_apikey": "k", "event_list_id": "L",
   "event_tags": ["recsPageType:HOME"], "event_list_name": "N", "event_list_logic": "SIMILAR",
   "x_click_source": "email",
   "items": [{"item_id": "1-a", "item_group_id": "1", "item_variant_id": "a", "item_name": "One",
  "price": "1.00", "currency": "EUR", "item_brand": "b", "item_category": "c", "index": 1,
  "item_color": "red"}]},
  {"event": "custom_event", "foo": 1}
]"#;
    update(&mut s, ctrl('p'));
    assert_eq!(s.mode, Mode::Raw);
    s.raw = BodyEditor::new(text);
    update(&mut s, key(KeyCode::Char(' '))); // an edit refreshes
    let fx = update(&mut s, ctrl('p'));
    assert_eq!(s.mode, Mode::Form, "{fx:?}");
    assert!(s.draft.items[0].clicked);
    // Edit in the form: the unknown members stay, and follow their item when moved.
    s.focus = Focus::Items;
    s.row = 0;
    update(&mut s, key(KeyCode::Char('J')));
    let v = batch(&s);
    assert_eq!(v[0]["x_experiment"], "B");
    assert_eq!(v[0]["user_profile"]["segment"], "gold");
    assert_eq!(v[0]["user_profile"]["ip_address"], "10.0.0.1");
    assert_eq!(v[0]["items"][1]["item_id"], "1-a");
    assert_eq!(v[0]["items"][1]["index"], 2);
    assert_eq!(v[0]["items"][1]["item_color"], "red");
    assert!(v[0]["items"][0].get("item_color").is_none());
    assert_eq!(v[1]["x_click_source"], "email");
    assert_eq!(v[1]["items"][0]["item_color"], "red");
    assert_eq!(v[2], serde_json::json!({"event": "custom_event", "foo": 1}));
    // And back to raw: the text contains them too.
    update(&mut s, ctrl('p'));
    assert!(s.raw.text().contains("\"item_color\": \"red\""));
}

#[test]
fn broken_raw_json_keeps_raw_mode_and_reports_syntax_with_position() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    update(&mut s, ctrl('p'));
    s.raw = BodyEditor::new("[\n  {\"event\": }\n]");
    update(&mut s, key(KeyCode::Char(' ')));
    assert!(s.problems.iter().any(|p| p.code == "JSON_SYNTAX"));
    let fx = update(&mut s, ctrl('p'));
    assert_eq!(s.mode, Mode::Raw, "refuses to leave: nothing lost");
    assert!(said(&fx).contains("does not parse"), "{fx:?}");
    let lines: Vec<&str> = s.raw.text().lines().collect();
    assert_eq!(lines[1], "  {\"event\": }");
    assert_eq!(lines[0], " [");
    // Selecting the problem puts the cursor on it.
    s.focus = Focus::Problems;
    update(&mut s, key(KeyCode::Enter));
    assert_eq!(s.focus, Focus::Raw);
    assert_eq!(s.raw.cursor_line(), 1);
    let at = s.raw.cursor_offset();
    assert_eq!(
        &s.raw.text()[at..at + 1],
        "}",
        "on the column the problem names"
    );
}

#[test]
fn send_posts_the_preview_bytes_and_fetches_what_the_local_collector_stored() {
    let mut s = three_items();
    update(
        &mut s,
        EventsMsg::SetTarget {
            analytics_url: "http://127.0.0.1:4000/".into(),
            api_key: "demo-public-key".into(),
            local: true,
        },
    );
    let effects = update(&mut s, ctrl('g'));
    assert!(
        said(&effects).ends_with("to http://127.0.0.1:4000/analytics/collect…"),
        "{effects:?}"
    );
    assert_eq!(
        work(effects),
        vec![EventsEffect::SendEvents {
            analytics_url: "http://127.0.0.1:4000/".into(),
            body: Bytes::from(s.batch_text().to_string()),
        }]
    );
    assert_eq!(s.collect_url(), "http://127.0.0.1:4000/analytics/collect");
    let effects = update(
        &mut s,
        EventsMsg::Sent(Ok(SendReport {
            status: 200,
            body: r#"{"accepted":1,"rejected":0}"#.into(),
            elapsed_ms: 3,
        })),
    );
    assert!(said(&effects).contains("200"), "{effects:?}");
    assert_eq!(
        work(effects),
        vec![EventsEffect::FetchStored {
            url: "http://127.0.0.1:4000/_inspect/events?limit=1".into()
        }]
    );
}

/// The title said "(1 events)".
#[test]
fn the_preview_title_counts_one_event_in_the_singular() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    assert_eq!(s.preview_events, 1, "a new list is one view event");
    let screen = render(&mut s, 120, 30);
    assert!(screen.contains("Batch preview (1 event)"), "{screen}");
}

/// Ctrl-E used to replace any file at the typed path without a word.
#[test]
fn saving_over_an_existing_file_asks_first() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    update(&mut s, ctrl('s'));
    update(&mut s, ctrl('u'));
    type_text(&mut s, "/home/me/notes.txt");
    let path = PathBuf::from("/home/me/notes.txt");
    let effects = update(&mut s, key(KeyCode::Enter));
    assert_eq!(
        effects,
        vec![EventsEffect::SaveNewFile(
            path.clone(),
            s.batch_text().to_string()
        )]
    );
    // The runtime found a file there: the prompt comes back, and the status line says so.
    let fx = update(&mut s, EventsMsg::FileExists(path.clone()));
    let screen = render(&mut s, 160, 40);
    let footer = screen
        .lines()
        .find(|l| l.contains("Save batch to:"))
        .expect("the save prompt");
    assert!(footer.contains("/home/me/notes.txt"), "{footer}");
    assert_eq!(
        said(&fx),
        "/home/me/notes.txt already exists; Enter replaces it, Esc keeps it."
    );
    // Esc keeps the file; asking again asks again.
    update(&mut s, key(KeyCode::Esc));
    update(&mut s, ctrl('s'));
    update(&mut s, ctrl('u'));
    type_text(&mut s, "/home/me/notes.txt");
    assert!(matches!(
        update(&mut s, key(KeyCode::Enter)).as_slice(),
        [EventsEffect::SaveNewFile(..)]
    ));
    // Enter after the warning replaces it.
    update(&mut s, EventsMsg::FileExists(path.clone()));
    assert_eq!(
        update(&mut s, key(KeyCode::Enter)),
        vec![EventsEffect::SaveFile(
            path.clone(),
            s.batch_text().to_string()
        )]
    );
    // The file saved to in this session is replaced without asking.
    update(&mut s, EventsMsg::FileSaved(path.clone()));
    update(&mut s, ctrl('s'));
    assert!(matches!(
        update(&mut s, key(KeyCode::Enter)).as_slice(),
        [EventsEffect::SaveFile(p, _)] if *p == path
    ));
}

#[test]
fn load_and_save_go_through_a_path_prompt() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    update(&mut s, ctrl('s'));
    assert!(s.is_text_input_focused());
    update(&mut s, ctrl('u'));
    type_text(&mut s, "/tmp/b.json");
    let effects = update(&mut s, key(KeyCode::Enter));
    assert_eq!(
        effects,
        vec![EventsEffect::SaveNewFile(
            PathBuf::from("/tmp/b.json"),
            s.batch_text().to_string()
        )]
    );
    let fx = update(&mut s, EventsMsg::FileSaved(PathBuf::from("/tmp/b.json")));
    assert!(said(&fx).contains("/tmp/b.json"), "{fx:?}");
    update(&mut s, ctrl('o'));
    let effects = update(&mut s, key(KeyCode::Enter));
    assert_eq!(
        effects,
        vec![EventsEffect::LoadFile(PathBuf::from("/tmp/b.json"))]
    );
    update(
        &mut s,
        EventsMsg::FileLoaded {
            path: "/tmp/b.json".into(),
            text: "{not json".into(),
        },
    );
    assert_eq!(s.mode, Mode::Raw, "unparsable file lands in the raw editor");
    assert_eq!(s.raw.text().lines().next(), Some("{not json"));
}

/// The view as the workbench draws it on a `w`x`h` screen (the one fixture, `TestApp`).
pub(super) fn shown(state: &mut EventsState, w: u16, h: u16) -> ratatui::buffer::Buffer {
    let slot: fn(&mut crate::tui::app::App) -> &mut EventsState = |a| &mut a.events;
    crate::tui::test_util::component_buffer(w, h, crate::tui::layout::View::Events, slot, state)
}

/// [`shown`] as text, one line per row.
pub(super) fn render(state: &mut EventsState, w: u16, h: u16) -> String {
    crate::tui::test_util::buffer_lines(&shown(state, w, h)).join("\n")
}

#[test]
fn draws_form_items_preview_and_response_at_80x24_and_120x40() {
    let mut s = three_items();
    s.row = 1;
    update(&mut s, key(KeyCode::Char(' ')));
    update(
        &mut s,
        EventsMsg::Sent(Ok(SendReport {
            status: 200,
            body: r#"{"accepted":2,"rejected":0}"#.into(),
            elapsed_ms: 4,
        })),
    );
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = render(&mut s, w, h);
        assert!(screen.contains("Items (3, 1 clicked)"), "{w}x{h}\n{screen}");
        assert!(screen.contains("1002"), "{w}x{h}\n{screen}");
        assert!(screen.contains("[x]"), "{w}x{h}\n{screen}");
        assert!(
            screen.contains("Batch preview (2 events)"),
            "{w}x{h}\n{screen}"
        );
        assert!(screen.contains("view_recs_list"), "{w}x{h}\n{screen}");
        assert!(
            screen.contains("HTTP 200  accepted: 2  rejected: 0"),
            "{w}x{h}\n{screen}"
        );
        assert!(screen.contains("\"accepted\": 2"), "{w}x{h}\n{screen}");
        assert!(screen.contains("List id"), "{w}x{h}\n{screen}");
        if std::env::var("SHOW").is_ok() {
            println!("{screen}");
        }
    }
}

#[test]
fn a_long_list_scrolls_to_the_selected_row_and_the_preview_scrolls() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    s.focus = Focus::Items;
    for _ in 0..30 {
        update(&mut s, key(KeyCode::Char('y')));
    }
    s.row = 29;
    s.draft.items[29].group_id = "LAST".into();
    s.refresh();
    let screen = render(&mut s, 120, 40);
    assert!(screen.contains("LAST-1"), "{screen}");
    assert!(screen.contains("│[ "), "{screen}");
    update(&mut s, key(KeyCode::PageDown));
    let screen = render(&mut s, 120, 40);
    assert!(
        !screen.contains("│[ "),
        "scrolled past the opening bracket\n{screen}"
    );
}

#[test]
fn draws_raw_mode_and_problems() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    update(&mut s, ctrl('p'));
    s.raw = BodyEditor::new("[\n  {\"event\": }\n]");
    update(&mut s, key(KeyCode::Char(' ')));
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = render(&mut s, w, h);
        assert!(screen.contains("Batch JSON (raw"), "{w}x{h}\n{screen}");
        assert!(screen.contains("{\"event\": }"), "{w}x{h}\n{screen}");
        assert!(screen.contains("1 error,"), "{w}x{h}\n{screen}");
    }
}

#[test]
fn the_starter_list_is_valid_and_a_bad_currency_is_reported_and_jumped_to() {
    let mut s = EventsState::new("http://127.0.0.1:9", "demo-public-key");
    let errors: Vec<_> = s
        .problems
        .iter()
        .filter(|p| p.level == Level::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    s.focus = Focus::Items;
    update(&mut s, key(KeyCode::Char('y'))); // duplicate row 0 -> row 1
    s.col = Column::Currency;
    update(&mut s, key(KeyCode::Enter));
    update(&mut s, key(KeyCode::Backspace));
    update(&mut s, key(KeyCode::Backspace));
    update(&mut s, key(KeyCode::Backspace));
    for c in "eu".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    update(&mut s, key(KeyCode::Enter));
    let idx = s
        .problems
        .iter()
        .position(|p| p.path == "[0].items[1].currency")
        .unwrap_or_else(|| panic!("{:?}", s.problems));
    s.focus = Focus::Problems;
    s.row = 0;
    s.col = Column::GroupId;
    for _ in 0..idx {
        update(&mut s, key(KeyCode::Down));
    }
    update(&mut s, key(KeyCode::Enter));
    assert_eq!((s.focus, s.row, s.col), (Focus::Items, 1, Column::Currency));
}

/// Ctrl-B switches the composer's batch between the flat and the nested shape, every value
/// kept: the nested batch holds the same list and items under `event_data`, and switching back
/// gives the same flat batch; a click (select event) switches too.
#[test]
fn ctrl_b_switches_the_shape_keeping_every_value() {
    let mut s = three_items();
    update(&mut s, key(KeyCode::Char(' '))); // the selected item clicked
    s.focus = Focus::Field(Field::ListId);
    let flat = batch(&s);
    assert!(flat[0].get("event_data").is_none());
    let flat_problems = s.problems.len();
    let fx = update(&mut s, ctrl('b'));
    assert_eq!(s.shape(), ev::Shape::Nested);
    assert!(said(&fx).contains("nested shape"), "{fx:?}");
    let nested = batch(&s);
    for (f, n) in flat
        .as_array()
        .unwrap()
        .iter()
        .zip(nested.as_array().unwrap())
    {
        assert_eq!(n["event"], f["event"]);
        assert_eq!(n["event_version"], "1.0.0");
        assert_eq!(n["event_apikey"], f["event_apikey"]);
        assert_eq!(n["event_data"]["list_id"], f["event_list_id"]);
        assert_eq!(n["event_data"]["items"], f["items"]);
        assert!(n.get("event_list_id").is_none());
    }
    assert_eq!(nested.as_array().unwrap().len(), 2, "view and click");
    // The problems are the same, with the paths of the nested batch.
    assert_eq!(s.problems.len(), flat_problems);
    assert!(
        s.problems
            .iter()
            .all(|p| p.path.contains("event_data.items")),
        "{:?}",
        s.problems
    );
    update(&mut s, ctrl('b'));
    assert_eq!(batch(&s), flat);
    // In raw mode the text is the user's: the key says where the switch is.
    update(&mut s, ctrl('p'));
    let fx = update(&mut s, ctrl('b'));
    assert!(said(&fx).contains("Ctrl-P back"), "{fx:?}");
}

/// Off screen (a profile's target arriving before the workbench's first frame) a changed batch
/// goes to the worker instead of being validated inside `update`; opening the view validates it.
#[test]
fn off_screen_a_changed_batch_is_validated_by_the_worker_or_when_the_view_opens() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    let target = EventsMsg::SetTarget {
        analytics_url: "http://127.0.0.1:4000/".into(),
        api_key: "key-of-the-profile".into(),
        local: true,
    };
    let effects = update_on_screen(&mut s, target, false);
    assert!(s.validating(), "not validated inline");
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, EventsEffect::Validate(j) if j.rev == s.rev())),
        "{effects:?}"
    );
    assert!(!s.batch_text().contains("key-of-the-profile"));
    s.opened();
    assert!(!s.validating());
    assert!(
        s.batch_text().contains("\"key-of-the-profile\""),
        "{}",
        s.batch_text()
    );
}

/// A batch too large to validate inside `update` is not validated when the view opens either:
/// it stays "validating…" until the worker answers, so opening the view never runs the whole
/// validation on the draw path.
#[test]
fn opening_the_view_leaves_a_large_batch_to_the_worker() {
    let mut s = EventsState::new("http://127.0.0.1:9", "k");
    s.inline_max_items = 0;
    let target = EventsMsg::SetTarget {
        analytics_url: "http://127.0.0.1:4000/".into(),
        api_key: "key-of-the-profile".into(),
        local: true,
    };
    update_on_screen(&mut s, target, false);
    s.opened();
    assert!(s.validating(), "left to the worker");
    assert!(!s.batch_text().contains("key-of-the-profile"));
}
