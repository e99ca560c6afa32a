//! The one TUI test fixture: an [`App`] on a ratatui `TestBackend`, with helpers to type, press,
//! click and paste (each through `update`, as the runtime does), run the signing the runtime
//! would run, and read the screen back. Every TUI test and bench builds its workbench here.
//!
//! Also the small helpers the component views' own tests use (draw once into a buffer, mouse
//! events aimed with layout structs).

use std::ops::{Deref, DerefMut};

use chrono::{DateTime, TimeZone, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::{Frame, Terminal};

use super::app::App;
use super::components::request::{resign, RequestEffect};
use super::effect::Command;
use super::message::Message;
use super::model::{EditorRequest, KeyInfo};
use super::signing::{Incremental, SignAnswer};
use super::update::update;
use crate::core::Secret;
use crate::tui::component::KeyRead;
use crate::tui::components::request::RequestMsg;

/// The clock every fixture starts at: 2026-11-22T10:00:00Z.
pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0)
        .single()
        .unwrap_or_default()
}

/// The demo request (PUT /v2/batch with a one-item body) signed with the demo REST key.
pub fn demo_request() -> EditorRequest {
    EditorRequest::demo("http://127.0.0.1:9")
}

/// A workbench on a `TestBackend` of `w` x `h` cells.
pub struct TestApp {
    pub app: App,
    pub term: Terminal<TestBackend>,
    signer: Incremental,
}

impl Deref for TestApp {
    type Target = App;
    fn deref(&self) -> &App {
        &self.app
    }
}

impl DerefMut for TestApp {
    fn deref_mut(&mut self) -> &mut App {
        &mut self.app
    }
}

impl TestApp {
    /// The demo profile ("demo", the demo REST key, the demo request), live timestamp at
    /// [`t0`], on a `w` x `h` screen.
    pub fn new(w: u16, h: u16) -> TestApp {
        TestApp::with_request(w, h, demo_request())
    }

    /// The demo profile with `body` as the request body.
    pub fn with_body(w: u16, h: u16, body: &str) -> TestApp {
        let mut r = demo_request();
        r.spec.body = bytes::Bytes::copy_from_slice(body.as_bytes());
        TestApp::with_request(w, h, r)
    }

    /// The demo profile with another request.
    pub fn with_request(w: u16, h: u16, request: EditorRequest) -> TestApp {
        let key = KeyInfo {
            secret: Secret::new(crate::core::demo::DEMO_REST_KEY),
            source: "demo key".into(),
            revealed: false,
        };
        let mut app = App::new("demo", true, request, key, t0());
        app.size = (w, h);
        // Every table's own keys, whatever an earlier test on this thread installed.
        crate::tui::keymap::install(Default::default());
        app.theme = crate::tui::theme::Theme::new(false);
        TestApp {
            app,
            term: Terminal::new(TestBackend::new(w, h)).unwrap_or_else(|e| {
                panic!("a TestBackend terminal: {e}");
            }),
            signer: Incremental::default(),
        }
    }

    /// A workbench the runtime opened (`crate::tui::open_app`), on a `w` x `h` screen.
    pub fn from_app(mut app: App, w: u16, h: u16) -> TestApp {
        app.size = (w, h);
        TestApp {
            app,
            term: Terminal::new(TestBackend::new(w, h)).unwrap_or_else(|e| {
                panic!("a TestBackend terminal: {e}");
            }),
            signer: Incremental::default(),
        }
    }

    /// Handle one message as the runtime would; returns the commands asked for.
    pub fn update(&mut self, msg: Message) -> Vec<Command> {
        update(&mut self.app, msg)
    }

    /// Press one key (no modifiers).
    pub fn press(&mut self, code: KeyCode) -> Vec<Command> {
        self.update(key(code))
    }

    /// Press Ctrl + `c`.
    pub fn ctrl(&mut self, c: char) -> Vec<Command> {
        self.update(ctrl_key(c))
    }

