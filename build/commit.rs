// Which commit a build comes from, for `signscope --version`. Shared by build.rs (`include!`)
// and tests/version.rs (`#[path]`), so the fallbacks are tested without a second checkout.
// Only std: a build script's dependencies would be built before everything else.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the commit was found, and the files whose change means another commit.
pub struct Found {
    /// Abbreviated commit id, as `git rev-parse --short HEAD` prints it.
    pub commit: String,
    /// Files to watch (cargo:rerun-if-changed): HEAD, the branch it points at, packed-refs.
    pub watch: Vec<PathBuf>,
}

/// The commit of the source in `manifest_dir`:
/// 1. a git checkout whose top level is `manifest_dir` itself: `git rev-parse --short HEAD`
///    (not a repository that merely contains it, e.g. a home directory kept in git that
///    holds cargo's registry);
/// 2. a crate unpacked from `cargo package` (crates.io, `cargo install signscope`): the
///    `git.sha1` cargo recorded in `.cargo_vcs_info.json`, shortened to
///    git's default 7 digits;
/// 3. otherwise (a plain tarball, no git): None, and the version is printed alone.
pub fn find(manifest_dir: &Path) -> Option<Found> {
    from_git(manifest_dir).or_else(|| from_vcs_info(manifest_dir))
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

fn from_git(dir: &Path) -> Option<Found> {
    let top = PathBuf::from(git(dir, &["rev-parse", "--show-toplevel"])?);
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same(&top, dir) {
        return None;
    }
    let commit = git(dir, &["rev-parse", "--short", "HEAD"])?;
    // `--git-path` resolves a linked worktree's own HEAD and the shared refs alike.
    let path = |name: &str| git(dir, &["rev-parse", "--git-path", name]).map(|p| dir.join(p));
    let mut watch: Vec<PathBuf> = ["HEAD", "packed-refs"]
        .iter()
        .filter_map(|n| path(n))
        .collect();
    if let Some(loose) = git(dir, &["symbolic-ref", "-q", "HEAD"]).and_then(|b| path(&b)) {
        if loose.exists() {
            watch.push(loose);
        } else {
            // A branch kept only in packed-refs gets its loose file at the next commit: watch
            // the folder it will appear in.
            watch.extend(loose.parent().map(Path::to_path_buf));
        }
    }
    // A file that does not exist would make cargo re-run the script (and rebuild the crate)
    // on every build.
    watch.retain(|p| p.exists());
    Some(Found { commit, watch })
}

fn from_vcs_info(dir: &Path) -> Option<Found> {
    let file = dir.join(".cargo_vcs_info.json");
    let text = std::fs::read_to_string(&file).ok()?;
    // {"git": {"sha1": "<40 hex>"}, "path_in_vcs": ""}: the one value needed, without a JSON
    // parser in the build script.
    let at = text.find("\"sha1\"")?;
    let rest = &text[at + "\"sha1\"".len()..];
    let start = rest.find('"')? + 1;
    let hex: String = rest[start..]
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect();
    if hex.len() < 7 {
        return None;
    }
    Some(Found {
        commit: hex[..7].to_string(),
        watch: vec![file],
    })
}

/// The version line's text after the program name: "0.1.0 (1a2b3c4)" or "0.1.0".
pub fn version_text(version: &str, found: Option<&Found>) -> String {
    match found {
        Some(f) => format!("{version} ({})", f.commit),
        None => version.to_string(),
    }
}
