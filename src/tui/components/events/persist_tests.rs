//! The batch is the user's: a loaded batch keeps its exact bytes (a member written twice stays,
//! and is reported as `signscope events validate` reports it), and the batch is saved with the
//! profile and counted in the unsaved-edits questions (through the whole `update`, TestApp).

use crossterm::event::KeyCode;

use super::*;
use crate::core::events as ev;
use crate::tui::app::Popup;
use crate::tui::effect::Command;
use crate::tui::layout::View;
use crate::tui::message::Message;
use crate::tui::test_util::TestApp;

const MISTAKES: &str = include_str!("../../../../assets/events/mistakes.json");

fn errors(problems: &[ev::Problem]) -> usize {
    problems
        .iter()
        .filter(|p| p.level == ev::Level::Error)
        .count()
}

fn load(a: &mut TestApp, text: &str) {
    a.update(Message::Events(EventsMsg::FileLoaded {
        path: "batch.json".into(),
        text: text.into(),
    }));
}

#[test]
fn a_member_written_twice_stays_and_counts_as_the_cli_counts_it() {
    let mut a = TestApp::new(120, 40);
    load(&mut a, MISTAKES);
    let cli = ev::validate_bytes(MISTAKES.as_bytes());
    assert_eq!(errors(&cli.problems), 16, "the file's own count");
    assert_eq!(errors(&a.events.problems), 16, "{}", a.status);
    assert!(a
        .events
        .problems
        .iter()
        .any(|p| p.code == ev::codes::DUPLICATE_FIELD && p.path == "[0].items[3].price"));
    // Sent (and copied, and saved) as written.
    assert_eq!(a.events.batch_text(), MISTAKES);
    assert_eq!(a.events.mode, Mode::Raw);
    assert!(
        a.status.contains("[0].items[3].price is written twice"),
        "{}",
        a.status
    );
}

#[test]
fn a_batch_the_form_shows_keeps_its_bytes_until_it_is_edited() {
    let mut a = TestApp::new(120, 40);
    let compact = r#"[{"event":"view_recs_list","event_apikey":"k","event_list_id":"L","event_list_name":"N","event_list_logic":"TRENDING","event_tags":["recsPageType:HOME"],"items":[{"item_id":"A-1","item_group_id":"A","item_variant_id":"1","item_name":"P","price":"1.00","currency":"EUR","item_brand":"b","item_category":"c","index":1}]}]"#;
    load(&mut a, compact);
    assert_eq!(a.events.mode, Mode::Form);
    assert_eq!(
        a.events.batch_text(),
        compact,
        "byte for byte, not re-printed"
    );
    // An edit: the form's batch from then on.
    a.events.focus = Focus::Field(Field::ListName);
    a.update(Message::Events(EventsMsg::Key(
        crossterm::event::KeyEvent::new(KeyCode::Char('x'), crossterm::event::KeyModifiers::NONE),
    )));
    assert_ne!(a.events.batch_text(), compact);
    assert!(a
        .events
        .batch_text()
        .contains("\"event_list_name\": \"Nx\""));
}

fn saved_events(cmds: &[Command]) -> Option<Option<String>> {
    cmds.iter().find_map(|c| match c {
        Command::SaveProfile(s) => Some(s.events.clone()),
        _ => None,
    })
}

#[test]
fn an_edited_batch_is_asked_about_and_saved_with_the_profile() {
    let mut a = TestApp::new(120, 40);
    a.profile.is_demo = false;
    a.profile.name = "shop".into();
    assert!(!a.unsaved());
    // Nothing edited: a save leaves the profile's batch alone.
    assert_eq!(saved_events(&a.ctrl('s')), Some(None));
    a.update(Message::ProfileSaved(Ok("shop".into())));

    load(&mut a, MISTAKES);
    assert!(
        a.unsaved(),
        "a batch loaded into the view is not the profile's yet"
    );
    // Quitting asks.
    a.view = View::Events;
    a.ctrl('q');
    assert_eq!(a.popup, Some(Popup::ConfirmQuit(Default::default())));
    a.press(KeyCode::Esc);
    assert!(!a.quit);
    // Switching profile asks.
    a.update(Message::ProfileList(Ok(vec!["demo".into(), "shop".into()])));
    a.press(KeyCode::Up);
    let cmds = a.press(KeyCode::Enter);
    assert!(cmds.is_empty(), "{cmds:?}");
    assert!(matches!(a.popup, Some(Popup::ConfirmLoad(_))));
    // s: saved (with the batch, as loaded), then the load.
    let cmds = a.press(KeyCode::Char('s'));
    assert_eq!(saved_events(&cmds), Some(Some(MISTAKES.to_string())));
    let after = a.update(Message::ProfileSaved(Ok("shop".into())));
    assert!(!a.unsaved());
    assert!(matches!(after.as_slice(), [Command::LoadProfile(n)] if n == "demo"));
}

