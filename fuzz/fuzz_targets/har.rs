//! The HAR reader and the request-file splitter: never panic on any input; every entry handed
//! over has an absolute URL, and every index is reported once, in order.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signscope::core::capture::split_blocks;
use signscope::core::har::{read_har_slice, split_url};

fuzz_target!(|data: &[u8]| {
    let mut next = 0usize;
    let _ = read_har_slice(data, |item| {
        let index = match item {
            Ok(e) => {
                assert!(split_url(e.url()).is_some());
                let _ = e.request_body();
                let _ = e.response_body();
                let _ = e.started();
                e.request_headers().count();
                e.index
            }
            Err(bad) => bad.index,
        };
        assert_eq!(index, next);
        next += 1;
        std::ops::ControlFlow::Continue(())
    });
    for b in split_blocks(data) {
        assert!(!b.text.is_empty());
    }
});
