//! What an analysis's values mean to the person reading them: each AI's units on a fixed
//! scale ([`ScoreScale`]), proven results told apart from estimates, and which moves are
//! best and what the others cost ([`rank_moves`]).
//!
//! Front ends show these and decide nothing: an evaluation bar filled to a share fixed by
//! the AI's units rather than by the largest value seen, a label that says "win in 2" for
//! a proof and "+0.20" for an estimate, a review that never calls a proven-optimal move a
//! mistake.
//!
//! ```
//! use gamelab_core::valuation::{ScoreScale, rank_moves};
//! use gamelab_core::DeepScore;
//!
//! let value = DeepScore::valued;
//! // An estimate of +0.6 against a proven win: the proof is the best move.
//! let scores = [value('a', 0.6, false), value('b', 1.0, true), value('c', -1.0, true)];
//! let ranks = rank_moves(&scores);
//! assert!(ranks[1].best && !ranks[0].best);
//! assert!(ranks[2].loss > ranks[0].loss);
//! assert_eq!(ScoreScale::WinRate.label(1.0, true), "win");
//! assert_eq!(ScoreScale::WinRate.share(0.6, false), Some(0.6));
//! ```

use crate::DeepScore;

/// An AI's units for the values it gives moves (always for the side to move, 0 even).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScoreScale {
    /// Units with no fixed bound (the articles' rule scores): a bar can only be scaled to
    /// the largest value seen.
    Unscaled,
    /// A mean result from −1 (lost) to +1 (won); a proven result is exactly −1, 0 or +1.
    WinRate,
    /// The final disc difference, from −64 to +64, estimated or exact.
    Discs,
    /// Points of an evaluation, `full` at which it is taken for a sure win; from
    /// `proven_from` on a proven result (a win worth `proven_from` and more).
    Points { full: f64, proven_from: f64 },
    /// A solved game's values: a win in `n` of the mover's moves (this one counted) is
    /// `DISTANCE_WIN - n`, a loss at the opponent's `n`-th move the negation, a draw 0.
    Distance,
}

/// A win in one move on the [`ScoreScale::Distance`] scale; a win in `n` is this less `n`.
pub const DISTANCE_WIN: f64 = 100.0;

impl ScoreScale {
    /// The value as a share of the evaluation bar, from −1 (lost) to +1 (won), or `None`
    /// when the units have no fixed bound. A proven win or loss fills it.
    pub fn share(self, score: f64, exact: bool) -> Option<f64> {
        if !score.is_finite() {
            return None;
        }
        let share = match self {
            ScoreScale::Unscaled => return None,
            ScoreScale::WinRate => score,
            ScoreScale::Discs => score / 64.0,
            ScoreScale::Points { full, proven_from } => {
                if exact || score.abs() >= proven_from {
                    sign(score)
                } else {
                    score / full
                }
            }
            ScoreScale::Distance => sign(score),
        };
        Some(share.clamp(-1.0, 1.0))
    }

    /// The value as a short label for a board square: `+0.21`, `+3.6` discs, `win`, `W2`
    /// (a win in two moves), `+4` (an exact disc count: whole, where estimates below ten
    /// have a decimal).
    pub fn label(self, score: f64, exact: bool) -> String {
        match self.result(score, exact) {
            Some(result) => match self {
                ScoreScale::Distance => match self.moves_to_end(score) {
                    Some(n) if score > 0.0 => format!("W{n}"),
                    Some(n) => format!("L{n}"),
                    None => "D".to_string(),
                },
                ScoreScale::Discs => signed(score, 0),
                _ => result.to_string(),
            },
            // One decimal for discs: a label fits a phone's 40 px square.
            None if self == ScoreScale::Discs => {
                signed(score, if score.abs() >= 10.0 { 0 } else { 1 })
            }
            None => signed(score, if score.abs() >= 10.0 { 0 } else { 2 }),
        }
    }

    /// The value in words: `win in 2 moves`, `draw`, `+4 discs (exact)`, `+0.21 (estimate)`.
    pub fn text(self, score: f64, exact: bool) -> String {
        let estimate = |digits| format!("{} (estimate)", signed(score, digits));
        match (self, self.result(score, exact)) {
            (ScoreScale::Distance, Some(result)) => match self.moves_to_end(score) {
                Some(1) if score > 0.0 => "win at once".to_string(),
                Some(n) if score > 0.0 => format!("win in {n} moves"),
                Some(1) => "loss at the opponent's next move".to_string(),
                Some(n) => format!("loss in {n} of the opponent's moves"),
                None => result.to_string(),
            },
            (ScoreScale::Discs, Some(_)) => format!("{} discs (exact)", signed(score, 0)),
            (ScoreScale::Discs, None) => format!("{} discs (estimate)", signed(score, 1)),
            (_, Some(result)) => result.to_string(),
            (ScoreScale::WinRate, None) => estimate(2),
            (_, None) => estimate(if score.abs() >= 10.0 { 0 } else { 2 }),
        }
    }

