//! Everything the engine writes: pure formatting of reports, and the one
//! [`Output`] that writes lines to stdout (flushed after each line) and to
//! the optional conversation log.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::Mutex;

use shakmaty::Move;

use crate::chess::move_to_uci;
use crate::engine::Report;
use crate::search::{Score, ScoreBound, SearchInfo, SearchReport};

/// Writes whole lines to stdout and, if configured, to a log file.
pub struct Output {
    inner: Mutex<Inner>,
}

struct Inner {
    out: Box<dyn Write + Send>,
    log: Option<File>,
}

impl Output {
    /// Output to stdout, logging the conversation to `log` if given.
    ///
    /// # Errors
    ///
    /// When the log file cannot be opened for appending.
    pub fn new(log: Option<&Path>) -> io::Result<Output> {
        let log = match log {
            Some(path) => Some(File::options().create(true).append(true).open(path)?),
            None => None,
        };
        Ok(Output {
            inner: Mutex::new(Inner {
                out: Box::new(io::stdout()),
                log,
            }),
        })
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
}

/// `cp N` or `mate N`.
pub fn format_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// An `info depth … pv …` line.
pub fn format_info(info: &SearchInfo, chess960: bool) -> String {
    let ms = info.time.as_millis() as u64;
    let nps = (u128::from(info.nodes) * 1_000_000_000 / info.time.as_nanos().max(1)) as u64;
    let bound = match info.bound {
        Some(ScoreBound::Lower) => " lowerbound",
        Some(ScoreBound::Upper) => " upperbound",
        None => "",
    };
    let tbhits = info
        .tbhits
        .map_or_else(String::new, |n| format!(" tbhits {n}"));
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {nps} hashfull {}{tbhits} time {ms}",
        info.depth,
        info.seldepth,
        info.multipv,
        format_score(info.score),
        info.nodes,
        info.hashfull,
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for &m in &info.pv {
            line.push(' ');
            line.push_str(&move_to_uci(m, chess960));
        }
    }
    line
}

/// How reports are written: the castling notation, and whether `debug on`
/// asked for more.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    /// Castling as king takes rook.
    pub chess960: bool,
    /// `debug on`: timings of perft and bench too.
    pub debug: bool,
}

/// The lines an engine report turns into.
pub fn format_report(report: &Report, style: Style) -> Vec<String> {
    match report {
        Report::Search(r) => format_search(r, style.chess960),
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
        Report::Failed { job, reason } => {
            let reason = reason.replace(['\n', '\r'], " ");
            vec![format!("info string error: {job} failed: {reason}")]
        }
    }
}

/// The lines a search report turns into.
pub fn format_search(report: &SearchReport, chess960: bool) -> Vec<String> {
    match report {
        SearchReport::Iteration(info) => vec![format_info(info, chess960)],
        SearchReport::CurrMove { depth, mv, number } => {
            vec![format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                move_to_uci(*mv, chess960)
            )]
        }
        SearchReport::Finished { info, best, ponder } => {
            let mut lines = Vec::with_capacity(2);
            match info {
                // No legal move (or no completed iteration): Stockfish's
                // `info depth 0 score …`.
                Some(info) if info.depth == 0 => {
                    lines.push(format!("info depth 0 score {}", format_score(info.score)));
                }
                Some(info) => lines.push(format_info(info, chess960)),
                // The line was the last iteration's, sent already.
                None => {}
            }
            lines.push(format_bestmove(*best, *ponder, chess960));
            lines
        }
        SearchReport::Problem(message) => {
            vec![format!(
                "info string error: {}",
                message.replace(['\n', '\r'], " ")
            )]
        }
        SearchReport::Failed { reason, best } => {
            let reason = reason.replace(['\n', '\r'], " ");
            vec![
                format!("info string error: search failed: {reason}"),
                format_bestmove(*best, None, chess960),
            ]
        }
    }
}

/// `bestmove X [ponder Y]`, or Stockfish's `bestmove (none)` without a move.
fn format_bestmove(best: Option<Move>, ponder: Option<Move>, chess960: bool) -> String {
    match (best, ponder) {
        (None, _) => "bestmove (none)".to_owned(),
        (Some(b), None) => format!("bestmove {}", move_to_uci(b, chess960)),
        (Some(b), Some(p)) => format!(
            "bestmove {} ponder {}",
            move_to_uci(b, chess960),
            move_to_uci(p, chess960)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn no_move_report_is_stockfish_shaped() {
        let info = SearchInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score: Score::Mate(0),
            bound: None,
            nodes: 0,
            hashfull: 0,
            tbhits: None,
            time: Duration::ZERO,
            pv: vec![],
        };
        let lines = format_search(
            &SearchReport::Finished {
                info: Some(info),
                best: None,
                ponder: None,
            },
            false,
        );
        assert_eq!(lines, vec!["info depth 0 score mate 0", "bestmove (none)"]);
    }

    #[test]
    fn a_line_reported_already_is_not_repeated_before_bestmove() {
        let m = shakmaty::Move::Normal {
            role: shakmaty::Role::Pawn,
            from: shakmaty::Square::E2,
            capture: None,
            to: shakmaty::Square::E4,
            promotion: None,
        };
        let lines = format_search(
            &SearchReport::Finished {
                info: None,
                best: Some(m),
                ponder: None,
            },
            false,
        );
        assert_eq!(lines, vec!["bestmove e2e4"]);
    }

    #[test]
    fn a_failed_search_says_so_on_one_line_and_still_moves() {
        let m = shakmaty::Move::Normal {
            role: shakmaty::Role::Pawn,
            from: shakmaty::Square::E2,
            capture: None,
            to: shakmaty::Square::E4,
            promotion: None,
        };
        let lines = format_search(
            &SearchReport::Failed {
                reason: "index out of bounds\nat line 3".to_owned(),
                best: Some(m),
            },
            false,
        );
        assert_eq!(
            lines,
            vec![
                "info string error: search failed: index out of bounds at line 3",
                "bestmove e2e4"
            ]
        );
    }
}
