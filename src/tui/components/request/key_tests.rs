//! The REST key in the workbench, through the whole `update` (TestApp): a typed key is saved
//! only by the user's choice at Ctrl-S, the label follows the key back after undo, and a key
//! source is read off the UI thread with a visible state that Esc cancels.

use crossterm::event::KeyCode;

use crate::core::Secret;
use crate::store::{KeySource, Profile};
use crate::tui::app::Popup;
use crate::tui::component::KeyRead;
use crate::tui::components::request::RequestMsg;
use crate::tui::components::request::{Field, Prompt, RESOLVING, TYPED_KEY};
use crate::tui::effect::Command;
use crate::tui::message::Message;
use crate::tui::runtime::loaded_profile;
use crate::tui::test_util::TestApp;

const ENV_KEY: &str = "the-key-from-the-environment";

/// Profile "shop" whose key comes from the environment variable SHOP_KEY, read (as the runtime
/// answers) as [`ENV_KEY`].
fn shop() -> TestApp {
    let mut a = TestApp::new(140, 30);
    let mut p = Profile::new("shop");
    p.rest_key = KeySource::Env("SHOP_KEY".into());
    let loaded = loaded_profile(p, "http://127.0.0.1:9".into(), String::new());
    assert!(
        loaded.key.is_none(),
        "an environment key is read off the UI thread"
    );
    let cmds = a.update(Message::ProfileLoaded(Ok(loaded)));
    let id = cmds
        .iter()
        .find_map(|c| match c {
            Command::ResolveKey(KeyRead { id, source }) => {
                assert_eq!(*source, KeySource::Env("SHOP_KEY".into()));
                Some(*id)
            }
            _ => None,
        })
        .expect("the key source is read by the runtime");
    let cmds = a.update(Message::Request(RequestMsg::KeyResolved {
        id,
        result: Ok(Secret::new(ENV_KEY)),
    }));
    a.run_signing(cmds);
    a.request.focus = Field::RestKey;
    a.request.normal_mode = false;
    a
}

fn save_of(cmds: &[Command]) -> Option<(Option<String>, bool)> {
    cmds.iter().find_map(|c| match c {
        Command::SaveProfile(s) => Some((
            s.typed_key.as_ref().map(|k| k.expose().to_string()),
            s.as_new,
        )),
        _ => None,
    })
}

#[test]
fn the_key_of_the_source_is_labelled_with_it_and_saves_without_asking() {
    let mut a = shop();
    assert_eq!(a.request.key().expose(), ENV_KEY);
    assert_eq!(a.request.key_info.source, "environment variable SHOP_KEY");
    assert!(!a.unsaved());
    let cmds = a.ctrl('s');
    assert_eq!(save_of(&cmds), Some((None, false)));
    assert!(a.request.prompt.is_none());
}

#[test]
fn ctrl_s_with_a_typed_key_asks_and_k_keeps_the_source_and_drops_the_key() {
    let mut a = shop();
    a.ctrl('u');
    a.type_str("typed-secret-1");
    assert_eq!(a.request.key_info.source, TYPED_KEY);
    assert!(a.unsaved(), "a typed key is not saved yet");
    // Ctrl-S asks; nothing is saved yet.
    let cmds = a.ctrl('s');
    assert_eq!(save_of(&cmds), None, "{cmds:?}");
    assert!(matches!(a.request.prompt, Some(Prompt::KeyChoice(_))));
    let screen = a.screen();
    assert!(screen.contains("Save the typed REST key?"), "{screen}");
    assert!(
        screen.contains("s: store it in the profile file (mode 0600)"),
        "{screen}"
    );
    assert!(
        screen.contains("k: keep the profile's key source and drop the typed key"),
        "{screen}"
    );
    assert!(
        screen.contains("(environment variable SHOP_KEY)"),
        "{screen}"
    );
    // Another key leaves the question open.
    assert!(a.press(KeyCode::Char('x')).is_empty());
    assert!(matches!(a.request.prompt, Some(Prompt::KeyChoice(_))));
    // k: saved without the typed key.
    let cmds = a.press(KeyCode::Char('k'));
    assert_eq!(save_of(&cmds), Some((None, false)));
    a.update(Message::ProfileSaved(Ok("shop".into())));
    assert!(
        a.status.contains("the typed REST key was dropped (not written); the key comes from environment variable SHOP_KEY"),
        "{}",
        a.status
    );
    assert_eq!(a.request.rest_key.text(), ENV_KEY);
    assert_eq!(a.request.key().expose(), ENV_KEY);
    assert_eq!(a.request.key_info.source, "environment variable SHOP_KEY");
    assert!(!a.unsaved());
}

