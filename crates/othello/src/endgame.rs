//! Exact endgame search: the final disc difference under perfect play, by negamax
//! alpha-beta with fastest-first move ordering (fewest replies first) away from the leaves.

use crate::bits::{flips, legal_moves};
use crate::{Move, Othello, Square, squares_of};

/// The final score for the side to move: disc difference, the empty squares going to the
/// winner (the FFO convention).
#[inline]
fn final_score(p: u64, o: u64) -> i32 {
    let (np, no) = (p.count_ones() as i32, o.count_ones() as i32);
    let empties = 64 - np - no;
    match np.cmp(&no) {
        std::cmp::Ordering::Greater => np - no + empties,
        std::cmp::Ordering::Less => np - no - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Below this many empties, moves are tried in square order: sorting costs more than it saves.
const SORT_EMPTIES: u32 = 7;
/// From this many empties, results are kept in the table: deeper down a lookup costs more
/// than re-searching.
const TABLE_EMPTIES: u32 = 10;

/// Bounds on a position's exact score and the move that gave them.
#[derive(Clone, Copy)]
struct Entry {
    lower: i8,
    upper: i8,
    best: u8,
}

/// An exact search with its node count.
#[derive(Default)]
pub struct Solver {
    pub nodes: u64,
    table: rustc_hash::FxHashMap<(u64, u64), Entry>,
}

impl Solver {
    fn negamax(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, passed: bool) -> i32 {
        self.nodes += 1;
        let moves = legal_moves(p, o);
        if moves == 0 {
            if passed {
                return final_score(o, p).saturating_neg();
            }
            return -self.negamax(o, p, -beta, -alpha, true);
        }
        let empties = 64 - (p | o).count_ones();
        let mut best = i32::MIN;
        if empties >= SORT_EMPTIES {
            let mut beta = beta;
            let mut hint = None;
            if empties >= TABLE_EMPTIES
                && let Some(e) = self.table.get(&(p, o))
            {
                let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
                if lower >= beta {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
                hint = Some(u32::from(e.best));
            }
            let (alpha0, beta0) = (alpha, beta);
            // The table's move first, then fastest first: the replies that leave the
            // opponent fewest moves.
            let mut ordered: arrayvec::ArrayVec<(u32, u32, u64), 32> = arrayvec::ArrayVec::new();
            for sq in squares_of(moves) {
                let s = sq.index() as u32;
                let f = flips(p, o, s);
                let (np, no) = (p | f | 1 << s, o & !f);
                let key = if hint == Some(s) {
                    0
                } else {
                    1 + legal_moves(no, np).count_ones()
                };
                let _ = ordered.try_push((key, s, f));
            }
            ordered.sort_unstable_by_key(|&(key, s, _)| (key, s));
            let mut best_square = ordered[0].1;
            for (_, s, f) in ordered {
                let v = -self.negamax(o & !f, p | f | 1 << s, -beta, -alpha, false);
                if v > best {
                    best = v;
                    best_square = s;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
            if empties >= TABLE_EMPTIES {
                let old = self.table.get(&(p, o)).copied();
                let (mut lower, mut upper) =
                    old.map_or((-64, 64), |e| (i32::from(e.lower), i32::from(e.upper)));
                if best <= alpha0 {
                    upper = best;
                } else if best >= beta0 {
                    lower = best;
                } else {
                    (lower, upper) = (best, best);
                }
                self.table.insert(
                    (p, o),
                    Entry {
                        lower: lower as i8,
                        upper: upper as i8,
                        best: best_square as u8,
                    },
                );
            }
        } else {
            let mut m = moves;
            while m != 0 {
                let s = m.trailing_zeros();
                m &= m - 1;
                let f = flips(p, o, s);
                let v = -self.negamax(o & !f, p | f | 1 << s, -beta, -alpha, false);
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        }
        best
    }

    /// The exact score of `pos` for the side to move and a best move (`None` when the game
    /// is over).
    pub fn solve(&mut self, pos: &Othello) -> (i32, Option<Move>) {
        let (p, o) = pos.discs();
        if pos.is_over() {
            return (final_score(p, o), None);
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            return (-self.negamax(o, p, -64, 64, true), Some(Move::Pass));
        }
        let mut ordered: Vec<(u32, Square)> = squares_of(moves)
            .map(|sq| {
                let f = flips(p, o, sq.index() as u32);
                (legal_moves(o & !f, p | f | sq.bit()).count_ones(), sq)
            })
            .collect();
        ordered.sort();
        let (mut alpha, mut best) = (-65, None);
        for (_, sq) in ordered {
            let f = flips(p, o, sq.index() as u32);
            let v = -self.negamax(o & !f, p | f | sq.bit(), -64, -alpha, false);
            if v > alpha {
                alpha = v;
                best = Some(Move::Place(sq));
            }
        }
        (alpha, best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_give_empties_to_the_winner() {
        assert_eq!(final_score(0b111, 0b1), 2 + 60);
        assert_eq!(final_score(0b1, 0b111), -62);
        assert_eq!(final_score(0b11, 0b1100), 0);
    }

    #[test]
    fn a_finished_game_scores_its_discs() {
        let pos = Othello::from_discs(!0 >> 1, 1 << 63, true);
        assert!(pos.is_over());
        assert_eq!(Solver::default().solve(&pos), (62, None));
    }
}
