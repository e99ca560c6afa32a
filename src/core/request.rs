//! The request as the signer sees it: every part that goes into the signing text.

/// What follows the prefix in the three vendor header lines, in signing order: the rest of the
/// name and the `=`.
pub(crate) const VENDOR_NAME_TAILS: [&str; 3] = ["-TIMESTAMP=", "-APIKEY=", "-AUTH-ALGO="];

/// The default header prefix (`SVC` in the interface document; a real account uses `KLEVU`).
pub const DEFAULT_HEADER_PREFIX: &str = "SVC";
/// The only algorithm name the service accepts, exactly in this case.
pub const AUTH_ALGO: &str = "HmacSHA384";
/// The only content type the service accepts.
pub const CONTENT_TYPE_JSON: &str = "application/json";
/// The content-type header name, as written in the signing text.
pub const CONTENT_TYPE_HEADER: &str = "Content-Type";
/// The authorization header name.
pub const AUTHORIZATION_HEADER: &str = "Authorization";
/// Request headers HTTP itself sets from the URL and the body (lower case): a request's own
/// headers cannot replace them.
pub const RESERVED_REQUEST_HEADERS: [&str; 4] =
    ["host", "content-length", "transfer-encoding", "connection"];

/// The names of the three vendor headers for one prefix, e.g. `X-SVC-TIMESTAMP`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderNames {
    pub timestamp: String,
    pub api_key: String,
    pub auth_algo: String,
}

impl HeaderNames {
    /// The prefix is always upper-cased (`docs/signing.md` rule S9): `klevu` gives `X-KLEVU-...`.
    pub fn for_prefix(prefix: &str) -> Self {
        let name = |suffix: &str| {
            let mut s = String::with_capacity(2 + prefix.len() + suffix.len());
            s.push_str("X-");
            s.push_str(prefix);
            s.push_str(suffix);
            s.make_ascii_uppercase();
            s
        };
        let [timestamp, api_key, auth_algo] = VENDOR_NAME_TAILS.map(|t| name(&t[..t.len() - 1]));
        HeaderNames {
            timestamp,
            api_key,
            auth_algo,
        }
    }
}

/// Everything that is signed, borrowed from wherever it lives (TUI fields, CLI args, a parsed
/// capture). Cheap to copy; the body is never copied to sign it.
///
/// Values are used exactly as given (`docs/signing.md` rules S4-S8): nothing is trimmed, re-encoded,
/// sorted or "fixed". Only the method is upper-cased and the header prefix upper-cased.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SignableRequest<'a> {
    pub method: &'a str,
    pub path: &'a str,
    /// The query string without the leading `?`, exactly as sent; empty when there is none.
    pub query: &'a str,
    pub header_prefix: &'a str,
    pub timestamp: &'a str,
    pub api_key: &'a str,
    pub auth_algo: &'a str,
    pub content_type: &'a str,
    pub body: &'a [u8],
}

impl<'a> SignableRequest<'a> {
    /// A request with the default prefix, algorithm and content type.
    pub fn new(
        method: &'a str,
        path: &'a str,
        query: &'a str,
        timestamp: &'a str,
        api_key: &'a str,
        body: &'a [u8],
    ) -> Self {
        SignableRequest {
            method,
            path,
            query,
            header_prefix: DEFAULT_HEADER_PREFIX,
            timestamp,
            api_key,
            auth_algo: AUTH_ALGO,
            content_type: CONTENT_TYPE_JSON,
            body,
        }
    }

    /// Header names for this request's prefix.
    pub fn header_names(&self) -> HeaderNames {
        HeaderNames::for_prefix(self.header_prefix)
    }
}
