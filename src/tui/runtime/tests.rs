//! The runtime against a real local server and a temporary store.

use std::time::Duration;

use chrono::Utc;
use tokio::sync::mpsc::unbounded_channel;

use super::perform::Effects;
use super::profile::{loaded_profile, open_current};
use crate::client::ClientOptions;
use crate::engine::Session;
use crate::store::{Paths, Profile};
use crate::tui::app::App;
use crate::tui::components::events::EventsEffect;
use crate::tui::effect::Command;
use crate::tui::message::Message;
use crate::tui::model::LoadedProfile;
use crate::tui::update::update;

/// The demo profile as the workbench opens it, its URLs pointing at `url`.
fn demo_on(url: &str, events: Option<String>) -> LoadedProfile {
    let mut p = Profile::demo();
    p.events = events;
    loaded_profile(p, url.to_string(), url.to_string())
}

/// Run `cmds` in a fresh runtime and feed the answers to `app` until `done(app)` holds.
fn run_until(
    app: &mut App,
    session: Option<Session>,
    cmds: Vec<Command>,
    done: impl Fn(&App) -> bool,
) -> Option<Session> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let (tx, mut rx) = unbounded_channel();
        let mut fx = Effects::new(tx);
        fx.session = session;
        for c in cmds {
            fx.execute(c);
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while !done(app) {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let msg = tokio::time::timeout(left, rx.recv())
                .await
                .expect("an answer from the runtime within 60 s")
                .expect("the channel stays open");
            for c in update(app, msg) {
                fx.execute(c);
            }
        }
        fx.session.take()
    })
}

/// The history file's entries, once the engine has appended `n` (it appends off the draw path).
fn wait_for_entries(session: &Session, n: usize) -> Vec<crate::store::HistoryEntry> {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (entries, _) = session.history().load(10);
        if entries.len() >= n || std::time::Instant::now() > deadline {
            return entries;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A session on the demo profile in a temporary store (the in-process server starts).
fn demo_session(dir: &tempfile::TempDir) -> (Session, LoadedProfile) {
    let paths = Paths::new(dir.path().join("c"), dir.path().join("d"));
    let mut session = Session::open_in(paths, None, ClientOptions::default()).unwrap();
    assert!(session.is_demo());
    let (loaded, note) = open_current(&mut session);
    assert_eq!(note, None);
    (session, loaded)
}

#[test]
fn startup_runs_every_command_update_returns_so_a_saved_10000_item_batch_is_validated() {
    use crate::core::events::{ItemDraft, ListDraft};
    let draft = ListDraft {
        api_key: "demo-public-key".into(),
        list_id: "home-trending-1".into(),
        list_name: "Trending now".into(),
        list_logic: "TRENDING".into(),
        tags: vec!["recsPageType:HOME".into()],
        user_ip: Some("203.0.113.7".into()),
        items: (0..10_000)
            .map(|i| ItemDraft {
                group_id: format!("{}", 10_000 + i),
                variant_id: format!("V{}", i % 7),
                name: format!("Product number {i}"),
                price: "5.00".into(),
                currency: "EUR".into(),
                brand: "Northpeak".into(),
                category: "Clothing;;Jackets".into(),
                clicked: i == 3,
            })
            .collect(),
    };
    let batch = String::from_utf8(draft.to_batch().to_json_bytes()).unwrap();
    let (mut app, startup) =
        crate::tui::open_app(demo_on("http://127.0.0.1:9", Some(batch)), Utc::now());
    // Too big to validate inside `update`: the validation is one of the startup commands.
    assert!(app.events.validating());
    assert!(
        startup
            .iter()
            .any(|c| matches!(c, Command::Events(EventsEffect::Validate(_)))),
        "{startup:?}"
    );
    assert!(startup.iter().any(|c| matches!(c, Command::Sign(_))));
    run_until(&mut app, None, startup, |a| {
        !a.events.validating() && a.request.sign.result.is_some()
    });
    assert!(app.events.problems.is_empty(), "{:?}", app.events.problems);
    assert!(matches!(app.request.sign.result, Some(Ok(_))));
}

#[test]
fn a_send_goes_to_a_real_local_server_and_is_recorded_in_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let (session, loaded) = demo_session(&dir);
    let url = loaded.request.url.clone();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let (mut app, startup) = crate::tui::open_app(loaded, Utc::now());
    let session = run_until(&mut app, Some(session), startup, |a| {
        a.request.sign.result.is_some()
    });
    let send = update(
        &mut app,
        Message::Key(crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Char('g'),
            crossterm::event::KeyModifiers::CONTROL,
        )),
    );
    assert!(matches!(send.as_slice(), [Command::Send(_)]), "{send:?}");
    let session = run_until(&mut app, session, send, |a| {
        !a.request.sending && !a.history.visible().is_empty()
    })
    .unwrap();
    let resp = app.request.response.as_ref().expect("a response");
    assert_eq!(resp.status, 200, "{:?}", app.status);
    assert!(
        resp.job_id.is_some(),
        "the demo server accepts the demo request"
    );
    // The engine recorded the send (the key redacted) and told the history view.
    let entries = wait_for_entries(&session, 1);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].kind, "request");
    assert_eq!(entries[0].profile, "demo");
    assert_eq!(entries[0].response.as_ref().map(|r| r.status), Some(200));
    assert!(entries[0].request.url.starts_with(&url));
    assert_eq!(app.history.visible().len(), 1);
    // The one last-used policy: the profile a send was recorded with is the last used one.
    assert_eq!(session.store().last_used().as_deref(), Some("demo"));
}

