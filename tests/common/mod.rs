//! Helpers shared by integration tests that drive `signscope` in a real terminal: a PTY
//! (portable-pty) whose output is fed to a terminal emulator (vt100) and also kept raw, so a
//! test can both read the screen and scan every byte the program printed.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub mod upstream;
pub mod workbench;

use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};

/// The requests a server's inspection store holds (its first page), whole.
pub fn stored_requests(store: &signscope::server::Store) -> Vec<signscope::server::RequestRecord> {
    let slots = store.request_slots(&Default::default());
    let held = store.requests_at(&slots.items);
    held.iter().map(|r| (**r).clone()).collect()
}

/// Write a REST key file as a user should keep one: readable and writable by its owner only
/// (mode 0600, given when the file is created, so it is never readable by others even for a
/// moment; an existing file is set to it too). Every test that writes a key file writes it here.
pub fn write_key_file(path: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = path.as_ref();
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options
        .open(path)
        .unwrap_or_else(|e| panic!("cannot write the key file {}: {e}", path.display()));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))
            .unwrap();
    }
    file.write_all(contents.as_ref()).unwrap();
    path.to_path_buf()
}

/// Which of `tools` are not on the PATH (a test that needs them prints one line and skips).
pub fn missing_tools<'t>(tools: &[&'t str]) -> Vec<&'t str> {
    tools
        .iter()
        .copied()
        .filter(|tool| {
            !std::process::Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .collect()
}

/// Upper bound for anything to show up on screen (a generous limit, not a performance check).
pub const WAIT: Duration = Duration::from_secs(60);

pub const TAB: &str = "\t";
pub const BACKTAB: &str = "\x1b[Z";
pub const ENTER: &str = "\r";
pub const CTRL_C: &str = "\x03";
pub const CTRL_G: &str = "\x07";
pub const CTRL_U: &str = "\x15";
pub const ALT_S: &str = "\x1bs";
pub const CTRL_S: &str = "\x13";
pub const UP: &str = "\x1b[A";
pub const F3: &str = "\x1bOR";
pub const F4: &str = "\x1bOS";

/// A program running in a PTY of a given size.
pub struct Pty {
    child: Box<dyn Child + Send + Sync>,
    _master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
    /// Frames the emulator has been given whole.
    frames: Arc<AtomicUsize>,
    reader: Option<JoinHandle<()>>,
}

impl Pty {
    /// Start `cmd` (its environment already set by the caller) in a `cols` x `rows` terminal.
    /// `TERM` is set to xterm-256color.
    pub fn spawn(mut cmd: CommandBuilder, cols: u16, rows: u16) -> Pty {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        cmd.env("TERM", "xterm-256color");
        let child = pair.slave.spawn_command(cmd).unwrap();
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let parser = Arc::new(Mutex::new(vt100::Parser::new(rows, cols, 0)));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let frames_done = Arc::new(AtomicUsize::new(0));
        let (p, r, done) = (parser.clone(), raw.clone(), frames_done.clone());
        let reader = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            let mut frames = Frames::default();
            // Ends at EOF or EIO: the program exited and closed its side of the PTY.
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                r.lock().unwrap().extend_from_slice(&buf[..n]);
                let whole = frames.push(&buf[..n]);
                if !whole.is_empty() {
                    p.lock().unwrap().process(&whole);
                    // Counted once the emulator has them (a frame is never cut by `push`).
                    let ended = whole.windows(FRAME_END.len()).filter(|w| *w == FRAME_END);
                    done.fetch_add(ended.count(), Ordering::SeqCst);
                }
            }
            // What is left (a frame the program never finished) is shown as it is.
            p.lock().unwrap().process(&frames.held);
        });
        Pty {
            child,
            _master: pair.master,
            writer,
            parser,
            raw,
            frames: frames_done,
            reader: Some(reader),
        }
    }

    /// The screen's text.
    pub fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// The screen as rows of cells: each row has one `char` per column (an empty cell is a
    /// space), so `rows()[y].chars().nth(x)` is the cell at column `x` of row `y`.
    pub fn rows(&self) -> Vec<String> {
        let parser = self.parser.lock().unwrap();
        let screen = parser.screen();
        let (rows, cols) = screen.size();
        (0..rows)
            .map(|y| {
                (0..cols)
                    .map(|x| {
                        let cell = screen.cell(y, x).map(|c| c.contents()).unwrap_or("");
                        cell.chars().next().unwrap_or(' ')
                    })
                    .collect()
            })
            .collect()
    }

    /// The text of the cells drawn in inverse video, one string per row that has any: a
    /// list's selected row (the list widget marks the selection so, colour or not).
    pub fn inverse_rows(&self) -> Vec<String> {
        let parser = self.parser.lock().unwrap();
        let screen = parser.screen();
        let (rows, cols) = screen.size();
        (0..rows)
            .map(|y| {
                (0..cols)
                    .filter_map(|x| screen.cell(y, x))
                    .filter(|c| c.inverse())
                    .map(|c| c.contents())
                    .collect::<String>()
            })
            .filter(|r| !r.trim().is_empty())
            .collect()
    }

    /// Wait until a row drawn in inverse video (a list's selection) holds `text`.
    pub fn wait_for_selected(&self, text: &str) -> Vec<String> {
        self.poll(WAIT, &format!("{text} selected"), |p| {
            let rows = p.inverse_rows();
            rows.iter().any(|r| r.contains(text)).then_some(rows)
        })
    }

    /// Where the terminal cursor is: (row, column), from 0.
    pub fn cursor(&self) -> (u16, u16) {
        self.parser.lock().unwrap().screen().cursor_position()
    }

    /// Whether the program hid the terminal cursor (DECTCEM off).
    pub fn cursor_hidden(&self) -> bool {
        self.parser.lock().unwrap().screen().hide_cursor()
    }

    /// The screen's last row: the workbench's status line.
    pub fn last_row(&self) -> String {
        self.rows().pop().unwrap_or_default()
    }

    /// Every byte the program has printed so far.
    pub fn raw(&self) -> Vec<u8> {
        self.raw.lock().unwrap().clone()
    }

    /// Wait until `cond` holds for the screen; panics with the screen after [`WAIT`].
    pub fn wait_for(&self, what: &str, cond: impl Fn(&str) -> bool) -> String {
        self.wait_within(WAIT, what, cond)
    }

    /// Wait for the workbench's first frame with a computed signature (the ` ✓` after it).
    pub fn wait_for_signature(&self) -> String {
        self.wait_for("the first frame with a signature", |s| s.contains(" ✓"))
    }

    /// [`Pty::wait_for`] with another deadline.
    pub fn wait_within(&self, limit: Duration, what: &str, cond: impl Fn(&str) -> bool) -> String {
        self.poll(limit, what, |p| {
            let s = p.screen();
            cond(&s).then_some(s)
        })
    }

    /// Poll `probe` every 50 ms until it finds something; panics with the screen after `limit`.
    fn poll<T>(&self, limit: Duration, what: &str, probe: impl Fn(&Pty) -> Option<T>) -> T {
        let start = Instant::now();
        loop {
            if let Some(found) = probe(self) {
                return found;
            }
            if start.elapsed() > limit {
                panic!("timed out waiting for {what}; screen:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Type bytes (keys, escape sequences) into the terminal.
    pub fn send(&mut self, bytes: impl AsRef<[u8]>) {
        self.writer.write_all(bytes.as_ref()).unwrap();
        self.writer.flush().unwrap();
    }

    /// How many frames the program has drawn (and the emulator shows) so far.
    pub fn frames(&self) -> usize {
        self.frames.load(Ordering::SeqCst)
    }

    /// Type `bytes`, then wait for the next frame the program draws: the workbench reads a key
    /// and draws at once, so when nothing else draws meanwhile (a frozen timestamp, no
    /// traffic, no answer on its way) that frame shows what the key did, changed or not.
    pub fn send_and_wait_frame(&mut self, bytes: impl AsRef<[u8]>) -> String {
        let before = self.frames();
        self.send(bytes);
        self.poll(WAIT, "a frame after the key", |p| {
            (p.frames() > before).then(|| p.screen())
        })
    }

    /// [`Pty::wait_for`] on the screen's rows (see [`Pty::rows`]).
    pub fn wait_for_rows(&self, what: &str, cond: impl Fn(&[String]) -> bool) -> Vec<String> {
        self.poll(WAIT, what, |p| {
            let rows = p.rows();
            cond(&rows).then_some(rows)
        })
    }

    /// Quit with Ctrl-Q, answering "quit without saving" if the unsaved-edits question comes,
    /// and check that the program ended well and gave the terminal back.
    pub fn quit_answering(&mut self) {
        self.send("\x11");
        let start = std::time::Instant::now();
        while !self.has_exited() && start.elapsed() < WAIT {
            if self.screen().contains("quit without saving") {
                self.send("y");
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(self.wait_exit().success());
        self.assert_restored();
    }

    /// Whether the program has exited (without waiting).
    pub fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// The program's process id.
    pub fn pid(&self) -> u32 {
        self.child.process_id().unwrap()
    }

    /// Wait for the program to exit, then for the reader to take its last bytes.
    pub fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > WAIT {
                let _ = self.child.kill();
                panic!("the program did not exit; screen:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        if let Some(reader) = self.reader.take() {
            // The last bytes (the terminal restored) are read at once, but a loaded machine
            // can keep the reader waiting; a process the program started and left holding the
            // terminal would keep it open to the deadline.
            let exited = Instant::now();
            while !reader.is_finished() && exited.elapsed() < Duration::from_secs(20) {
                std::thread::sleep(Duration::from_millis(20));
            }
            if reader.is_finished() {
                let _ = reader.join();
            }
        }
        status
    }

    /// The terminal is back to normal: main screen, cursor shown, mouse reporting off.
    pub fn assert_restored(&self) {
        let parser = self.parser.lock().unwrap();
        let screen = parser.screen();
        assert!(!screen.alternate_screen(), "still on the alternate screen");
        assert!(!screen.hide_cursor(), "cursor still hidden");
        assert_eq!(
            screen.mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "mouse reporting still on"
        );
    }
}

/// Starts a frame drawn between synchronized-update marks (DEC mode 2026)...
const FRAME_START: &[u8] = b"\x1b[?2026h";
/// ...and ends it.
const FRAME_END: &[u8] = b"\x1b[?2026l";

/// The emulator sees each frame whole, as a terminal that knows the synchronized-update marks
/// shows it. The program writes a frame in pieces (stdout flushes about every 1 KB) and a
/// loaded machine can pause between them: read half-way, the screen would hold the top of the
/// new frame over the bottom of the old one, and a test would read stale text next to new.
#[derive(Default)]
pub struct Frames {
    /// Bytes of a frame not yet ended (or of a mark not yet whole).
    held: Vec<u8>,
}

impl Frames {
    /// Take `bytes`; give back what the emulator may show now: everything up to the start of
    /// a frame still being written.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<u8> {
        self.held.extend_from_slice(bytes);
        let last = |mark: &[u8]| self.held.windows(mark.len()).rposition(|w| w == mark);
        let cut = match (last(FRAME_START), last(FRAME_END)) {
            (Some(start), end) if end.is_none_or(|end| end < start) => start,
            // No frame open: all of it, but for the first bytes of a mark cut by the read.
            _ => (1..FRAME_START.len())
                .rev()
                .find(|&n| self.held.ends_with(&FRAME_START[..n]))
                .map_or(self.held.len(), |n| self.held.len() - n),
        };
        let rest = self.held.split_off(cut);
        std::mem::replace(&mut self.held, rest)
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value after `label` on the screen, up to the next space.
pub fn value_after<'s>(screen: &'s str, label: &str) -> Option<&'s str> {
    let i = screen.find(label)? + label.len();
    screen[i..].split_whitespace().next()
}
