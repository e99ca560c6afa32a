//! `verify` (and the diagnosis it runs on a mismatch): never panics, on raw requests and on
//! correctly signed heads with arbitrary bodies and tampered parts.
#![no_main]

use std::collections::HashMap;

use chrono::TimeZone;
use libfuzzer_sys::fuzz_target;
use signscope::core::http_text::parse_raw_request;
use signscope::core::verify::{verify, ReceivedRequest, VerifyOptions};
use signscope::core::{sign, Secret, SignableRequest};

fuzz_target!(|data: &[u8]| {
    let now = chrono::Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap();
    let keys = HashMap::from([("pub-key".to_string(), Secret::new("rest-key"))]);
    let opts = VerifyOptions::default();
    if let Ok(req) = parse_raw_request(data) {
        let _ = verify(&req, &keys, &opts, now);
    }
    // A signed request whose body is the input; the first byte picks a tamper.
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let signable = SignableRequest::new("PUT", "/v2/batch", "a=1", "2026-11-22T10:00:00.000Z", "pub-key", body);
    let s = sign(&signable, &Secret::new("rest-key")).unwrap();
    let mut r = ReceivedRequest::from_signed(&signable, &s.headers);
    match pick % 6 {
        0 => {}
        1 => r.body = bytes::Bytes::copy_from_slice(&body[..body.len() / 2]),
        2 => r.headers[0].1 = body.to_vec(),
        3 => r.headers[4].1 = [b"Bearer ".as_slice(), body].concat(),
        4 => r.path = String::from_utf8_lossy(body).into_owned(),
        _ => r.headers[1].1 = body.to_vec(),
    }
    let verdict = verify(&r, &keys, &opts, now);
    if pick % 6 == 0 {
        assert!(verdict.is_ok(), "{verdict:?}");
    }
    if let Err(e) = verdict {
        let _ = e.to_string();
        let _ = (e.code(), e.status());
        if let Some(m) = e.mismatch() {
            let _ = m.diagnosis.report();
        }
    }
});
