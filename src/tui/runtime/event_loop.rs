//! The event loop: terminal input, command results and signals become Messages; `update` turns
//! them into Commands, which the effect performer runs off the draw path; the screen is redrawn
//! only after something changed. No timer runs unless the live timestamp is on screen (1 s tick).

use std::time::{Duration, Instant};

use anyhow::Context;
use chrono::Utc;
use crossterm::event::{Event, EventStream};
use futures::StreamExt;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use super::perform::Effects;
use crate::engine::Session;
use crate::tui::app::App;
use crate::tui::components::request::RequestMsg;
use crate::tui::effect::Command;
use crate::tui::message::Message;
use crate::tui::terminal::{self, Term};
use crate::tui::update::update;

/// Test doubles the event loop calls; the workbench itself passes none
/// ([`LoopHooks::default`]).
#[derive(Default)]
pub struct LoopHooks {
    /// Called after every frame is drawn (the PTY test makes it panic, to check that the
    /// terminal is restored before the panic message is printed).
    pub after_draw: Option<Box<dyn FnMut()>>,
}

/// The workbench's tokio runtime: one worker thread, beside the event loop, for the sends, the
/// traffic feed and the in-process server (`server::start` serves on this runtime); a second
/// only added wake-ups and a thread start before the first frame (`benches/README.md`,
/// "Start-up and idle memory"). Signing and heavy work run on threads of their own.
pub fn build_runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .context("could not start the async runtime")
}

/// Run the workbench until the user quits. Returns the process exit code.
pub fn run_app(
    app: App,
    session: Option<Session>,
    server_note: Option<String>,
    startup: Vec<Command>,
) -> anyhow::Result<u8> {
    run_app_with(app, session, server_note, startup, LoopHooks::default())
}

/// [`run_app`] with test doubles. The first frame is drawn before anything else runs: the
/// in-process server reserved in the session, the commands `update` asked for while the App
/// was filled (`startup`) and remembering the profile as the last used one come right after it.
pub fn run_app_with(
    mut app: App,
    session: Option<Session>,
    server_note: Option<String>,
    startup: Vec<Command>,
    hooks: LoopHooks,
) -> anyhow::Result<u8> {
    let rt = build_runtime()?;
    let (tx, rx) = unbounded_channel();
    if let Some(note) = server_note {
        app.say(note);
    }
    let (mut term, _guard) = terminal::init().context("could not set up the terminal")?;
    let result = rt.block_on(event_loop(
        &mut term, &mut app, session, startup, hooks, tx, rx,
    ));
    terminal::restore();
    result.map(|_| 0)
}

/// The profile in the editor and its selected saved request.
fn selection(app: &App) -> (String, String) {
    (
        app.profile.name.clone(),
        app.request.requests.selected_name().to_string(),
    )
}

async fn event_loop(
    term: &mut Term,
    app: &mut App,
    session: Option<Session>,
    startup: Vec<Command>,
    hooks: LoopHooks,
    tx: UnboundedSender<Message>,
    rx: UnboundedReceiver<Message>,
) -> anyhow::Result<()> {
    let mut fx = Effects::new(tx.clone());
    fx.session = session;
    let size = term.size()?;
    // The first frame is drawn for the terminal's size and the clock's time; what `update` asks
    // for on the way (a signature for that time) runs after it, before `startup`.
    let first = [
        Message::Resize(size.width, size.height),
        Message::Tick(Utc::now()),
    ];
    let first: Vec<Command> = first.into_iter().flat_map(|m| update(app, m)).collect();
    let mut pending = Vec::new();
    let mut lp = Loop {
        term,
        fx,
        events: Some(EventStream::new()),
        tx,
        rx,
        sigterm: signal(tokio::signal::unix::SignalKind::terminate())?,
        sighup: signal(tokio::signal::unix::SignalKind::hangup())?,
        selected: selection(app),
        pacer: FramePacer::new(FRAME_INTERVAL),
        draw_at: None,
        hooks,
    };
    // The in-process server (its address is already bound and shown), then everything
    // `update` asked for while the App was filled (the first signature, the validation of a
    // saved events batch, following the traffic...), once the first frame is on screen.
    let mut startup = Some(first.into_iter().chain(startup));
    loop {
        // Apply everything that is already waiting, then draw once (the first turn: at once).
        let woke_with_messages = !pending.is_empty();
        let urgent = lp.apply(app, &mut pending) || startup.is_some();
        lp.remember_selection(app);
        if app.quit {
            tracing::debug!("workbench quitting");
            return Ok(());
        }
        lp.draw_when_due(app, urgent, woke_with_messages)?;
        if let Some(startup) = startup.take() {
            if let Some(session) = lp.fx.session.as_mut() {
                session.serve_reserved(&tokio::runtime::Handle::current())?;
            }
            for cmd in startup {
                lp.fx.execute(cmd);
            }
            lp.fx.mark_last_used();
        }
        if !lp.wait(app, &mut pending).await? {
            return Ok(());
        }
    }
}

