//! TestBackend buffer assertions for the request view at 80x24 and 120x40.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

use crate::core::Secret;
use crate::tui::app::App;
use crate::tui::components::request::RequestMsg;
use crate::tui::components::request::{Detail, Field};
use crate::tui::message::Message;
use crate::tui::model::{MismatchView, ResponseView};
use crate::tui::signing::SignAnswer;
use crate::tui::test_util::{buffer_lines, TestApp};
use crate::tui::update::update;

/// The demo workbench with `body`, the timestamp frozen at `t0`, signed.
fn app_with_body(body: &str) -> TestApp {
    let mut a = TestApp::with_body(120, 40, body);
    a.request.ts_live = false;
    a.sign_now();
    a
}

/// Sign the current request as the runtime would.
fn sign_now(a: &mut TestApp) {
    a.sign_now();
}

/// A full frame on a `w` x `h` screen.
fn render(a: &mut TestApp, w: u16, h: u16) -> Buffer {
    a.resize(w, h);
    a.draw().clone()
}

fn rows(buf: &Buffer) -> Vec<String> {
    buffer_lines(buf)
}

fn find(rows: &[String], needle: &str) -> Option<(usize, usize)> {
    rows.iter()
        .enumerate()
        .find_map(|(y, r)| r.find(needle).map(|bx| (r[..bx].chars().count(), y)))
}

fn expected_signature(a: &App) -> String {
    crate::core::sign(
        &a.request.signable(),
        &Secret::new(crate::server::DEMO_REST_KEY),
    )
    .unwrap()
    .signature()
    .to_string()
}

#[test]
fn request_view_80x24_shows_labelled_canonical_text_and_signature() {
    let mut a = app_with_body("[1]");
    let buf = render(&mut a, 80, 24);
    let r = rows(&buf);
    let screen = r.join("\n");
    for needle in [
        "METHOD PUT\\n",
        "PATH   /v2/batch\\n",
        "QUERY  \\n",
        "APIKEY X-SVC-APIKEY=demo-public-key\\n",
        "BODY   [1]",
        "Timestamp  2026-11-22T10:00:00.000Z",
        "frozen",
    ] {
        assert!(screen.contains(needle), "missing {needle:?} in\n{screen}");
    }
    let sig = expected_signature(&a);
    assert!(
        screen.contains(&format!("sig {sig} ✓")),
        "signature line missing:\n{screen}"
    );
    // The REST key is masked.
    assert!(!screen.contains(crate::server::DEMO_REST_KEY));
    assert_eq!(r.len(), 24);
}

#[test]
fn focused_query_line_is_highlighted_even_when_empty() {
    let mut a = app_with_body("[1]");
    a.request.focus = Field::Query;
    let buf = render(&mut a, 80, 24);
    let r = rows(&buf);
    let (x, y) = find(&r, "QUERY  \\n").expect("query line");
    let cell = &buf[(x as u16, y as u16)];
    assert_eq!(cell.bg, Color::Rgb(60, 60, 0), "QUERY label highlighted");
    let (px, py) = find(&r, "PATH   /v2").unwrap();
    assert_ne!(
        buf[(px as u16, py as u16)].bg,
        Color::Rgb(60, 60, 0),
        "PATH not highlighted"
    );
    // NO_COLOR: the highlight is reverse video, and no colour is used anywhere.
    a.theme = crate::tui::theme::Theme::new(true);
    let buf = render(&mut a, 80, 24);
    let r = rows(&buf);
    let (x, y) = find(&r, "QUERY  \\n").unwrap();
    assert!(buf[(x as u16, y as u16)]
        .modifier
        .contains(Modifier::REVERSED));
    for cell in buf.content() {
        assert!(
            matches!(cell.fg, Color::Reset) && matches!(cell.bg, Color::Reset),
            "colour under NO_COLOR: {cell:?}"
        );
    }
}

