//! The engine against a real local server on 127.0.0.1 (port 0) with a temporary store: one
//! send signs once, goes on the wire as signed, comes back as an exchange whose answer is parsed,
//! and is recorded in the history with the key redacted; the last-used profile policy of
//! `docs/architecture.md`.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use bytes::Bytes;
use signscope::client::ClientOptions;
use signscope::core::demo::{DEMO_API_KEY, DEMO_REST_KEY};
use signscope::core::{RequestSpec, Secret, SigningParams, Timestamp};
use signscope::engine::{EngineError, ExchangeKind, SendRequest, Session};
use signscope::store::{History, KeySource, Paths, Profile, ProfileStore};

fn temp_paths() -> (tempfile::TempDir, Paths) {
    let dir = tempfile::tempdir().expect("temp dir");
    let paths = Paths::new(dir.path().join("config"), dir.path().join("data"));
    (dir, paths)
}

fn open(paths: &Paths, name: Option<&str>) -> Result<Session, EngineError> {
    Session::open_in(paths.clone(), name, ClientOptions::default())
}

fn demo_send(session: &mut Session, key: &str, timestamp: Timestamp) -> SendRequest {
    SendRequest {
        base_url: session
            .indexing_url()
            .expect("the in-process server starts"),
        request: RequestSpec {
            query: "test=1".into(),
            body: Bytes::from_static(b"[ {\"id\": \"1\", \"type\": \"KLEVU_CMS\"} ]"),
            ..session.profile().request().clone()
        },
        params: SigningParams {
            key: Secret::new(key),
            timestamp,
            form: Default::default(),
        },
    }
}

#[test]
fn the_demo_profile_sends_signed_once_and_the_exchange_is_recorded() {
    let (_dir, paths) = temp_paths();
    let mut session = open(&paths, None).expect("no saved profile: demo");
    assert!(session.is_demo());
    assert_eq!(session.profile().request().api_key, DEMO_API_KEY);
    let key = session.key().expect("the demo key").expose().to_string();
    assert_eq!(key, DEMO_REST_KEY);
    let req = demo_send(&mut session, &key, Timestamp::Now);
    let body_ptr = req.request.body.as_ptr();
    let ex = session.sender().send_blocking(req).expect("sent");
    assert_eq!(ex.kind, ExchangeKind::Request);
    assert_eq!(ex.status(), Some(200), "{:?}", ex.response);
    assert!(ex.is_success());
    assert!(
        ex.answer.job_id.is_some(),
        "the job id is parsed: {:?}",
        ex.answer
    );
    assert_eq!(
        ex.request.body.as_ptr(),
        body_ptr,
        "the body was not copied"
    );
    assert_eq!(ex.spec.body.as_ptr(), body_ptr);
    let ts = ex.timestamp.clone().expect("a signed timestamp");
    assert_eq!(ex.request.headers[0], ("X-SVC-TIMESTAMP".into(), ts));
    assert!(
        ex.request.url.ends_with("/v2/batch?test=1"),
        "{}",
        ex.request.url
    );

    let (entries, warnings) = History::open(&paths).load(10);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(entries.len(), 1);
    // The entry on disk is the exchange's (timings aside: floats are not read back bit for bit).
    assert_eq!(entries[0].request, ex.entry.request);
    assert_eq!(entries[0].response, ex.entry.response);
    assert_eq!(entries[0].time, ex.entry.time);
    assert_eq!(entries[0].profile, "demo");
    assert_eq!(entries[0].kind, "request");
    assert_eq!(entries[0].response.as_ref().map(|r| r.status), Some(200));
    // The entry names the request model it sent, body included (the recorded one).
    assert_eq!(
        entries[0].request.sent_spec().as_ref(),
        Some(&ex.spec),
        "the entry loads back as the spec sent"
    );
    let line = std::fs::read_to_string(paths.history_file()).expect("history file");
    assert!(!line.contains(DEMO_REST_KEY), "the key is never recorded");
    assert_eq!(
        ProfileStore::open(&paths).last_used().as_deref(),
        Some("demo")
    );
}

#[test]
fn a_wrong_key_comes_back_as_a_parsed_mismatch_that_matches_our_signing_text() {
    let (_dir, paths) = temp_paths();
    let mut session = open(&paths, Some("demo")).expect("demo");
    let req = demo_send(&mut session, "not-the-demo-key", Timestamp::Now);
    let ex = session.sender().send_blocking(req).expect("sent");
    assert_eq!(ex.status(), Some(401));
    assert_eq!(ex.answer.code.as_deref(), Some("SIGNATURE_MISMATCH"));
    let m = ex.answer.mismatch.clone().expect("the server's details");
    assert_eq!(
        m.canonical_lines(),
        ex.our_canonical_lines(),
        "the same text, signed with another key"
    );
    assert!(m.summary().is_some(), "{m:?}");
    let (entries, _) = History::open(&paths).load(10);
    assert_eq!(entries[0].response.as_ref().map(|r| r.status), Some(401));
    // The key typed for the send is redacted wherever it shows up.
    let text = std::fs::read_to_string(paths.history_file()).expect("history");
    assert!(!text.contains("not-the-demo-key"));
}

