use std::fmt;

use arrayvec::ArrayVec;
use gamelab_core::{EngineHooks, Game, Notation, Outcome, Side};

/// Columns.
pub const WIDTH: usize = 7;
/// Rows.
pub const HEIGHT: usize = 6;
/// Bits per column: the rows and one always-empty bit that stops shifts between columns.
const COLUMN_BITS: usize = HEIGHT + 1;
/// The bottom square of every column.
const BOTTOM: u64 = {
    let mut b = 0;
    let mut c = 0;
    while c < WIDTH {
        b |= 1 << (c * COLUMN_BITS);
        c += 1;
    }
    b
};
/// Every square of the board.
pub(crate) const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

/// The square's bit.
#[inline]
pub(crate) const fn bit(col: usize, row: usize) -> u64 {
    1 << (col * COLUMN_BITS + row)
}

/// Whether `stones` hold four in a row.
#[inline]
pub(crate) fn has_four(stones: u64) -> bool {
    // Across (7), up (1) and the two diagonals (6, 8).
    [COLUMN_BITS, 1, COLUMN_BITS - 1, COLUMN_BITS + 1]
        .into_iter()
        .any(|s| {
            let pairs = stones & (stones >> s);
            pairs & (pairs >> (2 * s)) != 0
        })
}

/// Whether the square (col, row) is part of a four in a row of `stones`.
pub(crate) fn in_a_four(stones: u64, col: usize, row: usize) -> bool {
    let has = |c: i64, r: i64| {
        (0..WIDTH as i64).contains(&c)
            && (0..HEIGHT as i64).contains(&r)
            && stones & bit(c as usize, r as usize) != 0
    };
    let (col, row) = (col as i64, row as i64);
    [(1, 0), (0, 1), (1, 1), (1, -1)]
        .into_iter()
        .any(|(dc, dr)| {
            (0..4).any(|back| {
                let (c0, r0) = (col - back * dc, row - back * dr);
                (0..4).all(|k| has(c0 + k * dc, r0 + k * dr))
            })
        })
}

/// The empty squares that would complete four in a row for `stones` (whether or not a
/// disc can land there yet).
#[inline]
pub(crate) fn winning_squares(stones: u64, empty: u64) -> u64 {
    let mut wins = 0;
    for s in [COLUMN_BITS, 1, COLUMN_BITS - 1, COLUMN_BITS + 1] {
        // x x x _ and _ x x x
        let pair = (stones << s) & (stones << (2 * s));
        wins |= pair & (stones << (3 * s));
        wins |= pair & (stones >> s);
        let pair = (stones >> s) & (stones >> (2 * s));
        wins |= pair & (stones >> (3 * s));
        wins |= pair & (stones << s);
    }
    wins & empty
}

/// A move: the column a disc is dropped in, and the row it lands on (the lowest empty one
/// when it is played). Written as the column's letter, `a` to `g`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    col: u8,
    row: u8,
}

impl Move {
    /// The column, 0 (`a`) to 6 (`g`).
    pub fn col(self) -> usize {
        self.col.into()
    }

    /// The row the disc lands on, 0 at the bottom.
    pub fn row(self) -> usize {
        self.row.into()
    }

    pub(crate) fn bit(self) -> u64 {
        bit(self.col(), self.row())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", (b'a' + self.col) as char)
    }
}

pub type Moves = ArrayVec<Move, WIDTH>;

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("`{0}` is not a column: type a letter a-g (or a number 1-7)")]
    NotAColumn(String),
    #[error("column {0} is full")]
    Full(char),
    #[error("the game is over")]
    Over,
    #[error("a disc dropped in column {0} lands on row {1}, not row {2}")]
    WrongRow(char, usize, usize),
}

/// Why a text is not a Connect Four position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "move {number} `{text}`: {error} (a position is a list of columns from the start, e.g. `dcd` or `4 3 4`)"
)]
pub struct PositionError {
    number: usize,
    text: String,
    error: MoveError,
}