#[test]
fn a_frozen_timestamp_is_sent_as_typed_and_the_mismatch_shows_both_signing_texts() {
    let dir = tempfile::tempdir().unwrap();
    let (session, loaded) = demo_session(&dir);
    let (mut app, startup) = crate::tui::open_app(loaded, Utc::now());
    let session = run_until(&mut app, Some(session), startup, |a| {
        a.request.sign.result.is_some()
    });
    // A wrong REST key, frozen timestamp: the server answers SIGNATURE_MISMATCH with its text.
    let Some(Command::Send(mut job)) = update(&mut app, crate::tui::test_util::ctrl_key('g'))
        .into_iter()
        .next()
    else {
        panic!("the request view sends");
    };
    // Frozen, but inside the server's time window: a text the clock would not give (.123 ms).
    let frozen = Utc::now().format("%Y-%m-%dT%H:%M:%S.123Z").to_string();
    let wrong = crate::core::Secret::new("not-the-demo-key");
    job.signed = std::sync::Arc::new(
        crate::core::SignedRequest::sign(
            job.signed.spec().clone(),
            frozen.clone(),
            job.signed.form(),
            &wrong,
        )
        .unwrap(),
    );
    job.key = wrong;
    let session = run_until(&mut app, session, vec![Command::Send(job)], |a| {
        !a.request.sending
    })
    .unwrap();
    let resp = app.request.response.as_ref().expect("a response");
    assert_eq!(resp.status, 401, "{:?}", app.status);
    let entries = wait_for_entries(&session, 1);
    let sent_ts = entries[0]
        .request
        .headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("X-SVC-TIMESTAMP"))
        .map(|(_, v)| v.clone());
    assert_eq!(sent_ts.as_deref(), Some(frozen.as_str()));
    assert!(
        !format!("{:?}", entries[0]).contains("not-the-demo-key"),
        "the key is redacted from the record"
    );
    assert_eq!(resp.code.as_deref(), Some("SIGNATURE_MISMATCH"));
    let m = resp.mismatch.as_ref().expect("the server's signing text");
    assert!(m.ours.iter().any(|l| l.contains(&frozen)), "{:?}", m.ours);
    assert!(
        m.theirs.iter().any(|l| l.contains(&frozen)),
        "{:?}",
        m.theirs
    );
}

#[test]
fn an_event_batch_goes_through_the_engine_to_the_local_collector_and_into_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let (session, loaded) = demo_session(&dir);
    let analytics = loaded.analytics_url.clone();
    let (mut app, startup) = crate::tui::open_app(loaded, Utc::now());
    let body = bytes::Bytes::from_static(b"[]");
    let mut cmds = startup;
    cmds.push(Command::Events(EventsEffect::SendEvents {
        analytics_url: analytics.clone(),
        body,
    }));
    app.events.sending = true;
    let session = run_until(&mut app, Some(session), cmds, |a| {
        a.events.response.is_some() && !a.history.visible().is_empty()
    })
    .unwrap();
    let report = app.events.response.clone().unwrap();
    let status = report.as_ref().map(|r| r.status);
    assert!(status.is_ok(), "{report:?}");
    let entries = wait_for_entries(&session, 1);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].kind, "events");
    assert_eq!(
        entries[0].request.url,
        format!("{}/analytics/collect", analytics.trim_end_matches('/'))
    );
    assert_eq!(
        entries[0].response.as_ref().map(|r| r.status),
        status.ok(),
        "the record holds the collector's answer"
    );
}

