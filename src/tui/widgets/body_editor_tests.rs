use proptest::prelude::*;
use ratatui_textarea::{Input, Key};

use super::*;

fn key(k: Key) -> Input {
    Input {
        key: k,
        ctrl: false,
        alt: false,
        shift: false,
    }
}
fn ctrl(c: char) -> Input {
    Input {
        key: Key::Char(c),
        ctrl: true,
        alt: false,
        shift: false,
    }
}
fn alt(c: char) -> Input {
    Input {
        key: Key::Char(c),
        ctrl: false,
        alt: true,
        shift: false,
    }
}

const TINY: Limits = Limits { bytes: 64, rows: 8 };

/// The editor's invariants: the widget holds exactly the window's bytes, the line index agrees
/// with the text, the cursor is inside the window on a char boundary.
fn check(ed: &BodyEditor) {
    let text = ed.text().to_string();
    let win = ed.window();
    assert!(win.start <= win.end && win.end <= text.len(), "{win:?}");
    assert_eq!(ed.textarea().lines().join("\n"), &text[win.clone()]);
    let lines: Vec<&str> = text.split('\n').collect();
    assert_eq!(ed.line_count(), lines.len());
    for first in [
        0,
        1,
        lines.len() / 2,
        lines.len().saturating_sub(1),
        lines.len(),
    ] {
        let got: Vec<&[u8]> = ed.lines_from(first).collect();
        let want: Vec<&[u8]> = lines.iter().skip(first).map(|l| l.as_bytes()).collect();
        assert_eq!(got, want, "lines from {first}");
    }
    let cur = ed.cursor_offset();
    assert!(
        win.contains(&cur) || cur == win.end,
        "cursor {cur} outside {win:?}"
    );
    assert!(text.is_char_boundary(cur));
    assert_eq!(ed.cursor_line(), text[..cur].matches('\n').count());
}

#[derive(Clone, Debug)]
enum Op {
    Type(char),
    Enter,
    Backspace,
    Delete,
    Left,
    Right,
    Up,
    Down,
    Home,
    End,
    Top,
    Bottom,
    Undo,
    Redo,
    Paste(String),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => prop::sample::select(vec!['a', 'b', ' ', 'é', '😀', '{', '"']).prop_map(Op::Type),
        2 => Just(Op::Enter),
        2 => Just(Op::Backspace),
        1 => Just(Op::Delete),
        3 => Just(Op::Left),
        3 => Just(Op::Right),
        3 => Just(Op::Up),
        3 => Just(Op::Down),
        1 => Just(Op::Home),
        1 => Just(Op::End),
        1 => Just(Op::Top),
        1 => Just(Op::Bottom),
        2 => Just(Op::Undo),
        1 => Just(Op::Redo),
        1 => "[a-c\n]{0,40}".prop_map(Op::Paste),
    ]
}

/// A reference model: the text as a String, edited at the editor's cursor, with a stack of
/// texts for undo/redo.
struct Model {
    text: String,
    undo: Vec<String>,
    redo: Vec<String>,
}

impl Model {
    fn change(&mut self, new: String) {
        if new != self.text {
            self.undo.push(std::mem::replace(&mut self.text, new));
            self.redo.clear();
        }
    }
}

