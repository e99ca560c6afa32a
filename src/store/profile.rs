//! Profiles: one human-editable TOML file per profile under `<config_dir>/profiles/`.
//!
//! Writes are atomic (temp file in the same directory, fsync, rename, fsync the directory), so a
//! crash or `kill -9` leaves either the old file or the new one. A save refuses to overwrite a
//! file that changed on disk since it was loaded (unless forced). A file that does not parse is
//! reported with its line and column and left untouched; the other profiles still load.
//!
//! Schema versions: version 2 is current. Version 1 files (one `base_url` for both APIs and a
//! `rest_key_env` variable name) are upgraded in memory; the file on disk stays as it is until
//! the next explicit save.

use super::private::{clean_stale_temps, create_private_dir, temp_prefix, FILE_MODE};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::paths::Paths;
use super::secret_source::KeySource;
use crate::core::{Secret, AUTH_ALGO, CONTENT_TYPE_JSON, DEFAULT_HEADER_PREFIX};

/// The schema version this build writes.
pub const SCHEMA_VERSION: u32 = 2;
/// The name of the built-in profile.
pub const DEMO_PROFILE: &str = "demo";
/// The URL marker meaning "the in-process local server".
pub const EMBEDDED_URL: &str = "embedded";

/// One profile. `name` is the file name (without `.toml`); it is not stored inside the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    pub name: String,
    pub indexing_url: String,
    pub analytics_url: String,
    pub header_prefix: String,
    pub api_key: String,
    pub rest_key: KeySource,
    pub method: String,
    pub path: String,
    pub query: String,
    pub content_type: String,
    pub auth_algo: String,
    /// The last request body being edited.
    pub body: String,
    /// The last edited event batch (JSON text).
    pub events: Option<String>,
    /// The version of the file this was read from (after loading an old file, the old number;
    /// saving writes [`SCHEMA_VERSION`]).
    pub schema_version: u32,
    /// Where it was loaded from and the file's state then (for conflict detection).
    pub origin: Option<Origin>,
}

/// The on-disk state of a profile file when it was loaded or last saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub path: PathBuf,
    pub modified: SystemTime,
    pub len: u64,
}

impl Profile {
    /// A new profile with the defaults of the interface document.
    pub fn new(name: impl Into<String>) -> Self {
        Profile {
            name: name.into(),
            indexing_url: String::new(),
            analytics_url: String::new(),
            header_prefix: DEFAULT_HEADER_PREFIX.to_string(),
            api_key: String::new(),
            rest_key: KeySource::Env("SIGNSCOPE_REST_KEY".to_string()),
            method: "PUT".to_string(),
            path: "/v2/batch".to_string(),
            query: String::new(),
            content_type: CONTENT_TYPE_JSON.to_string(),
            auth_algo: AUTH_ALGO.to_string(),
            body: "[]".to_string(),
            events: None,
            schema_version: SCHEMA_VERSION,
            origin: None,
        }
    }

    /// The built-in demo profile: the embedded local server and the demo account.
    pub fn demo() -> Self {
        Profile {
            indexing_url: EMBEDDED_URL.to_string(),
            analytics_url: EMBEDDED_URL.to_string(),
            api_key: crate::server::DEMO_API_KEY.to_string(),
            rest_key: KeySource::Demo,
            ..Profile::new(DEMO_PROFILE)
        }
    }

    /// The profile without its file state (what two saves of the same values share).
    fn without_origin(&self) -> Profile {
        Profile {
            origin: None,
            schema_version: SCHEMA_VERSION,
            ..self.clone()
        }
    }

    pub fn is_demo(&self) -> bool {
        self.name == DEMO_PROFILE
    }

    /// Whether the profile talks to the in-process server.
    pub fn uses_embedded_server(&self) -> bool {
        self.indexing_url == EMBEDDED_URL || self.analytics_url == EMBEDDED_URL
    }

    /// Record the file state after a successful save, so the next save does not see a conflict.
    pub fn mark_saved(&mut self, outcome: &SaveOutcome) {
        self.origin = Some(outcome.origin.clone());
        self.schema_version = SCHEMA_VERSION;
    }
}

