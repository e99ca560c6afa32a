//! The no-cut sweep: every view at 80x24, 120x40 and 200x50 drawn on the one fixture
//! ([`TestApp`]) and read back with the check of `no_cut.rs`: no word runs into a pane's edge
//! without an indicator, and the text taken from the model is readable (wrapped, or reached
//! with the pane's scroll keys).

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::no_cut::{cut_text, edge_cuts, known, times, unreadable};
use crate::tui::components::diagnose::DiagnoseMsg;
use crate::tui::layout::{frame_layout, tab_layout, View};
use crate::tui::message::Message;
use crate::tui::test_util::{alt_key, ctrl_key, key, render_buffer, TestApp};

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 50)];

fn assert_clean(what: &str, problems: Vec<String>) {
    assert!(problems.is_empty(), "{what}:\n{}", problems.join("\n"));
}

/// A 30-column box holding `text`, wrapped or not.
fn boxed(text: &str, wrap: bool) -> ratatui::buffer::Buffer {
    render_buffer(40, 6, |f| {
        let p = Paragraph::new(Line::from(text.to_string()))
            .block(Block::default().borders(Borders::ALL).title(" pane "));
        let p = if wrap {
            p.wrap(Wrap { trim: false })
        } else {
            p
        };
        f.render_widget(p, Rect::new(0, 0, 30, 6));
    })
}

/// The check fails on the cases it is for: a word cut at a box's border, a table cell cut
/// short, a status line cut at the screen's edge; and passes once they wrap or say "…".
#[test]
fn the_check_finds_words_cut_at_an_edge_and_strings_not_on_screen() {
    let text = "item_variant_id Kitchen towels and more words here";
    let whole = known(&[text]);
    // Cut at the border: "vari" (or whatever is at the edge) is not a whole word.
    let cut = boxed(text, false);
    assert_eq!(edge_cuts(&cut, &whole, None).len(), 1, "{:?}", cut);
    assert_eq!(unreadable(&cut, &whole), vec![&whole[0]]);
    // Wrapped: nothing runs into the border and the whole text reads across the rows.
    let wrapped = boxed(text, true);
    assert!(edge_cuts(&wrapped, &whole, None).is_empty());
    assert!(unreadable(&wrapped, &whole).is_empty());
    // Cut with an ellipsis: it says there is more (the text is then elsewhere or scrolls).
    let marked = boxed("item_variant_id Kitchen tow…", false);
    assert!(edge_cuts(&marked, &whole, None).is_empty());
    // A cell cut short inside a table ("Kitch") is not the known string.
    let table = boxed("item_i  varia  Kitch", false);
    assert_eq!(
        unreadable(&table, &known(&["item_id", "variant", "Kitchen"])).len(),
        3
    );
    // A screen row outside any box: the status line cut at the screen's right edge.
    let status = render_buffer(20, 1, |f| {
        f.render_widget(Paragraph::new("a status message cut here"), f.area())
    });
    assert_eq!(edge_cuts(&status, &[], None).len(), 1);
    // A word ending exactly at the edge is fine when it is a whole word of the model's text.
    let exact = render_buffer(9, 1, |f| {
        f.render_widget(Paragraph::new("a message"), f.area())
    });
    assert!(edge_cuts(&exact, &known(&["a message"]), None).is_empty());
    assert_eq!(edge_cuts(&exact, &known(&["a messages"]), None).len(), 1);
}

