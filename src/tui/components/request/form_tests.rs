//! The signing form of the edited request (Alt-F), through the whole `update` as the runtime
//! drives it (TestApp): the canonical panel shows the chosen form's text with the lines that
//! differ from the standard form marked and their standard value under them, the signature is
//! the chosen form's, and the form goes with the request when it is saved or switched.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::core::{Secret, SignableRequest, SigningForm};
use crate::tui::effect::Command;
use crate::tui::message::Message;
use crate::tui::test_util::{find_in, TestApp};

/// The demo request with the path and query set, signed.
fn app_with(path: &str, query: &str) -> TestApp {
    let mut app = TestApp::new(140, 40);
    app.request.path.set(path);
    app.request.query.set(query);
    app.sign_now();
    app
}

fn toggle(app: &mut TestApp) {
    let cmds = app.alt('f');
    assert!(
        cmds.iter().any(|c| matches!(c, Command::Sign(_))),
        "the request is signed again: {cmds:?}"
    );
    app.run_signing(cmds);
}

/// The signature the worker showed.
fn shown_signature(app: &TestApp) -> String {
    match &app.request.sign.result {
        Some(Ok(s)) => s.signature().to_string(),
        other => panic!("a signature: {other:?}"),
    }
}

/// The signature of the editor's request in `form`, computed here from the core.
fn expected_signature(app: &TestApp, form: SigningForm) -> String {
    let req: SignableRequest<'_> = app.request.signable();
    let key = Secret::new(crate::server::DEMO_REST_KEY);
    form.sign(&req, &key).unwrap().signature().to_string()
}

#[test]
fn alt_f_switches_to_the_php_sdk_form_marks_path_and_query_and_signs_that_text() {
    let mut app = app_with("/v2/batch/", "test=1");
    assert_eq!(app.request.form, SigningForm::Standard);
    let standard = shown_signature(&app);
    assert_eq!(standard, expected_signature(&app, SigningForm::Standard));
    app.assert_no_line("*PATH");
    app.assert_no_line("PHP SDK form");

    toggle(&mut app);
    assert_eq!(app.request.form, SigningForm::PhpSdk);
    assert!(app.request.dirty, "the form is an edit of the request");
    assert!(
        app.status.contains("php-sdk") && app.status.contains("'?' before the query"),
        "{}",
        app.status
    );
    // The signature is the PHP SDK form's, and it is not the standard one.
    let php = shown_signature(&app);
    assert_eq!(php, expected_signature(&app, SigningForm::PhpSdk));
    assert_ne!(php, standard);
    // The panel shows the PHP SDK text, the two differing lines marked, their standard values
    // under them; the other lines are not marked.
    let lines = app.lines();
    let screen = lines.join("\n");
    assert!(screen.contains("PHP SDK form"), "{screen}");
    let (_, path_y) = find_in(&lines, "*PATH").expect(&screen);
    assert!(lines[path_y as usize].contains("/v2/batch\\n"), "{screen}");
    assert!(!lines[path_y as usize].contains("/v2/batch/"), "{screen}");
    let std_path = &lines[path_y as usize + 1];
    assert!(
        std_path.contains("standard") && std_path.contains("/v2/batch/\\n"),
        "{screen}"
    );
    let (_, query_y) = find_in(&lines, "*QUERY").expect(&screen);
    assert!(lines[query_y as usize].contains("?test=1\\n"), "{screen}");
    let std_query = &lines[query_y as usize + 1];
    assert!(
        std_query.contains("standard") && std_query.contains("test=1\\n"),
        "{screen}"
    );
    assert!(!std_query.contains("?test"), "{screen}");
    app.assert_no_line("*METHOD");
    app.assert_no_line("*BODY");
    // The byte count in the title is the PHP SDK text's: one '?' more, one '/' less.
    let len = SigningForm::PhpSdk.canonical(&app.request.signable()).len();
    app.assert_line(&format!("Canonical text ({len} bytes signed)"));

    // Alt-F again: the standard form, nothing marked, the standard signature.
    toggle(&mut app);
    assert_eq!(app.request.form, SigningForm::Standard);
    assert_eq!(shown_signature(&app), standard);
    app.assert_no_line("*PATH");
    app.assert_no_line("*QUERY");
    app.assert_line("/v2/batch/\\n");
}

