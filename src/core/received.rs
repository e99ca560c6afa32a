//! A request as it arrived, before anything is interpreted: what the verifier, the diagnosis and
//! the capture parsers share (its own file so that `verify` and `diagnose` need not import each
//! other).

use super::request::SignableRequest;
use super::sign::SignedHeaders;

/// A request as it arrived: everything the verifier needs, nothing interpreted yet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReceivedRequest {
    pub method: String,
    pub path: String,
    /// Without the leading `?`, exactly as received; empty when there is none.
    pub query: String,
    /// Names as received (any case), raw values, in order.
    pub headers: Vec<(String, Vec<u8>)>,
    pub body: bytes::Bytes,
}

impl ReceivedRequest {
    /// All values of a header, its name matched case-insensitively, in order.
    pub fn header_values<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s [u8]> + 's {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }

    /// The first value of a header (case-insensitive name), if any.
    pub fn header(&self, name: &str) -> Option<&[u8]> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }

    /// The first value of a header as text (lossy for non-UTF-8 bytes), or "" when absent.
    pub fn header_text(&self, name: &str) -> String {
        self.header(name)
            .map(|v| String::from_utf8_lossy(v).into_owned())
            .unwrap_or_default()
    }

    /// Build a received request from a signed one, exactly as a correct client would send it.
    pub fn from_signed(req: &SignableRequest<'_>, headers: &SignedHeaders) -> Self {
        ReceivedRequest {
            method: req.method.to_string(),
            path: req.path.to_string(),
            query: req.query.to_string(),
            headers: headers
                .iter()
                .map(|(n, v)| (n.to_string(), v.as_bytes().to_vec()))
                .collect(),
            body: bytes::Bytes::copy_from_slice(req.body),
        }
    }
}
