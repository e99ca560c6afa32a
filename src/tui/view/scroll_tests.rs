//! Every pane that can overflow scrolls from the keyboard to its last line at 80x24, without
//! skipping a line on the way (PageDown moves less than a page), through the one fixture.

use crossterm::event::KeyCode;

use crate::tui::components::diagnose::DiagnoseMsg;
use crate::tui::layout::View;
use crate::tui::message::Message;
use crate::tui::test_util::TestApp;

/// Press `key` until `last` is on screen (at most `limit` times), collecting every line of
/// `lines` seen on the way; fails when a line was never on screen (skipped) or the end was
/// not reached.
fn scroll_to_end(t: &mut TestApp, key: KeyCode, lines: &[String], last: &str, limit: usize) {
    let mut seen = vec![false; lines.len()];
    for _ in 0..limit {
        let screen = t.screen();
        for (i, l) in lines.iter().enumerate() {
            seen[i] |= screen.contains(l.as_str());
        }
        if screen.contains(last) {
            let skipped: Vec<&String> = lines
                .iter()
                .zip(&seen)
                .filter(|(_, s)| !**s)
                .map(|(l, _)| l)
                .collect();
            assert!(skipped.is_empty(), "never on screen: {skipped:?}");
            return;
        }
        t.press(key);
    }
    panic!("{last:?} never reached with {key:?}:\n{}", t.screen());
}

#[test]
fn the_diagnose_verdict_scrolls_from_the_keyboard_to_its_last_line_at_80x24() {
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(6));
    assert_eq!(t.view, View::Diagnose);
    let lines: Vec<String> = (1..=40).map(|i| format!("finding line {i:02}")).collect();
    t.update(Message::Diagnose(DiagnoseMsg::Diagnosed {
        ok: false,
        lines: lines.clone(),
    }));
    t.assert_no_line("finding line 40");
    // Tab moves the focus to the verdict; Down walks it line by line, PageDown by pages.
    t.press(KeyCode::Tab);
    scroll_to_end(&mut t, KeyCode::Down, &lines, "finding line 40", 60);
    // It stops at the last line (no blank box past it).
    for _ in 0..5 {
        t.press(KeyCode::Down);
    }
    t.assert_line("finding line 40");
    t.press(KeyCode::Home);
    t.assert_line("finding line 01");
    scroll_to_end(&mut t, KeyCode::PageDown, &lines, "finding line 40", 20);
    // i goes back to typing in the capture: the letter is typed there.
    t.press(KeyCode::Char('i'));
    t.type_str("GET");
    assert!(t.diagnose.input.text().starts_with("GET"));
}

/// The collector's response in the Events view scrolled only with the wheel: Tab reaches it
/// (after the problems), and the keys walk it to its last line; it grows with the terminal.
#[test]
fn the_events_response_scrolls_from_the_keyboard_to_its_last_line_at_80x24() {
    use crate::tui::components::events::{EventsMsg, Focus, SendReport};
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(3));
    assert_eq!(t.view, View::Events);
    let problems: Vec<String> = (1..=30).map(|i| format!("\"p{i:02}\": {i}")).collect();
    let body = format!("{{{}}}", problems.join(","));
    t.update(Message::Events(EventsMsg::Sent(Ok(SendReport {
        status: 400,
        body,
        elapsed_ms: 3,
    }))));
    let lines = problems.clone();
    let last = lines.last().unwrap().clone();
    t.assert_no_line(&last);
    // Tab moves the focus pane by pane until the response has it.
    for _ in 0..20 {
        if t.events.focus == Focus::Response {
            break;
        }
        t.press(KeyCode::Tab);
    }
    assert_eq!(t.events.focus, Focus::Response);
    scroll_to_end(&mut t, KeyCode::Down, &lines, &last, 80);
    t.press(KeyCode::Home);
    t.assert_line("HTTP 400");
    scroll_to_end(&mut t, KeyCode::PageDown, &lines, &last, 40);
    // It stops at its last line.
    for _ in 0..5 {
        t.press(KeyCode::PageDown);
    }
    t.assert_line(&last);
}

/// At 120x60 the response pane is taller than the 10 rows it always had.
#[test]
fn the_events_response_grows_with_the_terminal() {
    use crate::tui::components::events::{layout, EventsMsg, SendReport};
    let mut t = TestApp::new(120, 60);
    t.press(KeyCode::F(3));
    t.update(Message::Events(EventsMsg::Sent(Ok(SendReport {
        status: 200,
        body: "{}".into(),
        elapsed_ms: 3,
    }))));
    let main = crate::tui::layout::frame_layout(ratatui::layout::Rect::new(0, 0, 120, 60)).1;
    let pane = layout(main, &t.events).response.expect("a response pane");
    assert!(pane.height >= 20, "{pane:?}");
}

