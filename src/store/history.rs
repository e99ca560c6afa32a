//! History of sends: JSON lines in `<data_dir>/history.jsonl`.
//!
//! Appends take an advisory lock (`flock` on `history.lock`), so concurrent signscope processes
//! never interleave lines or lose an entry to a compaction. The file is bounded: when it holds
//! more than `max_entries` plus 10 %, it is compacted atomically to the last `max_entries`.
//! A line that does not parse is skipped with a warning; the others still load.
//!
//! Bodies are capped. The Authorization header is kept (it is a signature, not a key), but
//! [`HistoryEntry::redact`] removes every occurrence of the REST key, wherever a user put it.

use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use super::atomic::write_atomic;
use super::error::StoreError;
use super::paths::Paths;
use crate::core::{RequestSpec, Secret};

/// Entries kept by default.
pub const DEFAULT_MAX_ENTRIES: usize = 500;
/// Bytes of a request or response body kept by default.
pub const DEFAULT_BODY_CAP: usize = 64 * 1024;

/// What replaces a redacted secret.
pub const REDACTED: &str = "***";

/// One send.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryEntry {
    /// When it was sent (`YYYY-MM-DDThh:mm:ss.mmmZ`).
    pub time: String,
    pub profile: String,
    /// The name of the profile's saved request that was sent (entries written before profiles
    /// had named requests have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_name: Option<String>,
    /// `request` (signed indexing request) or `events` (analytics batch).
    pub kind: String,
    pub request: RecordedRequest,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<RecordedResponse>,
    /// The one-sentence error when nothing came back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timings: Option<RecordedTimings>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// Full body length in bytes (the recorded body may be cut).
    pub body_len: usize,
    #[serde(default)]
    pub body_truncated: bool,
    /// The request model that was sent (`core::RequestSpec`), without its body: that is `body`
    /// above (capped). Absent for event batches and in entries written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<RequestSpec>,
    /// Sent to the in-process server (the demo profile's, on a port of that run): `url` names
    /// a port that is gone in a later run, so the entry is re-sent to that run's in-process
    /// server instead. Absent (false) for any other server and in entries written before it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_process: bool,
}

impl RecordedRequest {
    /// The URL to send this request to now: `in_process_base` (this run's in-process server,
    /// `http://127.0.0.1:PORT`) with the recorded path and query when it went to the in-process
    /// server; else the recorded URL. `profile` is the entry's: an entry of the demo profile
    /// written before `in_process` was recorded went to the in-process server too when its URL
    /// is on 127.0.0.1.
    pub fn url_now(&self, profile: &str, in_process_base: Option<&str>) -> String {
        let old_demo = profile == super::profile_data::DEMO_PROFILE
            && self.url.starts_with("http://127.0.0.1:");
        match in_process_base {
            Some(base) if self.in_process || old_demo => match target_of(&self.url) {
                Some(target) => format!("{}{target}", base.trim_end_matches('/')),
                None => self.url.clone(),
            },
            _ => self.url.clone(),
        }
    }

    /// The request model sent, with the recorded (possibly capped) body; None when the entry
    /// does not name it.
    pub fn sent_spec(&self) -> Option<RequestSpec> {
        let spec = self.spec.as_ref()?;
        Some(spec.with_body(Bytes::from(self.body.clone())))
    }
}

/// The path and query of an absolute URL (`http://host:port/v2/batch?x=1` -> `/v2/batch?x=1`).
fn target_of(url: &str) -> Option<&str> {
    let rest = &url[url.find("://")? + 3..];
    Some(rest.find('/').map_or("/", |i| &rest[i..]))
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    pub body_len: usize,
    #[serde(default)]
    pub body_truncated: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedTimings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connect_ms: Option<f64>,
    pub first_byte_ms: f64,
    pub total_ms: f64,
}

/// Cut a body to `cap` bytes (at a char boundary) as lossy UTF-8 text.
pub fn capped_body(body: &[u8], cap: usize) -> (String, bool) {
    if body.len() <= cap {
        return (String::from_utf8_lossy(body).into_owned(), false);
    }
    let mut text = String::from_utf8_lossy(&body[..cap]).into_owned();
    // A cut in the middle of a multi-byte char leaves U+FFFD; drop it.
    if text.ends_with('\u{FFFD}') {
        text.pop();
    }
    (text, true)
}

