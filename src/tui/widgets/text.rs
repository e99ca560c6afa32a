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
