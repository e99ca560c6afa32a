//! The headless command line. Each subcommand lives in its own file with its `Args` and a `run`
//! that returns the process exit code. Errors a user can cause are printed as one sentence on
//! stderr with exit code 2.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod check;
pub mod doctor;
pub mod events;
pub mod generate;
pub mod history;
pub mod key;
pub mod keys;
pub mod learn;
pub mod profile;
pub mod profile_request;
pub mod request_flags;
pub mod send;
pub mod serve;
pub mod serve_ci;
pub mod sign;
pub mod sign_args;
pub mod test;
pub mod verify;
pub mod watch;

/// Exit code for unusable input (missing file, unreadable key, bad flag value).
pub const EXIT_USAGE: u8 = 2;

#[derive(Debug, Default, Parser)]
#[command(
    name = "signscope",
    // "0.1.0 (commit)": build.rs, which says what is printed outside a git checkout.
    version = env!("SIGNSCOPE_VERSION"),
    about = "A workbench for HMAC-SHA384 signed indexing requests and recommendation events",
    long_about = "Without a subcommand, opens the interactive workbench (TUI) on the last used \
                  profile, or on the built-in demo profile backed by an in-process local server."
)]
pub struct Cli {
    /// Profile to open in the workbench.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,

    /// Where the workbench's in-process server listens, e.g. 127.0.0.1:8787, so that an
    /// application's configuration stays valid between runs (default: a free loopback port).
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<std::net::SocketAddr>,

    /// Show the traffic of another signscope server (e.g. http://127.0.0.1:8080) in the
    /// workbench's Traffic view instead of the in-process server's.
    #[arg(long, value_name = "URL")]
    pub watch: Option<String>,

    /// Open this HAR file (or file of raw HTTP requests or curl commands) in the workbench's
    /// Traffic view: its requests arrive as if just received, judged at their capture's time.
    #[arg(long, value_name = "FILE")]
    pub har: Option<std::path::PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Sign a request and print the signing text, the signature and the headers.
    Sign(sign::SignArgs),
    /// Verify a captured raw HTTP request and explain a failing signature.
    Verify(verify::VerifyArgs),
    /// Judge every request of a capture (a HAR, raw HTTP or curl) as the local server would.
    Check(check::CheckArgs),
    /// Send a signed indexing request using a profile.
    Send(send::SendArgs),
    /// Run request suites (`*.signscope.toml`) and judge every answer against its expectations.
    Test(test::TestArgs),
    /// Compose, validate and send recommendation event batches.
    Events(events::EventsArgs),
    /// Run the local verifying server.
    Serve(serve::ServeArgs),
    /// Wait until a signscope server answers (a URL, or the ready file of `serve --ready-file`).
    Wait(serve_ci::WaitArgs),
    /// Follow a local server's live stream: one line per request it answers.
    Watch(watch::WatchArgs),
    /// Manage saved profiles.
    Profile(profile::ProfileArgs),
    /// Keep a profile's REST key in the operating system's key store (set, get --reveal, delete).
    Key(key::KeyArgs),
    /// Check every profile: its key resolves (never shown), header prefix, the server's clock,
    /// file permissions; and what to do about each problem.
    Doctor(doctor::DoctorArgs),
    /// Show past sends.
    History(history::HistoryArgs),
    /// Learn the signing scheme: a guided lesson, then exercises.
    Learn(learn::LearnArgs),
    /// Print shell completions (bash, zsh, fish, elvish, powershell).
    Completions(generate::CompletionsArgs),
    /// Print the manual page, or write every page into a folder with --dir.
    Man(generate::ManArgs),
}

/// Run a subcommand; its exit code, or the error to print ([`exit_code`]). Without a
/// subcommand `main` opens the workbench instead.
pub fn run(command: Command) -> anyhow::Result<u8> {
    if only_prints(&command) {
        die_quietly_when_stdout_closes();
    }
    match command {
        Command::Sign(a) => sign::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Check(a) => check::run(a),
        Command::Send(a) => send::run(a),
        Command::Test(a) => test::run(a),
        Command::Events(a) => events::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Watch(a) => watch::run(a),
        Command::Wait(a) => serve_ci::wait(a),
        Command::Profile(a) => profile::run(a),
        Command::Key(a) => key::run(a),
        Command::Doctor(a) => doctor::run(a),
        Command::History(a) => history::run(a),
        Command::Learn(a) => learn::run(a),
        Command::Completions(a) => generate::completions(a),
        Command::Man(a) => generate::man(a),
    }
}

/// The process exit code of a command's (or the workbench's) outcome; an error is printed as
/// one sentence on stderr.
pub fn exit_code(result: anyhow::Result<u8>) -> ExitCode {
    match result {
        Ok(code) => ExitCode::from(code),
        // The reader of stdout went away (`| head`): nothing to tell it; exit as a process
        // killed by SIGPIPE would (128 + 13).
        Err(err) if is_broken_pipe(&err) => ExitCode::from(141),
        Err(err) => {
            eprintln!("signscope: {}", one_sentence(&err));
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Commands that open no socket and only print: sign, verify, events new/validate, profile,
/// history, completions, man.
fn only_prints(cmd: &Command) -> bool {
    match cmd {
        Command::Sign(_)
        | Command::Verify(_)
        | Command::Check(_)
        | Command::Profile(_)
        | Command::History(_)
        | Command::Completions(_)
        | Command::Man(_) => true,
        Command::Events(e) => !matches!(e.command, events::EventsCommand::Send(_)),
        Command::Send(_)
        | Command::Test(_)
        | Command::Serve(_)
        | Command::Wait(_)
        | Command::Watch(_)
        | Command::Key(_)
        | Command::Doctor(_)
        | Command::Learn(_) => false,
    }
}

/// `signscope history | head -1` ends quietly, as `cat` does, instead of panicking in
/// `println!` ("failed printing to stdout: Broken pipe") or printing "Broken pipe". Rust
/// ignores SIGPIPE; the default action is restored only for commands without sockets, whose
/// writes must keep getting EPIPE instead of a signal.
#[allow(unsafe_code)] // the audited block below (SAFETY comment)
fn die_quietly_when_stdout_closes() {
    #[cfg(unix)]
    // SAFETY: called before any thread is started; SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// An error chain as one line: "outer: inner: root".
pub fn one_sentence(err: &anyhow::Error) -> String {
    format!("{err:#}")
}

/// A runtime on this thread for a command's async work.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    use anyhow::Context;
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("could not start the async runtime")
}

/// The server time a `--now` flag names, else the clock (`verify` and `check` judge at it).
fn now_from_flag(now: Option<&str>) -> anyhow::Result<chrono::DateTime<chrono::Utc>> {
    let Some(ts) = now else {
        return Ok(chrono::Utc::now());
    };
    match crate::core::time::parse_timestamp(ts) {
        Some(p) => Ok(p.time),
        None => anyhow::bail!(
            "the --now value \"{}\" is not an RFC 3339 time such as 2026-11-22T10:00:00.000Z",
            crate::core::visible::escape_visible(ts.as_bytes())
        ),
    }
}
