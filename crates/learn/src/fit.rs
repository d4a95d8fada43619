//! Least squares with intercept on one-hot features.
//!
//! Article 002's features are collinear by construction: each line's 27 indicators add up to 1,
//! the intercept's column. We add a small ridge term λ·‖w‖² on the weights (not the
//! intercept), which makes the normal equations positive definite and, for small λ, gives
//! (nearly) the minimum-norm solution among the exact least-squares fits — the one the
//! article's scikit-learn would find. With at most a few hundred features, the normal
//! equations XᵀX + λI are solved by Cholesky (faer).

use faer::linalg::solvers::Solve;
use faer::{Mat, Side};
use thiserror::Error;

use crate::dataset::Row;

/// The ridge term used unless told otherwise.
pub const DEFAULT_RIDGE: f64 = 1e-3;

/// A fitted linear model.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub intercept: f64,
    pub weights: Vec<f64>,
    /// Root-mean-square error on the training rows.
    pub rmse: f64,
}

impl Fitted {
    pub fn predict(&self, active: &[usize]) -> f64 {
        self.intercept + active.iter().map(|&f| self.weights[f]).sum::<f64>()
    }
}

#[derive(Debug, Error, PartialEq)]
pub enum FitError {
    #[error("the dataset has no examples")]
    Empty,
    #[error("a feature index {0} is outside the {1} features")]
    FeatureOutOfRange(usize, usize),
    #[error("the ridge term must be positive, got {0}")]
    Ridge(f64),
    #[error("the normal equations are not positive definite; increase the ridge term")]
    NotPositiveDefinite,
    #[error(
        "the fit overflowed (a weight or the error is not a finite number); targets must stay well inside ±1e150"
    )]
    NotFinite,
}

/// Fits `features` weights and an intercept to the dataset by ridge-regularised least
/// squares.
///
/// ```
/// use gamelab_learn::{FitError, Row, fit};
///
/// // Feature 0 adds 2 to the target, feature 1 takes 1 away; the intercept is 0.5.
/// let row = |active: Vec<usize>| Row {
///     target: 0.5 + active.iter().map(|&f| [2.0, -1.0][f]).sum::<f64>(),
///     active,
/// };
/// let rows = [row(vec![]), row(vec![0]), row(vec![1]), row(vec![0, 1])];
/// let fitted = fit(&rows, 2, 1e-9).unwrap();
/// assert!((fitted.predict(&[0]) - 2.5).abs() < 1e-6);
/// assert!(fitted.rmse < 1e-6);
/// assert_eq!(fit(&rows, 2, 0.0).unwrap_err(), FitError::Ridge(0.0));
/// ```
pub fn fit(rows: &[Row], features: usize, ridge: f64) -> Result<Fitted, FitError> {
    if rows.is_empty() {
        return Err(FitError::Empty);
    }
    if !(ridge > 0.0 && ridge.is_finite()) {
        return Err(FitError::Ridge(ridge));
    }
    // Column 0 is the intercept, column 1 + f feature f.
    let n = features + 1;
    let mut a = Mat::<f64>::zeros(n, n);
    let mut b = Mat::<f64>::zeros(n, 1);
    for row in rows {
        if let Some(&f) = row.active.iter().find(|&&f| f >= features) {
            return Err(FitError::FeatureOutOfRange(f, features));
        }
        let columns: Vec<usize> = std::iter::once(0)
            .chain(row.active.iter().map(|f| f + 1))
            .collect();
        for &i in &columns {
            b[(i, 0)] += row.target;
            for &j in &columns {
                a[(i, j)] += 1.0;
            }
        }
    }
    for i in 1..n {
        a[(i, i)] += ridge;
    }
    let llt = a
        .llt(Side::Lower)
        .map_err(|_| FitError::NotPositiveDefinite)?;
    let x = llt.solve(&b);
    let fitted = Fitted {
        intercept: x[(0, 0)],
        weights: (1..n).map(|i| x[(i, 0)]).collect(),
        rmse: 0.0,
    };
    let sse: f64 = rows
        .iter()
        .map(|r| (fitted.predict(&r.active) - r.target).powi(2))
        .sum();
    let rmse = (sse / rows.len() as f64).sqrt();
    if !rmse.is_finite()
        || !fitted.intercept.is_finite()
        || fitted.weights.iter().any(|w| !w.is_finite())
    {
        return Err(FitError::NotFinite);
    }
    Ok(Fitted { rmse, ..fitted })
}

