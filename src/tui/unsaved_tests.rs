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
        matches!(cmds.as_slice(), [Command::SaveProfile(s)] if s.name == "mine"),
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

/// The Events view at 80x24 with its List name edited ("Trending nowXYZ").
fn events_edited() -> TestApp {
    use crate::tui::components::events::{Field, Focus};
    let mut a = TestApp::new(80, 24);
    a.press(KeyCode::F(3));
    a.app.events.focus = Focus::Field(Field::ListName);
    a.type_str("XYZ");
    a.assert_line("Trending nowXYZ");
    a
}

const OTHER_BATCH: &str = r#"[{"event":"view_recs_list","event_apikey":"k","event_version":"1.0.0","event_data":{"list_id":"l2","list_name":"From elsewhere","list_logic":"T","items":[]}}]"#;

/// A file opened in the Events view (Ctrl-O) replaced an edited batch without asking, and
/// nothing brought it back. It asks as the other loads do: Esc keeps the edit, d loads.
#[test]
fn opening_a_file_over_an_edited_batch_asks_first() {
    use crate::tui::components::events::EventsMsg;
    let mut a = events_edited();
    let file = || {
        Message::Events(EventsMsg::FileLoaded {
            path: "/tmp/new.json".into(),
            text: OTHER_BATCH.into(),
        })
    };
    a.update(file());
    a.assert_line("Loading the batch from /tmp/new.json replaces them.");
    a.press(KeyCode::Esc);
    a.assert_line("Trending nowXYZ");
    assert!(a.status.contains("not loaded"), "{}", a.status);
    a.update(file());
    a.press(KeyCode::Char('d'));
    a.assert_line("From elsewhere");
    a.assert_no_line("Trending nowXYZ");
    assert_eq!(
        a.events.last_path.as_deref(),
        Some("/tmp/new.json".as_ref())
    );
}

/// With no unsaved batch, a file loads at once (no question).
#[test]
fn opening_a_file_over_the_profiles_batch_loads_at_once() {
    use crate::tui::components::events::EventsMsg;
    let mut a = TestApp::new(80, 24);
    a.press(KeyCode::F(3));
    a.update(Message::Events(EventsMsg::FileLoaded {
        path: "/tmp/new.json".into(),
        text: OTHER_BATCH.into(),
    }));
    assert!(a.popup.is_none());
    a.assert_line("From elsewhere");
}

/// History Enter on an event-batch entry replaced an edited batch without asking (a request
/// entry asked).
#[test]
fn a_history_batch_over_an_edited_batch_asks_first() {
    let mut a = events_edited();
    let row = HistoryRow {
        time: "2026-11-22T10:00:00.000Z".into(),
        profile: "demo".into(),
        kind: RowKind::Events,
        method: "POST".into(),
        url: "http://127.0.0.1:9/analytics/collect".into(),
        event_kinds: vec!["view_recs_list".into()],
        request_headers: vec![],
        request_body: OTHER_BATCH.into(),
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
    a.press(KeyCode::Enter);
    a.assert_line("Loading the history entry's batch replaces them.");
    a.press(KeyCode::Esc);
    a.press(KeyCode::F(3));
    a.assert_line("Trending nowXYZ");
    a.press(KeyCode::F(4));
    a.press(KeyCode::Enter);
    a.press(KeyCode::Char('d'));
    assert_eq!(a.view, View::Events);
    a.assert_line("From elsewhere");
}

/// Enter on a profile in the manager said "Using profile X." (status and log) before the
/// unsaved-edits question was answered, and when it was cancelled.
#[test]
fn choosing_a_profile_says_nothing_until_it_is_loaded() {
    use crate::store::Profile;
    use crate::tui::components::profiles::ProfilesMsg;
    let mut a = TestApp::new(80, 24);
    a.sign_now();
    a.type_str("EDITED");
    a.press(KeyCode::F(5));
    a.update(Message::Profiles(ProfilesMsg::Loaded {
        profiles: vec![Profile::demo(), Profile::new("my-prof")],
        errors: vec![],
        dir: "/cfg/profiles".into(),
    }));
    a.press(KeyCode::Down);
    let cmds = a.press(KeyCode::Enter);
    assert!(loads(&cmds).is_empty(), "{cmds:?}");
    assert!(matches!(a.popup, Some(Popup::ConfirmLoad(_))));
    let said = |a: &TestApp| {
        a.log
            .iter()
            .any(|m| m.contains("my-prof") && !m.contains("not loaded"))
    };
    assert!(
        !said(&a),
        "said before the answer: {:?}",
        a.log.iter().collect::<Vec<_>>()
    );
    a.assert_no_line("Using profile");
    a.press(KeyCode::Esc);
    assert!(!said(&a), "{:?}", a.log.iter().collect::<Vec<_>>());
    assert!(
        a.status.contains("profile my-prof not loaded"),
        "{}",
        a.status
    );
}

/// "d: discard the edits and load" kept an edited Events batch when the profile loaded held no
/// batch: the edit was shown as the new profile's, and the next save wrote it into that
/// profile's file. The discarded edit is gone (the starter batch), and nothing is unsaved.
#[test]
fn discarding_an_edited_batch_for_a_profile_without_one_does_not_carry_it_over() {
    let mut a = events_edited();
    a.press(KeyCode::F(2));
    let cmds = switch_to_second(&mut a);
    assert!(loads(&cmds).is_empty(), "it asks first: {cmds:?}");
    let cmds = a.press(KeyCode::Char('d'));
    assert_eq!(loads(&cmds), ["prod"]);
    // What the runtime answers for a profile that holds no batch.
    let mut prod = crate::store::Profile::demo();
    prod.name = "prod".into();
    prod.events = None;
    a.update(Message::ProfileLoaded(Ok(
        crate::tui::runtime::profile::loaded_profile(
            prod,
            "http://127.0.0.1:9".into(),
            "https://collect.example".into(),
        ),
    )));
    a.press(KeyCode::F(3));
    let row = a
        .lines()
        .into_iter()
        .find(|l| l.contains("List name:"))
        .expect("the form's List name row");
    assert!(
        row.contains("Trending now") && !row.contains("XYZ"),
        "{row}"
    );
    assert!(!a.app.unsaved_anywhere(), "nothing to save into prod");
    // The starter batch was validated as it came: the view does not wait for a key to settle.
    assert!(!a.app.events.validating(), "the starter batch is validated");
    assert!(a.app.events.batch_to_save().is_none());
}
