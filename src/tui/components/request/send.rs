//! The send (Ctrl-G): the signed request shown goes as it is (waiting for a signature on its
//! way), or the reason it cannot; its answer fills the Response or Diff tab. One send at a
//! time: another Ctrl-G while one is in flight is refused with a sentence naming the cancel key
//! (Alt-G), which stops it (the runtime drops its connection).

use std::sync::Arc;

use super::keys::{Action, KEYS};
use super::message::RequestEffect;
use super::state::{Detail, RequestState};
use crate::tui::effect::SendJob;
use crate::tui::model::{FormattedBody, ResponseView};

pub(super) fn send(req: &mut RequestState) -> Vec<RequestEffect> {
    // Never two sends at once: the one in flight is waited for or cancelled; nothing the user
    // typed meanwhile is touched.
    if req.pending_send.is_some() {
        req.status = format!(
            "not sent: a send is in flight ({} cancels it; your edits are kept)",
            KEYS.label_of(Action::CancelSend)
        );
        return vec![];
    }
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
    let signed = match &req.sign.result {
        Some(Ok(s)) if !req.sign.updating() => s.request.clone(),
        Some(Err(e)) if !req.sign.updating() => {
            req.status = format!("not sent: {e}");
            return vec![];
        }
        _ => {
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
    req.status = format!(
        "sending {} {url}… ({} cancels)",
        signed.method(),
        KEYS.label_of(Action::CancelSend)
    );
    vec![RequestEffect::Send(Box::new(SendJob {
        id,
        request_name: Some(req.requests.selected_name().to_string()),
        url,
        base_url,
        key: req.key(),
        signed,
    }))]
}

/// Cancel the send in flight (Alt-G, or the palette): the runtime stops it and its answer, if
/// one still comes, is not shown; a send waiting for its signature does not go.
pub(super) fn cancel_send(req: &mut RequestState) -> Vec<RequestEffect> {
    if req.send_when_signed {
        req.send_when_signed = false;
        req.status = "send cancelled before it left (it was waiting for the signature)".into();
        return vec![];
    }
    match req.pending_send.take() {
        Some(id) => {
            req.sending = false;
            req.status = format!(
                "send cancelled: its connection is closed; {} sends again",
                KEYS.label_of(Action::Send)
            );
            vec![RequestEffect::CancelSend(id)]
        }
        None => {
            req.status = "no send in flight to cancel".into();
            vec![]
        }
    }
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

#[cfg(test)]
mod tests {
    use crossterm::event::KeyCode;

    use crate::tui::components::request::{Field, RequestMsg};
    use crate::tui::effect::Command;
    use crate::tui::message::Message;
    use crate::tui::test_util::{plain_response, TestApp};

    /// One send at a time: a second Ctrl-G while one is in flight sends nothing and says how to
    /// cancel; an edit typed meanwhile stays; Alt-G cancels it (the runtime is asked to stop
    /// it), a late answer to it is not shown, and the next Ctrl-G sends the edited request.
    #[test]
    fn a_second_ctrl_g_during_a_send_is_refused_and_alt_k_cancels_the_send() {
        let mut t = TestApp::new(120, 40);
        t.request.query.set("");
        t.sign_now();
        let cmds = t.ctrl('g');
        let Some(Command::Send(job)) = cmds.first() else {
            panic!("{cmds:?}")
        };
        let id = job.id;
        assert!(t.status.contains("Alt-G cancels"), "{}", t.status);
        // An edit while it is in flight, then Ctrl-G again: refused, the edit kept.
        t.request.focus = Field::Query;
        t.request.normal_mode = false;
        t.type_str("b=2");
        t.sign_now();
        let cmds = t.ctrl('g');
        assert!(
            !cmds.iter().any(|c| matches!(c, Command::Send(_))),
            "{cmds:?}"
        );
        assert!(
            t.status.contains("a send is in flight") && t.status.contains("Alt-G cancels it"),
            "{}",
            t.status
        );
        assert_eq!(t.request.query.text(), "b=2");
        assert!(t.request.sending);
        // Alt-G: the runtime stops that send; the view no longer waits for it.
        let cmds = t.alt('g');
        assert!(
            matches!(cmds.as_slice(), [Command::CancelSend(i)] if *i == id),
            "{cmds:?}"
        );
        assert!(!t.request.sending);
        assert!(t.status.contains("send cancelled"), "{}", t.status);
        t.update(Message::Request(RequestMsg::SendDone {
            id,
            result: Ok(plain_response(vec!["late".into()])),
        }));
        assert!(t.request.response.is_none(), "a cancelled send's answer");
        // Nothing in flight: Alt-G says so; Ctrl-G sends the edited request.
        assert!(t.alt('g').is_empty());
        assert!(t.status.contains("no send in flight"), "{}", t.status);
        let cmds = t.press(KeyCode::F(9));
        let Some(Command::Send(job)) = cmds.first() else {
            panic!("{cmds:?}")
        };
        assert_eq!(job.signed.spec().query, "b=2");
        // The palette has it by name.
        t.ctrl('k');
        t.type_str("cancel the send");
        t.assert_line("cancel the send");
    }
}
