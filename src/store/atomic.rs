//! Atomic file writes: a crash or `kill -9` leaves either the old file or the new one.

use std::fs;
use std::io::Write;
use std::path::Path;

use super::error::StoreError;

/// The directory a file is in; a bare file name (whose parent is "") is in ".".
pub(crate) fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Write `bytes` to `path` atomically: temp file in the same directory, fsync, set mode, rename,
/// fsync the directory.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: u32) -> Result<(), StoreError> {
    let dir = dir_of(path);
    // The process id in the name lets the next start remove it if this process is killed
    // before the rename (see `store::private`).
    let prefix = super::private::temp_prefix();
    let mut tmp = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(super::private::TEMP_SUFFIX)
        .tempfile_in(dir)
        .map_err(|e| StoreError::io("write a file in", dir, &e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(tmp.path(), fs::Permissions::from_mode(mode))
            .map_err(|e| StoreError::io("set the permissions of", tmp.path(), &e))?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().sync_all())
        .map_err(|e| StoreError::io("write", path, &e))?;
    tmp.persist(path)
        .map_err(|e| StoreError::io("replace", path, &e.error))?;
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}
