use super::{Board, Moves};
use crate::square::{LINES_THROUGH, NO_LINE};
use crate::{Mark, MarkpatCounts, Player, Square};

/// Any board plus, for each player and each of the 8 lines, the number of its marks on
/// that line, updated on every `set` (the seed's `count_linemark=True`). Wins and Markpat
/// counts then read the counters instead of the squares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineCounts<B> {
    inner: B,
    counts: [[u8; 8]; 2],
}

impl<B: Board> LineCounts<B> {
    #[inline]
    fn adjust(&mut self, sq: Square, player: Player, add: bool) {
        for &line in &LINES_THROUGH[sq.index()] {
            if line == NO_LINE {
                break;
            }
            let c = &mut self.counts[player.index()][line as usize];
            if add { *c += 1 } else { *c -= 1 }
        }
    }
}

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
            self.adjust(sq, old, false);
        }
        if let Some(new) = mark.player() {
            self.adjust(sq, new, true);
        }
        self.inner.set(sq, mark);
    }

    #[inline]
    fn is_winner(&self, player: Player, last: Square) -> bool {
        LINES_THROUGH[last.index()]
            .iter()
            .take_while(|&&l| l != NO_LINE)
            .any(|&l| self.counts[player.index()][l as usize] == 3)
    }

    #[inline]
    fn count_markpats(&self, last_turn: Player) -> MarkpatCounts {
        let own = &self.counts[last_turn.index()];
        let other = &self.counts[last_turn.opponent().index()];
        let mut counts = MarkpatCounts::default();
        for l in 0..8 {
            counts.add_line(own[l], other[l]);
        }
        counts
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
