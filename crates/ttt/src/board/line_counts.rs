use super::{Board, Moves};
use crate::square::{LINES_THROUGH, NO_LINE};
use crate::{Mark, MarkpatCounts, Player, Square};

/// Any board plus, for each player and each of the 8 lines, the number of its marks on
/// that line, updated on every `set` (the article's `count_linemark=True`). Wins and Markpat
/// counts then read the counters instead of the squares.
///
/// Each player's counters are eight 4-bit fields of one word (line `l` in bits 4l..4l+3).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineCounts<B> {
    inner: B,
    counts: [u32; 2],
}

/// For each square, a 1 in the field of every line through it.
const LINE_UNITS: [u32; 9] = {
    let mut table = [0u32; 9];
    let mut s = 0;
    while s < 9 {
        let mut i = 0;
        while i < 4 {
            let l = LINES_THROUGH[s][i];
            if l != NO_LINE {
                table[s] |= 1 << (4 * l as u32);
            }
            i += 1;
        }
        s += 1;
    }
    table
};

impl<B: Board> Board for LineCounts<B> {
    const NAME: &'static str = match B::NAME.as_bytes() {
        b"2d" => "2d+counts",
        b"1d" => "1d+counts",
        b"bitboard" => "bitboard+counts",
        _ => "counts",
    };

    #[inline]
    fn get(&self, sq: Square) -> Mark {
        self.inner.get(sq)
    }

    #[inline]
    fn set(&mut self, sq: Square, mark: Mark) {
        if let Some(old) = self.inner.get(sq).player() {
            self.counts[old.index()] -= LINE_UNITS[sq.index()];
        }
        if let Some(new) = mark.player() {
            self.counts[new.index()] += LINE_UNITS[sq.index()];
        }
        self.inner.set(sq, mark);
    }

    #[inline]
    fn is_winner(&self, player: Player, last: Square) -> bool {
        let counts = self.counts[player.index()];
        LINES_THROUGH[last.index()]
            .iter()
            .take_while(|&&l| l != NO_LINE)
            .any(|&l| counts >> (4 * l as u32) & 0xf == 3)
    }

    #[inline]
    fn count_markpats(&self, last_turn: Player) -> MarkpatCounts {
        MarkpatCounts::from_line_counts(
            self.counts[last_turn.index()],
            self.counts[last_turn.opponent().index()],
        )
    }

    #[inline]
    fn empty_squares(&self) -> Moves {
        self.inner.empty_squares()
    }

    #[inline]
    fn masks(&self) -> [u16; 2] {
        self.inner.masks()
    }
}
