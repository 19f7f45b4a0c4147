//! The tablebase commands: `tb` (what the tables say about a position),
//! `tb-play` (endgames played out by Shears, judged by the tables) and
//! `tb-gen` (an EPD of endgames labelled by the tables).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use shakmaty::Position as _;

use super::eval_args::EvalArgs;
use crate::tablebase::{generate, play};
use shears::chess::{Position, fen_needs_chess960, move_to_uci};
use shears::engine::config::Config;
use shears::search::{MAX_DEPTH, SearchLimits};
use shears::tb::{self, Tablebases, rank_root_moves};

/// `shears tb`.
#[derive(Debug, clap::Args)]
pub struct TbArgs {
    /// The position: a FEN (its fields as separate words or quoted as one).
    #[arg(required = true, num_args = 1..)]
    pub fen: Vec<String>,
    /// Folders of Syzygy tables, joined by ':' (default: engine.toml's
    /// SyzygyPath).
    #[arg(long, value_name = "PATH")]
    pub syzygy: Option<String>,
}

/// `shears tb-play`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("per_move").args(["movetime", "nodes", "depth"])))]
pub struct TbPlayArgs {
    /// The positions: an EPD file (or one FEN a line).
    #[arg(long, value_name = "FILE")]
    pub epd: PathBuf,
    /// Time of every move's search in ms (the default, 100, when no limit
    /// is given).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Nodes of every move's search (instead of time: reproducible).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Depth of every move's search.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
    pub depth: Option<u32>,
    /// The engine plays without the tables (they still judge).
    #[arg(long)]
    pub no_tb: bool,
    /// Only the first N positions.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Folders of Syzygy tables, joined by ':' (default: engine.toml's
    /// SyzygyPath).
    #[arg(long, value_name = "PATH")]
    pub syzygy: Option<String>,
    /// Games played at once, each on one search thread.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Hash table size in MB of each game.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// Also print each game's moves.
    #[arg(long)]
    pub moves: bool,
    /// The evaluation Shears plays with.
    #[command(flatten)]
    pub eval: EvalArgs,
}

/// `shears tb-gen`.
#[derive(Debug, clap::Args)]
pub struct TbGenArgs {
    /// The EPD file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// How many positions (alternately wins and draws for the side to
    /// move).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub count: u64,
    /// Seed of the generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Piece counts to draw from, each equally likely.
    #[arg(long, value_delimiter = ',', default_values_t = [4usize, 5], conflicts_with = "material")]
    pub pieces: Vec<usize>,
    /// Materials to draw from instead of piece counts, as the tables name
    /// them (`KBNvK`), each equally likely; may be repeated or joined by ','.
    #[arg(long, value_delimiter = ',', value_name = "MATERIAL")]
    pub material: Vec<String>,
    /// Which values for the side to move: alternately a win and a draw,
    /// or only wins, or only draws.
    #[arg(long, value_enum, default_value_t = OutcomesArg::Alternate)]
    pub outcomes: OutcomesArg,
    /// Folders of Syzygy tables, joined by ':' (default: engine.toml's
    /// SyzygyPath).
    #[arg(long, value_name = "PATH")]
    pub syzygy: Option<String>,
}

/// `tb-gen --outcomes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutcomesArg {
    /// A win, a draw, a win, …
    Alternate,
    /// Wins only.
    Wins,
    /// Draws only.
    Draws,
}

/// The tables of `--syzygy`, else of engine.toml's `SyzygyPath`; `None`
/// after saying why there are none. Tables skipped as broken are listed.
fn open_tables(command: &str, syzygy: Option<&str>, config: &Config) -> Option<Arc<Tablebases>> {
    let path = match syzygy {
        Some(p) => p.to_owned(),
        None => config.options.syzygy_path().to_owned(),
    };
    if tb::is_off(&path) {
        eprintln!(
            "shears {command}: no tables: give --syzygy PATH or set SyzygyPath in engine.toml"
        );
        return None;
    }
    match Tablebases::open(&path) {
        Ok(tables) => {
            for problem in tables.take_problems() {
                eprintln!("shears {command}: {problem}");
            }
            Some(Arc::new(tables))
        }
        Err(e) => {
            eprintln!("shears {command}: {e}");
            None
        }
    }
}

