//! Reading a REST key for a CLI command: from an environment variable or a file, never from a
//! plain argument (it would leak into shell history and `ps`).
//!
//! Small on purpose: `store::KeySource::resolve` is the general mechanism (profiles, commands,
//! stored keys); this is the two-flag form `--rest-key-env VAR | --rest-key-file FILE` that
//! `sign` and `verify` share. Errors are one sentence naming the variable or file, never the key.

use std::path::Path;

use anyhow::{bail, Context};

use crate::core::Secret;

/// The REST key from `--rest-key-env VAR` or `--rest-key-file FILE` (exactly one must be given).
/// One trailing LF or CRLF is removed (decisions.md rule 8); an empty key is refused.
pub fn rest_key_from_env_or_file(env: Option<&str>, file: Option<&Path>) -> anyhow::Result<Secret> {
    let (secret, source) = match (env, file) {
        (Some(var), None) => {
            let value = match std::env::var(var) {
                Ok(v) => v,
                Err(std::env::VarError::NotPresent) => {
                    bail!("the environment variable {var} (--rest-key-env) is not set")
                }
                Err(std::env::VarError::NotUnicode(_)) => {
                    bail!("the environment variable {var} (--rest-key-env) is not valid UTF-8")
                }
            };
            (
                Secret::from_read_text(value),
                format!("the environment variable {var}"),
            )
        }
        (None, Some(path)) => {
            let bytes = std::fs::read(path)
                .with_context(|| format!("cannot read the REST key file {}", path.display()))?;
            let text = String::from_utf8(bytes).map_err(|_| {
                anyhow::anyhow!(
                    "the REST key file {} is not valid UTF-8 text",
                    path.display()
                )
            })?;
            (
                Secret::from_read_text(text),
                format!("the file {}", path.display()),
            )
        }
        (Some(_), Some(_)) => bail!("give either --rest-key-env or --rest-key-file, not both"),
        (None, None) => bail!("give the REST key with --rest-key-env VAR or --rest-key-file FILE"),
    };
    if secret.is_empty() {
        bail!("the REST key in {source} is empty");
    }
    // Where from, never the value.
    tracing::debug!(
        source = if env.is_some() { "env" } else { "file" },
        "REST key read"
    );
    Ok(secret)
}
