//! Reading a REST key for a CLI command: from an environment variable or a file, never from a
//! plain argument (it would leak into shell history and `ps`).
//!
//! The two-flag form `--rest-key-env VAR | --rest-key-file FILE` that `sign` and `verify` share,
//! read through [`KeySource`] like a profile's key, so the rules and the sentences are the same
//! (one trailing newline dropped, an empty key refused, the variable or file named, never the
//! key); the flag is named after the sentence.

use std::path::Path;

use anyhow::bail;

use crate::core::Secret;
use crate::store::KeySource;

/// The REST key from `--rest-key-env VAR` or `--rest-key-file FILE` (exactly one must be given).
/// One trailing LF or CRLF is removed (`docs/signing.md` rule S10); an empty key is refused.
pub fn rest_key_from_env_or_file(env: Option<&str>, file: Option<&Path>) -> anyhow::Result<Secret> {
    let (source, flag) = match (env, file) {
        (Some(var), None) => (KeySource::Env(var.to_string()), "--rest-key-env"),
        (None, Some(path)) => (KeySource::File(path.to_path_buf()), "--rest-key-file"),
        (Some(_), Some(_)) => bail!("give either --rest-key-env or --rest-key-file, not both"),
        (None, None) => bail!("give the REST key with --rest-key-env VAR or --rest-key-file FILE"),
    };
    source
        .resolve()
        .map_err(|e| anyhow::anyhow!("{e} ({flag})"))
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
