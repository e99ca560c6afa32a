//! Bytes allocated per send of a 16 MB body: does the body get copied between the profile and
//! the socket? A counting global allocator records every allocation of this process; the ones of
//! at least 1 MiB are body-sized (a copy of the body, or of a text holding it).
//!
//! The send goes through the engine (`Session` -> `Sender::send_blocking`) to a sink on
//! 127.0.0.1 that reads the request into one reused 64 KiB buffer and answers `200 {}`, so the
//! receiving side allocates nothing body-sized. Also measured: saving the profile (its TOML text
//! necessarily holds the body once), and the workbench's save of a 16 MB body from its editor
//! (the request state yields a `RequestSpec` sharing the editor's buffer; the runtime saves it
//! through the engine's session).
//!
//! `cargo bench --bench send_copies` (or `cargo test --bench send_copies` for a debug build;
//! the counts are the same). Figures in benches/README.md.

// Bench code: an unwrap that fails is a failed bench, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use signscope::client::ClientOptions;
use signscope::core::{Secret, Timestamp};
use signscope::engine::{SendRequest, Session};
use signscope::store::{KeySource, Paths, Profile, ProfileStore};
use signscope::tui::effect::{Command, ProfileSave};
use signscope::tui::runtime::Effects;
use signscope::tui::test_util::TestApp;

const LARGE: usize = 1 << 20;
const BODY: usize = 16 << 20;

struct Counting;

static BYTES: AtomicUsize = AtomicUsize::new(0);
static LARGE_BYTES: AtomicUsize = AtomicUsize::new(0);
static LARGE_COUNT: AtomicUsize = AtomicUsize::new(0);

fn count(size: usize) {
    BYTES.fetch_add(size, Relaxed);
    if size >= LARGE {
        LARGE_BYTES.fetch_add(size, Relaxed);
        LARGE_COUNT.fetch_add(1, Relaxed);
    }
}

// SAFETY: every call is forwarded to the system allocator unchanged; only counters are added.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

#[derive(Clone, Copy)]
struct Snapshot {
    bytes: usize,
    large_bytes: usize,
    large_count: usize,
}

fn snapshot() -> Snapshot {
    Snapshot {
        bytes: BYTES.load(Relaxed),
        large_bytes: LARGE_BYTES.load(Relaxed),
        large_count: LARGE_COUNT.load(Relaxed),
    }
}

fn report(what: &str, a: Snapshot, b: Snapshot) {
    let mib = |n: usize| n as f64 / (1 << 20) as f64;
    println!(
        "{what}: {:.1} MiB allocated in all; {} allocations of >= 1 MiB, {:.1} MiB ({:.2} bodies)",
        mib(b.bytes - a.bytes),
        b.large_count - a.large_count,
        mib(b.large_bytes - a.large_bytes),
        (b.large_bytes - a.large_bytes) as f64 / BODY as f64
    );
}

/// A sink that reads each request into one reused buffer and answers `200 {}`.
fn sink() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let mut head = Vec::with_capacity(4096);
            let mut body_left = None;
            while body_left != Some(0) {
                let n = match conn.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                match body_left.as_mut() {
                    Some(left) => *left -= n.min(*left),
                    None => {
                        head.extend_from_slice(&buf[..n]);
                        if let Some(end) = head.windows(4).position(|w| w == b"\r\n\r\n") {
                            let text = String::from_utf8_lossy(&head[..end]).to_ascii_lowercase();
                            let len: usize = text
                                .lines()
                                .find_map(|l| l.strip_prefix("content-length:"))
                                .and_then(|v| v.trim().parse().ok())
                                .unwrap_or(0);
                            body_left = Some(len.saturating_sub(head.len() - end - 4));
                        }
                    }
                }
            }
            let _ = conn.write_all(
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}",
            );
        }
    });
    url
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let paths = Paths::new(dir.path().join("config"), dir.path().join("data"));
    let mut p = Profile::new("big");
    p.indexing_url = sink();
    p.rest_key = KeySource::Stored(Secret::new("bench-key"));
    let mut body = String::with_capacity(BODY);
    while body.len() + 24 <= BODY {
        body.push_str("[{\"id\":\"1\",\"name\":\"x\"}]");
    }
    while body.len() < BODY {
        body.push(' ');
    }
    let text = body.clone();
    p.request_mut().body = body.into();

    let a = snapshot();
    ProfileStore::open(&paths).save(&p).expect("saved");
    report("save a 16 MiB profile (new file)", a, snapshot());

    let a = snapshot();
    let session =
        Session::open_in(paths.clone(), Some("big"), ClientOptions::default()).expect("opened");
    report("open the profile (read and parse the file)", a, snapshot());

    for round in 1..=2 {
        let a = snapshot();
        let req = SendRequest {
            base_url: session.profile().indexing_url.clone(),
            request: session.profile().request().clone(),
            params: session.signing_params(Timestamp::Now).expect("stored key"),
        };
        let ex = session.sender().send_blocking(req).expect("sent");
        assert_eq!(ex.status(), Some(200), "{:?}", ex.response);
        assert_eq!(ex.request.body.len(), BODY);
        report(
            &format!("send {round} (profile in memory -> exchange recorded)"),
            a,
            snapshot(),
        );
    }

    workbench_save(paths, &text);
}

/// The workbench's save of the profile being edited: the editor's request becomes the save
/// command (no body copy), then the runtime saves it through the engine's session (the TOML
/// text holds the body once, as any save).
fn workbench_save(paths: Paths, body: &str) {
    let app = TestApp::with_body(100, 30, body);
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let mut fx = Effects::new(tx);
    fx.session =
        Some(Session::open_in(paths, Some("big"), ClientOptions::default()).expect("opened"));

    let a = snapshot();
    let request = app.request.editor_request();
    report("workbench: the editor's request for a save", a, snapshot());
    assert_eq!(request.spec.body.len(), body.len());

    for (name, what) in [
        ("big", "over the profile's file"),
        ("big-copy", "as a new profile"),
    ] {
        let request = app.request.editor_request();
        let a = snapshot();
        fx.execute(Command::SaveProfile(Box::new(ProfileSave {
            name: name.into(),
            as_new: name != "big",
            // The profile's requests as they are (the editor's one is `request`).
            requests: Vec::new(),
            selected_request: 0,
            request,
            typed_key: None,
            typed_key_to_os_store: false,
            events: None,
            analytics_url: None,
        })));
        report(&format!("workbench: save {what}"), a, snapshot());
        let saved = fx.session.as_ref().expect("session").store().load(name);
        assert_eq!(saved.expect("saved").request().body.len(), body.len());
    }
}
