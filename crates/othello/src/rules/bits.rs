//! Bitboard primitives. Square `a1` is bit 0, `h1` bit 7, `a2` bit 8 … `h8` bit 63
//! (index = 8·rank + file, both from 0).
//!
//! Black's first move from the start: its legal squares, the disc f5 flips, and the
//! board's eight images.
//!
//! ```
//! use gamelab_othello::bits::{
//!     INVERSE_IMAGE, flip_diagonal, flip_horizontal, flip_vertical, flips, images, legal_moves,
//!     nth_set_bit,
//! };
//!
//! let bit = |name: &str| 1u64 << gamelab_othello::Square::parse(name).unwrap().index();
//! let black = bit("d5") | bit("e4");
//! let white = bit("d4") | bit("e5");
//! let legal = legal_moves(black, white);
//! assert_eq!(legal, bit("d3") | bit("c4") | bit("f5") | bit("e6"));
//! assert_eq!(flips(black, white, 37), bit("e5")); // f5 is bit 37
//! assert_eq!(flips(black, white, 0), 0, "a1 flips nothing");
//! assert_eq!(nth_set_bit(legal, 0), 19); // d3, the lowest
//!
//! assert_eq!(flip_horizontal(bit("a1")), bit("h1"));
//! assert_eq!(flip_vertical(bit("a1")), bit("a8"));
//! assert_eq!(flip_diagonal(bit("h1")), bit("a8"));
//! let start = black | white;
//! assert!(images(start).iter().all(|&image| image == start), "the centre is symmetric");
//! for (i, image) in images(bit("b1")).into_iter().enumerate() {
//!     assert_eq!(images(image)[INVERSE_IMAGE[i] as usize], bit("b1"));
//! }
//! ```

/// Discs of `mask` reachable from `p` by runs along direction `dir` (both ways), one step
/// past the run: the Kogge–Stone fill with doubled steps, 3 shifts per way instead of 6.
#[inline(always)]
fn moves_along(p: u64, mask: u64, dir: u32) -> u64 {
    let mut fwd = mask & (p << dir);
    let mut back = mask & (p >> dir);
    fwd |= mask & (fwd << dir);
    back |= mask & (back >> dir);
    let pair_fwd = mask & (mask << dir);
    let pair_back = pair_fwd >> dir;
    fwd |= pair_fwd & (fwd << (2 * dir));
    back |= pair_back & (back >> (2 * dir));
    fwd |= pair_fwd & (fwd << (2 * dir));
    back |= pair_back & (back >> (2 * dir));
    (fwd << dir) | (back >> dir)
}

/// The legal moves of the player owning `p` against `o`, as a mask.
#[inline]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    // Opponent discs off files a and h: a run through them never wraps around an edge.
    let inner = o & 0x7e7e_7e7e_7e7e_7e7e;
    let moves = moves_along(p, inner, 1)
        | moves_along(p, o, 8)
        | moves_along(p, inner, 7)
        | moves_along(p, inner, 9);
    moves & !(p | o)
}

/// The squares from each square toward each direction — east, west, north, south,
/// north-east, north-west, south-east, south-west — not including the square itself.
pub(crate) const RAYS: [[u64; 64]; 8] = {
    let mut rays = [[0u64; 64]; 8];
    let steps: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
    ];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
            let mut ray = 0u64;
            loop {
                f += steps[d].0;
                r += steps[d].1;
                if f < 0 || f > 7 || r < 0 || r > 7 {
                    break;
                }
                ray |= 1 << (r * 8 + f);
            }
            rays[d][sq] = ray;
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// The opponent discs that placing a disc on `sq` flips (empty when `sq` is not legal).
///
/// Along each ray the first square that is not an opponent disc ends the run; the run
/// flips when that square is ours.
#[inline]
pub fn flips(p: u64, o: u64, sq: u32) -> u64 {
    let sq = sq as usize;
    let mut flipped = 0;
    // Without branches: which rays flip is unpredictable, and a mispredicted branch costs
    // more than the few operations it would skip.
    let all_if = |bit: u64| ((bit & p != 0) as u64).wrapping_neg();
    // Rays toward higher bits (east, north, north-east, north-west): the nearest square
    // is the lowest bit.
    for d in [0, 2, 4, 5] {
        let ray = RAYS[d][sq];
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        flipped |= ray & first.wrapping_sub(1) & all_if(first);
    }
    // Rays toward lower bits: the nearest square is the highest bit.
    for d in [1, 3, 6, 7] {
        let ray = RAYS[d][sq];
        let stop = ray & !o;
        let first = (1u64 << 63).checked_shr(stop.leading_zeros()).unwrap_or(0);
        flipped |= ray & !(first << 1).wrapping_sub(1) & all_if(first);
    }
    flipped
}

