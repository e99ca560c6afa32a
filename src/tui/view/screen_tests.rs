//! Whole screens read back from a TestBackend: the canonical text's line ends at every width,
//! the cursor under popups, and text that must never be cut.

use ratatui::layout::Rect;

use crate::core::visible::visible_lines;
use crate::tui::components::request::request_layout;
use crate::tui::test_util::TestApp;

/// The demo workbench with `body` (timestamp frozen at the fixture's clock), signed.
fn app_with_body(w: u16, h: u16, body: &str) -> TestApp {
    let mut a = TestApp::with_body(w, h, body);
    a.request.ts_live = false;
    a.sign_now();
    a
}

/// The logical lines of the canonical panel as drawn: each row's text after the label column,
/// a row whose label column holds the wrap gutter `↪` continuing the line before it.
fn canonical_on_screen(a: &mut TestApp) -> Vec<String> {
    let (w, h) = a.size;
    let canon = request_layout(Rect::new(0, 0, w, h)).canonical;
    let inner = Rect::new(
        canon.x + 1,
        canon.y + 1,
        canon.width.saturating_sub(2),
        canon.height.saturating_sub(2),
    );
    // The label column is 13 wide, 7 on panels under 60 columns.
    let label_w = if inner.width < 60 { 7 } else { 13 };
    let rows = a.lines();
    let mut lines: Vec<String> = vec![];
    for y in inner.y..inner.y + inner.height {
        let row: String = rows[y as usize]
            .chars()
            .skip(inner.x as usize)
            .take(inner.width as usize)
            .collect();
        let label: String = row.chars().take(label_w).collect();
        let text: String = row.chars().skip(label_w).collect();
        let text = text.trim_end().to_string();
        if label.contains('↪') {
            match lines.last_mut() {
                Some(l) => l.push_str(&text),
                None => panic!("a continuation row first:\n{}", rows.join("\n")),
            }
        } else if !text.is_empty() || !label.trim().is_empty() {
            lines.push(text);
        }
    }
    lines
}

/// What the panel must show: the canonical text's lines, each LF as a `\n` at its line's end.
fn expected_canonical(a: &TestApp) -> Vec<String> {
    visible_lines(&a.request.signable().canonical().to_bytes())
}

#[test]
fn line_end_markers_of_50_and_51_character_lines_are_whole_at_120x40() {
    let body = format!("{}\n{}\n[1]", "a".repeat(50), "b".repeat(51));
    let mut a = app_with_body(120, 40, &body);
    let screen = a.screen();
    let shown = canonical_on_screen(&mut a);
    assert_eq!(shown, expected_canonical(&a), "\n{screen}");
    // Each body line's own row ends in the whole marker; no row ends in a lone backslash.
    assert!(
        screen.lines().all(|r| !r.trim_end().ends_with("a\\")),
        "{screen}"
    );
    assert!(
        screen.lines().any(|r| r.contains("aa\\n")),
        "the 50-character line ends in \\n:\n{screen}"
    );
    assert!(
        screen.lines().any(|r| r.contains("bb\\n")),
        "the 51-character line ends in \\n:\n{screen}"
    );
    // The wrapped lines are marked as wraps.
    assert!(screen.contains('↪'), "{screen}");
}

#[test]
fn line_end_markers_are_never_cut_or_dropped_at_any_width() {
    // Lines of every length around the panel's width, escapes where a wrap would fall.
    let mut body: Vec<String> = (1..=70).map(|n| "x".repeat(n)).collect();
    body.push(format!("{}\t{}", "t".repeat(40), "u".repeat(8)));
    body.push(format!("{}\u{a0}end", "n".repeat(33)));
    body.push(format!("{}\\{}", "s".repeat(29), "s".repeat(29)));
    let body = body.join("\n");
    for w in (60..=200).step_by(3) {
        let h = 600;
        let mut a = app_with_body(w, h, &body);
        let shown = canonical_on_screen(&mut a);
        let want = expected_canonical(&a);
        assert_eq!(shown, want, "at {w}x{h}:\n{}", a.screen());
    }
}

/// Whether the terminal cursor is shown after a frame, and where.
fn cursor_after_frame(a: &mut TestApp) -> Option<(u16, u16)> {
    a.draw();
    let b = a.term.backend();
    b.cursor_visible().then(|| {
        let p = b.cursor_position();
        (p.x, p.y)
    })
}

