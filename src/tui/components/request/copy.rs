//! What the copy menu (Alt-Y) copies from the request view: the signature, the signed headers,
//! the request as curl, the body, the canonical text, the response, the request as a suite
//! entry; only from a signature that is up to date with the fields.

use super::keys::{Action, KEYS};
use super::message::RequestEffect;
use super::state::RequestState;
use crate::core::suite::export::{entry, Answer, ExportRequest};
use crate::core::SigningForm;
use crate::tui::component::Clip;
use crate::tui::model::{ResponseView, SignedView};

fn current_signature(req: &mut RequestState) -> Option<SignedView> {
    match (&req.sign.result, req.sign.updating()) {
        (Some(Ok(s)), false) => Some(s.clone()),
        (_, true) => {
            req.status = "the signature is still updating; try again in a moment".into();
            None
        }
        (Some(Err(e)), _) => {
            req.status = e.clone();
            None
        }
        (None, _) => None,
    }
}

/// What `clip` makes of the current signature, copied (nothing when there is none).
fn copy_signed(
    req: &mut RequestState,
    clip: impl FnOnce(&SignedView) -> Clip,
) -> Vec<RequestEffect> {
    current_signature(req)
        .map(|s| RequestEffect::Copy(clip(&s)))
        .into_iter()
        .collect()
}

pub(super) fn copy_signature(req: &mut RequestState) -> Vec<RequestEffect> {
    copy_signed(req, |s| Clip {
        text: s.signature().to_string(),
        what: "the signature".into(),
    })
}

pub(super) fn copy_headers(req: &mut RequestState) -> Vec<RequestEffect> {
    copy_signed(req, |s| {
        let headers = s.headers().to_vec();
        Clip {
            what: format!("the {} signed headers", headers.len()),
            text: header_text(&headers),
        }
    })
}

pub(super) fn copy_curl(req: &mut RequestState) -> Vec<RequestEffect> {
    let url = req.url.text().to_string();
    copy_signed(req, |s| Clip {
        text: crate::core::curl::to_curl(
            &s.method(),
            &s.url(&url),
            &s.headers().to_vec(),
            crate::core::curl::CurlBody::Inline(&s.spec().body),
        ),
        what: "the request as curl".into(),
    })
}

pub(super) fn copy_body(req: &mut RequestState) -> Vec<RequestEffect> {
    copy_signed(req, |s| Clip {
        text: String::from_utf8_lossy(&s.spec().body).into_owned(),
        what: format!("the body ({} bytes)", s.spec().body.len()),
    })
}

/// The canonical text that was signed (the live clock or the frozen timestamp, in the form
/// chosen).
pub(super) fn copy_canonical(req: &mut RequestState) -> Vec<RequestEffect> {
    copy_signed(req, |s| {
        let text = s.canonical().to_bytes();
        Clip {
            what: format!("the canonical text ({} bytes)", text.len()),
            text: String::from_utf8_lossy(&text).into_owned(),
        }
    })
}

pub(super) fn copy_response(req: &mut RequestState) -> Vec<RequestEffect> {
    match &req.response {
        Some(r) => vec![RequestEffect::Copy(Clip {
            text: r.raw.lines.join("\n"),
            what: format!("the response body ({}, {} bytes)", r.status, r.body_len),
        })],
        None => {
            req.status = format!(
                "no response yet: send the request first ({})",
                KEYS.label_of(Action::Send)
            );
            vec![]
        }
    }
}