#[test]
fn a_failed_save_keeps_the_batch_unsaved() {
    let mut a = TestApp::new(120, 40);
    a.profile.is_demo = false;
    load(&mut a, "[]");
    // (A file loads into the Events view, where Ctrl-S writes a file: the profile is saved
    // from the Request view.)
    a.press(KeyCode::F(2));
    let cmds = a.ctrl('s');
    assert_eq!(saved_events(&cmds), Some(Some("[]".into())));
    a.update(Message::ProfileSaved(Err("disk full".into())));
    assert!(a.unsaved());
}

/// File prompts lost the typed path on a read error (the prompt closed; Ctrl-O started empty),
/// and the Ctrl-S prompt's prefilled `batch.json` had the cursor after it, so a typed path was
/// appended (`batch.json/tmp/x.json`). At 80x24: the error comes back with the path in the
/// prompt to fix, and the first character typed replaces a prefilled path.
#[test]
fn file_prompts_keep_the_typed_path_on_error_and_typing_replaces_a_prefilled_one() {
    let mut a = TestApp::new(80, 24);
    a.press(KeyCode::F(3));
    a.ctrl('o');
    a.type_str("/tmp/nope.json");
    a.press(KeyCode::Enter);
    a.update(Message::Events(EventsMsg::FileError(
        "cannot read /tmp/nope.json: No such file or directory (os error 2)".into(),
    )));
    a.assert_line("Load batch from: /tmp/nope.json");
    assert!(
        a.status.contains("fix the path and press Enter"),
        "{}",
        a.status
    );
    // Fixed in place: Backspace edits the path kept.
    a.press(KeyCode::Backspace);
    a.assert_line("Load batch from: /tmp/nope.jso ");
    a.press(KeyCode::Esc);

    // Ctrl-S: prefilled, shown as replaced by typing.
    a.ctrl('s');
    let cwd = std::env::current_dir().unwrap();
    let offered = cwd.join("batch.json").display().to_string();
    a.assert_line(&format!("Save batch to: {offered}  (typing replaces it"));
    a.type_str("/tmp/fx/body.json");
    a.assert_line("Save batch to: /tmp/fx/body.json  (Enter ok");
    a.assert_no_line("batch.json/tmp");
    a.press(KeyCode::Esc);
    // A key that is not typing edits the prefilled text instead.
    a.ctrl('s');
    a.press(KeyCode::Backspace);
    a.assert_line(&format!(
        "Save batch to: {}  (Enter ok",
        offered.trim_end_matches('n')
    ));
}

/// Ctrl-S wrote `batch.json` into the working directory and never said which: the prompt
/// offers the whole path, a relative path typed is shown resolved against the working
/// directory, and what is written or read (and so the message after it) is the whole path.
#[test]
fn file_prompts_show_and_use_the_whole_path() {
    let cwd = std::env::current_dir().unwrap();
    let mut a = TestApp::new(120, 40);
    a.press(KeyCode::F(3));
    a.ctrl('s');
    a.type_str("out/b.json");
    let whole = cwd.join("out/b.json");
    a.assert_line(&format!("Save batch to: out/b.json → {}", whole.display()));
    let cmds = a.press(KeyCode::Enter);
    let written = format!("{cmds:?}");
    assert!(written.contains(&format!("{:?}", whole)), "{written}");
    a.update(Message::Events(EventsMsg::FileSaved(whole.clone())));
    assert!(
        a.status
            .contains(&format!("Batch saved to {}.", whole.display())),
        "{}",
        a.status
    );
    a.ctrl('o');
    for _ in 0..whole.display().to_string().chars().count() {
        a.press(KeyCode::Backspace);
    }
    a.type_str("in.json");
    a.assert_line(&format!(
        "Load batch from: in.json → {}",
        cwd.join("in.json").display()
    ));
    let cmds = a.press(KeyCode::Enter);
    let read = format!("{cmds:?}");
    assert!(
        read.contains(&format!("{:?}", cwd.join("in.json"))),
        "{read}"
    );
}