/// Check a profile name: 1-64 of `A-Z a-z 0-9 . _ -`, not starting with `.`, not `demo`.
pub fn validate_name(name: &str) -> Result<(), StoreError> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if !ok {
        return Err(StoreError::BadName {
            name: name.to_string(),
        });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// File format

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileV2 {
    schema_version: u32,
    indexing_url: String,
    analytics_url: String,
    #[serde(default = "default_prefix")]
    header_prefix: String,
    api_key: String,
    rest_key: KeyRepr,
    #[serde(default = "default_method")]
    method: String,
    #[serde(default = "default_path")]
    path: String,
    #[serde(default)]
    query: String,
    #[serde(default = "default_content_type")]
    content_type: String,
    #[serde(default = "default_algo")]
    auth_algo: String,
    #[serde(default)]
    body: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    events: Option<String>,
}

/// Version 1: one base URL, the key always from an environment variable.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileV1 {
    #[serde(default)]
    #[allow(dead_code)]
    schema_version: Option<u32>,
    base_url: String,
    api_key: String,
    rest_key_env: String,
    #[serde(default = "default_prefix")]
    header_prefix: String,
    #[serde(default)]
    body: String,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "lowercase", deny_unknown_fields)]
enum KeyRepr {
    Env { var: String },
    File { path: PathBuf },
    Command { argv: Vec<String> },
    Stored { value: String },
    Demo,
}

#[derive(Deserialize)]
struct VersionOnly {
    schema_version: Option<u32>,
    /// Only version 2 has it: a hand-written file that uses today's field names but has no
    /// `schema_version` is read as version 2 (and told what it lacks), not as version 1.
    indexing_url: Option<toml::Value>,
}

fn default_prefix() -> String {
    DEFAULT_HEADER_PREFIX.to_string()
}
fn default_method() -> String {
    "PUT".to_string()
}
fn default_path() -> String {
    "/v2/batch".to_string()
}
fn default_content_type() -> String {
    CONTENT_TYPE_JSON.to_string()
}
fn default_algo() -> String {
    AUTH_ALGO.to_string()
}

impl From<&KeySource> for KeyRepr {
    fn from(k: &KeySource) -> Self {
        match k {
            KeySource::Env(var) => KeyRepr::Env { var: var.clone() },
            KeySource::File(path) => KeyRepr::File { path: path.clone() },
            KeySource::Command(argv) => KeyRepr::Command { argv: argv.clone() },
            KeySource::Stored(s) => KeyRepr::Stored {
                value: s.expose().to_string(),
            },
            KeySource::Demo => KeyRepr::Demo,
        }
    }
}

impl From<KeyRepr> for KeySource {
    fn from(k: KeyRepr) -> Self {
        match k {
            KeyRepr::Env { var } => KeySource::Env(var),
            KeyRepr::File { path } => KeySource::File(path),
            KeyRepr::Command { argv } => KeySource::Command(argv),
            KeyRepr::Stored { value } => KeySource::Stored(Secret::new(value)),
            KeyRepr::Demo => KeySource::Demo,
        }
    }
}

/// Serialize a profile to the TOML text written on disk.
pub fn to_toml(p: &Profile) -> String {
    let file = FileV2 {
        schema_version: SCHEMA_VERSION,
        indexing_url: p.indexing_url.clone(),
        analytics_url: p.analytics_url.clone(),
        header_prefix: p.header_prefix.clone(),
        api_key: p.api_key.clone(),
        rest_key: KeyRepr::from(&p.rest_key),
        method: p.method.clone(),
        path: p.path.clone(),
        query: p.query.clone(),
        content_type: p.content_type.clone(),
        auth_algo: p.auth_algo.clone(),
        body: p.body.clone(),
        events: p.events.clone(),
    };
    let mut text = format!(
        "# signscope profile \"{}\" (edit freely; `signscope profile show {}` checks it)\n",
        p.name, p.name
    );
    text.push_str(&toml::to_string(&file).expect("a profile always serializes to TOML"));
    text
}