/// A Connect Four position with its history.
///
/// Red (first) drops three discs in column d, yellow three in c; red's fourth wins:
///
/// ```
/// use gamelab_connect4::ConnectFour;
/// use gamelab_core::{Game, Notation, Outcome, Side};
///
/// let mut game = ConnectFour::parse_position("dcdcdc")?;
/// assert_eq!((game.to_move(), game.empties()), (Side::First, 36));
/// let d = game.drop_in(3).unwrap();
/// assert_eq!((d.col(), d.row(), d.to_string()), (3, 3, "d".to_string()));
/// game.play(d).unwrap();
/// assert_eq!(game.outcome(), Some(Outcome::Win(Side::First)));
/// assert_eq!((game.at(3, 0), game.at(2, 0), game.at(0, 0)), (Some(Side::First), Some(Side::Second), None));
/// assert_eq!(game.stones(Side::First).count_ones(), 4);
/// assert_eq!(
///     game.to_string(),
///     "winner red\n.......\n.......\n...R...\n..yr...\n..yr...\n..yr...\nabcdefg"
/// );
///
/// // A full column takes no disc; a position that does not read says which move.
/// let full = ConnectFour::parse_position("aaaaaa")?;
/// assert_eq!(full.drop_in(0), None);
/// assert!(full.parse_move("a").unwrap_err().to_string().contains("full"));
/// let error = ConnectFour::parse_position("dz").unwrap_err().to_string();
/// assert!(error.starts_with("move 2 `z`"), "{error}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    /// Each side's discs, first side (red) first.
    stones: [u64; 2],
    heights: [u8; WIDTH],
    history: ArrayVec<Move, { WIDTH * HEIGHT }>,
    /// Set by the move that makes four in a row.
    winner: Option<Side>,
}

impl Default for ConnectFour {
    fn default() -> Self {
        ConnectFour {
            stones: [0; 2],
            heights: [0; WIDTH],
            history: ArrayVec::new(),
            winner: None,
        }
    }
}

impl ConnectFour {
    /// The discs of `side`.
    pub fn stones(&self, side: Side) -> u64 {
        self.stones[side.index()]
    }

    /// Every disc.
    pub fn occupied(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    /// Empty squares left.
    pub fn empties(&self) -> usize {
        WIDTH * HEIGHT - self.history.len()
    }

    /// The side whose disc is on (col, row), if any.
    pub fn at(&self, col: usize, row: usize) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|s| self.stones[s.index()] & bit(col, row) != 0)
    }

    /// The squares where a disc would land now.
    pub fn playable(&self) -> u64 {
        (self.occupied() + BOTTOM) & BOARD
    }

    /// The move dropping a disc in `col`, if the column has room.
    pub fn drop_in(&self, col: usize) -> Option<Move> {
        (col < WIDTH && usize::from(self.heights[col]) < HEIGHT).then(|| Move {
            col: col as u8,
            row: self.heights[col],
        })
    }

    fn column_of(text: &str) -> Option<usize> {
        match text.as_bytes() {
            [c @ b'a'..=b'g'] => Some(usize::from(c - b'a')),
            [c @ b'A'..=b'G'] => Some(usize::from(c - b'A')),
            [c @ b'1'..=b'7'] => Some(usize::from(c - b'1')),
            _ => None,
        }
    }
}

