use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = signscope::cli::Cli::parse();
    signscope::cli::run(cli)
}