#[test]
fn a_frozen_timestamp_is_signed_exactly_as_typed() {
    let (_dir, paths) = temp_paths();
    let mut session = open(&paths, None).expect("demo");
    let frozen = "2020-01-01T00:00:00.000Z";
    let req = demo_send(
        &mut session,
        DEMO_REST_KEY,
        Timestamp::Frozen(frozen.into()),
    );
    let ex = session.sender().send_blocking(req).expect("sent");
    assert_eq!(ex.timestamp.as_deref(), Some(frozen));
    assert_eq!(ex.request.headers[0].1, frozen);
    assert_eq!(
        ex.answer.code.as_deref(),
        Some("TIMESTAMP_OUT_OF_WINDOW"),
        "valid signature, stale time: {:?}",
        ex.response
            .as_ref()
            .map(|r| String::from_utf8_lossy(&r.body).into_owned())
    );
}

#[test]
fn a_request_that_cannot_be_sent_as_signed_is_an_error_and_not_recorded() {
    let (_dir, paths) = temp_paths();
    let mut session = open(&paths, None).expect("demo");
    let mut req = demo_send(&mut session, DEMO_REST_KEY, Timestamp::Now);
    req.request.query = "q=a b".into();
    let err = session.sender().send_blocking(req).unwrap_err();
    assert!(err.to_string().contains("re-encodes"), "{err}");
    let (entries, _) = History::open(&paths).load(10);
    assert!(entries.is_empty());
}

#[test]
fn a_refused_connection_is_an_exchange_with_its_error_recorded() {
    let (_dir, paths) = temp_paths();
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let session = open(&paths, None).expect("demo");
    let req = SendRequest {
        base_url: format!("http://127.0.0.1:{port}"),
        request: session.profile().request().clone(),
        params: session.signing_params(Timestamp::Now).expect("demo key"),
    };
    let ex = session.sender().send_blocking(req).expect("an exchange");
    let err = ex.response.as_ref().expect_err("refused");
    assert!(err.to_string().contains("refused"), "{err}");
    let (entries, _) = History::open(&paths).load(10);
    assert_eq!(entries[0].error.as_deref(), Some(err.to_string().as_str()));
}

#[test]
fn an_events_batch_goes_to_the_collector_and_is_recorded_as_events() {
    let (_dir, paths) = temp_paths();
    let mut session = open(&paths, None).expect("demo");
    let url = session.analytics_url().expect("embedded");
    let batch = Bytes::from_static(b"[{\"event\": \"nope\"}]");
    let ex = session
        .sender()
        .send_events_blocking(&url, batch.clone(), session.key().ok())
        .expect("sent");
    assert_eq!(ex.kind, ExchangeKind::Events);
    assert!(ex.request.url.ends_with("/analytics/collect"));
    assert_eq!(ex.request.body, batch);
    assert_eq!(ex.status(), Some(400), "an unknown event is refused");
    let (entries, _) = History::open(&paths).load(10);
    assert_eq!(entries[0].kind, "events");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_async_api_runs_from_a_tokio_task() {
    let (_dir, paths) = temp_paths();
    // Opening is blocking (files, the in-process server): on the blocking pool, as the
    // workbench's runtime does it.
    let (session, sender, req) = tokio::task::spawn_blocking(move || {
        let mut session = open(&paths, None).expect("demo");
        let req = demo_send(&mut session, DEMO_REST_KEY, Timestamp::Now);
        (session.sender(), req, session)
    })
    .await
    .map(|(sender, req, session)| (session, sender, req))
    .expect("opened");
    let ex = tokio::spawn(async move { sender.send(req).await })
        .await
        .expect("the task ran")
        .expect("sent");
    // The session owns the in-process server: it is stopped (a blocking join) once done.
    tokio::task::spawn_blocking(move || drop(session))
        .await
        .expect("stopped");
    assert_eq!(ex.status(), Some(200), "{:?}", ex.response);
}

#[test]
fn the_last_used_profile_follows_one_policy() {
    let (_dir, paths) = temp_paths();
    let store = ProfileStore::open(&paths);
    for name in ["alpha", "beta"] {
        let mut p = Profile::new(name);
        p.indexing_url = "http://127.0.0.1:9".into();
        p.rest_key = KeySource::Stored(Secret::new("k"));
        store.save(&p).expect("saved");
    }
    // Two saved profiles and none used yet: the caller must choose.
    let err = open(&paths, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "several profiles exist (alpha, beta); choose one with --profile NAME"
    );
    assert_eq!(store.last_used(), None, "a failed open marks nothing");
    // Opening by name marks it; opening with no name then takes it.
    let mut s = open(&paths, Some("beta")).expect("beta");
    assert_eq!(store.last_used().as_deref(), Some("beta"));
    assert_eq!(
        open(&paths, None).expect("last used").profile().name,
        "beta"
    );
    // Switching marks the new one.
    s.switch("alpha").expect("alpha");
    assert_eq!(store.last_used().as_deref(), Some("alpha"));
    // A failed switch keeps the current profile and the mark.
    assert!(s.switch("gamma").is_err());
    assert_eq!(s.profile().name, "alpha");
    assert_eq!(store.last_used().as_deref(), Some("alpha"));
    // Saving under a new name makes that one current and last used.
    let mut copy = s.profile().clone();
    copy.name = "gamma".into();
    copy.origin = None;
    s.save(copy, Default::default()).expect("saved");
    assert_eq!(store.last_used().as_deref(), Some("gamma"));
    // A deleted last used profile falls back to the rule for no last used one.
    store.delete("gamma").expect("deleted");
    store.delete("beta").expect("deleted");
    assert_eq!(
        open(&paths, None).expect("the only one").profile().name,
        "alpha"
    );
    assert_eq!(store.last_used().as_deref(), Some("alpha"));
}
