//! Profiles: one human-editable TOML file per profile under `<config_dir>/profiles/`.
//!
//! Writes are atomic (temp file in the same directory, fsync, rename, fsync the directory), so a
//! crash or `kill -9` leaves either the old file or the new one. A save refuses to overwrite a
//! file that changed on disk since it was loaded (unless forced). A file that does not parse is
//! reported with its line and column and left untouched; the other profiles still load.
//!
//! The profile itself is [`Profile`] (`profile_data.rs`), its file format `profile_toml.rs`;
//! both are re-exported here.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::paths::Paths;
use super::private::{clean_stale_temps, create_private_dir, FILE_MODE};
use crate::core::visible::line_col;

pub use super::atomic::write_atomic;
pub use super::error::{ParseError, StoreError};
pub use super::profile_data::{
    validate_name, validate_request_name, Origin, Profile, Requests, SaveOutcome, SavedRequest,
    DEFAULT_REQUEST, DEMO_PROFILE, EMBEDDED_URL, SCHEMA_VERSION,
};
pub use super::profile_toml::{from_toml, to_toml, to_toml_over};

/// Every profile that loaded, and every file that did not.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    /// The built-in demo profile first, then the saved ones by name.
    pub profiles: Vec<Profile>,
    pub errors: Vec<ParseError>,
}

/// Save options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SaveOptions {
    /// Overwrite even if the file changed on disk since it was loaded (or exists unloaded).
    pub force: bool,
}

/// The profiles of one config dir.
#[derive(Clone, Debug)]
pub struct ProfileStore {
    paths: Paths,
}

/// The profiles a directory holds, by name, sorted: its `NAME.toml` files with a usable name
/// (not `demo`, which is built in).
fn profile_names(entries: fs::ReadDir) -> Vec<String> {
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".toml")?;
            (validate_name(stem).is_ok() && stem != DEMO_PROFILE).then(|| stem.to_string())
        })
        .collect();
    names.sort();
    names
}

impl ProfileStore {
    pub fn open(paths: &Paths) -> Self {
        ProfileStore {
            paths: paths.clone(),
        }
    }

    pub fn paths(&self) -> &Paths {
        &self.paths
    }

    pub fn dir(&self) -> PathBuf {
        self.paths.profiles_dir()
    }