fn run(initial: &str, ops: &[Op], limits: Limits) {
    let mut ed = BodyEditor::with_limits(initial, limits);
    let mut m = Model {
        text: initial.to_string(),
        undo: vec![],
        redo: vec![],
    };
    check(&ed);
    for op in ops {
        let cur = ed.cursor_offset();
        let t = &m.text;
        let prev = t[..cur].chars().next_back().map_or(0, char::len_utf8);
        let next = t[cur..].chars().next().map_or(0, char::len_utf8);
        match op {
            Op::Type(c) => {
                ed.input(key(Key::Char(*c)));
                let mut n = t.clone();
                n.insert(cur, *c);
                m.change(n);
                assert_eq!(ed.cursor_offset(), cur + c.len_utf8());
            }
            Op::Enter => {
                ed.input(key(Key::Enter));
                let mut n = t.clone();
                n.insert(cur, '\n');
                m.change(n);
                assert_eq!(ed.cursor_offset(), cur + 1);
            }
            Op::Backspace => {
                ed.input(key(Key::Backspace));
                let mut n = t.clone();
                n.replace_range(cur - prev..cur, "");
                m.change(n);
                assert_eq!(ed.cursor_offset(), cur - prev);
            }
            Op::Delete => {
                ed.input(key(Key::Delete));
                let mut n = t.clone();
                n.replace_range(cur..cur + next, "");
                m.change(n);
                assert_eq!(ed.cursor_offset(), cur);
            }
            Op::Left => {
                ed.input(key(Key::Left));
                assert_eq!(ed.cursor_offset(), cur - prev);
            }
            Op::Right => {
                ed.input(key(Key::Right));
                assert_eq!(ed.cursor_offset(), cur + next);
            }
            Op::Up => {
                ed.input(key(Key::Up));
                let line = t[..cur].matches('\n').count();
                assert_eq!(ed.cursor_line(), line.saturating_sub(1));
            }
            Op::Down => {
                ed.input(key(Key::Down));
                let line = t[..cur].matches('\n').count();
                let last = t.matches('\n').count();
                assert_eq!(ed.cursor_line(), (line + 1).min(last));
            }
            Op::Home => {
                ed.input(key(Key::Home));
                let line_start = t[..cur].rfind('\n').map_or(0, |i| i + 1);
                // The window may start inside a very long line; Home stops there.
                assert!(ed.cursor_offset() >= line_start && ed.cursor_offset() <= cur);
            }
            Op::End => {
                ed.input(key(Key::End));
                let line_end = t[cur..].find('\n').map_or(t.len(), |i| cur + i);
                assert!(ed.cursor_offset() >= cur && ed.cursor_offset() <= line_end);
            }
            Op::Top => {
                ed.input(alt('<'));
                assert_eq!(ed.cursor_offset(), 0);
            }
            Op::Bottom => {
                ed.input(alt('>'));
                assert_eq!(ed.cursor_offset(), t.len());
            }
            Op::Undo => {
                let changed = ed.input(ctrl('z'));
                match m.undo.pop() {
                    Some(prev_text) => {
                        assert!(changed.is_some());
                        m.redo.push(std::mem::replace(&mut m.text, prev_text));
                    }
                    None => assert_eq!(changed, None),
                }
            }
            Op::Redo => {
                let changed = ed.input(ctrl('y'));
                match m.redo.pop() {
                    Some(next_text) => {
                        assert!(changed.is_some());
                        m.undo.push(std::mem::replace(&mut m.text, next_text));
                    }
                    None => assert_eq!(changed, None),
                }
            }
            Op::Paste(s) => {
                ed.insert_str(s);
                let mut n = t.clone();
                n.insert_str(cur, s);
                m.change(n);
                assert_eq!(ed.cursor_offset(), cur + s.len());
            }
        }
        assert_eq!(ed.text(), m.text, "after {op:?}");
        check(&ed);
    }
}

