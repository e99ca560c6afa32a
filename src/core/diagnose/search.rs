//! The search: sign variants of the expected text, one mistake at a time and then every pair
//! that can co-occur, until one reproduces the provided signature; the smallest explanation wins.
//!
//! Cost is bounded: the provided signature is decoded once into the digests it can be (base64,
//! unpadded, URL-safe, hex), so the encoding and the hash function cost no search; only the
//! hash functions whose digest length occurs are computed; every comparison is constant-time
//! (`subtle`); and the bytes hashed per diagnosis stop at a budget (the diagnosis says so).

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use subtle::ConstantTimeEq;

use super::body::{build, pair_recipes, single_recipes, NotBuilt, Recipe};
use super::catalogue::Mistake;
use super::head::{head_mods, php_sdk_mod, Head, HeadMod};
use crate::core::secret::Secret;

/// Bytes hashed per diagnosis before the search stops (512 MiB: the full search of a 1 MB body
/// fits; a body of hundreds of MB gets the cheapest checks only).
pub const DEFAULT_BUDGET: u64 = 512 * 1024 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HashFn {
    Sha384,
    Sha256,
}

/// A digest the provided signature can be, with the encoding mistake it implies.
struct Target {
    digest: Vec<u8>,
    encoding: Option<Mistake>,
}

/// Every digest the provided signature decodes to (48 or 32 bytes only).
fn targets(provided: &str) -> Vec<Target> {
    let mut out: Vec<Target> = Vec::new();
    let mut add = |digest: Vec<u8>, encoding: Option<Mistake>| {
        if matches!(digest.len(), 48 | 32) && !out.iter().any(|t| t.digest == digest) {
            out.push(Target { digest, encoding });
        }
    };
    if let Ok(d) = STANDARD.decode(provided) {
        add(d, None);
    } else if let Ok(d) = STANDARD_NO_PAD.decode(provided) {
        add(d, Some(Mistake::Base64PaddingMissing));
    }
    if provided.contains(['-', '_']) {
        if let Ok(d) = URL_SAFE
            .decode(provided)
            .or_else(|_| URL_SAFE_NO_PAD.decode(provided))
        {
            add(d, Some(Mistake::UrlSafeBase64));
        }
    }
    if provided.len() % 2 == 0 && provided.bytes().all(|b| b.is_ascii_hexdigit()) {
        if let Ok(d) = hex::decode(provided) {
            add(d, Some(Mistake::HexInsteadOfBase64));
        }
    }
    out
}

/// Whether the provided signature can be any digest at all (48 or 32 bytes in a known encoding).
pub fn decodes_to_a_digest(provided: &str) -> bool {
    !targets(provided.trim()).is_empty()
}

fn hmac(hash: HashFn, key: &[u8], parts: &[&[u8]]) -> Vec<u8> {
    let alg = match hash {
        HashFn::Sha384 => ring::hmac::HMAC_SHA384,
        HashFn::Sha256 => ring::hmac::HMAC_SHA256,
    };
    let mut ctx = ring::hmac::Context::with_key(&ring::hmac::Key::new(alg, key));
    for p in parts {
        ctx.update(p);
    }
    ctx.sign().as_ref().to_vec()
}

/// A REST key a client may have signed with instead of the right one.
pub struct KeyVariant {
    pub mistake: Mistake,
    pub bytes: Vec<u8>,
}

/// The key variants for a REST key, the request's API key, and the other accounts known.
pub fn key_variants(key: &str, api_key: &str, others: &[(String, Secret)]) -> Vec<KeyVariant> {
    let mut out: Vec<KeyVariant> = Vec::new();
    let mut add = |mistake: Mistake, bytes: Vec<u8>| {
        if bytes != key.as_bytes() && !bytes.is_empty() && !out.iter().any(|k| k.bytes == bytes) {
            out.push(KeyVariant { mistake, bytes });
        }
    };
    add(
        Mistake::KeyWhitespaceTrimmed,
        key.trim().as_bytes().to_vec(),
    );
    for nl in ["\n", "\r\n"] {
        add(
            Mistake::KeyWithTrailingNewline,
            format!("{key}{nl}").into_bytes(),
        );
    }
    for q in ['"', '\''] {
        add(Mistake::KeyQuoted, format!("{q}{key}{q}").into_bytes());
        if key.len() >= 2 && key.starts_with(q) && key.ends_with(q) {
            add(
                Mistake::KeyQuoted,
                key.as_bytes()[1..key.len() - 1].to_vec(),
            );
        }
    }
    if key.len() >= 8
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_'))
    {
        let decoded = STANDARD
            .decode(key)
            .or_else(|_| STANDARD_NO_PAD.decode(key))
            .or_else(|_| URL_SAFE.decode(key))
            .or_else(|_| URL_SAFE_NO_PAD.decode(key));
        if let Ok(d) = decoded {
            add(Mistake::KeyBase64Decoded, d);
        }
    }
    if !api_key.is_empty() {
        add(Mistake::PublicApiKeyAsSecret, api_key.as_bytes().to_vec());
    }
    for (name, secret) in others {
        add(
            Mistake::OtherAccountKey {
                api_key: name.clone(),
            },
            secret.expose().as_bytes().to_vec(),
        );
    }
    out
}

