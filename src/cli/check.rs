//! `signscope check FILE`: judge every request of a capture (a HAR, or raw HTTP requests or
//! curl commands one per block) the way the local server would, offline, at the capture's own
//! time (`docs/har.md`). One line per request as `watch` prints it, with what the real service
//! answered beside it, then the problems; or one JSON record per request (`--output json`).
//! Exit 0 when every request judged is accepted, 1 when one is rejected, 2 for unusable input.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use anyhow::bail;
use serde_json::json;

use crate::core::suite::judge::Check;
use crate::core::suite::report::Case;
use crate::core::SigningForm;
use crate::engine::capture::JudgeKeys;

use super::keys::{account_key_source, profile_keys, resolve};
use crate::core::traffic::{body_problem_line, request_line, RequestSeen};
use crate::core::visible::counted;
use crate::engine::capture::{judge_file, CaptureOptions, Item, NotJudged, Outcome};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckOutput {
    /// One line per request, then the problems.
    Text,
    /// One JSON object per line: each request as the live stream's record, then a summary.
    Json,
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The capture: a HAR file (HAR 1.2, as browsers and proxies save it), or a file of raw
    /// HTTP requests or curl commands (several separated by lines starting with ###); '-'
    /// reads stdin.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The REST key for signed indexing requests (for every API key not given with --key).
    #[command(flatten)]
    pub key: super::keys::RestKeyArgs,
    /// The REST key of one API key, by reference or from an environment variable, for captures
    /// that span accounts: `--key klevu-123=env:SHOP1_REST_KEY` (or `klevu-123=SHOP1_REST_KEY`).
    /// Repeatable.
    #[arg(long = "key", value_name = "API_KEY=REF")]
    pub keys: Vec<String>,
    /// The REST key of a saved profile's API key, as `sign` and `send` take it (`--profile
    /// shop1`). Repeatable.
    #[arg(long = "profile", value_name = "NAME")]
    pub profiles: Vec<String>,
    /// Also judge requests to this host (repeatable); by default requests to the vendor's
    /// hosts (ksearchnet.com, klevu.com) and to loopback are judged, others are counted and
    /// skipped.
    #[arg(long = "host", value_name = "HOST")]
    pub hosts: Vec<String>,
    /// Also accept signatures made in this signing form, as `serve --accept-form` does.
    #[arg(long = "accept-form", value_name = "FORM")]
    pub accept_forms: Vec<SigningForm>,
    /// The time to judge requests at that carry no capture time (raw HTTP, curl, a HAR entry
    /// without startedDateTime); default: now.
    #[arg(long, value_name = "TS")]
    pub now: Option<String>,
    #[arg(long, value_enum, default_value_t = CheckOutput::Text)]
    pub output: CheckOutput,
    /// Also write a report with one test case per request judged: `junit=FILE`, `tap=FILE`,
    /// `json=FILE` (`-` is stdout), as `signscope test` writes them. Repeatable.
    #[arg(long = "report", value_name = "FORMAT=FILE")]
    pub reports: Vec<String>,
}

/// The REST keys from the flags (none at all is allowed: a capture of collector requests needs
/// none; a signed request then says which flag to give).
fn keys(args: &CheckArgs) -> anyhow::Result<JudgeKeys> {
    let default = args.key.resolve()?;
    let mut per_api = HashMap::new();
    for spec in &args.keys {
        let Some((api, reference)) = spec
            .split_once('=')
            .filter(|(a, v)| !a.is_empty() && !v.is_empty())
        else {
            bail!("--key must have the form API_KEY=REF (the REST key of API_KEY by reference, e.g. klevu-123=env:SHOP1_REST_KEY)");
        };
        let source = account_key_source("--key", api, reference)?;
        let secret = resolve(&source).map_err(|e| anyhow::anyhow!("{e} (--key {api}=…)"))?;
        per_api.insert(api.to_string(), secret);
    }
    for name in &args.profiles {
        let (api, secret) = profile_keys(name)?;
        per_api.entry(api).or_insert(secret);
    }
    Ok(JudgeKeys { default, per_api })
}

