//! The profile file format (TOML, schema version 3: the account at the top, then one
//! `[[requests]]` table per named request) and saving over a hand-edited file with its comments
//! and layout kept (`docs/profiles.md`). Versions 1 and 2 were written only by builds before the
//! first release: such a file is refused with one sentence that says how to make it again.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use super::error::ParseError;
use super::profile_data::{Profile, SavedRequest, SCHEMA_VERSION};
use super::secret_source::KeySource;
use crate::core::spec::{RequestSpec, DEFAULT_METHOD, DEFAULT_PATH};
use crate::core::{Secret, SigningForm, AUTH_ALGO, CONTENT_TYPE_JSON, DEFAULT_HEADER_PREFIX};

/// A profile file as read and as written ([`to_toml`] borrows from the profile: bodies are not
/// copied before they are written as TOML text).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileV3<'a> {
    schema_version: u32,
    indexing_url: Cow<'a, str>,
    analytics_url: Cow<'a, str>,
    #[serde(default = "default_prefix")]
    header_prefix: Cow<'a, str>,
    api_key: Cow<'a, str>,
    rest_key: KeyRepr,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forward_indexing: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forward_analytics: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    events: Option<Cow<'a, str>>,
    #[serde(default)]
    requests: Vec<RequestRepr<'a>>,
}

/// One `[[requests]]` table.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RequestRepr<'a> {
    name: Cow<'a, str>,
    #[serde(default = "default_method")]
    method: Cow<'a, str>,
    #[serde(default = "default_path")]
    path: Cow<'a, str>,
    #[serde(default)]
    query: Cow<'a, str>,
    #[serde(default = "default_content_type")]
    content_type: Cow<'a, str>,
    #[serde(default = "default_algo")]
    auth_algo: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    body: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    body_file: Option<Cow<'a, Path>>,
    /// Only when this request differs from the account (a hand-edited file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    header_prefix: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    api_key: Option<Cow<'a, str>>,
    /// `standard` (the default) or `php-sdk`; written only for a form other than the standard
    /// one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    form: Option<Cow<'a, str>>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "lowercase", deny_unknown_fields)]
enum KeyRepr {
    Env { var: String },
    File { path: PathBuf },
    Command { argv: Vec<String> },
    Keyring { service: String, account: String },
    Stored { value: String },
    Demo,
}

#[derive(Deserialize)]
struct VersionOnly {
    /// Without one the file is read as the current version (and told what it lacks).
    schema_version: Option<u32>,
}

fn default_prefix() -> Cow<'static, str> {
    DEFAULT_HEADER_PREFIX.into()
}
fn default_method() -> Cow<'static, str> {
    DEFAULT_METHOD.into()
}
fn default_path() -> Cow<'static, str> {
    DEFAULT_PATH.into()
}
fn default_content_type() -> Cow<'static, str> {
    CONTENT_TYPE_JSON.into()
}
fn default_algo() -> Cow<'static, str> {
    AUTH_ALGO.into()
}

impl From<&KeySource> for KeyRepr {
    fn from(k: &KeySource) -> Self {
        match k {
            KeySource::Env(var) => KeyRepr::Env { var: var.clone() },
            KeySource::File(path) => KeyRepr::File { path: path.clone() },
            KeySource::Command(argv) => KeyRepr::Command { argv: argv.clone() },
            KeySource::Keyring { service, account } => KeyRepr::Keyring {
                service: service.clone(),
                account: account.clone(),
            },
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
            KeyRepr::Keyring { service, account } => KeySource::Keyring { service, account },
            KeyRepr::Stored { value } => KeySource::Stored(Secret::new(value)),
            KeyRepr::Demo => KeySource::Demo,
        }
    }
}

/// Serialize a profile to the TOML text written on disk. A request's header prefix and API key
/// are written only when they differ from the account's (a hand-edited file can say so).
pub fn to_toml(p: &Profile) -> String {
    let (prefix, key) = (p.header_prefix(), p.api_key());
    let requests = p
        .requests()
        .iter()
        .map(|r| RequestRepr {
            name: r.name.as_str().into(),
            method: r.spec.method.as_str().into(),
            path: r.spec.path.as_str().into(),
            query: r.spec.query.as_str().into(),
            content_type: r.spec.content_type.as_str().into(),
            auth_algo: r.spec.auth_algo.as_str().into(),
            body: r.body_file.is_none().then(|| r.spec.body_text()),
            body_file: r.body_file.as_deref().map(Cow::Borrowed),
            header_prefix: (r.spec.header_prefix != prefix)
                .then_some(r.spec.header_prefix.as_str().into()),
            api_key: (r.spec.api_key != key).then_some(r.spec.api_key.as_str().into()),
            form: (r.form != SigningForm::Standard).then_some(r.form.name().into()),
        })
        .collect();
    let file = FileV3 {
        schema_version: SCHEMA_VERSION,
        indexing_url: p.indexing_url.as_str().into(),
        analytics_url: p.analytics_url.as_str().into(),
        header_prefix: prefix.into(),
        api_key: key.into(),
        rest_key: KeyRepr::from(&p.rest_key),
        forward_indexing: p.forward_indexing.as_deref().map(Cow::Borrowed),
        forward_analytics: p.forward_analytics.as_deref().map(Cow::Borrowed),
        events: p.events.as_deref().map(Cow::Borrowed),
        requests,
    };
    let mut text = format!(
        "# signscope profile \"{}\" (edit freely; `signscope profile show {}` checks it)\n",
        p.name, p.name
    );
    // Strings, tables of strings and one integer: the TOML serializer has no error to report
    // for them, and an empty text would read back as an error rather than lose data silently.
    match toml::to_string(&file) {
        Ok(t) => text.push_str(&t),
        Err(e) => tracing::error!(error = %e, "a profile did not serialize to TOML"),
    }
    text
}

