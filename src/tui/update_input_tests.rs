//! Tests of `update` for input that is not a plain key: the mouse (every view hit tests with
//! the layout it draws with), pastes, and the key tables (help, palette, dispatcher agree).

use crate::tui::components::diagnose::DiagnoseMsg;
use crate::tui::components::request::RequestMsg;
use chrono::{TimeZone, Utc};
use crossterm::event::{KeyCode, KeyEvent};

use super::*;
use crate::core::Secret;
use crate::tui::component::Clip;
use crate::tui::components::request::Field;
use crate::tui::components::{diagnose, events, profiles};
use crate::tui::test_util::{ctrl_key, key, TestApp};
use crate::tui::view;

/// The demo workbench on an 80x24 screen (the one fixture, `test_util::TestApp`).
fn app() -> TestApp {
    TestApp::new(80, 24)
}

fn focus(app: &mut App, f: Field) {
    app.request.focus = f;
    app.request.normal_mode = false;
}

// ---------------------------------------------------------------------------------------------
// Mouse routing: every view hit tests with the layout it draws with, from `app.size`.

use crate::tui::test_util::{click_in, wheel_in};

fn sized(w: u16, h: u16) -> TestApp {
    let mut a = app();
    a.resize(w, h);
    a
}

fn main_area(a: &App) -> Rect {
    frame_layout(Rect::new(0, 0, a.size.0, a.size.1)).1
}

#[test]
fn clicking_a_tab_switches_to_its_view() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut a = sized(w, h);
        let tabs = tab_layout(frame_layout(Rect::new(0, 0, w, h)).0);
        assert_eq!(tabs.len(), View::ALL.len(), "{w}x{h}");
        let (_, r) = *tabs.iter().find(|(v, _)| *v == View::History).unwrap();
        let cmds = update(&mut a, Message::Mouse(click_in(r)));
        assert_eq!(a.view, View::History);
        assert!(
            matches!(cmds.as_slice(), [Command::ReloadHistory]),
            "{cmds:?}"
        );
        let (_, r) = *tabs.iter().find(|(v, _)| *v == View::Diagnose).unwrap();
        update(&mut a, Message::Mouse(click_in(r)));
        assert_eq!(a.view, View::Diagnose);
        // The tab is drawn where the layout says.
        let screen = crate::tui::test_util::render_text(w, h, |f| view::draw(f, &a));
        let top: String = screen.lines().next().unwrap().chars().collect();
        let drawn: String = top
            .chars()
            .skip(usize::from(r.x))
            .take(usize::from(r.width))
            .collect();
        let label =
            crate::tui::layout::tab_label(View::Diagnose, crate::tui::layout::tab_titles(w));
        assert_eq!(drawn, label, "{w}x{h}: {top:?}");
    }
}

#[test]
fn a_popup_takes_the_mouse_away_from_the_views() {
    let mut a = sized(120, 40);
    a.popup = Some(Popup::Help(crate::tui::popups::help::Help { scroll: 0 }));
    let tabs = tab_layout(frame_layout(Rect::new(0, 0, 120, 40)).0);
    update(&mut a, Message::Mouse(click_in(tabs[1].1)));
    assert_eq!(a.view, View::Request);
}

