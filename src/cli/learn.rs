//! `signscope learn`: the guided lesson and the exercises on a plain terminal, line by line
//! (the models are in `crate::learn`; progress is kept in the data directory).

use std::io::{BufRead, Write};

use anyhow::{bail, Context};
use chrono::Utc;

use crate::core::time::parse_timestamp;
use crate::learn::exercise::{self, Exercise};
use crate::learn::lesson::{changed_lines, Draft, Progress as Goal, COMMANDS, STEPS};
use crate::learn::progress::{self, Progress};
use crate::store::paths::Paths;

#[derive(Debug, clap::Args)]
pub struct LearnArgs {
    /// Start the lesson again from the first step.
    #[arg(long)]
    pub restart: bool,
    #[command(subcommand)]
    pub command: Option<LearnCommand>,
}

#[derive(Debug, clap::Subcommand)]
pub enum LearnCommand {
    /// A request signed with a known mistake (two at level 2): name the mistake.
    Exercise(ExerciseArgs),
    /// The scores per level.
    Score,
}

#[derive(Debug, clap::Args)]
pub struct ExerciseArgs {
    /// 1: one mistake; 2: two mistakes at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub level: u8,
    /// The exercise's seed (default: the next one; the same seed gives the same exercise).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The time the request is signed at (default: now), as 2026-11-22T10:00:00.000Z.
    #[arg(long, value_name = "TS")]
    pub timestamp: Option<String>,
    /// Fix the client's settings until the server accepts the request, instead of naming the
    /// mistake from a list.
    #[arg(long)]
    pub fix: bool,
}

pub fn run(args: LearnArgs) -> anyhow::Result<u8> {
    let paths = Paths::discover()?;
    let data_dir = paths.data_dir;
    let mut progress = progress::load(&data_dir)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    match args.command {
        None => {
            if args.restart {
                progress.lesson_step = 0;
            }
            lesson(&mut input, &mut out, &mut progress, &data_dir)
        }
        Some(LearnCommand::Exercise(a)) => {
            let now = match &a.timestamp {
                None => Utc::now(),
                Some(ts) => parse_timestamp(ts)
                    .with_context(|| {
                        format!("the --timestamp value \"{ts}\" is not an RFC 3339 time such as 2026-11-22T10:00:00.000Z")
                    })?
                    .time,
            };
            let seed = a.seed.unwrap_or(progress.next_seed);
            let ex = exercise::generate(a.level, seed, now);
            let solved = if a.fix {
                run_fix(&mut input, &mut out, &ex)?
            } else {
                run_exercise(&mut input, &mut out, &ex)?
            };
            progress.record(a.level, solved);
            if a.seed.is_none() {
                progress.next_seed += 1;
            }
            progress::save(&data_dir, &progress)?;
            for l in progress.score_lines() {
                writeln!(out, "{l}")?;
            }
            Ok(if solved { 0 } else { 1 })
        }
        Some(LearnCommand::Score) => {
            writeln!(
                out,
                "lesson: {} of {} steps done",
                progress.lesson_step.min(STEPS.len()),
                STEPS.len()
            )?;
            for l in progress.score_lines() {
                writeln!(out, "{l}")?;
            }
            Ok(0)
        }
    }
}

fn show_text(out: &mut impl Write, draft: &Draft) -> anyhow::Result<()> {
    let (lines, signature) = draft.lines_and_signature();
    writeln!(out, "  signing text:")?;
    for (label, text) in lines {
        let end = if label == crate::core::LineLabel::Body {
            ""
        } else {
            "\\n"
        };
        writeln!(out, "    {:<13}{text}{end}", label.as_str())?;
    }
    writeln!(
        out,
        "  signature: {}",
        signature
            .as_deref()
            .unwrap_or("(none: the REST key is empty)")
    )?;
    Ok(())
}

fn show_step(out: &mut impl Write, i: usize, draft: &Draft) -> anyhow::Result<()> {
    let step = &STEPS[i];
    writeln!(out, "\nStep {} of {}: {}", i + 1, STEPS.len(), step.title)?;
    for l in wrap(step.explanation, 76) {
        writeln!(out, "  {l}")?;
    }
    show_text(out, draft)?;
    for (i, l) in wrap(step.task, 72).iter().enumerate() {
        writeln!(out, "  {}{l}", if i == 0 { "Do: " } else { "    " })?;
    }
    writeln!(out, "  (type a command; 'hint', 'show', 'help' or 'quit')")?;
    Ok(())
}

