//! `signscope test PATH...`: run request suites (`docs/test.md`) through the engine (sign once,
//! send) against the in-process server (default), `--server URL` or, with `--target real`, the
//! account's own URLs; judge each answer (`core::suite::judge`) and report. Exit 0 when every
//! check passed, 1 when one failed, 2 for unusable input (nothing is run then).

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, bail};
use bytes::Bytes;

use crate::core::spec::{RequestSpec, SigningParams, Timestamp};
use crate::core::suite::judge::{capture, judge, Observed};
use crate::core::suite::report::{self, Case};
use crate::core::suite::{self, substitute, Suite, SuiteRequest, SUITE_SUFFIX};
use crate::engine::{Exchange, SendRequest, Sender, Session};
use crate::store::{KeySource, Paths};

use super::send::TimeoutArgs;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// The in-process local server with the demo account (offline).
    Embedded,
    /// The account's own `indexing_url` and `analytics_url` (the real service).
    Real,
}

#[derive(Debug, clap::Args)]
pub struct TestArgs {
    /// Suite files (`*.signscope.toml`) or folders holding them.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
    /// Send to this local server (`signscope serve`) instead of the in-process one.
    #[arg(long, value_name = "URL", conflicts_with = "target")]
    pub server: Option<String>,
    /// Where to send; `real` is the account's own URLs and must be asked for.
    #[arg(long, value_enum, default_value_t = Target::Embedded)]
    pub target: Target,
    /// Profile whose saved requests `use = "NAME"` names.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Also write a report: `junit=FILE`, `tap=FILE`, `json=FILE` (`-` is stdout). Repeatable.
    #[arg(long = "report", value_name = "FORMAT=FILE")]
    pub reports: Vec<String>,
    #[command(flatten)]
    pub timeouts: TimeoutArgs,
}

/// A report to write: its format and file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportSpec {
    pub format: String,
    pub file: PathBuf,
}

/// Parse `--report FORMAT=FILE` values (junit, tap, json).
pub fn parse_reports(values: &[String], allowed: &[&str]) -> anyhow::Result<Vec<ReportSpec>> {
    values
        .iter()
        .map(|v| {
            let (format, file) = v.split_once('=').unwrap_or((v.as_str(), ""));
            if !allowed.contains(&format) || file.is_empty() {
                bail!(
                    "--report {v:?} is not FORMAT=FILE with FORMAT one of {}; write e.g. --report junit=report.xml",
                    allowed.join(", ")
                );
            }
            Ok(ReportSpec {
                format: format.to_string(),
                file: PathBuf::from(file),
            })
        })
        .collect()
}

/// Write each report of `cases`.
pub fn write_reports(reports: &[ReportSpec], cases: &[Case]) -> anyhow::Result<()> {
    let stamp = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S").to_string();
    for r in reports {
        let text = match r.format.as_str() {
            "junit" => report::junit(cases, &stamp),
            "tap" => report::tap(cases),
            _ => report::json(cases),
        };
        if r.file.as_os_str() == "-" {
            std::io::stdout().lock().write_all(text.as_bytes())?;
        } else {
            let what = format!("cannot write the {} report", r.format);
            std::fs::write(&r.file, text).map_err(io_err(&what, &r.file))?;
        }
    }
    Ok(())
}

/// The error of a file operation: `WHAT PATH: why` (`cannot read the suite a.toml: ...`).
fn io_err<'a>(what: &'a str, path: &'a Path) -> impl FnOnce(std::io::Error) -> anyhow::Error + 'a {
    move |e| anyhow!("{what} {}: {}", path.display(), crate::store::io_reason(&e))
}

/// Write `request` as a suite entry (`docs/test.md`, "Writing the first suite"): added to
/// `file` when it is a suite, a new suite there when it does not exist, or the whole suite to
/// stdout without a file. Only where asked, and never the key: the account's REST key is its
/// reference. What is written parses as a suite first.
pub fn export_to_suite(
    profile: &crate::store::Profile,
    request: &crate::core::suite::export::ExportRequest,
    file: Option<&Path>,
) -> anyhow::Result<()> {
    use crate::core::suite::export;
    let (reference, stand_in) = crate::store::suite_export::rest_key_reference(&profile.rest_key);
    let spec = profile.request();
    let head = export::head(&spec.api_key, &spec.header_prefix, &reference);
    let entry = export::entry(request);
    let existing = match file {
        Some(f) if f.exists() => {
            Some(std::fs::read_to_string(f).map_err(io_err("cannot read the suite", f))?)
        }
        _ => None,
    };
    let place = file.map_or_else(|| "-".to_string(), |f| f.display().to_string());
    let text = export::add_entry(existing.as_deref(), &head, &entry)
        .map_err(|e| anyhow!("{place}:{e}"))?;
    match file {
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
        Some(f) => {
            std::fs::write(f, &text).map_err(io_err("cannot write the suite", f))?;
            eprintln!("wrote \"{}\" as a suite entry to {place}", request.name);
        }
    }
    if stand_in && existing.is_none() {
        eprintln!("the profile keeps its REST key in its file, so the suite reads it from the environment variable {}: set it where the suite runs", crate::store::suite_export::REST_KEY_ENV);
    }
    Ok(())
}

