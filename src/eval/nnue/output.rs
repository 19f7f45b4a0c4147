//! The output layer: the evaluation from a pair of accumulators, computed
//! only when the search asks for it.
//!
//! In integers (docs/nnue.md derives it from the float pass):
//! `sum = Σ clamp(acc_stm, 0, QA)² · W2[0] + Σ clamp(acc_nstm, 0, QA)² ·
//! W2[1]` (exact, in i64), `out = sum / QA + b2`, `eval = out · SCALE /
//! (QA · QB)`, both divisions truncating toward zero.

use shakmaty::Color;

use super::accumulator::Accumulator;
use super::arch::{QA, QB, SCALE};
use super::net::Net;
use super::simd;

impl<const H: usize> Net<H> {
    /// The evaluation in centipawns from `stm`'s point of view, `stm`
    /// being the side to move of the accumulator's position.
    ///
    /// Its size is at most about 5.3 · 10⁷ for any net the constructors
    /// accept (the output weights are at most 127, `b2` an i32), so it
    /// always fits an i32; a trained net stays within a few thousand.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator<H>, stm: Color) -> i32 {
        let [w_us, w_them] = self.output_weights();
        let sum = simd::screlu_dot(acc.perspective(stm), acc.perspective(!stm), w_us, w_them);
        let out = sum / i64::from(QA) + i64::from(self.output_bias());
        let cp = out * i64::from(SCALE) / i64::from(QA * QB);
        cp.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }
}
