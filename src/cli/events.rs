//! `signscope events`: compose and validate recommendation event batches.
//!
//! ```text
//! signscope events new [--items N] [--clicked I,J] [--api-key K] [--list-id ID] [--shape flat|nested] > batch.json
//! signscope events validate FILE... [--output text|json]
//! signscope events send FILE [--profile P] [--output text|json]
//! ```
//! `validate` exits 0 when no file has errors (warnings allowed), 1 when one has, 2 when a file
//! cannot be read (the other files are still checked). Malformed JSON is a validation error
//! (`JSON_SYNTAX`, exit 1) with its line and column.

use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::{bail, Context};
use serde::Serialize;

use crate::core::events::{validate_bytes, ListDraft, Problem, Report, Shape};
use crate::core::visible::{counted, escape_visible, json_visible};

/// The template `events new` starts from (also in assets/events/template.json).
pub const TEMPLATE: &str = include_str!("../../assets/events/template.json");

#[derive(Debug, clap::Args)]
pub struct EventsArgs {
    #[command(subcommand)]
    pub command: EventsCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum EventsCommand {
    /// Print a new event batch (a view event, then one select event per clicked item).
    New(NewArgs),
    /// Check batch files against the interface rules and report every problem.
    Validate(ValidateArgs),
    /// Send a batch file, byte for byte, to the profile's collector
    /// ({analytics_url}/analytics/collect); exit 0 on 2xx, 1 otherwise.
    Send(crate::cli::send::EventsSendArgs),
}

#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// Number of items in the list, at most 100000 (the template's products are repeated with
    /// new variants).
    #[arg(long, value_name = "N")]
    pub items: Option<usize>,
    /// Clicked items as 1-based positions, comma separated (e.g. 1,3); empty for none.
    /// Default: the template's first item.
    #[arg(long, value_name = "I,J")]
    pub clicked: Option<String>,
    /// Public API key to put in every event (not a secret).
    #[arg(long, value_name = "K")]
    pub api_key: Option<String>,
    /// Recommendation list id shared by the events.
    #[arg(long, value_name = "ID")]
    pub list_id: Option<String>,
    /// Event shape: `flat` (`event_list_id`, ..., `items` at the top level) or `nested`
    /// (`event_version` and `event_data`, as the vendor's current JavaScript SDK sends;
    /// docs/events.md rules E4-E5).
    #[arg(long, value_name = "SHAPE", default_value = "flat")]
    pub shape: Shape,
    /// What to print: `recs` (a view event and one select event per clicked item) or
    /// `order_purchase` (one order with a line per item, as the vendor's PHP SDK sends it;
    /// docs/events.md rules E19-E20; always nested, so --shape and --clicked do not apply).
    #[arg(long, value_enum, default_value_t = Kind::Recs)]
    pub kind: Kind,
}

/// The kind of batch `events new` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// A recommendation list's view and clicks.
    Recs,
    /// An order's lines.
    #[value(name = "order_purchase")]
    OrderPurchase,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    /// One line per problem, prefixed with the file name, then a summary per file.
    Text,
    /// `{"errors": [...], "warnings": [...]}`, each with file, path, code, value, message.
    Json,
}

#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// Batch files to check (`-` reads standard input).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Output::Text)]
    pub output: Output,
}

pub fn run(args: EventsArgs) -> anyhow::Result<u8> {
    match args.command {
        EventsCommand::New(a) => run_new(a),
        EventsCommand::Validate(a) => run_validate(a),
        EventsCommand::Send(a) => crate::cli::send::run_events_send(a),
    }
}

/// The largest `--items` accepted: the batch is built in memory before it is printed, and
/// `--items 100000000` used to be killed by the OOM killer.
pub const MAX_NEW_ITEMS: usize = 100_000;

/// The draft `events new` prints, built from the template and the flags.
pub fn new_draft(args: &NewArgs) -> anyhow::Result<ListDraft> {
    let mut draft: ListDraft =
        serde_json::from_str(TEMPLATE).context("the built-in events template is not valid")?;
    if let Some(n) = args.items {
        if n > MAX_NEW_ITEMS {
            bail!(
                "--items must be at most {MAX_NEW_ITEMS} (that is already about 33 MB of JSON, far more than a collector takes in one request); {n} would be built in memory first"
            );
        }
        let products = std::mem::take(&mut draft.items);
        if products.is_empty() {
            bail!("the built-in events template has no items");
        }
        draft.items = (0..n)
            .map(|i| {
                let mut item = products[i % products.len()].clone();
                let round = i / products.len();
                if round > 0 {
                    item.variant_id = format!("{}-{}", item.variant_id, round + 1);
                }
                item.clicked = i == 0;
                item
            })
            .collect();
    }
    if let Some(list) = &args.clicked {
        for item in &mut draft.items {
            item.clicked = false;
        }
        for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let pos: usize = part.parse().map_err(|_| {
                anyhow::anyhow!("--clicked takes 1-based item positions separated by commas; \"{part}\" is not a number")
            })?;
            let Some(item) = pos.checked_sub(1).and_then(|i| draft.items.get_mut(i)) else {
                bail!(
                    "--clicked {pos} is outside the list: positions run from 1 to {}",
                    draft.items.len()
                );
            };
            item.clicked = true;
        }
    }
    if let Some(k) = &args.api_key {
        draft.api_key = k.clone();
    }
    if let Some(id) = &args.list_id {
        if id.trim().is_empty() {
            bail!("--list-id must not be empty");
        }
        draft.list_id = id.clone();
    }
    Ok(draft)
}

