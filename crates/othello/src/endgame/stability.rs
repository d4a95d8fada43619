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

/// For the discs on one edge (`p`, `o`: a bit per square, in order along the edge), the
/// ones no sequence of moves can flip, indexed by `p << 8 | o`. A disc on an edge can only
/// be flipped along it, so the edge alone decides; any empty square is taken to be
/// playable by either side, flipping along the edge or not (it may flip elsewhere).
static EDGE_STABLE: [u8; 1 << 16] = {
    let mut table = [0u8; 1 << 16];
    // Fuller edges first: an edge's answer is read from those after each move on it.
    let mut discs = 8;
    loop {
        let mut p = 0usize;
        while p < 256 {
            let mut o = 0usize;
            while o < 256 {
                if p & o == 0 && (p | o).count_ones() == discs {
                    table[p << 8 | o] = edge_stable_after_moves(&table, p as u8, o as u8);
                }
                o += 1;
            }
            p += 1;
        }
        if discs == 0 {
            break;
        }
        discs -= 1;
    }
    table
};

/// The discs of (`p`, `o`) on an edge that stay as they are after every move on it and
/// are stable in the edge after that move (read from `table`).
const fn edge_stable_after_moves(table: &[u8; 1 << 16], p: u8, o: u8) -> u8 {
    let mut stable = p | o;
    let mut x = 0;
    while x < 8 {
        if (p | o) & (1 << x) == 0 {
            let mut side = 0;
            while side < 2 {
                let (me, them) = if side == 0 { (p, o) } else { (o, p) };
                let flipped = edge_flips(me, them, x);
                let (me, them) = (me | flipped | (1 << x), them & !flipped);
                let (np, no) = if side == 0 { (me, them) } else { (them, me) };
                stable &= table[(np as usize) << 8 | no as usize] & !flipped;
                side += 1;
            }
        }
        x += 1;
    }
    stable
}

/// The discs of `them` flipped along the edge when `me` plays on square `x` of it.
const fn edge_flips(me: u8, them: u8, x: i32) -> u8 {
    let mut flipped = 0;
    let mut step = -1;
    while step <= 1 {
        let (mut run, mut i) = (0u8, x + step);
        while i >= 0 && i < 8 && them & (1 << i) != 0 {
            run |= 1 << i;
            i += step;
        }
        if i >= 0 && i < 8 && me & (1 << i) != 0 {
            flipped |= run;
        }
        step += 2;
    }
    flipped
}

/// File a's squares (a1 … a8) as the bits of a byte, a8 first: the order does not matter
/// to [`EDGE_STABLE`] as long as [`byte_to_file_a`] undoes it.
#[inline(always)]
fn file_a_to_byte(x: u64) -> usize {
    ((x & FILE_A).wrapping_mul(0x8040_2010_0804_0201) >> 56) as usize
}

/// The inverse of [`file_a_to_byte`].
#[inline(always)]
fn byte_to_file_a(b: u8) -> u64 {
    (u64::from(b).wrapping_mul(0x8040_2010_0804_0201) >> 7) & FILE_A
}

/// The discs of `me` on the four edges that can never be flipped.
#[inline(always)]
fn edge_stable(me: u64, other: u64) -> u64 {
    let look = |me: usize, other: usize| EDGE_STABLE[me << 8 | other];
    let rank_1 = u64::from(look((me & 0xff) as usize, (other & 0xff) as usize));
    let rank_8 = u64::from(look((me >> 56) as usize, (other >> 56) as usize)) << 56;
    let file_a = byte_to_file_a(look(file_a_to_byte(me), file_a_to_byte(other)));
    let file_h = byte_to_file_a(look(file_a_to_byte(me >> 7), file_a_to_byte(other >> 7))) << 7;
    (rank_1 | rank_8 | file_a | file_h) & me
}

/// Discs of `me` that can never be flipped (a lower bound): the stable discs of the
/// edges, and then those whose every direction has a full line, or a neighbour that is
/// the edge or a stable disc of `me`. Starting from the edges finds a few more discs and
/// needs fewer rounds than growing the set from the corners.
pub(super) fn stable_discs(me: u64, other: u64) -> u64 {
    let [rows, columns, d9, d7] = full_lines(me | other);
    let (rows, columns) = (rows | FILE_A | FILE_H, columns | RANK_1 | RANK_8);
    let (d9, d7) = (d9 | BORDER, d7 | BORDER);
    let edges = edge_stable(me, other);
    let mut stable = edges;
    loop {
        let s = stable;
        let more = edges
            | me & (rows | ((s << 1) & NOT_A) | ((s >> 1) & NOT_H))
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
/// ones.
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
    fn a_file_goes_to_a_byte_and_back() {
        for b in 0..=255u8 {
            let file = byte_to_file_a(b);
            assert_eq!(file & !FILE_A, 0, "{b}");
            assert_eq!(file_a_to_byte(file), usize::from(b), "{b}");
        }
    }

    #[test]
    fn edge_stability_follows_the_moves_along_the_edge() {
        let stable = |p: u8, o: u8| EDGE_STABLE[usize::from(p) << 8 | usize::from(o)];
        // A full edge: every disc.
        assert_eq!(stable(0b1010_1010, 0b0101_0101), 0xff);
        // A corner and what leans on it, not the discs the other side can bracket.
        assert_eq!(stable(0b0000_0111, 0b0011_1000), 0b0000_0111);
        // One empty square between a player's run and a corner: the run can be bracketed
        // from the empty square only if a disc of the other side lies beyond it.
        assert_eq!(stable(0b0111_1111, 0), 0b0111_1111);
        assert_eq!(stable(0b0111_1110, 0b0000_0001), 0b0000_0001);
        // Nothing on an empty edge, nothing off the corners with room on both sides.
        assert_eq!(stable(0, 0), 0);
        assert_eq!(stable(0b0001_1000, 0), 0);
    }

    /// [`EDGE_STABLE`]'s answer found by trying every sequence of moves on the edge.
    fn edge_stable_by_search(p: u8, o: u8) -> u8 {
        let mut stable = p | o;
        for x in (0..8).filter(|x| (p | o) & (1 << x) == 0) {
            for (me, them, mover_is_p) in [(p, o, true), (o, p, false)] {
                let flipped = edge_flips(me, them, x);
                let (me, them) = (me | flipped | (1 << x), them & !flipped);
                let (np, no) = if mover_is_p { (me, them) } else { (them, me) };
                stable &= edge_stable_by_search(np, no) & !flipped;
            }
        }
        stable
    }

    #[test]
    fn the_edge_table_agrees_with_a_search_of_every_sequence() {
        for p in 0..=255u8 {
            for o in (0..=255u8).filter(|o| o & p == 0 && (o | p).count_zeros() <= 4) {
                assert_eq!(
                    EDGE_STABLE[usize::from(p) << 8 | usize::from(o)],
                    edge_stable_by_search(p, o),
                    "{p:08b} {o:08b}"
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
