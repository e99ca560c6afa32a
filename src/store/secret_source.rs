//! Where a profile's REST key comes from, and how it is read: the one resolver of a REST key
//! reference (`env:NAME`, `file:PATH`, `cmd:COMMAND`, `keyring:SERVICE/ACCOUNT`;
//! `docs/profiles.md`, "Where the REST key comes from") for profiles, the workbench, the CLI's
//! `--rest-key REF`, suites and the server.
//!
//! Every value read (environment, file, command output, stored text) goes through
//! [`Secret::from_read_text`], so one trailing LF/CRLF is dropped and nothing else is touched
//! (`docs/signing.md` rule S10). A key is never part of an error message or of [`KeySource::describe`].

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::core::Secret;

/// How long a key command (`pass show ...`, `op read ...`) may run before it is killed.
pub const DEFAULT_COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

/// Most bytes of a failing command's stderr shown to the user.
const STDERR_SHOWN: usize = 2000;

/// Where the REST key comes from.
#[derive(Clone, PartialEq, Eq)]
pub enum KeySource {
    /// The name of an environment variable holding the key.
    Env(String),
    /// A file whose content is the key.
    File(PathBuf),
    /// A program and its arguments (run directly, no shell); its stdout is the key.
    Command(Vec<String>),
    /// An entry of the operating system's key store ([`super::os_store`]).
    Keyring { service: String, account: String },
    /// The key itself, kept in the profile file (only when the user asked; the file is 0600).
    Stored(Secret),
    /// The demo account's published key (the built-in `demo` profile).
    Demo,
}

impl std::fmt::Debug for KeySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `describe` never contains the key; Stored's Secret prints *** anyway.
        write!(f, "KeySource({})", self.describe())
    }
}

/// Why a key could not be read. Each reads as one sentence and never contains the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    #[error("the environment variable {var} that should hold the REST key is not set")]
    EnvMissing { var: String },
    #[error("the environment variable {var} that should hold the REST key is not valid UTF-8")]
    EnvNotUnicode { var: String },
    #[error("cannot read the REST key file {path}: {reason}")]
    FileRead { path: PathBuf, reason: String },
    #[error("the REST key file {path} is not valid UTF-8 text")]
    FileNotUnicode { path: PathBuf },
    #[error("the REST key command is empty; give a program and its arguments")]
    EmptyCommand,
    #[error("cannot run the REST key command `{program}`: {reason}")]
    CommandSpawn { program: String, reason: String },
    #[error("the REST key command `{program}` failed ({status}){}", stderr_suffix(.stderr))]
    CommandFailed {
        program: String,
        status: String,
        stderr: String,
    },
    #[error(
        "the REST key command `{program}` did not finish within {seconds} s and was stopped; make it print the key without waiting for input (unlock its store first) or give another reference"
    )]
    CommandTimeout { program: String, seconds: u64 },
    #[error("the REST key command `{program}` was stopped before it finished (cancelled)")]
    CommandCancelled { program: String },
    #[error("the REST key command `{program}` printed something that is not UTF-8 text")]
    CommandNotUnicode { program: String },
    #[error(
        "the REST key from {source_desc} is empty; put the key there or give another reference"
    )]
    Empty { source_desc: String },
    #[error("the REST key file {path} is a directory; give the file inside it")]
    FileIsDirectory { path: PathBuf },
    #[error(
        "the REST key file {path} can be read by other users of this machine (mode {mode:o}); make it yours only with `chmod 600 {}`",
        shell_words::quote(&path.to_string_lossy())
    )]
    FileReadableByOthers { path: PathBuf, mode: u32 },
    #[error("{0}")]
    Store(#[from] super::os_store::StoreFailure),
}

/// Why a REST key reference could not be understood. Never contains the text given (it may be
/// the key itself, typed where a reference belongs).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefError {
    #[error(
        "a REST key reference starts with env:, file:, cmd: or keyring: (env:NAME, file:PATH, \
         cmd:COMMAND, keyring:SERVICE/ACCOUNT); the key itself is never given on the command line"
    )]
    UnknownKind,
    #[error("the REST key reference {kind}: names nothing; write {kind}:{example}")]
    Empty {
        kind: &'static str,
        example: &'static str,
    },
    #[error("the command in the REST key reference cmd: cannot be split into words ({reason}); close its quotes")]
    BadCommand { reason: String },
    #[error(
        "the REST key reference keyring: needs a service and an account, as keyring:SERVICE/ACCOUNT \
         (for example keyring:signscope/shop)"
    )]
    BadKeyring,
}

