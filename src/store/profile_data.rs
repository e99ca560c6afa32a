//! A profile: an account (URLs, header prefix, public API key, where the REST key comes from)
//! plus any number of named requests, each one [`RequestSpec`] (the request model of the core,
//! not a copy of its fields). The file format is described in `docs/profiles.md`.

use std::path::PathBuf;
use std::time::SystemTime;

use super::error::StoreError;
use super::secret_source::KeySource;
use crate::core::demo::DEMO_API_KEY;
use crate::core::spec::RequestSpec;
use crate::core::SigningForm;

/// The schema version this build writes.
pub const SCHEMA_VERSION: u32 = 3;
/// The name of the one request an older profile file (schema 1 or 2) becomes.
pub const DEFAULT_REQUEST: &str = "default";
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
    /// Where the workbench's in-process server forwards indexing requests once verified and
    /// recorded (`docs/server.md`, "Forwarding"); none by default.
    pub forward_indexing: Option<String>,
    /// Where it forwards collector requests.
    pub forward_analytics: Option<String>,
    /// The named requests and which one is selected. The header prefix and the public API
    /// key are the account's: [`Profile::set_header_prefix`] / [`Profile::set_api_key`] set
    /// them in every request.
    pub requests: Requests,
    /// The last edited event batch (JSON text).
    pub events: Option<String>,
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

/// A profile's named requests, in the user's order: never empty, names unique (kept so by the
/// methods of [`Profile`], the only way to change the list), and the selected one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requests {
    list: Vec<SavedRequest>,
    /// The index of the request [`Profile::request`] returns (not saved in the file).
    selected: usize,
}

impl Default for Requests {
    /// One request named `default` with the defaults of `docs/signing.md`.
    fn default() -> Self {
        Requests {
            list: vec![SavedRequest::new(DEFAULT_REQUEST, RequestSpec::default())],
            selected: 0,
        }
    }
}

/// One named request of a profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedRequest {
    pub name: String,
    /// The request itself; its header prefix and API key are the account's.
    pub spec: RequestSpec,
    /// When set, the body lives in this file (relative paths are relative to the profile
    /// file's directory): loading reads it into `spec.body`, saving writes `spec.body` to it.
    pub body_file: Option<PathBuf>,
    /// The form its path and query lines are signed in (`docs/signing.md`, "The PHP SDK's
    /// form"); the standard form unless chosen in the workbench (Alt-F) or the file.
    pub form: SigningForm,
}

impl SavedRequest {
    pub fn new(name: impl Into<String>, spec: RequestSpec) -> Self {
        SavedRequest {
            name: name.into(),
            spec,
            body_file: None,
            form: SigningForm::Standard,
        }
    }
}

impl Profile {
    /// A new profile with the defaults of `docs/signing.md` (prefix `SVC`, `PUT /v2/batch`)
    /// and one request named `default`.
    pub fn new(name: impl Into<String>) -> Self {
        Profile {
            name: name.into(),
            indexing_url: String::new(),
            analytics_url: String::new(),
            rest_key: KeySource::Env("SIGNSCOPE_REST_KEY".to_string()),
            forward_indexing: None,
            forward_analytics: None,
            requests: Requests::default(),
            events: None,
            origin: None,
        }
    }

    /// The built-in demo profile: the embedded local server and the demo account.
    pub fn demo() -> Self {
        let mut p = Profile {
            indexing_url: EMBEDDED_URL.to_string(),
            analytics_url: EMBEDDED_URL.to_string(),
            rest_key: KeySource::Demo,
            ..Profile::new(DEMO_PROFILE)
        };
        p.set_api_key(DEMO_API_KEY);
        p
    }

    /// A profile with these requests (the first one selected). An empty list becomes one
    /// default request; names must be unique and usable ([`validate_request_name`]).
    pub fn with_requests(
        name: impl Into<String>,
        requests: Vec<SavedRequest>,
    ) -> Result<Profile, StoreError> {
        let mut p = Profile::new(name);
        if requests.is_empty() {
            return Ok(p);
        }
        for (i, r) in requests.iter().enumerate() {
            validate_request_name(&r.name)?;
            if requests[..i].iter().any(|o| o.name == r.name) {
                return Err(StoreError::RequestExists {
                    profile: p.name.clone(),
                    name: r.name.clone(),
                });
            }
        }
        p.requests = Requests {
            list: requests,
            selected: 0,
        };
        Ok(p)
    }

