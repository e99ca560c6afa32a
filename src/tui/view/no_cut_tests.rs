//! The no-cut sweep: every view at 80x24, 120x40 and 200x50 drawn on the one fixture
//! ([`TestApp`]) and read back with the check of `no_cut.rs`: no word runs into a pane's edge
//! without an indicator, and the text taken from the model is readable (wrapped, or reached
//! with the pane's scroll keys).

use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::no_cut::{cut_text, edge_cuts, known, times, unreadable};
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
                label.contains(v.key()),
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
        out.push(s.digest_hex.clone());
        out.push(format!("Authorization: Bearer {}", s.signature));
    }
    out
}

/// Every view at 80x24 and 120x40 written to /tmp (a look while fixing; not an assertion).
#[test]
#[ignore]
fn dump_screens() {
    use crate::tui::components::request::Detail;
    let mut out = String::new();
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        for d in Detail::ALL {
            let mut a = request_app(w, h);
            a.request.detail = d;
            out += &format!("==== request {d:?} {w}x{h}\n{}\n", a.screen());
        }
        for f in 3..=8 {
            let mut a = request_app(w, h);
            a.press(KeyCode::F(f));
            out += &format!("==== F{f} {w}x{h}\n{}\n", a.screen());
        }
    }
    std::fs::write("/tmp/screens_dump.txt", out).unwrap();
}

fn page_down() -> Message {
    key(KeyCode::PageDown)
}

/// The request view's detail panels: the pipeline's headings, the signed headers (the whole
/// signature), a long response line and the diff placeholder; the status line.
#[test]
fn the_request_view_and_its_detail_panels_cut_nothing() {
    use crate::tui::components::request::Detail;
    use crate::tui::model::{FormattedBody, ResponseView};
    use std::sync::Arc;
    for (w, h) in SIZES {
        let mut a = request_app(w, h);
        let sig = match &a.request.sign.result {
            Some(Ok(s)) => s.signature.clone(),
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
        a.request.response = Some(ResponseView {
            id: 1,
            status: 200,
            raw: Arc::new(FormattedBody {
                lines: vec![long.clone()],
                json: false,
            }),
            ..Default::default()
        });
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
        let rows: Vec<String> = super::popup::bindings(&a.app)
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
        a.app.status = long.clone();
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
            let s = vec![a.events.batch_text().to_string()];
            assert_clean(&format!("{v:?} {w}x{h}"), cut_text(&mut a, &[], &s, vec![]));
        }
    }
}
