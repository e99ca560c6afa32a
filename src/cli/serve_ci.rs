//! `signscope serve` as a CI test double (`docs/server.md`, "Use in CI"): the ready file, the
//! run's verdict on stop (`--strict`), the stop after a quiet spell (`--exit-after-idle`) and
//! the JSON-lines log (`--log-json`); and `signscope wait URL`, for a CI step that starts the
//! server in another step.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use tokio::sync::broadcast::{self, error::RecvError};

use crate::core::run_verdict::RunVerdict;
use crate::core::traffic::{Route, StreamMessage};
use crate::server::stream::Published;
use crate::server::Server;

/// The flags of `signscope serve` that make it a CI step.
#[derive(Debug, Default, clap::Args)]
pub struct CiArgs {
    /// Once the socket is listening, write `{"url", "port", "pid"}` to this file (written whole,
    /// then renamed into place, so a reader never sees half of it). Its folder must exist.
    #[arg(long, value_name = "PATH")]
    pub ready_file: Option<PathBuf>,

    /// On stop, exit 1 when any indexing request was rejected or any event was invalid (the
    /// summary lists each with its diagnosis). Without it the summary is printed and the exit
    /// code is 0.
    #[arg(long)]
    pub strict: bool,

    /// Stop (as on SIGTERM) once no request has come for this many seconds.
    #[arg(long, value_name = "SECS")]
    pub exit_after_idle: Option<u64>,

    /// Write every record of the live stream as one JSON line, as it happens, to this file (`-`:
    /// standard output). The lines carry signatures, never a key.
    #[arg(long, value_name = "FILE|-")]
    pub log_json: Option<String>,
}

impl CiArgs {
    /// Refuse what would fail only later: a ready file in a folder that does not exist, a log
    /// file that cannot be created, an idle time of 0. Checked before the socket is bound.
    pub fn open(&self) -> anyhow::Result<Option<Box<dyn Write + Send>>> {
        if let Some(path) = &self.ready_file {
            let dir = crate::store::atomic::dir_of(path);
            if !dir.is_dir() {
                bail!(
                    "the folder of --ready-file {} does not exist; create {} first or name a file in an existing folder",
                    path.display(),
                    dir.display()
                );
            }
        }
        if self.exit_after_idle == Some(0) {
            bail!("--exit-after-idle must be at least 1 second");
        }
        Ok(match self.log_json.as_deref() {
            None => None,
            Some("-") => Some(Box::new(std::io::stdout())),
            Some(file) => Some(Box::new(std::fs::File::create(file).with_context(|| {
                format!("could not create the --log-json file {file}; name a writable file or - for standard output")
            })?)),
        })
    }

    /// Whether the summary goes to stderr (standard output carries the JSON lines).
    pub fn summary_to_stderr(&self) -> bool {
        self.log_json.as_deref() == Some("-")
    }
}

/// Write the ready file: the JSON whole in a temporary file beside it, then renamed over it.
pub fn write_ready_file(path: &Path, server: &Server) -> anyhow::Result<()> {
    let text = serde_json::json!({
        "url": server.url(),
        "port": server.addr.port(),
        "pid": std::process::id(),
    });
    crate::store::profile::write_atomic(path, format!("{text}\n").as_bytes(), 0o600)
        .with_context(|| format!("could not write the ready file {}", path.display()))
}

/// Follows the run from its first record: folds each into the verdict, writes it to the log,
/// and notes when the last one came (for `--exit-after-idle`).
pub struct RunFollower {
    verdict: Arc<Mutex<RunVerdict>>,
    last: Arc<Mutex<Instant>>,
    task: tokio::task::JoinHandle<()>,
    rx_done: tokio::sync::oneshot::Sender<()>,
}

impl RunFollower {
    pub fn start(server: &Server, mut log: Option<Box<dyn Write + Send>>) -> RunFollower {
        let (backlog, missing, mut rx) = server.follow_all();
        let verdict = Arc::new(Mutex::new(RunVerdict::default()));
        let last = Arc::new(Mutex::new(Instant::now()));
        let (done_tx, mut done_rx) = tokio::sync::oneshot::channel::<()>();
        let (v, l) = (verdict.clone(), last.clone());
        let task = tokio::spawn(async move {
            let mut take = |p: &Published| take_record(p, &v, &l, &mut log);
            if missing > 0 {
                lock(&v).add(&StreamMessage::Skipped { skipped: missing });
            }
            backlog.iter().for_each(|p| take(p));
            loop {
                tokio::select! {
                    got = rx.recv() => match got {
                        Ok(p) => take(&p),
                        Err(RecvError::Lagged(n)) => lock(&v).add(&StreamMessage::Skipped { skipped: n }),
                        Err(RecvError::Closed) => break,
                    },
                    _ = &mut done_rx => {
                        // The server has stopped: what it published is in the channel.
                        drain(&mut rx, &mut take, &v);
                        break;
                    }
                }
            }
        });
        RunFollower {
            verdict,
            last,
            task,
            rx_done: done_tx,
        }
    }

