//! The traffic view's effects: follow a server's live stream (`GET /_inspect/stream`,
//! `docs/server.md`) on the runtime's tokio threads, parse each record there, and hand it to
//! the event loop as a [`TrafficMsg`]; open a HAR file and write one (`docs/har.md`).
//! Reconnecting and resuming are the stream client's
//! ([`crate::client::stream::follow_stream`], as for `signscope watch`).

use crate::client::stream::{follow_stream, received_har, stream_url, Follow};
use crate::core::traffic::StreamMessage;
use crate::core::Secret;
use crate::tui::components::traffic::{TrafficEffect, TrafficMsg};
use crate::tui::message::Message;

use super::Effects;

impl Effects {
    /// Follow the live stream of the server at `base`, or say in the view why not.
    pub(super) fn follow_traffic(&mut self, base: &str) {
        let tx = self.tx.clone();
        if let Err(e) = spawn(base, move |m| tx.send(Message::Traffic(m)).is_ok()) {
            self.answer(Message::Traffic(TrafficMsg::Waiting(format!("{e:#}"))));
        }
    }

    /// One of the Traffic view's file effects (`key`: the REST key a HAR's requests are
    /// verified with); the rest of its effects are the router's.
    pub(super) fn traffic_effect(&mut self, effect: TrafficEffect, key: Secret) {
        match effect {
            TrafficEffect::OpenHar(path) => self.open_har(path, key),
            TrafficEffect::WriteHar { path, text } => self.write_har(path, text),
            TrafficEffect::WriteReceivedHar { path, base } => self.write_received_har(path, base),
            _ => {}
        }
    }

    /// Judge the capture in `path` (signed requests with `key`) into the traffic view; its
    /// summary goes to the status line.
    fn open_har(&mut self, path: std::path::PathBuf, key: Secret) {
        let (tx, done) = (self.tx.clone(), self.tx.clone());
        open_har(
            path,
            key,
            move |m| tx.send(Message::Traffic(m)).is_ok(),
            move |s| {
                let _ = done.send(Message::Status(s));
            },
        );
    }

    /// Write a HAR document to a new file on a blocking thread; the outcome to the status line.
    fn write_har(&mut self, path: std::path::PathBuf, text: String) {
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let _ = tx.send(Message::Status(write_file(&path, &text)));
        });
    }

    /// Fetch every request the server at `base` received, as its HAR export (`docs/server.md`
    /// rule R15), and write it to a new file; the outcome to the status line.
    fn write_received_har(&mut self, path: std::path::PathBuf, base: String) {
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let said = match received_har(&base, None).await {
                Ok((text, n)) => tokio::task::spawn_blocking(move || {
                    let said = write_file(&path, &text);
                    match said.strip_prefix("wrote ") {
                        Some(rest) => format!("wrote {n} requests {base} received to {rest}"),
                        None => said,
                    }
                })
                .await
                .unwrap_or_else(|e| format!("the HAR was not written: {e}")),
                Err(e) => format!("no HAR written: {e}"),
            };
            let _ = tx.send(Message::Status(said));
        });
    }
}

/// The message a step of the stream gives the view.
fn message(f: Follow) -> TrafficMsg {
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
fn spawn(
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

/// Open a HAR (or a file of raw requests or curl commands) on the blocking pool: each request
/// the local server has a judgement on is judged as it would be at its capture's time (signed
/// ones with `key`, the profile's REST key) and handed over with `send`; `done` gets the
/// one-line summary, or why the file could not be read (`docs/har.md`).
fn open_har(
    path: std::path::PathBuf,
    key: crate::core::Secret,
    send: impl Fn(TrafficMsg) -> bool + Send + 'static,
    done: impl FnOnce(String) + Send + 'static,
) {
    use crate::engine::capture::{judge_file, CaptureOptions, Item};
    let rt = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let opts = CaptureOptions {
            keys: crate::engine::capture::JudgeKeys {
                default: (!key.expose().is_empty()).then_some(key),
                ..Default::default()
            },
            hosts: Vec::new(),
            accept_forms: Vec::new(),
            now: chrono::Utc::now(),
        };
        // Why the first unreadable entry was skipped, as `signscope check` says it: a count
        // alone leaves the user guessing what the file was taken for.
        let mut first_bad: Option<(usize, String)> = None;
        let result = judge_file(&path, &opts, &rt, &mut |item| {
            if let Item::Bad { entry, why } = &item {
                first_bad.get_or_insert_with(|| (*entry, why.clone()));
            }
            if let Item::Judged { mut seen, body, .. } = item {
                // The whole body (up to what the inspection store keeps), so that loading it
                // into the editor or the Diagnose view has all of it.
                let keep = body.len().min(crate::engine::capture::BODY_PREVIEW_BYTES);
                seen.body = String::from_utf8_lossy(&body[..keep]).into_owned();
                seen.body_truncated = keep < body.len();
                if !send(TrafficMsg::Imported(seen)) {
                    anyhow::bail!("the workbench closed");
                }
            }
            Ok(())
        });
        // The file's name: the status line is short.
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        done(match result {
            Ok(o) => {
                let t = &o.totals;
                let mut s = format!(
                    "opened {name}: {} judged ({} rejected) of {} requests",
                    t.judged, t.rejected, t.requests
                );
                let skipped = t.skipped_other_host + t.skipped_other_path;
                if skipped > 0 {
                    s.push_str(&format!(", {skipped} to other hosts or paths skipped"));
                }
                s.push_str(&t.not_judged_text());
                if t.unreadable > 0 {
                    s.push_str(&format!(", {} unreadable", t.unreadable));
                    if let Some((entry, why)) = &first_bad {
                        s.push_str(&format!(" (#{entry}: {why})"));
                    }
                }
                if let Some(b) = o.broken {
                    s.push_str(&format!("; {b}"));
                }
                s
            }
            Err(e) => format!("could not open {name}: {e:#}"),
        });
    });
}

/// Write `text` to `path`, a new file (an existing one is never overwritten); the status line's
/// sentence either way.
fn write_file(path: &std::path::Path, text: &str) -> String {
    use std::io::Write;
    let result = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|()| f.sync_all()));
    match result {
        Ok(()) => format!("wrote {} ({} bytes of HAR)", path.display(), text.len()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => format!(
            "not overwritten: {} already exists; give a new file name",
            path.display()
        ),
        Err(e) => format!("could not write {}: {e}", path.display()),
    }
}

#[cfg(test)]
mod open_har_tests {
    /// A file that is neither HAR nor readable HTTP: the status names why its entry was not
    /// read (the request line it expected, what it found), not only a count.
    #[test]
    fn an_unreadable_file_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("passwd");
        std::fs::write(&path, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let said = rt.block_on(async {
            let (tx, rx) = tokio::sync::oneshot::channel();
            super::open_har(
                path,
                crate::core::Secret::new(crate::server::DEMO_REST_KEY),
                |_| true,
                move |s| {
                    let _ = tx.send(s);
                },
            );
            rx.await.unwrap()
        });
        assert!(said.contains("1 unreadable (#0: "), "{said}");
        assert!(said.contains("root:x:0:0"), "{said}");
    }
}
