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
    signscope::cli::run(cli)
}