    /// Load every profile; one bad file never hides the others.
    pub fn list(&self) -> LoadReport {
        let mut report = LoadReport {
            profiles: vec![Profile::demo()],
            errors: Vec::new(),
        };
        let dir = self.dir();
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return report,
            Err(e) => {
                report.errors.push(ParseError {
                    path: dir,
                    line: 0,
                    column: 0,
                    message: format!("cannot list the directory: {}", super::io::io_reason(&e)),
                });
                return report;
            }
        };
        for name in profile_names(entries) {
            match self.load(&name) {
                Ok(p) => report.profiles.push(p),
                Err(StoreError::Parse(e)) => report.errors.push(e),
                Err(StoreError::NotFound { .. }) => {} // deleted meanwhile
                Err(other) => report.errors.push(ParseError {
                    path: self.paths.profile_file(&name),
                    line: 0,
                    column: 0,
                    message: other.to_string(),
                }),
            }
        }
        report
    }

    /// Names of the saved profiles (not the demo), whether or not they parse.
    pub fn saved_names(&self) -> Vec<String> {
        fs::read_dir(self.dir())
            .map(profile_names)
            .unwrap_or_default()
    }

    /// Load one profile (`demo` is built in).
    pub fn load(&self, name: &str) -> Result<Profile, StoreError> {
        if name == DEMO_PROFILE {
            return Ok(Profile::demo());
        }
        validate_name(name)?;
        let path = self.paths.profile_file(name);
        let bytes = match fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(StoreError::NotFound {
                    name: name.to_string(),
                    path,
                })
            }
            Err(e) => return Err(StoreError::io("read", &path, &e)),
        };
        let meta = fs::metadata(&path).map_err(|e| StoreError::io("read", &path, &e))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let (line, column) = {
                let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                line_col(std::str::from_utf8(valid).unwrap_or(""), valid.len())
            };
            StoreError::Parse(ParseError {
                path: path.clone(),
                line,
                column,
                message: "the file is not valid UTF-8".to_string(),
            })
        })?;
        let mut p = from_toml(name, &path, &text).map_err(StoreError::Parse)?;
        read_body_files(&mut p, &self.dir())?;
        p.origin = Some(origin_of(&path, &meta));
        tracing::debug!(profile = name, path = %path.display(), key_source = p.rest_key.kind(),
            "profile loaded");
        Ok(p)
    }

    /// Save, refusing to overwrite a file that changed since it was loaded.
    pub fn save(&self, p: &Profile) -> Result<SaveOutcome, StoreError> {
        self.save_with(p, SaveOptions::default())
    }

    /// Save a new profile: fails with [`StoreError::CreatedMeanwhile`] when a profile of that
    /// name appeared since the caller checked (another process won the race).
    pub fn create(&self, p: &Profile) -> Result<SaveOutcome, StoreError> {
        match self.save_with(p, SaveOptions::default()) {
            Err(StoreError::AlreadyExists { path }) => Err(StoreError::CreatedMeanwhile {
                name: p.name.clone(),
                path,
            }),
            other => other,
        }
    }

    pub fn save_with(&self, p: &Profile, opts: SaveOptions) -> Result<SaveOutcome, StoreError> {
        if p.is_demo() {
            return Err(StoreError::DemoIsBuiltIn);
        }
        validate_name(&p.name)?;
        let dir = self.dir();
        let path = self.paths.profile_file(&p.name);
        create_private_dir(&dir)
            .map_err(|e| StoreError::io("create the profile directory", &dir, &e))?;
        // The check below and the write are one step for every signscope process: two saves of
        // the same profile (or two `profile new` of one name) cannot both pass the check.
        let _guard = super::history::Lock::acquire(&self.paths.config_dir.join("profiles.lock"))?;
        if !opts.force {
            match (fs::metadata(&path), &p.origin) {
                (Ok(meta), Some(origin)) if origin.path == path => {
                    if origin_of(&path, &meta) != *origin {
                        return Err(StoreError::Conflict { path });
                    }
                }
                (Ok(_), _) => return Err(StoreError::AlreadyExists { path }),
                // Loaded from this file, which is gone now (deleted in the profile manager or
                // elsewhere): a save must not silently bring it back.
                (Err(e), Some(origin))
                    if origin.path == path && e.kind() == std::io::ErrorKind::NotFound =>
                {
                    return Err(StoreError::DeletedMeanwhile { path });
                }
                // Missing (or unreachable: the write below reports that in one sentence).
                (Err(_), _) => {}
            }
        }
        let stored_secret = p.rest_key.is_stored();
        let mode = FILE_MODE;
        // Over an existing file, keep the user's comments and layout.
        let text = match fs::read_to_string(&path) {
            Ok(old) => to_toml_over(p, &old),
            Err(_) => to_toml(p),
        };
        write_body_files(p, &dir)?;
        write_atomic(&path, text.as_bytes(), mode)?;
        tracing::debug!(profile = %p.name, path = %path.display(), key_source = p.rest_key.kind(),
            mode = format_args!("{mode:o}"), "profile saved");
        let meta = fs::metadata(&path).map_err(|e| StoreError::io("read", &path, &e))?;
        Ok(SaveOutcome {
            origin: origin_of(&path, &meta),
            path,
            stored_secret,
        })
    }

    /// Delete a saved profile.
    pub fn delete(&self, name: &str) -> Result<PathBuf, StoreError> {
        if name == DEMO_PROFILE {
            return Err(StoreError::DemoIsBuiltIn);
        }
        validate_name(name)?;
        let path = self.paths.profile_file(name);
        // A save killed mid-way may have left a temporary copy (with the key): it goes too.
        clean_stale_temps(&self.dir());
        match fs::remove_file(&path) {
            Ok(()) => {
                if self.last_used().as_deref() == Some(name) {
                    let _ = self.clear_last_used();
                }
                Ok(path)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(StoreError::NotFound {
                name: name.to_string(),
                path,
            }),
            Err(e) => Err(StoreError::io("delete", &path, &e)),
        }
    }

    /// The profile used last (remembered in the data dir), if any.
    pub fn last_used(&self) -> Option<String> {
        self.read_state().last_profile
    }

    /// Remember the profile used last. Already remembered, nothing is written (every open and
    /// send marks the profile, and the atomic write syncs to disk).
    pub fn set_last_used(&self, name: &str) -> Result<(), StoreError> {
        let mut state = self.read_state();
        if state.last_profile.as_deref() == Some(name) {
            return Ok(());
        }
        state.last_profile = Some(name.to_string());
        self.write_state(&state)
    }

    fn clear_last_used(&self) -> Result<(), StoreError> {
        let mut state = self.read_state();
        state.last_profile = None;
        self.write_state(&state)
    }

    /// The saved request the workbench last had selected in profile `profile`, if any (it may
    /// since have been renamed or deleted: the caller checks).
    pub fn remembered_request(&self, profile: &str) -> Option<String> {
        self.read_state().requests.remove(profile)
    }

    /// Remember `request` as the selected saved request of `profile` (in the state file, next
    /// to the last used profile: selecting a request is not an edit of the profile file).
    pub fn remember_request(&self, profile: &str, request: &str) -> Result<(), StoreError> {
        let mut state = self.read_state();
        if state.requests.get(profile).map(String::as_str) == Some(request) {
            return Ok(());
        }
        state
            .requests
            .insert(profile.to_string(), request.to_string());
        self.write_state(&state)
    }

    /// The state file's contents; a missing or unreadable file is an empty state.
    fn read_state(&self) -> State {
        fs::read_to_string(self.paths.state_file())
            .ok()
            .and_then(|text| toml::from_str(&text).ok())
            .unwrap_or_default()
    }

    fn write_state(&self, state: &State) -> Result<(), StoreError> {
        let dir = &self.paths.data_dir;
        create_private_dir(dir)
            .map_err(|e| StoreError::io("create the data directory", dir, &e))?;
        let text = toml::to_string(state).expect("state serializes");
        write_atomic(&self.paths.state_file(), text.as_bytes(), FILE_MODE)
    }
}

