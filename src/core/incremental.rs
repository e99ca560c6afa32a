//! Signing that keeps up with typing, and signing a body that arrives in pieces.
//!
//! # [`IncrementalSigner`]
//!
//! Re-signing after an edit re-hashes only from the edit point. The signer keeps clones of the
//! HMAC-SHA384 state (`Hmac<Sha384>` is `Clone`) after the head (the seven short lines) and at
//! every [`DEFAULT_CHUNK`] (256 KiB) boundary of the body. On the next call the caller says how
//! many leading body bytes are unchanged since the previous call; the signer resumes from the
//! last checkpoint at or before that point. When the head changed (method, path, query, any
//! header value, prefix) or the key changed, it starts from scratch.
//!
//! ```
//! use signscope::core::incremental::{common_prefix_len, IncrementalSigner};
//! use signscope::core::{sign, Secret, SignableRequest};
//!
//! let key = Secret::new("rest-key");
//! let mut body = vec![b' '; 1_000_000];
//! let mut signer = IncrementalSigner::new();
//! let req = SignableRequest::new("PUT", "/v2/batch", "", "2026-11-22T10:00:00.000Z", "pk", &body);
//! let first = signer.sign(&req, &key, 0).unwrap();          // from scratch
//! assert_eq!(signer.last_rehashed(), req.canonical().len());
//!
//! let old = body.clone();
//! body.push(b'x');                                          // the user types at the end
//! let unchanged = common_prefix_len(&old, &body);           // or the editor's edit offset
//! let req = SignableRequest::new("PUT", "/v2/batch", "", "2026-11-22T10:00:00.000Z", "pk", &body);
//! let second = signer.sign(&req, &key, unchanged).unwrap();
//! assert_eq!(second, sign(&req, &key).unwrap());             // same result as from scratch
//! assert!(signer.last_rehashed() <= 256 * 1024 + 1);         // only the last chunk re-hashed
//! # let _ = first;
//! ```
//!
//! The caller must not claim more unchanged bytes than there are: `unchanged_prefix` is a
//! promise that `body[..unchanged_prefix]` equals the previous body's first bytes. Pass 0 when
//! unsure; [`common_prefix_len`] computes it from two bodies.
//!
//! # [`StreamingSigner`]
//!
//! Signs a body fed in pieces (e.g. read from a file in 1 MiB chunks) without holding it whole.

use super::form::SigningForm;
use super::request::SignableRequest;
use super::secret::Secret;
use super::sign::{new_mac, HmacSha384, SignError, Signed};

/// Distance between checkpoints in the body.
pub const DEFAULT_CHUNK: usize = 256 * 1024;

/// Re-signs a request after edits, re-hashing only from the last checkpoint before the first
/// changed body byte. See the module documentation.
#[derive(Clone)]
pub struct IncrementalSigner {
    chunk: usize,
    /// Head and key of the previous call; a change in either invalidates every checkpoint.
    head: Option<(String, Secret)>,
    /// MAC state after the head.
    after_head: Option<HmacSha384>,
    /// `checkpoints[i]` is the state after the head and `body[..(i + 1) * chunk]`.
    checkpoints: Vec<HmacSha384>,
    /// Body length of the previous call.
    body_len: usize,
    last_rehashed: usize,
}

impl Default for IncrementalSigner {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for IncrementalSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IncrementalSigner")
            .field("chunk", &self.chunk)
            .field("checkpoints", &self.checkpoints.len())
            .field("body_len", &self.body_len)
            .field("last_rehashed", &self.last_rehashed)
            .finish_non_exhaustive()
    }
}

impl IncrementalSigner {
    /// A signer with checkpoints every 256 KiB.
    pub fn new() -> Self {
        Self::with_chunk_size(DEFAULT_CHUNK)
    }

    /// A signer with checkpoints every `chunk` bytes (at least 1).
    pub fn with_chunk_size(chunk: usize) -> Self {
        IncrementalSigner {
            chunk: chunk.max(1),
            head: None,
            after_head: None,
            checkpoints: Vec::new(),
            body_len: 0,
            last_rehashed: 0,
        }
    }

    /// How many bytes of signing text the last call fed into the MAC.
    pub fn last_rehashed(&self) -> usize {
        self.last_rehashed
    }