/// The tab bar at 80 columns showed F2..F6 and cut F7 Traffic and F8 Lesson: every tab is in
/// the bar (short titles) and a click on each lands on its view.
#[test]
fn the_tab_bar_fits_at_80_columns_with_every_tab() {
    for (w, h) in [(80u16, 24u16), (92, 24), (120, 40), (60, 20)] {
        let mut a = TestApp::new(w, h);
        let top = a.lines()[0].clone();
        for v in View::ALL {
            assert!(top.contains(&format!("{} ", v.key())), "{w}: {top:?}");
        }
        assert!(top.trim_end().ends_with("F1 help"), "{w}: {top:?}");
        if w >= 80 {
            assert!(
                top.contains("Traffic") && top.contains("Lesson"),
                "{w}: {top:?}"
            );
        }
        if w >= 92 {
            for v in View::ALL {
                assert!(top.contains(v.title()), "{w}: {top:?}");
            }
        }
        let top_row = Rect::new(0, 0, w, 1);
        assert_clean(
            &format!("tab bar at {w}"),
            edge_cuts(&a.draw().clone(), &known(&["F1 help"]), Some(top_row)),
        );
        let tabs = tab_layout(frame_layout(Rect::new(0, 0, w, h)).0);
        assert_eq!(tabs.len(), View::ALL.len());
        for (v, r) in tabs {
            assert!(r.x + r.width <= w, "{w}: {v:?} at {r:?}");
            let label: String = top
                .chars()
                .skip(r.x as usize)
                .take(r.width as usize)
                .collect();
            assert!(
                label.contains(&v.key()),
                "{w}: {v:?} at {r:?} reads {label:?}"
            );
            a.click(r.x + 1, 0);
            assert_eq!(a.view, v, "{w}: click at {r:?}");
        }
    }
}

/// The demo request with a long body line, a frozen timestamp, a long status message; signed.
fn request_app(w: u16, h: u16) -> TestApp {
    let body = format!(
        "[{{\"id\": \"sku-1\", \"description\": \"{} END\"}}]",
        "a long product description ".repeat(6)
    );
    let mut a = TestApp::with_body(w, h, &body);
    a.request.ts_live = false;
    a.sign_now();
    a
}

/// What the request view shows besides its known strings: the canonical text as the panels
/// draw it (markers made visible), one string per line and as one.
fn shown(a: &crate::tui::app::App) -> Vec<String> {
    let bytes = a.request.signable().canonical().to_bytes();
    let mut out = crate::core::visible::visible_lines(&bytes);
    out.push(crate::core::visible::escape_visible(&bytes));
    out.push(a.request.body.text().to_string());
    // The pipeline's headings and the end of its cut canonical preview.
    out.extend(known(&[
        "1 canonical bytes — the exact text signed: 7 lines + body, joined by LF",
        "2 HMAC-SHA384 digest — keyed with the REST key; 48 bytes, in hex",
        "3 base64 — standard alphabet with padding: the signature",
        "4 header — sent as the Authorization header",
    ]));
    let body = a.request.body.text().len();
    if body > 160 {
        out.push(format!("… (+{} bytes)", body - 160));
    }
    if let Some(Ok(s)) = &a.request.sign.result {
        out.push(s.digest_hex());
        out.push(format!("Authorization: Bearer {}", s.signature()));
    }
    out
}

fn page_down() -> Message {
    key(KeyCode::PageDown)
}

/// The request view's detail panels: the pipeline's headings, the signed headers (the whole
/// signature), a long response line and the diff placeholder; the status line.
#[test]
fn the_request_view_and_its_detail_panels_cut_nothing() {
    use crate::tui::components::request::Detail;
    for (w, h) in SIZES {
        let mut a = request_app(w, h);
        let sig = match &a.request.sign.result {
            Some(Ok(s)) => s.signature().to_string(),
            _ => String::new(),
        };
        assert!(!sig.is_empty());
        a.request.detail = Detail::Pipeline;
        let s = shown(&a.app);
        let k = known(&["1 canonical bytes — the exact text signed: 7 lines + body, joined by LF"]);
        assert_clean(
            &format!("pipeline {w}x{h}"),
            cut_text(&mut a, &k, &s, times(page_down, 12)),
        );
        let mut a = request_app(w, h);
        a.request.detail = Detail::Headers;
        let s = shown(&a.app);
        assert_clean(
            &format!("headers {w}x{h}"),
            cut_text(&mut a, std::slice::from_ref(&sig), &s, times(page_down, 12)),
        );
        let mut a = request_app(w, h);
        let long = format!("{{\"message\": \"{} END\"}}", "a long answer ".repeat(12));
        a.request.response = Some(crate::tui::test_util::plain_response(vec![long.clone()]));
        a.request.detail = Detail::Response;
        let s = shown(&a.app);
        assert_clean(
            &format!("response {w}x{h}"),
            cut_text(&mut a, &[long], &s, times(page_down, 12)),
        );
        let mut a = request_app(w, h);
        a.request.detail = Detail::Diff;
        let s = shown(&a.app);
        assert_clean(
            &format!("diff {w}x{h}"),
            cut_text(&mut a, &known(&["appear here line by line."]), &s, vec![]),
        );
    }
}

