//! `ai_by_score` (article 000): score every child position from the mover's point of view and
//! keep the moves with the highest score. Score-based AIs are evaluation functions plugged
//! into this one loop.

use std::fmt::Write;

use crate::{BestMoves, Game, MoveList, Side};

/// A static evaluation of a position, from the point of view of the player who just moved.
pub trait Evaluate<G: Game>: Send {
    /// The score of `child`, the position right after the mover's candidate move.
    fn score(&self, child: &G) -> f64;

    /// Extra lines for the debug trace of a child (e.g. its Markpat counts).
    fn detail(&self, child: &G) -> Option<String> {
        let _ = child;
        None
    }

    /// The score from the first player's point of view (the article's `minimax=True`), as a
    /// search that maximises for the first player and minimises for the second needs it.
    fn score_for_first(&self, child: &G) -> f64 {
        let s = self.score(child);
        // The mover is the side that is no longer to move.
        if child.to_move() == Side::Second {
            s
        } else {
            -s
        }
    }
}

/// The article's `ai_by_score` over the evaluation `E`.
#[derive(Clone, Debug)]
pub struct ByScore<E> {
    pub eval: E,
}

impl<E> ByScore<E> {
    pub fn new(eval: E) -> Self {
        ByScore { eval }
    }
}

impl<E> ByScore<E> {
    /// Every legal move with its score, in the game's move order.
    pub fn scores<G: Game>(&self, game: &G) -> Vec<(G::Move, f64)>
    where
        E: Evaluate<G>,
    {
        let mut child = game.clone();
        game.legal_moves()
            .iter()
            .map(|&mv| {
                child.play_unchecked(mv);
                let s = self.eval.score(&child);
                child.undo();
                (mv, s)
            })
            .collect()
    }

    /// The article's debug trace: each move, the child, its detail, the score, UPDATE/APPEND,
    /// and finally the best score and moves.
    pub fn trace<G: Game>(&self, game: &G) -> String
    where
        E: Evaluate<G>,
    {
        let mut out = String::new();
        let moves = game.legal_moves();
        let list = |ms: &[G::Move]| {
            let items: Vec<String> = ms.iter().map(|m| m.to_string()).collect();
            format!("[{}]", items.join(", "))
        };
        let _ = writeln!(
            out,
            "Start ai_by_score\n{game}\n\nlegal_moves {}",
            list(&moves)
        );
        let mut best = f64::NEG_INFINITY;
        let mut best_moves: Vec<G::Move> = Vec::new();
        let mut child = game.clone();
        for &mv in moves.iter() {
            child.play_unchecked(mv);
            let score = self.eval.score(&child);
            let _ = writeln!(out, "====================\nmove {mv}\n{child}\n");
            if let Some(detail) = self.eval.detail(&child) {
                let _ = writeln!(out, "{detail}");
            }
            let _ = writeln!(out, "score {} best score {}", num(score), num(best));
            if score > best {
                best = score;
                best_moves = vec![mv];
                let _ = writeln!(
                    out,
                    "UPDATE\n  best score {}\n  best moves {}",
                    num(best),
                    list(&best_moves)
                );
            } else if score == best {
                best_moves.push(mv);
                let _ = writeln!(out, "APPEND\n  best moves {}", list(&best_moves));
            }
            child.undo();
        }
        let _ = write!(
            out,
            "====================\nFinished\nbest score {}\nbest moves {}",
            num(best),
            list(&best_moves)
        );
        out
    }
}

/// Numbers as Python prints floats: `2.0`, `-1.5`, `-inf`.
fn num(x: f64) -> String {
    if x == f64::NEG_INFINITY {
        "-inf".into()
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.1}")
    } else {
        format!("{x}")
    }
}

impl<G: Game, E: Evaluate<G>> BestMoves<G> for ByScore<E> {
    #[inline]
    fn best_moves(&mut self, game: &G) -> G::Moves {
        let mut best = f64::NEG_INFINITY;
        let mut best_moves = G::Moves::default();
        let mut child = game.clone();
        for &mv in game.legal_moves().iter() {
            child.play_unchecked(mv);
            let score = self.eval.score(&child);
            child.undo();
            if score > best {
                best = score;
                best_moves.clear();
                best_moves.push(mv);
            } else if score == best {
                best_moves.push(mv);
            }
        }
        best_moves
    }

    fn explain(&mut self, game: &G) -> Option<String> {
        Some(self.trace(game))
    }

    fn move_scores(&mut self, game: &G) -> Option<Vec<(G::Move, f64)>> {
        Some(self.scores(game))
    }
}

#[cfg(test)]
mod tests {
    use super::num;

    #[test]
    fn numbers_print_like_python_floats() {
        assert_eq!(num(2.0), "2.0");
        assert_eq!(num(-1.5), "-1.5");
        assert_eq!(num(300.0), "300.0");
        assert_eq!(num(f64::NEG_INFINITY), "-inf");
    }
}