#[test]
fn request_view_120x40_full_labels_pipeline_and_invisible_characters() {
    let mut a = app_with_body("{\"a\": 1}  \n\t\u{00A0}x");
    a.request.query.set("b=2 ");
    a.request.focus = Field::Body;
    sign_now(&mut a);
    let buf = render(&mut a, 120, 40);
    let screen = rows(&buf).join("\n");
    for needle in [
        "CONTENT-TYPE Content-Type=application/json\\n",
        "QUERY        b=2·\\n",
        "BODY         {\"a\": 1}··\\n",
        "\\t\\u{00A0}x",
        "1 canonical bytes",
        "2 HMAC-SHA384 digest",
        "3 base64",
        "4 header",
    ] {
        assert!(screen.contains(needle), "missing {needle:?} in\n{screen}");
    }
    let s = crate::core::sign(
        &a.request.signable(),
        &Secret::new(crate::server::DEMO_REST_KEY),
    )
    .unwrap();
    assert!(screen.contains(&s.digest_hex()[..40]), "digest hex shown");
    assert!(screen.contains(&format!("sig {} ✓", s.signature())));
}

#[test]
fn updating_signature_is_marked() {
    let mut a = app_with_body("[1]");
    let _ = a.resign(); // a job is out, not answered yet
    let screen = rows(&render(&mut a, 80, 24)).join("\n");
    assert!(screen.contains("updating…"), "{screen}");
}

#[test]
fn invalid_json_is_flagged_but_signed() {
    let mut a = app_with_body("{oops");
    let rev = a.request.body_state.rev;
    update(
        &mut a,
        Message::Request(RequestMsg::Signing(SignAnswer::JsonChecked {
            rev,
            error: crate::tui::signing::json_problem(b"{oops"),
        })),
    );
    let screen = rows(&render(&mut a, 120, 40)).join("\n");
    assert!(screen.contains("not valid JSON at line 1"), "{screen}");
    assert!(screen.contains(&expected_signature(&a)));
}

#[test]
fn mismatch_diff_shows_both_sides_and_the_diagnosis() {
    let mut a = app_with_body("[1]");
    a.request.detail = Detail::Diff;
    a.request.response = Some(ResponseView {
        status: 401,
        code: Some("SIGNATURE_MISMATCH".into()),
        mismatch: Some(MismatchView {
            ours: vec!["PUT\\n".into(), "/v2/batch\\n".into(), "a=1\\n".into()],
            theirs: vec!["PUT\\n".into(), "/v2/batch\\n".into(), "?a=1\\n".into()],
            diagnosis: Some("the client put a '?' before the query".into()),
        }),
        ..Default::default()
    });
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = rows(&render(&mut a, w, h)).join("\n");
        // The conclusion first, in words; then the diff, each line labelled.
        let first = screen.find("Conclusion: the client put a '?'");
        let diff = screen.find("- we signed");
        assert!(
            first.is_some() && first < diff,
            "{w}x{h}: the conclusion comes first in\n{screen}"
        );
        for needle in [
            "+ server signed",
            "  METHOD       PUT\\n",
            "- QUERY        a=1\\n",
            "+ QUERY        ?a=1\\n",
        ] {
            assert!(
                screen.contains(needle),
                "{w}x{h}: missing {needle:?} in\n{screen}"
            );
        }
    }
}

#[test]
fn mismatch_diff_without_a_diagnosis_concludes_from_the_texts() {
    let mut a = app_with_body("[1]");
    a.request.detail = Detail::Diff;
    let lines = |q: &str| {
        vec![
            "PUT\\n".to_string(),
            "/v2/batch\\n".into(),
            format!("{q}\\n"),
        ]
    };
    let answer = |ours: Vec<String>, theirs: Vec<String>| ResponseView {
        status: 401,
        code: Some("SIGNATURE_MISMATCH".into()),
        mismatch: Some(MismatchView {
            ours,
            theirs,
            diagnosis: None,
        }),
        ..Default::default()
    };
    // The server was too busy to diagnose: the first differing line, labelled, in words.
    a.request.response = Some(answer(lines("b=1"), lines("a=1")));
    let screen = rows(&render(&mut a, 220, 40)).join("\n");
    assert!(
        screen.contains(
            "Conclusion: the texts first differ in the QUERY line (line 3): we signed “b=1\\n”, the server signed “a=1\\n”"
        ),
        "{screen}"
    );
    // Same text on both sides: the keys differ.
    a.request.response = Some(answer(lines("a=1"), lines("a=1")));
    let screen = rows(&render(&mut a, 220, 40)).join("\n");
    assert!(
        screen.contains(
            "Conclusion: we and the server signed the same text, so the REST keys differ"
        ),
        "{screen}"
    );
}