/// Help, the palette, the message log and the prompts over the request view.
#[test]
fn popups_and_prompts_cut_nothing() {
    for (w, h) in SIZES {
        let mut a = request_app(w, h);
        a.press(KeyCode::F(1));
        let rows: Vec<String> = crate::tui::popups::help::bindings(&a.app.popup_ctx())
            .into_iter()
            .map(|(_, d)| d)
            .collect();
        assert_clean(
            &format!("help {w}x{h}"),
            cut_text(&mut a, &rows, &[], times(|| key(KeyCode::Down), 80)),
        );
        let mut a = request_app(w, h);
        a.ctrl('k');
        assert_clean(
            &format!("palette {w}x{h}"),
            cut_text(&mut a, &[], &[], vec![]),
        );
        let mut a = request_app(w, h);
        let long = format!("a long status message {} TAIL", "that goes on ".repeat(20));
        a.update(crate::tui::message::Message::Status(long.clone()));
        a.update(Message::Resize(w, h));
        let s = shown(&a.app);
        assert_clean(
            &format!("status {w}x{h}"),
            cut_text(&mut a, &[], &s, vec![]),
        );
        a.update(alt_key('m'));
        assert_clean(
            &format!("message log {w}x{h}"),
            cut_text(&mut a, &[long], &[], vec![]),
        );
        let mut a = request_app(w, h);
        a.alt('a');
        assert_clean(
            &format!("name prompt {w}x{h}"),
            cut_text(&mut a, &[], &[], vec![]),
        );
        let mut a = request_app(w, h);
        a.request.dirty = true;
        a.update(ctrl_key('q'));
        assert_clean(
            &format!("quit question {w}x{h}"),
            cut_text(&mut a, &[], &[], vec![]),
        );
    }
}

/// The other views with their usual content.
#[test]
fn every_other_view_cuts_nothing() {
    for (w, h) in SIZES {
        for (f, v) in [
            (3, View::Events),
            (4, View::History),
            (5, View::Profiles),
            (6, View::Diagnose),
            (7, View::Traffic),
            (8, View::Lesson),
        ] {
            let mut a = request_app(w, h);
            a.press(KeyCode::F(f));
            assert_eq!(a.view, v);
            // The profile list's row for the one in use fills the 80-column list exactly.
            let s = vec![
                a.events.batch_text().to_string(),
                "demo (in use) built-in".to_string(),
            ];
            assert_clean(&format!("{v:?} {w}x{h}"), cut_text(&mut a, &[], &s, vec![]));
        }
    }
}

