//! Signing: HMAC-SHA384 of the canonical text, base64 (standard, padded), sent as
//! `Authorization: Bearer <signature>` (`docs/signing.md` rules S1, S12).

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use super::canonical::{CanonicalText, HeadLayout};
use super::request::{SignableRequest, AUTHORIZATION_HEADER};
use super::secret::Secret;

/// Length of an HMAC-SHA384 digest in bytes.
pub const DIGEST_LEN: usize = 48;

/// The MAC of the scheme, HMAC-SHA384, fed piece by piece; `Clone` keeps a state to resume from
/// (the incremental signer's checkpoints).
///
/// It is `ring`'s (already in the build through rustls): on these machines, which have no
/// SHA-512 instructions, ring is within a few percent of OpenSSL, while RustCrypto's
/// `hmac`+`sha2` (AVX2 path) measured about 1.5x slower over 256 MB. The RustCrypto crates stay
/// as the independent reference in the tests (and for diagnose's SHA-256 variant).
#[derive(Clone)]
pub struct HmacSha384(ring::hmac::Context);

impl HmacSha384 {
    /// A MAC keyed with any key bytes (HMAC takes keys of any length).
    pub fn new(key: &[u8]) -> Self {
        let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA384, key);
        HmacSha384(ring::hmac::Context::with_key(&key))
    }

    pub fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }

    pub fn finalize(self) -> [u8; DIGEST_LEN] {
        self.0
            .sign()
            .as_ref()
            .try_into()
            .expect("HMAC-SHA384 tags are 48 bytes")
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignError {
    #[error("the REST API key is empty; set it before signing")]
    EmptyKey,
}

/// The result of signing one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signed {
    /// The raw 48-byte HMAC.
    pub digest: [u8; DIGEST_LEN],
    /// The headers to send, in order: the three vendor headers, Content-Type, Authorization.
    pub headers: SignedHeaders,
}

impl Signed {
    /// The signature of a canonical text and the headers that carry it (the headers keep the
    /// canonical head: their names and values are slices of it).
    pub fn new(digest: [u8; DIGEST_LEN], canonical: CanonicalText<'_>) -> Signed {
        Signed {
            digest,
            headers: SignedHeaders::new(&digest, canonical),
        }
    }

    /// Base64 of the digest: the `<signature>` in `Authorization: Bearer <signature>`.
    pub fn signature(&self) -> &str {
        &self.authorization()[BEARER.len()..]
    }

    /// The digest in lower-case hex (for the pipeline view).
    pub fn digest_hex(&self) -> String {
        hex::encode(self.digest)
    }

    /// The value of the Authorization header: `Bearer <signature>`.
    pub fn authorization(&self) -> &str {
        self.headers.get(4).1
    }
}

const BEARER: &str = "Bearer ";
/// Base64 length of a 48-byte digest (no padding needed: 48 is a multiple of 3).
const SIGNATURE_LEN: usize = DIGEST_LEN / 3 * 4;

/// The five headers of a signed request. The four signed ones are slices of the canonical head
/// (moved in, not copied) and `Bearer <signature>` is appended to it in capacity reserved for
/// it, so signing allocates only the head (sign / bare HMAC at 1 KB has a budget in benches/README.md).
/// Iterate with `for (name, value) in &signed.headers`, or take owned pairs with
/// [`SignedHeaders::to_vec`].
#[derive(Clone)]
pub struct SignedHeaders {
    /// The canonical head, then `Bearer <signature>`.
    text: String,
    layout: HeadLayout,
    /// Where `Bearer <signature>` starts in `text`.
    authorization: usize,
}

impl SignedHeaders {
    fn new(digest: &[u8; DIGEST_LEN], canonical: CanonicalText<'_>) -> SignedHeaders {
        let (mut text, layout) = canonical.into_head();
        let authorization = text.len();
        text.push_str(BEARER);
        // Into a stack buffer, then appended: `encode_string` zeroes a 1 KiB chunk buffer.
        let mut sig = [0u8; SIGNATURE_LEN];
        STANDARD
            .encode_slice(digest, &mut sig)
            .expect("64 bytes hold the base64 of 48");
        text.push_str(std::str::from_utf8(&sig).expect("base64 is ASCII"));
        debug_assert_eq!(text.len(), authorization + BEARER.len() + SIGNATURE_LEN);
        SignedHeaders {
            text,
            layout,
            authorization,
        }
    }

    /// The canonical head these headers were cut from (the seven lines, each with its LF).
    pub fn canonical_head(&self) -> &str {
        &self.text[..self.authorization]
    }

    /// Byte range of line `i` (0-6) of [`SignedHeaders::canonical_head`], without its LF.
    pub fn line(&self, i: usize) -> std::ops::Range<usize> {
        self.layout.line(i)
    }

    /// The signed text: the kept head, then `body` (the body these headers were signed with).
    pub fn canonical<'b>(&self, body: &'b [u8]) -> CanonicalText<'b> {
        CanonicalText::from_parts(self.canonical_head().to_string(), self.layout, body)
    }

    /// Header `i` (0-4) as (name, value).
    pub fn get(&self, i: usize) -> (&str, &str) {
        match i {
            0..=3 => {
                let (name, value) = self.layout.header(i);
                (&self.text[name], &self.text[value])
            }
            4 => (AUTHORIZATION_HEADER, &self.text[self.authorization..]),
            _ => panic!("a signed request has 5 headers, not {}", i + 1),
        }
    }

    /// The five headers in order.
    pub fn iter(&self) -> HeaderIter<'_> {
        HeaderIter {
            headers: self,
            next: 0,
        }
    }

    /// The headers as owned pairs (for requests and records that keep them).
    pub fn to_vec(&self) -> Vec<(String, String)> {
        self.iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }
}