pub fn run(args: CheckArgs) -> anyhow::Result<u8> {
    let now = super::now_from_flag(args.now.as_deref())?;
    let reports = super::test::parse_reports(&args.reports, &["junit", "tap", "json"])?;
    let opts = CaptureOptions {
        keys: keys(&args)?,
        hosts: args.hosts.clone(),
        accept_forms: args.accept_forms.clone(),
        now,
    };
    let runtime = super::runtime()?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut problems: Vec<String> = Vec::new();
    let mut unverified = 0usize;
    let mut bodies = Bodies::default();
    let mut cases = Vec::new();
    let file_label = args.file.display().to_string();
    let json = args.output == CheckOutput::Json;
    let no_key = opts.keys.default.is_none();
    let outcome = judge_file(&args.file, &opts, runtime.handle(), &mut |item| {
        if let Item::Judged { seen, .. } = &item {
            if no_key && seen.code.as_deref() == Some("UNKNOWN_API_KEY") {
                unverified += 1;
            }
            bodies.count(seen);
        }
        cases.extend(case_of(&file_label, &item));
        if json {
            serde_json::to_writer(&mut out, &json_record(&item))?;
            writeln!(out)?;
        } else {
            if let Some(line) = text_line(&item) {
                writeln!(out, "{line}")?;
            }
            problems.extend(item_problems(&item));
        }
        Ok(())
    })?;
    let t = &outcome.totals;
    if json {
        let mut summary = json!({"type": "summary", "format": t.format, "requests": t.requests,
            "judged": t.judged, "rejected": t.rejected, "skipped_other_host": t.skipped_other_host,
            "skipped_other_path": t.skipped_other_path, "unreadable": t.unreadable,
            "not_sent": t.not_sent, "body_not_kept": t.body_not_kept,
            "bodies_refused": bodies.refused, "bodies_with_warnings": bodies.warned});
        if let Some(b) = &outcome.broken {
            summary["broken"] = json!(b.to_string());
        }
        serde_json::to_writer(&mut out, &summary)?;
        writeln!(out)?;
    } else {
        if let Some(b) = &outcome.broken {
            problems.push(b.to_string());
        }
        if unverified > 0 {
            problems.push(format!(
                "{unverified} signed {} not verified: no REST key was given for {}; give it with --rest-key REF, or --key API_KEY=REF per API key",
                if unverified == 1 { "request was" } else { "requests were" },
                if unverified == 1 { "its API key" } else { "their API keys" }
            ));
        }
        if !problems.is_empty() {
            writeln!(out, "problems:")?;
            for p in &problems {
                writeln!(out, "  {p}")?;
            }
        }
        writeln!(
            out,
            "{}{}",
            summary_line(&outcome, unverified),
            bodies.text()
        )?;
    }
    out.flush()?;
    drop(out);
    super::test::write_reports(&reports, &cases)?;
    Ok(exit_code(&outcome, unverified))
}

/// Indexing bodies of the capture the vendor's SDK would refuse, and those with only warnings
/// (`docs/indexing-bodies.md`).
#[derive(Default)]
struct Bodies {
    refused: usize,
    warned: usize,
}

impl Bodies {
    fn count(&mut self, seen: &RequestSeen) {
        match &seen.body_problems {
            Some(b) if b.errors > 0 => self.refused += 1,
            Some(_) => self.warned += 1,
            None => {}
        }
    }

    /// `; indexing bodies: 2 the vendor's SDK would refuse, 1 with warnings`, or nothing.
    fn text(&self) -> String {
        if self.refused + self.warned == 0 {
            return String::new();
        }
        format!(
            "; indexing bodies: {} the vendor's SDK would refuse, {} with warnings",
            self.refused, self.warned
        )
    }
}

