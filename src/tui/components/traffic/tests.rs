//! The traffic view on the one TUI fixture (`TestApp`), fed with records a real server made
//! (its router served in-process, its stream read from the hub) and with hand-made ones.

use crossterm::event::KeyCode;
use tower::ServiceExt;

use super::*;
use crate::core::traffic::{RequestSeen, StreamMessage};
use crate::tui::component::Clip;
use crate::tui::components::request::RequestMsg;
use crate::tui::effect::Command;
use crate::tui::layout::{frame_layout, View};
use crate::tui::message::Message;
use crate::tui::test_util::{find_in, reversed, TestApp};
use ratatui::layout::Rect;

const BASE: &str = "http://127.0.0.1:8787";

/// Serve `requests` with a real demo server (in-process router) and return the stream
/// records it published for them, in order.
fn served(requests: Vec<axum::http::Request<axum::body::Body>>) -> Vec<RequestSeen> {
    crate::tui::test_server::on_demo_server(|state| async move {
        let app = crate::server::app(state.clone());
        for r in requests {
            let resp = app.clone().oneshot(r).await.unwrap();
            let _ = axum::body::to_bytes(resp.into_body(), 1 << 20).await;
        }
        let (held, missing, _rx) = state.stream.subscribe(Some(0));
        assert_eq!(missing, 0);
        held.iter()
            .map(
                |p| match serde_json::from_str::<StreamMessage>(&p.json).unwrap() {
                    StreamMessage::Request(r) => *r,
                    other => panic!("{other:?}"),
                },
            )
            .collect()
    })
}

/// A signed demo request: signed for `signed_path`, sent to `sent_path` (a mismatch when they
/// differ).
fn signed(signed_path: &str, sent_path: &str) -> axum::http::Request<axum::body::Body> {
    let body = b"[{\"id\":\"sku-1\",\"type\":\"KLEVU_CMS\"}]";
    signed_with(signed_path, sent_path, body)
}

/// [`signed`] with this body.
fn signed_with(
    signed_path: &str,
    sent_path: &str,
    body: &'static [u8],
) -> axum::http::Request<axum::body::Body> {
    let spec = crate::core::RequestSpec {
        path: signed_path.to_string(),
        api_key: crate::server::DEMO_API_KEY.to_string(),
        body: bytes::Bytes::from_static(body),
        ..Default::default()
    };
    let ts = crate::core::time::format_timestamp(chrono::Utc::now());
    let key = crate::core::Secret::new(crate::server::DEMO_REST_KEY);
    let out = crate::engine::build_signed("http://127.0.0.1:9", &spec, &ts, &key).unwrap();
    let mut b = axum::http::Request::builder()
        .method(out.method.as_str())
        .uri(sent_path);
    for (n, v) in &out.headers {
        b = b.header(n.as_str(), v.as_str());
    }
    b.header("host", "127.0.0.1:8787")
        .body(axum::body::Body::from(out.body.clone()))
        .unwrap()
}

fn collect(body: &str) -> axum::http::Request<axum::body::Body> {
    axum::http::Request::builder()
        .method("POST")
        .uri("/analytics/collect")
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap()
}

/// A hand-made record numbered `seq` (an accepted indexing request to `path`).
fn record(seq: u64, path: &str) -> RequestSeen {
    serde_json::from_value(serde_json::json!({
        "seq": seq, "time": "2026-11-22T11:24:54.123Z", "method": "PUT", "path": path,
        "query": "", "route": "indexing", "status": 200, "code": null, "message": null,
        "verdict": "accepted", "conclusion": null, "request_bytes": 2,
        "response_bytes": null, "duration_ms": 1.0, "record": seq, "job_id": "j",
        "batch": null, "upstream": null, "headers": [], "body": "[]"
    }))
    .unwrap()
}

fn receive(t: &mut TestApp, r: RequestSeen) -> Vec<Command> {
    t.update(Message::Traffic(TrafficMsg::Received(Box::new(r))))
}

/// The workbench on the Traffic view, its server at [`BASE`].
fn on_traffic(w: u16, h: u16) -> TestApp {
    let mut t = TestApp::new(w, h);
    t.update(Message::Traffic(TrafficMsg::Source {
        address: BASE.into(),
        watching: false,
    }));
    t.press(KeyCode::F(7));
    assert_eq!(t.view, View::Traffic);
    t
}

#[test]
fn a_mismatch_arrives_live_with_its_diagnosis_first_and_the_servers_signing_text() {
    let recs = served(vec![
        signed("/v2/batch", "/v2/batch"),
        signed("/v2/batch", "/v2/batch/"),
    ]);
    assert_eq!(recs.len(), 2, "{recs:?}");
    assert_eq!(recs[1].code.as_deref(), Some("SIGNATURE_MISMATCH"));
    let mut t = on_traffic(150, 50);
    t.assert_line("Point an application at http://127.0.0.1:8787");
    // No key press: each record is on screen as it arrives, newest first.
    receive(&mut t, recs[0].clone());
    t.assert_line("PUT /v2/batch 200 OK");
    receive(&mut t, recs[1].clone());
    let lines = t.lines();
    let (bx, by) =
        find_in(&lines, "/v2/batch/ 401 SIGNATURE_MISMATCH").expect("the mismatch's line");
    let (gx, gy) = find_in(&lines, "/v2/batch 200 OK").expect("the accepted line");
    assert!(by < gy, "newest first:\n{}", lines.join("\n"));
    // Verdict colours: red for the refused one, green for the accepted one.
    let buf = t.draw().clone();
    assert_eq!(buf[(bx, by)].fg, ratatui::style::Color::Red);
    assert_eq!(buf[(gx, gy)].fg, ratatui::style::Color::Green);
    // The newest is selected and shown in full, the diagnosis before the signing texts.
    let screen = t.screen();
    let diag = screen.find("Conclusion:").expect(&screen);
    let expected = screen
        .find("Server's signing text (expected)")
        .expect(&screen);
    assert!(diag < expected, "{screen}");
    assert!(screen.contains("Received"), "{screen}");
    // The server signed the path it received; the client signed another one.
    assert!(screen.contains("/v2/batch/\\n"), "{screen}");
    assert!(screen.contains("X-SVC-TIMESTAMP: "), "{screen}");
    assert!(screen.contains("Authorization: Bearer "), "{screen}");
}

