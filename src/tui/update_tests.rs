//! Pure tests of `update`: one or more per Message, checking state and the Commands asked for.

use crate::tui::components::diagnose::DiagnoseMsg;
use crate::tui::components::request::RequestMsg;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use super::*;
use crate::core::Secret;
use crate::tui::component::Clip;
use crate::tui::components::diagnose::DiagKey;
use crate::tui::components::request::{Detail, Field, Prompt, TYPED_KEY};
use crate::tui::model::LoadedProfile;
use crate::tui::model::{EditorRequest, FormattedBody, MismatchView, ResponseView, SignedView};
use crate::tui::signing::{SignAnswer, SignJob};
use crate::tui::test_util::{alt_key, ctrl_key, key, t0, TestApp};

/// The demo workbench on an 80x24 screen (the one fixture, `test_util::TestApp`), signed as
/// the runtime signs it at start.
fn app() -> TestApp {
    let mut t = TestApp::new(80, 24);
    t.sign_now();
    t
}

fn focus(app: &mut App, f: Field) {
    app.request.focus = f;
    app.request.normal_mode = false;
}
fn last_sign_job(cmds: &[Command]) -> &SignJob {
    cmds.iter()
        .rev()
        .find_map(|c| match c {
            Command::Sign(j) => Some(j),
            _ => None,
        })
        .expect("a signing job")
}
/// The editor's request signed with the REST key `key` (each key gives its own signature).
fn signed_view(a: &App, key: &str) -> SignedView {
    let spec = a.request.spec();
    SignedView {
        body_marks: a.request.body.line_marks(),
        body_rev: a.request.body_state.rev,
        request: std::sync::Arc::new(
            crate::core::SignedRequest::sign(
                spec,
                a.request.timestamp.text().to_string(),
                a.request.form,
                &crate::core::Secret::new(key),
            )
            .unwrap(),
        ),
    }
}

#[test]
fn typing_in_the_query_resigns_with_the_new_query_and_marks_dirty() {
    let mut a = app();
    focus(&mut a, Field::Query);
    let cmds = a.type_str("a=1");
    assert_eq!(a.request.query.text(), "a=1");
    assert!(a.request.dirty);
    let job = last_sign_job(&cmds);
    assert_eq!(job.spec.query, "a=1");
    assert_eq!(job.id, a.request.sign.requested);
    assert!(a.request.sign.updating());
    // Backspace and cursor moves.
    update(&mut a, key(KeyCode::Left));
    update(&mut a, key(KeyCode::Backspace));
    assert_eq!(a.request.query.text(), "a1");
    update(&mut a, key(KeyCode::Home));
    update(&mut a, key(KeyCode::Delete));
    assert_eq!(a.request.query.text(), "1");
}

#[test]
fn typing_in_the_body_resigns_and_tracks_the_change_point() {
    let mut a = app();
    focus(&mut a, Field::Body);
    let before = a.request.body.len();
    a.request.body.move_to(before);
    a.request.body_state.changed_from = None;
    let cmds = a.type_str(" ");
    let job = last_sign_job(&cmds);
    assert_eq!(job.spec.body.len(), before + 1);
    assert_eq!(job.changed_from, Some(before));
    assert!(job.check_json);
}

#[test]
fn tab_and_shift_tab_move_focus_in_order() {
    let mut a = app();
    focus(&mut a, Field::Url);
    update(&mut a, key(KeyCode::Tab));
    assert_eq!(a.request.focus, Field::Method);
    update(&mut a, key(KeyCode::BackTab));
    update(&mut a, key(KeyCode::BackTab));
    assert_eq!(a.request.focus, Field::Body);
    focus(&mut a, Field::Path);
    update(&mut a, key(KeyCode::Enter));
    assert_eq!(a.request.focus, Field::Query);
}

#[test]
fn method_cycles_with_up_and_down() {
    let mut a = app();
    focus(&mut a, Field::Method);
    assert_eq!(a.request.method.text(), "PUT");
    let cmds = update(&mut a, key(KeyCode::Down));
    assert_eq!(a.request.method.text(), "PATCH");
    assert_eq!(last_sign_job(&cmds).spec.method, "PATCH");
    update(&mut a, key(KeyCode::Up));
    update(&mut a, key(KeyCode::Up));
    assert_eq!(a.request.method.text(), "POST");
}

#[test]
fn tick_moves_a_live_timestamp_and_resigns_but_not_a_frozen_one() {
    let mut a = app();
    let later = t0() + chrono::Duration::seconds(3);
    let cmds = update(&mut a, Message::Tick(later));
    assert_eq!(a.request.timestamp.text(), "2026-11-22T10:00:03.000Z");
    assert_eq!(last_sign_job(&cmds).timestamp, "2026-11-22T10:00:03.000Z");
    // Freeze with Ctrl-T: ticks no longer change it.
    update(&mut a, ctrl_key('t'));
    assert!(!a.request.ts_live);
    assert!(!a.wants_tick());
    let cmds = update(&mut a, Message::Tick(later + chrono::Duration::seconds(5)));
    assert!(cmds.is_empty());
    assert_eq!(a.request.timestamp.text(), "2026-11-22T10:00:03.000Z");
    // Live again: jumps to the clock we know.
    let cmds = update(&mut a, ctrl_key('t'));
    assert!(a.request.ts_live);
    assert_eq!(last_sign_job(&cmds).timestamp, "2026-11-22T10:00:08.000Z");
}

