//! Elo ratings fitted to a whole crosstable at once (Bradley–Terry), not a running update.
//!
//! Player i scores against j with probability p = 1 / (1 + 10^((r_j − r_i)/400)); a draw
//! counts half a win. The ratings maximise the likelihood of all the scores, centred on a
//! mean of 0, and the 95% intervals come from the inverse of the Fisher information.
//! One virtual draw per pair (a weak prior) keeps ratings finite when a player never loses
//! or never wins; with thousands of games it moves ratings by a fraction of a point.

/// Points and games between each pair: `points[i][j]` is what i scored against j.
#[derive(Clone, Debug)]
pub struct Crosstable {
    pub points: Vec<Vec<f64>>,
    pub games: Vec<Vec<f64>>,
}

/// A player's fitted rating and the half-width of its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    pub interval95: f64,
}

const ELO_PER_NATURAL: f64 = 400.0 / std::f64::consts::LN_10;
const PRIOR_GAMES: f64 = 1.0;

fn expected(theta_i: f64, theta_j: f64) -> f64 {
    1.0 / (1.0 + (theta_j - theta_i).exp())
}

/// Fits ratings to the crosstable. Needs at least two players.
pub fn fit(table: &Crosstable) -> Vec<Rating> {
    let n = table.points.len();
    assert!(n >= 2, "ratings need at least two players");
    let points = |i: usize, j: usize| table.points[i][j] + PRIOR_GAMES / 2.0;
    let games = |i: usize, j: usize| table.games[i][j] + PRIOR_GAMES;
    // Player 0 is held at 0 while fitting; the others are free.
    let mut theta = vec![0.0; n];
    let mut info = vec![vec![0.0; n - 1]; n - 1];
    for _ in 0..100 {
        let mut grad = vec![0.0; n - 1];
        for row in info.iter_mut() {
            row.iter_mut().for_each(|x| *x = 0.0);
        }
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let p = expected(theta[i], theta[j]);
                let w = games(i, j) * p * (1.0 - p);
                if i > 0 {
                    grad[i - 1] += points(i, j) - games(i, j) * p;
                    info[i - 1][i - 1] += w;
                    if j > 0 {
                        info[i - 1][j - 1] -= w;
                    }
                }
            }
        }
        let step = solve(&info, &grad);
        let mut largest = 0.0f64;
        for (k, s) in step.iter().enumerate() {
            theta[k + 1] += s;
            largest = largest.max(s.abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    let covariance = invert(&info);
    // Centre on the mean rating: θ' = Cθ with C = I − 11ᵀ/n, and θ₀'s row of the
    // covariance zero.
    let mut full = vec![vec![0.0; n]; n];
    for i in 1..n {
        for j in 1..n {
            full[i][j] = covariance[i - 1][j - 1];
        }
    }
    let mean = theta.iter().sum::<f64>() / n as f64;
    let row_mean: Vec<f64> = full
        .iter()
        .map(|r| r.iter().sum::<f64>() / n as f64)
        .collect();
    let all_mean = row_mean.iter().sum::<f64>() / n as f64;
    (0..n)
        .map(|i| {
            // Var(θ_i − mean θ) = Σ_ii − 2·mean_j Σ_ij + mean_jk Σ_jk
            let var = full[i][i] - 2.0 * row_mean[i] + all_mean;
            Rating {
                elo: (theta[i] - mean) * ELO_PER_NATURAL,
                interval95: 1.96 * var.max(0.0).sqrt() * ELO_PER_NATURAL,
            }
        })
        .collect()
}

/// Solves `a · x = b` by Gaussian elimination with partial pivoting (a is small and
/// positive definite here).
fn solve(a: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &bi)| {
            let mut r = row.clone();
            r.push(bi);
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))
            .expect("non-empty");
        m.swap(col, pivot);
        let (upper, lower) = m.split_at_mut(col + 1);
        let pivot_row = &upper[col];
        for row in lower.iter_mut() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| m[row][k] * x[k]).sum();
        x[row] = (m[row][n] - s) / m[row][row];
    }
    x
}

fn invert(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len();
    let columns: Vec<Vec<f64>> = (0..n)
        .map(|c| {
            let e: Vec<f64> = (0..n).map(|r| f64::from(u8::from(r == c))).collect();
            solve(a, &e)
        })
        .collect();
    (0..n)
        .map(|r| (0..n).map(|c| columns[c][r]).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(points: Vec<Vec<f64>>, games: f64) -> Crosstable {
        let n = points.len();
        let g = (0..n)
            .map(|i| (0..n).map(|j| if i == j { 0.0 } else { games }).collect())
            .collect();
        Crosstable { points, games: g }
    }

    #[test]
    fn equal_players_are_rated_equally() {
        let r = fit(&table(vec![vec![0.0, 500.0], vec![500.0, 0.0]], 1000.0));
        assert!(r[0].elo.abs() < 1e-9 && r[1].elo.abs() < 1e-9);
        assert!((r[0].interval95 - r[1].interval95).abs() < 1e-9);
    }

    #[test]
    fn a_76_percent_score_is_about_200_elo() {
        // p = 1/(1+10^(-200/400)) = 0.7597
        let r = fit(&table(vec![vec![0.0, 7597.0], vec![2403.0, 0.0]], 10_000.0));
        let gap = r[0].elo - r[1].elo;
        assert!((gap - 200.0).abs() < 1.0, "{gap}");
        assert!((r[0].elo + r[1].elo).abs() < 1e-9, "centred on 0");
        // The score's standard error, √(0.76·0.24/10,000) ≈ 0.00427, times
        // dElo/dp = 400/(ln 10 · p(1−p)) ≈ 952 gives 4.07 Elo on the gap; centred, each
        // player carries half: ±1.96 · 2.03 ≈ 3.99.
        assert!((r[0].interval95 - 3.99).abs() < 0.05, "{}", r[0].interval95);
    }

    #[test]
    fn a_player_who_never_loses_stays_finite() {
        let r = fit(&table(
            vec![
                vec![0.0, 100.0, 100.0],
                vec![0.0, 0.0, 50.0],
                vec![0.0, 50.0, 0.0],
            ],
            100.0,
        ));
        assert!(
            r.iter()
                .all(|x| x.elo.is_finite() && x.interval95.is_finite())
        );
        assert!(r[0].elo > r[1].elo + 300.0);
        assert!((r[1].elo - r[2].elo).abs() < 1e-6);
    }

    #[test]
    fn ratings_are_transitive() {
        // a beats b 64%, b beats c 64%, a beats c 76%: roughly 100 Elo steps
        let r = fit(&table(
            vec![
                vec![0.0, 6400.0, 7600.0],
                vec![3600.0, 0.0, 6400.0],
                vec![2400.0, 3600.0, 0.0],
            ],
            10_000.0,
        ));
        assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo);
        assert!(((r[0].elo - r[1].elo) - (r[1].elo - r[2].elo)).abs() < 5.0);
    }
}
