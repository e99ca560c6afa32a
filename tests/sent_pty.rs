//! The request as sent, in a real terminal at 80x24 (portable-pty read by vt100): a request is
//! sent to a real local server on 127.0.0.1 port 0, the fields are edited after the send (the
//! timestamp frozen, the body typed in: the next send would carry another signature), and Alt-D
//! shows in the Response panel the request line, headers and body that went on the wire, as the
//! server recorded them (`/_inspect/requests`), paged with PageDown; Alt-D again the answer.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use common::workbench::{received, shop_after_one_send};
use common::Pty;
use ratatui::layout::Rect;
use signscope::tui::components::request::request_layout;

const ALT_D: &str = "\x1bd";
const CTRL_T: &str = "\x14";
const CTRL_Q: &str = "\x11";
const PAGE_DOWN: &str = "\x1b[6~";

/// The text inside the detail panel's border, its rows joined (a value wrapped between
/// characters reads whole again).
fn panel(tui: &Pty) -> String {
    let p = request_layout(Rect::new(0, 0, 80, 24)).detail;
    tui.rows()
        .iter()
        .skip(usize::from(p.y) + 1)
        .take(usize::from(p.height) - 2)
        .map(|r| {
            r.chars()
                .skip(usize::from(p.x) + 1)
                .take(usize::from(p.width) - 2)
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("")
}

/// The signature on the workbench's signature line.
fn signature_line(screen: &str) -> String {
    let row = screen.lines().find(|l| l.starts_with("sig ")).unwrap();
    row.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn alt_d_shows_the_request_as_the_server_received_it_after_the_fields_changed_at_80x24() {
    let (srv, _home, mut tui) = shop_after_one_send();
    let seen = received(&srv.url());
    assert_eq!(seen.len(), 1, "{seen:?}");
    let rec = &seen[0];
    let header = |name: &str| -> String {
        rec["headers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h[0].as_str().unwrap().eq_ignore_ascii_case(name))
            .and_then(|h| h[1].as_str())
            .unwrap_or_else(|| panic!("no {name} in {rec}"))
            .to_string()
    };
    let sent_sig = header("authorization");

    // After the send: the timestamp frozen, and a word typed into the body (the field the
    // workbench opens in): the next send would carry another body and signature.
    tui.send(CTRL_T);
    tui.send("EDITED ");
    // The signature line with no "…": no newer signature is on its way.
    let now = tui.wait_for("a new signature", |s| {
        s.contains("EDITED")
            && s.contains("timestamp frozen")
            && s.lines().any(|l| l.starts_with("sig ") && !l.contains('…'))
            && !sent_sig.ends_with(&signature_line(s))
    });
    assert!(!sent_sig.contains(&signature_line(&now)));

    // Alt-D: the Response panel shows the request as sent.
    tui.send(ALT_D);
    tui.wait_for("the request as sent", |s| {
        s.contains(" Sent ") && s.contains("As sent for this 200")
    });
    // Paged to its end, collecting what the panel showed. The timestamp is frozen and nothing
    // is on its way, so the frame after each PageDown is the one that shows it: the end is the
    // page that no longer changes.
    let mut text = panel(&tui);
    for _ in 0..12 {
        let before = panel(&tui);
        tui.send_and_wait_frame(PAGE_DOWN);
        let after = panel(&tui);
        if after == before {
            break;
        }
        text.push_str(&after);
    }
    let lower = text.to_lowercase();
    let line = format!(
        "{} {}{}",
        rec["method"].as_str().unwrap(),
        srv.url(),
        rec["path"].as_str().unwrap()
    );
    assert!(text.contains(&line), "{line}\n{text}");
    for name in [
        "x-svc-timestamp",
        "x-svc-apikey",
        "x-svc-auth-algo",
        "content-type",
        "authorization",
    ] {
        let want = format!("{name}: {}", header(name)).to_lowercase();
        assert!(lower.contains(&want), "{want}\n{text}");
    }
    assert!(!text.contains("EDITED"), "{text}");
    for l in rec["body"].as_str().unwrap().lines() {
        assert!(text.contains(l.trim_end()), "{l}\n{text}");
    }

    // Alt-D again: the answer.
    tui.send(ALT_D);
    tui.wait_for("the answer again", |s| {
        s.contains(" Response ") && !s.contains("As sent for this 200")
    });
    tui.send(CTRL_Q);
    let start = std::time::Instant::now();
    while !tui.has_exited() && start.elapsed() < common::WAIT {
        if tui.screen().contains("quit without saving") {
            tui.send("y");
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(tui.wait_exit().success());
    srv.stop();
}

/// A body the server refuses before reading it (413, the connection closed with the body
/// unread): Ctrl-G shows the server's answer, never "send failed: ... Broken pipe" and "No
/// response yet".
#[test]
fn a_refused_large_body_shows_the_servers_answer_at_80x24() {
    let url = common::upstream::refusing_upstream(common::upstream::payload_too_large());
    let home = common::workbench::Home::new();
    let mut p = signscope::store::Profile::demo();
    p.name = "shop".into();
    p.indexing_url = url;
    // More than the socket buffers take before the server reads: the write fails once the
    // server has closed.
    let item = "  {\"id\":\"p1\",\"name\":\"a product with a long enough name\"},\n";
    let body = format!(
        "[\n{}  {{\"id\":\"end\"}}\n]\n",
        item.repeat(8 * 1024 * 1024 / item.len())
    );
    p.request_mut().body = bytes::Bytes::from(body);
    home.save_profile(&p);
    let mut tui = home.start(80, 24, &["--profile", "shop"], &[]);
    tui.wait_for_signature();
    tui.send(common::CTRL_G);
    let screen = tui.wait_for("the server's 413 answer", |s| {
        s.contains("PAYLOAD_TOO_LARGE")
    });
    assert!(screen.contains("413"), "{screen}");
    assert!(!screen.contains("send failed"), "{screen}");
    assert!(!screen.contains("No response yet"), "{screen}");
    tui.send(CTRL_Q);
    tui.wait_exit();
}
