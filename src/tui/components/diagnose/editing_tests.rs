//! The Diagnose view's capture box is the body's editor (`BodyEditor`): a pasted capture is
//! judged byte for byte as pasted (its CRs included), it edits with the request view's
//! normal / insert model (the footer says which), and one key clears it (Ctrl-Z brings it back).

use crossterm::event::KeyCode;

use crate::core::{sign, Secret, SignableRequest};
use crate::tui::components::diagnose::capture::diagnose_capture_with;
use crate::tui::components::diagnose::DiagnoseEffect;
use crate::tui::effect::Command;
use crate::tui::test_util::{t0, TestApp};

/// Raw HTTP of a `PUT /v2/batch` whose head lines end in CRLF and whose body holds CRLF line
/// ends, signed over those bytes by the demo account at `t0()`.
fn crlf_capture() -> (String, &'static str) {
    let body = "[\r\n  {\"id\": \"sku-1\"}\r\n]";
    let ts = crate::core::time::format_timestamp(t0());
    let req = SignableRequest::new(
        "PUT",
        "/v2/batch",
        "",
        &ts,
        crate::server::DEMO_API_KEY,
        body.as_bytes(),
    );
    let signed = sign(&req, &Secret::new(crate::server::DEMO_REST_KEY)).unwrap();
    let mut raw = String::from("PUT /v2/batch HTTP/1.1\r\nHost: indexing.ksearchnet.com\r\n");
    for (n, v) in signed.headers.iter() {
        raw.push_str(&format!("{n}: {v}\r\n"));
    }
    raw.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    (raw, body)
}

/// What the runtime judges for these commands (one diagnosis), at the capture's time.
fn judged(cmds: &[Command]) -> (String, bool, Vec<String>) {
    match cmds {
        [Command::Diagnose {
            effect:
                DiagnoseEffect::Diagnose {
                    text,
                    body,
                    client_text,
                    ..
                },
            key,
            prefix,
        }] => {
            let (ok, lines) = diagnose_capture_with(
                text,
                body.as_deref(),
                client_text.as_deref().map(str::as_bytes),
                key,
                prefix,
                t0(),
            );
            (text.clone(), ok, lines)
        }
        other => panic!("one diagnosis: {other:?}"),
    }
}

fn on_diagnose() -> TestApp {
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(6));
    t
}

#[test]
fn a_pasted_crlf_capture_is_judged_with_its_crs() {
    let (raw, body) = crlf_capture();
    let mut t = on_diagnose();
    t.paste(&raw);
    let (text, ok, lines) = judged(&t.ctrl('g'));
    assert_eq!(text, raw, "the capture is judged byte for byte as pasted");
    assert!(text.ends_with(body), "the body's CRs are kept");
    assert!(ok, "signed over the CRLF body, so accepted: {lines:?}");
}

/// The footer row (above the status line).
fn footer(t: &mut TestApp) -> String {
    let lines = t.lines();
    lines[lines.len() - 2].clone()
}

#[test]
fn the_capture_edits_with_the_request_views_normal_and_insert_model_shown_in_the_footer() {
    let mut t = on_diagnose();
    t.type_str("PUT /x");
    assert_eq!(t.diagnose.input.text(), "PUT /x");
    assert!(
        footer(&mut t).starts_with(" INSERT  "),
        "{}",
        footer(&mut t)
    );
    // Esc: normal mode (the letters are keys, nothing is typed), as in the request view.
    t.press(KeyCode::Esc);
    assert!(
        footer(&mut t).starts_with(" NORMAL  "),
        "{}",
        footer(&mut t)
    );
    t.press(KeyCode::Char('j'));
    assert_eq!(t.diagnose.input.text(), "PUT /x");
    // Esc again stays in normal mode; i goes back to typing, as in the request view.
    t.press(KeyCode::Esc);
    assert!(footer(&mut t).starts_with(" NORMAL  "));
    t.press(KeyCode::Char('i'));
    assert!(!footer(&mut t).contains("NORMAL"));
    t.type_str("y");
    assert_eq!(t.diagnose.input.text(), "PUT /xy");
    // Enter after Esc goes back to typing too (the request view's keys: i or Enter).
    t.press(KeyCode::Esc);
    t.press(KeyCode::Enter);
    t.type_str("z");
    assert_eq!(t.diagnose.input.text(), "PUT /xyz");
    // The request view shows its mode the same way, with the same keys.
    t.press(KeyCode::F(2));
    assert!(
        footer(&mut t).starts_with(" INSERT  "),
        "{}",
        footer(&mut t)
    );
    t.press(KeyCode::Esc);
    assert!(
        footer(&mut t).starts_with(" NORMAL  "),
        "{}",
        footer(&mut t)
    );
    t.press(KeyCode::Esc);
    assert!(t.request.normal_mode, "Esc again stays in normal mode");
    t.press(KeyCode::Char('i'));
    assert!(!t.request.normal_mode);
}

