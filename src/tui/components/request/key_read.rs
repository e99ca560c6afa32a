//! Reading the profile's REST key without freezing the workbench. A key source can take long (a
//! command such as `pass` or `op` waiting for a PIN, a file on a slow mount), so the runtime
//! reads it off the UI thread: until it answers, the field says "resolving the REST key…",
//! sending waits, and Esc stops it. A command is stopped after
//! [`crate::tui::KEY_COMMAND_TIMEOUT`] and named in the error.

use super::state::KeyLabel;
use super::state::{RequestState, RESOLVING};
use crate::core::Secret;

/// The profile's key is being read from `source` (its description) as job `id`.
pub fn started(req: &mut RequestState, profile: &str, id: u64, source: &str) {
    req.key_resolving = Some(id);
    req.profile_key.source = source.to_string();
    req.profile_key.error = None;
    req.key_error = None;
    if !req.key_typed() {
        req.key_info.source = RESOLVING.into();
    }
    req.status =
        format!("profile {profile} loaded; resolving the REST key ({source})… Esc cancels");
}

/// The answer of job `id`: the key, or one sentence saying why there is none. An answer for
/// another job (a profile left since, a cancelled read) is dropped. True when the key in use
/// changed (the caller signs again).
pub fn finished(
    req: &mut RequestState,
    profile: &str,
    id: u64,
    result: Result<Secret, String>,
) -> bool {
    if req.key_resolving != Some(id) {
        return false;
    }
    req.key_resolving = None;
    let source = req.profile_key.source.clone();
    let (secret, error) = match result {
        Ok(k) => (k, None),
        Err(why) => (Secret::new(""), Some(why)),
    };
    req.profile_key.secret = secret.clone();
    req.profile_key.error = error.clone();
    req.status = match &error {
        None => format!("REST key read ({source})"),
        // As the CLI would say it: the key source that failed and why.
        Some(why) => format!("profile {profile} loaded, without its REST key: {why}"),
    };
    // A key typed meanwhile stays: the user's choice wins over the source's answer.
    if req.key_typed() {
        return false;
    }
    req.rest_key.set(secret.expose());
    req.key_info = KeyLabel {
        source,
        revealed: req.key_info.revealed,
    };
    req.key_error = error;
    true
}

/// Esc while the key is being read: stop it (the job to cancel), and say how to go on.
pub fn cancel(req: &mut RequestState) -> Option<u64> {
    let id = req.key_resolving.take()?;
    let why = format!(
        "reading the REST key ({}) was cancelled",
        req.profile_key.source
    );
    req.profile_key.error = Some(why.clone());
    if !req.key_typed() {
        req.key_info.source = req.profile_key.source.clone();
        req.key_error = Some(why.clone());
    }
    req.status = format!(
        "{why}; type a key in the REST key field, or {} to open the profile again",
        super::keys::KEYS.label_of(super::keys::Action::SwitchProfile)
    );
    Some(id)
}
