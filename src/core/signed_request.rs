//! The signed request: one value holding the request as it goes on the wire, the timestamp and
//! form it was signed with, and its signature. Every view of a request reads this one value
//! (the canonical text, the signature, the headers, the URL, every copy, the generated code,
//! the diff and the send), so no view can show something other than what is sent
//! (`docs/signing.md`, "One signed value").

use super::canonical::{CanonicalText, LineLabel};
use super::form::SigningForm;
use super::http_text::target;
use super::request::SignableRequest;
use super::secret::Secret;
use super::sign::{SignError, Signed, SignedHeaders};
use super::spec::RequestSpec;

/// A request signed once: what is sent (`spec`, its query without the leading `?`), the
/// timestamp and form it was signed with, and the signature with the five headers. The
/// signing text is kept (as the head of the signed headers, plus the spec's body), not
/// computed again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedRequest {
    spec: RequestSpec,
    timestamp: String,
    form: SigningForm,
    signed: Signed,
}

/// The URL a request goes to: the base URL (trailing `/` removed), the path, and `?` + the
/// query when there is one. The one place a URL is put together from its parts.
pub fn request_url(base_url: &str, path: &str, query: &str) -> String {
    let base = base_url.trim().trim_end_matches('/');
    format!("{base}{}", target(path, query))
}

impl SignedRequest {
    /// Sign `spec` with `timestamp` in `form`.
    pub fn sign(
        spec: RequestSpec,
        timestamp: String,
        form: SigningForm,
        key: &Secret,
    ) -> Result<SignedRequest, SignError> {
        let signed = form.sign(&spec.signable(&timestamp), key)?;
        Ok(SignedRequest {
            spec,
            timestamp,
            form,
            signed,
        })
    }

    /// A signature computed elsewhere (the workbench's incremental signer) of exactly
    /// `form`'s text for `spec` and `timestamp`.
    pub fn from_signed(
        spec: RequestSpec,
        timestamp: String,
        form: SigningForm,
        signed: Signed,
    ) -> SignedRequest {
        debug_assert_eq!(
            signed.headers.canonical_head(),
            form.canonical(&spec.signable(&timestamp)).head(),
            "the signature is of this request's text"
        );
        SignedRequest {
            spec,
            timestamp,
            form,
            signed,
        }
    }

    /// The request as sent (path and query as they go on the wire).
    pub fn spec(&self) -> &RequestSpec {
        &self.spec
    }

    /// The timestamp signed and sent.
    pub fn timestamp(&self) -> &str {
        &self.timestamp
    }

    /// The form the path and query lines were signed in.
    pub fn form(&self) -> SigningForm {
        self.form
    }

    pub fn signed(&self) -> &Signed {
        &self.signed
    }

    /// The five headers sent, in order.
    pub fn headers(&self) -> &SignedHeaders {
        &self.signed.headers
    }

    /// The base64 signature.
    pub fn signature(&self) -> &str {
        self.signed.signature()
    }

    /// The HMAC in lower-case hex.
    pub fn digest_hex(&self) -> String {
        self.signed.digest_hex()
    }

    /// The exact text signed (in the request's form): the kept head and the body.
    pub fn canonical(&self) -> CanonicalText<'_> {
        self.signed.headers.canonical(&self.spec.body)
    }

    /// The request as sent, with its timestamp: path and query as on the wire.
    pub fn as_sent(&self) -> SignableRequest<'_> {
        self.spec.signable(&self.timestamp)
    }

    /// The request whose documented-form text is this request's signed text: the path and
    /// query are the lines signed (for a program that rebuilds the text line by line).
    pub fn as_signed(&self) -> SignableRequest<'_> {
        let head = self.signed.headers.canonical_head();
        SignableRequest {
            path: &head[self.signed.headers.line(1)],
            query: &head[self.signed.headers.line(2)],
            ..self.as_sent()
        }
    }

    /// The lines the request's form writes otherwise than the documented form, each with the
    /// documented form's text (none in the standard form).
    pub fn standard_lines(&self) -> Vec<(LineLabel, &str)> {
        self.form
            .differing_lines(&self.spec.path, &self.spec.query)
            .into_iter()
            .map(|label| {
                let text = match label {
                    LineLabel::Path => self.spec.path.as_str(),
                    _ => self.spec.query.as_str(),
                };
                (label, text)
            })
            .collect()
    }

    /// The method as sent (upper-cased).
    pub fn method(&self) -> String {
        self.spec.method.to_ascii_uppercase()
    }

    /// The URL it goes to from `base_url`.
    pub fn url(&self, base_url: &str) -> String {
        request_url(base_url, &self.spec.path, &self.spec.query)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> RequestSpec {
        RequestSpec {
            path: "/v2/batch/".into(),
            query: "test=1".into(),
            api_key: "pub".into(),
            ..RequestSpec::default()
        }
    }

    const TS: &str = "2026-11-22T10:00:00.000Z";

    #[test]
    fn the_kept_text_is_the_forms_text_and_the_signature_its_hmac() {
        let key = Secret::new("rest");
        for form in SigningForm::ALL {
            let s = SignedRequest::sign(spec(), TS.into(), form, &key).unwrap();
            let spec = spec();
            let want = form.canonical(&spec.signable(TS));
            assert_eq!(s.canonical().to_bytes(), want.to_bytes());
            assert_eq!(
                s.signature(),
                form.sign(&spec.signable(TS), &key).unwrap().signature()
            );
            // The request rebuilt from the signed lines signs the same text in the standard form.
            assert_eq!(
                s.as_signed().canonical().to_bytes(),
                want.to_bytes(),
                "{form}"
            );
            assert_eq!(s.url("http://h:1/"), "http://h:1/v2/batch/?test=1");
        }
    }

    #[test]
    fn the_php_form_names_the_lines_it_writes_otherwise() {
        let s =
            SignedRequest::sign(spec(), TS.into(), SigningForm::PhpSdk, &Secret::new("k")).unwrap();
        assert_eq!(
            s.standard_lines(),
            vec![
                (LineLabel::Path, "/v2/batch/"),
                (LineLabel::Query, "test=1")
            ]
        );
        assert_eq!(s.as_signed().path, "/v2/batch");
        assert_eq!(s.as_signed().query, "?test=1");
        assert_eq!(s.as_sent().query, "test=1");
    }

    #[test]
    fn a_url_has_a_question_mark_only_before_a_query() {
        assert_eq!(request_url("http://h", "/p", ""), "http://h/p");
        assert_eq!(request_url(" http://h/ ", "/p", "a=1"), "http://h/p?a=1");
    }
}
