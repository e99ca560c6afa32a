//! Calls `sign` (or the bare HMAC over the same canonical bytes) N times, for counting
//! instructions under callgrind: `benches/sign_instructions.sh` runs it with N = 0 and N = 20 and
//! prints the per-call difference and the sign / bare ratio (target: <= 1.05, see benches/README.md). Counts do
//! not depend on the machine's load, unlike wall-clock ratios on a shared VM.
//!
//! Usage: `sign_instructions <sign|bare> <calls> <body bytes>`.

// Example code: an unwrap that fails is a failed example, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

#[path = "../benches/common/mod.rs"]
mod common;

use std::hint::black_box;

use signscope::core::sign::hmac_sha384;
use signscope::core::{sign, Secret, SignableRequest};

const TS: &str = "2026-11-22T10:00:00.000Z";
const KEY: &str = "bench-rest-key";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [what, calls, size] = args.as_slice() else {
        eprintln!("usage: sign_instructions <sign|bare> <calls> <body bytes>");
        std::process::exit(2);
    };
    let calls: usize = calls.parse().expect("calls is a number");
    let size: usize = size.parse().expect("body bytes is a number");
    let body = common::records_body(size);
    let req = SignableRequest::new("PUT", "/v2/batch", "test=1", TS, "pub-key", &body);
    let key = Secret::new(KEY);
    let canonical = req.canonical().to_bytes();
    let mut sink = 0u8;
    match what.as_str() {
        "sign" => {
            for _ in 0..calls {
                let s = sign(black_box(&req), &key).expect("key is set");
                sink ^= s.digest[0];
                drop(black_box(s));
            }
        }
        "bare" => {
            for _ in 0..calls {
                sink ^= hmac_sha384(KEY.as_bytes(), &[black_box(&canonical)])[0];
            }
        }
        _ => {
            eprintln!("the first argument must be sign or bare");
            std::process::exit(2);
        }
    }
    println!("{sink}");
}
