//! Reading a REST key for a CLI command: always by reference, never from a plain argument (it
//! would leak into shell history and `ps`).
//!
//! Every command that takes a key takes the same flags, [`RestKeyArgs`]: `--rest-key REF`
//! (`env:NAME`, `file:PATH`, `cmd:COMMAND`, `keyring:SERVICE/ACCOUNT`; `docs/profiles.md`,
//! "Where the REST key comes from"), with `--rest-key-env VAR`, `--rest-key-file FILE` and
//! `--rest-key-command CMD` as older spellings of the same references. They are parsed by the
//! store's one parser ([`KeySource`]'s `FromStr`) and read by its one resolver
//! ([`KeySource::resolve`]), so the rules and the sentences are those of a profile's key (one
//! trailing newline dropped, an empty key refused, the reference named, never the key).

use std::path::PathBuf;

use anyhow::anyhow;

pub use crate::codegen::valid_env_name;
use crate::core::Secret;
use crate::store::KeySource;

/// The REST key flags every command that takes a key shares (at most one of them).
#[derive(Debug, Clone, Default, clap::Args)]
#[group(id = "rest_key_ref", multiple = false)]
pub struct RestKeyArgs {
    /// The REST key by reference: env:NAME, file:PATH, cmd:COMMAND (run without a shell;
    /// `cmd:sh -c '...'` asks for one) or keyring:SERVICE/ACCOUNT (the operating system's key
    /// store). Never the key itself.
    #[arg(long, value_name = "REF")]
    pub rest_key: Option<String>,
    /// Read the REST key from this environment variable (as --rest-key env:VAR).
    #[arg(long, value_name = "VAR")]
    pub rest_key_env: Option<String>,
    /// Read the REST key from this file, one trailing newline ignored (as --rest-key file:FILE).
    #[arg(long, value_name = "FILE")]
    pub rest_key_file: Option<PathBuf>,
    /// Run this command (no shell; split into words, quotes group words) and use its output as
    /// the REST key, e.g. "pass show shop/rest-key" (as --rest-key cmd:CMD).
    #[arg(long, value_name = "CMD")]
    pub rest_key_command: Option<String>,
}

impl RestKeyArgs {
    /// Whether any of the flags was given.
    pub fn given(&self) -> bool {
        self.rest_key.is_some()
            || self.rest_key_env.is_some()
            || self.rest_key_file.is_some()
            || self.rest_key_command.is_some()
    }

    /// The reference the flags give, if any, parsed by the store's one parser. The error names
    /// the flag and the forms, never the text given (it may be a pasted key).
    pub fn source(&self) -> anyhow::Result<Option<KeySource>> {
        Ok(self.source_and_flag()?.map(|(s, _)| s))
    }

    fn source_and_flag(&self) -> anyhow::Result<Option<(KeySource, &'static str)>> {
        let (text, flag) = if let Some(r) = &self.rest_key {
            (r.clone(), "--rest-key")
        } else if let Some(v) = &self.rest_key_env {
            (format!("env:{v}"), "--rest-key-env")
        } else if let Some(f) = &self.rest_key_file {
            (format!("file:{}", f.display()), "--rest-key-file")
        } else if let Some(c) = &self.rest_key_command {
            (format!("cmd:{c}"), "--rest-key-command")
        } else {
            return Ok(None);
        };
        text.parse::<KeySource>()
            .map(|s| Some((s, flag)))
            .map_err(|e| anyhow!("{flag}: {e}"))
    }

    /// The REST key the flags name, read now; `None` when no flag was given. The error is the
    /// resolver's sentence with the flag named after it.
    pub fn resolve(&self) -> anyhow::Result<Option<Secret>> {
        self.source_and_flag()?
            .map(|(s, flag)| s.resolve().map_err(|e| anyhow!("{e} ({flag})")))
            .transpose()
    }

    /// The REST key the flags name, read now; without a flag, the sentence that says to give
    /// one.
    pub fn require(&self) -> anyhow::Result<Secret> {
        self.resolve()?.ok_or_else(|| {
            anyhow!("give the REST key with --rest-key REF (env:NAME, file:PATH, cmd:COMMAND or keyring:SERVICE/ACCOUNT)")
        })
    }

    /// The environment variable the key is read from, when it is one (a generated program reads
    /// the key from the same variable).
    pub fn env_var(&self) -> Option<String> {
        match self.source() {
            Ok(Some(KeySource::Env(v))) => Some(v),
            _ => None,
        }
    }
}

/// Read a key reference: the store's one resolver, its error as the sentence shown.
pub fn resolve(source: &KeySource) -> anyhow::Result<Secret> {
    source.resolve().map_err(|e| anyhow!("{e}"))
}

