//! The curl command parser: never panics; a printed command parses back to the same request.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signscope::core::curl::{parse_curl_command, to_curl, CurlBody};
use signscope::core::http_text::target;

fuzz_target!(|data: &[u8]| {
    let Ok(cmd) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(c) = parse_curl_command(cmd) else {
        return;
    };
    let r = &c.request;
    if r.query.contains('#') {
        return; // a '#' put into the query by -G would start a fragment once printed in a URL
    }
    // Print the URL from the parsed parts (data moved into the query by -G is part of it).
    let url = format!("http://h{}", target(&r.path, &r.query));
    let printed = to_curl(&r.method, &url, &[], CurlBody::Inline(&r.body));
    if printed.starts_with("printf ") {
        return; // binary bodies are piped through printf, which the parser does not read
    }
    let back = parse_curl_command(&printed).expect("a printed command parses");
    assert_eq!(back.request.method, r.method.to_ascii_uppercase());
    assert_eq!(back.request.path, r.path);
    assert_eq!(back.request.query, r.query);
    assert_eq!(back.request.body, r.body);
});
