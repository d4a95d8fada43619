use gamelab_core::arena::hash_move;
use gamelab_core::{GameRng, Outcome, Side};

use super::{Board, Moves};
use crate::square::{LINES_THROUGH, NO_LINE};
use crate::{LINE_MASKS, Mark, MarkpatCounts, Player, Square};

/// One 9-bit mask per player over square numbers: marks, wins and line patterns are a few
/// bit operations and table reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bitboard {
    /// o's mask in bits 0–8, x's in bits 16–24. One word, always written whole: a read of
    /// both masks right after a move then comes straight from the store (two 16-bit
    /// stores read back as one 32-bit load stall for many cycles).
    packed: u32,
}

impl Bitboard {
    #[inline]
    fn mask(&self, player: usize) -> u16 {
        (self.packed >> (16 * player)) as u16
    }
}

/// Bit `m` is set when the 9-bit mask `m` contains a whole line.
static HAS_LINE: [u64; 8] = {
    let mut set = [0u64; 8];
    let mut m = 0;
    while m < 512 {
        let mut l = 0;
        while l < 8 {
            if m & LINE_MASKS[l] as usize == LINE_MASKS[l] as usize {
                set[m / 64] |= 1 << (m % 64);
            }
            l += 1;
        }
        m += 1;
    }
    set
};

/// For each 9-bit mask, its squares in y-major order and how many there are: the legal
/// moves of any empty-square mask in one table read.
static SQUARES_OF: [([Square; 9], u8); 512] = {
    let mut table = [([Square::ALL[0]; 9], 0u8); 512];
    let mut m = 0;
    while m < 512 {
        let mut n = 0;
        let mut s = 0;
        while s < 9 {
            if m & (1 << s) != 0 {
                table[m].0[n] = Square::ALL[s];
                n += 1;
            }
            s += 1;
        }
        table[m].1 = n as u8;
        m += 1;
    }
    table
};

/// A random game from the empty board as a few table reads instead of nine dependent
/// moves. Each draw depends only on its stream and ply (ply p picks the k-th of the 9 − p
/// empty squares in order), so the draws k₀…k₇ are a Lehmer code of the move order:
/// [`FIRST_FOUR`] decodes k₀…k₃ into the first four squares, [`LAST_FIVE`] decodes k₄…k₇
/// into the order in which the five squares left are taken. Then the first ply that makes
/// a line ends the game, and each stream is marked read up to it. `None` (the caller plays
/// move by move) when a draw would need a second word or a stream was already read.
#[inline(always)]
fn playout_from_start(rngs: &mut [GameRng; 2]) -> Option<(Outcome, u64)> {
    let [o, x] = [rngs[0].unread_window()?, rngs[1].unread_window()?];
    let k = |word: u32, left: usize| GameRng::below_from(word, left);
    let first = k(o[0], 9)? * 336 + k(x[0], 8)? * 42 + k(o[1], 7)? * 6 + k(x[1], 6)?;
    let last = k(o[2], 5)? * 24 + k(x[2], 4)? * 6 + k(o[3], 3)? * 2 + k(x[3], 2)?;
    let (four, rest) = (FIRST_FOUR[first], LAST_FIVE[last]);
    let empty = (four >> 16) as usize;
    let mut squares = [0u8; 9];
    for (ply, sq) in squares.iter_mut().enumerate() {
        *sq = if ply < 4 {
            (four >> (4 * ply) & 15) as u8
        } else {
            SQUARES_OF[empty].0[usize::from(rest >> (3 * (ply - 4)) & 7)].index() as u8
        };
    }
    let mut hashes = [0u64; 9];
    let (mut hash, mut masks, mut wins) = (0, [0u16; 2], 0u32);
    for (ply, &sq) in squares.iter().enumerate() {
        hash = hash_move(hash, u32::from(sq));
        hashes[ply] = hash;
        masks[ply % 2] |= 1 << sq;
        // A line takes three marks of one side, so the fifth ply is the first that can win.
        if ply >= 4 {
            wins |= u32::from(has_line(masks[ply % 2])) << ply;
        }
    }
    // The first winning ply, or 9 for a draw after all nine.
    let end = (wins | 1 << 9).trailing_zeros() as usize;
    let last_ply = end.min(8);
    // o drew at plies 0, 2, 4, 6 and x at 1, 3, 5, 7, up to the last ply played.
    rngs[0].consume(last_ply.min(6) / 2 + 1);
    rngs[1].consume(last_ply.min(7).div_ceil(2));
    Some((OUTCOME_AT_PLY[end], hashes[last_ply]))
}