/// A suite file read and parsed, with its keys resolved.
struct Loaded {
    file: PathBuf,
    suite: Suite,
}

/// Every suite file named: files as given, folders searched (sorted) for `*.signscope.toml`.
fn suite_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(io_err("cannot read the folder", p))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.to_string_lossy().ends_with(SUITE_SUFFIX))
                .collect();
            found.sort();
            if found.is_empty() {
                bail!(
                    "{} holds no *{SUITE_SUFFIX} file; name suite files so",
                    p.display()
                );
            }
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Read and parse every suite; the first that cannot be used stops the run before anything is
/// sent: `file:line:column: what and the fix`.
fn load_all(paths: &[PathBuf]) -> anyhow::Result<Vec<Loaded>> {
    let mut out = Vec::new();
    for file in suite_files(paths)? {
        let text =
            std::fs::read_to_string(&file).map_err(io_err("cannot read the suite", &file))?;
        let suite = suite::parse(&text).map_err(|e| anyhow!("{}:{e}", file.display()))?;
        let account_line = text
            .lines()
            .position(|l| l.trim_start().starts_with("rest_key"))
            .map_or(1, |i| i + 1);
        KeySource::from_reference(&suite.account.rest_key)
            .map_err(|e| anyhow!("{}:{account_line}: {e}", file.display()))?;
        for r in &suite.requests {
            if let Some(k) = &r.rest_key {
                KeySource::from_reference(k)
                    .map_err(|e| anyhow!("{}:{}: {e}", file.display(), r.line))?;
            }
        }
        out.push(Loaded { file, suite });
    }
    Ok(out)
}

/// Run `signscope test`.
pub fn run(args: TestArgs) -> anyhow::Result<u8> {
    let reports = parse_reports(&args.reports, &["junit", "tap", "json"])?;
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut out = std::io::stdout().lock();
    let cases = run_cases(&args, &mut |case| {
        writeln!(out, "{}", report::progress_line(case, colour))?;
        for f in case.failures() {
            writeln!(out, "  {f}")?;
        }
        out.flush()?;
        Ok(())
    })?;
    writeln!(out, "{}", report::summary_line(&cases))?;
    drop(out);
    write_reports(&reports, &cases)?;
    Ok(if cases.iter().all(Case::passed) { 0 } else { 1 })
}

/// Load every suite of `args` (nothing is sent when one cannot be used), run their requests in
/// order and give each case to `progress` as it is judged; the cases, in order (the bench's
/// entry, `benches/suite.rs`).
pub fn run_cases(
    args: &TestArgs,
    progress: &mut dyn FnMut(&Case) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<Case>> {
    let loaded = load_all(&args.paths)?;
    let opts = args.timeouts.options()?;
    let mut session = Session::open_unmarked_in(
        Paths::discover()?,
        Some(
            args.profile
                .as_deref()
                .unwrap_or(crate::store::DEMO_PROFILE),
        ),
        opts,
    )?;
    let sender = Sender::unrecorded();
    let mut cases = Vec::new();
    for l in &loaded {
        let target = Urls::of(args, &l.suite, &mut session)?;
        let mut vars = l.suite.vars.clone();
        for r in &l.suite.requests {
            let case = run_one(
                &Runner {
                    session: &session,
                    sender: &sender,
                    target: &target,
                    loaded: l,
                },
                r,
                &mut vars,
            );
            progress(&case)?;
            cases.push(case);
        }
    }
    Ok(cases)
}

/// Where one suite's requests go.
struct Urls {
    indexing: String,
    analytics: String,
    /// Whether the server keeps an inspection store to read recorded events from.
    inspectable: bool,
}

impl Urls {
    fn of(args: &TestArgs, suite: &Suite, session: &mut Session) -> anyhow::Result<Urls> {
        let (indexing, analytics, inspectable) = if let Some(url) = &args.server {
            let url = url.trim_end_matches('/').to_string();
            (url.clone(), url, true)
        } else if args.target == Target::Real {
            let a = &suite.account;
            let (Some(i), Some(an)) = (&a.indexing_url, &a.analytics_url) else {
                bail!("--target real needs indexing_url and analytics_url in the suite's [account]; add them");
            };
            (i.clone(), an.clone(), false)
        } else {
            let url = session.embedded_url()?;
            (url.clone(), url, true)
        };
        Ok(Urls {
            indexing,
            analytics,
            inspectable,
        })
    }
}

struct Runner<'a> {
    session: &'a Session,
    sender: &'a Sender,
    target: &'a Urls,
    loaded: &'a Loaded,
}