/// Words joined into lines of at most `width` characters (a longer word gets a line of its
/// own), so a step reads on an 80-column terminal.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let line = lines.last_mut().expect("starts with one line");
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

/// The lesson from the saved step on. The request is rebuilt by replaying the earlier steps'
/// hints, so each step starts from the request its goal expects.
fn lesson(
    input: &mut impl BufRead,
    out: &mut impl Write,
    progress: &mut Progress,
    data_dir: &std::path::Path,
) -> anyhow::Result<u8> {
    let mut draft = Draft::start(Utc::now());
    let first = progress.lesson_step.min(STEPS.len());
    for s in &STEPS[..first] {
        draft.apply(s.hint)?;
    }
    if first == STEPS.len() {
        writeln!(out, "The lesson is done; `signscope learn --restart` starts it again, `signscope learn exercise` tests it.")?;
        return Ok(0);
    }
    writeln!(
        out,
        "The signing scheme in {} steps (docs/signing.md).\nEach step asks you to change the request.",
        STEPS.len()
    )?;
    let mut i = first;
    show_step(out, i, &draft)?;
    let mut start = draft.clone();
    let mut line = String::new();
    loop {
        write!(out, "> ")?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            break;
        }
        let command = line.trim_end_matches(['\n', '\r']);
        let before = draft.clone();
        match command.trim() {
            "" => continue,
            "quit" | "q" => break,
            "hint" => {
                writeln!(out, "  try: {}", STEPS[i].hint)?;
                continue;
            }
            "show" => {
                show_text(out, &draft)?;
                continue;
            }
            "help" => {
                writeln!(out, "  commands: {}", COMMANDS.join(", "))?;
                writeln!(out, "  in a body, \\n is a LF and \\s a space")?;
                continue;
            }
            _ => {}
        }
        if let Err(e) = draft.apply(command) {
            writeln!(out, "  {e}")?;
            continue;
        }
        if command.starts_with("query ") && draft.query_as_sent() != draft.query {
            writeln!(
                out,
                "  {}",
                crate::core::spec::query_mark_note(draft.query_as_sent())
            )?;
        }
        let clock = Utc::now();
        draft.tick(clock);
        report_change(out, &before, &draft)?;
        let goal = Goal {
            start: &start,
            now: &draft,
            clock,
        };
        if (STEPS[i].goal)(&goal) {
            i += 1;
            progress.lesson_step = i;
            progress::save(data_dir, progress)?;
            if i == STEPS.len() {
                writeln!(
                    out,
                    "\nDone. The lesson is complete: try `signscope learn exercise`."
                )?;
                break;
            }
            writeln!(out, "  Done.")?;
            show_step(out, i, &draft)?;
            start = draft.clone();
        }
    }
    progress::save(data_dir, progress)?;
    Ok(0)
}

fn report_change(out: &mut impl Write, before: &Draft, after: &Draft) -> anyhow::Result<()> {
    let changed = changed_lines(before, after);
    if changed.is_empty() {
        writeln!(out, "  the signing text is unchanged")?;
    }
    for (label, was, now) in changed {
        writeln!(out, "  {:<13}was {was}", label.as_str())?;
        writeln!(out, "  {:<13}now {now}", "")?;
    }
    let (_, a) = before.lines_and_signature();
    let (_, b) = after.lines_and_signature();
    if a != b {
        let shown = |s: &Option<String>| s.clone().unwrap_or_else(|| "(none)".into());
        writeln!(out, "  signature was {}", shown(&a))?;
        writeln!(out, "            now {}", shown(&b))?;
    }
    Ok(())
}