#[test]
fn typing_a_timestamp_freezes_it() {
    let mut a = app();
    focus(&mut a, Field::Timestamp);
    update(&mut a, ctrl_key('u'));
    let cmds = a.type_str("2024-01-01T12:00:00+00:00");
    assert!(!a.request.ts_live);
    assert_eq!(last_sign_job(&cmds).timestamp, "2024-01-01T12:00:00+00:00");
}

#[test]
fn signed_results_never_replace_a_newer_one() {
    let mut a = app();
    let cmds = a.resign();
    let first = last_sign_job(&cmds).id;
    let cmds = a.resign();
    let second = last_sign_job(&cmds).id;
    let (new, old) = (signed_view(&a, "NEW"), signed_view(&a, "OLD"));
    update(
        &mut a,
        Message::Request(RequestMsg::Signing(SignAnswer::Signed {
            id: second,
            result: Ok(new),
        })),
    );
    assert!(!a.request.sign.updating());
    update(
        &mut a,
        Message::Request(RequestMsg::Signing(SignAnswer::Signed {
            id: first,
            result: Ok(old),
        })),
    );
    assert_eq!(
        a.request
            .sign
            .result
            .as_ref()
            .unwrap()
            .as_ref()
            .unwrap()
            .signature(),
        signed_view(&a, "NEW").signature()
    );
    // An error is shown as such.
    let cmds = a.resign();
    let third = last_sign_job(&cmds).id;
    update(
        &mut a,
        Message::Request(RequestMsg::Signing(SignAnswer::Signed {
            id: third,
            result: Err("the REST API key is empty".into()),
        })),
    );
    assert!(a.request.sign.result.as_ref().unwrap().is_err());
}

#[test]
fn json_check_of_the_current_revision_is_kept() {
    let mut a = app();
    let rev = a.request.body_state.rev;
    update(
        &mut a,
        Message::Request(RequestMsg::Signing(SignAnswer::JsonChecked {
            rev,
            error: Some("not JSON".into()),
        })),
    );
    assert_eq!(a.request.body_state.json_error.as_deref(), Some("not JSON"));
    update(
        &mut a,
        Message::Request(RequestMsg::Signing(SignAnswer::JsonChecked {
            rev: rev - 1,
            error: None,
        })),
    );
    assert_eq!(a.request.body_state.json_error.as_deref(), Some("not JSON"));
}

fn response(id: u64, status: u16) -> ResponseView {
    ResponseView {
        id,
        status,
        elapsed_ms: 3.0,
        raw: Arc::new(FormattedBody {
            lines: vec!["{}".into()],
            json: true,
        }),
        ..Default::default()
    }
}

#[test]
fn send_asks_for_a_send_of_the_target_url_and_done_shows_status_and_job() {
    let mut a = app();
    focus(&mut a, Field::Query);
    a.type_str("x=1");
    // While the request is being signed, Ctrl-G waits for the signature, then sends it.
    assert!(update(&mut a, ctrl_key('g')).is_empty());
    assert!(a.status.contains("sent once it is signed"), "{}", a.status);
    let cmds = a.resign();
    let Command::Sign(sign_job) = &cmds[0] else {
        panic!("{cmds:?}")
    };
    let view = a.signer_sign(sign_job);
    let cmds = update(
        &mut a,
        Message::Request(RequestMsg::Signing(SignAnswer::Signed {
            id: sign_job.id,
            result: Ok(view.clone()),
        })),
    );
    let Some(Command::Send(job)) = cmds.first() else {
        panic!("no send: {cmds:?}")
    };
    assert_eq!(job.url, "http://127.0.0.1:9/v2/batch?x=1");
    assert_eq!(job.signed.spec().query, "x=1");
    assert_eq!(
        *job.signed, *view.request,
        "the signed request shown is sent"
    );
    let id = job.id;
    assert!(a.request.sending);
    // A stale answer is ignored.
    update(
        &mut a,
        Message::Request(RequestMsg::SendDone {
            id: id + 100,
            result: Ok(response(id + 100, 500)),
        }),
    );
    assert!(a.request.response.is_none());
    let mut r = response(id, 200);
    r.job_id = Some("job-42".into());
    update(
        &mut a,
        Message::Request(RequestMsg::SendDone { id, result: Ok(r) }),
    );
    assert!(!a.request.sending);
    assert_eq!(a.request.detail, Detail::Response);
    assert!(
        a.status.contains("200") && a.status.contains("job-42"),
        "{}",
        a.status
    );
}

#[test]
fn a_mismatch_response_opens_the_diff() {
    let mut a = app();
    let cmds = update(&mut a, key(KeyCode::F(9)));
    let Some(Command::Send(job)) = cmds.first() else {
        panic!()
    };
    let mut r = response(job.id, 401);
    r.code = Some("SIGNATURE_MISMATCH".into());
    r.mismatch = Some(MismatchView {
        ours: vec!["PUT\\n".into()],
        theirs: vec!["GET\\n".into()],
        diagnosis: None,
    });
    update(
        &mut a,
        Message::Request(RequestMsg::SendDone {
            id: job.id,
            result: Ok(r),
        }),
    );
    assert_eq!(a.request.detail, Detail::Diff);
    assert!(a.status.contains("SIGNATURE_MISMATCH"));
}

