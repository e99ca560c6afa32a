//! Signing the edited request: every change asks the signing worker for a new signature
//! (`docs/architecture.md`, "Lifecycle of a request"), the answer is kept unless a newer one is
//! shown, the live timestamp follows the clock, and the signing form and the timestamp's mode
//! switch here. Every pane, copy and the send read the signed request shown
//! (`state::signed_view`).

use super::message::RequestEffect;
use super::send::send;
use super::state::RequestState;
use crate::core::time::format_timestamp;
use crate::core::SigningForm;
use crate::tui::model::SignedView;
use crate::tui::signing::SignJob;

/// The clock moved: a live timestamp follows it (and the request is signed again).
pub(super) fn on_tick(
    req: &mut RequestState,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<RequestEffect> {
    req.now = now;
    if req.ts_live {
        let ts = format_timestamp(now);
        if ts != req.timestamp.text() {
            req.timestamp.set(ts);
            return resign(req);
        }
    }
    vec![]
}

/// A signing job finished. A send asked for while it was signing goes now, with this
/// signature.
pub(super) fn on_signed(
    req: &mut RequestState,
    id: u64,
    result: Result<SignedView, String>,
) -> Vec<RequestEffect> {
    // No key because its source failed: say why the source failed, as the CLI does.
    let empty = req.rest_key.text().is_empty();
    let result = match (result, &req.key_error) {
        (Err(_), _) if empty && req.key_resolving.is_some() => {
            Err(super::state::RESOLVING.to_string())
        }
        (Err(_), Some(why)) if req.rest_key.text().is_empty() => Err(format!(
            "{why}; type a key in the REST key field or fix the profile's key source"
        )),
        (r, _) => r,
    };
    // An older job's answer still beats nothing, but never replaces a newer one.
    if id >= req.sign.shown || req.sign.result.is_none() {
        req.sign.shown = id;
        req.sign.result = Some(result);
    }
    if req.send_when_signed && !req.sign.updating() {
        req.send_when_signed = false;
        return send(req);
    }
    vec![]
}

/// [`resign`] when the editor's request changed.
pub(super) fn resign_if(req: &mut RequestState, changed: bool) -> Vec<RequestEffect> {
    if changed {
        resign(req)
    } else {
        vec![]
    }
}

/// Ask for a new signature of the current fields (the worker drops stale jobs).
pub fn resign(req: &mut RequestState) -> Vec<RequestEffect> {
    let id = req.next_id();
    req.sign.requested = id;
    let kind = crate::core::indexing_body::BodyKind::of(
        &req.method.text().to_ascii_uppercase(),
        req.path.text(),
    );
    let rejudge = kind != req.body_state.judged_for;
    req.body_state.judged_for = kind;
    let check_json =
        req.body_state.json_rev != req.body_state.rev || req.sign.shown == 0 || rejudge;
    let changed_from = req.body_state.changed_from.take();
    vec![RequestEffect::Sign(Box::new(sign_job(
        req,
        id,
        changed_from,
        check_json,
    )))]
}

fn sign_job(req: &RequestState, id: u64, changed_from: Option<usize>, check_json: bool) -> SignJob {
    SignJob {
        id,
        spec: req.spec(),
        timestamp: req.timestamp.text().to_string(),
        key: req.key(),
        body_rev: req.body_state.rev,
        changed_from,
        check_json,
        form: req.form,
        body_marks: req.body.line_marks(),
    }
}

/// Switch the signing form of the edited request: standard <-> the vendor's PHP SDK form. The
/// signature, the send and the saved request follow it (`docs/signing.md`).
pub(super) fn toggle_form(req: &mut RequestState) -> Vec<RequestEffect> {
    req.form = match req.form {
        SigningForm::Standard => SigningForm::PhpSdk,
        SigningForm::PhpSdk => SigningForm::Standard,
    };
    req.dirty = true;
    let (path, query) = (req.path.text(), req.query.text());
    let differences = req.form.differences(path, query);
    req.status = match req.form {
        SigningForm::Standard => "signing form: standard (path and query signed as sent)".into(),
        _ if differences.is_empty() => format!(
            "signing form: {} (no line differs for this path and query)",
            req.form.name()
        ),
        _ => format!(
            "signing form: {} ({}; marked * in the canonical text)",
            req.form.name(),
            differences.join(" and ")
        ),
    };
    resign(req)
}

pub(super) fn toggle_timestamp(req: &mut RequestState) -> Vec<RequestEffect> {
    req.ts_live = !req.ts_live;
    if req.ts_live {
        req.timestamp.set(format_timestamp(req.now));
        req.status = "timestamp live (follows the clock)".into();
        resign(req)
    } else {
        req.status = format!("timestamp frozen at {}", req.timestamp.text());
        vec![]
    }
}
