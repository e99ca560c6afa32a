//! The catalogue of client mistakes the diagnosis knows: each has a stable upper-snake id, the
//! part of the signing it changes and one sentence describing what happened (docs/diagnosis.md
//! lists them all); what it does to a signing is in `apply.rs`.

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
    /// Signed the query percent-decoded (`plus`: with `+` read as a space, as form decoding does).
    QueryPercentDecoded { plus: bool },
    /// Signed the query parameters sorted.
    QueryParamsSorted,
    /// Signed the full URL (`https://host/v2/batch`) on the path line (`url`: what came before
    /// the path).
    FullUrlAsPath { url: String },
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
    // Changes after signing: the request was signed right, then changed on its way out.
    /// Query parameters were added after signing (`added`: what the sent query has more).
    QueryAddedAfterSigning { added: String },
    /// The query was removed after signing (`removed`: the query signed).
    QueryRemovedAfterSigning { removed: String },
    /// A LF (CRLF when `crlf`) was appended to the body after signing.
    LfAddedAfterSigning { crlf: bool },
    /// The body was re-serialised after signing; `signed` describes the form that was signed.
    BodyReserialisedAfterSigning { signed: String },
    /// The body's line ends were converted after signing: LF to CRLF (`to_crlf`) or back.
    LineEndsConvertedAfterSigning { to_crlf: bool },
    /// curl sent the body with `-d @file`, which drops the file's CR and LF bytes; `file`
    /// says how the signed file is known (read from it, or rebuilt as indented JSON).
    CurlDataFileRead { file: String },
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
            Mistake::QueryPercentDecoded { .. } => "QUERY_PERCENT_DECODED",
            Mistake::QueryParamsSorted => "QUERY_PARAMS_SORTED",
            Mistake::FullUrlAsPath { .. } => "FULL_URL_AS_PATH",
            Mistake::PathPercentDecoded => "PATH_PERCENT_DECODED",
            Mistake::TimestampFormDiffers { .. } => "TIMESTAMP_FORM_DIFFERS",
            Mistake::TimestampDiffers { .. } => "TIMESTAMP_DIFFERS",
            Mistake::ContentTypeDiffers { .. } => "CONTENT_TYPE_DIFFERS",
            Mistake::HeaderPrefixDiffers { .. } => "HEADER_PREFIX_DIFFERS",
            Mistake::KeyQuoted => "KEY_QUOTED",
            Mistake::KeyBase64Decoded => "KEY_BASE64_DECODED",
            Mistake::OtherAccountKey { .. } => "OTHER_ACCOUNT_KEY",
            Mistake::QueryAddedAfterSigning { .. } => "QUERY_ADDED_AFTER_SIGNING",
            Mistake::QueryRemovedAfterSigning { .. } => "QUERY_REMOVED_AFTER_SIGNING",
            Mistake::LfAddedAfterSigning { .. } => "LF_ADDED_AFTER_SIGNING",
            Mistake::BodyReserialisedAfterSigning { .. } => "BODY_RESERIALISED_AFTER_SIGNING",
            Mistake::LineEndsConvertedAfterSigning { .. } => "LINE_ENDS_CONVERTED_AFTER_SIGNING",
            Mistake::CurlDataFileRead { .. } => "CURL_DATA_FILE_READ",
        }
    }

    /// The part of the signing this mistake changes.
    pub fn part(&self) -> Part {
        match self {
            Mistake::QuestionMarkBeforeQuery
            | Mistake::EmptyQueryLineOmitted
            | Mistake::QueryPercentDecoded { .. }
            | Mistake::QueryParamsSorted
            | Mistake::QueryAddedAfterSigning { .. }
            | Mistake::QueryRemovedAfterSigning { .. } => Part::Query,
            Mistake::TrailingSlashTrimmed
            | Mistake::FullUrlAsPath { .. }
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
            | Mistake::BodySlashesEscaped
            | Mistake::LfAddedAfterSigning { .. }
            | Mistake::BodyReserialisedAfterSigning { .. }
            | Mistake::LineEndsConvertedAfterSigning { .. }
            | Mistake::CurlDataFileRead { .. } => Part::Body,
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

    /// What happened, as the end of a sentence: "the client ..." for a mistake made while
    /// signing, "the request was signed, then changed: ..." for a change after signing
    /// ([`Mistake::after_signing`]). It describes; it does not tell anyone what to do.
    pub fn explanation(&self) -> &'static str {
        match self {
            Mistake::QuestionMarkBeforeQuery => {
                "signed a '?' before the query on the query line (`?test=1` for the query `test=1`)"
            }
            Mistake::EmptyQueryLineOmitted => {
                "signed no query line, where a request without a query has an empty one (the path line followed by two LFs)"
            }
            Mistake::TrailingSlashTrimmed => "signed the path without its trailing '/'",
            Mistake::CrlfLineEndings => "signed the lines joined with CRLF, not a single LF",
            Mistake::TrailingLfAfterBody => {
                "signed a LF after the body that the body sent does not end with (added while signing, or removed from the body after signing)"
            }
            Mistake::LowercaseHeaderNames => {
                "signed the header names in lower case (the text has X-SVC-TIMESTAMP=..., Content-Type=...)"
            }
            Mistake::LowercaseMethod => "signed the method in lower case",
            Mistake::BodyReserialisedCompact => {
                "signed the body re-serialised compactly, not the bytes it sent"
            }
            Mistake::BodyReserialisedPretty => {
                "signed the body pretty-printed, not the bytes it sent"
            }
            Mistake::BodySortedKeys => "signed the body with its keys sorted, not the bytes it sent",
            Mistake::KeyWhitespaceTrimmed => "signed with the REST key trimmed of its whitespace",
            Mistake::KeyWithTrailingNewline => {
                "signed with the REST key followed by a newline, as a key read from a file ends"
            }
            Mistake::PublicApiKeyAsSecret => "signed with the public API key, not the REST key",
            Mistake::HexInsteadOfBase64 => "sent the HMAC as hex, not base64",
            Mistake::UrlSafeBase64 => "sent the HMAC in URL-safe base64 ('-' and '_'), not standard base64",
            Mistake::Base64PaddingMissing => "sent base64 without its '=' padding",
            Mistake::Sha256InsteadOfSha384 => "used HMAC-SHA256, not HMAC-SHA384",
            Mistake::HeaderLinesReordered { .. } => {
                "signed the header lines in another order than TIMESTAMP, APIKEY, AUTH-ALGO, Content-Type"
            }
            Mistake::EmptyBodySigned => "signed an empty body and sent one",
            Mistake::BodyUnicodeEscaped => {
                "signed the body's non-ASCII characters as \\u escapes and sent them as UTF-8, or the reverse"
            }
            Mistake::BodySlashesEscaped => {
                "signed the body's '/' as '\\/' (as PHP's json_encode writes it) and sent it unescaped, or the reverse"
            }
            Mistake::QueryPercentDecoded { .. } => "signed the query percent-decoded, not as sent",
            Mistake::QueryParamsSorted => "signed the query parameters sorted, not in the order sent",
            Mistake::FullUrlAsPath { .. } => "signed the full URL on the path line, not the path alone",
            Mistake::PathPercentDecoded => "signed the path percent-decoded, not as sent",
            Mistake::TimestampFormDiffers { .. } => {
                "signed the same instant in another form than the text of the timestamp header it sent"
            }
            Mistake::TimestampDiffers { .. } => {
                "signed another instant than the timestamp header it sent, as when the clock is read twice"
            }
            Mistake::ContentTypeDiffers { .. } => {
                "signed another Content-Type value than the one it sent"
            }
            Mistake::HeaderPrefixDiffers { .. } => {
                "signed the vendor header names with another prefix than the one it sent"
            }
            Mistake::KeyQuoted => {
                "signed with the REST key inside its quotes, or without the quotes it was given with"
            }
            Mistake::KeyBase64Decoded => {
                "signed with the bytes the REST key decodes to as base64, not the key's text"
            }
            Mistake::OtherAccountKey { .. } => {
                "signed with the REST key of another account than the API key it sent"
            }
            Mistake::QueryAddedAfterSigning { .. } => "query parameters were added to the URL after signing",
            Mistake::QueryRemovedAfterSigning { .. } => "the query was removed from the URL after signing",
            Mistake::LfAddedAfterSigning { .. } => "a LF was appended to the body after signing",
            Mistake::BodyReserialisedAfterSigning { .. } => {
                "the body was re-serialised after signing (the same JSON, written another way)"
            }
            Mistake::LineEndsConvertedAfterSigning { .. } => {
                "the body's line ends were converted after signing"
            }
            Mistake::CurlDataFileRead { .. } => {
                "curl read the body with -d @file, which drops the file's CR and LF bytes, so the body sent lacks the line ends that were signed"
            }
        }
    }

    /// True for a change made to the request after it was signed (named "the request was
    /// signed, then changed: ...", docs/diagnosis.md D8).
    pub fn after_signing(&self) -> bool {
        matches!(
            self,
            Mistake::QueryAddedAfterSigning { .. }
                | Mistake::QueryRemovedAfterSigning { .. }
                | Mistake::LfAddedAfterSigning { .. }
                | Mistake::BodyReserialisedAfterSigning { .. }
                | Mistake::LineEndsConvertedAfterSigning { .. }
                | Mistake::CurlDataFileRead { .. }
        )
    }

    /// How much a mistake rewrites, for choosing between explanations that change as many
    /// bytes (docs/diagnosis.md D1, "the simplest explanation wins"): a character added or
    /// dropped before a value rewritten, before a whole body rewritten. Lower is simpler.
    pub fn rewrite_rank(&self) -> u8 {
        match self {
            Mistake::HexInsteadOfBase64
            | Mistake::UrlSafeBase64
            | Mistake::Base64PaddingMissing
            | Mistake::Sha256InsteadOfSha384 => 0,
            Mistake::TrailingLfAfterBody
            | Mistake::LfAddedAfterSigning { .. }
            | Mistake::QuestionMarkBeforeQuery
            | Mistake::TrailingSlashTrimmed
            | Mistake::EmptyQueryLineOmitted => 1,
            Mistake::CurlDataFileRead { .. } | Mistake::LineEndsConvertedAfterSigning { .. } => 2,
            Mistake::BodyReserialisedCompact | Mistake::BodyReserialisedPretty => 4,
            Mistake::BodySortedKeys => 5,
            Mistake::BodyReserialisedAfterSigning { .. } => 6,
            _ => 3,
        }
    }

    /// The whole sentence: "the client ..." or "the request was signed, then changed: ...".
    pub fn sentence(&self) -> String {
        if self.after_signing() {
            format!("the request was signed, then changed: {}", self.detail())
        } else {
            format!("the client {}", self.detail())
        }
    }

    /// The explanation with its specifics (e.g. the order the header lines were signed in).
    pub fn detail(&self) -> String {
        match self {
            Mistake::HeaderLinesReordered { order } => {
                const NAMES: [&str; 4] = ["TIMESTAMP", "APIKEY", "AUTH-ALGO", "Content-Type"];
                let got: Vec<&str> = order.iter().map(|&i| NAMES[i as usize]).collect();
                format!(
                    "signed the header lines in another order: {}, where the text has TIMESTAMP, APIKEY, AUTH-ALGO, Content-Type",
                    got.join(", ")
                )
            }
            Mistake::TimestampFormDiffers { signed } => format!(
                "signed the same instant in another form ({signed}) than the text of the timestamp header it sent"
            ),
            Mistake::TimestampDiffers { offset_ms } => {
                let dir = if *offset_ms > 0 { "after" } else { "before" };
                let abs = offset_ms.unsigned_abs();
                format!(
                    "signed a time {}.{:03} s {dir} the timestamp header it sent, as when the clock is read twice",
                    abs / 1000,
                    abs % 1000
                )
            }
            Mistake::ContentTypeDiffers { signed } => {
                format!("signed the Content-Type \"{signed}\" but sent another value")
            }
            Mistake::HeaderPrefixDiffers { signed, sent } => {
                format!("signed the header names with the prefix X-{signed}- but sent X-{sent}-")
            }
            Mistake::OtherAccountKey { api_key } => format!(
                "signed with the REST key of the account {api_key}, not that of the API key it sent"
            ),
            Mistake::QueryAddedAfterSigning { added } => format!(
                "the query parameters `{added}` were added to the URL after signing (they are not in the signed query line)"
            ),
            Mistake::QueryRemovedAfterSigning { removed } => format!(
                "the query `{removed}` was removed from the URL after signing (it is in the signed query line)"
            ),
            Mistake::LfAddedAfterSigning { crlf } => format!(
                "{} was appended to the body after signing (the body sent ends with it, the signed one does not)",
                if *crlf { "a CRLF" } else { "a LF" }
            ),
            Mistake::BodyReserialisedAfterSigning { signed } => format!(
                "the body was re-serialised after signing: the signed body is the same JSON written {signed}"
            ),
            Mistake::LineEndsConvertedAfterSigning { to_crlf } => format!(
                "the body's line ends were converted after signing: {}",
                if *to_crlf {
                    "the signed body has LF where the body sent has CRLF"
                } else {
                    "the signed body has CRLF where the body sent has LF"
                }
            ),
            Mistake::CurlDataFileRead { file } => format!(
                "curl read the body with -d @file, which drops the file's CR and LF bytes: the signed body is {file}, the body sent is that without its line ends"
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
