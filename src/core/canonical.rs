//! The canonical signing text: a type whose bytes are exactly what is signed.
//!
//! Layout (`docs/signing.md` rules S2-S6), lines joined by a single LF:
//!
//! ```text
//! METHOD
//! /path
//! query            (always present; empty when there is no query)
//! X-SVC-TIMESTAMP=...
//! X-SVC-APIKEY=...
//! X-SVC-AUTH-ALGO=...
//! Content-Type=...
//! body             (no LF after it; an empty body leaves the text ending in "...json\n")
//! ```

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use super::request::{SignableRequest, CONTENT_TYPE_HEADER, VENDOR_NAME_TAILS};

impl<'a> SignableRequest<'a> {
    /// The exact text that is signed.
    pub fn canonical(&self) -> CanonicalText<'a> {
        CanonicalText::new(self)
    }
}

/// What a line of the canonical text is, for labelling it in views.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LineLabel {
    Method,
    Path,
    Query,
    Timestamp,
    ApiKey,
    AuthAlgo,
    ContentType,
    Body,
}

impl LineLabel {
    /// All labels in signing order.
    pub const ALL: [LineLabel; 8] = [
        LineLabel::Method,
        LineLabel::Path,
        LineLabel::Query,
        LineLabel::Timestamp,
        LineLabel::ApiKey,
        LineLabel::AuthAlgo,
        LineLabel::ContentType,
        LineLabel::Body,
    ];

    /// A short upper-case label such as `METHOD` or `TIMESTAMP`.
    pub fn as_str(self) -> &'static str {
        match self {
            LineLabel::Method => "METHOD",
            LineLabel::Path => "PATH",
            LineLabel::Query => "QUERY",
            LineLabel::Timestamp => "TIMESTAMP",
            LineLabel::ApiKey => "APIKEY",
            LineLabel::AuthAlgo => "AUTH-ALGO",
            LineLabel::ContentType => "CONTENT-TYPE",
            LineLabel::Body => "BODY",
        }
    }
}

impl fmt::Display for LineLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One labelled part of the canonical text, without the LF that separates it from the next.
/// The body part may itself contain LFs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CanonicalLine<'t> {
    pub label: LineLabel,
    pub bytes: &'t [u8],
}

/// The exact signed text. `head` holds the seven short lines, each followed by its LF; the body
/// is borrowed, never copied. [`CanonicalText::to_bytes`] and [`CanonicalText::write_to`] give the
/// exact bytes; `Display` shows them as text (lossy only if the body is not UTF-8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CanonicalText<'a> {
    head: String,
    layout: HeadLayout,
    body: &'a [u8],
}

/// The LF ending the Auth-Algo line and the start of the Content-Type line.
const CONTENT_TYPE_LINE_START: &str = "\nContent-Type=";

/// ASCII upper case, borrowed when there is nothing to change.
fn upper(s: &str) -> Cow<'_, str> {
    if s.bytes().any(|b| b.is_ascii_lowercase()) {
        Cow::Owned(s.to_ascii_uppercase())
    } else {
        Cow::Borrowed(s)
    }
}

/// Spare capacity left after the head: signing appends `Bearer <signature>` (7 + 64 bytes) to
/// the head it keeps for the headers, without a second allocation.
pub(crate) const AUTHORIZATION_SPARE: usize = 71;

/// Where the seven lines of a head are (shared by the canonical text and the signed headers
/// that keep its head).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HeadLayout {
    /// End of each line (the offset of its LF).
    ends: [usize; 7],
    /// Length of the header prefix: the vendor header names are `X-` + prefix + suffix.
    prefix_len: usize,
}

impl HeadLayout {
    /// Byte range of line `i` (0-6), without its LF.
    pub(crate) fn line(&self, i: usize) -> Range<usize> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] + 1 };
        start..self.ends[i]
    }

    /// Byte ranges of the name and the value of signed header `i` (0-3: the three vendor
    /// headers, then Content-Type), which sit on line 3 + i as `name=value`.
    pub(crate) fn header(&self, i: usize) -> (Range<usize>, Range<usize>) {
        let line = self.line(3 + i);
        let name_len = match i {
            0..=2 => 2 + self.prefix_len + VENDOR_NAME_TAILS[i].len() - 1,
            _ => CONTENT_TYPE_HEADER.len(),
        };
        let eq = line.start + name_len;
        (line.start..eq, eq + 1..line.end)
    }
}

impl<'a> CanonicalText<'a> {
    /// Builds the head in one buffer sized up front, from borrowed pieces: the method and the
    /// prefix are upper-cased into strings of their own only when they hold lower-case letters
    /// (this runs for every signature, and each small allocation or pass was a measurable share
    /// of signing a 1 KB request).
    pub fn new(req: &SignableRequest<'a>) -> Self {
        Self::with_path_and_query(req, req.path, req.query)
    }