    /// Sign `req`. `unchanged_prefix` is how many leading body bytes are the same as in the
    /// previous call (0 when unknown). The result always equals [`super::sign::sign`].
    pub fn sign(
        &mut self,
        req: &SignableRequest<'_>,
        key: &Secret,
        unchanged_prefix: usize,
    ) -> Result<Signed, SignError> {
        let canonical = req.canonical();
        let head = canonical.head();
        let body = req.body;
        let same_head = matches!(&self.head, Some((h, k)) if h == head && k == key);
        let mut rehashed = 0;
        if !same_head || self.after_head.is_none() {
            let mut mac = new_mac(key)?;
            mac.update(head.as_bytes());
            rehashed += head.len();
            self.after_head = Some(mac);
            self.checkpoints.clear();
            self.head = Some((head.to_string(), key.clone()));
        } else {
            let unchanged = unchanged_prefix.min(self.body_len).min(body.len());
            self.checkpoints.truncate(unchanged / self.chunk);
        }

        let start = self.checkpoints.len() * self.chunk;
        let mut mac = match self.checkpoints.last() {
            Some(m) => m.clone(),
            None => self.after_head.clone().expect("set above"),
        };
        let mut pos = start;
        while body.len() - pos >= self.chunk {
            mac.update(&body[pos..pos + self.chunk]);
            pos += self.chunk;
            self.checkpoints.push(mac.clone());
        }
        mac.update(&body[pos..]);
        rehashed += body.len() - start;
        self.body_len = body.len();
        self.last_rehashed = rehashed;

        let digest: [u8; 48] = mac.finalize();
        Ok(Signed::new(digest, canonical))
    }
}

/// Length of the common prefix of two byte strings.
pub fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    // Blocks of 4 KiB (one memcmp each), then bytes: megabytes are not walked a byte at a time.
    const BLOCK: usize = 4096;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// Signs a request whose body arrives in pieces. The request given to [`StreamingSigner::new`]
/// supplies the head (its `body` is ignored); feed the body with [`StreamingSigner::update`].
pub struct StreamingSigner<'a> {
    req: SignableRequest<'a>,
    form: SigningForm,
    mac: HmacSha384,
    body_len: u64,
}

impl<'a> StreamingSigner<'a> {
    /// Sign `req` in the documented form.
    pub fn new(req: &SignableRequest<'a>, key: &Secret) -> Result<Self, SignError> {
        Self::in_form(req, SigningForm::Standard, key)
    }

    /// Sign `req` as `form` signs it (its path and query lines reshaped by the form).
    pub fn in_form(
        req: &SignableRequest<'a>,
        form: SigningForm,
        key: &Secret,
    ) -> Result<Self, SignError> {
        let req = SignableRequest { body: b"", ..*req };
        let mut mac = new_mac(key)?;
        mac.update(form.canonical(&req).head().as_bytes());
        Ok(StreamingSigner {
            req,
            form,
            mac,
            body_len: 0,
        })
    }

    /// Feed the next piece of the body.
    pub fn update(&mut self, piece: &[u8]) {
        self.mac.update(piece);
        self.body_len += piece.len() as u64;
    }

    /// Body bytes fed so far.
    pub fn body_len(&self) -> u64 {
        self.body_len
    }

    /// The signature and headers.
    pub fn finish(self) -> Signed {
        Signed::new(self.mac.finalize(), self.form.canonical(&self.req))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sign::sign;
    use proptest::prelude::*;

    const TS: &str = "2026-11-22T10:00:00.000Z";

    fn req(body: &[u8]) -> SignableRequest<'_> {
        SignableRequest::new("PUT", "/v2/batch", "", TS, "pk", body)
    }

    #[test]
    fn streaming_in_a_form_signs_what_the_form_signs() {
        let key = Secret::new("k");
        let body = br#"[{"id":"1"}]"#;
        let r = SignableRequest::new("PUT", "/v2/batch/", " test=1", TS, "pk", body);
        for form in SigningForm::ALL {
            let mut s = StreamingSigner::in_form(&r, form, &key).unwrap();
            s.update(&body[..4]);
            s.update(&body[4..]);
            let streamed = s.finish();
            let whole = form.sign(&r, &key).unwrap();
            // Digest and headers (whose canonical head they keep) both equal.
            assert_eq!(streamed, whole, "{form:?}");
        }
        // The two forms sign different texts for this request, so the loop compared two things.
        let std = SigningForm::Standard.sign(&r, &key).unwrap();
        let php = SigningForm::PhpSdk.sign(&r, &key).unwrap();
        assert_ne!(std.signature(), php.signature());
    }

    #[test]
    fn typing_at_the_end_rehashes_one_chunk() {
        let key = Secret::new("k");
        let mut body = vec![b'a'; 4 * DEFAULT_CHUNK + 10];
        let mut s = IncrementalSigner::new();
        s.sign(&req(&body), &key, 0).unwrap();
        assert_eq!(s.checkpoints.len(), 4);
        let before = body.len();
        body.push(b'b');
        let got = s.sign(&req(&body), &key, before).unwrap();
        assert_eq!(got, sign(&req(&body), &key).unwrap());
        assert_eq!(s.last_rehashed(), 11);
    }

