//! Everything the engine writes: pure formatting of reports, and the one
//! [`Output`] that writes lines to stdout (flushed after each line) and to
//! the optional conversation log.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use shakmaty::Move;

use super::piece_board::piece_board;
use super::wdl::Wdl;
use crate::chess::move_to_uci;
use crate::engine::{EvalTrace, NetNews, Report, ScoreContext, Style};
use crate::eval::{EvalKind, ScoreModel};
use crate::search::{Score, ScoreBound, SearchInfo, SearchReport, TB_WIN_BOUND};

/// Writes whole lines to stdout and, if configured, to a log file.
pub struct Output {
    inner: Mutex<Inner>,
}

struct Inner {
    out: Box<dyn Write + Send>,
    log: Option<File>,
}

impl Output {
    /// Opens `path` for appending the conversation to (see
    /// [`Output::with_log`]).
    ///
    /// # Errors
    ///
    /// The path and the reason when it cannot be opened (a directory, a
    /// folder that does not exist, no permission).
    pub fn new_log(path: &Path) -> Result<File, (PathBuf, io::Error)> {
        File::options()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| (path.to_path_buf(), e))
    }

    /// Output to stdout, logging the conversation to `log` if given.
    pub fn with_log(log: Option<File>) -> Output {
        Output {
            inner: Mutex::new(Inner {
                out: Box::new(io::stdout()),
                log,
            }),
        }
    }

    /// Output to `out` instead of stdout, without a log (for tools and the
    /// fuzz harness; `io::sink()` discards everything).
    pub fn to_writer(out: Box<dyn Write + Send>) -> Output {
        Output {
            inner: Mutex::new(Inner { out, log: None }),
        }
    }

    /// Writes one line and flushes. A closed stdout (the GUI went away) ends
    /// the process quietly with exit code 0.
    pub fn line(&self, text: &str) {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let written = {
            let out = &mut inner.out;
            writeln!(out, "{text}").and_then(|()| out.flush())
        };
        if let Some(log) = inner.log.as_mut() {
            for l in text.lines() {
                let _ = writeln!(log, "<< {l}");
            }
        }
        if written.is_err() {
            std::process::exit(0);
        }
    }

    /// Records an input line in the log.
    pub fn log_input(&self, text: &str) {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(log) = inner.log.as_mut() {
            let _ = writeln!(log, ">> {text}");
        }
    }

    /// `info string error: …`.
    pub fn error(&self, message: &str) {
        self.line(&format!(
            "info string error: {}",
            message.replace('\n', " ")
        ));
    }

    /// `info string warning: …`: input that was read otherwise than
    /// written (the command still took effect).
    pub fn warning(&self, message: &str) {
        self.line(&format!(
            "info string warning: {}",
            message.replace('\n', " ")
        ));
    }
}

/// `cp N` or `mate N`.
pub fn format_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// The score `info` shows, read with `model`: an evaluation's centipawns
/// as the model shows them ([`ScoreModel::shown_cp`]: normalised or as they
/// are; without a model, a net's raw centipawns), a mate or a tablebase
/// score as it is.
pub fn shown_score(info: &SearchInfo, model: Option<&ScoreModel>) -> Score {
    match (info.score(), model) {
        (Score::Cp(cp), Some(model)) if info.line.score.abs() < TB_WIN_BOUND => {
            Score::Cp(model.shown_cp(cp))
        }
        (score, _) => score,
    }
}

/// An `info depth … pv …` line with `score` (see [`shown_score`]); `wdl`
/// (for `UCI_ShowWDL`) comes after the score and its bound, as in
/// Stockfish.
pub fn format_info(info: &SearchInfo, chess960: bool, score: Score, wdl: Option<Wdl>) -> String {
    let (line, counters) = (&info.line, &info.counters);
    let ms = counters.time.as_millis() as u64;
    let nps = (u128::from(counters.nodes) * 1_000_000_000 / counters.time.as_nanos().max(1)) as u64;
    let bound = match line.bound {
        Some(ScoreBound::Lower) => " lowerbound",
        Some(ScoreBound::Upper) => " upperbound",
        None => "",
    };
    let wdl = wdl.map_or_else(String::new, |w| format!(" wdl {w}"));
    let tbhits = counters
        .tbhits
        .map_or_else(String::new, |n| format!(" tbhits {n}"));
    let mut text = format!(
        "info depth {} seldepth {} multipv {} score {}{bound}{wdl} nodes {} nps {nps} hashfull {}{tbhits} time {ms}",
        line.depth,
        line.seldepth,
        info.multipv,
        format_score(score),
        counters.nodes,
        counters.hashfull,
    );
    if !line.pv.is_empty() {
        text.push_str(" pv");
        for &m in &line.pv {
            text.push(' ');
            text.push_str(&move_to_uci(m, chess960));
        }
    }
    text
}

