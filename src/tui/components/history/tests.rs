//! Tests of the history view: filtering, selection, loading, copying, drawing.

use super::*;
use crate::tui::app::App;
use crate::tui::component::Clip;
use crate::tui::layout::View;
use crate::tui::test_util::{buffer_lines, component_buffer};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

impl HistoryState {
    pub(crate) fn new(rows: Vec<HistoryRow>) -> Self {
        let mut s = HistoryState::default();
        s.set_rows(rows);
        s
    }
}

pub(crate) fn row(time: &str, profile: &str, kind: RowKind, status: Option<u16>) -> HistoryRow {
    let (method, url, kinds, body) = match kind {
        RowKind::Request => (
            "PUT",
            "http://127.0.0.1:4000/v2/batch?test=1",
            vec![],
            r#"[{"id":"it's"}]"#,
        ),
        RowKind::Events => (
            "POST",
            "http://127.0.0.1:4000/analytics/collect",
            vec!["view_recs_list".to_string(), "select_recs_list".to_string()],
            r#"[{"event":"view_recs_list"}]"#,
        ),
    };
    HistoryRow {
        time: time.into(),
        profile: profile.into(),
        kind,
        method: method.into(),
        url: url.into(),
        event_kinds: kinds,
        request_headers: vec![("Content-Type".into(), "application/json".into())],
        request_body: body.into(),
        status,
        duration_ms: status.map(|_| 12),
        response_headers: vec![],
        response_body: r#"{"accepted":2,"rejected":0}"#.into(),
        error: status.is_none().then(|| "connection refused".to_string()),
        spec: None,
    }
}

fn key(code: KeyCode) -> HistoryMsg {
    HistoryMsg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn sample() -> HistoryState {
    HistoryState::new(vec![
        row(
            "2026-11-22T10:00:00.000Z",
            "demo",
            RowKind::Request,
            Some(200),
        ),
        row(
            "2026-11-22T10:05:00.000Z",
            "shop",
            RowKind::Events,
            Some(200),
        ),
        row(
            "2026-11-22T10:10:00.000Z",
            "demo",
            RowKind::Request,
            Some(401),
        ),
    ])
}

#[test]
fn newest_first_and_appended_entries_go_on_top() {
    let mut s = sample();
    let times: Vec<_> = s.visible().iter().map(|r| r.time.clone()).collect();
    assert_eq!(
        times,
        [
            "2026-11-22T10:10:00.000Z",
            "2026-11-22T10:05:00.000Z",
            "2026-11-22T10:00:00.000Z"
        ]
    );
    update(
        &mut s,
        HistoryMsg::Appended(Box::new(row(
            "2026-11-22T11:00:00.000Z",
            "x",
            RowKind::Events,
            None,
        ))),
    );
    assert_eq!(s.visible()[0].profile, "x");
    assert_eq!(s.list.selected, 0);
}

#[test]
fn slash_filters_by_every_word_and_esc_clears() {
    let mut s = sample();
    // Without `/`, letters are keys of the list (`j` selects the next entry), not a filter.
    update(&mut s, key(KeyCode::Char('j')));
    assert_eq!((s.list.filter(), s.list.selected), ("", 1));
    update(&mut s, key(KeyCode::Char('/')));
    for c in "demo 401".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    let v = s.visible();
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].status, Some(401));
    update(&mut s, key(KeyCode::Backspace));
    update(&mut s, key(KeyCode::Backspace));
    update(&mut s, key(KeyCode::Backspace));
    assert_eq!(s.list.filter(), "demo ");
    assert_eq!(s.visible().len(), 2);
    for c in "select".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    assert_eq!(s.visible().len(), 0, "demo has no event batches");
    update(&mut s, key(KeyCode::Esc));
    assert_eq!(s.visible().len(), 3);
}

#[test]
fn selection_stays_within_the_filtered_list() {
    let mut s = sample();
    for _ in 0..5 {
        update(&mut s, key(KeyCode::Down));
    }
    assert_eq!(s.list.selected, 2);
    update(&mut s, key(KeyCode::Char('/')));
    update(&mut s, key(KeyCode::Char('s')));
    update(&mut s, key(KeyCode::Char('h')));
    assert_eq!(s.list.selected, 0);
    assert_eq!(s.selected_row().unwrap().profile, "shop");
}

