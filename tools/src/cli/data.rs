//! `shears data`: what a data file holds, a file checked against the
//! manifest, a game file converted to the packed or text format, and match
//! PGNs converted into a game file (`crate::data`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::adjudication_args::AdjudicationArgs;
use crate::data::Filter;
use crate::data::convert::convert;
use crate::data::from_pgn::{DEFAULT_MIN_PLY, from_pgn};
use crate::data::stats::stats;
use crate::data::verify::{Verdict, find_manifest, verify};

/// `shears data`.
#[derive(Debug, clap::Args)]
pub struct DataArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: DataCommand,
}

/// The `data` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum DataCommand {
    /// Print what a data file (text, packed .bin or .games) holds: its
    /// format, size, sha256, a game file's settings, its games, positions
    /// and kept (training) positions. Reads the whole file: exit 2 when it
    /// is damaged (the game named).
    Stats {
        /// The data file.
        file: PathBuf,
    },
    /// Check a data file against its set in the manifest (the set whose
    /// `file` has this file's name, or --set): size, sha256, games,
    /// positions; says so when only the header's build string differs
    /// (every game the same). Exit 0 when it is the set, 1 when a fact
    /// differs, 2 on an unreadable file or manifest.
    Verify {
        /// The data file.
        file: PathBuf,
        /// The set's name (default: found by the file's name).
        #[arg(long)]
        set: Option<String>,
        /// The manifest [default: docs/data/manifest.toml in the working
        /// directory or a parent of it, else beside the binary's sources].
        #[arg(long, value_name = "PATH")]
        manifest: Option<PathBuf>,
    },
    /// Write the training positions of a game file as a packed (OUTPUT
    /// ending in .bin) or text file, each game closed by its end-of-game
    /// record. A packed or text file cannot become a game file (it lacks
    /// the moves). With any of the adjudication options (each one not
    /// given is datagen's), every game ends where that rule, at least as
    /// strict as datagen's, would have ended it, with its result: the
    /// positions datagen would have written with that rule, and how many
    /// searches it saves.
    Convert {
        /// The game file.
        input: PathBuf,
        /// The new file (it must not exist).
        output: PathBuf,
        /// Every position of every game, not only the quiet filter's.
        #[arg(long)]
        all: bool,
        /// With any of the adjudication options: each game cut where that
        /// rule (stricter than datagen's) would have ended it.
        #[command(flatten)]
        cut: AdjudicationArgs,
    },
    /// Convert a match runner's PGN games (fastchess, cutechess, OpenBench),
    /// with the engines' scores from the move comments, into a new game
    /// file; only games that ended normally.
    FromPgn {
        /// The new game file (a name ending in .games; it must not exist).
        output: PathBuf,
        /// The PGN files.
        #[arg(required = true)]
        pgn: Vec<PathBuf>,
        /// The quiet filter's first game ply, written into the header.
        #[arg(long, default_value_t = DEFAULT_MIN_PLY, value_parser = clap::value_parser!(u32).range(0..=400))]
        min_ply: u32,
    },
}

pub(super) fn run(args: &DataArgs) -> ExitCode {
    match &args.command {
        DataCommand::Stats { file } => match stats(file) {
            Ok(s) => {
                for line in s.report(file) {
                    println!("{line}");
                }
                ExitCode::SUCCESS
            }
            Err(e) => fail(&e.to_string()),
        },
        DataCommand::Verify {
            file,
            set,
            manifest,
        } => run_verify(file, set.as_deref(), manifest.as_deref()),
        DataCommand::Convert {
            input,
            output,
            all,
            cut,
        } => {
            let filter = all.then_some(Filter::All);
            let rule = cut.given();
            match convert(input, output, filter, rule) {
                Ok(done) => {
                    println!(
                        "wrote {} games, {} positions to {}",
                        done.games,
                        done.positions,
                        output.display()
                    );
                    if let Some(rule) = rule {
                        println!(
                            "adjudication: {rule}: {} games cut ({} with another result); {} of \
                             {} moves kept ({:.1}% fewer searches)",
                            done.cut,
                            done.changed,
                            done.moves,
                            done.moves_in,
                            100.0 * (done.moves_in - done.moves) as f64
                                / done.moves_in.max(1) as f64
                        );
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => fail(&e.to_string()),
            }
        }
        DataCommand::FromPgn {
            output,
            pgn,
            min_ply,
        } => match from_pgn(pgn, output, *min_ply) {
            Ok(r) => {
                let [unfinished, forfeits, variants, bad] = r.skipped;
                println!(
                    "wrote {} games to {}: {} positions, {} with a score, {} kept",
                    r.games,
                    output.display(),
                    r.positions,
                    r.scored,
                    r.kept
                );
                println!(
                    "skipped: {unfinished} unfinished, {forfeits} forfeits, {variants} other \
                     variants, {bad} unreadable"
                );
                for named in &r.named {
                    eprintln!("shears data from-pgn: skipped {named}");
                }
                ExitCode::SUCCESS
            }
            Err(e) => fail(&e.to_string()),
        },
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("shears data: {message}");
    ExitCode::from(2)
}

fn run_verify(file: &Path, set: Option<&str>, manifest: Option<&Path>) -> ExitCode {
    let checked = find_manifest(manifest).and_then(|path| verify(file, set, &path));
    let (entry, stats, verdict) = match checked {
        Ok(c) => c,
        Err(e) => return fail(&e.to_string()),
    };
    match verdict {
        Verdict::Same => {
            println!(
                "{}: the set {} (commit {}): {} bytes, {} games, {} positions, {} kept, sha256 {}",
                file.display(),
                entry.name,
                entry.commit,
                stats.bytes,
                stats.games,
                stats.positions,
                stats.kept,
                stats.sha256
            );
            ExitCode::SUCCESS
        }
        Verdict::OnlyBuild { file: ours, set } => {
            println!(
                "{}: not the set {} byte for byte, but only the header's build string differs: \
                 \"{ours}\" in the file, \"{set}\" in the set; every game is the same ({} games, \
                 {} positions, {} kept; with the set's build string the file is the set's {} \
                 bytes, sha256 {})",
                file.display(),
                entry.name,
                stats.games,
                stats.positions,
                stats.kept,
                entry.bytes,
                entry.sha256
            );
            ExitCode::from(1)
        }
        Verdict::Differs(mismatches) => {
            println!("{}: not the set {}:", file.display(), entry.name);
            for (what, theirs, ours) in mismatches {
                println!("  {what}: {theirs} in the manifest, {ours} in the file");
            }
            ExitCode::from(1)
        }
    }
}
