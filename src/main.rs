//! The `shears` binary: parse the command line, run, map to an exit code.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    shears::tools::cli::run(shears::tools::cli::Cli::parse())
}