impl fmt::Display for ConnectFour {
    /// `Turn red` or `winner red|yellow|draw`, then the rows from the top: `r` and `y` for
    /// the discs (the last one in capitals), `.` for empty squares; then the columns'
    /// letters, as moves are typed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.outcome() {
            None => writeln!(f, "Turn {}", Self::side_name(self.to_move()))?,
            Some(Outcome::Draw) => writeln!(f, "winner draw")?,
            Some(Outcome::Win(s)) => writeln!(f, "winner {}", Self::side_name(s))?,
        }
        let last = self.history.last().copied();
        for row in (0..HEIGHT).rev() {
            for col in 0..WIDTH {
                let c = match self.at(col, row) {
                    None => '.',
                    Some(Side::First) => 'r',
                    Some(Side::Second) => 'y',
                };
                let is_last = last.is_some_and(|m| m.col() == col && m.row() == row);
                write!(f, "{}", if is_last { c.to_ascii_uppercase() } else { c })?;
            }
            writeln!(f)?;
        }
        let letters: String = (0..WIDTH).map(|col| char::from(b'a' + col as u8)).collect();
        write!(f, "{letters}")
    }
}

impl Game for ConnectFour {
    type Move = Move;
    type Moves = Moves;
    type MoveError = MoveError;

    const NAME: &'static str = "connect4";

    fn start() -> Self {
        Self::default()
    }

    #[inline]
    fn to_move(&self) -> Side {
        if self.history.len() % 2 == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    /// The mover's share of the empty cells.
    fn moves_to_plan(&self) -> u32 {
        (42 - self.history.len() as u32).div_ceil(2)
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    /// Columns from left to right.
    #[inline]
    fn legal_moves(&self) -> Moves {
        let mut moves = Moves::new();
        if self.winner.is_none() {
            for col in 0..WIDTH {
                if let Some(mv) = self.drop_in(col) {
                    moves.push(mv);
                }
            }
        }
        moves
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        debug_assert!(self.check_move(mv).is_ok(), "{mv:?} in\n{self}");
        let side = self.to_move();
        let stones = &mut self.stones[side.index()];
        *stones |= mv.bit();
        if has_four(*stones) {
            self.winner = Some(side);
        }
        self.heights[mv.col()] += 1;
        self.history.push(mv);
    }

    fn undo(&mut self) -> Option<Move> {
        let mv = self.history.pop()?;
        let side = self.to_move();
        self.stones[side.index()] &= !mv.bit();
        self.heights[mv.col()] -= 1;
        self.winner = None;
        Some(mv)
    }

    fn history(&self) -> &[Move] {
        &self.history
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(side) => Some(Outcome::Win(side)),
            None if self.history.len() == WIDTH * HEIGHT => Some(Outcome::Draw),
            None => None,
        }
    }

    /// The side to move's discs plus every disc: unique because the occupied squares and
    /// the disc count fix the side to move (the classic Connect Four key).
    #[inline]
    fn key(&self) -> u64 {
        self.stones[self.to_move().index()] + self.occupied()
    }

    fn check_move(&self, mv: Move) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::Over);
        }
        let letter = (b'a' + mv.col.min(6)) as char;
        match self.drop_in(mv.col()) {
            None if mv.col() >= WIDTH => Err(MoveError::NotAColumn(mv.col.to_string())),
            None => Err(MoveError::Full(letter)),
            Some(m) if m != mv => Err(MoveError::WrongRow(letter, m.row(), mv.row())),
            Some(_) => Ok(()),
        }
    }

    fn move_code(mv: Move) -> u32 {
        mv.col.into()
    }
}

impl Notation for ConnectFour {
    type PositionError = PositionError;

    /// A list of columns from the start (`dcd`, `4 3 4`, `d,c,d`); empty for the start.
    fn parse_position(text: &str) -> Result<Self, PositionError> {
        let mut game = Self::start();
        let tokens = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .flat_map(|word| {
                // `dcd` is three moves; so is `434`.
                word.char_indices()
                    .map(move |(i, c)| &word[i..i + c.len_utf8()])
            });
        for (i, token) in tokens.enumerate() {
            let mv = game.parse_move(token).map_err(|error| PositionError {
                number: i + 1,
                text: token.to_string(),
                error,
            })?;
            game.play_unchecked(mv);
        }
        Ok(game)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        let col = Self::column_of(text).ok_or_else(|| MoveError::NotAColumn(text.to_string()))?;
        if self.is_over() {
            return Err(MoveError::Over);
        }
        self.drop_in(col)
            .ok_or(MoveError::Full((b'a' + col as u8) as char))
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "red",
            Side::Second => "yellow",
        }
    }

    fn move_syntax() -> &'static str {
        "a column: a letter a-g from the left (or a number 1-7)"
    }

    fn move_hint(&self) -> String {
        "a-g".to_string()
    }

    fn position_syntax() -> &'static str {
        "the columns played from the start (`dcd`, `4 3 4`); empty for the start"
    }
}

