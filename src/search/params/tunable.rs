//! The type of a search tunable ([`Tunable`]): a named integer with the
//! range and step an SPSA tuner explores. The search reads every tunable
//! the same way, `RFP_MARGIN.get()`, in both builds:
//!
//! - the normal build declares each one a `const`, and `get` returns its
//!   default: a compile-time constant, as if the number were written out;
//! - the `spsa` feature declares each one a `static` holding an atomic
//!   integer, which `setoption` changes (`get` is a relaxed load: a plain
//!   load on x86-64). It exists for tuning runs only.
//!
//! The tunables themselves, and the macro that declares them, are in
//! `values.rs`; setting one by name (and refreshing what is computed from
//! it) is `spsa.rs`.

#[cfg(feature = "spsa")]
use std::sync::atomic::{AtomicI32, Ordering};

/// What an SPSA tuner needs to know about a tunable: OpenBench reads
/// `name, int, default, min, max, step, learning-rate` lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TunableSpec {
    /// The name, as in `values.rs` (and the UCI option of the `spsa` build).
    pub name: &'static str,
    /// The engine's value.
    pub default: i32,
    /// Smallest value tried.
    pub min: i32,
    /// Largest value tried.
    pub max: i32,
    /// SPSA's final perturbation (OpenBench's `C_end`).
    pub step: i32,
}

/// SPSA's final learning rate (OpenBench's `R_end`), the same for every
/// tunable: the common choice.
pub const SPSA_LEARNING_RATE: f64 = 0.002;

impl TunableSpec {
    /// OpenBench's SPSA input line: `name, int, default, min, max, step,
    /// learning-rate`.
    pub fn openbench_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name, self.default, self.min, self.max, self.step, SPSA_LEARNING_RATE
        )
    }
}

/// A search tunable (see the module documentation).
#[derive(Debug)]
pub struct Tunable {
    spec: TunableSpec,
    #[cfg(feature = "spsa")]
    value: AtomicI32,
}

impl Tunable {
    /// A tunable with `spec`, at its default.
    pub const fn new(spec: TunableSpec) -> Tunable {
        Tunable {
            spec,
            #[cfg(feature = "spsa")]
            value: AtomicI32::new(spec.default),
        }
    }

    /// Its name, range and step.
    pub const fn spec(&self) -> &TunableSpec {
        &self.spec
    }

    /// The value: the default, a constant, in the normal build.
    #[cfg(not(feature = "spsa"))]
    #[inline(always)]
    pub const fn get(&self) -> i32 {
        self.spec.default
    }

    /// The value: as last set, in the `spsa` build.
    #[cfg(feature = "spsa")]
    #[inline(always)]
    pub fn get(&self) -> i32 {
        self.value.load(Ordering::Relaxed)
    }

    /// Sets the value when it is in range; false (nothing changes) when it
    /// is not. The normal build has nothing to set: always false.
    pub fn set(&self, value: i32) -> bool {
        let fits = (self.spec.min..=self.spec.max).contains(&value);
        #[cfg(feature = "spsa")]
        if fits {
            self.value.store(value, Ordering::Relaxed);
        }
        fits && cfg!(feature = "spsa")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: TunableSpec = TunableSpec {
        name: "X_MARGIN",
        default: 10,
        min: 0,
        max: 20,
        step: 2,
    };

    #[test]
    fn openbench_line_has_seven_fields() {
        assert_eq!(SPEC.openbench_line(), "X_MARGIN, int, 10, 0, 20, 2, 0.002");
    }

    #[test]
    fn only_the_spsa_build_sets_and_only_in_range() {
        let t = Tunable::new(SPEC);
        assert_eq!(t.get(), 10);
        assert!(!t.set(21));
        assert_eq!(t.set(15), cfg!(feature = "spsa"));
        assert_eq!(t.get(), if cfg!(feature = "spsa") { 15 } else { 10 });
    }
}