    /// Replace every request (the workbench's list after adding, copying, renaming, deleting or
    /// moving some) and select the one at `selected`. An empty list keeps the current one.
    pub fn replace_requests(
        &mut self,
        requests: Vec<SavedRequest>,
        selected: usize,
    ) -> Result<(), StoreError> {
        self.requests = Profile::with_requests(self.name.clone(), requests)?.requests;
        self.select_index(selected);
        Ok(())
    }

    /// The selected request (the one the workbench edits and `send` sends).
    pub fn request(&self) -> &RequestSpec {
        &self.selected_request().spec
    }

    /// The selected request, to edit in place.
    pub fn request_mut(&mut self) -> &mut RequestSpec {
        let i = self.requests.selected.min(self.requests.list.len() - 1);
        &mut self.requests.list[i].spec
    }

    /// The selected request with its name and body file.
    pub fn selected_request(&self) -> &SavedRequest {
        &self.requests.list[self.requests.selected.min(self.requests.list.len() - 1)]
    }

    /// The selected request with its name and body file, to edit in place (its name is changed
    /// with [`Profile::rename_request`], which keeps names unique).
    pub fn selected_request_mut(&mut self) -> &mut SavedRequest {
        let i = self.requests.selected.min(self.requests.list.len() - 1);
        &mut self.requests.list[i]
    }

    /// The index of the selected request in [`Profile::requests`].
    pub fn selected_index(&self) -> usize {
        self.requests.selected.min(self.requests.list.len() - 1)
    }

    /// Every request, in order (never empty).
    pub fn requests(&self) -> &[SavedRequest] {
        &self.requests.list
    }

    /// Every request, to edit their specs and body files in place (not their names).
    pub fn requests_mut(&mut self) -> impl Iterator<Item = &mut SavedRequest> {
        self.requests.list.iter_mut()
    }

    /// The request named `name`.
    pub fn find_request(&self, name: &str) -> Option<&SavedRequest> {
        self.requests.list.iter().find(|r| r.name == name)
    }

    fn index_of(&self, name: &str) -> Result<usize, StoreError> {
        self.requests
            .list
            .iter()
            .position(|r| r.name == name)
            .ok_or_else(|| StoreError::UnknownRequest {
                profile: self.name.clone(),
                name: name.to_string(),
                known: self.request_names().join(", "),
            })
    }

    /// The names of the requests, in order.
    pub fn request_names(&self) -> Vec<String> {
        self.requests.list.iter().map(|r| r.name.clone()).collect()
    }

    /// Select the request named `name`; an unknown name is an error naming the profile and
    /// listing its requests.
    pub fn select_request(&mut self, name: &str) -> Result<&RequestSpec, StoreError> {
        self.requests.selected = self.index_of(name)?;
        Ok(self.request())
    }

    /// Select the request at `index` (clamped to the list).
    pub fn select_index(&mut self, index: usize) {
        self.requests.selected = index.min(self.requests.list.len() - 1);
    }

    fn check_new_name(&self, name: &str) -> Result<(), StoreError> {
        validate_request_name(name)?;
        if self.find_request(name).is_some() {
            return Err(StoreError::RequestExists {
                profile: self.name.clone(),
                name: name.to_string(),
            });
        }
        Ok(())
    }

    /// Add a request at the end (with the account's prefix and API key) and return its index.
    pub fn add_request(&mut self, name: &str, spec: RequestSpec) -> Result<usize, StoreError> {
        self.check_new_name(name)?;
        let account = self.requests.list[0].spec.clone();
        let spec = RequestSpec {
            header_prefix: account.header_prefix,
            api_key: account.api_key,
            ..spec
        };
        self.requests.list.push(SavedRequest::new(name, spec));
        Ok(self.requests.list.len() - 1)
    }

