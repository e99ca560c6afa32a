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
pub mod components;
pub mod effect;
pub mod keymap;
pub mod layout;
pub mod message;
pub mod model;
pub mod palette;
pub mod runtime;
pub mod signing;
pub mod terminal;
pub mod theme;
pub mod update;
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
/// what it holds.
#[allow(unsafe_code)] // the audited block below (SAFETY comment)
fn fixed_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes an allocator tunable; it is called before any other thread
    // starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
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
}

/// Open the workbench on a profile: the one named, else the last used, else the demo (with the
/// local server in-process on a free loopback port, or on `--listen`). Returns the exit code.
pub fn run(opts: Options) -> anyhow::Result<u8> {
    let Options {
        profile,
        listen,
        watch,
    } = opts;
    if let Some(w) = &watch {
        // A bad URL is one sentence before the terminal is taken over.
        crate::cli::watch::stream_url(w, "--watch")?;
    }
    // The pinned port is taken before anything else, so that a taken one is said at once.
    let pinned = match listen {
        Some(addr) => Some(
            runtime::Embedded::start_with(crate::server::ServerConfig::demo(), Some(addr))
                .map_err(|e| anyhow::anyhow!("{e}"))?,
        ),
        None => None,
    };
    // Drawing goes to stdout: redirected, the workbench cannot run (it said "could not set up
    // the terminal: No such device or address (os error 6)").
    if !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        anyhow::bail!(
            "the workbench needs a terminal, but standard output is not one; in scripts use a subcommand (`signscope --help` lists them)"
        );
    }
    fixed_mmap_threshold();
    let paths = crate::store::Paths::discover().map_err(|e| anyhow::anyhow!("{e}"))?;
    // Logs go to a file in the data dir, never to the terminal the workbench draws on.
    let log_warning = match crate::logging::init_file(&paths.data_dir) {
        Ok(crate::logging::Logging::File(path)) => {
            tracing::debug!(log = %path.display(), config_dir = %paths.config_dir.display(),
                data_dir = %paths.data_dir.display(), "workbench starting");
            None
        }
        Ok(_) => None,
        Err(warning) => Some(warning),
    };
    let store = crate::store::ProfileStore::open(&paths);
    let history = crate::store::History::open(&paths);
    let mut note = None;
    let mut p = match profile {
        Some(name) => store
            .load(&name)
            .map_err(|e| anyhow::anyhow!("cannot open profile {name}: {e}"))?,
        None => match store.last_used() {
            Some(name) => store.load(&name).unwrap_or_else(|e| {
                note = Some(format!(
                    "last used profile {name} not loaded ({e}); using the demo"
                ));
                crate::store::Profile::demo()
            }),
            None => crate::store::Profile::demo(),
        },
    };
    let mut session = runtime::Session {
        store,
        history,
        // The body lives in the editor; saving takes it from there (no second copy of a big body).
        current: runtime::copy_without_body(&mut p),
        server: pinned,
    };
    let base = match session.base_url(&p) {
        Ok(u) => u,
        Err(e) => {
            note = Some(format!("{e}; sending will fail until a URL is set"));
            String::new()
        }
    };
    let embedded = session.server.as_ref().map(|s| s.url.clone());
    let loaded = runtime::loaded_profile(p, base, embedded.as_deref());
    tracing::debug!(profile = %loaded.name, demo = loaded.is_demo, key = loaded.key.is_some(),
        "profile opened");
    let (mut app, mut startup) = open_app(loaded, Utc::now());
    // The Traffic view follows the in-process server (started now when the profile did not
    // need it), or the server named with --watch.
    let traffic_source = match watch {
        Some(url) => Ok((url.trim_end_matches('/').to_string(), true)),
        None => session.embedded_url().map(|u| (u, false)),
    };
    match traffic_source {
        Ok((address, watching)) => {
            startup.extend(update::update(
                &mut app,
                message::Message::Traffic(components::traffic::TrafficMsg::Source {
                    address: address.clone(),
                    watching,
                }),
            ));
            startup.push(effect::Command::FollowTraffic(address));
        }
        Err(e) => {
            update::update(
                &mut app,
                message::Message::Traffic(components::traffic::TrafficMsg::Waiting(e)),
            );
        }
    }
    app.no_color = theme::Theme::no_color_from_env();
    if let Some(w) = log_warning {
        note = Some(match note {
            Some(n) => format!("{n}; {w}"),
            None => w,
        });
    }
    if note.is_none() && session.current.is_demo() {
        note = Some(DEMO_NOTE.into());
    }
    runtime::run_app(app, Some(session), note, startup)
}

/// The workbench on a loaded profile: the App, and every command `update` asked for while
/// filling it (signing the request, validating a saved events batch off the draw path, ...).
/// The runtime runs them all before the first key.
pub fn open_app(loaded: message::LoadedProfile, now: DateTime<Utc>) -> (App, Vec<effect::Command>) {
    let key = KeyInfo {
        secret: loaded.key.clone().unwrap_or_else(|| Secret::new("")),
        source: loaded.key_source.clone(),
        revealed: false,
    };
    let mut app = App::new(
        &loaded.name,
        loaded.is_demo,
        loaded.fields.clone(),
        key,
        now,
    );
    // Fill the components too (events target and batch, profile manager) and sign.
    let startup = update::update(&mut app, message::Message::ProfileLoaded(Ok(loaded)));
    (app, startup)
}

/// The first status line on the demo profile. It stays until another message replaces it, on
/// any view, so it names the send key of each view that sends.
pub const DEMO_NOTE: &str = "demo profile: Ctrl-G sends (F3: Ctrl-S) to the local server · F1 help";

#[doc(hidden)]
pub mod test_util;