/// The Diagnose view with a long capture (its body one long line) and the report of its
/// mismatch: the conclusion and every report line readable (the report wraps and scrolls with
/// the wheel), the capture marked where its lines go on.
#[test]
fn diagnose_with_a_long_capture_and_its_conclusion_cuts_nothing() {
    use crate::core::{sign, Secret, SignableRequest};
    use crate::tui::components::diagnose::capture::diagnose_capture;
    use crate::tui::components::diagnose::layout;
    use crate::tui::test_util::{t0, wheel_in};
    let key = Secret::new(crate::server::DEMO_REST_KEY);
    let ts = crate::core::time::format_timestamp(t0());
    let body = format!(
        "[{{\"id\": \"sku-1\", \"description\": \"{}END\"}}]",
        "a very long description ".repeat(12)
    );
    let req = SignableRequest::new(
        "PUT",
        "/v2/batch",
        "a=1",
        &ts,
        "demo-public-key",
        body.as_bytes(),
    );
    let signed = sign(&req, &key).unwrap();
    let text = String::from_utf8(crate::core::http_text::to_raw_request(
        &req,
        &signed,
        "127.0.0.1",
    ))
    .unwrap();
    // Signed with "?a=1": the classic mistake, with a long conclusion.
    let bad = SignableRequest::new(
        "PUT",
        "/v2/batch",
        "?a=1",
        &ts,
        "demo-public-key",
        body.as_bytes(),
    );
    let bad_sig = sign(&bad, &key).unwrap().signature().to_string();
    let capture = text.replace(signed.signature(), &bad_sig);
    let (ok, lines) = diagnose_capture(&capture, &key, "SVC", t0());
    assert!(!ok && lines[0].starts_with("Conclusion:"), "{lines:?}");
    for (w, h) in SIZES {
        let mut a = request_app(w, h);
        a.press(KeyCode::F(6));
        a.paste(&capture);
        a.update(Message::Diagnose(DiagnoseMsg::Diagnosed {
            ok,
            lines: lines.clone(),
        }));
        let report = layout(frame_layout(Rect::new(0, 0, w, h)).1).report;
        let known: Vec<String> = lines
            .iter()
            .filter(|l| !l.trim().is_empty())
            .cloned()
            .collect();
        let shown: Vec<String> = capture.lines().map(str::to_string).collect();
        assert_clean(
            &format!("diagnose {w}x{h}"),
            cut_text(
                &mut a,
                &known,
                &shown,
                times(|| Message::Mouse(wheel_in(report, true)), 60),
            ),
        );
    }
}

/// The Events view on a batch whose items and problems are long, in the form (the items
/// table at every width: `varia`, `Kitch`, `item_i` were cut at 120 columns) and as raw JSON.
#[test]
fn events_with_long_items_and_problems_cut_nothing() {
    use crate::tui::components::events::EventsMsg;
    let item = |i: u64| {
        serde_json::json!({"item_id": format!("kitchen-towel-{i}-variant-blue"),
            "item_group_id": format!("kitchen-towel-{i}"), "item_variant_id": "variant-blue",
            "item_name": "Kitchen towel, cotton, blue, pack of three", "price": "ten euros",
            "currency": "euro", "item_brand": "Kitchen & Home Essentials",
            "item_category": "Home;;Kitchen;;Kitchen textiles", "index": i})
    };
    let batch = serde_json::json!([{"event": "view_recs_list", "event_apikey": "",
        "event_list_id": "list-1", "event_tags": ["recsPageType:HOME"],
        "event_list_name": "Trending now in kitchen textiles", "event_list_logic": "TRENDING",
        "items": [item(1), item(2)]}]);
    for (w, h) in SIZES {
        let mut a = request_app(w, h);
        a.press(KeyCode::F(3));
        a.update(Message::Events(EventsMsg::LoadBatch(batch.to_string())));
        let problems: Vec<String> = a
            .events
            .problems
            .iter()
            .map(|p| p.message.clone())
            .collect();
        assert!(problems.len() >= 3, "{problems:?}");
        let mut shown = problems.clone();
        shown.push(a.events.batch_text().to_string());
        shown.extend(a.events.problems.iter().map(|p| p.path.clone()));
        let known = known(&[
            "variant-blue",
            "Kitchen towel, cotton, blue, pack of three",
            "kitchen-towel-1-variant-blue",
            "Home;;Kitchen;;Kitchen textiles",
        ]);
        a.events.focus = crate::tui::components::events::Focus::Items;
        let scroll = times(|| key(KeyCode::Right), 12);
        assert_clean(
            &format!("events form {w}x{h}"),
            cut_text(&mut a, &known, &shown, scroll),
        );
        // The first problem whole (the problems pane wraps).
        let mut a = request_app(w, h);
        a.press(KeyCode::F(3));
        a.update(Message::Events(EventsMsg::LoadBatch(batch.to_string())));
        assert_clean(
            &format!("events problems {w}x{h}"),
            cut_text(&mut a, &problems[..1], &shown, vec![]),
        );
        a.ctrl('p');
        assert_clean(
            &format!("events raw {w}x{h}"),
            cut_text(&mut a, &[], &shown, vec![]),
        );
    }
}

