//! Exact endgame search: the final disc difference under perfect play, by negamax
//! alpha-beta with principal-variation (null-window) searches, fastest-first move ordering
//! (fewest replies first) away from the leaves, parity ordering near them, and the last
//! empty square scored without generating moves.

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
const TABLE_EMPTIES: u32 = 8;

/// The four quadrants of the board (a1–d4, e1–h4, a5–d8, e5–h8).
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// The empty squares in quadrants with an odd number of empties: moving there first tends
/// to leave the last move of each region to the side to move (parity).
#[inline]
fn odd_regions(empty: u64) -> u64 {
    QUADRANTS
        .iter()
        .filter(|&&q| (empty & q).count_ones() & 1 == 1)
        .fold(0, |acc, &q| acc | q)
        & empty
}

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Empty squares next to `discs` (where the other side may later find moves).
#[inline]
fn frontier(discs: u64, empty: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let side = ((discs << 1) & NOT_A) | ((discs >> 1) & NOT_H);
    let around = side | discs;
    (side | (around << 8) | (around >> 8)) & empty
}

/// How good a move looks for the opponent, from the position after it (`me` the side that
/// just moved): the opponent's moves, corners counting double, then its potential moves.
/// Fewer is better for the mover, so moves are tried in increasing order.
#[inline]
fn reply_weight(me: u64, opp: u64) -> u32 {
    let replies = legal_moves(opp, me);
    let potential = frontier(me, !(me | opp)).count_ones();
    ((replies.count_ones() + (replies & CORNERS).count_ones()) << 4) + potential
}

/// The depth of the search that orders moves, by empties: none below 16 (the opponent's
/// replies decide), then deeper nearer the root, where a better first move saves whole
/// subtrees. Tuned on FFO #40–#44.
fn ordering_depth(empties: u32) -> Option<u32> {
    match empties {
        0..16 => None,
        16..18 => Some(2),
        _ => Some(3),
    }
}

/// A rough midgame score for the side to move: mobility against the opponent's, corners
/// counting double, and corners held.
#[inline]
fn rough_eval(p: u64, o: u64) -> i32 {
    let (mp, mo) = (legal_moves(p, o), legal_moves(o, p));
    let mobility = |m: u64| (m.count_ones() + (m & CORNERS).count_ones()) as i32;
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    4 * (mobility(mp) - mobility(mo)) + 16 * corners
}