fn run_exercise(
    input: &mut impl BufRead,
    out: &mut impl Write,
    ex: &Exercise,
) -> anyhow::Result<bool> {
    let want = ex.level as usize;
    writeln!(
        out,
        "Exercise (level {}, seed {}): the server answers SIGNATURE_MISMATCH to this request.",
        ex.level, ex.seed
    )?;
    writeln!(
        out,
        "The client's REST key is {}. What did the client get wrong?\n",
        exercise::REST_KEY
    )?;
    for l in ex.server_view().lines() {
        writeln!(out, "  | {l}")?;
    }
    writeln!(out)?;
    for (i, m) in ex.choices.iter().enumerate() {
        writeln!(out, "  {}. the client {}", i + 1, m.explanation())?;
    }
    let ask = if want == 1 {
        "Your answer (one number): ".to_string()
    } else {
        format!("Your answer ({want} numbers, e.g. 1 3): ")
    };
    let picked = loop {
        write!(out, "\n{ask}")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            bail!("no answer was given (stdin closed)");
        }
        let numbers: Result<Vec<usize>, _> = line
            .split([' ', ','])
            .filter(|s| !s.trim().is_empty())
            .map(|s| s.trim().parse::<usize>())
            .collect();
        match numbers {
            Ok(n) if n.len() == want && n.iter().all(|&k| (1..=ex.choices.len()).contains(&k)) => {
                break n.into_iter().map(|k| k - 1).collect::<Vec<_>>()
            }
            _ => writeln!(
                out,
                "  give {want} number(s) between 1 and {}",
                ex.choices.len()
            )?,
        }
    };
    let solved = ex.is_answer(&picked);
    writeln!(out, "{}", if solved { "Right." } else { "Not quite." })?;
    writeln!(out, "\nThe diagnosis:")?;
    for l in ex.diagnosis().report().lines() {
        writeln!(out, "  {l}")?;
    }
    Ok(solved)
}

/// The fix form: the client's settings, changed one by one until the server accepts.
fn run_fix(input: &mut impl BufRead, out: &mut impl Write, ex: &Exercise) -> anyhow::Result<bool> {
    writeln!(
        out,
        "Exercise (level {}, seed {}): the server answers SIGNATURE_MISMATCH to this request.\n",
        ex.level, ex.seed
    )?;
    for l in ex.server_view().lines() {
        writeln!(out, "  | {l}")?;
    }
    writeln!(
        out,
        "\nThe client's settings, each shown as what it signs or sends (its REST key is {}):",
        exercise::REST_KEY
    )?;
    let mut knobs = ex.knobs();
    let show = |out: &mut dyn Write, i: usize, k: &exercise::Knob| {
        writeln!(out, "  {}. {:<13}{}", i + 1, k.name, k.value())
    };
    for (i, k) in knobs.iter().enumerate() {
        show(out, i, k)?;
    }
    writeln!(
        out,
        "\nType a setting's number to change it, 'send' to send the request to the server, 'quit' to give up."
    )?;
    let solved = loop {
        write!(out, "> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            break false;
        }
        match line.trim() {
            "" => {}
            "quit" | "q" => break false,
            "send" => match ex.send_with(&knobs, ex.time) {
                Ok(()) => {
                    writeln!(out, "Accepted: the server verified the signature.")?;
                    break true;
                }
                Err(e) => writeln!(out, "  refused: {e}")?,
            },
            other => match other.parse::<usize>() {
                Ok(n) if (1..=knobs.len()).contains(&n) => {
                    knobs[n - 1].cycle();
                    show(out, n - 1, &knobs[n - 1])?;
                }
                _ => writeln!(
                    out,
                    "  type a number between 1 and {}, 'send' or 'quit'",
                    knobs.len()
                )?,
            },
        }
    };
    writeln!(out, "{}", if solved { "Right." } else { "Not solved." })?;
    writeln!(out, "\nThe diagnosis of the request as it was:")?;
    for l in ex.diagnosis().report().lines() {
        writeln!(out, "  {l}")?;
    }
    Ok(solved)
}

#[cfg(test)]
mod tests {
    use super::{wrap, STEPS};

    #[test]
    fn steps_wrap_at_the_width_without_losing_words() {
        for step in &STEPS {
            let lines = wrap(step.explanation, 76);
            assert!(lines.iter().all(|l| l.chars().count() <= 76), "{lines:?}");
            assert_eq!(
                lines.join(" "),
                step.explanation
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        assert_eq!(wrap("a bb ccc", 4), ["a bb", "ccc"]);
    }
}