/// What the search found and what it cost.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The smallest explanation (empty when none).
    pub findings: Vec<Mistake>,
    /// Bytes hashed.
    pub hashed: u64,
    /// The budget ran out before the search was complete.
    pub cut_short: bool,
    /// Variants not tried because sorting keys needs a tree the body is too large for.
    pub skipped_tree: bool,
}

struct Searcher<'a> {
    targets: Vec<Target>,
    hashes: Vec<HashFn>,
    budget: u64,
    out: Outcome,
    found: Vec<Vec<Mistake>>,
    _p: std::marker::PhantomData<&'a ()>,
}

impl Searcher<'_> {
    /// Hash one variant; false once the budget is spent.
    fn try_variant(&mut self, mistakes: &[Mistake], key: &[u8], parts: &[&[u8]]) -> bool {
        let len: u64 = parts.iter().map(|p| p.len() as u64).sum::<u64>() * self.hashes.len() as u64;
        if self.out.hashed + len > self.budget {
            self.out.cut_short = true;
            return false;
        }
        self.out.hashed += len;
        for &h in &self.hashes {
            let digest = hmac(h, key, parts);
            for t in &self.targets {
                if t.digest.len() == digest.len() && bool::from(t.digest.ct_eq(&digest)) {
                    let mut ms = mistakes.to_vec();
                    if h == HashFn::Sha256 {
                        ms.push(Mistake::Sha256InsteadOfSha384);
                    }
                    ms.extend(t.encoding.clone());
                    if !self.found.contains(&ms) {
                        self.found.push(ms);
                    }
                }
            }
        }
        true
    }

    fn done(&self) -> bool {
        !self.found.is_empty() || self.out.cut_short
    }
}

/// Everything the search needs about one request.
pub struct Problem<'a> {
    pub base: Head,
    pub host: Option<&'a str>,
    pub body: &'a [u8],
    pub key: &'a [u8],
    pub keys: Vec<KeyVariant>,
    pub provided: &'a str,
    pub budget: u64,
}

/// Search singles, then pairs, then the PHP SDK's form with one more mistake.
pub fn search(p: &Problem<'_>) -> Outcome {
    let targets = targets(p.provided);
    let mut hashes = Vec::new();
    if targets.iter().any(|t| t.digest.len() == 48) {
        hashes.push(HashFn::Sha384);
    }
    if targets.iter().any(|t| t.digest.len() == 32) {
        hashes.push(HashFn::Sha256);
    }
    let mut s = Searcher {
        targets,
        hashes,
        budget: p.budget,
        out: Outcome::default(),
        found: Vec::new(),
        _p: std::marker::PhantomData,
    };
    if !s.hashes.is_empty() {
        run(&mut s, p);
    }
    let mut out = s.out;
    // The smallest explanation; equally small ones (rare) are all named.
    if let Some(min) = s.found.iter().map(Vec::len).min() {
        for ms in s.found.iter().filter(|m| m.len() == min) {
            for m in ms {
                if !out.findings.contains(m) {
                    out.findings.push(m.clone());
                }
            }
        }
    }
    out
}

