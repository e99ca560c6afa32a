//! Signing forms: the ways a client can write the path and query lines of the signing text.
//!
//! The service's documented form ([`SigningForm::Standard`], `docs/signing.md`) signs the path
//! and the query exactly as sent. The vendor's own PHP SDK ([`SigningForm::PhpSdk`]) writes
//! those two lines differently, and only those two:
//!
//! - the path line has trailing `/` and spaces trimmed (`/v2/batch/` signs as `/v2/batch`);
//! - the query line is `?` + the query trimmed of whitespace when there is a query, and empty
//!   otherwise (PHP treats the query `0` as none, so it too gives an empty line).
//!
//! Everything else (method, the four header lines, the body) is identical. A form is a pure
//! transformation of the path and query lines; the rest of the core signs the result as usual.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use super::canonical::{CanonicalText, LineLabel};
use super::received::ReceivedRequest;
use super::request::SignableRequest;
use super::secret::Secret;
use super::sign::{digest_canonical, SignError, Signed};

/// How the path and query lines of the signing text are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SigningForm {
    /// The documented form: path and query signed exactly as sent.
    #[default]
    Standard,
    /// The vendor's PHP SDK: `?` before a (trimmed) query, trailing `/` and spaces trimmed from
    /// the path.
    PhpSdk,
}

/// What PHP's `trim()` removes: space, tab, LF, CR, NUL and vertical tab.
pub(crate) const PHP_TRIM: &[char] = &[' ', '\t', '\n', '\r', '\0', '\x0B'];

impl SigningForm {
    /// Every form, the standard one first.
    pub const ALL: [SigningForm; 2] = [SigningForm::Standard, SigningForm::PhpSdk];

    /// The name used on the command line and in files: `standard` or `php-sdk`.
    pub fn name(self) -> &'static str {
        match self {
            SigningForm::Standard => "standard",
            SigningForm::PhpSdk => "php-sdk",
        }
    }

    /// One sentence saying how this form signs, for diagnoses and warnings.
    pub fn description(self) -> &'static str {
        match self {
            SigningForm::Standard => {
                "signed in the documented form: path and query exactly as sent"
            }
            SigningForm::PhpSdk => {
                "signed as the vendor's PHP SDK signs: '?' before the query and the trailing '/' trimmed"
            }
        }
    }

    /// The path line this form signs for `path`.
    pub fn path_line(self, path: &str) -> Cow<'_, str> {
        match self {
            SigningForm::Standard => Cow::Borrowed(path),
            SigningForm::PhpSdk => Cow::Borrowed(path.trim_end_matches([' ', '/'])),
        }
    }

    /// The query line this form signs for `query` (given without its `?`).
    pub fn query_line(self, query: &str) -> Cow<'_, str> {
        match self {
            SigningForm::Standard => Cow::Borrowed(query),
            // PHP's `$uri->getQuery() ? ... : ''`: "" and "0" are both false.
            SigningForm::PhpSdk if query.is_empty() || query == "0" => Cow::Borrowed(""),
            SigningForm::PhpSdk => Cow::Owned(format!("?{}", query.trim_matches(PHP_TRIM))),
        }
    }

    /// Call `f` with `req` as this form signs it: the same request with the form's path and
    /// query lines. The signers that take a [`SignableRequest`] (the incremental signer of the
    /// workbench, the streaming signer of `signscope sign`) sign a form through this, so the
    /// lines are reshaped here, in one place, and the front ends only show what comes back.
    pub fn with_request<R>(
        self,
        req: &SignableRequest<'_>,
        f: impl FnOnce(&SignableRequest<'_>) -> R,
    ) -> R {
        let (path, query) = (self.path_line(req.path), self.query_line(req.query));
        f(&SignableRequest {
            path: &path,
            query: &query,
            ..*req
        })
    }

    /// The exact text this form signs for `req`.
    pub fn canonical<'a>(self, req: &SignableRequest<'a>) -> CanonicalText<'a> {
        match self {
            SigningForm::Standard => req.canonical(),
            SigningForm::PhpSdk => CanonicalText::with_path_and_query(
                req,
                &self.path_line(req.path),
                &self.query_line(req.query),
            ),
        }
    }

    /// Sign `req` in this form. The headers to send are the same in every form; only the
    /// signature differs.
    pub fn sign(self, req: &SignableRequest<'_>, key: &Secret) -> Result<Signed, SignError> {
        let canonical = self.canonical(req);
        let digest = digest_canonical(&canonical, key)?;
        Ok(Signed::new(digest, canonical))
    }

    /// The lines whose text differs from the standard form's for this request (none for the
    /// standard form itself, nor for a PHP SDK request with no query and no trailing `/`).
    pub fn differing_lines(self, path: &str, query: &str) -> Vec<LineLabel> {
        let mut out = Vec::new();
        if self.path_line(path) != path {
            out.push(LineLabel::Path);
        }
        if self.query_line(query) != query {
            out.push(LineLabel::Query);
        }
        out
    }

    /// What this form changes for this path and query, as short phrases (empty when the text
    /// is the standard one): "'?' before the query", "the trailing '/' trimmed".
    pub fn differences(self, path: &str, query: &str) -> Vec<&'static str> {
        self.differing_lines(path, query)
            .into_iter()
            .map(|label| match label {
                LineLabel::Path => "the trailing '/' trimmed",
                _ if query.is_empty() || query == "0" => "the query left out",
                _ => "'?' before the query",
            })
            .collect()
    }

    /// The warning on a request accepted in this form (the server with `--accept-form`,
    /// `verify --accept-form`; `docs/verification.md` rule V7).
    pub fn accepted_warning(self, path: &str, query: &str) -> String {
        format!(
            "accepted in the {} form ({}; here: {}); the documented form signs the path and query exactly as sent, which the real service may require",
            self.name(),
            self.description(),
            self.differences(path, query).join(", ")
        )
    }

    /// A copy of `req` whose standard signing text is this form's text for `req` (its path and
    /// query replaced by this form's lines), or `None` when the two texts are the same. The
    /// verifier checks the copy to accept a request signed in this form.
    pub fn as_standard(self, req: &ReceivedRequest) -> Option<ReceivedRequest> {
        let path = self.path_line(&req.path);
        let query = self.query_line(&req.query);
        if path == req.path && query == req.query {
            return None;
        }
        Some(ReceivedRequest {
            path: path.into_owned(),
            query: query.into_owned(),
            ..req.clone()
        })
    }
}

