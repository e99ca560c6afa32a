//! `signscope man` and `signscope completions SHELL`: the manual pages and the shell
//! completions, generated from the same clap definitions that parse the command line, so they
//! cannot fall behind it. README.md ("Install") says where they go.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, CommandFactory};

use super::Cli;

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write one page per command (signscope.1, signscope-send.1, ...) into this folder, e.g.
    /// ~/.cargo/share/man/man1, instead of printing signscope.1 to stdout.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The command tree as the pages and completions describe it. clap's `help` subcommand is
/// left out, as `clap_mangen::generate_to` does: it has no page of its own to point to.
fn command() -> clap::Command {
    Cli::command().disable_help_subcommand(true)
}

pub fn man(args: ManArgs) -> anyhow::Result<u8> {
    let cmd = command();
    match args.dir {
        None => {
            let mut out = std::io::stdout().lock();
            clap_mangen::Man::new(cmd).render(&mut out)?;
            out.flush()?;
        }
        Some(dir) => {
            std::fs::create_dir_all(&dir).with_context(|| {
                format!(
                    "cannot create {} for the manual pages; give --dir a folder you can write",
                    dir.display()
                )
            })?;
            clap_mangen::generate_to(cmd, &dir).with_context(|| {
                format!(
                    "cannot write the manual pages into {}; give --dir a folder you can write",
                    dir.display()
                )
            })?;
            eprintln!(
                "wrote the manual pages (signscope.1 and one per subcommand) into {}",
                dir.display()
            );
        }
    }
    Ok(0)
}

pub fn completions(args: CompletionsArgs) -> anyhow::Result<u8> {
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut command(), "signscope", &mut out);
    out.flush()?;
    Ok(0)
}
