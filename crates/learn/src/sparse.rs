//! Ridge least squares over millions of sparse rows, by conjugate gradients on the normal
//! equations: min Σᵢ (b + Σ_{f∈rowᵢ} w_f − yᵢ)² + λ Σ_f w_f². Each row is a list of
//! feature indices whose value is 1 (an index listed twice counts 2), as pattern
//! evaluations have them; the intercept `b` is not penalised.
//!
//! One iteration reads every row twice (A·v, then Aᵀ·r), on all cores with rayon, summing
//! in a fixed order so the fit is the same on any number of threads; nothing the size of
//! AᵀA is ever formed, so a few hundred thousand weights fit in memory.
//!
//! The gradients are preconditioned by AᵀA's diagonal (Jacobi). A pattern configuration
//! seen in a million positions and one seen in ten have diagonals five orders of magnitude
//! apart; plain conjugate gradients fit the common weights first and reach the rare ones
//! only after hundreds of iterations, while the scaled problem converges in tens.
//!
//! Rows made by `y = 2 + 3·f0 − f1 + ½·f2`, where `fi` counts the times a row lists
//! feature i, fitted back:
//!
//! ```
//! use gamelab_learn::{CgOptions, SparseRows, fit_sparse};
//!
//! let truth = |features: &[u32]| {
//!     2.0 + features.iter().map(|&f| [3.0, -1.0, 0.5][f as usize]).sum::<f32>()
//! };
//! let mut rows = SparseRows::new();
//! for features in [&[][..], &[0], &[1], &[2], &[0, 1], &[0, 2], &[1, 2], &[0, 0]] {
//!     rows.push(features, truth(features));
//! }
//! assert_eq!((rows.len(), rows.row(7), rows.target(7)), (8, &[0, 0][..], 8.0));
//! let options = CgOptions { ridge: 1e-6, iterations: 50, tolerance: 1e-12 };
//! let fit = fit_sparse(&rows, None, 3, options, &|_iteration| {})?;
//! assert!((fit.intercept - 2.0).abs() < 1e-3);
//! for (weight, want) in fit.weights.iter().zip([3.0, -1.0, 0.5]) {
//!     assert!((weight - want).abs() < 1e-3, "{weight} for {want}");
//! }
//! assert!((fit.predict(&[0, 2]) - 5.5).abs() < 1e-3 && fit.rmse < 1e-3);
//!
//! // What cannot be fitted says so.
//! assert!(fit_sparse(&rows, Some(&[]), 3, options, &|_| {}).is_err(), "no rows");
//! assert!(fit_sparse(&rows, None, 2, options, &|_| {}).is_err(), "feature 2 of 2");
//! let no_ridge = CgOptions { ridge: f64::NAN, ..options };
//! assert!(fit_sparse(&rows, None, 3, no_ridge, &|_| {}).is_err());
//! # Ok::<(), gamelab_learn::FitError>(())
//! ```

use rayon::prelude::*;

use crate::fit::FitError;

/// Rows of sparse 0/1 features with a target each, stored flat (CSR without values).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SparseRows {
    offsets: Vec<usize>,
    features: Vec<u32>,
    targets: Vec<f32>,
}

impl SparseRows {
    /// No rows.
    pub fn new() -> Self {
        SparseRows {
            offsets: vec![0],
            features: Vec::new(),
            targets: Vec::new(),
        }
    }

