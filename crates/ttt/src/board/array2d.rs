use super::Board;
use crate::{LINES, Mark, MarkpatCounts, Player, Square};

/// The article's `ListBoard`: a 2-D array indexed `[x][y]`, lines read square by square.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Array2d {
    cells: [[Mark; 3]; 3],
}

impl Array2d {
    #[inline]
    fn line_is(&self, player: Player, x: usize, y: usize, dx: isize, dy: isize) -> bool {
        (0..3).all(|i| {
            let cx = (x as isize + i * dx) as usize;
            let cy = (y as isize + i * dy) as usize;
            self.cells[cx][cy] == player.mark()
        })
    }
}

impl Board for Array2d {
    const NAME: &'static str = "2d";

    #[inline]
    fn get(&self, sq: Square) -> Mark {
        self.cells[sq.x()][sq.y()]
    }

    #[inline]
    fn set(&mut self, sq: Square, mark: Mark) {
        self.cells[sq.x()][sq.y()] = mark;
    }

    fn is_winner(&self, player: Player, last: Square) -> bool {
        let (x, y) = (last.x(), last.y());
        self.line_is(player, 0, y, 1, 0)
            || self.line_is(player, x, 0, 0, 1)
            || (x == y && self.line_is(player, 0, 0, 1, 1))
            || (x + y == 2 && self.line_is(player, 2, 0, -1, 1))
    }

    fn count_markpats(&self, last_turn: Player) -> MarkpatCounts {
        let mut counts = MarkpatCounts::default();
        for line in LINES {
            let (mut own, mut other) = (0, 0);
            for sq in line {
                match self.cells[sq.x()][sq.y()].player() {
                    Some(p) if p == last_turn => own += 1,
                    Some(_) => other += 1,
                    None => {}
                }
            }
            counts.add_line(own, other);
        }
        counts
    }
}
