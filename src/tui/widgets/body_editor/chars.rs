//! Positions in the body's UTF-8 bytes: char boundaries, and counting chars.

/// Number of chars in UTF-8 bytes.
pub(super) fn utf8_chars(b: &[u8]) -> usize {
    b.iter().filter(|&&c| (c & 0xC0) != 0x80).count()
}

/// Byte offset of the `n`th char of `b` (its length when shorter).
pub(super) fn nth_char_offset(b: &[u8], n: usize) -> usize {
    let mut seen = 0;
    for (i, &c) in b.iter().enumerate() {
        if (c & 0xC0) != 0x80 {
            if seen == n {
                return i;
            }
            seen += 1;
        }
    }
    b.len()
}

/// The start of the character at or before byte `i` (UTF-8 text).
pub(crate) fn floor_char(text: &[u8], mut i: usize) -> usize {
    while i > 0 && i < text.len() && (text[i] & 0xC0) == 0x80 {
        i -= 1;
    }
    i
}

pub(super) fn ceil_char(text: &[u8], mut i: usize) -> usize {
    while i < text.len() && (text[i] & 0xC0) == 0x80 {
        i += 1;
    }
    i
}

pub(super) fn next_char(text: &[u8], i: usize) -> usize {
    if i >= text.len() {
        return text.len();
    }
    ceil_char(text, i + 1)
}
