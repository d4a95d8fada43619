use super::Board;
use crate::{LINES, Mark, MarkpatCounts, Player, Square};

/// The article's `List1dBoard`: a flat array indexed `x * 3 + y` (its `xy_to_move`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Array1d {
    cells: [Mark; 9],
}

#[inline]
const fn slot(sq: Square) -> usize {
    sq.x() * 3 + sq.y()
}

impl Board for Array1d {
    const NAME: &'static str = "1d";

    #[inline]
    fn get(&self, sq: Square) -> Mark {
        self.cells[slot(sq)]
    }

    #[inline]
    fn set(&mut self, sq: Square, mark: Mark) {
        self.cells[slot(sq)] = mark;
    }

    fn is_winner(&self, player: Player, last: Square) -> bool {
        let m = player.mark();
        let same = |line: &[Square; 3]| line.iter().all(|&sq| self.cells[slot(sq)] == m);
        let (x, y) = (last.x(), last.y());
        same(&LINES[y])
            || same(&LINES[3 + x])
            || (x == y && same(&LINES[6]))
            || (x + y == 2 && same(&LINES[7]))
    }

    fn count_markpats(&self, last_turn: Player) -> MarkpatCounts {
        let own_mark = last_turn.mark();
        let mut counts = MarkpatCounts::default();
        for line in LINES {
            let (mut own, mut empty) = (0, 0);
            for sq in line {
                match self.cells[slot(sq)] {
                    Mark::Empty => empty += 1,
                    m if m == own_mark => own += 1,
                    _ => {}
                }
            }
            counts.add_line(own, 3 - own - empty);
        }
        counts
    }
}
