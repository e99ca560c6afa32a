//! The workbench binary on its own temp config and data directories (profiles written there
//! with the library's store, as the program itself writes them), started in a [`Pty`].

use std::path::{Path, PathBuf};

use portable_pty::CommandBuilder;
use signscope::server::{spawn, Server, ServerConfig};
use signscope::store::{Paths, Profile, ProfileStore};

use super::Pty;

/// A temp home for one test: `config/` (profiles) and `data/` (history, state).
pub struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    pub fn new() -> Home {
        Home {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    fn paths(&self) -> Paths {
        Paths::new(self.path().join("config"), self.path().join("data"))
    }

    /// Save `profile` as the program would (`config/profiles/NAME.toml`).
    pub fn save_profile(&self, profile: &Profile) -> PathBuf {
        ProfileStore::open(&self.paths()).save(profile).unwrap();
        self.profile_file(&profile.name)
    }

    /// A copy of the built-in demo profile (the embedded local server, the demo keys) named
    /// `name`, with this query and body, saved.
    pub fn demo_copy(&self, name: &str, query: &str, body: &str) -> PathBuf {
        let mut p = Profile::demo();
        p.name = name.to_string();
        p.request_mut().query = query.to_string();
        p.request_mut().body = bytes::Bytes::from(body.to_string());
        self.save_profile(&p)
    }

    /// A copy of the demo profile named "shop" that sends its requests and events to `url` (a
    /// test's own server on 127.0.0.1), saved; start it with `--profile shop`.
    pub fn shop_on(&self, url: &str) -> PathBuf {
        let mut p = Profile::demo();
        p.name = "shop".into();
        p.indexing_url = url.to_string();
        p.analytics_url = url.to_string();
        self.save_profile(&p)
    }

    /// Where the profile `name` is stored.
    pub fn profile_file(&self, name: &str) -> PathBuf {
        self.paths().profile_file(name)
    }

    /// The profile file's text.
    pub fn profile_text(&self, name: &str) -> String {
        std::fs::read_to_string(self.profile_file(name)).unwrap()
    }

    /// Start `signscope ARGS` in a `cols` x `rows` terminal: no colour, no $EDITOR, and no
    /// display server, so a copy always goes through the terminal (OSC 52) and shows in the
    /// program's output.
    pub fn start(&self, cols: u16, rows: u16, args: &[&str], env: &[(&str, &str)]) -> Pty {
        let cmd = self.command(env!("CARGO_BIN_EXE_signscope"), args, env);
        Pty::spawn(cmd, cols, rows)
    }

    /// `program ARGS` with the environment [`Home::start`] gives signscope (for a program that
    /// runs signscope itself, such as `dbus-run-session`).
    pub fn command(&self, program: &str, args: &[&str], env: &[(&str, &str)]) -> CommandBuilder {
        let mut cmd = CommandBuilder::new(program);
        cmd.env("SIGNSCOPE_CONFIG_DIR", self.path().join("config"));
        cmd.env("SIGNSCOPE_DATA_DIR", self.path().join("data"));
        cmd.env("NO_COLOR", "1");
        for var in ["VISUAL", "EDITOR", "DISPLAY", "WAYLAND_DISPLAY", "RUST_LOG"] {
            cmd.env_remove(var);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.args(args);
        cmd.cwd(self.path());
        cmd
    }
}

/// The requests `url`'s server received, from its inspection API (read with `curl`, as a
/// user would).
pub fn received(url: &str) -> Vec<serde_json::Value> {
    let out = std::process::Command::new("curl")
        .args(["-s", &format!("{url}/_inspect/requests")])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A demo server on 127.0.0.1 (port 0), a "shop" profile sending to it, and the workbench on
/// that profile at 80x24 after one Ctrl-G was received and answered: the server holds the
/// request, and the workbench shows its job id in the Response panel. (Not the `✓ 200` beside
/// the signature: with a live timestamp the line is re-signed each second, and an answer that
/// arrives across a second boundary never shows there.)
pub fn shop_after_one_send() -> (Server, Home, Pty) {
    let srv = spawn(
        ServerConfig::demo(),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    let home = Home::new();
    home.shop_on(&srv.url());
    let mut tui = home.start(80, 24, &["--profile", "shop"], &[]);
    tui.wait_for_signature();
    tui.send(super::CTRL_G);
    let job = received_job(&srv.url());
    tui.wait_for("the answer's job id", |s| s.contains(&job));
    (srv, home, tui)
}

/// Wait until `url`'s server holds a request; the job id its answer carried.
fn received_job(url: &str) -> String {
    let start = std::time::Instant::now();
    loop {
        if let Some(job) = received(url)
            .first()
            .and_then(|r| r["job_id"].as_str().map(str::to_string))
        {
            return job;
        }
        assert!(
            start.elapsed() < super::WAIT,
            "the send never reached the server"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