/// The rows inside the border of `pane` on screen, as text (the border columns cut off).
fn inside(t: &mut TestApp, pane: ratatui::layout::Rect) -> Vec<String> {
    t.pane_rows(|_| pane)
        .into_iter()
        .map(|r| {
            r.chars()
                .skip(usize::from(pane.x) + 1)
                .take(usize::from(pane.width.saturating_sub(2)))
                .collect::<String>()
        })
        .collect()
}

/// After the end was reached, `key` more times changes nothing and shows nothing past `last`
/// (blank rows at most): no line is invented below the last one.
fn stays_at_end(t: &mut TestApp, key: KeyCode, pane: ratatui::layout::Rect, last: &str) {
    let before = inside(t, pane);
    for _ in 0..5 {
        t.press(key);
    }
    let after = inside(t, pane);
    assert_eq!(before, after, "{key:?} moved past the end");
    let at = after
        .iter()
        .rposition(|r| r.trim_end() == last)
        .unwrap_or_else(|| panic!("{last:?} is not a row of the pane: {after:#?}"));
    assert!(
        after[at + 1..].iter().all(|r| r.trim().is_empty()),
        "rows after the last line: {after:#?}"
    );
}

/// The batch preview scrolled 10 lines a PageDown whatever its height (8 rows at 80x24): two
/// lines of each page were never on screen. It pages by its height less one, to its last line.
#[test]
fn the_events_preview_scrolls_from_the_keyboard_to_its_last_line_at_80x24() {
    use crate::tui::components::events::{layout, EventsMsg};
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(3));
    // A batch of one event with 30 items, each with its own name and id.
    let mut v: serde_json::Value = serde_json::from_str(t.events.batch_text()).unwrap();
    let item = v[0]["items"][0].clone();
    let items: Vec<serde_json::Value> = (1..=30)
        .map(|i| {
            let mut it = item.clone();
            it["item_name"] = format!("product {i:02}").into();
            it["item_id"] = format!("1001-{i:02}").into();
            it["index"] = i.into();
            it
        })
        .collect();
    v[0]["items"] = items.into();
    let text = serde_json::to_string_pretty(&v).unwrap();
    t.update(Message::Events(EventsMsg::LoadBatch(text.clone())));
    assert_eq!(t.events.batch_text(), text);
    let unique: Vec<String> = text
        .lines()
        .filter(|l| l.contains("product ") || l.contains("\"1001-"))
        .map(|l| l.trim().to_string())
        .collect();
    let last = unique.last().unwrap().clone();
    t.assert_no_line(&last);
    let main = crate::tui::layout::frame_layout(ratatui::layout::Rect::new(0, 0, 80, 24)).1;
    let pane = layout(main, &t.events).preview.expect("a preview pane");
    scroll_to_end(&mut t, KeyCode::PageDown, &unique, &last, 200);
    // On to the closing bracket, and no further.
    for _ in 0..5 {
        t.press(KeyCode::PageDown);
    }
    stays_at_end(&mut t, KeyCode::PageDown, pane, "]");
    // PageUp goes back to the top, page by page, skipping nothing either.
    scroll_to_end(&mut t, KeyCode::PageUp, &unique, &unique[0], 200);
    for _ in 0..20 {
        t.press(KeyCode::PageUp);
    }
    assert_eq!(inside(&mut t, pane)[0].trim_end(), "[");
}

/// The response in the request view's detail panel (Ctrl-P until Response, or a send): PageDown
/// moved 10 lines in a panel of fewer rows at 80x24; J / K (after Esc) walk it line by line.
#[test]
fn the_request_response_scrolls_from_the_keyboard_to_its_last_line_at_80x24() {
    use crate::tui::components::request::Detail;
    let mut t = TestApp::new(80, 24);
    t.sign_now();
    let lines: Vec<String> = (1..=40).map(|i| format!("answer line {i:02}")).collect();
    t.app.request.response = Some(crate::tui::test_util::plain_response(lines.clone()));
    // Ctrl-P cycles the panel to the response.
    while t.request.detail != Detail::Response {
        t.ctrl('p');
    }
    t.assert_line("answer line 01");
    t.assert_no_line("answer line 40");
    scroll_to_end(&mut t, KeyCode::PageDown, &lines, "answer line 40", 40);
    let pane =
        crate::tui::components::request::request_layout(ratatui::layout::Rect::new(0, 0, 80, 24))
            .detail;
    stays_at_end(&mut t, KeyCode::PageDown, pane, "answer line 40");
    for _ in 0..40 {
        t.press(KeyCode::PageUp);
    }
    t.assert_line("answer line 01");
    // After Esc, J walks it one line at a time.
    t.press(KeyCode::Esc);
    scroll_to_end(&mut t, KeyCode::Char('J'), &lines, "answer line 40", 80);
    stays_at_end(&mut t, KeyCode::Char('J'), pane, "answer line 40");
}

