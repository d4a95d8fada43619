//! The perfect players of article 001, reading the solved table: `ai_gt` (uniform among all
//! best moves), `ai_gtsv` (fastest win, slowest loss) and `ai_gtsvrd` (among drawing
//! moves, those that leave the opponent a way to go wrong); and `solved`, which values
//! every move exactly for the analysis.

use gamelab_core::valuation::ScoreScale;
use gamelab_core::{Agent, Analyst, BestMoves, DeepScore, Game, GameRng, Uniform};

use crate::Position;
use crate::board::{Board, Moves};
use crate::solve::{SolvedTable, squares_of};

/// Which of the table's best-move sets to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perfection {
    /// By minimax value (o win 1, draw 0, x win −1).
    Value,
    /// By the depth-aware "shortest victory" value.
    ShortestVictory,
    /// By the shortest-victory value, drawn positions refined by what the opponent can
    /// still get wrong.
    RefinedDraws,
}

/// A perfect player over the shared solved table.
#[derive(Clone, Copy, Debug)]
pub struct Perfect(pub Perfection);

impl<B: Board> BestMoves<Position<B>> for Perfect {
    fn best_moves(&mut self, pos: &Position<B>) -> Moves {
        let Some(solved) = SolvedTable::shared().get(pos) else {
            // Every position reached by play is in the table; anything else is a bug.
            unreachable!("position not in the solved table:\n{pos}");
        };
        let mask = match self.0 {
            Perfection::Value => solved.best_gt,
            Perfection::ShortestVictory => solved.best_sv,
            Perfection::RefinedDraws => solved.best_svrd,
        };
        squares_of(mask).collect()
    }

    fn explain(&mut self, pos: &Position<B>) -> Option<String> {
        let table = SolvedTable::shared();
        let mut lines = Vec::new();
        for sq in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(sq);
            let s = table.get(&child)?;
            lines.push(format!(
                "{sq}: value {}, sv {}, svrd {}",
                s.value,
                s.sv,
                f64::from(s.svrd_halves(child.turn())) / 2.0
            ));
        }
        Some(lines.join("\n"))
    }

    fn move_scores(&mut self, pos: &Position<B>) -> Option<Vec<(crate::Square, f64)>> {
        let table = SolvedTable::shared();
        pos.legal_moves()
            .into_iter()
            .map(|sq| {
                let mut child = pos.clone();
                child.play_unchecked(sq);
                let s = table.get(&child)?;
                let score = match self.0 {
                    Perfection::Value => f64::from(s.value),
                    Perfection::ShortestVictory => f64::from(s.sv),
                    Perfection::RefinedDraws => f64::from(s.svrd_halves(child.turn())) / 2.0,
                };
                Some((sq, score))
            })
            .collect()
    }
}

/// `solved`: perfect play that values every move exactly for the side to move, as the
/// analysis wants it: win, draw or loss and how many moves it takes
/// ([`ScoreScale::Distance`]); it plays as `ai_gtsv` (the fastest win, the slowest loss).
#[derive(Clone, Copy, Debug, Default)]
pub struct SolvedValues;

impl SolvedValues {
    /// The value of `pos` after the mover plays `sq`: a win in n of the mover's moves,
    /// a loss at the opponent's n-th, a draw.
    fn value_of<B: Board>(pos: &Position<B>, sq: crate::Square) -> f64 {
        let mut child = pos.clone();
        child.play_unchecked(sq);
        let Some(s) = SolvedTable::shared().get(&child) else {
            unreachable!("position not in the solved table:\n{child}");
        };
        // The table is o's view; the marks on the board when the game ends follow from the
        // depth-aware value (a win by o at 5, 7, 9 marks, by x at 6 or 8).
        let end = match s.sv {
            0 => return 0.0,
            sv if sv > 0 => 11 - 2 * i32::from(sv),
            sv => 10 + 2 * i32::from(sv),
        };
        let plies = end - pos.move_count() as i32;
        let mover_wins = (s.value > 0) == (pos.turn() == crate::Player::O);
        if mover_wins {
            ScoreScale::distance_value((plies + 1) / 2)
        } else {
            ScoreScale::distance_value(-(plies / 2))
        }
    }
}

impl<B: Board> Agent<Position<B>> for SolvedValues {
    fn choose(&mut self, pos: &Position<B>, rng: &mut GameRng) -> crate::Square {
        Uniform(Perfect(Perfection::ShortestVictory)).choose(pos, rng)
    }

    fn analyst(&mut self) -> Option<&mut dyn Analyst<Position<B>>> {
        Some(self)
    }
}

impl<B: Board> Analyst<Position<B>> for SolvedValues {
    fn move_scores(&mut self, pos: &Position<B>) -> Option<Vec<(crate::Square, f64)>> {
        (!pos.is_over()).then(|| {
            pos.legal_moves()
                .into_iter()
                .map(|sq| (sq, Self::value_of(pos, sq)))
                .collect()
        })
    }

    fn move_values(&mut self, pos: &Position<B>) -> Option<Vec<DeepScore<crate::Square>>> {
        let scores = self.move_scores(pos)?;
        Some(
            scores
                .into_iter()
                .map(|(mv, score)| DeepScore {
                    line: perfect_line(pos, mv),
                    ..DeepScore::valued(mv, score, true)
                })
                .collect(),
        )
    }

    fn score_scale(&self) -> ScoreScale {
        ScoreScale::Distance
    }
}

/// `mv`, then the first of the fastest-win, slowest-loss moves to the end of the game.
fn perfect_line<B: Board>(pos: &Position<B>, mv: crate::Square) -> Vec<crate::Square> {
    let mut line = vec![mv];
    let mut at = pos.clone();
    at.play_unchecked(mv);
    while let Some(next) = SolvedTable::shared()
        .get(&at)
        .and_then(|s| squares_of(s.best_sv).next())
    {
        line.push(next);
        at.play_unchecked(next);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ttt;

    fn labels(moves: &str) -> Vec<(String, String)> {
        let pos = Ttt::from_moves(moves).unwrap();
        let scale = Analyst::<Ttt>::score_scale(&SolvedValues);
        SolvedValues
            .move_values(&pos)
            .unwrap()
            .into_iter()
            .map(|v| {
                assert!(v.exact);
                (v.mv.to_string(), scale.label(v.score, v.exact))
            })
            .collect()
    }

    #[test]
    fn every_first_move_is_a_draw() {
        let first = labels("");
        assert_eq!(first.len(), 9);
        assert!(first.iter().all(|(_, label)| label == "D"), "{first:?}");
    }

    #[test]
    fn wins_and_losses_count_the_moves_they_take() {
        let has = |values: &[(String, String)], mv: &str, label: &str| {
            values.contains(&(mv.to_string(), label.to_string()))
        };
        // o at 0,0 and 1,0; x at 0,1 and 1,1: o (to move) wins at once at 2,0; blocking
        // x at 2,1 draws; anything else lets x win on x's next move.
        let values = labels("0,0 0,1 1,0 1,1");
        assert!(has(&values, "(2, 0)", "W1"), "{values:?}");
        assert!(has(&values, "(2, 1)", "D"), "{values:?}");
        assert!(has(&values, "(2, 2)", "L1"), "{values:?}");
        // An edge reply to a corner loses: o forces a win on its third move, x's
        // answers counted.
        let values = labels("0,0");
        assert!(has(&values, "(1, 0)", "L3"), "{values:?}");
        assert!(has(&values, "(1, 1)", "D"), "{values:?}");
    }
}
