//! A request that cannot be signed, and a signature row narrower than the signature, through
//! the one fixture ([`TestApp`]): what the screen says instead of a signature is true and never
//! cut without a mark.

use crate::store::{KeySource, Profile};
use crate::tui::message::Message;
use crate::tui::runtime::loaded_profile;
use crate::tui::test_util::TestApp;

/// A profile whose REST key comes from an environment variable that is not set, loaded as the
/// runtime loads it (the source read for real): the request cannot be signed.
fn unsigned(w: u16, h: u16) -> TestApp {
    let mut t = TestApp::new(w, h);
    t.sign_now();
    let mut p = Profile::new("my-prof");
    p.rest_key = KeySource::Env("SIGNSCOPE_TEST_KEY_THAT_IS_NEVER_SET".into());
    let loaded = loaded_profile(p, "http://127.0.0.1:9".into(), String::new());
    let cmds = t.update(Message::ProfileLoaded(Ok(loaded)));
    t.run_signing(cmds);
    assert!(
        matches!(t.app.request.sign.result, Some(Err(_))),
        "{:?}",
        t.app.request.sign.result.as_ref().map(|r| r.as_ref().err())
    );
    t
}

/// The status bar says `not signed` (not `signing…`, which never ends), and the signature row
/// does not cut the reason where the fix is: it points at the pane that has it whole.
#[test]
fn an_unsignable_request_says_not_signed_and_the_sig_row_cuts_nothing_unmarked_at_80x24() {
    let mut t = unsigned(80, 24);
    let rows = t.lines();
    let bar = rows.last().unwrap();
    assert!(
        bar.contains("│ not signed │") && !bar.contains("signing…"),
        "{bar}"
    );
    let sig = rows.iter().find(|r| r.starts_with("sig ")).unwrap();
    let e = match &t.app.request.sign.result {
        Some(Err(e)) => e.clone(),
        other => panic!("{other:?}"),
    };
    let shown = sig.trim_end().trim_start_matches("sig ");
    assert!(
        shown == e || shown.ends_with('…') || shown.ends_with("says why"),
        "{sig}"
    );
    assert!(
        !shown.contains("SIGNSCOPE_TEST_KEY") || shown == e,
        "a cut reason: {sig}"
    );
    // The Canonical text pane and the Headers tab have it whole, the fix included.
    t.assert_line("fix the profile's key source");
    t.app.request.detail = crate::tui::components::request::Detail::Headers;
    let screen = t.screen();
    assert!(!screen.contains("signing…"), "{screen}");
    assert_eq!(
        screen.matches("fix the profile's key source").count(),
        2,
        "{screen}"
    );
}

/// At 60 columns the signature (64 characters after `sig `) is cut with `…`, never silently.
#[test]
fn a_signature_wider_than_its_row_ends_in_a_mark_at_60_columns() {
    for (w, h) in [(60, 19), (66, 20), (80, 24)] {
        let mut t = TestApp::new(w, h);
        t.sign_now();
        let sig = match &t.app.request.sign.result {
            Some(Ok(s)) => s.signature().to_string(),
            other => panic!("{other:?}"),
        };
        let rows = t.lines();
        let row = rows.iter().find(|r| r.starts_with("sig ")).unwrap();
        let shown = row.split_whitespace().nth(1).unwrap();
        assert!(
            shown == sig || (shown.ends_with('…') && sig.starts_with(shown.trim_end_matches('…'))),
            "{w}x{h}: {row}"
        );
        if w >= 68 {
            assert_eq!(shown, sig, "{w}x{h}: {row}");
        }
    }
}
