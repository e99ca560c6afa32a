//! The signatures here are made with RustCrypto's `hmac` + `sha2` (the core signs with ring),
//! so the diagnosis is checked against an independent signer.
use super::*;
use base64::engine::general_purpose::{STANDARD, URL_SAFE};
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::{Sha256, Sha384};

#[derive(Clone, Copy)]
enum Hash {
    Sha384,
    Sha256,
}

fn mac(hash: Hash, key: &[u8], parts: &[&[u8]]) -> Vec<u8> {
    match hash {
        Hash::Sha384 => {
            let mut m = Hmac::<Sha384>::new_from_slice(key).unwrap();
            parts.iter().for_each(|p| m.update(p));
            m.finalize().into_bytes().to_vec()
        }
        Hash::Sha256 => {
            let mut m = Hmac::<Sha256>::new_from_slice(key).unwrap();
            parts.iter().for_each(|p| m.update(p));
            m.finalize().into_bytes().to_vec()
        }
    }
}

const KEY: &str = "rest-key-0123";
const API: &str = "pub-key";
const TS: &str = "2026-11-22T10:00:00.000Z";
const BODY: &[u8] = br#"[{"b":1,"a":[1,2],"c":{"z":true,"y":null}}]"#;

/// The request as sent (what the verifier sees).
fn sent(path: &str, query: &str, body: &[u8]) -> ReceivedRequest {
    ReceivedRequest {
        method: "PUT".into(),
        path: path.into(),
        query: query.into(),
        headers: vec![
            ("X-SVC-TIMESTAMP".into(), TS.into()),
            ("X-SVC-APIKEY".into(), API.into()),
            ("X-SVC-AUTH-ALGO".into(), b"HmacSHA384".to_vec()),
            ("Content-Type".into(), b"application/json".to_vec()),
        ],
        body: bytes::Bytes::copy_from_slice(body),
    }
}

fn canonical_parts(path: &str, query: &str) -> (String, String) {
    let head = format!("PUT\n{path}\n{query}\n");
    let headers = format!(
            "X-SVC-TIMESTAMP={TS}\nX-SVC-APIKEY={API}\nX-SVC-AUTH-ALGO=HmacSHA384\nContent-Type=application/json\n"
        );
    (head, headers)
}

fn b64_384(key: &str, text: &[u8]) -> String {
    STANDARD.encode(mac(Hash::Sha384, key.as_bytes(), &[text]))
}

/// Diagnose a request whose client signed `client_text` with `client_key`.
fn findings(req: &ReceivedRequest, provided: &str) -> Vec<Mistake> {
    let d = diagnose(req, "SVC", &Secret::new(KEY), provided);
    assert!(!d.signature_matches());
    d.findings
}

fn assert_named(found: Vec<Mistake>, want: Mistake) {
    assert!(found.contains(&want), "expected {want:?}, found {found:?}");
}

fn text(path: &str, query: &str, body: &[u8]) -> Vec<u8> {
    let (a, b) = canonical_parts(path, query);
    [a.as_bytes(), b.as_bytes(), body].concat()
}

#[test]
fn the_right_signature_has_no_findings() {
    let req = sent("/v2/batch", "", BODY);
    let good = b64_384(KEY, &text("/v2/batch", "", BODY));
    let d = diagnose(&req, "SVC", &Secret::new(KEY), &good);
    assert!(d.signature_matches());
    assert!(d.findings.is_empty());
    assert_eq!(d.expected_canonical(), text("/v2/batch", "", BODY));
}

#[test]
fn question_mark_before_query() {
    let req = sent("/v2/batch", "test=1", BODY);
    let sig = b64_384(KEY, &text("/v2/batch", "?test=1", BODY));
    assert_eq!(
        findings(&req, &sig),
        [Mistake::named("QUESTION_MARK_BEFORE_QUERY")]
    );
}

#[test]
fn empty_query_line_omitted() {
    let req = sent("/v2/batch", "", BODY);
    let mut t = b"PUT\n/v2/batch\n".to_vec();
    t.extend_from_slice(canonical_parts("", "").1.as_bytes());
    t.extend_from_slice(BODY);
    assert_eq!(
        findings(&req, &b64_384(KEY, &t)),
        [Mistake::named("EMPTY_QUERY_LINE_OMITTED")]
    );
}

