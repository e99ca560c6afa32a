//! HMAC-SHA384 of up to eight texts at once, one text per 64-bit lane of the AVX-512
//! registers (docs/diagnosis.md D7).
//!
//! The diagnosis signs hundreds of variants that share one body: each is a different key or
//! head before it, so no hashing can be shared between them (SHA-384 chains every block to the
//! ones before), but they can be hashed side by side. One SHA-512 block costs about the same on
//! eight lanes as on one, so eight signatures of a large body cost about what two or three cost
//! one at a time with ring's assembly. The keyed states (the key's padded blocks) are computed
//! once per key with `sha2`'s compression function, the outer hash (one block) too; only the
//! inner hash of the texts runs on the lanes. On a CPU without AVX-512 [`available`] is false
//! and the search signs with ring one text at a time. The tests compare every digest with
//! ring's.

use sha2::digest::generic_array::GenericArray;
use sha2::Digest;

/// Texts hashed at once.
pub const LANES: usize = 8;

/// SHA-384's initial state.
const IV384: [u64; 8] = [
    0xcbbb9d5dc1059ed8,
    0x629a292a367cd507,
    0x9159015a3070dd17,
    0x152fecd8f70e5939,
    0x67332667ffc00b31,
    0x8eb44a8768581511,
    0xdb0c2e0d64f98fa7,
    0x47b5481dbefa4fa4,
];

/// An HMAC-SHA384 key made once: the states after its inner and outer padded key blocks.
#[derive(Clone, Debug)]
pub struct KeyState {
    inner: [u64; 8],
    outer: [u64; 8],
}

impl KeyState {
    pub fn new(key: &[u8]) -> KeyState {
        let mut k = [0u8; 128];
        if key.len() > 128 {
            k[..48].copy_from_slice(&sha2::Sha384::digest(key));
        } else {
            k[..key.len()].copy_from_slice(key);
        }
        let padded = |x: u8| {
            let block = k.map(|b| b ^ x);
            let mut s = IV384;
            sha2::compress512(&mut s, &[GenericArray::from(block)]);
            s
        };
        KeyState {
            inner: padded(0x36),
            outer: padded(0x5c),
        }
    }

    /// The HMAC of a 48-byte inner digest: the outer hash, one block.
    fn finish(&self, inner: &[u8; 48]) -> [u8; 48] {
        let mut block = [0u8; 128];
        block[..48].copy_from_slice(inner);
        block[48] = 0x80;
        block[112..].copy_from_slice(&(((128 + 48) * 8) as u128).to_be_bytes());
        let mut s = self.outer;
        sha2::compress512(&mut s, &[GenericArray::from(block)]);
        digest_bytes(&s)
    }
}

fn digest_bytes(s: &[u64; 8]) -> [u8; 48] {
    let mut out = [0u8; 48];
    for (chunk, word) in out.chunks_exact_mut(8).zip(s) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// One text to sign: its key and its bytes, the concatenation of `parts`.
#[derive(Clone, Copy)]
pub struct Text<'a> {
    pub key: &'a KeyState,
    pub parts: [&'a [u8]; 3],
}

impl Text<'_> {
    fn len(&self) -> usize {
        self.parts.iter().map(|p| p.len()).sum()
    }

    /// Blocks of the inner hash after the key block: the text, `0x80`, the length.
    fn blocks(&self) -> usize {
        (self.len() + 1 + 16).div_ceil(128)
    }

    /// Block `b` of the padded text (after the key block), as 16 big-endian words.
    fn block(&self, b: usize, words: &mut [u64; 16]) {
        let start = b * 128;
        // Most blocks lie inside one part (the body): read them where they are.
        let mut at = 0;
        for p in self.parts {
            if start >= at && start + 128 <= at + p.len() {
                let bytes = &p[start - at..start - at + 128];
                for (w, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
                    let mut word = [0u8; 8];
                    word.copy_from_slice(chunk);
                    *w = u64::from_be_bytes(word);
                }
                return;
            }
            at += p.len();
        }
        let mut buf = [0u8; 128];
        let len = self.len();
        // The text's bytes that fall in this block.
        let mut at = 0;
        for p in self.parts {
            let (lo, hi) = (at, at + p.len());
            at = hi;
            let from = lo.max(start);
            let to = hi.min(start + 128);
            if from < to {
                buf[from - start..to - start].copy_from_slice(&p[from - lo..to - lo]);
            }
        }
        if (start..start + 128).contains(&len) {
            buf[len - start] = 0x80;
        }
        if b + 1 == self.blocks() {
            let bits = ((128 + len) as u128) * 8;
            buf[112..].copy_from_slice(&bits.to_be_bytes());
        }
        for (w, chunk) in words.iter_mut().zip(buf.chunks_exact(8)) {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            *w = u64::from_be_bytes(word);
        }
    }
}

