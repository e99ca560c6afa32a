//! A real browser posts events from another origin: a page served from a second loopback port
//! calls `fetch` on the collector exactly as the vendor's SDK does (`POST`, `Content-Type:
//! application/json`, the body the SDK sent, captured in tests/data/vendor/), headless Chromium
//! runs it, and the collector must have stored the events. The page also calls the inspection
//! API, which sends no CORS headers: the browser must refuse that one, which shows the browser
//! really enforces CORS here (so the first result means something).
//!
//! Skipped, with one printed line, where no Chromium is found (`.ci/run` installs it).

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod server_common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use axum::response::Html;
use axum::routing::get;
use server_common::*;

/// A Chromium binary on PATH (or named by `CHROMIUM`).
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let names = [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ];
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// `chromium --headless --dump-dom URL` (with `extra` flags): the DOM once the page's fetches
/// are done (virtual time waits for pending network requests). Killed after 90 s.
fn dump_dom(chromium: &Path, url: &str, extra: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--virtual-time-budget=10000",
        ])
        .args(extra)
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(["--dump-dom", url])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(90);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("Chromium did not finish within 90 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Serve `html` at `/` on another port of 127.0.0.1 (so another origin than the server's), open
/// it in headless Chromium and return its DOM once its fetches are done.
async fn open_page(chromium: PathBuf, html: String) -> String {
    let app = axum::Router::new().route("/", get(move || async move { Html(html) }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let page = tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let dom = tokio::task::spawn_blocking(move || dump_dom(&chromium, &url, &[]))
        .await
        .unwrap();
    page.abort();
    dom
}

/// The text of `<p id="ID">` in a dumped DOM.
fn result(dom: &str, id: &str) -> String {
    let start = format!("<p id=\"{id}\">");
    let at = dom
        .find(&start)
        .unwrap_or_else(|| panic!("no #{id} in {dom}"))
        + start.len();
    dom[at..].split('<').next().unwrap().to_string()
}

fn page(collector: &str, inspect: &str, body: &str) -> String {
    format!(
        r#"<!doctype html><html><body><p id="events">pending</p><p id="inspect">pending</p>
<script>
// As the vendor's SDK posts (its connection/fetch.js): POST, JSON content type, the body.
fetch("{collector}", {{method: "POST", headers: {{"Content-Type": "application/json"}}, body: JSON.stringify({body})}})
  .then(r => r.json().then(j => {{ document.getElementById("events").textContent = "status " + r.status + " accepted " + j.accepted; }}))
  .catch(e => {{ document.getElementById("events").textContent = "failed " + e; }});
fetch("{inspect}")
  .then(r => {{ document.getElementById("inspect").textContent = "status " + r.status; }})
  .catch(e => {{ document.getElementById("inspect").textContent = "failed " + e; }});
</script></body></html>"#
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_on_another_origin_gets_its_events_recorded() {
    let Some(chromium) = chromium() else {
        println!("skipped: Chromium not found (install the Debian package chromium)");
        return;
    };
    let server = start_at_t0().await;
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vendor");
    let mut bodies = Vec::new();
    for entry in std::fs::read_dir(&data).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let major = name
            .strip_prefix("klevu-core-")
            .and_then(|v| v.split('.').next()?.parse::<u32>().ok());
        if major.is_some_and(|m| m >= 4) {
            bodies.push(std::fs::read_to_string(dir.join("view.json")).unwrap());
        }
    }
    let body = bodies.first().expect("a capture of the current SDK's view");

    // The shop page: another port of 127.0.0.1, so another origin.
    let html = page(
        &format!("{}/analytics/collect", server.url()),
        &format!("{}/_inspect/summary", server.url()),
        body,
    );
    let dom = open_page(chromium, html).await;
    assert_eq!(result(&dom, "events"), "status 200 accepted 1", "{dom}");
    assert!(result(&dom, "inspect").starts_with("failed"), "{dom}");

    let (_, events) = get_json(&client(), &format!("{}/_inspect/events", server.url())).await;
    let events = events.as_array().unwrap();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["valid"], true);
    assert_eq!(events[0]["event"], "view_recs_list");
    server.shutdown().await;
}

/// An attacker's server for DNS rebinding on 127.0.0.1: `GET /` is its page; every other
/// request is relayed byte for byte to `victim`, as if the attacker's name now resolved to the
/// victim's address (the browser sees one origin; the victim sees the attacker's name in
/// `Host`).
async fn rebinding_server(html: String, victim: std::net::SocketAddr) -> std::net::SocketAddr {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((mut s, _)) = listener.accept().await else {
                return;
            };
            let html = html.clone();
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut buf = [0u8; 4096];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match s.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                if head.starts_with(b"GET / ") {
                    let answer = format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{html}",
                        html.len()
                    );
                    let _ = s.write_all(answer.as_bytes()).await;
                    return;
                }
                let Ok(mut v) = tokio::net::TcpStream::connect(victim).await else {
                    return;
                };
                if v.write_all(&head).await.is_ok() {
                    let _ = tokio::io::copy_bidirectional(&mut s, &mut v).await;
                }
            });
        }
    });
    addr
}