#[test]
fn an_accepted_request_shows_the_signing_text_the_server_verified() {
    let recs = served(vec![signed("/v2/batch", "/v2/batch")]);
    let mut t = on_traffic(150, 50);
    receive(&mut t, recs[0].clone());
    let screen = t.screen();
    assert!(screen.contains("signature verified, accepted"), "{screen}");
    assert!(screen.contains("Signing text (verified)"), "{screen}");
    assert!(screen.contains("PUT\\n"), "{screen}");
    assert!(
        screen.contains("X-SVC-APIKEY=demo-public-key\\n"),
        "{screen}"
    );
}

#[test]
fn an_event_batch_lists_its_problems_with_their_paths() {
    let recs = served(vec![collect(
        r#"[{"event":"view_recs_list","data":{"list":{"id":"x"}}}]"#,
    )]);
    let r = recs[0].clone();
    let batch = r.batch.clone().expect("a batch");
    assert!(!batch.problems.is_empty(), "{batch:?}");
    let first_path = batch.problems[0]["path"].as_str().unwrap().to_string();
    let mut t = on_traffic(150, 50);
    receive(&mut t, r);
    t.assert_line("POST /analytics/collect 400");
    t.assert_line("Batch: 1 events");
    t.assert_line(&first_path);
}

#[test]
fn an_indexing_body_the_sdk_would_refuse_has_a_problems_line_with_each_pointer() {
    let body =
        br#"[{"id":42,"type":"KLEVU_CMS"},{"id":"b","type":"KLEVU_CMS","attributes":{"a-b":1}},{"id":"b","type":"KLEVU_CMS"}]"#;
    let recs = served(vec![signed_with("/v2/batch", "/v2/batch", body)]);
    let r = recs[0].clone();
    assert_eq!(r.status, 400, "{r:?}");
    let mut t = on_traffic(150, 50);
    receive(&mut t, r);
    // The detail lists every problem with its JSON Pointer.
    t.assert_line("Body problems: 2 errors, 1 warning; the vendor's SDK would refuse it");
    t.assert_line("/0/id  ID_NOT_STRING ");
    t.assert_line("/1/attributes/a-b  ATTRIBUTE_NAME_FORMAT ");
    t.assert_line("/2/id  DUPLICATE_ID ");
}

#[test]
fn an_older_endpoints_form_reads_as_recorded_fields_not_an_event_batch() {
    // @klevu/core 5.2.2's search event, as the SDK posted it (tests/data/vendor/): a
    // multipart form to an older endpoint (docs/events.md E21, docs/server.md R11).
    let raw = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/vendor/klevu-core-5.2.2/search.http"
    ))
    .unwrap();
    let (head, body) = raw.split_at(raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4);
    let head = String::from_utf8_lossy(head);
    let ct = head
        .lines()
        .find_map(|l| l.strip_prefix("Content-Type: "))
        .unwrap();
    let recs = served(vec![axum::http::Request::builder()
        .method("POST")
        .uri("/analytics/n-search/search")
        .header("content-type", ct)
        .body(axum::body::Body::from(body.to_vec()))
        .unwrap()]);
    let mut t = on_traffic(80, 24);
    receive(&mut t, recs[0].clone());
    t.assert_line("POST /analytics/n-search/search 200 OK (n-search/search: 4 fields)");
    t.assert_line("recorded · 200 OK");
    t.assert_line("Older endpoint n-search/search: 4 fields");
    t.assert_no_line("Batch:");
    t.assert_no_line("batch accepted");
}

#[test]
fn slash_filters_and_esc_clears() {
    let mut t = on_traffic(120, 30);
    for (i, p) in ["/v2/batch", "/v2/products", "/v2/batch/x"]
        .iter()
        .enumerate()
    {
        receive(&mut t, record(i as u64 + 1, p));
    }
    t.type_str("/products");
    t.assert_line("Traffic (1 of 3) · filter: products▏");
    // Enter keeps the filter and gives the keys back to the list.
    t.press(KeyCode::Enter);
    t.assert_line("Traffic (1 of 3) · filter: products · Esc clears");
    t.assert_line("PUT /v2/products 200");
    t.assert_no_line("PUT /v2/batch 200");
    // A record arriving that does not match stays out of the list; one that does comes in.
    receive(&mut t, record(4, "/v2/other"));
    receive(&mut t, record(5, "/v2/products/2"));
    t.assert_line("Traffic (2 of 5)");
    t.press(KeyCode::Esc);
    t.assert_line("Traffic (5)");
    // In the open filter `q` and `?` are typed, not shortcuts.
    t.type_str("/q?");
    assert_eq!(t.traffic.list.filter(), "q?");
    assert!(!t.quit && t.popup.is_none());
    // With the filter closed, `?` is the help again.
    t.press(KeyCode::Enter);
    t.type_str("?");
    assert!(t.popup.is_some());
}