    #[test]
    fn head_or_key_change_starts_from_scratch() {
        let key = Secret::new("k");
        let body = vec![b'a'; 2 * DEFAULT_CHUNK];
        let mut s = IncrementalSigner::new();
        s.sign(&req(&body), &key, 0).unwrap();
        let mut r = req(&body);
        r.query = "x=1";
        let got = s.sign(&r, &key, body.len()).unwrap();
        assert_eq!(got, sign(&r, &key).unwrap());
        assert_eq!(s.last_rehashed(), r.canonical().len());
        let other = Secret::new("other");
        let got = s.sign(&r, &other, body.len()).unwrap();
        assert_eq!(got, sign(&r, &other).unwrap());
        assert_eq!(s.sign(&r, &Secret::new(""), 0), Err(SignError::EmptyKey));
    }

    #[test]
    fn streaming_equals_one_shot() {
        let key = Secret::new("k");
        let body: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        let r = req(&body);
        let mut st = StreamingSigner::new(&SignableRequest { body: b"", ..r }, &key).unwrap();
        for piece in body.chunks(7777) {
            st.update(piece);
        }
        assert_eq!(st.body_len(), body.len() as u64);
        assert_eq!(st.finish(), sign(&r, &key).unwrap());
    }

    #[test]
    fn common_prefix() {
        assert_eq!(common_prefix_len(b"", b"abc"), 0);
        assert_eq!(common_prefix_len(b"abc", b"abd"), 2);
        let a = vec![1u8; 1000];
        let mut b = a.clone();
        b[700] = 2;
        assert_eq!(common_prefix_len(&a, &b), 700);
        assert_eq!(common_prefix_len(&a, &a[..999]), 999);
        // Across and on block boundaries.
        let a = vec![1u8; 10_000];
        for at in [4095, 4096, 4097, 9_000] {
            let mut b = a.clone();
            b[at] = 2;
            assert_eq!(common_prefix_len(&a, &b), at);
        }
        assert_eq!(common_prefix_len(&a, &a[..8192]), 8192);
    }

    #[derive(Debug, Clone)]
    enum Edit {
        Insert(usize, Vec<u8>),
        Delete(usize, usize),
        Replace(usize, u8),
        Query(String),
    }

    fn edit() -> impl Strategy<Value = Edit> {
        prop_oneof![
            (
                any::<usize>(),
                proptest::collection::vec(any::<u8>(), 0..40)
            )
                .prop_map(|(p, b)| Edit::Insert(p, b)),
            (any::<usize>(), 0usize..40).prop_map(|(p, n)| Edit::Delete(p, n)),
            (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Edit::Replace(p, b)),
            "[a-z=&]{0,6}".prop_map(Edit::Query),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn incremental_equals_from_scratch(
            initial in proptest::collection::vec(any::<u8>(), 0..300),
            chunk in 1usize..64,
            edits in proptest::collection::vec(edit(), 1..25),
        ) {
            let key = Secret::new("rest");
            let mut body = initial;
            let mut query = String::new();
            let mut s = IncrementalSigner::with_chunk_size(chunk);
            let r = SignableRequest { query: &query, ..req(&body) };
            prop_assert_eq!(s.sign(&r, &key, 0).unwrap(), sign(&r, &key).unwrap());
            for e in edits {
                let old = body.clone();
                // The first changed byte as an editor would report it.
                let changed_at = match e {
                    Edit::Insert(p, ref b) => {
                        let p = p % (body.len() + 1);
                        body.splice(p..p, b.iter().copied());
                        p
                    }
                    Edit::Delete(p, n) => {
                        let p = p % (body.len() + 1);
                        let end = (p + n).min(body.len());
                        body.drain(p..end);
                        p
                    }
                    Edit::Replace(p, b) => {
                        if body.is_empty() { 0 } else {
                            let p = p % body.len();
                            body[p] = b;
                            p
                        }
                    }
                    Edit::Query(q) => { query = q; body.len() }
                };
                prop_assert!(common_prefix_len(&old, &body) >= changed_at.min(old.len()).min(body.len()));
                let r = SignableRequest { query: &query, ..req(&body) };
                let got = s.sign(&r, &key, changed_at).unwrap();
                prop_assert_eq!(got, sign(&r, &key).unwrap());
            }
        }
    }
}