/// `shears tb FEN`: the position's WDL and DTZ, then every legal move with
/// what it leads to, best first.
pub(super) fn run_tb(args: &TbArgs, config: &Config) -> ExitCode {
    let fen = args.fen.join(" ");
    let pos = match Position::from_fen(&fen, fen_needs_chess960(&fen)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("shears tb: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(tables) = open_tables("tb", args.syzygy.as_deref(), config) else {
        return ExitCode::from(2);
    };
    println!("Fen: {}", pos.fen());
    for line in tb::describe(&tables, &pos) {
        println!("{line}");
    }
    let moves: Vec<_> = pos.board().legal_moves().into_iter().collect();
    if let Some(mut ranking) = rank_root_moves(&tables, &pos, &moves) {
        best_first(&mut ranking.moves);
        println!();
        println!("move    result        dtz");
        for m in &ranking.moves {
            let dtz = m.dtz.map_or_else(|| "-".to_owned(), |d| d.to_string());
            println!("{:7} {:13} {dtz}", move_to_uci(m.mv, false), m.wdl.name());
        }
    }
    for problem in tables.take_problems() {
        eprintln!("shears tb: {problem}");
    }
    ExitCode::SUCCESS
}

/// Sorts ranked moves as `shears tb` lists them, best first: by result
/// (win, cursed win, draw, blessed loss, loss), then by the distance to
/// zeroing from the position: a win (cursed or not) the quickest first, a
/// loss the longest resistance first (its DTZ is negative: the lowest
/// first); equal moves keep their order (generation order). The search's
/// ranking is coarser on purpose (all safe wins are equal to it), so this
/// order is for the reader only.
fn best_first(moves: &mut [tb::RankedMove]) {
    moves.sort_by_key(|m| (std::cmp::Reverse(m.wdl), m.dtz.unwrap_or(0)));
}

/// `shears tb-play`: see `crate::tablebase::play`. Exit 0 when every game ran
/// (failures included), 2 on bad input.
pub(super) fn run_tb_play(args: &TbPlayArgs, config: &Config) -> ExitCode {
    let text = match std::fs::read(&args.epd) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("shears tb-play: {}: cannot read: {e}", args.epd.display());
            return ExitCode::from(2);
        }
    };
    let (mut entries, errors) = play::parse_positions(&text);
    for e in &errors {
        eprintln!("shears tb-play: {}: {e}", args.epd.display());
    }
    if let Some(limit) = args.limit {
        entries.truncate(limit as usize);
    }
    let Some(tables) = open_tables("tb-play", args.syzygy.as_deref(), config) else {
        return ExitCode::from(2);
    };
    let mut limits = SearchLimits {
        depth: args.depth,
        nodes: args.nodes,
        ..SearchLimits::default()
    };
    if args.depth.is_none() && args.nodes.is_none() {
        limits.clock.movetime = Some(args.movetime.unwrap_or(100));
    }
    let evaluation = match args.eval.evaluation(&config.options) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("shears tb-play: {e}");
            return ExitCode::from(2);
        }
    };
    let per_game = play::PlayConfig {
        limits,
        evaluation,
        hash_mb: args.hash as usize,
        engine_tables: !args.no_tb,
    };
    println!(
        "tb-play: {} positions, engine {} tables ({}), one search thread per game",
        entries.len(),
        if args.no_tb { "without" } else { "with" },
        tables.summary()
    );
    let start = Instant::now();
    let stdout = Mutex::new(std::io::stdout());
    let show_moves = args.moves;
    let print = |r: &play::PlayResult| {
        let mut out = stdout.lock().unwrap_or_else(|p| p.into_inner());
        let _ = writeln!(out, "{r}");
        if show_moves && r.finish.is_some() {
            let _ = writeln!(out, "     moves: {}", r.moves.join(" "));
        }
        let _ = out.flush();
    };
    let results = match play::play_all(&entries, &tables, &per_game, args.threads as usize, &print)
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("shears tb-play: {e}");
            return ExitCode::from(2);
        }
    };
    let summary = play::Summary::of(&results);
    let failed: Vec<&str> = results
        .iter()
        .filter(|r| r.ok() == Some(false))
        .map(|r| r.id.as_str())
        .collect();
    if !failed.is_empty() {
        println!("failed: {}", failed.join(", "));
    }
    println!("{summary} ({:.1} s)", start.elapsed().as_secs_f64());
    for problem in tables.take_problems() {
        eprintln!("shears tb-play: {problem}");
    }
    if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}

