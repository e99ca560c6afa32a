//! "Signature does not match": which known client mistake reproduces the provided signature.
//!
//! [`diagnose`] rebuilds the signing text the verifier expects from the received request, then
//! signs variants of it, one per known client mistake (and a few combinations of a text mistake
//! with an encoding mistake), and reports every mistake whose variant reproduces the provided
//! signature. Nothing is guessed: a mistake is named only when its signature equals the one the
//! client sent. When nothing matches, [`Diagnosis::report`] shows the expected text with every
//! invisible character made visible, so it can be compared with the client's.

use std::fmt;

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::{Sha256, Sha384};

use super::received::ReceivedRequest;
use super::request::{HeaderNames, SignableRequest, AUTHORIZATION_HEADER, CONTENT_TYPE_HEADER};
use super::secret::Secret;
use super::visible::visible_lines;

/// A known client mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mistake {
    /// Signed `?test=1` instead of `test=1` on the query line.
    QuestionMarkBeforeQuery,
    /// Left out the (empty) query line, so the path line is followed by one LF, not two.
    EmptyQueryLineOmitted,
    /// Signed the path without its trailing `/`.
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
        }
    }

    /// What the client did, as the end of a sentence starting "the client ...".
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
            Mistake::KeyWhitespaceTrimmed => "signed with the REST key trimmed of whitespace",
            Mistake::KeyWithTrailingNewline => {
                "signed with the REST key followed by a newline (as read from a file)"
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
            other => other.explanation().to_string(),
        }
    }
}

impl fmt::Display for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail())
    }
}

/// The outcome of a diagnosis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnosis {
    /// The exact text the verifier signs for this request.
    pub expected_canonical: Vec<u8>,
    /// The signature of that text with the given key.
    pub expected_signature: String,
    /// The signature the client sent.
    pub provided_signature: String,
    /// Every mistake that, alone or with an encoding mistake, reproduces the provided signature.
    pub findings: Vec<Mistake>,
}

impl Diagnosis {
    /// True when the provided signature is the expected one.
    pub fn signature_matches(&self) -> bool {
        self.expected_signature == self.provided_signature
    }

    /// One sentence.
    pub fn summary(&self) -> String {
        if self.signature_matches() {
            return "the provided signature is the expected one; nothing to diagnose".to_string();
        }
        if self.findings.is_empty() {
            return "no known client mistake reproduces the provided signature; compare the client's signing text with the expected one".to_string();
        }
        let parts: Vec<String> = self.findings.iter().map(|m| m.detail()).collect();
        format!("the client {}", parts.join(", and "))
    }

    /// A multi-line report: the summary, the signatures, each finding, and when nothing matched
    /// the expected signing text with invisible characters made visible.
    pub fn report(&self) -> String {
        format!("{}\n{}", self.summary(), self.details())
    }

    /// The report without its summary line.
    pub fn details(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "expected signature: {}\n",
            self.expected_signature
        ));
        out.push_str(&format!(
            "provided signature: {}\n",
            self.provided_signature
        ));
        for m in &self.findings {
            out.push_str(&format!("  {}: the client {}\n", m.code(), m.detail()));
        }
        if self.findings.is_empty() && !self.signature_matches() {
            out.push_str("expected signing text (\\n marks each LF; nothing follows the body):\n");
            for line in visible_lines(&self.expected_canonical) {
                out.push_str("  ");
                out.push_str(&line);
                out.push('\n');
            }
        }
        out
    }
}

#[derive(Clone, Copy)]
enum Hash {
    Sha384,
    Sha256,
}

fn mac(hash: Hash, key: &[u8], parts: &[&[u8]]) -> Vec<u8> {
    match hash {
        Hash::Sha384 => {
            let mut m = Hmac::<Sha384>::new_from_slice(key).expect("HMAC accepts any key length");
            parts.iter().for_each(|p| m.update(p));
            m.finalize().into_bytes().to_vec()
        }
        Hash::Sha256 => {
            let mut m = Hmac::<Sha256>::new_from_slice(key).expect("HMAC accepts any key length");
            parts.iter().for_each(|p| m.update(p));
            m.finalize().into_bytes().to_vec()
        }
    }
}

