//! The HTTP client against servers on 127.0.0.1 port 0: a small verifying fixture (it recomputes
//! the signature from the bytes it received, so "the signed bytes are the bytes sent" is checked
//! on the wire), listeners that never answer, refused connections and a TLS mismatch.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{HeaderMap, Method, StatusCode, Uri};
use bytes::Bytes;
use signscope::client::{self, ClientError, ClientOptions, OutgoingRequest};
use signscope::core::RequestSpec;
use signscope::core::{sign, Secret, SignableRequest};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const KEY: &str = "fixture-rest-key";

#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<SeenRequest>>>);

/// Method, URI, headers, body.
type SeenRequest = (String, String, Vec<(String, String)>, Bytes);

/// A fixture that verifies signatures with KEY and records every request.
async fn verifying_fixture(date: Option<&'static str>) -> (String, Seen) {
    let seen = Seen::default();
    let s2 = seen.clone();
    let app = axum::Router::new().fallback(
        move |method: Method, uri: Uri, headers: HeaderMap, body: Bytes| {
            let seen = s2.clone();
            async move {
                let h = |n: &str| {
                    headers
                        .get(n)
                        .map(|v| v.to_str().unwrap().to_string())
                        .unwrap_or_default()
                };
                seen.0.lock().unwrap().push((
                    method.to_string(),
                    uri.to_string(),
                    headers
                        .iter()
                        .map(|(n, v)| (n.to_string(), v.to_str().unwrap_or("?").to_string()))
                        .collect(),
                    body.clone(),
                ));
                let mut resp_headers = axum::http::HeaderMap::new();
                if let Some(d) = date {
                    resp_headers.insert("date", d.parse().unwrap());
                }
                if uri.path() == "/analytics/collect" {
                    return (StatusCode::OK, resp_headers, "{\"accepted\":2}".to_string());
                }
                let (ts, api, algo, ct) = (
                    h("x-svc-timestamp"),
                    h("x-svc-apikey"),
                    h("x-svc-auth-algo"),
                    h("content-type"),
                );
                let m = method.to_string();
                let req = SignableRequest {
                    method: &m,
                    path: uri.path(),
                    query: uri.query().unwrap_or(""),
                    header_prefix: "SVC",
                    timestamp: &ts,
                    api_key: &api,
                    auth_algo: &algo,
                    content_type: &ct,
                    body: &body,
                };
                let want = sign(&req, &Secret::new(KEY))
                    .unwrap()
                    .authorization()
                    .to_string();
                if h("authorization") == want {
                    (
                        StatusCode::OK,
                        resp_headers,
                        "{\"message\":\"Job submitted successfully.\"}".into(),
                    )
                } else {
                    (
                        StatusCode::UNAUTHORIZED,
                        resp_headers,
                        "{\"status\":401,\"code\":\"SIGNATURE_MISMATCH\"}".into(),
                    )
                }
            }
        },
    );
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}"), seen)
}

fn parts(body: Bytes) -> RequestSpec {
    RequestSpec {
        query: "test=1&b=%20x".into(),
        api_key: "pub-key".into(),
        body,
        ..RequestSpec::default()
    }
}

/// The request signed now with `key`, for `base`.
fn signed(
    base: &str,
    body: Bytes,
    key: &str,
) -> Result<OutgoingRequest, signscope::engine::BuildError> {
    let now = signscope::core::time::format_timestamp(chrono::Utc::now());
    signscope::engine::build_signed(base, &parts(body), &now, &Secret::new(key))
}

/// A client as the engine builds one (its probe left unread).
fn build_client(opts: &ClientOptions) -> reqwest::Client {
    client::build_client_probed(opts).unwrap().0
}

fn quick() -> ClientOptions {
    ClientOptions {
        connect_timeout: Duration::from_secs(2),
        total_timeout: Duration::from_millis(400),
    }
}

