//! `signscope history`: past sends, oldest first, the last N.

use crate::store::{History, Paths};

#[derive(Debug, clap::Args)]
pub struct HistoryArgs {
    /// How many of the latest entries to show.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub last: usize,
    #[arg(long, value_enum, default_value_t = HistoryOutput::Text)]
    pub output: HistoryOutput,
    /// With `--output har`: mask the Authorization header (`Bearer ***`); by default it is kept
    /// (it is the signature a diagnosis needs, not a key).
    #[arg(long)]
    pub redact: bool,
}

/// What `history` prints (its own doc lines: `send`'s describe one response).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum HistoryOutput {
    /// One line per send, oldest first: time, profile, kind, method, URL, status or error, duration.
    #[default]
    Text,
    /// A JSON array of the entries as stored: request, response, timings, error.
    Json,
    /// A HAR 1.2 document (DevTools, mitmproxy and `signscope check` read it; docs/har.md).
    Har,
}

pub fn run(args: HistoryArgs) -> anyhow::Result<u8> {
    if args.last == 0 {
        anyhow::bail!("--last must be at least 1 (how many of the latest sends to show)");
    }
    let paths = Paths::discover()?;
    let (entries, warnings) = History::open(&paths).load(args.last);
    for w in &warnings {
        eprintln!("signscope: warning: {w}");
    }
    match args.output {
        HistoryOutput::Har => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            write_har(&mut out, &entries, args.redact)?;
            std::io::Write::flush(&mut out)?;
        }
        HistoryOutput::Json => {
            println!("{}", serde_json::to_string_pretty(&entries).expect("json"));
        }
        HistoryOutput::Text => {
            if entries.is_empty() {
                println!("no sends recorded yet ({})", paths.history_file().display());
            }
            for e in &entries {
                let outcome = match (&e.response, &e.error) {
                    (Some(r), _) => r.status.to_string(),
                    (None, Some(err)) => format!("error: {err}"),
                    (None, None) => "-".to_string(),
                };
                let ms = e
                    .timings
                    .as_ref()
                    .map(|t| format!(" {:.1} ms", t.total_ms))
                    .unwrap_or_default();
                // The saved request a send came from, after its profile ("shop/bulk").
                let from = match &e.request_name {
                    Some(r) => format!("{}/{r}", e.profile),
                    None => e.profile.clone(),
                };
                println!(
                    "{}  {:<12} {:<7} {} {} -> {outcome}{ms}",
                    e.time, from, e.kind, e.request.method, e.request.url
                );
            }
        }
    }
    Ok(0)
}

/// The entries as one HAR document (`docs/har.md` rules H8-H9). History entries are already
/// redacted of REST keys; `redact` masks the Authorization header too.
pub fn write_har(
    out: &mut impl std::io::Write,
    entries: &[crate::store::HistoryEntry],
    redact: bool,
) -> std::io::Result<()> {
    use crate::core::har::write::{
        headers_for_export, Exchange, ExchangeResponse, HarWriter, Timings,
    };
    let mut w = HarWriter::begin(out, env!("CARGO_PKG_VERSION"))?;
    for e in entries {
        let headers = headers_for_export(&e.request.headers, redact);
        let response = e.response.as_ref().map(|r| ExchangeResponse {
            status: r.status,
            headers: &r.headers,
            body: Some(r.body.as_bytes()),
            body_size: Some(r.body_len as u64),
        });
        // first byte = connect + send + wait; total = first byte + receive.
        let timings = e.timings.as_ref().map(|t| {
            let connect = t.connect_ms;
            Timings {
                connect,
                send: Some(0.0),
                wait: Some((t.first_byte_ms - connect.unwrap_or(0.0)).max(0.0)),
                receive: Some((t.total_ms - t.first_byte_ms).max(0.0)),
                ..Timings::default()
            }
        });
        let comment = match (&e.error, e.request.body_truncated) {
            (Some(err), _) => Some(format!("not sent or no answer: {err}")),
            (None, true) => Some("only the start of the request body was kept".to_string()),
            (None, false) => None,
        };
        w.entry(&Exchange {
            started: e.time.clone(),
            time_ms: e.timings.as_ref().map(|t| t.total_ms),
            method: &e.request.method,
            url: e.request.url.clone(),
            headers: &headers,
            body: e.request.body.as_bytes(),
            body_size: Some(e.request.body_len),
            response,
            timings,
            comment,
            custom: Some((
                "_signscope".into(),
                serde_json::json!({"profile": e.profile, "kind": e.kind, "request_name": e.request_name}),
            )),
        })?;
    }
    w.finish()?;
    Ok(())
}