    /// Completes once no record has come for `idle` (never, without a limit).
    pub async fn idle(&self, idle: Option<u64>) {
        let Some(secs) = idle else {
            return std::future::pending().await;
        };
        let idle = Duration::from_secs(secs);
        loop {
            let since = lock(&self.last).elapsed();
            if since >= idle {
                return;
            }
            tokio::time::sleep(idle - since).await;
        }
    }

    /// The verdict once every record the stopped server published has been read.
    pub async fn finish(self) -> RunVerdict {
        let _ = self.rx_done.send(());
        let _ = self.task.await;
        let v = lock(&self.verdict).clone();
        v
    }
}

fn drain(
    rx: &mut broadcast::Receiver<Arc<Published>>,
    take: &mut impl FnMut(&Published),
    v: &Mutex<RunVerdict>,
) {
    loop {
        match rx.try_recv() {
            Ok(p) => take(&p),
            Err(broadcast::error::TryRecvError::Lagged(n)) => {
                lock(v).add(&StreamMessage::Skipped { skipped: n })
            }
            Err(_) => return,
        }
    }
}

fn take_record(
    p: &Published,
    verdict: &Mutex<RunVerdict>,
    last: &Mutex<Instant>,
    log: &mut Option<Box<dyn Write + Send>>,
) {
    // The channel's records come whole; the backlog's (published before the follower
    // started) are read back from their text.
    let Some(msg) = p.message() else {
        return;
    };
    // The inspection API's own requests (a test's queries, `signscope wait`) are neither
    // traffic under test nor activity: they do not keep an idle server up.
    if matches!(&*msg, StreamMessage::Request(r) if r.route == Route::Inspect) {
        return;
    }
    *lock(last) = Instant::now();
    if let Some(out) = log {
        // A log that cannot be written (a full disk, a closed pipe) is told once and dropped;
        // the server and its verdict go on.
        if writeln!(out, "{}", p.json)
            .and_then(|()| out.flush())
            .is_err()
        {
            eprintln!("signscope: the --log-json output could not be written; the log stops here");
            *log = None;
        }
    }
    lock(verdict).add(&msg);
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// `signscope wait URL`: exit 0 once a signscope server answers its health check.
#[derive(Debug, clap::Args)]
pub struct WaitArgs {
    /// The server's base URL (`http://127.0.0.1:8080`), or a ready file written by `serve
    /// --ready-file` (its `url` is used once the file exists).
    #[arg(value_name = "URL|READY_FILE")]
    pub target: String,

    /// Give up after this many seconds (exit 1).
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    pub timeout: u64,
}

pub fn wait(args: WaitArgs) -> anyhow::Result<u8> {
    let runtime = super::runtime()?;
    let deadline = Instant::now() + Duration::from_secs(args.timeout);
    loop {
        let last_why;
        match url_of(&args.target) {
            Ok(Some(url)) => match runtime.block_on(crate::client::stream::health(&url)) {
                Ok(()) => {
                    println!("ready: {url}");
                    return Ok(0);
                }
                Err(why) => last_why = why,
            },
            Ok(None) => last_why = format!("the ready file {} is not there yet", args.target),
            Err(e) => return Err(e),
        }
        if Instant::now() >= deadline {
            eprintln!(
                "signscope: no signscope server answered at {} within {} s ({last_why}); start it with signscope serve, or give --timeout more seconds",
                args.target, args.timeout
            );
            return Ok(1);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The URL to ask: the target itself, or the `url` of a ready file (None while it is absent).
fn url_of(target: &str) -> anyhow::Result<Option<String>> {
    if target.starts_with("http://") || target.starts_with("https://") {
        return Ok(Some(target.trim_end_matches('/').to_string()));
    }
    let text = match std::fs::read_to_string(target) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => bail!("could not read the ready file {target}: {e}"),
    };
    let v: serde_json::Value = serde_json::from_str(&text).with_context(|| {
        format!("{target} is not a ready file written by signscope serve --ready-file")
    })?;
    match v.get("url").and_then(serde_json::Value::as_str) {
        Some(u) => Ok(Some(u.to_string())),
        None => bail!(
            "{target} has no \"url\"; give the server's URL (http://HOST:PORT) or its ready file"
        ),
    }
}