#[tokio::test]
async fn signed_send_is_accepted_and_bytes_match() {
    let (base, seen) = verifying_fixture(None).await;
    let http = build_client(&ClientOptions::default());
    // A body with bytes a re-serialiser would change (spacing, key order, non-ASCII, LF).
    let body = Bytes::from_static("[ {\"z\":1, \"a\" : \"é\"}\n]".as_bytes());
    let out = signed(&base, body.clone(), KEY).unwrap();
    let resp = client::send(&http, &out).await.unwrap();
    assert_eq!(resp.status, 200, "{:?}", resp.body);
    assert!(resp.is_success());
    assert!(resp.timings.first_byte <= resp.timings.total);
    let seen = seen.0.lock().unwrap();
    assert_eq!(seen[0].1, "/v2/batch?test=1&b=%20x");
    assert_eq!(
        seen[0].3, body,
        "the server received exactly the signed body"
    );
}

#[tokio::test]
async fn wrong_key_is_rejected_with_the_server_error() {
    let (base, _) = verifying_fixture(None).await;
    let http = build_client(&ClientOptions::default());
    let out = signed(&base, Bytes::from_static(b"[]"), "wrong").unwrap();
    let resp = client::send(&http, &out).await.unwrap();
    assert_eq!(resp.status, 401);
    assert!(String::from_utf8_lossy(&resp.body).contains("SIGNATURE_MISMATCH"));
}

#[tokio::test]
async fn events_go_to_collect_as_json() {
    let (base, seen) = verifying_fixture(None).await;
    let http = build_client(&ClientOptions::default());
    let resp = client::send(
        &http,
        &signscope::engine::events_request(&format!("{base}/"), Bytes::from_static(b"[{}]")),
    )
    .await
    .unwrap();
    assert_eq!(resp.status, 200);
    let seen = seen.0.lock().unwrap();
    assert_eq!(
        (seen[0].0.as_str(), seen[0].1.as_str()),
        ("POST", "/analytics/collect")
    );
    assert!(seen[0]
        .2
        .iter()
        .any(|(n, v)| n == "content-type" && v == "application/json"));
    assert_eq!(seen[0].3, Bytes::from_static(b"[{}]"));
}

#[tokio::test]
async fn server_clock_skew_is_warned() {
    let (base, _) = verifying_fixture(Some("Mon, 01 Jan 2001 00:00:00 GMT")).await;
    let http = build_client(&ClientOptions::default());
    let resp = client::send(
        &http,
        &signscope::engine::events_request(&base, Bytes::from_static(b"[]")),
    )
    .await
    .unwrap();
    let w = resp.clock_skew_warning.expect("a warning");
    assert!(w.contains("behind this computer's"), "{w}");
    // The fixture without a fake Date sends the real one: no warning.
    let (base, _) = verifying_fixture(None).await;
    let resp = client::send(
        &http,
        &signscope::engine::events_request(&base, Bytes::from_static(b"[]")),
    )
    .await
    .unwrap();
    assert_eq!(resp.clock_skew_warning, None);
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        loop {
            let (sock, _) = listener.accept().await.unwrap();
            held.push(sock); // accept, read nothing, answer nothing
        }
    });
    let opts = quick();
    let http = build_client(&opts);
    let req =
        signscope::engine::events_request(&format!("http://{addr}"), Bytes::from_static(b"[]"));
    let err = client::send_with(&http, &req, &opts).await.unwrap_err();
    assert!(matches!(err, ClientError::Timeout { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        format!("{addr} did not answer within 0.4 s; the request was abandoned")
    );
}

#[tokio::test]
async fn refused_connection_is_one_sentence() {
    let addr = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap()
    }; // closed: nothing listens there now
    let http = build_client(&ClientOptions::default());
    let req =
        signscope::engine::events_request(&format!("http://{addr}"), Bytes::from_static(b"[]"));
    let err = client::send(&http, &req).await.unwrap_err();
    assert!(matches!(err, ClientError::Refused { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!(
            "the connection to {addr} was refused; is the server running and is the URL right?"
        )
    );
}

#[tokio::test]
async fn https_to_a_plain_http_server_is_a_tls_error() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let (mut sock, _) = listener.accept().await.unwrap();
            tokio::spawn(async move {
                let mut buf = [0u8; 1024];
                let _ = sock.read(&mut buf).await;
                let _ = sock
                    .write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
                    .await;
            });
        }
    });
    // The default timeouts: a TLS handshake refused by a loaded machine can take longer than
    // the 0.4 s of `quick`, and would then be a timeout instead of the TLS error tested.
    let http = build_client(&ClientOptions::default());
    let req =
        signscope::engine::events_request(&format!("https://{addr}"), Bytes::from_static(b"[]"));
    let err = client::send(&http, &req).await.unwrap_err();
    assert!(matches!(err, ClientError::Tls { .. }), "{err:?}");
    assert!(!err.to_string().contains('\n'));
}

