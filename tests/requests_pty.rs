//! A profile's saved requests in the workbench, in a real terminal (portable-pty read by
//! vt100): added, duplicated, renamed, reordered and deleted in the request view, one sent to a
//! local server on 127.0.0.1 port 0, then the workbench quit and started again: the list and
//! the selected request are as they were left, and the profile file (a hand-edited file of the
//! previous format) is saved in the new format with its comment.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

mod common;

use std::fs;
use std::path::Path;

use common::Pty;
use signscope::core::Secret;
use signscope::server::{spawn, ServerConfig};

const API: &str = "requests-pty-public";
const KEY: &str = "requests-pty-rest-key-5c1e";

const ALT_A: &str = "\x1ba";
const ALT_U: &str = "\x1bu";
const ALT_E: &str = "\x1be";
const ALT_W: &str = "\x1bw";
const ALT_UP_IN_LIST: &str = "\x1b,";
const ALT_PAGE_UP: &str = "\x1b[5;3~";
const ALT_PAGE_DOWN: &str = "\x1b[6;3~";
const CTRL_U: &str = "\x15";
const CTRL_S: &str = "\x13";
const CTRL_G: &str = "\x07";
const CTRL_Q: &str = "\x11";

fn workbench(dir: &Path) -> Pty {
    let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_signscope"));
    cmd.env("SIGNSCOPE_CONFIG_DIR", dir.join("config"));
    cmd.env("SIGNSCOPE_DATA_DIR", dir.join("data"));
    cmd.env("REQUESTS_PTY_KEY", KEY);
    cmd.env("NO_COLOR", "1");
    cmd.args(["--profile", "old"]);
    let tui = Pty::spawn(cmd, 120, 40);
    tui.wait_for_signature();
    tui
}

/// The Request panel's title row: the saved requests, the selected one in brackets.
fn title(tui: &Pty) -> String {
    tui.rows()
        .into_iter()
        .find(|r| r.contains("┌ Request "))
        .unwrap_or_default()
}

/// Type a name into the open name prompt (its offered text cleared first) and apply it.
fn name(tui: &mut Pty, name: &str) {
    tui.send(CTRL_U);
    tui.send(name);
    tui.send("\r");
}

#[test]
fn saved_requests_are_edited_sent_and_found_again_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let srv = spawn(
        ServerConfig::new().with_account(API, Secret::new(KEY)),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap();
    // A hand-edited profile file with one request.
    let profiles = dir.path().join("config").join("profiles");
    fs::create_dir_all(&profiles).unwrap();
    let file = profiles.join("old.toml");
    let old = format!(
        "schema_version = 3\n# the test shop, edited by hand\nindexing_url = \"{url}\"\n\
         analytics_url = \"{url}\"\nheader_prefix = \"SVC\"\napi_key = \"{API}\"\n\n\
         [rest_key]\nsource = \"env\"\nvar = \"REQUESTS_PTY_KEY\"\n\n\
         [[requests]]\nname = \"default\"\nmethod = \"PUT\"\npath = \"/v2/batch\"\nbody = \"[]\"\n",
        url = srv.url()
    );
    fs::write(&file, &old).unwrap();

    let mut tui = workbench(dir.path());
    // Add "search", duplicate it (offered as "search copy"), rename the copy "items".
    tui.send(ALT_A);
    tui.wait_for("the name prompt", |s| s.contains("Enter apply"));
    name(&mut tui, "search");
    tui.wait_for("search added", |s| title_has(s, "[search*]"));
    tui.send(ALT_U);
    tui.wait_for("the copy's name offered", |s| s.contains("search copy"));
    tui.send("\r");
    tui.wait_for("the copy", |s| title_has(s, "[search copy*]"));
    tui.send(ALT_E);
    tui.wait_for("the rename prompt", |s| s.contains("Enter apply"));
    name(&mut tui, "items");
    tui.wait_for("renamed", |s| title_has(s, "[items*]"));
    // Reorder: "items" one place up, before "search".
    tui.send(ALT_UP_IN_LIST);
    tui.wait_for("moved", |s| s.contains("moved to position 2"));
    let t = title(&tui);
    assert!(
        t.find("default") < t.find("[items") && t.find("[items") < t.find("search"),
        "{t}"
    );
    // Delete "default": select it (the previous request) and answer y.
    tui.send(ALT_PAGE_UP);
    tui.wait_for("default selected", |s| title_has(s, "[default"));
    tui.send(ALT_W);
    tui.wait_for("the delete question", |s| s.contains("delete"));
    tui.send("y");
    tui.wait_for("deleted", |s| s.contains("request \"default\" deleted"));
    // The request that took its place is "items"; save the profile and send it.
    tui.wait_for("items selected", |s| title_has(s, "[items"));
    tui.send(CTRL_S);
    tui.wait_for("saved", |s| s.contains("profile old saved"));
    tui.send(CTRL_G);
    let sent = tui.wait_for("the server's answer", |s| s.contains(" ms · "));
    assert!(sent.contains("200 "), "{sent}");
    let t = title(&tui);
    assert!(
        t.contains("[items]") && t.contains("search") && !t.contains("default"),
        "{t}"
    );
    assert!(t.find("[items]") < t.find("search"), "{t}");
    tui.send(CTRL_Q);
    assert!(tui.wait_exit().success());

    // The file on disk: the new format, the requests in their order, the comment kept.
    let saved = fs::read_to_string(&file).unwrap();
    assert!(saved.contains("schema_version = 3"), "{saved}");
    assert!(
        saved.contains("# the test shop, edited by hand\n"),
        "{saved}"
    );
    let (items, search) = (
        saved.find("name = \"items\"").expect(&saved),
        saved.find("name = \"search\"").expect(&saved),
    );
    assert!(items < search, "{saved}");
    assert!(!saved.contains("name = \"default\""), "{saved}");

    // Started again: the same list, "items" selected. It is also the first request now, so
    // select "search" (not the first), quit and start again: "search" is selected.
    let mut tui = workbench(dir.path());
    let t = title(&tui);
    assert!(t.contains("[items]") && t.contains("search"), "{t}");
    tui.send(ALT_PAGE_DOWN);
    tui.wait_for("search selected", |s| title_has(s, "[search]"));
    tui.send(CTRL_Q);
    assert!(tui.wait_exit().success());
    let tui = workbench(dir.path());
    let t = title(&tui);
    assert!(
        t.contains("[search]") && t.contains("items"),
        "the selection is remembered across a restart: {t}"
    );
    // Selecting is not an edit: the profile file was not written again.
    assert_eq!(fs::read_to_string(&file).unwrap(), saved);
}

fn title_has(screen: &str, needle: &str) -> bool {
    screen
        .lines()
        .find(|r| r.contains("┌ Request "))
        .is_some_and(|r| r.contains(needle))
}
