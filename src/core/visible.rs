//! Making invisible bytes visible, for every view of the canonical text (TUI, CLI, server debug).

/// A count and its noun, in the singular for one: `counted(1, "event")` is `1 event`,
/// `counted(2, "error")` is `2 errors` (every view and answer counts the same way).
pub fn counted(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Where byte `offset` of `text` is as an editor shows it: its 1-based line and column (in
/// characters). An offset inside a character counts as that character; past the end, as the end.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut start = offset.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let before = &text[..start];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Render bytes as one line of text in which nothing is invisible:
/// LF as `\n`, CR as `\r`, tab as `\t`, other control bytes as `\xNN`, a backslash as `\\`,
/// non-ASCII whitespace as `\u{XXXX}`, trailing spaces as `·`, and bytes that are not UTF-8 as
/// `\xNN`. Ordinary text (including non-ASCII letters) is left as it is.
pub fn escape_visible(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 8);
    let trailing_spaces = bytes.iter().rev().take_while(|&&b| b == b' ').count();
    let (main, tail) = bytes.split_at(bytes.len() - trailing_spaces);
    for chunk in main.utf8_chunks() {
        for c in chunk.valid().chars() {
            push_char(&mut out, c);
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    for _ in tail {
        out.push('·');
    }
    out
}

/// Text from outside (a body's line, an upstream's answer) with only what would act on or hide
/// from the terminal escaped: ASCII control characters as `\xNN` (a tab as `\t`) and every
/// character [`is_hidden`] as `\u{XXXX}`; backslashes, quotes and trailing spaces stay as they
/// are, so a JSON body reads as JSON.
pub fn escape_hidden(text: &str) -> String {
    if !text.chars().any(|c| c.is_ascii_control() || is_hidden(c)) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_unless_hidden(&mut out, c);
    }
    out
}

/// Bytes a client sent as text (a header value): UTF-8 as it is, each byte that is not UTF-8
/// as `\xNN`, so that a Latin-1 `é` (one byte, `\xE9`) is shown as the byte it is instead of
/// vanishing into `�` or appearing as another letter.
pub fn utf8_or_escaped(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

/// One character of [`escape_visible`]: the rule of [`escape_hidden`], with LF, CR and the
/// backslash written as escapes too, so that what is shown can be read back byte for byte.
fn push_char(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\\' => out.push_str("\\\\"),
        c => push_unless_hidden(out, c),
    }
}

/// The one rule of both escapes: ASCII control characters as `\xNN` (a tab as `\t`) and every
/// character [`is_hidden`] as `\u{XXXX}`, the rest as it is. The one difference between the
/// two: [`escape_visible`] is exact (LF, CR and backslash escaped, trailing spaces marked,
/// bytes that are not UTF-8 as `\xNN`), for a line whose every byte matters (a header, the
/// canonical text); [`escape_hidden`] leaves backslashes, quotes and spaces alone, for text
/// that is read rather than checked (a JSON body, a message), so that it reads as it was sent.
fn push_unless_hidden(out: &mut String, c: char) {
    match c {
        '\t' => out.push_str("\\t"),
        c if c.is_ascii_control() => out.push_str(&format!("\\x{:02X}", c as u32)),
        c if is_hidden(c) => out.push_str(&format!("\\u{{{:04X}}}", c as u32)),
        c => out.push(c),
    }
}

/// Whether a non-ASCII character hides what it is on screen: whitespace other than the space,
/// zero-width and format characters, C1 controls and the bidirectional controls. The one rule
/// for every output of text from outside: [`escape_visible`] (views and text output),
/// [`json_visible`] (JSON output) and the string literals of generated code
/// (`codegen::literal`) escape exactly these, and ASCII control characters.
pub fn is_hidden(c: char) -> bool {
    !c.is_ascii() && (c.is_whitespace() || is_invisible(c))
}

/// JSON text (as serde_json writes it) with every character [`is_hidden`] written as a
/// `\uXXXX` escape: the same JSON value, and nothing on screen that is not what it seems.
/// serde_json escapes ASCII control characters itself but writes C1 controls and bidi
/// overrides as they are.
pub fn json_visible(json: &str) -> String {
    if !json.chars().any(is_hidden) {
        return json.to_string();
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_hidden(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Text from outside made visible line by line, its line breaks kept: each line through
/// [`escape_visible`] (a CR shows as `\r`).
pub fn escape_visible_lines(text: &[u8]) -> String {
    let lines: Vec<String> = text.split(|&b| b == b'\n').map(escape_visible).collect();
    lines.join("\n")
}

/// Zero-width and format characters that render as nothing, C1 controls (U+009B is a
/// terminal's CSI), and the bidirectional embeddings, overrides and isolates, which reorder the
/// text around them on screen ("Trojan Source": what is shown is not what is there).
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}')
        || ('\u{0080}'..='\u{009F}').contains(&c)
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}')
}

/// The canonical text made visible line by line: each LF ends a line and is shown as `\n` at its
/// end; the last line has no marker when the text does not end in LF.
pub fn visible_lines(bytes: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut rest = bytes;
    while let Some(i) = rest.iter().position(|&b| b == b'\n') {
        lines.push(format!("{}\\n", escape_visible(&rest[..i])));
        rest = &rest[i + 1..];
    }
    lines.push(escape_visible(rest));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_singular_for_one_only() {
        assert_eq!(counted(0, "event"), "0 events");
        assert_eq!(counted(1, "event"), "1 event");
        assert_eq!(counted(2, "more problem"), "2 more problems");
    }

    #[test]
    fn bidi_overrides_and_c1_controls_are_shown_as_escapes() {
        assert_eq!(
            escape_visible("a\u{202E}b\u{2066}c\u{061C}d\u{009B}2J".as_bytes()),
            "a\\u{202E}b\\u{2066}c\\u{061C}d\\u{009B}2J"
        );
    }

    #[test]
    fn json_keeps_its_value_and_shows_what_hides() {
        let v = serde_json::json!({"a": "x\u{202E}y\u{009B}z\"\\", "b": "café"});
        let shown = json_visible(&v.to_string());
        assert_eq!(shown, r#"{"a":"x\u202ey\u009bz\"\\","b":"café"}"#);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&shown).unwrap(),
            v
        );
        assert_eq!(
            escape_visible_lines(b"a\x1b[2J\r\nb\n"),
            "a\\x1B[2J\\r\nb\n"
        );
    }

    #[test]
    fn escapes_what_cannot_be_seen() {
        assert_eq!(escape_visible(b"a\r\nb"), "a\\r\\nb");
        assert_eq!(escape_visible(b"a\tb  "), "a\\tb··");
        assert_eq!(
            escape_visible("x\u{00A0}y\u{200B}".as_bytes()),
            "x\\u{00A0}y\\u{200B}"
        );
        assert_eq!(escape_visible(b"\xff ok"), "\\xFF ok");
        assert_eq!(escape_visible("café".as_bytes()), "café");
        assert_eq!(escape_visible(b"a\\n"), "a\\\\n");
    }

    #[test]
    fn lines_mark_their_ends() {
        assert_eq!(visible_lines(b"PUT\n\nx"), ["PUT\\n", "\\n", "x"]);
        assert_eq!(visible_lines(b"a\n"), ["a\\n", ""]);
    }
}
