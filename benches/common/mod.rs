//! Inputs shared by the bench suites.
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
