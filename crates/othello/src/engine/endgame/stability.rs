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
/// The rounds start from the runs of `me` along the edges from its corners, which the
/// rounds would find one disc a round. (Starting from a table of each edge's stable discs
/// found a few more and in fewer rounds, but the table reads cost what the rounds saved:
/// see BENCHMARKS.md.) The search asks [`stability_cap`], which often stops sooner.
#[inline(always)]
fn stable_discs(me: u64, other: u64) -> u64 {
    Open::of(me | other).rounds(me, corner_runs(me))
}

/// For each direction, the squares whose line in that direction is full or where the
/// edge is a neighbour: a disc there cannot be flipped along it.
struct Open {
    rows: u64,
    columns: u64,
    d9: u64,
    d7: u64,
}

impl Open {
    #[inline(always)]
    fn of(filled: u64) -> Open {
        let [rows, columns, d9, d7] = full_lines(filled);
        Open {
            rows: rows | FILE_A | FILE_H,
            columns: columns | RANK_1 | RANK_8,
            d9: d9 | BORDER,
            d7: d7 | BORDER,
        }
    }

    /// The discs of `me` that no direction can flip when the discs of `s` are stable.
    #[inline(always)]
    fn round(&self, me: u64, s: u64) -> u64 {
        me & (self.rows | ((s << 1) & NOT_A) | ((s >> 1) & NOT_H))
            & (self.columns | (s << 8) | (s >> 8))
            & (self.d9 | ((s << 9) & NOT_A) | ((s >> 9) & NOT_H))
            & (self.d7 | ((s << 7) & NOT_H) | ((s >> 7) & NOT_A))
    }

    /// Rounds from `stable` (discs of `me` known stable) until no more are found.
    #[inline(always)]
    fn rounds(&self, me: u64, mut stable: u64) -> u64 {
        loop {
            let more = self.round(me, stable);
            if more == stable {
                return stable;
            }
            stable = more;
        }
    }
}

/// The discs of `me` on an edge with an unbroken line of `me` between them and a corner
/// along that edge: stable, since the edge's other directions leave the board. Each is
/// the AND of the discs before it, by doubling steps from every side at once.
#[inline(always)]
fn corner_runs(me: u64) -> u64 {
    const FILES: [u64; 3] = [FILE_A, FILE_A * 0x03, FILE_A * 0x0f];
    let (mut up, mut down, mut east, mut west) = (me, me, me, me);
    for (k, files) in FILES.into_iter().enumerate() {
        up &= (up << (8 << k)) | (u64::MAX >> (64 - (8 << k)));
        down &= (down >> (8 << k)) | (u64::MAX << (64 - (8 << k)));
        east &= ((east << (1 << k)) & !files) | files;
        let west_files = files << (8 - (1 << k));
        west &= ((west >> (1 << k)) & !west_files) | west_files;
    }
    ((up | down) & (FILE_A | FILE_H)) | ((east | west) & (RANK_1 | RANK_8))
}

/// Stability cut-off: the opponent's stable discs stay theirs, which caps the score at
/// or below `alpha` when it returns one. It needs the opponent to hold at least
/// (64 − alpha) / 2 discs, which most nodes fail without the cost of finding the stable
/// ones. (From five empties: FFO #45, #49, #50 1.4 % fewer nodes than from six.)
#[inline(always)]
pub(super) fn stability_cap(p: u64, o: u64, alpha: i32) -> Option<i32> {
    let cap_of = |stable: u64| 64 - 2 * stable.count_ones() as i32;
    if cap_of(o) <= alpha {
        let cap = cap_of(stable_discs(o, p));
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

    /// A stream of pseudo-random words (xorshift) from `seed`, not 0.
    fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// Each line through each square checked square by square.
    fn full_lines_one_by_one(filled: u64) -> [u64; 4] {
        let mut full = [0; 4];
        for sq in 0..64 {
            for (full, line) in full.iter_mut().zip(&crate::rules::bits::LINE_MASKS[sq]) {
                if filled & line == *line {
                    *full |= 1 << sq;
                }
            }
        }
        full
    }

    #[test]
    fn full_lines_by_shifts_are_the_lines_full_square_by_square() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for empties in 0..=64 {
            for _ in 0..200 {
                // A board with `empties` empty squares at random.
                let mut empty = 0u64;
                while empty.count_ones() < empties {
                    empty |= 1 << (next() % 64);
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

    /// [`stable_discs`] without the corner runs to start from.
    fn stable_discs_from_none(me: u64, other: u64) -> u64 {
        Open::of(me | other).rounds(me, 0)
    }

    #[test]
    fn corner_runs_only_start_the_rounds_sooner() {
        // The same stable discs as the rounds from none find, on random boards and on
        // boards with full or nearly full edges.
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for i in 0..20_000 {
            let (a, b, c) = (next(), next(), next());
            let filled = if i % 2 == 0 { a | b | BORDER } else { a | b };
            let (me, other) = (filled & c, filled & !c);
            let runs = corner_runs(me);
            assert_eq!(runs & !me, 0);
            assert_eq!(
                stable_discs(me, other),
                stable_discs_from_none(me, other),
                "{me:#x} {other:#x}"
            );
        }
        assert_eq!(
            corner_runs(0b1110_0111 | 1 << 8 | 1 << 16),
            0b1110_0111 | 1 << 8 | 1 << 16
        );
        assert_eq!(corner_runs(0b0111_1110), 0);
        assert_eq!(corner_runs(!0), BORDER);
    }

    #[test]
    fn the_cap_is_the_one_from_all_stable_discs() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut cuts = 0;
        for i in 0..20_000 {
            let (a, b, c) = (next(), next(), next());
            let filled = a | b | if i % 2 == 0 { BORDER } else { 0 };
            let (p, o) = (filled & c, filled & !c);
            let full = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            for alpha in -64..=64 {
                let expected = (full <= alpha).then_some(full);
                assert_eq!(
                    stability_cap(p, o, alpha),
                    expected,
                    "{p:#x} {o:#x} {alpha}"
                );
                cuts += usize::from(expected.is_some());
            }
        }
        assert!(cuts > 1000, "{cuts}");
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
