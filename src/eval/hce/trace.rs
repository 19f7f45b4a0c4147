//! The tracing accumulator, behind two views of one evaluation:
//!
//! - [`coefficients`]: the tuner's feature vector. Per weight, how many
//!   times White's terms used it minus how many times Black's did, plus the
//!   phase and the endgame scale factors. With any weights `w` (in `layout`
//!   order) the evaluation is rebuilt as [`Coefficients::evaluate`] does:
//!
//!   ```text
//!   mg = sum(coef[i] * w[i].mg)      eg = sum(coef[i] * w[i].eg)
//!   c  = sum(complexity[j] * w[COMPLEXITY + j].eg)
//!   eg = eg + sign(eg) * max(c, -|eg|)                   (complexity.rs)
//!   v  = (mg * phase + eg * (24 - phase)) / 24          (truncated)
//!   v  = v * scale[White if v > 0 else Black] / 64      (truncated)
//!   ```
//!
//!   With the current weights ([`super::layout::ALL`]) this is exactly
//!   [`super::evaluate::evaluate_white`]; a test checks it on many positions. A tuner
//!   working in floating point drops the truncations. A known win against a
//!   bare king (`known_win.rs`) replaces the sum with a value that no weight
//!   changes: [`Coefficients::known_win`] holds it, and the tuner skips it.
//! - [`trace`]: the UCI `eval` table, each row the sum of its weights for
//!   White and for Black.

use shakmaty::{ByColor, Chess, Color, Position as _};

use super::accumulator::Accumulator;
use super::layout::{ALL, COUNT, KING_DANGER, TERM_OF, Term};
use super::tapered::{MAX_PHASE, S, finish, phase, taper};
use super::terms::complexity::{self, FEATURES, adjust};
use super::terms::danger::{DANGER_FEATURES, Feature, penalty};
use super::terms::endgame::{SCALE_NORMAL, scale_factor};
use super::terms::{count_terms, pawn_terms, piece_terms};
use crate::eval::endgame::known_win::known_win;

/// Records coefficients, danger features and per-row totals.
struct Tracer {
    coefs: Vec<i32>,
    /// Each king's danger features, by the king's colour index.
    danger: [[i32; DANGER_FEATURES]; 2],
    rows: [ByColor<S>; Term::ALL.len()],
}

impl Accumulator for Tracer {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let sign = if color == Color::White { 1 } else { -1 };
        self.coefs[index] += sign * count;
        *self.rows[TERM_OF[index] as usize].get_mut(color) += ALL[index] * count;
    }

    fn danger(&mut self, color: Color, feature: usize, count: i32) {
        self.danger[color as usize][feature] += count;
    }
}

/// The danger count of a king with `features`, with `weights`.
fn danger_count(features: &[i16; DANGER_FEATURES], weights: &[S]) -> S {
    features.iter().enumerate().fold(S::ZERO, |d, (j, &f)| {
        d + weights[KING_DANGER.at(j)] * i32::from(f)
    })
}

/// The evaluation of one position as a linear function of the weights.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coefficients {
    /// `(weight index, coefficient)` for every weight whose White-minus-Black
    /// count is not zero, by increasing index.
    pub features: Vec<(u16, i16)>,
    /// The game phase, 0 (bare kings and pawns) to [`MAX_PHASE`].
    pub phase: i32,
    /// The endgame scale factor, out of [`SCALE_NORMAL`], that applies when
    /// White is ahead (`scale.white`) or Black is ahead (`scale.black`).
    pub scale: ByColor<i32>,
    /// The known-win score for White that replaces the weighted sum, when
    /// one side has a bare king against mating material.
    pub known_win: Option<i32>,
    /// The complexity features (`complexity.rs`), which adjust the endgame
    /// sum instead of adding to it.
    pub complexity: [i16; FEATURES],
    /// Each king's danger features (`king.rs`), by the king's colour
    /// (`Color as usize`): they add up to a danger count that costs its
    /// side `danger::penalty` of it.
    pub danger: [[i16; DANGER_FEATURES]; 2],
}

impl Coefficients {
    /// The midgame and endgame sums with `weights` (in `layout` order).
    ///
    /// # Panics
    ///
    /// If `weights` is shorter than [`COUNT`].
    pub fn sums(&self, weights: &[S]) -> S {
        let linear = self
            .features
            .iter()
            .fold(S::ZERO, |s, &(i, c)| s + weights[i as usize] * i32::from(c));
        linear - self.danger_penalty(Color::White, weights)
            + self.danger_penalty(Color::Black, weights)
    }

    /// The danger count of `color`'s king with `weights`.
    pub fn danger_count(&self, color: Color, weights: &[S]) -> S {
        danger_count(&self.danger[color as usize], weights)
    }

    /// What `color`'s king danger costs it with `weights`.
    pub fn danger_penalty(&self, color: Color, weights: &[S]) -> S {
        penalty(self.danger_count(color, weights))
    }

    /// The evaluation for White with `weights`: phase blend, then scale.
    ///
    /// # Panics
    ///
    /// If `weights` is shorter than [`COUNT`].
    pub fn evaluate(&self, weights: &[S]) -> i32 {
        if let Some(win) = self.known_win {
            return win;
        }
        let sums = self.sums(weights);
        let features = self.complexity.map(i32::from);
        let total = S(sums.0, adjust(sums.1, complexity::sum(&features, weights)));
        finish(total, self.phase, |c| *self.scale.get(c))
    }
}

