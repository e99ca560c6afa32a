//! The send (Ctrl-G): the signed request shown goes as it is (waiting for a signature on its
//! way), or the reason it cannot; its answer fills the Response or Diff tab.

use std::sync::Arc;

use super::message::RequestEffect;
use super::state::{signed_view, Detail, RequestState};
use crate::tui::effect::SendJob;
use crate::tui::model::{FormattedBody, ResponseView};

pub(super) fn send(req: &mut RequestState) -> Vec<RequestEffect> {
    if req.url.text().trim().is_empty() {
        req.status = "the URL is empty; set the indexing base URL before sending".into();
        return vec![];
    }
    if req.key_resolving.is_some() && !req.key_typed() {
        req.status = "not sent: the REST key is still being read from the profile's source (Esc cancels; or type a key)".into();
        return vec![];
    }
    // No key because its source failed (an unset variable, a missing file): say that, as
    // the signature line does, rather than send and fail with "the key is empty".
    if let (Some(why), true) = (&req.key_error, req.rest_key.text().is_empty()) {
        req.status = format!("not sent: {why}");
        return vec![];
    }
    // The send sends the signed request shown: while it is being signed, it waits for it.
    if req.sign.updating() {
        req.send_when_signed = true;
        req.status = "signing… the request is sent once it is signed".into();
        return vec![];
    }
    let signed = match &req.sign.result {
        Some(Ok(s)) => s.request.clone(),
        Some(Err(e)) => {
            req.status = format!("not sent: {e}");
            return vec![];
        }
        None => {
            req.send_when_signed = true;
            req.status = "signing… the request is sent once it is signed".into();
            return vec![];
        }
    };
    let id = req.next_id();
    req.pending_send = Some(id);
    req.sending = true;
    let base_url = req.url.text().trim().to_string();
    let url = signed.url(&base_url);
    req.status = format!("sending {} {url}…", signed.method());
    vec![RequestEffect::Send(Box::new(SendJob {
        id,
        request_name: Some(req.requests.selected_name().to_string()),
        url,
        base_url,
        key: req.key(),
        signed,
    }))]
}

/// A send finished.
pub(super) fn on_send_done(req: &mut RequestState, id: u64, result: Result<ResponseView, String>) {
    if Some(id) != req.pending_send {
        return;
    }
    req.pending_send = None;
    req.sending = false;
    match result {
        Ok(resp) => {
            req.status = match (&resp.code, &resp.job_id) {
                (_, Some(job)) => {
                    format!("{} in {:.0} ms, job {job}", resp.status, resp.elapsed_ms)
                }
                (Some(code), None) => {
                    format!("{} {code} in {:.0} ms", resp.status, resp.elapsed_ms)
                }
                (None, None) => format!("{} in {:.0} ms", resp.status, resp.elapsed_ms),
            };
            for w in &resp.warnings {
                req.status.push_str("; ");
                req.status.push_str(w);
            }
            req.detail = if resp.mismatch.is_some() {
                Detail::Diff
            } else {
                Detail::Response
            };
            req.detail_scroll = 0;
            req.detail_max.set(usize::MAX);
            req.show_sent = false;
            req.response = Some(resp);
        }
        Err(e) => {
            req.status = format!("send failed: {e}");
        }
    }
}

/// The pretty-printed response body of send `id`.
pub(super) fn on_response_formatted(req: &mut RequestState, id: u64, body: Arc<FormattedBody>) {
    if let Some(r) = req.response.as_mut() {
        if r.id == id {
            r.formatted = Some(body);
        }
    }
}

/// The full URL the request goes to: the base URL with the signed request's path and query
/// (None until the request is signed).
pub fn target_url(req: &RequestState) -> Option<String> {
    signed_view(req).map(|s| s.url(req.url.text()))
}
