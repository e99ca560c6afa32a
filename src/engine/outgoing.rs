//! The request a send puts on the wire, built once: the URL and method checked, the request
//! signed through the core (`core::SignedRequest`), and the signed headers checked, so that the
//! bytes on the wire are the bytes signed (`docs/signing.md` rule S13). The client only sends
//! it; the engine registers the key for redaction in the logs before it sends.

use bytes::Bytes;

use crate::client::OutgoingRequest;
use crate::core::sign::SignedHeaders;
use crate::core::spec::RequestSpec;
use crate::core::{
    Secret, SignError, SignableRequest, SignedRequest, SigningForm, COLLECT_PATH, CONTENT_TYPE_JSON,
};

/// Why a request could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    #[error("the URL {url} is not valid ({reason}); write the base URL as http://host:port or https://host")]
    BadUrl { url: String, reason: String },
    #[error("the base URL {url} must be http:// or https://")]
    BadScheme { url: String },
    #[error("the base URL {url} contains a path ({path}); put the path in the path field instead")]
    PathInBaseUrl { url: String, path: String },
    #[error("the path must start with '/' (got \"{path}\")")]
    PathWithoutSlash { path: String },
    #[error("the {part} \"{given}\" would be sent as \"{sent}\" (the URL parser re-encodes it), so the signature would not match; percent-encode it yourself")]
    WouldBeReencoded {
        part: &'static str,
        given: String,
        sent: String,
    },
    #[error("the method \"{method}\" is not a valid HTTP method")]
    BadMethod { method: String },
    #[error("the value of header {name} cannot be sent: it contains characters HTTP headers do not allow")]
    BadHeaderValue { name: String },
    #[error("the header prefix \"{prefix}\" gives the header name {name}, which HTTP does not allow; use letters, digits, '-' or '_' (e.g. SVC or KLEVU)")]
    BadHeaderPrefix { prefix: String, name: String },
    #[error("the value of header {name} ({value:?}) {edge} with {what}, which HTTP drops in transit, so the server would check the signature against another value and it would not match; remove the {what_short}")]
    SpaceAroundHeaderValue {
        name: String,
        value: String,
        edge: &'static str,
        what: &'static str,
        what_short: &'static str,
    },
    #[error("the header {name} cannot be added to the request: {why}; remove it from the request's headers")]
    ReservedHeader { name: String, why: &'static str },
    #[error(transparent)]
    Sign(#[from] SignError),
}

/// The upper-cased method and the full URL of a request, or why it cannot be sent as signed: a
/// base URL that is not `http(s)://host[:port]`, a path without its leading `/`, a method HTTP
/// does not allow, or a path or query the URL would re-encode (the server would then see other
/// bytes than were signed).
fn check_target(
    base_url: &str,
    method: &str,
    path: &str,
    query: &str,
) -> Result<(String, String), BuildError> {
    let base = base_url.trim_end_matches('/');
    let parsed_base = reqwest::Url::parse(base).map_err(|e| BuildError::BadUrl {
        url: base_url.to_string(),
        reason: e.to_string(),
    })?;
    if !matches!(parsed_base.scheme(), "http" | "https") {
        return Err(BuildError::BadScheme {
            url: base_url.to_string(),
        });
    }
    if parsed_base.path() != "/" || parsed_base.query().is_some() {
        return Err(BuildError::PathInBaseUrl {
            url: base_url.to_string(),
            path: parsed_base.path().to_string(),
        });
    }
    if !path.starts_with('/') {
        return Err(BuildError::PathWithoutSlash {
            path: path.to_string(),
        });
    }
    let upper = method.to_ascii_uppercase();
    if reqwest::Method::from_bytes(upper.as_bytes()).is_err() {
        return Err(BuildError::BadMethod {
            method: method.to_string(),
        });
    }
    let url = crate::core::request_url(base, path, query);
    let parsed = reqwest::Url::parse(&url).map_err(|e| BuildError::BadUrl {
        url: url.clone(),
        reason: e.to_string(),
    })?;
    if parsed.path() != path {
        return Err(BuildError::WouldBeReencoded {
            part: "path",
            given: path.to_string(),
            sent: parsed.path().to_string(),
        });
    }
    if parsed.query().unwrap_or("") != query {
        return Err(BuildError::WouldBeReencoded {
            part: "query",
            given: query.to_string(),
            sent: parsed.query().unwrap_or("").to_string(),
        });
    }
    Ok((upper, url))
}

/// Whether the signed headers can go on the wire: a header prefix that makes an invalid header
/// name, or a value with a line break or other control character, cannot.
fn check_headers(prefix: &str, headers: &SignedHeaders) -> Result<(), BuildError> {
    for (name, value) in headers {
        if reqwest::header::HeaderName::from_bytes(name.as_bytes()).is_err() {
            return Err(BuildError::BadHeaderPrefix {
                prefix: prefix.to_string(),
                name: name.to_string(),
            });
        }
        if reqwest::header::HeaderValue::from_str(value).is_err() {
            return Err(BuildError::BadHeaderValue {
                name: name.to_string(),
            });
        }
        // A field value has no surrounding whitespace (RFC 9110, 5.5): a receiver drops a space
        // or tab at either end, so the value the server signs is not the value signed here.
        if let Some((edge, c)) = space_at_an_edge(value) {
            let (what, what_short) = match c {
                '\t' => ("a tab", "tab"),
                _ => ("a space", "space"),
            };
            return Err(BuildError::SpaceAroundHeaderValue {
                name: name.to_string(),
                value: value.to_string(),
                edge,
                what,
                what_short,
            });
        }
    }
    Ok(())
}

/// Which end of a header value, if any, holds a space or tab HTTP would drop, and that character.
fn space_at_an_edge(value: &str) -> Option<(&'static str, char)> {
    let ows = |c: char| c == ' ' || c == '\t';
    match (value.chars().next(), value.chars().last()) {
        (Some(c), _) if ows(c) => Some(("starts", c)),
        (_, Some(c)) if ows(c) => Some(("ends", c)),
        _ => None,
    }
}

/// The URL a signed request goes to, after the checks [`build_signed`] makes before sending
/// (for `sign --output curl|http`, which print a request instead of sending it).
pub fn check_sendable(
    base_url: &str,
    req: &SignableRequest<'_>,
    headers: &SignedHeaders,
) -> Result<String, BuildError> {
    let (_, url) = check_target(base_url, req.method, req.path, req.query)?;
    check_headers(req.header_prefix, headers)?;
    Ok(url)
}

/// Sign and assemble a request: the [`RequestSpec`] to `base_url`, signed with `key` and exactly
/// this `timestamp` (the caller reads the clock, once, just before sending). The body is shared
/// with the spec, not copied.
pub fn build_signed(
    base_url: &str,
    spec: &RequestSpec,
    timestamp: &str,
    key: &Secret,
) -> Result<OutgoingRequest, BuildError> {
    // The URL is checked before the body is hashed: a request that cannot go is refused fast.
    check_target_of(base_url, spec)?;
    let signed = SignedRequest::sign(
        spec.clone(),
        timestamp.to_string(),
        SigningForm::Standard,
        key,
    )?;
    outgoing(base_url, &signed)
}

/// The checks of the base URL, method, path and query that [`outgoing`] makes, before signing.
pub fn check_target_of(base_url: &str, spec: &RequestSpec) -> Result<(), BuildError> {
    check_target(base_url, &spec.method, &spec.path, &spec.query).map(|_| ())
}

/// The request to send for a request signed already: exactly its headers and body, to its URL.
/// Nothing is signed again; the checks of `docs/signing.md` rule S13 are made (the bytes on the
/// wire must be the bytes signed).
pub fn outgoing(base_url: &str, signed: &SignedRequest) -> Result<OutgoingRequest, BuildError> {
    let spec = signed.spec();
    let (method, url) = check_target(base_url, &spec.method, &spec.path, &spec.query)?;
    // Lengths and names only here; `send_with` logs the header values (none holds the key).
    tracing::trace!(
        canonical_len = signed.canonical().len(),
        body_len = spec.body.len(),
        headers = ?signed.headers().iter().map(|(n, _)| n).collect::<Vec<_>>(),
        "request signed"
    );
    check_headers(&spec.header_prefix, signed.headers())?;
    Ok(OutgoingRequest {
        method,
        url,
        headers: signed.headers().to_vec(),
        body: spec.body.clone(), // reference count, not a copy
    })
}

/// `out` with `extra` headers after its own (a suite request's headers, `docs/test.md`). None may
/// replace a header the request has already (the signature's, its content type) or one HTTP
/// sets itself; names and values must be ones HTTP can carry as written.
pub fn with_extra_headers(
    mut out: OutgoingRequest,
    extra: &[(String, String)],
) -> Result<OutgoingRequest, BuildError> {
    for (name, value) in extra {
        let why = if out
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some("the request sets it already (it is signed, or it is the content type)")
        } else if crate::core::RESERVED_REQUEST_HEADERS
            .iter()
            .any(|r| r.eq_ignore_ascii_case(name))
        {
            Some("HTTP sets it from the URL and the body")
        } else if reqwest::header::HeaderName::from_bytes(name.as_bytes()).is_err() {
            Some("HTTP does not allow that name")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(BuildError::ReservedHeader {
                name: name.clone(),
                why,
            });
        }
        if reqwest::header::HeaderValue::from_str(value).is_err() {
            return Err(BuildError::BadHeaderValue { name: name.clone() });
        }
        if space_at_an_edge(value).is_some() {
            return Err(BuildError::ReservedHeader {
                name: name.clone(),
                why: "HTTP drops the space or tab at an end of its value",
            });
        }
        out.headers.push((name.clone(), value.clone()));
    }
    Ok(out)
}