/// The Traffic view with a long mismatch record: the summary and conclusion wrap, the
/// server's signing text and what was received wrap in their halves.
#[test]
fn traffic_with_a_long_record_cuts_nothing() {
    use crate::core::traffic::RequestSeen;
    use crate::tui::components::traffic::TrafficMsg;
    let long_path = format!("/v2/batch/{}", "segment/".repeat(12));
    let conclusion = "the client signed the path without its trailing slash while the request \
                      line has one, so the server's signing text differs in the path line";
    let rec: RequestSeen = serde_json::from_value(serde_json::json!({
        "seq": 1, "time": "2026-11-22T11:24:54.123Z", "method": "PUT", "path": long_path,
        "query": "", "route": "indexing", "status": 401, "code": "SIGNATURE_MISMATCH",
        "message": "the signature does not match the request", "verdict": "rejected",
        "conclusion": conclusion,
        "expected": format!("PUT\\n{long_path}\\n\\nX-SVC-TIMESTAMP=2026-11-22T11:24:54.000Z\\n"),
        "request_bytes": 2, "response_bytes": null, "duration_ms": 1.0, "record": 1,
        "job_id": null, "batch": null, "upstream": null,
        "headers": [["x-svc-timestamp", "2026-11-22T11:24:54.000Z"]], "body": "[]"
    }))
    .unwrap();
    for (w, h) in SIZES {
        let mut a = request_app(w, h);
        a.update(Message::Traffic(TrafficMsg::Source {
            address: "http://127.0.0.1:8787".into(),
            watching: false,
        }));
        a.press(KeyCode::F(7));
        a.update(Message::Traffic(TrafficMsg::Received(Box::new(
            rec.clone(),
        ))));
        let shown = vec![long_path.clone(), conclusion.to_string()];
        assert_clean(
            &format!("traffic {w}x{h}"),
            cut_text(
                &mut a,
                &known(&[conclusion, long_path.as_str()]),
                &shown,
                times(page_down, 10),
            ),
        );
    }
}

/// History with an entry, the profiles form and the lesson.
#[test]
fn history_profiles_and_lesson_with_content_cut_nothing() {
    use crate::tui::components::history::HistoryMsg;
    use crate::tui::components::lesson::LessonMsg;
    for (w, h) in SIZES {
        let mut a = request_app(w, h);
        a.press(KeyCode::F(4));
        use crate::tui::components::history::RowKind;
        let mut row = crate::tui::components::history::tests::row(
            "2026-11-22T10:00:00.000Z",
            "demo",
            RowKind::Request,
            Some(200),
        );
        row.url = format!(
            "http://127.0.0.1:4000/v2/batch/{}?test=1",
            "long/".repeat(30)
        );
        let url = row.url.clone();
        a.update(Message::History(HistoryMsg::Loaded {
            rows: vec![row],
            warnings: vec![],
        }));
        assert_clean(
            &format!("history {w}x{h}"),
            cut_text(
                &mut a,
                std::slice::from_ref(&url),
                std::slice::from_ref(&url),
                vec![],
            ),
        );
        let mut a = request_app(w, h);
        a.press(KeyCode::F(5));
        a.press(KeyCode::Char('e'));
        assert_clean(
            &format!("profiles form {w}x{h}"),
            cut_text(&mut a, &[], &known(&["demo (in use) built-in"]), vec![]),
        );
        let mut a = request_app(w, h);
        a.press(KeyCode::F(8));
        a.update(Message::Lesson(LessonMsg::ProgressLoaded(Ok(
            Default::default(),
        ))));
        let s = shown(&a.app);
        assert_clean(
            &format!("lesson {w}x{h}"),
            cut_text(&mut a, &[], &s, vec![]),
        );
    }
}

