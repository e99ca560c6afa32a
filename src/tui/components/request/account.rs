//! The profile in use saved from the profile manager: the request view's account fields follow
//! the file without losing what the user typed.

use super::message::{AccountChange, RequestEffect};
use super::state::RequestState;
use crate::tui::component::KeyRead;

/// The profile in use was saved from the profile manager with other account values. A field
/// still showing the value before that save takes the saved one; a field the user edited keeps
/// what was typed (nothing typed is lost) and the status line names it. The unsaved state is
/// left as it was: the file now has the new values.
/// Returns the key read to start when the key source changed (the caller signs again).
pub(super) fn on_account_saved(req: &mut RequestState, c: AccountChange) -> Option<RequestEffect> {
    let mut kept = Vec::new();
    for (label, field, (before, after)) in [
        ("URL", &mut req.url, c.url),
        ("prefix", &mut req.prefix, c.prefix),
        ("API key", &mut req.api_key, c.api_key),
    ] {
        if before == after || field.text() == after {
            continue;
        }
        if field.text() == before {
            field.set(after);
        } else {
            kept.push(label);
        }
    }
    let mut effect = None;
    if let Some(source) = c.key_source {
        let id = req.next_id();
        super::key_read::started(req, &c.name, id, &source.describe());
        effect = Some(RequestEffect::ResolveKey(KeyRead { id, source }));
    }
    let mut status = if kept.is_empty() {
        format!("the request view follows the saved profile {}", c.name)
    } else {
        format!(
            "the request view follows the saved profile {}, but keeps your edited {} (Ctrl-S saves it over the editor's value)",
            c.name,
            kept.join(", ")
        )
    };
    if effect.is_some() {
        status.push_str("; reading the new REST key… Esc cancels");
    }
    req.status = status;
    effect
}