/// The encodings a client may have used, with the mistake each one is (None: the right one).
fn encoding_of(digest: &[u8], provided: &str) -> Option<Option<Mistake>> {
    if STANDARD.encode(digest) == provided {
        return Some(None);
    }
    if STANDARD_NO_PAD.encode(digest) == provided {
        return Some(Some(Mistake::Base64PaddingMissing));
    }
    if URL_SAFE.encode(digest) == provided || URL_SAFE_NO_PAD.encode(digest) == provided {
        return Some(Some(Mistake::UrlSafeBase64));
    }
    if hex::encode(digest).eq_ignore_ascii_case(provided) {
        return Some(Some(Mistake::HexInsteadOfBase64));
    }
    None
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum QueryForm {
    AsSent,
    WithQuestionMark,
    Omitted,
}

/// How to build the head of one variant.
#[derive(Clone, Copy)]
struct HeadShape<'s> {
    lower_method: bool,
    path: &'s str,
    query: QueryForm,
    lower_names: bool,
    order: [u8; 4],
    eol: &'static str,
}

struct Fields {
    method: String,
    path: String,
    query: String,
    names: [String; 4],
    values: [String; 4],
}

impl Fields {
    fn head(&self, s: &HeadShape<'_>) -> Vec<u8> {
        let mut h = String::with_capacity(256);
        let method = if s.lower_method {
            self.method.to_ascii_lowercase()
        } else {
            self.method.to_ascii_uppercase()
        };
        h.push_str(&method);
        h.push_str(s.eol);
        h.push_str(s.path);
        h.push_str(s.eol);
        match s.query {
            QueryForm::AsSent => {
                h.push_str(&self.query);
                h.push_str(s.eol);
            }
            QueryForm::WithQuestionMark => {
                h.push('?');
                h.push_str(&self.query);
                h.push_str(s.eol);
            }
            QueryForm::Omitted => {}
        }
        for &i in &s.order {
            let name = &self.names[i as usize];
            if s.lower_names {
                h.push_str(&name.to_ascii_lowercase());
            } else {
                h.push_str(name);
            }
            h.push('=');
            h.push_str(&self.values[i as usize]);
            h.push_str(s.eol);
        }
        h.into_bytes()
    }
}

/// Object keys sorted recursively.
fn sorted(v: &serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => {
            let mut entries: Vec<(&String, &serde_json::Value)> = m.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            serde_json::Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), sorted(v)))
                    .collect(),
            )
        }
        serde_json::Value::Array(a) => serde_json::Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

fn pretty_with(v: &serde_json::Value, indent: &[u8]) -> Vec<u8> {
    use serde::Serialize;
    let mut out = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(indent);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    v.serialize(&mut ser)
        .expect("serialising a Value to memory cannot fail");
    out
}

/// Python's `json.dumps` default: `", "` and `": "` separators, everything on one line.
fn python_style(v: &serde_json::Value) -> Vec<u8> {
    use serde::Serialize;
    struct Spaced;
    impl serde_json::ser::Formatter for Spaced {
        fn begin_array_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            if first {
                Ok(())
            } else {
                w.write_all(b", ")
            }
        }
        fn begin_object_key<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            if first {
                Ok(())
            } else {
                w.write_all(b", ")
            }
        }
        fn begin_object_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
        ) -> std::io::Result<()> {
            w.write_all(b": ")
        }
    }
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Spaced);
    v.serialize(&mut ser)
        .expect("serialising a Value to memory cannot fail");
    out
}

