//! The verifying forward proxy: an in-process server forwarding to a real second
//! `signscope serve` process on 127.0.0.1 as the upstream.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;
mod server_common;

use std::io::{Read, Write};
use std::time::Duration;

use common::upstream::{content_length, raw_answer, raw_upstream, Received};
use futures::StreamExt;
use serde_json::Value;
use server_common::*;
use signscope::client::stream::events;
use signscope::core::time::format_timestamp;
use signscope::server::{Server, ServerConfig, DEMO_API_KEY, DEMO_REST_KEY};

const BODY: &str = r#"[{"id":"sku-1","type":"KLEVU_CMS","name":"Trail shoe"}]"#;

/// `signscope serve` whose only account is the demo API key with a different REST key: the
/// public API key itself. A request signed with the demo REST key is accepted by the proxy and
/// refused upstream; one signed with the public key is refused by the proxy (a recognised
/// mistake) and accepted upstream.
fn upstream() -> ServeProcess {
    ServeProcess::start(
        &[
            "--addr",
            "127.0.0.1:0",
            "--account",
            &format!("{DEMO_API_KEY}=UPSTREAM_KEY"),
        ],
        &[("UPSTREAM_KEY", DEMO_API_KEY)],
    )
}

async fn proxy_to(indexing: Option<&str>, analytics: Option<&str>) -> Server {
    let mut cfg = ServerConfig::demo();
    cfg.forward_indexing = indexing.map(String::from);
    cfg.forward_analytics = analytics.map(String::from);
    start(cfg).await
}

fn now() -> String {
    format_timestamp(chrono::Utc::now())
}

/// Send and return status, headers and body bytes.
async fn send_raw(
    c: &reqwest::Client,
    base: &str,
    path_and_query: &str,
    headers: &[(String, String)],
    body: Vec<u8>,
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let mut rb = c.put(format!("{base}{path_and_query}"));
    for (n, v) in headers {
        rb = rb.header(n.as_str(), v.as_str());
    }
    let resp = rb.body(body).send().await.unwrap();
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    (status, headers, resp.bytes().await.unwrap().to_vec())
}

