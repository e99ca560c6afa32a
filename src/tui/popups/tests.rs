//! The popups through the one `TestApp` fixture, read at 80x24: the operation and copy-as-code
//! pickers are the one list (`/` filter, Esc clears it, Enter picks what it shows, digits pick
//! the row numbered so, a click selects and a click on the selection picks).

use crossterm::event::KeyCode;

use crate::tui::component::Clip;
use crate::tui::effect::Command;
use crate::tui::test_util::TestApp;

/// The program `cmds` copied, by its name ("the ruby program (sign.rb; …").
fn copied(cmds: &[Command]) -> String {
    match cmds {
        [Command::Copy(Clip { what, .. })] => what.clone(),
        other => panic!("expected one copy: {other:?}"),
    }
}

#[test]
fn slash_filters_the_operations_picker_esc_clears_and_enter_sets_what_it_shows() {
    let mut t = TestApp::new(80, 24);
    t.alt('o');
    t.assert_line("Indexing operations (the SDK's) (6) · / filter");
    // Single letters are the list's keys (j moves) until `/` opens the filter.
    t.type_str("/colour del");
    t.assert_line("(1 of 6) · filter: colour del▏");
    t.assert_line("1 DELETE /v2/attributes/colour");
    t.assert_no_line("PATCH");
    // Esc clears the filter and keeps the picker open.
    t.press(KeyCode::Esc);
    t.assert_line("Indexing operations (the SDK's) (6)");
    t.assert_line("PATCH  /v2/batch");
    t.type_str("/colour del");
    t.press(KeyCode::Enter); // keeps the filter, gives the keys back to the list
    t.assert_line("(1 of 6) · filter: colour del ");
    t.assert_no_line("▏");
    t.press(KeyCode::Enter);
    assert_eq!(t.popup, None);
    assert_eq!(
        (t.request.method.text(), t.request.path.text()),
        ("DELETE", "/v2/attributes/colour")
    );
    // Esc with no filter closes without changing the request.
    t.alt('o');
    t.press(KeyCode::Esc);
    assert_eq!(t.popup, None);
    assert_eq!(t.request.path.text(), "/v2/attributes/colour");
}

#[test]
fn slash_filters_the_copy_as_code_picker_and_enter_or_its_digit_copies_what_it_shows() {
    let mut t = TestApp::new(80, 24);
    t.sign_now();
    t.alt('p');
    t.assert_line("Copy as code (8) · / filter");
    t.type_str("/ruby");
    t.assert_line("Copy as code (1 of 8) · filter: ruby▏");
    t.assert_no_line("python");
    t.press(KeyCode::Esc);
    t.assert_line("1 python  sign.py");
    t.type_str("/ruby");
    t.press(KeyCode::Enter);
    let what = copied(&t.press(KeyCode::Enter));
    assert!(what.starts_with("the ruby program (sign.rb"), "{what}");
    assert_eq!(t.popup, None);
    // The digits number the rows shown: after the filter, 1 is the one row it shows.
    t.alt('p');
    t.type_str("/shell");
    t.assert_line("1 shell   sign.sh");
    t.press(KeyCode::Enter);
    let what = copied(&t.type_str("1"));
    assert!(what.starts_with("the shell program (sign.sh"), "{what}");
    // While the filter is typed, a digit is typed into it.
    t.alt('p');
    t.type_str("/2");
    t.assert_line("filter: 2▏");
    assert!(t.popup.is_some());
}

#[test]
fn a_click_selects_a_picker_row_and_a_click_on_the_selection_picks_it() {
    let mut t = TestApp::new(80, 24);
    t.alt('o');
    let (x, y) = t.find("PATCH  /v2/batch").expect("the PATCH row");
    t.click(x, y);
    // Selected, not picked yet.
    assert!(t.popup.is_some());
    assert_eq!(t.request.method.text(), "PUT");
    t.click(x, y);
    assert_eq!(t.popup, None);
    assert_eq!(
        (t.request.method.text(), t.request.path.text()),
        ("PATCH", "/v2/batch")
    );
}

/// The copy menu at 80 columns: the longest description ("... (pick one of 8 languages)") was
/// cut at the box's edge; it wraps under itself.
#[test]
fn the_copy_menu_wraps_a_description_too_long_for_80_columns() {
    let mut t = TestApp::new(80, 24);
    t.alt('y');
    t.assert_line(" p  copy the request being edited as a program that signs it");
    t.assert_line("    languages)");
    t.assert_line("one letter copies · Esc cancels");
}

