//! The search tunables by name, for the `spsa` build's UCI options and
//! `shears spsa`: finding one, and setting one with whatever is computed
//! from it (the LMR table). In the normal build nothing can be set.

#[cfg(feature = "spsa")]
use super::lmr;
use super::tunable::{Tunable, TunableSpec};
use super::values::TUNABLES;
#[cfg(feature = "spsa")]
use super::values::{LMR_BASE, LMR_DIVISOR};

/// Whether this build can change tunables at run time (the `spsa`
/// feature).
pub const TUNABLE_AT_RUN_TIME: bool = cfg!(feature = "spsa");

/// The tunable named `name` (case-insensitive).
pub fn find_tunable(name: &str) -> Option<&'static Tunable> {
    let name = name.trim();
    TUNABLES
        .iter()
        .copied()
        .find(|t| t.spec().name.eq_ignore_ascii_case(name))
}

/// The specs of every tunable, in `values.rs` order.
pub fn tunable_specs() -> impl Iterator<Item = &'static TunableSpec> {
    TUNABLES.iter().map(|t| t.spec())
}

/// Sets the tunable named `name` to `value` for every search that starts
/// afterwards. False, changing nothing, for an unknown name, a value out of
/// range, or in the normal build (where tunables are constants).
pub fn set_tunable(name: &str, value: i32) -> bool {
    let Some(tunable) = find_tunable(name) else {
        return false;
    };
    // The LMR table is computed from two tunables: refill it when one of
    // them changes.
    #[cfg(feature = "spsa")]
    let refresh = tunable.get() != value
        && (std::ptr::eq(tunable, &LMR_BASE) || std::ptr::eq(tunable, &LMR_DIVISOR));
    if !tunable.set(value) {
        return false;
    }
    #[cfg(feature = "spsa")]
    if refresh {
        lmr::refresh();
    }
    true
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn every_tunable_has_a_sound_range_and_a_unique_name() {
        let mut names = BTreeSet::new();
        for spec in tunable_specs() {
            assert!(
                spec.min <= spec.default && spec.default <= spec.max,
                "{spec:?}"
            );
            assert!(
                spec.step > 0 && spec.step <= spec.max - spec.min,
                "{spec:?}"
            );
            assert!(names.insert(spec.name.to_ascii_lowercase()), "{spec:?}");
        }
        assert!(names.len() >= 30);
    }

    #[test]
    fn unknown_names_and_out_of_range_values_are_refused() {
        assert!(!set_tunable("NO_SUCH_TUNABLE", 1));
        let rfp = find_tunable("rfp_margin").unwrap();
        assert!(!set_tunable("RFP_MARGIN", rfp.spec().max + 1));
        assert_eq!(rfp.get(), rfp.spec().default);
    }
}