impl KeyError {
    /// The error without what a failing key command printed (for logs: a command's stderr can
    /// hold anything, even the key, and a log file outlives the screen).
    pub fn without_output(&self) -> KeyError {
        match self {
            KeyError::CommandFailed {
                program, status, ..
            } => KeyError::CommandFailed {
                program: program.clone(),
                status: status.clone(),
                stderr: String::new(),
            },
            e => e.clone(),
        }
    }
}

fn stderr_suffix(stderr: &str) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!("; it said: {stderr}")
    }
}

impl std::str::FromStr for KeySource {
    type Err = RefError;

    /// Parse a reference: `env:NAME`, `file:PATH`, `cmd:COMMAND` (split into words like a shell
    /// would, run without one; `cmd:sh -c '...'` asks for a shell), `keyring:SERVICE/ACCOUNT`.
    fn from_str(text: &str) -> Result<Self, RefError> {
        let (kind, rest) = text.split_once(':').ok_or(RefError::UnknownKind)?;
        let empty = |kind, example| RefError::Empty { kind, example };
        match kind {
            "env" if rest.is_empty() => Err(empty("env", "NAME")),
            "env" => Ok(KeySource::Env(rest.to_string())),
            "file" if rest.is_empty() => Err(empty("file", "PATH")),
            "file" => Ok(KeySource::File(PathBuf::from(rest))),
            "cmd" => {
                let argv = shell_words::split(rest).map_err(|e| RefError::BadCommand {
                    reason: e.to_string(),
                })?;
                if argv.is_empty() {
                    return Err(empty("cmd", "COMMAND"));
                }
                Ok(KeySource::Command(argv))
            }
            "keyring" => match rest.split_once('/') {
                Some((service, account)) if !service.is_empty() && !account.is_empty() => {
                    Ok(KeySource::Keyring {
                        service: service.to_string(),
                        account: account.to_string(),
                    })
                }
                _ => Err(RefError::BadKeyring),
            },
            _ => Err(RefError::UnknownKind),
        }
    }
}

impl KeySource {
    /// The reference that reads back as this source (`env:SHOP_KEY`, `keyring:signscope/shop`);
    /// `None` for a key kept in the profile file or the demo key, which have none. Never the key.
    pub fn reference(&self) -> Option<String> {
        match self {
            KeySource::Env(var) => Some(format!("env:{var}")),
            KeySource::File(p) => Some(format!("file:{}", p.display())),
            KeySource::Command(argv) => Some(format!("cmd:{}", shell_words::join(argv))),
            KeySource::Keyring { service, account } => Some(format!("keyring:{service}/{account}")),
            KeySource::Stored(_) | KeySource::Demo => None,
        }
    }

    /// Read the key. Commands get [`DEFAULT_COMMAND_TIMEOUT`].
    pub fn resolve(&self) -> Result<Secret, KeyError> {
        self.resolve_with_timeout(DEFAULT_COMMAND_TIMEOUT)
    }

    /// Read the key, giving a command at most `timeout`.
    pub fn resolve_with_timeout(&self, timeout: Duration) -> Result<Secret, KeyError> {
        self.resolve_cancellable(timeout, &AtomicBool::new(false))
    }

    /// Read the key, giving a command at most `timeout`; a command still running when `cancel`
    /// becomes true is stopped (the workbench's Esc while "resolving the REST key…").
    pub fn resolve_cancellable(
        &self,
        timeout: Duration,
        cancel: &AtomicBool,
    ) -> Result<Secret, KeyError> {
        let result = self.read_key(timeout, cancel);
        // The kind of source only: a command line or a path is the user's business, and the
        // key is never logged.
        match &result {
            Ok(_) => tracing::debug!(source = self.kind(), "REST key read"),
            Err(e) => {
                tracing::debug!(source = self.kind(), error = %e.without_output(), "REST key not read")
            }
        }
        result
    }