#[test]
fn enter_loads_into_the_matching_view_and_ctrl_y_copies_curl() {
    let mut s = sample();
    update(&mut s, key(KeyCode::Down)); // the events entry
    let effects = update(&mut s, key(KeyCode::Enter));
    assert_eq!(
        effects[0],
        HistoryEffect::LoadIntoEvents {
            body: r#"[{"event":"view_recs_list"}]"#.into()
        }
    );
    update(&mut s, key(KeyCode::Down));
    let effects = update(&mut s, key(KeyCode::Enter));
    assert!(matches!(&effects[0], HistoryEffect::LoadIntoRequest(r) if r.method == "PUT"));
    let effects = update(&mut s, HistoryMsg::Run(Action::CopyCurl));
    // The copied command sends the recorded request: parse it back.
    let HistoryEffect::Copy(Clip { text: cmd, what }) = &effects[0] else {
        panic!("{effects:?}")
    };
    assert!(what.starts_with("the request of "), "{what}");
    assert!(what.ends_with(" as curl"), "{what}");
    let c = crate::core::curl::parse_curl_command(cmd).unwrap();
    assert_eq!(c.request.method, "PUT");
    assert_eq!(c.url, "http://127.0.0.1:4000/v2/batch?test=1");
    assert_eq!(c.request.body, br#"[{"id":"it's"}]"#.to_vec());
    assert!(c
        .request
        .headers
        .iter()
        .any(|(n, v)| n == "Content-Type" && v == b"application/json"));
}

#[test]
fn a_store_entry_becomes_a_row_with_its_event_kinds_and_duration() {
    use crate::store::{HistoryEntry, RecordedRequest, RecordedResponse, RecordedTimings};
    let body =
        r#"[{"event":"view_recs_list"},{"event":"select_recs_list"},{"event":"select_recs_list"}]"#;
    let entry = HistoryEntry {
        time: "2026-11-22T10:05:00.000Z".into(),
        profile: "demo".into(),
        request_name: None,
        kind: "events".into(),
        request: RecordedRequest {
            in_process: false,
            method: "POST".into(),
            url: "http://127.0.0.1:4000/analytics/collect".into(),
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: body.into(),
            body_len: body.len(),
            body_truncated: false,
            spec: None,
        },
        response: Some(RecordedResponse {
            status: 200,
            headers: vec![],
            body: r#"{"accepted":3}"#.into(),
            body_len: 14,
            body_truncated: false,
        }),
        error: None,
        timings: Some(RecordedTimings {
            connect_ms: None,
            first_byte_ms: 2.0,
            total_ms: 7.6,
        }),
    };
    let r = HistoryRow::from(&entry);
    assert_eq!(r.kind, RowKind::Events);
    assert_eq!(r.what(), "view_recs_list, select_recs_list");
    assert_eq!((r.status, r.duration_ms), (Some(200), Some(8)));
    assert_eq!(r.short_time(), "11-22 10:05:00");
    assert_eq!(r.full_time(), "2026-11-22 10:05:00 UTC");
    let req = HistoryEntry {
        kind: "request".into(),
        request: RecordedRequest {
            in_process: false,
            method: "PUT".into(),
            url: "http://127.0.0.1:4000/v2/batch".into(),
            headers: vec![],
            body: "[]".into(),
            body_len: 2,
            body_truncated: false,
            spec: None,
        },
        response: None,
        error: Some("connection refused".into()),
        timings: None,
        ..entry
    };
    let r = HistoryRow::from(&req);
    assert_eq!(r.what(), "PUT /v2/batch");
    assert_eq!(r.status_text(), "error");
}

/// The view as the workbench draws it on a `w`x`h` screen (the one fixture, `TestApp`).
fn shown(state: &HistoryState, w: u16, h: u16) -> ratatui::buffer::Buffer {
    let slot: fn(&mut App) -> &mut HistoryState = |a| &mut a.history;
    component_buffer(w, h, View::History, slot, &mut state.clone())
}

/// [`shown`] as text, one line per row.
fn render(state: &HistoryState, w: u16, h: u16) -> String {
    buffer_lines(&shown(state, w, h)).join("\n")
}

#[test]
fn draws_list_and_selected_entry_at_80x24_and_120x40() {
    let mut s = sample();
    update(&mut s, key(KeyCode::Down));
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = render(&s, w, h);
        assert!(screen.contains("History (3)"), "{w}x{h}\n{screen}");
        assert!(screen.contains("11-22 10:10:00"), "{w}x{h}\n{screen}");
        assert!(
            screen.contains("2026-11-22 10:05:00 UTC"),
            "{w}x{h}\n{screen}"
        );
        assert!(screen.contains("PUT /v2/batch?test=1"), "{w}x{h}\n{screen}");
        assert!(
            screen.contains("view_recs_list, select_recs_list"),
            "{w}x{h}\n{screen}"
        );
        assert!(screen.contains("401"), "{w}x{h}\n{screen}");
        // Detail of the selected (events) entry.
        assert!(
            screen.contains("POST http://127.0.0.1:4000/analytics/collect"),
            "{w}x{h}\n{screen}"
        );
        assert!(screen.contains("HTTP 200 in 12 ms"), "{w}x{h}\n{screen}");
        assert!(
            screen.contains(r#"{"accepted":2,"rejected":0}"#),
            "{w}x{h}\n{screen}"
        );
    }
    update(&mut s, key(KeyCode::Char('/')));
    for c in "zzz".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    let screen = render(&s, 80, 24);
    assert!(
        screen.contains("History (0 of 3) · filter: zzz▏"),
        "{screen}"
    );
    assert!(screen.contains("Nothing matches the filter"), "{screen}");
}

// -----------------------------------------------------------------------------------------
// Mouse: events aimed at cells from `layout`, the layout `draw` uses.

use crate::tui::test_util::{click_in, reversed, wheel_in};

fn area(w: u16, h: u16) -> Rect {
    crate::tui::layout::frame_layout(Rect::new(0, 0, w, h)).1
}

/// `n` entries, one a minute, newest first on screen.
fn many(n: usize) -> HistoryState {
    HistoryState::new(
        (0..n)
            .map(|i| {
                row(
                    &format!("2026-11-22T10:{i:02}:00.000Z"),
                    &format!("p{i}"),
                    RowKind::Request,
                    Some(200),
                )
            })
            .collect(),
    )
}

#[test]
fn clicking_a_row_selects_it_and_it_is_drawn_highlighted() {
    for (w, h) in [(80, 24), (120, 40)] {
        let a = area(w, h);
        let mut s = sample();
        s.detail_scroll = 6;
        let l = layout(a, &s);
        let (i, r) = l.window.rows[2];
        update(&mut s, HistoryMsg::Mouse(click_in(r), a));
        assert_eq!(s.list.selected, i, "{w}x{h}");
        assert_eq!(s.detail_scroll, 0, "a new entry shows from its top");
        let buf = shown(&s, w, h);
        assert!(reversed(&buf, r.y, r.x, r.x + r.width), "{w}x{h}");
        let (_, other) = l.window.rows[0];
        assert!(!reversed(&buf, other.y, other.x, other.x + other.width));
        let detail = render(&s, w, h);
        assert!(
            detail.contains("2026-11-22 10:00:00 UTC · profile demo"),
            "the oldest entry is shown\n{detail}"
        );
    }
}

#[test]
fn the_wheel_moves_the_selection_over_the_list_and_scrolls_the_entry() {
    let a = area(120, 40);
    let mut s = many(30);
    let l = layout(a, &s);
    for _ in 0..3 {
        update(&mut s, HistoryMsg::Mouse(wheel_in(l.list, true), a));
    }
    assert_eq!(s.list.selected, 3);
    update(&mut s, HistoryMsg::Mouse(wheel_in(l.list, false), a));
    assert_eq!(s.list.selected, 2);
    update(&mut s, HistoryMsg::Mouse(wheel_in(l.detail, true), a));
    update(&mut s, HistoryMsg::Mouse(wheel_in(l.detail, true), a));
    assert_eq!((s.list.selected, s.detail_scroll), (2, 6));
    update(&mut s, HistoryMsg::Mouse(wheel_in(l.detail, false), a));
    assert_eq!(s.detail_scroll, 3);
    // Past the end of the list the selection stays on the last entry.
    for _ in 0..40 {
        update(&mut s, HistoryMsg::Mouse(wheel_in(l.list, true), a));
    }
    assert_eq!(s.list.selected, 29);
}

#[test]
fn a_click_in_a_scrolled_list_hits_the_row_drawn_and_keeps_the_window() {
    let a = area(80, 24);
    let mut s = many(30);
    s.list.selected = 25;
    let l = layout(a, &s);
    assert!(l.window.first > 0, "{l:?}");
    let (i, r) = l.window.rows[1];
    update(&mut s, HistoryMsg::Mouse(click_in(r), a));
    assert_eq!(s.list.selected, i);
    assert_eq!(
        layout(a, &s).window.first,
        l.window.first,
        "the window did not move"
    );
    let screen = render(&s, 80, 24);
    let drawn = screen.lines().nth(usize::from(r.y)).unwrap();
    let want = s.visible()[i].profile.clone();
    assert!(drawn.contains(&format!(" {want} ")), "{drawn:?} vs {want}");
}

/// The text inside a box's border, rows joined with their trailing spaces cut: a value wrapped
/// over several rows reads as one string.
fn pane_text(buf: &ratatui::buffer::Buffer, boxed: Rect) -> String {
    let inner = Rect::new(
        boxed.x + 1,
        boxed.y + 1,
        boxed.width.saturating_sub(2),
        boxed.height.saturating_sub(2),
    );
    (inner.y..inner.y + inner.height)
        .map(|y| {
            (inner.x..inner.x + inner.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

/// The list cuts a long URL to its column; the selected entry's pane shows it whole (wrapped)
/// at every size, and scrolls when it is longer than the pane.
#[test]
fn a_url_cut_in_the_list_is_whole_in_the_entry_pane_at_every_size() {
    let mut long = row("2026-11-22T10:00:00Z", "shop", RowKind::Request, Some(200));
    long.url = format!(
        "http://127.0.0.1:4000/v2/batch?{}",
        (0..12)
            .map(|i| format!("param{i}=value-{i}"))
            .collect::<Vec<_>>()
            .join("&")
    );
    let mut s = HistoryState::default();
    update(
        &mut s,
        HistoryMsg::Loaded {
            rows: vec![long.clone()],
            warnings: vec![],
        },
    );
    for (w, h) in [(80, 24), (120, 40), (200, 50)] {
        let a = area(w, h);
        let buf = shown(&s, w, h);
        let l = layout(a, &s);
        let detail = pane_text(&buf, l.detail);
        assert!(detail.contains(&long.url), "{w}x{h}: {detail}");
    }
}

/// PageDown in the entry pane at 80x24 pages by the pane's height less one line: every line of
/// a long response is seen, none skipped, and it stops at the last one.
#[test]
fn page_down_in_the_entry_pane_at_80x24_skips_no_line_and_reaches_the_last() {
    use crate::tui::message::Message;
    let mut t = crate::tui::test_util::TestApp::new(80, 24);
    let mut r = row(
        "2026-11-22T10:00:00.000Z",
        "demo",
        RowKind::Request,
        Some(200),
    );
    r.response_body = (1..=60)
        .map(|i| format!("response line {i:02}"))
        .collect::<Vec<_>>()
        .join("\n");
    t.update(Message::History(HistoryMsg::Loaded {
        rows: vec![r],
        warnings: vec![],
    }));
    t.press(KeyCode::F(4));
    let pane = |t: &crate::tui::test_util::TestApp| {
        layout(
            crate::tui::layout::frame_layout(Rect::new(0, 0, 80, 24)).1,
            &t.history,
        )
        .detail
    };
    let seen = t.page_down_through(30, pane);
    for i in 1..=60 {
        let l = format!("response line {i:02}");
        assert!(
            seen.iter().any(|s| s.contains(&l)),
            "{l} was never on screen"
        );
    }
    let last = t.pane_rows(pane);
    assert!(
        last.iter().any(|s| s.contains("response line 60")),
        "{last:#?}"
    );
    t.press(KeyCode::PageDown);
    assert_eq!(t.pane_rows(pane), last, "PageDown stops at the last line");
}

/// The list's profile column (8 wide) cut a longer name with no mark ("demo-cop" for
/// "demo-copy"), so two profiles could read the same; it ends in `…` and the entry pane has it
/// whole.
#[test]
fn a_profile_name_wider_than_its_column_is_cut_with_a_mark() {
    use crate::tui::message::Message;
    let mut t = crate::tui::test_util::TestApp::new(80, 24);
    let rows = vec![
        row(
            "2026-11-22T10:00:00.000Z",
            "demo-copy",
            RowKind::Request,
            Some(200),
        ),
        row(
            "2026-11-22T10:00:01.000Z",
            "shop",
            RowKind::Request,
            Some(200),
        ),
    ];
    t.update(Message::History(HistoryMsg::Loaded {
        rows,
        warnings: vec![],
    }));
    t.press(KeyCode::F(4));
    t.assert_line("demo-co…");
    t.assert_no_line("demo-cop ");
    t.assert_line("shop");
}

#[test]
fn alt_y_e_copies_the_entry_as_a_suite_entry_with_its_answer_expected() {
    let head = crate::core::suite::export::head("demo-public-key", "SVC", "demo");
    let copied = |r: HistoryRow| {
        let mut s = HistoryState::new(vec![r]);
        update(&mut s, HistoryMsg::Run(Action::CopySuite))
    };
    // A request with the model it sent: the request and its answer, a suite that parses.
    let mut r = row(
        "2026-11-22T10:00:00.000Z",
        "demo",
        RowKind::Request,
        Some(200),
    );
    r.spec = Some(crate::core::RequestSpec {
        query: "test=1".into(),
        ..Default::default()
    });
    r.response_body = r#"{"message":"Job submitted successfully.","jobId":"0b0e6c2a-0d7b-4f3e-9a55-1f2f3a4b5c6d"}"#.into();
    let effects = copied(r.clone());
    let [HistoryEffect::Copy(Clip { text, what })] = &effects[..] else {
        panic!("{effects:?}")
    };
    assert!(what.ends_with(" as a suite entry"), "{what}");
    let suite = crate::core::suite::parse(&format!("{head}\n{text}")).unwrap();
    let req = &suite.requests[0];
    assert_eq!(req.body.as_deref(), Some(r#"[{"id":"it's"}]"#));
    assert_eq!(req.query.as_deref(), Some("test=1"));
    assert_eq!(req.expect.status, Some(200));
    assert_eq!(req.expect.verdict.as_deref(), Some("accepted"));
    assert!(
        text.contains("{ pointer = \"/jobId\", exists = true }"),
        "{text}"
    );
    // An event batch: its events, the collector's answer.
    let effects = copied(row(
        "2026-11-22T10:01:00.000Z",
        "demo",
        RowKind::Events,
        Some(200),
    ));
    let [HistoryEffect::Copy(Clip { text, .. })] = &effects[..] else {
        panic!("{effects:?}")
    };
    let suite = crate::core::suite::parse(&format!("{head}\n{text}")).unwrap();
    assert!(suite.requests[0].is_events());
    assert!(
        text.contains("{ pointer = \"/accepted\", equals = 2 }"),
        "{text}"
    );
    // A body the history cut, or an entry without its request model: said, nothing copied.
    r.response_body.push_str(KEPT_NOTE);
    assert!(matches!(&copied(r)[..], [HistoryEffect::Status(s)] if s.contains("only the start")));
    let old = row(
        "2026-11-22T10:02:00.000Z",
        "demo",
        RowKind::Request,
        Some(200),
    );
    assert!(matches!(&copied(old)[..], [HistoryEffect::Status(s)] if s.contains("send it again")));
}
