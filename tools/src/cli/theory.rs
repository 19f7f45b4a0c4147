//! The theory commands: `tree` (a picture of the tree a textbook search
//! visits) and `compare` (the algorithms measured side by side). Bad input
//! (an illegal FEN, an unreadable suite, an unwritable output) is an error
//! naming it, exit code 2; clap refuses bad depths and names the same way.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use thiserror::Error;

use crate::theory::compare::{CompareConfig, compare};
use crate::theory::picture::Picture;
use crate::theory::text::{count, value};
use crate::theory::{dot, plot, report, svg};
use shears::chess::{Position, START_FEN, fen_needs_chess960};
use shears::engine::bench::BENCH_FENS;
use shears::error::{FenError, parse_numbered_lines};
use shears::search::theory::{
    Algorithm, Leaf, MoveOrdering, SearchTree, TheoryConfig, TheoryLimits, search,
};

/// Deepest `tree`.
pub const MAX_TREE_DEPTH: i64 = 6;
/// `tree --depth` by default: with [`DEFAULT_TREE_WIDTH`] the picture of
/// the start position is about one screen (depth 3 with width 5 is many).
pub const DEFAULT_TREE_DEPTH: u32 = 2;
/// `tree --max-width` by default.
pub const DEFAULT_TREE_WIDTH: usize = 2;
/// Deepest `compare`.
pub const MAX_COMPARE_DEPTH: i64 = 8;

/// `--algorithm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CliAlgorithm {
    /// Every node, no window.
    Minimax,
    /// Fail-soft alpha-beta.
    Alphabeta,
    /// NegaScout / principal variation search.
    Negascout,
    /// SSS* as MT-SSS* (MTD(+∞)).
    Sss,
    /// MTD(f) from the static evaluation.
    Mtdf,
}

impl From<CliAlgorithm> for Algorithm {
    fn from(a: CliAlgorithm) -> Algorithm {
        match a {
            CliAlgorithm::Minimax => Algorithm::Minimax,
            CliAlgorithm::Alphabeta => Algorithm::AlphaBeta,
            CliAlgorithm::Negascout => Algorithm::NegaScout,
            CliAlgorithm::Sss => Algorithm::Sss,
            CliAlgorithm::Mtdf => Algorithm::Mtdf,
        }
    }
}

/// `--ordering`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CliOrdering {
    /// Generation order.
    None,
    /// Captures by MVV-LVA first.
    MvvLva,
    /// The engine's move picker (SEE, killers, checks, history).
    Full,
}

impl From<CliOrdering> for MoveOrdering {
    fn from(o: CliOrdering) -> MoveOrdering {
        match o {
            CliOrdering::None => MoveOrdering::None,
            CliOrdering::MvvLva => MoveOrdering::MvvLva,
            CliOrdering::Full => MoveOrdering::Full,
        }
    }
}

/// `--leaf`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CliLeaf {
    /// The static evaluation.
    Eval,
    /// Quiescence search.
    Qsearch,
}

impl From<CliLeaf> for Leaf {
    fn from(l: CliLeaf) -> Leaf {
        match l {
            CliLeaf::Eval => Leaf::Eval,
            CliLeaf::Qsearch => Leaf::Qsearch,
        }
    }
}

/// `tree --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TreeFormat {
    /// An SVG picture.
    Svg,
    /// A Graphviz graph (`dot -Tsvg`).
    Dot,
}

/// `shears tree`.
#[derive(Debug, Clone, clap::Args)]
pub struct TreeArgs {
    /// The position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Search depth in plies (the default picture fits one screen;
    /// depth 3 with --max-width 5 is some 12,000 px tall).
    #[arg(long, default_value_t = DEFAULT_TREE_DEPTH, value_parser = clap::value_parser!(u32).range(1..=MAX_TREE_DEPTH))]
    pub depth: u32,
    /// The search algorithm.
    #[arg(long, value_enum, default_value_t = CliAlgorithm::Alphabeta)]
    pub algorithm: CliAlgorithm,
    /// The move ordering.
    #[arg(long, value_enum, default_value_t = CliOrdering::MvvLva)]
    pub ordering: CliOrdering,
    /// What a horizon node is worth.
    #[arg(long, value_enum, default_value_t = CliLeaf::Eval)]
    pub leaf: CliLeaf,
    /// Children drawn per node before the rest fold into one "+N more"
    /// box (the principal variation and the child that made a cut-off
    /// are always drawn); 0 draws all.
    #[arg(long, default_value_t = DEFAULT_TREE_WIDTH)]
    pub max_width: usize,
    /// File format.
    #[arg(long, value_enum, default_value_t = TreeFormat::Svg)]
    pub format: TreeFormat,
    /// Output file.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Most nodes recorded; a larger tree is an error.
    #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..=50_000_000))]
    pub max_nodes: u64,
}