#[test]
fn send_failure_and_empty_url_are_sentences() {
    let mut a = app();
    let cmds = update(&mut a, ctrl_key('g'));
    let Some(Command::Send(job)) = cmds.first() else {
        panic!()
    };
    update(
        &mut a,
        Message::Request(RequestMsg::SendDone {
            id: job.id,
            result: Err("could not reach x".into()),
        }),
    );
    assert_eq!(a.status, "send failed: could not reach x");
    a.request.url.set("");
    assert!(update(&mut a, ctrl_key('g')).is_empty());
    assert!(a.status.contains("URL is empty"));
}

#[test]
fn formatted_response_is_cached_for_its_send_only() {
    let mut a = app();
    a.request.response = Some(response(7, 200));
    let body = Arc::new(FormattedBody {
        lines: vec!["{".into(), "}".into()],
        json: true,
    });
    update(
        &mut a,
        Message::Request(RequestMsg::ResponseFormatted {
            id: 6,
            body: body.clone(),
        }),
    );
    assert!(a.request.response.as_ref().unwrap().formatted.is_none());
    update(
        &mut a,
        Message::Request(RequestMsg::ResponseFormatted { id: 7, body }),
    );
    assert_eq!(
        a.request
            .response
            .as_ref()
            .unwrap()
            .formatted
            .as_ref()
            .unwrap()
            .lines
            .len(),
        2
    );
}

#[test]
fn editor_result_replaces_the_body_or_reports() {
    let mut a = app();
    let cmds = update(&mut a, ctrl_key('o'));
    assert!(matches!(cmds.first(), Some(Command::EditBody(b)) if b.contains("about-us")));
    let cmds = update(
        &mut a,
        Message::Request(RequestMsg::EditorDone(Ok("[1]\n".into()))),
    );
    assert_eq!(&a.request.body.bytes()[..], b"[1]\n");
    assert_eq!(&last_sign_job(&cmds).spec.body[..], b"[1]\n");
    update(
        &mut a,
        Message::Request(RequestMsg::EditorDone(Err(
            "the editor vi exited with 1".into()
        ))),
    );
    assert_eq!(a.status, "the editor vi exited with 1");
    assert_eq!(&a.request.body.bytes()[..], b"[1]\n");
}

#[test]
fn format_and_minify_change_the_body_invalid_json_is_kept() {
    let mut a = app();
    let cmds = update(&mut a, alt_key('j'));
    assert!(a.request.body.line_count() > 1);
    assert!(String::from_utf8_lossy(&last_sign_job(&cmds).spec.body).contains("\n  {"));
    update(&mut a, alt_key('n'));
    assert_eq!(
        &a.request.body.bytes()[..],
        br#"[{"id":"about-us","type":"KLEVU_CMS"}]"#
    );
    a.request.body = crate::tui::widgets::body_editor::BodyEditor::new("{oops");
    a.request.body_changed_at(0);
    assert!(update(&mut a, alt_key('j')).is_empty());
    assert_eq!(&a.request.body.bytes()[..], b"{oops");
    assert!(
        a.status.contains("not valid JSON at line 1"),
        "{}",
        a.status
    );
}

#[test]
fn copy_needs_a_current_signature() {
    let mut a = app();
    let cmds = a.resign();
    let id = last_sign_job(&cmds).id;
    // The copy menu: Alt-Y, then one letter.
    let copy = |a: &mut App, c: char| {
        assert!(update(a, alt_key('y')).is_empty());
        update(a, key(KeyCode::Char(c)))
    };
    assert!(copy(&mut a, 's').is_empty());
    assert!(a.status.contains("updating"));
    let view = signed_view(&a, "SIG");
    let sig = view.signature().to_string();
    update(
        &mut a,
        Message::Request(RequestMsg::Signing(SignAnswer::Signed {
            id,
            result: Ok(view),
        })),
    );
    assert!(
        matches!(copy(&mut a, 's').as_slice(), [Command::Copy(Clip { text, what })] if *text == sig && what == "the signature")
    );
    assert!(
        matches!(copy(&mut a, 'h').as_slice(), [Command::Copy(Clip { text, what })] if text.ends_with(&format!("Authorization: Bearer {sig}")) && what == "the 5 signed headers")
    );
    let cmds = copy(&mut a, 'c');
    let [Command::Copy(Clip { text: curl, .. })] = cmds.as_slice() else {
        panic!()
    };
    let c = crate::core::curl::parse_curl_command(curl).unwrap();
    assert_eq!(c.url, "http://127.0.0.1:9/v2/batch", "{curl}");
    assert!(c
        .request
        .headers
        .iter()
        .any(|(n, v)| n == "Authorization" && *v == format!("Bearer {sig}").into_bytes()));
    update(&mut a, Message::Copied(Ok("the signature".into())));
    assert_eq!(a.status, "copied the signature");
    update(&mut a, Message::Copied(Err("no clipboard".into())));
    assert_eq!(a.status, "no clipboard");
}

