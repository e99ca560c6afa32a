//! Diagnostic logging with `tracing`. Off unless `SIGNSCOPE_LOG` (or, failing that, `RUST_LOG`)
//! holds a filter such as `debug`, `signscope=trace` or `signscope::client=debug,warn`; with
//! neither set nothing is logged and no file is written. A bare level in `SIGNSCOPE_LOG` is for
//! signscope's own events (other crates log warnings only unless named); in `RUST_LOG` it is for
//! every crate, as usual.
//!
//! - The subcommands log to stderr ([`init_stderr`]).
//! - The workbench never logs to the terminal it draws on: it appends to `signscope.log` in the
//!   data dir ([`init_file`], mode 0600 when created); when that file cannot be opened, the
//!   workbench runs without logging and says so in its status line.
//!
//! What is logged: requests sent (method, URL, header names and values, body length, status,
//! timings), what the local server received and answered (method, path, status, code), profile
//! loads and saves (name, path), which kind of key source was read (never the value), and the
//! workbench's commands (never keystrokes: a key typed into the REST key field is a secret). A
//! REST key is never logged: call sites log [`crate::core::Secret`] only through its `Debug`
//! (which prints `***`), never through `expose()`. And since a user may type the key where it
//! does not belong (into a URL's query or path), every REST key a request is signed with
//! is registered ([`redact_in_logs`], by the engine's send) and replaced by `***` in every log line before it is
//! written, whichever field it is in.

use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, RwLock};

use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::EnvFilter;

use crate::core::Secret;

/// Keys shorter than this are not redacted from logs (a one-letter key would blank every log
/// line; real REST keys are much longer).
const MIN_REDACTED_LEN: usize = 6;

