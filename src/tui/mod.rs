//! The interactive workbench (ratatui + crossterm), built the Elm way:
//!
//! ```text
//! terminal input, signals, results of I/O ──> Message ──> update(&mut App, Message) ──> Vec<Command>
//!        ^                                                   |                            |
//!        └──────────── runtime executes Commands (signing worker, HTTP, clipboard) <──────┘
//! view::draw(&App) runs only after something changed.
//! ```
//!
//! - [`app`]: the state (one field per component); [`message`]: what can happen;
//!   [`effect`]: what the runtime is asked to do; [`update`]: the router (global keys, popups,
//!   then the focused component);
//! - [`components`]: one folder per view, each owning its state, messages, update and draw;
//! - [`widgets`]: shared widgets; [`layout`]: the frame and the tabs; [`model`]: plain data;
//! - [`runtime`]: the event loop and the effects; [`signing`]: the signing worker (incremental);
//! - [`view`]: the frame, tabs, status line and global popups; [`terminal`]: setup and
//!   restoration; [`theme`]: styles, NO_COLOR.

pub mod app;
pub mod component;
pub mod components;
pub mod effect;
pub mod global_keys;
pub mod keymap;
pub mod layout;
pub mod message;
pub mod model;
pub mod palette;
pub mod popups;
pub mod runtime;
pub mod send_keys;
pub mod signing;
pub mod status;
pub mod terminal;
pub mod theme;
pub mod unsaved;
pub mod update;
pub mod user_keys;
pub mod view;
pub mod widgets;
pub mod worker;

use chrono::{DateTime, Utc};

use self::app::App;
use self::model::KeyInfo;
use crate::core::Secret;

/// glibc raises its mmap threshold to the size of the largest block freed (up to 32 MiB); after
/// that, big buffers (a 16 MB body and its short-lived copies while a profile loads) come from
/// the heap and their pages stay with the process. A fixed threshold keeps every block over
/// 1 MiB in its own mapping, given back to the system when freed: the workbench's RSS follows
/// what it holds. And glibc gives each thread that allocates an arena of its own (up to 8 per
/// core), each holding its freed pages: two arenas serve the workbench's threads (the event
/// loop, the runtime's, the signer's), which seldom allocate at the same moment
/// (`benches/README.md`, "Start-up and idle memory").
///
/// Kept instead of a maintained allocator, by measurement (`benches/README.md`, "Allocator"):
/// the release workbench with `mimalloc` idled at 28.7 MiB on the demo profile (15.3 MiB with
/// glibc and this threshold) and at 84 MiB just after opening a profile with a 16 MiB body
/// (30.8 MiB); `jemalloc` matched glibc here (16.4 and 31.6 MiB) but not in the server (see
/// `server::store::release_memory`), and one allocator serves both.
#[allow(unsafe_code)] // the audited block below (SAFETY comment)
fn tune_malloc() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator tunables; it is called before any other thread
    // starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

/// How the workbench is opened (`signscope [--profile NAME] [--listen ADDR] [--watch URL]`).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The profile to open (else the last used, else the demo).
    pub profile: Option<String>,
    /// Where the in-process server listens (else a free loopback port).
    pub listen: Option<std::net::SocketAddr>,
    /// Show another server's traffic in the Traffic view instead of the in-process server's.
    pub watch: Option<String>,
    /// A capture to open in the Traffic view (`docs/har.md`).
    pub har: Option<std::path::PathBuf>,
}

