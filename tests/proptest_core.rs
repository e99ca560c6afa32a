//! Property tests of the signing core: the canonical text survives printing as raw
//! HTTP and parsing back; sign-then-verify always accepts; any single-byte change to any signed
//! part is rejected.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use chrono::{DateTime, TimeZone, Utc};
use proptest::prelude::*;
use signscope::core::http_text::{parse_raw_request, to_raw_request};
use signscope::core::time::format_timestamp;
use signscope::core::verify::{verify, ReceivedRequest, SingleKey, VerifyOptions};
use signscope::core::{sign, Secret, SignableRequest};

#[derive(Debug, Clone)]
struct Parts {
    method: String,
    path: String,
    query: String,
    prefix: String,
    time: DateTime<Utc>,
    api_key: String,
    key: String,
    body: Vec<u8>,
}

fn parts() -> impl Strategy<Value = Parts> {
    (
        "[A-Z]{1,7}",
        "/[A-Za-z0-9/._~%-]{0,30}",
        "[A-Za-z0-9=&%._~+-]{0,30}",
        "[A-Za-z]{1,8}",
        0i64..4_000_000_000,
        "[!-~]{1,24}",
        "[ -~]{1,40}",
        proptest::collection::vec(any::<u8>(), 0..400),
    )
        .prop_map(
            |(method, path, query, prefix, secs, api_key, key, body)| Parts {
                method,
                path,
                query,
                prefix,
                time: Utc.timestamp_opt(secs, 0).unwrap(),
                api_key,
                key,
                body,
            },
        )
}

impl Parts {
    fn timestamp(&self) -> String {
        format_timestamp(self.time)
    }

    fn signed(&self) -> ReceivedRequest {
        let ts = self.timestamp();
        let req = SignableRequest {
            header_prefix: &self.prefix,
            ..SignableRequest::new(
                &self.method,
                &self.path,
                &self.query,
                &ts,
                &self.api_key,
                &self.body,
            )
        };
        let s = sign(&req, &Secret::new(self.key.clone())).unwrap();
        ReceivedRequest::from_signed(&req, &s.headers)
    }