/// The outcome when ply `p` makes the first line (9: nobody does).
const OUTCOME_AT_PLY: [Outcome; 10] = {
    let mut table = [Outcome::Draw; 10];
    let mut p = 0;
    while p < 9 {
        table[p] = Outcome::Win(if p % 2 == 0 {
            Side::First
        } else {
            Side::Second
        });
        p += 1;
    }
    table
};

/// The `k`-th (from 0) set bit of `mask`.
const fn kth_bit(mask: u16, k: usize) -> usize {
    let (mut bit, mut seen) = (0, 0);
    loop {
        if mask & (1 << bit) != 0 {
            if seen == k {
                return bit;
            }
            seen += 1;
        }
        bit += 1;
    }
}

/// Decodes a Lehmer code: for each draw `ks[i]` (the first `n` of them), takes the
/// `ks[i]`-th element left in `set`. Returns the elements taken, `bits` bits each, and
/// what is left of `set`.
const fn take_in_order(mut set: u16, ks: [usize; 5], n: usize, bits: u32) -> (u32, u16) {
    let (mut taken, mut i) = (0u32, 0);
    while i < n {
        let element = kth_bit(set, ks[i]);
        taken |= (element as u32) << (bits * i as u32);
        set &= !(1 << element);
        i += 1;
    }
    (taken, set)
}

/// For draws k₀ < 9, k₁ < 8, k₂ < 7, k₃ < 6 at index ((k₀·8 + k₁)·7 + k₂)·6 + k₃: the
/// squares of the first four plies (4 bits each) and, from bit 16, the empty squares left.
static FIRST_FOUR: [u32; 3024] = {
    let mut table = [0u32; 3024];
    let mut i = 0;
    while i < 3024 {
        let ks = [i / 336, i / 42 % 8, i / 6 % 7, i % 6, 0];
        let (squares, empty) = take_in_order(0x1ff, ks, 4, 4);
        table[i] = squares | (empty as u32) << 16;
        i += 1;
    }
    table
};

/// For draws k₄ < 5, k₅ < 4, k₆ < 3, k₇ < 2 at index ((k₄·4 + k₅)·3 + k₆)·2 + k₇: the
/// rank among the five squares left (in square order) that plies 4…8 take, 3 bits each.
static LAST_FIVE: [u16; 120] = {
    let mut table = [0u16; 120];
    let mut i = 0;
    while i < 120 {
        let ks = [i / 24, i / 6 % 4, i / 2 % 3, i % 2, 0];
        table[i] = take_in_order(0x1f, ks, 5, 3).0 as u16;
        i += 1;
    }
    table
};

/// One move of a random playout: a uniform empty square for `own` (drawing nothing when
/// only one is left). Returns whether it completed a line.
#[inline(always)]
fn random_ply(
    own: &mut u16,
    empty: &mut u16,
    left: &mut usize,
    rng: &mut GameRng,
    hash: &mut u64,
) -> bool {
    let k = if *left == 1 { 0 } else { rng.below(*left) };
    let sq = SQUARES_OF[*empty as usize].0[k];
    *hash = hash_move(*hash, sq.index() as u32);
    *own |= sq.bit();
    *empty &= !sq.bit();
    *left -= 1;
    has_line(*own)
}

#[inline]
pub(crate) fn has_line(mask: u16) -> bool {
    HAS_LINE[(mask >> 6) as usize & 7] >> (mask & 63) & 1 != 0
}