/// The stream's records from the start (`after=0`), `n` of them.
async fn stream_records(base: &str, n: usize) -> Vec<Value> {
    let c = reqwest::Client::builder().no_proxy().build().unwrap();
    let resp = c
        .get(format!("{base}/_inspect/stream?after=0"))
        .send()
        .await
        .unwrap();
    let mut events = std::pin::pin!(events(resp));
    let mut out = Vec::new();
    while out.len() < n {
        let ev = tokio::time::timeout(Duration::from_secs(60), events.next())
            .await
            .expect("no stream record within a minute")
            .expect("stream ended")
            .unwrap();
        let v: Value = serde_json::from_str(&ev.data).unwrap();
        if v["route"] != "inspect" {
            out.push(v);
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verdicts_that_agree_and_disagree_are_recorded_side_by_side() {
    let up = upstream();
    let proxy = proxy_to(Some(&up.url), None).await;
    let c = client();

    // 1. Signed with the demo REST key: accepted here, refused upstream (another key there).
    let ts1 = now();
    let h1 = demo_headers("PUT", "/v2/batch", "b=%20x&a=1", &ts1, BODY.as_bytes());
    let (status, headers, body) =
        send_raw(&c, &proxy.url(), "/v2/batch?b=%20x&a=1", &h1, BODY.into()).await;
    let answer: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(status, 401, "{answer}");
    assert_eq!(answer["code"], "SIGNATURE_MISMATCH");
    // The upstream's own answer and Date reach the client.
    assert!(headers.contains_key("date"));

    // 2. Signed with the public API key as the REST key: refused here, accepted upstream.
    let h2 = signed_headers(
        "PUT",
        "/v2/batch",
        "b=%20x&a=1",
        &now(),
        DEMO_API_KEY,
        DEMO_API_KEY,
        BODY.as_bytes(),
    );
    let (status, _, body) =
        send_raw(&c, &proxy.url(), "/v2/batch?b=%20x&a=1", &h2, BODY.into()).await;
    let answer: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(status, 200, "{answer}");
    let job = answer["jobId"].as_str().unwrap().to_string();

    // The upstream saw both requests exactly as sent: path, query, body, signing headers.
    let (_, seen) = get_json(&c, &format!("{}/_inspect/requests", up.url)).await;
    let seen = seen.as_array().unwrap();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[1]["job_id"], job.as_str());
    for (rec, sent) in seen.iter().zip([&h1, &h2]) {
        assert_eq!(rec["path"], "/v2/batch");
        assert_eq!(rec["query"], "b=%20x&a=1");
        assert_eq!(rec["body"], BODY);
        let got: Vec<(String, String)> = serde_json::from_value(rec["headers"].clone()).unwrap();
        for (name, value) in sent {
            let name = name.to_ascii_lowercase();
            assert!(
                got.iter().any(|(n, v)| *n == name && v == value),
                "{name}: {value} not forwarded: {got:?}"
            );
        }
        assert!(!got.iter().any(|(n, _)| n == "transfer-encoding"));
    }

    // Here: the proxy's own verdicts, next to the upstream's.
    let recs = stream_records(&proxy.url(), 2).await;
    assert_eq!(recs[0]["verdict"], "accepted");
    assert_eq!(recs[0]["status"], 200);
    assert_eq!(recs[0]["upstream"]["status"], 401);
    assert_eq!(recs[0]["upstream"]["code"], "SIGNATURE_MISMATCH");
    assert_eq!(recs[0]["upstream"]["url"], up.url.as_str());
    assert_eq!(recs[1]["verdict"], "rejected");
    assert_eq!(recs[1]["status"], 401);
    assert_eq!(recs[1]["code"], "SIGNATURE_MISMATCH");
    assert_eq!(
        recs[1]["mistakes"],
        serde_json::json!(["PUBLIC_API_KEY_AS_SECRET"])
    );
    assert_eq!(recs[1]["upstream"]["status"], 200);
    assert!(recs[1]["upstream"]["body"].as_str().unwrap().contains(&job));
    let (_, local) = get_json(&c, &format!("{}/_inspect/requests", proxy.url())).await;
    assert_eq!(local[0]["verdict"], "accepted");
    assert_eq!(local[1]["verdict"], "rejected");

    // No REST key anywhere: not in what was forwarded, recorded, or streamed.
    let (_, up_all) = get_json(&c, &format!("{}/_inspect/requests", up.url)).await;
    for text in [
        up_all.to_string(),
        local.to_string(),
        Value::Array(recs).to_string(),
    ] {
        assert!(!text.contains(DEMO_REST_KEY));
    }
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_upstream_gets_502_naming_it_and_the_request_is_still_recorded() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let dead = format!("http://127.0.0.1:{port}");
    let proxy = proxy_to(Some(&dead), None).await;
    let c = client();
    let h = demo_headers("PUT", "/v2/batch", "", &now(), BODY.as_bytes());
    let (status, v) = send(&c, &proxy.url(), "PUT", "/v2/batch", &h, BODY.into()).await;
    assert_eq!(status, 502, "{v}");
    assert_vendor_error(&v, 502, "BAD_GATEWAY");
    let msg = v["message"].as_str().unwrap();
    assert!(msg.contains(&dead), "{msg}");
    assert!(msg.to_ascii_lowercase().contains("refused"), "{msg}");
    let (_, local) = get_json(&c, &format!("{}/_inspect/requests", proxy.url())).await;
    assert_eq!(local[0]["verdict"], "accepted");
    let rec = &stream_records(&proxy.url(), 1).await[0];
    assert_eq!(rec["status"], 200);
    assert_eq!(rec["upstream"]["status"], Value::Null);
    assert_eq!(rec["upstream"]["error"], msg);
    proxy.shutdown().await;
}

/// An upstream that answers 413 after reading a few KB of a large body and closes (a server on
/// raw sockets, and signscope's own server with a 1 MiB limit): the proxy's writes of the rest
/// fail, and its client still gets the upstream's 413 and its record says so. The proxy lost
/// the answer, a 502 "could not be reached: Broken pipe", whenever the write failed before it
/// had read the answer (most exchanges here), so each upstream gets six.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_answer_sent_before_the_whole_body_was_read_is_passed_on() {
    let mut limited = ServerConfig::demo();
    limited.max_body = 1024 * 1024;
    let limited = start(limited).await;
    let refusing =
        common::upstream::refusing_after(8 * 1024, common::upstream::payload_too_large());
    let body = vec![b' '; 24 * 1024 * 1024];
    let h = demo_headers("PUT", "/v2/batch", "", &now(), &body);
    let c = client();
    for upstream in [refusing, limited.url()] {
        let mut cfg = ServerConfig::demo();
        cfg.forward_indexing = Some(upstream.clone());
        // Far past what the socket buffers between the proxy and the upstream hold.
        cfg.max_body = 32 * 1024 * 1024;
        let proxy = start(cfg).await;
        for round in 0..6 {
            let (status, _, answer) =
                send_raw(&c, &proxy.url(), "/v2/batch", &h, body.clone()).await;
            let text = String::from_utf8_lossy(&answer);
            assert_eq!(status, 413, "{upstream}, exchange {round}: {text}");
            assert!(text.contains("PAYLOAD_TOO_LARGE"), "{text}");
        }
        let rec = &stream_records(&proxy.url(), 1).await[0];
        assert_eq!(rec["upstream"]["status"], 413, "{rec}");
        let kept = rec["upstream"]["body"].as_str().unwrap();
        assert!(kept.contains("PAYLOAD_TOO_LARGE"), "{rec}");
        assert_eq!(rec["upstream"]["error"], Value::Null, "{rec}");
        proxy.shutdown().await;
    }
    limited.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_and_chunked_bodies_arrive_upstream_byte_for_byte() {
    // The upstream takes the demo REST key here.
    let up = ServeProcess::start(&["--addr", "127.0.0.1:0", "--demo"], &[]);
    let up_url = up.url.clone();
    let proxy = proxy_to(Some(&up_url), None).await;
    let c = client();

    // 1.5 MiB, with bytes that any re-encoding would change (escapes, non-ASCII, CRLF).
    let item =
        "{\"id\":\"sku-\\u00e9\",\"type\":\"KLEVU_CMS\",\"name\":\"caf\u{e9} \\/ \\\"x\\\"\"},\r\n";
    let mut big = String::from("[");
    while big.len() < 1_500_000 {
        big.push_str(item);
    }
    big.push_str("{\"id\":\"end\",\"type\":\"KLEVU_CMS\"}]");
    let h = demo_headers("PUT", "/v2/batch", "", &now(), big.as_bytes());
    let (status, _, body) =
        send_raw(&c, &proxy.url(), "/v2/batch", &h, big.clone().into_bytes()).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));

    // Chunked, written by hand in uneven chunks.
    let h = demo_headers("PUT", "/v2/batch", "", &now(), BODY.as_bytes());
    let addr = proxy.addr;
    let raw = tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        let mut head = String::from("PUT /v2/batch HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n");
        for (n, v) in &h {
            head.push_str(&format!("{n}: {v}\r\n"));
        }
        head.push_str("\r\n");
        s.write_all(head.as_bytes()).unwrap();
        for part in [&BODY[..5], &BODY[5..6], &BODY[6..]] {
            s.write_all(format!("{:x}\r\n{part}\r\n", part.len()).as_bytes()).unwrap();
            s.flush().unwrap();
            // Paced so the chunks tend to arrive apart; the answer is the same if they do not.
            std::thread::sleep(Duration::from_millis(20));
        }
        s.write_all(b"0\r\n\r\n").unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    })
    .await
    .unwrap();
    assert!(raw.starts_with("HTTP/1.1 200"), "{raw}");
    assert!(raw.contains("Job submitted successfully."), "{raw}");

    let (_, seen) = get_json(&c, &format!("{}/_inspect/requests", up_url)).await;
    assert_eq!(seen[0]["verdict"], "accepted");
    assert_eq!(seen[0]["body_bytes"], big.len());
    assert_eq!(seen[1]["verdict"], "accepted");
    assert_eq!(seen[1]["body"], BODY);
    let headers: Vec<(String, String)> =
        serde_json::from_value(seen[1]["headers"].clone()).unwrap();
    assert!(
        !headers.iter().any(|(n, _)| n == "transfer-encoding"),
        "{headers:?}"
    );
    assert!(headers
        .iter()
        .any(|(n, v)| n == "content-length" && *v == BODY.len().to_string()));
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn collector_batches_are_forwarded_and_the_upstream_answer_comes_back() {
    let up = upstream();
    let proxy = proxy_to(None, Some(&up.url)).await;
    let c = client();
    let (status, v) = collect(&c, &proxy.url(), &bad_batch()).await;
    assert_eq!(status, 400, "{v}");
    assert_eq!(v["rejected"], 2);
    let (status, _) = collect(&c, &proxy.url(), GOOD_BATCH).await;
    assert_eq!(status, 200);
    let (_, summary) = get_json(&c, &format!("{}/_inspect/summary", up.url)).await;
    assert_eq!(
        (
            summary["batches_bad"].as_u64(),
            summary["batches_good"].as_u64()
        ),
        (Some(1), Some(1))
    );
    let recs = stream_records(&proxy.url(), 2).await;
    assert_eq!(recs[0]["route"], "collect");
    assert_eq!(recs[0]["batch"]["invalid"], 2);
    assert_eq!(recs[0]["upstream"]["status"], 400);
    assert_eq!(recs[1]["upstream"]["status"], 200);
    // Indexing requests are not forwarded when only analytics is.
    let h = demo_headers("PUT", "/v2/batch", "", &now(), BODY.as_bytes());
    let (status, _) = send(&c, &proxy.url(), "PUT", "/v2/batch", &h, BODY.into()).await;
    assert_eq!(status, 200);
    let (_, summary) = get_json(&c, &format!("{}/_inspect/summary", up.url)).await;
    assert_eq!(summary["requests"], 0);
    proxy.shutdown().await;
}