#[test]
fn the_signature_line_says_computed_and_shows_the_servers_verdict_apart() {
    let mut a = app_with_body("[1]");
    let screen = rows(&render(&mut a, 140, 40)).join("\n");
    assert!(screen.contains("✓ computed"), "{screen}");
    assert!(
        !screen.contains("server: "),
        "no verdict before a send:\n{screen}"
    );
    a.request.response = Some(ResponseView {
        status: 401,
        code: Some("SIGNATURE_MISMATCH".into()),
        ..Default::default()
    });
    let last = |a: &mut TestApp| {
        rows(&render(a, 140, 40))
            .into_iter()
            .find(|r| r.starts_with("sig "))
            .unwrap_or_default()
    };
    let row = last(&mut a);
    assert!(
        row.trim_end()
            .ends_with("server: rejected SIGNATURE_MISMATCH (401)"),
        "{row}"
    );
    // Beside a rejection our side says only that the signature was computed: no success mark.
    assert!(row.contains(" computed ") && !row.contains('✓'), "{row}");
    a.request.response = Some(ResponseView {
        status: 200,
        ..Default::default()
    });
    let row = last(&mut a);
    assert!(row.trim_end().ends_with("server: accepted (200)"), "{row}");
    assert!(row.contains("✓ computed"), "{row}");
}

/// At 80 columns the signature stays whole beside the server's verdict: the state and the
/// verdict shrink (`✓`, `✗ 401`) instead of cutting it.
#[test]
fn the_signature_is_never_cut_for_the_verdict() {
    let mut a = app_with_body("[1]");
    let sig = expected_signature(&a);
    let cases = [
        (
            401,
            Some("SIGNATURE_MISMATCH"),
            "server: rejected SIGNATURE_MISMATCH (401)",
            "✗ 401",
        ),
        (200, None, "server: accepted (200)", "✓ 200"),
    ];
    for (status, code, long, short) in cases {
        a.request.response = Some(ResponseView {
            status,
            code: code.map(Into::into),
            ..Default::default()
        });
        for (w, h) in [(80, 24), (120, 40), (200, 50)] {
            let screen = rows(&render(&mut a, w, h));
            let row = screen
                .iter()
                .find(|r| r.contains("sig "))
                .cloned()
                .unwrap_or_default();
            assert!(
                row.contains(&sig),
                "{w}x{h}: the signature is cut in {row:?}"
            );
            let verdict = if w >= 120 { long } else { short };
            assert!(row.trim_end().ends_with(verdict), "{w}x{h}: {row:?}");
            // A success mark never stands beside a rejection, at any width.
            assert_eq!(row.contains('✓'), status == 200, "{w}x{h}: {row:?}");
        }
    }
}

/// PageDown stops with the panel's last line on its last row (it went on into a blank panel),
/// and one PageUp from there moves back at once, by a page less the line that stays.
#[test]
fn the_detail_panel_scrolls_no_further_than_its_last_line() {
    use crossterm::event::KeyCode;
    let mut a = app_with_body("[1]");
    let lines: Vec<String> = (1..=25)
        .map(|i| format!("line {i:02} of the answer"))
        .collect();
    a.request.response = Some(crate::tui::test_util::plain_response(lines.clone()));
    a.request.detail = Detail::Response;
    a.request.focus = Field::Query;
    render(&mut a, 120, 40);
    for _ in 0..30 {
        a.press(KeyCode::PageDown);
        render(&mut a, 120, 40);
    }
    let screen = rows(&render(&mut a, 120, 40)).join("\n");
    let shown: Vec<&String> = lines
        .iter()
        .filter(|l| screen.contains(l.as_str()))
        .collect();
    assert_eq!(
        shown.last().map(|l| l.as_str()),
        Some("line 25 of the answer")
    );
    assert!(!screen.contains("line 01 of the answer"), "{screen}");
    let top = shown[0].clone();
    a.press(KeyCode::PageUp);
    let screen = rows(&render(&mut a, 120, 40)).join("\n");
    assert!(
        screen.contains(top.as_str()),
        "{top} stays on screen:\n{screen}"
    );
    assert!(!screen.contains("line 25 of the answer"), "{screen}");
}

