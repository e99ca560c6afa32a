//! `signscope history`: past sends, oldest first, the last N.

use crate::store::{History, Paths};

#[derive(Debug, clap::Args)]
pub struct HistoryArgs {
    /// How many of the latest entries to show.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub last: usize,
    #[arg(long, value_enum, default_value_t = HistoryOutput::Text)]
    pub output: HistoryOutput,
}

/// What `history` prints (its own doc lines: `send`'s describe one response).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum HistoryOutput {
    /// One line per send, oldest first: time, profile, kind, method, URL, status or error, duration.
    #[default]
    Text,
    /// A JSON array of the entries as stored: request, response, timings, error.
    Json,
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