#[test]
fn only_the_line_that_differs_is_marked() {
    // A trailing '/' and no query: only the path differs.
    let mut app = app_with("/v2/attributes/colour/", "");
    toggle(&mut app);
    app.assert_line("*PATH");
    app.assert_no_line("*QUERY");
    // A query and no trailing '/': only the query.
    let mut app = app_with("/v2/batch", "a=1");
    toggle(&mut app);
    app.assert_no_line("*PATH");
    app.assert_line("*QUERY");
    // Neither: the PHP SDK text is the standard one; the status says so.
    let mut app = app_with("/v2/batch", "");
    toggle(&mut app);
    app.assert_no_line("*PATH");
    app.assert_no_line("*QUERY");
    assert!(app.status.contains("no line differs"), "{}", app.status);
    assert_eq!(
        shown_signature(&app),
        expected_signature(&app, SigningForm::Standard)
    );
}

#[test]
fn the_send_signs_in_the_chosen_form_and_the_form_is_saved_with_its_request() {
    let mut app = app_with("/v2/batch/", "test=1");
    toggle(&mut app);
    let send = app.ctrl('g');
    let job = send
        .iter()
        .find_map(|c| match c {
            Command::Send(job) => Some(job),
            _ => None,
        })
        .expect("a send");
    // The send sends the signed request shown: the PHP SDK form's, its signature.
    assert_eq!(job.signed.form(), SigningForm::PhpSdk);
    assert_eq!(job.signed.signature(), shown_signature(&app));

    // Saving hands the runtime the request with its form.
    app.update(Message::Key(KeyEvent::new(
        KeyCode::Char('s'),
        KeyModifiers::ALT,
    )));
    let cmds = app.press(KeyCode::Enter);
    let saved = cmds
        .iter()
        .find_map(|c| match c {
            Command::SaveProfile(s) => Some(s.requests[s.selected_request].clone()),
            _ => None,
        })
        .expect("a save");
    assert_eq!(saved.form, SigningForm::PhpSdk);
}

#[test]
fn the_form_stays_with_its_request_when_switching_requests() {
    let mut app = app_with("/v2/batch/", "");
    toggle(&mut app);
    // A second request (standard, as new requests are), then back.
    app.alt('a');
    app.type_str("other");
    let cmds = app.press(KeyCode::Enter);
    app.run_signing(cmds);
    assert_eq!(app.request.form, SigningForm::Standard);
    app.assert_no_line("PHP SDK form");
    let cmds = app.update(Message::Key(KeyEvent::new(
        KeyCode::PageUp,
        KeyModifiers::ALT,
    )));
    app.run_signing(cmds);
    assert_eq!(app.request.requests.selected_name(), "default");
    assert_eq!(app.request.form, SigningForm::PhpSdk);
    app.assert_line("*PATH");
}

/// Ctrl-J in the body (the LF a terminal sends for a line end typed or pasted without
/// bracketed paste) is a new line, not the text widget's "delete to the line's start": the
/// typed line stays, the body gets an LF, the screen shows both lines at 80x24.
#[test]
fn ctrl_j_in_the_body_is_a_new_line_and_deletes_nothing() {
    let mut t = TestApp::with_body(80, 24, "[1]");
    t.sign_now();
    t.app.request.focus = crate::tui::components::request::Field::Body;
    t.app.request.normal_mode = false;
    t.press(KeyCode::End);
    t.type_str("ab");
    t.ctrl('j');
    t.type_str("cd");
    assert_eq!(t.request.body.text(), "[1]ab\ncd");
    t.assert_line("│[1]ab");
    t.assert_line("│cd");
    // One undo takes the typed `d` back, not the line.
    t.ctrl('z');
    assert_eq!(t.request.body.text(), "[1]ab\nc");
}