    /// Press Alt + `c`.
    pub fn alt(&mut self, c: char) -> Vec<Command> {
        self.update(alt_key(c))
    }

    /// Type `s` one key at a time; returns every command asked for.
    pub fn type_str(&mut self, s: &str) -> Vec<Command> {
        s.chars()
            .flat_map(|c| self.press(KeyCode::Char(c)))
            .collect()
    }

    /// A bracketed paste.
    pub fn paste(&mut self, text: &str) -> Vec<Command> {
        self.update(Message::Paste(text.to_string()))
    }

    /// Run the signing and the REST key reads the runtime would run for these commands,
    /// synchronously, and hand the results to `update` (and what they ask for in turn; a
    /// signing job whose answer is dropped leaves the view "updating").
    pub fn run_signing(&mut self, cmds: Vec<Command>) {
        let mut queue: std::collections::VecDeque<Command> = cmds.into();
        while let Some(c) = queue.pop_front() {
            match c {
                Command::Sign(job) => {
                    let result = self.signer.sign(&job);
                    queue.extend(self.update(Message::Request(RequestMsg::Signing(
                        SignAnswer::Signed { id: job.id, result },
                    ))));
                }
                Command::ResolveKey(KeyRead { id, source }) => {
                    let result = source
                        .resolve_with_timeout(crate::tui::KEY_COMMAND_TIMEOUT)
                        .map_err(|e| e.to_string());
                    queue.extend(
                        self.update(Message::Request(RequestMsg::KeyResolved { id, result })),
                    );
                }
                _ => {}
            }
        }
    }

    /// Sign the current request now (what the runtime does at start).
    pub fn sign_now(&mut self) {
        let cmds = self.resign();
        self.run_signing(cmds);
    }

    /// Ask for a new signature of the request as it is (what an edit asks for), not run yet.
    pub fn resign(&mut self) -> Vec<Command> {
        resign(&mut self.app.request)
            .into_iter()
            .filter_map(|e| match e {
                RequestEffect::Sign(job) => Some(Command::Sign(job)),
                _ => None,
            })
            .collect()
    }

    /// Draw a full frame and return the buffer.
    pub fn draw(&mut self) -> &Buffer {
        let app = &self.app;
        if let Err(e) = self.term.draw(|f| super::view::draw(f, app)) {
            panic!("drawing into a TestBackend: {e}");
        }
        self.term.backend().buffer()
    }

    /// Draw and return the screen, one string per row.
    pub fn lines(&mut self) -> Vec<String> {
        buffer_lines(self.draw())
    }

    /// Draw and return the screen as text, rows joined by '\n'.
    pub fn screen(&mut self) -> String {
        self.lines().join("\n")
    }
}

/// A key press (no modifiers) as a Message.
pub fn key(code: KeyCode) -> Message {
    Message::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Ctrl + `c` as a Message.
pub fn ctrl_key(c: char) -> Message {
    Message::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// Alt + `c` as a Message.
pub fn alt_key(c: char) -> Message {
    Message::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::ALT))
}

/// The rows of a buffer as strings.
pub fn buffer_lines(buf: &Buffer) -> Vec<String> {
    let a = buf.area;
    (a.y..a.y + a.height)
        .map(|y| {
            (a.x..a.x + a.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

/// Draw once into a `w`x`h` TestBackend and return the buffer (for style assertions).
pub fn render_buffer(w: u16, h: u16, draw: impl FnOnce(&mut Frame)) -> Buffer {
    let mut term = match Terminal::new(TestBackend::new(w, h)) {
        Ok(t) => t,
        Err(e) => panic!("a TestBackend terminal: {e}"),
    };
    if let Err(e) = term.draw(draw) {
        panic!("drawing into a TestBackend: {e}");
    }
    term.backend().buffer().clone()
}

/// The helpers only the crate's own unit tests use (not the benches or the integration tests).
#[cfg(test)]
mod unit;
#[cfg(test)]
pub use unit::*;
