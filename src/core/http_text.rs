//! Raw HTTP/1.1 request text: parse a captured request (request line, headers, blank line, body)
//! and print a signed request the same way.
//!
//! Parsing accepts LF or CRLF line ends, skips empty lines before the request line (as servers
//! do), splits the request target into path and query (an absolute `http://host/...` target is
//! reduced to its path), trims the optional whitespace around header values, and keeps the body
//! bytes exactly. With a `Content-Length` header the body is exactly that many bytes (extra bytes
//! after it, such as the LF an editor adds, are dropped with a note); without one, the body is
//! everything after the blank line.

use std::io::Write as _;

use super::received::ReceivedRequest;
use super::request::SignableRequest;
use super::sign::Signed;
use super::visible::escape_visible;

/// Why a raw request could not be read. Each message is one sentence naming the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("the request is empty; expected a request line such as `PUT /v2/batch HTTP/1.1`")]
    Empty,
    #[error(
        "line {line}: the request line must look like `PUT /v2/batch HTTP/1.1`, got \"{shown}\""
    )]
    BadRequestLine { line: usize, shown: String },
    #[error("line {line}: a header must look like `Name: value`, got \"{shown}\"")]
    BadHeader { line: usize, shown: String },
    #[error(
        "line {line}: the header name \"{shown}\" contains characters not allowed in a header name"
    )]
    BadHeaderName { line: usize, shown: String },
    #[error("line {line}: folded header lines (starting with a space) are not supported")]
    FoldedHeader { line: usize },
    #[error("the Content-Length header \"{shown}\" is not a number")]
    BadContentLength { shown: String },
    #[error("the body is {got} bytes but Content-Length says {want}")]
    BodyTooShort { want: usize, got: usize },
    #[error("chunked bodies (Transfer-Encoding: chunked) are not supported; capture the request with a Content-Length")]
    Chunked,
}

/// A parsed raw request with notes about what was adjusted while reading it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedRaw {
    pub request: ReceivedRequest,
    /// The HTTP version from the request line, e.g. `HTTP/1.1`.
    pub version: String,
    /// Remarks such as "3 bytes after the Content-Length body were ignored".
    pub notes: Vec<String>,
}

fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Whether `s` is a non-empty token (RFC 9110 5.6.2): what a header name and a method are.
pub fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_token_char)
}

pub(crate) fn trim_ows(mut v: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = v {
        v = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = v {
        v = rest;
    }
    v
}

/// Split a request target into (path, query): the query is what follows the first `?`,
/// without it. An absolute target (`http://host:port/p?q`) is reduced to its path and query.
pub fn split_target(target: &str) -> (String, String) {
    let mut t = target;
    for scheme in ["http://", "https://"] {
        if t.get(..scheme.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(scheme))
        {
            let rest = &t[scheme.len()..];
            let end = rest.find(['/', '?']).unwrap_or(rest.len());
            t = &rest[end..];
            break;
        }
    }
    let (path, query) = match t.split_once('?') {
        Some((p, q)) => (p, q),
        None => (t, ""),
    };
    let path = if path.is_empty() { "/" } else { path };
    (path.to_string(), query.to_string())
}

/// Parse a raw HTTP/1.1 request.
pub fn parse_raw_request(bytes: &[u8]) -> Result<ReceivedRequest, ParseError> {
    parse_raw_request_with_notes(bytes).map(|p| p.request)
}

/// Parse a raw HTTP/1.1 request and keep notes about adjustments.
pub fn parse_raw_request_with_notes(bytes: &[u8]) -> Result<ParsedRaw, ParseError> {
    let mut lines = Lines {
        bytes,
        pos: 0,
        line_no: 0,
    };
    let (method, target, version) = read_request_line(&mut lines)?;
    let (path, query) = split_target(target);
    let headers = read_headers(&mut lines)?;
    let mut notes = Vec::new();
    let body = framed_body(&headers, &bytes[lines.pos.min(bytes.len())..], &mut notes)?;
    Ok(ParsedRaw {
        request: ReceivedRequest {
            method: method.to_string(),
            path,
            query,
            headers,
            body: bytes::Bytes::copy_from_slice(body),
        },
        version: version.to_string(),
        notes,
    })
}

/// A raw request read line by line, each line counted.
struct Lines<'b> {
    bytes: &'b [u8],
    pos: usize,
    line_no: usize,
}

impl<'b> Lines<'b> {
    /// The next line without its LF (and without a CR before it); None at the end of input.
    fn next_line(&mut self) -> Option<&'b [u8]> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        self.line_no += 1;
        let rest = &self.bytes[self.pos..];
        let line = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => {
                self.pos += i + 1;
                &rest[..i]
            }
            None => {
                self.pos = self.bytes.len();
                rest
            }
        };
        Some(line.strip_suffix(b"\r").unwrap_or(line))
    }
}