#[test]
fn the_cursor_is_hidden_behind_popups_and_sits_in_the_palette_filter() {
    use crossterm::event::KeyCode;
    for (w, h) in [(80, 24), (120, 40), (200, 50)] {
        let mut a = app_with_body(w, h, "[1]");
        let body = request_layout(Rect::new(0, 0, w, h)).body;
        let at = cursor_after_frame(&mut a).expect("a cursor in the focused body");
        assert!(body.contains(at.into()), "{at:?} in {body:?}");
        // Help over the view: no cursor through it.
        a.press(KeyCode::F(1));
        assert!(a.popup.is_some());
        assert_eq!(cursor_after_frame(&mut a), None, "{w}x{h}:\n{}", a.screen());
        a.press(KeyCode::Esc);
        assert_eq!(cursor_after_frame(&mut a), Some(at));
        // The quit question (the body is edited) hides it too.
        a.type_str("x");
        a.ctrl('q');
        assert!(a.popup.is_some());
        assert_eq!(cursor_after_frame(&mut a), None);
        a.press(KeyCode::Esc);
        // The palette puts it after what was typed in its filter.
        a.ctrl('k');
        a.type_str("sen");
        let screen = a.lines();
        let (x, y) = crate::tui::test_util::find_in(&screen, "> sen").expect("the filter");
        assert_eq!(cursor_after_frame(&mut a), Some((x + 5, y)));
        a.press(KeyCode::Esc);
        // The events view's focused field, then help over it.
        a.press(KeyCode::F(3));
        assert!(cursor_after_frame(&mut a).is_some(), "{}", a.screen());
        a.press(KeyCode::F(1));
        assert_eq!(cursor_after_frame(&mut a), None);
    }
}