#[test]
fn copied_curl_sends_the_exact_body_even_with_quotes_or_a_leading_at() {
    for body in ["it's", "@/etc/passwd", "[1]\n\ttab \u{1b}esc"] {
        let mut a = app();
        a.request.body = crate::tui::widgets::body_editor::BodyEditor::new(body);
        a.request.body_changed_at(0);
        let id = last_sign_job(&a.resign()).id;
        let view = signed_view(&a, "SIG");
        update(
            &mut a,
            Message::Request(RequestMsg::Signing(SignAnswer::Signed {
                id,
                result: Ok(view),
            })),
        );
        update(&mut a, alt_key('y'));
        let cmds = update(&mut a, key(KeyCode::Char('c')));
        let [Command::Copy(Clip { text: cmd, .. })] = cmds.as_slice() else {
            panic!("{cmds:?}")
        };
        if let Some((printf, curl)) = cmd.split_once(" | ") {
            // Bytes a shell cannot quote are piped in by printf: run that part in a real shell.
            assert!(curl.contains("--data-binary @-"), "{cmd}");
            let out = std::process::Command::new("sh")
                .args(["-c", printf])
                .output()
                .unwrap();
            assert_eq!(out.stdout, body.as_bytes(), "{cmd}");
            continue;
        }
        let c = crate::core::curl::parse_curl_command(cmd).unwrap();
        assert_eq!(c.request.body, body.as_bytes(), "{cmd}");
        assert_eq!(c.body_file, None, "{cmd}");
        assert_eq!(c.request.method, "PUT");
    }
}

#[test]
fn quit_asks_only_with_unsaved_edits() {
    let mut a = app();
    assert!(matches!(
        update(&mut a, ctrl_key('c')).as_slice(),
        [Command::Quit]
    ));
    assert!(a.quit);
    let mut a = app();
    focus(&mut a, Field::Path);
    a.type_str("x");
    assert!(update(&mut a, ctrl_key('c')).is_empty());
    assert_eq!(a.popup, Some(Popup::ConfirmQuit(Default::default())));
    // Any other key: stay.
    update(&mut a, key(KeyCode::Char('n')));
    assert!(!a.quit && a.popup.is_none());
    update(&mut a, ctrl_key('q'));
    assert!(matches!(
        update(&mut a, key(KeyCode::Char('y'))).as_slice(),
        [Command::Quit]
    ));
}

#[test]
fn save_then_quit_from_the_quit_popup() {
    let mut a = app();
    a.profile.is_demo = false;
    a.request.dirty = true;
    update(&mut a, ctrl_key('c'));
    let cmds = update(&mut a, key(KeyCode::Char('s')));
    assert!(matches!(cmds.as_slice(), [Command::SaveProfile(s)] if s.name == "demo"));
    let cmds = update(&mut a, Message::ProfileSaved(Ok("demo".into())));
    assert!(matches!(cmds.as_slice(), [Command::Quit]));
}

/// The profile in use has one owner, the App: a rename of it (from the Profiles view) is what
/// the status bar shows, what Ctrl-S saves under, and what the Profiles view marks "(in use)"
/// and refuses to delete, at once (the view kept a copy that only a reload refreshed).
#[test]
fn a_rename_of_the_profile_in_use_is_followed_by_every_view_at_once() {
    use crate::store::Profile;
    use crate::tui::components::profiles::ProfilesMsg;
    let mut a = app();
    a.profile = crate::tui::model::CurrentProfile {
        name: "shop".into(),
        is_demo: false,
    };
    let listed = |names: &[&str]| ProfilesMsg::Loaded {
        profiles: std::iter::once(Profile::demo())
            .chain(names.iter().map(|n| Profile::new(*n)))
            .collect(),
        errors: vec![],
        dir: std::path::PathBuf::from("/cfg/profiles"),
    };
    update(&mut a, key(KeyCode::F(5)));
    update(&mut a, Message::Profiles(listed(&["shop"])));
    a.assert_line("shop (in use)");
    update(
        &mut a,
        Message::ProfileRenamed {
            from: "shop".into(),
            to: "shop-eu".into(),
        },
    );
    // The list comes back from disk after the rename, without anyone saying which is in use.
    update(&mut a, Message::Profiles(listed(&["shop-eu"])));
    a.assert_line("shop-eu (in use)");
    a.assert_line(" shop-eu │");
    // Deleting it is refused; Ctrl-S in the request view saves under the new name.
    update(&mut a, key(KeyCode::Down));
    update(&mut a, key(KeyCode::Char('d')));
    assert!(
        a.status.contains("Profile shop-eu is in use"),
        "{}",
        a.status
    );
    update(&mut a, key(KeyCode::F(2)));
    a.request.dirty = true;
    let cmds = update(&mut a, ctrl_key('s'));
    assert!(
        matches!(cmds.as_slice(), [Command::SaveProfile(s)] if s.name == "shop-eu"),
        "{cmds:?}"
    );
}

