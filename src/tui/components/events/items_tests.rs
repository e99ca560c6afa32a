//! The items table through the one fixture (`TestApp`, 80x24, keys as a user presses them):
//! adding, deleting and undoing, editing a cell with the preview following, and the `/` filter.

use crossterm::event::KeyCode;

use super::state::Focus;
use crate::tui::test_util::TestApp;

/// The Events view at 80x24 with the items table focused (the starter batch: one item, 1001).
fn on_items() -> TestApp {
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(3));
    t.events.focus = Focus::Items;
    t
}

fn group_ids(t: &TestApp) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(t.events.batch_text()).expect("JSON");
    v[0]["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["item_group_id"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_adds_a_row_and_the_keys_after_it_are_the_tables_not_typed_into_it() {
    let mut t = on_items();
    t.type_str("a");
    assert_eq!(group_ids(&t), ["1001", ""]);
    // `k` moves back up (it is not typed into the new row), `l` goes right.
    t.type_str("kl");
    assert_eq!(group_ids(&t), ["1001", ""]);
    assert_eq!(t.events.row, 0);
    // Enter edits the new row's cell.
    t.type_str("j");
    t.press(KeyCode::Char('h'));
    t.press(KeyCode::Enter);
    t.type_str("2002");
    t.press(KeyCode::Enter);
    assert_eq!(group_ids(&t), ["1001", "2002"]);
}

#[test]
fn d_is_undone_with_ctrl_z_and_redone_with_ctrl_y() {
    let mut t = on_items();
    t.type_str("a");
    t.press(KeyCode::Enter);
    t.type_str("2002");
    t.press(KeyCode::Enter);
    t.type_str("k");
    t.type_str("d");
    assert_eq!(group_ids(&t), ["2002"]);
    t.assert_line("Ctrl-Z brings it back");
    t.ctrl('z');
    assert_eq!(group_ids(&t), ["1001", "2002"]);
    assert_eq!(t.events.row, 0, "the selection is back on the item");
    t.assert_line("Example product");
    t.ctrl('y');
    assert_eq!(group_ids(&t), ["2002"]);
    t.ctrl('z');
    // Further back: the cell edit, then the add.
    t.ctrl('z');
    assert_eq!(group_ids(&t), ["1001", ""]);
    t.ctrl('z');
    assert_eq!(group_ids(&t), ["1001"]);
    t.ctrl('z');
    t.assert_line("Nothing to undo in the items.");
}

#[test]
fn a_cell_edit_shows_in_the_preview_as_it_is_typed_and_esc_puts_it_back() {
    let mut t = on_items();
    // The name column: Right twice from the group id.
    t.type_str("ll");
    t.press(KeyCode::Enter);
    t.press(KeyCode::End);
    t.type_str(" XL");
    // Not yet confirmed: the batch that would be sent, and the preview on screen, have it.
    assert!(
        t.events.batch_text().contains("\"Example product XL\""),
        "{}",
        t.events.batch_text()
    );
    // The preview pane shows the item's name on a taller screen.
    t.resize(80, 60);
    t.assert_line("\"item_name\": \"Example product XL\"");
    t.press(KeyCode::Esc);
    assert!(
        !t.events.batch_text().contains("XL"),
        "{}",
        t.events.batch_text()
    );
    t.assert_no_line("XL\"");
}

#[test]
fn slash_filters_the_items_and_esc_clears() {
    let mut t = on_items();
    for g in ["2002", "3003"] {
        t.type_str("a");
        t.press(KeyCode::Enter);
        t.type_str(g);
        t.press(KeyCode::Enter);
    }
    t.assert_line("Items (3, 0 clicked)");
    t.type_str("/3003");
    t.assert_line("filter: 3003▏");
    let s = t.screen();
    assert!(s.contains("3003") && !s.contains(" 2002 "), "{s}");
    // Enter keeps the filter; `d` is the table's again and deletes the one item shown.
    t.press(KeyCode::Enter);
    t.assert_line("filter: 3003 · Esc clears");
    assert_eq!(t.events.row, 2);
    t.press(KeyCode::Esc);
    t.assert_no_line("filter:");
    t.assert_line(" 2002 ");
    assert_eq!(group_ids(&t), ["1001", "2002", "3003"]);
}