/// How many discs a move on `sq` flips when `sq` is the only empty square: every other
/// square holds a disc, and those not in `p` are the opponent's.
///
/// ```
/// use gamelab_othello::bits::{flips, last_flip_count};
///
/// // Only a1 empty; black holds the h1 and a8 corners and h8, white the rest.
/// let a1 = 0;
/// let black = 1 << 7 | 1 << 56 | 1 << 63;
/// let white = !black & !(1 << a1);
/// assert_eq!(last_flip_count(black, a1), 18); // 6 along rank 1, 6 up file a, 6 on the diagonal
/// assert_eq!(last_flip_count(black, a1), flips(black, white, a1).count_ones());
/// ```
#[inline]
pub fn last_flip_count(p: u64, sq: u32) -> u32 {
    flips(p, !p & !(1 << sq), sq).count_ones()
}

/// The four lines through each square: its rank, file, a1–h8 and a8–h1 diagonals. Kept
/// apart from [`LINE_PLACES`] so that a square's four masks are one 32-byte load.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const LINE_MASKS: [[u64; 4]; 64] = LINES.0;

/// The square's place among each of [`LINE_MASKS`]' lines' squares, in bit order.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const LINE_PLACES: [[u8; 4]; 64] = LINES.1;

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const LINES: ([[u64; 4]; 64], [[u8; 4]; 64]) = {
    let (mut masks, mut places) = ([[0u64; 4]; 64], [[0u8; 4]; 64]);
    let mut sq = 0;
    while sq < 64 {
        let mut l = 0;
        while l < 4 {
            // A line is the square plus its two opposite rays.
            let (a, b) = [(0, 1), (2, 3), (4, 7), (5, 6)][l];
            masks[sq][l] = RAYS[a][sq] | RAYS[b][sq] | 1 << sq;
            places[sq][l] = (masks[sq][l] & ((1u64 << sq) - 1)).count_ones() as u8;
            l += 1;
        }
        sq += 1;
    }
    (masks, places)
};

/// For a full line of up to 8 squares with one empty at `place`, given which squares are
/// the mover's (`pattern`, one bit per square in line order; the rest are the
/// opponent's): how many discs a move there flips. Squares past a short line's end read
/// as the opponent's, which ends no run, so they never add flips.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) static LINE_FLIP_COUNT: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut place = 0;
    while place < 8 {
        let mut pattern = 0;
        while pattern < 256 {
            let mut count = 0;
            let mut j = place + 1;
            while j < 8 && pattern >> j & 1 == 0 {
                j += 1;
            }
            if j < 8 {
                count += j - place - 1;
            }
            let mut j = place as i32 - 1;
            while j >= 0 && pattern >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                count += place - j as usize - 1;
            }
            table[place][pattern] = count as u8;
            pattern += 1;
        }
        place += 1;
    }
    table
};

