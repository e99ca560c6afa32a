//! A profile's named requests on the command line: `signscope profile request list | add |
//! duplicate | rename | move | delete` (`docs/profiles.md`). What `sign --profile P --request
//! NAME` takes from a saved request is in `sign.rs` (`sign_inputs`).

use std::path::PathBuf;

use anyhow::{anyhow, Context};

use crate::core::spec::RequestSpec;
use crate::store::{Profile, ProfileStore};

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
}

#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("body_source").multiple(false))]
pub struct AddArgs {
    pub profile: String,
    pub name: String,
    /// Start from this request of the profile instead of the defaults (PUT /v2/batch, body []).
    #[arg(long, value_name = "REQUEST")]
    pub from: Option<String>,
    #[arg(long, value_name = "M")]
    pub method: Option<String>,
    #[arg(long, value_name = "P")]
    pub path: Option<String>,
    /// Query string without the leading '?', kept exactly as given.
    #[arg(long, value_name = "Q")]
    pub query: Option<String>,
    #[arg(long, value_name = "CT")]
    pub content_type: Option<String>,
    /// The body text, stored in the profile file.
    #[arg(long, value_name = "TEXT", group = "body_source")]
    pub body: Option<String>,
    /// Keep the body in this file: the profile names the file (made absolute), and sends read it.
    #[arg(long, value_name = "FILE", group = "body_source")]
    pub body_file: Option<PathBuf>,
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
            let spec = RequestSpec {
                method: a.method.unwrap_or(base.method),
                path: a.path.unwrap_or(base.path),
                query: a.query.unwrap_or(base.query),
                content_type: a.content_type.unwrap_or(base.content_type),
                body: match &a.body {
                    Some(text) => text.clone().into_bytes().into(),
                    None => base.body,
                },
                ..base
            };
            let i = p.add_request(&a.name, spec)?;
            if let Some(f) = a.body_file {
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
        let q = if r.spec.query.is_empty() {
            String::new()
        } else {
            format!("?{}", r.spec.query)
        };
        let body = match &r.body_file {
            Some(f) => format!("body file {}", f.display()),
            None => format!("{} bytes", r.spec.body.len()),
        };
        out.push_str(&format!(
            "{mark} {:>2}. {:<width$}  {} {}{q}  ({body})\n",
            i + 1,
            r.name,
            r.spec.method,
            r.spec.path,
        ));
    }
    out
}
