//! [`Schedule`]: the learning rate along the run, a function of where the
//! run is (so that a resumed run takes the same rates as one straight
//! through).

use std::f64::consts::PI;

/// How the learning rate changes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// The base rate throughout.
    Constant,
    /// The base rate times `gamma` after every `every` epochs:
    /// `lr · gamma^⌊epoch / every⌋`.
    Step {
        /// Epochs between drops (at least 1).
        every: u32,
        /// The factor of each drop.
        gamma: f32,
    },
    /// From the base rate down to `final_ratio` times it along half a
    /// cosine over the whole run, batch by batch:
    /// `lr · (r + (1 − r) · (1 + cos(π · progress)) / 2)`.
    Cosine {
        /// The rate at the end, as a share of the base rate.
        final_ratio: f32,
    },
}

impl Schedule {
    /// The rate at `fraction` (0 to 1) of the way through epoch `epoch`
    /// (from 0) of `epochs`, with base rate `lr`.
    pub fn rate(&self, lr: f32, epoch: u32, fraction: f64, epochs: u32) -> f32 {
        match *self {
            Schedule::Constant => lr,
            Schedule::Step { every, gamma } => {
                lr * gamma.powi((epoch / every.max(1)).min(i32::MAX as u32) as i32)
            }
            Schedule::Cosine { final_ratio } => {
                let progress = ((f64::from(epoch) + fraction) / f64::from(epochs.max(1))).min(1.0);
                let r = f64::from(final_ratio);
                let share = r + (1.0 - r) * (1.0 + (PI * progress).cos()) / 2.0;
                (f64::from(lr) * share) as f32
            }
        }
    }

    /// The schedule in words, as its options.
    pub fn describe(&self) -> String {
        match self {
            Schedule::Constant => "constant".to_owned(),
            Schedule::Step { every, gamma } => {
                format!("step (× {gamma} every {every} epochs)")
            }
            Schedule::Cosine { final_ratio } => {
                format!("cosine (down to {final_ratio} of the rate)")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedules_start_at_the_rate_and_fall_as_documented() {
        assert_eq!(Schedule::Constant.rate(0.01, 7, 0.5, 10), 0.01);
        let step = Schedule::Step {
            every: 3,
            gamma: 0.5,
        };
        assert_eq!(step.rate(0.01, 2, 0.9, 10), 0.01);
        assert_eq!(step.rate(0.01, 3, 0.0, 10), 0.005);
        assert_eq!(step.rate(0.01, 6, 0.0, 10), 0.0025);
        let cosine = Schedule::Cosine { final_ratio: 0.1 };
        assert_eq!(cosine.rate(0.01, 0, 0.0, 4), 0.01);
        assert!((cosine.rate(0.01, 2, 0.0, 4) - 0.0055).abs() < 1e-7);
        assert!((cosine.rate(0.01, 3, 1.0, 4) - 0.001).abs() < 1e-7);
        assert!(cosine.rate(0.01, 1, 0.5, 4) > cosine.rate(0.01, 2, 0.5, 4));
    }
}