    fn read_key(&self, timeout: Duration, cancel: &AtomicBool) -> Result<Secret, KeyError> {
        let secret = match self {
            KeySource::Env(var) => match std::env::var(var) {
                Ok(v) => Secret::from_read_text(v),
                Err(std::env::VarError::NotPresent) => {
                    return Err(KeyError::EnvMissing { var: var.clone() })
                }
                Err(std::env::VarError::NotUnicode(_)) => {
                    return Err(KeyError::EnvNotUnicode { var: var.clone() })
                }
            },
            KeySource::File(path) => read_key_file(path)?,
            KeySource::Command(argv) => run_key_command(argv, timeout, cancel)?,
            KeySource::Keyring { service, account } => super::os_store::read(service, account)?,
            KeySource::Stored(s) => Secret::from_read_text(s.expose().to_string()),
            KeySource::Demo => Secret::new(crate::core::demo::DEMO_REST_KEY),
        };
        if secret.is_empty() {
            return Err(KeyError::Empty {
                source_desc: self.describe(),
            });
        }
        Ok(secret)
    }

    /// A key given by reference in one string, as a suite file gives it: a reference the one
    /// parser reads (`env:NAME`, `file:PATH`, `cmd:COMMAND`, `keyring:SERVICE/ACCOUNT`) or
    /// `demo`. Anything else is refused with the sentence that names the forms, never echoing
    /// the text (it may be a pasted key).
    pub fn from_reference(text: &str) -> Result<KeySource, String> {
        let text = text.trim();
        if text == "demo" {
            return Ok(KeySource::Demo);
        }
        // The one parser of references (`FromStr`): a suite resolves a key as a profile does.
        text.parse::<KeySource>().map_err(|e| e.to_string())
    }

    /// A human description of the source, e.g. `environment variable SHOP_KEY`. Never the key.
    pub fn describe(&self) -> String {
        match self {
            KeySource::Env(var) => format!("environment variable {var}"),
            KeySource::File(p) => format!("file {}", p.display()),
            KeySource::Command(argv) => format!("command `{}`", argv.join(" ")),
            KeySource::Keyring { service, account } => {
                format!("operating-system key store entry keyring:{service}/{account}")
            }
            KeySource::Stored(_) => "stored in the profile file (***)".to_string(),
            KeySource::Demo => "the demo account's published key".to_string(),
        }
    }

    /// The kind of source in one word (`env`, `file`, `command`, `stored`, `demo`), for logs.
    pub fn kind(&self) -> &'static str {
        match self {
            KeySource::Env(_) => "env",
            KeySource::File(_) => "file",
            KeySource::Command(_) => "command",
            KeySource::Keyring { .. } => "keyring",
            KeySource::Stored(_) => "stored",
            KeySource::Demo => "demo",
        }
    }

    /// Whether the key itself is written into the profile file.
    pub fn is_stored(&self) -> bool {
        matches!(self, KeySource::Stored(_))
    }
}

/// Permission bits that let users other than the owner read a file: the group's and
/// everyone's read bits.
const READ_BY_OTHERS: u32 = 0o044;

/// A key file's text. A directory, and a file that the group or every user may read, are
/// refused with the fix before a byte is read (`docs/profiles.md`, "Where the REST key comes
/// from").
fn read_key_file(path: &std::path::Path) -> Result<Secret, KeyError> {
    let read_error = |e: std::io::Error| KeyError::FileRead {
        path: path.to_path_buf(),
        reason: super::io::io_reason(&e),
    };
    let meta = std::fs::metadata(path).map_err(read_error)?;
    if meta.is_dir() {
        return Err(KeyError::FileIsDirectory {
            path: path.to_path_buf(),
        });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        if mode & READ_BY_OTHERS != 0 {
            return Err(KeyError::FileReadableByOthers {
                path: path.to_path_buf(),
                mode,
            });
        }
    }
    let bytes = std::fs::read(path).map_err(read_error)?;
    let text = String::from_utf8(bytes).map_err(|_| KeyError::FileNotUnicode {
        path: path.to_path_buf(),
    })?;
    Ok(Secret::from_read_text(text))
}

