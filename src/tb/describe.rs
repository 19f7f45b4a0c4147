//! What the tables say about one position, as text lines: the `d` command
//! and `shears tb` print these.

use shakmaty::Position as _;

use super::tables::Tablebases;
use super::values::Wdl;
use crate::chess::Position;

/// Lines describing `pos` by the tables: its WDL and DTZ values (with the
/// halfmove clock taken into account when it is not zero), or why the
/// tables cannot tell.
///
/// ```text
/// Tablebases WDL: win
/// Tablebases DTZ: 27
/// ```
pub fn describe(tables: &Tablebases, pos: &Position) -> Vec<String> {
    let board = pos.board();
    let pieces = board.board().occupied().count();
    if board.castles().any() {
        return vec!["Tablebases: none (castling rights)".to_owned()];
    }
    if pieces > tables.max_pieces() {
        return vec![format!(
            "Tablebases: none ({pieces} pieces; the tables have up to {})",
            tables.max_pieces()
        )];
    }
    let Some(wdl) = tables.probe_wdl(board) else {
        return vec!["Tablebases: none (no usable table for this material)".to_owned()];
    };
    let dtz = tables.probe_dtz(board);
    let mut lines = vec![format!("Tablebases WDL: {wdl}")];
    lines.push(match dtz {
        Some(dtz) => format!("Tablebases DTZ: {dtz}"),
        None => "Tablebases DTZ: unknown (no usable DTZ table)".to_owned(),
    });
    let clock = board.halfmoves();
    if clock > 0
        && let Some(dtz) = dtz
        && dtz.plies != 0
    {
        // The clock adds to the distance: a win may come too late.
        let clock = clock.min(1000) as i32;
        let total = dtz.plies + dtz.plies.signum() * clock;
        let now = Wdl::from_dtz(total);
        let edge = dtz.rounded && total.abs() == 100;
        lines.push(if edge {
            let other = Wdl::from_dtz(total + total.signum());
            format!("Tablebases with the halfmove clock at {clock}: {now} or {other} (DTZ rounded)")
        } else {
            format!("Tablebases with the halfmove clock at {clock}: {now}")
        });
    }
    lines
}
