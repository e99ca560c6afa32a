//! The clock of a send, in a real terminal at 80x24 (portable-pty read by vt100) against a real
//! local server on 127.0.0.1 port 0: the workbench ticks its clock only while the Request view
//! shows a live timestamp, so a send after some seconds in another view (Ctrl-G at once on
//! coming back to the Request view, a re-send from History) must still be signed with the time
//! of the send, as the server recorded it (`/_inspect/requests`), not the last tick.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use chrono::{DateTime, Utc};
use common::workbench::{received, shop_after_one_send};
use common::{CTRL_G, F3, F4};
use serde_json::Value;
use std::time::Duration;

const F2: &str = "\x1bOQ";

/// Wait until the server holds `n` requests; the `n`th.
fn nth(url: &str, n: usize) -> Value {
    let start = std::time::Instant::now();
    loop {
        let mut seen = received(url);
        if seen.len() >= n {
            return seen.swap_remove(n - 1);
        }
        assert!(start.elapsed() < common::WAIT, "{n} requests never arrived");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Wait until the server holds `n` requests; the timestamp header of the `n`th.
fn nth_timestamp(url: &str, n: usize) -> DateTime<Utc> {
    let rec = nth(url, n);
    let ts = rec["headers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| {
            h[0].as_str()
                .unwrap()
                .eq_ignore_ascii_case("x-svc-timestamp")
        })
        .and_then(|h| h[1].as_str())
        .unwrap_or_else(|| panic!("no timestamp in {rec}"))
        .to_string();
    DateTime::parse_from_rfc3339(&ts)
        .unwrap()
        .with_timezone(&Utc)
}

/// The signed timestamp is the send's second: not before the key was pressed less one second
/// (the clock ticks whole seconds), not after the server recorded it.
fn assert_signed_now(ts: DateTime<Utc>, pressed: DateTime<Utc>, what: &str) {
    let late = pressed - ts;
    assert!(
        late < chrono::Duration::seconds(1) && ts <= Utc::now(),
        "{what}: signed {ts}, {} ms before the key was pressed at {pressed}",
        late.num_milliseconds()
    );
}

#[test]
fn sends_after_seconds_in_another_view_are_signed_with_the_time_of_the_send() {
    let (srv, _home, mut tui) = shop_after_one_send();
    nth_timestamp(&srv.url(), 1);

    // Three seconds in the Events view, then back to the (live) Request view and Ctrl-G at once.
    tui.send(F3);
    tui.wait_for("the events view", |s| s.contains("Analytics URL"));
    // The thing tested: seconds pass in another view before the send.
    std::thread::sleep(Duration::from_secs(3));
    let pressed = Utc::now();
    tui.send(format!("{F2}{CTRL_G}"));
    assert_signed_now(
        nth_timestamp(&srv.url(), 2),
        pressed,
        "Ctrl-G on coming back",
    );

    // Three seconds in History, then a re-send of its newest entry ("signed again now"). The
    // History view reads the entries when it is shown: the answer must be recorded first, and
    // it is once the workbench shows it (its job id in the Response panel).
    let job = nth(&srv.url(), 2)["job_id"].as_str().unwrap().to_string();
    tui.wait_for("the second answer", |s| s.contains(&job));
    tui.send(F4);
    tui.wait_for("the history", |s| s.contains("History (2)"));
    // The thing tested: seconds pass in another view before the send.
    std::thread::sleep(Duration::from_secs(3));
    let pressed = Utc::now();
    tui.send(CTRL_G);
    assert_signed_now(nth_timestamp(&srv.url(), 3), pressed, "History re-send");
    tui.quit_answering();
    srv.stop();
}
