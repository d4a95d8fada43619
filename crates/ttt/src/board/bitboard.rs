use super::{Board, Moves};
use crate::square::{LINES_THROUGH, NO_LINE};
use crate::{LINE_MASKS, Mark, MarkpatCounts, Player, Square};

/// One 9-bit mask per player over square numbers: marks, wins and line patterns are a few
/// bit operations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bitboard {
    masks: [u16; 2],
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

    #[inline]
    fn is_winner(&self, player: Player, last: Square) -> bool {
        let own = self.masks[player.index()];
        LINES_THROUGH[last.index()]
            .iter()
            .take_while(|&&l| l != NO_LINE)
            .any(|&l| own & LINE_MASKS[l as usize] == LINE_MASKS[l as usize])
    }

    #[inline]
    fn count_markpats(&self, last_turn: Player) -> MarkpatCounts {
        MarkpatCounts::from_masks(self.masks, last_turn)
    }

    #[inline]
    fn empty_squares(&self) -> Moves {
        let mut moves = Moves::new();
        let mut empty = !(self.masks[0] | self.masks[1]) & 0x1ff;
        while empty != 0 {
            let i = empty.trailing_zeros() as usize;
            moves.push(Square::ALL[i]);
            empty &= empty - 1;
        }
        moves
    }

    #[inline]
    fn masks(&self) -> [u16; 2] {
        self.masks
    }
}