impl TreeArgs {
    /// The search to draw.
    pub fn config(&self) -> TheoryConfig {
        TheoryConfig {
            algorithm: self.algorithm.into(),
            ordering: self.ordering.into(),
            leaf: self.leaf.into(),
        }
    }

    /// `--max-nodes` as a count (at most 50 million: fits any `usize` of
    /// 32 bits or more).
    fn max_nodes(&self) -> usize {
        self.max_nodes as usize
    }
}

/// `shears compare`.
#[derive(Debug, Clone, clap::Args)]
#[command(group(clap::ArgGroup::new("positions").args(["fen", "suite", "bench"])))]
pub struct CompareArgs {
    /// One position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// A file of positions, one FEN (or EPD line) per line; totals over them.
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// The bench positions.
    #[arg(long)]
    pub bench: bool,
    /// Search depth in plies.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_COMPARE_DEPTH))]
    pub depth: u32,
    /// The ordering of every row but "alpha-beta (none)".
    #[arg(long, value_enum, default_value_t = CliOrdering::Full)]
    pub ordering: CliOrdering,
    /// What a horizon node is worth.
    #[arg(long, value_enum, default_value_t = CliLeaf::Eval)]
    pub leaf: CliLeaf,
    /// Node budget of one row (all positions together); a row past it
    /// is shown "over budget" and not run deeper.
    #[arg(long, default_value_t = 50_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// Also draw nodes against depth (log scale) to this SVG file; runs
    /// and prints every depth from 1.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Leave out the engine's real search.
    #[arg(long)]
    pub no_engine: bool,
}

impl CompareArgs {
    /// What to run.
    pub fn config(&self) -> CompareConfig {
        CompareConfig {
            ordering: self.ordering.into(),
            leaf: self.leaf.into(),
            max_nodes: self.max_nodes,
            engine: !self.no_engine,
        }
    }
}

/// Why a theory command failed.
#[derive(Debug, Error)]
pub enum TheoryCliError {
    /// `--fen` is not a legal position.
    #[error("--fen: {0}")]
    Fen(#[from] FenError),
    /// The output cannot be written.
    #[error("cannot write {}: {source}", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The suite cannot be read.
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Lines of the suite that are not positions.
    #[error("{}: {}", .path.display(), .lines.join("; "))]
    Suite {
        /// The file.
        path: PathBuf,
        /// `line N: reason` for each bad line.
        lines: Vec<String>,
    },
    /// The tree outgrew `--max-nodes` (or SSS*/MTD(f) their memory).
    #[error(
        "the tree has more than {limit} nodes (or outgrew the memory of SSS*/MTD(f)): \
         use a smaller depth, a better --ordering, another --algorithm or a larger --max-nodes"
    )]
    TooLarge {
        /// The limit.
        limit: usize,
    },
}

/// Prints the error and gives exit code 2.
fn fail(command: &str, e: &TheoryCliError) -> ExitCode {
    eprintln!("shears {command}: {e}");
    ExitCode::from(2)
}

/// Parses a FEN (Chess960 recognised from the castling field).
fn position(fen: Option<&str>) -> Result<Position, FenError> {
    let fen = fen.unwrap_or(START_FEN);
    Position::from_fen(fen, fen_needs_chess960(fen))
}

/// Opens `path` for writing (before any long work, so that a bad path
/// fails at once).
fn create(path: &Path) -> Result<File, TheoryCliError> {
    File::create(path).map_err(|source| TheoryCliError::Write {
        path: path.to_path_buf(),
        source,
    })
}

fn write_all(mut file: File, path: &Path, text: &str) -> Result<(), TheoryCliError> {
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|source| TheoryCliError::Write {
            path: path.to_path_buf(),
            source,
        })
}