#[test]
fn the_php_sdk_form_is_sent_as_chosen_accepted_only_where_accepted_and_saved_with_the_request() {
    use crate::core::SigningForm;
    use crate::tui::test_util::{alt_key, ctrl_key, key};
    let dir = tempfile::tempdir().unwrap();
    let (session, loaded) = demo_session(&dir);
    let (mut app, startup) = crate::tui::open_app(loaded, Utc::now());
    let session = run_until(&mut app, Some(session), startup, |a| {
        a.request.sign.result.is_some()
    });
    app.request.path.set("/v2/batch/");
    app.request.query.set("test=1");
    let cmds = update(&mut app, alt_key('f'));
    assert_eq!(app.request.form, SigningForm::PhpSdk);
    let mut session = run_until(&mut app, session, cmds, |a| !a.request.sign.updating());
    // A server that accepts only the standard form: refused, and named as the PHP SDK's form.
    let send = |app: &mut App, session: Option<Session>| {
        let cmds = update(app, ctrl_key('g'));
        // Sent at once, or once the signature being computed is ready.
        assert!(
            cmds.iter().any(|c| matches!(c, Command::Send(_))) || app.request.send_when_signed,
            "{cmds:?}"
        );
        run_until(app, session, cmds, |a| {
            !a.request.sending && !a.request.send_when_signed
        })
    };
    session = send(&mut app, session);
    let resp = app.request.response.as_ref().expect("a response");
    assert_eq!(resp.status, 401, "{}", app.status);
    assert_eq!(resp.code.as_deref(), Some("SIGNATURE_MISMATCH"));
    let said = format!("{:?} {:?}", resp.message, resp.mismatch);
    assert!(said.contains("PHP SDK"), "{said}");
    // Our side of the diff is the PHP SDK text we signed.
    let m = resp.mismatch.as_ref().expect("the two signing texts");
    assert!(m.ours.iter().any(|l| l == "?test=1\\n"), "{:?}", m.ours);
    // A server started with accept-form php-sdk accepts the same request.
    let mut cfg = crate::server::ServerConfig::demo();
    cfg.accept_forms = vec![SigningForm::PhpSdk];
    let php =
        crate::server::spawn(cfg, std::net::TcpListener::bind("127.0.0.1:0").unwrap()).unwrap();
    app.request.url.set(php.url());
    session = send(&mut app, session);
    let resp = app.request.response.as_ref().expect("a response");
    assert_eq!(resp.status, 200, "{}", app.status);
    assert!(resp.job_id.is_some(), "{resp:?}");
    // In the standard form the same request is refused there only if the server's text
    // differs: it does not (the standard form is always accepted).
    let cmds = update(&mut app, alt_key('f'));
    session = run_until(&mut app, session, cmds, |a| !a.request.sign.updating());
    session = send(&mut app, session);
    assert_eq!(app.request.response.as_ref().map(|r| r.status), Some(200));
    update(&mut app, alt_key('f'));
    assert_eq!(app.request.form, SigningForm::PhpSdk);

    // Saved (the demo profile is saved under a new name) and read back: the form is kept.
    update(&mut app, alt_key('s'));
    update(&mut app, ctrl_key('u'));
    for c in "phpshop".chars() {
        update(&mut app, key(crossterm::event::KeyCode::Char(c)));
    }
    let save = update(&mut app, key(crossterm::event::KeyCode::Enter));
    assert!(
        save.iter().any(|c| matches!(c, Command::SaveProfile(_))),
        "{save:?}"
    );
    let session = run_until(&mut app, session, save, |a| {
        a.profile.name == "phpshop" && !a.request.dirty
    })
    .unwrap();
    let back = session.store().load("phpshop").unwrap();
    assert_eq!(back.selected_request().form, SigningForm::PhpSdk);
    assert_eq!(back.request().path, "/v2/batch/");
    // Loaded into a fresh workbench, the request is in the PHP SDK form again.
    let loaded = loaded_profile(back, php.url(), php.url());
    let (app2, _) = crate::tui::open_app(loaded, Utc::now());
    assert_eq!(app2.request.form, SigningForm::PhpSdk);
    php.stop();
}