impl Board for Bitboard {
    const NAME: &'static str = "bitboard";

    #[inline]
    fn get(&self, sq: Square) -> Mark {
        let bit = sq.bit();
        if self.mask(0) & bit != 0 {
            Mark::O
        } else if self.mask(1) & bit != 0 {
            Mark::X
        } else {
            Mark::Empty
        }
    }

    #[inline]
    fn set(&mut self, sq: Square, mark: Mark) {
        let bit = sq.bit();
        let bit = u32::from(bit);
        let mut packed = self.packed & !(bit | bit << 16);
        if let Some(p) = mark.player() {
            packed |= bit << (16 * p.index());
        }
        self.packed = packed;
    }

    /// In a position reached by play only the last move can have completed a line, so the
    /// whole mask is checked at once.
    #[inline]
    fn is_winner(&self, player: Player, last: Square) -> bool {
        let own = self.mask(player.index());
        debug_assert_eq!(
            has_line(own),
            LINES_THROUGH[last.index()]
                .iter()
                .take_while(|&&l| l != NO_LINE)
                .any(|&l| own & LINE_MASKS[l as usize] == LINE_MASKS[l as usize]),
            "a line not through the last move: the position was not reached by play"
        );
        has_line(own)
    }

    #[inline]
    fn count_markpats(&self, last_turn: Player) -> MarkpatCounts {
        MarkpatCounts::from_masks(self.masks(), last_turn)
    }

    #[inline]
    fn empty_squares(&self) -> Moves {
        let empty = !(self.mask(0) | self.mask(1)) & 0x1ff;
        let (squares, n) = SQUARES_OF[empty as usize];
        let mut moves = Moves::from(squares);
        moves.truncate(n as usize);
        moves
    }

    #[inline]
    fn masks(&self) -> [u16; 2] {
        [self.mask(0), self.mask(1)]
    }

    /// Two masks and the empty squares in registers: no history, no status, no move list.
    /// The two sides' plies alternate in one loop, so each side's stream stays in registers,
    /// and the draw depends only on the number of empty squares, which counts down: the
    /// only work that waits on the previous move is one table read and two bit operations.
    fn uniform_playout(&self, turn: Player, rngs: &mut [GameRng; 2]) -> Option<(Outcome, u64)> {
        if self.packed == 0
            && turn == Player::O
            && let Some(result) = playout_from_start(rngs)
        {
            return Some(result);
        }
        let mover = turn.index();
        let (mut mine, mut theirs) = (self.mask(mover), self.mask(1 - mover));
        let mut empty = !(mine | theirs) & 0x1ff;
        let mut left = empty.count_ones() as usize;
        let mut hash = 0;
        let [first, second] = rngs;
        let (my_rng, their_rng) = if mover == 0 {
            (first, second)
        } else {
            (second, first)
        };
        let (me, them) = (Side::BOTH[mover], Side::BOTH[1 - mover]);
        loop {
            if random_ply(&mut mine, &mut empty, &mut left, my_rng, &mut hash) {
                return Some((Outcome::Win(me), hash));
            }
            if left == 0 {
                return Some((Outcome::Draw, hash));
            }
            if random_ply(&mut theirs, &mut empty, &mut left, their_rng, &mut hash) {
                return Some((Outcome::Win(them), hash));
            }
            if left == 0 {
                return Some((Outcome::Draw, hash));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_table_matches_the_lines() {
        for m in 0..512u16 {
            let expected = LINE_MASKS.into_iter().any(|line| (m & line) == line);
            assert_eq!(has_line(m), expected, "{m:09b}");
        }
    }

    #[test]
    fn square_table_lists_every_set_bit_in_order() {
        for (m, (squares, n)) in SQUARES_OF.iter().enumerate() {
            let listed: Vec<usize> = squares[..*n as usize].iter().map(|s| s.index()).collect();
            let expected: Vec<usize> = (0..9).filter(|s| m & (1 << s) != 0).collect();
            assert_eq!(listed, expected);
        }
    }
}