#[test]
fn one_key_clears_the_capture_and_ctrl_z_brings_it_back() {
    let (raw, _) = crlf_capture();
    let mut t = on_diagnose();
    t.paste(&raw);
    assert!(t.alt('x').is_empty());
    assert_eq!(t.diagnose.input.text(), "");
    assert!(t.status.contains("cleared"), "{}", t.status);
    // Undone with the editor's undo, as every edit is.
    t.ctrl('z');
    assert_eq!(t.diagnose.input.text(), raw);
    // From normal mode too, and from the palette (no Alt needed).
    t.press(KeyCode::Esc);
    t.ctrl('k');
    t.type_str("clear the capture");
    t.press(KeyCode::Enter);
    assert_eq!(t.diagnose.input.text(), "");
}

/// At 80x24 the empty boxes' instructions are whole (wrapped at words: the key that ends them
/// is on screen), and the footer names the box switch by what it does now, as the box's bottom
/// line and help do ("client text" / "capture"), not "paste".
#[test]
fn the_empty_boxes_say_their_whole_instruction_and_the_footer_names_the_switch_at_80x24() {
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(6));
    let text = |t: &mut TestApp| {
        t.lines()
            .iter()
            .map(|l| l.trim_matches(|c| c == '│' || c == ' ').to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(
        text(&mut t).contains("Paste a raw HTTP request or a curl command, then press Ctrl-G"),
        "{}",
        t.screen()
    );
    let footer = t.lines()[22].clone();
    assert!(footer.contains("Alt-T client text"), "{footer}");
    assert!(!footer.contains("paste"), "{footer}");
    t.alt('t');
    assert!(
        text(&mut t).contains(
            "Optional: paste the text the client signed (Alt-T back to the capture), then Ctrl-G"
        ),
        "{}",
        t.screen()
    );
    let footer = t.lines()[22].clone();
    assert!(footer.contains("Alt-T capture"), "{footer}");
    // Typing replaces the instruction.
    t.type_str("PUT");
    t.assert_no_line("Optional: paste");
}

/// A capture loaded into the editor (Alt-L) keeps the editor's URL, and the status says the
/// capture's host was not taken and where the request goes instead.
#[test]
fn loading_a_capture_says_its_host_was_not_taken() {
    use crate::tui::components::diagnose::capture::{capture_fields, parse_capture_with};
    let mut t = TestApp::new(80, 24);
    let url = t.request.url.text().to_string();
    let curl = "curl -X PUT http://10.1.2.3:35031/v2/batch -H 'X-SVC-APIKEY: demo-public-key' \
                -H 'X-SVC-TIMESTAMP: 2026-11-22T10:00:00.000Z' --data-raw '[]'";
    let parsed = parse_capture_with(curl, None).expect("a curl capture");
    let (fields, timestamp) = capture_fields(&parsed, "SVC");
    t.update(crate::tui::message::Message::LoadRequest {
        request: Box::new(fields),
        timestamp,
    });
    assert_eq!(t.request.url.text(), url);
    assert!(
        t.status.contains(&format!(
            "its host was not taken: it is sent to {url} (the URL field)"
        )),
        "{}",
        t.status
    );
}

#[test]
fn ctrl_l_switches_profile_from_the_diagnose_view_and_types_nothing() {
    let mut t = on_diagnose();
    t.type_str("PUT /x");
    let cmds = t.ctrl('l');
    assert!(
        matches!(cmds.as_slice(), [Command::ListProfiles]),
        "{cmds:?}"
    );
    t.update(crate::tui::message::Message::ProfileList(Ok(vec![
        "demo".into(),
        "prod".into(),
    ])));
    assert!(t.popup.is_some(), "the profile picker is open");
    // Esc closes the picker; the next key is typed where it was, nothing went in before.
    t.press(KeyCode::Esc);
    t.press(KeyCode::Esc);
    assert_eq!(t.diagnose.input.text(), "PUT /x");
}
