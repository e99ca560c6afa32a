//! What each part of the signing text is, and the two classic mistakes made there: one table
//! shared by the generated programs' comments, `sign --explain` and the lesson, so the three
//! teach the same rules (docs/signing.md).

use serde::Serialize;

use crate::core::LineLabel;

/// One part of the scheme: a line of the signing text, or a step after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Note {
    /// The short name shown next to the line (`METHOD`, `QUERY`, `HMAC`...).
    pub label: &'static str,
    /// The rule, as one sentence.
    pub rule: &'static str,
    /// The two classic mistakes made at this point.
    pub pitfalls: [&'static str; 2],
}

/// The note of one line of the signing text.
pub fn line_note(label: LineLabel) -> &'static Note {
    &LINES[LineLabel::ALL
        .iter()
        .position(|l| *l == label)
        .expect("LineLabel::ALL lists every label")]
}

/// The eight lines of the signing text, in signing order.
pub const LINES: [Note; 8] = [
    Note {
        label: "METHOD",
        rule: "the HTTP method in upper case, then one LF",
        pitfalls: [
            "a lower-case method (\"put\") signs another text",
            "CRLF instead of a single LF between lines",
        ],
    },
    Note {
        label: "PATH",
        rule: "the URL path exactly as sent, without host or query, then one LF",
        pitfalls: [
            "trimming the trailing '/' (\"/v2/batch/\" signs as it is sent)",
            "re-encoding or decoding the path instead of signing it as sent",
        ],
    },
    Note {
        label: "QUERY",
        rule: "the query string without the leading '?', exactly as sent, then one LF",
        pitfalls: [
            "signing \"?test=1\" instead of \"test=1\"",
            "leaving the line out when there is no query: it is then an empty line",
        ],
    },
    Note {
        label: "TIMESTAMP",
        rule: "X-<PREFIX>-TIMESTAMP=, then the header's value byte for byte, then one LF",
        pitfalls: [
            "signing one timestamp and sending another (take the time once)",
            "a time more than 10 minutes away from the server's clock",
        ],
    },
    Note {
        label: "APIKEY",
        rule: "X-<PREFIX>-APIKEY=, then the public API key, then one LF",
        pitfalls: [
            "header names in lower case (they are signed upper case)",
            "the REST key here: the public key is signed, the REST key is only the HMAC key",
        ],
    },
    Note {
        label: "AUTH-ALGO",
        rule: "X-<PREFIX>-AUTH-ALGO=HmacSHA384, exactly in this case, then one LF",
        pitfalls: [
            "another spelling (\"hmacsha384\", \"HMAC-SHA384\")",
            "the four header lines in another order",
        ],
    },
    Note {
        label: "CONTENT-TYPE",
        rule: "Content-Type=application/json, written exactly so, then one LF",
        pitfalls: [
            "\"content-type\" in lower case",
            "dropping this LF when the body is empty: the text then ends in \"json\" + LF",
        ],
    },
    Note {
        label: "BODY",
        rule: "the body bytes exactly as sent, with nothing after them",
        pitfalls: [
            "signing the JSON re-serialised (pretty-printed, compacted, keys sorted)",
            "a LF after the body",
        ],
    },
];

/// The steps after the signing text: the MAC, its encoding, the header.
pub const HMAC: Note = Note {
    label: "HMAC",
    rule: "HMAC-SHA384 of the signing text's bytes, keyed with the REST key's UTF-8 bytes",
    pitfalls: [
        "a key read from a file with its trailing newline, or trimmed of spaces",
        "SHA-256 instead of SHA-384, or the public API key as the HMAC key",
    ],
};

/// Encoding the 48-byte MAC.
pub const BASE64: Note = Note {
    label: "BASE64",
    rule: "the 48 bytes in standard base64 ('+' and '/'): 64 characters",
    pitfalls: [
        "hex (96 characters) instead of base64",
        "URL-safe base64, with '-' and '_' instead of '+' and '/'",
    ],
};

/// Sending the signature.
pub const HEADER: Note = Note {
    label: "AUTHORIZATION",
    rule: "sent as Authorization: Bearer <signature>, with the four signed headers as signed",
    pitfalls: [
        "a header value sent differently from the value signed",
        "a client library that rewrites Content-Type (adding \"; charset=utf-8\")",
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_label_has_its_note_in_order() {
        for label in LineLabel::ALL {
            assert_eq!(line_note(label).label, label.as_str());
        }
    }

    /// The notes end up in comments of eight languages: a backslash-u would be read as a
    /// character escape by the Java compiler even inside a comment, and a `*/` would end a
    /// block comment.
    #[test]
    fn notes_are_safe_inside_comments() {
        let all = LINES.iter().chain([&HMAC, &BASE64, &HEADER]);
        for n in all {
            for text in [n.rule, n.pitfalls[0], n.pitfalls[1]] {
                assert!(!text.contains('\\') && !text.contains("*/"), "{text}");
                assert!(!text.contains('\n'), "{text}");
            }
        }
    }
}
