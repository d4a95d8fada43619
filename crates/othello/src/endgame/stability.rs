//! Stable discs — discs no sequence of moves can flip — and the cut-off they give: the
//! opponent's stable discs stay theirs, which caps the score.

use super::{FILE_A, FILE_H, NOT_A, NOT_H};

const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;
const BORDER: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// For each diagonal direction (+9: toward h8, +7: toward a8) and each step of 1, 2 and 4
/// squares along it: the squares from which fewer than that many squares follow in that
/// direction (`[.][0]`) or precede in the other (`[.][1]`), so that a shift by that step
/// would leave the diagonal.
const DIAGONAL_ENDS: [[[u64; 3]; 2]; 2] = {
    let mut ends = [[[0u64; 3]; 2]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        // Squares after and before along +9, then along +7.
        let runs = [
            [min(7 - f, 7 - r), min(f, r)],
            [min(f, 7 - r), min(7 - f, r)],
        ];
        let mut d = 0;
        while d < 2 {
            let mut way = 0;
            while way < 2 {
                let mut k = 0;
                while k < 3 {
                    if runs[d][way] < 1 << k {
                        ends[d][way][k] |= 1 << sq;
                    }
                    k += 1;
                }
                way += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    ends
};

const fn min(a: usize, b: usize) -> usize {
    if a < b { a } else { b }
}

/// The squares whose diagonal in direction `step` (9 or 7, `d` its index in
/// [`DIAGONAL_ENDS`]) is full: the filled run from each square is doubled three times
/// each way (1, 2, 4 squares), a shift off the diagonal counting as filled.
#[inline(always)]
fn full_diagonal(filled: u64, step: u32, d: usize) -> u64 {
    let [after, before] = &DIAGONAL_ENDS[d];
    let (mut up, mut down) = (filled, filled);
    for k in 0..3 {
        up &= (up >> (step << k)) | after[k];
        down &= (down << (step << k)) | before[k];
    }
    up & down
}

/// The squares whose lines in each direction — horizontal, vertical, and the two
/// diagonals — are full: no disc there can ever flip along that line. Branch-free, by
/// shifts (a loop over the lines or over the empty squares cost 7.6 % of an FFO solve).
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    // Bit 0 of each rank becomes the AND of the rank's eight.
    let mut rows = filled & (filled >> 4);
    rows &= rows >> 2;
    rows &= rows >> 1;
    let rows = (rows & FILE_A) * 0xff;
    let mut columns = filled;
    for shift in [8, 16, 32] {
        columns &= columns >> shift;
    }
    let columns = (columns & 0xff) * FILE_A;
    [
        rows,
        columns,
        full_diagonal(filled, 9, 0),
        full_diagonal(filled, 7, 1),
    ]
}

/// Discs of `me` that can never be flipped (a lower bound): in each of the four
/// directions the line is full, or a neighbour is the edge or a stable disc of `me`.
/// (Starting from a table of each edge's stable discs found a few more and in fewer
/// rounds, but the table reads cost what the rounds saved: see BENCHMARKS.md.)
pub(super) fn stable_discs(me: u64, other: u64) -> u64 {
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

/// Stability cut-off: the opponent's stable discs stay theirs, which caps the score at
/// or below `alpha` when it returns one. It needs the opponent to hold at least
/// (64 − alpha) / 2 discs, which most nodes fail without the cost of finding the stable
/// ones. (From five empties: FFO #45, #49, #50 1.4 % fewer nodes than from six.)
#[inline(always)]
pub(super) fn stability_cap(p: u64, o: u64, alpha: i32) -> Option<i32> {
    if alpha >= 64 - 2 * o.count_ones() as i32 {
        let cap = 64 - 2 * stable_discs(o, p).count_ones() as i32;
        if cap <= alpha {
            return Some(cap);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Othello;

    /// Each line through each square checked square by square.
    fn full_lines_one_by_one(filled: u64) -> [u64; 4] {
        let mut full = [0; 4];
        for sq in 0..64 {
            for (full, line) in full.iter_mut().zip(&crate::bits::LINE_MASKS[sq]) {
                if filled & line == *line {
                    *full |= 1 << sq;
                }
            }
        }
        full
    }

    #[test]
    fn full_lines_by_shifts_are_the_lines_full_square_by_square() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for empties in 0..=64 {
            for _ in 0..200 {
                // A board with `empties` empty squares at random.
                let mut empty = 0u64;
                while empty.count_ones() < empties {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    empty |= 1 << (x % 64);
                }
                let filled = !empty;
                assert_eq!(
                    full_lines(filled),
                    full_lines_one_by_one(filled),
                    "{filled:#x}"
                );
            }
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
        // A run along an edge from a corner.
        assert_eq!(stable_discs(0b1111_1000, 0b0000_0100), 0b1111_1000);
        // Never a disc that some sequence of moves flips: check against random games.
        for game in 0..300 {
            let mut rng = gamelab_core::game_rng(4, game, gamelab_core::Side::First);
            let mut pos = Othello::new();
            let mut history = vec![];
            while !pos.is_over() {
                history.push((pos.black(), pos.white()));
                let moves = gamelab_core::Game::legal_moves(&pos);
                pos.play_unchecked(moves[rng.below(moves.len())]);
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
}