/// A page on `origin` posting the good batch to the collector at `base`, as a browser does.
async fn post_from_origin(c: &reqwest::Client, base: &str, origin: &str) -> reqwest::Response {
    c.post(format!("{base}/analytics/collect"))
        .header("origin", origin)
        .header("content-type", "application/json")
        .body(GOOD_BATCH)
        .send()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_forward_analytics_preflights_are_answered_locally_and_never_forwarded() {
    let up = upstream();
    let proxy = proxy_to(None, Some(&up.url)).await;
    let c = client();
    let origin = "https://shop.example.com";
    let resp = c
        .request(
            reqwest::Method::OPTIONS,
            format!("{}/analytics/collect", proxy.url()),
        )
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(
        resp.headers()["access-control-allow-origin"]
            .to_str()
            .unwrap(),
        origin
    );
    // The page's POST is forwarded; the upstream's own CORS answer comes back.
    let resp = post_from_origin(&c, &proxy.url(), origin).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(
        resp.headers()["access-control-allow-origin"]
            .to_str()
            .unwrap(),
        origin
    );
    // The upstream saw the POST and nothing before it: the preflight stayed local.
    let seen = stream_records(&up.url, 1).await;
    assert_eq!(seen[0]["method"], "POST", "{:?}", seen[0]);
    assert_eq!(seen[0]["path"], "/analytics/collect");
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forwarded_collector_answer_gets_the_local_cors_headers() {
    // An upstream collector whose CORS answer a credentialed request cannot use (`*`).
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let upstream = format!("http://{}", listener.local_addr().unwrap());
    let app = axum::Router::new().route(
        "/analytics/collect",
        axum::routing::post(|| async {
            ([("access-control-allow-origin", "*")], "{\"accepted\":2}")
        }),
    );
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let proxy = proxy_to(None, Some(&upstream)).await;
    let c = client();
    let resp = post_from_origin(&c, &proxy.url(), "https://shop.example.com").await;
    assert_eq!(resp.status(), 200);
    assert_eq!(
        resp.headers()["access-control-allow-origin"]
            .to_str()
            .unwrap(),
        "https://shop.example.com"
    );
    assert_eq!(resp.headers()["access-control-allow-credentials"], "true");
    assert_eq!(
        resp.headers()
            .get_all("access-control-allow-origin")
            .iter()
            .count(),
        1
    );
    assert_eq!(resp.text().await.unwrap(), "{\"accepted\":2}");
    // The indexing API's forwarded answers get none (it is called by servers, not pages).
    proxy.shutdown().await;
}

/// Send `head` (request line and headers, without the blank line), the blank line and `body`
/// on a raw connection, then keep it open without sending more; return what the server says.
fn raw_exchange(addr: std::net::SocketAddr, head: &str, body: &[u8]) -> String {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(format!("{head}\r\n").as_bytes()).unwrap();
    s.write_all(body).unwrap();
    s.flush().unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    // Read until the answer's body is complete (the server closes or the JSON ends).
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
        let text = String::from_utf8_lossy(&out);
        if let Some((_, body)) = text.split_once("\r\n\r\n") {
            if body.trim_end().ends_with('}') {
                break;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_fails_the_local_read_is_answered_locally_and_never_forwarded() {
    let up = ServeProcess::start(&["--addr", "127.0.0.1:0", "--demo"], &[]);
    let mut cfg = ServerConfig::demo();
    cfg.forward_indexing = Some(up.url.clone());
    cfg.forward_analytics = Some(up.url.clone());
    cfg.max_body = 1024;
    cfg.body_timeout = Duration::from_secs(1);
    let proxy = start(cfg).await;
    let addr = proxy.addr;

    // 1. Over the limit, chunked (no Content-Length to refuse it up front): the proxy reads
    //    past 1 KiB, stops, and the local handler answers 413 as it does without forwarding.
    let big = format!("[{}]", "\"x\",".repeat(1000) + "\"x\"");
    let h = demo_headers("PUT", "/v2/batch", "", &now(), big.as_bytes());
    let raw = tokio::task::spawn_blocking(move || {
        let mut head = String::from("PUT /v2/batch HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n");
        for (n, v) in &h {
            head.push_str(&format!("{n}: {v}\r\n"));
        }
        let body = format!("{:x}\r\n{big}\r\n0\r\n\r\n", big.len());
        raw_exchange(addr, &head, body.as_bytes())
    })
    .await
    .unwrap();
    assert!(raw.starts_with("HTTP/1.1 413"), "{raw}");
    assert!(raw.contains("PAYLOAD_TOO_LARGE"), "{raw}");

    // 2. Too slow: 10 of 100 declared bytes, then nothing. The local handler's 408, once (the
    //    proxy's read is the only read: the body is not waited for twice).
    let h = demo_headers("PUT", "/v2/batch", "", &now(), &[b' '; 100]);
    let raw = tokio::task::spawn_blocking(move || {
        let mut head = String::from(
            "PUT /v2/batch HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: 100\r\n",
        );
        for (n, v) in &h {
            head.push_str(&format!("{n}: {v}\r\n"));
        }
        raw_exchange(addr, &head, &[b' '; 10])
    })
    .await
    .unwrap();
    assert!(raw.starts_with("HTTP/1.1 408"), "{raw}");
    assert!(raw.contains("REQUEST_TIMEOUT"), "{raw}");

    // 3. The collector's too-large batch (declared): 413, with its CORS headers.
    let c = client();
    let resp = c
        .post(format!("{}/analytics/collect", proxy.url()))
        .header("origin", "https://shop.example.com")
        .header("content-type", "application/json")
        .body(bad_batch().repeat(20))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 413);
    assert_eq!(
        resp.headers()["access-control-allow-origin"],
        "https://shop.example.com"
    );

    // Recorded here with the local answers and no upstream; nothing reached the upstream.
    let recs = stream_records(&proxy.url(), 3).await;
    let statuses: Vec<&Value> = recs.iter().map(|r| &r["status"]).collect();
    assert_eq!(statuses, [413, 408, 413], "{recs:?}");
    for r in &recs {
        assert!(r.get("upstream").is_none_or(Value::is_null), "{r}");
    }
    let (_, summary) = get_json(&c, &format!("{}/_inspect/summary", up.url)).await;
    assert_eq!(summary["requests"], 0, "{summary}");
    let (_, events) = get_json(&c, &format!("{}/_inspect/events", up.url)).await;
    assert_eq!(events, serde_json::json!([]), "{events}");
    proxy.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_analytics_request_reaches_the_upstream_the_older_endpoints_included() {
    let (up, seen) = recording_upstream("upstream").await;
    let proxy = proxy_to(None, Some(&up)).await;
    let c = client();
    let form = "--b1\r\nContent-Disposition: form-data; name=\"klevu_apiKey\"\r\n\r\nklevu-1\r\n--b1\r\nContent-Disposition: form-data; name=\"klevu_term\"\r\n\r\nshoes\r\n--b1--\r\n";
    let sent: Vec<(&str, String, Vec<u8>)> = vec![
        // @klevu/core 1.x-3.x: GET, the fields in the query.
        (
            "GET",
            "/analytics/n-search/search?klevu_apiKey=klevu-1&klevu_term=red%20shoes".into(),
            vec![],
        ),
        (
            "GET",
            "/analytics/categoryProductViewTracking?klevu_apiKey=klevu-1&klevu_categoryName=Mens"
                .into(),
            vec![],
        ),
        // 5.x: POST with a multipart form.
        (
            "POST",
            "/analytics/productTracking".into(),
            form.as_bytes().to_vec(),
        ),
        (
            "POST",
            "/analytics/dataTracking".into(),
            form.as_bytes().to_vec(),
        ),
        // A path signscope does not know, and a GET to the collector: forwarded all the same.
        ("POST", "/analytics/somethingNew?x=1".into(), b"{}".to_vec()),
        ("GET", "/analytics/collect".into(), vec![]),
    ];
    for (method, target, body) in &sent {
        let mut r = c.request(
            reqwest::Method::from_bytes(method.as_bytes()).unwrap(),
            format!("{}{target}", proxy.url()),
        );
        if target.contains("Tracking") && *method == "POST" {
            r = r.header("content-type", "multipart/form-data; boundary=b1");
        }
        let resp = r.body(body.clone()).send().await.unwrap();
        assert_eq!(resp.status(), 200, "{method} {target}");
        assert_eq!(resp.text().await.unwrap(), "upstream", "{method} {target}");
    }
    let got: Vec<(String, String, Vec<u8>)> = seen
        .lock()
        .unwrap()
        .iter()
        .map(|(m, t, _, b)| (m.clone(), t.clone(), b.clone()))
        .collect();
    let want: Vec<(String, String, Vec<u8>)> = sent
        .iter()
        .map(|(m, t, b)| (m.to_string(), t.clone(), b.clone()))
        .collect();
    assert_eq!(got, want);
    // And each older endpoint's request is recorded locally, by its endpoint.
    let text = c
        .get(format!("{}/_inspect/events", proxy.url()))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let events: Value = serde_json::from_str(&text).unwrap();
    let names: Vec<&str> = events
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["event"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "n-search/search",
            "categoryProductViewTracking",
            "productTracking",
            "dataTracking"
        ],
        "{events}"
    );
    proxy.shutdown().await;
}

/// An upstream on raw sockets that answers what an HTTP library would not: `101 Switching
/// Protocols` to `/v2/switch`, status 600 to `/v2/six-hundred`, `upstream` to anything else.
fn hostile_upstream() -> (String, Received) {
    raw_upstream(|line| {
        if line.contains("/v2/switch") {
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
                .to_vec()
        } else if line.contains("/v2/six-hundred") {
            raw_answer("600 Strange", "hi")
        } else {
            raw_answer("200 OK", "upstream")
        }
    })
}

/// The request lines of what a [`raw_upstream`] received.
fn request_lines(received: &Received) -> Vec<String> {
    received
        .lock()
        .unwrap()
        .iter()
        .map(|r| {
            let text = String::from_utf8_lossy(r);
            text.lines().next().unwrap_or("").to_string()
        })
        .collect()
}

/// Read one answer (head and a body of its Content-Length) from `s`; its status and body.
fn read_answer(s: &mut std::net::TcpStream) -> (u16, String) {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(
            s.read(&mut byte).unwrap(),
            1,
            "the connection ended after {:?}",
            String::from_utf8_lossy(&head)
        );
        head.push(byte[0]);
    }
    let text = String::from_utf8_lossy(&head).into_owned();
    let status = text[9..12].parse().unwrap();
    let length = content_length(&text).unwrap_or_else(|| panic!("no Content-Length in {text:?}"));
    let mut body = vec![0u8; length];
    s.read_exact(&mut body).unwrap();
    (status, String::from_utf8(body).unwrap())
}

/// What a proxy cannot pass on left the client's connection dead: `CONNECT /v2/batch` went out
/// as `CONNECT host:port` (the path lost) and the upstream's yes made a tunnel; an upstream's
/// `101` came back without its Upgrade headers; status 600 was relayed; and `OPTIONS /v2/...`
/// was never forwarded. Now CONNECT is refused (405) and the two answers are 502, each with a
/// sentence, on a connection that goes on serving; OPTIONS reaches the upstream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_cannot_be_proxied_is_refused_in_a_sentence_and_options_is_forwarded() {
    let (up, seen) = hostile_upstream();
    let proxy = proxy_to(Some(&up), None).await;
    let addr = proxy.addr;
    let outcome = tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut ask = |line: &str| {
            s.write_all(
                format!("{line} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
                    .as_bytes(),
            )
            .unwrap();
            read_answer(&mut s)
        };
        vec![
            ask("CONNECT /v2/batch"),
            ask("GET /v2/switch"),
            ask("GET /v2/six-hundred"),
            ask("OPTIONS /v2/batch"),
            // The same connection still serves.
            ask("GET /_inspect/summary"),
        ]
    })
    .await
    .unwrap();
    let (status, body) = &outcome[0];
    assert_eq!(*status, 405, "{body}");
    let v: Value = serde_json::from_str(body).unwrap();
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("CONNECT asks for a tunnel"),
        "{v}"
    );
    for (status, body) in &outcome[1..3] {
        assert_eq!(*status, 502, "{body}");
        let v: Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["code"], "BAD_GATEWAY");
        assert!(v["message"].as_str().unwrap().contains(&up), "{v}");
    }
    assert!(
        outcome[1].1.contains("101 Switching Protocols"),
        "{}",
        outcome[1].1
    );
    assert!(outcome[2].1.contains("status 600"), "{}", outcome[2].1);
    assert_eq!(outcome[3], (200, "upstream".to_string()));
    assert_eq!(outcome[4].0, 200);
    let lines = request_lines(&seen);
    assert_eq!(
        lines,
        [
            "GET /v2/switch HTTP/1.1",
            "GET /v2/six-hundred HTTP/1.1",
            "OPTIONS /v2/batch HTTP/1.1"
        ],
        "CONNECT never reaches the upstream"
    );
    proxy.shutdown().await;
}

