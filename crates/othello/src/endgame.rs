//! Exact endgame search: the final disc difference under perfect play, by negamax
//! alpha-beta with principal-variation (null-window) searches, fastest-first move ordering
//! (fewest replies first) away from the leaves, parity ordering near them, and the last
//! empty square scored without generating moves.

use crate::kernel::{self, Kernel, Portable};
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

/// From this many empties, children are looked up in the table before any is searched
/// (enhanced transposition cut-off); nearer the leaves the lookups cost more than they save.
const ETC_EMPTIES: u32 = 11;

/// A stability cut-off needs the opponent to hold (64 − alpha) / 2 stable discs; below
/// this alpha that is rare enough not to pay for counting them.
const STABILITY_ALPHA: i32 = 24;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;
const BORDER: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// The squares of each diagonal: a1–h8 direction (steps of 9), then a8–h1 (steps of 7).
const DIAGONALS: [[u64; 15]; 2] = {
    let mut lines = [[0u64; 15]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        lines[0][7 + f - r] |= 1 << sq;
        lines[1][f + r] |= 1 << sq;
        sq += 1;
    }
    lines
};

/// The squares whose lines in each direction — horizontal, vertical, and the two
/// diagonals — are full: no disc there can ever flip along that line.
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    let mut rows = 0;
    for r in 0..8 {
        if (filled >> (8 * r)) & 0xff == 0xff {
            rows |= 0xff << (8 * r);
        }
    }
    let mut columns = filled;
    for shift in [8, 16, 32] {
        columns &= columns >> shift;
    }
    let columns = (columns & 0xff) * FILE_A;
    let [mut d9, mut d7] = [0, 0];
    for (full, lines) in [(&mut d9, &DIAGONALS[0]), (&mut d7, &DIAGONALS[1])] {
        for &line in lines {
            if filled & line == line {
                *full |= line;
            }
        }
    }
    [rows, columns, d9, d7]
}