#[test]
fn pause_holds_new_requests_until_resumed() {
    let mut t = on_traffic(120, 30);
    receive(&mut t, record(1, "/v2/one"));
    t.alt('z');
    assert!(t.status.contains("paused"), "{}", t.status);
    receive(&mut t, record(2, "/v2/two"));
    receive(&mut t, record(3, "/v2/three"));
    t.assert_line("PAUSED, 2 held");
    t.assert_no_line("/v2/two");
    t.alt('z');
    t.assert_line("/v2/two");
    t.assert_line("/v2/three");
    assert!(t.status.contains("2 held requests shown"), "{}", t.status);
}

#[test]
fn the_list_is_bounded_and_says_how_many_it_dropped() {
    let mut t = on_traffic(120, 40);
    t.traffic.keep = 5;
    for i in 1..=8 {
        receive(&mut t, record(i, &format!("/v2/n{i}")));
    }
    assert_eq!(t.traffic.len(), 5);
    t.assert_line("newest 5 kept, 3 older dropped");
    t.assert_no_line("/v2/n3 ");
    t.assert_line("/v2/n4 ");
    t.assert_line("/v2/n8 ");
    // Held while paused are bounded too.
    t.alt('z');
    for i in 9..=20 {
        receive(&mut t, record(i, &format!("/v2/n{i}")));
    }
    assert_eq!(t.traffic.held_len(), 5);
    assert_eq!(t.traffic.dropped, 3 + 7);
}

#[test]
fn the_selection_follows_the_newest_until_moved_then_stays_on_its_request() {
    let mut t = on_traffic(120, 30);
    receive(&mut t, record(1, "/v2/one"));
    receive(&mut t, record(2, "/v2/two"));
    assert_eq!(t.traffic.selected_entry().unwrap().seen.path, "/v2/two");
    t.press(KeyCode::Down);
    assert_eq!(t.traffic.selected_entry().unwrap().seen.path, "/v2/one");
    receive(&mut t, record(3, "/v2/three"));
    assert_eq!(t.traffic.selected_entry().unwrap().seen.path, "/v2/one");
    let lines = t.lines();
    let y = lines.iter().position(|l| l.contains("/v2/one ")).unwrap();
    let buf = t.draw().clone();
    assert!(
        reversed(&buf, y as u16, 1, 20),
        "the selected row is highlighted"
    );
    // Home goes back to following the newest.
    t.press(KeyCode::Home);
    receive(&mut t, record(4, "/v2/four"));
    assert_eq!(t.traffic.selected_entry().unwrap().seen.path, "/v2/four");
    // The detail shows the newest at once; its text is built by the frame, not per arrival
    // (the cached one is still the record selected at the last key), and kept at the next key.
    assert_eq!(t.traffic.detail.as_ref().unwrap().seq, 3);
    let screen = t.screen();
    assert!(
        screen.matches("/v2/four").count() >= 2,
        "in the list and in the detail: {screen}"
    );
    assert_eq!(
        screen.matches("/v2/three").count(),
        1,
        "the list only: {screen}"
    );
    t.press(KeyCode::End);
    t.press(KeyCode::Home);
    assert_eq!(t.traffic.detail.as_ref().unwrap().seq, 4);
}

#[test]
fn enter_loads_the_request_into_the_editor_and_the_rest_key_stays_the_profiles() {
    let recs = served(vec![signed("/v2/batch", "/v2/batch/?lang=en")]);
    let mut t = on_traffic(120, 40);
    receive(&mut t, recs[0].clone());
    let key_before = t.request.key();
    let cmds = t.press(KeyCode::Enter);
    assert_eq!(t.view, View::Request);
    assert_eq!(t.request.path.text(), "/v2/batch/");
    assert_eq!(t.request.query.text(), "lang=en");
    assert_eq!(t.request.url.text(), BASE);
    assert_eq!(t.request.api_key.text(), crate::server::DEMO_API_KEY);
    assert_eq!(
        t.request.body.text(),
        "[{\"id\":\"sku-1\",\"type\":\"KLEVU_CMS\"}]"
    );
    assert_eq!(
        t.request.timestamp.text(),
        recs[0]
            .headers
            .iter()
            .find(|(n, _)| n == "x-svc-timestamp")
            .unwrap()
            .1
    );
    assert_eq!(t.request.key().expose(), key_before.expose());
    assert!(
        cmds.iter().any(|c| matches!(c, Command::Sign(_))),
        "{cmds:?}"
    );
}

#[test]
fn ctrl_d_diagnoses_the_request_in_the_diagnose_view() {
    let recs = served(vec![signed("/v2/batch", "/v2/batch/")]);
    let mut t = on_traffic(120, 40);
    receive(&mut t, recs[0].clone());
    let cmds = t.ctrl('d');
    assert_eq!(t.view, View::Diagnose);
    let text = match cmds.as_slice() {
        [Command::Diagnose {
            effect: crate::tui::components::diagnose::DiagnoseEffect::Diagnose { text, .. },
            ..
        }] => text.clone(),
        other => panic!("{other:?}"),
    };
    // The capture the Diagnose view holds is the request as received.
    assert_eq!(t.diagnose.input.text(), text);
    let parsed = crate::tui::components::diagnose::capture::parse_capture(&text).unwrap();
    assert_eq!(parsed.path, "/v2/batch/");
    assert_eq!(
        &parsed.body[..],
        b"[{\"id\":\"sku-1\",\"type\":\"KLEVU_CMS\"}]"
    );
    // And it reproduces the server's verdict with the demo key.
    let (ok, report) = crate::tui::components::diagnose::capture::diagnose_capture(
        &text,
        &crate::core::Secret::new(crate::server::DEMO_REST_KEY),
        "SVC",
        chrono::Utc::now(),
    );
    assert!(!ok, "{report:?}");
}