/// Whether the search should sign with [`sign`]: the CPU has AVX-512F, and this is an
/// optimised build (unoptimised, the vector code is many times slower than ring's assembly,
/// so debug builds and their tests sign with ring; the tests here check [`sign`] in any build).
pub fn available() -> bool {
    !cfg!(debug_assertions) && cpu_has_avx512()
}

/// Whether this CPU hashes eight lanes at once (AVX-512F).
fn cpu_has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The HMAC-SHA384 of each text (at most [`LANES`]), in order (right on any CPU; fast on one
/// with AVX-512).
pub fn sign(texts: &[Text<'_>]) -> Vec<[u8; 48]> {
    sign_with(texts, compress)
}

type Compress = fn(&mut [[u64; LANES]; 8], &[[u64; LANES]; 16], u8);

fn sign_with(texts: &[Text<'_>], compress: Compress) -> Vec<[u8; 48]> {
    assert!(texts.len() <= LANES, "at most {LANES} texts at once");
    // state[word][lane]
    let mut state = [[0u64; LANES]; 8];
    for (lane, t) in texts.iter().enumerate() {
        for (word, s) in state.iter_mut().enumerate() {
            s[lane] = t.key.inner[word];
        }
    }
    let blocks: Vec<usize> = texts.iter().map(Text::blocks).collect();
    let most = blocks.iter().copied().max().unwrap_or(0);
    let mut w = [[0u64; LANES]; 16];
    let mut words = [0u64; 16];
    for b in 0..most {
        let mut mask = 0u8;
        for (lane, t) in texts.iter().enumerate() {
            if b < blocks[lane] {
                mask |= 1 << lane;
                t.block(b, &mut words);
                for (row, word) in w.iter_mut().zip(words) {
                    row[lane] = word;
                }
            }
        }
        compress(&mut state, &w, mask);
    }
    texts
        .iter()
        .enumerate()
        .map(|(lane, t)| {
            let inner: [u64; 8] = std::array::from_fn(|word| state[word][lane]);
            t.key.finish(&digest_bytes(&inner))
        })
        .collect()
}

/// One SHA-512 block on every lane whose bit is set in `mask` (the others keep their state).
fn compress(state: &mut [[u64; LANES]; 8], w: &[[u64; LANES]; 16], mask: u8) {
    #[cfg(target_arch = "x86_64")]
    if cpu_has_avx512() {
        #[allow(unsafe_code)] // the audited call below (SAFETY comment)
        // SAFETY: the CPU has AVX-512F (checked just above), the only requirement of
        // `compress_avx512`; it reads and writes only the arrays it is given.
        unsafe {
            compress_avx512(state, w, mask)
        };
        return;
    }
    compress_portable(state, w, mask);
}

/// [`compress`] without AVX-512, lane by lane (the search signs with ring on such a CPU; this
/// keeps [`sign`] right everywhere).
fn compress_portable(state: &mut [[u64; LANES]; 8], w: &[[u64; LANES]; 16], mask: u8) {
    for lane in 0..LANES {
        if mask & (1 << lane) != 0 {
            let mut s: [u64; 8] = std::array::from_fn(|i| state[i][lane]);
            let mut block = [0u8; 128];
            for (chunk, row) in block.chunks_exact_mut(8).zip(w) {
                chunk.copy_from_slice(&row[lane].to_be_bytes());
            }
            sha2::compress512(&mut s, &[GenericArray::from(block)]);
            for (i, v) in s.into_iter().enumerate() {
                state[i][lane] = v;
            }
        }
    }
}

/// SHA-512's round constants.
const K: [u64; 80] = [
    0x428a2f98d728ae22,
    0x7137449123ef65cd,
    0xb5c0fbcfec4d3b2f,
    0xe9b5dba58189dbbc,
    0x3956c25bf348b538,
    0x59f111f1b605d019,
    0x923f82a4af194f9b,
    0xab1c5ed5da6d8118,
    0xd807aa98a3030242,
    0x12835b0145706fbe,
    0x243185be4ee4b28c,
    0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f,
    0x80deb1fe3b1696b1,
    0x9bdc06a725c71235,
    0xc19bf174cf692694,
    0xe49b69c19ef14ad2,
    0xefbe4786384f25e3,
    0x0fc19dc68b8cd5b5,
    0x240ca1cc77ac9c65,
    0x2de92c6f592b0275,
    0x4a7484aa6ea6e483,
    0x5cb0a9dcbd41fbd4,
    0x76f988da831153b5,
    0x983e5152ee66dfab,
    0xa831c66d2db43210,
    0xb00327c898fb213f,
    0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2,
    0xd5a79147930aa725,
    0x06ca6351e003826f,
    0x142929670a0e6e70,
    0x27b70a8546d22ffc,
    0x2e1b21385c26c926,
    0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df,
    0x650a73548baf63de,
    0x766a0abb3c77b2a8,
    0x81c2c92e47edaee6,
    0x92722c851482353b,
    0xa2bfe8a14cf10364,
    0xa81a664bbc423001,
    0xc24b8b70d0f89791,
    0xc76c51a30654be30,
    0xd192e819d6ef5218,
    0xd69906245565a910,
    0xf40e35855771202a,
    0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8,
    0x1e376c085141ab53,
    0x2748774cdf8eeb99,
    0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63,
    0x4ed8aa4ae3418acb,
    0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc,
    0x78a5636f43172f60,
    0x84c87814a1f0ab72,
    0x8cc702081a6439ec,
    0x90befffa23631e28,
    0xa4506cebde82bde9,
    0xbef9a3f7b2c67915,
    0xc67178f2e372532b,
    0xca273eceea26619c,
    0xd186b8c721c0c207,
    0xeada7dd6cde0eb1e,
    0xf57d4f7fee6ed178,
    0x06f067aa72176fba,
    0x0a637dc5a2c898a6,
    0x113f9804bef90dae,
    0x1b710b35131c471b,
    0x28db77f523047d84,
    0x32caab7b40c72493,
    0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6,
    0x597f299cfc657e2a,
    0x5fcb6fab3ad6faec,
    0x6c44198c4a475817,
];

/// One SHA-512 block on eight lanes at once (FIPS 180-4 section 6.4.2, each 64-bit word of
/// the state and schedule a vector of eight lanes).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)] // a target-feature function: callers check the feature (SAFETY above)
#[target_feature(enable = "avx512f")]
unsafe fn compress_avx512(state: &mut [[u64; LANES]; 8], w_in: &[[u64; LANES]; 16], mask: u8) {
    use std::arch::x86_64::*;

    macro_rules! add {
        ($a:expr, $b:expr) => {
            _mm512_add_epi64($a, $b)
        };
    }
    // XOR of three (truth table 0x96), choose (0xCA: a ? b : c), majority (0xE8).
    macro_rules! xor3 {
        ($a:expr, $b:expr, $c:expr) => {
            _mm512_ternarylogic_epi64::<0x96>($a, $b, $c)
        };
    }
    macro_rules! round {
        ($w:ident, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $t:expr) => {
            let big_s1 = xor3!(
                _mm512_ror_epi64::<14>($e),
                _mm512_ror_epi64::<18>($e),
                _mm512_ror_epi64::<41>($e)
            );
            let ch = _mm512_ternarylogic_epi64::<0xCA>($e, $f, $g);
            let k = _mm512_set1_epi64(K[$t] as i64);
            let t1 = add!(add!(add!($h, big_s1), add!(ch, k)), $w[$t % 16]);
            let big_s0 = xor3!(
                _mm512_ror_epi64::<28>($a),
                _mm512_ror_epi64::<34>($a),
                _mm512_ror_epi64::<39>($a)
            );
            let maj = _mm512_ternarylogic_epi64::<0xE8>($a, $b, $c);
            $d = add!($d, t1);
            $h = add!(t1, add!(big_s0, maj));
        };
    }

    let load = |row: &[u64; LANES]| _mm512_loadu_epi64(row.as_ptr().cast());
    let mut w: [__m512i; 16] = std::array::from_fn(|i| load(&w_in[i]));
    let old: [__m512i; 8] = std::array::from_fn(|i| load(&state[i]));
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = old;
    for pass in 0..5 {
        if pass > 0 {
            for j in 0..16 {
                let x = w[(j + 1) % 16];
                let s0 = xor3!(
                    _mm512_ror_epi64::<1>(x),
                    _mm512_ror_epi64::<8>(x),
                    _mm512_srli_epi64::<7>(x)
                );
                let y = w[(j + 14) % 16];
                let s1 = xor3!(
                    _mm512_ror_epi64::<19>(y),
                    _mm512_ror_epi64::<61>(y),
                    _mm512_srli_epi64::<6>(y)
                );
                w[j] = add!(add!(w[j], s0), add!(w[(j + 9) % 16], s1));
            }
        }
        let base = pass * 16;
        for half in [0, 8] {
            let t = base + half;
            round!(w, a, b, c, d, e, f, g, h, t);
            round!(w, h, a, b, c, d, e, f, g, t + 1);
            round!(w, g, h, a, b, c, d, e, f, t + 2);
            round!(w, f, g, h, a, b, c, d, e, t + 3);
            round!(w, e, f, g, h, a, b, c, d, t + 4);
            round!(w, d, e, f, g, h, a, b, c, t + 5);
            round!(w, c, d, e, f, g, h, a, b, t + 6);
            round!(w, b, c, d, e, f, g, h, a, t + 7);
        }
    }
    for (i, v) in [a, b, c, d, e, f, g, h].into_iter().enumerate() {
        let sum = _mm512_mask_add_epi64(old[i], mask, old[i], v);
        _mm512_storeu_epi64(state[i].as_mut_ptr().cast(), sum);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring_hmac(key: &[u8], parts: &[&[u8]]) -> Vec<u8> {
        let k = ring::hmac::Key::new(ring::hmac::HMAC_SHA384, key);
        let mut c = ring::hmac::Context::with_key(&k);
        for p in parts {
            c.update(p);
        }
        c.sign().as_ref().to_vec()
    }

    #[test]
    fn every_lane_signs_what_ring_signs() {
        let body: Vec<u8> = (0..20_000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        let long_key = vec![0x42u8; 200];
        let keys: Vec<&[u8]> = vec![b"k", b"rest-key-0123", &long_key, &[0u8; 128], b""];
        let states: Vec<KeyState> = keys.iter().map(|k| KeyState::new(k)).collect();
        // Heads and bodies of lengths around the block edges (111/112 bytes leave no room for
        // the length; 128 fills a block), and lanes of different block counts at once.
        let heads: Vec<Vec<u8>> = [0usize, 1, 110, 111, 112, 113, 127, 128, 129, 200]
            .iter()
            .map(|&n| vec![b'h'; n])
            .collect();
        for body_len in [0usize, 1, 17, 111, 112, 239, 240, 256, 1000, 20_000] {
            let body = &body[..body_len];
            for n in 1..=LANES {
                let texts: Vec<Text> = (0..n)
                    .map(|i| Text {
                        key: &states[(i + body_len) % states.len()],
                        parts: [
                            &heads[(i * 3 + n) % heads.len()],
                            body,
                            if i % 2 == 0 { b"\n" } else { b"" },
                        ],
                    })
                    .collect();
                let want: Vec<Vec<u8>> = texts
                    .iter()
                    .enumerate()
                    .map(|(i, t)| ring_hmac(keys[(i + body_len) % keys.len()], &t.parts))
                    .collect();
                // The AVX-512 path where the CPU has it, and the portable one everywhere.
                for (path, got) in [
                    ("sign", sign(&texts)),
                    ("portable", sign_with(&texts, compress_portable)),
                ] {
                    let got: Vec<Vec<u8>> = got.iter().map(|d| d.to_vec()).collect();
                    assert_eq!(got, want, "{path}: {n} lanes, body {body_len}");
                }
            }
        }
    }
}