/// The local server's answer (in-process router) to a demo `PUT /v2/batch` of `body`, signed
/// correctly: status and body.
fn local_answer(body: &'static [u8]) -> (u16, Vec<u8>) {
    use tower::ServiceExt;
    let spec = crate::core::RequestSpec {
        path: "/v2/batch".into(),
        api_key: crate::server::DEMO_API_KEY.into(),
        body: bytes::Bytes::from_static(body),
        ..Default::default()
    };
    let ts = crate::core::time::format_timestamp(chrono::Utc::now());
    let key = Secret::new(crate::server::DEMO_REST_KEY);
    let out = crate::engine::build_signed("http://127.0.0.1:9", &spec, &ts, &key).unwrap();
    let mut b = axum::http::Request::builder()
        .method(out.method.as_str())
        .uri("/v2/batch");
    for (n, v) in &out.headers {
        b = b.header(n.as_str(), v.as_str());
    }
    let req = b.body(axum::body::Body::from(out.body.clone())).unwrap();
    crate::tui::test_server::on_demo_server(|state| async move {
        let resp = crate::server::app(state).oneshot(req).await.unwrap();
        let status = resp.status().as_u16();
        let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
            .await
            .unwrap();
        (status, bytes.to_vec())
    })
}

#[test]
fn response_panel_lists_the_problems_of_a_refused_body_readable_at_80x24() {
    let (status, body) =
        local_answer(br#"[{"id":1,"type":""},{"id":2,"type":"KLEVU_CMS"},{"id":" ","type":"x"}]"#);
    assert_eq!(status, 400, "{}", String::from_utf8_lossy(&body));
    let mut a = app_with_body("[1]");
    let ct = ("content-type".to_string(), "application/json".to_string());
    let view = crate::tui::components::request::response::response_view(
        1,
        status,
        vec![ct],
        &body,
        4.2,
        true,
        crate::engine::ServerAnswer::parse(&body),
        vec![],
    );
    a.request.response = Some(view);
    a.request.detail = Detail::Response;
    let buf = render(&mut a, 80, 24);
    let screen = rows(&buf).join("\n");
    // The first three problems above the answer, each with its pointer, and the count of the
    // rest (the answer below lists them all).
    assert!(
        screen.contains("error ID_NOT_STRING at /0/id: "),
        "{screen}"
    );
    assert!(
        screen.contains("error TYPE_REQUIRED at /0/type: "),
        "{screen}"
    );
    assert!(
        screen.contains("error ID_NOT_STRING at /1/id: "),
        "{screen}"
    );
    assert!(
        screen.contains("… 1 more problems in the answer below"),
        "{screen}"
    );
}

#[test]
fn response_panel_shows_status_job_and_highlighted_json() {
    let mut a = app_with_body("[1]");
    let body = br#"{"message":"Job submitted successfully.","jobId":"job-7"}"#;
    let view = crate::tui::components::request::response::response_view(
        1,
        200,
        vec![("content-type".into(), "application/json".into())],
        body,
        4.2,
        true,
        crate::engine::ServerAnswer::parse(body),
        vec![],
    );
    assert_eq!(view.job_id.as_deref(), Some("job-7"));
    a.request.response = Some(view);
    a.request.detail = Detail::Response;
    let buf = render(&mut a, 120, 40);
    let r = rows(&buf);
    let screen = r.join("\n");
    assert!(screen.contains("200 "), "{screen}");
    assert!(screen.contains("job job-7"));
    assert!(screen.contains("content-type: application/json"));
    let (x, y) = find(&r, "\"jobId\"").expect("formatted body");
    assert_eq!(
        buf[(x as u16, y as u16)].fg,
        Color::Cyan,
        "keys highlighted"
    );
}

#[test]
fn help_popup_lists_bindings() {
    let mut a = app_with_body("[1]");
    a.popup = Some(crate::tui::app::Popup::Help(
        crate::tui::popups::help::Help { scroll: 0 },
    ));
    let screen = rows(&render(&mut a, 120, 40)).join("\n");
    assert!(screen.contains("Help: Request view"));
    assert!(screen.contains("Ctrl-G / F9"));
    assert!(screen.contains("Ctrl-T"));
}

/// At 80x24 no view's help squeezes its descriptions into a narrow column because of one
/// long list of keys (the Diagnose view's scroll keys made the keys column 43 wide, leaving 33
/// columns for every description): the keys column is at most a quarter of the popup, a longer
/// list of keys wraps under itself, and nothing of it is lost.
#[test]
fn the_help_keys_column_stays_narrow_and_long_keys_wrap_whole() {
    use crate::tui::layout::View;
    use crate::tui::popups::help::{bindings, help_table};
    let mut a = app_with_body("[1]");
    update(&mut a, Message::Resize(80, 24));
    for v in View::ALL {
        a.view = v;
        let ctx = a.popup_ctx();
        let table = help_table(&ctx);
        let key_w = table[0].0.chars().count();
        assert!(key_w <= 78 / 4 + 2, "{v:?}: keys column {key_w} wide");
        // The keys column, read down, gives back every binding's keys in order.
        let mut keys = vec![];
        for (k, _) in &table {
            let k = k.trim_end();
            if k.is_empty() {
                continue;
            }
            match keys.last_mut() {
                Some(last) if bindings(&ctx).iter().all(|(b, _)| b != last) => {
                    *last = format!("{last} {k}");
                }
                _ => keys.push(k.to_string()),
            }
        }
        let want: Vec<String> = bindings(&ctx).into_iter().map(|(k, _)| k).collect();
        assert_eq!(keys, want, "{v:?}");
    }
}

#[test]
fn the_help_scrolls_on_a_small_terminal_and_closes_on_any_other_key() {
    use crate::tui::app::Popup;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let key = |c| Message::Key(KeyEvent::new(c, KeyModifiers::NONE));
    let mut a = app_with_body("[1]");
    update(&mut a, Message::Resize(60, 19));
    update(&mut a, key(KeyCode::F(1)));
    let first = crate::tui::popups::help::bindings(&a.popup_ctx())[0]
        .0
        .clone();
    let fourth = crate::tui::popups::help::bindings(&a.popup_ctx())[3]
        .0
        .clone();
    let screen = rows(&render(&mut a, 60, 19)).join("\n");
    assert!(screen.contains(&first), "{screen}");
    assert!(
        screen.contains("scroll (0/"),
        "the bottom border says it scrolls: {screen}"
    );
    assert!(
        !screen.contains("closes this help"),
        "the end is below: {screen}"
    );
    for _ in 0..3 {
        update(&mut a, key(KeyCode::Down));
    }
    assert_eq!(
        a.popup,
        Some(Popup::Help(crate::tui::popups::help::Help { scroll: 3 }))
    );
    let screen = rows(&render(&mut a, 60, 19)).join("\n");
    let top_row = rows(&render(&mut a, 60, 19))
        .into_iter()
        .find(|r| r.contains(&fourth))
        .expect("the fourth binding is on screen");
    assert!(!screen.contains(&format!("│{first} ")), "{screen}");
    assert!(screen.find(&top_row).unwrap() < screen.find("scroll (3/").unwrap());
    update(&mut a, key(KeyCode::End));
    let screen = rows(&render(&mut a, 60, 19)).join("\n");
    assert!(
        screen.contains("any other key closes this help"),
        "{screen}"
    );
    // Down at the end stays there; Up goes back one.
    let Some(Popup::Help(crate::tui::popups::help::Help { scroll: end })) = a.popup.clone() else {
        panic!("still open")
    };
    update(&mut a, key(KeyCode::Down));
    assert_eq!(
        a.popup,
        Some(Popup::Help(crate::tui::popups::help::Help { scroll: end }))
    );
    update(&mut a, key(KeyCode::Up));
    assert_eq!(
        a.popup,
        Some(Popup::Help(crate::tui::popups::help::Help {
            scroll: end - 1
        }))
    );
    update(&mut a, key(KeyCode::Char('x')));
    assert_eq!(a.popup, None);
    // On a terminal that holds it all, Down closes it as before.
    update(&mut a, Message::Resize(120, 90));
    update(&mut a, key(KeyCode::F(1)));
    let screen = rows(&render(&mut a, 120, 90)).join("\n");
    assert!(screen.contains("any key closes this help") && !screen.contains("scroll ("));
    update(&mut a, key(KeyCode::Down));
    assert_eq!(a.popup, None);
}

#[test]
fn long_body_is_scrolled_with_the_cursor_and_lines_are_cut() {
    let long_line = "y".repeat(5000);
    let body: String = (0..200)
        .map(|i| format!("line{i}"))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
        + &long_line;
    let mut a = app_with_body(&body);
    a.request.focus = Field::Body;
    let line150 = a.request.body.text().find("line150").unwrap();
    a.request.body.move_to(line150);
    let screen = rows(&render(&mut a, 120, 40)).join("\n");
    assert!(screen.contains("line150\\n"), "{screen}");
    assert!(!screen.contains("METHOD"), "head scrolled away");
    let end = a.request.body.len();
    a.request.body.move_to(end);
    let screen = rows(&render(&mut a, 120, 40)).join("\n");
    assert!(
        screen.contains("bytes)"),
        "cut marker for the 5000-byte line:\n{screen}"
    );
}

#[test]
fn the_cursor_line_stays_in_the_canonical_panel_when_lines_wrap() {
    // Lines wider than the panel take two rows each: following the cursor must count rows, not
    // lines, or the cursor's line falls off the bottom.
    let body: String = (0..200)
        .map(|i| format!("L{i:03}{}end{i:03}", "-".repeat(70)))
        .collect::<Vec<_>>()
        .join("\n");
    let mut a = app_with_body(&body);
    a.request.focus = Field::Body;
    let end = a.request.body.len();
    a.request.body.move_to(end);
    let screen = rows(&render(&mut a, 120, 40)).join("\n");
    assert!(screen.contains("end199"), "{screen}");
    let mid = a.request.body.text().find("L100").unwrap();
    a.request.body.move_to(mid);
    let screen = rows(&render(&mut a, 120, 40)).join("\n");
    assert!(screen.contains("end100"), "{screen}");
}

/// The README's key table is help's table: the same keys, the same words (help itself is
/// built from the tables the dispatcher reads).
#[test]
fn readme_lists_every_key_binding() {
    let readme = include_str!("../../../README.md");
    let cell = |s: &str| s.replace('|', "\\|");
    let rows = crate::tui::popups::help::global_rows()
        .into_iter()
        .chain(crate::tui::popups::help::request_rows())
        .chain(
            crate::tui::popups::help::diagnose_rows()
                .into_iter()
                .map(|(k, d)| (k, format!("Diagnose view: {d}"))),
        );
    let rows: Vec<String> = rows
        .map(|(keys, what)| format!("| `{}` | {} |", cell(&keys), cell(&what)))
        .collect();
    let missing: Vec<&String> = rows.iter().filter(|r| !readme.contains(*r)).collect();
    assert!(
        missing.is_empty(),
        "the README key table lacks these rows (the table, in help's order:)\n{}",
        rows.join("\n")
    );
    assert!(readme.contains("<!-- tui-capture:start -->"));
}

/// Every view, switched to with its function key, draws on short and narrow terminals (the
/// history view used to panic below about 15 rows: `clamp` with min 6 > max height / 2).
#[test]
fn every_view_draws_on_small_terminals() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut a = app_with_body("[1]");
    for (fkey, title) in [
        (2, "Request"),
        (3, "List"),
        (4, "History"),
        (5, "Profiles"),
        (6, "Captured request"),
    ] {
        update(
            &mut a,
            Message::Key(KeyEvent::new(KeyCode::F(fkey), KeyModifiers::NONE)),
        );
        for (w, h) in [
            (40, 12),
            (40, 14),
            (30, 8),
            (20, 5),
            (80, 6),
            (10, 3),
            (1, 1),
        ] {
            let buf = render(&mut a, w, h);
            assert_eq!(buf.area.height, h);
        }
        let screen = rows(&render(&mut a, 60, 19)).join("\n");
        assert!(
            screen.contains(title),
            "F{fkey} at 60x19 shows no {title:?}:\n{screen}"
        );
    }
}

#[test]
fn the_verdict_stands_beside_the_signature_it_judged_only() {
    let mut a = app_with_body("[1]");
    let shown = expected_signature(&a);
    let sig_row = |a: &mut TestApp| {
        rows(&render(a, 120, 40))
            .into_iter()
            .find(|r| r.starts_with("sig "))
            .unwrap_or_default()
    };
    // Sent with the signature on screen: its verdict is beside it.
    a.request.response = Some(ResponseView {
        status: 200,
        sent: Some(std::sync::Arc::new(crate::tui::model::SentView {
            signature: shown.clone(),
            ..Default::default()
        })),
        ..Default::default()
    });
    let row = sig_row(&mut a);
    assert!(
        row.contains(&shown) && row.contains("accepted (200)"),
        "{row}"
    );
    // Sent with another signature (the live timestamp ticked since): no verdict on this line.
    a.request.response = Some(ResponseView {
        status: 200,
        sent: Some(std::sync::Arc::new(crate::tui::model::SentView {
            signature: "c2VudCBiZWZvcmU=".into(),
            ..Default::default()
        })),
        ..Default::default()
    });
    let row = sig_row(&mut a);
    assert!(row.contains(&shown) && !row.contains("200"), "{row}");
}