fn initial() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-z \n]{0,300}",
        // Long lines, multibyte characters and blank lines.
        "([a-zé😀]{0,150}\n{0,3}){0,6}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// With a window of 64 bytes / 8 rows the window moves all the time; the body must still be
    /// exactly what the same keys do to the whole text, with undo and redo across window moves.
    #[test]
    fn a_moving_window_edits_like_the_whole_text(text in initial(), ops in prop::collection::vec(op(), 1..80)) {
        run(&text, &ops, TINY);
    }

    #[test]
    fn a_single_window_edits_like_the_whole_text(text in initial(), ops in prop::collection::vec(op(), 1..60)) {
        run(&text, &ops, Limits::default());
    }

    /// The line index after random splices equals one built from scratch.
    #[test]
    fn line_index_follows_edits(
        text in "[ab\n]{0,3000}",
        edits in prop::collection::vec((0usize..4000, 0usize..300, "[ab\n]{0,1200}"), 1..12),
    ) {
        let mut t = text.into_bytes();
        let mut idx = LineIndex::build(&t);
        for (at, len, ins) in edits {
            let at = at.min(t.len());
            let end = (at + len).min(t.len());
            let removed: Vec<u8> = t[at..end].to_vec();
            t.splice(at..end, ins.bytes());
            idx.edit(&t, at, &removed, ins.len());
            let fresh = LineIndex::build(&t);
            prop_assert_eq!(idx.lines, fresh.lines);
            prop_assert_eq!(&idx.marks[..1], &[(0, 0)]);
            prop_assert!(idx.marks.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
            for n in (0..fresh.lines).step_by(13).chain([fresh.lines - 1]) {
                prop_assert_eq!(idx.line_start(&t, n), fresh.line_start(&t, n));
            }
            for off in (0..=t.len()).step_by(29) {
                prop_assert_eq!(idx.line_of(&t, off), fresh.line_of(&t, off));
            }
        }
    }
}