/// The lines an engine report turns into.
pub fn format_report(report: &Report, style: Style) -> Vec<String> {
    match report {
        Report::Progress { report, scores } => format_search(report, style, *scores),
        Report::Answer {
            info,
            best,
            ponder,
            scores,
        } => format_answer(info.as_ref(), *best, *ponder, style, *scores),
        Report::SearchFailed { reason, best } => {
            let reason = reason.replace(['\n', '\r'], " ");
            vec![
                format!("info string error: search failed: {reason}"),
                format_bestmove(*best, None, style.chess960),
            ]
        }
        Report::Problem(message) => {
            vec![format!(
                "info string error: {}",
                message.replace(['\n', '\r'], " ")
            )]
        }
        Report::Book { mv, weight, total } => {
            let share = if *total == 0 {
                0.0
            } else {
                f64::from(*weight) * 100.0 / *total as f64
            };
            vec![format!(
                "info string book move {} (weight {weight}, share {share:.1}%)",
                move_to_uci(*mv, style.chess960)
            )]
        }
        Report::Net(news) => vec![format_net_news(news)],
        Report::NoBook => vec![
            "info string no book move: OwnBook is on but no BookFile is loaded \
             (setoption name BookFile value <path to a Polyglot .bin>)"
                .to_owned(),
        ],
        Report::Perft {
            moves,
            time,
            stopped,
        } => {
            let mut lines = Vec::with_capacity(moves.len() + 4);
            if *stopped {
                lines.push("info string perft stopped: the counts below are partial".to_owned());
            }
            lines.extend(
                moves
                    .iter()
                    .map(|(m, n)| format!("{}: {n}", move_to_uci(*m, style.chess960))),
            );
            let total: u64 = moves.iter().map(|(_, n)| n).sum();
            lines.push(String::new());
            lines.push(format!("Nodes searched: {total}"));
            if style.debug {
                lines.push(format!("info string perft took {} ms", time.as_millis()));
            }
            lines
        }
        Report::BenchPosition(p) => vec![p.to_string()],
        Report::Bench(result) => {
            let mut lines = Vec::new();
            if result.stopped {
                lines.push(format!(
                    "info string bench stopped: the totals cover {} position(s), the last perhaps in part",
                    result.positions
                ));
            }
            if style.debug {
                lines.extend(
                    result
                        .report()
                        .into_iter()
                        .map(|l| format!("info string {l}")),
                );
            }
            lines.push(result.summary());
            lines
        }
        Report::ToolDone => Vec::new(),
        Report::Failed { job, reason } => {
            let reason = reason.replace(['\n', '\r'], " ");
            vec![format!("info string error: {job} failed: {reason}")]
        }
    }
}

/// How `eval` says a net's score is shown: normalised by its own score
/// model (what a shown 100 is), or its raw centipawns.
fn net_model_words(model: Option<&ScoreModel>) -> String {
    match model {
        Some(m) => format!(
            "normalised by the net's own score model: 100 is an even chance of a win with the \
             material of the game's middle, {:.1} of the net's centipawns",
            m.pawn()
        ),
        None => "the net's raw centipawns: its file has no score model".to_owned(),
    }
}

/// The `eval` answer: the hand-crafted trace (its last line names its
/// scale); with a net, its value of each piece as a board (in pawns as
/// `score cp` shows them, [`piece_board`]) and its evaluation in its own
/// centipawns and as `score cp` shows it (normalised by the net's own
/// score model, [`ScoreModel::shown_cp`], or raw when its file has none),
/// naming the model; which evaluation plays; and last, as Stockfish ends
/// its `eval`, the evaluation that plays as `score cp` shows it.
pub fn format_eval(trace: &EvalTrace) -> String {
    let mut lines = vec![trace.hand_crafted.clone()];
    match &trace.net {
        Ok(net) => {
            let model = net.model.as_ref();
            let shown = |cp| model.map_or(cp, |m| m.shown_cp(cp));
            lines.push(String::new());
            lines.push(
                "NNUE piece values (pawns as score cp shows them, white side; a piece's value is \
                 the net's evaluation minus its evaluation without the piece; kings have none):"
                    .to_owned(),
            );
            let pawns = |cp| f64::from(shown(cp)) / 100.0;
            lines.extend(piece_board(&net.pieces, pawns));
            lines.push(String::new());
            lines.push(format!(
                "NNUE evaluation: {} (white side; the net's own centipawns), net {}",
                net.white, net.source
            ));
            lines.push(format!(
                "NNUE evaluation as score cp shows it: {} (white side; {})",
                shown(net.white),
                net_model_words(model)
            ));
        }
        Err(reason) => lines.push(format!("NNUE evaluation: none, no net ({reason})")),
    }
    lines.push(trace.in_play.clone());
    let playing = &trace.playing;
    let (model, white) = (playing.model.as_ref(), playing.white);
    let shown = model.map_or(white, |m| m.shown_cp(white));
    lines.push(match (playing.kind, model) {
        (EvalKind::Net, Some(_)) => format!(
            "Final evaluation: {shown} (white side; the net, which plays, as score cp shows it, \
             normalised by its own score model; {white} of its own centipawns)"
        ),
        (EvalKind::Net, None) => format!(
            "Final evaluation: {shown} (white side; the net, which plays, in its raw centipawns \
             as score cp shows them: its file has no score model)"
        ),
        (EvalKind::HandCrafted, _) => format!(
            "Final evaluation: {shown} (white side; the hand-crafted evaluation, which plays, as \
             score cp shows it)"
        ),
    });
    lines.join("\n")
}

