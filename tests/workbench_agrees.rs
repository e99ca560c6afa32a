//! The screen is the wire: for generated edits of the workbench's request (a query typed with
//! and without its '?', the PHP SDK form on and off, CRLF and trailing spaces in the body, a
//! frozen and a live timestamp, the KLEVU and SVC prefixes), every place the request shows up
//! agrees on the signed text and the signature:
//!
//! - the canonical panel on screen and the signature line;
//! - the copied canonical text (Alt-Y t);
//! - the copied curl command (Alt-Y c), run with a real `curl`;
//! - the copied Python program (Alt-P 1), run with `python3`;
//! - the send (Ctrl-G), through the engine;
//!
//! and the last three as a real local server on 127.0.0.1 port 0 received them
//! (`/_inspect/requests`). The expected text and signature are built here, from the rules of
//! docs/signing.md, with RustCrypto's HMAC (not the code under test).

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use base64::Engine;
use hmac::{Hmac, Mac};
use proptest::prelude::*;
use serde_json::Value;
use sha2::Sha384;
use signscope::core::visible::escape_visible;
use signscope::core::SigningForm;
use signscope::server::{ServerConfig, DEMO_REST_KEY};
use signscope::tui::component::Clip;
use signscope::tui::components::request::Field;
use signscope::tui::effect::Command;
use signscope::tui::message::Message;
use signscope::tui::test_util::TestApp;
use signscope::tui::widgets::body_editor::BodyEditor;

/// One generated edit of the request.
#[derive(Clone, Debug)]
struct Edit {
    /// The query as sent, and whether it is typed with a leading '?'.
    query: &'static str,
    question_mark: bool,
    php_form: bool,
    body: String,
    frozen: bool,
    prefix: &'static str,
}

fn edits() -> impl Strategy<Value = Edit> {
    // Records the vendor's SDK sends (docs/indexing-bodies.md), spaced and ordered variously.
    let body_line = prop::sample::select(vec![
        "{\"id\": \"1\", \"type\": \"KLEVU_CMS\"}",
        "{\"type\":\"KLEVU_CATEGORY\",\"id\":\"a b\",\"n\":[1, 2]}",
        "{ \"id\" : \"é\" , \"type\" : \"KLEVU_CMS\" }",
        "{\"id\":\"2\",\"type\":\"KLEVU_CMS\",\"relations\":{}}",
    ]);
    let line_end = prop::sample::select(vec!["\n", "\r\n", "  \n", " \r\n"]);
    let body = prop::collection::vec((body_line, line_end), 1..4).prop_map(|parts| {
        let mut s = String::from("[");
        for (i, (v, end)) in parts.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(end);
            s.push_str(v);
        }
        s.push_str("] ");
        s
    });
    (
        prop::sample::select(vec!["", "test=1", "a=1&b=two"]),
        any::<bool>(),
        any::<bool>(),
        body,
        any::<bool>(),
        prop::sample::select(vec!["SVC", "KLEVU"]),
    )
        .prop_map(
            |(query, question_mark, php_form, body, frozen, prefix)| Edit {
                query,
                question_mark,
                php_form,
                body,
                frozen,
                prefix,
            },
        )
}

/// The signing text as docs/signing.md writes it (rules S2-S9 and the PHP SDK form).
fn expected_text(e: &Edit, ts: &str) -> Vec<u8> {
    let query_line = match (e.php_form, e.query) {
        (true, "") => String::new(),
        (true, q) => format!("?{}", q.trim()),
        (false, q) => q.to_string(),
    };
    let p = e.prefix;
    let mut t = format!(
        "PUT\n/v2/batch\n{query_line}\nX-{p}-TIMESTAMP={ts}\nX-{p}-APIKEY=demo-public-key\n\
         X-{p}-AUTH-ALGO=HmacSHA384\nContent-Type=application/json\n"
    )
    .into_bytes();
    t.extend_from_slice(e.body.as_bytes());
    t
}

