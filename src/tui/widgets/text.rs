//! Text helpers shared by every view: cutting and wrapping to a width, JSON highlighting.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::tui::theme::Theme;

/// Cut a string to at most `width` chars.
pub fn clip(s: &str, width: usize) -> String {
    s.chars().take(width).collect()
}

/// Cut a string to at most `width` chars, its last one `…` when something was cut.
pub fn clip_marked(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        return s.to_string();
    }
    let mut out: String = s.chars().take(width.saturating_sub(1)).collect();
    if width > 0 {
        out.push('…');
    }
    out
}

/// A block title fitted to a block `width` columns wide (its two corners left out): cut with
/// `…` when it is longer, never silently (ratatui cuts a title at the corner without a mark).
/// Every block title goes through it.
pub fn fit_title<'a>(title: impl Into<Line<'a>>, width: u16) -> Line<'a> {
    let mut line: Line<'a> = title.into();
    let room = (width as usize).saturating_sub(2);
    if line.width() <= room {
        return line;
    }
    let keep = room.saturating_sub(1);
    let mut used = 0;
    let mut out: Vec<Span<'a>> = Vec::new();
    for span in std::mem::take(&mut line.spans) {
        let mut text = String::new();
        let mut whole = true;
        for ch in span.content.chars() {
            let w = text_width(ch.encode_utf8(&mut [0; 4]));
            if used + w > keep {
                whole = false;
                break;
            }
            text.push(ch);
            used += w;
        }
        if whole {
            out.push(span);
            continue;
        }
        // A title cut after a space reads as whole: the mark goes right after the last word.
        let text = text.trim_end().to_string();
        if room > 0 {
            out.push(Span::styled(format!("{text}…"), span.style));
        }
        break;
    }
    line.spans = out;
    line
}

/// Split a string into rows of at most `width` chars.
pub fn wrap_chars(s: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let chars: Vec<char> = s.chars().collect();
    if chars.is_empty() {
        return vec![String::new()];
    }
    chars.chunks(width).map(|c| c.iter().collect()).collect()
}

/// The units of text made visible by `core::visible::escape_visible`: an escape (`\n`, `\t`,
/// `\\`, `\xNN`, `\u{..}`) is one unit, any other character is one. Wrapping between units
/// never splits a marker.
pub fn visible_units(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let len = if c == '\\' {
            let tail = &rest[1..];
            match tail.chars().next() {
                Some('x') => 1 + 1 + tail[1..].chars().take(2).map(char::len_utf8).sum::<usize>(),
                Some('u') if tail[1..].starts_with('{') => {
                    1 + tail.find('}').map_or(tail.len(), |i| i + 1)
                }
                Some(n) => 1 + n.len_utf8(),
                None => 1,
            }
        } else {
            c.len_utf8()
        };
        let (unit, tail) = rest.split_at(len);
        out.push(unit);
        rest = tail;
    }
    out
}

/// Display width of a piece of text (wide characters count two).
pub fn text_width(s: &str) -> usize {
    Span::raw(s).width()
}

/// Wrap escaped text (see [`visible_units`]) into rows of at most `width` columns without
/// splitting an escape, leaving `reserve` columns free on the last row for an end marker (the
/// `\n` of a line end): when the last row has no room, its last unit moves to a new row so
/// the marker is drawn whole, next to text, never cut. Always at least one row.
pub fn wrap_visible(s: &str, width: usize, reserve: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows: Vec<Vec<&str>> = vec![vec![]];
    let mut used = 0;
    for unit in visible_units(s) {
        let w = text_width(unit);
        if used + w > width && used > 0 {
            rows.push(vec![]);
            used = 0;
        }
        if let Some(r) = rows.last_mut() {
            r.push(unit);
        }
        used += w;
    }
    if reserve > 0 && used + reserve > width {
        // No room for the marker: the last unit goes down with it (a marker alone on a row
        // when that unit is the row's only one or too wide to join it).
        let last = rows.len() - 1;
        let moved = match rows[last].last() {
            Some(u) if rows[last].len() > 1 && text_width(u) + reserve <= width => {
                rows[last].pop().into_iter().collect()
            }
            _ => vec![],
        };
        rows.push(moved);
    }
    rows.into_iter().map(|r| r.concat()).collect()
}