/// The state file: the last used profile and, per profile, the selected saved request.
#[derive(Serialize, Deserialize, Default)]
struct State {
    #[serde(skip_serializing_if = "Option::is_none")]
    last_profile: Option<String>,
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    requests: std::collections::BTreeMap<String, String>,
}

/// Where a request's body file is: relative paths are relative to the profile directory.
pub fn body_file_path(dir: &Path, file: &Path) -> PathBuf {
    if file.is_absolute() {
        file.to_path_buf()
    } else {
        dir.join(file)
    }
}

/// Read every request's body file into its body.
fn read_body_files(p: &mut Profile, dir: &Path) -> Result<(), StoreError> {
    let profile = p.name.clone();
    for r in p.requests_mut() {
        let Some(file) = &r.body_file else { continue };
        let path = body_file_path(dir, file);
        let body = fs::read(&path).map_err(|e| StoreError::BodyFile {
            profile: profile.clone(),
            request: r.name.clone(),
            path: path.clone(),
            reason: super::io::io_reason(&e),
        })?;
        r.spec.body = body.into();
    }
    Ok(())
}

/// Write every request's body to its body file when the file holds something else (atomic;
/// an existing file keeps its mode, a new one is readable by its owner only).
fn write_body_files(p: &Profile, dir: &Path) -> Result<(), StoreError> {
    for r in p.requests() {
        let Some(file) = &r.body_file else { continue };
        let path = body_file_path(dir, file);
        if fs::read(&path).is_ok_and(|old| old == r.spec.body) {
            continue;
        }
        #[cfg(unix)]
        let mode = {
            use std::os::unix::fs::PermissionsExt;
            fs::metadata(&path).map_or(FILE_MODE, |m| m.permissions().mode() & 0o7777)
        };
        #[cfg(not(unix))]
        let mode = FILE_MODE;
        write_atomic(&path, &r.spec.body, mode)?;
    }
    Ok(())
}