fn run(pos: &Chess) -> (Tracer, Coefficients) {
    let board = pos.board();
    let mut tracer = Tracer {
        coefs: vec![0; COUNT],
        danger: [[0; DANGER_FEATURES]; 2],
        rows: [ByColor::default(); Term::ALL.len()],
    };
    let passed = pawn_terms(board, &mut tracer);
    count_terms(board, &mut tracer);
    piece_terms(pos, passed, &mut tracer);
    let danger = tracer
        .danger
        .map(|f| f.map(|n| i16::try_from(n).expect("a danger feature is small")));
    for color in Color::ALL {
        let cost = penalty(danger_count(&danger[color as usize], &ALL));
        *tracer.rows[Term::KingSafety as usize].get_mut(color) -= cost;
    }
    let features = complexity::features(board, passed);
    // The complexity row: the change it makes to the endgame sum, shown in
    // White's column (it belongs to neither side).
    let sums = tracer
        .rows
        .iter()
        .fold(S::ZERO, |s, r| s + r.white - r.black);
    let adjusted = adjust(sums.1, complexity::sum(&features, &ALL));
    tracer.rows[Term::Complexity as usize].white = S(0, adjusted - sums.1);
    let complexity = features.map(|f| i16::try_from(f).expect("a complexity feature is small"));
    let features = tracer
        .coefs
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != 0)
        .map(|(i, &c)| {
            let c = i16::try_from(c).expect("a coefficient counts pieces or squares");
            (i as u16, c)
        })
        .collect();
    let coefficients = Coefficients {
        features,
        phase: phase(board),
        scale: ByColor::new_with(|color| scale_factor(board, passed, color)),
        known_win: known_win(board),
        complexity,
        danger,
    };
    (tracer, coefficients)
}

/// The king-danger part of the trace: each king's danger features, its
/// count (midgame, endgame) and what it costs (in the King safety row).
fn danger_lines(coefs: &Coefficients) -> String {
    let mut out = String::from("\nKing danger (features, count MG EG, cost MG EG):\n");
    for color in [Color::White, Color::Black] {
        let features = &coefs.danger[color as usize];
        let name = if color == Color::White {
            "White"
        } else {
            "Black"
        };
        if features.iter().all(|&f| f == 0) {
            out.push_str(&format!("  {name} king: not attacked enough to count\n"));
            continue;
        }
        let listed: Vec<String> = Feature::ALL
            .iter()
            .zip(features)
            .filter(|&(_, &n)| n != 0)
            .map(|(f, n)| format!("{} {n}", f.name()))
            .collect();
        let count = coefs.danger_count(color, &ALL);
        let cost = penalty(count);
        out.push_str(&format!(
            "  {name} king: {}; count {} {}, cost {} {}\n",
            listed.join(", "),
            count.0,
            count.1,
            cost.0,
            cost.1
        ));
    }
    out
}

/// The tuner's view of `pos`: see the module documentation.
pub fn coefficients(pos: &Chess) -> Coefficients {
    run(pos).1
}

/// A human-readable breakdown for the UCI `eval` command, like Stockfish's
/// classical trace: a row per term with White's and Black's values (each
/// from its own side) and the difference, midgame and endgame; then the
/// phase, the blend, the scale factor and, last,
/// `Hand-crafted evaluation: <cp> (white side; …)`, the line naming its
/// scale (`eval` ends with the evaluation that plays, which may be a net).
pub fn trace(pos: &Chess) -> String {
    let (tracer, coefs) = run(pos);
    let mut out = String::new();
    out.push_str("     Term    |    White    |    Black    |    Total\n");
    out.push_str("             |   MG    EG  |   MG    EG  |   MG    EG\n");
    let rule = " ------------+-------------+-------------+------------\n";
    out.push_str(rule);
    let row = |out: &mut String, name: &str, white: S, black: S| {
        let d = white - black;
        out.push_str(&format!(
            "{name:>12} | {:>5} {:>5} | {:>5} {:>5} | {:>5} {:>5}\n",
            white.0, white.1, black.0, black.1, d.0, d.1
        ));
    };
    let mut totals = ByColor::<S>::default();
    for term in Term::ALL {
        let r = tracer.rows[term as usize];
        row(&mut out, term.name(), r.white, r.black);
        totals.white += r.white;
        totals.black += r.black;
    }
    out.push_str(rule);
    row(&mut out, "Total", totals.white, totals.black);
    out.push_str(&danger_lines(&coefs));
    let total = totals.white - totals.black;
    let blended = taper(total, coefs.phase);
    let ahead = if blended > 0 {
        Color::White
    } else {
        Color::Black
    };
    let scale = *coefs.scale.get(ahead);
    out.push_str(&format!(
        "\nPhase: {} of {MAX_PHASE} (midgame weight {}/{MAX_PHASE}, endgame {}/{MAX_PHASE})\n",
        coefs.phase,
        coefs.phase,
        MAX_PHASE - coefs.phase
    ));
    out.push_str(&format!("Blended: {blended} (white side)\n"));
    out.push_str(&format!(
        "Scale factor: {scale}/{SCALE_NORMAL} (applies with {} ahead)\n",
        if ahead == Color::White {
            "White"
        } else {
            "Black"
        }
    ));
    if let Some(win) = coefs.known_win {
        out.push_str(&format!(
            "Known win against a bare king: {win} (white side) replaces the terms\n"
        ));
    }
    out.push_str(&format!(
        "Hand-crafted evaluation: {} (white side; its own centipawns, which score cp shows as \
         they are)",
        coefs
            .known_win
            .unwrap_or_else(|| finish(total, coefs.phase, |c| *coefs.scale.get(c)))
    ));
    out
}
