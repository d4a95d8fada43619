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

/// Positions in [`fitted_values_digest`].
const DIGEST_POSITIONS: u64 = 32;
/// Depths 1 to this of each position go into [`fitted_values_digest`].
const DIGEST_DEPTH: u32 = 4;

/// A digest of what the lines are fitted from, the search's values without cuts: depths 1
/// to `DIGEST_DEPTH` of positions from random games, 14 to 50 empties. `fit_probcut`
/// stores it beside the lines as [`FITTED_FOR`]; when the evaluation or the search changes
/// its values, the digest changes and the lines are stale (they once went stale unnoticed:
/// refitted, they scored 52.65 % against the stale ones at 0.1 s a move).
pub fn fitted_values_digest(model: &std::sync::Arc<crate::engine::learned::PatternModel>) -> u64 {
    use crate::engine::search::{Limits, Searcher};
    let mut digest = 0u64;
    for game in 0..DIGEST_POSITIONS {
        let empties = 14 + (game * 36 / DIGEST_POSITIONS) as u32;
        let pos = crate::rules::position::played_at_random(0x0b1e_c7ed, game, empties);
        for depth in 1..=DIGEST_DEPTH {
            let mut searcher = Searcher::new(model.clone());
            searcher.set_threads(1);
            let score = searcher.search(&pos, Limits::to_depth(depth)).score;
            digest = gamelab_core::mix64(digest ^ score.to_bits());
        }
    }
    digest
}

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

    #[test]
    fn the_lines_were_fitted_for_the_search_as_it_is() {
        let digest = fitted_values_digest(&crate::engine::learned::shipped());
        assert_eq!(
            digest, FITTED_FOR,
            "the search's values (digest {digest:#018x}) are no longer those the Multi-ProbCut \
             lines were fitted for ({FITTED_FOR:#018x}); refit them: cargo run --release -p \
             gamelab-othello --example fit_probcut"
        );
    }
}
