//! A profile: where to send (URLs), with which key source, and the request being edited, as
//! one [`RequestSpec`] (the request model of the core, not a copy of its fields).

use std::path::PathBuf;
use std::time::SystemTime;

use super::error::StoreError;
use super::secret_source::KeySource;
use crate::core::demo::DEMO_API_KEY;
use crate::core::spec::RequestSpec;

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
    pub rest_key: KeySource,
    /// The request being edited: method, path, query, header prefix, public API key, content
    /// type, algorithm and body (the one request model, [`RequestSpec`]).
    pub request: RequestSpec,
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
    /// A new profile with the defaults of `docs/signing.md` (prefix `SVC`, `PUT /v2/batch`).
    pub fn new(name: impl Into<String>) -> Self {
        Profile {
            name: name.into(),
            indexing_url: String::new(),
            analytics_url: String::new(),
            rest_key: KeySource::Env("SIGNSCOPE_REST_KEY".to_string()),
            request: RequestSpec::default(),
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
            rest_key: KeySource::Demo,
            request: RequestSpec {
                api_key: DEMO_API_KEY.to_string(),
                ..RequestSpec::default()
            },
            ..Profile::new(DEMO_PROFILE)
        }
    }

    /// The profile without its file state (what two saves of the same values share).
    pub(crate) fn without_origin(&self) -> Profile {
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