#[test]
fn normal_mode_keys_quit_help_and_shortcuts() {
    let mut a = app();
    update(&mut a, key(KeyCode::Esc));
    assert!(a.request.normal_mode && !a.text_input_focused());
    update(&mut a, key(KeyCode::Char('?')));
    assert_eq!(
        a.popup,
        Some(Popup::Help(crate::tui::popups::help::Help { scroll: 0 }))
    );
    update(&mut a, key(KeyCode::Char('x')));
    assert_eq!(a.popup, None);
    assert!(matches!(
        update(&mut a, key(KeyCode::Char('s'))).as_slice(),
        [Command::Send(_)]
    ));
    update(&mut a, key(KeyCode::Char('d')));
    assert_eq!(a.request.detail, Detail::Headers);
    update(&mut a, key(KeyCode::Char('i')));
    assert!(!a.request.normal_mode);
    // In a text field, `q` is typed.
    focus(&mut a, Field::Path);
    update(&mut a, key(KeyCode::Char('q')));
    assert!(!a.quit && a.request.path.text().ends_with('q'));
    update(&mut a, key(KeyCode::Esc));
    assert!(update(&mut a, key(KeyCode::Char('q'))).is_empty());
    assert_eq!(
        a.popup,
        Some(Popup::ConfirmQuit(Default::default())),
        "unsaved edits: asks first"
    );
}

#[test]
fn function_keys_switch_views_and_help() {
    let mut a = app();
    update(&mut a, key(KeyCode::F(6)));
    assert_eq!(a.view, View::Diagnose);
    update(&mut a, alt_key('3'));
    assert_eq!(a.view, View::Events);
    update(&mut a, alt_key('5'));
    assert_eq!(a.view, View::Profiles);
    update(&mut a, key(KeyCode::F(2)));
    assert_eq!(a.view, View::Request);
    update(&mut a, key(KeyCode::F(1)));
    assert_eq!(
        a.popup,
        Some(Popup::Help(crate::tui::popups::help::Help { scroll: 0 }))
    );
}

#[test]
fn rest_key_edit_and_reveal() {
    let mut a = app();
    focus(&mut a, Field::RestKey);
    let typed = a.type_str("X");
    assert_eq!(
        a.request.key().expose(),
        format!("{}X", crate::server::DEMO_REST_KEY)
    );
    assert_eq!(a.request.key_info.source, TYPED_KEY);
    update(&mut a, Message::Resize(80, 24));
    a.profile.is_demo = false;
    // Ctrl-S asks where the typed key goes; `s` stores it in the profile file.
    let cmds = update(&mut a, ctrl_key('s'));
    assert!(cmds.is_empty(), "{cmds:?}");
    let cmds = update(&mut a, key(KeyCode::Char('s')));
    assert!(
        matches!(cmds.as_slice(), [Command::SaveProfile(s)] if s.typed_key.as_ref().is_some_and(|k| k.expose() == format!("{}X", crate::server::DEMO_REST_KEY)))
    );
    assert_eq!(
        last_sign_job(&typed).key.expose(),
        format!("{}X", crate::server::DEMO_REST_KEY)
    );
    // Ctrl-R no longer reveals (one keymap: Alt-R does, in every field).
    update(&mut a, ctrl_key('r'));
    assert!(!a.request.key_info.revealed);
    update(&mut a, alt_key('r'));
    assert!(a.request.key_info.revealed);
    update(&mut a, alt_key('r'));
    assert!(!a.request.key_info.revealed);
}

#[test]
fn paste_goes_to_the_focused_field_as_one_line_or_into_the_body() {
    let mut a = app();
    focus(&mut a, Field::Query);
    let cmds = update(&mut a, Message::Paste("a=1\nb=2".into()));
    assert_eq!(a.request.query.text(), "a=1b=2");
    assert_eq!(last_sign_job(&cmds).spec.query, "a=1b=2");
    focus(&mut a, Field::Body);
    a.request.body = crate::tui::widgets::body_editor::BodyEditor::new("");
    a.request.body_changed_at(0);
    update(&mut a, Message::Paste("[\n1]".into()));
    assert_eq!(&a.request.body.bytes()[..], b"[\n1]");
}

#[test]
fn resize_and_mouse_click_focus_the_field_under_the_pointer() {
    let mut a = app();
    update(&mut a, Message::Resize(120, 40));
    assert_eq!(a.size, (120, 40));
    let l = crate::tui::components::request::request_layout(Rect::new(0, 0, 120, 40));
    let (_, r) = l.fields.iter().find(|(f, _)| *f == Field::Query).unwrap();
    let click = MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: r.x + 2,
        row: r.y,
        modifiers: KeyModifiers::NONE,
    };
    update(&mut a, Message::Mouse(click));
    assert_eq!(a.request.focus, Field::Query);
    let wheel = MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: l.canonical.x + 2,
        row: l.canonical.y + 2,
        modifiers: KeyModifiers::NONE,
    };
    update(&mut a, Message::Mouse(wheel));
    assert_eq!(a.request.canon_scroll, 3);
    // A click in the body focuses it and puts the cursor on the character under the pointer
    // (inside the border: row 0 of the text is at y + 1).
    let (_, b) = l.fields.iter().find(|(f, _)| *f == Field::Body).unwrap();
    let text = a.request.body.text().to_string();
    let click = MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: b.x + 1 + 3,
        row: b.y + 1,
        modifiers: KeyModifiers::NONE,
    };
    update(&mut a, Message::Mouse(click));
    assert_eq!(a.request.focus, Field::Body);
    assert_eq!(
        a.request.body.cursor_offset(),
        3.min(text.find('\n').unwrap_or(text.len()))
    );
}