impl HistoryEntry {
    /// Replace every occurrence of `secret` in every recorded string by `***`.
    pub fn redact(&mut self, secret: &Secret) {
        let key = secret.expose();
        if key.is_empty() {
            return;
        }
        let fix = |s: &mut String| {
            if s.contains(key) {
                *s = s.replace(key, REDACTED);
            }
        };
        fix(&mut self.profile);
        fix(&mut self.request.url);
        fix(&mut self.request.body);
        for (n, v) in &mut self.request.headers {
            fix(n);
            fix(v);
        }
        if let Some(spec) = &mut self.request.spec {
            for f in [
                &mut spec.method,
                &mut spec.path,
                &mut spec.query,
                &mut spec.header_prefix,
                &mut spec.api_key,
                &mut spec.content_type,
                &mut spec.auth_algo,
            ] {
                fix(f);
            }
        }
        if let Some(r) = &mut self.response {
            fix(&mut r.body);
            for (n, v) in &mut r.headers {
                fix(n);
                fix(v);
            }
        }
        if let Some(e) = &mut self.error {
            fix(e);
        }
    }
}

/// The history file of one data dir.
#[derive(Clone, Debug)]
pub struct History {
    file: PathBuf,
    lock: PathBuf,
    max_entries: usize,
}

impl History {
    pub fn open(paths: &Paths) -> Self {
        History {
            file: paths.history_file(),
            lock: paths.data_dir.join("history.lock"),
            max_entries: DEFAULT_MAX_ENTRIES,
        }
    }

    /// Keep at most `n` entries (at least 1).
    pub fn with_max_entries(mut self, n: usize) -> Self {
        self.max_entries = n.max(1);
        self
    }

    pub fn path(&self) -> &std::path::Path {
        &self.file
    }

    /// Append one entry (compacting the file when it grew past the bound).
    pub fn append(&self, e: &HistoryEntry) -> Result<(), StoreError> {
        let dir = self.file.parent().unwrap_or(std::path::Path::new("."));
        super::private::create_private_dir(dir)
            .map_err(|err| io("create the data directory", dir, &err))?;
        let _guard = Lock::acquire(&self.lock)?;
        let mut line = serde_json::to_string(e).expect("history entries serialize");
        line.push('\n');
        let mut f = private_options()
            .read(true)
            .append(true)
            .open(&self.file)
            .map_err(|err| io("open the history file", &self.file, &err))?;
        // A process killed mid-append leaves a last line without its newline: start on a fresh
        // line, so this entry is not glued onto the fragment (the reader skips the fragment).
        if ends_torn(&mut f) {
            line.insert(0, '\n');
        }
        f.write_all(line.as_bytes())
            .and_then(|_| f.sync_data())
            .map_err(|err| io("append to the history file", &self.file, &err))?;
        drop(f);
        tracing::trace!(path = %self.file.display(), bytes = line.len(), "history entry appended");
        self.compact_if_needed()
    }

    /// The last `last` entries (oldest first) and warnings about lines that were skipped.
    pub fn load(&self, last: usize) -> (Vec<HistoryEntry>, Vec<String>) {
        let mut warnings = Vec::new();
        let file = match File::open(&self.file) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Vec::new(), warnings),
            Err(e) => {
                warnings.push(format!(
                    "cannot read the history file {}: {}",
                    self.file.display(),
                    super::io::io_reason(&e)
                ));
                return (Vec::new(), warnings);
            }
        };
        let mut entries = Vec::new();
        for (i, line) in BufReader::new(file).split(b'\n').enumerate() {
            let line = match line {
                Ok(l) => l,
                Err(e) => {
                    warnings.push(format!(
                        "reading the history file {} stopped at line {}: {}",
                        self.file.display(),
                        i + 1,
                        super::io::io_reason(&e)
                    ));
                    break;
                }
            };
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<HistoryEntry>(&line) {
                Ok(e) => entries.push(e),
                Err(e) => warnings.push(format!(
                    "skipped line {} of the history file {}: it is not a valid entry ({e})",
                    i + 1,
                    self.file.display()
                )),
            }
        }
        let skip = entries.len().saturating_sub(last);
        entries.drain(..skip);
        (entries, warnings)
    }

    fn compact_if_needed(&self) -> Result<(), StoreError> {
        let text = match fs::read(&self.file) {
            Ok(t) => t,
            Err(err) => return Err(io("read the history file", &self.file, &err)),
        };
        let lines: Vec<&[u8]> = text
            .split(|b| *b == b'\n')
            .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
            .collect();
        let bound = self.max_entries + self.max_entries / 10;
        if lines.len() <= bound {
            return Ok(());
        }
        let mut kept = Vec::with_capacity(text.len());
        for l in &lines[lines.len() - self.max_entries..] {
            kept.extend_from_slice(l);
            kept.push(b'\n');
        }
        write_atomic(&self.file, &kept, super::private::FILE_MODE)
    }
}