fn run(s: &mut Searcher<'_>, p: &Problem<'_>) {
    let head = p.base.bytes();
    let body = p.body;
    // The right text and key: only the encoding or the hash function differ.
    s.try_variant(&[], p.key, &[&head, body]);
    if s.done() {
        return;
    }
    let mods = head_mods(&p.base, p.host);
    let heads: Vec<(Vec<Mistake>, Vec<u8>)> = dedup_heads(
        &head,
        mods.iter()
            .map(|m| (m.mistakes.clone(), p.base.with(m).bytes())),
    );

    // Singles: a key, a head, a body.
    for k in &p.keys {
        if !s.try_variant(std::slice::from_ref(&k.mistake), &k.bytes, &[&head, body]) {
            return;
        }
    }
    for (ms, h) in &heads {
        if !s.try_variant(ms, p.key, &[h, body]) {
            return;
        }
    }
    for r in single_recipes(body) {
        if !with_body(s, body, &r, |s, b| {
            s.try_variant(&r.mistakes(), p.key, &cat(&head, b))
        }) {
            return;
        }
    }
    if s.done() {
        return;
    }

    // Pairs: two head mistakes.
    let pairable: Vec<&HeadMod> = mods.iter().filter(|m| m.pairable).collect();
    let mut pair_heads: Vec<(Vec<Mistake>, Vec<u8>)> = Vec::new();
    for (i, a) in pairable.iter().enumerate() {
        for b in &pairable[i + 1..] {
            if a.composes_with(b) {
                let ms = [a.mistakes.clone(), b.mistakes.clone()].concat();
                pair_heads.push((ms, p.base.with(a).with(b).bytes()));
            }
        }
    }
    let mut known: Vec<Vec<u8>> = heads.iter().map(|(_, h)| h.clone()).collect();
    known.push(head.clone());
    pair_heads.retain(|(_, h)| {
        if known.contains(h) {
            false
        } else {
            known.push(h.clone());
            true
        }
    });
    for (ms, h) in &pair_heads {
        if !s.try_variant(ms, p.key, &[h, body]) {
            return;
        }
    }
    // A head mistake and a key variant.
    let pairable_heads: Vec<(Vec<Mistake>, Vec<u8>)> = pairable
        .iter()
        .map(|m| (m.mistakes.clone(), p.base.with(m).bytes()))
        .filter(|(_, h)| *h != head)
        .collect();
    for k in &p.keys {
        for (ms, h) in &pairable_heads {
            let all = [ms.clone(), vec![k.mistake.clone()]].concat();
            if !s.try_variant(&all, &k.bytes, &[h, body]) {
                return;
            }
        }
    }
    // A body mistake with a key variant or a head mistake; two body mistakes.
    for r in single_recipes(body) {
        let cont = with_body(s, body, &r, |s, b| {
            for k in &p.keys {
                let all = [r.mistakes(), vec![k.mistake.clone()]].concat();
                if !s.try_variant(&all, &k.bytes, &cat(&head, b)) {
                    return false;
                }
            }
            for (ms, h) in &pairable_heads {
                let all = [ms.clone(), r.mistakes()].concat();
                if !s.try_variant(&all, p.key, &cat(h, b)) {
                    return false;
                }
            }
            true
        });
        if !cont {
            return;
        }
    }
    for r in pair_recipes() {
        if !with_body(s, body, &r, |s, b| {
            s.try_variant(&r.mistakes(), p.key, &cat(&head, b))
        }) {
            return;
        }
    }
    // A clock read twice or another header order, with a key variant.
    for m in mods.iter().filter(|m| !m.pairable) {
        let h = p.base.with(m).bytes();
        for k in &p.keys {
            let all = [m.mistakes.clone(), vec![k.mistake.clone()]].concat();
            if !s.try_variant(&all, &k.bytes, &[&h, body]) {
                return;
            }
        }
    }
    if s.done() {
        return;
    }

    // The PHP SDK's form (two mistakes) with one more.
    let Some(php) = php_sdk_mod(&p.base) else {
        return;
    };
    let php_head = p.base.with(&php);
    let php_bytes = php_head.bytes();
    for m in mods.iter().filter(|m| php.composes_with(m)) {
        let all = [php.mistakes.clone(), m.mistakes.clone()].concat();
        if !s.try_variant(&all, p.key, &[&php_head.with(m).bytes(), body]) {
            return;
        }
    }
    for k in &p.keys {
        let all = [php.mistakes.clone(), vec![k.mistake.clone()]].concat();
        if !s.try_variant(&all, &k.bytes, &[&php_bytes, body]) {
            return;
        }
    }
    for r in single_recipes(body) {
        if !with_body(s, body, &r, |s, b| {
            let all = [php.mistakes.clone(), r.mistakes()].concat();
            s.try_variant(&all, p.key, &cat(&php_bytes, b))
        }) {
            return;
        }
    }
}

/// Heads that differ from the expected one and from each other.
fn dedup_heads(
    expected: &[u8],
    heads: impl Iterator<Item = (Vec<Mistake>, Vec<u8>)>,
) -> Vec<(Vec<Mistake>, Vec<u8>)> {
    let mut out: Vec<(Vec<Mistake>, Vec<u8>)> = Vec::new();
    for (ms, h) in heads {
        if h != expected && !out.iter().any(|(_, o)| *o == h) {
            out.push((ms, h));
        }
    }
    out
}

/// The parts to hash: a head, then the parts of a body.
fn cat<'x>(head: &'x [u8], body: &[&'x [u8]]) -> Vec<&'x [u8]> {
    std::iter::once(head).chain(body.iter().copied()).collect()
}

/// Build one body variant and run `f` on its parts (the trailing LF, when the recipe has one,
/// is a part of its own, so the sent body is never copied for it); false when `f` ran out of
/// budget. The variant is dropped before the next is built.
fn with_body<F>(s: &mut Searcher<'_>, body: &[u8], r: &Recipe, f: F) -> bool
where
    F: FnOnce(&mut Searcher<'_>, &[&[u8]]) -> bool,
{
    // A variant costs at least a body's worth of hashing: do not build one past the budget.
    if s.out.hashed + body.len() as u64 > s.budget {
        s.out.cut_short = true;
        return false;
    }
    let base = Recipe {
        trailing_lf: false,
        ..*r
    };
    let plain = !base.empty && base.style.is_none() && !base.toggle_unicode && !base.toggle_slashes;
    let built = if plain {
        None
    } else {
        match build(body, &base) {
            Ok(b) => Some(b),
            Err(NotBuilt::TooLargeForTree) => {
                s.out.skipped_tree = true;
                return true;
            }
            Err(_) => return true,
        }
    };
    let main: &[u8] = built.as_deref().unwrap_or(body);
    if r.trailing_lf {
        f(s, &[main, b"\n"])
    } else {
        f(s, &[main])
    }
}