/// One request of the capture as a test case for the reports (`docs/test.md`): its place is
/// `FILE:N` with N its number in the capture (`#N` in the text output); it passes when its
/// signature and body are accepted, and a failure carries the answer and the diagnosis
/// sentence. Requests skipped as not for the vendor, or not sent, are no case; one whose body
/// the capture did not keep is an error (`docs/har.md` rule H12).
fn case_of(file: &str, item: &Item) -> Option<Case> {
    let mut case = Case {
        file: file.to_string(),
        ..Case::default()
    };
    match item {
        Item::Skipped { .. }
        | Item::NotJudged {
            why: NotJudged::NotSent,
            ..
        } => return None,
        Item::Bad { entry, why } => {
            case.line = *entry;
            case.name = format!("#{entry} (unreadable)");
            case.error = Some(why.clone());
        }
        Item::NotJudged {
            entry,
            method,
            url,
            why,
        } => {
            // Not judged, so neither passed nor failed: an error, as an unreadable entry.
            case.line = *entry;
            case.name = format!("#{entry} {method} {url}");
            case.error = Some(why.sentence());
        }
        Item::Judged { entry, seen, .. } => {
            let rejected = seen.is_rejected();
            case.line = *entry;
            case.name = format!("#{entry} {}", request_line_short(seen));
            case.duration_ms = seen.duration_ms;
            let actual = match (rejected, &seen.code, &seen.message) {
                (false, _, _) => "accepted".to_string(),
                (true, Some(code), Some(m)) => format!("rejected, {code}: {m}"),
                (true, code, _) => format!("rejected, {}", code.as_deref().unwrap_or("no code")),
            };
            case.checks.push(Check {
                what: "verdict".to_string(),
                expected: "accepted".to_string(),
                actual,
                passed: !rejected,
            });
            if rejected {
                case.diagnosis = new_conclusion(seen)
                    .cloned()
                    .or_else(|| {
                        let problems = seen.batch.as_ref()?.problems.iter().map(problem_text);
                        Some(problems.collect::<Vec<_>>().join("; ")).filter(|p| !p.is_empty())
                    })
                    .or_else(|| {
                        let problems = seen.body_problems.as_ref()?.problems.iter();
                        let lines = problems.map(body_problem_line).collect::<Vec<_>>();
                        Some(lines.join("; ")).filter(|p| !p.is_empty())
                    });
            }
        }
    }
    Some(case)
}

/// `METHOD /path?query` of a judged request.
fn request_line_short(seen: &crate::core::traffic::RequestSeen) -> String {
    let target = crate::core::http_text::target(&seen.path, &seen.query);
    format!("{} {target}", seen.method)
}

/// 1 when a request was rejected; else 2 when something could not be read or judged (a bad
/// entry, a broken HAR, a body the capture did not keep, a signed request without its key,
/// nothing to judge at all); else 0.
fn exit_code(o: &Outcome, unverified: usize) -> u8 {
    let t = &o.totals;
    if t.rejected > unverified {
        1
    } else if t.unreadable > 0
        || t.body_not_kept > 0
        || o.broken.is_some()
        || unverified > 0
        || t.judged == 0
    {
        2
    } else {
        0
    }
}

fn captured_text(c: &Option<crate::engine::capture::Captured>) -> String {
    let Some(c) = c else {
        return String::new();
    };
    let code = c
        .code
        .as_ref()
        .map_or(String::new(), |code| format!(" {code}"));
    format!("  [captured: {}{code}]", c.status)
}

/// The line of one request: `#3 11:24:54 PUT /v2/batch 401 SIGNATURE_MISMATCH ...` as `watch`
/// prints it, then what the capture's answer was. Skipped requests have no line (they are
/// counted in the summary).
fn text_line(item: &Item) -> Option<String> {
    match item {
        Item::Judged {
            entry,
            seen,
            captured,
            ..
        } => Some(format!(
            "#{entry} {}{}",
            request_line(seen),
            captured_text(captured)
        )),
        Item::Bad { entry, .. } => Some(format!("#{entry} unreadable (see problems)")),
        Item::NotJudged {
            entry,
            method,
            url,
            why,
        } => Some(format!("#{entry} {method} {url}: {}", why.sentence())),
        Item::Skipped { .. } => None,
    }
}

/// The problems of one request, one line each.
fn item_problems(item: &Item) -> Vec<String> {
    let mut out = Vec::new();
    match item {
        Item::Bad { entry, why } => out.push(format!("#{entry}: skipped: {why}")),
        Item::Skipped { .. } | Item::NotJudged { .. } => {}
        Item::Judged {
            entry, seen, notes, ..
        } => {
            let what = format!("#{entry} {}", request_line_short(seen));
            out.extend(notes.iter().map(|n| format!("{what}: note: {n}")));
            let rejected = seen.is_rejected();
            if !rejected {
                out.extend(
                    seen.warnings
                        .iter()
                        .map(|w| format!("{what}: warning: {w}")),
                );
            }
            if let Some(b) = &seen.batch {
                out.extend(
                    b.problems
                        .iter()
                        .map(|p| format!("{what}: {}", problem_text(p))),
                );
                if rejected {
                    if b.problems_omitted > 0 {
                        let more = b.problems_omitted;
                        out.push(format!("{what}: {more} more problems not listed"));
                    }
                    return out;
                }
            } else if rejected {
                let code = seen.code.as_deref().unwrap_or("rejected");
                let message = seen.message.as_deref().unwrap_or("");
                if message.is_empty() {
                    let status = seen.status;
                    out.push(format!("{what}: {code}: answered {status} with no message"));
                } else {
                    out.push(format!("{what}: {code}: {message}"));
                }
                if let Some(c) = new_conclusion(seen) {
                    out.push(format!("{what}: diagnosis: {c}"));
                }
                if let Some(e) = &seen.expected {
                    out.push(format!("{what}: expected signing text: {e}"));
                }
            }
            out.extend(body_problem_lines(&what, seen));
        }
    }
    out
}