/// The proxy added what the application never sent: a request without `Accept` reached the
/// upstream with `accept: */*` (the HTTP client's default), and every name went out in lower
/// case. Now the upstream receives the bytes the client sent, `Host` naming the upstream being
/// the one difference: no header added, none dropped or re-cased, the same order, the body
/// byte for byte (rule W8).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_upstream_receives_the_bytes_the_client_sent_and_nothing_more() {
    let (up, received) = raw_upstream(|_| raw_answer("200 OK", "upstream"));
    let proxy = proxy_to(Some(&up), Some(&up)).await;
    let (proxy_host, up_host) = (proxy.addr.to_string(), up.replace("http://", ""));
    let form = "--b1\r\nContent-Disposition: form-data; name=\"klevu_apiKey\"\r\n\r\nklevu-1\r\n--b1\r\nContent-Disposition: form-data; name=\"klevu_term\"\r\n\r\nshoes\r\n--b1--\r\n";
    let requests: Vec<String> = vec![
        // Guzzle as the vendor's Magento module uses it: no Accept, no User-Agent.
        format!("PUT /v2/batch HTTP/1.1\r\nHost: {proxy_host}\r\nContent-Type: application/json\r\nX-KLEVU-APIKEY: klevu-1\r\nX-KLEVU-TIMESTAMP: 2026-01-01T00:00:00.000Z\r\nX-KLEVU-AUTH-ALGO: HmacSHA384\r\nX-KLEVU-CONTENT-ENCODING: utf-8\r\nX-KLEVU-SIGNATURE: c2ln\r\nContent-Length: {}\r\n\r\n{BODY}", BODY.len()),
        // One with both, written in its own case.
        format!("PUT /v2/batch HTTP/1.1\r\nuser-agent: GuzzleHttp/7\r\nHost: {proxy_host}\r\nACCEPT: application/json\r\nContent-Length: {}\r\ncontent-type: application/json\r\nx-svc-apikey: klevu-1\r\n\r\n{BODY}", BODY.len()),
        // A multipart form to an older endpoint.
        format!("POST /analytics/productTracking HTTP/1.1\r\nHost: {proxy_host}\r\nContent-Type: multipart/form-data; boundary=b1\r\nContent-Length: {}\r\n\r\n{form}", form.len()),
        // A GET with a JSON body.
        format!("GET /v2/attributes?x=%2F HTTP/1.1\r\nHost: {proxy_host}\r\nX-Svc-Apikey: klevu-1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{BODY}", BODY.len()),
        // A GET without a body declares no length and gets none.
        format!("GET /v2/attributes HTTP/1.1\r\nHost: {proxy_host}\r\nX-Svc-Apikey: klevu-1\r\n\r\n"),
    ];
    let addr = proxy.addr;
    let sent = requests.clone();
    let answers = tokio::task::spawn_blocking(move || {
        sent.iter()
            .map(|raw| {
                let mut s = std::net::TcpStream::connect(addr).unwrap();
                s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                s.write_all(raw.as_bytes()).unwrap();
                read_answer(&mut s)
            })
            .collect::<Vec<_>>()
    })
    .await
    .unwrap();
    for (answer, raw) in answers.iter().zip(&requests) {
        assert_eq!(answer, &(200, "upstream".to_string()), "{raw}");
    }
    let got: Vec<String> = received
        .lock()
        .unwrap()
        .iter()
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect();
    let want: Vec<String> = requests
        .iter()
        .map(|r| r.replace(&format!("Host: {proxy_host}"), &format!("Host: {up_host}")))
        .collect();
    assert_eq!(got, want);
    proxy.shutdown().await;
}