    /// The proven result a value stands for, `None` for an estimate.
    pub fn result(self, score: f64, exact: bool) -> Option<&'static str> {
        let proven = match self {
            ScoreScale::Points { proven_from, .. } => exact || score.abs() >= proven_from,
            _ => exact,
        };
        proven.then_some(if score > 0.0 {
            "win"
        } else if score < 0.0 {
            "loss"
        } else {
            "draw"
        })
    }

    /// On the [`ScoreScale::Distance`] scale, the mover's moves to the end (a win) or the
    /// opponent's (a loss); `None` for a draw or another scale.
    fn moves_to_end(self, score: f64) -> Option<u32> {
        (self == ScoreScale::Distance && score != 0.0)
            .then(|| (DISTANCE_WIN - score.abs()).round().max(1.0) as u32)
    }

    /// The scale in words, for the page that draws the bar.
    pub fn describe(self) -> String {
        match self {
            ScoreScale::Unscaled => {
                "in the AI's own points, which have no fixed bound: the bar is scaled to the largest value seen".to_string()
            }
            ScoreScale::WinRate => {
                "as a mean result from −1 (lost) to +1 (won); proven results are marked".to_string()
            }
            ScoreScale::Discs => "in final discs ahead, the bar full at ±64".to_string(),
            ScoreScale::Points { full, proven_from } => format!(
                "in evaluation points, the bar full at ±{full}; from ±{proven_from} on a proven result"
            ),
            ScoreScale::Distance => {
                "exactly, from the solved game: win, draw or loss and how many moves it takes"
                    .to_string()
            }
        }
    }

    /// A word for the units, as the API names them.
    pub fn name(self) -> &'static str {
        match self {
            ScoreScale::Unscaled => "points",
            ScoreScale::WinRate => "win-rate",
            ScoreScale::Discs => "discs",
            ScoreScale::Points { .. } => "evaluation",
            ScoreScale::Distance => "solved",
        }
    }

    /// A value on this scale for a result `n` of the mover's moves away (a win for `n >
    /// 0`, a loss at the opponent's `-n`-th move for `n < 0`, a draw for 0), for
    /// [`ScoreScale::Distance`].
    pub fn distance_value(n: i32) -> f64 {
        match n {
            0 => 0.0,
            n if n > 0 => DISTANCE_WIN - f64::from(n),
            n => -(DISTANCE_WIN + f64::from(n)),
        }
    }
}

/// −1, 0 or +1: a proven result's share of the bar.
fn sign(score: f64) -> f64 {
    if score > 0.0 {
        1.0
    } else if score < 0.0 {
        -1.0
    } else {
        0.0
    }
}

fn signed(value: f64, digits: usize) -> String {
    let text = format!("{:.*}", digits, value.abs());
    let zero = text.chars().all(|c| c == '0' || c == '.');
    if zero {
        text
    } else if value > 0.0 {
        format!("+{text}")
    } else {
        format!("−{text}")
    }
}

/// Where a move stands among the position's moves ([`rank_moves`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveRank {
    /// The move is among the best: no other ranks over it.
    pub best: bool,
    /// How much worse it is than the best, in the AI's units; 0 for a best move, and for
    /// a move that no proof and no estimate of the same kind shows to be worse.
    pub loss: f64,
    /// The loss is proven: both values are exact.
    pub certain: bool,
}

/// A value's class: a proven win over every estimate, a proven loss under every estimate,
/// a proven draw and the estimates compared by value.
fn class<M>(s: &DeepScore<M>) -> u8 {
    match (s.exact, s.score) {
        (true, v) if v > 0.0 => 2,
        (true, v) if v < 0.0 => 0,
        _ => 1,
    }
}

fn ranks_over<M>(a: &DeepScore<M>, b: &DeepScore<M>) -> bool {
    (class(a), a.score) > (class(b), b.score)
}