/// `shears tree`.
pub(super) fn run_tree(args: &TreeArgs) -> ExitCode {
    match tree(args) {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => fail("tree", &e),
    }
}

fn tree(args: &TreeArgs) -> Result<String, TheoryCliError> {
    let pos = position(args.fen.as_deref())?;
    let file = create(&args.output)?;
    let config = args.config();
    let mut recorded = SearchTree::new(args.max_nodes());
    let result = search(
        &pos,
        args.depth,
        config,
        TheoryLimits::default(),
        Some(&mut recorded),
    );
    let Some(v) = result.value else {
        return Err(TheoryCliError::TooLarge {
            limit: args.max_nodes(),
        });
    };
    let s = &result.stats;
    let pv: Vec<String> = pv_san(&pos, &result.pv);
    let title = format!(
        "{} · depth {}: value {}, PV {}\n{} · {} nodes, {} cut-offs",
        config,
        args.depth,
        value(v),
        if pv.is_empty() {
            "-".to_owned()
        } else {
            pv.join(" ")
        },
        pos.fen(),
        count(s.nodes),
        count(s.cutoffs)
    );
    let picture = Picture::new(&recorded, &pos, args.max_width, title.clone());
    let text = match args.format {
        TreeFormat::Svg => svg::render(&picture),
        TreeFormat::Dot => dot::render(&picture),
    };
    write_all(file, &args.output, &text)?;
    Ok(format!(
        "{} → {}",
        title.replace('\n', " · "),
        args.output.display()
    ))
}

/// The moves of `pv` from `pos` in SAN.
fn pv_san(pos: &Position, pv: &[shakmaty::Move]) -> Vec<String> {
    let mut board = pos.board().clone();
    pv.iter()
        .map(|&m| shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut board, m).to_string())
        .collect()
}

/// `shears compare`.
pub(super) fn run_compare(args: &CompareArgs) -> ExitCode {
    match compare_command(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail("compare", &e),
    }
}

fn compare_command(args: &CompareArgs) -> Result<(), TheoryCliError> {
    let (positions, what) = positions(args)?;
    let plot_file = args.plot.as_deref().map(create).transpose()?;
    let first = if args.plot.is_some() { 1 } else { args.depth };
    let config = args.config();
    let results = compare(&positions, first..=args.depth, &config, &mut |_, _| {});
    for result in &results {
        println!("{}", report::table(result));
    }
    if let (Some(file), Some(path)) = (plot_file, &args.plot) {
        let title = format!(
            "Nodes by depth · {what} · {} ordering, {} leaves",
            config.ordering.name(),
            config.leaf.name()
        );
        write_all(file, path, &plot::render(&results, &title))?;
        println!("plot → {}", path.display());
    }
    Ok(())
}

/// The positions asked for, and a short name for them.
fn positions(args: &CompareArgs) -> Result<(Vec<Position>, String), TheoryCliError> {
    if args.bench {
        let (positions, _) = parse_fens(BENCH_FENS);
        return Ok((positions, "the bench positions".to_owned()));
    }
    let Some(path) = &args.suite else {
        let pos = position(args.fen.as_deref())?;
        let name = args
            .fen
            .clone()
            .unwrap_or_else(|| "start position".to_owned());
        return Ok((vec![pos], name));
    };
    let bytes = std::fs::read(path).map_err(|source| TheoryCliError::Read {
        path: path.clone(),
        source,
    })?;
    let (positions, bad) = parse_fens(&String::from_utf8_lossy(&bytes));
    if !bad.is_empty() || positions.is_empty() {
        let mut lines = bad;
        if lines.is_empty() {
            lines.push("no positions".to_owned());
        }
        return Err(TheoryCliError::Suite {
            path: path.clone(),
            lines,
        });
    }
    Ok((positions, path.display().to_string()))
}

/// One position per line: a FEN, or an EPD line (its first four fields).
fn parse_fens(text: &str) -> (Vec<Position>, Vec<String>) {
    let (positions, errors) = parse_numbered_lines(text, |line, _| {
        let fen = line.split(';').next().unwrap_or(line).trim();
        position(Some(fen)).or_else(|e| {
            let epd: Vec<&str> = fen.split_whitespace().take(4).collect();
            position(Some(&epd.join(" "))).map_err(|_| e.to_string())
        })
    });
    (positions, errors.iter().map(ToString::to_string).collect())
}
