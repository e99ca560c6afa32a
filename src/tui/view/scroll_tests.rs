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
