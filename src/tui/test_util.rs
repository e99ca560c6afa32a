//! The one TUI test fixture: an [`App`] on a ratatui `TestBackend`, with helpers to type, press,
//! click and paste (each through `update`, as the runtime does), run the signing the runtime
//! would run, and read the screen back. Every TUI test and bench builds its workbench here.
//!
//! Also the small helpers the component views' own tests use (draw once into a buffer, mouse
//! events aimed with layout structs).

use std::ops::{Deref, DerefMut};

use chrono::{DateTime, TimeZone, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::{Frame, Terminal};

use super::app::App;
use super::components::request::{resign, RequestEffect};
use super::effect::Command;
use super::layout::View;
use super::message::Message;
use super::model::{EditorRequest, KeyInfo};
use super::signing::Incremental;
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

/// A 200 answer (send id 1) whose body is these plain-text lines.
pub fn plain_response(lines: Vec<String>) -> super::model::ResponseView {
    super::model::ResponseView {
        id: 1,
        status: 200,
        raw: std::sync::Arc::new(super::model::FormattedBody { lines, json: false }),
        ..Default::default()
    }
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

    /// The demo workbench with a keys file (`crate::tui::user_keys`) holding `text`; `Err` is
    /// the sentence the workbench would say at start.
    pub fn with_keys_file(w: u16, h: u16, text: &str) -> Result<TestApp, String> {
        let keys = crate::tui::user_keys::parse(text, "keys.toml")?;
        let t = TestApp::new(w, h);
        crate::tui::keymap::install(keys);
        Ok(t)
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

    /// A left click on the cell (`x`, `y`).
    pub fn click(&mut self, x: u16, y: u16) -> Vec<Command> {
        self.update(Message::Mouse(click_at(x, y)))
    }

    /// A new terminal size (the screen and the App's idea of it).
    pub fn resize(&mut self, w: u16, h: u16) -> Vec<Command> {
        self.term.backend_mut().resize(w, h);
        self.update(Message::Resize(w, h))
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
                    queue.extend(
                        self.update(Message::Request(RequestMsg::Signed { id: job.id, result })),
                    );
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

    /// What the signing worker answers for `job` (the fixture's own incremental signer).
    pub fn signer_sign(&mut self, job: &super::signing::SignJob) -> super::model::SignedView {
        match self.signer.sign(job) {
            Ok(v) => v,
            Err(e) => panic!("signing {job:?}: {e}"),
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

    /// The rows inside the border of the pane that `area` finds in the drawn state.
    pub fn pane_rows(&mut self, area: impl Fn(&TestApp) -> Rect) -> Vec<String> {
        let a = area(self);
        let lines = self.lines();
        (a.y + 1..a.y + a.height - 1)
            .map(|y| lines[usize::from(y)].clone())
            .collect()
    }

    /// Press PageDown in a pane until it stops moving (at most `max` presses), asserting that
    /// each page starts on a row of the page before (nothing skipped); every row seen. The
    /// pane ends on its last page.
    pub fn page_down_through(
        &mut self,
        max: usize,
        area: impl Fn(&TestApp) -> Rect,
    ) -> Vec<String> {
        let mut seen = self.pane_rows(&area);
        for _ in 0..max {
            let before = self.pane_rows(&area);
            self.press(KeyCode::PageDown);
            let after = self.pane_rows(&area);
            if after == before {
                break;
            }
            // The new page starts on a row of the one before (its last, or, on the last page,
            // one above it).
            let first = after.first().cloned().unwrap_or_default();
            assert!(before.contains(&first), "skipped:\n{before:#?}\n{after:#?}");
            seen.extend(after);
        }
        seen
    }

    /// Draw and return the screen as text, rows joined by '\n'.
    pub fn screen(&mut self) -> String {
        self.lines().join("\n")
    }

    /// Draw and find `needle` on screen: (column, row) of its first character.
    pub fn find(&mut self, needle: &str) -> Option<(u16, u16)> {
        find_in(&self.lines(), needle)
    }

    /// Draw and panic (showing the screen) unless some row contains `needle`; returns that row.
    pub fn assert_line(&mut self, needle: &str) -> String {
        let lines = self.lines();
        match lines.iter().find(|l| l.contains(needle)) {
            Some(l) => l.clone(),
            None => panic!("{needle:?} is not on screen:\n{}", lines.join("\n")),
        }
    }

    /// Draw and panic (showing the screen) if some row contains `needle`.
    pub fn assert_no_line(&mut self, needle: &str) {
        let lines = self.lines();
        if let Some(l) = lines.iter().find(|l| l.contains(needle)) {
            panic!("{needle:?} is on screen ({l:?}):\n{}", lines.join("\n"));
        }
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

/// Where `needle` starts in `rows`: (column in chars, row).
pub fn find_in(rows: &[String], needle: &str) -> Option<(u16, u16)> {
    rows.iter().enumerate().find_map(|(y, r)| {
        r.find(needle)
            .map(|bx| (r[..bx].chars().count() as u16, y as u16))
    })
}

/// A `w`x`h` workbench showing `view`, drawn with `state` in the component's place (`slot`):
/// the state is swapped in for the draw and back out. How a component's own tests draw it: in
/// the area, and with the tabs and status line, the App gives it.
pub fn component_buffer<S>(
    w: u16,
    h: u16,
    view: View,
    slot: fn(&mut App) -> &mut S,
    state: &mut S,
) -> Buffer {
    let mut t = TestApp::new(w, h);
    t.app.view = view;
    std::mem::swap(slot(&mut t.app), state);
    let buf = t.draw().clone();
    std::mem::swap(slot(&mut t.app), state);
    buf
}

/// [`component_buffer`] as text, one line per row.
pub fn component_text<S>(
    w: u16,
    h: u16,
    view: View,
    slot: fn(&mut App) -> &mut S,
    state: &mut S,
) -> String {
    buffer_lines(&component_buffer(w, h, view, slot, state)).join("\n")
}

/// Draw once into a `w`x`h` TestBackend and return the screen as text, one line per row.
pub fn render_text(w: u16, h: u16, draw: impl FnOnce(&mut Frame)) -> String {
    buffer_lines(&render_buffer(w, h, draw)).join("\n")
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

fn mouse(kind: MouseEventKind, column: u16, row: u16) -> MouseEvent {
    MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }
}

/// A left click on the middle of `r` (a cell a layout struct gave).
pub fn click_in(r: Rect) -> MouseEvent {
    assert!(r.width > 0 && r.height > 0, "nothing to click in {r:?}");
    mouse(
        MouseEventKind::Down(MouseButton::Left),
        r.x + r.width / 2,
        r.y + r.height / 2,
    )
}

/// A left click on the cell (`x`, `y`).
pub fn click_at(x: u16, y: u16) -> MouseEvent {
    mouse(MouseEventKind::Down(MouseButton::Left), x, y)
}

/// One notch of the wheel over the middle of `r`.
pub fn wheel_in(r: Rect, down: bool) -> MouseEvent {
    assert!(r.width > 0 && r.height > 0, "nothing to scroll in {r:?}");
    let kind = if down {
        MouseEventKind::ScrollDown
    } else {
        MouseEventKind::ScrollUp
    };
    mouse(kind, r.x + r.width / 2, r.y + r.height / 2)
}

/// True when every cell of row `y` between `x0` and `x1` (exclusive) is drawn reversed.
pub fn reversed(buf: &Buffer, y: u16, x0: u16, x1: u16) -> bool {
    (x0..x1).all(|x| buf[(x, y)].modifier.contains(Modifier::REVERSED))
}