/// The text to write for `p` over a file that now holds `old`: the values of [`to_toml`], with
/// the comments and layout of `old` kept wherever its keys stay, also when a value changes. Falls back to [`to_toml`] when `old` is not a current
/// profile file or the merge would not read back as `p`.
pub fn to_toml_over(p: &Profile, old: &str) -> String {
    let fresh = to_toml(p);
    let (Ok(mut doc), Ok(new)) = (
        old.parse::<toml_edit::DocumentMut>(),
        fresh.parse::<toml_edit::DocumentMut>(),
    ) else {
        return fresh;
    };
    if doc.get("schema_version").and_then(|v| v.as_integer()) != Some(SCHEMA_VERSION as i64) {
        return fresh; // an older schema is rewritten whole (its keys differ)
    }
    let gone: Vec<String> = doc
        .iter()
        .map(|(k, _)| k.to_string())
        .filter(|k| !new.contains_key(k))
        .collect();
    for k in gone {
        doc.remove(&k);
    }
    for (k, item) in new.iter() {
        let same = match (doc.get(k), item) {
            (Some(toml_edit::Item::Value(a)), toml_edit::Item::Value(b)) => {
                a.clone().decorated("", "").to_string() == b.clone().decorated("", "").to_string()
            }
            (Some(a), b) => a.to_string() == b.to_string(),
            (None, _) => false,
        };
        if same {
            continue;
        }
        match doc.get_mut(k) {
            // Replace the value in place: the key and the comment lines above it stay, and so
            // does a comment after the value on its line.
            Some(slot) => {
                let mut item = item.clone();
                if let (Some(old), Some(new)) = (slot.as_value(), item.as_value_mut()) {
                    *new.decor_mut() = old.decor().clone();
                }
                *slot = item;
            }
            None => {
                doc.insert(k, item.clone());
            }
        }
    }
    let text = doc.to_string();
    match from_toml(&p.name, Path::new(""), &text) {
        Ok(back) if back.without_origin() == p.without_origin() => text,
        _ => fresh,
    }
}

/// Parse a profile file's text. Errors carry line and column.
pub fn from_toml(name: &str, path: &Path, text: &str) -> Result<Profile, ParseError> {
    let located = |e: toml::de::Error| ParseError::from_toml(path, text, &e);
    let found = toml::from_str::<VersionOnly>(text).map_err(located)?;
    let version = match (found.schema_version, found.indexing_url) {
        (Some(v), _) => v,
        (None, Some(_)) => SCHEMA_VERSION,
        (None, None) => 1,
    };
    let p = match version {
        1 => {
            let v1: FileV1 = toml::from_str(text).map_err(located)?;
            Profile {
                indexing_url: v1.base_url.clone(),
                analytics_url: v1.base_url,
                header_prefix: v1.header_prefix,
                api_key: v1.api_key,
                rest_key: KeySource::Env(v1.rest_key_env),
                body: v1.body,
                schema_version: 1,
                ..Profile::new(name)
            }
        }
        SCHEMA_VERSION => {
            let f: FileV2 = toml::from_str(text).map_err(located)?;
            Profile {
                name: name.to_string(),
                indexing_url: f.indexing_url,
                analytics_url: f.analytics_url,
                header_prefix: f.header_prefix,
                api_key: f.api_key,
                rest_key: f.rest_key.into(),
                method: f.method,
                path: f.path,
                query: f.query,
                content_type: f.content_type,
                auth_algo: f.auth_algo,
                body: f.body,
                events: f.events,
                schema_version: SCHEMA_VERSION,
                origin: None,
            }
        }
        other => {
            return Err(ParseError {
                path: path.to_path_buf(),
                line: 0,
                column: 0,
                message: format!(
                    "schema_version {other} is newer than this signscope understands ({SCHEMA_VERSION}); upgrade signscope"
                ),
            })
        }
    };
    Ok(p)
}

/// A profile file that could not be read, with where the problem is (1-based; 0 = unknown).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{} is not valid: {message}", path.display(), location(*line, *column))]
pub struct ParseError {
    pub path: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

fn location(line: usize, column: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(" line {line} column {column}")
    }
}

