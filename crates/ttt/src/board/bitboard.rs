use super::{Board, Moves};
use crate::square::{LINES_THROUGH, NO_LINE};
use crate::{LINE_MASKS, Mark, MarkpatCounts, Player, Square};

/// One 9-bit mask per player over square numbers: marks, wins and line patterns are a few
/// bit operations and table reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bitboard {
    masks: [u16; 2],
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

#[inline]
pub(crate) fn has_line(mask: u16) -> bool {
    HAS_LINE[(mask >> 6) as usize & 7] >> (mask & 63) & 1 != 0
}

impl Board for Bitboard {
    const NAME: &'static str = "bitboard";

    #[inline]
    fn get(&self, sq: Square) -> Mark {
        let bit = sq.bit();
        if self.masks[0] & bit != 0 {
            Mark::O
        } else if self.masks[1] & bit != 0 {
            Mark::X
        } else {
            Mark::Empty
        }
    }

    #[inline]
    fn set(&mut self, sq: Square, mark: Mark) {
        let bit = sq.bit();
        self.masks[0] &= !bit;
        self.masks[1] &= !bit;
        if let Some(p) = mark.player() {
            self.masks[p.index()] |= bit;
        }
    }

    /// In a position reached by play only the last move can have completed a line, so the
    /// whole mask is checked at once.
    #[inline]
    fn is_winner(&self, player: Player, last: Square) -> bool {
        let own = self.masks[player.index()];
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
        MarkpatCounts::from_masks(self.masks, last_turn)
    }

    #[inline]
    fn empty_squares(&self) -> Moves {
        let empty = !(self.masks[0] | self.masks[1]) & 0x1ff;
        let (squares, n) = SQUARES_OF[empty as usize];
        let mut moves = Moves::from(squares);
        moves.truncate(n as usize);
        moves
    }

    #[inline]
    fn masks(&self) -> [u16; 2] {
        self.masks
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
