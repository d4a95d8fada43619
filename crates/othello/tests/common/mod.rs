//! What several test files share.

use gamelab_othello::learned::{PatternModel, STAGES};
use gamelab_othello::patterns::{TABLE_TOTAL, offsets};

/// A model whose weights are pseudo-random multiples of 0.01 disc within ±`amplitude`,
/// drawn from `seed`; the whole-board terms' weights are zero unless `terms`. Every stage's
/// intercept is `intercept`.
pub fn noise_model(seed: u64, amplitude: u32, intercept: f64, terms: bool) -> PatternModel {
    let mut state = seed;
    let weights: Vec<Vec<f64>> = (0..STAGES)
        .map(|_| {
            (0..offsets().1)
                .map(|i| {
                    state = gamelab_core::mix64(state);
                    let w = (state % u64::from(200 * amplitude + 1)) as f64 / 100.0;
                    if terms || i < TABLE_TOTAL {
                        w - f64::from(amplitude)
                    } else {
                        0.0
                    }
                })
                .collect()
        })
        .collect();
    PatternModel::from_discs(&[intercept; STAGES], &weights)
}