#[test]
fn alt_y_c_copies_the_request_as_curl_aimed_at_the_server() {
    let recs = served(vec![signed("/v2/batch", "/v2/batch")]);
    let mut t = on_traffic(120, 40);
    receive(&mut t, recs[0].clone());
    // Alt-Y opens the copy menu; c copies the curl command and says so.
    assert!(t.alt('y').is_empty());
    let cmds = t.press(KeyCode::Char('c'));
    let curl = match cmds.as_slice() {
        [Command::Copy(Clip { text, what })] => {
            assert_eq!(what, "the Traffic request PUT /v2/batch as curl");
            text.clone()
        }
        other => panic!("{other:?}"),
    };
    assert!(t.popup.is_none());
    assert!(
        curl.starts_with("curl -X PUT http://127.0.0.1:8787/v2/batch "),
        "{curl}"
    );
    assert!(curl.contains("-H 'authorization: Bearer "), "{curl}");
    assert!(
        curl.contains("--data-raw '[{\"id\":\"sku-1\",\"type\":\"KLEVU_CMS\"}]'"),
        "{curl}"
    );
    assert!(!curl.to_lowercase().contains("host:"), "{curl}");
    // Nothing selected: one sentence, no command.
    t.alt('x');
    t.alt('y');
    assert!(t.press(KeyCode::Char('c')).is_empty());
    assert_eq!(t.status, "No request selected.");
}

/// Ctrl-G / F9, the one send key: once confirmed with `y`, the selected record goes to the local
/// server again, signed again now with the profile's REST key; the editor is not changed and
/// the status says what was sent, then how it was answered.
#[test]
fn ctrl_g_sends_the_selected_record_again_to_the_local_server() {
    let recs = served(vec![signed("/v2/batch", "/v2/batch/")]);
    let mut t = on_traffic(120, 40);
    receive(&mut t, recs[0].clone());
    let path_before = t.request.path.text().to_string();
    for key in [
        crate::tui::test_util::ctrl_key('g'),
        crate::tui::test_util::key(KeyCode::F(9)),
    ] {
        // Nothing is signed before the user has seen what and where, and said yes.
        assert!(t.update(key).is_empty());
        assert!(
            t.status
                .starts_with("sign PUT /v2/batch/ with the profile's REST key"),
            "{}",
            t.status
        );
        let cmds = t.press(KeyCode::Char('y'));
        let job = match cmds.as_slice() {
            [Command::Send(job)] => job,
            other => panic!("{other:?}"),
        };
        assert_eq!(job.base_url, BASE);
        assert_eq!(job.url, format!("{BASE}/v2/batch/"));
        assert_eq!(job.signed.spec().path, "/v2/batch/");
        assert_eq!(
            &job.signed.spec().body[..],
            b"[{\"id\":\"sku-1\",\"type\":\"KLEVU_CMS\"}]"
        );
        assert_eq!(
            job.signed.timestamp(),
            crate::core::time::format_timestamp(t.request.now),
            "signed again now"
        );
        assert_eq!(job.key.expose(), crate::server::DEMO_REST_KEY);
        assert!(
            t.status
                .starts_with("sending the Traffic request PUT http://127.0.0.1:8787/v2/batch/"),
            "{}",
            t.status
        );
        let id = job.id;
        t.update(Message::Request(RequestMsg::SendDone {
            id,
            result: Err("connection refused".into()),
        }));
        assert!(
            t.status
                .starts_with("send failed (the Traffic request PUT ")
                && t.status.ends_with("connection refused"),
            "{}",
            t.status
        );
    }
    assert_eq!(
        t.request.path.text(),
        path_before,
        "the editor is not changed"
    );
    assert!(t.request.response.is_none());
}

#[test]
fn the_status_line_shows_where_to_point_an_application() {
    let mut t = on_traffic(100, 24);
    let last = t.lines().last().unwrap().clone();
    assert!(
        last.contains("point applications at http://127.0.0.1:8787"),
        "{last}"
    );
    t.update(Message::Traffic(TrafficMsg::Source {
        address: "http://127.0.0.1:8080".into(),
        watching: true,
    }));
    let last = t.lines().last().unwrap().clone();
    assert!(last.contains("watching http://127.0.0.1:8080"), "{last}");
    t.update(Message::Traffic(TrafficMsg::Waiting(
        "connection refused".into(),
    )));
    t.assert_line("waiting: connection refused");
    t.update(Message::Traffic(TrafficMsg::Connected { again: true }));
    t.assert_line(" live ·");
}

#[test]
fn help_and_the_palette_list_the_views_keys() {
    let mut t = on_traffic(120, 60);
    t.press(KeyCode::F(1));
    assert!(matches!(t.popup, Some(crate::tui::app::Popup::Help(_))));
    let rows = crate::tui::popups::help::bindings(&t.app.popup_ctx());
    for b in KEYS.iter() {
        assert!(
            rows.iter().any(|(k, h)| h == b.help && *k == KEYS.label(b)),
            "{:?} not in help: {rows:?}",
            b.help
        );
    }
    t.assert_line("pause / resume");
    t.press(KeyCode::Esc);
    t.ctrl('k');
    t.type_str("pause");
    t.assert_line("pause or resume the traffic list");
    t.press(KeyCode::Enter);
    assert!(t.traffic.paused);
}