// ---- against the real local server (crate::server::start on 127.0.0.1:0) ----

use signscope::server::{start, ServerConfig};

#[tokio::test]
async fn real_server_accepts_the_signed_bytes_and_rejects_a_wrong_key() {
    let server = start(
        &tokio::runtime::Handle::current(),
        ServerConfig::new().with_account("pub-key", Secret::new(KEY)),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let base = server.url();
    let http = build_client(&ClientOptions::default());
    // Bytes a re-serialiser would change: spacing, key order, non-ASCII, a trailing LF.
    let body =
        Bytes::from_static("[ {\"z\":1, \"id\" : \"é\", \"type\":\"KLEVU_CMS\"}\n]\n".as_bytes());
    let out = signed(&base, body.clone(), KEY).unwrap();
    let resp = client::send(&http, &out).await.unwrap();
    assert_eq!(resp.status, 200, "{}", String::from_utf8_lossy(&resp.body));
    let v: serde_json::Value = serde_json::from_slice(&resp.body).unwrap();
    assert_eq!(v["message"], "Job submitted successfully.");
    assert!(resp.headers.iter().any(|(n, _)| n == "date"));
    assert_eq!(resp.clock_skew_warning, None);

    let out = signed(&base, body, "not-the-key").unwrap();
    let resp = client::send(&http, &out).await.unwrap();
    assert_eq!(resp.status, 401);
    let v: serde_json::Value = serde_json::from_slice(&resp.body).unwrap();
    assert_eq!(v["code"], "SIGNATURE_MISMATCH");
    assert!(!String::from_utf8_lossy(&resp.body).contains(KEY));
    server.shutdown().await;
}

#[tokio::test]
async fn real_server_collects_good_events_and_rejects_bad_ones() {
    let server = start(
        &tokio::runtime::Handle::current(),
        ServerConfig::demo(),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let http = build_client(&ClientOptions::default());
    let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/events");
    let good = Bytes::from(std::fs::read(assets.join("spec-batch.json")).unwrap());
    let resp = client::send(
        &http,
        &signscope::engine::events_request(&server.url(), good),
    )
    .await
    .unwrap();
    assert_eq!(resp.status, 200, "{}", String::from_utf8_lossy(&resp.body));
    let bad = Bytes::from(std::fs::read(assets.join("mistakes.json")).unwrap());
    let resp = client::send(
        &http,
        &signscope::engine::events_request(&server.url(), bad),
    )
    .await
    .unwrap();
    assert_eq!(resp.status, 400);
    assert!(String::from_utf8_lossy(&resp.body).contains("[0]"));
    server.shutdown().await;
}

#[tokio::test]
async fn connect_time_is_measured_for_a_new_connection_only() {
    let (base, _) = verifying_fixture(None).await;
    let opts = ClientOptions::default();
    let (http, probe) = client::build_client_probed(&opts).unwrap();
    let req = signscope::engine::events_request(&base, Bytes::from_static(b"[]"));
    let first = client::send_probed(&http, &probe, &req, &opts)
        .await
        .unwrap();
    let connect = first.timings.connect.expect("a new connection was opened");
    assert!(connect <= first.timings.first_byte);
    // Same client, kept-alive connection: nothing to measure.
    let second = client::send_probed(&http, &probe, &req, &opts)
        .await
        .unwrap();
    assert_eq!(second.timings.connect, None);
}

/// `client::added_headers` names exactly the headers the HTTP client adds on its own (the
/// workbench shows them under the signed ones): what the real server received, less the
/// request's own headers, for a PUT with a body, one with a large body, an empty PUT, a GET with and without a body
/// and a POST, on the default port and on another.
#[tokio::test]
async fn the_headers_the_client_adds_are_the_ones_the_server_received() {
    let server = start(
        &tokio::runtime::Handle::current(),
        ServerConfig::demo(),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let base = server.url();
    let http = build_client(&ClientOptions::default());
    // A body this long goes on a connection of the client's own (one that reads an early
    // answer): it adds the same headers.
    let large: &'static [u8] = Box::leak(vec![b' '; client::EARLY_ANSWER_MIN_BODY].into());
    let cases: [(&str, &str, &'static [u8]); 6] = [
        ("PUT", "/v2/batch", b"[{\"id\":\"p1\"}]\n"),
        ("PUT", "/v2/batch", large),
        ("PUT", "/v2/batch", b""),
        ("GET", "/v2/batch?x=1", b""),
        ("GET", "/v2/batch", b"[]"),
        ("POST", "/analytics/collect", b"[]"),
    ];
    for (method, path, body) in cases {
        let req = OutgoingRequest {
            method: method.into(),
            url: format!("{base}{path}"),
            headers: vec![
                ("X-SVC-APIKEY".into(), "demo-public-key".into()),
                ("Content-Type".into(), "application/json".into()),
            ],
            body: Bytes::from_static(body),
        };
        client::send(&http, &req).await.unwrap();
        let seen: Vec<serde_json::Value> = serde_json::from_slice(
            &reqwest::get(format!("{base}/_inspect/requests?limit=1"))
                .await
                .unwrap()
                .bytes()
                .await
                .unwrap(),
        )
        .unwrap();
        let rec = seen.last().unwrap();
        let mut got: Vec<(String, String)> = rec["headers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                (
                    h[0].as_str().unwrap().to_lowercase(),
                    h[1].as_str().unwrap().to_string(),
                )
            })
            .filter(|(n, _)| !req.headers.iter().any(|(o, _)| o.eq_ignore_ascii_case(n)))
            .collect();
        let mut want = client::added_headers(&req.url, &req.headers, body.len());
        got.sort();
        want.sort();
        assert_eq!(got, want, "{method} {path} with {} bytes", body.len());
    }
    server.shutdown().await;
}

/// A body the server refuses before reading it: its answer (413) is what the send gives, not
/// the write that failed when the server closed the connection ("Broken pipe"). Against a
/// server on raw sockets that answers on the head alone, and against the local server, which
/// answers a declared length past what it drains at once.
#[tokio::test]
async fn a_server_that_answers_before_reading_the_body_is_heard() {
    let refusing = common::upstream::refusing_upstream(common::upstream::payload_too_large());
    let mut config = ServerConfig::demo();
    config.max_body = 1024 * 1024;
    let server = start(
        &tokio::runtime::Handle::current(),
        config,
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let opts = ClientOptions {
        connect_timeout: Duration::from_secs(10),
        total_timeout: Duration::from_secs(60),
    };
    let http = build_client(&opts);
    // Past the bytes the local server reads and throws away before it answers.
    let body = Bytes::from(vec![b' '; 40 * 1024 * 1024]);
    for base in [refusing, server.url()] {
        let req = OutgoingRequest {
            method: "PUT".into(),
            url: format!("{base}/v2/batch"),
            headers: vec![("X-SVC-APIKEY".into(), "demo-public-key".into())],
            body: body.clone(),
        };
        let resp = client::send_with(&http, &req, &opts)
            .await
            .unwrap_or_else(|e| panic!("{base}: {e}"));
        assert_eq!(resp.status, 413, "{base}");
        let text = String::from_utf8_lossy(&resp.body);
        assert!(text.contains("PAYLOAD_TOO_LARGE"), "{base}: {text}");
    }
    server.shutdown().await;
}

/// A connection the server closes with no answer while the body is being sent is one sentence
/// that names the closed connection.
#[tokio::test]
async fn a_server_that_closes_without_an_answer_is_one_sentence() {
    let closing = common::upstream::refusing_upstream(Vec::new());
    let req = OutgoingRequest {
        method: "PUT".into(),
        url: format!("{closing}/v2/batch"),
        headers: vec![],
        body: Bytes::from(vec![b' '; 16 * 1024 * 1024]),
    };
    let http = build_client(&ClientOptions::default());
    let err = client::send(&http, &req).await.unwrap_err();
    let text = err.to_string();
    assert!(!text.contains('\n'), "{text}");
    assert!(text.to_lowercase().contains("connection"), "{text}");
}
