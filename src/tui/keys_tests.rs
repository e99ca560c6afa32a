//! The one keymap across views, on the one TUI fixture (`TestApp`): the send key in every view
//! that sends, the copy menu (Alt-Y, then one letter), and a check over every key table that a
//! key does one kind of thing everywhere.

use std::collections::HashMap;

use crossterm::event::KeyCode;

use crate::tui::app::{GlobalAction, Popup, GLOBAL_COPY_KEYS, GLOBAL_KEYS};
use crate::tui::component::Clip;
use crate::tui::components::history::tests::row;
use crate::tui::components::history::{HistoryMsg, RowKind};
use crate::tui::components::request::RequestMsg;
use crate::tui::components::{diagnose, events, history, lesson, request, traffic};
use crate::tui::effect::Command;
use crate::tui::keymap::{Binding, KeySpec, Kind, Kinded};
use crate::tui::layout::View;
use crate::tui::message::Message;
use crate::tui::palette;
use crate::tui::test_util::{ctrl_key, key, TestApp};

fn on_history(rows: Vec<history::HistoryRow>) -> TestApp {
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(4));
    assert_eq!(t.view, View::History);
    t.update(Message::History(HistoryMsg::Loaded {
        rows,
        warnings: vec![],
    }));
    t
}

#[test]
fn ctrl_g_and_f9_in_history_send_the_selected_entry_again_and_say_what_was_sent() {
    let mut t = on_history(vec![row(
        "2026-11-22T10:00:00.000Z",
        "demo",
        RowKind::Request,
        Some(200),
    )]);
    let path_before = t.request.path.text().to_string();
    for k in [ctrl_key('g'), key(KeyCode::F(9))] {
        let cmds = t.update(k);
        let job = match cmds.as_slice() {
            [Command::Send(job)] => job,
            other => panic!("{other:?}"),
        };
        assert_eq!(job.base_url, "http://127.0.0.1:4000");
        assert_eq!(job.url, "http://127.0.0.1:4000/v2/batch?test=1");
        assert_eq!(job.signed.spec().method, "PUT");
        assert_eq!(
            (
                job.signed.spec().path.as_str(),
                job.signed.spec().query.as_str()
            ),
            ("/v2/batch", "test=1")
        );
        assert_eq!(&job.signed.spec().body[..], br#"[{"id":"it's"}]"#);
        assert_eq!(
            job.signed.timestamp(),
            crate::core::time::format_timestamp(t.request.now),
            "signed again now"
        );
        assert_eq!(job.key.expose(), crate::server::DEMO_REST_KEY);
        assert_eq!(
            t.status,
            "sending PUT http://127.0.0.1:4000/v2/batch?test=1 (15 bytes, the entry of \
             2026-11-22 10:00:00 UTC), signed again now with the profile's REST key…"
        );
        let id = job.id;
        // The answer goes to the status line, not to the request view's response panel.
        t.update(Message::Request(RequestMsg::SendDone {
            id,
            result: Ok(crate::tui::model::ResponseView {
                id,
                status: 200,
                elapsed_ms: 12.0,
                job_id: Some("job-1".into()),
                ..Default::default()
            }),
        }));
        assert!(
            t.status
                .starts_with("sent PUT http://127.0.0.1:4000/v2/batch?test=1 (15 bytes")
                && t.status.ends_with(": 200 in 12 ms"),
            "{}",
            t.status
        );
        assert!(t.request.response.is_none());
    }
    assert_eq!(
        t.request.path.text(),
        path_before,
        "the editor is not changed"
    );
    assert_eq!(t.view, View::History);
}

#[test]
fn ctrl_g_on_an_event_batch_in_history_says_where_it_is_sent_from() {
    let mut t = on_history(vec![row(
        "2026-11-22T10:05:00.000Z",
        "shop",
        RowKind::Events,
        Some(200),
    )]);
    assert!(t.ctrl('g').is_empty());
    assert!(t.status.contains("Events view"), "{}", t.status);
}

/// Alt-Y opens the copy menu listing this view's copies; one letter copies (saying exactly
/// what) and closes; Esc cancels.
#[test]
fn alt_y_opens_the_copy_menu_one_letter_copies_and_esc_cancels() {
    let mut t = TestApp::new(80, 24);
    t.sign_now();
    assert!(t.alt('y').is_empty());
    assert_eq!(t.popup, Some(Popup::CopyMenu(Default::default())));
    let screen = t.screen();
    for row in [
        "s  copy the signature",
        "h  copy the signed headers",
        "c  copy the request as a curl command",
        "b  copy the body",
        "t  copy the canonical text",
        "r  copy the body of the last response",
        "e  copy the request as signed as a `signscope test` suite entry",
        "p  copy the request being edited as a program",
    ] {
        assert!(screen.contains(row), "{row:?} in\n{screen}");
    }
    // Another key keeps the menu and says what it offers.
    assert!(t.press(KeyCode::Char('z')).is_empty());
    assert_eq!(t.popup, Some(Popup::CopyMenu(Default::default())));
    assert!(t.status.contains("s h c b t r e p"), "{}", t.status);
    let cmds = t.press(KeyCode::Char('h'));
    match cmds.as_slice() {
        [Command::Copy(Clip { text, what })] => {
            assert_eq!(what, "the 5 signed headers");
            assert!(text.contains("Authorization: Bearer "), "{text}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(t.popup, None);
    t.alt('y');
    match t.press(KeyCode::Char('t')).as_slice() {
        [Command::Copy(Clip { text, what })] => {
            assert!(text.starts_with("PUT\n/v2/batch\n"), "{text}");
            assert_eq!(what, &format!("the canonical text ({} bytes)", text.len()));
        }
        other => panic!("{other:?}"),
    }
    t.alt('y');
    assert!(t.press(KeyCode::Esc).is_empty());
    assert_eq!(t.popup, None);
    assert_eq!(t.status, "copy cancelled");
    // The old direct keys no longer copy: Alt-C is free, Alt-H lists the body's problems.
    assert!(t.alt('h').is_empty() && t.alt('c').is_empty());
    // p opens the copy-as-code picker.
    t.alt('y');
    t.press(KeyCode::Char('p'));
    assert_eq!(t.popup, Some(Popup::CopyCode(Default::default())));
}

/// Every view's copy reaches the runtime as the one `Command::Copy(Clip { text, what })`, named by
/// the view that knows what it copied.
#[test]
fn the_copy_menu_of_events_and_history_copies_what_they_have() {
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(3));
    t.alt('y');
    match t.press(KeyCode::Char('b')).as_slice() {
        [Command::Copy(Clip { what, .. })] => {
            assert!(what.starts_with("the batch JSON ("), "{what}")
        }
        other => panic!("{other:?}"),
    }
    let mut t = on_history(vec![row(
        "2026-11-22T10:00:00.000Z",
        "demo",
        RowKind::Request,
        Some(200),
    )]);
    t.alt('y');
    match t.press(KeyCode::Char('r')).as_slice() {
        [Command::Copy(Clip { text, what })] => {
            assert_eq!(text, r#"{"accepted":2,"rejected":0}"#);
            assert_eq!(
                what,
                "the response body of the request of 2026-11-22 10:00:00 UTC (200, 27 bytes)"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn help_and_the_palette_write_each_copy_as_alt_y_and_its_letter() {
    let mut t = TestApp::new(120, 50);
    t.press(KeyCode::F(1));
    let help = crate::tui::popups::help::bindings(&t.popup_ctx());
    for (k, d) in [
        ("Alt-Y s", "copy the signature"),
        ("Alt-Y c", "copy the request as a curl command"),
        (
            "Ctrl-G / F9",
            "send the request (signed again at send time)",
        ),
    ] {
        assert!(
            help.iter().any(|(hk, hd)| hk == k && hd == d),
            "{k} {d}: {help:?}"
        );
    }
    let entries = named(&t, "copy the signature");
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(entries[0].keys, "Alt-Y s");
    // Every view's palette lists its send key and its copies.
    for (view, send) in [
        (View::Events, "send the batch"),
        (View::History, "send the selected entry again"),
        (View::Traffic, "send the selected request again"),
    ] {
        t.view = view;
        let e = named(&t, send);
        assert_eq!(
            e.first().map(|e| e.keys.as_str()),
            Some("Ctrl-G / F9"),
            "{view:?}"
        );
        assert!(
            named(&t, "copy")
                .iter()
                .any(|e| e.keys.starts_with("Alt-Y ")),
            "{view:?}"
        );
    }
}

/// The palette's entries in `t`'s view whose name holds `part`.
fn named(t: &TestApp, part: &str) -> Vec<palette::Entry> {
    let mut entries = palette::entries(t.view, &t.profiles);
    entries.retain(|e| e.name.contains(part));
    entries
}

/// Every key table: (view, key, kind, action name).
fn all_keys() -> Vec<(&'static str, KeySpec, Kind, String)> {
    fn of<A: Kinded + std::fmt::Debug>(
        view: &'static str,
        table: &[Binding<A>],
    ) -> Vec<(&'static str, KeySpec, Kind, String)> {
        table
            .iter()
            .flat_map(|b| {
                b.keys
                    .iter()
                    .map(move |k| (view, *k, b.action.kind(), format!("{:?}", b.action)))
            })
            .collect()
    }
    let mut v = of("global", &GLOBAL_KEYS);
    v.extend(of("request", &request::keys::KEYS));
    v.extend(of("request (normal mode)", &request::keys::NORMAL_KEYS));
    v.extend(of("diagnose", &diagnose::KEYS));
    v.extend(of("events", &events::KEYS));
    v.extend(of("history", &history::KEYS));
    v.extend(of("traffic", &traffic::KEYS));
    v.extend(of("lesson", &lesson::KEYS));
    v.extend(of("every text", &crate::tui::keymap::TEXT_KEYS));
    v.extend(of(
        "profiles (edit form)",
        &crate::tui::components::profiles::FORM_KEYS,
    ));
    v
}

/// A chord (Ctrl, Alt or a function key) does one kind of thing in every view. Single letters
/// of a list or normal mode are local to it (they are typed text elsewhere), and are left out.
#[test]
fn no_chord_does_two_kinds_of_thing_in_two_views() {
    let mut seen: HashMap<String, (Kind, String)> = HashMap::new();
    let mut clashes = vec![];
    let mut chords = 0;
    for (view, k, kind, action) in all_keys() {
        let chord = !k.mods.is_empty() || matches!(k.code, KeyCode::F(_));
        if !chord {
            continue;
        }
        chords += 1;
        let label = k.label();
        match seen.get(&label) {
            Some((other, first)) if *other != kind => clashes.push(format!(
                "{label}: {first} is {other:?}, {view} {action} is {kind:?}"
            )),
            Some(_) => {}
            None => {
                seen.insert(label, (kind, format!("{view} {action}")));
            }
        }
    }
    assert!(chords > 40, "the tables were read: {chords} chords");
    assert!(clashes.is_empty(), "{clashes:#?}");
}

#[test]
fn the_send_key_sends_in_every_view_that_sends_and_ctrl_s_never_sends() {
    let keys = all_keys();
    for view in ["request", "diagnose", "events", "history", "traffic"] {
        for k in [KeySpec::ctrl('g'), KeySpec::f(9)] {
            assert!(
                keys.iter()
                    .any(|(v, key, kind, _)| *v == view && *key == k && *kind == Kind::Send),
                "{} sends in {view}",
                k.label()
            );
        }
    }
    for (view, k, kind, action) in &keys {
        if *k == KeySpec::ctrl('s') {
            assert_eq!(*kind, Kind::Save, "{view} {action}");
        }
        if *kind == Kind::Send {
            assert!(
                [KeySpec::ctrl('g'), KeySpec::f(9), KeySpec::char('s')].contains(k),
                "{view} {action} sends on {}",
                k.label()
            );
        }
    }
    // Every copy is in a copy menu (the letter after Alt-Y), none on a chord of its own but
    // the menu itself and the copy-as-code picker.
    for (view, k, kind, action) in &keys {
        if *kind == Kind::Copy {
            assert!(
                [KeySpec::alt('y'), KeySpec::alt('p')].contains(k),
                "{view} {action} copies on {}",
                k.label()
            );
        }
    }
    for view in [View::Request, View::Events, View::History, View::Traffic] {
        let copies = palette::copy_entries(view);
        assert!(copies.len() >= 2, "{view:?}");
        let mut letters: Vec<_> = copies.iter().map(|c| c.key.label()).collect();
        letters.sort();
        letters.dedup();
        assert_eq!(
            letters.len(),
            copies.len(),
            "one letter, one copy: {view:?}"
        );
    }
    assert_eq!(GLOBAL_COPY_KEYS[0].action, GlobalAction::CopyCode);
}

/// The footer row (above the status line).
fn footer(t: &mut TestApp) -> String {
    let lines = t.lines();
    lines[lines.len() - 2].clone()
}

/// The footer shows the keys that work where the cursor is, from the tables; at 80x24 it fits,
/// ending in `…` and the palette's key when not all of them do.
#[test]
fn the_footer_follows_the_focus_and_fits_at_80x24() {
    use crate::tui::components::request::Field;
    let mut t = TestApp::new(80, 24);
    t.request.focus = Field::Body;
    let body = footer(&mut t);
    assert!(
        body.starts_with(" INSERT  Ctrl-G / F9 send  Alt-J format  Ctrl-Z undo"),
        "{body:?}"
    );
    assert!(body.trim_end().ends_with("… Ctrl-K all keys"), "{body:?}");
    assert!(body.chars().count() <= 80);

    t.request.focus = Field::Timestamp;
    let ts = footer(&mut t);
    assert!(
        ts.starts_with(" INSERT  Ctrl-T freeze  Ctrl-G / F9 send  Ctrl-Z undo"),
        "{ts:?}"
    );
    t.request.focus = Field::Method;
    let method = footer(&mut t);
    assert!(!method.contains("undo"), "{method:?}");
    t.request.focus = Field::RestKey;
    assert!(footer(&mut t).starts_with(" INSERT  Alt-R reveal"));

    // Normal mode (after Esc): the single-key shortcuts.
    t.request.focus = Field::Body;
    t.press(KeyCode::Esc);
    assert!(t.request.normal_mode);
    let normal = footer(&mut t);
    assert!(
        normal.starts_with(" NORMAL  s send  i / Enter back"),
        "{normal:?}"
    );

    // A list: the History view's keys.
    t.press(KeyCode::F(4));
    let list = footer(&mut t);
    assert!(
        list.starts_with(" Ctrl-G / F9 send  Enter load  Ctrl-R reload  Alt-Y copy…"),
        "{list:?}"
    );
    assert_eq!(
        [&body, &ts, &method, &normal, &list]
            .iter()
            .collect::<std::collections::HashSet<_>>()
            .len(),
        5
    );

    // Wide enough, every key of the field is shown, without the cut mark.
    let mut wide = TestApp::new(200, 50);
    wide.request.focus = Field::Body;
    let all = footer(&mut wide);
    for item in [
        "Alt-N minify",
        "Ctrl-O $EDITOR",
        "Ctrl-F search",
        "Alt-Y copy…",
        "F1 / Alt-1 help",
    ] {
        assert!(all.contains(item), "{item}: {all:?}");
    }
    assert!(!all.contains("all keys"), "{all:?}");
}

/// The text keys in the table are the ones the widgets obey.
#[test]
fn the_undo_and_redo_rows_match_what_the_text_widgets_do() {
    use crate::tui::keymap::{TextAction, TEXT_KEYS};
    use crate::tui::widgets::line_input::undo_key;
    use crossterm::event::{KeyEvent, KeyModifiers};
    for b in TEXT_KEYS.iter() {
        for k in b.keys {
            let ev = KeyEvent::new(k.code, k.mods);
            assert_eq!(
                undo_key(&ev),
                Some(b.action == TextAction::Undo),
                "{}",
                k.label()
            );
        }
    }
    assert_eq!(
        undo_key(&KeyEvent::new(
            KeyCode::Char('Z'),
            KeyModifiers::CONTROL | KeyModifiers::SHIFT
        )),
        Some(false)
    );
}

/// The History entry's title names the keys the dispatcher runs (it said `Ctrl-Y: copy as
/// curl`; the copy is `Alt-Y c`), and follows the keys file.
#[test]
fn the_history_entry_title_names_the_keys_that_work() {
    let mut t = on_history(vec![row(
        "2026-11-22T10:00:00.000Z",
        "demo",
        RowKind::Request,
        Some(200),
    )]);
    t.resize(140, 30);
    t.assert_line("Entry · Enter: load it · Alt-Y c: copy as curl");
    t.assert_no_line("Ctrl-Y");
    crate::tui::keymap::install(
        crate::tui::user_keys::parse("[history.copy]\ncopy-curl = \"u\"\n", "keys.toml").unwrap(),
    );
    t.assert_line("Entry · Enter: load it · Alt-Y u: copy as curl");
}

/// macOS terminals send no Alt by default: every action whose keys all need Alt is in the
/// command palette (Ctrl-K) of its view, so it can be run without Alt.
#[test]
fn every_alt_only_action_is_in_the_palette_of_its_view() {
    use crate::tui::keymap::Table;
    use crossterm::event::KeyModifiers;
    fn alt_only<A: Copy + std::fmt::Debug>(t: &Table<A>) -> Vec<(&'static str, &'static str)> {
        t.iter()
            .filter(|b| {
                let keys = t.keys(b);
                !keys.is_empty() && keys.iter().all(|k| k.mods.contains(KeyModifiers::ALT))
            })
            .map(|b| (b.name, b.help))
            .collect()
    }
    let mut missing = vec![];
    let mut t = TestApp::new(120, 40);
    for (view, actions) in [
        (View::Request, alt_only(&request::keys::KEYS)),
        (View::Request, alt_only(&GLOBAL_KEYS)),
        (View::Events, alt_only(&events::KEYS)),
        (View::History, alt_only(&history::KEYS)),
        (View::Traffic, alt_only(&traffic::KEYS)),
        (View::Diagnose, alt_only(&diagnose::KEYS)),
        (View::Lesson, alt_only(&lesson::KEYS)),
        (
            View::Profiles,
            alt_only(&crate::tui::components::profiles::FORM_KEYS),
        ),
    ] {
        t.app.view = view;
        if view == View::Profiles {
            // The form's actions are offered while it is open.
            use crate::tui::components::profiles::{EditForm, Mode};
            let demo = crate::store::Profile::demo();
            t.app.profiles.mode = Mode::Edit(Box::new(EditForm::new(&demo)));
        }
        let names: Vec<&str> = palette::entries(t.app.view, &t.app.profiles)
            .iter()
            .map(|e| e.name)
            .collect();
        for (name, help) in actions {
            // The global copy-menu key opens the menu whose entries the palette lists one by one.
            if name == "copy…" || name == "copy the request as code" {
                continue;
            }
            if name.is_empty() || !names.contains(&name) {
                missing.push(format!("{view:?}: {name:?} ({help})"));
            }
        }
    }
    assert!(missing.is_empty(), "only with Alt:\n{}", missing.join("\n"));
}

/// The vendor preset of the profile form (Alt-V only) runs from the palette.
#[test]
fn the_profile_forms_vendor_preset_runs_from_the_palette() {
    use crate::tui::components::profiles::{EditForm, Mode};
    let mut t = TestApp::new(120, 40);
    t.press(KeyCode::F(5));
    let demo = crate::store::Profile::demo();
    t.app.profiles.mode = Mode::Edit(Box::new(EditForm::new(&demo)));
    t.ctrl('k');
    t.type_str("vendor preset");
    t.press(KeyCode::Enter);
    assert!(t.app.status.contains("klevu"), "{}", t.app.status);
    assert!(
        matches!(t.app.profiles.mode, Mode::Edit(_)),
        "the form stays open"
    );
}

/// The History footer offers what the selected entry's keys do: the send key for a request,
/// not for an event batch (it is sent from the Events view; Enter loads it there).
#[test]
fn the_history_footer_follows_the_selected_entrys_kind() {
    let mut t = TestApp::new(80, 24);
    t.app.history = history::HistoryState::new(vec![
        row(
            "2026-11-22T10:00:00.000Z",
            "demo",
            RowKind::Request,
            Some(200),
        ),
        row(
            "2026-11-22T10:05:00.000Z",
            "demo",
            RowKind::Events,
            Some(200),
        ),
    ]);
    t.press(KeyCode::F(4));
    assert_eq!(
        t.history.selected_row().map(|r| r.kind),
        Some(RowKind::Events)
    );
    let footer = t.lines()[22].clone();
    assert!(!footer.contains("send"), "{footer}");
    assert!(footer.contains("Enter load in Events"), "{footer}");
    t.press(KeyCode::Down);
    assert_eq!(
        t.history.selected_row().map(|r| r.kind),
        Some(RowKind::Request)
    );
    let footer = t.lines()[22].clone();
    assert!(footer.contains("Ctrl-G / F9 send"), "{footer}");
}