/// `/_inspect/requests` kept less than the live stream: no upstream answer, no mistakes, no
/// conclusion. Now a request's inspection record (list and `?seq=`) holds every field its
/// stream record holds, with the same values (rule R14).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_inspection_record_holds_what_the_stream_record_holds() {
    let (up, _) = raw_upstream(|_| {
        raw_answer(
            "401 Unauthorized\r\nContent-Type: application/json",
            r#"{"status":401,"code":"SIGNATURE_MISMATCH","message":"no","debug":[]}"#,
        )
    });
    let proxy = proxy_to(Some(&up), None).await;
    let c = client();
    // Signed with the public API key as the REST key: a mistake the diagnosis names.
    let h = signed_headers(
        "PUT",
        "/v2/batch",
        "",
        &now(),
        DEMO_API_KEY,
        DEMO_API_KEY,
        BODY.as_bytes(),
    );
    let (status, _, _) = send_raw(&c, &proxy.url(), "/v2/batch", &h, BODY.into()).await;
    assert_eq!(status, 401);
    let stream = stream_records(&proxy.url(), 1).await.remove(0);
    assert_eq!(
        stream["mistakes"],
        serde_json::json!(["PUBLIC_API_KEY_AS_SECRET"])
    );
    assert!(stream["conclusion"].is_string(), "{stream}");
    assert_eq!(stream["upstream"]["status"], 401, "{stream}");
    let seq = stream["record"].as_u64().unwrap();
    let (_, list) = get_json(&c, &format!("{}/_inspect/requests", proxy.url())).await;
    let (_, one) = get_json(&c, &format!("{}/_inspect/requests?seq={seq}", proxy.url())).await;
    for (what, record) in [("list", &list[0]), ("seq", &one[0])] {
        assert_eq!(record["seq"], seq, "{what}: {record}");
        assert_eq!(record["body_bytes"], stream["request_bytes"], "{what}");
        for (key, value) in stream.as_object().unwrap() {
            if ["type", "seq", "record", "request_bytes", "batch"].contains(&key.as_str()) {
                continue;
            }
            assert_eq!(&record[key], value, "{what}: {key} differs: {record}");
        }
    }
    proxy.shutdown().await;
}