/// Re-serialisations of a JSON body a client library may have signed, each with its mistakes.
fn body_variants(body: &[u8]) -> Vec<(Vec<Mistake>, Vec<u8>)> {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else {
        return Vec::new();
    };
    let s = sorted(&value);
    let compact = |v: &serde_json::Value| serde_json::to_vec(v).expect("in-memory serialisation");
    let c = Mistake::BodyReserialisedCompact;
    let p = Mistake::BodyReserialisedPretty;
    let k = Mistake::BodySortedKeys;
    let mut out: Vec<(Vec<Mistake>, Vec<u8>)> = vec![
        (vec![c], compact(&value)),
        (vec![c], python_style(&value)),
        (vec![p], pretty_with(&value, b"  ")),
        (vec![p], pretty_with(&value, b"    ")),
        (vec![k], compact(&s)),
        (vec![k], python_style(&s)),
        (vec![k, p], pretty_with(&s, b"  ")),
        (vec![k, p], pretty_with(&s, b"    ")),
    ];
    // A variant identical to the body is not a mistake; identical variants are tried once.
    let mut seen: Vec<Vec<u8>> = vec![body.to_vec()];
    out.retain(|(_, b)| {
        if seen.contains(b) {
            false
        } else {
            seen.push(b.clone());
            true
        }
    });
    out
}

/// All orders of four items except the identity.
fn other_orders() -> Vec<[u8; 4]> {
    let mut out = Vec::with_capacity(23);
    for a in 0..4u8 {
        for b in 0..4u8 {
            for c in 0..4u8 {
                for d in 0..4u8 {
                    let o = [a, b, c, d];
                    let distinct = (0..4).all(|i| (0..4).all(|j| i == j || o[i] != o[j]));
                    if distinct && o != [0, 1, 2, 3] {
                        out.push(o);
                    }
                }
            }
        }
    }
    out
}