#[test]
fn switching_profile_points_the_in_process_server_at_the_new_profiles_upstream() {
    use crate::server::{spawn, ServerConfig};
    use crate::tui::test_util::ctrl_key;
    // Two real upstreams on loopback, each taking the demo key.
    let up_a = spawn(
        ServerConfig::demo(),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let up_b = spawn(
        ServerConfig::demo(),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::new(dir.path().join("c"), dir.path().join("d"));
    let store = crate::store::ProfileStore::open(&paths);
    // Three profiles on the in-process server: forwarding to A, to B, and nowhere.
    for (name, up) in [
        ("shop-a", Some(&up_a)),
        ("shop-b", Some(&up_b)),
        ("local", None),
    ] {
        let mut p = Profile::demo();
        p.name = name.into();
        p.forward_indexing = up.map(|u| u.url());
        store.save(&p).unwrap();
    }
    let mut session = Session::open_in(paths, Some("shop-a"), ClientOptions::default()).unwrap();
    // As the workbench starts: the in-process server configured for the first profile.
    let note = session
        .start_embedded(std::net::TcpListener::bind("127.0.0.1:0").unwrap(), None)
        .unwrap();
    assert_eq!(note, None);
    let server = session.embedded().expect("started");
    let local = server.url();
    let local_store = server.store();
    let (loaded, _) = open_current(&mut session);
    let (mut app, startup) = crate::tui::open_app(loaded, Utc::now());
    let mut session = run_until(&mut app, Some(session), startup, |a| {
        a.request.sign.result.is_some()
    });
    let seen = |s: &crate::server::Server| s.store().summary().requests;
    let send = |app: &mut App, session: Option<Session>| {
        assert_eq!(
            app.request.url.text(),
            local,
            "every profile sends to the local server"
        );
        let cmds = update(app, ctrl_key('g'));
        let session = run_until(app, session, cmds, |a| {
            !a.request.sending && !a.request.send_when_signed
        });
        let resp = app.request.response.as_ref().expect("a response");
        assert_eq!(resp.status, 200, "{}", app.status);
        session
    };
    let switch = |app: &mut App, session: Option<Session>, name: &str| {
        let cmds = vec![Command::LoadProfile(name.to_string())];
        let name = name.to_string();
        run_until(app, session, cmds, move |a| {
            a.profile.name == name && a.request.sign.result.is_some() && !a.request.sign.updating()
        })
    };

    session = send(&mut app, session);
    assert_eq!((seen(&up_a), seen(&up_b)), (1, 0), "shop-a forwards to A");

    session = switch(&mut app, session, "shop-b");
    session = send(&mut app, session);
    assert_eq!((seen(&up_a), seen(&up_b)), (1, 1), "after the switch: to B");

    session = switch(&mut app, session, "local");
    session = send(&mut app, session);
    assert_eq!(
        (seen(&up_a), seen(&up_b)),
        (1, 1),
        "a profile without forward URLs: answered locally only"
    );
    // The local server verified and recorded all three, on the same address.
    assert_eq!(local_store.summary().requests, 3);

    session = switch(&mut app, session, "shop-a");
    drop(send(&mut app, session));
    assert_eq!((seen(&up_a), seen(&up_b)), (2, 1), "and back to A");
}

#[test]
fn background_arrivals_get_at_most_one_frame_per_interval_and_input_draws_at_once() {
    use super::event_loop::{is_background, Frame, FramePacer, FRAME_INTERVAL};
    use crate::tui::components::traffic::TrafficMsg;
    use std::time::Instant;
    let t0 = Instant::now();
    let ms = |n: u64| t0 + Duration::from_millis(n);
    let mut p = FramePacer::new(FRAME_INTERVAL);
    // The first change draws at once.
    assert_eq!(p.decide(ms(0), false, true, None), Frame::Now);
    p.drawn(ms(0));
    // Arrivals 1 ms later: one frame owed at the end of the interval, not now.
    let owed = ms(16);
    assert_eq!(p.decide(ms(1), false, true, None), Frame::At(owed));
    // More arrivals before then: still that one frame.
    assert_eq!(p.decide(ms(5), false, true, Some(owed)), Frame::At(owed));
    // A key in between draws at once (it never waits behind arrivals).
    assert_eq!(p.decide(ms(6), true, true, Some(owed)), Frame::Now);
    p.drawn(ms(6));
    // The owed frame comes due: drawn.
    assert_eq!(p.decide(ms(22), false, false, Some(ms(22))), Frame::Now);
    p.drawn(ms(22));
    // Nothing changed and nothing owed: no frame (idle draws nothing).
    assert_eq!(p.decide(ms(500), false, false, None), Frame::None);
    // Arrivals long after the last frame: drawn at once.
    assert_eq!(p.decide(ms(600), false, true, None), Frame::Now);
    // Which messages may wait.
    assert!(is_background(&Message::Traffic(TrafficMsg::Skipped(3))));
    assert!(!is_background(&crate::tui::test_util::ctrl_key('g')));
    assert!(!is_background(&Message::Tick(Utc::now())));
}

#[test]
fn saving_the_profile_in_use_with_a_forward_url_points_the_in_process_server_at_it() {
    use crate::server::{spawn, ServerConfig};
    use crate::tui::components::profiles::ProfilesEffect;
    use crate::tui::test_util::ctrl_key;
    let up = spawn(
        ServerConfig::demo(),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::new(dir.path().join("c"), dir.path().join("d"));
    let mut shop = Profile::demo();
    shop.name = "shop".into();
    crate::store::ProfileStore::open(&paths)
        .save(&shop)
        .unwrap();
    let mut session = Session::open_in(paths, Some("shop"), ClientOptions::default()).unwrap();
    session
        .start_embedded(std::net::TcpListener::bind("127.0.0.1:0").unwrap(), None)
        .unwrap();
    let (loaded, _) = open_current(&mut session);
    let (mut app, startup) = crate::tui::open_app(loaded, Utc::now());
    let mut session = run_until(&mut app, Some(session), startup, |a| {
        a.request.sign.result.is_some()
    });
    let send = |app: &mut App, session: Option<Session>| {
        let cmds = update(app, ctrl_key('g'));
        let session = run_until(app, session, cmds, |a| {
            !a.request.sending && !a.request.send_when_signed
        });
        assert_eq!(app.request.response.as_ref().map(|r| r.status), Some(200));
        session
    };
    session = send(&mut app, session);
    assert_eq!(up.store().summary().requests, 0, "no forward URL yet");
    // The profile manager saves the profile in use (as loaded from its file) with a forward URL.
    let mut p = session.as_ref().unwrap().store().load("shop").unwrap();
    p.forward_indexing = Some(up.url());
    let save = Command::Profiles(ProfilesEffect::SaveProfile(
        Box::new(p),
        Some("shop".into()),
    ));
    let before = app.status.clone();
    session = run_until(&mut app, session, vec![save], move |a| a.status != before);
    assert!(app.status.contains("saved"), "{}", app.status);
    session = send(&mut app, session);
    assert_eq!(
        up.store().summary().requests,
        1,
        "forwarded from the save on"
    );
    drop(session);
}

#[test]
fn the_in_process_server_answers_to_the_open_profiles_prefix_and_follows_a_switch() {
    use crate::tui::test_util::ctrl_key;
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::new(dir.path().join("c"), dir.path().join("d"));
    let store = crate::store::ProfileStore::open(&paths);
    // A real account's prefix, and one of a profile of its own (the demo keys in both).
    for (name, prefix) in [("klevu", "KLEVU"), ("acme", "ACME")] {
        let mut p = Profile::demo();
        p.name = name.into();
        p.set_header_prefix(prefix);
        store.save(&p).unwrap();
    }
    let mut session = Session::open_in(paths, Some("klevu"), ClientOptions::default()).unwrap();
    session
        .start_embedded(std::net::TcpListener::bind("127.0.0.1:0").unwrap(), None)
        .unwrap();
    let local_store = session.embedded().expect("started").store();
    let (loaded, _) = open_current(&mut session);
    let (mut app, startup) = crate::tui::open_app(loaded, Utc::now());
    let mut session = run_until(&mut app, Some(session), startup, |a| {
        a.request.sign.result.is_some()
    });
    let send = |app: &mut App, session: Option<Session>, prefix: &str| {
        let cmds = update(app, ctrl_key('g'));
        // Sent at once, or once the signature being computed is ready.
        let session = run_until(app, session, cmds, |a| {
            !a.request.sending && !a.request.send_when_signed
        });
        let resp = app.request.response.as_ref().expect("a response");
        assert_eq!(resp.status, 200, "{prefix}: {}", app.status);
        session
    };
    session = send(&mut app, session, "KLEVU");
    let cmds = vec![Command::LoadProfile("acme".to_string())];
    // The new profile's own signature (the previous one's is still shown until it comes).
    session = run_until(&mut app, session, cmds, |a| {
        a.profile.name == "acme" && a.request.sign.result.is_some() && !a.request.sign.updating()
    });
    session = send(&mut app, session, "ACME");
    // Both were verified with their own prefix's headers.
    let recs = local_store.requests(&Default::default()).items;
    let names: Vec<bool> = recs
        .iter()
        .map(|r| r.headers.iter().any(|(n, _)| n == "x-acme-apikey"))
        .collect();
    assert_eq!(names, [false, true], "{recs:?}");
    drop(session);
}

/// Saving a profile whose key was typed: `k` writes the file without the typed key (the
/// profile's key source stays), `s` stores it (mode 0600); an edited Events batch is saved with
/// the profile, byte for byte; a profile deleted since it was opened is not recreated.
#[test]
fn the_typed_key_is_written_only_by_choice_and_the_events_batch_is_saved_with_the_profile() {
    use crate::store::KeySource;
    use crate::tui::components::events::EventsMsg;
    use crate::tui::components::request::Field;
    use crate::tui::test_util::{ctrl_key, key};
    use crossterm::event::KeyCode;
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::new(dir.path().join("c"), dir.path().join("d"));
    let mut p = Profile::new("shop");
    p.indexing_url = "http://127.0.0.1:9".into();
    p.analytics_url = "http://127.0.0.1:9".into();
    p.rest_key = KeySource::File(dir.path().join("shop.key"));
    std::fs::write(dir.path().join("shop.key"), "key-from-the-file\n").unwrap();
    // A key file others may read is refused (docs/profiles.md): keep it the owner's.
    std::fs::set_permissions(
        dir.path().join("shop.key"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    crate::store::ProfileStore::open(&paths).save(&p).unwrap();
    let mut session =
        Session::open_in(paths.clone(), Some("shop"), ClientOptions::default()).unwrap();
    let (loaded, _) = open_current(&mut session);
    let (mut app, startup) = crate::tui::open_app(loaded, Utc::now());
    // The key is read by the runtime, off the UI thread.
    let mut session = run_until(&mut app, Some(session), startup, |a| {
        a.request.key_resolving.is_none()
    });
    assert_eq!(app.request.key().expose(), "key-from-the-file");
    let file = paths.profile_file("shop");
    let type_key = |app: &mut App, text: &str| {
        app.request.focus = Field::RestKey;
        app.request.normal_mode = false;
        update(app, ctrl_key('u'));
        for c in text.chars() {
            update(app, key(KeyCode::Char(c)));
        }
    };

    // An events batch with a member written twice, and a typed key; Ctrl-S, k.
    let batch = "[ {\"event\": \"view_recs_list\", \"event\": \"view_recs_list\"} ]\n";
    update(
        &mut app,
        Message::Events(EventsMsg::LoadBatch(batch.to_string())),
    );
    type_key(&mut app, "typed-secret-zz9");
    assert!(update(&mut app, ctrl_key('s')).is_empty(), "asks first");
    let save = update(&mut app, key(KeyCode::Char('k')));
    session = run_until(&mut app, session, save, |a| !a.unsaved());
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains("typed-secret-zz9"), "{text}");
    assert!(text.contains("source = \"file\""), "{text}");
    let back = session.as_ref().unwrap().store().load("shop").unwrap();
    assert_eq!(back.events.as_deref(), Some(batch), "the batch as loaded");
    assert_eq!(app.request.key().expose(), "key-from-the-file");
    assert!(app.status.contains("dropped"), "{}", app.status);

    // Typed again, Ctrl-S, s: stored, 0600.
    type_key(&mut app, "typed-secret-zz9");
    update(&mut app, ctrl_key('s'));
    let save = update(&mut app, key(KeyCode::Char('s')));
    session = run_until(&mut app, session, save, |a| !a.unsaved());
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("typed-secret-zz9"), "{text}");
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);

    // Deleted behind the workbench's back: Ctrl-S says so and writes nothing.
    std::fs::remove_file(&file).unwrap();
    app.request.focus = Field::Body;
    update(&mut app, key(KeyCode::Char(' ')));
    let save = update(&mut app, ctrl_key('s'));
    run_until(&mut app, session, save, |a| a.status.contains("deleted"));
    assert!(!file.exists(), "{}", app.status);
    assert!(app.status.contains("Alt-S"), "{}", app.status);
}

/// The last request the server at `url` recorded (`/_inspect/requests`).
fn last_recorded(url: &str) -> serde_json::Value {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let bytes = rt.block_on(async {
        reqwest::get(format!("{url}/_inspect/requests"))
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap()
    });
    let all: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    all.as_array().unwrap().last().unwrap().clone()
}

/// After a send, the fields are edited (query, body, timestamp frozen and typed): the Response
/// panel's "as sent" view (Alt-D) still shows the request line, the headers (the signature)
/// and the body that went on the wire, as the real local server recorded them byte for byte,
/// not what the next send would use. Then the one search (Ctrl-F) finds in it.
#[test]
fn the_as_sent_view_shows_what_the_server_received_not_the_fields_edited_since() {
    use crate::tui::components::request::{request_layout, Detail, Field};
    use crate::tui::test_util::TestApp;
    use crossterm::event::KeyCode;
    let dir = tempfile::tempdir().unwrap();
    let (session, loaded) = demo_session(&dir);
    let url = loaded.request.url.clone();
    let (app, startup) = crate::tui::open_app(loaded, Utc::now());
    let mut t = TestApp::from_app(app, 200, 50);
    let session = run_until(&mut t.app, Some(session), startup, |a| {
        a.request.sign.result.is_some()
    });
    let send = t.ctrl('g');
    assert!(matches!(send.as_slice(), [Command::Send(_)]), "{send:?}");
    // The session (and its in-process server) lives until the end of the test.
    let _session = run_until(&mut t.app, session, send, |a| {
        !a.request.sending && a.request.response.is_some()
    });
    let pane_of = |w, h| request_layout(ratatui::layout::Rect::new(0, 0, w, h)).detail;
    let resp = t.request.response.clone().unwrap();
    assert_eq!(resp.status, 200, "{:?}", resp.message);
    let sent = resp.sent.clone().expect("the engine's record of the send");

    // What the server received, byte for byte.
    let rec = last_recorded(&url);
    assert_eq!(rec["method"], sent.method.as_str());
    let query = rec["query"].as_str().unwrap_or("");
    let target = format!(
        "{url}{}{}{query}",
        rec["path"].as_str().unwrap(),
        if query.is_empty() { "" } else { "?" }
    );
    assert_eq!(sent.url, target);
    assert_eq!(rec["body"].as_str().unwrap().as_bytes(), &sent.body[..]);
    let received: Vec<(String, String)> = rec["headers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h[0].as_str().unwrap().to_string(),
                h[1].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for (n, v) in &sent.headers {
        let got = received
            .iter()
            .find(|(m, _)| m.eq_ignore_ascii_case(n))
            .map(|(_, v)| v.as_str());
        assert_eq!(got, Some(v.as_str()), "{n} as received: {received:?}");
    }
    let authorization = sent
        .headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("authorization"))
        .map(|(_, v)| v.clone())
        .expect("the signature was sent");

    // The Headers tab names every header the server received, the HTTP client's own included
    // (marked as not signed), with the values received.
    t.app.request.detail = Detail::Headers;
    let rows = t.page_down_through(40, |_| pane_of(200, 50)).join("\n");
    let lower = rows.to_lowercase();
    assert!(
        rows.contains("Added by the HTTP client, not signed:"),
        "{rows}"
    );
    for (n, v) in &received {
        let want = format!("{n}: {v}").to_lowercase();
        assert!(lower.contains(&want), "{want}\n{rows}");
    }
    t.app.request.detail = Detail::Response;

    // Edits after the send: another query, a body character, a typed frozen timestamp.
    t.app.request.focus = Field::Query;
    t.type_str("zz=1");
    t.app.request.focus = Field::Timestamp;
    t.ctrl('u');
    t.type_str("2020-01-01T00:00:00.000Z");
    t.app.request.focus = Field::Body;
    t.type_str("X");
    t.press(KeyCode::Esc);

    // Alt-D: the Response panel shows the request as sent, whatever the fields say now.
    t.alt('d');
    assert!(t.request.show_sent && t.request.detail == Detail::Response);
    let pane = pane_of(200, 50);
    t.assert_line(" Sent ");
    // The view says which headers the HTTP client adds on top of the engine's: those.
    let mut added: Vec<&str> = received
        .iter()
        .filter(|(m, _)| !sent.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(m)))
        .map(|(m, _)| m.as_str())
        .collect();
    added.sort();
    assert_eq!(added, ["accept", "content-length", "host", "user-agent"]);
    let rows = t.page_down_through(40, |_| pane).join("\n");
    let shown = |s: &str| rows.contains(s);
    assert!(shown(&format!("{} {}", sent.method, sent.url)), "{rows}");
    assert!(!shown("zz=1"), "{rows}");
    for (n, v) in &sent.headers {
        assert!(shown(&format!("{n}: {v}")), "{n}: {v}\n{rows}");
    }
    assert!(shown(&format!("Authorization: {authorization}")));
    assert!(!shown("2020-01-01T00:00:00.000Z"), "{rows}");
    assert!(shown("(added by the HTTP client, not signed:)"), "{rows}");
    for (n, v) in received.iter().filter(|(m, _)| added.contains(&m.as_str())) {
        assert!(shown(&format!("{n}: {v}")), "{n}: {v}\n{rows}");
    }
    for line in std::str::from_utf8(&sent.body).unwrap().lines() {
        assert!(shown(line), "{line}\n{rows}");
    }
    let x_body = t.request.body.text().to_string();
    assert!(x_body.contains('X') && !sent.body.contains(&b'X'));

    // The one search, in the panel (the cursor is not in the body): n of m, next, previous.
    t.ctrl('f');
    t.type_str("X-SVC-");
    t.assert_line("1 of 3");
    t.press(KeyCode::Down);
    t.assert_line("2 of 3");
    t.press(KeyCode::Up);
    t.press(KeyCode::Up);
    t.assert_line("3 of 3");
    // The current match is drawn reversed, the others marked too.
    let buf = t.draw().clone();
    let reversed = (0..50u16).any(|y| {
        (0..200u16).any(|x| {
            buf[(x, y)].symbol() == "X"
                && buf[(x, y)]
                    .modifier
                    .contains(ratatui::style::Modifier::REVERSED)
        })
    });
    assert!(reversed, "the current match is reversed");
    t.press(KeyCode::Esc);
    assert!(t.request.prompt.is_none());
    // Alt-D again: the answer.
    t.alt('d');
    assert!(!t.request.show_sent);
    t.assert_line(" Response ");
}

/// The profile manager saves the profile in use with another indexing URL and API key while
/// the request view has an unsaved path edit and a typed prefix: the view takes the URL and the
/// key (not unsaved), keeps the typed prefix (and says so), and its Ctrl-S then writes the
/// manager's values plus the view's edits, with no "changed since loaded" conflict.
#[test]
fn saving_the_profile_in_use_from_the_manager_reaches_the_request_view_and_its_next_save() {
    use crate::tui::components::profiles::ProfilesEffect;
    use crate::tui::components::request::Field;
    use crate::tui::test_util::{ctrl_key, key};
    use crossterm::event::KeyCode;
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::new(dir.path().join("c"), dir.path().join("d"));
    let mut shop = Profile::demo();
    shop.name = "shop".into();
    shop.indexing_url = "http://127.0.0.1:9/old".into();
    crate::store::ProfileStore::open(&paths)
        .save(&shop)
        .unwrap();
    let mut session =
        Session::open_in(paths.clone(), Some("shop"), ClientOptions::default()).unwrap();
    let (loaded, _) = open_current(&mut session);
    let (mut app, startup) = crate::tui::open_app(loaded, Utc::now());
    let mut session = run_until(&mut app, Some(session), startup, |a| {
        a.request.sign.result.is_some()
    });
    let type_into = |app: &mut App, field: Field, text: &str| {
        app.request.focus = field;
        app.request.normal_mode = false;
        for c in text.chars() {
            update(app, key(KeyCode::Char(c)));
        }
    };
    type_into(&mut app, Field::Path, "zz");
    type_into(&mut app, Field::Prefix, "Q");
    let path = app.request.path.text().to_string();
    let prefix = app.request.prefix.text().to_string();
    assert!(app.unsaved());

    let mut p = session.as_ref().unwrap().store().load("shop").unwrap();
    p.indexing_url = "http://127.0.0.1:9/new".into();
    p.set_api_key("new-api-key");
    p.set_header_prefix("ACME");
    let save = Command::Profiles(ProfilesEffect::SaveProfile(
        Box::new(p),
        Some("shop".into()),
    ));
    session = run_until(&mut app, session, vec![save], |a| {
        a.request.url.text() == "http://127.0.0.1:9/new"
    });
    assert_eq!(app.request.api_key.text(), "new-api-key");
    assert_eq!(app.request.prefix.text(), prefix, "the typed prefix stays");
    assert!(app.status.contains("prefix"), "{}", app.status);
    assert_eq!(app.request.path.text(), path);

    let save = update(&mut app, ctrl_key('s'));
    run_until(&mut app, session, save, |a| !a.unsaved());
    let back = crate::store::ProfileStore::open(&paths)
        .load("shop")
        .unwrap();
    assert_eq!(
        back.indexing_url, "http://127.0.0.1:9/new",
        "{}",
        app.status
    );
    assert_eq!(back.request().api_key, "new-api-key");
    assert_eq!(back.request().path, path);
    assert_eq!(back.request().header_prefix, prefix);
}
