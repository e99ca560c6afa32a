//! The keys file, through the one fixture: a rebound action runs from its new key (and no
//! longer from the old one), and help, the footer, the palette and the copy menu all say the
//! new key; each kind of bad entry is one sentence naming the fix.

use crossterm::event::KeyCode;

use super::{parse, sections};
use crate::tui::app::Popup;
use crate::tui::component::Clip;
use crate::tui::effect::Command;
use crate::tui::keymap::parse_key;
use crate::tui::test_util::TestApp;

fn sends(cmds: &[Command]) -> bool {
    cmds.iter().any(|c| matches!(c, Command::Send(_)))
}

#[test]
fn a_rebound_action_runs_from_its_new_key_and_help_footer_and_palette_say_it() {
    let mut t = TestApp::with_keys_file(100, 30, "[request]\nsend = [\"Ctrl-E\", \"F10\"]\n")
        .expect("a good keys file");
    t.sign_now();
    assert!(!sends(&t.ctrl('g')), "Ctrl-G no longer sends");
    assert!(!sends(&t.press(KeyCode::F(9))), "nor F9");
    assert!(sends(&t.ctrl('e')), "Ctrl-E sends");
    // One send at a time: that one is cancelled before the next key sends.
    t.alt('g');
    assert!(sends(&t.press(KeyCode::F(10))), "F10 sends");
    // The footer (the row above the status line) says the new keys.
    let footer = t.lines()[28].clone();
    assert!(footer.contains("Ctrl-E / F10 send"), "{footer}");
    assert!(!footer.contains("Ctrl-G"), "{footer}");
    // Help lists the action under its new keys.
    t.press(KeyCode::F(1));
    assert!(matches!(t.popup, Some(Popup::Help(_))));
    let row = t.assert_line("send the request (signed again");
    assert!(row.contains("Ctrl-E / F10"), "{row}");
    t.press(KeyCode::Esc);
    // The palette too.
    t.ctrl('k');
    t.type_str("send the request");
    let screen = t.screen();
    assert!(
        screen
            .lines()
            .any(|l| l.contains("send the request") && l.contains("Ctrl-E / F10")),
        "{screen}"
    );
}

#[test]
fn a_copy_letter_and_a_global_key_can_be_rebound() {
    let mut t = TestApp::with_keys_file(
        100,
        30,
        "[request.copy]\ncopy-curl = \"u\"\n[global]\nmessages = \"Ctrl-B\"\n",
    )
    .expect("a good keys file");
    t.sign_now();
    t.alt('y');
    t.assert_line("u");
    let cmds = t.type_str("u");
    assert!(
        cmds.iter()
            .any(|c| matches!(c, Command::Copy(Clip { text, .. }) if text.starts_with("curl"))),
        "{cmds:?}"
    );
    t.ctrl('b');
    assert!(matches!(t.popup, Some(Popup::Messages(_))), "{:?}", t.popup);
}

#[test]
fn each_bad_entry_is_one_sentence_naming_the_file_and_the_fix() {
    for (text, says) in [
        (
            "[reqest]\nsend = \"Ctrl-E\"\n",
            "[reqest] is not a key table; use one of global",
        ),
        (
            "[request]\nsned = \"Ctrl-E\"\n",
            "[request] has no action \"sned\"; its actions are send,",
        ),
        (
            "[request]\nsend = \"Ctl-E\"\n",
            "\"Ctl-E\" is not a key; write keys as help does",
        ),
        (
            "[request]\nsend = 7\n",
            "send must be a key in quotes or a list of them",
        ),
        (
            "[request]\nsend = [\"Ctrl-E\", 7]\n",
            "send must be a key in quotes",
        ),
        (
            "send = \"Ctrl-E\"\n",
            "send is outside every table; put it under its table",
        ),
        ("[request]\nsend = \"Ctrl-E\n", "keys.toml line 2:"),
        // Ctrl-P is the detail panel key in the request view: the send key would shadow it.
        (
            "[request]\nsend = \"Ctrl-P\"\n",
            "send = \"Ctrl-P\" is already next-detail in [request]; rebind that one too",
        ),
        // A view key the router would take first.
        (
            "[events]\nsend = \"Ctrl-K\"\n",
            "is already palette in [global]",
        ),
        (
            "[request.normal]\nformat = \"Ctrl-G\"\n",
            "is already send in [request]",
        ),
    ] {
        let err = TestApp::with_keys_file(80, 24, text)
            .err()
            .unwrap_or_else(|| panic!("accepted {text:?}"));
        assert!(err.starts_with("keys.toml"), "{err}");
        assert!(err.contains(says), "{text:?}: {err}");
        assert!(!err.contains('\n'), "one line: {err}");
    }
    // Both keys rebound at once: no clash.
    assert!(parse(
        "[request]\nsend = \"Ctrl-P\"\nnext-detail = \"Ctrl-E\"\n",
        "keys.toml"
    )
    .is_ok());
}