/// Wrap styled text into rows of at most `width` display columns, breaking after the last space
/// that fits (a word wider than the row breaks between characters), so the number of rows is
/// known exactly: components lay out wrapped entries with it and mouse hit testing finds the
/// same rows the view draws. The space a row breaks at is not drawn.
pub fn wrap_spans(spans: &[Span<'_>], width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    let cells: Vec<(char, Style, usize)> = spans
        .iter()
        .flat_map(|span| {
            span.content.chars().map(move |c| {
                let mut buf = [0u8; 4];
                (c, span.style, Span::raw(&*c.encode_utf8(&mut buf)).width())
            })
        })
        .collect();
    let mut rows: Vec<Vec<(char, Style, usize)>> = vec![vec![]];
    let mut used = 0;
    for cell in cells {
        let row = rows.last_mut().expect("one row");
        if used + cell.2 > width && used > 0 {
            if cell.0 == ' ' {
                // Break at this space: it is not drawn.
                rows.push(vec![]);
                used = 0;
                continue;
            }
            let tail = match row.iter().rposition(|c| c.0 == ' ') {
                Some(sp) => {
                    let tail = row.split_off(sp + 1);
                    row.pop();
                    tail
                }
                None => vec![],
            };
            used = tail.iter().map(|c| c.2).sum();
            rows.push(tail);
        }
        used += cell.2;
        rows.last_mut().expect("one row").push(cell);
    }
    rows.into_iter()
        .map(|row| {
            let mut out: Vec<Span<'static>> = vec![];
            for (c, style, _) in row {
                match out.last_mut() {
                    Some(last) if last.style == style => last.content.to_mut().push(c),
                    _ => out.push(Span::styled(c.to_string(), style)),
                }
            }
            Line::from(out)
        })
        .collect()
}

/// How many rows `lines` take wrapped as [`wrap_spans`] wraps them to `width` columns.
pub fn wrapped_rows(lines: &[Line], width: u16) -> usize {
    lines
        .iter()
        .map(|l| wrap_spans(&l.spans, width).len())
        .sum()
}

/// How far `rows` rows scroll in the bordered box `pane`: until the last is on its bottom row.
pub fn max_scroll(rows: usize, pane: Rect) -> u16 {
    let inner = usize::from(pane.height.saturating_sub(2));
    rows.saturating_sub(inner).min(usize::from(u16::MAX)) as u16
}

/// Text in one style wrapped as [`wrap_words`] wraps it.
pub fn styled_words(s: &str, width: usize, style: Style) -> Vec<Line<'static>> {
    wrap_spans(
        &[Span::styled(s, style)],
        width.min(u16::MAX as usize) as u16,
    )
}

/// Plain text wrapped as [`wrap_spans`] does (at spaces; long words between characters).
pub fn wrap_words(s: &str, width: usize) -> Vec<String> {
    wrap_spans(&[Span::raw(s)], width.min(u16::MAX as usize) as u16)
        .into_iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

/// `parts` joined by `sep`, the last ones dropped until the text fits in `width` columns (the
/// first always stays; it is cut with `…` when even it alone is too wide).
pub fn fit_parts(parts: &[&str], sep: &str, width: usize) -> String {
    let mut n = parts.len();
    while n > 1 && text_width(&parts[..n].join(sep)) > width {
        n -= 1;
    }
    let text = parts[..n].join(sep);
    if text_width(&text) <= width {
        return text;
    }
    let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// A line of JSON text highlighted by a small tokenizer (keys, strings, numbers, literals).
/// Only visible lines are highlighted, so the cost is bounded by the screen size.
pub fn json_line<'a>(text: &'a str, theme: &Theme) -> Line<'a> {
    let mut spans = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut plain_start = 0;
    let push_plain = |spans: &mut Vec<Span<'a>>, from: usize, to: usize| {
        if from < to {
            spans.push(Span::raw(&text[from..to]));
        }
    };
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'"' {
            push_plain(&mut spans, plain_start, i);
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(bytes.len());
            let rest = text[i..].trim_start();
            let style = if rest.starts_with(':') {
                theme.json_key()
            } else {
                theme.json_string()
            };
            spans.push(Span::styled(&text[start..i], style));
            plain_start = i;
        } else if b == b'-' || b.is_ascii_digit() {
            push_plain(&mut spans, plain_start, i);
            let start = i;
            while i < bytes.len()
                && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
            {
                i += 1;
            }
            spans.push(Span::styled(&text[start..i], theme.json_number()));
            plain_start = i;
        } else if bytes[i..].starts_with(b"true")
            || bytes[i..].starts_with(b"null")
            || bytes[i..].starts_with(b"false")
        {
            push_plain(&mut spans, plain_start, i);
            let n = if bytes[i..].starts_with(b"false") {
                5
            } else {
                4
            };
            spans.push(Span::styled(&text[i..i + n], theme.json_literal()));
            i += n;
            plain_start = i;
        } else {
            i += 1;
        }
    }
    push_plain(&mut spans, plain_start, bytes.len());
    Line::from(spans)
}

/// A styled line made of (text, style) pieces.
pub fn styled_line(parts: Vec<(String, Style)>) -> Line<'static> {
    Line::from(
        parts
            .into_iter()
            .map(|(t, s)| Span::styled(t, s))
            .collect::<Vec<_>>(),
    )
}

/// Over a text area drawn in `inner` (it scrolls horizontally with the cursor, never wraps): a
/// `›` in the last column of each row whose line goes on to the right, a `‹` in the first when
/// the line starts further left (never over the cursor).
pub fn mark_long_lines(
    frame: &mut ratatui::Frame,
    inner: ratatui::layout::Rect,
    ta: &ratatui_textarea::TextArea<'_>,
    style: Style,
) {
    if inner.width < 2 {
        return;
    }
    let (top, left) = ta.scroll_offset();
    let cursor = ta.screen_cursor();
    let buf = frame.buffer_mut();
    for (i, line) in ta
        .lines()
        .iter()
        .skip(top as usize)
        .take(inner.height as usize)
        .enumerate()
    {
        let y = inner.y + i as u16;
        let tab = ta.tab_length().max(1) as usize;
        let mut width = 0usize;
        for c in line.chars() {
            width += match c {
                '\t' => tab - width % tab,
                c => text_width(c.encode_utf8(&mut [0u8; 4])),
            };
        }
        let on_cursor =
            |col: u16| cursor.row == top as usize + i && cursor.col == (left + col) as usize;
        let last = inner.width - 1;
        if width > left as usize + inner.width as usize && !on_cursor(last) {
            buf[(inner.x + last, y)].set_symbol("›").set_style(style);
        }
        if left > 0 && width > 0 && !on_cursor(0) {
            buf[(inner.x, y)].set_symbol("‹").set_style(style);
        }
    }
}