/// Forty profiles: Down (and End) reach the last one in the list at 80x24.
#[test]
fn the_profiles_list_scrolls_from_the_keyboard_to_its_last_row_at_80x24() {
    use crate::store::Profile;
    use crate::tui::components::profiles::{layout, ProfilesMsg};
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(5));
    let names: Vec<String> = (1..=40).map(|i| format!("shop-{i:02}")).collect();
    let mut profiles = vec![Profile::demo()];
    profiles.extend(names.iter().map(Profile::new));
    t.update(Message::Profiles(ProfilesMsg::Loaded {
        profiles,
        errors: vec![],
        dir: std::path::PathBuf::from("/cfg/profiles"),
    }));
    t.assert_no_line("shop-40");
    scroll_to_end(&mut t, KeyCode::Down, &names, "shop-40", 60);
    let main = crate::tui::layout::frame_layout(ratatui::layout::Rect::new(0, 0, 80, 24)).1;
    let pane = layout(main, &t.profiles).list;
    let rows = inside(&mut t, pane);
    assert!(rows.last().unwrap().starts_with("shop-40"), "{rows:#?}");
    t.press(KeyCode::Home);
    t.assert_line("shop-01");
    t.press(KeyCode::End);
    let rows = inside(&mut t, pane);
    assert!(rows.last().unwrap().starts_with("shop-40"), "{rows:#?}");
    // The detail pane follows the selection.
    t.assert_line("Profile: shop-40");
}

/// The detail pane lists the files that did not load under the profile: with more than fit at
/// 80x24 their end was out of reach. PageDown / PageUp scroll it.
#[test]
fn the_profiles_detail_scrolls_from_the_keyboard_to_its_last_line_at_80x24() {
    use crate::store::Profile;
    use crate::tui::components::profiles::{layout, ProfilesMsg};
    let mut t = TestApp::new(80, 24);
    t.press(KeyCode::F(5));
    let errors: Vec<String> = (1..=30)
        .map(|i| format!("/cfg/profiles/bad-{i:02}.toml is not valid"))
        .collect();
    t.update(Message::Profiles(ProfilesMsg::Loaded {
        profiles: vec![Profile::demo()],
        errors: errors.clone(),
        dir: std::path::PathBuf::from("/cfg/profiles"),
    }));
    let last = errors.last().unwrap().clone();
    t.assert_no_line(&last);
    scroll_to_end(&mut t, KeyCode::PageDown, &errors, &last, 40);
    let main = crate::tui::layout::frame_layout(ratatui::layout::Rect::new(0, 0, 80, 24)).1;
    let pane = layout(main, &t.profiles).detail;
    // The key line is the detail's last.
    stays_at_end(
        &mut t,
        KeyCode::PageDown,
        pane,
        "r rename  d delete  v reveal",
    );
    for _ in 0..40 {
        t.press(KeyCode::PageUp);
    }
    t.assert_line("Profile: demo");
}

/// The lesson's signing text of a long body did not fit at 80x24 and did not scroll: the
/// signature under it was out of reach. PageDown / PageUp scroll it.
#[test]
fn the_lesson_text_scrolls_from_the_keyboard_to_its_last_line_at_80x24() {
    use crate::learn::progress::Progress;
    use crate::tui::components::lesson::LessonMsg;
    let body: String = (1..=90).map(|i| format!("w{i:03}.")).collect();
    let mut t = TestApp::with_body(80, 24, &body);
    t.sign_now();
    t.press(KeyCode::F(8));
    t.update(Message::Lesson(LessonMsg::ProgressLoaded(Ok(
        Progress::default(),
    ))));
    let signature = t
        .request
        .sign
        .result
        .as_ref()
        .and_then(|r| r.as_ref().ok())
        .map(|s| s.signature().to_string())
        .expect("signed");
    // The body wraps into rows of 64 characters after its label: each row's text is seen.
    let rows: Vec<String> = body
        .as_bytes()
        .chunks(8)
        .map(|c| String::from_utf8_lossy(c).to_string())
        .collect();
    let tail = &signature[signature.len() - 10..];
    t.assert_no_line(tail);
    scroll_to_end(&mut t, KeyCode::PageDown, &rows, tail, 40);
    for _ in 0..5 {
        t.press(KeyCode::PageDown);
    }
    t.assert_line(tail);
    for _ in 0..40 {
        t.press(KeyCode::PageUp);
    }
    t.assert_line("PUT\\n");
}