/// Open the workbench on a profile: the one named, else the last used, else the demo (with the
/// local server in-process on a free loopback port, or on `--listen`). Returns the exit code.
pub fn run(opts: Options) -> anyhow::Result<u8> {
    let Options {
        profile,
        listen,
        watch,
        har,
    } = opts;
    let listener = check_before_the_terminal(har.as_deref(), watch.as_deref(), listen)?;
    tune_malloc();
    let paths = crate::store::Paths::discover().map_err(|e| anyhow::anyhow!("{e}"))?;
    // The user's keys file: a bad entry is one sentence before the terminal is taken.
    user_keys::load(&paths.config_dir).map_err(|e| anyhow::anyhow!(e))?;
    let log_warning = start_logging(&paths);
    let (mut session, mut note) = open_session(paths, profile)?;
    // The in-process server, on --listen or a free loopback port, for the Traffic view and for
    // profiles whose URLs say `embedded`: its address is bound now, so the first frame shows it;
    // it serves from just after that frame.
    note = note.or(session.reserve_embedded(listener));
    // The body moves to the editor; the session keeps the profile without it.
    let (loaded, url_note) = runtime::open_current(&mut session);
    note = note.or(url_note);
    tracing::debug!(profile = %loaded.name, demo = loaded.is_demo, key = loaded.key.is_some(),
        "profile opened");
    let (mut app, mut startup) = open_app(loaded, Utc::now());
    startup.extend(follow_traffic(&mut app, watch, &mut session));
    if let Some(path) = har {
        app.view = layout::View::Traffic;
        startup.push(effect::Command::Traffic {
            effect: components::traffic::TrafficEffect::OpenHar(path),
            key: app.request.key(),
        });
    }
    app.theme = theme::Theme::new(theme::Theme::no_color_from_env());
    let note = first_note(note, log_warning, listen, &session);
    runtime::run_app_with(
        app,
        Some(session),
        note,
        startup,
        runtime::LoopHooks::default(),
    )
}

/// What is said in one sentence before the terminal is taken over: a HAR file that is not
/// there, a bad --watch URL, a pinned port already in use, an output that is not a terminal.
/// Returns the in-process server's listener: its port is bound first, so the address is known
/// for the first frame (the server itself starts once the profile, and its forwarding, is
/// known, on the workbench's runtime).
fn check_before_the_terminal(
    har: Option<&std::path::Path>,
    watch: Option<&str>,
    listen: Option<std::net::SocketAddr>,
) -> anyhow::Result<std::net::TcpListener> {
    if let Some(h) = har {
        std::fs::metadata(h).map_err(|e| anyhow::anyhow!("--har {}: {e}", h.display()))?;
    }
    if let Some(w) = watch {
        crate::client::stream::stream_url(w, "--watch")?;
    }
    let listener = bind_listener(listen)?;
    // Drawing goes to stdout: redirected, the workbench cannot run (it said "could not set up
    // the terminal: No such device or address (os error 6)").
    if !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        anyhow::bail!(
            "the workbench needs a terminal, but standard output is not one; in scripts use a subcommand (`signscope --help` lists them)"
        );
    }
    Ok(listener)
}

/// Logs go to a file in the data dir, never to the terminal the workbench draws on; why not,
/// for the first status line.
fn start_logging(paths: &crate::store::Paths) -> Option<String> {
    match crate::logging::init_file(&paths.data_dir) {
        Ok(crate::logging::Logging::File(path)) => {
            tracing::debug!(log = %path.display(), config_dir = %paths.config_dir.display(),
                data_dir = %paths.data_dir.display(), "workbench starting");
            None
        }
        Ok(_) => None,
        Err(warning) => Some(warning.to_string()),
    }
}

/// The engine opens the profile and applies the one last-used policy (`docs/architecture.md`,
/// "Last used profile"). With several saved profiles and none used last, the CLI asks for
/// --profile; the workbench opens the demo and says so (the note). Opened unmarked: the event
/// loop remembers it as the last used one after the first frame (the write syncs to disk).
fn open_session(
    paths: crate::store::Paths,
    profile: Option<String>,
) -> anyhow::Result<(crate::engine::Session, Option<String>)> {
    let opts = crate::engine::ClientOptions::default();
    let open =
        |name: Option<&str>| crate::engine::Session::open_unmarked_in(paths.clone(), name, opts);
    match open(profile.as_deref()) {
        Ok(s) => Ok((s, None)),
        Err(e @ crate::engine::EngineError::ChooseProfile { .. }) if profile.is_none() => {
            let note = format!("{e}; the demo is open");
            Ok((open(Some(crate::store::DEMO_PROFILE))?, Some(note)))
        }
        Err(e) => match profile {
            Some(name) => anyhow::bail!("cannot open profile {name}: {e}"),
            None => anyhow::bail!("{e}"),
        },
    }
}

