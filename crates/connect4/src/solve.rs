//! The exact solver: the value of a position under perfect play by both sides — a win, a
//! draw or a loss for the side to move — by negamax with alpha-beta on the bitboards, the
//! centre columns first, forced replies to immediate threats, and a table of bounds.

use gamelab_core::Game;
use rustc_hash::FxHashMap;

use crate::position::{BOARD, winning_squares};
use crate::{ConnectFour, Move, WIDTH};

/// Columns from the centre out: central discs take part in the most fours.
const ORDER: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

/// Solves positions, keeping what it learnt between calls.
#[derive(Default)]
pub struct Solver {
    /// Position key → (lower, upper) bound on its value.
    table: FxHashMap<u64, (i8, i8)>,
    /// Positions visited.
    pub nodes: u64,
}

impl Solver {
    /// The value for the side to move: 1 a win, 0 a draw, −1 a loss; and a move that
    /// keeps it (`None` once the game is over).
    pub fn solve(&mut self, game: &ConnectFour) -> (i8, Option<Move>) {
        let mut pos = game.clone();
        if pos.is_over() {
            return (self.negamax(&mut pos, -1, 1), None);
        }
        let (mut best, mut best_move) = (-2, None);
        for col in ORDER {
            let Some(mv) = pos.drop_in(col) else { continue };
            pos.play_unchecked(mv);
            let v = -self.negamax(&mut pos, -1, 1);
            pos.undo();
            if v > best {
                (best, best_move) = (v, Some(mv));
                if best == 1 {
                    break;
                }
            }
        }
        (best, best_move)
    }

    /// The value of every legal move for the side to move, in the game's move order.
    pub fn move_values(&mut self, game: &ConnectFour) -> Vec<(Move, i8)> {
        let mut pos = game.clone();
        game.legal_moves()
            .into_iter()
            .map(|mv| {
                pos.play_unchecked(mv);
                let v = -self.negamax(&mut pos, -1, 1);
                pos.undo();
                (mv, v)
            })
            .collect()
    }

    fn negamax(&mut self, pos: &mut ConnectFour, mut alpha: i8, mut beta: i8) -> i8 {
        self.nodes += 1;
        if let Some(outcome) = pos.outcome() {
            return outcome.score_for(pos.to_move()) as i8;
        }
        let me = pos.stones(pos.to_move());
        let them = pos.occupied() ^ me;
        let empty = BOARD & !pos.occupied();
        let playable = pos.playable();
        if winning_squares(me, empty) & playable != 0 {
            return 1;
        }
        let threats = winning_squares(them, empty) & playable;
        if threats.count_ones() > 1 {
            return -1;
        }
        let key = pos.key();
        let (alpha0, beta0) = (alpha, beta);
        if let Some(&(lower, upper)) = self.table.get(&key) {
            if lower == upper || lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let mut best = -2;
        for col in ORDER {
            let Some(mv) = pos.drop_in(col) else { continue };
            // With one threat against us, blocking it is the only move that does not lose.
            if threats != 0 && mv.bit() != threats {
                continue;
            }
            pos.play_unchecked(mv);
            let v = -self.negamax(pos, -beta, -alpha);
            pos.undo();
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let entry = self.table.entry(key).or_insert((-1, 1));
        if best <= alpha0 {
            entry.1 = entry.1.min(best);
        } else if best >= beta0 {
            entry.0 = entry.0.max(best);
        } else {
            *entry = (best, best);
        }
        best
    }
}

/// Plain negamax over the whole tree below `game`: no pruning, no table. The reference the
/// solver is tested against, usable only a few moves from the end.
pub fn plain_negamax(game: &mut ConnectFour) -> i8 {
    if let Some(outcome) = game.outcome() {
        return outcome.score_for(game.to_move()) as i8;
    }
    let mut best = -1;
    for mv in game.legal_moves() {
        game.play_unchecked(mv);
        best = best.max(-plain_negamax(game));
        game.undo();
    }
    best
}
