//! The catalogue of client mistakes the diagnosis knows: each has a stable upper-snake id and one
//! sentence saying what the client did and how to fix it (docs/diagnosis.md lists them all).

use std::fmt;

/// A known client mistake.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mistake {
    /// Signed `?test=1` instead of `test=1` on the query line.
    QuestionMarkBeforeQuery,
    /// Left out the (empty) query line, so the path line is followed by one LF, not two.
    EmptyQueryLineOmitted,
    /// Signed the path without its trailing `/` (or trailing spaces).
    TrailingSlashTrimmed,
    /// Joined the lines with CRLF instead of LF.
    CrlfLineEndings,
    /// Added a LF after the body.
    TrailingLfAfterBody,
    /// Wrote the header names in lower case (`x-svc-timestamp=`, `content-type=`).
    LowercaseHeaderNames,
    /// Wrote the method in lower case.
    LowercaseMethod,
    /// Signed the body re-serialised compactly (no whitespace, or Python's `", "`/`": "`).
    BodyReserialisedCompact,
    /// Signed the body pretty-printed (2- or 4-space indent).
    BodyReserialisedPretty,
    /// Signed the body with its object keys sorted.
    BodySortedKeys,
    /// Signed with the REST key trimmed of surrounding whitespace.
    KeyWhitespaceTrimmed,
    /// Signed with the REST key followed by a newline (read from a file without stripping it).
    KeyWithTrailingNewline,
    /// Signed with the public API key instead of the REST key.
    PublicApiKeyAsSecret,
    /// Sent the HMAC as hex instead of base64.
    HexInsteadOfBase64,
    /// Sent URL-safe base64 (`-` and `_`) instead of standard base64.
    UrlSafeBase64,
    /// Sent base64 without its `=` padding.
    Base64PaddingMissing,
    /// Used HMAC-SHA256 instead of HMAC-SHA384.
    Sha256InsteadOfSha384,
    /// Put the four header lines in another order; `order` lists them as signed, by their index
    /// in the required order (0 timestamp, 1 API key, 2 algorithm, 3 Content-Type).
    HeaderLinesReordered { order: [u8; 4] },
    /// Signed no body and sent one.
    EmptyBodySigned,
    /// Signed `\u00e8` escapes and sent UTF-8, or the reverse.
    BodyUnicodeEscaped,
    /// Signed `\/` for `/` (as PHP's `json_encode` writes), or the reverse.
    BodySlashesEscaped,
    /// Signed the query percent-decoded.
    QueryPercentDecoded,
    /// Signed the query parameters sorted.
    QueryParamsSorted,
    /// Signed the full URL (`https://host/v2/batch`) on the path line.
    FullUrlAsPath,
    /// Signed the path percent-decoded.
    PathPercentDecoded,
    /// Signed the same instant in another form (`signed` is the text signed).
    TimestampFormDiffers { signed: String },
    /// Signed another instant near the header's (`offset_ms`: signed minus sent).
    TimestampDiffers { offset_ms: i64 },
    /// Signed another Content-Type value than it sent.
    ContentTypeDiffers { signed: String },
    /// Signed the vendor header names with another prefix than it sent.
    HeaderPrefixDiffers { signed: String, sent: String },
    /// Signed with the REST key inside the quotes it was written with.
    KeyQuoted,
    /// Signed with the bytes a base64-looking REST key decodes to.
    KeyBase64Decoded,
    /// Signed with the REST key of another account the server knows (`api_key` names it).
    OtherAccountKey { api_key: String },
}

/// The part of the signing text (or of the signing) a mistake changes: two mistakes can occur
/// together only when they change different parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    Method,
    Path,
    Query,
    NameCase,
    NamePrefix,
    Order,
    LineEnd,
    Timestamp,
    ContentType,
    Body,
    Key,
    Encoding,
    Hash,
}