#[test]
fn profile_switch_popup_loads_the_chosen_profile() {
    let mut a = app();
    assert!(matches!(
        update(&mut a, ctrl_key('l')).as_slice(),
        [Command::ListProfiles]
    ));
    update(
        &mut a,
        Message::ProfileList(Ok(vec!["demo".into(), "prod".into()])),
    );
    assert!(matches!(&a.popup, Some(Popup::Profiles(p)) if p.picker.list.selected == 0));
    update(&mut a, key(KeyCode::Down));
    let cmds = update(&mut a, key(KeyCode::Enter));
    assert!(matches!(cmds.as_slice(), [Command::LoadProfile(n)] if n == "prod"));
    let mut request = EditorRequest::demo("https://indexing.example");
    request.spec.header_prefix = "KLEVU".into();
    let cmds = update(
        &mut a,
        Message::ProfileLoaded(Ok(LoadedProfile {
            name: "prod".into(),
            is_demo: false,
            analytics_url: "https://collect.example".into(),
            local: false,
            events: Some("[]".into()),
            profile: None,
            request,
            key: Some(Secret::new("k2")),
            key_source: "env PROD_KEY".into(),
            key_to_read: None,
        })),
    );
    assert_eq!(
        a.events.collect_url(),
        "https://collect.example/analytics/collect"
    );
    assert_eq!(a.profile.name, "prod");
    assert_eq!(a.request.prefix.text(), "KLEVU");
    assert_eq!(a.request.key_info.source, "env PROD_KEY");
    assert!(!a.request.dirty);
    assert_eq!(last_sign_job(&cmds).key.expose(), "k2");
    update(
        &mut a,
        Message::ProfileLoaded(Err("profile x: bad TOML at line 3".into())),
    );
    assert_eq!(a.status, "profile x: bad TOML at line 3");
    update(&mut a, Message::ProfileList(Err("no config dir".into())));
    assert_eq!(a.status, "no config dir");
}

#[test]
fn saving_the_demo_asks_for_a_name() {
    let mut a = app();
    assert!(update(&mut a, ctrl_key('s')).is_empty());
    assert!(matches!(a.request.prompt, Some(Prompt::SaveAs(ref e)) if e.text().is_empty()));
}

#[test]
fn save_as_popup_asks_for_a_name() {
    let mut a = app();
    update(&mut a, alt_key('s'));
    update(&mut a, ctrl_key('u'));
    assert!(update(&mut a, key(KeyCode::Enter)).is_empty());
    assert!(matches!(a.request.prompt, Some(Prompt::SaveAs(_))));
    a.type_str("mine");
    let cmds = update(&mut a, key(KeyCode::Enter));
    assert!(matches!(cmds.as_slice(), [Command::SaveProfile(s)] if s.name == "mine"));
    update(
        &mut a,
        Message::ProfileSaved(Err("cannot write /ro/mine.toml: read-only".into())),
    );
    assert!(a.status.contains("edits kept"));
    update(&mut a, Message::ProfileSaved(Ok("mine".into())));
    assert_eq!(a.profile.name, "mine");
    assert!(!a.profile.is_demo);
}

#[test]
fn search_popup_finds_in_the_body() {
    let mut a = app();
    focus(&mut a, Field::Body);
    update(&mut a, ctrl_key('f'));
    a.type_str("about");
    let at = a.request.body.text().find("about").unwrap();
    assert_eq!(a.request.body.cursor_offset(), at, "cursor on the match");
    update(&mut a, key(KeyCode::Esc));
    assert_eq!(a.request.prompt, None);
}

/// One search for the body and the response: the same key (Ctrl-F), Enter / Down next and Up
/// previous (wrapping), "n of m" in the prompt. In the body it searches the body; with the
/// Response panel shown and the cursor elsewhere, the response.
#[test]
fn the_one_search_counts_n_of_m_in_the_body_and_in_the_response() {
    use crate::tui::components::request::SearchIn;
    let mut a = TestApp::with_body(80, 24, "[\"ab\", \"ab\", \"ab\"]");
    a.sign_now();
    focus(&mut a, Field::Body);
    a.ctrl('f');
    a.type_str("ab");
    a.assert_line("1 of 3");
    a.press(KeyCode::Down);
    a.assert_line("2 of 3");
    a.press(KeyCode::Enter);
    a.assert_line("3 of 3");
    a.press(KeyCode::Enter);
    a.assert_line("1 of 3");
    a.press(KeyCode::Up);
    a.assert_line("3 of 3");
    let third = a.request.body.text().rfind("ab").unwrap();
    assert_eq!(a.request.body.cursor_offset(), third);
    a.press(KeyCode::Esc);

    // A response with the pattern twice; the Response panel shown, the cursor in the URL.
    let lines: Vec<String> = (1..=30)
        .map(|i| {
            if i % 15 == 0 {
                format!("line {i} ab")
            } else {
                format!("line {i}")
            }
        })
        .collect();
    a.app.request.response = Some(crate::tui::test_util::plain_response(lines));
    a.app.request.detail = Detail::Response;
    focus(&mut a, Field::Url);
    a.ctrl('f');
    assert!(matches!(
        a.request.prompt,
        Some(Prompt::Search(SearchIn::Response, _))
    ));
    a.assert_line("Search response");
    a.type_str("ab");
    a.assert_line("1 of 2");
    // The panel scrolled to the match (line 30 was below the panel's rows).
    a.press(KeyCode::Down);
    a.assert_line("2 of 2");
    a.assert_line("line 30 ab");
    // In the body, Ctrl-F still searches the body.
    a.press(KeyCode::Esc);
    focus(&mut a, Field::Body);
    a.ctrl('f');
    assert!(matches!(
        a.request.prompt,
        Some(Prompt::Search(SearchIn::Body, _))
    ));
    a.assert_line("Search body");
}