/// Every default key is written by help in a form the file reads back as that key.
#[test]
fn every_key_help_writes_is_read_back_as_that_key() {
    for s in sections() {
        for (id, keys) in s.actions {
            for k in keys {
                assert_eq!(
                    parse_key(&k.label()),
                    Some(k),
                    "[{}] {id}: {}",
                    s.name,
                    k.label()
                );
            }
        }
    }
}

/// Every sentence that names a send key (the demo's first note, the empty Response panel, the
/// Diagnose boxes and their titles, History's answer for an event batch, the answer where
/// nothing is sent) names the key the keys file gives it, never the default it replaced.
#[test]
fn texts_that_name_a_key_follow_the_keys_file() {
    use crate::tui::components::history::tests::row;
    use crate::tui::components::history::{HistoryState, RowKind};
    let file = "[request]\nsend = [\"Ctrl-E\", \"F10\"]\n\
                [events]\nsend = \"Ctrl-E\"\n\
                [history]\nsend = \"Ctrl-E\"\nload = \"Ctrl-L\"\n\
                [traffic]\nsend = \"Ctrl-E\"\n\
                [diagnose]\ndiagnose = \"Ctrl-E\"\ntoggle-client-text = \"Alt-C\"\n";
    let mut t = TestApp::with_keys_file(80, 24, file).expect("a good keys file");
    t.sign_now();
    let note = crate::tui::demo_note();
    assert!(
        note.starts_with(
            "demo profile: Ctrl-E sends to the local server from Request, Events, History and Traffic"
        ),
        "{note}"
    );
    // The empty Response panel and the as-sent view's answer before anything was sent.
    t.app.request.detail = crate::tui::components::request::state::Detail::Response;
    t.assert_line("No response yet: Ctrl-E / F10 sends the");
    t.alt('d');
    assert!(
        t.status.contains("Ctrl-E / F10 sends the request"),
        "{}",
        t.status
    );
    // Diagnose: the empty capture's instruction (wrapped, whole), its title and the verdict box.
    t.press(KeyCode::F(6));
    let screen = t.screen();
    assert!(!screen.contains("Ctrl-G"), "{screen}");
    assert!(!screen.contains("Alt-T"), "{screen}");
    t.assert_line("Paste a raw HTTP request or a curl command, then press Ctrl-E");
    t.assert_line("Ctrl-E diagnose");
    t.assert_line("Paste a request above and press Ctrl-E.");
    t.alt('c');
    // The box's rows read as one text (the instruction wraps at words).
    let text: Vec<String> = t
        .lines()
        .iter()
        .map(|l| l.trim_matches(|c| c == '│' || c == ' ').to_string())
        .collect();
    let text = text.join(" ");
    assert!(
        text.contains("(Alt-C back to the capture), then Ctrl-E"),
        "{text}"
    );
    // History: an event batch is not sent from there; the answer names the keys that do it.
    t.app.history = HistoryState::new(vec![row(
        "2026-11-22T10:05:00.000Z",
        "demo",
        RowKind::Events,
        Some(200),
    )]);
    t.press(KeyCode::F(4));
    t.ctrl('e');
    assert!(
        t.status
            .contains("Ctrl-L loads it there, then Ctrl-E sends it"),
        "{}",
        t.status
    );
    // Where nothing is sent, the rebound key gets the answer; the old one is no send key.
    t.press(KeyCode::F(5));
    t.ctrl('e');
    assert!(
        t.status
            .starts_with("nothing to send in the profile manager: Ctrl-E sends"),
        "{}",
        t.status
    );
}

/// The titles and hints of the request view and the lesson that name a key follow the keys
/// file too: the body's find key, the detail panel's cycle key, the copy letters of the
/// Headers panel, the "adds another" answer, the lesson's footer and its finished text.
#[test]
fn titles_and_hints_follow_the_keys_file() {
    let file = "[request]\nsearch = \"Alt-Q\"\nnext-detail = \"F12\"\nadd-request = \"Alt-C\"\n\
                [request.copy]\ncopy-curl = \"u\"\n\
                [lesson]\nexercises = \"e\"\n";
    let mut t = TestApp::with_keys_file(120, 40, file).expect("a good keys file");
    t.sign_now();
    let screen = t.screen();
    assert!(screen.contains("Alt-Q find"), "{screen}");
    assert!(!screen.contains("Ctrl-F find"), "{screen}");
    assert!(screen.contains(" F12 "), "{screen}");
    assert!(
        !screen.contains("Ctrl-P ─") && !screen.contains(" Ctrl-P "),
        "{screen}"
    );
    // The Headers panel's last rows: the copy letters.
    t.app.request.detail = crate::tui::components::request::state::Detail::Headers;
    t.app.request.detail_scroll = 100;
    let screen = t.screen();
    assert!(screen.contains("· u curl ·"), "{screen}");
    t.update(crate::tui::message::Message::Key(
        crossterm::event::KeyEvent::new(KeyCode::PageDown, crossterm::event::KeyModifiers::ALT),
    ));
    assert!(t.status.contains("Alt-C adds another"), "{}", t.status);
    t.press(KeyCode::F(8));
    t.update(crate::tui::message::Message::Lesson(
        crate::tui::components::lesson::LessonMsg::ProgressLoaded(Ok(Default::default())),
    ));
    let footer = t.lines()[38].clone();
    assert!(footer.contains("e exercises"), "{footer}");
    assert!(!footer.contains("x exercises"), "{footer}");
}

