//! Inputs shared by the bench suites and the instruction-counting examples (which include this
//! file with `#[path]`, so they measure the same bytes as the criterion benches).
#![allow(dead_code)]

use signscope::core::events::{ItemDraft, ListDraft};

/// The bytes of an event batch of `items` items (every tenth clicked), built with the composer.
pub fn batch_bytes(items: usize) -> Vec<u8> {
    let draft = ListDraft {
        api_key: "demo-public-key".into(),
        list_id: "home-trending-1".into(),
        list_name: "Trending now".into(),
        list_logic: "TRENDING".into(),
        tags: vec!["recsPageType:HOME".into()],
        user_ip: Some("203.0.113.7".into()),
        items: (0..items)
            .map(|i| ItemDraft {
                group_id: format!("{}", 10_000 + i),
                variant_id: format!("V{}", i % 7),
                name: format!("Product number {i}"),
                price: format!("{}.{:02}", 5 + i % 200, i % 100),
                currency: "EUR".into(),
                brand: "Northpeak".into(),
                category: "Clothing;;Jackets;;Rain".into(),
                clicked: i % 10 == 0,
            })
            .collect(),
    };
    draft.to_batch().to_json_bytes()
}

/// A JSON array of index records cut to exactly `n` bytes (padded with spaces): realistic bytes
/// for signing, valid enough for the diagnosis.
pub fn records_body(n: usize) -> Vec<u8> {
    let rec = br#"{"id":"sku-1001","type":"KLEVU_PRODUCT","attributes":{"name":"Trail shoe","price":"89.90"}}"#;
    let mut v = Vec::with_capacity(n);
    v.push(b'[');
    while v.len() + rec.len() + 2 < n {
        if v.len() > 1 {
            v.push(b',');
        }
        v.extend_from_slice(rec);
    }
    v.push(b']');
    v.resize(n, b' ');
    v
}

/// A JSON body of exactly `n` bytes for the server: an array of records and a padding string.
pub fn json_body(n: usize) -> Vec<u8> {
    let mut s = String::from("[");
    let mut i = 0;
    while s.len() + 40 < n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(r#"{{"id":"sku-{i:06}","name":"item"}}"#));
        i += 1;
    }
    s.push_str(",\"");
    while s.len() + 2 < n {
        s.push('x');
    }
    s.push_str("\"]");
    assert_eq!(s.len(), n);
    s.into_bytes()
}