/// Run one request: build it, send it through the engine, judge the answer, capture values.
fn run_one(run: &Runner<'_>, r: &SuiteRequest, vars: &mut BTreeMap<String, String>) -> Case {
    let mut case = Case {
        file: run.loaded.file.display().to_string(),
        line: r.line,
        name: r.name.clone(),
        ..Case::default()
    };
    let started = Instant::now();
    let sent = if r.is_events() {
        send_events(run, r, vars)
    } else {
        send_indexing(run, r, vars)
    };
    match sent {
        Err(e) => case.error = Some(e.to_string()),
        Ok(seen) => {
            case.duration_ms = if seen.duration_ms > 0.0 {
                seen.duration_ms
            } else {
                started.elapsed().as_secs_f64() * 1000.0
            };
            case.diagnosis = seen.rejected.then(|| seen.diagnosis.clone()).flatten();
            let expect = substituted_expect(r, vars);
            case.checks = judge(&expect, &seen);
            for (name, pointer) in &r.capture {
                match capture(&seen.body, pointer) {
                    Some(v) => {
                        vars.insert(name.clone(), v);
                    }
                    None => {
                        case.error = Some(format!(
                            "nothing to capture as {name} at {pointer} of the answer"
                        ))
                    }
                }
            }
        }
    }
    case
}

/// The expectations with variables put in (strings only; an unknown variable stays as written
/// and fails its check).
fn substituted_expect(r: &SuiteRequest, vars: &BTreeMap<String, String>) -> suite::Expect {
    let mut e = r.expect.clone();
    let sub = |s: &mut String| {
        if let Ok(v) = substitute(s, vars) {
            *s = v;
        }
    };
    e.headers.values_mut().for_each(sub);
    for j in &mut e.json {
        if let Some(serde_json::Value::String(s)) = &mut j.equals {
            sub(s);
        }
    }
    e
}

fn subst(text: &str, vars: &BTreeMap<String, String>) -> anyhow::Result<String> {
    substitute(text, vars).map_err(|name| anyhow!("the variable {{{{{name}}}}} is not set; define it under [vars] or capture it from an earlier request"))
}

/// The request's REST key, read now through the store's one resolver.
fn key_of(run: &Runner<'_>, r: &SuiteRequest) -> anyhow::Result<crate::core::Secret> {
    let reference = r
        .rest_key
        .as_deref()
        .unwrap_or(&run.loaded.suite.account.rest_key);
    let source = KeySource::from_reference(reference).map_err(|e| anyhow!(e))?;
    source
        .resolve()
        .map_err(|e| anyhow!("the REST key could not be read: {e}"))
}

fn request_spec(
    run: &Runner<'_>,
    r: &SuiteRequest,
    vars: &BTreeMap<String, String>,
) -> anyhow::Result<RequestSpec> {
    let a = &run.loaded.suite.account;
    let base = match &r.use_saved {
        Some(name) => run
            .session
            .profile()
            .find_request(name)
            .map(|s| s.spec.clone())
            .ok_or_else(|| anyhow!("the profile {} has no saved request {name:?}; pass --profile with the one that has it", run.session.profile().name))?,
        None => RequestSpec::default(),
    };
    let body = match (&r.body, &r.body_file) {
        (Some(b), _) => Bytes::from(subst(b, vars)?.into_bytes()),
        (None, Some(f)) => {
            let path = run.loaded.file.parent().unwrap_or(Path::new(".")).join(f);
            Bytes::from(std::fs::read(&path).map_err(io_err("cannot read the body file", &path))?)
        }
        (None, None) => base.body.clone(),
    };
    Ok(RequestSpec {
        method: r.method.clone().unwrap_or(base.method),
        path: subst(r.path.as_deref().unwrap_or(&base.path), vars)?,
        query: subst(r.query.as_deref().unwrap_or(&base.query), vars)?,
        header_prefix: a.header_prefix.clone(),
        api_key: a.api_key.clone(),
        content_type: r.content_type.clone().unwrap_or(base.content_type),
        auth_algo: base.auth_algo,
        body,
    })
}