/// The text to write for `p` over a file that now holds `old`: the values of [`to_toml`], with
/// the comments and layout of `old` kept wherever its keys stay, also when a value changes (a
/// request's keys are matched by the request's name). Falls back to [`to_toml`] when `old` is
/// not a profile file of the current version or the merge would not read back as `p`.
pub fn to_toml_over(p: &Profile, old: &str) -> String {
    let fresh = to_toml(p);
    let (Ok(mut doc), Ok(new)) = (
        old.parse::<toml_edit::DocumentMut>(),
        fresh.parse::<toml_edit::DocumentMut>(),
    ) else {
        return fresh;
    };
    if doc.get("schema_version").and_then(|v| v.as_integer()) != Some(i64::from(SCHEMA_VERSION)) {
        return fresh;
    }
    merge_table(doc.as_table_mut(), new.as_table());
    let text = doc.to_string();
    match from_toml(&p.name, Path::new(""), &text) {
        Ok(back) if back.file_view() == p.file_view() => text,
        _ => fresh,
    }
}

/// Put `new`'s values into `old`, keeping `old`'s comments and layout for every key that stays.
fn merge_table(old: &mut toml_edit::Table, new: &toml_edit::Table) {
    let gone: Vec<String> = old
        .iter()
        .map(|(k, _)| k.to_string())
        .filter(|k| !new.contains_key(k))
        .collect();
    for k in gone {
        old.remove(&k);
    }
    for (k, item) in new.iter() {
        match (old.get_mut(k), item) {
            (Some(toml_edit::Item::ArrayOfTables(o)), toml_edit::Item::ArrayOfTables(n)) => {
                merge_named_tables(o, n);
                continue;
            }
            (Some(toml_edit::Item::Table(o)), toml_edit::Item::Table(n)) => {
                merge_table(o, n);
                continue;
            }
            _ => {}
        }
        let same = match (old.get(k), item) {
            (Some(toml_edit::Item::Value(a)), toml_edit::Item::Value(b)) => {
                a.clone().decorated("", "").to_string() == b.clone().decorated("", "").to_string()
            }
            (Some(a), b) => a.to_string() == b.to_string(),
            (None, _) => false,
        };
        if same {
            continue;
        }
        match old.get_mut(k) {
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
                old.insert(k, item.clone());
            }
        }
    }
}

/// `[[requests]]` in `new`'s order, each merged into the old table of the same `name` (so its
/// comments stay); a request without an old table is written fresh.
fn merge_named_tables(old: &mut toml_edit::ArrayOfTables, new: &toml_edit::ArrayOfTables) {
    let name = |t: &toml_edit::Table| t.get("name").and_then(|v| v.as_str()).map(str::to_string);
    // Every table of the array at the position of the first: the document prints tables by
    // position, then in array order.
    let position = old.iter().filter_map(|t| t.position()).min();
    let mut olds: Vec<Option<toml_edit::Table>> = old.iter().cloned().map(Some).collect();
    let mut out = toml_edit::ArrayOfTables::new();
    for n in new.iter() {
        let wanted = name(n);
        let found = olds
            .iter_mut()
            .find(|o| wanted.is_some() && o.as_ref().and_then(name) == wanted)
            .and_then(Option::take);
        let mut t = match found {
            Some(mut o) => {
                merge_table(&mut o, n);
                o
            }
            None => n.clone(),
        };
        t.set_position(position);
        out.push(t);
    }
    *old = out;
}