/// Ranks a position's moves: the best are those no other move ranks over, where a proven
/// win ranks over every estimate however large, every estimate over a proven loss, and
/// otherwise the larger value. A move's loss is the best's value less its own, except
/// that a proven move whose result only an estimate could beat (a proven draw beside an
/// estimate of +0.2) loses nothing: the estimate proves nothing.
pub fn rank_moves<M>(scores: &[DeepScore<M>]) -> Vec<MoveRank> {
    let best = scores
        .iter()
        .reduce(|best, s| if ranks_over(s, best) { s } else { best });
    scores
        .iter()
        .map(|s| {
            let Some(best) = best else {
                unreachable!("a score was given")
            };
            if !ranks_over(best, s) {
                return MoveRank {
                    best: true,
                    loss: 0.0,
                    certain: s.exact && best.exact,
                };
            }
            // The best move by proof among the proven ones.
            let proven_best = scores
                .iter()
                .filter(|o| o.exact)
                .reduce(|b, o| if ranks_over(o, b) { o } else { b });
            let certain = s.exact && best.exact;
            let loss = if s.exact && !best.exact {
                // Only an estimate beats it: it loses what a proof shows, if any.
                proven_best
                    .filter(|p| ranks_over(p, s))
                    .map_or(0.0, |p| p.score - s.score)
            } else {
                best.score - s.score
            };
            MoveRank {
                best: false,
                loss: loss.max(0.0),
                certain,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(mv: u8, score: f64, exact: bool) -> DeepScore<u8> {
        DeepScore::valued(mv, score, exact)
    }

    #[test]
    fn a_proof_ranks_over_an_estimate_of_the_same_side() {
        let ranks = rank_moves(&[value(0, 0.9, false), value(1, 1.0, true)]);
        assert!(!ranks[0].best && ranks[1].best);
        let ranks = rank_moves(&[value(0, 30.0, false), value(1, 2.0, true)]);
        assert!(
            !ranks[0].best && ranks[1].best,
            "an exact +2 discs over an estimate of +30"
        );
        let ranks = rank_moves(&[value(0, -0.9, false), value(1, -1.0, true)]);
        assert!(
            ranks[0].best && !ranks[1].best,
            "a proven loss under any estimate"
        );
    }

    #[test]
    fn a_proven_draw_beside_a_hopeful_estimate_is_no_mistake() {
        let ranks = rank_moves(&[
            value(0, 0.2, false),
            value(1, 0.0, true),
            value(2, 0.0, true),
        ]);
        assert!(ranks[0].best);
        assert_eq!(ranks[1].loss, 0.0);
        assert_eq!(ranks[2].loss, 0.0);
        // Beside a proven win, the proven draw loses what the proof shows.
        let ranks = rank_moves(&[value(0, 0.0, true), value(1, 1.0, true)]);
        assert_eq!(ranks[0].loss, 1.0);
        assert!(ranks[0].certain);
    }

    #[test]
    fn equal_best_moves_lose_nothing() {
        let ranks = rank_moves(&[
            value(0, 0.0, true),
            value(1, 0.0, true),
            value(2, -98.0, true),
        ]);
        assert!(ranks[0].best && ranks[1].best && !ranks[2].best);
        assert_eq!(ranks[2].loss, 98.0);
    }

    #[test]
    fn labels_and_shares_follow_the_units() {
        let d = ScoreScale::Distance;
        assert_eq!(d.label(ScoreScale::distance_value(2), true), "W2");
        assert_eq!(d.label(ScoreScale::distance_value(-3), true), "L3");
        assert_eq!(d.label(0.0, true), "D");
        assert_eq!(d.text(ScoreScale::distance_value(1), true), "win at once");
        assert_eq!(
            d.text(ScoreScale::distance_value(3), true),
            "win in 3 moves"
        );
        assert_eq!(
            d.text(ScoreScale::distance_value(-1), true),
            "loss at the opponent's next move"
        );
        assert_eq!(
            d.text(ScoreScale::distance_value(-2), true),
            "loss in 2 of the opponent's moves"
        );
        assert_eq!(d.share(ScoreScale::distance_value(-2), true), Some(-1.0));
        assert_eq!(ScoreScale::Discs.label(4.0, true), "+4");
        assert_eq!(ScoreScale::Discs.label(-3.62, false), "−3.6");
        assert_eq!(ScoreScale::Discs.share(-32.0, false), Some(-0.5));
        assert_eq!(ScoreScale::WinRate.label(0.0, true), "draw");
        assert_eq!(ScoreScale::WinRate.label(0.0, false), "0.00");
        let points = ScoreScale::Points {
            full: 50.0,
            proven_from: 1000.0,
        };
        assert_eq!(points.share(1007.0, false), Some(1.0));
        assert_eq!(points.share(25.0, false), Some(0.5));
        assert_eq!(points.label(-1003.0, false), "loss");
        assert_eq!(ScoreScale::Unscaled.share(3.0, false), None);
        assert_eq!(ScoreScale::WinRate.share(f64::NAN, false), None);
    }
}
