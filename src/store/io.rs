//! I/O errors in the words of the store's messages.

/// An I/O error as a short lower-case phrase ("permission denied"), without the OS error number.
pub(crate) fn io_reason(e: &std::io::Error) -> String {
    use std::io::ErrorKind::*;
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ELOOP) {
        return "it is a symbolic link, which signscope does not follow for a private file; remove the link".to_string();
    }
    match e.kind() {
        NotFound => "no such file or directory".to_string(),
        PermissionDenied => "permission denied".to_string(),
        AlreadyExists => "it already exists".to_string(),
        ReadOnlyFilesystem => "the file system is read-only".to_string(),
        StorageFull => "the disk is full".to_string(),
        NotADirectory => "a path component is not a directory".to_string(),
        IsADirectory => "it is a directory".to_string(),
        _ => {
            let s = e.to_string();
            // "Permission denied (os error 13)" -> "permission denied"
            let s = s.split(" (os error").next().unwrap_or(&s).to_string();
            let mut c = s.chars();
            match c.next() {
                Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),
                None => s,
            }
        }
    }
}