fn expected_signature(text: &[u8]) -> String {
    let mut mac = Hmac::<Sha384>::new_from_slice(DEMO_REST_KEY.as_bytes()).unwrap();
    mac.update(text);
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

/// Put `text` into a one-line field from the keyboard (Ctrl-U clears it first).
fn type_into(app: &mut TestApp, field: Field, text: &str) -> Vec<Command> {
    app.request.focus = field;
    app.request.normal_mode = false;
    let mut cmds = app.ctrl('u');
    cmds.extend(app.type_str(text));
    cmds
}

/// The one text a copy command carried.
fn copied(cmds: Vec<Command>) -> String {
    match cmds.as_slice() {
        [Command::Copy(Clip { text, .. })] => text.clone(),
        other => panic!("one copy: {other:?}"),
    }
}

/// The requests the local server received, from its inspection API.
fn received(url: &str) -> Vec<Value> {
    let out = std::process::Command::new("curl")
        .args(["-s", &format!("{url}/_inspect/requests")])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

fn header<'a>(record: &'a Value, name: &str) -> &'a str {
    record["headers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h[0].as_str().unwrap().eq_ignore_ascii_case(name))
        .and_then(|h| h[1].as_str())
        .unwrap_or_else(|| panic!("no {name} in {record}"))
}

/// The last request the server received carried `sig`, `ts` and the body, to the query, and
/// was accepted.
fn check_received(url: &str, before: usize, e: &Edit, ts: &str, sig: &str, what: &str) {
    let seen = received(url);
    assert_eq!(seen.len(), before + 1, "{what}: one request more: {seen:?}");
    let r = seen.last().unwrap();
    assert_eq!(r["verdict"], "accepted", "{what}: {r}");
    assert_eq!(r["query"], e.query, "{what}: {r}");
    assert_eq!(
        header(r, "authorization"),
        format!("Bearer {sig}"),
        "{what}"
    );
    assert_eq!(
        header(r, &format!("x-{}-timestamp", e.prefix)),
        ts,
        "{what}"
    );
    assert_eq!(r["body"], e.body, "{what}: {r}");
}

fn run_case(e: &Edit, server_url: &str, dir: &std::path::Path) {
    let mut app = TestApp::new(200, 60);
    // The editor points at the local server, its clock at now (the server checks the window).
    app.request.url.set(server_url);
    let now = chrono::Utc::now();
    app.update(Message::Tick(now));
    let mut cmds = type_into(&mut app, Field::Prefix, e.prefix);
    let typed_query = if e.question_mark {
        format!("?{}", e.query)
    } else {
        e.query.to_string()
    };
    cmds.extend(type_into(&mut app, Field::Query, &typed_query));
    app.request.body = BodyEditor::new(&e.body);
    app.request.body_changed_at(0);
    if e.frozen {
        // A frozen timestamp the clock would not give (.123), typed.
        let ts = now.format("%Y-%m-%dT%H:%M:%S.123Z").to_string();
        cmds.extend(type_into(&mut app, Field::Timestamp, &ts));
    }
    if e.php_form {
        cmds.extend(app.alt('f'));
    }
    app.run_signing(cmds);
    app.sign_now();
    assert_eq!(app.request.form == SigningForm::PhpSdk, e.php_form);
    let ts = app.request.timestamp.text().to_string();
    assert_eq!(ts.ends_with(".123Z"), e.frozen, "{ts}");
    let text = expected_text(e, &ts);
    let sig = expected_signature(&text);

    // The canonical panel: every head line, labelled, and the signature line.
    let screen = app.screen();
    let text_str = String::from_utf8(text.clone()).unwrap();
    let labels = [
        "METHOD",
        "PATH",
        "QUERY",
        "TIMESTAMP",
        "APIKEY",
        "AUTH-ALGO",
    ];
    for (label, line) in labels.iter().zip(text_str.split('\n')) {
        let marked = e.php_form && *label == "QUERY" && !e.query.is_empty();
        let label = if marked {
            format!("*{label}")
        } else {
            label.to_string()
        };
        let row = format!("{label:<13}{}\\n", escape_visible(line.as_bytes()));
        assert!(
            screen.contains(&row),
            "{e:?}: {row:?} not on screen:\n{screen}"
        );
    }
    let first_body_line = e.body.split('\n').next().unwrap();
    let body_row = format!(
        "BODY         {}",
        escape_visible(first_body_line.as_bytes())
    );
    assert!(screen.contains(&body_row), "{body_row:?}:\n{screen}");
    assert!(
        screen.contains(&format!("sig {sig} ✓ computed")),
        "{screen}"
    );
    assert!(!screen.contains("??"), "{screen}");

    // Alt-Y t: the canonical text, byte for byte.
    app.alt('y');
    assert_eq!(
        copied(app.press(crossterm::event::KeyCode::Char('t'))),
        text_str
    );

    // Alt-Y c: the curl command, run with curl.
    let before = received(server_url).len();
    app.alt('y');
    let curl = copied(app.press(crossterm::event::KeyCode::Char('c')));
    let out = std::process::Command::new("sh")
        .args(["-c", &format!("{curl} -s -o /dev/null")])
        .output()
        .unwrap();
    assert!(out.status.success(), "{curl}: {out:?}");
    check_received(server_url, before, e, &ts, &sig, "curl");

    // Alt-P 1: the Python program prints the same signature.
    app.alt('p');
    let program = copied(app.press(crossterm::event::KeyCode::Char('1')));
    let file = dir.join("sign.py");
    std::fs::write(&file, &program).unwrap();
    let out = std::process::Command::new("python3")
        .arg(&file)
        .env("SIGNSCOPE_REST_KEY", DEMO_REST_KEY)
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        printed.contains(&format!("Authorization: Bearer {sig}")),
        "{printed}{}\n{program}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(printed.contains(&format!("X-{}-TIMESTAMP: {ts}", e.prefix)));

    // Ctrl-G: the send, through the engine, as the runtime runs it.
    let before = received(server_url).len();
    let cmds = app.ctrl('g');
    let Some(Command::Send(job)) = cmds.into_iter().next() else {
        panic!("Ctrl-G sends the signed request")
    };
    let sender = signscope::engine::Sender::new(
        signscope::client::LazyClient::new(Default::default()),
        "agree".into(),
        None,
        None,
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let exchange = rt
        .block_on(sender.send_signed(&job.base_url, (*job.signed).clone(), job.key.clone()))
        .unwrap();
    assert_eq!(exchange.status(), Some(200), "{:?}", exchange.response);
    check_received(server_url, before, e, &ts, &sig, "send");
}

#[test]
fn every_view_copy_program_and_the_send_agree_with_the_wire() {
    let mut cfg = ServerConfig::demo();
    // The PHP SDK form is accepted too (with a warning), so every case is judged on its text.
    cfg.accept_forms = vec![SigningForm::PhpSdk];
    let server =
        signscope::server::spawn(cfg, std::net::TcpListener::bind("127.0.0.1:0").unwrap()).unwrap();
    let url = server.url();
    let dir = tempfile::tempdir().unwrap();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 10,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    runner
        .run(&edits(), |e| {
            run_case(&e, &url, dir.path());
            Ok(())
        })
        .unwrap();
    server.stop();
}
