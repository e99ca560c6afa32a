//! Profiles as the workbench holds them. The engine's [`Session`] keeps the profile in use
//! without its body: the body, which can be many megabytes, moves to the request editor when the
//! profile is opened (one buffer, not two), and a save takes it from the editor.

use bytes::Bytes;

use crate::engine::Session;
use crate::store::{KeySource, Profile, ProfileStore, DEMO_PROFILE, EMBEDDED_URL};
use crate::tui::model::{EditorRequest, LoadedProfile};

/// A profile as the profile manager lists it: without its body (a save from the manager takes
/// the stored one again, see [`stored_body`]).
pub fn without_body(mut p: Profile) -> Profile {
    p.request_mut().body = Bytes::new();
    p
}

/// The body a profile saved from the manager keeps: that of the stored profile `source` (the
/// built-in demo's for "demo"), or a new profile's default body, as `profile new` writes it
/// (one default body however a profile is made).
pub fn stored_body(store: &ProfileStore, source: Option<&str>) -> Result<Bytes, String> {
    match source {
        None => Ok(Profile::new("").request().body.clone()),
        Some(DEMO_PROFILE) => Ok(Profile::demo().request().body.clone()),
        Some(name) => store
            .load(name)
            .map(|p| p.request().body.clone())
            .map_err(|e| e.to_string()),
    }
}

/// A profile as the workbench shows it (its REST key resolved), with its resolved indexing and
/// analytics base URLs. The body moves to the editor; the profile kept for the manager has none.
pub fn loaded_profile(mut p: Profile, base_url: String, analytics_url: String) -> LoadedProfile {
    let body = std::mem::take(&mut p.request_mut().body);
    // A key kept in the profile (or the demo's) is at hand; any other source is read off the
    // UI thread once the profile is shown (a command can wait for a PIN).
    let (key, key_source, key_to_read) = match &p.rest_key {
        KeySource::Stored(_) | KeySource::Demo => match p.rest_key.resolve() {
            Ok(k) => (Some(k), p.rest_key.describe(), None),
            Err(e) => (None, format!("{} — {e}", p.rest_key.describe()), None),
        },
        source => (None, source.describe(), Some(source.clone())),
    };
    LoadedProfile {
        name: p.name.clone(),
        is_demo: p.is_demo(),
        analytics_url,
        local: p.analytics_url == EMBEDDED_URL,
        events: p.events.clone(),
        // The body moves to the editor (shared, not copied); the profile kept for the manager
        // has none.
        request: EditorRequest {
            url: base_url,
            spec: p.request().with_body(body),
        },
        profile: Some(Box::new(p)),
        key,
        key_source,
        key_to_read,
    }
}

/// The session's current profile for the workbench: its body moves out of the session into the
/// editor, its URLs are resolved (`embedded` starts the in-process server). A URL that cannot be
/// resolved is left empty, and the second value says why.
pub fn open_current(session: &mut Session) -> (LoadedProfile, Option<String>) {
    // The saved request selected when the workbench last had this profile (the first one when
    // that request is gone).
    if let Some(name) = session.store().remembered_request(&session.profile().name) {
        let _ = session.profile_mut().select_request(&name);
    }
    let body = std::mem::take(&mut session.profile_mut().request_mut().body);
    let mut note = None;
    let mut resolve = |r: Result<String, crate::engine::EngineError>| {
        r.unwrap_or_else(|e| {
            note = Some(format!("{e}; sending will fail until a URL is set"));
            String::new()
        })
    };
    let base = resolve(session.indexing_url());
    let analytics = resolve(session.analytics_url());
    let mut p = session.profile().clone();
    p.request_mut().body = body;
    (loaded_profile(p, base, analytics), note)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manager_saves_keep_the_stored_body_that_the_listing_leaves_out() {
        let dir = tempfile::tempdir().unwrap();
        let paths = crate::store::Paths::new(dir.path().join("c"), dir.path().join("d"));
        let store = ProfileStore::open(&paths);
        let mut big = Profile::new("big");
        big.request_mut().body = "[\"a body that stays on disk\"]".into();
        store.save(&big).unwrap();
        let listed = without_body(store.load("big").unwrap());
        assert!(listed.request().body.is_empty());
        let full = store.load("big").unwrap();
        // Loading hands the body to the editor fields and keeps a body-less profile.
        let loaded = loaded_profile(full, String::new(), String::new());
        assert_eq!(loaded.request.spec.body, big.request().body);
        assert!(loaded.profile.unwrap().request().body.is_empty());
        assert_eq!(
            stored_body(&store, Some("big")).unwrap(),
            big.request().body
        );
        // A new profile (F5 `n`) starts with the body `profile new` gives it.
        assert_eq!(stored_body(&store, None).unwrap(), "[]");
        assert_eq!(
            stored_body(&store, None).unwrap(),
            Profile::new("cli").request().body
        );
        assert_eq!(
            stored_body(&store, Some(DEMO_PROFILE)).unwrap(),
            Profile::demo().request().body.clone()
        );
        let err = stored_body(&store, Some("gone")).unwrap_err();
        assert!(err.contains("gone"), "{err}");
    }

    #[test]
    fn opening_the_current_profile_moves_its_body_out_of_the_session() {
        let dir = tempfile::tempdir().unwrap();
        let paths = crate::store::Paths::new(dir.path().join("c"), dir.path().join("d"));
        let mut p = Profile::new("big");
        p.indexing_url = "http://127.0.0.1:9".into();
        p.analytics_url = "http://127.0.0.1:8".into();
        p.request_mut().body = Bytes::from(vec![b'x'; 4096]);
        ProfileStore::open(&paths).save(&p).unwrap();
        let mut session =
            Session::open_in(paths, Some("big"), crate::engine::ClientOptions::default()).unwrap();
        let (loaded, note) = open_current(&mut session);
        assert_eq!(note, None);
        assert_eq!(loaded.request.spec.body.len(), 4096);
        assert_eq!(loaded.request.url, "http://127.0.0.1:9");
        assert_eq!(loaded.analytics_url, "http://127.0.0.1:8");
        assert!(!loaded.local);
        assert!(
            session.profile().request().body.is_empty(),
            "the session keeps no second copy of the body"
        );
    }
}