/// The collector URL for an analytics base URL.
pub fn collect_url(analytics_url: &str) -> String {
    format!("{}{COLLECT_PATH}", analytics_url.trim_end_matches('/'))
}

/// An event batch request (no signature: the collector takes none).
pub fn events_request(analytics_url: &str, body: Bytes) -> OutgoingRequest {
    OutgoingRequest {
        method: "POST".to_string(),
        url: collect_url(analytics_url),
        headers: vec![("Content-Type".to_string(), CONTENT_TYPE_JSON.to_string())],
        body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "http://127.0.0.1:9/";
    const TS: &str = "2026-11-22T10:00:00.000Z";

    fn parts(body: &'static [u8]) -> RequestSpec {
        RequestSpec {
            method: "put".into(),
            query: "test=1".into(),
            api_key: "pub".into(),
            body: Bytes::from_static(body),
            ..RequestSpec::default()
        }
    }

    fn build(base: &str, p: &RequestSpec, key: &str) -> Result<OutgoingRequest, BuildError> {
        build_signed(base, p, TS, &Secret::new(key))
    }

    #[test]
    fn extra_headers_follow_the_signed_ones_and_never_replace_one() {
        let out = build(BASE, &parts(b"[]"), "k").unwrap();
        let h = |n: &str, v: &str| vec![(n.to_string(), v.to_string())];
        let added = with_extra_headers(out.clone(), &h("X-Run", "7")).unwrap();
        assert_eq!(added.headers.last().unwrap(), &("X-Run".into(), "7".into()));
        assert_eq!(added.headers.len(), out.headers.len() + 1);
        for (name, value) in [
            ("authorization", "x"),
            ("x-svc-timestamp", "x"),
            ("content-type", "text/plain"),
            ("Host", "example.com"),
            ("Bad Name", "x"),
            ("X-Run", " 7"),
            ("X-Run", "a\nb"),
        ] {
            assert!(
                with_extra_headers(out.clone(), &h(name, value)).is_err(),
                "{name}: {value:?}"
            );
        }
    }

    #[test]
    fn built_request_sends_the_signed_bytes_without_copying() {
        let p = parts(b"[{\"id\":1}]");
        let out = build(BASE, &p, "k").unwrap();
        assert_eq!(out.url, "http://127.0.0.1:9/v2/batch?test=1");
        assert_eq!(out.method, "PUT");
        assert_eq!(
            out.body.as_ptr(),
            p.body.as_ptr(),
            "body shares the same buffer"
        );
        assert_eq!(
            out.headers[0],
            ("X-SVC-TIMESTAMP".into(), "2026-11-22T10:00:00.000Z".into())
        );
        let req = SignableRequest {
            method: "PUT",
            path: "/v2/batch",
            query: "test=1",
            header_prefix: "SVC",
            timestamp: "2026-11-22T10:00:00.000Z",
            api_key: "pub",
            auth_algo: "HmacSHA384",
            content_type: "application/json",
            body: b"[{\"id\":1}]",
        };
        let expected = crate::core::sign(&req, &Secret::new("k")).unwrap();
        assert_eq!(out.headers, expected.headers.to_vec());
    }

    #[test]
    fn reencoding_and_bad_urls_are_refused() {
        let mut p = parts(b"[]");
        p.query = "q=a b".into();
        let e = build(BASE, &p, "k").unwrap_err();
        assert!(
            matches!(e, BuildError::WouldBeReencoded { part: "query", .. }),
            "{e}"
        );
        let mut p = parts(b"[]");
        p.path = "/v2/bätch".into();
        assert!(matches!(
            build(BASE, &p, "k"),
            Err(BuildError::WouldBeReencoded { part: "path", .. })
        ));
        let p = parts(b"[]");
        assert!(matches!(
            build("http://127.0.0.1:9/api", &p, "k"),
            Err(BuildError::PathInBaseUrl { .. })
        ));
        assert!(matches!(
            build("ftp://127.0.0.1", &p, "k"),
            Err(BuildError::BadScheme { .. })
        ));
        assert!(matches!(
            build("not a url", &p, "k"),
            Err(BuildError::BadUrl { .. })
        ));
        let mut p = parts(b"[]");
        p.path = "v2/batch".into();
        assert!(matches!(
            build(BASE, &p, "k"),
            Err(BuildError::PathWithoutSlash { .. })
        ));
        assert_eq!(
            build(BASE, &parts(b"[]"), ""),
            Err(BuildError::Sign(SignError::EmptyKey))
        );
    }

    /// A header value with a space or tab at either end is refused before it is sent: every
    /// receiver drops it (RFC 9110 field values), so the server would sign another value.
    #[test]
    fn a_header_value_with_space_at_an_edge_is_refused() {
        for (api_key, edge, what) in [
            ("pub ", "ends", "a space"),
            (" pub", "starts", "a space"),
            ("pub\t", "ends", "a tab"),
        ] {
            let mut p = parts(b"[]");
            p.api_key = api_key.into();
            let e = build(BASE, &p, "k").unwrap_err();
            let text = e.to_string();
            assert!(
                matches!(&e, BuildError::SpaceAroundHeaderValue { name, edge: got, what: w, .. }
                    if name == "X-SVC-APIKEY" && *got == edge && *w == what),
                "{text}"
            );
            assert!(text.contains(&format!("{api_key:?}")), "{text}");
            assert!(
                text.ends_with(&format!("remove the {}", &what[2..])),
                "{text}"
            );
        }
        // Inside a value a space is the value's own (the Authorization header has one).
        let mut p = parts(b"[]");
        p.api_key = "p u b".into();
        p.content_type = "application/json; charset=utf-8".into();
        build(BASE, &p, "k").unwrap();
        // A timestamp typed with a trailing space, as the workbench's field allows.
        let e = build_signed(
            BASE,
            &parts(b"[]"),
            "2026-11-22T10:00:00.000Z ",
            &Secret::new("k"),
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("the value of header X-SVC-TIMESTAMP"),
            "{e}"
        );
    }
}