/// The key part of `API_KEY=KEY` flags (`serve --account`, `check --key`): a reference
/// (`env:NAME`, `file:PATH`, `cmd:COMMAND`, `keyring:SERVICE/ACCOUNT`) or, as before references,
/// the bare name of an environment variable. Anything else is refused without being repeated
/// (where a name belongs, a pasted key is common).
pub fn account_key_source(flag: &str, api_key: &str, text: &str) -> anyhow::Result<KeySource> {
    if valid_env_name(text) {
        return Ok(KeySource::Env(text.to_string()));
    }
    let looks_like_reference = text
        .split_once(':')
        .is_some_and(|(kind, _)| ["env", "file", "cmd", "keyring"].contains(&kind));
    if !looks_like_reference {
        return Err(anyhow!(
            "{flag} {api_key:?}=… must name the REST key by reference after the '=' (env:NAME, file:PATH, cmd:COMMAND, keyring:SERVICE/ACCOUNT or an environment variable's name), not hold the key itself (the value is not shown); e.g. export ACME_REST_KEY and pass {flag} {api_key}=env:ACME_REST_KEY"
        ));
    }
    text.parse::<KeySource>()
        .map_err(|e| anyhow!("{flag} {api_key:?}=…: {e}"))
}

/// A saved profile's public API key and its REST key, resolved as the profile says
/// (`verify --profile`, `check --profile`, as `sign`/`send` take it). The error names the
/// profile and the fix, never the key.
pub fn profile_keys(name: &str) -> anyhow::Result<(String, Secret)> {
    let store = crate::store::ProfileStore::open(&crate::store::Paths::discover()?);
    let p = store.load(name)?;
    let secret = p
        .rest_key
        .resolve()
        .map_err(|e| anyhow::anyhow!("profile \"{}\": {e}", p.name))?;
    Ok((p.api_key().to_string(), secret))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, clap::Parser)]
    struct Cli {
        #[command(flatten)]
        key: RestKeyArgs,
    }

    fn parse(args: &[&str]) -> Result<RestKeyArgs, clap::Error> {
        Cli::try_parse_from(std::iter::once("t").chain(args.iter().copied())).map(|c| c.key)
    }

    #[test]
    fn every_spelling_is_the_same_reference() {
        for (args, expected) in [
            (
                &["--rest-key", "env:SHOP_KEY"][..],
                KeySource::Env("SHOP_KEY".into()),
            ),
            (
                &["--rest-key-env", "SHOP_KEY"],
                KeySource::Env("SHOP_KEY".into()),
            ),
            (
                &["--rest-key-file", "/run/k"],
                KeySource::File("/run/k".into()),
            ),
            (
                &["--rest-key", "file:/run/k"],
                KeySource::File("/run/k".into()),
            ),
            (
                &["--rest-key-command", "pass show 'shop key'"],
                KeySource::Command(vec!["pass".into(), "show".into(), "shop key".into()]),
            ),
            (
                &["--rest-key", "keyring:signscope/shop"],
                KeySource::Keyring {
                    service: "signscope".into(),
                    account: "shop".into(),
                },
            ),
        ] {
            let got = parse(args).unwrap().source().unwrap();
            assert_eq!(got, Some(expected), "{args:?}");
        }
        assert_eq!(parse(&[]).unwrap().source().unwrap(), None);
    }

    #[test]
    fn two_spellings_at_once_are_refused_and_a_pasted_key_is_not_repeated() {
        assert!(parse(&["--rest-key", "env:A", "--rest-key-env", "B"]).is_err());
        let e = parse(&["--rest-key", "sk-live-pasted-key"])
            .unwrap()
            .source()
            .unwrap_err();
        let text = format!("{e:#}");
        assert!(
            text.starts_with("--rest-key: ") && !text.contains("sk-live"),
            "{text}"
        );
    }

    #[test]
    fn an_account_key_is_a_reference_or_a_variable_name() {
        assert_eq!(
            account_key_source("--account", "acme", "ACME_KEY").unwrap(),
            KeySource::Env("ACME_KEY".into())
        );
        assert_eq!(
            account_key_source("--account", "acme", "file:/k").unwrap(),
            KeySource::File("/k".into())
        );
        for pasted in ["k3y+/Pasted==", "9pasted", "vault:Pasted"] {
            let e = account_key_source("--account", "acme", pasted).unwrap_err();
            let text = format!("{e:#}");
            assert!(!text.contains("asted"), "{text}");
            assert!(text.contains("env:NAME"), "{text}");
        }
    }
}