#[test]
fn diagnose_click_in_the_input_leaves_normal_mode_and_the_wheel_scrolls_the_report() {
    let mut a = sized(80, 24);
    a.view = View::Diagnose;
    a.diagnose.normal_mode = true;
    let l = diagnose::layout(main_area(&a));
    // A click on the report does not focus the input.
    update(&mut a, Message::Mouse(click_in(l.report)));
    assert!(a.diagnose.normal_mode);
    update(&mut a, Message::Mouse(click_in(l.input)));
    assert!(!a.diagnose.normal_mode, "typing goes to the input again");

    let lines: Vec<String> = (0..30).map(|i| format!("finding {i}")).collect();
    update(
        &mut a,
        Message::Diagnose(DiagnoseMsg::Diagnosed { ok: false, lines }),
    );
    update(&mut a, Message::Mouse(wheel_in(l.report, true)));
    update(&mut a, Message::Mouse(wheel_in(l.report, true)));
    assert_eq!(a.diagnose.report_scroll, 6);
    let screen = crate::tui::test_util::render_text(80, 24, |f| view::draw(f, &a));
    assert!(screen.contains("finding 6"), "{screen}");
    assert!(!screen.contains("finding 5 "), "{screen}");
    update(&mut a, Message::Mouse(wheel_in(l.report, false)));
    assert_eq!(a.diagnose.report_scroll, 3);
    // Scrolling stops when the last row is the box's bottom row (30 rows, 9 shown).
    for _ in 0..20 {
        update(&mut a, Message::Mouse(wheel_in(l.report, true)));
    }
    assert_eq!(a.diagnose.report_scroll, 21);
    let screen = crate::tui::test_util::render_text(80, 24, |f| view::draw(f, &a));
    assert!(screen.contains("finding 29"), "{screen}");
    // A new report starts at its top.
    update(
        &mut a,
        Message::Diagnose(DiagnoseMsg::Diagnosed {
            ok: true,
            lines: vec!["ok".into()],
        }),
    );
    assert_eq!(a.diagnose.report_scroll, 0);
}

#[test]
fn component_views_get_the_mouse_with_their_screen_area() {
    let mut a = sized(120, 40);
    a.view = View::Events;
    let area = main_area(&a);
    let l = events::layout(area, &a.events);
    let (_, r) = *l
        .fields
        .iter()
        .find(|(f, _)| *f == events::Field::Tags)
        .unwrap();
    update(&mut a, Message::Mouse(click_in(r)));
    assert_eq!(a.events.focus, events::Focus::Field(events::Field::Tags));

    a.view = View::Profiles;
    update(
        &mut a,
        Message::Profiles(ProfilesMsg::Loaded {
            profiles: vec![
                crate::store::Profile::demo(),
                crate::store::Profile::new("shop"),
            ],
            errors: vec![],
            dir: std::path::PathBuf::from("/cfg/profiles"),
        }),
    );
    let l = profiles::layout(area, &a.profiles);
    update(&mut a, Message::Mouse(wheel_in(l.list, true)));
    assert_eq!(a.profiles.list.selected, 1);
    update(&mut a, Message::Mouse(click_in(l.window.rows[0].1)));
    assert_eq!(a.profiles.list.selected, 0);
}

/// A terminal that sends each LF of a paste as CR (xterm, VTE, tmux): the pasted capture and
/// the pasted body still have their lines.
#[test]
fn a_paste_whose_line_ends_the_terminal_turned_into_cr_keeps_its_lines() {
    let capture = include_str!("../../assets/examples/captured-request.http");
    assert!(
        capture.contains("\r\n"),
        "the shipped capture has CRLF lines"
    );
    let lf_only = capture.replace("\r\n", "\n");
    let now = Utc.with_ymd_and_hms(2026, 11, 22, 10, 3, 0).unwrap();
    let secret = Secret::new(crate::server::DEMO_REST_KEY);
    // tmux and xterm: CRLF -> CR CR; VTE and copies of LF-only text: LF -> CR.
    for pasted in [capture.replace('\n', "\r"), lf_only.replace('\n', "\r")] {
        let mut a = app();
        update(&mut a, key(KeyCode::F(6)));
        update(&mut a, Message::Paste(pasted.clone()));
        let cmds = update(&mut a, ctrl_key('g'));
        let [Command::Diagnose {
            effect: DiagnoseEffect::Diagnose { text, .. },
            ..
        }] = cmds.as_slice()
        else {
            panic!("no diagnosis asked for: {cmds:?}");
        };
        assert!(!text.contains('\r'), "bare CRs left in {text:?}");
        let (ok, lines) =
            crate::tui::components::diagnose::capture::diagnose_capture(text, &secret, "SVC", now);
        let report = lines.join("\n");
        assert!(!ok);
        assert!(
            report.contains("QUESTION_MARK_BEFORE_QUERY"),
            "pasted {pasted:?}, report:\n{report}"
        );
    }
    let mut a = app();
    focus(&mut a, Field::Body);
    a.request.body = crate::tui::widgets::body_editor::BodyEditor::new("");
    a.request.body_changed_at(0);
    update(
        &mut a,
        Message::Paste("{\r  \"a\": 1,\r\r  \"b\": 2\r}".into()),
    );
    assert_eq!(
        &a.request.body.bytes()[..],
        b"{\n  \"a\": 1,\n\n  \"b\": 2\n}"
    );
}