/// What the event loop holds between turns besides the App.
struct Loop<'t> {
    term: &'t mut Term,
    fx: Effects,
    /// The terminal's input (None while an external editor owns the terminal).
    events: Option<EventStream>,
    tx: UnboundedSender<Message>,
    rx: UnboundedReceiver<Message>,
    sigterm: tokio::signal::unix::Signal,
    sighup: tokio::signal::unix::Signal,
    /// The saved request selected in each profile is remembered when it changes (a selection is
    /// not an edit: the profile file is not written).
    selected: (String, String),
    pacer: FramePacer,
    /// When a frame is owed for background arrivals that came too soon after the last one.
    draw_at: Option<Instant>,
    hooks: LoopHooks,
}

impl Loop<'_> {
    /// Update the App with every waiting message and run the commands it returns; whether one
    /// of them was urgent (not a background arrival).
    fn apply(&mut self, app: &mut App, pending: &mut Vec<Message>) -> bool {
        let mut urgent = false;
        for msg in pending.drain(..) {
            urgent |= !is_background(&msg);
            for cmd in update(app, msg) {
                match cmd {
                    Command::Quit => {}
                    Command::EditBody(text) => self.edit_body(&text),
                    other => self.fx.execute(other),
                }
            }
        }
        urgent
    }

    /// Open the body in `$EDITOR`; the terminal is not read while the editor owns it.
    fn edit_body(&mut self, text: &str) {
        drop(self.events.take());
        let result = edit_externally(self.term, text);
        self.events = Some(EventStream::new());
        let _ = self
            .tx
            .send(Message::Request(RequestMsg::EditorDone(result)));
    }

    /// Remember the profile's selected saved request when it changed.
    fn remember_selection(&mut self, app: &App) {
        if app.profile.name == self.selected.0
            && app.request.requests.selected_name() == self.selected.1
        {
            return;
        }
        self.selected = selection(app);
        if let Some(store) = self.fx.session.as_ref().map(|s| s.store()) {
            if let Err(e) = store.remember_request(&self.selected.0, &self.selected.1) {
                tracing::debug!(error = %e, "selected request not remembered");
            }
        }
    }

    /// Draw now, or later when background arrivals came too soon after the last frame.
    fn draw_when_due(
        &mut self,
        app: &App,
        urgent: bool,
        woke_with_messages: bool,
    ) -> anyhow::Result<()> {
        let now = Instant::now();
        match self
            .pacer
            .decide(now, urgent, woke_with_messages, self.draw_at)
        {
            Frame::Now => {
                terminal::draw_whole(self.term, |f| crate::tui::view::draw(f, app))?;
                self.pacer.drawn(Instant::now());
                self.draw_at = None;
                if let Some(after_draw) = self.hooks.after_draw.as_mut() {
                    after_draw();
                }
            }
            Frame::At(t) => self.draw_at = Some(t),
            Frame::None => {}
        }
        Ok(())
    }

    /// Wait for the next input, answer, tick, owed frame or signal, into `pending`; false when
    /// the terminal's input has ended.
    async fn wait(&mut self, app: &App, pending: &mut Vec<Message>) -> anyhow::Result<bool> {
        let tick = if app.wants_tick() {
            let now = Utc::now();
            let ms_to_next = 1000 - (now.timestamp_subsec_millis() as u64 % 1000);
            Some(tokio::time::sleep(Duration::from_millis(ms_to_next)))
        } else {
            None
        };
        let draw_at = self.draw_at;
        let ev = self.events.get_or_insert_with(EventStream::new);
        let mut from_channel = false;
        tokio::select! {
            e = ev.next() => match e {
                Some(Ok(e)) => if let Some(m) = event_message(e) {
                    // Ticks come only while the Request view shows a live timestamp: input
                    // anywhere else reads the clock first, so what it sends is signed now.
                    let now = Utc::now();
                    if app.clock_is_stale(now) {
                        pending.push(Message::Tick(now));
                    }
                    pending.push(m)
                },
                Some(Err(e)) => return Err(e).context("reading the terminal failed"),
                None => return Ok(false),
            },
            m = self.rx.recv() => if let Some(m) = m { pending.push(m); from_channel = true },
            _ = async { if let Some(t) = tick { t.await } }, if tick.is_some() => pending.push(Message::Tick(Utc::now())),
            _ = async { if let Some(t) = draw_at { tokio::time::sleep_until(t.into()).await } }, if draw_at.is_some() => {}
            _ = self.sigterm.recv() => {
                tracing::debug!("SIGTERM: quitting");
                pending.push(Message::Terminate)
            }
            _ = self.sighup.recv() => {
                tracing::debug!("SIGHUP: quitting");
                pending.push(Message::Terminate)
            }
        }
        // Coalesce bursts of internal results (worker answers, responses, traffic arrivals)
        // into one frame: drain what is waiting, at most MAX_DRAIN at a time. A key is applied
        // and drawn at once, never behind a queue of arrivals (they wait for the next turn).
        // (Terminal input is not drained with a no-op waker: crossterm's EventStream would then
        // wake that waker instead of this task, and keys would arrive one event late.)
        if from_channel {
            while pending.len() < MAX_DRAIN {
                match self.rx.try_recv() {
                    Ok(m) => pending.push(m),
                    Err(_) => break,
                }
            }
        }
        Ok(true)
    }
}

