//! The requests list of the request view, through the whole `update` as the runtime drives it
//! (TestApp): switching keeps edits per request, the list operations, saving hands the runtime
//! every request, and the keys are in help and the palette.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::core::spec::RequestSpec;
use crate::core::Secret;
use crate::store::{Profile, SavedRequest};
use crate::tui::components::request::{Field, Prompt};
use crate::tui::effect::Command;
use crate::tui::message::Message;
use crate::tui::model::EditorRequest;
use crate::tui::model::LoadedProfile;
use crate::tui::test_util::TestApp;

fn alt(code: KeyCode) -> Message {
    Message::Key(KeyEvent::new(code, KeyModifiers::ALT))
}

/// The app on profile "shop" with requests "default" (query a=1) and "search" (GET /v2/search,
/// query q=shoes, body {"q":1}), "default" in the editor.
fn shop(w: u16, h: u16) -> TestApp {
    let mut app = TestApp::new(w, h);
    let mut p = Profile::new("shop");
    p.set_api_key("shop-public");
    p.request_mut().query = "a=1".into();
    p.add_request(
        "search",
        RequestSpec {
            method: "GET".into(),
            path: "/v2/search".into(),
            query: "q=shoes".into(),
            body: "{\"q\":1}".into(),
            ..RequestSpec::default()
        },
    )
    .unwrap();
    let request = EditorRequest {
        url: "http://127.0.0.1:1".into(),
        spec: RequestSpec {
            body: "[]".into(),
            ..p.request().clone()
        },
    };
    p.request_mut().body = bytes::Bytes::new(); // in the editor, as the runtime hands it over
    app.update(Message::ProfileLoaded(Ok(LoadedProfile {
        name: "shop".into(),
        is_demo: false,
        analytics_url: "http://127.0.0.1:1".into(),
        local: false,
        events: None,
        profile: Some(Box::new(p)),
        request,
        key: Some(Secret::new("k")),
        key_source: "env SHOP_KEY".into(),
        key_to_read: None,
    })));
    app
}

fn focus(app: &mut TestApp, f: Field) {
    app.request.focus = f;
    app.request.normal_mode = false;
}

fn saved_requests(cmds: &[Command]) -> (Vec<SavedRequest>, usize) {
    cmds.iter()
        .find_map(|c| match c {
            Command::SaveProfile(s) => Some((s.requests.clone(), s.selected_request)),
            _ => None,
        })
        .expect("a save")
}

#[test]
fn switching_requests_keeps_each_ones_unsaved_edits_until_the_profile_is_saved() {
    let mut app = shop(120, 40);
    assert_eq!(app.request.requests.selected_name(), "default");
    assert!(!app.request.unsaved());
    // The list is in the Request panel's title, the edited one in brackets.
    app.assert_line("[default]");
    app.assert_line("search");

    focus(&mut app, Field::Query);
    app.type_str("&b=2");
    assert!(app.request.dirty);
    app.update(alt(KeyCode::PageDown));
    assert_eq!(app.request.requests.selected_name(), "search");
    assert_eq!(app.request.query.text(), "q=shoes");
    assert_eq!(app.request.method.text(), "GET");
    assert_eq!(app.request.body.text(), "{\"q\":1}");
    assert_eq!(
        app.request.api_key.text(),
        "shop-public",
        "the account's key stays"
    );
    assert!(!app.request.dirty, "search itself is unedited");
    assert!(
        app.request.unsaved(),
        "but default has edits: quitting asks"
    );
    app.assert_line("default*");
    app.assert_line("[search]");

    // Back: the edit is still there.
    focus(&mut app, Field::Body);
    app.type_str(" ");
    app.update(alt(KeyCode::PageUp));
    assert_eq!(app.request.query.text(), "a=1&b=2");
    assert_eq!(app.request.body.text(), "[]");
    assert!(app.request.dirty);
    // Alt-PageUp wraps around the list too.
    app.update(alt(KeyCode::PageUp));
    assert_eq!(app.request.requests.selected_name(), "search");
    assert!(app.request.dirty, "search has its own edit now");
    assert!(app.request.body.text().contains("{\"q\":1}"));

    // Saving hands the runtime every request with its edits, the editor's one selected.
    let cmds = app.ctrl('s');
    let (list, selected) = saved_requests(&cmds);
    let names: Vec<&str> = list.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["default", "search"]);
    assert_eq!(selected, 1);
    assert_eq!(list[0].spec.query, "a=1&b=2");
    assert_eq!(&list[0].spec.body[..], b"[]");
    assert_eq!(list[1].spec.method, "GET");
    assert_ne!(
        &list[1].spec.body[..],
        b"{\"q\":1}",
        "search's edit is saved too"
    );
    assert!(list.iter().all(|r| r.spec.api_key == "shop-public"));
    app.update(Message::ProfileSaved(Ok("shop".into())));
    assert!(!app.request.unsaved());
    app.assert_no_line("default*");
}