#[test]
fn paste_line_ends_only_rewrites_pastes_without_any_lf() {
    assert_eq!(paste_line_ends("a\rb\r\rc"), "a\nb\n\nc");
    assert_eq!(paste_line_ends("a\r\rb\r\r\r\rc\rd"), "a\nb\n\nc\nd");
    assert_eq!(paste_line_ends("a\r\nb\rc"), "a\r\nb\rc");
    assert_eq!(paste_line_ends("no line end"), "no line end");
}

#[test]
fn an_invalid_search_pattern_says_why_in_one_line_and_does_not_search_with_the_old_one() {
    let mut a = app();
    focus(&mut a, Field::Body);
    a.request.body = crate::tui::widgets::body_editor::BodyEditor::new(
        "[\"item 1\", \"item 2\", \"item 2x\", \"item 3\"]",
    );
    a.request.body_changed_at(0);
    update(&mut a, ctrl_key('f'));
    a.type_str("item 2");
    let first = a.request.body.text().find("item 2").unwrap();
    assert_eq!(a.request.body.cursor_offset(), first);
    a.type_str("(");
    assert!(
        a.status.contains("\"item 2(\" is not a valid regex") && a.status.contains("unclosed"),
        "status: {:?}",
        a.status
    );
    assert!(
        !a.status.contains('\n'),
        "status spans lines: {:?}",
        a.status
    );
    for k in [KeyCode::Enter, KeyCode::Down, KeyCode::Up] {
        update(&mut a, key(k));
        assert_eq!(
            a.request.body.cursor_offset(),
            first,
            "{k:?} searched with a stale pattern"
        );
        assert!(
            a.status.contains("not a valid regex"),
            "{k:?}: {:?}",
            a.status
        );
    }
    // Fixed again: the search works.
    update(&mut a, key(KeyCode::Backspace));
    update(&mut a, key(KeyCode::Enter));
    assert_eq!(
        a.request.body.cursor_offset(),
        a.request.body.text().find("item 2x").unwrap()
    );
}