#[test]
fn s_stores_the_typed_key_and_says_so() {
    let mut a = shop();
    a.ctrl('u');
    a.type_str("typed-secret-2");
    a.ctrl('s');
    let cmds = a.press(KeyCode::Char('s'));
    assert_eq!(save_of(&cmds), Some((Some("typed-secret-2".into()), false)));
    a.update(Message::ProfileSaved(Ok("shop".into())));
    assert_eq!(
        a.status,
        "profile shop saved; the typed REST key is stored in the profile file (mode 0600)"
    );
    assert_eq!(
        a.request.key_info.source,
        "stored in the profile file (***)"
    );
    assert!(!a.unsaved());
    // The stored key is the profile's now: typing it again is not a new key.
    a.ctrl('u');
    a.type_str("typed-secret-2");
    assert!(!a.request.key_typed());
}

/// The operating system's key store is offered first: `o` hands the typed key to the runtime
/// for the store (never for the file), and once saved the profile reads it from
/// `keyring:signscope/NAME`; a save the runtime could not do (no store) leaves the key typed.
#[test]
fn o_keeps_the_typed_key_in_the_os_store_and_says_so() {
    let mut a = shop();
    a.ctrl('u');
    a.type_str("typed-secret-3");
    a.ctrl('s');
    let screen = a.screen();
    let (o, s) = (
        screen.find("o: keep it in the operating system's key store"),
        screen.find("s: store it in the profile file"),
    );
    assert!(o.is_some() && o < s, "{screen}");
    let cmds = a.press(KeyCode::Char('o'));
    let job = cmds.iter().find_map(|c| match c {
        Command::SaveProfile(s) => Some(s),
        _ => None,
    });
    let job = job.expect("a save");
    assert!(job.typed_key_to_os_store);
    assert_eq!(
        job.typed_key.as_ref().map(|k| k.expose()),
        Some("typed-secret-3")
    );
    // No store reachable: the runtime's sentence, and the key stays typed.
    a.update(Message::ProfileSaved(Err("not saved: no key store".into())));
    assert!(a.request.key_typed());
    a.ctrl('s');
    a.press(KeyCode::Char('o'));
    a.update(Message::ProfileSaved(Ok("shop".into())));
    assert_eq!(
        a.status,
        "profile shop saved; the typed REST key is kept in the operating system's key store (keyring:signscope/shop)"
    );
    assert_eq!(
        a.request.key_info.source,
        "operating-system key store entry keyring:signscope/shop"
    );
    assert!(!a.unsaved());
    a.ctrl('u');
    a.type_str("typed-secret-3");
    assert!(!a.request.key_typed());
}

#[test]
fn esc_cancels_the_save_and_a_quit_waiting_for_it() {
    let mut a = shop();
    a.type_str("X");
    a.ctrl('q');
    assert_eq!(a.popup, Some(Popup::ConfirmQuit(Default::default())));
    // s: save, then quit; the save asks about the key first.
    let cmds = a.press(KeyCode::Char('s'));
    assert_eq!(save_of(&cmds), None);
    assert!(a.quit_after_save);
    let cmds = a.press(KeyCode::Esc);
    assert!(cmds.is_empty(), "{cmds:?}");
    assert!(!a.quit_after_save, "the cancelled save does not quit later");
    assert!(!a.quit);
    assert!(a.status.contains("not saved"), "{}", a.status);
    assert_eq!(a.request.key_info.source, TYPED_KEY, "the typed key stays");
}

#[test]
fn save_as_asks_too_and_saves_a_new_file() {
    let mut a = shop();
    a.type_str("X");
    a.alt('s');
    a.ctrl('u');
    a.type_str("copy");
    let cmds = a.press(KeyCode::Enter);
    assert_eq!(save_of(&cmds), None);
    let cmds = a.press(KeyCode::Char('s'));
    assert_eq!(save_of(&cmds), Some((Some(format!("{ENV_KEY}X")), true)));
}

#[test]
fn undo_back_to_the_profiles_key_gives_back_its_label_and_nothing_to_save() {
    let mut a = shop();
    a.type_str("Z");
    assert_eq!(a.request.key_info.source, TYPED_KEY);
    assert!(a.unsaved());
    a.ctrl('z');
    assert_eq!(a.request.rest_key.text(), ENV_KEY);
    assert_eq!(a.request.key_info.source, "environment variable SHOP_KEY");
    assert!(!a.unsaved(), "the profile is not marked modified");
    assert!(!a.request.dirty);
    let screen = a.screen();
    assert!(
        screen.contains("[environment variable SHOP_KEY]"),
        "{screen}"
    );
    assert!(!screen.contains(TYPED_KEY), "{screen}");
    let cmds = a.ctrl('s');
    assert_eq!(
        save_of(&cmds),
        Some((None, false)),
        "no question: nothing typed"
    );
}