/// The command palette at 80x24 lists more than it shows: PageDown / PageUp move a page (the
/// row seen last seen again), End and Home the last and first entry, the selection stays on
/// screen, and the title says where it is ("n/m"); Enter runs the entry shown selected.
#[test]
fn the_palette_pages_and_says_where_the_selection_is() {
    use crate::tui::app::Popup;
    let mut t = TestApp::new(80, 24);
    t.ctrl('k');
    let n = crate::tui::palette::entries(t.view, &t.profiles).len();
    assert!(n > 20, "more entries than rows: {n}");
    t.assert_line(&format!("· 1/{n} "));
    let selected = |t: &TestApp| match &t.popup {
        Some(Popup::Palette(p)) => p.picker.list.selected,
        other => panic!("{other:?}"),
    };
    // The entries on screen, by their rows as the palette writes them.
    let entries = crate::tui::palette::entries(t.view, &t.profiles);
    let name_w = entries.iter().map(|e| e.name.len()).max().unwrap();
    let rows: Vec<String> = entries
        .iter()
        .map(|e| {
            format!("{:<name_w$}  {}", e.name, e.keys)
                .trim_end()
                .chars()
                .take(60)
                .collect()
        })
        .collect();
    let shown = |t: &mut TestApp| -> Vec<usize> {
        let screen = t.screen();
        (0..rows.len())
            .filter(|&i| screen.contains(&rows[i]))
            .collect()
    };
    let before = shown(&mut t);
    t.press(KeyCode::PageDown);
    let page = selected(&t);
    assert!(page >= 10, "a page, not a row: {page}");
    t.assert_line(&format!("· {}/{n} ", page + 1));
    // The page's selection is on screen, and the last row seen before is still seen.
    let after = shown(&mut t);
    assert!(after.contains(&page), "{after:?}");
    let last_before = *before.last().unwrap();
    assert!(
        after.contains(&last_before),
        "nothing skipped: {before:?} {after:?}"
    );
    t.press(KeyCode::End);
    assert_eq!(selected(&t), n - 1);
    t.assert_line(&format!("· {n}/{n} "));
    assert!(shown(&mut t).contains(&(n - 1)));
    t.press(KeyCode::PageUp);
    assert_eq!(selected(&t), n - 1 - page);
    t.press(KeyCode::Home);
    assert_eq!(selected(&t), 0);
    t.assert_line(&format!("· 1/{n} "));
}

/// The message log (Alt-M) wraps a long message at spaces: every word of it is whole on one
/// row at 80 columns (the demo note's "History" was cut "Hi" / "story").
#[test]
fn the_message_log_wraps_at_words() {
    let mut t = TestApp::new(80, 24);
    let note = crate::tui::demo_note();
    t.say(note.clone());
    t.alt('m');
    let screen = t.screen();
    for word in note.split(' ') {
        assert!(screen.contains(word), "{word:?} is cut:\n{screen}");
    }
}

/// The command palette is a searching picker: every key typed goes to its filter, digits and
/// `q` included (no row is picked by its digit, `q` does not close it), Backspace on an empty
/// filter keeps it open, the words may be in an entry's name or its keys, and a click on the
/// selected row runs it.
#[test]
fn the_palette_filters_on_every_key_typed_and_a_click_on_its_selection_runs_it() {
    use crate::tui::app::Popup;
    let mut t = TestApp::new(80, 24);
    t.sign_now();
    t.ctrl('k');
    let open = |t: &TestApp| matches!(t.popup, Some(Popup::Palette(_)));
    assert!(t.press(KeyCode::Backspace).is_empty() && open(&t));
    assert!(t.type_str("q1").is_empty() && open(&t));
    t.assert_line("> q1");
    t.press(KeyCode::Backspace);
    t.press(KeyCode::Backspace);
    // "alt-y" is in the copies' keys, "curl" in one name.
    t.type_str("alt-y curl");
    t.assert_line("· 1/1 ");
    let (x, y) = t.find("copy the request as curl").expect("the entry");
    let cmds = t.click(x, y);
    assert!(!open(&t), "the click ran it");
    assert!(
        matches!(cmds.as_slice(), [Command::Copy(Clip { text, .. })] if text.starts_with("curl ")),
        "{cmds:?}"
    );
}
