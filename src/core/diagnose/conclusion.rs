//! What a diagnosis says when no mistake reproduces the signature: always a conclusion. With the
//! client's own signing text, a byte-by-byte comparison (identical texts mean the keys differ);
//! without it, what the signature and the search tell; and, always, the body's invisible bytes
//! in hex.

use crate::core::canonical::LineLabel;
// The one rule of what hides what it is (C1 controls and bidirectional overrides too).
use crate::core::visible::is_hidden;

/// A byte for a sentence: hex, and the character when it is printable ASCII.
fn byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("0x{b:02X} ('{}')", b as char)
    } else if b == b' ' {
        format!("0x{b:02X} (space)")
    } else {
        format!("0x{b:02X}")
    }
}

/// The label of the line of the expected text that byte `offset` falls in (the head has seven
/// lines, each ended by a LF; then the body).
pub fn label_at(head: &[u8], offset: usize) -> LineLabel {
    if offset >= head.len() {
        return LineLabel::Body;
    }
    let lfs = head[..offset].iter().filter(|&&b| b == b'\n').count();
    LineLabel::ALL[lfs.min(6)]
}

/// Whether a key has whitespace at either end, in words.
fn ends(key: &[u8]) -> &'static str {
    let first = key.first().is_some_and(|b| b.is_ascii_whitespace());
    let last = key.last().is_some_and(|b| b.is_ascii_whitespace());
    match (first, last) {
        (false, false) => "no whitespace at its ends",
        (true, false) => "whitespace at its start",
        (false, true) => "whitespace at its end",
        (true, true) => "whitespace at both ends",
    }
}

/// When the client's signing text names another timestamp or API key than the request judged
/// (a text kept from an earlier capture, or pasted from another request), one sentence saying
/// so with both values; the byte comparison that follows is then of two requests.
pub fn another_request(head: &[u8], client: &[u8]) -> Option<String> {
    let value = |text: &[u8], i: usize| {
        text.split(|&b| b == b'\n')
            .nth(i)
            .and_then(|l| l.splitn(2, |&b| b == b'=').nth(1))
            .map(crate::core::visible::escape_visible)
    };
    let differ: Vec<String> = [(3, "timestamp"), (4, "API key")]
        .into_iter()
        .filter_map(|(i, what)| match (value(head, i), value(client, i)) {
            (Some(e), Some(c)) if e != c => Some(format!("its {what} is {c}, this request's {e}")),
            _ => None,
        })
        .collect();
    (!differ.is_empty()).then(|| {
        format!(
            "the client's signing text is of another request ({}): give the text the client signed for this one",
            differ.join("; ")
        )
    })
}

/// Compare the client's signing text with the expected one (`head` + `body`).
pub fn compare_texts(
    head: &[u8],
    body: &[u8],
    client: &[u8],
    key: &[u8],
    client_key: Option<&[u8]>,
) -> String {
    let expected_len = head.len() + body.len();
    let at = |i: usize| -> Option<u8> {
        if i < head.len() {
            Some(head[i])
        } else {
            body.get(i - head.len()).copied()
        }
    };
    // The first byte that differs, else the end of the shorter text.
    let shorter = client.len().min(expected_len);
    let first = (0..shorter)
        .find(|&i| at(i) != Some(client[i]))
        .or_else(|| (client.len() != expected_len).then_some(shorter));
    match first {
        None => {
            let mine = format!(
                "the REST key used here is {} bytes with {}",
                key.len(),
                ends(key)
            );
            let theirs = match client_key {
                Some(k) => format!("; the client's is {} bytes with {}", k.len(), ends(k)),
                None => String::new(),
            };
            format!(
                "the client's signing text is identical to the expected one, so the REST key differs: {mine}{theirs}"
            )
        }
        Some(i) => {
            let label = label_at(head, i);
            let expected = at(i)
                .map(byte)
                .unwrap_or_else(|| "the end of the text".to_string());
            let got = client
                .get(i)
                .map(|&b| byte(b))
                .unwrap_or_else(|| "the end of its text".to_string());
            format!(
                "the client's signing text first differs from the expected one at byte offset {i}, in the {label} line: expected {expected}, the client's has {got}"
            )
        }
    }
}

/// Notes on bytes of the body a viewer does not show: a byte order mark, whitespace at the
/// end, zero-width and other invisible characters inside (at most five listed), all in hex.
pub fn invisible_body_bytes(body: &[u8]) -> Vec<String> {
    let mut notes = Vec::new();
    if body.starts_with(b"\xEF\xBB\xBF") {
        notes.push(
            "the body starts with a UTF-8 byte order mark (bytes EF BB BF), invisible in most editors"
                .to_string(),
        );
    }
    let trailing = body
        .iter()
        .rev()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0B' | b'\x0C' | 0))
        .count();
    if trailing > 0 {
        let shown: Vec<String> = body[body.len() - trailing..]
            .iter()
            .take(16)
            .map(|b| format!("{b:02X}"))
            .collect();
        let more = if trailing > 16 { " …" } else { "" };
        notes.push(format!(
            "the body ends with {}: {}{more}",
            crate::core::visible::counted(trailing, "invisible byte"),
            shown.join(" ")
        ));
    }
    let mut found = Vec::new();
    let mut count = 0usize;
    let mut offset = 0usize;
    let skip_bom = if body.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    for chunk in body[skip_bom..].utf8_chunks() {
        let valid = chunk.valid();
        if !valid.is_ascii() {
            for (i, c) in valid.char_indices() {
                if is_hidden(c) {
                    count += 1;
                    if found.len() < 5 {
                        let mut buf = [0u8; 4];
                        let hex: Vec<String> = c
                            .encode_utf8(&mut buf)
                            .bytes()
                            .map(|b| format!("{b:02X}"))
                            .collect();
                        found.push(format!(
                            "U+{:04X} ({}) at byte {}",
                            c as u32,
                            hex.join(" "),
                            skip_bom + offset + i
                        ));
                    }
                }
            }
        }
        offset += valid.len() + chunk.invalid().len();
    }
    if count > 0 {
        let more = if count > found.len() {
            format!(" (and {} more)", count - found.len())
        } else {
            String::new()
        };
        notes.push(format!(
            "the body holds invisible characters: {}{more}",
            found.join(", ")
        ));
    }
    notes
}