#[test]
fn while_the_key_is_read_the_field_says_so_sending_waits_and_esc_cancels() {
    let mut a = TestApp::new(100, 30);
    let mut p = Profile::new("slow");
    p.rest_key = KeySource::Command(vec!["sleep".into(), "30".into()]);
    let loaded = loaded_profile(p, "http://127.0.0.1:9".into(), String::new());
    let cmds = a.update(Message::ProfileLoaded(Ok(loaded)));
    let id = cmds
        .iter()
        .find_map(|c| match c {
            Command::ResolveKey(KeyRead { id, .. }) => Some(*id),
            _ => None,
        })
        .unwrap();
    // The signature is asked for at once; its answer says the key is being read.
    let signs: Vec<Command> = cmds
        .into_iter()
        .filter(|c| matches!(c, Command::Sign(_)))
        .collect();
    a.run_signing(signs);
    let screen = a.screen();
    assert!(screen.contains(RESOLVING), "{screen}");
    assert!(a
        .status
        .contains("resolving the REST key (command `sleep 30`)"));
    let cmds = a.ctrl('g');
    assert!(
        !cmds.iter().any(|c| matches!(c, Command::Send(_))),
        "{cmds:?}"
    );
    assert!(a
        .status
        .starts_with("not sent: the REST key is still being read"));
    // Esc stops the read; its late answer is dropped.
    let cmds = a.press(KeyCode::Esc);
    assert!(matches!(cmds.as_slice(), [Command::CancelKey(i)] if *i == id));
    assert!(
        a.status
            .contains("reading the REST key (command `sleep 30`) was cancelled"),
        "{}",
        a.status
    );
    let late = a.update(Message::Request(RequestMsg::KeyResolved {
        id,
        result: Ok(Secret::new("late")),
    }));
    assert!(late.is_empty());
    assert_eq!(a.request.key().expose(), "");
    // A key typed now signs.
    a.request.focus = Field::RestKey;
    let cmds = a.type_str("k");
    a.run_signing(cmds);
    assert!(a.assert_line("sig ").contains('✓'), "{}", a.screen());
}

#[test]
fn a_key_command_that_fails_or_times_out_is_named() {
    let mut a = TestApp::new(160, 30);
    let mut p = Profile::new("slow");
    p.rest_key = KeySource::Command(vec!["pass".into(), "show".into(), "shop".into()]);
    let cmds = a.update(Message::ProfileLoaded(Ok(loaded_profile(
        p,
        "http://127.0.0.1:9".into(),
        String::new(),
    ))));
    let id = cmds
        .iter()
        .find_map(|c| match c {
            Command::ResolveKey(KeyRead { id, .. }) => Some(*id),
            _ => None,
        })
        .unwrap();
    // What the runtime answers when the command ran out of time.
    let timeout = crate::store::KeyError::CommandTimeout {
        program: "pass".into(),
        seconds: 30,
    };
    let cmds = a.update(Message::Request(RequestMsg::KeyResolved {
        id,
        result: Err(timeout.to_string()),
    }));
    a.run_signing(cmds);
    assert!(
        a.status
            .contains("the REST key command `pass` did not finish within 30 s and was stopped"),
        "{}",
        a.status
    );
    // The sentence, with its fix, is longer than the signature line: the Canonical text pane
    // holds it whole.
    let sig = a.assert_line("sig ");
    assert!(sig.contains("not signed"), "{sig}");
    let screen = a.screen();
    assert!(
        screen.contains("did not finish within 30 s and was stopped")
            && screen.contains("or give another reference"),
        "{screen}"
    );
}

#[test]
fn the_question_is_whole_at_80x24() {
    let mut a = shop();
    a.resize(80, 24);
    a.type_str("X");
    a.ctrl('s');
    let screen = a.screen();
    // Wrapped at 80 columns, every word of every choice is on screen.
    let shown: String = screen
        .lines()
        .map(|l| l.trim_matches(|c| c == '│' || c == ' '))
        .collect::<Vec<_>>()
        .join(" ");
    for line in crate::tui::components::request::key_choice::lines(&a.request) {
        for word in line.split_whitespace() {
            assert!(shown.contains(word), "{word}: {screen}");
        }
    }
    assert!(screen.contains("k: keep the profile's key"), "{screen}");
}
