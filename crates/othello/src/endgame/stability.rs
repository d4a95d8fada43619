//! Stable discs — discs no sequence of moves can flip — and the cut-off they give: the
//! opponent's stable discs stay theirs, which caps the score.

use super::{FILE_A, FILE_H, NOT_A, NOT_H};

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

/// Up to this many empties, [`full_lines`] starts from the empty squares.
const FEW_OPEN_EMPTIES: u32 = 12;

/// The squares whose lines in each direction — horizontal, vertical, and the two
/// diagonals — are full: no disc there can ever flip along that line.
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    if (!filled).count_ones() <= FEW_OPEN_EMPTIES {
        full_lines_from_empties(filled)
    } else {
        full_lines_one_by_one(filled)
    }
}

/// [`full_lines`] near the end, faster from the empty squares: a line is full unless it
/// runs through one.
#[inline]
fn full_lines_from_empties(filled: u64) -> [u64; 4] {
    let mut open = [0; 4];
    let mut e = !filled;
    while e != 0 {
        let lines = &crate::bits::LINE_MASKS[e.trailing_zeros() as usize];
        for (open, line) in open.iter_mut().zip(lines) {
            *open |= line;
        }
        e &= e - 1;
    }
    open.map(|open| !open)
}

/// [`full_lines`] with many empties: each rank, file and diagonal tested in turn.
#[inline]
fn full_lines_one_by_one(filled: u64) -> [u64; 4] {
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

    #[test]
    fn full_lines_are_the_same_counted_from_the_empty_squares() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for empties in 0..=FEW_OPEN_EMPTIES {
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
                    full_lines_from_empties(filled),
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
