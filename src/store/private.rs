//! Keeping signscope's files private and leaving no secret behind (see `SECURITY.md`):
//!
//! - the config and data directories are created `0700` and every file `0600` (profiles hold
//!   where a key comes from or the key itself; the history holds signed requests, replayable
//!   while their timestamp is fresh); existing ones are tightened at start ([`tighten`]);
//! - temporary files are named `.signscope-<pid>-<random>.tmp`, so those of a process that was
//!   killed mid-save can be told apart from those of a running one and removed
//!   ([`clean_stale_temps`], at start and when a profile is deleted).

use std::fs;
use std::io;
use std::path::Path;

use super::paths::Paths;

/// Mode of every directory signscope creates.
pub const DIR_MODE: u32 = 0o700;
/// Mode of every file signscope writes.
pub const FILE_MODE: u32 = 0o600;
/// Prefix of temporary files (followed by the process id and a dash).
pub const TEMP_PREFIX: &str = ".signscope-";
/// Suffix of temporary files.
pub const TEMP_SUFFIX: &str = ".tmp";

/// Create `dir` (and missing parents) with mode 0700.
pub fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut b = fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(DIR_MODE);
    }
    b.create(dir)
}

/// The temporary-file prefix of this process: `.signscope-<pid>-`.
pub fn temp_prefix() -> String {
    format!("{TEMP_PREFIX}{}-", std::process::id())
}

/// Whether process `pid` is alive (a process we may not signal is alive too).
fn alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: signal 0 only checks that the process exists.
        #[allow(unsafe_code)]
        let rc = unsafe { libc::kill(pid, 0) };
        rc == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Remove the temporary files in `dir` left by processes that are gone (killed mid-save); they
/// may hold a REST key. Returns how many were removed.
pub fn clean_stale_temps(dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(middle) = name
            .strip_prefix(TEMP_PREFIX)
            .and_then(|n| n.strip_suffix(TEMP_SUFFIX))
        else {
            continue;
        };
        // A name without a process id is not one of ours: left alone.
        let stale = middle
            .split_once('-')
            .and_then(|(p, _)| p.parse::<u32>().ok())
            .is_some_and(|pid| pid != std::process::id() && !alive(pid));
        if stale && fs::remove_file(entry.path()).is_ok() {
            tracing::debug!(path = %entry.path().display(), "stale temporary file removed");
            removed += 1;
        }
    }
    removed
}

/// Make the config and data directories (and the profile directory) 0700 and the files in them
/// 0600 where other users could read them, and remove stale temporary files. Returns one
/// sentence to show when anything was tightened.
pub fn tighten(paths: &Paths) -> Option<String> {
    let mut changed = 0;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mut fix = |path: &Path, mode: u32| {
            if let Ok(meta) = fs::symlink_metadata(path) {
                if meta.permissions().mode() & 0o077 != 0
                    && fs::set_permissions(path, fs::Permissions::from_mode(mode)).is_ok()
                {
                    changed += 1;
                }
            }
        };
        let dirs = [
            paths.config_dir.clone(),
            paths.profiles_dir(),
            paths.data_dir.clone(),
        ];
        for dir in &dirs {
            let Ok(meta) = fs::symlink_metadata(dir) else {
                continue;
            };
            if !meta.is_dir() {
                continue;
            }
            fix(dir, DIR_MODE);
            if let Ok(entries) = fs::read_dir(dir) {
                for e in entries.flatten() {
                    if e.file_type().is_ok_and(|t| t.is_file()) {
                        fix(&e.path(), FILE_MODE);
                    }
                }
            }
        }
    }
    for dir in [paths.profiles_dir(), paths.data_dir.clone()] {
        clean_stale_temps(&dir);
    }
    (changed > 0).then(|| {
        format!(
            "made {changed} files and directories under {} and {} readable by you only (other users could read them)",
            paths.config_dir.display(),
            paths.data_dir.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(unix)]
    use std::os::unix::fs::PermissionsExt;

    #[cfg(unix)]
    fn mode(p: &Path) -> u32 {
        fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn stale_temps_of_dead_processes_go_and_others_stay() {
        let d = tempfile::tempdir().unwrap();
        // A child that has exited: its pid is (almost surely) not reused this soon.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let mine = d.path().join(format!("{}x1{TEMP_SUFFIX}", temp_prefix()));
        let theirs = d
            .path()
            .join(format!("{TEMP_PREFIX}{dead}-x2{TEMP_SUFFIX}"));
        let init = d.path().join(format!("{TEMP_PREFIX}1-x3{TEMP_SUFFIX}"));
        let other = d.path().join("notes.tmp");
        let no_pid = d.path().join(format!("{TEMP_PREFIX}abcdef{TEMP_SUFFIX}"));
        for p in [&mine, &theirs, &init, &other, &no_pid] {
            fs::write(p, "rest_key = \"secret\"").unwrap();
        }
        // A name without a process id is no temporary file of signscope's, however old.
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        fs::File::options()
            .write(true)
            .open(&no_pid)
            .and_then(|f| f.set_modified(hour_ago))
            .unwrap();
        assert_eq!(clean_stale_temps(d.path()), 1);
        assert!(!theirs.exists());
        for p in [&mine, &init, &other, &no_pid] {
            assert!(p.exists(), "{}", p.display());
        }
    }

    #[cfg(unix)]
    #[test]
    fn existing_files_are_tightened_once_with_one_notice() {
        let d = tempfile::tempdir().unwrap();
        let paths = Paths::new(d.path().join("config"), d.path().join("data"));
        fs::create_dir_all(paths.profiles_dir()).unwrap();
        fs::create_dir_all(&paths.data_dir).unwrap();
        let history = paths.data_dir.join("history.jsonl");
        let profile = paths.profiles_dir().join("shop.toml");
        fs::write(&history, "{}\n").unwrap();
        fs::write(&profile, "name = \"shop\"\n").unwrap();
        for p in [&paths.config_dir, &paths.profiles_dir(), &paths.data_dir] {
            fs::set_permissions(p, fs::Permissions::from_mode(0o755)).unwrap();
        }
        for p in [&history, &profile] {
            fs::set_permissions(p, fs::Permissions::from_mode(0o644)).unwrap();
        }
        let notice = tighten(&paths).expect("a notice");
        assert!(
            notice.starts_with("made 5 files and directories under"),
            "{notice}"
        );
        for p in [&paths.config_dir, &paths.profiles_dir(), &paths.data_dir] {
            assert_eq!(mode(p), 0o700, "{}", p.display());
        }
        assert_eq!(mode(&history), 0o600);
        assert_eq!(mode(&profile), 0o600);
        // Nothing left to do: no notice.
        assert_eq!(tighten(&paths), None);
        // New directories are private from the start.
        let fresh = d.path().join("a/b");
        create_private_dir(&fresh).unwrap();
        assert_eq!(mode(&fresh), 0o700);
        assert_eq!(mode(&d.path().join("a")), 0o700);
    }
}