impl fmt::Display for SigningForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A form name that is neither `standard` nor `php-sdk`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown signing form {0:?}: use standard or php-sdk")]
pub struct UnknownForm(pub String);

impl FromStr for SigningForm {
    type Err = UnknownForm;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SigningForm::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownForm(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sign::hmac_sha384;

    const TS: &str = "2026-11-23T11:24:54+00:00";

    fn req<'a>(path: &'a str, query: &'a str) -> SignableRequest<'a> {
        let mut r = SignableRequest::new("put", path, query, TS, "klevu-123", b"[]");
        r.header_prefix = "KLEVU";
        r
    }

    fn text(form: SigningForm, path: &str, query: &str) -> String {
        form.canonical(&req(path, query)).to_string()
    }

    const TAIL: &str = "X-KLEVU-TIMESTAMP=2026-11-23T11:24:54+00:00\nX-KLEVU-APIKEY=klevu-123\nX-KLEVU-AUTH-ALGO=HmacSHA384\nContent-Type=application/json\n[]";

    #[test]
    fn php_form_puts_a_question_mark_before_the_query_and_trims_the_path() {
        assert_eq!(
            text(SigningForm::PhpSdk, "/v2/batch/", "test=1"),
            format!("PUT\n/v2/batch\n?test=1\n{TAIL}")
        );
        assert_eq!(
            text(SigningForm::Standard, "/v2/batch/", "test=1"),
            format!("PUT\n/v2/batch/\ntest=1\n{TAIL}")
        );
    }

    #[test]
    fn php_form_without_query_or_slash_is_the_standard_text() {
        assert_eq!(
            text(SigningForm::PhpSdk, "/v2/batch", ""),
            text(SigningForm::Standard, "/v2/batch", "")
        );
        assert!(SigningForm::PhpSdk
            .differing_lines("/v2/batch", "")
            .is_empty());
    }

    #[test]
    fn php_form_trims_like_php() {
        // rtrim($path, ' /') and '?' . trim($query); the query "0" is false in PHP.
        assert_eq!(SigningForm::PhpSdk.path_line("/v2/batch/ /"), "/v2/batch");
        assert_eq!(SigningForm::PhpSdk.path_line("/"), "");
        assert_eq!(SigningForm::PhpSdk.query_line(" a=1\t"), "?a=1");
        assert_eq!(SigningForm::PhpSdk.query_line("0"), "");
        assert_eq!(SigningForm::PhpSdk.query_line(""), "");
    }

    #[test]
    fn differing_lines_and_phrases_follow_the_request() {
        let f = SigningForm::PhpSdk;
        assert_eq!(f.differing_lines("/v2/batch/", ""), vec![LineLabel::Path]);
        assert_eq!(
            f.differing_lines("/v2/batch", "a=1"),
            vec![LineLabel::Query]
        );
        assert_eq!(
            f.differences("/v2/batch/", "a=1"),
            vec!["the trailing '/' trimmed", "'?' before the query"]
        );
        assert!(SigningForm::Standard
            .differing_lines("/v2/batch/", "a=1")
            .is_empty());
    }

    #[test]
    fn php_signature_is_the_hmac_of_the_php_text() {
        let key = Secret::new("rest-key");
        let r = req("/v2/attributes/colour/", "x=1");
        let signed = SigningForm::PhpSdk.sign(&r, &key).unwrap();
        let expected = hmac_sha384(
            b"rest-key",
            &[format!("PUT\n/v2/attributes/colour\n?x=1\n{TAIL}").as_bytes()],
        );
        assert_eq!(signed.digest, expected);
        // The headers sent are those of the standard form.
        let standard = SigningForm::Standard.sign(&r, &key).unwrap();
        for i in 0..4 {
            assert_eq!(signed.headers.get(i), standard.headers.get(i));
        }
        assert_ne!(signed.signature(), standard.signature());
    }

    #[test]
    fn as_standard_rewrites_only_path_and_query() {
        let received = ReceivedRequest {
            method: "PUT".into(),
            path: "/v2/batch/".into(),
            query: "a=1".into(),
            headers: vec![("x".into(), b"y".to_vec())],
            body: bytes::Bytes::from_static(b"[]"),
        };
        let copy = SigningForm::PhpSdk.as_standard(&received).unwrap();
        assert_eq!(copy.path, "/v2/batch");
        assert_eq!(copy.query, "?a=1");
        assert_eq!(copy.headers, received.headers);
        let plain = ReceivedRequest {
            path: "/v2/batch".into(),
            query: String::new(),
            ..received
        };
        assert!(SigningForm::PhpSdk.as_standard(&plain).is_none());
    }

    #[test]
    fn names_parse_back() {
        for f in SigningForm::ALL {
            assert_eq!(f.name().parse::<SigningForm>().unwrap(), f);
        }
        let e = "php".parse::<SigningForm>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown signing form \"php\": use standard or php-sdk"
        );
    }
}