    /// The text of `req` with other path and query lines (a signing form other than the
    /// standard one writes them differently; see `core::form`).
    pub fn with_path_and_query(req: &SignableRequest<'a>, path: &str, query: &str) -> Self {
        let method = upper(req.method);
        let prefix = upper(req.header_prefix);
        let p = prefix.as_ref();
        let vendor = [req.timestamp, req.api_key, req.auth_algo];
        let len = method.len()
            + path.len()
            + query.len()
            + (0..3)
                .map(|i| 3 + p.len() + VENDOR_NAME_TAILS[i].len() + vendor[i].len())
                .sum::<usize>()
            + CONTENT_TYPE_LINE_START.len()
            + req.content_type.len()
            + 3;
        // Written out piece by piece rather than looped over: the constant pieces then compile
        // to plain stores instead of calls to memcpy.
        let mut head = String::with_capacity(len + AUTHORIZATION_SPARE);
        let mut ends = [0; 7];
        head.push_str(&method);
        ends[0] = head.len();
        head.push('\n');
        head.push_str(path);
        ends[1] = head.len();
        head.push('\n');
        head.push_str(query);
        ends[2] = head.len();
        for i in 0..3 {
            head.push_str("\nX-");
            head.push_str(p);
            head.push_str(VENDOR_NAME_TAILS[i]);
            head.push_str(vendor[i]);
            ends[3 + i] = head.len();
        }
        head.push_str(CONTENT_TYPE_LINE_START);
        head.push_str(req.content_type);
        ends[6] = head.len();
        head.push('\n');
        debug_assert_eq!(head.len(), len);
        CanonicalText {
            head,
            layout: HeadLayout {
                ends,
                prefix_len: p.len(),
            },
            body: req.body,
        }
    }

    /// The four signed headers as written in the head: (name, value) for the three vendor
    /// headers (`X-SVC-TIMESTAMP`...) and Content-Type.
    pub fn signed_headers(&self) -> [(&str, &str); 4] {
        [0, 1, 2, 3].map(|i| {
            let (name, value) = self.layout.header(i);
            (&self.head[name], &self.head[value])
        })
    }

    /// A text from a head built earlier (kept by the signed headers) and its body.
    pub(crate) fn from_parts(head: String, layout: HeadLayout, body: &'a [u8]) -> Self {
        CanonicalText { head, layout, body }
    }

    /// The head and its layout, given up to the signed headers (which keep the head rather
    /// than copying the values out of it). The head has [`AUTHORIZATION_SPARE`] bytes of spare
    /// capacity.
    pub(crate) fn into_head(self) -> (String, HeadLayout) {
        (self.head, self.layout)
    }

    /// Everything before the body, including the LF after the Content-Type line.
    pub fn head(&self) -> &str {
        &self.head
    }

    /// The body, exactly as sent.
    pub fn body(&self) -> &'a [u8] {
        self.body
    }

    /// Total length in bytes.
    pub fn len(&self) -> usize {
        self.head.len() + self.body.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The signed bytes as the two slices they are made of (head, body); feed them in order.
    pub fn parts(&self) -> [&[u8]; 2] {
        [self.head.as_bytes(), self.body]
    }

    /// The exact signed bytes, copied into one buffer (for display and tests; signing does not
    /// need this).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.parts().concat()
    }

    /// The eight labelled parts in signing order.
    pub fn lines(&self) -> [CanonicalLine<'_>; 8] {
        std::array::from_fn(|i| CanonicalLine {
            label: LineLabel::ALL[i],
            bytes: match LineLabel::ALL[i] {
                LineLabel::Body => self.body,
                _ => &self.head.as_bytes()[self.layout.line(i)],
            },
        })
    }

    /// The part with a given label.
    pub fn line(&self, label: LineLabel) -> CanonicalLine<'_> {
        self.lines()[label as usize]
    }
}

impl fmt::Display for CanonicalText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.head)?;
        f.write_str(&String::from_utf8_lossy(self.body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(body: &[u8]) -> SignableRequest<'_> {
        SignableRequest::new(
            "put",
            "/v2/batch",
            "",
            "2026-11-22T10:00:00.000Z",
            "k",
            body,
        )
    }

    #[test]
    fn empty_query_is_an_empty_line_and_body_has_no_trailing_lf() {
        let c = req(b"[]").canonical();
        assert_eq!(
            c.to_bytes(),
            b"PUT\n/v2/batch\n\nX-SVC-TIMESTAMP=2026-11-22T10:00:00.000Z\nX-SVC-APIKEY=k\nX-SVC-AUTH-ALGO=HmacSHA384\nContent-Type=application/json\n[]".to_vec()
        );
    }

    #[test]
    fn empty_body_ends_with_the_content_type_lf() {
        let c = req(b"").canonical();
        assert!(c.to_bytes().ends_with(b"Content-Type=application/json\n"));
    }

    #[test]
    fn lines_are_labelled_in_order() {
        let mut r = req(b"{\n}");
        r.query = "a=1";
        r.header_prefix = "klevu";
        let c = r.canonical();
        let lines = c.lines();
        assert_eq!(lines[0].bytes, b"PUT");
        assert_eq!(lines[2].label, LineLabel::Query);
        assert_eq!(lines[2].bytes, b"a=1");
        assert_eq!(lines[4].bytes, b"X-KLEVU-APIKEY=k");
        assert_eq!(c.line(LineLabel::Body).bytes, b"{\n}");
        // Joining the parts with LF gives back the exact bytes.
        let joined: Vec<u8> = lines
            .iter()
            .map(|l| l.bytes.to_vec())
            .collect::<Vec<_>>()
            .join(&b'\n');
        assert_eq!(joined, c.to_bytes());
        assert_eq!(c.to_string().as_bytes(), c.to_bytes().as_slice());
    }
}
