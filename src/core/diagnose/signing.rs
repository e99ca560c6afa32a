//! One signing as a client makes it (the head and body it signs, the key, the hash function,
//! how it sends the digest) and the one kind of change a mistake makes to it ([`How`]). A leaf:
//! the catalogue (`catalogue.rs`) says which mistake makes which change; this module only makes
//! changes, so the catalogue imports it and not the other way round (`tests/architecture.rs`).

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;

use super::body::{build, Recipe};
use super::head::{Change, Head};

/// How a client sends the HMAC it computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    #[default]
    Base64,
    Hex,
    UrlSafe,
    Unpadded,
}

impl Encoding {
    /// A digest as this client sends it.
    pub fn encode(self, d: &[u8]) -> String {
        match self {
            Encoding::Base64 => STANDARD.encode(d),
            Encoding::Hex => hex::encode(d),
            Encoding::UrlSafe => URL_SAFE.encode(d),
            Encoding::Unpadded => STANDARD_NO_PAD.encode(d),
        }
    }

    /// The digest a provided signature is in this encoding, if it is in it at all (a URL-safe
    /// signature only when it has a '-' or '_', which is what tells it from standard base64).
    pub fn decode(self, provided: &str) -> Option<Vec<u8>> {
        match self {
            Encoding::Base64 => STANDARD.decode(provided).ok(),
            Encoding::Unpadded => STANDARD_NO_PAD.decode(provided).ok(),
            Encoding::UrlSafe if provided.contains(['-', '_']) => URL_SAFE
                .decode(provided)
                .or_else(|_| URL_SAFE_NO_PAD.decode(provided))
                .ok(),
            Encoding::UrlSafe => None,
            Encoding::Hex => hex::decode(provided).ok(),
        }
    }
}

/// One signing as a client makes it: the head and body it signs, the key, the hash function
/// and how it sends the digest. A mistake's [`How`] changes it.
#[derive(Clone, Debug)]
pub struct Signing {
    pub head: Head,
    pub body: Vec<u8>,
    pub key: Vec<u8>,
    pub hash: ring::hmac::Algorithm,
    pub encoding: Encoding,
}

impl Signing {
    /// The documented signing of a request: the expected head, the body sent, the REST key.
    pub fn expected(head: Head, body: &[u8], key: &[u8]) -> Signing {
        Signing {
            head,
            body: body.to_vec(),
            key: key.to_vec(),
            hash: ring::hmac::HMAC_SHA384,
            encoding: Encoding::Base64,
        }
    }

    /// The signature this client sends.
    pub fn signature(&self) -> String {
        let mut ctx = ring::hmac::Context::with_key(&ring::hmac::Key::new(self.hash, &self.key));
        ctx.update(&self.head.bytes());
        ctx.update(&self.body);
        self.encoding.encode(ctx.sign().as_ref())
    }
}

/// What one form of a mistake does to a signing: change the head, sign another body, another
/// key or with another hash function, or send the digest in another encoding. The search makes
/// its variants with these (`search.rs`), the exercises their requests ([`How::make`]).
#[derive(Clone, Debug)]
pub enum How {
    Head(Change),
    /// The body a recipe builds from the body sent (`body.rs`).
    Body(Recipe),
    Key(Vec<u8>),
    Hash(ring::hmac::Algorithm),
    Encoding(Encoding),
}

impl How {
    /// Make this change in a signing; false when it cannot be made there (a body recipe that
    /// does not apply to that body).
    pub fn make(&self, s: &mut Signing) -> bool {
        match self {
            How::Head(c) => {
                s.head.apply(c);
            }
            How::Body(r) => {
                let rewrite = Recipe {
                    trailing_lf: false,
                    ..*r
                };
                if rewrite != Recipe::default() {
                    let Ok(body) = build(&s.body, &rewrite, None, None) else {
                        return false;
                    };
                    s.body = body.to_vec();
                }
                if r.trailing_lf {
                    s.body.push(b'\n');
                }
            }
            How::Key(k) => s.key = k.clone(),
            How::Hash(h) => s.hash = *h,
            How::Encoding(e) => s.encoding = *e,
        }
        true
    }
}
