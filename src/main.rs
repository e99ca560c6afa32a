use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = signscope::cli::Cli::parse();
    // Subcommands log to stderr. The workbench logs to a file in the data dir instead (set up
    // in `tui::run`), never to the terminal it draws on.
    if cli.command.is_some() {
        if let Err(warning) = signscope::logging::init_stderr() {
            eprintln!("signscope: {warning}");
        }
    }
    // Files other users could read (older versions wrote 0644) are made private, once.
    if let Ok(paths) = signscope::store::Paths::discover() {
        if let Some(notice) = signscope::store::private::tighten(&paths) {
            eprintln!("signscope: {notice}");
        }
    }
    signscope::cli::run(cli)
}