#[test]
fn a_restarted_server_numbering_from_one_again_starts_the_list_over() {
    let mut t = on_traffic(120, 30);
    receive(&mut t, record(7, "/v2/old"));
    receive(&mut t, record(1, "/v2/new"));
    assert_eq!(t.traffic.len(), 1);
    t.assert_no_line("/v2/old");
}

#[test]
fn loading_over_unsaved_edits_asks_first_and_discard_loads() {
    let recs = served(vec![signed("/v2/batch", "/v2/batch/")]);
    let mut t = on_traffic(120, 40);
    t.request.dirty = true;
    receive(&mut t, recs[0].clone());
    let cmds = t.press(KeyCode::Enter);
    assert!(cmds.is_empty(), "{cmds:?}");
    assert!(
        matches!(t.popup, Some(crate::tui::app::Popup::ConfirmLoad(_))),
        "{:?}",
        t.popup
    );
    assert_eq!(t.request.path.text(), "/v2/batch", "nothing loaded yet");
    t.press(KeyCode::Char('d'));
    assert_eq!(t.view, View::Request);
    assert_eq!(t.request.path.text(), "/v2/batch/");
}

#[test]
fn a_profiles_forwarding_urls_configure_the_in_process_server() {
    // The upstream: a second demo server. The in-process server forwards to it.
    let upstream = crate::server::spawn(
        crate::server::ServerConfig::demo(),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let mut p = crate::store::Profile::demo();
    p.forward_indexing = Some(upstream.url());
    p.forward_analytics = Some("ftp://nowhere".into());
    let (config, note) = crate::engine::embedded_config(&p);
    assert_eq!(
        config.forward_indexing.as_deref(),
        Some(upstream.url().as_str())
    );
    assert_eq!(config.forward_analytics, None);
    let note = note.expect("the unusable URL is said");
    assert!(
        note.contains("forward_analytics") && note.contains("http://"),
        "{note}"
    );
    let server =
        crate::server::spawn(config, std::net::TcpListener::bind("127.0.0.1:0").unwrap()).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let spec = crate::core::RequestSpec {
            api_key: crate::server::DEMO_API_KEY.to_string(),
            ..Default::default()
        };
        let ts = crate::core::time::format_timestamp(chrono::Utc::now());
        let key = crate::core::Secret::new(crate::server::DEMO_REST_KEY);
        let out = crate::engine::build_signed(&server.url(), &spec, &ts, &key).unwrap();
        let http = reqwest::Client::builder().no_proxy().build().unwrap();
        let r = crate::client::send(&http, &out).await.unwrap();
        assert_eq!(r.status, 200);
    });
    // The upstream verified and recorded it too.
    assert_eq!(upstream.store().summary().accepted, 1);
    assert_eq!(server.store().summary().accepted, 1);
    // Without forwarding URLs, nothing is forwarded and nothing is said.
    let (config, note) = crate::engine::embedded_config(&crate::store::Profile::demo());
    assert!(
        config.forward_indexing.is_none() && config.forward_analytics.is_none() && note.is_none()
    );
}

/// Away from the newest row, requests arriving above the window used to be invisible: the top
/// border says `↑ N new · Home` (N: those above the window, not yet seen), fewer as they scroll
/// into view, none once the newest is selected again (the selection then follows new ones).
#[test]
fn new_requests_above_the_window_show_an_up_n_new_marker() {
    let mut t = on_traffic(80, 24);
    for i in 1..=10 {
        receive(&mut t, record(i, &format!("/v2/r{i:02}")));
    }
    // Following the newest: no marker, the newest is selected.
    t.assert_no_line("new · Home");
    for _ in 0..7 {
        t.press(KeyCode::Down);
    }
    assert_eq!(t.traffic.selected_entry().unwrap().seen.path, "/v2/r03");
    for i in 11..=13 {
        receive(&mut t, record(i, &format!("/v2/r{i:02}")));
    }
    assert_eq!(t.traffic.selected_entry().unwrap().seen.path, "/v2/r03");
    let row = t.assert_line("↑ 3 new · Home");
    assert!(
        row.contains("Traffic (13)"),
        "on the list's top border: {row}"
    );
    t.assert_no_line("/v2/r13");
    // Scrolling up brings some into view: fewer are new.
    for _ in 0..8 {
        t.press(KeyCode::Up);
    }
    t.assert_line("↑ 2 new · Home");
    // Home: the newest again, nothing unseen.
    t.press(KeyCode::Home);
    t.assert_no_line("new · Home");
    t.assert_line("/v2/r13");
    receive(&mut t, record(14, "/v2/r14"));
    assert_eq!(t.traffic.selected_entry().unwrap().seen.path, "/v2/r14");
    t.assert_no_line("new · Home");
}

/// The detail's title names the keys the dispatcher runs (it said `Ctrl-Y: curl`; the copy is
/// `Alt-Y c`).
#[test]
fn the_detail_title_names_the_keys_that_work() {
    let mut t = on_traffic(120, 30);
    receive(&mut t, record(1, "/v2/one"));
    t.assert_line("Request · Enter: edit · Ctrl-D: diagnose · Alt-Y c: curl");
    t.assert_no_line("Ctrl-Y: curl");
}

