//! A HAR of the vendor PHP SDK's signed indexing requests, as mitmproxy saved them in front of
//! the SDK (`tests/data/har/mitmproxy-indexing.har` is a real one; this writes the same shape
//! at any size): `PUT /v2/batch` of three product records with `X-KLEVU-*` headers, judged at
//! their capture time. A share of them carry a signature that does not match, each a mistake
//! the diagnosis names (or, for a wrong key, looks for and does not find). `benches/har.rs`
//! checks a 49 MB one; `tests/cli_check.rs` a small mixed one (collector posts, other hosts and
//! attribute definitions between the batches).
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;

use serde_json::{json, Value};
use signscope::core::sign::{encode_signature, hmac_sha384};

/// The REST key the requests are signed with.
pub const SDK_REST: &str = "bench-rest-key-0123456789";
/// Their API key.
pub const SDK_API: &str = "klevu-1234567890";

/// What the capture holds besides its batches.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mix {
    /// Signed batches only.
    Batches,
    /// Also collector posts, requests to the shop's own host, `PUT`/`DELETE
    /// /v2/attributes/fabric` and `GET /v2/attributes` (whose answer depends on them).
    Everything,
}

fn header(n: &str, v: &str) -> Value {
    json!({"name": n, "value": v})
}

/// Three product records, about 1.7 KB as the SDK's `json_encode` writes them.
fn batch(i: usize) -> String {
    let records: Vec<Value> = (0..3)
        .map(|k| {
            let id = format!("{}-BLK-{}", 10_000 + i, 40 + k);
            json!({"id": id, "type": "KLEVU_PRODUCT", "attributes": {
                "name": {"default": format!("Trail running shoe {i}-{k}")},
                "sku": id,
                "url": format!("https://shop.example/p/{id}"),
                "description": {"default": "Light trail shoe with a grippy outsole, a breathable mesh upper and a cushioned midsole for long runs."},
                "prices": [{"amount": 89.9, "currency": "EUR", "type": "defaultPrice"}],
                "visibility": ["catalog", "search"],
                "images": [{"url": format!("https://shop.example/img/{id}.jpg"), "type": "default"}],
                "fabric": "mesh"
            }})
        })
        .collect();
    serde_json::to_string(&records).unwrap_or_default()
}

fn timestamp(i: usize) -> String {
    format!(
        "2026-11-25T21:{:02}:{:02}.{:03}Z",
        (i / 1000) % 60,
        (i / 17) % 60,
        i % 1000
    )
}

fn entry(
    started: &str,
    method: &str,
    url: &str,
    headers: Vec<Value>,
    body: &str,
    answer: (u16, &str),
) -> Value {
    let mut request = json!({"method": method, "url": url, "httpVersion": "HTTP/1.1", "cookies": [],
        "headers": headers, "queryString": [], "headersSize": -1, "bodySize": body.len()});
    if !body.is_empty() {
        request["postData"] = json!({"mimeType": "application/json", "text": body, "params": []});
    }
    json!({"startedDateTime": started, "time": 65.5, "request": request,
        "response": {"status": answer.0, "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [],
            "headers": [header("content-type", "application/json"), header("content-length", &answer.1.len().to_string())],
            "content": {"size": answer.1.len(), "compression": 0, "mimeType": "application/json", "text": answer.1},
            "redirectURL": "", "headersSize": 120, "bodySize": answer.1.len()},
        "cache": {}, "timings": {"connect": 30.8, "ssl": -1.0, "send": 0.56, "receive": 0.45, "wait": 33.7},
        "serverIPAddress": "127.0.0.1"})
}