    /// Copy the request `from` as `to`, right after it; return the copy's index.
    pub fn duplicate_request(&mut self, from: &str, to: &str) -> Result<usize, StoreError> {
        let i = self.index_of(from)?;
        self.check_new_name(to)?;
        let copy = SavedRequest {
            name: to.to_string(),
            ..self.requests.list[i].clone()
        };
        self.requests.list.insert(i + 1, copy);
        if self.requests.selected > i {
            self.requests.selected += 1;
        }
        Ok(i + 1)
    }

    /// Rename a request (the selection stays on it).
    pub fn rename_request(&mut self, from: &str, to: &str) -> Result<(), StoreError> {
        let i = self.index_of(from)?;
        if from == to {
            return Ok(());
        }
        self.check_new_name(to)?;
        self.requests.list[i].name = to.to_string();
        Ok(())
    }

    /// Delete a request; the last one cannot be deleted. The selection moves to the request
    /// that took its place (or the one before it).
    pub fn delete_request(&mut self, name: &str) -> Result<SavedRequest, StoreError> {
        let i = self.index_of(name)?;
        if self.requests.list.len() == 1 {
            return Err(StoreError::LastRequest {
                profile: self.name.clone(),
                name: name.to_string(),
            });
        }
        let gone = self.requests.list.remove(i);
        if self.requests.selected > i || self.requests.selected >= self.requests.list.len() {
            self.requests.selected = self.requests.selected.saturating_sub(1);
        }
        Ok(gone)
    }

    /// Move a request to position `to` (clamped); the selection follows the request it was on.
    pub fn move_request(&mut self, name: &str, to: usize) -> Result<usize, StoreError> {
        let from = self.index_of(name)?;
        let to = to.min(self.requests.list.len() - 1);
        let selected_name = self.selected_request().name.clone();
        let r = self.requests.list.remove(from);
        self.requests.list.insert(to, r);
        self.requests.selected = self.index_of(&selected_name).unwrap_or(0);
        Ok(to)
    }

    /// The account's header prefix (the first request's).
    pub fn header_prefix(&self) -> &str {
        &self.requests.list[0].spec.header_prefix
    }

    /// The account's public API key (the first request's).
    pub fn api_key(&self) -> &str {
        &self.requests.list[0].spec.api_key
    }

    /// Set the account's header prefix in every request.
    pub fn set_header_prefix(&mut self, prefix: &str) {
        for r in &mut self.requests.list {
            r.spec.header_prefix = prefix.to_string();
        }
    }

    /// Set the account's public API key in every request.
    pub fn set_api_key(&mut self, key: &str) {
        for r in &mut self.requests.list {
            r.spec.api_key = key.to_string();
        }
    }

    /// The profile without its file state (what two saves of the same values share).
    pub(crate) fn without_origin(&self) -> Profile {
        Profile {
            origin: None,
            requests: Requests {
                selected: 0,
                ..self.requests.clone()
            },
            ..self.clone()
        }
    }

    /// What the profile file itself says: [`Profile::without_origin`], with the bodies kept in
    /// body files left out (they are not in the file).
    pub(crate) fn file_view(&self) -> Profile {
        let mut p = self.without_origin();
        for r in &mut p.requests.list {
            if r.body_file.is_some() {
                r.spec.body = bytes::Bytes::new();
            }
        }
        p
    }

    pub fn is_demo(&self) -> bool {
        self.name == DEMO_PROFILE
    }

    /// Record the file state after a successful save, so the next save does not see a conflict.
    pub fn mark_saved(&mut self, outcome: &SaveOutcome) {
        self.origin = Some(outcome.origin.clone());
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

/// Check a request name: 1-64 characters, letters, digits, spaces and `. _ - /`, not starting
/// or ending with a space.
pub fn validate_request_name(name: &str) -> Result<(), StoreError> {
    let ok = !name.is_empty()
        && name.chars().count() <= 64
        && !name.starts_with(' ')
        && !name.ends_with(' ')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '.' | '_' | '-' | '/'));
    if !ok {
        return Err(StoreError::BadRequestName {
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