impl ParseError {
    fn from_toml(path: &Path, text: &str, e: &toml::de::Error) -> Self {
        let (line, column) = match e.span() {
            Some(span) => line_col(text, span.start),
            None => (0, 0),
        };
        ParseError {
            path: path.to_path_buf(),
            line,
            column,
            message: e.message().trim().to_string(),
        }
    }
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let mut start = offset;
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let before = &text[..start];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

// ---------------------------------------------------------------------------------------------
// The store

/// Errors of the profile store; each reads as one sentence naming the file or profile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("\"{name}\" is not a usable profile name: use 1-64 letters, digits, '.', '_' or '-' (not starting with '.')")]
    BadName { name: String },
    #[error("the demo profile is built in and cannot be saved or deleted; create a new profile with `signscope profile new NAME --from demo`")]
    DemoIsBuiltIn,
    #[error("there is no profile named \"{name}\" (looked for {})", path.display())]
    NotFound { name: String, path: PathBuf },
    #[error("the profile file {0}")]
    Parse(ParseError),
    #[error("the profile file {} changed on disk since it was loaded, so nothing was written; save under another name, or load the profile again to take the other edit", path.display())]
    Conflict { path: PathBuf },
    #[error("a profile file {} already exists, so nothing was written; choose another name, or delete that profile first", path.display())]
    AlreadyExists { path: PathBuf },
    #[error("a profile named \"{name}\" was created meanwhile ({}), so nothing was written; choose another name, or load that profile", path.display())]
    CreatedMeanwhile { name: String, path: PathBuf },
    #[error("cannot {action} {}: {reason}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        reason: String,
    },
}

impl StoreError {
    fn io(action: &'static str, path: &Path, e: &std::io::Error) -> Self {
        StoreError::Io {
            action,
            path: path.to_path_buf(),
            reason: super::io_reason(e),
        }
    }
}

/// What a save did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveOutcome {
    pub path: PathBuf,
    /// The REST key is in the file; the file has mode 0600.
    pub stored_secret: bool,
    /// The file state after the save.
    pub origin: Origin,
}

impl SaveOutcome {
    /// A sentence for the user.
    pub fn message(&self) -> String {
        if self.stored_secret {
            format!(
                "saved {} (the REST key is stored in this file in plain text; the file is readable by you only, mode 0600)",
                self.path.display()
            )
        } else {
            format!("saved {}", self.path.display())
        }
    }
}

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
                    message: format!("cannot list the directory: {}", super::io_reason(&e)),
                });
                return report;
            }
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let stem = name.strip_suffix(".toml")?;
                (validate_name(stem).is_ok() && stem != DEMO_PROFILE).then(|| stem.to_string())
            })
            .collect();
        names.sort();
        for name in names {
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
        let mut names: Vec<String> = fs::read_dir(self.dir())
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let n = e.file_name().into_string().ok()?;
                let stem = n.strip_suffix(".toml")?;
                (validate_name(stem).is_ok() && stem != DEMO_PROFILE).then(|| stem.to_string())
            })
            .collect();
        names.sort();
        names
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

    /// Write a profile to any file (e.g. "save elsewhere" when the config dir is not writable).
    /// Atomic like [`ProfileStore::save`]; mode 0600 when the key is stored in it.
    pub fn export(&self, p: &Profile, path: &Path) -> Result<(), StoreError> {
        write_atomic(path, to_toml(p).as_bytes(), FILE_MODE)
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
        let text = fs::read_to_string(self.paths.state_file()).ok()?;
        let state: State = toml::from_str(&text).ok()?;
        state.last_profile
    }

    /// Remember the profile used last.
    pub fn set_last_used(&self, name: &str) -> Result<(), StoreError> {
        self.write_state(&State {
            last_profile: Some(name.to_string()),
        })
    }

    fn clear_last_used(&self) -> Result<(), StoreError> {
        self.write_state(&State { last_profile: None })
    }

    fn write_state(&self, state: &State) -> Result<(), StoreError> {
        let dir = &self.paths.data_dir;
        create_private_dir(dir)
            .map_err(|e| StoreError::io("create the data directory", dir, &e))?;
        let text = toml::to_string(state).expect("state serializes");
        write_atomic(&self.paths.state_file(), text.as_bytes(), FILE_MODE)
    }
}

#[derive(Serialize, Deserialize, Default)]
struct State {
    #[serde(skip_serializing_if = "Option::is_none")]
    last_profile: Option<String>,
}

fn origin_of(path: &Path, meta: &fs::Metadata) -> Origin {
    Origin {
        path: path.to_path_buf(),
        modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
        len: meta.len(),
    }
}