/// The shortest time between two frames drawn for background arrivals (about 60 frames/s).
/// Input (keys, mouse, pastes, resizes) and the runtime's answers draw at once.
pub const FRAME_INTERVAL: Duration = Duration::from_millis(16);
/// At most this many waiting messages are applied before a frame.
const MAX_DRAIN: usize = 1024;

/// Messages that only add to what is shown and may wait for the next frame: the Traffic view's
/// arrivals (up to thousands a second).
pub fn is_background(m: &Message) -> bool {
    use crate::tui::components::traffic::TrafficMsg;
    matches!(
        m,
        Message::Traffic(TrafficMsg::Received(_) | TrafficMsg::Skipped(_))
    )
}

/// What to do about the screen after applying a batch of messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    /// Draw now.
    Now,
    /// Draw at this time (unless something urgent comes first).
    At(Instant),
    /// Nothing changed: no frame (an idle workbench draws nothing).
    None,
}

/// At most one frame per interval for background arrivals; at once for everything else.
#[derive(Clone, Copy, Debug)]
pub struct FramePacer {
    interval: Duration,
    last: Option<Instant>,
}

impl FramePacer {
    pub fn new(interval: Duration) -> Self {
        FramePacer {
            interval,
            last: None,
        }
    }

    /// After applying a batch at `now`: `urgent` when it held input or an answer, `changed`
    /// when it held anything, `owed` a frame already promised for earlier arrivals.
    pub fn decide(
        &self,
        now: Instant,
        urgent: bool,
        changed: bool,
        owed: Option<Instant>,
    ) -> Frame {
        let next = self.last.map(|l| l + self.interval);
        if urgent || owed.is_some_and(|t| t <= now) {
            return Frame::Now;
        }
        match (changed, owed, next) {
            (true, None, Some(next)) if next > now => Frame::At(next),
            (true, None, _) => Frame::Now,
            (_, Some(t), _) => Frame::At(t),
            (false, None, _) => Frame::None,
        }
    }

    /// A frame was drawn at `at`.
    pub fn drawn(&mut self, at: Instant) {
        self.last = Some(at);
    }
}

fn signal(kind: tokio::signal::unix::SignalKind) -> anyhow::Result<tokio::signal::unix::Signal> {
    tokio::signal::unix::signal(kind).context("could not install a signal handler")
}

fn event_message(e: Event) -> Option<Message> {
    match e {
        Event::Key(k) => Some(Message::Key(k)),
        Event::Mouse(m) => match m.kind {
            crossterm::event::MouseEventKind::Moved | crossterm::event::MouseEventKind::Drag(_) => {
                None
            }
            _ => Some(Message::Mouse(m)),
        },
        Event::Paste(p) => Some(Message::Paste(p)),
        Event::Resize(w, h) => Some(Message::Resize(w, h)),
        _ => None,
    }
}

/// Open `$VISUAL`/`$EDITOR` (default `vi`) on a temporary copy of the body; read it back.
fn edit_externally(term: &mut Term, text: &str) -> Result<String, String> {
    let editor = std::env::var("VISUAL")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .or_else(|| {
            std::env::var("EDITOR")
                .ok()
                .filter(|s| !s.trim().is_empty())
        })
        .unwrap_or_else(|| "vi".to_string());
    let file = tempfile::Builder::new()
        .prefix("signscope-body-")
        .suffix(".json")
        .tempfile()
        .map_err(|e| format!("could not create a temporary file for the editor: {e}"))?;
    std::fs::write(file.path(), text)
        .map_err(|e| format!("could not write the body for the editor: {e}"))?;
    terminal::restore();
    let mut parts = editor.split_whitespace();
    let program = parts.next().unwrap_or("vi");
    let status = std::process::Command::new(program)
        .args(parts)
        .arg(file.path())
        .status();
    let _ = terminal::enter();
    let _ = terminal::invalidate(term);
    match status {
        Ok(s) if s.success() => std::fs::read_to_string(file.path())
            .map_err(|e| format!("could not read the edited body back: {e}")),
        Ok(s) => Err(format!(
            "the editor {program} exited with {s}; the body is unchanged"
        )),
        Err(e) => Err(format!("could not start the editor {program}: {e}")),
    }
}