/// Whether the file is non-empty and its last byte is not a newline.
fn ends_torn(f: &mut File) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let mut last = [0u8; 1];
    match f.seek(SeekFrom::End(-1)) {
        Ok(_) => f.read_exact(&mut last).is_ok() && last[0] != b'\n',
        // Empty file.
        Err(_) => false,
    }
}

fn io(action: &'static str, path: &std::path::Path, e: &std::io::Error) -> StoreError {
    StoreError::Io {
        action,
        path: path.to_path_buf(),
        reason: super::io::io_reason(e),
    }
}

/// Options that create a file private to the user (0600) and never follow a link put in its
/// place: what is written (signed requests) would go wherever it points, and the mode would not
/// apply there.
fn private_options() -> OpenOptions {
    let mut opts = OpenOptions::new();
    opts.create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(super::private::FILE_MODE)
            .custom_flags(libc::O_NOFOLLOW);
    }
    opts
}

/// An exclusive advisory lock (`File::lock`: `flock` on Unix) held until drop.
pub(crate) struct Lock(File);

impl Lock {
    pub(crate) fn acquire(path: &std::path::Path) -> Result<Lock, StoreError> {
        let f = private_options()
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(|e| io("open the lock file", path, &e))?;
        // The standard library's advisory lock (flock on Unix): released when the file closes.
        f.lock().map_err(|e| io("lock", path, &e))?;
        Ok(Lock(f))
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_in_process_entry_goes_to_this_runs_in_process_server() {
        let mut e = entry(1).request;
        e.url = "http://127.0.0.1:41234/v2/batch?test=1".into();
        let now = Some("http://127.0.0.1:5555");
        // Another server: the recorded URL.
        assert_eq!(e.url_now("shop", now), e.url);
        // Recorded as the in-process server: this run's, path and query kept.
        e.in_process = true;
        assert_eq!(
            e.url_now("shop", now),
            "http://127.0.0.1:5555/v2/batch?test=1"
        );
        assert_eq!(
            e.url_now("shop", None),
            e.url,
            "no in-process server running"
        );
        // An entry of the demo written before the flag: on 127.0.0.1, the in-process server.
        e.in_process = false;
        assert_eq!(
            e.url_now("demo", now),
            "http://127.0.0.1:5555/v2/batch?test=1"
        );
        e.url = "https://indexing.example.com/v2/batch".into();
        assert_eq!(
            e.url_now("demo", now),
            e.url,
            "the demo sent elsewhere by hand"
        );
        // The flag is written only when set, and read back.
        let mut full = entry(2);
        full.request.in_process = true;
        let line = serde_json::to_string(&full).unwrap();
        assert!(line.contains("\"in_process\":true"), "{line}");
        let back: HistoryEntry = serde_json::from_str(&line).unwrap();
        assert!(back.request.in_process);
        let plain = serde_json::to_string(&entry(3)).unwrap();
        assert!(!plain.contains("in_process"), "{plain}");
    }

    fn entry(i: usize) -> HistoryEntry {
        HistoryEntry {
            time: format!("2026-11-22T10:00:{:02}.000Z", i % 60),
            profile: "shop".into(),
            request_name: None,
            kind: "request".into(),
            request: RecordedRequest {
                in_process: false,
                method: "PUT".into(),
                url: format!("http://127.0.0.1:9/v2/batch?n={i}"),
                headers: vec![("Authorization".into(), "Bearer sig==".into())],
                body: "[]".into(),
                body_len: 2,
                body_truncated: false,
                spec: None,
            },
            response: None,
            error: Some("refused".into()),
            timings: None,
        }
    }

    #[test]
    fn an_entry_names_the_spec_it_sent_and_old_entries_without_one_still_read() {
        let (_d, h) = history();
        // A line written before entries named their spec.
        let old = serde_json::to_string(&entry(1)).unwrap();
        assert!(!old.contains("\"spec\""), "{old}");
        let mut e = entry(2);
        e.request.body = "[{\"id\":\"the-body-once\"}]".into();
        e.request.spec = Some(RequestSpec {
            query: "n=2&k=rest-key".into(),
            api_key: "pub".into(),
            body: Bytes::from_static(b"not recorded here"),
            ..RequestSpec::default()
        });
        e.redact(&Secret::new("rest-key"));
        let line = serde_json::to_string(&e).unwrap();
        assert_eq!(
            line.matches("the-body-once").count(),
            1,
            "the body once: {line}"
        );
        assert!(!line.contains("not recorded here"), "{line}");
        assert!(
            !line.contains("rest-key"),
            "redacted in the spec too: {line}"
        );
        fs::create_dir_all(h.file.parent().unwrap()).unwrap();
        fs::write(&h.file, format!("{old}\n{line}\n")).unwrap();
        let (entries, warnings) = h.load(10);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].request.sent_spec(), None);
        let spec = entries[1].request.sent_spec().expect("the spec it sent");
        assert_eq!(spec.query, "n=2&k=***");
        assert_eq!(spec.api_key, "pub");
        assert_eq!(spec.method, "PUT");
        assert_eq!(&spec.body[..], b"[{\"id\":\"the-body-once\"}]");
    }

    fn history() -> (tempfile::TempDir, History) {
        let d = tempfile::tempdir().unwrap();
        let h = History::open(&Paths::new(d.path().join("c"), d.path().join("d")));
        (d, h)
    }

    #[test]
    fn append_and_load_last() {
        let (_d, h) = history();
        for i in 0..5 {
            h.append(&entry(i)).unwrap();
        }
        let (got, warnings) = h.load(3);
        assert!(warnings.is_empty());
        let urls: Vec<_> = got
            .iter()
            .map(|e| e.request.url.rsplit('=').next().unwrap().to_string())
            .collect();
        assert_eq!(urls, ["2", "3", "4"]);
        assert_eq!(got[0], entry(2));
    }

    #[test]
    fn bounded_and_compacted() {
        let (_d, h) = history();
        let h = h.with_max_entries(10);
        for i in 0..35 {
            h.append(&entry(i)).unwrap();
        }
        let text = fs::read_to_string(h.path()).unwrap();
        let n = text.lines().count();
        assert!((10..=11).contains(&n), "{n} lines");
        let (got, _) = h.load(usize::MAX);
        assert_eq!(got.last().unwrap(), &entry(34));
        assert_eq!(got.len(), n);
    }

    #[test]
    fn corrupt_line_skipped_with_warning() {
        let (_d, h) = history();
        h.append(&entry(1)).unwrap();
        let mut f = OpenOptions::new().append(true).open(h.path()).unwrap();
        f.write_all(b"{\"time\": truncated\n").unwrap();
        drop(f);
        h.append(&entry(2)).unwrap();
        let (got, warnings) = h.load(10);
        assert_eq!(got, vec![entry(1), entry(2)]);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("line 2"), "{}", warnings[0]);
    }

    #[test]
    fn a_torn_last_line_is_skipped_and_the_next_entry_kept() {
        let (_d, h) = history();
        h.append(&entry(1)).unwrap();
        // A process killed mid-append: half a line, no newline.
        let mut f = OpenOptions::new().append(true).open(h.path()).unwrap();
        f.write_all(b"{\"time\": \"2026-11-2").unwrap();
        drop(f);
        h.append(&entry(2)).unwrap();
        h.append(&entry(3)).unwrap();
        let (got, warnings) = h.load(10);
        assert_eq!(got, vec![entry(1), entry(2), entry(3)]);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("line 2"), "{}", warnings[0]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(h.path()).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
    }

    #[test]
    fn redact_removes_the_key_everywhere() {
        let mut e = entry(1);
        e.request.body = "{\"k\":\"rest-KEY-1\"}".into();
        e.request
            .headers
            .push(("X-Debug".into(), "rest-KEY-1".into()));
        e.error = Some("bad key rest-KEY-1".into());
        e.redact(&Secret::new("rest-KEY-1"));
        let text = serde_json::to_string(&e).unwrap();
        assert!(!text.contains("rest-KEY-1"), "{text}");
        assert!(text.contains("Bearer sig=="), "authorization is kept");
    }

    #[test]
    fn caps_bodies_at_char_boundaries() {
        assert_eq!(capped_body(b"abc", 5), ("abc".to_string(), false));
        assert_eq!(capped_body("aé".as_bytes(), 2), ("a".to_string(), true));
    }
}
