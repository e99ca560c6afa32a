//! What each mistake does to a signing, defined once: [`Mistake::head_change`] (which the
//! search's head variants in `head.rs` are made with), [`Mistake::apply`] (with which the
//! exercises make their requests) and [`Mistake::changes`] (whether a mistake applies to a
//! request at all, for the exercises' draws). docs/diagnosis.md, "Adding a mistake". Kept
//! beside the catalogue, not in it, so that the catalogue, the head and the bodies import no
//! one another in a loop (`tests/architecture.rs`).

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE};
use base64::Engine;

use super::body::{build, Recipe, Style};
use super::catalogue::Mistake;
use super::head::{shifted_timestamp, without_param, Change, Head};

/// How a client sends the HMAC it computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    #[default]
    Base64,
    Hex,
    UrlSafe,
    Unpadded,
}

/// One signing as a client makes it: the head and body it signs, the key, the hash function
/// and how it sends the digest. [`Mistake::apply`] makes a mistake in it.
#[derive(Clone, Debug)]
pub struct Signing {
    pub head: Head,
    pub body: Vec<u8>,
    pub key: Vec<u8>,
    pub sha256: bool,
    pub encoding: Encoding,
}

impl Signing {
    /// The documented signing of a request: the expected head, the body sent, the REST key.
    pub fn expected(head: Head, body: &[u8], key: &[u8]) -> Signing {
        Signing {
            head,
            body: body.to_vec(),
            key: key.to_vec(),
            sha256: false,
            encoding: Encoding::Base64,
        }
    }

    /// The signature this client sends.
    pub fn signature(&self) -> String {
        let alg = if self.sha256 {
            ring::hmac::HMAC_SHA256
        } else {
            ring::hmac::HMAC_SHA384
        };
        let mut ctx = ring::hmac::Context::with_key(&ring::hmac::Key::new(alg, &self.key));
        ctx.update(&self.head.bytes());
        ctx.update(&self.body);
        let tag = ctx.sign();
        let d = tag.as_ref();
        match self.encoding {
            Encoding::Base64 => STANDARD.encode(d),
            Encoding::Hex => hex::encode(d),
            Encoding::UrlSafe => URL_SAFE.encode(d),
            Encoding::Unpadded => STANDARD_NO_PAD.encode(d),
        }
    }
}

impl Mistake {
    /// The change this mistake makes to a head like `head` (`None` for a mistake outside the
    /// head, or one that cannot apply to it). This is the one definition of each head mistake:
    /// the diagnosis' variants (`head::head_mods`) and the exercises' requests are both made
    /// with it.
    pub fn head_change(&self, head: &Head) -> Option<Change> {
        Some(match self {
            Mistake::QuestionMarkBeforeQuery => Change::QueryMark,
            // Only an empty query line can be left out as this mistake (a query's line left
            // out is a query removed after signing).
            Mistake::EmptyQueryLineOmitted if head.query.as_deref() == Some("") => {
                Change::QueryOmitted
            }
            Mistake::TrailingSlashTrimmed => Change::PathTrimmed,
            Mistake::CrlfLineEndings => Change::Crlf,
            Mistake::LowercaseHeaderNames => Change::LowerNames,
            Mistake::LowercaseMethod => Change::Method(head.method.to_ascii_lowercase()),
            Mistake::QueryPercentDecoded { plus } => Change::QueryDecoded { plus: *plus },
            Mistake::QueryParamsSorted => Change::QuerySorted,
            Mistake::FullUrlAsPath { url } => Change::PathUrl(url.clone()),
            Mistake::PathPercentDecoded => Change::PathDecoded,
            Mistake::TimestampFormDiffers { signed } => Change::Timestamp(signed.clone()),
            Mistake::TimestampDiffers { offset_ms } => {
                Change::Timestamp(shifted_timestamp(&head.values[0], *offset_ms)?)
            }
            Mistake::ContentTypeDiffers { signed } => Change::ContentType(signed.clone()),
            Mistake::HeaderPrefixDiffers { signed, .. } => Change::Prefix(signed.clone()),
            Mistake::HeaderLinesReordered { order } => Change::Order(*order),
            Mistake::QueryAddedAfterSigning { added } => {
                let query = head.query.as_deref()?;
                if query == added {
                    Change::Query(String::new())
                } else {
                    let i = query.split('&').position(|p| p == added)?;
                    Change::Query(without_param(query, i))
                }
            }
            Mistake::QueryRemovedAfterSigning { removed } => Change::Query(removed.clone()),
            _ => return None,
        })
    }

    /// The body recipe of a body mistake made while signing, in its first form (compact,
    /// 2 spaces, keys sorted compactly); the search tries every form (`body::single_recipes`).
    fn body_recipe(&self) -> Option<Recipe> {
        let style = |s: Style, sorted: bool| Recipe {
            style: Some((s, sorted)),
            ..Recipe::default()
        };
        Some(match self {
            Mistake::TrailingLfAfterBody => Recipe {
                trailing_lf: true,
                ..Recipe::default()
            },
            Mistake::EmptyBodySigned => Recipe {
                empty: true,
                ..Recipe::default()
            },
            Mistake::BodyReserialisedCompact => style(Style::Compact, false),
            Mistake::BodyReserialisedPretty => style(Style::Pretty2, false),
            Mistake::BodySortedKeys => style(Style::Compact, true),
            Mistake::BodyUnicodeEscaped => Recipe {
                toggle_unicode: true,
                ..Recipe::default()
            },
            Mistake::BodySlashesEscaped => Recipe {
                toggle_slashes: true,
                ..Recipe::default()
            },
            _ => return None,
        })
    }

    /// Whether this mistake can be made in `s` and changes the signature it gives: the one
    /// test of whether a mistake applies to a request (the search keeps only head variants
    /// that change the head; the exercises draw only mistakes for which this holds).
    pub fn changes(&self, s: &Signing) -> bool {
        let mut made = s.clone();
        self.apply(&mut made) && made.signature() != s.signature()
    }

    /// Make this mistake in a signing, as a client does (used by the exercises, which make
    /// their requests with it; the diagnosis' search makes the same head changes through
    /// [`Mistake::head_change`] and the same bodies through `body::build`). False when it
    /// cannot be made there: a change after signing changes the request, not the signing; a
    /// body that is not JSON cannot be re-serialised; another account's key is not known.
    pub fn apply(&self, s: &mut Signing) -> bool {
        if let Some(c) = self.head_change(&s.head) {
            s.head.apply(&c);
            return true;
        }
        if let Some(r) = self.body_recipe() {
            let rewrite = Recipe {
                trailing_lf: false,
                ..r
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
            return true;
        }
        match self {
            Mistake::KeyWhitespaceTrimmed => s.key = s.key.trim_ascii().to_vec(),
            Mistake::KeyWithTrailingNewline => s.key.push(b'\n'),
            Mistake::KeyQuoted => s.key = [&b"\""[..], &s.key, b"\""].concat(),
            Mistake::KeyBase64Decoded => match STANDARD.decode(&s.key) {
                Ok(k) => s.key = k,
                Err(_) => return false,
            },
            Mistake::PublicApiKeyAsSecret => s.key = s.head.values[1].clone().into_bytes(),
            Mistake::HexInsteadOfBase64 => s.encoding = Encoding::Hex,
            Mistake::UrlSafeBase64 => s.encoding = Encoding::UrlSafe,
            Mistake::Base64PaddingMissing => s.encoding = Encoding::Unpadded,
            Mistake::Sha256InsteadOfSha384 => s.sha256 = true,
            _ => return false,
        }
        true
    }
}
