//! Static evaluation. For now: material only, from the side to move's view.
//! The evaluation issue replaces this with a tapered, tuned evaluation.

use shakmaty::{Chess, Color, Position as _, Role};

/// Centipawn value of each piece type, pawn to king (the king counts 0).
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Value of a role in centipawns.
pub fn piece_value(role: Role) -> i32 {
    PIECE_VALUES[role as usize - 1]
}

/// Material balance for White, in centipawns.
pub fn material_white(board: &Chess) -> i32 {
    let b = board.board();
    Role::ALL
        .iter()
        .map(|&role| {
            let white = (b.by_role(role) & b.by_color(Color::White)).count() as i32;
            let black = (b.by_role(role) & b.by_color(Color::Black)).count() as i32;
            piece_value(role) * (white - black)
        })
        .sum()
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(board: &Chess) -> i32 {
    let white = material_white(board);
    if board.turn() == Color::White {
        white
    } else {
        -white
    }
}

/// A human-readable breakdown for the UCI `eval` command. The last line is
/// `Final evaluation: <cp> (white side)`.
pub fn trace(board: &Chess) -> String {
    let b = board.board();
    let mut out = String::from("     Term    |  White  |  Black  |  Total\n");
    out.push_str("-------------+---------+---------+--------\n");
    for &role in &Role::ALL[..5] {
        let white = (b.by_role(role) & b.by_color(Color::White)).count() as i32 * piece_value(role);
        let black = (b.by_role(role) & b.by_color(Color::Black)).count() as i32 * piece_value(role);
        out.push_str(&format!(
            "{:>12} | {:>7} | {:>7} | {:>6}\n",
            format!("{role:?}"),
            white,
            black,
            white - black
        ));
    }
    out.push_str("-------------+---------+---------+--------\n\n");
    out.push_str(&format!(
        "Final evaluation: {} (white side)",
        material_white(board)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_level() {
        assert_eq!(evaluate(&Chess::default()), 0);
    }
}
