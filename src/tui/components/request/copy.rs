//! What the copy menu (Alt-Y) copies from the request view: the signature, the signed headers,
//! the request as curl, the body, the canonical text, the response; only from a signature that
//! is up to date with the fields.

use super::keys::{Action, KEYS};
use super::message::RequestEffect;
use super::state::RequestState;
use crate::tui::model::SignedView;

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

pub(super) fn copy_signature(req: &mut RequestState) -> Vec<RequestEffect> {
    match current_signature(req) {
        Some(s) => vec![RequestEffect::Copy {
            text: s.signature().to_string(),
            what: "the signature".into(),
        }],
        None => vec![],
    }
}

pub(super) fn copy_headers(req: &mut RequestState) -> Vec<RequestEffect> {
    match current_signature(req) {
        Some(s) => {
            let headers = s.headers().to_vec();
            vec![RequestEffect::Copy {
                what: format!("the {} signed headers", headers.len()),
                text: header_text(&headers),
            }]
        }
        None => vec![],
    }
}

pub(super) fn copy_curl(req: &mut RequestState) -> Vec<RequestEffect> {
    match current_signature(req) {
        Some(s) => vec![RequestEffect::Copy {
            text: crate::core::curl::to_curl(
                &s.method(),
                &s.url(req.url.text()),
                &s.headers().to_vec(),
                crate::core::curl::CurlBody::Inline(&s.spec().body),
            ),
            what: "the request as curl".into(),
        }],
        None => vec![],
    }
}

pub(super) fn copy_body(req: &mut RequestState) -> Vec<RequestEffect> {
    match current_signature(req) {
        Some(s) => {
            let body = &s.spec().body;
            vec![RequestEffect::Copy {
                text: String::from_utf8_lossy(body).into_owned(),
                what: format!("the body ({} bytes)", body.len()),
            }]
        }
        None => vec![],
    }
}

/// The canonical text that was signed (the live clock or the frozen timestamp, in the form
/// chosen).
pub(super) fn copy_canonical(req: &mut RequestState) -> Vec<RequestEffect> {
    match current_signature(req) {
        Some(s) => {
            let text = s.canonical().to_bytes();
            vec![RequestEffect::Copy {
                what: format!("the canonical text ({} bytes)", text.len()),
                text: String::from_utf8_lossy(&text).into_owned(),
            }]
        }
        None => vec![],
    }
}

pub(super) fn copy_response(req: &mut RequestState) -> Vec<RequestEffect> {
    match &req.response {
        Some(r) => vec![RequestEffect::Copy {
            text: r.raw.lines.join("\n"),
            what: format!("the response body ({}, {} bytes)", r.status, r.body_len),
        }],
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