/// The help of every view (each row's description whole, wrapped under its key; the popup
/// scrolls) and the palette over every view.
#[test]
fn the_help_and_the_palette_of_every_view_cut_nothing() {
    for (w, h) in SIZES {
        for f in 2..=8 {
            let mut a = request_app(w, h);
            a.press(KeyCode::F(f));
            a.press(KeyCode::F(1));
            assert!(a.popup.is_some(), "F{f}: no help");
            let rows: Vec<String> = crate::tui::popups::help::bindings(&a.app.popup_ctx())
                .into_iter()
                .map(|(_, d)| d)
                .collect();
            assert_clean(
                &format!("help of F{f} {w}x{h}"),
                cut_text(&mut a, &rows, &[], times(|| key(KeyCode::Down), 80)),
            );
            let mut a = request_app(w, h);
            a.press(KeyCode::F(f));
            a.ctrl('k');
            assert_clean(
                &format!("palette of F{f} {w}x{h}"),
                cut_text(&mut a, &[], &[], vec![]),
            );
        }
    }
}

/// No block title is cut silently at the smallest size, at 80x24 and at 120x40: every view,
/// the request view while signing (`updating…` in its title), with the PHP SDK form on (the
/// legend that explains the `*` rows), with a body that is not JSON (the reason in the body's
/// bottom border) and with a long saved-request list in its title; the detail tabs whole or
/// marked.
#[test]
fn no_block_title_is_cut_unmarked_in_any_view() {
    use crate::tui::layout::MIN_SIZE;
    let mut cuts = vec![];
    for (w, h) in [MIN_SIZE, (80, 24), (120, 40)] {
        let mut states: Vec<(String, TestApp)> = vec![];
        for f in 2..=8 {
            let mut a = request_app(w, h);
            a.press(KeyCode::F(f));
            states.push((format!("F{f}"), a));
        }
        let mut a = request_app(w, h);
        let pending = a.resign();
        assert!(!pending.is_empty() && a.request.sign.updating());
        states.push(("signing".into(), a));
        let mut a = request_app(w, h);
        a.alt('f');
        a.sign_now();
        states.push(("PHP form".into(), a));
        let body = "[\n{\"id\": 1},\n{\"id\": 2}\n{\"id\": 3}\n]";
        let mut a = TestApp::with_body(w, h, body);
        a.sign_now();
        // What the runtime's JSON check answers for this body.
        let rev = a.request.body_state.rev;
        let error = crate::tui::signing::json_problem(body.as_bytes());
        assert!(error.is_some());
        a.update(Message::Request(
            crate::tui::components::request::RequestMsg::Signing(
                crate::tui::signing::SignAnswer::JsonChecked { rev, error },
            ),
        ));
        states.push(("body not JSON".into(), a));
        // Long titles in the other views: a long filter (typed and kept) in History and
        // Traffic, a long lesson exercise, and the popups over them.
        let filter = "a-very-long-filter-that-no-title-has-room-for ".repeat(3);
        for (f, name) in [(4, "History"), (7, "Traffic")] {
            for keep in [false, true] {
                let mut a = request_app(w, h);
                a.press(KeyCode::F(f));
                a.press(KeyCode::Char('/'));
                a.type_str(&filter);
                if keep {
                    a.press(KeyCode::Enter);
                }
                states.push((format!("{name} filter kept={keep}"), a));
            }
        }
        for f in 2..=8 {
            let mut a = request_app(w, h);
            a.press(KeyCode::F(f));
            a.press(KeyCode::F(1));
            states.push((format!("help of F{f}"), a));
            let mut a = request_app(w, h);
            a.press(KeyCode::F(f));
            a.ctrl('k');
            states.push((format!("palette of F{f}"), a));
        }
        // The lesson read (its signing-text pane has a long title) and an exercise.
        for keys in ["", "1"] {
            let mut a = request_app(w, h);
            a.press(KeyCode::F(8));
            a.update(Message::Lesson(
                crate::tui::components::lesson::LessonMsg::ProgressLoaded(Ok(Default::default())),
            ));
            a.type_str(keys);
            states.push((format!("lesson {keys:?}"), a));
        }
        let mut a = request_app(w, h);
        a.press(KeyCode::F(6));
        a.alt('t');
        states.push(("Diagnose client text".into(), a));
        let mut a = request_app(w, h);
        a.press(KeyCode::F(7));
        a.ctrl('s');
        states.push(("Traffic save prompt".into(), a));
        let mut a = request_app(w, h);
        a.press(KeyCode::F(3));
        a.ctrl('s');
        states.push(("Events save prompt".into(), a));
        let mut a = request_app(w, h);
        a.press(KeyCode::F(3));
        a.ctrl('o');
        states.push(("Events open prompt".into(), a));
        for (what, mut a) in states {
            let buf = a.draw().clone();
            for c in super::no_cut::title_cuts(&buf) {
                cuts.push(format!("{what} {w}x{h}: {c}"));
            }
            let screen = a.screen();
            if what == "F2" {
                // The detail tabs: all four, or the cut marked.
                let tabs = screen
                    .lines()
                    .find(|l| l.contains(" Pipeline "))
                    .unwrap_or_else(|| panic!("{screen}"));
                assert!(
                    tabs.contains(" Diff ") || tabs.contains('…'),
                    "{w}x{h}: {tabs}"
                );
            }
            // At 60 columns the canonical pane is 22 wide: the legend's start, marked.
            if what == "PHP form" && w >= 80 {
                assert!(
                    screen.contains("form · * differs from standard")
                        || screen.contains("form · * not standard"),
                    "{w}x{h}: the legend is on screen:\n{screen}"
                );
            }
        }
    }
    assert_clean("block titles", cuts);
}