/// Recompute the expected signing text of a received request and find the client mistakes that
/// reproduce `provided_signature` (the token after `Bearer `). Header names are read
/// case-insensitively; a missing header counts as an empty value.
pub fn diagnose(
    req: &ReceivedRequest,
    header_prefix: &str,
    key: &Secret,
    provided_signature: &str,
) -> Diagnosis {
    let names = HeaderNames::for_prefix(header_prefix);
    let fields = Fields {
        method: req.method.clone(),
        path: req.path.clone(),
        query: req.query.clone(),
        values: [
            req.header_text(&names.timestamp),
            req.header_text(&names.api_key),
            req.header_text(&names.auth_algo),
            req.header_text(CONTENT_TYPE_HEADER),
        ],
        names: [
            names.timestamp,
            names.api_key,
            names.auth_algo,
            CONTENT_TYPE_HEADER.to_string(),
        ],
    };
    let body: &[u8] = &req.body;
    let signable = SignableRequest {
        method: &fields.method,
        path: &fields.path,
        query: &fields.query,
        header_prefix,
        timestamp: &fields.values[0],
        api_key: &fields.values[1],
        auth_algo: &fields.values[2],
        content_type: &fields.values[3],
        body,
    };
    let canonical = signable.canonical();
    let key_bytes = key.expose().as_bytes();
    let expected_digest = mac(Hash::Sha384, key_bytes, &canonical.parts());
    let provided = provided_signature.trim();

    let base = HeadShape {
        lower_method: false,
        path: &fields.path,
        query: QueryForm::AsSent,
        lower_names: false,
        order: [0, 1, 2, 3],
        eol: "\n",
    };
    let normal_head = fields.head(&base);
    debug_assert_eq!(normal_head, canonical.head().as_bytes());

    let mut findings: Vec<Mistake> = Vec::new();
    let mut try_variant = |mistakes: &[Mistake], hash: Hash, key: &[u8], parts: &[&[u8]]| {
        let digest = mac(hash, key, parts);
        if let Some(enc) = encoding_of(&digest, provided) {
            for m in mistakes.iter().copied().chain(enc) {
                if !findings.contains(&m) {
                    findings.push(m);
                }
            }
        }
    };

    // Encoding mistakes alone (right text, right key, wrong encoding).
    if let Some(Some(enc)) = encoding_of(&expected_digest, provided) {
        try_variant(&[enc], Hash::Sha384, key_bytes, &canonical.parts());
    }

    // Text mistakes in the head.
    let mut heads: Vec<(Mistake, Vec<u8>)> = Vec::new();
    heads.push((
        Mistake::QuestionMarkBeforeQuery,
        fields.head(&HeadShape {
            query: QueryForm::WithQuestionMark,
            ..base
        }),
    ));
    if fields.query.is_empty() {
        heads.push((
            Mistake::EmptyQueryLineOmitted,
            fields.head(&HeadShape {
                query: QueryForm::Omitted,
                ..base
            }),
        ));
    }
    let trimmed = fields.path.trim_end_matches('/');
    if trimmed.len() != fields.path.len() {
        heads.push((
            Mistake::TrailingSlashTrimmed,
            fields.head(&HeadShape {
                path: trimmed,
                ..base
            }),
        ));
    }
    heads.push((
        Mistake::CrlfLineEndings,
        fields.head(&HeadShape {
            eol: "\r\n",
            ..base
        }),
    ));
    heads.push((
        Mistake::LowercaseHeaderNames,
        fields.head(&HeadShape {
            lower_names: true,
            ..base
        }),
    ));
    if fields.method.to_ascii_lowercase() != fields.method.to_ascii_uppercase() {
        heads.push((
            Mistake::LowercaseMethod,
            fields.head(&HeadShape {
                lower_method: true,
                ..base
            }),
        ));
    }
    for order in other_orders() {
        heads.push((
            Mistake::HeaderLinesReordered { order },
            fields.head(&HeadShape { order, ..base }),
        ));
    }
    for (m, head) in &heads {
        try_variant(&[*m], Hash::Sha384, key_bytes, &[head, body]);
    }

    // A LF after the body.
    try_variant(
        &[Mistake::TrailingLfAfterBody],
        Hash::Sha384,
        key_bytes,
        &[&normal_head, body, b"\n"],
    );

    // Re-serialised bodies.
    for (ms, alt) in body_variants(body) {
        try_variant(&ms, Hash::Sha384, key_bytes, &[&normal_head, &alt]);
    }

    // Wrong keys.
    let k = key.expose();
    let trimmed_key = k.trim();
    if trimmed_key.len() != k.len() {
        try_variant(
            &[Mistake::KeyWhitespaceTrimmed],
            Hash::Sha384,
            trimmed_key.as_bytes(),
            &canonical.parts(),
        );
    }
    for nl in ["\n", "\r\n"] {
        let with_nl = format!("{k}{nl}");
        try_variant(
            &[Mistake::KeyWithTrailingNewline],
            Hash::Sha384,
            with_nl.as_bytes(),
            &canonical.parts(),
        );
    }
    let api_key = &fields.values[1];
    if !api_key.is_empty() && api_key != k {
        try_variant(
            &[Mistake::PublicApiKeyAsSecret],
            Hash::Sha384,
            api_key.as_bytes(),
            &canonical.parts(),
        );
    }

    // The wrong hash function.
    try_variant(
        &[Mistake::Sha256InsteadOfSha384],
        Hash::Sha256,
        key_bytes,
        &canonical.parts(),
    );

    // When the provided signature is the expected one, no mistake is reported.
    let expected_signature = STANDARD.encode(expected_digest);
    if provided == expected_signature {
        findings.clear();
    }
    Diagnosis {
        expected_canonical: canonical.to_bytes(),
        expected_signature,
        provided_signature: provided.to_string(),
        findings,
    }
}

