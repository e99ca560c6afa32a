//! The workbench's two sends, both through the engine (`docs/architecture.md`, the request
//! lifecycle): the engine signs once, sends, builds the [`Exchange`], records it in the history
//! and marks the profile as last used. Here the exchange only becomes what the views show.

use std::sync::Arc;

use bytes::Bytes;
use tokio::sync::mpsc::UnboundedSender;

use crate::engine::{Exchange, Sender};
use crate::store::KeySource;
use crate::tui::components::events::SendReport;
use crate::tui::components::history::{HistoryMsg, HistoryRow};
use crate::tui::components::request::{
    format_json, response_view, RequestMsg, FORMAT_INLINE_LIMIT,
};
use crate::tui::effect::SendJob;
use crate::tui::message::Message;
use crate::tui::model::ResponseView;

/// Tell the history view about a recorded exchange.
fn announce(sender: &Sender, exchange: &Exchange, tx: &UnboundedSender<Message>) {
    if sender.records() {
        let row = HistoryRow::from(&exchange.entry);
        let _ = tx.send(Message::History(HistoryMsg::Appended(Box::new(row))));
    }
}

/// Send a signed request with the engine; answer with the response view (or why not).
pub async fn send(
    sender: Sender,
    job: SendJob,
    tx: UnboundedSender<Message>,
) -> Result<ResponseView, String> {
    let id = job.id;
    // The signed request the view showed, sent as it is.
    let signed = std::sync::Arc::unwrap_or_clone(job.signed);
    let sent_signature = signed.signature().to_string();
    let exchange = sender
        .send_signed(&job.base_url, signed, job.key)
        .await
        .map_err(|e| e.to_string())?;
    announce(&sender, &exchange, &tx);
    for w in &exchange.warnings {
        tracing::debug!(warning = %w, "send warning");
    }
    let resp = match &exchange.response {
        Ok(r) => r,
        Err(e) => return Err(e.to_string()),
    };
    let big = resp.body.len() > FORMAT_INLINE_LIMIT;
    let body = resp.body.clone();
    let view = tokio::task::spawn_blocking(move || {
        // Our signing text holds the whole body: built only when there is a diff to show.
        let ours = if exchange.answer.mismatch.is_some() {
            exchange.our_canonical_lines()
        } else {
            Vec::new()
        };
        let Exchange {
            response,
            answer,
            warnings,
            request,
            ..
        } = exchange;
        // What went on the wire, as the engine recorded it: the "as sent" view of this answer.
        let sent = crate::tui::model::SentView::new(
            sent_signature,
            request.method,
            request.url,
            request.headers,
            request.body,
        );
        let Ok(resp) = response else {
            return Err("the response went missing".to_string());
        };
        let mut view = response_view(
            id,
            resp.status,
            resp.headers,
            &resp.body,
            resp.timings.total.as_secs_f64() * 1000.0,
            !big,
            answer,
            ours,
        );
        view.warnings = warnings;
        view.sent = Some(std::sync::Arc::new(sent));
        Ok(view)
    })
    .await
    .map_err(|e| format!("reading the response failed: {e}"))??;
    if big && view.raw.json {
        // Shown raw first; formatted once, off the draw path, then cached in the App.
        tokio::task::spawn_blocking(move || {
            if let Some(f) = format_json(&body) {
                let _ = tx.send(Message::Request(RequestMsg::ResponseFormatted {
                    id,
                    body: Arc::new(f),
                }));
            }
        });
    }
    Ok(view)
}

/// Post an event batch with the engine (to `{analytics_url}/analytics/collect`, byte for byte);
/// answer with what the collector said. The profile's key, when it can be read, is redacted from
/// the record although the collector takes none (as the CLI does).
pub async fn send_events(
    sender: Sender,
    analytics_url: String,
    body: Bytes,
    key_source: Option<KeySource>,
    tx: UnboundedSender<Message>,
) -> Result<SendReport, String> {
    let key = match key_source {
        // A key source may run a command: off the async threads.
        Some(source) => tokio::task::spawn_blocking(move || source.resolve().ok())
            .await
            .ok()
            .flatten(),
        None => None,
    };
    let exchange = sender
        .send_events(&analytics_url, body, key)
        .await
        .map_err(|e| e.to_string())?;
    announce(&sender, &exchange, &tx);
    let resp = exchange.response.map_err(|e| e.to_string())?;
    Ok(SendReport {
        status: resp.status,
        body: String::from_utf8_lossy(&resp.body).into_owned(),
        elapsed_ms: resp.timings.total.as_millis() as u64,
    })
}
