//! Loads over unsaved edits ask first: profile switch, history entry, captured request.

use crossterm::event::KeyCode;

use crate::tui::app::Popup;
use crate::tui::components::history::{HistoryMsg, HistoryRow, RowKind};
use crate::tui::effect::Command;
use crate::tui::layout::View;
use crate::tui::message::Message;
use crate::tui::model::EditorRequest;
use crate::tui::test_util::TestApp;

fn loads(cmds: &[Command]) -> Vec<String> {
    cmds.iter()
        .filter_map(|c| match c {
            Command::LoadProfile(n) => Some(n.clone()),
            _ => None,
        })
        .collect()
}

/// Ctrl-L, the list answered by the runtime, the second name chosen.
fn switch_to_second(a: &mut TestApp) -> Vec<Command> {
    let cmds = a.ctrl('l');
    assert!(
        matches!(cmds.as_slice(), [Command::ListProfiles]),
        "{cmds:?}"
    );
    a.update(Message::ProfileList(Ok(vec!["demo".into(), "prod".into()])));
    a.press(KeyCode::Down);
    a.press(KeyCode::Enter)
}

#[test]
fn switching_profile_over_unsaved_edits_asks_save_discard_or_cancel() {
    let mut a = TestApp::new(80, 24);
    a.sign_now();
    // No edits: the switch loads at once.
    assert_eq!(loads(&switch_to_second(&mut a)), ["prod"]);
    assert!(a.popup.is_none());

    // A body edit: the switch asks, and Esc keeps the edits, loading nothing.
    a.type_str("EDITED");
    assert!(a.request.dirty);
    let cmds = switch_to_second(&mut a);
    assert!(loads(&cmds).is_empty(), "{cmds:?}");
    assert!(matches!(a.popup, Some(Popup::ConfirmLoad(_))));
    let screen = a.screen();
    assert!(screen.contains("unsaved edits"), "{screen}");
    assert!(
        screen.contains("Loading profile prod replaces them."),
        "{screen}"
    );
    assert!(screen.contains("d: discard the edits and load"), "{screen}");
    let cmds = a.press(KeyCode::Esc);
    assert!(cmds.is_empty() && a.popup.is_none());
    assert!(a.request.body.text().contains("EDITED") && a.request.dirty);
    assert!(a.status.contains("not loaded"), "{}", a.status);

    // Other keys keep asking; d discards and loads.
    switch_to_second(&mut a);
    assert!(a.press(KeyCode::Char('x')).is_empty());
    assert!(matches!(a.popup, Some(Popup::ConfirmLoad(_))));
    assert_eq!(loads(&a.press(KeyCode::Char('d'))), ["prod"]);
}

#[test]
fn save_then_load_loads_only_after_the_save_succeeded() {
    let mut a = TestApp::new(80, 24);
    a.profile.is_demo = false;
    a.profile.name = "mine".into();
    a.type_str("EDITED");
    switch_to_second(&mut a);
    let cmds = a.press(KeyCode::Char('s'));
    assert!(
        matches!(cmds.as_slice(), [Command::SaveProfile { name, .. }] if name == "mine"),
        "{cmds:?}"
    );
    assert!(loads(&cmds).is_empty(), "not before the save");
    let cmds = a.update(Message::ProfileSaved(Ok("mine".into())));
    assert_eq!(loads(&cmds), ["prod"]);

    // A failed save loads nothing (the edits stay).
    a.request.dirty = true;
    switch_to_second(&mut a);
    a.press(KeyCode::Char('s'));
    let cmds = a.update(Message::ProfileSaved(Err("disk full".into())));
    assert!(loads(&cmds).is_empty());
    assert!(a.load_after_save.is_none());

    // The demo profile is saved under a new name first: cancelling that prompt cancels the load.
    let mut a = TestApp::new(80, 24);
    a.type_str("EDITED");
    switch_to_second(&mut a);
    a.press(KeyCode::Char('s'));
    assert!(a.request.prompt.is_some(), "asks for a name");
    assert!(a.load_after_save.is_some());
    a.press(KeyCode::Esc);
    assert!(a.load_after_save.is_none());
    assert!(loads(&a.update(Message::ProfileSaved(Ok("other".into())))).is_empty());
}

#[test]
fn a_history_entry_or_a_capture_over_unsaved_edits_asks_first() {
    let mut a = TestApp::new(80, 24);
    a.type_str("EDITED");
    // A captured request (Diagnose's Alt-L answer, or a Traffic record) arrives.
    let mut captured = EditorRequest::demo("http://127.0.0.1:9");
    captured.spec.path = "/v2/captured".into();
    let cmds = a.update(Message::LoadRequest {
        request: Box::new(captured.clone()),
        timestamp: "2026-01-01T00:00:00.000Z".into(),
    });
    assert!(cmds.is_empty());
    assert_eq!(a.request.path.text(), "/v2/batch", "not loaded yet");
    assert!(a
        .screen()
        .contains("Loading the captured request replaces them."));
    let cmds = a.press(KeyCode::Char('d'));
    assert!(cmds.iter().any(|c| matches!(c, Command::Sign(_))));
    assert_eq!(a.request.path.text(), "/v2/captured");
    assert!(
        a.status
            .starts_with("the captured request loaded into the request view"),
        "{}",
        a.status
    );
    assert_eq!(a.view, View::Request);
    assert!(!a.request.ts_live, "the captured timestamp stays frozen");

    // From the history view: the same question, naming the entry.
    a.type_str("MORE");
    let row = HistoryRow {
        time: "2026-11-22T10:00:00.000Z".into(),
        profile: "demo".into(),
        kind: RowKind::Request,
        method: "POST".into(),
        url: "http://127.0.0.1:9/v2/from-history".into(),
        event_kinds: vec![],
        request_headers: vec![("Content-Type".into(), "application/json".into())],
        request_body: "[2]".into(),
        status: Some(200),
        duration_ms: Some(3),
        response_headers: vec![],
        response_body: "{}".into(),
        error: None,
        spec: None,
    };
    a.press(KeyCode::F(4));
    a.update(Message::History(HistoryMsg::Loaded {
        rows: vec![row],
        warnings: vec![],
    }));
    let before = a.status.clone();
    let cmds = a.press(KeyCode::Enter);
    assert!(loads(&cmds).is_empty() && !cmds.iter().any(|c| matches!(c, Command::Sign(_))));
    assert!(
        a.screen()
            .contains("Loading the history entry replaces them."),
        "{}",
        a.screen()
    );
    // Nothing is said to be loaded while the question is open.
    assert_eq!(a.status, before, "said before the answer");
    a.press(KeyCode::Char('d'));
    assert_eq!(a.request.path.text(), "/v2/from-history");
    assert_eq!(a.request.body.text(), "[2]");
    assert_eq!(a.view, View::Request);
    // Said once done, and named as what it is.
    assert_eq!(
        a.status,
        "the history entry loaded into the request view (it had no timestamp: the field is \
         empty and frozen; Ctrl-T makes it live)"
    );

    // Cancelled: nothing is said to be loaded.
    a.type_str("AGAIN");
    a.press(KeyCode::F(4));
    a.press(KeyCode::Enter);
    a.press(KeyCode::Esc);
    assert_eq!(
        a.status,
        "kept the unsaved edits; the history entry not loaded"
    );
    assert!(!a.status.contains("Request loaded"), "{}", a.status);
}