#[test]
fn imported_records_follow_the_live_ones_and_live_ones_keep_coming_after_them() {
    let mut t = on_traffic(100, 30);
    receive(&mut t, record(1, "/v2/live-1"));
    receive(&mut t, record(2, "/v2/live-2"));
    // A capture's records are numbered from 1 by their own judge: filed after the live ones.
    for (i, p) in ["/v2/har-1", "/v2/har-2"].iter().enumerate() {
        t.update(Message::Traffic(TrafficMsg::Imported(Box::new(record(
            i as u64 + 1,
            p,
        )))));
    }
    // The next live record is not taken for a restarted server's: nothing is dropped.
    receive(&mut t, record(3, "/v2/live-3"));
    assert_eq!(t.traffic.len(), 5);
    let order: Vec<String> = (0..5)
        .map(|i| t.traffic.visible(i).unwrap().seen.path.clone())
        .collect();
    assert_eq!(
        order,
        [
            "/v2/live-3",
            "/v2/har-2",
            "/v2/har-1",
            "/v2/live-2",
            "/v2/live-1"
        ]
    );
    // A server that really restarted (numbers from 1 again) still starts the list over.
    receive(&mut t, record(1, "/v2/after-restart"));
    assert_eq!(t.traffic.len(), 1);
}

#[test]
fn ctrl_o_asks_for_a_har_and_ctrl_s_writes_what_the_server_received_or_the_shown_requests() {
    let mut t = on_traffic(80, 24);
    let cmds = t.ctrl('o');
    assert!(cmds.is_empty());
    assert!(t.screen().contains("Open a HAR file"), "{}", t.screen());
    t.type_str("capture.har");
    let cwd = std::env::current_dir().unwrap();
    t.assert_line(&format!("→ {}", cwd.join("capture.har").display()));
    let cmds = t.press(KeyCode::Enter);
    assert!(
        matches!(&cmds[..], [Command::Traffic { effect: TrafficEffect::OpenHar(path), .. }] if *path == cwd.join("capture.har")),
        "{cmds:?}"
    );
    // Nothing shown: nothing to write, said in one sentence.
    t.ctrl('s');
    assert!(t.traffic.har.is_none());
    receive(&mut t, record(1, "/v2/batch"));
    // Live traffic, no filter: every request the server received, as the server exports it
    // (the stream only previews bodies).
    t.ctrl('s');
    assert!(
        t.screen()
            .contains("Write every request the server received as HAR"),
        "{}",
        t.screen()
    );
    let cmds = t.press(KeyCode::Enter);
    assert!(
        matches!(&cmds[..], [Command::Traffic { effect: TrafficEffect::WriteReceivedHar { path, base }, .. }]
            if *path == cwd.join("traffic.har") && base == BASE),
        "{cmds:?}"
    );
    // With a filter set, the requests shown.
    t.type_str("/batch");
    t.press(KeyCode::Enter);
    t.ctrl('s');
    assert!(t.screen().contains("Write the requests shown as HAR"));
    // The prompt offers the whole path written: the working directory's traffic.har.
    let offered = cwd.join("traffic.har");
    t.assert_line(&format!("file: {}", offered.display()));
    let cmds = t.press(KeyCode::Enter);
    let [Command::Traffic {
        effect: TrafficEffect::WriteHar { path, text },
        ..
    }] = &cmds[..]
    else {
        panic!("{cmds:?}")
    };
    assert_eq!(path, &offered);
    let har: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        har["log"]["entries"][0]["request"]["url"],
        "http://127.0.0.1:8787/v2/batch"
    );
    // A relative path typed: the prompt shows where it resolves, the write gets the whole path.
    t.ctrl('s');
    for _ in 0..offered.display().to_string().chars().count() {
        t.press(KeyCode::Backspace);
    }
    t.type_str("out/mine.har");
    t.assert_line(&format!("→ {}", cwd.join("out/mine.har").display()));
    let cmds = t.press(KeyCode::Enter);
    assert!(
        matches!(&cmds[..], [Command::Traffic { effect: TrafficEffect::WriteHar { path, .. }, .. }] if *path == cwd.join("out/mine.har")),
        "{cmds:?}"
    );
    // Esc closes the prompt without asking for anything.
    t.ctrl('o');
    assert!(t.press(KeyCode::Esc).is_empty());
    assert!(t.traffic.har.is_none());
}

/// An unsigned request planted by any client of the local server (a delete, say): Ctrl-G signed
/// it with the profile's REST key and sent it at once. Now the status shows what will be signed
/// (method, path, body) and where it goes, the upstream it is forwarded to included, and only
/// `y` sends; any other key drops it with nothing signed.
#[test]
fn a_planted_request_is_signed_only_after_the_user_confirms_what_and_where() {
    let mut planted = record(7, "/v2/batch/delete");
    planted.verdict = None;
    planted.status = 400;
    planted.body = r#"["every-product"]"#.into();
    planted.upstream = Some(
        serde_json::from_value(serde_json::json!({
            "url": "https://indexing.example.test", "status": 401, "code": "SIGNATURE_MISMATCH",
            "headers": [], "body": "", "body_bytes": 0, "duration_ms": 1.0, "error": null
        }))
        .unwrap(),
    );
    let mut t = on_traffic(200, 40);
    receive(&mut t, planted);
    assert!(t.update(crate::tui::test_util::ctrl_key('g')).is_empty());
    for part in [
        "sign PUT /v2/batch/delete",
        "with the profile's REST key",
        r#"["every-product"]"#,
        "send it to http://127.0.0.1:8787/v2/batch/delete",
        "forwards it to https://indexing.example.test",
        "y sends",
    ] {
        assert!(t.status.contains(part), "{part}: {}", t.status);
    }
    // Any other key: nothing signed, nothing sent.
    assert!(t.press(KeyCode::Char('n')).is_empty());
    assert_eq!(t.status, "not sent: nothing was signed");
    assert!(t.press(KeyCode::Char('y')).is_empty(), "the prompt is gone");
    // (that `y` went to the filter, as typing does)
    t.press(KeyCode::Esc);
    // Asked again and confirmed: sent.
    t.update(crate::tui::test_util::ctrl_key('g'));
    assert!(matches!(
        t.press(KeyCode::Char('y')).as_slice(),
        [Command::Send(_)]
    ));
}