fn run_new(args: NewArgs) -> anyhow::Result<u8> {
    let draft = new_draft(&args)?;
    let mut out = match args.kind {
        Kind::Recs => draft.to_batch().to_json_pretty_in(args.shape),
        Kind::OrderPurchase => serde_json::to_string_pretty(
            &draft.to_order_json(crate::core::events::compose::ORDER_ID_PLACEHOLDER),
        )
        .context("cannot write the order")?,
    };
    out.push('\n');
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .context("cannot write to standard output")?;
    Ok(0)
}

/// A problem with the file it came from, as printed by `--output json`.
#[derive(Serialize)]
struct FileProblem<'a> {
    file: String,
    #[serde(flatten)]
    problem: &'a Problem,
}

fn read_input(path: &PathBuf) -> anyhow::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut buf)
            .context("cannot read standard input")?;
        return Ok(buf);
    }
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

fn run_validate(args: ValidateArgs) -> anyhow::Result<u8> {
    let mut unreadable = false;
    let mut any_errors = false;
    let mut reports = Vec::new();
    for path in &args.files {
        let name = if path.as_os_str() == "-" {
            "<stdin>".to_owned()
        } else {
            path.display().to_string()
        };
        match read_input(path) {
            Ok(bytes) => {
                let report = validate_bytes(&bytes);
                any_errors |= !report.is_ok();
                reports.push((name, report));
            }
            Err(e) => {
                eprintln!("signscope: {}", super::one_sentence(&e));
                unreadable = true;
            }
        }
    }

    let out = match args.output {
        Output::Json => json_report(&reports)?,
        Output::Text => text_report(&reports),
    };
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .context("cannot write to standard output")?;
    Ok(if unreadable {
        super::EXIT_USAGE
    } else if any_errors {
        1
    } else {
        0
    })
}

/// The reports as one JSON document: every file's errors and warnings, and what each left
/// unlisted.
fn json_report(reports: &[(String, Report)]) -> anyhow::Result<String> {
    let with_file = |file: &String, problem| FileProblem {
        file: file.clone(),
        problem,
    };
    let (mut errors, mut warnings) = (Vec::new(), Vec::new());
    for (file, report) in reports {
        errors.extend(report.errors().map(|p| with_file(file, p)));
        warnings.extend(report.warnings().map(|p| with_file(file, p)));
    }
    let mut doc = serde_json::json!({ "errors": errors, "warnings": warnings });
    // Problems past the report's limit: counted per file, not listed.
    let omitted: Vec<serde_json::Value> = reports
        .iter()
        .filter(|(_, r)| !r.omitted.is_empty())
        .map(|(file, r)| {
            serde_json::json!({
                "file": file,
                "errors": r.omitted.errors,
                "warnings": r.omitted.warnings,
            })
        })
        .collect();
    if !omitted.is_empty() {
        doc["omitted"] = serde_json::Value::Array(omitted);
    }
    let mut out =
        json_visible(&serde_json::to_string_pretty(&doc).context("cannot format the report")?);
    out.push('\n');
    Ok(out)
}

/// The reports as text: each problem on its own line, then a summary line per file.
fn text_report(reports: &[(String, Report)]) -> String {
    let mut out = String::new();
    for (file, report) in reports {
        // The file's names and values are text from outside (`core::visible`).
        for p in &report.problems {
            out.push_str(&escape_visible(format!("{file}: {p}").as_bytes()));
            out.push('\n');
        }
        if !report.omitted.is_empty() {
            out.push_str(&format!(
                "{file}: ... and {} not listed (only the first {} problems are)\n",
                counted(report.omitted.total(), "more problem"),
                report.problems.len()
            ));
        }
        let e = report.errors().count() + report.omitted.errors;
        let w = report.warnings().count() + report.omitted.warnings;
        let events = counted(report.events, "event");
        if e == 0 && w == 0 {
            out.push_str(&format!("{file}: ok, {events}\n"));
        } else {
            out.push_str(&format!(
                "{file}: {}, {} ({events})\n",
                counted(e, "error"),
                counted(w, "warning")
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::events::validate;

    fn args(items: Option<usize>, clicked: Option<&str>) -> NewArgs {
        NewArgs {
            items,
            clicked: clicked.map(str::to_owned),
            api_key: None,
            list_id: None,
            shape: Shape::Flat,
            kind: Kind::Recs,
        }
    }

    #[test]
    fn template_defaults_give_a_clean_view_and_one_select() {
        let d = new_draft(&args(None, None)).unwrap();
        let b = d.to_batch();
        assert_eq!(b.events.len(), 2);
        assert!(validate(&serde_json::to_value(&b).unwrap())
            .problems
            .is_empty());
    }

    #[test]
    fn many_items_have_unique_ids_and_validate_clean() {
        let d = new_draft(&args(Some(25), Some("2, 25"))).unwrap();
        let b = d.to_batch();
        assert_eq!(b.events[0].items.len(), 25);
        let mut ids: Vec<_> = b.events[0]
            .items
            .iter()
            .map(|i| i.item_id.clone())
            .collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 25);
        assert_eq!(b.events.len(), 3);
        assert_eq!(b.events[2].items[0].index, 25);
        assert!(validate(&serde_json::to_value(&b).unwrap())
            .problems
            .is_empty());
    }

    #[test]
    fn bad_clicked_positions_are_clear_errors() {
        let e = new_draft(&args(Some(3), Some("4")))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "--clicked 4 is outside the list: positions run from 1 to 3"
        );
        let e = new_draft(&args(Some(3), Some("0")))
            .unwrap_err()
            .to_string();
        assert!(e.contains("outside the list"), "{e}");
        let e = new_draft(&args(None, Some("x"))).unwrap_err().to_string();
        assert!(e.contains("\"x\" is not a number"), "{e}");
        assert_eq!(
            new_draft(&args(None, Some(""))).unwrap().clicked().count(),
            0
        );
    }
}
