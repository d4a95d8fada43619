//! Multi-ProbCut (Buro): a shallow search predicts a deep one. Over many positions the
//! deep value is close to a line through the shallow one, `deep ≈ a + b·shallow`, with
//! residuals of standard deviation σ. At a null-window node of depth `d`, a shallow search
//! of [`shallow_depth`]`(d)` whose value clears the line's bound by `t·σ` cuts the node
//! without the deep search: it would fail high (or low) with high probability.
//!
//! The lines are fitted from data, per game stage and depth, by
//! `cargo run --release -p gamelab-othello --example fit_probcut` (which writes
//! `probcut_table.rs`): WTHOR positions, each searched to every depth with cuts off,
//! shallow against deep value by least squares (`gamelab_learn::fit_dense`).

/// The engine's Multi-ProbCut threshold unless a spec says otherwise: cut where the
/// shallow search clears the line's bound by 1.5 σ.
pub const PROBCUT_DEFAULT: f64 = 1.5;

/// One fitted line, in discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    pub intercept: f64,
    pub slope: f64,
    pub sigma: f64,
}

/// Cuts are tried from this depth.
pub const MIN_DEPTH: u32 = 3;
/// Lines are fitted up to this depth; deeper nodes use its line.
pub const MAX_DEPTH: u32 = 12;
/// Stages for the lines, by empties: 45 and more, 30 to 44, fewer.
pub const BUCKETS: usize = 3;

#[inline]
pub fn bucket(empties: u32) -> usize {
    match empties {
        45.. => 0,
        30..45 => 1,
        _ => 2,
    }
}

/// The depth of the shallow search that predicts a search of `depth`: about half as deep,
/// of the same parity (Othello evaluations swing between odd and even depths).
#[inline]
pub fn shallow_depth(depth: u32) -> u32 {
    let half = depth / 2;
    if (half + depth).is_multiple_of(2) {
        half
    } else {
        half - 1
    }
    .max(1)
}

include!("probcut_table.rs");

/// The line for a node of `depth` with `empties` empty squares, if cuts apply there.
#[inline]
pub fn cut(depth: u32, empties: u32) -> Option<&'static Cut> {
    if depth < MIN_DEPTH {
        return None;
    }
    let d = depth.min(MAX_DEPTH);
    CUTS[bucket(empties)].get((d - MIN_DEPTH) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_keep_parity_and_stay_shallower() {
        for d in MIN_DEPTH..=30 {
            let s = shallow_depth(d);
            assert!(s >= 1 && s < d, "{d} → {s}");
            assert!(s % 2 == d % 2 || s == 1, "{d} → {s}");
        }
        assert_eq!(shallow_depth(8), 4);
        assert_eq!(shallow_depth(5), 1);
    }
}