impl Mistake {
    /// A stable code for the mistake.
    pub fn code(&self) -> &'static str {
        match self {
            Mistake::QuestionMarkBeforeQuery => "QUESTION_MARK_BEFORE_QUERY",
            Mistake::EmptyQueryLineOmitted => "EMPTY_QUERY_LINE_OMITTED",
            Mistake::TrailingSlashTrimmed => "TRAILING_SLASH_TRIMMED",
            Mistake::CrlfLineEndings => "CRLF_LINE_ENDINGS",
            Mistake::TrailingLfAfterBody => "TRAILING_LF_AFTER_BODY",
            Mistake::LowercaseHeaderNames => "LOWERCASE_HEADER_NAMES",
            Mistake::LowercaseMethod => "LOWERCASE_METHOD",
            Mistake::BodyReserialisedCompact => "BODY_RESERIALISED_COMPACT",
            Mistake::BodyReserialisedPretty => "BODY_RESERIALISED_PRETTY",
            Mistake::BodySortedKeys => "BODY_SORTED_KEYS",
            Mistake::KeyWhitespaceTrimmed => "KEY_WHITESPACE_TRIMMED",
            Mistake::KeyWithTrailingNewline => "KEY_WITH_TRAILING_NEWLINE",
            Mistake::PublicApiKeyAsSecret => "PUBLIC_API_KEY_AS_SECRET",
            Mistake::HexInsteadOfBase64 => "HEX_INSTEAD_OF_BASE64",
            Mistake::UrlSafeBase64 => "URL_SAFE_BASE64",
            Mistake::Base64PaddingMissing => "BASE64_PADDING_MISSING",
            Mistake::Sha256InsteadOfSha384 => "SHA256_INSTEAD_OF_SHA384",
            Mistake::HeaderLinesReordered { .. } => "HEADER_LINES_REORDERED",
            Mistake::EmptyBodySigned => "EMPTY_BODY_SIGNED",
            Mistake::BodyUnicodeEscaped => "BODY_UNICODE_ESCAPED",
            Mistake::BodySlashesEscaped => "BODY_SLASHES_ESCAPED",
            Mistake::QueryPercentDecoded => "QUERY_PERCENT_DECODED",
            Mistake::QueryParamsSorted => "QUERY_PARAMS_SORTED",
            Mistake::FullUrlAsPath => "FULL_URL_AS_PATH",
            Mistake::PathPercentDecoded => "PATH_PERCENT_DECODED",
            Mistake::TimestampFormDiffers { .. } => "TIMESTAMP_FORM_DIFFERS",
            Mistake::TimestampDiffers { .. } => "TIMESTAMP_DIFFERS",
            Mistake::ContentTypeDiffers { .. } => "CONTENT_TYPE_DIFFERS",
            Mistake::HeaderPrefixDiffers { .. } => "HEADER_PREFIX_DIFFERS",
            Mistake::KeyQuoted => "KEY_QUOTED",
            Mistake::KeyBase64Decoded => "KEY_BASE64_DECODED",
            Mistake::OtherAccountKey { .. } => "OTHER_ACCOUNT_KEY",
        }
    }

    /// The part of the signing this mistake changes.
    pub fn part(&self) -> Part {
        match self {
            Mistake::QuestionMarkBeforeQuery
            | Mistake::EmptyQueryLineOmitted
            | Mistake::QueryPercentDecoded
            | Mistake::QueryParamsSorted => Part::Query,
            Mistake::TrailingSlashTrimmed
            | Mistake::FullUrlAsPath
            | Mistake::PathPercentDecoded => Part::Path,
            Mistake::CrlfLineEndings => Part::LineEnd,
            Mistake::LowercaseHeaderNames => Part::NameCase,
            Mistake::HeaderPrefixDiffers { .. } => Part::NamePrefix,
            Mistake::LowercaseMethod => Part::Method,
            Mistake::HeaderLinesReordered { .. } => Part::Order,
            Mistake::TimestampFormDiffers { .. } | Mistake::TimestampDiffers { .. } => {
                Part::Timestamp
            }
            Mistake::ContentTypeDiffers { .. } => Part::ContentType,
            Mistake::TrailingLfAfterBody
            | Mistake::BodyReserialisedCompact
            | Mistake::BodyReserialisedPretty
            | Mistake::BodySortedKeys
            | Mistake::EmptyBodySigned
            | Mistake::BodyUnicodeEscaped
            | Mistake::BodySlashesEscaped => Part::Body,
            Mistake::KeyWhitespaceTrimmed
            | Mistake::KeyWithTrailingNewline
            | Mistake::PublicApiKeyAsSecret
            | Mistake::KeyQuoted
            | Mistake::KeyBase64Decoded
            | Mistake::OtherAccountKey { .. } => Part::Key,
            Mistake::HexInsteadOfBase64
            | Mistake::UrlSafeBase64
            | Mistake::Base64PaddingMissing => Part::Encoding,
            Mistake::Sha256InsteadOfSha384 => Part::Hash,
        }
    }

    /// What the client did and how to fix it, as the end of a sentence starting "the client ...".
    pub fn explanation(&self) -> &'static str {
        match self {
            Mistake::QuestionMarkBeforeQuery => {
                "put a '?' before the query on the query line (sign `test=1`, not `?test=1`)"
            }
            Mistake::EmptyQueryLineOmitted => {
                "left out the empty query line (with no query the path line is followed by two LFs)"
            }
            Mistake::TrailingSlashTrimmed => {
                "trimmed the trailing '/' from the path it signed (sign the path exactly as sent)"
            }
            Mistake::CrlfLineEndings => "joined the lines with CRLF instead of a single LF",
            Mistake::TrailingLfAfterBody => "added a LF after the body (nothing follows the body)",
            Mistake::LowercaseHeaderNames => {
                "wrote the header names in lower case (they are signed as X-SVC-TIMESTAMP=..., Content-Type=...)"
            }
            Mistake::LowercaseMethod => "wrote the method in lower case on the method line",
            Mistake::BodyReserialisedCompact => {
                "signed the body re-serialised compactly instead of the exact bytes it sent"
            }
            Mistake::BodyReserialisedPretty => {
                "signed the body pretty-printed instead of the exact bytes it sent"
            }
            Mistake::BodySortedKeys => {
                "signed the body with its keys sorted instead of the exact bytes it sent"
            }
            Mistake::KeyWhitespaceTrimmed => {
                "signed with the REST key trimmed of whitespace (sign with the key exactly as issued)"
            }
            Mistake::KeyWithTrailingNewline => {
                "signed with the REST key followed by a newline, as read from a file (strip the newline)"
            }
            Mistake::PublicApiKeyAsSecret => {
                "signed with the public API key instead of the REST key"
            }
            Mistake::HexInsteadOfBase64 => "sent the HMAC as hex instead of base64",
            Mistake::UrlSafeBase64 => "sent URL-safe base64 ('-' and '_') instead of standard base64",
            Mistake::Base64PaddingMissing => "sent base64 without its '=' padding",
            Mistake::Sha256InsteadOfSha384 => "used HMAC-SHA256 instead of HMAC-SHA384",
            Mistake::HeaderLinesReordered { .. } => {
                "put the header lines in another order (required: TIMESTAMP, APIKEY, AUTH-ALGO, Content-Type)"
            }
            Mistake::EmptyBodySigned => {
                "signed an empty body but sent one (sign the exact bytes sent as the body)"
            }
            Mistake::BodyUnicodeEscaped => {
                "signed the body with non-ASCII characters written as \\u escapes and sent them as UTF-8, or the reverse (sign the exact bytes sent)"
            }
            Mistake::BodySlashesEscaped => {
                "signed the body with '/' written as '\\/' (as PHP's json_encode does) and sent it unescaped, or the reverse (sign the exact bytes sent)"
            }
            Mistake::QueryPercentDecoded => {
                "signed the query percent-decoded (sign it exactly as sent, escapes included)"
            }
            Mistake::QueryParamsSorted => {
                "signed the query parameters sorted (sign them in the order sent)"
            }
            Mistake::FullUrlAsPath => {
                "signed the full URL on the path line (sign only the path, e.g. /v2/batch)"
            }
            Mistake::PathPercentDecoded => {
                "signed the path percent-decoded (sign it exactly as sent, escapes included)"
            }
            Mistake::TimestampFormDiffers { .. } => {
                "signed the same instant in another timestamp form than the header it sent (sign the header's text exactly)"
            }
            Mistake::TimestampDiffers { .. } => {
                "signed another instant than the timestamp header it sent, as when the clock is read twice (read it once and sign the header's text)"
            }
            Mistake::ContentTypeDiffers { .. } => {
                "signed another Content-Type value than the one it sent (sign the header's value exactly)"
            }
            Mistake::HeaderPrefixDiffers { .. } => {
                "signed the vendor header names with another prefix than the one it sent (sign the names it sends)"
            }
            Mistake::KeyQuoted => {
                "signed with the REST key inside its surrounding quotes (remove the quotes)"
            }
            Mistake::KeyBase64Decoded => {
                "signed with the base64-decoded bytes of the REST key (sign with the key text as issued)"
            }
            Mistake::OtherAccountKey { .. } => {
                "signed with the REST key of another account (use the REST key of the API key it sends)"
            }
        }
    }

    /// The explanation with its specifics (e.g. the order the header lines were signed in).
    pub fn detail(&self) -> String {
        match self {
            Mistake::HeaderLinesReordered { order } => {
                const NAMES: [&str; 4] = ["TIMESTAMP", "APIKEY", "AUTH-ALGO", "Content-Type"];
                let got: Vec<&str> = order.iter().map(|&i| NAMES[i as usize]).collect();
                format!(
                    "put the header lines in another order: signed {}, required TIMESTAMP, APIKEY, AUTH-ALGO, Content-Type",
                    got.join(", ")
                )
            }
            Mistake::TimestampFormDiffers { signed } => format!(
                "signed the same instant in another timestamp form ({signed}) than the header it sent (sign the header's text exactly)"
            ),
            Mistake::TimestampDiffers { offset_ms } => {
                let dir = if *offset_ms > 0 { "after" } else { "before" };
                let abs = offset_ms.unsigned_abs();
                format!(
                    "signed a time {}.{:03} s {dir} the timestamp header it sent, as when the clock is read twice (read it once and sign the header's text)",
                    abs / 1000,
                    abs % 1000
                )
            }
            Mistake::ContentTypeDiffers { signed } => format!(
                "signed the Content-Type \"{signed}\" but sent another value (sign the header's value exactly)"
            ),
            Mistake::HeaderPrefixDiffers { signed, sent } => format!(
                "signed the header names with the prefix X-{signed}- but sent X-{sent}- (sign the names it sends)"
            ),
            Mistake::OtherAccountKey { api_key } => format!(
                "signed with the REST key of the account {api_key} (use the REST key of the API key it sends)"
            ),
            other => other.explanation().to_string(),
        }
    }
}

impl fmt::Display for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail())
    }
}
