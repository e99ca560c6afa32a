//! A profile's named requests on the command line: `signscope profile request list | add |
//! duplicate | rename | move | delete`, and what `sign --profile P --request NAME` takes from
//! a saved request (`docs/profiles.md`).

use anyhow::{anyhow, Context};

use crate::core::spec::RequestSpec;
use crate::core::{Secret, AUTH_ALGO, CONTENT_TYPE_JSON, DEFAULT_HEADER_PREFIX};
use crate::store::profile::body_file_path;
use crate::store::{suite_export, KeySource, Paths, Profile, ProfileStore, EMBEDDED_URL};

use super::request_flags::RequestFlags;
use super::sign_args::{BodySource, SignArgs, DEFAULT_BASE_URL};

#[derive(Debug, clap::Args)]
pub struct RequestArgs {
    #[command(subcommand)]
    pub command: RequestCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum RequestCommand {
    /// List a profile's requests in order (`*` marks the first, which `send` uses by default).
    List { profile: String },
    /// Add a request at the end of a profile's list.
    Add(AddArgs),
    /// Copy a request under a new name, right after it.
    Duplicate {
        profile: String,
        from: String,
        to: String,
    },
    /// Rename a request.
    Rename {
        profile: String,
        from: String,
        to: String,
    },
    /// Move a request to a position in the list (1 is the first).
    Move {
        profile: String,
        name: String,
        position: usize,
    },
    /// Delete a request (a profile keeps at least one).
    Delete { profile: String, name: String },
    /// Write a request as a suite entry for `signscope test`, with the answer of its latest
    /// send as the expectation (`docs/test.md`). The REST key is written as a reference only.
    Export(ExportArgs),
}

#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    pub profile: String,
    pub name: String,
    /// Add the entry to this suite file (created with the account section when it does not
    /// exist); without FILE, or `-`, the whole suite goes to stdout.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-", required = true)]
    pub suite: Option<std::path::PathBuf>,
}

#[derive(Debug, clap::Args)]
#[command(mut_arg("body_file", |a| a.help(
    "Keep the body in this file: the profile names the file (made absolute), and sends read it"
)))]
#[command(mut_arg("body", |a| a.help("The body text, stored in the profile file")))]
pub struct AddArgs {
    pub profile: String,
    pub name: String,
    /// Start from this request of the profile instead of the defaults (PUT /v2/batch, body []).
    #[arg(long, value_name = "REQUEST")]
    pub from: Option<String>,
    /// Method, path, query and body (each one left out is the base request's).
    #[command(flatten)]
    pub request_flags: RequestFlags,
    #[arg(long, value_name = "CT")]
    pub content_type: Option<String>,
}

pub fn run(store: &ProfileStore, args: RequestArgs) -> anyhow::Result<u8> {
    match args.command {
        RequestCommand::List { profile } => {
            let p = store.load(&profile)?;
            print!("{}", list_text(&p));
            Ok(0)
        }
        RequestCommand::Add(a) => {
            let mut p = store.load(&a.profile)?;
            let base = match &a.from {
                Some(from) => p
                    .find_request(from)
                    .map(|r| r.spec.clone())
                    .ok_or_else(|| unknown(&p, from))?,
                None => RequestSpec::default(),
            };
            let flags = a.request_flags;
            let spec = RequestSpec {
                method: flags.method.clone().unwrap_or(base.method),
                path: flags.path.clone().unwrap_or(base.path),
                query: flags.query().unwrap_or(base.query),
                content_type: a.content_type.unwrap_or(base.content_type),
                body: match &flags.body {
                    Some(text) => text.clone().into_bytes().into(),
                    None => base.body,
                },
                ..base
            };
            let i = p.add_request(&a.name, spec)?;
            if let Some(f) = flags.body_file {
                let abs = std::path::absolute(&f)
                    .with_context(|| format!("cannot resolve the body file {}", f.display()))?;
                let body = std::fs::read(&abs)
                    .with_context(|| format!("cannot read the body file {}", abs.display()))?;
                p.select_index(i);
                p.request_mut().body = body.into();
                p.selected_request_mut().body_file = Some(abs);
            }
            save(store, &p, &format!("added request \"{}\"", a.name))
        }
        RequestCommand::Duplicate { profile, from, to } => {
            let mut p = store.load(&profile)?;
            p.duplicate_request(&from, &to)?;
            save(store, &p, &format!("copied request \"{from}\" as \"{to}\""))
        }
        RequestCommand::Rename { profile, from, to } => {
            let mut p = store.load(&profile)?;
            p.rename_request(&from, &to)?;
            save(
                store,
                &p,
                &format!("renamed request \"{from}\" to \"{to}\""),
            )
        }
        RequestCommand::Move {
            profile,
            name,
            position,
        } => {
            if position == 0 {
                return Err(anyhow!("the position counts from 1 (the first request)"));
            }
            let mut p = store.load(&profile)?;
            let at = p.move_request(&name, position - 1)?;
            save(
                store,
                &p,
                &format!("moved request \"{name}\" to position {}", at + 1),
            )
        }
        RequestCommand::Delete { profile, name } => {
            let mut p = store.load(&profile)?;
            p.delete_request(&name)?;
            save(store, &p, &format!("deleted request \"{name}\""))
        }
        RequestCommand::Export(a) => {
            let p = store.load(&a.profile)?;
            let history = crate::store::History::open(&Paths::discover()?)
                .load(usize::MAX)
                .0;
            let request = suite_export::saved_request(&p, &a.name, &history)
                .ok_or_else(|| unknown(&p, &a.name))?;
            let file = a.suite.filter(|f| f.as_os_str() != "-");
            super::test::export_to_suite(&p, &request, file.as_deref())?;
            if request.answer.is_none() {
                eprintln!("\"{}\" has not been sent yet, so the entry expects nothing; send it (signscope send --profile {} --request \"{}\") and export it again", a.name, p.name, a.name);
            }
            Ok(0)
        }
    }
}

