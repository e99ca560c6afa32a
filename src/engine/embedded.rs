//! The in-process local server's configuration for a profile.

use crate::server::ServerConfig;
use crate::store::Profile;

/// The in-process server's configuration for a profile: the demo account, forwarding to the
/// profile's `forward_indexing` / `forward_analytics` URLs (`docs/server.md`, "Forwarding"). A
/// URL that cannot be used is left out, and the note says why.
pub fn embedded_config(p: &Profile) -> (ServerConfig, Option<String>) {
    let mut config = ServerConfig::demo();
    // Another profile opened later may forward elsewhere (`docs/server.md` rule W10).
    config.forward_switchable = true;
    let mut notes = Vec::new();
    let mut take = |field: &str, url: &Option<String>| -> Option<String> {
        let url = url.as_deref().map(str::trim).filter(|u| !u.is_empty())?;
        match crate::server::forward::check_url(url) {
            Ok(_) => Some(url.to_string()),
            Err(why) => {
                notes.push(format!("profile {}: {field} {why}; not forwarding", p.name));
                None
            }
        }
    };
    config.forward_indexing = take("forward_indexing", &p.forward_indexing);
    config.forward_analytics = take("forward_analytics", &p.forward_analytics);
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    (config, note)
}
