//! `sign --explain`: the signing text built step by step, as a plain-text handout. Each step
//! gives the rule, its two classic mistakes and the exact bytes it adds (every LF shown as `\n`,
//! every space as `·`), then the HMAC in hex, its base64 and the header (docs/signing.md).

use std::fmt::Write as _;

use super::notes::{self, Note};
use crate::core::visible::{counted, escape_visible};
use crate::core::{LineLabel, SignableRequest, Signed};

/// Body lines shown before the rest is summarised.
const BODY_LINES_SHOWN: usize = 40;

/// The bytes made visible, with every space (not only trailing ones) shown as `·`.
fn shown(bytes: &[u8]) -> String {
    escape_visible(bytes).replace(' ', "·")
}

fn step(out: &mut String, n: usize, note: &Note) {
    let _ = writeln!(out, "Step {n}. {}: {}", note.label, note.rule);
    let _ = writeln!(
        out,
        "  watch for: {}; {}",
        note.pitfalls[0], note.pitfalls[1]
    );
}

/// The handout for one signed request (`signed` is `req` signed with the REST key).
pub fn explain(req: &SignableRequest<'_>, signed: &Signed) -> String {
    let canonical = req.canonical();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "How the request {} {} is signed (docs/signing.md)",
        req.method.to_ascii_uppercase(),
        crate::core::http_text::target(req.path, req.query)
    );
    out.push_str("In the bytes shown, \\n is one LF and · is one space; nothing else is added.\n");
    for (i, line) in canonical.lines().iter().enumerate() {
        out.push('\n');
        step(&mut out, i + 1, notes::line_note(line.label));
        if line.label == LineLabel::Body {
            explain_body(&mut out, line.bytes);
        } else {
            let _ = writeln!(
                out,
                "  adds {}: {}\\n",
                counted(line.bytes.len() + 1, "byte"),
                shown(line.bytes)
            );
        }
    }
    let total = canonical.len();
    let _ = writeln!(out, "\nThe signing text ({}):", counted(total, "byte"));
    let bytes = canonical.to_bytes();
    let mut rest = &bytes[..];
    let mut shown_lines = 0;
    while let Some(i) = rest.iter().position(|&b| b == b'\n') {
        if shown_lines < 7 + BODY_LINES_SHOWN {
            let _ = writeln!(out, "  {}\\n", shown(&rest[..i]));
        }
        shown_lines += 1;
        rest = &rest[i + 1..];
    }
    if shown_lines > 7 + BODY_LINES_SHOWN {
        let _ = writeln!(
            out,
            "  ... ({} more lines)",
            shown_lines - 7 - BODY_LINES_SHOWN
        );
    }
    if !rest.is_empty() {
        let _ = writeln!(out, "  {}", shown(rest));
    }

    let n = canonical.lines().len();
    out.push('\n');
    step(&mut out, n + 1, &notes::HMAC);
    let _ = writeln!(out, "  the 48 bytes in hex: {}", signed.digest_hex());
    out.push('\n');
    step(&mut out, n + 2, &notes::BASE64);
    let _ = writeln!(out, "  the signature: {}", signed.signature());
    out.push('\n');
    step(&mut out, n + 3, &notes::HEADER);
    for (name, value) in &signed.headers {
        let _ = writeln!(out, "  {name}: {value}");
    }
    out
}

fn explain_body(out: &mut String, body: &[u8]) {
    if body.is_empty() {
        out.push_str("  adds 0 bytes: the body is empty, so the text ends with the LF above\n");
        return;
    }
    let _ = writeln!(
        out,
        "  adds {}, nothing after them:",
        counted(body.len(), "byte")
    );
    let mut rest = body;
    let mut lines = 0;
    while !rest.is_empty() {
        let (line, next, lf) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (&rest[..i], &rest[i + 1..], "\\n"),
            None => (rest, &rest[rest.len()..], ""),
        };
        if lines < BODY_LINES_SHOWN {
            let _ = writeln!(out, "    {}{lf}", shown(line));
        }
        lines += 1;
        rest = next;
    }
    if lines > BODY_LINES_SHOWN {
        let _ = writeln!(out, "    ... ({} more lines)", lines - BODY_LINES_SHOWN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{sign, Secret};

    #[test]
    fn every_space_and_lf_is_visible() {
        let req = SignableRequest::new("put", "/p", "a=1 b", "T", "K", b"{ \"a\": 1 }\n ");
        let signed = sign(&req, &Secret::new("k")).unwrap();
        let text = explain(&req, &signed);
        assert!(text.contains("adds 4 bytes: PUT\\n"), "{text}");
        assert!(text.contains("a=1·b\\n"), "{text}");
        assert!(text.contains("    {·\"a\":·1·}\\n\n    ·\n"), "{text}");
        assert!(text.contains(signed.signature()));
    }

    #[test]
    fn an_empty_body_says_the_text_ends_with_the_content_type_lf() {
        let req = SignableRequest::new("GET", "/p", "", "T", "K", b"");
        let signed = sign(&req, &Secret::new("k")).unwrap();
        let text = explain(&req, &signed);
        assert!(text.contains("adds 1 byte: \\n"), "{text}");
        assert!(text.contains("adds 0 bytes: the body is empty"), "{text}");
    }
}