#[test]
fn requests_are_added_copied_renamed_moved_and_deleted_by_key() {
    let mut app = shop(120, 40);
    // Add: asks a name; the new request has the defaults and the account's key.
    app.alt('a');
    assert!(matches!(
        app.request.prompt,
        Some(Prompt::RequestName { .. })
    ));
    app.assert_line("New request");
    app.type_str("bulk");
    app.press(KeyCode::Enter);
    assert!(app.request.prompt.is_none());
    assert_eq!(app.request.requests.selected_name(), "bulk");
    assert_eq!(app.request.query.text(), "");
    assert_eq!(app.request.path.text(), "/v2/batch");
    assert_eq!(app.request.api_key.text(), "shop-public");
    assert!(app.request.unsaved());

    // Copy: offered as "bulk copy", placed right after it.
    focus(&mut app, Field::Query);
    app.type_str("x=1");
    app.alt('u');
    app.press(KeyCode::Enter);
    let names = |app: &TestApp| -> Vec<String> {
        app.request
            .requests
            .entries
            .iter()
            .map(|e| e.name.clone())
            .collect()
    };
    assert_eq!(names(&app), ["default", "search", "bulk", "bulk copy"]);
    assert_eq!(app.request.query.text(), "x=1", "the copy has the edits");

    // A name in use is refused; the prompt stays open to fix it.
    app.alt('e');
    for _ in 0..9 {
        app.press(KeyCode::Backspace);
    }
    app.type_str("search");
    app.press(KeyCode::Enter);
    assert!(matches!(
        app.request.prompt,
        Some(Prompt::RequestName { .. })
    ));
    assert!(
        app.status
            .contains("already has a request named \"search\""),
        "{}",
        app.status
    );
    for _ in 0..6 {
        app.press(KeyCode::Backspace);
    }
    app.type_str("dry run");
    app.press(KeyCode::Enter);
    assert_eq!(names(&app), ["default", "search", "bulk", "dry run"]);

    // Move up twice, then delete (asks first).
    app.alt(',');
    app.alt(',');
    assert_eq!(names(&app), ["default", "dry run", "search", "bulk"]);
    assert_eq!(app.request.requests.selected, 1);
    app.alt('w');
    app.press(KeyCode::Char('n'));
    assert_eq!(app.request.requests.entries.len(), 4, "n keeps it");
    app.alt('w');
    app.assert_line("Delete the request?");
    app.press(KeyCode::Char('y'));
    assert_eq!(names(&app), ["default", "search", "bulk"]);
    assert_eq!(
        app.request.requests.selected_name(),
        "search",
        "the next one is edited"
    );
    assert_eq!(app.request.query.text(), "q=shoes");

    let (list, _) = saved_requests(&app.ctrl('s'));
    let saved: Vec<&str> = list.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(saved, ["default", "search", "bulk"]);
}

#[test]
fn the_last_request_cannot_be_deleted_and_a_profile_of_one_says_how_to_add() {
    let mut app = TestApp::new(120, 40);
    assert_eq!(app.request.requests.entries.len(), 1);
    app.alt('w');
    assert!(app.request.prompt.is_none());
    assert!(app.status.contains("only request"), "{}", app.status);
    app.update(alt(KeyCode::PageDown));
    assert!(app.status.contains("Alt-A adds another"), "{}", app.status);
}

#[test]
fn the_requests_keys_are_in_the_keymap_so_help_and_the_palette_show_them() {
    let app = shop(120, 40);
    let palette = crate::tui::palette::entries(app.view, &app.profiles);
    let shown: Vec<(String, String)> = palette
        .iter()
        .map(|e| (e.keys.clone(), e.name.to_string()))
        .collect();
    for (keys, name) in [
        ("Alt-PageDown", "next saved request"),
        ("Alt-PageUp", "previous saved request"),
        ("Alt-A", "add a saved request"),
        ("Alt-U", "duplicate the saved request"),
        ("Alt-E", "rename the saved request"),
        ("Alt-W", "delete the saved request"),
        ("Alt-,", "move the saved request up"),
        ("Alt-.", "move the saved request down"),
    ] {
        assert!(
            shown.contains(&(keys.to_string(), name.to_string())),
            "{keys} {name} not in {shown:?}"
        );
    }
    let help = crate::tui::popups::help::request_rows();
    assert!(
        help.iter()
            .any(|(k, h)| k == "Alt-A" && h.contains("add a request")),
        "{help:?}"
    );
}