/// The index of the `k`-th (from 0) set bit of `x`, which has more than `k` set bits:
/// halves, quarters and bytes skipped by their counts without branches, then a table.
#[inline]
pub fn nth_set_bit(mut x: u64, mut k: u32) -> u32 {
    debug_assert!(k < x.count_ones());
    let mut base = 0;
    for width in [32, 16, 8] {
        let low = (x & ((1u64 << width) - 1)).count_ones();
        let skip = k >= low;
        let shift = if skip { width } else { 0 };
        k -= if skip { low } else { 0 };
        x >>= shift;
        base += shift;
    }
    base + u32::from(NTH_IN_BYTE[(x & 0xff) as usize][k as usize & 7])
}

/// For each byte, the positions of its set bits in order.
static NTH_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if b & (1 << bit) != 0 {
                table[b][n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// Mirror across the vertical axis (file a ↔ h).
pub fn flip_horizontal(mut b: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    b = ((b >> 1) & K1) | ((b & K1) << 1);
    b = ((b >> 2) & K2) | ((b & K2) << 2);
    ((b >> 4) & K4) | ((b & K4) << 4)
}

/// Mirror across the horizontal axis (rank 1 ↔ 8).
pub fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// Mirror across the a1–h8 diagonal.
pub fn flip_diagonal(mut b: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    t = K2 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    t = K1 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// For each image index of [`images`], the index of the image that undoes it: the
/// reflections and the half turn are their own inverses; the quarter turns swap.
pub const INVERSE_IMAGE: [u8; 8] = [0, 1, 2, 3, 4, 6, 5, 7];

/// The 8 symmetric images of a bitboard (identity first).
pub fn images(b: u64) -> [u64; 8] {
    let h = flip_horizontal(b);
    let v = flip_vertical(b);
    let hv = flip_vertical(h);
    let d = flip_diagonal(b);
    [
        b,
        h,
        v,
        hv,
        d,
        flip_horizontal(d),
        flip_vertical(d),
        flip_vertical(flip_horizontal(d)),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn nth_set_bit_walks_the_set_bits_in_order() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2_000 {
            let mut rest = x;
            for k in 0..x.count_ones() {
                assert_eq!(
                    super::nth_set_bit(x, k),
                    rest.trailing_zeros(),
                    "{x:#x} {k}"
                );
                rest &= rest - 1;
            }
            x = x.rotate_left(7).wrapping_mul(0xbf58_476d_1ce4_e5b9) >> (x % 5);
        }
        assert_eq!(super::nth_set_bit(1 << 63, 0), 63);
        assert_eq!(super::nth_set_bit(u64::MAX, 63), 63);
    }

    use super::*;

    /// Squares not on file a / not on file h: a shift east must not wrap from h to a.
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

    /// The 8 directions as (shift, mask applied after shifting): positive shifts move toward
    /// h8, negative toward a1.
    const DIRECTIONS: [(i32, u64); 8] = [
        (1, NOT_A),  // east
        (-1, NOT_H), // west
        (8, !0),     // north (toward rank 8)
        (-8, !0),    // south
        (9, NOT_A),  // north-east
        (7, NOT_H),  // north-west
        (-7, NOT_A), // south-east
        (-9, NOT_H), // south-west
    ];

    fn shift(b: u64, by: i32) -> u64 {
        if by > 0 { b << by } else { b >> -by }
    }

    /// Direction by direction, square by square: slow and plainly right.
    fn legal_moves_reference(p: u64, o: u64) -> u64 {
        let empty = !(p | o);
        let mut moves = 0;
        for (by, mask) in DIRECTIONS {
            let mut t = shift(p, by) & mask & o;
            for _ in 0..5 {
                t |= shift(t, by) & mask & o;
            }
            moves |= shift(t, by) & mask & empty;
        }
        moves
    }

    fn flips_reference(p: u64, o: u64, sq: u32) -> u64 {
        let mut flipped = 0;
        for (by, mask) in DIRECTIONS {
            let mut run = 0;
            let mut s = shift(1u64 << sq, by) & mask;
            while s & o != 0 {
                run |= s;
                s = shift(s, by) & mask;
            }
            if s & p != 0 {
                flipped |= run;
            }
        }
        flipped
    }

    #[test]
    fn fast_moves_and_flips_match_the_reference_on_random_boards() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            state = gamelab_core::mix64(state);
            state
        };
        for _ in 0..20_000 {
            let (a, b) = (next(), next());
            // Dense and sparse boards: discs where a bit of `a` is set, split by `b`.
            let occupied = if a & 1 == 0 { a } else { a & next() };
            let (p, o) = (occupied & b, occupied & !b);
            assert_eq!(
                legal_moves(p, o),
                legal_moves_reference(p, o),
                "{p:x} {o:x}"
            );
            for sq in 0..64 {
                if occupied & (1 << sq) == 0 {
                    assert_eq!(
                        flips(p, o, sq),
                        flips_reference(p, o, sq),
                        "{p:x} {o:x} {sq}"
                    );
                }
            }
        }
    }

    #[test]
    fn last_flip_counts_match_the_flips() {
        let mut state = 0x0ddb_a11c_afe0_f00du64;
        for _ in 0..20_000 {
            state = gamelab_core::mix64(state);
            let sq = (state >> 58) as u32;
            let p = gamelab_core::mix64(state ^ 1) & !(1 << sq);
            let o = !p & !(1 << sq);
            let expected = flips_reference(p, o, sq).count_ones();
            assert_eq!(last_flip_count(p, sq), expected, "{p:x} {sq}");
            let by_lines: u32 = LINE_MASKS[sq as usize]
                .iter()
                .zip(LINE_PLACES[sq as usize])
                .map(|(&mask, place)| {
                    let pattern = pext_reference(p, mask);
                    u32::from(LINE_FLIP_COUNT[place as usize][pattern as usize])
                })
                .sum();
            assert_eq!(by_lines, expected, "{p:x} {sq}");
        }
    }

    /// The bits of `x` under `mask`, packed toward bit 0.
    fn pext_reference(x: u64, mut mask: u64) -> u64 {
        let mut out = 0;
        let mut i = 0;
        while mask != 0 {
            let bit = mask.trailing_zeros();
            out |= (x >> bit & 1) << i;
            mask &= mask - 1;
            i += 1;
        }
        out
    }

    #[test]
    fn start_position_has_four_moves() {
        // black: d5 (35), e4 (28); white: d4 (27), e5 (36)
        let black = 1 << 35 | 1 << 28;
        let white = 1 << 27 | 1 << 36;
        let m = legal_moves(black, white);
        // d3 (19), c4 (26), f5 (37), e6 (44)
        assert_eq!(m, 1 << 19 | 1 << 26 | 1 << 37 | 1 << 44);
        assert_eq!(flips(black, white, 19), 1 << 27);
        assert_eq!(flips(black, white, 0), 0);
    }

    #[test]
    fn no_wrap_around_the_edges() {
        // black on h1 (7), white on a2 (8): not a line
        assert_eq!(legal_moves(1 << 7, 1 << 8) & (1 << 9), 0);
        assert_eq!(flips(1 << 7, 1 << 8, 9), 0);
    }

    #[test]
    fn symmetries_are_involutions_and_distinct() {
        let b: u64 = 0x0000_0000_0000_0107; // a1 b1 c1 a2
        for f in [flip_horizontal, flip_vertical, flip_diagonal] {
            assert_eq!(f(f(b)), b);
        }
        let imgs = images(b);
        let mut sorted = imgs.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 8);
        assert!(imgs.iter().all(|i| i.count_ones() == 4));
        assert_eq!(flip_horizontal(1), 1 << 7, "a1 ↔ h1");
        assert_eq!(flip_vertical(1), 1 << 56, "a1 ↔ a8");
        assert_eq!(flip_diagonal(1 << 1), 1 << 8, "b1 ↔ a2");
        // each image followed by its inverse is the identity
        let x: u64 = 0x0000_0000_0002_0107;
        for (i, &inverse) in INVERSE_IMAGE.iter().enumerate() {
            let once = images(x)[i];
            assert_eq!(images(once)[inverse as usize], x, "image {i}");
        }
    }
}
