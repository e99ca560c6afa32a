//! The raw HTTP request parser: never panics; whatever it accepts prints and parses back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signscope::core::http_text::{parse_raw_request, print_received};

fuzz_target!(|data: &[u8]| {
    if let Ok(req) = parse_raw_request(data) {
        let printed = print_received(&req);
        let again = parse_raw_request(&printed).expect("a printed request parses");
        assert_eq!(again.method, req.method);
        assert_eq!(again.path, req.path);
        assert_eq!(again.query, req.query);
        assert_eq!(again.body, req.body);
        // Printing may add a Content-Length; every original header is kept in order.
        assert_eq!(&again.headers[..req.headers.len()], &req.headers[..]);
    }
});