/// How the EPD's first line describes `outcomes`.
fn outcome_words(outcomes: generate::Outcomes) -> &'static str {
    match outcomes {
        generate::Outcomes::Alternate => "alternately won and drawn",
        generate::Outcomes::Wins => "won",
        generate::Outcomes::Draws => "drawn",
    }
}

/// The `--outcomes` value of `outcomes`.
fn outcome_flag(outcomes: generate::Outcomes) -> &'static str {
    match outcomes {
        generate::Outcomes::Alternate => "alternate",
        generate::Outcomes::Wins => "wins",
        generate::Outcomes::Draws => "draws",
    }
}

/// `shears tb-gen`: see `crate::tablebase::generate`.
pub(super) fn run_tb_gen(args: &TbGenArgs, config: &Config) -> ExitCode {
    let Some(tables) = open_tables("tb-gen", args.syzygy.as_deref(), config) else {
        return ExitCode::from(2);
    };
    let materials = if args.material.is_empty() {
        generate::Materials::Pieces(args.pieces.clone())
    } else {
        generate::Materials::Named(args.material.clone())
    };
    let outcomes = match args.outcomes {
        OutcomesArg::Alternate => generate::Outcomes::Alternate,
        OutcomesArg::Wins => generate::Outcomes::Wins,
        OutcomesArg::Draws => generate::Outcomes::Draws,
    };
    let generated = match generate::generate(
        &tables,
        &materials,
        outcomes,
        args.count as usize,
        args.seed,
    ) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("shears tb-gen: {e}");
            return ExitCode::from(2);
        }
    };
    let pieces: Vec<String> = args.pieces.iter().map(ToString::to_string).collect();
    let (which, from) = match (&materials, outcomes) {
        (generate::Materials::Pieces(_), generate::Outcomes::Alternate) => (
            "alternately won and drawn",
            format!("--pieces {}", pieces.join(",")),
        ),
        (generate::Materials::Pieces(_), o) => (
            outcome_words(o),
            format!(
                "--pieces {} --outcomes {}",
                pieces.join(","),
                outcome_flag(o)
            ),
        ),
        (generate::Materials::Named(m), o) => (
            outcome_words(o),
            format!("--material {} --outcomes {}", m.join(","), outcome_flag(o)),
        ),
    };
    let mut text = format!(
        "# {} endgames, {which} for the side to move, labelled by the Syzygy tables.\n\
         # Generated by: shears tb-gen --count {} --seed {} {from} -o FILE\n",
        generated.len(),
        args.count,
        args.seed,
    );
    for (i, g) in generated.iter().enumerate() {
        text.push_str(&g.epd_line(i + 1));
        text.push('\n');
    }
    if let Err(e) = std::fs::write(&args.output, text) {
        eprintln!(
            "shears tb-gen: {}: cannot write: {e}",
            args.output.display()
        );
        return ExitCode::from(2);
    }
    println!(
        "wrote {} positions to {}",
        generated.len(),
        args.output.display()
    );
    ExitCode::SUCCESS
}