    /// Adds a row: the indices of its features that are 1, and its target.
    pub fn push(&mut self, features: &[u32], target: f32) {
        self.features.extend_from_slice(features);
        self.offsets.push(self.features.len());
        self.targets.push(target);
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Row `i`'s feature indices.
    pub fn row(&self, i: usize) -> &[u32] {
        &self.features[self.offsets[i]..self.offsets[i + 1]]
    }

    /// Row `i`'s target.
    pub fn target(&self, i: usize) -> f32 {
        self.targets[i]
    }
}

/// How to fit.
#[derive(Clone, Copy, Debug)]
pub struct CgOptions {
    /// λ, the penalty on the squared weights (not on the intercept).
    pub ridge: f64,
    /// At most this many iterations.
    pub iterations: usize,
    /// Stop once the normal equations' residual falls below this fraction of Aᵀy's norm.
    pub tolerance: f64,
}

/// A fitted sparse linear model.
#[derive(Clone, Debug, PartialEq)]
pub struct SparseFit {
    pub intercept: f64,
    pub weights: Vec<f64>,
    /// Iterations run.
    pub iterations: usize,
    /// Root-mean-square error on the rows fitted.
    pub rmse: f64,
}

impl SparseFit {
    /// The model's value for a row of these feature indices.
    pub fn predict(&self, features: &[u32]) -> f64 {
        self.intercept
            + features
                .iter()
                .map(|&f| self.weights[f as usize])
                .sum::<f64>()
    }
}

/// Fits `n` feature weights and an intercept to the rows `chosen` of `rows` (all rows when
/// `None`). `progress` hears after every iteration.
pub fn fit_sparse(
    rows: &SparseRows,
    chosen: Option<&[u32]>,
    n: usize,
    options: CgOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<SparseFit, FitError> {
    let all: Vec<u32>;
    let chosen = match chosen {
        Some(c) => c,
        None => {
            all = (0..rows.len() as u32).collect();
            &all
        }
    };
    if chosen.is_empty() {
        return Err(FitError::Empty);
    }
    if !(options.ridge > 0.0 && options.ridge.is_finite()) {
        return Err(FitError::Ridge(options.ridge));
    }
    for &i in chosen {
        if let Some(&f) = rows.row(i as usize).iter().find(|&&f| f as usize >= n) {
            return Err(FitError::FeatureOutOfRange(f as usize, n));
        }
        if !rows.target(i as usize).is_finite() {
            return Err(FitError::NotFinite);
        }
    }
    // Unknowns: the n weights, then the intercept.
    let dim = n + 1;
    let forward = |v: &[f64]| -> Vec<f64> {
        chosen
            .par_iter()
            .map(|&i| {
                v[n] + rows
                    .row(i as usize)
                    .iter()
                    .map(|&f| v[f as usize])
                    .sum::<f64>()
            })
            .collect()
    };
    let backward = |r: &[f64]| -> Vec<f64> {
        sum_in_fixed_blocks(chosen, dim, |start, block, acc| {
            for (&i, &ri) in block.iter().zip(&r[start..start + block.len()]) {
                for &f in rows.row(i as usize) {
                    acc[f as usize] += ri;
                }
                acc[n] += ri;
            }
        })
    };
    // Λ: λ on the weights and a token amount on the intercept.
    let penalty = |f: usize| if f < n { options.ridge } else { 1e-9 };
    // (AᵀA + Λ)·v.
    let normal = |v: &[f64]| -> Vec<f64> {
        let mut out = backward(&forward(v));
        for (f, (o, x)) in out.iter_mut().zip(v).enumerate() {
            *o += penalty(f) * x;
        }
        out
    };
    let y: Vec<f64> = chosen
        .iter()
        .map(|&i| f64::from(rows.target(i as usize)))
        .collect();
    let rhs = backward(&y);
    let inverse_diagonal: Vec<f64> = normal_diagonal(rows, chosen, n)
        .iter()
        .enumerate()
        .map(|(f, d)| 1.0 / (d + penalty(f)))
        .collect();
    let precondition = |r: &[f64]| -> Vec<f64> {
        r.iter()
            .zip(&inverse_diagonal)
            .map(|(x, m)| x * m)
            .collect()
    };
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let rhs_norm = dot(&rhs, &rhs).sqrt().max(f64::MIN_POSITIVE);
    let mut w = vec![0.0; dim];
    let mut r = rhs.clone();
    let mut z = precondition(&r);
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    let mut iterations = 0;
    while iterations < options.iterations && dot(&r, &r).sqrt() > options.tolerance * rhs_norm {
        let ap = normal(&p);
        let alpha = rz / dot(&p, &ap);
        w.iter_mut().zip(&p).for_each(|(x, d)| *x += alpha * d);
        r.iter_mut().zip(&ap).for_each(|(x, d)| *x -= alpha * d);
        z = precondition(&r);
        let rz_next = dot(&r, &z);
        let beta = rz_next / rz;
        p.iter_mut().zip(&z).for_each(|(x, d)| *x = d + beta * *x);
        rz = rz_next;
        iterations += 1;
        progress(iterations);
    }
    let predictions = forward(&w);
    let sse: f64 = predictions
        .iter()
        .zip(&y)
        .map(|(p, t)| (p - t).powi(2))
        .sum();
    let fit = SparseFit {
        intercept: w[n],
        weights: w[..n].to_vec(),
        iterations,
        rmse: (sse / y.len() as f64).sqrt(),
    };
    if !fit.rmse.is_finite() || fit.weights.iter().any(|w| !w.is_finite()) {
        return Err(FitError::NotFinite);
    }
    Ok(fit)
}

/// The diagonal of AᵀA over the rows `chosen`, the intercept last: for each feature, the sum
/// over rows of the square of how many times the row lists it.
fn normal_diagonal(rows: &SparseRows, chosen: &[u32], n: usize) -> Vec<f64> {
    sum_in_fixed_blocks(chosen, n + 1, |_, block, acc| {
        let mut sorted = Vec::new();
        for &i in block {
            sorted.clear();
            sorted.extend_from_slice(rows.row(i as usize));
            sorted.sort_unstable();
            for run in sorted.chunk_by(|a, b| a == b) {
                acc[run[0] as usize] += (run.len() * run.len()) as f64;
            }
            acc[n] += 1.0;
        }
    })
}

/// `dim` sums over the rows `chosen`, cut into fixed blocks: `add(start, block, acc)` sums
/// one block (whose first row is `chosen[start]`) into its own zeroed `acc`, on any
/// thread, and the blocks' sums are then added in order, so the result is the same bits
/// whatever the number of threads.
fn sum_in_fixed_blocks(
    chosen: &[u32],
    dim: usize,
    add: impl Fn(usize, &[u32], &mut [f64]) + Sync,
) -> Vec<f64> {
    const BLOCK: usize = 1 << 16;
    let partial: Vec<Vec<f64>> = chosen
        .par_chunks(BLOCK)
        .enumerate()
        .map(|(k, block)| {
            let mut acc = vec![0.0; dim];
            add(k * BLOCK, block, &mut acc);
            acc
        })
        .collect();
    let mut sum = vec![0.0; dim];
    for block in &partial {
        sum.iter_mut().zip(block).for_each(|(x, y)| *x += y);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> CgOptions {
        CgOptions {
            ridge: 1e-6,
            iterations: 200,
            tolerance: 1e-10,
        }
    }

    #[test]
    fn recovers_a_sparse_linear_rule() {
        // y = 2 + w[f] summed over the row's features, for random rows of 3 of 20 features.
        let truth: Vec<f64> = (0..20).map(|f| (f as f64 * 0.7).sin() * 3.0).collect();
        let mut rows = SparseRows::new();
        let mut state = 12345u64;
        for _ in 0..2000 {
            let mut row = Vec::new();
            for _ in 0..3 {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                row.push(((state >> 33) % 20) as u32);
            }
            let y = 2.0 + row.iter().map(|&f| truth[f as usize]).sum::<f64>();
            rows.push(&row, y as f32);
        }
        let fit = fit_sparse(&rows, None, 20, options(), &|_| {}).unwrap();
        assert!(fit.rmse < 1e-4, "{fit:?}");
        // The weights are determined up to a shift shared with the intercept.
        let shift = fit.weights[0] - truth[0];
        for (w, t) in fit.weights.iter().zip(&truth) {
            assert!((w - t - shift).abs() < 1e-3, "{w} vs {t}");
        }
        assert!((fit.intercept + 3.0 * shift - 2.0).abs() < 1e-2, "{fit:?}");
    }

    #[test]
    fn the_fit_is_the_same_on_any_number_of_threads() {
        let mut rows = SparseRows::new();
        let mut state = 99u64;
        for _ in 0..150_000 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
            let row = [(state >> 40) as u32 % 500, (state >> 20) as u32 % 500];
            rows.push(&row, ((state >> 50) % 17) as f32 - 8.0);
        }
        let fit_on = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| {
                    fit_sparse(
                        &rows,
                        None,
                        500,
                        CgOptions {
                            ridge: 1.0,
                            iterations: 20,
                            tolerance: 0.0,
                        },
                        &|_| {},
                    )
                    .unwrap()
                })
        };
        assert_eq!(fit_on(1), fit_on(3));
    }

