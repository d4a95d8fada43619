//! The perfect players of article 001, reading the solved table: `ai_gt` (uniform among all
//! best moves), `ai_gtsv` (fastest win, slowest loss) and `ai_gtsvrd` (among drawing
//! moves, those that leave the opponent a way to go wrong).

use gamelab_core::BestMoves;

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