fn unknown(p: &Profile, name: &str) -> crate::store::StoreError {
    crate::store::StoreError::UnknownRequest {
        profile: p.name.clone(),
        name: name.to_string(),
        known: p.request_names().join(", "),
    }
}

fn save(store: &ProfileStore, p: &Profile, what: &str) -> anyhow::Result<u8> {
    let outcome = store.save(p)?;
    println!(
        "{what} in profile \"{}\" ({})",
        p.name,
        outcome.path.display()
    );
    Ok(0)
}

/// One line per request: position, name, method, path and query, body size or body file.
pub fn list_text(p: &Profile) -> String {
    let width = p
        .requests()
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for (i, r) in p.requests().iter().enumerate() {
        let mark = if i == 0 { '*' } else { ' ' };
        let body = match &r.body_file {
            Some(f) => format!("body file {}", f.display()),
            None => format!("{} bytes", r.spec.body.len()),
        };
        out.push_str(&format!(
            "{mark} {:>2}. {:<width$}  {} {}  ({body})\n",
            i + 1,
            r.name,
            r.spec.method,
            crate::core::http_text::target(&r.spec.path, &r.spec.query),
        ));
    }
    out
}

/// What `sign` signs: the request, the REST key, the body, where a printed request goes and
/// the environment variable a generated program reads the key from.
pub(crate) struct SignInputs {
    /// Everything but the body (read from `body`).
    pub spec: RequestSpec,
    pub key: Secret,
    pub body: BodySource,
    pub indexing_url: String,
    pub rest_key_env: Option<String>,
}

/// `sign`'s inputs: the flags, over the profile's saved request when `--profile` is given.
pub(crate) fn sign_inputs(
    args: &SignArgs,
    given: Option<BodySource>,
) -> anyhow::Result<SignInputs> {
    let flags = &args.request_flags;
    let Some(name) = &args.profile else {
        let key = args.key.require()?;
        let need = |v: &Option<String>, flag: &str| {
            v.clone()
                .ok_or_else(|| anyhow!("give {flag} (or --profile NAME to sign a saved request)"))
        };
        let spec = RequestSpec {
            method: need(&flags.method, "--method")?,
            path: need(&flags.path, "--path")?,
            query: flags.query().unwrap_or_default(),
            header_prefix: or(&args.header_prefix, DEFAULT_HEADER_PREFIX),
            api_key: need(&args.api_key, "--api-key")?,
            content_type: or(&args.content_type, CONTENT_TYPE_JSON),
            auth_algo: or(&args.auth_algo, AUTH_ALGO),
            body: bytes::Bytes::new(),
        };
        let body = given.ok_or_else(|| {
            anyhow!("give the body with exactly one of --body-file FILE or --body TEXT")
        })?;
        return Ok(SignInputs {
            spec,
            key,
            body,
            indexing_url: or(&args.indexing_url, DEFAULT_BASE_URL),
            rest_key_env: args.key.env_var(),
        });
    };
    let store = ProfileStore::open(&Paths::discover()?);
    let mut p = store.load(name)?;
    if let Some(r) = &args.request {
        p.select_request(r)?;
    }
    let saved = p.selected_request().clone();
    if let Some(source) = args.key.source()? {
        p.rest_key = source;
    }
    let key = p
        .rest_key
        .resolve()
        .map_err(|e| anyhow!("profile \"{}\": {e}", p.name))?;
    let rest_key_env = match &p.rest_key {
        KeySource::Env(v) => Some(v.clone()),
        _ => None,
    };
    let s = saved.spec;
    let body = match (given, &saved.body_file) {
        (Some(b), _) => b,
        // A body kept in a file is named as that file (a printed curl command reads it).
        (None, Some(f)) => BodySource::File(body_file_path(&store.dir(), f)),
        (None, None) => BodySource::Saved(s.body.clone()),
    };
    let indexing_url = match &args.indexing_url {
        Some(u) => u.clone(),
        None if p.indexing_url.is_empty() || p.indexing_url == EMBEDDED_URL => {
            DEFAULT_BASE_URL.to_string()
        }
        None => p.indexing_url.clone(),
    };
    Ok(SignInputs {
        spec: RequestSpec {
            method: flags.method.clone().unwrap_or(s.method),
            path: flags.path.clone().unwrap_or(s.path),
            query: flags.query().unwrap_or(s.query),
            header_prefix: args.header_prefix.clone().unwrap_or(s.header_prefix),
            api_key: args.api_key.clone().unwrap_or(s.api_key),
            content_type: args.content_type.clone().unwrap_or(s.content_type),
            auth_algo: args.auth_algo.clone().unwrap_or(s.auth_algo),
            body: bytes::Bytes::new(),
        },
        key,
        body,
        indexing_url,
        rest_key_env,
    })
}

fn or(v: &Option<String>, default: &str) -> String {
    v.clone().unwrap_or_else(|| default.to_string())
}