fn origin_of(path: &Path, meta: &fs::Metadata) -> Origin {
    Origin {
        path: path.to_path_buf(),
        modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
        len: meta.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{RequestSpec, Secret};
    use crate::store::atomic::dir_of;
    use crate::store::KeySource;

    #[test]
    fn saving_over_a_hand_edited_file_keeps_its_comments() {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::new(dir.path().join("c"), dir.path().join("d"));
        let store = ProfileStore::open(&paths);
        let mut p = Profile::new("shop");
        p.set_api_key("old-public");
        store.save(&p).unwrap();
        let file = paths.profile_file("shop");
        let text = fs::read_to_string(&file).unwrap();
        let edited = text
            .replace(
                "api_key =",
                "# the storefront's public key, from the admin page\napi_key =",
            )
            .replace("method = \"PUT\"", "method = \"PUT\" # batch uploads only");
        assert_ne!(edited, text);
        fs::write(&file, &edited).unwrap();
        let mut loaded = store.load("shop").unwrap();
        loaded.set_api_key("new-public");
        loaded.request_mut().query = "dry=1".into();
        store.save(&loaded).unwrap();
        let saved = fs::read_to_string(&file).unwrap();
        assert!(
            saved.contains(
                "# the storefront's public key, from the admin page\napi_key = \"new-public\""
            ),
            "{saved}"
        );
        assert!(
            saved.contains("method = \"PUT\" # batch uploads only"),
            "{saved}"
        );
        let back = store.load("shop").unwrap();
        assert_eq!(back.request().api_key, "new-public");
        assert_eq!(back.request().query, "dry=1");
        // A file that is not a current profile is rewritten whole.
        let v1 =
            "base_url = \"http://127.0.0.1:7\"\napi_key = \"k\"\nrest_key_env = \"K\"\n# old\n";
        assert_eq!(to_toml_over(&back, v1), to_toml(&back));
    }

    #[test]
    fn a_bare_file_name_is_written_through_the_current_directory() {
        assert_eq!(dir_of(Path::new("events.json")), Path::new("."));
        assert_eq!(dir_of(Path::new("out/events.json")), Path::new("out"));
        assert_eq!(dir_of(Path::new("/events.json")), Path::new("/"));
        // And "." is a directory a temp file can be made in (what write_atomic does with it).
        let dir = tempfile::tempdir().unwrap();
        let inside = dir.path().join("events.json");
        write_atomic(&inside, b"[1]", 0o644).unwrap();
        assert_eq!(fs::read(&inside).unwrap(), b"[1]");
    }

    fn store() -> (tempfile::TempDir, ProfileStore) {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::new(dir.path().join("config"), dir.path().join("data"));
        (dir, ProfileStore::open(&paths))
    }

    fn sample(name: &str) -> Profile {
        let mut p = Profile {
            indexing_url: "http://127.0.0.1:9".into(),
            analytics_url: "http://127.0.0.1:9".into(),
            rest_key: KeySource::Command(vec!["pass".into(), "show".into(), "shop".into()]),
            events: Some("[]".into()),
            ..Profile::new(name)
        };
        *p.request_mut() = RequestSpec {
            api_key: "pub-1".into(),
            query: "test=1".into(),
            body: "[{\"a\": \"multi\nline \\\"quoted\\\"\"}]".into(),
            ..RequestSpec::default()
        };
        p
    }

    #[test]
    fn round_trip() {
        let (_d, s) = store();
        let p = sample("shop");
        let out = s.save(&p).unwrap();
        assert!(!out.stored_secret);
        let mut back = s.load("shop").unwrap();
        assert_eq!(back.origin.as_ref(), Some(&out.origin));
        back.origin = None;
        assert_eq!(back, p);
        // The demo plus the saved one.
        let names: Vec<_> = s.list().profiles.into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["demo", "shop"]);
    }

    #[test]
    fn demo_is_built_in() {
        let (_d, s) = store();
        let demo = s.load("demo").unwrap();
        assert!(
            demo.is_demo()
                && demo.indexing_url == EMBEDDED_URL
                && demo.analytics_url == EMBEDDED_URL
        );
        assert_eq!(demo.rest_key, KeySource::Demo);
        assert_eq!(s.save(&demo), Err(StoreError::DemoIsBuiltIn));
        assert_eq!(s.delete("demo"), Err(StoreError::DemoIsBuiltIn));
    }

    #[test]
    fn conflict_detected_unless_forced() {
        let (_d, s) = store();
        let mut p = sample("shop");
        let out = s.save(&p).unwrap();
        p.mark_saved(&out);
        // Another editor changes the file (different length so mtime granularity cannot hide it).
        std::thread::sleep(std::time::Duration::from_millis(20));
        let path = s.paths().profile_file("shop");
        let mut text = fs::read_to_string(&path).unwrap();
        text.push_str("\n# edited elsewhere\n");
        fs::write(&path, &text).unwrap();
        p.request_mut().body = "[1]".into();
        let err = s.save(&p).unwrap_err();
        assert!(matches!(err, StoreError::Conflict { .. }), "{err}");
        // Users have no "force" (only this API does): the sentence offers what they have.
        assert!(!err.to_string().contains("force"), "{err}");
        assert!(err.to_string().contains("save under another name"), "{err}");
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            text,
            "conflicting save touched the file"
        );
        s.save_with(&p, SaveOptions { force: true }).unwrap();
        assert_eq!(s.load("shop").unwrap().request().body, "[1]");
        // A fresh profile with the same name as an existing file is not silently overwritten.
        let err = s.save(&sample("shop")).unwrap_err();
        assert!(matches!(err, StoreError::AlreadyExists { .. }), "{err}");
    }

    #[test]
    fn corrupt_file_is_located_and_others_load() {
        let (_d, s) = store();
        s.save(&sample("good")).unwrap();
        let bad = s.paths().profile_file("bad");
        let text = "schema_version = 3\nindexing_url = \"http://x\"\napi_key = = 3\n";
        fs::write(&bad, text).unwrap();
        let report = s.list();
        assert_eq!(report.profiles.len(), 2, "demo and good still load");
        assert_eq!(report.errors.len(), 1);
        let e = &report.errors[0];
        assert_eq!(
            (e.path.as_path(), e.line, e.column),
            (bad.as_path(), 3, 11),
            "{e}"
        );
        assert!(e.to_string().contains("bad.toml line 3 column 11"), "{e}");
        assert_eq!(fs::read_to_string(&bad).unwrap(), text);
    }

    #[test]
    fn unknown_field_is_located() {
        let (_d, s) = store();
        let p = sample("typo");
        s.save(&p).unwrap();
        let path = s.paths().profile_file("typo");
        let text = fs::read_to_string(&path)
            .unwrap()
            .replace("indexing_url", "indexing_ulr");
        fs::write(&path, &text).unwrap();
        let err = s.load("typo").unwrap_err().to_string();
        assert!(
            err.contains("indexing_ulr") && err.contains("line "),
            "{err}"
        );
    }

    /// A hand-written file with today's field names and no `schema_version` is told what it
    /// lacks.
    #[test]
    fn a_file_without_schema_version_but_with_todays_fields_is_told_what_it_lacks() {
        let (_d, s) = store();
        fs::create_dir_all(s.dir()).unwrap();
        let path = s.paths().profile_file("hand");
        fs::write(
            &path,
            "indexing_url = \"http://127.0.0.1:7\"\nanalytics_url = \"http://127.0.0.1:7\"\napi_key = \"k\"\n\n[rest_key]\nsource = \"env\"\nvar = \"K\"\n",
        )
        .unwrap();
        let err = s.load("hand").unwrap_err().to_string();
        assert!(err.contains("missing field `schema_version`"), "{err}");
        assert!(!err.contains("base_url"), "{err}");
        // With the version line it loads.
        let text = fs::read_to_string(&path).unwrap();
        fs::write(&path, format!("schema_version = 3\n{text}")).unwrap();
        assert_eq!(s.load("hand").unwrap().indexing_url, "http://127.0.0.1:7");
    }

    /// Versions 1 and 2 were written only by builds before the first release: such a file is
    /// refused in one sentence that names the file and how to make the profile again, the file
    /// is left as it is, and the other profiles still load.
    #[test]
    fn a_file_of_a_pre_release_version_is_one_sentence_naming_the_fix() {
        let (_d, s) = store();
        s.save(&sample("good")).unwrap();
        let files = [
            (
                "one",
                "base_url = \"http://127.0.0.1:7\"\napi_key = \"k\"\nrest_key_env = \"OLD_KEY\"\n",
            ),
            (
                "two",
                "schema_version = 1\nbase_url = \"http://127.0.0.1:7\"\napi_key = \"k\"\nrest_key_env = \"K\"\n",
            ),
            (
                "three",
                "schema_version = 2\nindexing_url = \"http://x\"\nanalytics_url = \"http://x\"\napi_key = \"k\"\nmethod = \"PUT\"\n\n[rest_key]\nsource = \"env\"\nvar = \"K\"\n",
            ),
        ];
        for (name, text) in files {
            let path = s.paths().profile_file(name);
            fs::write(&path, text).unwrap();
            let err = s.load(name).unwrap_err().to_string();
            assert!(err.contains(&format!("{name}.toml")), "{err}");
            assert!(!err.contains('\n'), "{err}");
            assert_eq!(fs::read_to_string(&path).unwrap(), text, "file untouched");
            if name == "one" {
                // No version line: read as today's format, which names what is wrong.
                assert!(
                    err.contains("base_url") || err.contains("schema_version"),
                    "{err}"
                );
            } else {
                assert!(
                    err.ends_with(&format!(
                        "is no longer read; move the file away and make the profile again with `signscope profile new {name}`"
                    )),
                    "{err}"
                );
            }
        }
        let report = s.list();
        assert_eq!(report.errors.len(), 3, "{:?}", report.errors);
        assert!(report.profiles.iter().any(|p| p.name == "good"));
    }

    #[test]
    fn stored_secret_file_is_0600_and_says_so() {
        use std::os::unix::fs::PermissionsExt;
        let (_d, s) = store();
        let p = Profile {
            rest_key: KeySource::Stored(Secret::new("stored-key-xyz")),
            ..sample("kept")
        };
        let out = s.save(&p).unwrap();
        assert!(out.stored_secret && out.message().contains("0600"));
        let mode = fs::metadata(&out.path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(
            s.load("kept").unwrap().rest_key.resolve().unwrap().expose(),
            "stored-key-xyz"
        );
        assert!(!format!("{p:?}").contains("stored-key-xyz"));
        // Every profile file is private (it names where the key comes from, or holds it).
        let plain = s.save(&sample("plain")).unwrap();
        assert_eq!(
            fs::metadata(&plain.path).unwrap().permissions().mode() & 0o777,
            0o600
        );
        assert_eq!(
            fs::metadata(s.dir()).unwrap().permissions().mode() & 0o777,
            0o700
        );
    }

    #[test]
    fn of_two_racing_creates_of_one_name_exactly_one_wins() {
        let (_d, s) = store();
        for i in 0..20 {
            let name = format!("race-{i}");
            let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
            let results: Vec<Result<SaveOutcome, StoreError>> = (0..2)
                .map(|_| {
                    let (s, b, name) = (s.clone(), barrier.clone(), name.clone());
                    std::thread::spawn(move || {
                        b.wait();
                        s.create(&sample(&name))
                    })
                })
                .collect::<Vec<_>>()
                .into_iter()
                .map(|t| t.join().unwrap())
                .collect();
            let won = results.iter().filter(|r| r.is_ok()).count();
            assert_eq!(won, 1, "{name}: {results:?}");
            let lost = results.into_iter().find_map(Result::err).unwrap();
            assert!(
                matches!(lost, StoreError::CreatedMeanwhile { .. }),
                "{lost}"
            );
            assert!(
                lost.to_string()
                    .starts_with(&format!("a profile named \"{name}\" was created meanwhile")),
                "{lost}"
            );
        }
    }

    #[test]
    fn names_and_last_used() {
        let (_d, s) = store();
        for bad in ["", ".hidden", "a/b", "x y", "../up"] {
            assert!(
                matches!(validate_name(bad), Err(StoreError::BadName { .. })),
                "{bad}"
            );
        }
        assert_eq!(s.last_used(), None);
        s.save(&sample("one")).unwrap();
        s.set_last_used("one").unwrap();
        assert_eq!(s.last_used().as_deref(), Some("one"));
        s.delete("one").unwrap();
        assert_eq!(s.last_used(), None);
        assert!(matches!(s.load("one"), Err(StoreError::NotFound { .. })));
    }

    /// Marking the profile already remembered writes nothing (an atomic write would replace the
    /// file: a new inode).
    #[test]
    fn marking_the_same_last_used_profile_again_writes_nothing() {
        use std::os::unix::fs::MetadataExt;
        let (_d, s) = store();
        s.set_last_used("one").unwrap();
        let state = s.paths.state_file();
        let inode = fs::metadata(&state).unwrap().ino();
        s.set_last_used("one").unwrap();
        assert_eq!(fs::metadata(&state).unwrap().ino(), inode);
        s.set_last_used("two").unwrap();
        assert_eq!(s.last_used().as_deref(), Some("two"));
        assert_ne!(fs::metadata(&state).unwrap().ino(), inode);
    }

    /// The selected saved request of each profile is remembered in the state file next to the
    /// last used profile: writing one keeps the other.
    #[test]
    fn the_selected_request_is_remembered_per_profile_with_the_last_used_profile() {
        let (_d, s) = store();
        assert_eq!(s.remembered_request("one"), None);
        s.set_last_used("one").unwrap();
        s.remember_request("one", "search").unwrap();
        s.remember_request("two", "batch copy").unwrap();
        assert_eq!(s.remembered_request("one").as_deref(), Some("search"));
        assert_eq!(s.remembered_request("two").as_deref(), Some("batch copy"));
        assert_eq!(s.last_used().as_deref(), Some("one"));
        s.set_last_used("two").unwrap();
        assert_eq!(s.remembered_request("one").as_deref(), Some("search"));
        s.remember_request("one", "default").unwrap();
        assert_eq!(s.remembered_request("one").as_deref(), Some("default"));
        assert_eq!(s.last_used().as_deref(), Some("two"));
    }

    #[test]
    fn unwritable_location_is_one_sentence() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("config");
        fs::write(&blocker, "a file where the config dir should be").unwrap();
        let s = ProfileStore::open(&Paths::new(&blocker, dir.path().join("data")));
        let err = s.save(&sample("x")).unwrap_err().to_string();
        assert!(
            err.starts_with("cannot create the profile directory"),
            "{err}"
        );
        assert!(!err.contains('\n'));
    }
}

#[cfg(test)]
#[path = "profile_requests_tests.rs"]
mod requests_tests;
