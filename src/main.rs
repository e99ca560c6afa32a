use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // No argument opens the workbench: the parser of every subcommand's flags is not built for
    // it (a tenth of the first frame's time; `benches/README.md`, "Start-up and idle memory").
    let args = match std::env::args_os().len() {
        1 => signscope::cli::Cli::default(),
        _ => signscope::cli::Cli::parse(),
    };
    // Files other users could read (older versions wrote 0644) are made private, once.
    if let Ok(paths) = signscope::store::Paths::discover() {
        if let Some(notice) = signscope::store::private::tighten(&paths) {
            eprintln!("signscope: {notice}");
        }
    }
    let result = match args.command {
        // No subcommand: the workbench. It logs to a file in the data dir (set up in
        // `tui::run`), never to the terminal it draws on.
        None => signscope::tui::run(signscope::tui::Options {
            profile: args.profile,
            listen: args.listen,
            watch: args.watch,
            har: args.har,
        }),
        // Subcommands log to stderr.
        Some(command) => {
            if let Err(warning) = signscope::logging::init_stderr() {
                eprintln!("signscope: {warning}");
            }
            signscope::cli::run(command)
        }
    };
    signscope::cli::exit_code(result)
}
