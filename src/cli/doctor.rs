//! `signscope doctor`: what could make a signature fail before a request is even sent, for
//! every profile (`docs/profiles.md`, "signscope doctor"): where its REST key comes from and
//! whether it resolves (never the key), the header prefix, the server's clock against this
//! computer's (`TIMESTAMP_OUT_OF_WINDOW`'s commonest cause), and the file permissions of the
//! config and data directories. Each problem is followed by what to do. Exit 0 when there is
//! none, 1 otherwise.

use std::path::Path;

use crate::store::{KeySource, Paths, Profile, ProfileStore, EMBEDDED_URL};

/// How far the server's clock may be from this computer's before doctor calls it a problem.
const CLOCK_TOLERANCE_SECONDS: i64 = 30;

#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// Check only this profile (default: every profile).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Do not contact the profiles' servers (no clock check).
    #[arg(long)]
    pub offline: bool,
}

/// What doctor found: lines to print and how many were problems.
#[derive(Default)]
struct Report {
    lines: Vec<String>,
    problems: usize,
}

impl Report {
    fn ok(&mut self, text: String) {
        self.lines.push(format!("  ok       {text}"));
    }
    fn problem(&mut self, text: String, fix: String) {
        self.problems += 1;
        self.lines.push(format!("  PROBLEM  {text}"));
        self.lines.push(format!("           fix: {fix}"));
    }
    fn note(&mut self, text: String) {
        self.lines.push(format!("  -        {text}"));
    }
}

pub fn run(args: DoctorArgs) -> anyhow::Result<u8> {
    let paths = Paths::discover()?;
    let store = ProfileStore::open(&paths);
    let mut report = Report::default();
    report.lines.push("files".to_string());
    check_files(&paths, &mut report);
    let profiles = match &args.profile {
        Some(name) => vec![store.load(name)?],
        None => {
            let loaded = store.list();
            for e in &loaded.errors {
                report.problem(
                    format!("{e}"),
                    "fix the line named, or move the file away".to_string(),
                );
            }
            loaded.profiles
        }
    };
    for p in &profiles {
        report.lines.push(format!("profile {}", p.name));
        check_key(p, &mut report);
        check_prefix(p, &mut report);
        if !args.offline {
            check_clock(p, &mut report);
        }
    }
    for line in &report.lines {
        println!("{line}");
    }
    if report.problems == 0 {
        println!("no problems found");
        return Ok(0);
    }
    let problems = crate::core::visible::counted(report.problems, "problem");
    println!("{problems} found");
    Ok(1)
}

/// The config and data directories and what is in them: private to the user (0700/0600).
fn check_files(paths: &Paths, report: &mut Report) {
    for (what, dir) in [("config", &paths.config_dir), ("data", &paths.data_dir)] {
        if !dir.exists() {
            report.note(format!(
                "{what} directory {} does not exist yet",
                dir.display()
            ));
            continue;
        }
        let open = others_may_read(dir, 0o077);
        let files = open_files_under(dir);
        if open.is_none() && files.is_empty() {
            report.ok(format!("{what} directory {} is yours only", dir.display()));
        }
        if let Some(mode) = open {
            report.problem(
                format!(
                    "{what} directory {} has mode {mode:o}: others may list it",
                    dir.display()
                ),
                format!("chmod 700 {}", dir.display()),
            );
        }
        for (file, mode) in files {
            report.problem(
                format!("{} has mode {mode:o}: others may read it", file.display()),
                format!("chmod 600 {}", file.display()),
            );
        }
    }
}

/// The mode bits of `path` in `mask`, when any is set (`None` on systems without modes).
fn others_may_read(path: &Path, mask: u32) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).ok()?.permissions().mode() & 0o777;
        (mode & mask != 0).then_some(mode)
    }
    #[cfg(not(unix))]
    {
        let _ = (path, mask);
        None
    }
}

/// Files (recursively) under `dir` that others may read, with their modes.
fn open_files_under(dir: &Path) -> Vec<(std::path::PathBuf, u32)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(open_files_under(&path));
        } else if let Some(mode) = others_may_read(&path, 0o077) {
            out.push((path, mode));
        }
    }
    out
}

/// Where the key comes from and whether it resolves; a key kept in clear is named with the
/// command that moves it to the OS store.
fn check_key(p: &Profile, report: &mut Report) {
    let source = &p.rest_key;
    let named = match source.reference() {
        Some(r) => format!("{} ({r})", source.describe()),
        None => source.describe(),
    };
    match source.resolve() {
        Ok(_) => report.ok(format!("REST key from the {named} resolves")),
        Err(e) => report.problem(
            format!("REST key from the {named} does not resolve: {e}"),
            "give the profile a reference that reads (`signscope profile new NAME --rest-key REF`, or `signscope key set NAME`)".to_string(),
        ),
    }
    if let KeySource::Stored(_) = source {
        report.problem(
            format!(
                "the REST key of profile \"{}\" is kept in its file in clear",
                p.name
            ),
            format!(
                "`signscope key set {} --from-profile` moves it to the operating-system key store",
                p.name
            ),
        );
    }
}

/// The header prefix, and whether it is the vendor's for a profile that talks to the vendor.
fn check_prefix(p: &Profile, report: &mut Report) {
    let prefix = p.header_prefix();
    let url = reqwest::Url::parse(&p.indexing_url).ok();
    let host = url.as_ref().and_then(|u| u.host_str()).unwrap_or_default();
    let vendor = ["klevu.com", "ksearchnet.com"]
        .iter()
        .any(|h| host.ends_with(h));
    if vendor && !prefix.eq_ignore_ascii_case("KLEVU") {
        report.problem(
            format!("header prefix {prefix} (X-{prefix}-TIMESTAMP...) for the vendor's server, which expects KLEVU"),
            format!("set the prefix KLEVU (`signscope profile new {} --vendor klevu` sets it)", p.name),
        );
    } else {
        report.ok(format!("header prefix {prefix} (X-{prefix}-TIMESTAMP...)"));
    }
}

/// The offset of the profile server's clock (its `Date` header) from this computer's.
fn check_clock(p: &Profile, report: &mut Report) {
    let url = &p.indexing_url;
    if url.is_empty() || url == EMBEDDED_URL {
        report.note("clock: the profile's server runs inside signscope (same clock)".to_string());
        return;
    }
    let runtime = match super::runtime() {
        Ok(r) => r,
        Err(e) => {
            report.note(format!("clock: not checked ({})", e.root_cause()));
            return;
        }
    };
    let local = chrono::Utc::now();
    let date = runtime.block_on(crate::client::stream::server_date(url));
    let server = match date {
        Ok(d) => match chrono::DateTime::parse_from_rfc2822(d.trim()) {
            Ok(t) => t.with_timezone(&chrono::Utc),
            Err(_) => {
                report.note(format!(
                    "clock: {url} sent a Date header that is not a date"
                ));
                return;
            }
        },
        Err(e) => {
            report.note(format!("clock: not checked, {e}"));
            return;
        }
    };
    let offset = (server - local).num_seconds();
    let direction = if offset >= 0 { "ahead of" } else { "behind" };
    let text = format!(
        "clock: {url}'s Date is {} s {direction} this computer's",
        offset.abs()
    );
    if offset.abs() > CLOCK_TOLERANCE_SECONDS {
        report.problem(
            format!("{text}; signed timestamps will be rejected (TIMESTAMP_OUT_OF_WINDOW)"),
            "set this computer's clock (enable NTP: `timedatectl set-ntp true`)".to_string(),
        );
    } else {
        report.ok(text);
    }
}