/// The Traffic view follows the in-process server (started now when the profile did not need
/// it), or the server named with --watch; the commands that start it.
fn follow_traffic(
    app: &mut App,
    watch: Option<String>,
    session: &mut crate::engine::Session,
) -> Vec<effect::Command> {
    let source = match watch {
        Some(url) => Ok((url.trim_end_matches('/').to_string(), true)),
        None => session
            .embedded_url()
            .map(|u| (u, false))
            .map_err(|e| e.to_string()),
    };
    let (address, watching) = match source {
        Ok(s) => s,
        Err(e) => {
            let msg = components::traffic::TrafficMsg::Waiting(e);
            update::update(app, message::Message::Traffic(msg));
            return vec![];
        }
    };
    let msg = components::traffic::TrafficMsg::Source {
        address: address.clone(),
        watching,
    };
    let mut cmds = update::update(app, message::Message::Traffic(msg));
    cmds.push(effect::Command::FollowTraffic(address));
    cmds
}

/// The first status line: a public --listen address first (as `serve --addr` says it: everyone
/// who can reach the address can use the server and read every request it keeps), then what
/// opening said, then a log file that could not be written; the demo's note when nothing else.
fn first_note(
    note: Option<String>,
    log_warning: Option<String>,
    listen: Option<std::net::SocketAddr>,
    session: &crate::engine::Session,
) -> Option<String> {
    let parts: Vec<String> = listen_warning(listen)
        .into_iter()
        .chain(note)
        .chain(log_warning)
        .collect();
    if parts.is_empty() && session.is_demo() {
        return Some(send_keys::demo_note());
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// The workbench on a loaded profile: the App, and every command `update` asked for while
/// filling it (signing the request, validating a saved events batch off the draw path, ...).
/// The runtime runs them all before the first key.
pub fn open_app(loaded: model::LoadedProfile, now: DateTime<Utc>) -> (App, Vec<effect::Command>) {
    let key = KeyInfo {
        secret: loaded.key.clone().unwrap_or_else(|| Secret::new("")),
        source: loaded.key_source.clone(),
        revealed: false,
    };
    let mut app = App::new(
        &loaded.name,
        loaded.is_demo,
        // The body comes with the profile just below (loaded once, not twice).
        model::EditorRequest {
            url: loaded.request.url.clone(),
            spec: loaded.request.spec.with_body(bytes::Bytes::new()),
        },
        key,
        now,
    );
    // Fill the components too (events target and batch, profile manager) and sign.
    let startup = update::update(&mut app, message::Message::ProfileLoaded(Ok(loaded)));
    (app, startup)
}

/// The in-process server's listener: on `--listen ADDR`, or on a free loopback port.
pub fn bind_listener(
    listen: Option<std::net::SocketAddr>,
) -> anyhow::Result<std::net::TcpListener> {
    let addr = listen.unwrap_or_else(|| std::net::SocketAddr::from(([127, 0, 0, 1], 0)));
    std::net::TcpListener::bind(addr).map_err(|e| match listen {
        Some(a) => anyhow::anyhow!(listen_error(a, &e)),
        None => anyhow::anyhow!("the local server could not start on 127.0.0.1: {e}"),
    })
}

/// The warning for `--listen` on an address that is not loopback (as `serve` gives one).
fn listen_warning(listen: Option<std::net::SocketAddr>) -> Option<String> {
    let addr = listen.filter(|a| !a.ip().is_loopback())?;
    Some(format!(
        "warning: listening on {addr}, which is not a loopback address; anyone who can reach it can use this server and read the requests it keeps"
    ))
}

/// Why `--listen ADDR` could not be used, in one sentence naming it.
fn listen_error(addr: std::net::SocketAddr, e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::AddrInUse {
        format!(
            "--listen {addr}: port {} is already in use on {}; choose another port or stop the program holding it",
            addr.port(),
            addr.ip()
        )
    } else {
        format!("--listen {addr}: the local server could not listen there: {e}")
    }
}

/// How long the workbench lets a REST key command run (`pass`, `op` waiting for a PIN) before
/// it is stopped and named in the status line.
pub const KEY_COMMAND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

pub use send_keys::demo_note;

/// The test fixture: only in tests, and behind the `test-util` feature for the integration tests
/// and benches (Cargo.toml); never in the binary.
#[cfg(any(test, feature = "test-util"))]
#[doc(hidden)]
pub mod test_util;

#[cfg(test)]
mod test_server;