/// Run `argv` directly (no shell); stdout is the key. stderr is shown if it fails.
fn run_key_command(
    argv: &[String],
    timeout: Duration,
    cancel: &AtomicBool,
) -> Result<Secret, KeyError> {
    let (program, args) = argv.split_first().ok_or(KeyError::EmptyCommand)?;
    if program.is_empty() {
        return Err(KeyError::EmptyCommand);
    }
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| KeyError::CommandSpawn {
            program: program.clone(),
            reason: super::io::io_reason(&e),
        })?;
    // Drain both pipes on threads so a chatty command cannot block on a full pipe.
    let out_thread = drain(child.stdout.take().expect("stdout is piped"));
    let err_thread = drain(child.stderr.take().expect("stderr is piped"));
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if cancel.load(Ordering::Relaxed) || Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                let program = program.clone();
                return Err(if cancel.load(Ordering::Relaxed) {
                    KeyError::CommandCancelled { program }
                } else {
                    let seconds = timeout.as_secs().max(1);
                    KeyError::CommandTimeout { program, seconds }
                });
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => {
                let _ = child.kill();
                return Err(KeyError::CommandSpawn {
                    program: program.clone(),
                    reason: super::io::io_reason(&e),
                });
            }
        }
    };
    let stdout = out_thread.join().unwrap_or_default();
    let stderr = err_thread.join().unwrap_or_default();
    if !status.success() {
        let mut text = redact(&String::from_utf8_lossy(&stderr), &stdout);
        if text.len() > STDERR_SHOWN {
            let mut cut = STDERR_SHOWN;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
            text.push_str("...");
        }
        let status = match status.code() {
            Some(c) => format!("exit status {c}"),
            None => "killed by a signal".to_string(),
        };
        return Err(KeyError::CommandFailed {
            program: program.clone(),
            status,
            stderr: text,
        });
    }
    let text = String::from_utf8(stdout).map_err(|_| KeyError::CommandNotUnicode {
        program: program.clone(),
    })?;
    Ok(Secret::from_read_text(text))
}

/// All of `pipe`, read on a thread of its own.
fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = pipe.read_to_end(&mut buf);
        buf
    })
}

/// A failing command's stderr, trimmed, with anything it also printed on stdout masked: a
/// command that fails after printing the key (a wrapper run with `set -x`, a tool that echoes
/// its output in an error) must not put the key into the error on screen.
fn redact(stderr: &str, stdout: &[u8]) -> String {
    let mut text = stderr.trim().to_string();
    let stdout = String::from_utf8_lossy(stdout);
    // Short lines ("ok", "1") would mask ordinary words; a key is longer than that.
    let mut lines: Vec<&str> = stdout
        .lines()
        .map(str::trim)
        .filter(|l| l.len() >= 6)
        .collect();
    // Longest first, so a line that contains a shorter one is masked whole.
    lines.sort_by_key(|l| std::cmp::Reverse(l.len()));
    for line in lines {
        text = text.replace(line, "***");
    }
    text
}

#[cfg(test)]
mod tests {

    #[test]
    fn references_parse_and_an_inline_key_is_refused_without_echo() {
        assert_eq!(
            KeySource::from_reference("env:SHOP_KEY"),
            Ok(KeySource::Env("SHOP_KEY".into()))
        );
        assert_eq!(
            KeySource::from_reference("file:/run/key"),
            Ok(KeySource::File("/run/key".into()))
        );
        assert_eq!(
            KeySource::from_reference("cmd:pass show shop"),
            Ok(KeySource::Command(vec![
                "pass".into(),
                "show".into(),
                "shop".into()
            ]))
        );
        assert_eq!(KeySource::from_reference("demo"), Ok(KeySource::Demo));
        let e = KeySource::from_reference("abcd-secret-1234").unwrap_err();
        assert!(e.contains("env:NAME") && !e.contains("abcd"), "{e}");
        assert!(KeySource::from_reference("env:").is_err());
    }
    use super::*;

