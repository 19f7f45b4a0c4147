//! `shears book make` (a Polyglot book from PGN games, as `polyglot
//! make-book` makes it) and `shears book show` (the book moves of
//! positions, with weights and shares).

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use shakmaty::Color;

use shears::book::Book;
use shears::book::format::polyglot_key;
use shears::book::make::{BookMaker, MakeOptions, write_book};
use shears::chess::pgn::PgnReader;
use shears::chess::{Position, START_FEN, fen_needs_chess960, move_to_uci};
use shears::engine::config::Config;

/// Skipped games reported one by one per file; the rest are counted.
const SKIPS_SHOWN: usize = 50;

/// `shears book …`.
#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Make a Polyglot book from PGN games, entry for entry as `polyglot
    /// make-book` does: each move up to --max-ply weighs 2 per win and 1 per
    /// draw (or unknown result) of the side that played it. Games that
    /// cannot be read or hold an illegal move (within --max-ply) are
    /// skipped, each named on stderr.
    Make {
        /// PGN files, read in order.
        #[arg(required = true, value_name = "GAMES.pgn")]
        pgn: Vec<PathBuf>,
        /// The book to write (replaced only once it is complete).
        #[arg(short = 'o', long = "output", value_name = "BOOK.bin")]
        output: PathBuf,
        /// Moves at plies below this count (polyglot's -max-ply).
        #[arg(long, default_value_t = 1024)]
        max_ply: u32,
        /// Fewest games that played a move in a position for it to be kept
        /// (-min-game).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
        min_game: u32,
        /// Lowest score of a kept move, in percent of the points it could
        /// have won (-min-score).
        #[arg(long, default_value_t = 0.0)]
        min_score: f64,
        /// Keep only the moves of White (-only-white).
        #[arg(long, conflicts_with = "only_black")]
        only_white: bool,
        /// Keep only the moves of Black (-only-black).
        #[arg(long)]
        only_black: bool,
        /// Every kept move weighs 1 (-uniform).
        #[arg(long)]
        uniform: bool,
    },
    /// Show the book moves of positions (legal ones, in book order) with
    /// their weights, shares of the total weight and learn fields.
    Show {
        /// The book (default: BookFile of engine.toml).
        #[arg(value_name = "BOOK.bin")]
        book: Option<PathBuf>,
        /// A position (repeat for several; default: the start position).
        #[arg(long)]
        fen: Vec<String>,
        /// UCI moves played from each position first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Castling written king takes rook.
        #[arg(long)]
        chess960: bool,
    },
}

/// Runs a `book` subcommand.
pub(super) fn run(command: BookCommand, config: &Config) -> ExitCode {
    match command {
        BookCommand::Make {
            pgn,
            output,
            max_ply,
            min_game,
            min_score,
            only_white,
            only_black,
            uniform,
        } => {
            if !(0.0..=100.0).contains(&min_score) {
                eprintln!("shears book make: --min-score {min_score}: expected 0 to 100 (percent)");
                return ExitCode::from(2);
            }
            let options = MakeOptions {
                max_ply: max_ply as usize,
                min_game,
                min_score: min_score / 100.0,
                only: match (only_white, only_black) {
                    (true, _) => Some(Color::White),
                    (_, true) => Some(Color::Black),
                    _ => None,
                },
                uniform,
            };
            make(&pgn, &output, options)
        }
        BookCommand::Show {
            book,
            fen,
            moves,
            chess960,
        } => {
            let path = match book {
                Some(p) => p,
                None if !config.options.book_file().is_empty() => {
                    PathBuf::from(config.options.book_file())
                }
                None => {
                    eprintln!(
                        "shears book show: no book: give BOOK.bin or set BookFile in engine.toml"
                    );
                    return ExitCode::from(2);
                }
            };
            show(&path, &fen, &moves, chess960)
        }
    }
}

fn make(files: &[PathBuf], output: &Path, options: MakeOptions) -> ExitCode {
    let mut maker = BookMaker::new(options);
    let mut skipped_total = 0;
    for file in files {
        let input = match File::open(file) {
            Ok(f) => BufReader::new(f),
            Err(e) => {
                eprintln!("shears book make: {}: cannot read: {e}", file.display());
                return ExitCode::from(2);
            }
        };
        let (mut games, mut skipped) = (0usize, 0usize);
        for game in PgnReader::new(input) {
            let game = match game {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("shears book make: {}: cannot read: {e}", file.display());
                    return ExitCode::from(2);
                }
            };
            games += 1;
            match game.mainline(options.max_ply) {
                Ok((start, moves)) => maker.add_game(&start, &moves, game.result()),
                Err(reason) => {
                    skipped += 1;
                    if skipped <= SKIPS_SHOWN {
                        eprintln!(
                            "shears book make: {}: {} skipped: {reason}",
                            file.display(),
                            game.describe()
                        );
                    }
                }
            }
        }
        if skipped > SKIPS_SHOWN {
            eprintln!(
                "shears book make: {}: {} more games skipped",
                file.display(),
                skipped - SKIPS_SHOWN
            );
        }
        println!(
            "{}: {games} games, {} used, {skipped} skipped",
            file.display(),
            games - skipped
        );
        skipped_total += skipped;
    }
    let (games, pairs) = (maker.games(), maker.pairs());
    let entries = maker.finish();
    if let Err(e) = write_book(output, &entries) {
        eprintln!("shears book make: {}: cannot write: {e}", output.display());
        return ExitCode::from(2);
    }
    println!(
        "{games} games used ({skipped_total} skipped), {pairs} position-moves, {} entries kept \
         (min-game {}, max-ply {}), written to {}",
        entries.len(),
        options.min_game,
        options.max_ply,
        output.display()
    );
    ExitCode::SUCCESS
}

fn show(path: &Path, fens: &[String], moves: &[String], chess960: bool) -> ExitCode {
    let book = match Book::open(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("shears book show: {e}");
            return ExitCode::from(2);
        }
    };
    println!("book {}: {} entries", path.display(), book.len());
    let start = [START_FEN.to_owned()];
    let fens = if fens.is_empty() { &start[..] } else { fens };
    for fen in fens {
        let castling960 = chess960 || fen_needs_chess960(fen);
        let mut position = match Position::from_fen(fen, castling960) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("shears book show: --fen: {e}");
                return ExitCode::from(2);
            }
        };
        if let Err((i, e)) = position.play_uci_moves(moves.iter().map(String::as_str), castling960)
        {
            eprintln!("shears book show: --moves: move {}: {e}", i + 1);
            return ExitCode::from(2);
        }
        let board = position.board();
        let found = book.moves(board);
        println!(
            "position {} key {:016x}: {} moves, total weight {}",
            position.fen(),
            polyglot_key(board),
            found.moves.len(),
            found.total_weight()
        );
        for m in &found.moves {
            println!(
                "  {} weight {} share {:.2}% learn {}",
                move_to_uci(m.mv, castling960),
                m.weight,
                found.share(m.weight),
                m.learn
            );
        }
        if found.illegal > 0 {
            println!(
                "  ({} entries of this key code no legal move here: left out)",
                found.illegal
            );
        }
    }
    ExitCode::SUCCESS
}