/// The tab bar names the key the keys file gives a view (it said F2 after `show-request` was
/// rebound), and that key shows the view.
#[test]
fn the_tab_bar_names_a_rebound_view_key() {
    let mut t = TestApp::with_keys_file(
        120,
        40,
        "[global]\nshow-request = \"Ctrl-E\"\nhelp = \"F10\"\n",
    )
    .expect("good");
    let tabs = t.lines()[0].clone();
    assert!(tabs.trim_end().ends_with("F10 help"), "{tabs}");
    assert!(tabs.contains(" Ctrl-E Request "), "{tabs}");
    assert!(!tabs.contains("F2"), "{tabs}");
    assert!(tabs.contains(" F3 Events "), "{tabs}");
    t.press(KeyCode::F(3));
    t.ctrl('e');
    assert_eq!(t.view, crate::tui::layout::View::Request);
}

/// The Diagnose verdict for an empty REST key names the key-source switch the keys file gives.
#[test]
fn the_empty_key_verdict_names_the_rebound_switch() {
    let _t = TestApp::with_keys_file(80, 24, "[diagnose]\ntoggle-key = \"Alt-C\"\n").expect("good");
    let (ok, lines) = crate::tui::components::diagnose::capture::diagnose_capture(
        "PUT /v2/batch HTTP/1.1\nX-SVC-APIKEY: k\n\n[]",
        &crate::core::Secret::new(""),
        "SVC",
        chrono::Utc::now(),
    );
    assert!(!ok);
    assert!(lines[0].ends_with("pick the demo key (Alt-C)"), "{lines:?}");
}

/// The Events view's and the profile editor's texts name the keys the keys file gives: the
/// shape / order / form switches, the items' undo, the profile form's save key.
#[test]
fn events_and_profile_texts_follow_the_keys_file() {
    let file =
        "[events]\nnext-mode = \"Ctrl-E\"\ntoggle-shape = \"Alt-S\"\ntoggle-order = \"Alt-J\"\n\
                [text]\nundo = \"Alt-U\"\n\
                [\"profiles.form\"]\nsave = \"Alt-W\"\nreveal = \"Alt-R\"\n";
    let mut t = TestApp::with_keys_file(120, 40, file).expect("a good keys file");
    t.press(KeyCode::F(3));
    t.alt('s');
    assert!(t.status.contains("Alt-S switches back"), "{}", t.status);
    t.alt('s');
    t.alt('j');
    assert!(t.status.contains("Alt-J switches back"), "{}", t.status);
    t.assert_line("Order (order_purchase) · Alt-J: list");
    t.alt('j');
    assert!(
        t.status.contains("Alt-J switches to an order"),
        "{}",
        t.status
    );
    t.ctrl('e');
    t.assert_line("Batch JSON (raw, Ctrl-E: form)");
    t.alt('s');
    assert!(t.status.contains("Ctrl-E back to it first"), "{}", t.status);
    t.alt('j');
    assert!(t.status.contains("Ctrl-E back to it first"), "{}", t.status);
    t.ctrl('e');
    t.app.events.focus = crate::tui::components::events::Focus::Items;
    t.press(KeyCode::Char('a'));
    assert!(t.status.contains("Alt-U takes it back"), "{}", t.status);
    t.press(KeyCode::Char('x'));
    assert!(t.status.contains("Alt-U brings it back"), "{}", t.status);
    let screen = t.screen();
    assert!(
        !screen.contains("Ctrl-Z") && !screen.contains("Ctrl-P"),
        "{screen}"
    );
    // The profile editor's title and the preset's message.
    use crate::store::{KeySource, Profile};
    let mut shop = Profile {
        rest_key: KeySource::Stored(crate::core::Secret::new("s3cr3t-rest-key")),
        ..Profile::new("shop")
    };
    shop.set_api_key("shop-public");
    t.update(crate::tui::message::Message::Profiles(
        crate::tui::components::profiles::ProfilesMsg::Loaded {
            profiles: vec![Profile::demo(), shop],
            errors: vec![],
            dir: std::path::PathBuf::from("/cfg/profiles"),
        },
    ));
    t.press(KeyCode::F(5));
    t.press(KeyCode::Down);
    t.press(KeyCode::Char('e'));
    t.assert_line("Editing shop (Enter or Alt-W saves, Esc leaves)");
    t.assert_line("(Alt-R reveals)");
    t.alt('v');
    assert!(t.status.contains("(Alt-W saves)"), "{}", t.status);
}