    fn sh(script: &str) -> KeySource {
        KeySource::Command(vec!["sh".into(), "-c".into(), script.into()])
    }

    #[test]
    fn command_stdout_is_the_key_minus_one_newline() {
        let k = sh("printf 'abc \\n'").resolve().unwrap();
        assert_eq!(k.expose(), "abc ");
    }

    #[test]
    fn command_failure_shows_stderr_and_status() {
        let e = sh("echo 'entry not found' >&2; exit 3")
            .resolve()
            .unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("exit status 3"), "{msg}");
        assert!(msg.contains("entry not found"), "{msg}");
    }

    #[test]
    fn a_failing_command_that_printed_the_key_does_not_show_it() {
        let key = "sk-live-0123456789abcdef";
        let e = sh(&format!(
            "printf '{key}\\n'; echo \"+ echo {key}\" >&2; echo 'vault locked' >&2; exit 1"
        ))
        .resolve()
        .unwrap_err();
        let msg = e.to_string();
        assert!(!msg.contains(key), "{msg}");
        assert!(msg.contains("+ echo ***"), "{msg}");
        assert!(msg.contains("vault locked"), "{msg}");
        // What is logged leaves out the command's output altogether.
        let logged = e.without_output().to_string();
        assert!(!logged.contains("vault locked"), "{logged}");
        assert!(logged.contains("exit status 1"), "{logged}");
    }

    #[test]
    fn command_is_not_run_through_a_shell() {
        // With a shell, `$HOME` would expand; echo must receive it literally.
        let k = KeySource::Command(vec!["echo".into(), "$HOME;x".into()])
            .resolve()
            .unwrap();
        assert_eq!(k.expose(), "$HOME;x");
    }

    #[test]
    fn command_timeout_stops_it() {
        let e = sh("sleep 5")
            .resolve_with_timeout(Duration::from_millis(200))
            .unwrap_err();
        assert!(matches!(e, KeyError::CommandTimeout { .. }), "{e}");
        assert_eq!(
            e.to_string(),
            "the REST key command `sh` did not finish within 1 s and was stopped; make it print the key without waiting for input (unlock its store first) or give another reference"
        );
    }

    #[test]
    fn a_cancelled_command_is_stopped_at_once() {
        let cancel = std::sync::Arc::new(AtomicBool::new(false));
        let flag = cancel.clone();
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            flag.store(true, Ordering::Relaxed);
        });
        // Cancelled, not timed out (60 s) nor finished (an empty key).
        let e = sh("sleep 30")
            .resolve_cancellable(Duration::from_secs(60), &cancel)
            .unwrap_err();
        stopper.join().unwrap();
        assert!(matches!(e, KeyError::CommandCancelled { .. }), "{e}");
        assert_eq!(
            e.to_string(),
            "the REST key command `sh` was stopped before it finished (cancelled)"
        );
    }

    #[test]
    fn missing_program_is_one_sentence() {
        let e = KeySource::Command(vec!["/nonexistent/signscope-pass".into()])
            .resolve()
            .unwrap_err();
        assert!(
            e.to_string().starts_with("cannot run the REST key command"),
            "{e}"
        );
    }

    #[test]
    fn file_and_empty_and_missing() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("key");
        std::fs::write(&f, "file-key\r\n").unwrap();
        private(&f);
        assert_eq!(
            KeySource::File(f.clone()).resolve().unwrap().expose(),
            "file-key"
        );
        std::fs::write(&f, "\n").unwrap();
        assert!(matches!(
            KeySource::File(f.clone()).resolve(),
            Err(KeyError::Empty { .. })
        ));
        let missing = KeySource::File(dir.path().join("nope"))
            .resolve()
            .unwrap_err();
        assert!(missing.to_string().contains("nope"), "{missing}");
        let env = KeySource::Env("SIGNSCOPE_TEST_SURELY_UNSET_VAR".into())
            .resolve()
            .unwrap_err();
        assert_eq!(
            env.to_string(),
            "the environment variable SIGNSCOPE_TEST_SURELY_UNSET_VAR that should hold the REST key is not set"
        );
    }

    fn private(path: &std::path::Path) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
    }

    #[test]
    fn references_parse_and_read_back() {
        for text in [
            "env:SHOP_KEY",
            "file:/run/secrets/shop key",
            "cmd:pass show 'shop/rest key'",
            "keyring:signscope/shop",
            "keyring:svc/team/shop",
        ] {
            let source: KeySource = text.parse().unwrap();
            assert_eq!(source.reference().as_deref(), Some(text), "{source:?}");
        }
        assert_eq!(
            "cmd:pass show 'shop/rest key'"
                .parse::<KeySource>()
                .unwrap(),
            KeySource::Command(vec!["pass".into(), "show".into(), "shop/rest key".into()])
        );
        assert_eq!(
            "keyring:svc/team/shop".parse::<KeySource>().unwrap(),
            KeySource::Keyring {
                service: "svc".into(),
                account: "team/shop".into()
            }
        );
        assert_eq!(KeySource::Demo.reference(), None);
        assert_eq!(KeySource::Stored(Secret::new("x")).reference(), None);
    }

    #[test]
    fn a_bad_reference_is_one_sentence_without_the_text() {
        let key = "sk-live-typed-where-a-reference-belongs";
        for (text, expected) in [
            (key, RefError::UnknownKind),
            ("vault:sk-live-typed", RefError::UnknownKind),
            ("keyring:signscope", RefError::BadKeyring),
            ("keyring:/shop", RefError::BadKeyring),
            (
                "env:",
                RefError::Empty {
                    kind: "env",
                    example: "NAME",
                },
            ),
            (
                "cmd:  ",
                RefError::Empty {
                    kind: "cmd",
                    example: "COMMAND",
                },
            ),
        ] {
            let e = text.parse::<KeySource>().unwrap_err();
            assert_eq!(e, expected, "{text}");
            assert!(!e.to_string().contains("sk-live"), "{e}");
        }
        assert!(matches!(
            "cmd:pass show 'shop".parse::<KeySource>(),
            Err(RefError::BadCommand { .. })
        ));
    }

    #[test]
    fn a_directory_is_refused_with_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        let e = KeySource::File(dir.path().to_path_buf())
            .resolve()
            .unwrap_err();
        assert!(matches!(e, KeyError::FileIsDirectory { .. }), "{e}");
        assert!(e.to_string().contains("give the file inside it"), "{e}");
    }

    /// A key file the group or every user may read is refused before it is read, with the
    /// command that fixes it (the path quoted for a shell); the owner's own file is read.
    #[cfg(unix)]
    #[test]
    fn a_key_file_others_may_read_is_refused_with_the_fix() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("shop key");
        std::fs::write(&f, "sk-readable-by-others\n").unwrap();
        for mode in [0o644, 0o640, 0o604, 0o444] {
            std::fs::set_permissions(&f, std::fs::Permissions::from_mode(mode)).unwrap();
            let e = KeySource::File(f.clone()).resolve().unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "the REST key file {} can be read by other users of this machine (mode {mode:o}); make it yours only with `chmod 600 '{}'`",
                    f.display(),
                    f.display()
                )
            );
        }
        // Only the read bits count: the owner's 0600, 0400 and a group-writable 0620 are read.
        for mode in [0o600, 0o400, 0o620] {
            std::fs::set_permissions(&f, std::fs::Permissions::from_mode(mode)).unwrap();
            let key = KeySource::File(f.clone()).resolve().unwrap();
            assert_eq!(key.expose(), "sk-readable-by-others", "{mode:o}");
        }
    }

    #[test]
    fn an_empty_variable_or_a_silent_command_names_the_source_and_the_fix() {
        let e = sh("true").resolve().unwrap_err();
        assert_eq!(
            e.to_string(),
            "the REST key from command `sh -c true` is empty; put the key there or give another reference"
        );
    }

    #[test]
    fn demo_and_debug_never_show_a_key() {
        assert_eq!(
            KeySource::Demo.resolve().unwrap().expose(),
            crate::core::demo::DEMO_REST_KEY
        );
        let stored = KeySource::Stored(Secret::new("very-secret-value-42"));
        assert!(!format!("{stored:?}").contains("very-secret"));
        assert!(!stored.describe().contains("very-secret"));
    }
}
