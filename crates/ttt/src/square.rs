use std::fmt;

use gamelab_core::Side;

/// The two players. `o` moves first.
///
/// ```
/// use gamelab_core::Side;
/// use gamelab_ttt::{Mark, Player};
///
/// assert_eq!(Player::O.opponent(), Player::X);
/// assert_eq!((Player::O.side(), Player::from_side(Side::Second)), (Side::First, Player::X));
/// assert_eq!((Player::X.mark(), Player::X.index(), Player::X.to_string()), (Mark::X, 1, "x".into()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    O,
    X,
}

impl Player {
    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::O => Player::X,
            Player::X => Player::O,
        }
    }

    /// The mark it puts on the board.
    #[inline]
    pub const fn mark(self) -> Mark {
        match self {
            Player::O => Mark::O,
            Player::X => Mark::X,
        }
    }

    /// Its side for the generic code: `o` first.
    #[inline]
    pub const fn side(self) -> Side {
        match self {
            Player::O => Side::First,
            Player::X => Side::Second,
        }
    }

    /// The player of `side`.
    #[inline]
    pub const fn from_side(side: Side) -> Player {
        match side {
            Side::First => Player::O,
            Side::Second => Player::X,
        }
    }

    /// 0 for o, 1 for x.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `o` or `x`.
    pub const fn as_char(self) -> char {
        match self {
            Player::O => 'o',
            Player::X => 'x',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_char())
    }
}

/// What a square holds. The numeric values are the article 002 encoding (empty 0, o 1, x 2).
///
/// ```
/// use gamelab_ttt::{Mark, Player};
///
/// assert_eq!((Mark::Empty as u8, Mark::O as u8, Mark::X as u8), (0, 1, 2));
/// assert_eq!((Mark::Empty.as_char(), Mark::X.as_char()), ('.', 'x'));
/// assert_eq!((Mark::Empty.player(), Mark::O.player()), (None, Some(Player::O)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mark {
    #[default]
    Empty = 0,
    O = 1,
    X = 2,
}

impl Mark {
    /// `.`, `o` or `x`, as board strings write it.
    pub const fn as_char(self) -> char {
        match self {
            Mark::Empty => '.',
            Mark::O => 'o',
            Mark::X => 'x',
        }
    }

    /// The player whose mark it is; `None` for an empty square.
    pub const fn player(self) -> Option<Player> {
        match self {
            Mark::Empty => None,
            Mark::O => Some(Player::O),
            Mark::X => Some(Player::X),
        }
    }
}

/// A square of the 3×3 board and the move that marks it.
///
/// `x` is the column (0 left … 2 right) and `y` the row (0 top … 2 bottom). Squares are
/// numbered 0..9 row by row (`y * 3 + x`), which is also the article's y-major move order and
/// the square number of article 002's records.
///
/// ```
/// use gamelab_ttt::Square;
///
/// let sq = Square::from_xy(2, 1).unwrap();
/// assert_eq!((sq.x(), sq.y(), sq.index(), sq.bit()), (2, 1, 5, 1 << 5));
/// assert_eq!(sq.to_string(), "(2, 1)");
/// assert_eq!(Square::from_index(5), Some(sq));
/// assert_eq!((Square::from_xy(3, 0), Square::from_index(9)), (None, None));
/// assert_eq!(Square::ALL[4], Square::CENTRE);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const CENTRE: Square = Square(4);

    /// All squares in the article's legal-move order: (0,0), (1,0), (2,0), (0,1), …
    pub const ALL: [Square; 9] = {
        let mut all = [Square(0); 9];
        let mut i = 0;
        while i < 9 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square at column `x`, row `y`, or `None` off the board.
    #[inline]
    pub const fn from_xy(x: usize, y: usize) -> Option<Square> {
        if x < 3 && y < 3 {
            Some(Square((y * 3 + x) as u8))
        } else {
            None
        }
    }

    /// The square with number `index` (row by row), or `None` if `index >= 9`.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 9 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Its number, row by row: `y * 3 + x`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Its column, 0 (left) to 2.
    #[inline]
    pub const fn x(self) -> usize {
        self.0 as usize % 3
    }

    /// Its row, 0 (top) to 2.
    #[inline]
    pub const fn y(self) -> usize {
        self.0 as usize / 3
    }

    /// Its bit in a 9-bit mask.
    #[inline]
    pub const fn bit(self) -> u16 {
        1 << self.0
    }
}

/// The article's tuple notation, `(x, y)`.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x(), self.y())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The 8 lines, named as in article 002: rows h1–h3, columns v1–v3, diagonals d1 (from (0,0))
/// and d2 (from (2,0)).
pub const LINES: [[Square; 3]; 8] = {
    const fn sq(i: u8) -> Square {
        Square(i)
    }
    [
        [sq(0), sq(1), sq(2)],
        [sq(3), sq(4), sq(5)],
        [sq(6), sq(7), sq(8)],
        [sq(0), sq(3), sq(6)],
        [sq(1), sq(4), sq(7)],
        [sq(2), sq(5), sq(8)],
        [sq(0), sq(4), sq(8)],
        [sq(2), sq(4), sq(6)],
    ]
};

pub const LINE_NAMES: [&str; 8] = ["h1", "h2", "h3", "v1", "v2", "v3", "d1", "d2"];

/// Each line as a 9-bit mask over square numbers.
pub const LINE_MASKS: [u16; 8] = {
    let mut masks = [0u16; 8];
    let mut l = 0;
    while l < 8 {
        masks[l] = LINES[l][0].bit() | LINES[l][1].bit() | LINES[l][2].bit();
        l += 1;
    }
    masks
};

/// For each square, the lines through it (2, 3 or 4 of them), as line indices; unused
/// slots hold `NO_LINE`.
pub(crate) const NO_LINE: u8 = u8::MAX;
pub(crate) const LINES_THROUGH: [[u8; 4]; 9] = {
    let mut table = [[NO_LINE; 4]; 9];
    let mut s = 0;
    while s < 9 {
        let mut n = 0;
        let mut l = 0;
        while l < 8 {
            if LINE_MASKS[l] & (1 << s) != 0 {
                table[s][n] = l as u8;
                n += 1;
            }
            l += 1;
        }
        s += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for (i, sq) in Square::ALL.into_iter().enumerate() {
            assert_eq!(sq.index(), i);
            assert_eq!(Square::from_xy(sq.x(), sq.y()), Some(sq));
            assert_eq!(Square::from_index(i), Some(sq));
        }
        assert_eq!(Square::from_xy(3, 0), None);
        assert_eq!(Square::from_xy(0, 3), None);
        assert_eq!(Square::from_index(9), None);
        assert_eq!(Square::from_xy(2, 0).unwrap().to_string(), "(2, 0)");
    }

    #[test]
    fn every_square_lies_on_the_right_number_of_lines() {
        let count = |s: usize| LINES_THROUGH[s].iter().filter(|&&l| l != NO_LINE).count();
        assert_eq!(count(4), 4);
        for corner in [0, 2, 6, 8] {
            assert_eq!(count(corner), 3);
        }
        for edge in [1, 3, 5, 7] {
            assert_eq!(count(edge), 2);
        }
    }
}