#[test]
fn the_message_log_keeps_the_last_100_messages_in_full() {
    use crate::tui::message::Message;
    use crossterm::event::KeyCode;
    let mut a = app_with_body(80, 24, "[1]");
    for i in 0..120 {
        a.update(crate::tui::message::Message::Status(format!(
            "message number {i:03}"
        )));
        a.update(Message::Resize(80, 24));
    }
    let long = format!("a long message {} END", "z".repeat(300));
    a.update(crate::tui::message::Message::Status(long.clone()));
    a.update(Message::Resize(80, 24));
    // The same message again is not logged twice.
    a.update(Message::Resize(80, 24));
    assert_eq!(a.log.len(), 100);
    a.alt('m');
    let lines = a.lines();
    let screen = lines.join("\n");
    // The popup's inside: from its title's corner to the corner at the end of that row.
    let (x0, y0) = crate::tui::test_util::find_in(&lines, "┌ Messages (last 100").expect(&screen);
    let x1 = x0 as usize
        + lines[y0 as usize]
            .chars()
            .skip(x0 as usize)
            .position(|c| c == '┐')
            .unwrap()
        + 1;
    // Opened on the newest: the long one, whole (wrapped over several rows).
    let shown: String = lines
        .iter()
        .map(|r| {
            r.chars()
                .skip(x0 as usize + 1)
                .take(x1 - x0 as usize - 2)
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("");
    assert!(
        shown.contains(&"z".repeat(300)) && shown.contains("END"),
        "{screen}"
    );
    // The oldest kept is the 22nd of 121; the 21st was dropped.
    a.press(KeyCode::Home);
    let screen = a.screen();
    assert!(screen.contains("message number 021"), "{screen}");
    assert!(!screen.contains("message number 020"), "{screen}");
    a.press(KeyCode::Char('x'));
    assert!(a.popup.is_none());
    // An actual message of a view lands there too.
    a.request.url.set("");
    a.ctrl('g');
    assert!(a.log.iter().any(|m| m.contains("the URL is empty")));
}

#[test]
fn a_key_source_that_fails_is_named_instead_of_an_empty_key() {
    use crate::store::{KeySource, Profile};
    use crate::tui::message::Message;
    let var = "SIGNSCOPE_WORKBENCH_TEST_SURELY_UNSET_KEY";
    let mut p = Profile::new("from-env");
    p.rest_key = KeySource::Env(var.into());
    let loaded = crate::tui::runtime::loaded_profile(p, "http://127.0.0.1:9".into(), String::new());
    let mut a = TestApp::new(200, 50);
    let cmds = a.update(Message::ProfileLoaded(Ok(loaded)));
    a.run_signing(cmds);
    let screen = a.screen();
    let why = format!("the environment variable {var} that should hold the REST key is not set");
    let sig = a.assert_line("sig ");
    assert!(sig.contains(&why), "{screen}");
    assert!(!screen.contains("REST API key is empty"), "{screen}");
    // A typed key replaces the failed source: it signs.
    a.request.focus = crate::tui::components::request::Field::RestKey;
    let cmds = a.type_str("k");
    a.run_signing(cmds);
    assert!(a.assert_line("sig ").contains('✓'), "{}", a.screen());
    let screen = a.screen();
    assert!(!screen.contains(&why), "{screen}");
}

/// Verbs that name the same kind of action: a view's main action sends (or, in Diagnose,
/// verifies what would be sent).
const SAME_KIND: &[&[&str]] = &[&["send", "verify"]];

/// The kind of what a help row says a key does: its first word, with synonyms merged.
fn kind_of(what: &str) -> String {
    let verb = what
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    SAME_KIND
        .iter()
        .find(|group| group.contains(&verb.as_str()))
        .map_or(verb, |group| group[0].to_string())
}

/// No chord (Ctrl-, Alt-, a function key, PageUp/PageDown) does two unrelated things in two
/// views: read from the help table of every view (the tables the dispatchers read), every key
/// bound in two places is described with the same verb.
#[test]
fn no_key_in_the_help_table_does_two_unrelated_things() {
    use crate::tui::layout::View;
    use std::collections::BTreeMap;
    let mut a = TestApp::new(120, 40);
    let mut uses: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for v in View::ALL {
        a.app.view = v;
        for (keys, what) in crate::tui::popups::help::bindings(&a.app.popup_ctx()) {
            for key in keys.split(" / ") {
                let key = key.trim();
                let chord = key.starts_with("Ctrl-")
                    || key.starts_with("Alt-")
                    || key == "PageUp"
                    || key == "PageDown"
                    || (key.len() > 1
                        && key.starts_with('F')
                        && key[1..].chars().all(|c| c.is_ascii_digit()));
                if !chord {
                    continue;
                }
                let entry = uses.entry(key.to_string()).or_default();
                if !entry.iter().any(|(_, w)| *w == what) {
                    entry.push((v.title().to_string(), what.clone()));
                }
            }
        }
    }
    let clashes: Vec<String> = uses
        .iter()
        .filter(|(_, used)| {
            let kinds: std::collections::BTreeSet<String> =
                used.iter().map(|(_, w)| kind_of(w)).collect();
            kinds.len() > 1
        })
        .map(|(key, used)| format!("{key}: {used:?}"))
        .collect();
    assert!(uses.contains_key("Ctrl-G") && uses.contains_key("Alt-Y"));
    assert!(
        clashes.is_empty(),
        "keys that do unrelated things in different views:\n{}",
        clashes.join("\n")
    );
}

/// Ctrl-Z / Ctrl-Y (and Ctrl-Shift-Z) undo and redo in a one-line field and in the body; Ctrl-S
/// in the Events view saves (asks for a file), never sends; Ctrl-G sends there.
#[test]
fn undo_redo_and_save_keys_mean_the_same_in_every_view() {
    use crate::tui::components::events::EventsEffect;
    use crate::tui::components::request::Field;
    use crate::tui::effect::Command;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut a = TestApp::new(120, 40);
    a.request.focus = Field::Query;
    a.type_str("a=1");
    a.ctrl('z');
    assert_eq!(a.request.query.text(), "a=");
    a.ctrl('z');
    assert_eq!(a.request.query.text(), "a");
    a.ctrl('y');
    assert_eq!(a.request.query.text(), "a=");
    a.update(crate::tui::message::Message::Key(KeyEvent::new(
        KeyCode::Char('Z'),
        KeyModifiers::CONTROL | KeyModifiers::SHIFT,
    )));
    assert_eq!(a.request.query.text(), "a=1");
    // The body: the same keys.
    a.request.focus = Field::Body;
    let before = a.request.body.text().to_string();
    a.type_str("xy");
    assert_ne!(a.request.body.text(), before);
    a.ctrl('z');
    a.ctrl('z');
    assert_eq!(a.request.body.text(), before);
    a.ctrl('y');
    a.ctrl('y');
    assert!(a.request.body.text().contains("xy"));
    // Ctrl-U / Ctrl-R do nothing in the body now.
    let now = a.request.body.text().to_string();
    a.ctrl('u');
    a.ctrl('r');
    assert_eq!(a.request.body.text(), now);
    // Events: Ctrl-S asks where to save; Ctrl-G sends.
    a.press(KeyCode::F(3));
    let cmds = a.ctrl('s');
    assert!(
        !cmds
            .iter()
            .any(|c| matches!(c, Command::Events(EventsEffect::SendEvents { .. }))),
        "{cmds:?}"
    );
    assert!(a.screen().contains("Save batch to:"), "{}", a.screen());
    a.press(KeyCode::Esc);
    let cmds = a.ctrl('g');
    assert!(
        cmds.iter()
            .any(|c| matches!(c, Command::Events(EventsEffect::SendEvents { .. }))),
        "{cmds:?}"
    );
}

/// Text without its blanks: a panel's text reads the same wrapped at spaces or between
/// characters.
fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The text inside a panel's border, its rows joined, without blanks (see [`squeeze`]).
fn panel_text(a: &mut TestApp, panel: Rect) -> String {
    let rows = a.lines();
    (panel.y + 1..panel.y + panel.height.saturating_sub(1))
        .map(|y| {
            rows[y as usize]
                .chars()
                .skip(panel.x as usize + 1)
                .take(panel.width.saturating_sub(2) as usize)
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .map(|r| squeeze(&r))
        .collect::<Vec<_>>()
        .join("")
}

/// At 80x24, 120x40 and 200x50 nothing is cut that cannot be read: the pipeline's headings,
/// the diff placeholder and a long response line wrap in the detail panel; a long status line
/// says where it continues (the message log keeps it whole); help rows wrap at 80 columns.
#[test]
fn nothing_is_cut_at_80x24_120x40_and_200x50() {
    use crate::tui::components::request::Detail;
    for (w, h) in [(80u16, 24u16), (120, 40), (200, 50)] {
        let mut a = app_with_body(w, h, "[1]");
        let detail = request_layout(Rect::new(0, 0, w, h)).detail;
        // Pipeline headings (the first fits every size; the panel scrolls for the rest).
        a.request.detail = Detail::Pipeline;
        let text = panel_text(&mut a, detail);
        assert!(
            text.contains(&squeeze(
                "1 canonical bytes — the exact text signed: 7 lines + body, joined by LF"
            )),
            "{w}x{h}: {text}\n{}",
            a.screen()
        );
        // The diff placeholder.
        a.request.detail = Detail::Diff;
        let text = panel_text(&mut a, detail);
        assert!(
            text.contains(&squeeze("appear here line by line.")),
            "{w}x{h}: {text}\n{}",
            a.screen()
        );
        // A response whose body line is far wider than the panel.
        let long = format!("{{\"message\": \"{}END\"}}", "m".repeat(150));
        a.request.response = Some(crate::tui::test_util::plain_response(vec![long.clone()]));
        a.request.detail = Detail::Response;
        let text = panel_text(&mut a, detail);
        assert!(
            text.contains(&squeeze(&long)),
            "{w}x{h}: {text}\n{}",
            a.screen()
        );
        // A status line longer than the screen ends in the way to read it whole.
        a.update(crate::tui::message::Message::Status(format!(
            "a long status {} TAIL",
            "s".repeat(250)
        )));
        a.update(crate::tui::message::Message::Resize(w, h));
        let last = a.lines().pop().unwrap();
        assert!(last.trim_end().ends_with("… Alt-M"), "{w}x{h}: {last}");
        assert!(a.log.iter().any(|m| m.ends_with("TAIL")));
        // Help rows fit the popup: each description whole, word-wrapped under its key.
        a.app.view = crate::tui::layout::View::Request;
        let inner = (100.min(w) - 2) as usize;
        let table = crate::tui::popups::help::help_table(&a.app.popup_ctx());
        for (k, d) in &table {
            let row = format!("{k}{d}");
            assert!(
                row.chars().count() <= inner,
                "{w}x{h}: {row:?} wider than {inner}"
            );
        }
        for (_, d) in crate::tui::popups::help::bindings(&a.app.popup_ctx()) {
            let pieces: Vec<&str> = table.iter().map(|(_, p)| p.as_str()).collect();
            assert!(
                pieces.join(" ").contains(&d),
                "{w}x{h}: {d:?} is not whole in the help"
            );
        }
    }
}

/// Below the size the views are laid out for, the screen says so (whole, wrapped, at every
/// small size) instead of drawing slivers of panes; keys wait for a bigger window.
#[test]
fn a_terminal_below_the_layouts_size_shows_the_too_small_screen() {
    use crossterm::event::KeyCode;
    let mut a = TestApp::new(80, 24);
    a.assert_no_line("Terminal too small");
    for (w, h) in [(59u16, 19u16), (60, 18), (60, 16), (40, 12), (30, 8)] {
        a.resize(w, h);
        let screen = a.screen().split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            screen.contains(&format!(
                "Terminal too small: {w}x{h}. signscope needs at least 60x19; enlarge the window (keys wait for it, Ctrl-Q quits)."
            )),
            "{w}x{h}:\n{}",
            a.screen()
        );
        assert!(!screen.contains("F2"), "no tab bar on it: {screen}");
    }
    // A tiny window has the short form, whole.
    a.resize(20, 5);
    let screen = a.screen().split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        screen.contains("20x5 too small; needs 60x19"),
        "{}",
        a.screen()
    );
    // A click where a tab would be does nothing, nor does a key: the view is the one shown
    // before.
    a.resize(40, 12);
    a.click(5, 0);
    assert_eq!(a.view, crate::tui::layout::View::Request);
    a.press(KeyCode::F(3));
    a.resize(60, 19);
    a.assert_no_line("Terminal too small");
    assert_eq!(a.view, crate::tui::layout::View::Request);
}

/// Keys typed while the "too small" screen hides the view were read by it: `abc` went into a
/// body no one could see, Ctrl-G sent it, and a `d` answered a hidden quit question (the edits
/// were gone). Now no key, paste or send reaches the view; the quit key quits only when nothing
/// is unsaved, and the screen says the edits are kept.
#[test]
fn keys_typed_on_the_too_small_screen_reach_nothing_and_quit_loses_nothing() {
    use crate::tui::components::request::Field;
    use crate::tui::effect::Command;
    use crate::tui::message::Message;
    use crossterm::event::KeyCode;
    let mut a = TestApp::new(80, 24);
    a.sign_now();
    a.app.request.focus = Field::Body;
    let body = a.app.request.body.text().to_string();
    a.resize(50, 12);
    let mut cmds = a.type_str("abc");
    cmds.extend(a.update(Message::Paste("pasted".into())));
    cmds.extend(a.ctrl('g'));
    cmds.extend(a.press(KeyCode::Enter));
    assert!(cmds.is_empty(), "nothing done: {cmds:?}");
    assert_eq!(
        a.app.request.body.text().to_string(),
        body,
        "the body is untouched"
    );
    // With nothing unsaved the quit key quits.
    assert!(a.ctrl('q').iter().any(|c| matches!(c, Command::Quit)));

    // With an unsaved edit: the quit key (and any answer to a question) does nothing here.
    let mut a = TestApp::new(80, 24);
    a.sign_now();
    a.app.request.focus = Field::Body;
    a.type_str("x");
    let edited = a.app.request.body.text().to_string();
    a.resize(50, 12);
    let screen = a.screen().split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        screen.contains("keys wait for it; the edits are kept"),
        "{screen}"
    );
    let mut cmds = a.ctrl('q');
    cmds.extend(a.press(KeyCode::Char('d')));
    cmds.extend(a.press(KeyCode::Char('y')));
    assert!(cmds.is_empty(), "{cmds:?}");
    assert!(!a.app.quit && a.app.popup.is_none());
    a.resize(80, 24);
    assert_eq!(a.app.request.body.text().to_string(), edited);
    // The same quit at a size that shows the question asks it.
    a.ctrl('q');
    assert!(a.app.popup.is_some(), "the quit question is open");
}

/// The Events view drew a hint row of its own above the workbench's footer, and the two
/// disagreed (`Ctrl-P raw/form` and `Ctrl-P form`): one row of keys, the footer's.
#[test]
fn the_events_view_has_one_hint_row() {
    use crossterm::event::KeyCode;
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        let mut a = TestApp::new(w, h);
        a.press(KeyCode::F(3));
        let rows: Vec<String> = a
            .lines()
            .into_iter()
            .filter(|l| l.contains("Ctrl-G"))
            .collect();
        assert_eq!(rows.len(), 1, "{w}x{h}: {rows:#?}");
    }
}

/// The footer said `Ctrl-T freeze` while the timestamp was frozen: frozen, it says what the
/// key does then (`live`), as the fields' border does.
#[test]
fn the_footer_says_what_the_timestamp_key_does_now() {
    let mut a = TestApp::new(80, 24);
    a.request.focus = crate::tui::components::request::Field::Timestamp;
    let footer = a.lines()[22].clone();
    assert!(footer.contains("Ctrl-T freeze"), "{footer}");
    a.ctrl('t');
    assert!(!a.request.ts_live);
    let footer = a.lines()[22].clone();
    assert!(footer.contains("Ctrl-T live"), "{footer}");
    assert!(!footer.contains("freeze"), "{footer}");
    a.assert_line("timestamp frozen · Ctrl-T live");
}