/// The `info string` naming a net: the one a search is about to play with
/// for the first time, or one `EvalFile` has loaded (then whether it
/// plays). Its width, input layout and the first 12 hex digits of its
/// file's sha256 tell it apart from any other; last, how its scores are
/// shown (by its own score model, or in raw centipawns without one).
pub fn format_net_news(news: &NetNews) -> String {
    let sha = news.sha256.get(..12).unwrap_or(&news.sha256);
    // No " score " in an info string: a GUI may read one as the score.
    let model = match &news.model {
        Some(m) => format!("its own model: a pawn is {:.1} cp", m.pawn()),
        None => "no model: raw centipawns, no wdl".to_owned(),
    };
    let what = format!(
        "net {} (width {}, {} inputs, sha256 {sha}, {model})",
        news.source, news.width, news.layout
    );
    match news.idle {
        None => format!("info string NNUE evaluation using {what}"),
        Some(why) => {
            format!("info string NNUE {what} loaded; the hand-crafted evaluation plays ({why})")
        }
    }
}

/// The win/draw/loss chances of `info`'s score (`None` unless
/// `style.show_wdl`), by the score model of the evaluation that played
/// with the root position's material ([`Wdl::of`]). A score the tables
/// prove shows certain chances ([`Wdl::proven`]); a net without a model
/// shows none.
fn wdl_of(info: &SearchInfo, style: Style, scores: ScoreContext) -> Option<Wdl> {
    if !style.show_wdl {
        return None;
    }
    if info.line.tb_proven {
        return Some(Wdl::proven(info.score()));
    }
    scores
        .model
        .map(|model| Wdl::of(&model, info.score(), scores.material))
}

/// `info`'s line as `style` and `scores` say.
fn info_line(info: &SearchInfo, style: Style, scores: ScoreContext) -> String {
    let score = shown_score(info, scores.model.as_ref());
    format_info(info, style.chess960, score, wdl_of(info, style, scores))
}

/// The line a search's progress report turns into; `scores` says whose
/// centipawns its scores are and the root position's material, for the
/// win/draw/loss chances shown when `style.show_wdl`.
pub fn format_search(report: &SearchReport, style: Style, scores: ScoreContext) -> Vec<String> {
    let chess960 = style.chess960;
    match report {
        SearchReport::Iteration(info) => vec![info_line(info, style, scores)],
        SearchReport::CurrMove { depth, mv, number } => {
            vec![format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                move_to_uci(*mv, chess960)
            )]
        }
    }
}

/// The lines of the answer to a `go`: its final `info` line, if any, and
/// `bestmove`.
pub fn format_answer(
    info: Option<&SearchInfo>,
    best: Option<Move>,
    ponder: Option<Move>,
    style: Style,
    scores: ScoreContext,
) -> Vec<String> {
    let mut lines = Vec::with_capacity(2);
    match info {
        // No legal move (or no completed iteration): Stockfish's
        // `info depth 0 score …`.
        // The game is over: mated (`mate 0`) or stalemate (`cp 0`).
        Some(info) if info.line.depth == 0 => {
            let mut line = format!("info depth 0 score {}", format_score(info.score()));
            if style.show_wdl {
                let over = match info.score() {
                    Score::Mate(_) => Wdl::LOSS,
                    Score::Cp(_) => Wdl::DRAW,
                };
                line.push_str(&format!(" wdl {over}"));
            }
            lines.push(line);
        }
        Some(info) => lines.push(info_line(info, style, scores)),
        // The line was the last one sent already.
        None => {}
    }
    lines.push(format_bestmove(best, ponder, style.chess960));
    lines
}

/// `bestmove X [ponder Y]`, or the null move `bestmove 0000` without a move
/// (no legal move, or no position to search).
fn format_bestmove(best: Option<Move>, ponder: Option<Move>, chess960: bool) -> String {
    match (best, ponder) {
        (None, _) => "bestmove 0000".to_owned(),
        (Some(b), None) => format!("bestmove {}", move_to_uci(b, chess960)),
        (Some(b), Some(p)) => format!(
            "bestmove {} ponder {}",
            move_to_uci(b, chess960),
            move_to_uci(p, chess960)
        ),
    }
}

#[cfg(test)]
#[path = "output_tests.rs"]
mod tests;