/// Discs of `me` that can never be flipped (a lower bound): in each of the four
/// directions the line is full, or a neighbour is the edge or a stable disc of `me`.
fn stable_discs(me: u64, other: u64) -> u64 {
    const NOT_A: u64 = !FILE_A;
    const NOT_H: u64 = !FILE_H;
    let [rows, columns, d9, d7] = full_lines(me | other);
    let (rows, columns) = (rows | FILE_A | FILE_H, columns | RANK_1 | RANK_8);
    let (d9, d7) = (d9 | BORDER, d7 | BORDER);
    let mut stable = 0;
    loop {
        let s = stable;
        let more = me
            & (rows | ((s << 1) & NOT_A) | ((s >> 1) & NOT_H))
            & (columns | (s << 8) | (s >> 8))
            & (d9 | ((s << 9) & NOT_A) | ((s >> 9) & NOT_H))
            & (d7 | ((s << 7) & NOT_H) | ((s >> 7) & NOT_A));
        if more == stable {
            return stable;
        }
        stable = more;
    }
}

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
#[inline(always)]
fn reply_weight(k: impl Kernel, me: u64, opp: u64) -> u32 {
    let replies = k.legal_moves(opp, me);
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
#[inline(always)]
fn rough_eval(k: impl Kernel, p: u64, o: u64) -> i32 {
    let (mp, mo) = (k.legal_moves(p, o), k.legal_moves(o, p));
    let mobility = |m: u64| (m.count_ones() + (m & CORNERS).count_ones()) as i32;
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    4 * (mobility(mp) - mobility(mo)) + 16 * corners
}

/// Negamax to `depth` plies with [`rough_eval`] at the leaves, for move ordering.
#[inline(always)]
fn shallow_node(b: impl Build, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let k = b.kernel();
    if depth == 0 {
        return rough_eval(k, p, o);
    }
    let moves = k.legal_moves(p, o);
    if moves == 0 {
        if k.legal_moves(o, p) == 0 {
            return final_score(p, o) * 1000;
        }
        return -b.shallow(o, p, depth - 1, -beta, -alpha);
    }
    let mut best = i32::MIN + 1;
    let mut m = moves;
    while m != 0 {
        let s = m.trailing_zeros();
        m &= m - 1;
        let f = k.flips(p, o, s);
        let v = -b.shallow(o & !f, p | f | 1 << s, depth - 1, -beta, -alpha);
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
#[inline(always)]
fn move_key(b: impl Build, me: u64, opp: u64, empties: u32) -> i32 {
    match ordering_depth(empties) {
        Some(depth) => b.shallow(opp, me, depth, -1_000_000, 1_000_000),
        None => reply_weight(b.kernel(), me, opp) as i32,
    }
}

/// The searches of one build of the kernels. The node functions are generic and call
/// their recursion through this, so that each build's recursion stays inside code
/// compiled for it.
trait Build: Copy {
    type K: Kernel;
    fn kernel(self) -> Self::K;
    fn negamax(self, s: &mut Solver, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32;
    fn shallow(self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32;
}

#[derive(Clone, Copy)]
struct PortableBuild;

impl Build for PortableBuild {
    type K = Portable;

    #[inline(always)]
    fn kernel(self) -> Portable {
        Portable
    }

    fn negamax(self, s: &mut Solver, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        negamax_node(self, s, p, o, alpha, beta, passed)
    }

    fn shallow(self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        shallow_node(self, p, o, depth, alpha, beta)
    }
}

/// The searches compiled for AVX2 and BMI2 (see [`kernel`]).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Avx2Build(kernel::Avx2);

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
impl Build for Avx2Build {
    type K = kernel::Avx2;

    #[inline(always)]
    fn kernel(self) -> kernel::Avx2 {
        self.0
    }

    #[inline(always)]
    fn negamax(self, s: &mut Solver, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        fn run(b: Avx2Build, s: &mut Solver, p: u64, o: u64, a: i32, be: i32, pa: bool) -> i32 {
            negamax_node(b, s, p, o, a, be, pa)
        }
        // SAFETY: the `Avx2` token proves the CPU has these features.
        unsafe { run(self, s, p, o, alpha, beta, passed) }
    }

    #[inline(always)]
    fn shallow(self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        fn run(b: Avx2Build, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
            shallow_node(b, p, o, depth, alpha, beta)
        }
        // SAFETY: as above.
        unsafe { run(self, p, o, depth, alpha, beta) }
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
    /// log2 of the slots, chosen by the search that first fills the table.
    bits: u32,
}

impl Table {
    /// Slots for a search from `empties`: 2^16 for the AIs' short endgames (clearing more
    /// would cost more than their search), up to 2^22 (100 MB) for deep solves, where
    /// fewer collisions save about 10 % of the nodes (FFO #45).
    fn bits_for(empties: u32) -> u32 {
        empties.clamp(16, 22)
    }

    #[inline]
    fn slot(&self, p: u64, o: u64) -> usize {
        let h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        (h >> (64 - self.bits)) as usize
    }

    #[inline]
    fn get(&self, p: u64, o: u64) -> Option<&Entry> {
        if self.slots.is_empty() {
            return None;
        }
        let (sp, so, e) = &self.slots[self.slot(p, o)];
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
            self.bits = self.bits.max(16);
            self.slots = vec![(0, 0, empty); 1 << self.bits];
        }
        let slot = self.slot(p, o);
        self.slots[slot] = (p, o, entry);
    }
}

/// An exact search with its node count.
#[derive(Default)]
pub struct Solver {
    pub nodes: u64,
    table: Table,
}

/// The exact score with one empty square left: whoever can flip there plays it.
#[inline(always)]
fn last_square(k: impl Kernel, s: &mut Solver, p: u64, o: u64) -> i32 {
    s.nodes += 1;
    let sq = (!(p | o)).trailing_zeros();
    let f = k.flips(p, o, sq);
    if f != 0 {
        return final_score(p | f | 1 << sq, o & !f);
    }
    let f = k.flips(o, p, sq);
    if f != 0 {
        s.nodes += 1;
        return -final_score(o | f | 1 << sq, p & !f);
    }
    final_score(p, o)
}

/// One node of the exact search; its recursion goes through `b`.
#[inline(always)]
fn negamax_node(
    b: impl Build,
    s: &mut Solver,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
    passed: bool,
) -> i32 {
    let k = b.kernel();
    if !passed && (p | o).count_ones() == 63 {
        return last_square(k, s, p, o);
    }
    s.nodes += 1;
    let moves = k.legal_moves(p, o);
    if moves == 0 {
        if passed {
            return final_score(o, p).saturating_neg();
        }
        return -b.negamax(s, o, p, -beta, -alpha, true);
    }
    let empties = 64 - (p | o).count_ones();
    // Stability cut-off: the opponent's stable discs stay theirs, which caps the score.
    if empties >= SORT_EMPTIES && alpha >= STABILITY_ALPHA {
        let cap = 64 - 2 * stable_discs(o, p).count_ones() as i32;
        if cap <= alpha {
            return cap;
        }
    }
    let mut best = i32::MIN;
    if empties >= SORT_EMPTIES {
        let mut beta = beta;
        let mut hint = None;
        if empties >= TABLE_EMPTIES
            && let Some(e) = s.table.get(p, o)
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
            let sq = sq.index() as u32;
            let f = k.flips(p, o, sq);
            let (np, no) = (p | f | 1 << sq, o & !f);
            // Enhanced transposition cut-off: a child the table already bounds low enough
            // for the opponent proves this node reaches beta without a search.
            if empties >= ETC_EMPTIES
                && let Some(e) = s.table.get(no, np)
                && -i32::from(e.upper) >= beta
            {
                return -i32::from(e.upper);
            }
            let key = if hint == Some(sq) {
                i32::MIN
            } else {
                move_key(b, np, no, empties)
            };
            let _ = ordered.try_push((key, sq, f));
        }
        ordered.sort_unstable_by_key(|&(key, sq, _)| (key, sq));
        let mut best_square = ordered[0].1;
        for (i, (_, sq, f)) in ordered.into_iter().enumerate() {
            let (np, no) = (p | f | 1 << sq, o & !f);
            // The first move with the full window; the others only have to prove they
            // are no better, with a null window, unless they turn out to be.
            let v = if i == 0 {
                -b.negamax(s, no, np, -beta, -alpha, false)
            } else {
                let probe = -b.negamax(s, no, np, -alpha - 1, -alpha, false);
                if probe > alpha && probe < beta {
                    -b.negamax(s, no, np, -beta, -alpha, false)
                } else {
                    probe
                }
            };
            if v > best {
                best = v;
                best_square = sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if empties >= TABLE_EMPTIES {
            let old = s.table.get(p, o).copied();
            let (mut lower, mut upper) =
                old.map_or((-64, 64), |e| (i32::from(e.lower), i32::from(e.upper)));
            if best <= alpha0 {
                upper = best;
            } else if best >= beta0 {
                lower = best;
            } else {
                (lower, upper) = (best, best);
            }
            s.table.insert(
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
                let sq = m.trailing_zeros();
                m &= m - 1;
                let f = k.flips(p, o, sq);
                let v = -b.negamax(s, o & !f, p | f | 1 << sq, -beta, -alpha, false);
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

impl Solver {
    /// The exact score of `pos` for the side to move and a best move (`None` when the game
    /// is over).
    pub fn solve(&mut self, pos: &Othello) -> (i32, Option<Move>) {
        #[cfg(target_arch = "x86_64")]
        if let Some(k) = kernel::avx2() {
            return self.solve_with(Avx2Build(k), pos);
        }
        self.solve_with(PortableBuild, pos)
    }

    fn solve_with(&mut self, b: impl Build, pos: &Othello) -> (i32, Option<Move>) {
        if self.table.slots.is_empty() {
            self.table.bits = Table::bits_for(pos.empties());
        }
        let k = b.kernel();
        let (p, o) = pos.discs();
        if pos.is_over() {
            return (final_score(p, o), None);
        }
        let moves = k.legal_moves(p, o);
        if moves == 0 {
            return (-b.negamax(self, o, p, -64, 64, true), Some(Move::Pass));
        }
        let empties = pos.empties();
        let mut ordered: Vec<(i32, Square)> = squares_of(moves)
            .map(|sq| {
                let f = k.flips(p, o, sq.index() as u32);
                (move_key(b, p | f | sq.bit(), o & !f, empties), sq)
            })
            .collect();
        ordered.sort();
        let moves: Vec<(Square, u64)> = ordered
            .into_iter()
            .map(|(_, sq)| (sq, k.flips(p, o, sq.index() as u32)))
            .collect();
        // MTD(f): null-window tests moving toward the score, each one cheap and helped by
        // the bounds the ones before left in the table, instead of one wide search.
        let (mut lower, mut upper, mut guess) = (-65, 65, 0);
        let mut best = None;
        while lower < upper {
            let beta = guess.max(lower + 1);
            let (value, mv) = self.root(b, p, o, &moves, beta);
            if value < beta {
                upper = value;
            } else {
                lower = value;
                best = mv;
            }
            guess = value;
        }
        (lower, best.map(Move::Place))
    }

    /// The root with the null window (beta − 1, beta): the best value found (fail-soft)
    /// and, when it reaches beta, the move that does.
    fn root(
        &mut self,
        b: impl Build,
        p: u64,
        o: u64,
        moves: &[(Square, u64)],
        beta: i32,
    ) -> (i32, Option<Square>) {
        let mut best = (i32::MIN, None);
        for &(sq, f) in moves {
            let v = -b.negamax(self, o & !f, p | f | sq.bit(), -beta, -beta + 1, false);
            if v > best.0 {
                best = (v, Some(sq));
                if v >= beta {
                    break;
                }
            }
        }
        best
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
    fn both_builds_find_the_same_scores() {
        // `solve` takes the AVX2 build where the CPU has it; this is the other. Positions
        // with 14 empties from random games, so the ordering search and the table run.
        for game in 0..12 {
            let mut rng = gamelab_core::game_rng(21, game, gamelab_core::Side::First);
            let mut pos = Othello::new();
            while pos.empties() > 14 && !pos.is_over() {
                let moves = gamelab_core::Game::legal_moves(&pos);
                pos.play(moves[rng.below(moves.len())]);
            }
            let portable = Solver::default().solve_with(PortableBuild, &pos);
            let (mut a, mut b) = (Solver::default(), Solver::default());
            let best = a.solve(&pos);
            assert_eq!(portable.0, best.0, "{pos}");
            assert_eq!(b.solve(&pos), best, "the same every time");
            assert_eq!(a.nodes, b.nodes);
        }
    }

    #[test]
    fn stable_discs_are_the_ones_no_move_can_flip() {
        // Corners and what leans on them; nothing in the middle of an open board.
        assert_eq!(stable_discs(1, 0), 1);
        assert_eq!(stable_discs(0b111, 1 << 20), 0b111);
        let start = Othello::new();
        assert_eq!(stable_discs(start.black(), start.white()), 0);
        // A full board: every disc.
        assert_eq!(
            stable_discs(0x0f0f_0f0f_0f0f_0f0f, !0x0f0f_0f0f_0f0f_0f0f),
            0x0f0f_0f0f_0f0f_0f0f
        );
        // Never a disc that some sequence of moves flips: check against random games.
        for game in 0..200 {
            let mut rng = gamelab_core::game_rng(4, game, gamelab_core::Side::First);
            let mut pos = Othello::new();
            let mut history = vec![];
            while !pos.is_over() {
                history.push((pos.black(), pos.white()));
                let moves = gamelab_core::Game::legal_moves(&pos);
                pos.play(moves[rng.below(moves.len())]);
            }
            history.push((pos.black(), pos.white()));
            for (i, &(black, white)) in history.iter().enumerate() {
                let stable = stable_discs(black, white);
                for &(later_black, _) in &history[i..] {
                    assert_eq!(stable & later_black, stable, "black lost a stable disc");
                }
            }
        }
    }

    #[test]
    fn a_finished_game_scores_its_discs() {
        let pos = Othello::from_discs(!0 >> 1, 1 << 63, true);
        assert!(pos.is_over());
        assert_eq!(Solver::default().solve(&pos), (62, None));
    }
}