impl EngineHooks for ConnectFour {
    /// Symmetry 1 is the mirror image (columns reversed).
    fn canonical(&self) -> (u64, u8) {
        let mirrored = mirror(self.stones[self.to_move().index()]) + mirror(self.occupied());
        let key = self.key();
        if mirrored < key {
            (mirrored, 1)
        } else {
            (key, 0)
        }
    }

    fn map_move(mv: Move, sym: u8, _inverse: bool) -> Move {
        if sym == 1 {
            Move {
                col: (WIDTH - 1) as u8 - mv.col,
                row: mv.row,
            }
        } else {
            mv
        }
    }
}

/// The board with its columns reversed.
fn mirror(b: u64) -> u64 {
    let column = (1u64 << COLUMN_BITS) - 1;
    (0..WIDTH).fold(0, |m, c| {
        let bits = (b >> (c * COLUMN_BITS)) & column;
        m | bits << ((WIDTH - 1 - c) * COLUMN_BITS)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fours_in_every_direction() {
        let across = (0..4).fold(0, |b, c| b | bit(c, 0));
        let up = (0..4).fold(0, |b, r| b | bit(6, r));
        let rising = (0..4).fold(0, |b, i| b | bit(i + 1, i));
        let falling = (0..4).fold(0, |b, i| b | bit(i + 2, 3 - i));
        for four in [across, up, rising, falling] {
            assert!(has_four(four));
            for drop in 0..64 {
                if four & (1 << drop) != 0 {
                    assert!(!has_four(four & !(1 << drop)));
                    let empty = (BOARD & !four) | (1 << drop);
                    assert_ne!(winning_squares(four & !(1 << drop), empty) & (1 << drop), 0);
                }
            }
        }
        // no wrap-around between columns: rows 3-5 of one column and row 0 of the next
        let wrap = bit(0, 3) | bit(0, 4) | bit(0, 5) | bit(1, 0);
        assert!(!has_four(wrap));
    }

    #[test]
    fn text_and_moves() {
        let mut game = ConnectFour::parse_position("d d c").unwrap();
        assert_eq!(game.to_move(), Side::Second);
        assert_eq!(
            game.to_string(),
            "Turn yellow\n.......\n.......\n.......\n.......\n...y...\n..Rr...\nabcdefg"
        );
        assert_eq!(game.parse_move("8"), Err(MoveError::NotAColumn("8".into())));
        for _ in 0..4 {
            game.play_unchecked(game.parse_move("a").unwrap());
        }
        game.play_unchecked(game.parse_move("a").unwrap());
        game.play_unchecked(game.parse_move("a").unwrap());
        assert_eq!(game.parse_move("a"), Err(MoveError::Full('a')));
        let err = ConnectFour::parse_position("dx").unwrap_err().to_string();
        assert!(err.starts_with("move 2 `x`: `x` is not a column"), "{err}");
    }

    #[test]
    fn mirror_images_share_a_canonical_key() {
        let left = ConnectFour::parse_position("abc").unwrap();
        let right = ConnectFour::parse_position("gfe").unwrap();
        assert_ne!(left.key(), right.key());
        assert_eq!(left.canonical().0, right.canonical().0);
        let (_, sym) = right.canonical();
        let mv = right.drop_in(6).unwrap();
        assert_eq!(
            ConnectFour::map_move(mv, sym, false).col() + mv.col(),
            if sym == 1 { 6 } else { 12 }
        );
    }
}