/// The canonical text stops with its last line at the pane's bottom (it scrolled on into a
/// blank pane); `G` goes to that end, `g` to the top, and Up moves at once after scrolling on.
#[test]
fn the_canonical_text_stops_at_its_end_and_g_goes_there() {
    use crate::tui::components::request::request_layout;
    let body: String = (1..=10)
        .map(|i| format!("{{\"id\":\"p{i}\"}}"))
        .collect::<Vec<_>>()
        .join(",\n");
    let mut t = TestApp::with_body(80, 24, &format!("[{body}]"));
    t.sign_now();
    t.app.request.normal_mode = true;
    let pane = request_layout(ratatui::layout::Rect::new(0, 0, 80, 24)).canonical;
    let rows = |t: &mut TestApp| t.pane_rows(|_| pane);
    for _ in 0..30 {
        t.press(KeyCode::Char('j'));
    }
    let end = rows(&mut t);
    // The canonical pane's part of each of its inner rows.
    let inner: Vec<String> = end
        .iter()
        .map(|r| r.chars().skip(usize::from(pane.x) + 1).collect())
        .collect();
    assert!(
        inner.last().unwrap().contains("{\"id\":\"p10\"}]"),
        "the last line at the bottom:\n{}",
        end.join("\n")
    );
    assert!(
        inner.iter().all(|r| !r.trim_matches(['│', ' ']).is_empty()),
        "no blank row:\n{}",
        end.join("\n")
    );
    t.press(KeyCode::Char('g'));
    assert!(rows(&mut t).join("\n").contains("PUT"));
    t.press(KeyCode::Char('G'));
    assert_eq!(rows(&mut t), end);
    t.press(KeyCode::Char('k'));
    assert_ne!(rows(&mut t), end, "Up moves at once");
}

/// A header value typed with a space at an edge (the send refuses it: HTTP drops it in
/// transit) is flagged beside its field before the send, at 80x24; the flag goes with the
/// space.
#[test]
fn a_header_value_with_a_space_at_an_edge_is_flagged_beside_its_field() {
    use crate::tui::components::request::Field;
    let mut t = TestApp::new(80, 24);
    t.sign_now();
    t.app.request.focus = Field::ApiKey;
    t.app.request.normal_mode = false;
    t.press(KeyCode::End);
    t.type_str(" ");
    let row = t.assert_line("│API key");
    assert!(row.contains("·  ⚠ space│"), "{row}");
    t.press(KeyCode::Backspace);
    let row = t.assert_line("│API key");
    assert!(!row.contains('⚠'), "{row}");
}

/// A query the client would refuse (a space: the URL parser re-encodes it, so the bytes signed
/// would not be the bytes sent) is flagged beside its field before Ctrl-G, at 80x24; the same
/// query percent-encoded is not, and a path with a space is flagged too.
#[test]
fn a_query_or_path_the_send_refuses_is_flagged_beside_its_field() {
    use crate::tui::components::request::Field;
    let mut t = TestApp::new(80, 24);
    t.sign_now();
    t.app.request.focus = Field::Query;
    t.app.request.normal_mode = false;
    t.type_str("a=1 b");
    let row = t.assert_line("│Query");
    assert!(row.contains("⚠ %-encode"), "{row}");
    for _ in 0..2 {
        t.press(KeyCode::Backspace);
    }
    t.type_str("%20b");
    let row = t.assert_line("│Query");
    assert!(!row.contains('⚠'), "{row}");
    t.app.request.focus = Field::Path;
    t.press(KeyCode::End);
    t.type_str(" x");
    let row = t.assert_line("│Path");
    assert!(row.contains("⚠ %-encode"), "{row}");
}
