//! What an installed binary brings besides its commands: `--version` with the commit it was
//! built from (and the fallbacks of build/commit.rs outside a git checkout), the manual pages
//! (`signscope man`) and the shell completions (`signscope completions SHELL`), checked with the
//! real `man`/`groff` and a real bash where the machine has them.

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

#[path = "../build/commit.rs"]
#[allow(dead_code)]
mod commit;

use std::path::Path;
use std::process::Command as Std;

use assert_cmd::Command;
use clap::CommandFactory;

fn cmd() -> Command {
    Command::cargo_bin("signscope").unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let out = cmd().args(args).output().unwrap();
    assert!(out.status.success(), "signscope {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands a user can type, from the clap definitions (clap's own `help` aside), and
/// never fewer than the ones this test knows of.
fn subcommands() -> Vec<String> {
    let names: Vec<String> = signscope::cli::Cli::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .collect();
    for known in [
        "sign",
        "verify",
        "check",
        "send",
        "events",
        "serve",
        "watch",
        "profile",
        "history",
        "learn",
        "completions",
        "man",
    ] {
        assert!(
            names.iter().any(|n| n == known),
            "{known} missing from {names:?}"
        );
    }
    names
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Std::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.test"])
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8(out.stdout).unwrap().trim().to_string())
}

fn has(tool: &str) -> bool {
    Std::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

// ---- --version ----

#[test]
fn version_names_the_version_and_the_commit_of_this_checkout() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let version = env!("CARGO_PKG_VERSION");
    let printed = stdout_of(&["--version"]);
    assert_eq!(stdout_of(&["-V"]), printed);
    let top = git(manifest, &["rev-parse", "--show-toplevel"]);
    let is_checkout = top
        .is_some_and(|t| Path::new(&t).canonicalize().unwrap() == manifest.canonicalize().unwrap());
    if is_checkout {
        let head = git(manifest, &["rev-parse", "--short", "HEAD"]).unwrap();
        assert_eq!(printed, format!("signscope {version} ({head})\n"));
    } else {
        eprintln!("not a git checkout: --version is the version alone");
        assert_eq!(printed, format!("signscope {version}\n"));
    }
}

#[test]
fn outside_any_git_checkout_the_version_is_printed_alone() {
    let dir = tempfile::tempdir().unwrap();
    assert!(commit::find(dir.path()).is_none());
    assert_eq!(commit::version_text("0.1.0", None), "0.1.0");
}

#[test]
fn a_fresh_repository_gives_its_head_and_a_new_commit_changes_it() {
    if !has("git") {
        eprintln!("skipped: no git on this machine");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]).unwrap();
    std::fs::write(d.join("Cargo.toml"), "[package]\n").unwrap();
    git(d, &["add", "."]).unwrap();
    git(d, &["commit", "-q", "-m", "one"]).unwrap();
    let first = commit::find(d).expect("a commit in a git checkout");
    assert_eq!(
        first.commit,
        git(d, &["rev-parse", "--short", "HEAD"]).unwrap()
    );
    assert_eq!(
        commit::version_text("0.1.0", Some(&first)),
        format!("0.1.0 ({})", first.commit)
    );
    // cargo re-runs the build script when the branch moves: the branch's ref is watched.
    let branch_ref = d.join(".git/refs/heads/main");
    assert!(
        first.watch.contains(&d.join(".git/HEAD")),
        "{:?}",
        first.watch
    );
    assert!(first.watch.contains(&branch_ref), "{:?}", first.watch);
    assert!(first.watch.iter().all(|p| p.exists()), "{:?}", first.watch);

    git(d, &["commit", "-q", "--allow-empty", "-m", "two"]).unwrap();
    let second = commit::find(d).unwrap();
    assert_ne!(second.commit, first.commit);
    assert_eq!(
        second.commit,
        git(d, &["rev-parse", "--short", "HEAD"]).unwrap()
    );
}

#[test]
fn a_crate_inside_someone_elses_repository_does_not_take_its_commit() {
    if !has("git") {
        eprintln!("skipped: no git on this machine");
        return;
    }
    // E.g. cargo's registry under a home directory kept in git.
    let outer = tempfile::tempdir().unwrap();
    git(outer.path(), &["init", "-q"]).unwrap();
    git(
        outer.path(),
        &["commit", "-q", "--allow-empty", "-m", "dotfiles"],
    )
    .unwrap();
    let krate = outer.path().join("registry/signscope-0.1.0");
    std::fs::create_dir_all(&krate).unwrap();
    assert!(commit::find(&krate).is_none());
}

#[test]
fn a_packaged_crate_takes_the_commit_cargo_recorded() {
    // What `cargo package` writes beside Cargo.toml (and crates.io serves to `cargo install`).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".cargo_vcs_info.json"),
        "{\n  \"git\": {\n    \"sha1\": \"d22b3e1f0c9a8b7e6d5c4b3a29180716253a4b5c\"\n  },\n  \"path_in_vcs\": \"\"\n}",
    )
    .unwrap();
    let found = commit::find(dir.path()).unwrap();
    assert_eq!(found.commit, "d22b3e1");
    assert_eq!(
        commit::version_text("0.1.0", Some(&found)),
        "0.1.0 (d22b3e1)"
    );

    // A record without a usable hash is no commit at all.
    std::fs::write(
        dir.path().join(".cargo_vcs_info.json"),
        "{\"path_in_vcs\": \"\"}",
    )
    .unwrap();
    assert!(commit::find(dir.path()).is_none());
}

