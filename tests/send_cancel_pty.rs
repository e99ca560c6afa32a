//! One send at a time, in a real terminal at 140x30 (portable-pty read by vt100; wide enough for
//! the status line to show its sentences whole): the workbench sends to a server on 127.0.0.1
//! (port 0) that holds its answer; a second Ctrl-G while the first is in flight sends nothing
//! and says how to cancel; Alt-G cancels, and the server sees the connection closed (the send
//! really stopped, not only hidden). Every wait is for the fact itself: the server's word that
//! the request arrived or its connection closed, the screen's text.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use common::upstream::{holding_upstream, stalling_upstream};
use common::workbench::Home;
use common::{CTRL_G, WAIT};

const ALT_G: &str = "\x1bg";

#[test]
fn a_second_ctrl_g_is_refused_while_a_send_is_held_and_alt_k_closes_its_connection() {
    let (url, arrived, closed) = holding_upstream();
    let home = Home::new();
    home.shop_on(&url);
    let mut tui = home.start(140, 30, &["--profile", "shop"], &[]);
    tui.wait_for_signature();
    tui.send(CTRL_G);
    arrived
        .recv_timeout(WAIT)
        .expect("the server received the send");
    tui.wait_for("the send in flight", |s| s.contains("(Alt-G cancels)"));
    // Ctrl-G again: refused with the way out; the server gets no second request.
    tui.send(CTRL_G);
    tui.wait_for("the refusal", |s| {
        s.contains("not sent: a send is in flight (Alt-G cancels it")
    });
    assert!(
        arrived.try_recv().is_err(),
        "a second request reached the server"
    );
    // Alt-G: the workbench says so, and the server sees the connection closed.
    tui.send(ALT_G);
    tui.wait_for("the cancel", |s| s.contains("send cancelled"));
    closed
        .recv_timeout(WAIT)
        .expect("the cancelled send's connection closed");
    // The next Ctrl-G sends again.
    tui.send(CTRL_G);
    arrived
        .recv_timeout(WAIT)
        .expect("the server received the next send");
    tui.send(ALT_G);
    closed
        .recv_timeout(WAIT)
        .expect("the second cancelled send's connection closed");
    tui.quit_answering();
}

/// A cancel stops a large body's writes too. Bodies of 256 KiB or more are sent by the sender
/// that keeps reading after a failed write (`docs/architecture.md`, the HTTP client); its writes
/// must stop with the send. The server reads nothing of a 12 MiB body (the client's writes block
/// once the socket buffers are full), Alt-G cancels, then the server reads: it finds the
/// connection closed before the whole body came. A writer that went on would deliver all of it
/// (or hold the connection open).
#[test]
fn alt_g_stops_the_writes_of_a_large_body_the_server_is_not_reading() {
    const LEN: usize = 12 * 1024 * 1024;
    let (url, arrived, read_now, closed) = stalling_upstream();
    let home = Home::new();
    let mut p = signscope::store::Profile::demo();
    p.name = "shop".into();
    p.indexing_url = url.clone();
    p.analytics_url = url;
    let filler = "x".repeat(LEN - 40);
    p.request_mut().body = bytes::Bytes::from(format!(
        r#"[{{"id":"1","type":"KLEVU_CMS","name":"{filler}"}}]"#
    ));
    assert!(p.request().body.len() >= LEN - 40);
    home.save_profile(&p);
    let mut tui = home.start(140, 30, &["--profile", "shop"], &[]);
    tui.wait_for_signature();
    tui.send(CTRL_G);
    arrived
        .recv_timeout(WAIT)
        .expect("the server received the send's head");
    tui.wait_for("the send in flight", |s| s.contains("(Alt-G cancels)"));
    tui.send(ALT_G);
    tui.wait_for("the cancel", |s| s.contains("send cancelled"));
    read_now.send(()).unwrap();
    let got = closed
        .recv_timeout(WAIT)
        .expect("the cancelled send's connection closed");
    assert!(
        got < p.request().body.len(),
        "the server read the whole body ({got} bytes) after the cancel"
    );
    tui.quit_answering();
}