/// The directory a file is in; a bare file name (whose parent is "") is in ".".
fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Write `bytes` to `path` atomically: temp file in the same directory, fsync, set mode, rename,
/// fsync the directory.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: u32) -> Result<(), StoreError> {
    let dir = dir_of(path);
    // The process id in the name lets the next start remove it if this process is killed
    // before the rename (see `store::private`).
    let prefix = temp_prefix();
    let mut tmp = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(super::private::TEMP_SUFFIX)
        .tempfile_in(dir)
        .map_err(|e| StoreError::io("write a file in", dir, &e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(tmp.path(), fs::Permissions::from_mode(mode))
            .map_err(|e| StoreError::io("set the permissions of", tmp.path(), &e))?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().sync_all())
        .map_err(|e| StoreError::io("write", path, &e))?;
    tmp.persist(path)
        .map_err(|e| StoreError::io("replace", path, &e.error))?;
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saving_over_a_hand_edited_file_keeps_its_comments() {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::new(dir.path().join("c"), dir.path().join("d"));
        let store = ProfileStore::open(&paths);
        let mut p = Profile::new("shop");
        p.api_key = "old-public".into();
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
        loaded.api_key = "new-public".into();
        loaded.query = "dry=1".into();
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
        assert_eq!(back.api_key, "new-public");
        assert_eq!(back.query, "dry=1");
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
        Profile {
            indexing_url: "http://127.0.0.1:9".into(),
            analytics_url: "http://127.0.0.1:9".into(),
            api_key: "pub-1".into(),
            rest_key: KeySource::Command(vec!["pass".into(), "show".into(), "shop".into()]),
            query: "test=1".into(),
            body: "[{\"a\": \"multi\nline \\\"quoted\\\"\"}]".into(),
            events: Some("[]".into()),
            ..Profile::new(name)
        }
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
        assert!(demo.is_demo() && demo.uses_embedded_server());
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
        p.body = "[1]".into();
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
        assert_eq!(s.load("shop").unwrap().body, "[1]");
        // A fresh profile with the same name as an existing file is not silently overwritten.
        let err = s.save(&sample("shop")).unwrap_err();
        assert!(matches!(err, StoreError::AlreadyExists { .. }), "{err}");
    }

    #[test]
    fn corrupt_file_is_located_and_others_load() {
        let (_d, s) = store();
        s.save(&sample("good")).unwrap();
        let bad = s.paths().profile_file("bad");
        let text = "schema_version = 2\nindexing_url = \"http://x\"\napi_key = = 3\n";
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

    /// A hand-written file with today's field names and no `schema_version` was read as
    /// version 1 and refused with "unknown field `indexing_url`, expected one of ... `base_url`",
    /// pointing the user at the old names.
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
        fs::write(&path, format!("schema_version = 2\n{text}")).unwrap();
        assert_eq!(s.load("hand").unwrap().indexing_url, "http://127.0.0.1:7");
    }

    #[test]
    fn version_1_upgraded_in_memory_and_file_kept() {
        let (_d, s) = store();
        fs::create_dir_all(s.dir()).unwrap();
        let path = s.paths().profile_file("old");
        let text =
            "base_url = \"http://127.0.0.1:7\"\napi_key = \"k\"\nrest_key_env = \"OLD_KEY\"\n";
        fs::write(&path, text).unwrap();
        let mut p = s.load("old").unwrap();
        assert_eq!(p.schema_version, 1);
        assert_eq!(p.indexing_url, "http://127.0.0.1:7");
        assert_eq!(p.analytics_url, "http://127.0.0.1:7");
        assert_eq!(p.rest_key, KeySource::Env("OLD_KEY".into()));
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            text,
            "file untouched by loading"
        );
        let out = s.save(&p).unwrap();
        p.mark_saved(&out);
        assert_eq!(p.schema_version, SCHEMA_VERSION);
        assert!(fs::read_to_string(&path)
            .unwrap()
            .contains("schema_version = 2"));
        assert_eq!(s.load("old").unwrap().indexing_url, "http://127.0.0.1:7");
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
    fn export_elsewhere_reads_back() {
        let (d, s) = store();
        let target = d.path().join("elsewhere.toml");
        let p = sample("shop");
        s.export(&p, &target).unwrap();
        let text = fs::read_to_string(&target).unwrap();
        let mut back = from_toml("shop", &target, &text).unwrap();
        back.origin = None;
        assert_eq!(back, p);
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