// ---- man ----

#[test]
fn the_man_page_names_every_subcommand_and_the_version() {
    let page = stdout_of(&["man"]);
    assert!(page.contains(".TH signscope 1 "), "{page}");
    let section = page
        .split(".SH SUBCOMMANDS")
        .nth(1)
        .expect("a SUBCOMMANDS section");
    for name in subcommands() {
        // roff escapes the hyphen.
        let entry = format!("signscope\\-{name}(1)");
        assert!(section.contains(&entry), "{entry} missing from:\n{section}");
    }
    // clap's `help` has no page to point to.
    assert!(!section.contains("signscope\\-help(1)"), "{section}");
    let version = stdout_of(&["--version"]);
    let version = version.trim().trim_start_matches("signscope ");
    assert!(page.contains(version), "{version} not in the page");
}

#[test]
fn man_dir_writes_a_page_per_command_that_man_renders() {
    let dir = tempfile::tempdir().unwrap();
    let man1 = dir.path().join("share/man/man1");
    let out = cmd().args(["man", "--dir"]).arg(&man1).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(out.stdout.is_empty(), "the pages go to files, not stdout");
    let written: Vec<String> = std::fs::read_dir(&man1)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(written.contains(&"signscope.1".to_string()), "{written:?}");
    for name in subcommands() {
        let page = format!("signscope-{name}.1");
        assert!(written.contains(&page), "{page} missing from {written:?}");
    }
    // Nested subcommands get their own pages too.
    assert!(
        written.contains(&"signscope-events-send.1".to_string()),
        "{written:?}"
    );

    if !has("man") {
        eprintln!("skipped the rendering: no man on this machine");
        return;
    }
    // `man signscope-send` as a user would type it, with the folder on MANPATH.
    let shown = Std::new("man")
        .arg("signscope-send")
        .env("MANPATH", dir.path().join("share/man"))
        .env("MANWIDTH", "80")
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(shown.status.success(), "{shown:?}");
    assert!(text.contains("NAME"), "{text}");
    assert!(text.contains("--request"), "{text}");
    assert!(
        text.contains("Send a signed indexing request using a profile"),
        "{text}"
    );
}

#[test]
fn the_man_pages_are_valid_roff() {
    if !has("groff") {
        eprintln!("skipped: no groff on this machine");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    cmd()
        .args(["man", "--dir"])
        .arg(dir.path())
        .assert()
        .success();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        // -ww: every warning; -z: parse and format, print nothing.
        let out = Std::new("groff")
            .args(["-man", "-Tutf8", "-ww", "-z"])
            .arg(&path)
            .output()
            .unwrap();
        let warnings = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && warnings.trim().is_empty(),
            "{}: {warnings}",
            path.display()
        );
    }
}

#[test]
fn man_dir_that_cannot_be_created_is_one_sentence_naming_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let out = cmd()
        .args(["man", "--dir"])
        .arg(file.join("man1"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("give --dir a folder you can write"), "{err}");
    assert!(out.stdout.is_empty());
}

// ---- completions ----

#[test]
fn every_shell_gets_a_completion_script_naming_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout_of(&["completions", shell]);
        assert!(!script.trim().is_empty(), "{shell}: empty");
        for name in subcommands() {
            assert!(script.contains(&name), "{shell}: {name} missing");
        }
    }
}

/// What bash offers after `signscope <words…><TAB>`, from the generated script loaded into a
/// real bash (the way bash-completion loads it from its completions folder).
fn bash_complete(script: &Path, words: &[&str]) -> Vec<String> {
    let mut line = vec!["signscope".to_string()];
    line.extend(words.iter().map(|w| w.to_string()));
    let quoted: Vec<String> = line.iter().map(|w| format!("'{w}'")).collect();
    let cword = line.len() - 1;
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={cword}\n_signscope signscope '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        quoted.join(" "),
        line[cword],
        line[cword - 1],
    );
    let out = Std::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn bash_completes_the_subcommands_and_their_flags() {
    if !has("bash") {
        eprintln!("skipped: no bash on this machine");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("signscope");
    std::fs::write(&script, stdout_of(&["completions", "bash"])).unwrap();

    let offered = bash_complete(&script, &[""]);
    for name in subcommands() {
        assert!(offered.contains(&name), "{name} not offered: {offered:?}");
    }
    let mut se = bash_complete(&script, &["se"]);
    se.sort();
    assert_eq!(se, ["send", "serve"]);
    let flags = bash_complete(&script, &["send", "--req"]);
    assert_eq!(flags, ["--request"]);
    // The key reference and its older spellings, on every command that takes a key.
    let mut flags = bash_complete(&script, &["send", "--rest-key"]);
    flags.sort();
    assert_eq!(
        flags,
        [
            "--rest-key",
            "--rest-key-command",
            "--rest-key-env",
            "--rest-key-file"
        ]
    );
    let shells = bash_complete(&script, &["completions", "z"]);
    assert_eq!(shells, ["zsh"]);
}