/// At the smallest size the workbench draws (below it, the "too small" screen) every pane of
/// the request view has a row for its text: the body that takes the typing is on screen (it
/// was not at 60x16), and so are the canonical text and the detail panel; the Events items
/// table shows a row.
#[test]
fn at_the_smallest_size_every_request_pane_has_a_row() {
    use crate::tui::components::request::request_layout;
    use crate::tui::layout::MIN_SIZE;
    let (w, h) = MIN_SIZE;
    let l = request_layout(Rect::new(0, 0, w, h));
    for (name, r) in [
        ("body", l.body),
        ("canonical", l.canonical),
        ("detail", l.detail),
    ] {
        assert!(r.height >= 3, "{name} at {w}x{h}: {r:?}");
    }
    let mut a = request_app(w, h);
    a.press(KeyCode::Tab);
    let body = a.request.body.text().to_string();
    let start: String = body.chars().take(10).collect();
    a.assert_line(&format!("│{start}"));
    a.press(KeyCode::F(3));
    a.assert_line("1 [ ]");
}

/// The timestamp's `live` goes whole or not at all: at 80x24 the row ends with the whole
/// timestamp, no `…` after it (it read as a cut timestamp).
#[test]
fn the_timestamp_row_has_no_mark_after_a_whole_timestamp() {
    for (w, h) in [(60, 19), (80, 24), (120, 40)] {
        let mut a = TestApp::new(w, h);
        a.sign_now();
        let ts = a.request.timestamp.text().to_string();
        let row = a.assert_line("│Timestamp");
        assert!(row.contains(&ts), "{row}");
        assert!(!row.contains(&format!("{ts}…")), "{w}x{h}: {row}");
    }
}