/// The REST keys (and their percent-encoded forms) to blank out of every log line.
static REDACTED: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Blank this key out of every log line written from now on (raw, and percent-encoded as it
/// would appear in a URL).
pub fn redact_in_logs(secret: &Secret) {
    let key = secret.expose();
    if key.len() < MIN_REDACTED_LEN {
        return;
    }
    let mut forms = vec![key.to_string()];
    let encoded = percent_encoding::utf8_percent_encode(key, UNRESERVED_KEPT).to_string();
    if encoded != key {
        forms.push(encoded);
    }
    let mut list = REDACTED.write().unwrap_or_else(|e| e.into_inner());
    for f in forms {
        if !list.contains(&f) {
            list.push(f);
        }
    }
    // Longest first, so a key that contains another is blanked whole.
    list.sort_by_key(|k| std::cmp::Reverse(k.len()));
}

/// Every byte outside RFC 3986's unreserved set is written `%XX`.
const UNRESERVED_KEPT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// `line` with every registered key replaced by `***`.
pub fn redact_line(line: &str) -> std::borrow::Cow<'_, str> {
    let list = REDACTED.read().unwrap_or_else(|e| e.into_inner());
    if !list.iter().any(|k| line.contains(k.as_str())) {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = line.to_string();
    for k in list.iter() {
        out = out.replace(k.as_str(), "***");
    }
    std::borrow::Cow::Owned(out)
}

/// A writer maker whose writers blank registered keys out of what they are given (the
/// formatter hands each event over in one write).
pub struct Redacting<M>(pub M);

/// See [`Redacting`].
pub struct RedactingWriter<W>(W);

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for Redacting<M> {
    type Writer = RedactingWriter<M::Writer>;
    fn make_writer(&'a self) -> Self::Writer {
        RedactingWriter(self.0.make_writer())
    }
}

impl<W: Write> Write for RedactingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        self.0.write_all(redact_line(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// The environment variable holding the log filter.
pub const LOG_ENV: &str = "SIGNSCOPE_LOG";
/// Read when [`LOG_ENV`] is not set.
pub const FALLBACK_LOG_ENV: &str = "RUST_LOG";
/// The workbench's log file, in the data dir.
pub const LOG_FILE: &str = "signscope.log";

/// What an `init_*` call set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Logging {
    /// No filter in the environment: nothing is logged.
    Off,
    Stderr,
    File(PathBuf),
}

/// The filter text and the variable it came from; None when neither variable is set (or both
/// are empty).
pub fn filter_text() -> Option<(String, &'static str)> {
    [LOG_ENV, FALLBACK_LOG_ENV].into_iter().find_map(|var| {
        std::env::var(var)
            .ok()
            .filter(|v| !v.trim().is_empty())
            .map(|v| (v, var))
    })
}

/// In `SIGNSCOPE_LOG`, a bare level (`debug`, `trace`) is for signscope's own events: it
/// becomes `signscope=<level>`, and other crates (reqwest, hyper, rustls, axum) log warnings
/// only, unless named (`trace,hyper=debug`). `RUST_LOG` keeps its usual meaning, every crate.
fn own_levels(var: &str, text: &str) -> String {
    if var != LOG_ENV {
        return text.to_string();
    }
    let mut bare = false;
    let mut out: Vec<String> = text
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(
            |d| match d.parse::<tracing_subscriber::filter::LevelFilter>() {
                Ok(level) if level != tracing_subscriber::filter::LevelFilter::OFF => {
                    bare = true;
                    format!("signscope={d}")
                }
                _ => d.to_string(),
            },
        )
        .collect();
    if bare {
        out.insert(0, "warn".to_string());
    }
    out.join(",")
}

/// Why logging is off although it was asked for: a one-sentence warning (nothing is logged).
#[derive(Debug, thiserror::Error)]
pub enum LoggingError {
    #[error("{var} is not a valid log filter ({reason}); logging is off")]
    Filter { var: &'static str, reason: String },
    #[error("cannot open the log file {}: {reason}; logging is off", path.display())]
    File { path: PathBuf, reason: String },
    #[error("logging could not be set up: {0}")]
    Init(String),
}

/// Parse the environment's filter. `Ok(None)`: logging is off.
fn filter_from_env() -> Result<Option<EnvFilter>, LoggingError> {
    let Some((text, var)) = filter_text() else {
        return Ok(None);
    };
    EnvFilter::try_new(own_levels(var, &text))
        .map(Some)
        .map_err(|e| LoggingError::Filter {
            var,
            reason: e.to_string(),
        })
}

/// Log to stderr (the subcommands). Err is a one-sentence warning; nothing is logged then.
pub fn init_stderr() -> Result<Logging, LoggingError> {
    let Some(filter) = filter_from_env()? else {
        return Ok(Logging::Off);
    };
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(Redacting(std::io::stderr))
        .with_ansi(std::io::stderr().is_terminal())
        .finish()
        .try_init()
        .map_err(|e| LoggingError::Init(e.to_string()))?;
    Ok(Logging::Stderr)
}

/// Log to `<data_dir>/signscope.log`, appending (the workbench). Err is a one-sentence warning
/// for the status line; nothing is logged then, and nothing is written to the terminal.
pub fn init_file(data_dir: &Path) -> Result<Logging, LoggingError> {
    let Some(filter) = filter_from_env()? else {
        return Ok(Logging::Off);
    };
    let path = data_dir.join(LOG_FILE);
    let file = open_log(&path).map_err(|e| LoggingError::File {
        reason: crate::store::io::io_reason(&e),
        path: path.clone(),
    })?;
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(Redacting(Mutex::new(file)))
        .with_ansi(false)
        .finish()
        .try_init()
        .map_err(|e| LoggingError::Init(e.to_string()))?;
    Ok(Logging::File(path))
}

/// Open the log for appending, creating the data dir and the file (mode 0600) when missing.
fn open_log(path: &Path) -> std::io::Result<File> {
    if let Some(dir) = path.parent() {
        crate::store::private::create_private_dir(dir)?;
    }
    let mut opts = OpenOptions::new();
    opts.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    opts.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_level_in_signscope_log_is_for_our_own_events() {
        assert_eq!(own_levels(LOG_ENV, "trace"), "warn,signscope=trace");
        assert_eq!(
            own_levels(LOG_ENV, "debug, hyper=trace"),
            "warn,signscope=debug,hyper=trace"
        );
        assert_eq!(
            own_levels(LOG_ENV, "signscope::client=debug"),
            "signscope::client=debug"
        );
        assert_eq!(own_levels(LOG_ENV, "off"), "off");
        // RUST_LOG keeps its usual meaning.
        assert_eq!(own_levels(FALLBACK_LOG_ENV, "trace"), "trace");
        // What that means to tracing: our events at trace, a dependency's only from warn.
        use tracing_subscriber::layer::SubscriberExt;
        let filter = EnvFilter::try_new(own_levels(LOG_ENV, "trace")).unwrap();
        let seen = std::sync::Arc::new(Mutex::new(Vec::<String>::new()));
        let layer = Recorder(seen.clone());
        let subscriber = tracing_subscriber::registry().with(filter).with(layer);
        tracing::subscriber::with_default(subscriber, || {
            tracing::trace!(target: "signscope::client", "ours");
            tracing::debug!(target: "hyper::proto", "theirs, debug");
            tracing::warn!(target: "hyper::proto", "theirs, warn");
        });
        assert_eq!(*seen.lock().unwrap(), ["ours", "theirs, warn"]);
    }

    /// Records each event's message.
    struct Recorder(std::sync::Arc<Mutex<Vec<String>>>);

    impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Recorder {
        fn on_event(
            &self,
            event: &tracing::Event<'_>,
            _: tracing_subscriber::layer::Context<'_, S>,
        ) {
            struct Message(String);
            impl tracing::field::Visit for Message {
                fn record_debug(&mut self, f: &tracing::field::Field, v: &dyn std::fmt::Debug) {
                    if f.name() == "message" {
                        self.0 = format!("{v:?}");
                    }
                }
            }
            let mut m = Message(String::new());
            event.record(&mut m);
            self.0.lock().unwrap().push(m.0);
        }
    }

    #[test]
    fn the_log_file_is_appended_to_and_private() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/data").join(LOG_FILE);
        {
            use std::io::Write;
            let mut f = open_log(&path).unwrap();
            f.write_all(b"one\n").unwrap();
        }
        {
            use std::io::Write;
            let mut f = open_log(&path).unwrap();
            f.write_all(b"two\n").unwrap();
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
    }

    /// A shared buffer as a writer maker.
    #[derive(Clone, Default)]
    struct Buffer(std::sync::Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_rest_key_typed_into_a_url_is_blanked_in_every_log_line() {
        let key = "typed-KEY/42+x";
        redact_in_logs(&Secret::new(key));
        // Too short to blank safely: left alone.
        redact_in_logs(&Secret::new("k"));
        let buf = Buffer::default();
        let out = buf.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_env_filter(EnvFilter::new("trace"))
            .with_writer(Redacting(move || buf.clone()))
            .with_ansi(false)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            tracing::debug!(
                url = "https://x.test/v2/typed-KEY/42+x/items?k=typed-KEY%2F42%2Bx",
                "sending"
            );
            tracing::trace!(headers = ?vec![("x-key", key)], "request headers");
            tracing::debug!("keep kind and kinds");
        });
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(!text.contains("typed-KEY"), "{text}");
        assert!(text.contains("https://x.test/v2/***/items?k=***"), "{text}");
        assert!(text.contains("(\"x-key\", \"***\")"), "{text}");
        assert!(text.contains("keep kind and kinds"), "{text}");
    }

    #[test]
    fn an_unwritable_place_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("file");
        std::fs::write(&blocker, "x").unwrap();
        // The data dir would have to be inside a regular file.
        assert!(open_log(&blocker.join(LOG_FILE)).is_err());
    }
}