#[test]
fn trailing_slash_trimmed() {
    let req = sent("/v2/batch/", "", BODY);
    let sig = b64_384(KEY, &text("/v2/batch", "", BODY));
    assert_eq!(
        findings(&req, &sig),
        [Mistake::named("TRAILING_SLASH_TRIMMED")]
    );
}

#[test]
fn crlf_line_endings() {
    let req = sent("/v2/batch", "a=1", BODY);
    let t = String::from_utf8(text("/v2/batch", "a=1", b""))
        .unwrap()
        .replace('\n', "\r\n");
    let sig = b64_384(KEY, &[t.as_bytes(), BODY].concat());
    assert_eq!(findings(&req, &sig), [Mistake::named("CRLF_LINE_ENDINGS")]);
}

#[test]
fn trailing_lf_after_body() {
    let req = sent("/v2/batch", "", BODY);
    let sig = b64_384(KEY, &[text("/v2/batch", "", BODY), b"\n".to_vec()].concat());
    assert_eq!(
        findings(&req, &sig),
        [Mistake::named("TRAILING_LF_AFTER_BODY")]
    );
}

#[test]
fn lowercase_header_names() {
    let req = sent("/v2/batch", "", BODY);
    let (a, b) = canonical_parts("/v2/batch", "");
    let lower = b
        .replace("X-SVC-", "x-svc-")
        .replace("TIMESTAMP", "timestamp")
        .replace("APIKEY", "apikey")
        .replace("AUTH-ALGO", "auth-algo")
        .replace("Content-Type", "content-type");
    let sig = b64_384(KEY, &[a.as_bytes(), lower.as_bytes(), BODY].concat());
    assert_eq!(
        findings(&req, &sig),
        [Mistake::named("LOWERCASE_HEADER_NAMES")]
    );
}

#[test]
fn lowercase_method() {
    let req = sent("/v2/batch", "", BODY);
    let mut t = text("/v2/batch", "", BODY);
    t[..3].copy_from_slice(b"put");
    assert_eq!(
        findings(&req, &b64_384(KEY, &t)),
        [Mistake::named("LOWERCASE_METHOD")]
    );
}