/// A paste went nowhere outside the Request and Diagnose views and the search box: an API key
/// pasted into the events form or the profile editor, a batch into the raw JSON editor, a
/// filter, a profile name, a search pattern.
#[test]
fn a_paste_reaches_the_text_input_of_every_view() {
    let screen =
        |a: &App| crate::tui::test_util::render_text(120, 40, |f| crate::tui::view::draw(f, a));
    let mut a = app();
    // F3: the focused field (the list id), as one line.
    update(&mut a, key(KeyCode::F(3)));
    assert_eq!(a.events.focus, events::Focus::Field(events::Field::ListId));
    update(&mut a, Message::Paste("-pasted\n".into()));
    assert!(
        a.events.batch_text().contains("-pasted\","),
        "{}",
        a.events.batch_text()
    );
    // F3 raw JSON: as it is, line ends included.
    update(&mut a, ctrl_key('r'));
    update(
        &mut a,
        Message::Paste("\"pasted-1\",\n\"pasted-2\",".into()),
    );
    let s = screen(&a);
    assert!(
        s.contains("\"pasted-1\",") && s.contains("\"pasted-2\","),
        "{s}"
    );
    // F4: the filter.
    update(&mut a, key(KeyCode::F(4)));
    update(&mut a, Message::Paste("PUT /v2".into()));
    assert_eq!(a.history.list.filter(), "PUT /v2");
    // F5: the name prompt.
    update(&mut a, key(KeyCode::F(5)));
    update(&mut a, key(KeyCode::Char('n')));
    update(&mut a, Message::Paste("from-clipboard\n".into()));
    let s = screen(&a);
    assert!(s.contains("New profile name: from-clipboard▏"), "{s}");
    update(&mut a, key(KeyCode::Esc));
    // The body search box: searches at once.
    update(&mut a, key(KeyCode::F(2)));
    focus(&mut a, Field::Body);
    update(&mut a, ctrl_key('f'));
    let body = a.request.body.text().to_string();
    let word = body
        .split(|c: char| !c.is_ascii_alphabetic())
        .rfind(|w| w.len() > 3)
        .expect("a word in the demo body")
        .to_string();
    update(&mut a, Message::Paste(word.clone()));
    assert_eq!(a.request.body.cursor_offset(), body.find(&word).unwrap());
}

// ---------------------------------------------------------------------------------------------
// One keymap: the tables the dispatcher reads are what help lists and the palette runs.

/// What an action did, in words that do not depend on ids: the commands asked for (by kind),
/// the status line, the popup, and the request view's focus, mode, panel, prompt and reveal.
fn outcome(a: &TestApp, cmds: &[Command]) -> String {
    let kinds: Vec<String> = cmds
        .iter()
        .map(|c| {
            let d = format!("{c:?}");
            d.split(['(', ' ', '{']).next().unwrap_or("").to_string()
        })
        .collect();
    format!(
        "{kinds:?} status={:?} popup={:?} focus={:?} normal={} detail={:?} prompt={:?} revealed={} canon={} detail_scroll={}",
        a.status,
        a.popup,
        a.request.focus,
        a.request.normal_mode,
        a.request.detail,
        a.request.prompt,
        a.request.key_info.revealed,
        a.request.canon_scroll,
        a.request.detail_scroll,
    )
}

fn signed_app() -> TestApp {
    let mut a = app();
    a.request.ts_live = false;
    a.sign_now();
    a
}

#[test]
fn every_key_of_the_request_table_does_what_the_palette_runs_by_name() {
    use crate::tui::components::request::keys::{KEYS, NORMAL_KEYS};
    use crate::tui::keymap::KeySpec;
    let press =
        |a: &mut TestApp, k: &KeySpec| a.update(Message::Key(KeyEvent::new(k.code, k.mods)));
    for (table, normal) in [(&KEYS, false), (&NORMAL_KEYS, true)] {
        for b in table.iter() {
            for k in b.keys {
                let mut by_key = signed_app();
                by_key.request.normal_mode = normal;
                let cmds = press(&mut by_key, k);
                let mut by_name = signed_app();
                by_name.request.normal_mode = normal;
                let ran = by_name.update(Message::Request(RequestMsg::Run(b.action)));
                by_name.update(Message::Resize(80, 24)); // moves the status line like update
                assert_eq!(
                    outcome(&by_key, &cmds),
                    outcome(&by_name, &ran),
                    "{} ({:?})",
                    k.label(),
                    b.action
                );
            }
        }
    }
    // And the diagnose view's.
    for b in crate::tui::components::diagnose::KEYS.iter() {
        for k in b.keys {
            let mut by_key = signed_app();
            by_key.update(key(KeyCode::F(6)));
            let cmds = press(&mut by_key, k);
            let mut by_name = signed_app();
            let ran = by_name.update(Message::Diagnose(DiagnoseMsg::Run(b.action)));
            assert_eq!(
                format!("{cmds:?} {:?}", by_key.diagnose.key),
                format!("{ran:?} {:?}", by_name.diagnose.key),
                "{}",
                k.label()
            );
        }
    }
}

