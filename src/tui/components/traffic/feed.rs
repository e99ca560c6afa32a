//! The runtime's side of the traffic view: follow a server's live stream
//! (`GET /_inspect/stream`, `docs/server.md`) on the runtime's tokio threads, parse each record
//! there, and hand it to the event loop as a [`TrafficMsg`]. Reconnecting and resuming are
//! `signscope watch`'s ([`crate::cli::watch::follow_stream`]).

use crate::cli::watch::{follow_stream, stream_url, Follow};
use crate::server::stream::StreamMessage;

use super::state::TrafficMsg;

/// The message a step of the stream gives the view.
pub fn message(f: Follow) -> TrafficMsg {
    match f {
        Follow::Connected { again } => TrafficMsg::Connected { again },
        Follow::Waiting(why) => TrafficMsg::Waiting(why),
        Follow::Message {
            msg: StreamMessage::Request(r),
            ..
        } => TrafficMsg::Received(r),
        Follow::Message {
            msg: StreamMessage::Skipped { skipped },
            ..
        } => TrafficMsg::Skipped(skipped),
    }
}

/// Follow the stream of the server at `base` (`http://HOST:PORT`) on the current tokio
/// runtime until `send` refuses a message (the workbench has closed).
pub fn spawn(
    base: &str,
    send: impl Fn(TrafficMsg) -> bool + Send + 'static,
) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let url = stream_url(base, "--watch")?;
    Ok(tokio::spawn(async move {
        let result = follow_stream(url, move |f| {
            if send(message(f)) {
                Ok(())
            } else {
                anyhow::bail!("the workbench closed")
            }
        })
        .await;
        if let Err(e) = result {
            tracing::debug!(error = %e, "traffic feed ended");
        }
    }))
}
