//! The interactive workbench (ratatui + crossterm), built the Elm way:
//!
//! ```text
//! terminal input, signals, results of I/O ──> Message ──> update(&mut App, Message) ──> Vec<Command>
//!        ^                                                   |                            |
//!        └──────────── runtime executes Commands (signing worker, HTTP, clipboard) <──────┘
//! view::draw(&App) runs only after something changed.
//! ```
//!
//! - [`app`]: the state; [`message`]: Messages and Commands; [`update`]: the pure transition;
//! - [`runtime`]: the event loop and effects; [`signing`]: the signing worker (incremental);
//! - [`view`]: drawing only; [`terminal`]: setup and restoration; [`theme`]: styles, NO_COLOR.

pub mod app;
pub mod message;
pub mod runtime;
pub mod signing;
pub mod terminal;
pub mod theme;
pub mod update;
pub mod view;

use chrono::Utc;

use self::app::{App, KeyInfo, RequestFields};
use crate::core::Secret;

/// Open the workbench on a profile (or the demo). Returns the exit code.
pub fn run(profile: Option<String>) -> anyhow::Result<u8> {
    if let Some(name) = profile {
        anyhow::bail!(
            "cannot open profile {name}: saved profiles are not available in this build yet"
        );
    }
    let (app, note) = demo_app()?;
    runtime::run_app(app, note)
}

/// The demo profile: the demo account's keys against the in-process local server.
fn demo_app() -> anyhow::Result<(App, Option<String>)> {
    let url = "http://127.0.0.1:0".to_string();
    let key = KeyInfo {
        secret: Secret::new(crate::server::DEMO_REST_KEY),
        source: "demo key".into(),
        revealed: false,
    };
    let mut app = App::new("demo", true, RequestFields::demo(&url), key, Utc::now());
    app.no_color = theme::Theme::no_color_from_env();
    Ok((
        app,
        Some("demo profile: the local server is not available in this build yet".into()),
    ))
}

pub mod events_view;
pub mod history_view;
mod line_input;
pub mod profiles_view;