/// The headers of a [`SignedHeaders`] in order, as (name, value).
#[derive(Clone, Debug)]
pub struct HeaderIter<'h> {
    headers: &'h SignedHeaders,
    next: usize,
}

impl<'h> Iterator for HeaderIter<'h> {
    type Item = (&'h str, &'h str);
    fn next(&mut self) -> Option<Self::Item> {
        (self.next < 5).then(|| {
            self.next += 1;
            self.headers.get(self.next - 1)
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (5 - self.next, Some(5 - self.next))
    }
}

impl ExactSizeIterator for HeaderIter<'_> {}

impl<'h> IntoIterator for &'h SignedHeaders {
    type Item = (&'h str, &'h str);
    type IntoIter = HeaderIter<'h>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for SignedHeaders {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for SignedHeaders {}

impl std::fmt::Debug for SignedHeaders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A fresh MAC keyed with the REST key. Refuses an empty key (`docs/signing.md` rule S10).
pub fn new_mac(key: &Secret) -> Result<HmacSha384, SignError> {
    if key.is_empty() {
        return Err(SignError::EmptyKey);
    }
    Ok(HmacSha384::new(key.expose().as_bytes()))
}

/// HMAC-SHA384 over the given parts, fed in order (no concatenation).
pub fn hmac_sha384(key: &[u8], parts: &[&[u8]]) -> [u8; DIGEST_LEN] {
    let mut mac = HmacSha384::new(key);
    for p in parts {
        mac.update(p);
    }
    mac.finalize()
}

/// Base64 (standard alphabet, padded) of a digest.
pub fn encode_signature(digest: &[u8]) -> String {
    STANDARD.encode(digest)
}

/// The digest of a canonical text, streaming head then body into the MAC.
pub fn digest_canonical(
    canonical: &CanonicalText<'_>,
    key: &Secret,
) -> Result<[u8; DIGEST_LEN], SignError> {
    let mut mac = new_mac(key)?;
    for part in canonical.parts() {
        mac.update(part);
    }
    Ok(mac.finalize())
}

/// Sign a request: the signature and every header to send.
pub fn sign(req: &SignableRequest<'_>, key: &Secret) -> Result<Signed, SignError> {
    let canonical = req.canonical();
    let digest = digest_canonical(&canonical, key)?;
    Ok(Signed::new(digest, canonical))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 4231 test cases for HMAC-SHA-384.
    #[test]
    fn rfc4231_vectors() {
        let cases: [(Vec<u8>, Vec<u8>, &str); 6] = [
            (vec![0x0b; 20], b"Hi There".to_vec(),
             "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6"),
            (b"Jefe".to_vec(), b"what do ya want for nothing?".to_vec(),
             "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649"),
            (vec![0xaa; 20], vec![0xdd; 50],
             "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27"),
            ((1u8..=25).collect(), vec![0xcd; 50],
             "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb"),
            (vec![0xaa; 131], b"Test Using Larger Than Block-Size Key - Hash Key First".to_vec(),
             "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952"),
            (vec![0xaa; 131], b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".to_vec(),
             "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e"),
        ];
        for (key, data, want) in cases {
            assert_eq!(hex::encode(hmac_sha384(&key, &[&data])), want);
            // Feeding in pieces gives the same MAC.
            let (a, b) = data.split_at(data.len() / 2);
            assert_eq!(hex::encode(hmac_sha384(&key, &[a, b])), want);
        }
    }

    #[test]
    fn empty_key_is_refused() {
        let req = SignableRequest::new("PUT", "/v2/batch", "", "t", "k", b"[]");
        assert_eq!(sign(&req, &Secret::new("")), Err(SignError::EmptyKey));
    }

    #[test]
    fn headers_are_in_order_with_bearer() {
        let mut req = SignableRequest::new("PUT", "/v2/batch", "", "t", "pub", b"[]");
        req.header_prefix = "klevu";
        let s = sign(&req, &Secret::new("rest")).unwrap();
        let names: Vec<&str> = s.headers.iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            [
                "X-KLEVU-TIMESTAMP",
                "X-KLEVU-APIKEY",
                "X-KLEVU-AUTH-ALGO",
                "Content-Type",
                "Authorization"
            ]
        );
        assert_eq!(s.headers.get(4).1, format!("Bearer {}", s.signature()));
        assert_eq!(s.signature().len(), 64);
        assert_eq!(s.signature(), encode_signature(&s.digest));
        let values: Vec<&str> = s.headers.iter().map(|(_, v)| v).collect();
        assert_eq!(values[..4], ["t", "pub", "HmacSHA384", "application/json"]);
    }

    #[test]
    fn headers_compare_by_what_is_sent_not_by_the_head_they_keep() {
        let key = Secret::new("rest");
        let a = SignableRequest::new("PUT", "/v2/batch", "", "t", "pub", b"[]");
        let s = sign(&a, &key).unwrap();
        // Another path gives another signature, so other headers...
        let other = sign(&SignableRequest { path: "/v2/x", ..a }, &key).unwrap();
        assert_ne!(s.headers, other.headers);
        // ...but the same five pairs compare equal whatever head they came from.
        let other_head = SignableRequest { path: "/v2/x", ..a }.canonical();
        assert_eq!(SignedHeaders::new(&s.digest, other_head), s.headers);
        assert_eq!(format!("{:?}", s.headers).matches("\", \"").count(), 5);
    }
}