#[test]
fn the_palette_lists_every_action_of_the_view_with_its_key_and_runs_one_by_name() {
    let mut a = signed_app();
    a.resize(120, 50);
    assert!(a.ctrl('k').is_empty());
    assert!(matches!(a.popup, Some(Popup::Palette(_))));
    let screen = a.screen();
    for b in crate::tui::components::request::keys::KEYS.iter() {
        let row = b.name;
        let line = screen
            .lines()
            .find(|l| l.contains(row))
            .unwrap_or_else(|| panic!("{row:?} not in the palette:\n{screen}"));
        assert!(
            line.contains(&crate::tui::components::request::keys::KEYS.label(b)),
            "{line}"
        );
    }
    assert!(screen.contains("go to the History view"), "{screen}");
    // Type to filter, Enter runs the selected one.
    a.type_str("curl");
    let shown = a.screen();
    assert!(shown.contains("copy the request as curl") && !shown.contains("send the request"));
    let cmds = a.press(KeyCode::Enter);
    assert!(a.popup.is_none());
    assert!(
        matches!(cmds.as_slice(), [Command::Copy(Clip { text, .. })] if text.starts_with("curl ")),
        "{cmds:?}"
    );
    // Esc closes it; a filter matching nothing runs nothing.
    a.ctrl('k');
    a.type_str("no such action");
    assert!(a.screen().contains("no action matches"));
    assert!(a.press(KeyCode::Enter).is_empty());
    a.ctrl('k');
    a.press(KeyCode::Esc);
    assert!(a.popup.is_none());
    // In the diagnose view it lists the diagnose actions.
    a.press(KeyCode::F(6));
    a.ctrl('k');
    a.type_str("diagnose");
    let cmds = a.press(KeyCode::Enter);
    assert!(
        matches!(cmds.as_slice(), [Command::Diagnose { .. }]),
        "{cmds:?}"
    );
}

/// The send key pressed where nothing is sent (the profile manager, the lesson, an exercise)
/// answers on the status line, and on the screen, with where it does send; nothing is sent.
#[test]
fn the_send_key_where_nothing_is_sent_says_where_it_sends() {
    let mut t = app();
    t.sign_now();
    for view in [KeyCode::F(5), KeyCode::F(8)] {
        t.press(view);
        t.say(String::from("-"));
        let cmds = t.ctrl('g');
        assert!(
            !cmds.iter().any(|c| matches!(c, Command::Send(_))),
            "{cmds:?}"
        );
        assert!(
            t.status.starts_with("nothing to send in the ")
                && t.status.ends_with(
                    "Ctrl-G sends to the local server from Request, Events, History and Traffic"
                ),
            "{view:?}: {}",
            t.status
        );
        t.assert_line("nothing to send in the");
    }
    // F9, the other send key, too; a letter typed is not a send key.
    t.say(String::from("-"));
    t.press(KeyCode::F(9));
    assert!(
        t.status.starts_with("nothing to send in the lesson"),
        "{}",
        t.status
    );
}

/// Alt-K changed the key beside a verdict judged with the other one, and the box still said
/// "Verdict: rejected" over it: the verdict is marked as the other key's until Ctrl-G.
#[test]
fn a_verdict_judged_with_the_other_key_is_marked_when_the_key_changes() {
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(6));
    t.update(Message::Diagnose(DiagnoseMsg::Diagnosed {
        ok: false,
        lines: vec!["the REST key is empty: set it in the request view".into()],
    }));
    t.assert_line("Verdict: rejected");
    t.press(KeyCode::Esc);
    t.alt('k');
    t.assert_no_line("Verdict: rejected");
    t.assert_line("The key changed: what follows was judged with the other key");
    t.assert_line("the REST key is empty");
}
