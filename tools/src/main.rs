//! The `shears` binary: parse the command line, run, map to an exit code.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(lines) = shears_tools::cli::uci_lines(&args) {
        return shears_tools::cli::run_uci_lines(lines);
    }
    shears_tools::cli::run(shears_tools::cli::Cli::parse_from(args))
}

/// Exit status of a process that wrote to a closed pipe (128 + SIGPIPE),
/// what a shell shows for Unix tools in the same case.
const CLOSED_PIPE_EXIT: i32 = 141;

/// When the reader of stdout goes away (`shears perft 6 --divide | head`, or
/// a GUI that closed the pipe), the standard library's `println!` panics
/// with "failed printing to stdout: Broken pipe". There is nobody left to
/// read anything: end quietly, as Unix tools do, instead of a panic report.
/// Every other panic keeps the default report.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info.payload_as_str().unwrap_or_default();
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(CLOSED_PIPE_EXIT);
        }
        default(info);
    }));
}