/// The token of an `Authorization: Bearer <token>` header of a received request, if present
/// (convenience for callers that diagnose a captured request).
pub fn provided_signature(req: &ReceivedRequest) -> Option<String> {
    let v = req.header(AUTHORIZATION_HEADER)?;
    let text = std::str::from_utf8(v).ok()?;
    let (scheme, token) = text.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("Bearer")
        .then(|| token.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "rest-key-0123";
    const API: &str = "pub-key";
    const TS: &str = "2026-11-22T10:00:00.000Z";
    const BODY: &[u8] = br#"[{"b":1,"a":[1,2],"c":{"z":true,"y":null}}]"#;

    /// The request as sent (what the verifier sees).
    fn sent(path: &str, query: &str, body: &[u8]) -> ReceivedRequest {
        ReceivedRequest {
            method: "PUT".into(),
            path: path.into(),
            query: query.into(),
            headers: vec![
                ("X-SVC-TIMESTAMP".into(), TS.into()),
                ("X-SVC-APIKEY".into(), API.into()),
                ("X-SVC-AUTH-ALGO".into(), b"HmacSHA384".to_vec()),
                ("Content-Type".into(), b"application/json".to_vec()),
            ],
            body: bytes::Bytes::copy_from_slice(body),
        }
    }

    fn canonical_parts(path: &str, query: &str) -> (String, String) {
        let head = format!("PUT\n{path}\n{query}\n");
        let headers = format!(
            "X-SVC-TIMESTAMP={TS}\nX-SVC-APIKEY={API}\nX-SVC-AUTH-ALGO=HmacSHA384\nContent-Type=application/json\n"
        );
        (head, headers)
    }

    fn b64_384(key: &str, text: &[u8]) -> String {
        STANDARD.encode(mac(Hash::Sha384, key.as_bytes(), &[text]))
    }

    /// Diagnose a request whose client signed `client_text` with `client_key`.
    fn findings(req: &ReceivedRequest, provided: &str) -> Vec<Mistake> {
        let d = diagnose(req, "SVC", &Secret::new(KEY), provided);
        assert!(!d.signature_matches());
        d.findings
    }

    fn assert_named(found: Vec<Mistake>, want: Mistake) {
        assert!(found.contains(&want), "expected {want:?}, found {found:?}");
    }

    fn text(path: &str, query: &str, body: &[u8]) -> Vec<u8> {
        let (a, b) = canonical_parts(path, query);
        [a.as_bytes(), b.as_bytes(), body].concat()
    }

    #[test]
    fn the_right_signature_has_no_findings() {
        let req = sent("/v2/batch", "", BODY);
        let good = b64_384(KEY, &text("/v2/batch", "", BODY));
        let d = diagnose(&req, "SVC", &Secret::new(KEY), &good);
        assert!(d.signature_matches());
        assert!(d.findings.is_empty());
        assert_eq!(d.expected_canonical, text("/v2/batch", "", BODY));
    }

    #[test]
    fn question_mark_before_query() {
        let req = sent("/v2/batch", "test=1", BODY);
        let sig = b64_384(KEY, &text("/v2/batch", "?test=1", BODY));
        assert_eq!(findings(&req, &sig), [Mistake::QuestionMarkBeforeQuery]);
    }

    #[test]
    fn empty_query_line_omitted() {
        let req = sent("/v2/batch", "", BODY);
        let mut t = b"PUT\n/v2/batch\n".to_vec();
        t.extend_from_slice(canonical_parts("", "").1.as_bytes());
        t.extend_from_slice(BODY);
        assert_eq!(
            findings(&req, &b64_384(KEY, &t)),
            [Mistake::EmptyQueryLineOmitted]
        );
    }

    #[test]
    fn trailing_slash_trimmed() {
        let req = sent("/v2/batch/", "", BODY);
        let sig = b64_384(KEY, &text("/v2/batch", "", BODY));
        assert_eq!(findings(&req, &sig), [Mistake::TrailingSlashTrimmed]);
    }

    #[test]
    fn crlf_line_endings() {
        let req = sent("/v2/batch", "a=1", BODY);
        let t = String::from_utf8(text("/v2/batch", "a=1", b""))
            .unwrap()
            .replace('\n', "\r\n");
        let sig = b64_384(KEY, &[t.as_bytes(), BODY].concat());
        assert_eq!(findings(&req, &sig), [Mistake::CrlfLineEndings]);
    }

    #[test]
    fn trailing_lf_after_body() {
        let req = sent("/v2/batch", "", BODY);
        let sig = b64_384(KEY, &[text("/v2/batch", "", BODY), b"\n".to_vec()].concat());
        assert_eq!(findings(&req, &sig), [Mistake::TrailingLfAfterBody]);
    }

    #[test]
    fn lowercase_header_names() {
        let req = sent("/v2/batch", "", BODY);
        let (a, b) = canonical_parts("/v2/batch", "");
        let lower = b
            .replace("X-SVC-", "x-svc-")
            .replace("TIMESTAMP", "timestamp")
            .replace("APIKEY", "apikey")
            .replace("AUTH-ALGO", "auth-algo")
            .replace("Content-Type", "content-type");
        let sig = b64_384(KEY, &[a.as_bytes(), lower.as_bytes(), BODY].concat());
        assert_eq!(findings(&req, &sig), [Mistake::LowercaseHeaderNames]);
    }

    #[test]
    fn lowercase_method() {
        let req = sent("/v2/batch", "", BODY);
        let mut t = text("/v2/batch", "", BODY);
        t[..3].copy_from_slice(b"put");
        assert_eq!(
            findings(&req, &b64_384(KEY, &t)),
            [Mistake::LowercaseMethod]
        );
    }

    #[test]
    fn body_reserialised_compact_pretty_and_sorted() {
        // Sent with spaces, signed compact.
        let spaced = br#"[ {"b": 1, "a": [1, 2]} ]"#;
        let req = sent("/v2/batch", "", spaced);
        let sig = b64_384(KEY, &text("/v2/batch", "", br#"[{"b":1,"a":[1,2]}]"#));
        assert_eq!(findings(&req, &sig), [Mistake::BodyReserialisedCompact]);

        // Sent compact, signed pretty (2 spaces, as serde_json / JSON.stringify(v, null, 2)).
        let req = sent("/v2/batch", "", BODY);
        let pretty = b"[\n  {\n    \"b\": 1,\n    \"a\": [\n      1,\n      2\n    ],\n    \"c\": {\n      \"z\": true,\n      \"y\": null\n    }\n  }\n]";
        let sig = b64_384(KEY, &text("/v2/batch", "", pretty));
        assert_eq!(findings(&req, &sig), [Mistake::BodyReserialisedPretty]);

        // Sent compact, signed with sorted keys.
        let sorted = br#"[{"a":[1,2],"b":1,"c":{"y":null,"z":true}}]"#;
        let sig = b64_384(KEY, &text("/v2/batch", "", sorted));
        assert_eq!(findings(&req, &sig), [Mistake::BodySortedKeys]);

        // Python's json.dumps default separators count as a compact re-serialisation.
        let python = br#"[{"b": 1, "a": [1, 2], "c": {"z": true, "y": null}}]"#;
        let sig = b64_384(KEY, &text("/v2/batch", "", python));
        assert_eq!(findings(&req, &sig), [Mistake::BodyReserialisedCompact]);
    }

    #[test]
    fn trimmed_key_and_key_with_newline() {
        let req = sent("/v2/batch", "", BODY);
        let t = text("/v2/batch", "", BODY);
        let padded = Secret::new(" rest-key ");
        let sig = b64_384("rest-key", &t);
        let d = diagnose(&req, "SVC", &padded, &sig);
        assert_eq!(d.findings, [Mistake::KeyWhitespaceTrimmed]);

        let sig = b64_384(&format!("{KEY}\n"), &t);
        assert_eq!(findings(&req, &sig), [Mistake::KeyWithTrailingNewline]);
        let sig = b64_384(&format!("{KEY}\r\n"), &t);
        assert_eq!(findings(&req, &sig), [Mistake::KeyWithTrailingNewline]);
    }

    #[test]
    fn public_api_key_as_secret() {
        let req = sent("/v2/batch", "", BODY);
        let sig = b64_384(API, &text("/v2/batch", "", BODY));
        assert_eq!(findings(&req, &sig), [Mistake::PublicApiKeyAsSecret]);
    }

    #[test]
    fn encodings_hex_url_safe_and_no_padding() {
        let req = sent("/v2/batch", "", BODY);
        let digest = mac(
            Hash::Sha384,
            KEY.as_bytes(),
            &[&text("/v2/batch", "", BODY)],
        );
        assert_eq!(
            findings(&req, &hex::encode(&digest)),
            [Mistake::HexInsteadOfBase64]
        );
        assert_eq!(
            findings(&req, &hex::encode_upper(&digest)),
            [Mistake::HexInsteadOfBase64]
        );
        // Find a digest whose base64 has '+' or '/', so URL-safe differs from standard.
        let mut ts_req = req.clone();
        for i in 0..200 {
            let ts = format!("2026-11-22T10:00:{:02}.{:03}Z", i % 60, i);
            ts_req.headers[0].1 = ts.clone().into_bytes();
            let (a, _) = canonical_parts("/v2/batch", "");
            let t = format!(
                "{a}X-SVC-TIMESTAMP={ts}\nX-SVC-APIKEY={API}\nX-SVC-AUTH-ALGO=HmacSHA384\nContent-Type=application/json\n"
            );
            let d = mac(Hash::Sha384, KEY.as_bytes(), &[t.as_bytes(), BODY]);
            let std = STANDARD.encode(&d);
            if std.contains('+') || std.contains('/') {
                assert_eq!(
                    findings(&ts_req, &URL_SAFE.encode(&d)),
                    [Mistake::UrlSafeBase64]
                );
                return;
            }
        }
        panic!("no digest with + or / found");
    }

    #[test]
    fn sha256_instead_of_sha384() {
        let req = sent("/v2/batch", "", BODY);
        let d = mac(
            Hash::Sha256,
            KEY.as_bytes(),
            &[&text("/v2/batch", "", BODY)],
        );
        assert_eq!(
            findings(&req, &STANDARD.encode(&d)),
            [Mistake::Sha256InsteadOfSha384]
        );
        // Combined with hex, both are named.
        let f = findings(&req, &hex::encode(&d));
        assert!(
            f.contains(&Mistake::Sha256InsteadOfSha384) && f.contains(&Mistake::HexInsteadOfBase64)
        );
    }

    #[test]
    fn header_lines_in_another_order() {
        let req = sent("/v2/batch", "", BODY);
        let (a, _) = canonical_parts("/v2/batch", "");
        let t = format!(
            "{a}X-SVC-APIKEY={API}\nX-SVC-TIMESTAMP={TS}\nX-SVC-AUTH-ALGO=HmacSHA384\nContent-Type=application/json\n"
        );
        let sig = b64_384(KEY, &[t.as_bytes(), BODY].concat());
        let f = findings(&req, &sig);
        assert_eq!(
            f,
            [Mistake::HeaderLinesReordered {
                order: [1, 0, 2, 3]
            }]
        );
        assert!(f[0]
            .detail()
            .contains("signed APIKEY, TIMESTAMP, AUTH-ALGO, Content-Type"));
    }

    #[test]
    fn a_mistake_combined_with_an_encoding_names_both() {
        let req = sent("/v2/batch/", "", BODY);
        let d = mac(
            Hash::Sha384,
            KEY.as_bytes(),
            &[&text("/v2/batch", "", BODY)],
        );
        let f = findings(&req, &hex::encode(d));
        assert_named(f.clone(), Mistake::TrailingSlashTrimmed);
        assert_named(f, Mistake::HexInsteadOfBase64);
    }

    #[test]
    fn nothing_matches_says_so_and_shows_the_text() {
        let req = sent("/v2/batch", "", b"[]  ");
        let d = diagnose(&req, "SVC", &Secret::new(KEY), "AAAA");
        assert!(d.findings.is_empty());
        assert!(d.summary().starts_with("no known client mistake"));
        let r = d.report();
        assert!(r.contains("PUT\\n"), "{r}");
        assert!(r.contains("/v2/batch\\n\n  \\n"), "{r}");
        assert!(r.contains("[]··"), "{r}");
        assert!(!r.contains(KEY));
    }

    #[test]
    fn summary_names_the_mistake() {
        let req = sent("/v2/batch", "test=1", BODY);
        let sig = b64_384(KEY, &text("/v2/batch", "?test=1", BODY));
        let d = diagnose(&req, "SVC", &Secret::new(KEY), &sig);
        assert!(
            d.summary().contains("put a '?' before the query"),
            "{}",
            d.summary()
        );
    }
}