    #[test]
    fn a_subset_and_repeated_features() {
        let mut rows = SparseRows::new();
        rows.push(&[0, 0], 4.0); // feature 0 twice
        rows.push(&[1], 1.0);
        rows.push(&[1], 100.0); // left out below
        let fit = fit_sparse(&rows, Some(&[0, 1]), 2, options(), &|_| {}).unwrap();
        assert!((fit.predict(&[0, 0]) - 4.0).abs() < 1e-3, "{fit:?}");
        assert!((fit.predict(&[1]) - 1.0).abs() < 1e-3, "{fit:?}");
    }

    #[test]
    fn features_seen_thousands_of_times_more_often_than_others_still_fit_in_few_iterations() {
        // Each row has one feature of 0..4 (seen thousands of times), one of 4..54 (hundreds)
        // and one of 54..2054 (1 to 5 times): AᵀA's diagonal spans three orders of magnitude.
        let n = 2054;
        let truth: Vec<f64> = (0..n).map(|f| (f as f64 * 0.37).cos() * 5.0).collect();
        let mut rows = SparseRows::new();
        let mut state = 7u64;
        let mut next = |m: u32| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u32 % m
        };
        for rare in 54..n as u32 {
            for _ in 0..1 + rare % 5 {
                let row = [next(4), 4 + next(50), rare];
                let y: f64 = row.iter().map(|&f| truth[f as usize]).sum();
                rows.push(&row, y as f32);
            }
        }
        let fit = fit_sparse(
            &rows,
            None,
            n,
            CgOptions {
                ridge: 1e-3,
                iterations: 1000,
                tolerance: 1e-6,
            },
            &|_| {},
        )
        .unwrap();
        // Unscaled conjugate gradients need 45 iterations here; the scaled ones 19.
        assert!(fit.iterations <= 25, "{} iterations", fit.iterations);
        assert!(fit.rmse < 1e-2, "rmse {}", fit.rmse);
    }

    #[test]
    fn bad_input_is_an_error() {
        let mut rows = SparseRows::new();
        assert_eq!(
            fit_sparse(&rows, None, 3, options(), &|_| {}),
            Err(FitError::Empty)
        );
        rows.push(&[7], 1.0);
        assert_eq!(
            fit_sparse(&rows, None, 3, options(), &|_| {}),
            Err(FitError::FeatureOutOfRange(7, 3))
        );
        let mut rows = SparseRows::new();
        rows.push(&[0], f32::NAN);
        assert_eq!(
            fit_sparse(&rows, None, 3, options(), &|_| {}),
            Err(FitError::NotFinite)
        );
    }
}
