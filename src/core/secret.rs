//! A secret string (the REST key) whose `Debug` and `Display` never show its value.

use std::fmt;

/// A secret such as the REST API key. Printing it with `{}` or `{:?}` shows `***`;
/// the value is only reachable through [`Secret::expose`], so every use is visible in review.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wrap a value exactly as given (no trimming: `docs/signing.md` rule S10).
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// Wrap a value read from a file, an environment variable or a command's output: exactly one
    /// trailing LF or CRLF is removed (editors add one); any other whitespace is kept
    /// (`docs/signing.md` rule S10).
    pub fn from_read_text(mut value: String) -> Self {
        let end = value.strip_suffix("\r\n").or(value.strip_suffix('\n'));
        value.truncate(end.map_or(value.len(), str::len));
        Secret(value)
    }

    /// The secret value. Call sites of this function are the only places a key can leak from.
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_display_hide_the_value() {
        let s = Secret::new("super-secret-rest-key");
        assert_eq!(format!("{s}"), "***");
        assert_eq!(format!("{s:?}"), "***");
        assert!(!format!("{:?}", Some(&s)).contains("super"));
    }

    #[test]
    fn read_text_loses_one_trailing_line_end_only() {
        assert_eq!(Secret::from_read_text("abc\n".into()).expose(), "abc");
        assert_eq!(Secret::from_read_text("abc\r\n".into()).expose(), "abc");
        assert_eq!(Secret::from_read_text("abc\n\n".into()).expose(), "abc\n");
        assert_eq!(Secret::from_read_text(" abc \n".into()).expose(), " abc ");
        assert_eq!(Secret::from_read_text("abc\t".into()).expose(), "abc\t");
    }
}
