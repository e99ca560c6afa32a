//! A profile's named requests from the command line: `profile request ...`, `send --request`,
//! `sign --profile P --request NAME`, history entries that name the request, and profile files
//! of the previous format (one request at the top) still loading. The binary runs with
//! SIGNSCOPE_CONFIG_DIR / SIGNSCOPE_DATA_DIR in a temp dir, against a local server on 127.0.0.1
//! port 0.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::fs;

use assert_cmd::Command;
use signscope::core::Secret;
use signscope::server::{spawn, Server, ServerConfig};

const API: &str = "cli-requests-public";
const KEY: &str = "cli-requests-rest-key-77a1";

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Self {
        Env {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn config(&self) -> std::path::PathBuf {
        self.dir.path().join("config")
    }
    /// Run; return (exit code, stdout, stderr).
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = Command::cargo_bin("signscope")
            .unwrap()
            .env("SIGNSCOPE_CONFIG_DIR", self.config())
            .env("SIGNSCOPE_DATA_DIR", self.dir.path().join("data"))
            .env("CLI_REQUESTS_KEY", KEY)
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
    fn ok(&self, args: &[&str]) -> String {
        let (code, out, err) = self.run(args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        out
    }
    /// A profile "shop" on `url` whose REST key comes from CLI_REQUESTS_KEY.
    fn shop(&self, url: &str) {
        self.ok(&[
            "profile",
            "new",
            "shop",
            "--indexing-url",
            url,
            "--api-key",
            API,
            "--rest-key-env",
            "CLI_REQUESTS_KEY",
        ]);
    }
}

fn server() -> Server {
    spawn(
        ServerConfig::new().with_account(API, Secret::new(KEY)),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    )
    .unwrap()
}

/// The request names of `profile request list`, in order.
fn names(list: &str) -> Vec<String> {
    list.lines()
        .map(|l| {
            let after = l.split_once(". ").unwrap().1;
            after.split("  ").next().unwrap().trim().to_string()
        })
        .collect()
}

#[test]
fn requests_are_added_copied_renamed_moved_deleted_and_sent_by_name() {
    let env = Env::new();
    let srv = server();
    env.shop(&srv.url());
    let list = env.ok(&["profile", "request", "list", "shop"]);
    assert_eq!(names(&list), ["default"], "{list}");
    assert!(list.starts_with("*  1. default  PUT /v2/batch"), "{list}");

    env.ok(&[
        "profile",
        "request",
        "add",
        "shop",
        "dry run",
        "--query",
        "test=1",
        "--body",
        "[{\"id\":\"7\",\"type\":\"KLEVU_CMS\"}]",
    ]);
    env.ok(&[
        "profile",
        "request",
        "duplicate",
        "shop",
        "dry run",
        "dry run 2",
    ]);
    env.ok(&["profile", "request", "rename", "shop", "dry run 2", "bulk"]);
    env.ok(&["profile", "request", "move", "shop", "bulk", "1"]);
    let list = env.ok(&["profile", "request", "list", "shop"]);
    assert_eq!(names(&list), ["bulk", "default", "dry run"], "{list}");
    assert!(
        list.contains("dry run  PUT /v2/batch?test=1  (31 bytes)"),
        "{list}"
    );
    env.ok(&["profile", "request", "delete", "shop", "bulk"]);
    let show = env.ok(&["profile", "show", "shop"]);
    assert!(show.contains("requests:      2"), "{show}");
    assert!(show.contains("dry run"), "{show}");

    // Sent by name: the saved query and body go out, signed with the account's prefix and key.
    let (code, out, err) = env.run(&[
        "send",
        "--profile",
        "shop",
        "--request",
        "dry run",
        "--output",
        "json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["response"]["status"], 200, "{out}");
    assert!(
        v["request"]["url"]
            .as_str()
            .unwrap()
            .ends_with("/v2/batch?test=1"),
        "{out}"
    );
    assert!(out.contains("X-SVC-APIKEY"), "{out}");
    // Without --request: the first one.
    env.ok(&["send", "--profile", "shop"]);

    // The history names the request of each send.
    let h: Vec<serde_json::Value> =
        serde_json::from_str(&env.ok(&["history", "--output", "json"])).unwrap();
    assert_eq!(h.len(), 2);
    assert_eq!(h[0]["request_name"], "dry run");
    assert_eq!(h[1]["request_name"], "default");
    let text = env.ok(&["history"]);
    assert!(text.contains("shop/dry run"), "{text}");

    // An unknown name: one sentence naming the profile and listing the known requests.
    let (code, out, err) = env.run(&["send", "--profile", "shop", "--request", "nope"]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(
        err.trim_end(),
        "signscope: profile \"shop\" has no request named \"nope\"; its requests are: default, dry run"
    );
    // Deleting the last request is refused, in one sentence.
    env.ok(&["profile", "request", "delete", "shop", "default"]);
    let (code, _, err) = env.run(&["profile", "request", "delete", "shop", "dry run"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("\"dry run\" is the only request of profile \"shop\""),
        "{err}"
    );
    // Names are unique within a profile.
    let (code, _, err) = env.run(&["profile", "request", "add", "shop", "dry run"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("already has a request named \"dry run\""),
        "{err}"
    );
}

#[test]
fn sign_with_a_profile_and_request_signs_what_the_flags_would() {
    let env = Env::new();
    env.shop("http://127.0.0.1:9");
    env.ok(&[
        "profile",
        "request",
        "add",
        "shop",
        "search",
        "--method",
        "post",
        "--path",
        "/v2/search",
        "--query",
        "q=shoes",
        "--body",
        "{\"q\":1}",
    ]);
    let ts = "2026-11-22T10:00:00.000Z";
    let from_profile = env.ok(&[
        "sign",
        "--profile",
        "shop",
        "--request",
        "search",
        "--timestamp",
        ts,
        "--output",
        "json",
    ]);
    let from_flags = env.ok(&[
        "sign",
        "--method",
        "post",
        "--path",
        "/v2/search",
        "--query",
        "q=shoes",
        "--api-key",
        API,
        "--rest-key-env",
        "CLI_REQUESTS_KEY",
        "--body",
        "{\"q\":1}",
        "--timestamp",
        ts,
        "--output",
        "json",
    ]);
    assert_eq!(from_profile, from_flags);
    let v: serde_json::Value = serde_json::from_str(&from_profile).unwrap();
    assert!(v["canonical"]
        .as_str()
        .unwrap()
        .starts_with("POST\n/v2/search\nq=shoes\n"));
    // A flag still overrides the saved value.
    let other = env.ok(&[
        "sign",
        "--profile",
        "shop",
        "--request",
        "search",
        "--query",
        "q=hats",
        "--timestamp",
        ts,
        "--output",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&other).unwrap();
    assert!(
        v["canonical"].as_str().unwrap().contains("\nq=hats\n"),
        "{other}"
    );
    // --request without --profile is a usage error; an unknown request names the profile.
    let (code, _, _) = env.run(&["sign", "--request", "search", "--output", "json"]);
    assert_eq!(code, 2);
    let (code, _, err) = env.run(&["sign", "--profile", "shop", "--request", "x"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "profile \"shop\" has no request named \"x\"; its requests are: default, search"
        ),
        "{err}"
    );
    // A request whose body lives in a file prints a curl command that reads that file.
    let body = env.dir.path().join("batch.json");
    fs::write(&body, "[{\"id\":\"1\"}]").unwrap();
    env.ok(&[
        "profile",
        "request",
        "add",
        "shop",
        "upload",
        "--body-file",
        body.to_str().unwrap(),
    ]);
    let curl = env.ok(&[
        "sign",
        "--profile",
        "shop",
        "--request",
        "upload",
        "--timestamp",
        ts,
        "--output",
        "curl",
    ]);
    assert!(
        curl.contains(&format!("--data-binary @{}", body.display())),
        "{curl}"
    );
    assert!(curl.contains("http://127.0.0.1:9/v2/batch"), "{curl}");
}

/// A profile file of a format only pre-release builds wrote (schema 2) is refused in one
/// sentence that names the file and how to make the profile again, and nothing rewrites it; a
/// history line written before entries named their request still reads.
#[test]
fn a_pre_release_profile_file_is_one_sentence_and_left_alone() {
    let env = Env::new();
    let srv = server();
    let dir = env.config().join("profiles");
    fs::create_dir_all(&dir).unwrap();
    let old = format!(
        "schema_version = 2\n# the test shop\nindexing_url = \"{url}\"\nanalytics_url = \"{url}\"\n\
         header_prefix = \"SVC\"\napi_key = \"{API}\" # public\nmethod = \"PUT\"\n\
         # dry runs only\nquery = \"test=1\"\nbody = \"[]\"\n\n[rest_key]\nsource = \"env\"\n\
         var = \"CLI_REQUESTS_KEY\"\n",
        url = srv.url()
    );
    let file = dir.join("old.toml");
    fs::write(&file, &old).unwrap();
    for args in [
        &["profile", "request", "list", "old"][..],
        &["send", "--profile", "old"][..],
        &["profile", "request", "duplicate", "old", "default", "copy"][..],
    ] {
        let (code, out, err) = env.run(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        // The last line (a first run may say before it that it tightened the directories).
        let line = err.trim_end().lines().last().unwrap_or_default();
        assert!(
            line.starts_with("signscope: the profile file "),
            "{args:?}: {err}"
        );
        assert!(
            line.contains("old.toml is not valid: schema_version 2 "),
            "{args:?}: {err}"
        );
        assert!(
            line.ends_with(
                "move the file away and make the profile again with `signscope profile new old`"
            ),
            "{args:?}: {err}"
        );
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            old,
            "{args:?} rewrote the file"
        );
    }
    // Made again, it sends.
    fs::rename(&file, dir.join("old.toml.bak")).unwrap();
    env.ok(&[
        "profile",
        "new",
        "old",
        "--indexing-url",
        &srv.url(),
        "--api-key",
        API,
        "--rest-key-env",
        "CLI_REQUESTS_KEY",
    ]);
    let (code, out, err) = env.run(&["send", "--profile", "old"]);
    assert_eq!(code, 0, "{out}{err}");

    // A history line of the previous format still reads, next to a new one.
    let history = env.dir.path().join("data/history.jsonl");
    let mut lines = fs::read_to_string(&history).unwrap();
    lines.insert_str(
        0,
        "{\"time\":\"2026-11-20T10:00:00.000Z\",\"profile\":\"old\",\"kind\":\"request\",\"request\":{\"method\":\"PUT\",\"url\":\"http://127.0.0.1:1/v2/batch\",\"headers\":[],\"body\":\"[]\",\"body_len\":2}}\n",
    );
    fs::write(&history, lines).unwrap();
    let (code, out, err) = env.run(&["history", "--output", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let h: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(h.len(), 2, "{out}");
    assert!(h[0].get("request_name").is_none(), "{out}");
    assert_eq!(h[1]["request_name"], "default");
}

/// `profile new` judges the name before anything else: a name that can never be saved is the
/// one error reported (not "needs --indexing-url" first, then the name after that is fixed), and
/// a name with a path in it is refused as a name even when the path it spells reaches an
/// existing profile file (not "already exists").
#[test]
fn profile_new_reports_a_bad_name_first() {
    let env = Env::new();
    let srv = server();
    env.shop(&srv.url());
    let bad_name = "is not a usable profile name";
    for args in [
        // No URL either: the name is still the error named.
        &["profile", "new", "a/b", "--api-key", API][..],
        &["profile", "new", ".hidden", "--api-key", API][..],
        // Spells the path of the existing "shop" file.
        &[
            "profile",
            "new",
            "../profiles/shop",
            "--indexing-url",
            "http://127.0.0.1:9",
        ][..],
    ] {
        let (code, out, err) = env.run(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(bad_name), "{args:?}: {err}");
        assert!(!err.contains("--indexing-url"), "{args:?}: {err}");
        assert!(!err.contains("exists"), "{args:?}: {err}");
    }
    let (code, _, err) = env.run(&["profile", "new", "demo", "--api-key", API]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the demo profile is built in"), "{err}");
    // Nothing was written beside the one profile.
    let files: Vec<_> = fs::read_dir(env.config().join("profiles"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(files, ["shop.toml"], "{files:?}");
}

/// `verify` and `check` take `--profile` as `sign` and `send` do: the profile's REST key (and,
/// for `verify`, its API key) judge a request the profile signed.
#[test]
fn verify_and_check_take_a_profile() {
    let env = Env::new();
    env.shop("http://127.0.0.1:9");
    let ts = "2026-11-22T10:00:00.000Z";
    let http = env.ok(&[
        "sign",
        "--profile",
        "shop",
        "--timestamp",
        ts,
        "--output",
        "http",
    ]);
    let file = env.dir.path().join("request.http");
    fs::write(&file, &http).unwrap();
    let file = file.to_str().unwrap();
    let (code, out, err) = env.run(&[
        "verify",
        "--profile",
        "shop",
        "--request-file",
        file,
        "--now",
        ts,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = env.run(&["check", "--profile", "shop", file, "--now", ts]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("SIGNATURE_MISMATCH"), "{out}");
    // Without a key: `verify` names the flags, --profile among them.
    let (code, _, err) = env.run(&["verify", "--request-file", file, "--now", ts]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--profile"), "{err}");
    // An unknown profile: one sentence naming it.
    let (code, _, err) = env.run(&["check", "--profile", "nope", file, "--now", ts]);
    assert_ne!(code, 0);
    assert!(err.contains("nope"), "{err}");
}