fn big_body(lines: usize) -> String {
    (0..lines)
        .map(|i| format!("  {{\"id\": \"sku-{i:06}\"}},"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_large_body_keeps_only_a_window_in_the_widget() {
    let text = big_body(50_000); // about 1.1 MB
    let mut ed = BodyEditor::new(&text);
    assert!(ed.window().len() <= WINDOW_BYTES);
    assert!(ed.textarea().lines().len() <= WINDOW_ROWS);
    ed.input(alt('>'));
    assert_eq!(ed.cursor_offset(), text.len());
    assert_eq!(ed.window().end, text.len());
    let changed = ed.input(key(Key::Char('!')));
    assert_eq!(changed, Some(text.len()));
    assert_eq!(ed.len(), text.len() + 1);
    assert!(ed.text().ends_with("},!"));
    assert_eq!(ed.cursor_line(), 49_999);
    // Undo at the end, then jump to the top and type there.
    assert_eq!(ed.input(ctrl('z')), Some(text.len()));
    assert_eq!(ed.text(), text);
    ed.input(alt('<'));
    assert_eq!(ed.window().start, 0);
    ed.input(key(Key::Char('X')));
    assert!(ed.text().starts_with("X  {"));
    assert_eq!(ed.len(), text.len() + 1);
}

#[test]
fn paging_through_a_large_body_moves_the_window_with_the_cursor() {
    let text = big_body(20_000);
    let mut ed = BodyEditor::new(&text);
    let mut windows = std::collections::HashSet::new();
    for _ in 0..19_999 {
        ed.input(key(Key::Down));
        windows.insert(ed.window().start);
    }
    assert_eq!(ed.cursor_line(), 19_999);
    assert!(
        windows.len() > 3,
        "the window moved {} times",
        windows.len()
    );
    assert!(ed.window().contains(&ed.cursor_offset()));
    // Back up again.
    for _ in 0..19_999 {
        ed.input(key(Key::Up));
    }
    assert_eq!(ed.cursor_offset(), 0);
}

#[test]
fn search_covers_the_whole_body_not_just_the_window() {
    let mut text = big_body(40_000);
    text.push_str("\nneedle-at-the-end");
    let mut ed = BodyEditor::new(&text);
    assert!(!ed.window().contains(&text.find("needle").unwrap()));
    ed.set_search_pattern("needle-[a-z-]+").unwrap();
    assert!(ed.search_forward(true));
    assert_eq!(ed.cursor_offset(), text.find("needle").unwrap());
    // Wraps around: back from the top finds it too.
    ed.input(alt('<'));
    assert!(ed.search_back(false));
    assert_eq!(ed.cursor_offset(), text.find("needle").unwrap());
    assert!(ed.set_search_pattern("(").is_err());
    ed.set_search_pattern("absent").unwrap();
    assert!(!ed.search_forward(true));
}

#[test]
fn a_single_huge_line_is_windowed_inside_the_line() {
    let text = "x".repeat(3 * WINDOW_BYTES);
    let mut ed = BodyEditor::new(&text);
    assert!(ed.window().len() <= WINDOW_BYTES);
    ed.move_to(text.len() / 2);
    assert_eq!(ed.cursor_offset(), text.len() / 2);
    ed.input(key(Key::Char('y')));
    assert_eq!(ed.text().find('y'), Some(text.len() / 2));
    assert_eq!(ed.line_count(), 1);
}

#[test]
fn home_and_end_reach_the_ends_of_a_line_longer_than_the_window() {
    let long = "x".repeat(3 * WINDOW_BYTES);
    let text = format!("[\n{long}\n]");
    let start = 2;
    let end = start + long.len();
    let mut ed = BodyEditor::new(&text);
    ed.move_to(start + long.len() / 2);
    assert!(ed.window().start > start && ed.window().end < end);
    for home in [key(Key::Home), ctrl('a')] {
        ed.move_to(start + long.len() / 2);
        ed.input(home);
        assert_eq!(ed.cursor_offset(), start);
        check(&ed);
    }
    for end_key in [key(Key::End), ctrl('e')] {
        ed.move_to(start + long.len() / 2);
        ed.input(end_key);
        assert_eq!(ed.cursor_offset(), end);
        check(&ed);
    }
    // Typing there edits the body at that place.
    ed.input(key(Key::Char('!')));
    assert_eq!(&ed.text()[end - 1..end + 3], "x!\n]");
    // Inside a window that holds the whole line, Home and End are the widget's own.
    let mut small = BodyEditor::new("ab\ncd");
    small.move_to(4);
    small.input(key(Key::Home));
    assert_eq!(small.cursor_offset(), 3);
    small.input(key(Key::End));
    assert_eq!(small.cursor_offset(), 5);
}

#[test]
fn a_pasted_crlf_body_keeps_its_crs() {
    let mut ed = BodyEditor::new("[]");
    ed.move_to(1);
    assert_eq!(ed.insert_str("1,\r\n2"), Some(1));
    assert_eq!(ed.text(), "[1,\r\n2]");
    assert_eq!(ed.cursor_offset(), 6, "after the paste");
    check(&ed);
    // Typing goes on after it, and the CR survives edits elsewhere in the window.
    ed.input(key(Key::Char('3')));
    assert_eq!(ed.text(), "[1,\r\n23]");
    ed.move_to(0);
    ed.input(key(Key::Char(' ')));
    assert_eq!(ed.text(), " [1,\r\n23]");
    // Undo takes the paste back with the typing after it.
    ed.input(ctrl('z'));
    ed.input(ctrl('z'));
    ed.input(ctrl('z'));
    assert_eq!(ed.text(), "[]");
    // Over a selection, the paste replaces it.
    let mut ed = BodyEditor::new("[abc]");
    ed.move_to(1);
    for _ in 0..3 {
        ed.input(Input {
            key: Key::Right,
            ctrl: false,
            alt: false,
            shift: true,
        });
    }
    ed.insert_str("1\r\n2");
    assert_eq!(ed.text(), "[1\r\n2]");
    check(&ed);
    // Without CRLF a paste goes through the widget as before.
    let mut ed = BodyEditor::new("");
    ed.insert_str("a\nb");
    assert_eq!(ed.text(), "a\nb");
}

#[test]
fn a_click_puts_the_cursor_on_the_character_drawn_there() {
    let mut ed = BodyEditor::new("abc\n\tdef\n日本語x\nshort");
    ed.click(0, 1);
    assert_eq!(ed.cursor_offset(), 1, "on 'b'");
    ed.click(1, 2); // the tab takes cells 0-1; cell 2 is 'd'
    assert_eq!(&ed.text()[ed.cursor_offset()..][..1], "d");
    ed.click(2, 4); // each CJK character takes two cells: cell 4 is the third one
    assert_eq!(&ed.text()[ed.cursor_offset()..][..3], "語");
    ed.click(3, 40); // past the end of the line
    assert_eq!(ed.cursor_offset(), ed.len());
    ed.click(9, 0); // below the last line: the last line
    assert_eq!(ed.cursor_line(), 3);
}

#[test]
fn set_text_is_one_undoable_change() {
    let mut ed = BodyEditor::new("[1,2]");
    assert_eq!(ed.set_text("[\n  1,\n  2\n]"), Some(1));
    assert_eq!(ed.text(), "[\n  1,\n  2\n]");
    assert_eq!(ed.set_text("[\n  1,\n  2\n]"), None);
    ed.input(ctrl('z'));
    assert_eq!(ed.text(), "[1,2]");
    ed.input(ctrl('y'));
    assert_eq!(ed.text(), "[\n  1,\n  2\n]");
}

#[test]
fn the_signer_keeps_its_snapshot_while_the_body_changes() {
    let mut ed = BodyEditor::new("abc");
    let held = Arc::clone(ed.bytes());
    ed.input(key(Key::Char('z')));
    assert_eq!(&held[..], b"abc");
    assert_eq!(&ed.bytes()[..], b"zabc");
}

/// The cursor's row on screen after drawing the editor into a 60x`HEIGHT` area (the test
/// fixture's draw helper).
fn drawn_row(ed: &BodyEditor) -> usize {
    drawn(ed);
    ed.textarea().cursor().0 - ed.textarea().scroll_offset().0 as usize
}

/// The editor drawn into a 60x`HEIGHT` area.
fn drawn(ed: &BodyEditor) -> ratatui::buffer::Buffer {
    crate::tui::test_util::render_buffer(60, HEIGHT as u16, |f| {
        f.render_widget(ed.textarea(), f.area())
    })
}

/// The rows of the drawn editor.
const HEIGHT: usize = 12;

#[test]
fn the_cursor_keeps_its_row_on_screen_when_the_window_moves() {
    let text = big_body(2_000);
    // A small window, so it moves every few dozen lines.
    let limits = Limits {
        bytes: 2048,
        rows: 64,
    };
    let mut ed = BodyEditor::with_limits(&text, limits);
    let mut row = drawn_row(&ed);
    assert_eq!(row, 0);
    let mut moves = 0;
    for _ in 0..1_999 {
        let win = ed.window();
        ed.input(key(Key::Down));
        moves += usize::from(ed.window() != win);
        let now = drawn_row(&ed);
        assert_eq!(
            now,
            (row + 1).min(HEIGHT - 1),
            "down to line {}",
            ed.cursor_line()
        );
        row = now;
    }
    for _ in 0..1_999 {
        let win = ed.window();
        ed.input(key(Key::Up));
        moves += usize::from(ed.window() != win);
        let now = drawn_row(&ed);
        assert_eq!(
            now,
            row.saturating_sub(1),
            "up to line {}",
            ed.cursor_line()
        );
        row = now;
    }
    assert!(moves > 20, "the window moved {moves} times");
}

#[test]
fn a_jump_to_the_end_shows_the_lines_before_it() {
    let text = big_body(2_000);
    let mut ed = BodyEditor::new(&text);
    assert_eq!(drawn_row(&ed), 0);
    // Alt-> from the top: the last line on the bottom row, a screenful of lines above it (not
    // the last line alone on the top row, where the cursor was drawn before the jump).
    ed.input(alt('>'));
    assert_eq!(drawn_row(&ed), HEIGHT - 1);
    let screen = format!("{:?}", drawn(&ed));
    assert!(screen.contains("sku-001990"), "{screen}");
}
