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

/// `chromium --headless --dump-dom URL`: the DOM once the page's fetches are done (virtual
/// time waits for pending network requests). Killed after 90 s.
fn dump_dom(chromium: &Path, url: &str) -> String {
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
    let app = axum::Router::new().route("/", get(move || async move { Html(html) }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let shop = format!("http://{}/", listener.local_addr().unwrap());
    let shop_task = tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let dom = tokio::task::spawn_blocking(move || dump_dom(&chromium, &shop))
        .await
        .unwrap();
    assert_eq!(result(&dom, "events"), "status 200 accepted 1", "{dom}");
    assert!(result(&dom, "inspect").starts_with("failed"), "{dom}");

    let (_, events) = get_json(&client(), &format!("{}/_inspect/events", server.url())).await;
    let events = events.as_array().unwrap();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["valid"], true);
    assert_eq!(events[0]["event"], "view_recs_list");
    shop_task.abort();
    server.shutdown().await;
}