/// Negamax to `depth` plies with [`rough_eval`] at the leaves, for move ordering.
fn shallow(p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return rough_eval(p, o);
    }
    let moves = legal_moves(p, o);
    if moves == 0 {
        if legal_moves(o, p) == 0 {
            return final_score(p, o) * 1000;
        }
        return -shallow(o, p, depth - 1, -beta, -alpha);
    }
    let mut best = i32::MIN + 1;
    let mut m = moves;
    while m != 0 {
        let s = m.trailing_zeros();
        m &= m - 1;
        let f = flips(p, o, s);
        let v = -shallow(o & !f, p | f | 1 << s, depth - 1, -beta, -alpha);
        if v > best {
            best = v;
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// The order in which to try a move (lower first), from the position after it (`me` the
/// side that just moved) and the empties before it.
#[inline]
fn move_key(me: u64, opp: u64, empties: u32) -> i32 {
    match ordering_depth(empties) {
        Some(depth) => shallow(opp, me, depth, -1_000_000, 1_000_000),
        None => reply_weight(me, opp) as i32,
    }
}

/// Bounds on a position's exact score and the move that gave them.
#[derive(Clone, Copy)]
struct Entry {
    lower: i8,
    upper: i8,
    best: u8,
}

/// A fixed-size table of bounds, one slot per hash, always replaced: no growth and no
/// probing, which costs less than keeping every position.
#[derive(Default)]
struct Table {
    slots: Vec<(u64, u64, Entry)>,
}

const TABLE_BITS: u32 = 20;

impl Table {
    #[inline]
    fn slot(p: u64, o: u64) -> usize {
        let h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        (h >> (64 - TABLE_BITS)) as usize
    }

    #[inline]
    fn get(&self, p: u64, o: u64) -> Option<&Entry> {
        let (sp, so, e) = self.slots.get(Self::slot(p, o))?;
        (*sp == p && *so == o).then_some(e)
    }

    #[inline]
    fn insert(&mut self, p: u64, o: u64, entry: Entry) {
        if self.slots.is_empty() {
            // Allocated on first use: most solvers in AIs never reach the table's depth.
            let empty = Entry {
                lower: -64,
                upper: 64,
                best: 0,
            };
            self.slots = vec![(0, 0, empty); 1 << TABLE_BITS];
        }
        self.slots[Self::slot(p, o)] = (p, o, entry);
    }
}

/// An exact search with its node count.
#[derive(Default)]
pub struct Solver {
    pub nodes: u64,
    table: Table,
}

impl Solver {
    /// The exact score with one empty square left: whoever can flip there plays it.
    #[inline]
    fn last_square(&mut self, p: u64, o: u64) -> i32 {
        self.nodes += 1;
        let sq = (!(p | o)).trailing_zeros();
        let f = flips(p, o, sq);
        if f != 0 {
            return final_score(p | f | 1 << sq, o & !f);
        }
        let f = flips(o, p, sq);
        if f != 0 {
            self.nodes += 1;
            return -final_score(o | f | 1 << sq, p & !f);
        }
        final_score(p, o)
    }

    fn negamax(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, passed: bool) -> i32 {
        if !passed && (p | o).count_ones() == 63 {
            return self.last_square(p, o);
        }
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
                && let Some(e) = self.table.get(p, o)
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
            let mut ordered: arrayvec::ArrayVec<(i32, u32, u64), 32> = arrayvec::ArrayVec::new();
            for sq in squares_of(moves) {
                let s = sq.index() as u32;
                let f = flips(p, o, s);
                let (np, no) = (p | f | 1 << s, o & !f);
                let key = if hint == Some(s) {
                    i32::MIN
                } else {
                    move_key(np, no, empties)
                };
                let _ = ordered.try_push((key, s, f));
            }
            ordered.sort_unstable_by_key(|&(key, s, _)| (key, s));
            let mut best_square = ordered[0].1;
            for (i, (_, s, f)) in ordered.into_iter().enumerate() {
                let (np, no) = (p | f | 1 << s, o & !f);
                // The first move with the full window; the others only have to prove they
                // are no better, with a null window, unless they turn out to be.
                let v = if i == 0 {
                    -self.negamax(no, np, -beta, -alpha, false)
                } else {
                    let probe = -self.negamax(no, np, -alpha - 1, -alpha, false);
                    if probe > alpha && probe < beta {
                        -self.negamax(no, np, -beta, -alpha, false)
                    } else {
                        probe
                    }
                };
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
                let old = self.table.get(p, o).copied();
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
                    p,
                    o,
                    Entry {
                        lower: lower as i8,
                        upper: upper as i8,
                        best: best_square as u8,
                    },
                );
            }
        } else {
            let odd = odd_regions(!(p | o));
            'regions: for region in [moves & odd, moves & !odd] {
                let mut m = region;
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
                                break 'regions;
                            }
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
        let empties = pos.empties();
        let mut ordered: Vec<(i32, Square)> = squares_of(moves)
            .map(|sq| {
                let f = flips(p, o, sq.index() as u32);
                (move_key(p | f | sq.bit(), o & !f, empties), sq)
            })
            .collect();
        ordered.sort();
        let (mut alpha, mut best) = (-65, None);
        for (i, (_, sq)) in ordered.into_iter().enumerate() {
            let f = flips(p, o, sq.index() as u32);
            let (np, no) = (p | f | sq.bit(), o & !f);
            let mut v = -65;
            if i > 0 {
                v = -self.negamax(no, np, -alpha - 1, -alpha, false);
            }
            if i == 0 || v > alpha {
                v = -self.negamax(no, np, -64, -alpha, false);
            }
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