/// The request line (after any empty lines): its method, target and version.
fn read_request_line<'b>(lines: &mut Lines<'b>) -> Result<(&'b str, &'b str, &'b str), ParseError> {
    let request_line = loop {
        match lines.next_line() {
            None => return Err(ParseError::Empty),
            Some(l) if !l.is_empty() => break l,
            Some(_) => {}
        }
    };
    let bad_line = || ParseError::BadRequestLine {
        line: lines.line_no,
        shown: escape_visible(&request_line[..request_line.len().min(120)]),
    };
    let text = std::str::from_utf8(request_line).map_err(|_| bad_line())?;
    let mut words = text.split(' ').filter(|w| !w.is_empty());
    let (Some(method), Some(target), Some(version), None) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(bad_line());
    };
    if !method.bytes().all(is_token_char) || !version.starts_with("HTTP/") {
        return Err(bad_line());
    }
    Ok((method, target, version))
}

/// The headers up to the blank line (or the end of input); `lines` is left at the body.
fn read_headers(lines: &mut Lines<'_>) -> Result<Vec<(String, Vec<u8>)>, ParseError> {
    let mut headers: Vec<(String, Vec<u8>)> = Vec::new();
    while let Some(line) = lines.next_line() {
        let line_no = lines.line_no;
        if line.is_empty() {
            return Ok(headers);
        }
        if matches!(line[0], b' ' | b'\t') {
            return Err(ParseError::FoldedHeader { line: line_no });
        }
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return Err(ParseError::BadHeader {
                line: line_no,
                shown: escape_visible(&line[..line.len().min(120)]),
            });
        };
        let name = &line[..colon];
        if name.is_empty() || !name.iter().copied().all(is_token_char) {
            return Err(ParseError::BadHeaderName {
                line: line_no,
                shown: escape_visible(name),
            });
        }
        let name = String::from_utf8(name.to_vec()).expect("token characters are ASCII");
        headers.push((name, trim_ows(&line[colon + 1..]).to_vec()));
    }
    // No blank line: there is no body.
    lines.pos = lines.bytes.len();
    Ok(headers)
}

/// The body as its headers frame it: chunked is refused, and bytes after the Content-Length
/// are cut off with a note.
fn framed_body<'b>(
    headers: &[(String, Vec<u8>)],
    mut body: &'b [u8],
    notes: &mut Vec<String>,
) -> Result<&'b [u8], ParseError> {
    let header = |n: &str| {
        headers
            .iter()
            .find(|(h, _)| h.eq_ignore_ascii_case(n))
            .map(|(_, v)| v.clone())
    };
    if let Some(te) = header("Transfer-Encoding") {
        if te.to_ascii_lowercase().windows(7).any(|w| w == b"chunked") {
            return Err(ParseError::Chunked);
        }
    }
    if let Some(cl) = header("Content-Length") {
        let shown = escape_visible(&cl);
        let want: usize = std::str::from_utf8(&cl)
            .ok()
            .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|s| s.parse().ok())
            .ok_or(ParseError::BadContentLength { shown })?;
        if body.len() < want {
            return Err(ParseError::BodyTooShort {
                want,
                got: body.len(),
            });
        }
        if body.len() > want {
            notes.push(format!(
                "{} byte(s) after the {want}-byte body given by Content-Length were ignored",
                body.len() - want
            ));
            body = &body[..want];
        }
    }

    Ok(body)
}

/// The request target: the path, then `?query` when there is a query.
pub fn target(path: &str, query: &str) -> String {
    if query.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{query}")
    }
}