#[test]
fn body_reserialised_compact_pretty_and_sorted() {
    // Sent with spaces, signed compact.
    let spaced = br#"[ {"b": 1, "a": [1, 2]} ]"#;
    let req = sent("/v2/batch", "", spaced);
    let sig = b64_384(KEY, &text("/v2/batch", "", br#"[{"b":1,"a":[1,2]}]"#));
    assert_eq!(
        findings(&req, &sig),
        [Mistake::named("BODY_RESERIALISED_COMPACT")]
    );

    // Sent compact, signed pretty (2 spaces, as serde_json / JSON.stringify(v, null, 2)).
    let req = sent("/v2/batch", "", BODY);
    let pretty = b"[\n  {\n    \"b\": 1,\n    \"a\": [\n      1,\n      2\n    ],\n    \"c\": {\n      \"z\": true,\n      \"y\": null\n    }\n  }\n]";
    let sig = b64_384(KEY, &text("/v2/batch", "", pretty));
    assert_eq!(
        findings(&req, &sig),
        [Mistake::named("BODY_RESERIALISED_PRETTY")]
    );

    // Sent compact, signed with sorted keys.
    let sorted = br#"[{"a":[1,2],"b":1,"c":{"y":null,"z":true}}]"#;
    let sig = b64_384(KEY, &text("/v2/batch", "", sorted));
    assert_eq!(findings(&req, &sig), [Mistake::named("BODY_SORTED_KEYS")]);

    // Python's json.dumps default separators count as a compact re-serialisation.
    let python = br#"[{"b": 1, "a": [1, 2], "c": {"z": true, "y": null}}]"#;
    let sig = b64_384(KEY, &text("/v2/batch", "", python));
    assert_eq!(
        findings(&req, &sig),
        [Mistake::named("BODY_RESERIALISED_COMPACT")]
    );
}

#[test]
fn trimmed_key_and_key_with_newline() {
    let req = sent("/v2/batch", "", BODY);
    let t = text("/v2/batch", "", BODY);
    let padded = Secret::new(" rest-key ");
    let sig = b64_384("rest-key", &t);
    let d = diagnose(&req, "SVC", &padded, &sig);
    assert_eq!(d.findings, [Mistake::named("KEY_WHITESPACE_TRIMMED")]);

    let sig = b64_384(&format!("{KEY}\n"), &t);
    assert_eq!(
        findings(&req, &sig),
        [Mistake::named("KEY_WITH_TRAILING_NEWLINE")]
    );
    let sig = b64_384(&format!("{KEY}\r\n"), &t);
    assert_eq!(
        findings(&req, &sig),
        [Mistake::named("KEY_WITH_TRAILING_NEWLINE")]
    );
}

#[test]
fn public_api_key_as_secret() {
    let req = sent("/v2/batch", "", BODY);
    let sig = b64_384(API, &text("/v2/batch", "", BODY));
    assert_eq!(
        findings(&req, &sig),
        [Mistake::named("PUBLIC_API_KEY_AS_SECRET")]
    );
}

#[test]
fn encodings_hex_url_safe_and_no_padding() {
    let req = sent("/v2/batch", "", BODY);
    let digest = mac(
        Hash::Sha384,
        KEY.as_bytes(),
        &[&text("/v2/batch", "", BODY)],
    );
    assert_eq!(
        findings(&req, &hex::encode(&digest)),
        [Mistake::named("HEX_INSTEAD_OF_BASE64")]
    );
    assert_eq!(
        findings(&req, &hex::encode_upper(&digest)),
        [Mistake::named("HEX_INSTEAD_OF_BASE64")]
    );
    // Find a digest whose base64 has '+' or '/', so URL-safe differs from standard.
    let mut ts_req = req.clone();
    for i in 0..200 {
        let ts = format!("2026-11-22T10:00:{:02}.{:03}Z", i % 60, i);
        ts_req.headers[0].1 = ts.clone().into_bytes();
        let (a, _) = canonical_parts("/v2/batch", "");
        let t = format!(
                "{a}X-SVC-TIMESTAMP={ts}\nX-SVC-APIKEY={API}\nX-SVC-AUTH-ALGO=HmacSHA384\nContent-Type=application/json\n"
            );
        let d = mac(Hash::Sha384, KEY.as_bytes(), &[t.as_bytes(), BODY]);
        let std = STANDARD.encode(&d);
        if std.contains('+') || std.contains('/') {
            assert_eq!(
                findings(&ts_req, &URL_SAFE.encode(&d)),
                [Mistake::named("URL_SAFE_BASE64")]
            );
            return;
        }
    }
    panic!("no digest with + or / found");
}

#[test]
fn sha256_instead_of_sha384() {
    let req = sent("/v2/batch", "", BODY);
    let d = mac(
        Hash::Sha256,
        KEY.as_bytes(),
        &[&text("/v2/batch", "", BODY)],
    );
    assert_eq!(
        findings(&req, &STANDARD.encode(&d)),
        [Mistake::named("SHA256_INSTEAD_OF_SHA384")]
    );
    // Combined with hex, both are named.
    let f = findings(&req, &hex::encode(&d));
    assert!(
        f.contains(&Mistake::named("SHA256_INSTEAD_OF_SHA384"))
            && f.contains(&Mistake::named("HEX_INSTEAD_OF_BASE64"))
    );
}

#[test]
fn header_lines_in_another_order() {
    let req = sent("/v2/batch", "", BODY);
    let (a, _) = canonical_parts("/v2/batch", "");
    let t = format!(
            "{a}X-SVC-APIKEY={API}\nX-SVC-TIMESTAMP={TS}\nX-SVC-AUTH-ALGO=HmacSHA384\nContent-Type=application/json\n"
        );
    let sig = b64_384(KEY, &[t.as_bytes(), BODY].concat());
    let f = findings(&req, &sig);
    assert_eq!(
        f,
        [Mistake::new(
            Mistake::named("HEADER_LINES_REORDERED").def(),
            Arg::Order([1, 0, 2, 3])
        )]
    );
    assert!(f[0]
        .detail()
        .contains("another order: APIKEY, TIMESTAMP, AUTH-ALGO, Content-Type, where"));
}

#[test]
fn a_mistake_combined_with_an_encoding_names_both() {
    let req = sent("/v2/batch/", "", BODY);
    let d = mac(
        Hash::Sha384,
        KEY.as_bytes(),
        &[&text("/v2/batch", "", BODY)],
    );
    let f = findings(&req, &hex::encode(d));
    assert_named(f.clone(), Mistake::named("TRAILING_SLASH_TRIMMED"));
    assert_named(f, Mistake::named("HEX_INSTEAD_OF_BASE64"));
}

#[test]
fn nothing_matches_says_so_and_shows_the_text() {
    let req = sent("/v2/batch", "", b"[]  ");
    // A signature of another text with another key: nothing reproduces it.
    let other = b64_384("someone-else", b"another text");
    let d = diagnose(&req, "SVC", &Secret::new(KEY), &other);
    assert!(d.findings.is_empty());
    assert!(!d.cut_short);
    assert!(
        d.summary().starts_with("no known client mistake"),
        "{}",
        d.summary()
    );
    let r = d.report();
    assert!(
        r.contains("the body ends with 2 invisible bytes: 20 20"),
        "{r}"
    );
    assert!(r.contains("PUT\\n"), "{r}");
    assert!(r.contains("/v2/batch\\n\n  \\n"), "{r}");
    assert!(r.contains("[]··"), "{r}");
    assert!(!r.contains(KEY));
}

#[test]
fn summary_names_the_mistake() {
    let req = sent("/v2/batch", "test=1", BODY);
    let sig = b64_384(KEY, &text("/v2/batch", "?test=1", BODY));
    let d = diagnose(&req, "SVC", &Secret::new(KEY), &sig);
    // With a query and no trailing '/', the '?' alone is the PHP SDK's form.
    assert_eq!(d.client_form, Some("php-sdk"));
    assert!(
        d.summary()
            .starts_with("the client signed as the vendor's PHP SDK signs: '?' before the query"),
        "{}",
        d.summary()
    );
    // The '?' with another mistake is not exactly the form.
    let sig = b64_384(KEY, &text("/v2/batch", "?test=1", b""));
    let d = diagnose(&req, "SVC", &Secret::new(KEY), &sig);
    assert_eq!(
        d.findings,
        [
            Mistake::named("QUESTION_MARK_BEFORE_QUERY"),
            Mistake::named("EMPTY_BODY_SIGNED")
        ]
    );
    assert_eq!(d.client_form, None);
    assert!(
        d.summary()
            .contains("; and the client signed an empty body"),
        "{}",
        d.summary()
    );
}

#[test]
fn a_signature_that_is_no_digest_says_so() {
    let req = sent("/v2/batch", "", BODY);
    let d = diagnose(&req, "SVC", &Secret::new(KEY), "AAAA");
    assert!(d.findings.is_empty());
    assert_eq!(
        d.hashed_bytes, 0,
        "nothing is hashed for a token that is no digest"
    );
    assert!(
        d.summary().contains("decodes to no HMAC digest"),
        "{}",
        d.summary()
    );
}

#[test]
fn the_php_sdk_form_is_named_as_such() {
    let req = sent("/v2/batch/", "test=1", BODY);
    let sig = b64_384(KEY, &text("/v2/batch", "?test=1", BODY));
    let d = diagnose(&req, "SVC", &Secret::new(KEY), &sig);
    assert_eq!(
        d.findings,
        [
            Mistake::named("QUESTION_MARK_BEFORE_QUERY"),
            Mistake::named("TRAILING_SLASH_TRIMMED")
        ]
    );
    assert_eq!(d.client_form, Some("php-sdk"));
    assert!(
        d.summary()
            .contains("signs: the trailing '/' trimmed and '?' before the query (the verifier"),
        "{}",
        d.summary()
    );
    // The form plus a key with a newline: three mistakes, not exactly the form.
    let sig = b64_384(&format!("{KEY}\n"), &text("/v2/batch", "?test=1", BODY));
    let d = diagnose(&req, "SVC", &Secret::new(KEY), &sig);
    assert_eq!(
        d.findings,
        [
            Mistake::named("TRAILING_SLASH_TRIMMED"),
            Mistake::named("QUESTION_MARK_BEFORE_QUERY"),
            Mistake::named("KEY_WITH_TRAILING_NEWLINE")
        ]
    );
    assert_eq!(d.client_form, None);
}

#[test]
fn identical_texts_mean_the_keys_differ_and_a_difference_is_located() {
    let req = sent("/v2/batch", "", BODY);
    let expected = text("/v2/batch", "", BODY);
    let sig = b64_384("a wholly other key", &expected);
    let opts = DiagnoseOptions {
        client_text: Some(expected.clone()),
        client_key: Some(Secret::new(" other ")),
        ..DiagnoseOptions::default()
    };
    let d = diagnose_with(&req, "SVC", &Secret::new(KEY), &sig, &opts);
    assert!(d.findings.is_empty());
    assert_eq!(
        d.summary(),
        "the client's signing text is identical to the expected one, so the REST key differs: the REST key used here is 13 bytes with no whitespace at its ends; the client's is 7 bytes with whitespace at both ends"
    );
    let mut client = expected.clone();
    let at = "PUT\n/v2/batch\n\nX-SVC-TIMESTAMP=2026-11-22T10:00:00.000Z\nX-SVC-APIKEY=".len();
    client[at] = b'P';
    let opts = DiagnoseOptions {
        client_text: Some(client),
        ..DiagnoseOptions::default()
    };
    let d = diagnose_with(&req, "SVC", &Secret::new(KEY), &sig, &opts);
    // Another API key: the text is of another request, said first, then located.
    assert_eq!(
        d.conclusion[0],
        format!("the client's signing text is of another request (its API key is P{}, this request's {API}): give the text the client signed for this one", &API[1..])
    );
    assert_eq!(
        d.conclusion[1],
        format!("the client's signing text first differs from the expected one at byte offset {at}, in the APIKEY line: expected 0x70 ('p'), the client's has 0x50 ('P')")
    );
    // A text kept from an earlier capture: another timestamp, said with both values.
    let earlier = String::from_utf8(expected.clone())
        .unwrap()
        .replace("2026-11-22T10:00:00.000Z", "2026-11-21T09:00:00.000Z");
    let opts = DiagnoseOptions {
        client_text: Some(earlier.into_bytes()),
        ..DiagnoseOptions::default()
    };
    let d = diagnose_with(&req, "SVC", &Secret::new(KEY), &sig, &opts);
    assert_eq!(
        d.summary(),
        "the client's signing text is of another request (its timestamp is 2026-11-21T09:00:00.000Z, this request's 2026-11-22T10:00:00.000Z): give the text the client signed for this one"
    );
}

#[test]
fn a_small_budget_cuts_the_search_short_and_says_so() {
    let req = sent("/v2/batch", "", BODY);
    let sig = b64_384("someone-else", b"x");
    let opts = DiagnoseOptions {
        budget_bytes: Some(2_000),
        ..DiagnoseOptions::default()
    };
    let d = diagnose_with(&req, "SVC", &Secret::new(KEY), &sig, &opts);
    assert!(d.cut_short);
    assert!(d.hashed_bytes <= 2_000);
    assert!(
        d.summary().contains("cut short after hashing"),
        "{}",
        d.summary()
    );
}

#[test]
fn body_toggles_escape_and_unescape() {
    use super::body::{toggle_slashes, toggle_unicode};
    assert_eq!(
        toggle_unicode("[\"caf\u{e8} \u{1F600}\"]".as_bytes()).unwrap(),
        br#"["caf\u00e8 \ud83d\ude00"]"#.to_vec()
    );
    assert_eq!(
        toggle_unicode(br#"["caf\u00e8 \ud83d\ude00 \u0041 \\u00e8"]"#).unwrap(),
        "[\"caf\u{e8} \u{1F600} \\u0041 \\\\u00e8\"]"
            .as_bytes()
            .to_vec()
    );
    assert_eq!(toggle_unicode(br#"["plain"]"#), None);
    assert_eq!(
        toggle_slashes(br#"["a/b","c\\/"]"#).unwrap(),
        br#"["a\/b","c\\\/"]"#.to_vec()
    );
    assert_eq!(
        toggle_slashes(br#"["a\/b"]"#).unwrap(),
        br#"["a/b"]"#.to_vec()
    );
}

#[test]
fn two_threads_find_and_hash_what_one_finds_and_hashes() {
    // A pair (a head and a body mistake) and a signature nothing explains, on 1 and 2 threads.
    let req = sent("/v2/batch", "a=1", BODY);
    let t = String::from_utf8(text("/v2/batch", "a=1", b""))
        .unwrap()
        .replace('\n', "\r\n");
    let pair = b64_384(KEY, &[t.as_bytes(), BODY, b"\n"].concat());
    let none = b64_384("someone-else", b"x");
    for sig in [pair, none] {
        let run = |threads| {
            let opts = DiagnoseOptions {
                threads,
                ..DiagnoseOptions::default()
            };
            diagnose_with(&req, "SVC", &Secret::new(KEY), &sig, &opts)
        };
        let (one, two) = (run(1), run(2));
        assert_eq!(one.findings, two.findings);
        assert_eq!(one.hashed_bytes, two.hashed_bytes);
        assert!(one.hashed_bytes > 0);
    }
    let pair = b64_384(KEY, &[t.as_bytes(), BODY, b"\n"].concat());
    let one = diagnose(&req, "SVC", &Secret::new(KEY), &pair);
    assert_eq!(
        one.findings,
        [
            Mistake::named("CRLF_LINE_ENDINGS"),
            Mistake::named("TRAILING_LF_AFTER_BODY")
        ]
    );
}

#[test]
fn a_large_body_is_shown_as_its_ends_and_its_length() {
    let mut body = "[\"é".to_string();
    while body.len() < 100_000 {
        body.push_str("éa");
    }
    body.push_str("\"]");
    let req = sent("/v2/batch", "", body.as_bytes());
    let d = Diagnosis::skipped(&req, "SVC", &Secret::new(KEY), "x", "test");
    let shown = d.expected_escaped();
    assert!(shown.starts_with("PUT\\n/v2/batch\\n\\nX-SVC-TIMESTAMP="));
    assert!(shown.ends_with("éa\"]"), "cut at a character boundary");
    assert!(
        shown.contains(&format!(" of the body's {} bytes not shown]…", body.len())),
        "{}",
        &shown[..200]
    );
    assert!(shown.len() < 10_000, "{}", shown.len());
    // Small bodies are shown whole, exactly as before.
    let small = sent("/v2/batch", "", BODY);
    let d = Diagnosis::skipped(&small, "SVC", &Secret::new(KEY), "x", "test");
    assert_eq!(
        d.expected_escaped(),
        crate::core::visible::escape_visible(&d.expected_canonical())
    );
}

/// Every body recipe of the catalogue's forms for a request with this body.
fn body_recipes(body: &[u8]) -> Vec<super::body::Recipe> {
    let req = sent("/v2/batch", "", body);
    let (_, values) = expected(&req, "SVC");
    let head = Head::expected("PUT", "/v2/batch", "", "SVC", values);
    let c = super::mistake::Context {
        base: &head,
        body,
        key: KEY,
        others: &[],
        host: None,
        sent_order: None,
        clock_reach: 5,
        curl_file: None,
    };
    CATALOGUE
        .iter()
        .flat_map(|d| (d.forms)(d, &c))
        .filter_map(|f| match f.how {
            How::Body(r) => Some(r),
            _ => None,
        })
        .collect()
}

#[test]
fn kept_re_serialisations_build_the_same_bodies_as_building_each_anew() {
    use super::body::{build, Styled};
    let body = r#"{"z": [1, 2.5, {"b": "caf\u00e9", "a": "https://x.example/p"}], "m": "Crème", "a": null}"#.as_bytes();
    let styled = Styled::default();
    let recipes = body_recipes(body);
    assert!(recipes.len() > 20);
    let mut built = 0;
    for r in &recipes {
        let r = super::body::Recipe {
            trailing_lf: false,
            ..*r
        };
        let anew = build(body, &r, None, None);
        let kept = build(body, &r, Some(&styled), None);
        assert_eq!(anew, kept, "{r:?}");
        built += usize::from(anew.is_ok());
    }
    assert!(built > 15, "{built} of {} recipes built", recipes.len());
}

/// A request to make the catalogue's mistakes in: the request as sent, the REST key, the
/// options of its diagnosis.
struct Scenario {
    req: ReceivedRequest,
    key: &'static str,
    opts: DiagnoseOptions,
}

/// Requests between them giving every mistake of the catalogue something to change: a query
/// to decode, sort, add or remove; a trailing '/'; a path to decode; a Host header; JSON bodies
/// with unsorted keys, non-ASCII text, '/', CRLF or LF line ends, or one curl read from an
/// indented file; REST keys with whitespace, that decode as base64, and another account.
fn scenarios() -> Vec<Scenario> {
    let with_host = |mut req: ReceivedRequest| {
        req.headers.push(("Host".into(), b"api.example".to_vec()));
        req
    };
    let opts = |curl_file: Option<&[u8]>| DiagnoseOptions {
        clock_budget_bytes: Some(0),
        other_accounts: vec![("other-account".into(), Secret::new("other-rest-key"))],
        curl_file: curl_file.map(<[u8]>::to_vec),
        ..DiagnoseOptions::default()
    };
    vec![
        Scenario {
            req: with_host(sent(
                "/v2/batch/",
                "b=2&a=%20x+y",
                "[{\"b\":1,\"a\":\"Caf\u{e9} / x\"}]\r\n".as_bytes(),
            )),
            key: "c2VjcmV0LWtleS0wMQ==",
            opts: opts(None),
        },
        Scenario {
            req: sent("/v2/batch", "", b"{  \"a\": 1}"),
            key: " rest-key-0123 ",
            opts: opts(Some(b"{\n\t\"a\": 1\n}")),
        },
        // A timestamp in whole seconds: milliseconds dropped from it.
        Scenario {
            req: {
                let mut req = sent("/v2/batch", "", b"[]");
                req.headers[0].1 = b"2026-11-22T10:00:00Z".to_vec();
                req
            },
            key: "rest-key-whole-seconds",
            opts: opts(None),
        },
        Scenario {
            req: sent("/v2/b%20atch", "test=1", b"{\"k\":[1,\n2]}\n"),
            key: "'rest-key'",
            opts: opts(None),
        },
    ]
}

/// The signature a signing gives, made with RustCrypto's HMAC and the base64 and hex crates
/// (not with the core's signer).
fn independent_signature(s: &Signing) -> String {
    let hash = match s.hash.digest_algorithm().output_len() {
        32 => Hash::Sha256,
        _ => Hash::Sha384,
    };
    let d = mac(hash, &s.key, &[&s.head.bytes(), &s.body]);
    match s.encoding {
        Encoding::Base64 => STANDARD.encode(&d),
        Encoding::Hex => hex::encode(&d),
        Encoding::UrlSafe => URL_SAFE.encode(&d),
        Encoding::Unpadded => base64::engine::general_purpose::STANDARD_NO_PAD.encode(&d),
    }
}

#[test]
fn every_catalogue_entry_made_in_an_independently_signed_request_is_named_by_the_search() {
    // The catalogue is walked, not listed: a mistake added to it is checked here too. Each
    // form of each entry (its first three that change a signature, per request) is made in the
    // documented signing of a request, the result signed independently, and the diagnosis of
    // the request as sent must name one mistake (the simplest explanation of a text one
    // mistake gives is one mistake), and for each entry at least once exactly that entry.
    // A mistake that changes nothing alone (base64 padding, which only a SHA-256 digest has)
    // is made in a signing that already has the catalogue's other hash function, and named
    // with it.
    let mut named_exactly = std::collections::BTreeSet::new();
    let mut checked = 0;
    for sc in scenarios() {
        let (_, values) = expected(&sc.req, "SVC");
        let head = Head::expected("PUT", &sc.req.path, &sc.req.query, "SVC", values);
        let right = Signing::expected(head.clone(), &sc.req.body, sc.key.as_bytes());
        let others: Vec<(String, Secret)> = sc.opts.other_accounts.clone();
        let host = sc
            .req
            .header("Host")
            .map(|h| String::from_utf8_lossy(h).into_owned());
        let c = super::mistake::Context {
            base: &head,
            body: &sc.req.body,
            key: sc.key,
            others: &others,
            host: host.as_deref(),
            sent_order: Some([0, 1, 2, 3]),
            clock_reach: 5,
            curl_file: sc.opts.curl_file.as_deref(),
        };
        // The documented signing, then the same with each other hash function of the catalogue.
        let mut bases = vec![(right.clone(), None)];
        for d in CATALOGUE {
            for f in (d.forms)(d, &c) {
                if let How::Hash(_) = f.how {
                    let mut s = right.clone();
                    f.how.make(&mut s);
                    bases.push((s, Some(f.mistakes[0].clone())));
                }
            }
        }
        for d in CATALOGUE {
            for (base, with) in &bases {
                if with.is_some() && named_exactly.contains(d.code) {
                    continue;
                }
                let before = independent_signature(base);
                let mut made_here = 0;
                for f in (d.forms)(d, &c) {
                    let [m] = &f.mistakes[..] else { continue };
                    let mut made = base.clone();
                    if made_here == 3 || !f.how.make(&mut made) {
                        continue;
                    }
                    let sig = independent_signature(&made);
                    if sig == before {
                        continue;
                    }
                    made_here += 1;
                    checked += 1;
                    let diag = diagnose_with(&sc.req, "SVC", &Secret::new(sc.key), &sig, &sc.opts);
                    let want: Vec<Mistake> = with.iter().cloned().chain([m.clone()]).collect();
                    assert_eq!(
                        diag.findings.len(),
                        want.len(),
                        "{m:?} made in {} ?{}: named {:?}",
                        sc.req.path,
                        sc.req.query,
                        diag.findings
                    );
                    if want.iter().all(|w| diag.findings.contains(w)) {
                        named_exactly.insert(d.code);
                    }
                }
            }
        }
    }
    let missing: Vec<&str> = CATALOGUE
        .iter()
        .map(|d| d.code)
        .filter(|c| !named_exactly.contains(c))
        .collect();
    assert!(missing.is_empty(), "never named exactly: {missing:?}");
    assert!(checked > 2 * CATALOGUE.len(), "{checked}");
}

#[test]
fn a_millisecond_clock_search_reaching_a_whole_second_says_1_ms_steps() {
    let body = br#"[{"id":"1"}]"#;
    let req = sent("/v2/batch", "", body);
    let opts = DiagnoseOptions {
        clock_units_max: Some(1000),
        clock_budget_bytes: Some(u64::MAX / 4),
        ..DiagnoseOptions::default()
    };
    let wrong = encode_signature(&[7u8; 48]);
    let d = diagnose_with(&req, "SVC", &Secret::new(KEY), &wrong, &opts);
    assert_eq!(d.clock_reach_ms, 1000);
    let text = d.conclusion.join("\n");
    assert!(
        text.contains("up to 1000 ms either side of the timestamp header, in 1 ms steps"),
        "{text}"
    );
}

#[test]
fn once_a_text_reproduces_the_signature_the_rest_of_its_task_is_not_hashed() {
    // The path signed without its trailing '/' is one of the singles round's head variants,
    // all signed with the sent body in one task; a signature nothing explains tries them all.
    let req = sent("/v2/batch/", "", BODY);
    let explained = b64_384(KEY, &text("/v2/batch", "", BODY));
    let unexplained = b64_384("someone-else", &text("/v2/batch/", "", BODY));
    let opts = DiagnoseOptions {
        clock_units_max: Some(SERVER_CLOCK_UNITS),
        ..DiagnoseOptions::default()
    };
    let run = |sig: &str| diagnose_with(&req, "SVC", &Secret::new(KEY), sig, &opts);
    let (found, full) = (run(&explained), run(&unexplained));
    assert_eq!(found.ids(), ["TRAILING_SLASH_TRIMMED"]);
    assert!(full.findings.is_empty());
    assert!(
        found.round_signatures[1] * 2 < full.round_signatures[1],
        "singles: {} explained, {} in all",
        found.round_signatures[1],
        full.round_signatures[1]
    );
}

#[test]
fn sorted_keys_go_by_their_utf8_bytes_at_every_depth() {
    use super::body::{build, Recipe, Style};
    let body = r#"{"z":1,"é":2,"Z":3,"a":{"b":[{"y":1,"x":2}],"A":2}}"#.as_bytes();
    for (style, want) in [
        (
            Style::Compact,
            r#"{"Z":3,"a":{"A":2,"b":[{"x":2,"y":1}]},"z":1,"é":2}"#,
        ),
        (
            Style::Python,
            r#"{"Z": 3, "a": {"A": 2, "b": [{"x": 2, "y": 1}]}, "z": 1, "é": 2}"#,
        ),
    ] {
        let r = Recipe {
            style: Some((style, true)),
            ..Recipe::default()
        };
        let sorted = build(body, &r, None, None).unwrap();
        assert_eq!(std::str::from_utf8(&sorted).unwrap(), want, "{style:?}");
    }
}
