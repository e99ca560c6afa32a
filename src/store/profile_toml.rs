//! The profile file format (TOML), versions 1 and 2, and saving over a hand-edited file with
//! its comments and layout kept.
//!
//! Schema versions: version 2 is current. Version 1 files (one `base_url` for both APIs and a
//! `rest_key_env` variable name) are upgraded in memory; the file on disk stays as it is until
//! the next explicit save.

use std::path::{Path, PathBuf};

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use super::error::ParseError;
use super::profile_data::{Profile, SCHEMA_VERSION};
use super::secret_source::KeySource;
use crate::core::spec::{RequestSpec, DEFAULT_METHOD, DEFAULT_PATH};
use crate::core::{Secret, AUTH_ALGO, CONTENT_TYPE_JSON, DEFAULT_HEADER_PREFIX};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileV2 {
    /// Read through [`VersionOnly`]; declared so that `deny_unknown_fields` accepts it.
    #[allow(dead_code)]
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

/// What [`to_toml`] writes: [`FileV2`]'s fields, borrowed from the profile (the body is not
/// copied before it is written as TOML text).
#[derive(Serialize)]
struct FileV2Out<'a> {
    schema_version: u32,
    indexing_url: &'a str,
    analytics_url: &'a str,
    header_prefix: &'a str,
    api_key: &'a str,
    rest_key: KeyRepr,
    method: &'a str,
    path: &'a str,
    query: &'a str,
    content_type: &'a str,
    auth_algo: &'a str,
    body: std::borrow::Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    events: Option<&'a str>,
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
    DEFAULT_METHOD.to_string()
}
fn default_path() -> String {
    DEFAULT_PATH.to_string()
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
    let r = &p.request;
    let file = FileV2Out {
        schema_version: SCHEMA_VERSION,
        indexing_url: &p.indexing_url,
        analytics_url: &p.analytics_url,
        header_prefix: &r.header_prefix,
        api_key: &r.api_key,
        rest_key: KeyRepr::from(&p.rest_key),
        method: &r.method,
        path: &r.path,
        query: &r.query,
        content_type: &r.content_type,
        auth_algo: &r.auth_algo,
        body: r.body_text(),
        events: p.events.as_deref(),
    };
    let mut text = format!(
        "# signscope profile \"{}\" (edit freely; `signscope profile show {}` checks it)\n",
        p.name, p.name
    );
    // Strings, a table of strings and one integer: the TOML serializer has no error to report
    // for them, and an empty text would read back as an error rather than lose data silently.
    match toml::to_string(&file) {
        Ok(t) => text.push_str(&t),
        Err(e) => tracing::error!(error = %e, "a profile did not serialize to TOML"),
    }
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
                rest_key: KeySource::Env(v1.rest_key_env),
                request: RequestSpec {
                    header_prefix: v1.header_prefix,
                    api_key: v1.api_key,
                    body: Bytes::from(v1.body),
                    ..RequestSpec::default()
                },
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
                rest_key: f.rest_key.into(),
                request: RequestSpec {
                    method: f.method,
                    path: f.path,
                    query: f.query,
                    header_prefix: f.header_prefix,
                    api_key: f.api_key,
                    content_type: f.content_type,
                    auth_algo: f.auth_algo,
                    // The String's buffer becomes the body: no copy.
                    body: Bytes::from(f.body),
                },
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