    fn check(&self, r: &ReceivedRequest, now: DateTime<Utc>) -> Result<(), String> {
        let keys = SingleKey {
            api_key: None,
            secret: Secret::new(self.key.clone()),
        };
        let opts = VerifyOptions {
            header_prefix: self.prefix.clone(),
            ..VerifyOptions::default()
        };
        verify(r, &keys, &opts, now)
            .map(|_| ())
            .map_err(|e| e.code().to_string())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn canonical_text_round_trips_through_raw_http(p in parts()) {
        let ts = p.timestamp();
        let req = SignableRequest {
            header_prefix: &p.prefix,
            ..SignableRequest::new(&p.method, &p.path, &p.query, &ts, &p.api_key, &p.body)
        };
        let signed = sign(&req, &Secret::new(p.key.clone())).unwrap();
        let raw = to_raw_request(&req, &signed, "127.0.0.1:8080");
        let back = parse_raw_request(&raw).unwrap();
        prop_assert_eq!(&back.method, &p.method);
        prop_assert_eq!(&back.path, &p.path);
        prop_assert_eq!(&back.query, &p.query);
        prop_assert_eq!(&back.body[..], &p.body[..]);
        let names = req.header_names();
        let (ts_back, api_back) = (back.header_text(&names.timestamp), back.header_text(&names.api_key));
        let again = SignableRequest {
            header_prefix: &p.prefix,
            ..SignableRequest::new(
                &back.method,
                &back.path,
                &back.query,
                &ts_back,
                &api_back,
                &back.body,
            )
        };
        prop_assert_eq!(again.canonical().to_bytes(), req.canonical().to_bytes());
        prop_assert_eq!(p.check(&back, p.time), Ok(()));
    }

    #[test]
    fn sign_then_verify_always_accepts(p in parts(), skew in -600_000i64..=600_000) {
        let now = p.time + chrono::Duration::milliseconds(skew);
        prop_assert_eq!(p.check(&p.signed(), now), Ok(()));
    }

    #[test]
    fn any_single_byte_change_to_a_signed_part_is_rejected(
        p in parts(),
        part in 0usize..6,
        pos in any::<usize>(),
        delta in 1u8..=255,
    ) {
        let mut r = p.signed();
        let change = |bytes: &mut Vec<u8>| {
            if bytes.is_empty() {
                bytes.push(delta);
            } else {
                let i = pos % bytes.len();
                bytes[i] = bytes[i].wrapping_add(delta);
            }
        };
        let as_string = |s: &mut String, ascii_upper: bool| {
            let mut b = std::mem::take(s).into_bytes();
            if ascii_upper {
                // The method is signed upper-cased, so change it to another upper-case letter.
                let i = pos % b.len();
                b[i] = b'A' + (b[i] - b'A' + 1 + delta % 25) % 26;
            } else {
                change(&mut b);
            }
            *s = String::from_utf8_lossy(&b).into_owned();
        };
        match part {
            0 => as_string(&mut r.method, true),
            1 => as_string(&mut r.path, false),
            2 => as_string(&mut r.query, false),
            3 => {
                let mut b = r.body.to_vec();
                change(&mut b);
                r.body = b.into();
            }
            4 | 5 => {
                // The timestamp or the API key header value.
                let name = if part == 4 { "TIMESTAMP" } else { "APIKEY" };
                let h = r.headers.iter_mut().find(|(n, _)| n.ends_with(name)).unwrap();
                change(&mut h.1);
            }
            _ => unreachable!(),
        }
        prop_assert!(p.check(&r, p.time).is_err(), "part {} change was accepted", part);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The scheme's MAC (ring) equals RustCrypto's `hmac` + `sha2`, an independent
    /// implementation, for any key and any split of the input into pieces, including a state
    /// cloned mid-way (what the incremental signer's checkpoints do).
    #[test]
    fn the_mac_agrees_with_rustcrypto(
        key in prop::collection::vec(any::<u8>(), 0..200),
        pieces in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..300), 0..6),
    ) {
        use hmac::{Hmac, Mac};
        let mut ours = signscope::core::sign::HmacSha384::new(&key);
        let mut reference = Hmac::<sha2::Sha384>::new_from_slice(&key).unwrap();
        let mut checkpoint = None;
        for (i, p) in pieces.iter().enumerate() {
            ours.update(p);
            reference.update(p);
            if i == 0 {
                checkpoint = Some((ours.clone(), reference.clone()));
            }
        }
        prop_assert_eq!(ours.finalize().to_vec(), reference.finalize().into_bytes().to_vec());
        if let Some((mut ours, mut reference)) = checkpoint {
            ours.update(b"after the checkpoint");
            reference.update(b"after the checkpoint");
            prop_assert_eq!(ours.finalize().to_vec(), reference.finalize().into_bytes().to_vec());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// `sign` and the canonical text against a reference written straight from the spec with
    /// `format!` and RustCrypto: any case of method and prefix, any text in the values (including
    /// non-ASCII and `=`), any body. The headers come back as exactly the five pairs, whatever
    /// way signing lays them out in memory.
    #[test]
    fn sign_matches_a_reference_built_from_the_spec(
        method in "[a-zA-Z\u{e9}]{0,8}",
        prefix in "[a-zA-Z0-9=\u{e9}-]{0,12}",
        values in prop::collection::vec("\\PC{0,40}", 6),
        key in "[ -~]{1,40}",
        body in prop::collection::vec(any::<u8>(), 0..300),
    ) {
        use base64::Engine;
        use hmac::{Hmac, Mac};
        let [path, query, ts, api_key, algo, ct] = [0, 1, 2, 3, 4, 5].map(|i| values[i].as_str());
        let req = SignableRequest {
            method: &method,
            path,
            query,
            header_prefix: &prefix,
            timestamp: ts,
            api_key,
            auth_algo: algo,
            content_type: ct,
            body: &body,
        };
        let p = prefix.to_ascii_uppercase();
        let head = format!(
            "{}\n{path}\n{query}\nX-{p}-TIMESTAMP={ts}\nX-{p}-APIKEY={api_key}\n\
             X-{p}-AUTH-ALGO={algo}\nContent-Type={ct}\n",
            method.to_ascii_uppercase()
        );
        let mut text = head.clone().into_bytes();
        text.extend_from_slice(&body);
        let canonical = req.canonical();
        prop_assert_eq!(canonical.head(), head.as_str());
        prop_assert_eq!(canonical.to_bytes(), text.clone());

        let mut mac = Hmac::<sha2::Sha384>::new_from_slice(key.as_bytes()).unwrap();
        mac.update(&text);
        let signature = base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes());
        let s = sign(&req, &Secret::new(key)).unwrap();
        prop_assert_eq!(s.signature(), signature.as_str());
        let want = [
            (format!("X-{p}-TIMESTAMP"), ts.to_string()),
            (format!("X-{p}-APIKEY"), api_key.to_string()),
            (format!("X-{p}-AUTH-ALGO"), algo.to_string()),
            ("Content-Type".to_string(), ct.to_string()),
            ("Authorization".to_string(), format!("Bearer {signature}")),
        ];
        prop_assert_eq!(s.headers.to_vec(), want.to_vec());
        prop_assert_eq!(s.headers.iter().len(), 5);
        let pairs: Vec<(&str, &str)> = canonical.signed_headers().to_vec();
        prop_assert_eq!(&pairs[..], &s.headers.iter().take(4).collect::<Vec<_>>()[..]);
    }
}
