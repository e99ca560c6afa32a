//! A pasted curl command that reads its body from a file (`--data-binary @FILE`, what
//! `sign --output curl --body-file` prints): the Diagnose view asks "load body from FILE? y/n",
//! the file is really read (as the runtime reads it) and the capture verified with it.

use crossterm::event::KeyCode;

use super::capture::read_capture_body;
use crate::core::curl::{to_curl, CurlBody};
use crate::core::Secret;
use crate::tui::components::diagnose::{diagnose_capture_with, DiagnoseEffect, DiagnoseMsg};
use crate::tui::effect::Command;
use crate::tui::message::Message;
use crate::tui::test_util::{t0, TestApp};

const BODY: &[u8] = b"[\n  {\"id\": \"sku-1\"}\n]\n";

/// A curl command for the demo account, signed at `t0()`, its body read from `file`.
fn curl_with_body_file(file: &str, flag: &str) -> String {
    let spec = crate::core::RequestSpec {
        path: "/v2/batch".into(),
        api_key: crate::server::DEMO_API_KEY.into(),
        body: bytes::Bytes::from_static(BODY),
        ..Default::default()
    };
    let ts = crate::core::time::format_timestamp(t0());
    let key = Secret::new(crate::server::DEMO_REST_KEY);
    let out = crate::engine::build_signed("http://127.0.0.1:9", &spec, &ts, &key).unwrap();
    let headers: Vec<(String, String)> = out.headers.clone();
    let cmd = to_curl(
        "PUT",
        "http://127.0.0.1:9/v2/batch",
        &headers,
        CurlBody::File(file),
    );
    cmd.replace("--data-binary @", &format!("{flag} @"))
}

fn on_diagnose(capture: &str) -> TestApp {
    let mut t = TestApp::new(100, 30);
    t.press(KeyCode::F(6));
    t.paste(capture);
    t
}

/// Run what the runtime would for a diagnosis, with the capture's time.
fn verdict(cmds: &[Command]) -> (bool, Vec<String>) {
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
        }] => diagnose_capture_with(
            text,
            body.as_deref(),
            client_text.as_deref().map(str::as_bytes),
            key,
            prefix,
            t0(),
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn ctrl_g_on_a_curl_command_with_a_body_file_offers_to_load_it_and_verifies_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("body.json");
    std::fs::write(&path, BODY).unwrap();
    let file = path.display().to_string();
    let mut t = on_diagnose(&curl_with_body_file(&file, "--data-binary"));

    // Ctrl-G asks first; nothing is verified yet.
    assert!(t.ctrl('g').is_empty());
    let screen = t.screen();
    assert!(
        screen.contains(&format!("load body from {file}? y/n")),
        "{screen}"
    );
    // Another key keeps the question; y asks the runtime to read the file.
    assert!(t.press(KeyCode::Char('x')).is_empty());
    let cmds = t.press(KeyCode::Char('y'));
    let [Command::Diagnose {
        effect: DiagnoseEffect::ReadBody { file: asked },
        ..
    }] = cmds.as_slice()
    else {
        panic!("{cmds:?}")
    };
    assert_eq!(asked, &file);
    // The runtime reads it for real; then the diagnosis runs with the file's bytes.
    let result = read_capture_body(asked);
    assert_eq!(result.as_deref(), Ok(BODY));
    let cmds = t.update(Message::Diagnose(DiagnoseMsg::BodyFile {
        file: file.clone(),
        result,
    }));
    let (ok, lines) = verdict(&cmds);
    assert!(ok, "{lines:?}");
    // Loaded once: Ctrl-G again does not ask, and Alt-L loads it with the body.
    let (ok, _) = verdict(&t.ctrl('g'));
    assert!(ok);
    match t.alt('l').as_slice() {
        [Command::Diagnose {
            effect: DiagnoseEffect::ParseCapture { body, .. },
            ..
        }] => assert_eq!(body.as_deref(), Some(BODY)),
        other => panic!("{other:?}"),
    }
}

/// `-d @FILE` sends the file without its CR and LF (as curl does), so the signature made over
/// the file's bytes does not match.
#[test]
fn a_d_at_file_command_is_verified_without_the_files_line_ends() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("body.json");
    std::fs::write(&path, BODY).unwrap();
    let file = path.display().to_string();
    let mut t = on_diagnose(&curl_with_body_file(&file, "-d"));
    t.ctrl('g');
    let cmds = t.press(KeyCode::Char('y'));
    assert!(matches!(
        cmds.as_slice(),
        [Command::Diagnose {
            effect: DiagnoseEffect::ReadBody { .. },
            ..
        }]
    ));
    let cmds = t.update(Message::Diagnose(DiagnoseMsg::BodyFile {
        file: file.clone(),
        result: read_capture_body(&file),
    }));
    let (ok, lines) = verdict(&cmds);
    assert!(!ok, "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("SIGNATURE_MISMATCH")),
        "{lines:?}"
    );
}

#[test]
fn an_unreadable_body_file_is_one_sentence_and_n_declines() {
    let mut t = on_diagnose(&curl_with_body_file(
        "no-such-dir/body.json",
        "--data-binary",
    ));
    t.ctrl('g');
    let cmds = t.press(KeyCode::Char('y'));
    let [Command::Diagnose {
        effect: DiagnoseEffect::ReadBody { file },
        ..
    }] = cmds.as_slice()
    else {
        panic!("{cmds:?}")
    };
    let result = read_capture_body(file);
    let why = result.clone().unwrap_err();
    assert!(
        why.starts_with("cannot read the body file no-such-dir/body.json (looked for from ")
            && !why.contains('\n'),
        "{why}"
    );
    assert!(t
        .update(Message::Diagnose(DiagnoseMsg::BodyFile {
            file: file.clone(),
            result,
        }))
        .is_empty());
    assert!(t
        .screen()
        .contains("cannot read the body file no-such-dir/body.json"));

    // n: nothing is read and the report says why nothing was verified.
    t.ctrl('g');
    assert!(t.press(KeyCode::Char('n')).is_empty());
    let screen = t.screen();
    assert!(screen.contains("was not loaded"), "{screen}");
}