#[test]
fn diagnose_view_asks_for_a_diagnosis_and_shows_it() {
    let mut a = app();
    update(&mut a, key(KeyCode::F(6)));
    update(&mut a, Message::Paste("PUT /v2/batch HTTP/1.1".into()));
    let cmds = update(&mut a, ctrl_key('g'));
    assert!(
        matches!(cmds.as_slice(), [Command::Diagnose { effect: DiagnoseEffect::Diagnose { text, .. }, .. }] if text.starts_with("PUT /v2"))
    );
    update(&mut a, alt_key('k'));
    assert_eq!(a.diagnose.key, DiagKey::Demo);
    assert!(matches!(
        update(&mut a, alt_key('l')).as_slice(),
        [Command::Diagnose { effect: DiagnoseEffect::ParseCapture { .. }, prefix, .. }] if prefix == "SVC"
    ));
    update(
        &mut a,
        Message::Diagnose(DiagnoseMsg::Diagnosed {
            ok: false,
            lines: vec!["SIGNATURE_MISMATCH".into()],
        }),
    );
    assert_eq!(a.diagnose.ok, Some(false));
    assert_eq!(a.diagnose.report, ["SIGNATURE_MISMATCH"]);
}

#[test]
fn load_request_fills_the_editor_and_freezes_the_timestamp() {
    let mut a = app();
    a.view = View::Diagnose;
    let mut r = EditorRequest::demo("");
    r.spec.query = "q=1".into();
    let cmds = update(
        &mut a,
        Message::LoadRequest {
            request: Box::new(r),
            timestamp: "2024-01-01T12:00:00+00:00".into(),
        },
    );
    assert_eq!(a.request.timestamp.text(), "2024-01-01T12:00:00+00:00");
    assert_eq!(a.view, View::Request);
    assert_eq!(a.request.query.text(), "q=1");
    assert_eq!(a.request.url.text(), "http://127.0.0.1:9");
    assert!(!a.request.ts_live && a.request.dirty);
    assert_eq!(last_sign_job(&cmds).spec.query, "q=1");
}

#[test]
fn terminate_quits_even_with_unsaved_edits() {
    let mut a = app();
    a.request.dirty = true;
    assert!(matches!(
        update(&mut a, Message::Terminate).as_slice(),
        [Command::Quit]
    ));
    assert!(a.quit);
}

#[test]
fn key_release_events_are_ignored() {
    let mut a = app();
    focus(&mut a, Field::Path);
    let mut k = KeyEvent::new(KeyCode::Char('z'), KeyModifiers::NONE);
    k.kind = crossterm::event::KeyEventKind::Release;
    assert!(update(&mut a, Message::Key(k)).is_empty());
    assert_eq!(a.request.path.text(), "/v2/batch");
}

