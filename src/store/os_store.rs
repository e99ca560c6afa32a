//! The operating system's key store, the `keyring:SERVICE/ACCOUNT` reference
//! (`docs/profiles.md`, "Where the REST key comes from"): the Secret Service on Linux, the
//! Keychain on macOS, the Credential Manager on Windows, through the `keyring` crate (one backend
//! compiled per target, see Cargo.toml).
//!
//! A key read or written here is a [`Secret`]; an error names the entry and the fix, never the
//! key.

use crate::core::Secret;

/// The service name `signscope key set PROFILE` files a profile's key under (the account is the
/// profile's name).
pub const DEFAULT_SERVICE: &str = "signscope";

/// Why the OS store could not be used. Each reads as one sentence and never contains the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreFailure {
    #[error(
        "no operating-system key store is reachable for keyring:{service}/{account} ({reason}); \
         on a Linux without a desktop start a Secret Service (gnome-keyring-daemon under \
         dbus-run-session), or give the key as env:NAME, file:PATH or cmd:COMMAND"
    )]
    Unavailable {
        service: String,
        account: String,
        reason: String,
    },
    #[error(
        "the operating-system key store has no entry keyring:{service}/{account}; store one with \
         `signscope key set PROFILE` (or your store's own tool)"
    )]
    NoEntry { service: String, account: String },
    #[error(
        "the entry keyring:{service}/{account} in the operating-system key store is not text \
         signscope can use as a REST key; store it again with `signscope key set PROFILE`"
    )]
    BadEntry { service: String, account: String },
    #[error(
        "keyring:{service}/{account} is not a name the operating-system key store accepts \
         ({reason}); give a shorter service and account"
    )]
    BadName {
        service: String,
        account: String,
        reason: String,
    },
}

fn entry(service: &str, account: &str) -> Result<keyring::Entry, StoreFailure> {
    keyring::Entry::new(service, account).map_err(|e| failure(service, account, e))
}

fn failure(service: &str, account: &str, e: keyring::Error) -> StoreFailure {
    let (service, account) = (service.to_string(), account.to_string());
    match e {
        keyring::Error::NoEntry => StoreFailure::NoEntry { service, account },
        keyring::Error::BadEncoding(_) => StoreFailure::BadEntry { service, account },
        keyring::Error::TooLong(name, limit) => StoreFailure::BadName {
            service,
            account,
            reason: format!("the {name} is longer than {limit}"),
        },
        keyring::Error::Invalid(name, why) => StoreFailure::BadName {
            service,
            account,
            reason: format!("the {name} {why}"),
        },
        // NoStorageAccess, PlatformFailure, Ambiguous and what a later version adds: the store
        // itself could not be used. Its own words are kept short and carry no secret.
        other => StoreFailure::Unavailable {
            service,
            account,
            reason: short_reason(&other),
        },
    }
}

fn short_reason(e: &keyring::Error) -> String {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("").trim();
    let mut out: String = first.chars().take(160).collect();
    if out.len() < first.len() {
        out.push_str("...");
    }
    if out.is_empty() {
        out = "the platform store failed".to_string();
    }
    out
}

/// Read the key filed under `service`/`account`.
pub fn read(service: &str, account: &str) -> Result<Secret, StoreFailure> {
    let value = entry(service, account)?
        .get_password()
        .map_err(|e| failure(service, account, e))?;
    Ok(Secret::from_read_text(value))
}

/// File `key` under `service`/`account`, replacing what was there.
pub fn write(service: &str, account: &str, key: &Secret) -> Result<(), StoreFailure> {
    entry(service, account)?
        .set_password(key.expose())
        .map_err(|e| failure(service, account, e))
}

/// Remove the entry `service`/`account`.
pub fn delete(service: &str, account: &str) -> Result<(), StoreFailure> {
    entry(service, account)?
        .delete_credential()
        .map_err(|e| failure(service, account, e))
}
