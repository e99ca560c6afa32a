//! Text helpers shared by every view: cutting and wrapping to a width, JSON highlighting.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::tui::theme::Theme;

/// Cut a string to at most `width` chars.
pub fn clip(s: &str, width: usize) -> String {
    s.chars().take(width).collect()
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

/// Wrap styled text into rows of at most `width` display columns, breaking between characters
/// (not words), so the number of rows is known exactly: components lay out wrapped entries with
/// it and mouse hit testing finds the same rows the view draws.
pub fn wrap_spans(spans: &[Span<'_>], width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    let mut rows: Vec<Line<'static>> = Vec::new();
    let mut row: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for span in spans {
        let mut piece = String::new();
        for c in span.content.chars() {
            let mut buf = [0u8; 4];
            let w = Span::raw(&*c.encode_utf8(&mut buf)).width();
            if used + w > width && used > 0 {
                if !piece.is_empty() {
                    row.push(Span::styled(std::mem::take(&mut piece), span.style));
                }
                rows.push(Line::from(std::mem::take(&mut row)));
                used = 0;
            }
            piece.push(c);
            used += w;
        }
        if !piece.is_empty() {
            row.push(Span::styled(piece, span.style));
        }
    }
    if !row.is_empty() || rows.is_empty() {
        rows.push(Line::from(row));
    }
    rows
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