#[test]
fn component_views_get_keys_and_their_effects_become_commands() {
    let mut a = app();
    // F4 opens the history and asks to read it.
    assert!(matches!(
        update(&mut a, key(KeyCode::F(4))).as_slice(),
        [Command::ReloadHistory]
    ));
    assert!(matches!(
        update(&mut a, key(KeyCode::F(5))).as_slice(),
        [Command::ReloadProfiles]
    ));
    // The history view loads a past request back into the request view.
    let row = history::HistoryRow {
        time: "2026-11-22T10:00:00.000Z".into(),
        profile: "demo".into(),
        kind: history::RowKind::Request,
        method: "PUT".into(),
        url: "http://127.0.0.1:5/v2/batch?x=1".into(),
        event_kinds: vec![],
        request_headers: vec![
            (
                "X-KLEVU-TIMESTAMP".into(),
                "2026-11-22T09:59:59.000Z".into(),
            ),
            ("X-KLEVU-APIKEY".into(), "pk".into()),
            ("X-KLEVU-AUTH-ALGO".into(), "HmacSHA384".into()),
            ("Content-Type".into(), "application/json".into()),
        ],
        request_body: "[2]".into(),
        status: Some(200),
        duration_ms: Some(3),
        response_headers: vec![],
        response_body: String::new(),
        error: None,
        spec: None,
    };
    let (f, ts) = row_request(&row, "SVC");
    assert_eq!(
        (f.url.as_str(), f.spec.path.as_str(), f.spec.query.as_str()),
        ("http://127.0.0.1:5", "/v2/batch", "x=1")
    );
    assert_eq!(
        (
            f.spec.header_prefix.as_str(),
            f.spec.api_key.as_str(),
            ts.as_str()
        ),
        ("KLEVU", "pk", "2026-11-22T09:59:59.000Z")
    );
    // An entry that names the spec it sent loads that spec (here a query the URL does not show
    // as typed, and another API key), not a reading of its URL and headers.
    let mut named = row.clone();
    named.spec = Some(crate::core::RequestSpec {
        query: "x=1&y=%20".into(),
        header_prefix: "KLEVU".into(),
        api_key: "pk-from-spec".into(),
        body: bytes::Bytes::from_static(b"[3]"),
        ..crate::core::RequestSpec::default()
    });
    let (f2, ts2) = row_request(&named, "SVC");
    assert_eq!(f2.url, "http://127.0.0.1:5");
    assert_eq!(f2.spec, named.spec.clone().unwrap());
    assert_eq!(ts2, "2026-11-22T09:59:59.000Z");
    let cmds = route_effects(&mut a, vec![HistoryEffect::LoadIntoRequest(Box::new(row))]);
    assert_eq!(a.view, View::Request);
    assert_eq!(a.request.prefix.text(), "KLEVU");
    assert_eq!(&last_sign_job(&cmds).spec.body[..], b"[2]");
    // Profile manager: activating a profile loads it (after asking, as the loaded entry is an
    // unsaved edit of the profile: d discards it).
    let cmds = route_effects(&mut a, vec![ProfilesEffect::Activate("prod".into())]);
    assert!(cmds.is_empty() && a.popup.is_some());
    let cmds = update(&mut a, key(KeyCode::Char('d')));
    assert!(matches!(cmds.as_slice(), [Command::LoadProfile(n)] if n == "prod"));
    // Events: status effects go to the status line, I/O to the runtime.
    let cmds = route_effects(
        &mut a,
        vec![
            EventsEffect::Status("sending".into()),
            EventsEffect::FetchStored {
                url: "http://127.0.0.1:5/_inspect/events".into(),
            },
        ],
    );
    assert_eq!(a.status, "sending");
    assert!(matches!(
        cmds.as_slice(),
        [Command::Events(EventsEffect::FetchStored { .. })]
    ));
}

#[test]
fn a_question_mark_typed_at_the_start_of_the_query_is_not_sent_and_the_field_says_so() {
    let mut a = app();
    focus(&mut a, Field::Query);
    a.type_str("?a=1");
    let cmds = a.ctrl('g');
    assert!(cmds.is_empty(), "sent once signed: {cmds:?}");
    let cmds = a.resign();
    let Command::Sign(sign_job) = &cmds[0] else {
        panic!("{cmds:?}")
    };
    let view = a.signer_sign(sign_job);
    let cmds = a.update(Message::Request(RequestMsg::Signing(SignAnswer::Signed {
        id: sign_job.id,
        result: Ok(view),
    })));
    let job = match cmds.as_slice() {
        [Command::Send(job)] => job,
        other => panic!("one send: {other:?}"),
    };
    assert_eq!(job.signed.spec().query, "a=1", "signed without the '?'");
    assert!(job.url.ends_with("/v2/batch?a=1"), "{}", job.url);
    assert!(a.status.contains("/v2/batch?a=1…"), "{}", a.status);
    // The field keeps what was typed, and says the '?' is not part of the query.
    assert_eq!(a.request.query.text(), "?a=1");
    a.assert_line("?a=1  ⚠ '?' left out");
}

#[test]
fn a_frozen_timestamp_stays_with_its_profile_and_a_load_clears_the_old_response() {
    let mut a = app();
    a.ctrl('t');
    assert!(!a.request.ts_live);
    let later = t0() + chrono::Duration::seconds(30);
    a.update(Message::Tick(later));
    assert_eq!(
        a.request.timestamp.text(),
        "2026-11-22T10:00:00.000Z",
        "frozen"
    );
    a.request.response = Some(response(1, 401));
    let mut request = EditorRequest::demo("http://127.0.0.1:9");
    request.spec.path = "/v2/other".into();
    let cmds = a.update(Message::ProfileLoaded(Ok(LoadedProfile {
        name: "prod".into(),
        is_demo: false,
        analytics_url: "https://collect.example".into(),
        local: false,
        events: None,
        profile: None,
        request: request.clone(),
        key: Some(Secret::new("k2")),
        key_source: "env PROD_KEY".into(),
        key_to_read: None,
    })));
    assert!(
        a.request.ts_live,
        "another profile starts with a live timestamp"
    );
    assert_eq!(a.request.timestamp.text(), "2026-11-22T10:00:30.000Z");
    assert_eq!(last_sign_job(&cmds).timestamp, "2026-11-22T10:00:30.000Z");
    assert!(a.request.response.is_none());
    // Loading a captured request (or a past send) clears the response of the one before.
    a.request.response = Some(response(2, 200));
    a.update(Message::LoadRequest {
        request: Box::new(request),
        timestamp: "2026-01-01T00:00:00.000Z".into(),
    });
    assert!(a.request.response.is_none());
    assert!(!a.request.ts_live, "the captured timestamp is frozen");
}