/// Following another server (`--watch`), a request is never signed for it: the watched server
/// could replay it for 10 minutes.
#[test]
fn a_request_of_a_watched_server_is_never_signed_for_it() {
    let mut t = on_traffic(200, 40);
    t.update(Message::Traffic(TrafficMsg::Source {
        address: "http://127.0.0.1:9999".into(),
        watching: true,
    }));
    receive(&mut t, record(1, "/v2/batch/delete"));
    assert!(t.update(crate::tui::test_util::ctrl_key('g')).is_empty());
    assert!(
        t.status
            .starts_with("not sent: this view follows http://127.0.0.1:9999"),
        "{}",
        t.status
    );
    assert!(t.press(KeyCode::Char('y')).is_empty());
}

/// At 80x24 the status line cuts the question: the detail pane shows it whole while it waits.
#[test]
fn the_question_is_shown_whole_at_80_columns() {
    let mut t = on_traffic(80, 24);
    receive(&mut t, record(1, "/v2/batch/delete"));
    t.update(crate::tui::test_util::ctrl_key('g'));
    // The question's rows read as one text (it wraps at words inside the pane).
    let screen = t
        .lines()
        .iter()
        .map(|l| l.trim_matches(|c| c == '│' || c == ' '))
        .collect::<Vec<_>>()
        .join(" ");
    for part in [
        "sign PUT /v2/batch/delete",
        "send it to",
        "http://127.0.0.1:8787/v2/batch/delete?",
        "y sends",
    ] {
        assert!(screen.contains(part), "{part}:\n{screen}");
    }
    t.press(KeyCode::Char('n'));
    assert!(!t.lines().join("\n").contains("y sends"));
}

/// PageDown in the request pane at 80x24 pages by the pane's height less one line: every line
/// of the record is seen, none skipped (the first key included), and it stops at the last.
#[test]
fn page_down_in_the_request_pane_at_80x24_skips_no_line_and_reaches_the_last() {
    let mut t = on_traffic(80, 24);
    let mut r = record(1, "/v2/batch");
    r.headers = (1..=40)
        .map(|i| (format!("x-line-{i:02}"), format!("value {i}")))
        .collect();
    r.body = "LAST-BODY-LINE".into();
    receive(&mut t, r);
    let pane =
        |t: &TestApp| super::layout(frame_layout(Rect::new(0, 0, 80, 24)).1, &t.traffic).detail;
    let seen = t.page_down_through(20, pane);
    for i in 1..=40 {
        let h = format!("x-line-{i:02}: value {i}");
        assert!(seen.iter().any(|l| l.contains(&h)), "{h} was skipped");
    }
    assert!(seen.iter().any(|l| l.contains("LAST-BODY-LINE")));
    // At the end, PageDown stays on the last page.
    let last = t.pane_rows(pane);
    t.press(KeyCode::PageDown);
    assert_eq!(t.pane_rows(pane), last);
    assert!(last.iter().any(|l| l.contains("LAST-BODY-LINE")));
}

#[test]
fn text_from_the_client_in_the_detail_is_escaped_not_sent_to_the_terminal() {
    // A bidi override, a C1 CSI and an OSC 52 clipboard write, in a header, the path and body.
    let mut r = record(1, "/v2/batch\u{202E}x");
    r.headers = vec![("X-Note".into(), "a\u{9B}2Jb".into())];
    r.body = "[\"\u{1b}]52;c;aGk=\u{7}\"]\n\u{202E}tail".into();
    let d = detail::build(&r);
    let all: Vec<String> = d
        .summary
        .iter()
        .map(|(_, l)| l.clone())
        .chain(d.received.iter().cloned())
        .chain(d.rest.iter().map(|(_, l)| l.clone()))
        .collect();
    let text = all.join("\n");
    for raw in ['\u{202E}', '\u{9B}', '\u{1b}', '\u{7}'] {
        assert!(!text.contains(raw), "raw {raw:?} in {text}");
    }
    assert!(text.contains("X-Note: a\\u{009B}2Jb"), "{text}");
    assert!(text.contains("[\"\\x1B]52;c;aGk=\\x07\"]"), "{text}");
    assert!(text.contains("\\u{202E}tail"), "{text}");
}