fn send_indexing(
    run: &Runner<'_>,
    r: &SuiteRequest,
    vars: &BTreeMap<String, String>,
) -> anyhow::Result<Observed> {
    let request = request_spec(run, r, vars)?;
    let params = SigningParams {
        key: key_of(run, r)?,
        timestamp: Timestamp::Now,
        form: Default::default(),
    };
    let send = SendRequest {
        base_url: run.target.indexing.clone(),
        request,
        params,
    };
    let exchange = sender_for(run, r, vars)?.send_blocking(send)?;
    Ok(observed(&exchange))
}

/// The sender for one request: the run's, adding the request's own headers (variables put in).
fn sender_for(
    run: &Runner<'_>,
    r: &SuiteRequest,
    vars: &BTreeMap<String, String>,
) -> anyhow::Result<Sender> {
    let headers = r
        .headers
        .iter()
        .map(|(n, v)| Ok((n.clone(), subst(v, vars)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(run.sender.clone().with_extra_headers(headers))
}

/// What the judge needs of an exchange.
fn observed(x: &Exchange) -> Observed {
    let mut seen = Observed::default();
    match &x.response {
        Err(e) => seen.error = Some(e.to_string()),
        Ok(resp) => {
            seen.status = Some(resp.status);
            seen.headers = resp.headers.clone();
            seen.body = resp.body.to_vec();
            seen.duration_ms = resp.timings.total.as_secs_f64() * 1000.0;
        }
    }
    seen.code = x.answer.code.clone();
    seen.rejected = seen
        .code
        .as_deref()
        .is_some_and(crate::core::verify::is_refusal_code);
    if let Some(m) = &x.answer.mismatch {
        seen.diagnosis = m.summary();
        seen.findings = m
            .findings
            .iter()
            .map(|f| f.split(':').next().unwrap_or(f).trim().to_string())
            .collect();
    } else if seen.rejected {
        seen.diagnosis = x.answer.message.clone();
    }
    seen
}

fn send_events(
    run: &Runner<'_>,
    r: &SuiteRequest,
    vars: &BTreeMap<String, String>,
) -> anyhow::Result<Observed> {
    let body = subst(r.events.as_deref().unwrap_or_default(), vars)?;
    let inspect = format!("{}/_inspect/events", run.target.analytics);
    // The server's mark: the events of this batch come after it (`docs/server.md` rule R13).
    let before = if run.target.inspectable {
        block_on(crate::client::stream::mark(&run.target.analytics))?.map_err(|e| anyhow!(e))?
    } else {
        0
    };
    let exchange = sender_for(run, r, vars)?.send_events_blocking(
        &run.target.analytics,
        Bytes::from(body.into_bytes()),
        None,
    )?;
    let mut seen = observed(&exchange);
    if run.target.inspectable && !r.expect.events.is_empty() {
        seen.events = recorded_after(run.sender, &inspect, before)?;
    }
    Ok(seen)
}

/// The events recorded after sequence number `seq`, each as the server stored it.
fn recorded_after(sender: &Sender, url: &str, seq: u64) -> anyhow::Result<Vec<serde_json::Value>> {
    let all = records(sender, &format!("{url}?after={seq}"))?;
    Ok(all
        .into_iter()
        .filter(|e| {
            e.get("seq")
                .and_then(|s| s.as_u64())
                .is_none_or(|s| s > seq)
        })
        .collect())
}

fn records(sender: &Sender, url: &str) -> anyhow::Result<Vec<serde_json::Value>> {
    let text = block_on(sender.get_text(url))??;
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| anyhow!("the server's inspection answer from {url} is not JSON: {e}"))?;
    Ok(match v {
        serde_json::Value::Array(a) => a,
        serde_json::Value::Object(mut o) => {
            match o.remove("events").or_else(|| o.remove("items")) {
                Some(serde_json::Value::Array(a)) => a,
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    })
}

/// `fut` run to its end on a runtime of its own (the suite runs blocking).
fn block_on<F: std::future::Future>(fut: F) -> anyhow::Result<F::Output> {
    Ok(super::runtime()?.block_on(fut))
}