/// Print a signed request as raw HTTP/1.1 (CRLF line ends): request line, `Host`, the signed
/// headers in order, `Content-Length`, a blank line, and the exact body.
pub fn to_raw_request(req: &SignableRequest<'_>, signed: &Signed, host: &str) -> Vec<u8> {
    // Writing into a Vec cannot fail.
    let mut out = Vec::with_capacity(req.body.len() + 512);
    let method = req.method.to_ascii_uppercase();
    let target = target(req.path, req.query);
    let _ = write!(out, "{method} {target} HTTP/1.1\r\nHost: {host}\r\n");
    for (n, v) in &signed.headers {
        let _ = write!(out, "{n}: {v}\r\n");
    }
    let _ = write!(out, "Content-Length: {}\r\n\r\n", req.body.len());
    out.extend_from_slice(req.body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::secret::Secret;
    use crate::core::sign::sign;

    /// Print a received request as raw HTTP/1.1 (CRLF line ends), headers as they are, adding a
    /// `Content-Length` only when there is none.
    fn print_received(req: &ReceivedRequest) -> Vec<u8> {
        let mut out = Vec::with_capacity(req.body.len() + 512);
        out.extend_from_slice(
            format!(
                "{} {} HTTP/1.1\r\n",
                req.method,
                target(&req.path, &req.query)
            )
            .as_bytes(),
        );
        let mut has_length = false;
        for (n, v) in &req.headers {
            has_length |= n.eq_ignore_ascii_case("Content-Length");
            out.extend_from_slice(n.as_bytes());
            out.extend_from_slice(b": ");
            out.extend_from_slice(v);
            out.extend_from_slice(b"\r\n");
        }
        if !has_length {
            out.extend_from_slice(format!("Content-Length: {}\r\n", req.body.len()).as_bytes());
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&req.body);
        out
    }

    #[test]
    fn parses_crlf_request_with_query_and_body() {
        let raw = b"PUT /v2/batch?test=1&b=%20 HTTP/1.1\r\nHost: x\r\nX-SVC-APIKEY:  k \r\nContent-Length: 4\r\n\r\n[1]\n";
        let r = parse_raw_request(raw).unwrap();
        assert_eq!(r.method, "PUT");
        assert_eq!(r.path, "/v2/batch");
        assert_eq!(r.query, "test=1&b=%20");
        assert_eq!(r.header("x-svc-apikey"), Some(&b"k"[..]));
        assert_eq!(&r.body[..], b"[1]\n");
    }

    #[test]
    fn parses_lf_request_without_content_length_keeping_body_bytes() {
        let raw = b"\nput /v2/batch/ HTTP/1.1\nA: 1\n\n{\r\n}\n";
        let r = parse_raw_request(raw).unwrap();
        assert_eq!(r.method, "put");
        assert_eq!(r.path, "/v2/batch/");
        assert_eq!(r.query, "");
        assert_eq!(&r.body[..], b"{\r\n}\n");
    }

    #[test]
    fn content_length_cuts_trailing_bytes_with_a_note() {
        let raw = b"PUT / HTTP/1.1\nContent-Length: 2\n\n[]\n";
        let p = parse_raw_request_with_notes(raw).unwrap();
        assert_eq!(&p.request.body[..], b"[]");
        assert_eq!(p.notes.len(), 1);
        let short = parse_raw_request(b"PUT / HTTP/1.1\nContent-Length: 9\n\n[]").unwrap_err();
        assert_eq!(short, ParseError::BodyTooShort { want: 9, got: 2 });
        let bad = parse_raw_request(b"PUT / HTTP/1.1\nContent-Length: -1\n\n").unwrap_err();
        assert!(matches!(bad, ParseError::BadContentLength { .. }));
    }

    #[test]
    fn absolute_target_and_empty_query() {
        assert_eq!(
            split_target("http://127.0.0.1:8080/v2/batch?"),
            ("/v2/batch".to_string(), "".to_string())
        );
        assert_eq!(
            split_target("https://h?x=1"),
            ("/".to_string(), "x=1".to_string())
        );
        assert_eq!(
            split_target("/a?b?c"),
            ("/a".to_string(), "b?c".to_string())
        );
    }

    #[test]
    fn bad_input_gets_a_sentence_naming_the_line() {
        assert_eq!(parse_raw_request(b"").unwrap_err(), ParseError::Empty);
        assert_eq!(parse_raw_request(b"\r\n\n").unwrap_err(), ParseError::Empty);
        let e = parse_raw_request(b"PUT /v2/batch\n\n").unwrap_err();
        assert!(e.to_string().starts_with("line 1:"), "{e}");
        let e = parse_raw_request(b"PUT / HTTP/1.1\nno colon here\n\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2: a header must look like `Name: value`, got \"no colon here\""
        );
        let e = parse_raw_request(b"PUT / HTTP/1.1\nA: 1\n folded\n\n").unwrap_err();
        assert_eq!(e, ParseError::FoldedHeader { line: 3 });
        let e = parse_raw_request(b"PUT / HTTP/1.1\nBad Name: 1\n\n").unwrap_err();
        assert!(matches!(e, ParseError::BadHeaderName { line: 2, .. }));
        let e = parse_raw_request(b"PUT / HTTP/1.1\nTransfer-Encoding: chunked\n\n0\r\n\r\n")
            .unwrap_err();
        assert_eq!(e, ParseError::Chunked);
    }

    #[test]
    fn headers_without_blank_line_mean_empty_body() {
        let r = parse_raw_request(b"GET /x HTTP/1.1\nA: b").unwrap();
        assert_eq!(r.headers, vec![("A".to_string(), b"b".to_vec())]);
        assert!(r.body.is_empty());
    }

    #[test]
    fn printed_signed_request_parses_back() {
        let body = b"[{\"a\":1}]\n\r\n";
        let req = SignableRequest::new(
            "put",
            "/v2/batch",
            "x=1",
            "2026-11-22T10:00:00.000Z",
            "pk",
            body,
        );
        let s = sign(&req, &Secret::new("rk")).unwrap();
        let raw = to_raw_request(&req, &s, "localhost:8080");
        assert!(raw.starts_with(
            b"PUT /v2/batch?x=1 HTTP/1.1\r\nHost: localhost:8080\r\nX-SVC-TIMESTAMP: 2026"
        ));
        let r = parse_raw_request(&raw).unwrap();
        assert_eq!(&r.body[..], body);
        assert_eq!(r.query, "x=1");
        assert_eq!(
            r.header_text("authorization"),
            format!("Bearer {}", s.signature())
        );
        let again = parse_raw_request(&print_received(&r)).unwrap();
        assert_eq!(again, r);
    }
}
