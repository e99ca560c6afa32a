//! Profile TOML loading: never panics on any text; an error names the file and points inside
//! the text (line and column within it); a profile that loads saves to TOML that loads back to
//! the same profile (at the current schema version), and that text never fails to parse; so
//! does the text of a save over the original (which keeps its comments).
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use signscope::store::profile::{from_toml, to_toml, to_toml_over, SCHEMA_VERSION};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("/fuzz/profiles/p.toml");
    match from_toml("p", path, text) {
        Ok(p) => {
            let saved = to_toml(&p);
            let back = from_toml("p", path, &saved)
                .unwrap_or_else(|e| panic!("saved text does not load: {e}\n{saved}"));
            let mut expected = p.clone();
            expected.schema_version = SCHEMA_VERSION;
            assert_eq!(back, expected, "round trip changed the profile\n{saved}");
            // Saving over the same text (keeping its comments) also loads back equal.
            let over = to_toml_over(&p, text);
            let back = from_toml("p", path, &over)
                .unwrap_or_else(|e| panic!("merged text does not load: {e}\n{over}"));
            assert_eq!(back, expected, "merge changed the profile\n{over}");
        }
        Err(e) => {
            assert_eq!(e.path, path);
            let lines = text.split('\n').count();
            assert!(e.line <= lines, "line {} of {lines}", e.line);
            if e.line > 0 {
                let line = text.split('\n').nth(e.line - 1).unwrap();
                assert!(e.column >= 1 && e.column <= line.chars().count() + 1);
            }
            let msg = e.to_string();
            assert!(msg.contains("/fuzz/profiles/p.toml"), "{msg}");
            assert!(!msg.is_empty() && !msg.contains('\0') || text.contains('\0'));
        }
    }
});
