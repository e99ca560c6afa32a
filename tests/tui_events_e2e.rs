//! End to end in a real terminal (issue 7): `signscope` on the demo profile (embedded local
//! server), config and data in a temp dir. Compose a 3-item list in the events view (F3), mark
//! one item clicked, send, read `HTTP 200` and `accepted: 2` off the screen, then find the send
//! in the history view (F4).
//!
//! The screen is a vt100 parser fed by a real PTY (portable-pty). Waits poll the screen with a
//! generous deadline; they check that something appears, never how fast.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, CommandBuilder, PtySize};

const ROWS: u16 = 40;
const COLS: u16 = 120;

struct Tui {
    parser: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    _dirs: tempfile::TempDir,
}

impl Tui {
    fn start() -> Tui {
        let dirs = tempfile::tempdir().unwrap();
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_signscope"));
        cmd.env("SIGNSCOPE_CONFIG_DIR", dirs.path().join("config"));
        cmd.env("SIGNSCOPE_DATA_DIR", dirs.path().join("data"));
        cmd.env("TERM", "xterm-256color");
        cmd.env("NO_COLOR", "1");
        cmd.env_remove("EDITOR");
        let child = pty.slave.spawn_command(cmd).unwrap();
        drop(pty.slave);
        let parser = Arc::new(Mutex::new(vt100::Parser::new(ROWS, COLS, 0)));
        let mut reader = pty.master.try_clone_reader().unwrap();
        let writer = pty.master.take_writer().unwrap();
        let feed = Arc::clone(&parser);
        std::thread::spawn(move || {
            let _keep_master_open = pty.master;
            let mut buf = [0u8; 8192];
            loop {
                match reader.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => feed.lock().unwrap().process(&buf[..n]),
                }
            }
        });
        Tui {
            parser,
            writer,
            child,
            _dirs: dirs,
        }
    }

    fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// Wait until the screen contains `text` (panics with the screen after 20 s).
    fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            if Instant::now() > deadline {
                panic!("never saw {text:?} on screen; it shows:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn send(&mut self, bytes: &str) {
        self.writer.write_all(bytes.as_bytes()).unwrap();
        self.writer.flush().unwrap();
        // Let the app handle each key before the next (keys are not coalesced by a terminal
        // either when typed by a person).
        std::thread::sleep(Duration::from_millis(30));
    }

    fn keys(&mut self, keys: &[&str]) {
        for k in keys {
            self.send(k);
        }
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const F3: &str = "\x1bOR";
const F4: &str = "\x1bOS";
const TAB: &str = "\t";
const ENTER: &str = "\r";
const UP: &str = "\x1b[A";
const CTRL_S: &str = "\x13";
const CTRL_U: &str = "\x15";

#[test]
fn compose_three_items_click_one_send_and_find_it_in_history() {
    let mut tui = Tui::start();
    // The workbench is up on the demo profile.
    tui.wait_for("demo");
    tui.send(F3);
    tui.wait_for("Items (1, 0 clicked)");
    // From the list id field to the items table.
    tui.keys(&[TAB, TAB, TAB, TAB, TAB]);
    // Duplicate the starter item twice, giving each copy its own group id.
    tui.keys(&["y", ENTER, CTRL_U]);
    tui.keys(&["1", "0", "0", "2", ENTER]);
    tui.keys(&["y", ENTER, CTRL_U]);
    tui.keys(&["1", "0", "0", "3", ENTER]);
    tui.wait_for("1003-1");
    // Mark the second item clicked.
    tui.keys(&[UP, " "]);
    tui.wait_for("Items (3, 1 clicked)");
    tui.wait_for("Batch preview (2 events)");
    tui.send(CTRL_S);
    let screen = tui.wait_for("accepted: 2");
    assert!(screen.contains("HTTP 200"), "{screen}");
    // What the local collector stored is shown too.
    tui.wait_for("Stored by the local collector");
    // The send is in the history view.
    tui.send(F4);
    let screen = tui.wait_for("view_recs_list, select_recs_list");
    assert!(screen.contains("200"), "{screen}");
    assert!(screen.contains("/analytics/collect"), "{screen}");
}
