//! `shears spsa`: the search tunables as the input of OpenBench's SPSA
//! tuner.

use std::process::ExitCode;

use shears::search::{TUNABLE_AT_RUN_TIME, tunable_specs};

/// `shears spsa`: one OpenBench SPSA line per search tunable, and a warning
/// when this build cannot take them as options.
pub(super) fn run() -> ExitCode {
    for spec in tunable_specs() {
        println!("{}", spec.openbench_line());
    }
    if !TUNABLE_AT_RUN_TIME {
        eprintln!(
            "shears: this build has the tunables as constants, not as UCI options; \
             tune a build made with `cargo build --release --features spsa` \
             (or `make FEATURES=spsa`)"
        );
    }
    ExitCode::SUCCESS
}