/// A record without the account headers (a client that sent only `Authorization`) is sent
/// again as the account's own client would send it: with the profile's API key and algorithm,
/// and the question says so before anything is signed.
#[test]
fn a_resend_of_a_record_without_account_headers_sends_the_profiles() {
    let bare = axum::http::Request::builder()
        .method("PUT")
        .uri("/v2/batch")
        .header("host", "127.0.0.1:8787")
        .header("authorization", "Bearer x")
        .body(axum::body::Body::from("[]"))
        .unwrap();
    let recs = served(vec![bare]);
    assert!(
        !recs[0]
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("x-svc-apikey")),
        "{:?}",
        recs[0].headers
    );
    let mut t = on_traffic(120, 40);
    receive(&mut t, recs[0].clone());
    t.ctrl('g');
    assert!(
        t.status.contains(
            "with the profile's X-SVC-APIKEY: demo-public-key, X-SVC-AUTH-ALGO: HmacSHA384 (the record has none)"
        ),
        "{}",
        t.status
    );
    let cmds = t.press(KeyCode::Char('y'));
    let job = match cmds.as_slice() {
        [Command::Send(job)] => job,
        other => panic!("{other:?}"),
    };
    assert_eq!(job.signed.spec().api_key, crate::server::DEMO_API_KEY);
    assert_eq!(job.signed.spec().auth_algo, "HmacSHA384");
    // With the profile's API key emptied in the editor, the question says it goes empty.
    t.press(KeyCode::F(2));
    t.app.request.api_key.set("");
    t.press(KeyCode::F(7));
    t.ctrl('g');
    assert!(
        t.status
            .contains("X-SVC-APIKEY sent empty (neither the record nor the profile has one)"),
        "{}",
        t.status
    );
    t.press(KeyCode::Esc);
}

/// The inspection calls the server's stream carries (the workbench asking its own server what
/// it stored) are not an application's requests: the list leaves them out, and they do not move
/// the `↑ N new` marker; the bottom line says how many are hidden and `/inspect` shows them.
#[test]
fn inspection_calls_are_hidden_until_the_filter_asks_for_them() {
    let inspect = |uri: &str| {
        axum::http::Request::builder()
            .method("GET")
            .uri(uri)
            .body(axum::body::Body::empty())
            .unwrap()
    };
    let recs = served(vec![
        signed("/v2/batch", "/v2/batch"),
        collect(r#"[{"event":"view_recs_list"}]"#),
        inspect("/_inspect/events?limit=1"),
        inspect("/_inspect/requests"),
        signed("/v2/batch", "/v2/batch/"),
    ]);
    assert_eq!(recs.len(), 5);
    let mut t = on_traffic(80, 24);
    for r in &recs[..3] {
        receive(&mut t, r.clone());
    }
    t.assert_no_line("/_inspect/events");
    t.assert_line("POST /analytics/collect");
    t.assert_line("Traffic (2)");
    t.assert_line("1 /_inspect hidden (/inspect shows) ─");
    // Away from the newest, an inspection call is not counted as new; a request is.
    t.press(KeyCode::Down);
    receive(&mut t, recs[3].clone());
    t.assert_no_line("↑");
    receive(&mut t, recs[4].clone());
    t.assert_line("↑ 1 new");
    // The filter that asks for them shows them.
    t.type_str("/inspect");
    t.press(KeyCode::Enter);
    t.assert_line("GET /_inspect/events?limit=1");
    t.assert_line("GET /_inspect/requests");
    t.assert_no_line("/_inspect hidden");
}

/// Paused, the list's bottom line does not say `live`.
#[test]
fn paused_the_bottom_line_says_paused_not_live() {
    let mut t = on_traffic(80, 24);
    t.update(Message::Traffic(TrafficMsg::Connected { again: false }));
    receive(&mut t, record(1, "/v2/one"));
    t.assert_line("└ live · newest 1000 kept");
    t.alt('z');
    t.assert_line("└ paused · newest 1000 kept");
    t.assert_no_line("live ·");
    t.alt('z');
    t.assert_line("└ live · newest 1000 kept");
}

/// At 80x24 the two-column head of a rejected request's detail is whole: its left title fits
/// its half (it was cut to "as receive" with no mark) next to "Received".
#[test]
fn the_detail_head_of_a_rejected_request_is_whole_at_80x24() {
    let bare = axum::http::Request::builder()
        .method("PUT")
        .uri("/v2/batch")
        .header("host", "127.0.0.1:8787")
        .header("authorization", "Bearer x")
        .body(axum::body::Body::from("[]"))
        .unwrap();
    let recs = served(vec![bare]);
    let mut t = on_traffic(80, 24);
    receive(&mut t, recs[0].clone());
    let row = t.assert_line("Signing text (as received)");
    assert!(row.contains(" Received"), "{row}");
}

/// The Traffic view's HAR keeps a collector body as its bytes came: a pretty-printed batch is
/// not written back compact (1,857 pretty bytes became 1,290).
#[test]
fn the_har_written_keeps_a_collector_body_as_received() {
    let pretty = "[\n  {\n    \"event\": \"view_recs_list\",\n    \"event_apikey\": \"demo-public-key\",\n    \"event_list_id\": \"list-1\"\n  }\n]\n";
    let recs = served(vec![collect(pretty)]);
    let mut t = on_traffic(120, 40);
    for r in recs {
        receive(&mut t, r);
    }
    // With a filter set, the view writes the requests shown itself (unfiltered, the server's
    // own export is asked for, whose bodies `docs/server.md` R15 keeps as received).
    t.type_str("/collect");
    t.press(KeyCode::Enter);
    t.ctrl('s');
    let cmds = t.press(KeyCode::Enter);
    let [Command::Traffic {
        effect: TrafficEffect::WriteHar { text, .. },
        ..
    }] = &cmds[..]
    else {
        panic!("{cmds:?}")
    };
    let har: serde_json::Value = serde_json::from_str(text).unwrap();
    let request = &har["log"]["entries"][0]["request"];
    assert_eq!(request["url"], "http://127.0.0.1:8787/analytics/collect");
    assert_eq!(request["postData"]["text"], pretty);
    assert_eq!(request["bodySize"], pretty.len());
}