/// A signed indexing request; `mistake` 0 is a good signature, 1-3 one of three mistakes.
fn signed(i: usize, method: &str, path: &str, body: &str, mistake: usize) -> Value {
    let ts = timestamp(i);
    let (key, signed_path, signed_body) = match mistake {
        1 => (
            "another-rest-key-000000",
            path.to_string(),
            body.to_string(),
        ),
        2 => (
            SDK_REST,
            path.trim_end_matches('/').to_string(),
            body.to_string(),
        ),
        3 => (SDK_REST, path.to_string(), body.replace(',', ", ")),
        _ => (SDK_REST, path.to_string(), body.to_string()),
    };
    let sent_path = if mistake == 2 {
        format!("{path}/")
    } else {
        path.to_string()
    };
    let head = format!(
        "{method}\n{signed_path}\n\nX-KLEVU-TIMESTAMP={ts}\nX-KLEVU-APIKEY={SDK_API}\nX-KLEVU-AUTH-ALGO=HmacSHA384\nContent-Type=application/json\n"
    );
    let sig = encode_signature(&hmac_sha384(
        key.as_bytes(),
        &[head.as_bytes(), signed_body.as_bytes()],
    ));
    let answer = if mistake == 0 {
        (
            200,
            r#"{"message":"Job submitted successfully.","jobId":"ab22ef81-1215-e7ba-9f57-cd5e51f606a8"}"#,
        )
    } else {
        (
            401,
            r#"{"status":401,"code":"SIGNATURE_MISMATCH","message":"The request signature does not match."}"#,
        )
    };
    entry(
        &ts,
        method,
        &format!("https://indexing.ksearchnet.com{sent_path}"),
        vec![
            header("Host", "indexing.ksearchnet.com"),
            header("Accept-Encoding", "identity"),
            header("Content-Length", &body.len().to_string()),
            header("Content-Type", "application/json"),
            header("X-KLEVU-APIKEY", SDK_API),
            header("X-KLEVU-AUTH-ALGO", "HmacSHA384"),
            header("X-KLEVU-TIMESTAMP", &ts),
            header("Authorization", &format!("Bearer {sig}")),
            header("User-Agent", "klevu-php-sdk/1.0 (PHP 8.3)"),
        ],
        body,
        answer,
    )
}

/// The `i`th entry: a batch whose signature is wrong for `mismatch_percent` of them (spread
/// evenly, the three mistakes in turn), or with [`Mix::Everything`] now and then another kind.
fn nth(i: usize, mismatch_percent: usize, mix: Mix) -> Value {
    if mix == Mix::Everything {
        let ts = timestamp(i);
        match i % 50 {
            3 | 13 | 23 => {
                let view = r#"[{"event":"view_recs_list","event_apikey":"klevu-1234567890","event_version":"1.0.0","user_profile":{"sessionId":"s-1"},"event_data":{"list_id":"k-rec-1","list_name":"Trending now","list_logic":"TRENDING","spot_id":"spot-home-1","spot_name":"Home top","segment_id":"seg-all","segment_name":"Everyone","items":[{"item_id":"10023-BLK-42","item_group_id":"10023","item_variant_id":"BLK-42","item_name":"Trail running shoe","price":"89.90","currency":"EUR","index":1}]}}]"#;
                let url = "https://stats.ksearchnet.com/analytics/collect";
                let headers = vec![header("Content-Type", "application/json")];
                return entry(&ts, "POST", url, headers, view, (200, "{}"));
            }
            7 | 17 => {
                let url = format!("https://shop.example/static/app-{i}.js");
                return entry(
                    &ts,
                    "GET",
                    &url,
                    vec![header("Accept", "*/*")],
                    "",
                    (200, "f()"),
                );
            }
            11 => {
                let def = r#"{"attributeName":"fabric","datatype":"STRING","label":{"default":"Fabric"},"searchable":true}"#;
                return signed(i, "PUT", "/v2/attributes/fabric", def, 0);
            }
            37 => return signed(i, "DELETE", "/v2/attributes/fabric", "", 0),
            29 | 45 => return signed(i, "GET", "/v2/attributes", "", 0),
            _ => {}
        }
    }
    let wrong = (i * mismatch_percent) / 100 != ((i + 1) * mismatch_percent) / 100;
    let mistake = if wrong {
        1 + (i * mismatch_percent / 100) % 3
    } else {
        0
    };
    signed(i, "PUT", "/v2/batch", &batch(i), mistake)
}

/// Write a HAR of `entries` entries to `path`; returns its size in bytes.
pub fn write_sdk_har(path: &Path, entries: usize, mismatch_percent: usize, mix: Mix) -> usize {
    let file = std::fs::File::create(path).expect("the bench HAR can be created");
    let mut out = std::io::BufWriter::new(file);
    let mut write = || -> std::io::Result<()> {
        out.write_all(br#"{"log":{"version":"1.2","creator":{"name":"mitmproxy","version":"11.0.0"},"pages":[],"entries":["#)?;
        for i in 0..entries {
            if i > 0 {
                out.write_all(b",")?;
            }
            serde_json::to_writer(&mut out, &nth(i, mismatch_percent, mix))?;
        }
        out.write_all(b"]}}")?;
        out.flush()
    };
    write().expect("the bench HAR can be written");
    drop(out);
    std::fs::metadata(path).map_or(0, |m| m.len() as usize)
}