/// Least squares with intercept on a few dense features: `x[i]` are row i's `k` values.
/// Returns the intercept and the `k` weights. For baselines and small models; rows of
/// sparse one-hot features go to [`crate::fit_sparse`].
pub fn fit_dense(x: &[&[f64]], y: &[f64], ridge: f64) -> Result<(f64, Vec<f64>), FitError> {
    if x.is_empty() {
        return Err(FitError::Empty);
    }
    let k = x[0].len();
    let n = k + 1;
    let mut a = Mat::<f64>::zeros(n, n);
    let mut b = Mat::<f64>::zeros(n, 1);
    for (row, &t) in x.iter().zip(y) {
        let v: Vec<f64> = std::iter::once(1.0).chain(row.iter().copied()).collect();
        for i in 0..n {
            b[(i, 0)] += v[i] * t;
            for j in 0..n {
                a[(i, j)] += v[i] * v[j];
            }
        }
    }
    for i in 1..n {
        a[(i, i)] += ridge;
    }
    let llt = a
        .llt(Side::Lower)
        .map_err(|_| FitError::NotPositiveDefinite)?;
    let w = llt.solve(&b);
    let out = (w[(0, 0)], (1..n).map(|i| w[(i, 0)]).collect::<Vec<_>>());
    if !out.0.is_finite() || out.1.iter().any(|w| !w.is_finite()) {
        return Err(FitError::NotFinite);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(rows: Vec<Row>) -> Vec<Row> {
        rows
    }

    fn row(target: f64, active: &[usize]) -> Row {
        Row {
            target,
            active: active.to_vec(),
        }
    }

    #[test]
    fn recovers_an_exact_linear_rule() {
        // y = 1 + 2·x0 − 3·x1 + 0.5·x2 on every 0/1 combination
        let mut rows = Vec::new();
        for m in 0..8usize {
            let active: Vec<usize> = (0..3).filter(|f| m & 1 << f != 0).collect();
            let y = 1.0
                + [2.0, -3.0, 0.5]
                    .iter()
                    .enumerate()
                    .filter(|(f, _)| m & 1 << f != 0)
                    .map(|(_, w)| w)
                    .sum::<f64>();
            rows.push(row(y, &active));
        }
        let f = fit(&data(rows), 3, 1e-9).unwrap();
        assert!((f.intercept - 1.0).abs() < 1e-6, "{f:?}");
        for (w, e) in f.weights.iter().zip([2.0, -3.0, 0.5]) {
            assert!((w - e).abs() < 1e-6, "{f:?}");
        }
        assert!(f.rmse < 1e-6);
    }

    #[test]
    fn collinear_one_hot_groups_are_handled() {
        // two one-hot features that always sum to 1, like a line's patterns
        let rows = vec![row(4.0, &[0]), row(4.0, &[0]), row(-2.0, &[1])];
        let f = fit(&data(rows), 2, 1e-6).unwrap();
        assert!((f.predict(&[0]) - 4.0).abs() < 1e-4, "{f:?}");
        assert!((f.predict(&[1]) + 2.0).abs() < 1e-4, "{f:?}");
        // the minimum-norm split puts the intercept between them
        assert!((f.weights[0] + f.weights[1]).abs() < 1e-3, "{f:?}");
    }

    #[test]
    fn errors() {
        assert_eq!(fit(&data(vec![]), 3, 1e-3), Err(FitError::Empty));
        let d = data(vec![row(1.0, &[5])]);
        assert_eq!(fit(&d, 3, 1e-3), Err(FitError::FeatureOutOfRange(5, 3)));
        assert_eq!(fit(&d, 6, 0.0), Err(FitError::Ridge(0.0)));
        let (b, w) = fit_dense(&[&[1.0], &[2.0], &[3.0]], &[3.0, 5.0, 7.0], 1e-9).unwrap();
        assert!(
            (b - 1.0).abs() < 1e-6 && (w[0] - 2.0).abs() < 1e-6,
            "{b} {w:?}"
        );
        let huge = data(vec![row(1e308, &[0]), row(-1e308, &[1])]);
        assert_eq!(fit(&huge, 2, 1e-3), Err(FitError::NotFinite));
    }
}