/// Parse a profile file's text. Errors carry line and column. Bodies kept in body files are
/// left empty here (the store reads them: [`crate::store::ProfileStore::load`]).
pub fn from_toml(name: &str, path: &Path, text: &str) -> Result<Profile, ParseError> {
    let located = |e: toml::de::Error| ParseError::from_toml(path, text, &e);
    let found = toml::from_str::<VersionOnly>(text).map_err(located)?;
    let version = found.schema_version.unwrap_or(SCHEMA_VERSION);
    let whole = |message: String| ParseError {
        path: path.to_path_buf(),
        line: 0,
        column: 0,
        message,
    };
    let p = match version {
        1 | 2 => {
            return Err(whole(format!(
                "schema_version {version} is from a build before signscope's first release and is no longer read; move the file away and make the profile again with `signscope profile new {name}`"
            )))
        }
        SCHEMA_VERSION => {
            let f: FileV3 = toml::from_str(text).map_err(located)?;
            let mut requests = Vec::with_capacity(f.requests.len());
            for r in f.requests {
                if r.body.is_some() && r.body_file.is_some() {
                    return Err(whole(format!(
                        "request \"{}\" has both `body` and `body_file`; keep one",
                        r.name
                    )));
                }
                let spec = RequestSpec {
                    method: r.method.into_owned(),
                    path: r.path.into_owned(),
                    query: r.query.into_owned(),
                    header_prefix: r.header_prefix.unwrap_or_else(|| f.header_prefix.clone()).into_owned(),
                    api_key: r.api_key.unwrap_or_else(|| f.api_key.clone()).into_owned(),
                    content_type: r.content_type.into_owned(),
                    auth_algo: r.auth_algo.into_owned(),
                    body: r.body.map(|b| Bytes::from(b.into_owned())).unwrap_or_default(),
                };
                let form = match r.form.as_deref() {
                    None => SigningForm::Standard,
                    Some(f) => f.parse::<SigningForm>().map_err(|e| {
                        whole(format!("request \"{}\": `form`: {e}", r.name))
                    })?,
                };
                requests.push(SavedRequest {
                    name: r.name.into_owned(),
                    spec,
                    body_file: r.body_file.map(Cow::into_owned),
                    form,
                });
            }
            let none = requests.is_empty();
            let mut p = Profile::with_requests(name, requests)
                .map_err(|e| whole(format!("in [[requests]]: {e}")))?;
            if none {
                // No `[[requests]]` table: one default request with the account's values.
                p.set_header_prefix(&f.header_prefix);
                p.set_api_key(&f.api_key);
            }
            p.indexing_url = f.indexing_url.into_owned();
            p.analytics_url = f.analytics_url.into_owned();
            p.rest_key = f.rest_key.into();
            p.forward_indexing = f.forward_indexing.map(Cow::into_owned);
            p.forward_analytics = f.forward_analytics.map(Cow::into_owned);
            p.events = f.events.map(Cow::into_owned);
            p
        }
        other => {
            return Err(whole(format!(
                "schema_version {other} is newer than this signscope understands ({SCHEMA_VERSION}); upgrade signscope"
            )))
        }
    };
    Ok(p)
}

#[cfg(test)]
mod forward_tests {
    use super::*;

    #[test]
    fn forwarding_urls_are_kept_when_set_and_absent_otherwise() {
        let mut p = Profile::new("shop");
        p.indexing_url = "embedded".into();
        p.analytics_url = "embedded".into();
        let plain = to_toml(&p);
        assert!(!plain.contains("forward_"), "{plain}");
        p.forward_indexing = Some("https://indexing.example.com".into());
        p.forward_analytics = Some("https://stats.example.com".into());
        let text = to_toml(&p);
        assert!(
            text.contains("forward_indexing = \"https://indexing.example.com\""),
            "{text}"
        );
        let back = from_toml("shop", Path::new("shop.toml"), &text).unwrap();
        assert_eq!(
            back.forward_indexing.as_deref(),
            Some("https://indexing.example.com")
        );
        assert_eq!(
            back.forward_analytics.as_deref(),
            Some("https://stats.example.com")
        );
        // Written over a file without them (comments kept), they are added.
        let over = to_toml_over(&p, &format!("# mine\n{plain}"));
        assert!(over.contains("# mine"), "{over}");
        let back = from_toml("shop", Path::new("shop.toml"), &over).unwrap();
        assert_eq!(
            back.forward_analytics.as_deref(),
            Some("https://stats.example.com")
        );
        // And removed again when unset.
        p.forward_analytics = None;
        let over = to_toml_over(&p, &text);
        let back = from_toml("shop", Path::new("shop.toml"), &over).unwrap();
        assert_eq!(back.forward_analytics, None);
    }
}

#[cfg(test)]
mod form_tests {
    use super::*;

    #[test]
    fn a_request_form_is_written_only_when_not_standard_and_reads_back() {
        let mut p = Profile::new("shop");
        let plain = to_toml(&p);
        assert!(!plain.contains("form"), "{plain}");
        p.selected_request_mut().form = SigningForm::PhpSdk;
        let text = to_toml(&p);
        assert!(text.contains("form = \"php-sdk\""), "{text}");
        let back = from_toml("shop", Path::new("shop.toml"), &text).unwrap();
        assert_eq!(back.requests()[0].form, SigningForm::PhpSdk);
        // Saved over the plain file (its layout kept), the form is added.
        let over = to_toml_over(&p, &plain);
        let back = from_toml("shop", Path::new("shop.toml"), &over).unwrap();
        assert_eq!(back.requests()[0].form, SigningForm::PhpSdk);
        // An unknown form is one sentence naming the request and the field.
        let bad = text.replace("php-sdk", "php");
        let e = from_toml("shop", Path::new("shop.toml"), &bad).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("request \"default\": `form`: unknown signing form \"php\""),
            "{msg}"
        );
    }
}
