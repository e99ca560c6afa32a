//! The canonical signing text: a type whose bytes are exactly what is signed.
//!
//! Layout (service-interface.md 5.1, decisions.md rules 1-4), lines joined by a single LF:
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

use std::fmt;
use std::io::{self, Write};
use std::ops::Range;

use super::request::{HeaderNames, SignableRequest, CONTENT_TYPE_HEADER};

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
    /// Byte ranges in `head` of the seven lines, without their LF.
    head_lines: [Range<usize>; 7],
    body: &'a [u8],
    /// The header names of the head (kept: the headers to send use them too).
    names: HeaderNames,
}

impl<'a> CanonicalText<'a> {
    pub fn new(req: &SignableRequest<'a>) -> Self {
        let names = HeaderNames::for_prefix(req.header_prefix);
        let method = req.method.to_ascii_uppercase();
        let parts: [(&str, &str); 7] = [
            ("", method.as_str()),
            ("", req.path),
            ("", req.query),
            (names.timestamp.as_str(), req.timestamp),
            (names.api_key.as_str(), req.api_key),
            (names.auth_algo.as_str(), req.auth_algo),
            (CONTENT_TYPE_HEADER, req.content_type),
        ];
        let cap = parts.iter().map(|(n, v)| n.len() + v.len() + 2).sum();
        let mut head = String::with_capacity(cap);
        let mut head_lines: [Range<usize>; 7] = Default::default();
        for (i, (name, value)) in parts.iter().enumerate() {
            let start = head.len();
            if !name.is_empty() {
                head.push_str(name);
                head.push('=');
            }
            head.push_str(value);
            head_lines[i] = start..head.len();
            head.push('\n');
        }
        CanonicalText {
            head,
            head_lines,
            body: req.body,
            names,
        }
    }

    /// The header names used in the head, given up (signing moves them into the headers it
    /// returns rather than building them a second time).
    pub fn into_header_names(self) -> HeaderNames {
        self.names
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
        let mut v = Vec::with_capacity(self.len());
        v.extend_from_slice(self.head.as_bytes());
        v.extend_from_slice(self.body);
        v
    }

    /// Write the exact signed bytes.
    pub fn write_to<W: Write>(&self, mut w: W) -> io::Result<()> {
        w.write_all(self.head.as_bytes())?;
        w.write_all(self.body)
    }

    /// The eight labelled parts in signing order.
    pub fn lines(&self) -> [CanonicalLine<'_>; 8] {
        let h = self.head.as_bytes();
        let l = |i: usize| CanonicalLine {
            label: LineLabel::ALL[i],
            bytes: &h[self.head_lines[i].clone()],
        };
        [
            l(0),
            l(1),
            l(2),
            l(3),
            l(4),
            l(5),
            l(6),
            CanonicalLine {
                label: LineLabel::Body,
                bytes: self.body,
            },
        ]
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
