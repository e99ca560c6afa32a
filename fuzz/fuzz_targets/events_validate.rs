//! Events validation: never panics on any bytes; whenever the bytes are JSON, validating the
//! parsed value gives the same report (a Value cannot hold duplicate members, so DUPLICATE_FIELD
//! problems are left out of the comparison); malformed JSON is exactly one JSON_SYNTAX problem.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signscope::core::events::{validate, validate_bytes};

fuzz_target!(|data: &[u8]| {
    let from_bytes = validate_bytes(data);
    match serde_json::from_slice::<serde_json::Value>(data) {
        Ok(v) => {
            let from_value = validate(&v);
            let mut a = from_bytes.problems;
            a.retain(|p| p.code != "DUPLICATE_FIELD");
            assert_eq!(a, from_value.problems);
            assert_eq!(from_bytes.events, from_value.events);
        }
        Err(_) => {
            assert_eq!(from_bytes.problems.len(), 1);
            assert_eq!(from_bytes.problems[0].code, "JSON_SYNTAX");
        }
    }
});