/// `Name: value` lines.
pub fn header_text(headers: &[(String, String)]) -> String {
    headers
        .iter()
        .map(|(n, v)| format!("{n}: {v}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The request as the workbench signs it, as a `[[request]]` entry of a `signscope test` suite
/// (`docs/test.md`, "Writing the first suite"), named after the saved request, with its last
/// answer as the expectation when that answer was to this request; never a key.
pub(super) fn copy_suite_entry(req: &mut RequestState) -> Vec<RequestEffect> {
    let Some(s) = current_signature(req) else {
        return vec![];
    };
    let spec = s.spec().clone();
    let answered = req.response.as_ref().filter(|r| answers(r, &s));
    let answer = answered.map(|r| Answer {
        status: r.status,
        body: r.raw.lines.join("\n"),
    });
    let name = req.requests.selected_name().to_string();
    let mut what = match (&answer, &req.response) {
        (Some(a), _) => format!("request {name} as a suite entry, expecting its answer {}", a.status),
        (None, Some(_)) => format!(
            "request {name} as a suite entry, without an expectation (the last answer was to the request before its last edit: {} sends this one)",
            KEYS.label_of(Action::Send)
        ),
        (None, None) => format!("request {name} as a suite entry, without an expectation (not sent yet)"),
    };
    // A suite signs in the standard form: say so rather than let the suite sign otherwise.
    if s.form() != SigningForm::Standard {
        what.push_str("; a suite signs in the standard form");
    }
    let text = entry(&ExportRequest {
        name,
        spec,
        events: false,
        answer,
    });
    vec![RequestEffect::Copy(Clip { text, what })]
}

/// Whether `r` answers the signed request `s` (the same method, path, query and body; the
/// timestamp and so the signature may have moved on since).
fn answers(r: &ResponseView, s: &SignedView) -> bool {
    let spec = s.spec();
    let target = crate::core::http_text::target(&spec.path, &spec.query);
    r.sent.as_ref().is_some_and(|sent| {
        sent.method == spec.method && sent.body == spec.body && sent.url.ends_with(&target)
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crossterm::event::KeyCode;

    use crate::core::suite::{self, SuiteRequest};
    use crate::tui::component::Clip;
    use crate::tui::components::request::keys::Action;
    use crate::tui::components::request::{Field, RequestMsg};
    use crate::tui::effect::Command;
    use crate::tui::message::Message;
    use crate::tui::model::{FormattedBody, ResponseView, SentView};
    use crate::tui::test_util::TestApp;

    /// Alt-Y e (the palette runs the same action): the copied entry, parsed as `signscope test`
    /// reads it, and what the status line says was copied.
    fn copied(t: &mut TestApp) -> (SuiteRequest, String, String) {
        let cmds = t.update(Message::Request(RequestMsg::Run(Action::CopySuite)));
        let [Command::Copy(Clip { text, what })] = &cmds[..] else {
            panic!("{cmds:?}")
        };
        let head = suite::export::head("demo-public-key", "SVC", "demo");
        let mut parsed = suite::parse(&format!("{head}\n{text}")).unwrap();
        (parsed.requests.remove(0), text.clone(), what.clone())
    }

    #[test]
    fn alt_y_e_copies_the_request_as_signed_as_a_suite_entry_with_its_answer_expected() {
        let mut t = TestApp::new(120, 40);
        t.request.query.set("?test=1");
        t.sign_now();
        // Not sent yet: the request as it is signed ('?' left out), no expectation.
        let (r, text, what) = copied(&mut t);
        assert!(what.contains("not sent yet"), "{what}");
        assert_eq!(r.name, "default");
        assert_eq!(r.method.as_deref(), Some("PUT"));
        assert_eq!(r.path.as_deref(), Some("/v2/batch"));
        assert_eq!(r.query.as_deref(), Some("test=1"), "{text}");
        assert_eq!(r.body.as_deref(), Some(t.request.body.text()));
        assert_eq!(r.expect.status, None, "{text}");
        assert!(!text.contains(crate::core::demo::DEMO_REST_KEY), "{text}");
        // Sent and answered: the answer is the expectation.
        let cmds = t.press(KeyCode::F(9));
        let Some(Command::Send(job)) = cmds.first() else {
            panic!("{cmds:?}")
        };
        let sent = SentView::new(
            job.signed.signature().to_string(),
            job.signed.method(),
            job.url.clone(),
            vec![],
            job.signed.spec().body.clone(),
        );
        let answer = r#"{"message":"Job submitted successfully.","jobId":"0b0e6c2a-0d7b-4f3e-9a55-1f2f3a4b5c6d"}"#;
        let resp = ResponseView {
            id: job.id,
            status: 200,
            raw: Arc::new(FormattedBody {
                lines: vec![answer.into()],
                json: true,
            }),
            sent: Some(Arc::new(sent)),
            ..Default::default()
        };
        let id = job.id;
        t.update(Message::Request(RequestMsg::SendDone {
            id,
            result: Ok(resp),
        }));
        let (r, text, what) = copied(&mut t);
        assert!(what.contains("expecting its answer 200"), "{what}");
        assert_eq!(r.expect.status, Some(200));
        assert_eq!(r.expect.verdict.as_deref(), Some("accepted"));
        assert!(
            text.contains("{ pointer = \"/jobId\", exists = true }"),
            "{text}"
        );
        // Edited since the send: the answer was to another request; no expectation, said.
        t.request.focus = Field::Query;
        t.request.normal_mode = false;
        t.press(KeyCode::End);
        t.type_str("&b=2");
        t.sign_now();
        let (r, _, what) = copied(&mut t);
        assert_eq!(r.query.as_deref(), Some("test=1&b=2"));
        assert_eq!(r.expect.status, None);
        assert!(what.contains("before its last edit"), "{what}");
        // In the copy menu, by its letter.
        t.alt('y');
        t.assert_line("e  copy the request as signed as a `signscope test` suite entry");
    }
}