/// The diagnosis's conclusion when the server's message does not carry it already (it usually
/// does).
fn new_conclusion(seen: &RequestSeen) -> Option<&String> {
    let message = seen.message.as_deref().unwrap_or("");
    seen.conclusion
        .as_ref()
        .filter(|c| !message.contains(c.as_str()))
}

/// The problems of an indexing body (`docs/indexing-bodies.md`), one line each, and how many
/// more the record did not list.
fn body_problem_lines(what: &str, seen: &RequestSeen) -> Vec<String> {
    let Some(b) = &seen.body_problems else {
        return Vec::new();
    };
    let mut out: Vec<String> = b
        .problems
        .iter()
        .map(|p| format!("{what}: body: {}", body_problem_line(p)))
        .collect();
    if b.problems_omitted > 0 {
        out.push(format!(
            "{what}: body: {} more problems not listed",
            b.problems_omitted
        ));
    }
    out
}

/// `LEVEL CODE at PATH: message` for one collector problem.
fn problem_text(p: &serde_json::Value) -> String {
    let s = |k: &str| p.get(k).and_then(|v| v.as_str()).unwrap_or("");
    let path = if s("path").is_empty() { "$" } else { s("path") };
    format!("{} {} at {path}: {}", s("level"), s("code"), s("message"))
}

fn summary_line(o: &Outcome, unverified: usize) -> String {
    let t = &o.totals;
    let mut s = format!(
        "{}: {} judged ({} accepted, {} rejected",
        counted(t.requests, "request"),
        t.judged,
        t.judged - t.rejected,
        t.rejected - unverified
    );
    if unverified > 0 {
        s.push_str(&format!(", {unverified} not verified: no REST key"));
    }
    s.push(')');
    if t.skipped_other_host > 0 {
        s.push_str(&format!(
            ", {} to other hosts skipped",
            t.skipped_other_host
        ));
    }
    if t.skipped_other_path > 0 {
        s.push_str(&format!(
            ", {} to other paths skipped",
            t.skipped_other_path
        ));
    }
    s.push_str(&t.not_judged_text());
    if t.unreadable > 0 {
        s.push_str(&format!(", {} unreadable", t.unreadable));
    }
    if t.judged == 0 && t.unreadable == 0 && t.not_sent + t.body_not_kept == 0 {
        s.push_str("; nothing went to the collector or the indexing API: give the host they were sent to with --host");
    }
    s
}

/// One `--output json` record: a judged request is the live stream's record (`type`
/// `request`) with its place in the capture (`entry`), the capture's answer (`captured`) and
/// notes; a skipped or unreadable one says so.
fn json_record(item: &Item) -> serde_json::Value {
    match item {
        Item::Judged {
            entry,
            seen,
            captured,
            notes,
            ..
        } => {
            let msg = crate::core::traffic::StreamMessage::Request(seen.clone());
            let mut v = serde_json::to_value(&msg).unwrap_or_default();
            v["entry"] = json!(entry);
            v["captured"] = json!(captured);
            v["notes"] = json!(notes);
            v["rejected"] = json!(seen.is_rejected());
            v
        }
        Item::Skipped {
            entry,
            method,
            url,
            why,
        } => json!({"type": "skipped", "entry": entry, "method": method, "url": url, "why": why}),
        Item::Bad { entry, why } => json!({"type": "unreadable", "entry": entry, "why": why}),
        Item::NotJudged {
            entry,
            method,
            url,
            why,
        } => json!({"type": "not_judged", "entry": entry, "method": method, "url": url,
                    "why": why.id(), "message": why.sentence()}),
    }
}