/// A page on a name that re-resolves to 127.0.0.1 is, to the browser, the server's own origin:
/// it read `/_inspect/requests` (bodies, signatures) and reset the store. The server now
/// refuses a `Host` that is not an IP address, localhost or a name the user allowed: the page
/// reads a 403 and the store keeps its records.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dns_rebinding_page_cannot_read_or_reset_the_store() {
    let Some(chromium) = chromium() else {
        println!("skipped: Chromium not found (install the Debian package chromium)");
        return;
    };
    let server = start_at_t0().await;
    let (status, v) = put_batch(
        &client(),
        &server.url(),
        r#"[{"id":"private-marker-7731","type":"KLEVU_CMS"}]"#,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let html = r#"<!doctype html><html><body><p id="read">pending</p><p id="reset">pending</p>
<script>
fetch("/_inspect/requests")
  .then(r => r.text().then(t => { document.getElementById("read").textContent = "status " + r.status + (t.includes("private-marker-7731") ? " leaked" : " nothing"); }))
  .catch(e => { document.getElementById("read").textContent = "failed " + e; });
fetch("/_inspect/reset", {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"})
  .then(r => { document.getElementById("reset").textContent = "status " + r.status; })
  .catch(e => { document.getElementById("reset").textContent = "failed " + e; });
</script></body></html>"#;
    let attacker = rebinding_server(html.to_string(), server.addr).await;
    let url = format!("http://rebind.test:{}/", attacker.port());
    // `rebind.test` resolves to 127.0.0.1 (Chromium's own resolver rules; no DNS is asked).
    let rules = "--host-resolver-rules=MAP rebind.test 127.0.0.1";
    let dom = tokio::task::spawn_blocking(move || dump_dom(&chromium, &url, &[rules]))
        .await
        .unwrap();
    assert_eq!(result(&dom, "read"), "status 403 nothing", "{dom}");
    assert_eq!(result(&dom, "reset"), "status 403", "{dom}");
    let (_, sum) = get_json(&client(), &format!("{}/_inspect/summary", server.url())).await;
    assert_eq!(sum["stored_requests"], 1, "{sum}");
    server.shutdown().await;
}

/// A page of any origin could wipe the store with a plain `no-cors` POST (the browser sends it
/// without asking). `POST /_inspect/reset` now needs a JSON content type or an `X-Signscope`
/// header, which a page can send to another origin only after a preflight this server never
/// grants; the page's attempts change nothing, and a tool's reset still works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_on_another_origin_cannot_reset_the_store() {
    let Some(chromium) = chromium() else {
        println!("skipped: Chromium not found (install the Debian package chromium)");
        return;
    };
    let server = start_at_t0().await;
    let (status, v) = put_batch(&client(), &server.url(), BODY_FOR_RESET).await;
    assert_eq!(status, 200, "{v}");
    let reset = format!("{}/_inspect/reset", server.url());
    let html = format!(
        r#"<!doctype html><html><body><p id="done">pending</p>
<script>
Promise.allSettled([
  fetch("{reset}", {{method: "POST", mode: "no-cors"}}),
  fetch("{reset}", {{method: "POST", mode: "no-cors", headers: {{"Content-Type": "text/plain"}}, body: "{{}}"}}),
  fetch("{reset}", {{method: "POST", mode: "no-cors", headers: {{"Content-Type": "application/x-www-form-urlencoded"}}, body: "a=1"}}),
  fetch("{reset}", {{method: "POST", headers: {{"Content-Type": "application/json"}}, body: "{{}}"}}),
]).then(rs => {{ document.getElementById("done").textContent = "done " + rs.map(r => r.status).join(","); }});
</script></body></html>"#
    );
    let dom = open_page(chromium, html).await;
    // The page ran all four (the JSON one is refused by the browser: no preflight granted).
    assert!(result(&dom, "done").starts_with("done "), "{dom}");
    let (_, sum) = get_json(&client(), &format!("{}/_inspect/summary", server.url())).await;
    assert_eq!(sum["stored_requests"], 1, "{sum}");
    // A tool resets with the JSON content type.
    let resp = client()
        .post(&reset)
        .header("Content-Type", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let (_, sum) = get_json(&client(), &format!("{}/_inspect/summary", server.url())).await;
    assert_eq!(sum["stored_requests"], 0, "{sum}");
    server.shutdown().await;
}

const BODY_FOR_RESET: &str = r#"[{"id":"sku-1","type":"KLEVU_CMS"}]"#;

/// A page that sends one batch as a `Blob` beacon (what `navigator.sendBeacon` does is always
/// credentialed; a JSON `Blob` is preflighted) and another with `fetch(..., {credentials:
/// "include"})`, as the vendor's SDK does from a shop page (docs/server.md rule R8).
fn credentialed_page(collector: &str, beacon: &str, fetched: &str) -> String {
    format!(
        r#"<!doctype html><html><body><p id="beacon">pending</p><p id="fetch">pending</p>
<script>
const queued = navigator.sendBeacon("{collector}", new Blob([JSON.stringify({beacon})], {{type: "application/json"}}));
document.getElementById("beacon").textContent = "queued " + queued;
fetch("{collector}", {{method: "POST", credentials: "include", headers: {{"Content-Type": "application/json"}}, body: JSON.stringify({fetched})}})
  .then(r => r.json().then(j => {{ document.getElementById("fetch").textContent = "status " + r.status + " accepted " + j.accepted; }}))
  .catch(e => {{ document.getElementById("fetch").textContent = "failed " + e; }});
</script></body></html>"#
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blob_beacon_and_a_credentialed_fetch_from_another_origin_are_both_recorded() {
    let Some(chromium) = chromium() else {
        println!("skipped: Chromium not found (install the Debian package chromium)");
        return;
    };
    let server = start_at_t0().await;
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vendor/klevu-core-5.2.2");
    let view = std::fs::read_to_string(data.join("view.json")).unwrap();
    let click = std::fs::read_to_string(data.join("click.json")).unwrap();
    let html = credentialed_page(
        &format!("{}/analytics/collect", server.url()),
        &view,
        &click,
    );
    let dom = open_page(chromium, html).await;
    assert_eq!(result(&dom, "beacon"), "queued true", "{dom}");
    // The page could read the credentialed answer: the origin mirrored, credentials allowed.
    assert_eq!(result(&dom, "fetch"), "status 200 accepted 1", "{dom}");
    // Both reached the collector and were recorded (a beacon may land after the page is done).
    let (status, _) = get_json(
        &client(),
        &format!("{}/_inspect/wait?events=2&timeout_ms=20000", server.url()),
    )
    .await;
    assert_eq!(status, 200, "both batches recorded");
    let (_, events) = get_json(&client(), &format!("{}/_inspect/events", server.url())).await;
    let kinds: Vec<&str> = events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    let mut sorted = kinds.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ["select_recs_list", "view_recs_list"], "{events}");
    assert!(
        events
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["valid"] == true),
        "{events}"
    );
    server.shutdown().await;
}