/// Alt-B: the form's products as one `order_purchase` event, as the PHP SDK's CollectService
/// sends an order (the model `signscope events new --kind order_purchase` prints); what is
/// previewed, validated and sent; Alt-B again goes back to the list.
#[test]
fn alt_b_writes_the_products_as_one_order_purchase_event_and_back() {
    let mut t = on_items();
    t.alt('b');
    let v: serde_json::Value = serde_json::from_str(t.events.batch_text()).expect("JSON");
    let expected = t
        .events
        .draft
        .to_order_json(crate::core::events::compose::ORDER_ID_PLACEHOLDER);
    assert_eq!(v, expected);
    assert_eq!(v[0]["event"], "order_purchase");
    assert_eq!(
        v[0]["event_data"]["items"][0]["item_name"],
        "Example product"
    );
    assert_eq!(v[0]["event_data"]["items"][0]["unit_price"], "19.90");
    // Judged by the order rules (E19-E20): only the empty API key is wrong.
    let errors: Vec<&str> = t
        .events
        .problems
        .iter()
        .filter(|p| p.level == crate::core::events::Level::Error)
        .map(|p| p.path.as_str())
        .collect();
    assert_eq!(errors, ["[0].event_apikey"], "{:?}", t.events.problems);
    t.assert_line("Order (order_purchase)");
    // An item added to the form is a line of the order.
    t.type_str("a");
    let v: serde_json::Value = serde_json::from_str(t.events.batch_text()).expect("JSON");
    assert_eq!(
        v[0]["event_data"]["items"].as_array().map(Vec::len),
        Some(2)
    );
    t.alt('b');
    let v: serde_json::Value = serde_json::from_str(t.events.batch_text()).expect("JSON");
    assert_eq!(v[0]["event"], "view_recs_list");
    t.assert_no_line("order_purchase");
}

/// "Item deleted: Ctrl-Z brings it back." stayed on the status line through later edits, and
/// so did a message of another view: the next edit of the batch takes it off the line (the
/// message log keeps it); a key that edits nothing leaves it.
#[test]
fn an_edit_takes_a_stale_message_off_the_status_line() {
    let mut t = on_items();
    t.type_str("aa");
    t.press(KeyCode::Char('x'));
    assert!(t.status.contains("Item deleted"), "{}", t.status);
    // Moving is no edit: the hint still holds.
    t.press(KeyCode::Up);
    assert!(t.status.contains("Item deleted"), "{}", t.status);
    // An edit of a field: the undo hint is stale.
    t.events.focus = Focus::Field(super::state::Field::ListName);
    t.type_str("x");
    assert!(!t.status.contains("Item deleted"), "{}", t.status);
    t.assert_no_line("Item deleted");
    assert!(t.log.iter().any(|m| m.contains("Item deleted")));
    // A message of another view, then a duplicate (`y`, which says nothing itself).
    t.app
        .say("wrote /tmp/traffic.har (2245 bytes of HAR)".into());
    t.events.focus = Focus::Items;
    t.press(KeyCode::Char('y'));
    assert!(!t.status.contains("traffic.har"), "{}", t.status);
    // An edit that says something: its own sentence is shown.
    t.press(KeyCode::Char('x'));
    assert!(t.status.contains("Item deleted"), "{}", t.status);
}

/// Typing in a field while the preview was scrolled elsewhere left the change out of sight:
/// an edit brings the line the field writes onto the preview; scrolling (no edit) is left as
/// it is.
#[test]
fn the_preview_shows_the_line_of_the_field_being_edited() {
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(3));
    t.events.focus = Focus::Field(super::state::Field::ListName);
    for _ in 0..10 {
        t.press(KeyCode::PageDown);
    }
    t.assert_no_line("\"event_list_name\"");
    let scrolled = t.events.preview_scroll;
    assert!(scrolled > 0);
    t.type_str("Z");
    let row = t.assert_line("\"event_list_name\"");
    assert!(row.contains("Z\""), "{row}");
    // Scrolling away again is not undone without an edit.
    for _ in 0..10 {
        t.press(KeyCode::PageDown);
    }
    t.assert_no_line("\"event_list_name\"");
    // Tags: their line too.
    t.events.focus = Focus::Field(super::state::Field::Tags);
    t.type_str(",a:b");
    t.assert_line("\"event_tags\"");
}
