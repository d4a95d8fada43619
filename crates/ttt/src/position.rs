use std::fmt;

use arrayvec::ArrayVec;
use gamelab_core::arena::plain_uniform_playout;
use gamelab_core::{EngineHooks, Game, GameRng, Notation, Outcome, SetUpError, Side};
use thiserror::Error;

use crate::board::{Bitboard, Board, Moves};
use crate::{Mark, MarkpatCounts, Player, Square};

/// Where the game stands.
///
/// ```
/// use gamelab_core::{Outcome, Side};
/// use gamelab_ttt::{Player, Position, Status};
///
/// let won: Position = "ooo.xx...".parse().unwrap();
/// assert_eq!(won.status(), Status::Won(Player::O));
/// assert_eq!(won.status().outcome(), Some(Outcome::Win(Side::First)));
/// assert_eq!(Position::<gamelab_ttt::board::Bitboard>::new().status().outcome(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Playing,
    Won(Player),
    Draw,
}

impl Status {
    /// The game's outcome, `None` while it goes on.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Status::Playing => None,
            Status::Won(p) => Some(Outcome::Win(p.side())),
            Status::Draw => Some(Outcome::Draw),
        }
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error(
        "`{input}` is not a square: type x,y with x the column and y the row, each 0-2 (1,1 is the centre)"
    )]
    Syntax { input: String },
    #[error("({x}, {y}) is off the board: x and y must each be 0, 1 or 2")]
    OffBoard { x: usize, y: usize },
    #[error("{square} is already taken by {by}")]
    Occupied { square: Square, by: Player },
    #[error("the game is over ({result}): no more moves")]
    GameOver { result: String },
}

/// A tic-tac-toe position over any board data structure `B`.
///
/// Holds the marks, the side to move, the moves played (so `undo` is O(1)) and the status,
/// which `play` keeps up to date with the board's `judge`.
///
/// ```
/// use gamelab_ttt::board::{Array2d, Bitboard};
/// use gamelab_ttt::{Mark, MoveError, Player, Position, Square, Status};
///
/// let mut pos = Position::<Bitboard>::new();
/// assert_eq!((pos.turn(), pos.legal_moves().len()), (Player::O, 9));
/// for (x, y) in [(1, 1), (0, 0), (2, 0)] {
///     pos.play_unchecked(Square::from_xy(x, y).unwrap());
/// }
/// assert_eq!(pos.to_string(), "Turn x\nx.O\n.o.\n...");
/// assert_eq!(pos.board_string(), "x.o.o....");
/// assert_eq!((pos.move_count(), pos.last_move()), (3, Square::from_xy(2, 0)));
/// assert_eq!(pos.mark(Square::CENTRE), Mark::O);
/// assert_eq!(
///     pos.check(Square::CENTRE),
///     Err(MoveError::Occupied { square: Square::CENTRE, by: Player::O })
/// );
///
/// // Positions are equal when their marks are, whatever the order or the board structure.
/// let other: Position = "2,0;0,0;1,1".parse().unwrap();
/// assert_eq!(other, pos);
/// assert_eq!(pos.convert::<Array2d>().history(), pos.history());
///
/// assert_eq!(pos.undo(), Square::from_xy(2, 0));
/// assert_eq!((pos.turn(), pos.status()), (Player::O, Status::Playing));
/// ```
#[derive(Clone, Debug)]
pub struct Position<B: Board = Bitboard> {
    board: B,
    turn: Player,
    status: Status,
    history: ArrayVec<Square, 9>,
}

impl<B: Board> Default for Position<B> {
    fn default() -> Self {
        Position::new()
    }
}

impl<B: Board> PartialEq for Position<B> {
    /// Positions are equal when they show the same marks, whatever the move order.
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl<B: Board> Eq for Position<B> {}

impl<B: Board> Position<B> {
    /// The empty board, o to move.
    pub fn new() -> Self {
        Position {
            board: B::default(),
            turn: Player::O,
            status: Status::Playing,
            history: ArrayVec::new(),
        }
    }

    /// The board data structure holding the marks.
    pub fn board(&self) -> &B {
        &self.board
    }

    /// The player to move (after the game ends: the one who would move next).
    #[inline]
    pub fn turn(&self) -> Player {
        self.turn
    }

    /// The player who made the last move (x at the start, as in the seed).
    #[inline]
    pub fn last_turn(&self) -> Player {
        self.turn.opponent()
    }

    /// The last move played; `None` at the start.
    #[inline]
    pub fn last_move(&self) -> Option<Square> {
        self.history.last().copied()
    }

    /// How many moves were played.
    #[inline]
    pub fn move_count(&self) -> usize {
        self.history.len()
    }

    /// Whether the game goes on, and if not, how it ended.
    #[inline]
    pub fn status(&self) -> Status {
        self.status
    }

    /// What `sq` holds.
    #[inline]
    pub fn mark(&self, sq: Square) -> Mark {
        self.board.get(sq)
    }

    /// Empty squares in y-major order while the game goes on; none once it is over.
    #[inline]
    pub fn legal_moves(&self) -> Moves {
        if self.status == Status::Playing {
            self.board.empty_squares()
        } else {
            Moves::new()
        }
    }

    /// Marks `sq` for the player to move. `sq` must be a legal move.
    #[inline]
    pub fn play_unchecked(&mut self, sq: Square) {
        debug_assert!(
            self.check(sq).is_ok(),
            "illegal move {sq} in\n{self}: {:?}",
            self.check(sq)
        );
        self.board.set(sq, self.turn.mark());
        self.history.push(sq);
        self.status = self.board.judge(self.turn, sq, self.history.len());
        self.turn = self.turn.opponent();
    }

    /// Takes back the last move; `None` at the start.
    #[inline]
    pub fn undo(&mut self) -> Option<Square> {
        let sq = self.history.pop()?;
        self.board.set(sq, Mark::Empty);
        self.turn = self.turn.opponent();
        // Before the last move the game was still going: play never continues after an end.
        self.status = Status::Playing;
        Some(sq)
    }

    /// Why `sq` cannot be marked now, if it cannot.
    pub fn check(&self, sq: Square) -> Result<(), MoveError> {
        if self.status != Status::Playing {
            return Err(MoveError::GameOver {
                result: self.status_text(),
            });
        }
        match self.board.get(sq).player() {
            Some(by) => Err(MoveError::Occupied { square: sq, by }),
            None => Ok(()),
        }
    }

    /// Line patterns from the point of view of the player who just moved (the article's
    /// `count_markpats(turn, last_turn)`).
    ///
    /// ```
    /// use gamelab_ttt::{Markpat, Position};
    ///
    /// // o just made its second mark in the top row: one line with two of its marks and
    /// // an empty square, and x's mark alone in the middle row.
    /// let pos: Position = "oo.x.....".parse().unwrap();
    /// let counts = pos.count_markpats();
    /// assert_eq!(counts.get(Markpat::new(2, 0, 1)), 1);
    /// assert_eq!(counts.get(Markpat::new(0, 1, 2)), 1);
    /// ```
    #[inline]
    pub fn count_markpats(&self) -> MarkpatCounts {
        self.board.count_markpats(self.last_turn())
    }

    /// The moves played from the start, oldest first.
    pub fn history(&self) -> &[Square] {
        &self.history
    }

    /// o squares and x squares as 9-bit masks over square numbers.
    ///
    /// ```
    /// use gamelab_ttt::Position;
    ///
    /// let pos: Position = "o...x...o".parse().unwrap();
    /// assert_eq!(pos.masks(), [0b1_0000_0001, 0b0_0001_0000]);
    /// assert_eq!(pos.key(), 0b1_0000_0001 | 0b0_0001_0000 << 9);
    /// ```
    #[inline]
    pub fn masks(&self) -> [u16; 2] {
        self.board.masks()
    }

    /// A key that identifies the marks on the board (the side to move follows from them):
    /// o's mask in bits 0–8, x's in bits 9–17.
    #[inline]
    pub fn key(&self) -> u64 {
        let [o, x] = self.masks();
        o as u64 | (x as u64) << 9
    }

    /// The 9-character board string, `.ox` row by row (`board_to_str`).
    pub fn board_string(&self) -> String {
        self.board.board_string()
    }

    /// The same position over another board data structure, with the same move order.
    pub fn convert<C: Board>(&self) -> Position<C> {
        let mut other = Position::<C>::new();
        for &sq in &self.history {
            other.play_unchecked(sq);
        }
        other
    }

    fn status_text(&self) -> String {
        match self.status {
            Status::Playing => "still playing".into(),
            Status::Won(p) => format!("{p} won"),
            Status::Draw => "a draw".into(),
        }
    }
}

/// The article's text form: `Turn o` (or `winner o|x|draw` at the end), then the three rows
/// in `.ox`, the last move in upper case.
impl<B: Board> fmt::Display for Position<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.status {
            Status::Playing => writeln!(f, "Turn {}", self.turn)?,
            Status::Won(p) => writeln!(f, "winner {p}")?,
            Status::Draw => writeln!(f, "winner draw")?,
        }
        let last = self.last_move();
        for y in 0..3 {
            for x in 0..3 {
                let sq = Square::from_xy(x, y).expect("0..3 is on the board");
                let c = self.board.get(sq).as_char();
                let c = if Some(sq) == last {
                    c.to_ascii_uppercase()
                } else {
                    c
                };
                write!(f, "{c}")?;
            }
            if y < 2 {
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

impl<B: Board> Game for Position<B> {
    type Move = Square;
    type Moves = Moves;
    type MoveError = MoveError;

    const NAME: &'static str = "ttt";

    fn start() -> Self {
        Position::new()
    }

    #[inline]
    fn to_move(&self) -> Side {
        self.turn.side()
    }

    #[inline]
    fn ply(&self) -> usize {
        self.move_count()
    }

    /// The mover's share of the empty cells.
    fn moves_to_plan(&self) -> u32 {
        (9 - self.ply() as u32).div_ceil(2)
    }

    #[inline]
    fn legal_moves(&self) -> Moves {
        Position::legal_moves(self)
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Square) {
        Position::play_unchecked(self, mv)
    }

    #[inline]
    fn undo(&mut self) -> Option<Square> {
        Position::undo(self)
    }

    fn history(&self) -> &[Square] {
        Position::history(self)
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.status.outcome()
    }

    #[inline]
    fn key(&self) -> u64 {
        Position::key(self)
    }

    fn check_move(&self, mv: Square) -> Result<(), MoveError> {
        self.check(mv)
    }

    /// The square number, 0–8 row by row.
    fn move_code(mv: Square) -> u32 {
        mv.index() as u32
    }
}

impl<B: Board> Notation for Position<B> {
    const CAN_SET_UP: bool = true;

    fn from_cells(
        cells: &[Option<Side>],
        to_move: Side,
    ) -> Result<Self, SetUpError<crate::ParsePositionError>> {
        if cells.len() != 9 {
            return Err(SetUpError::Squares {
                given: cells.len(),
                expected: 9,
            });
        }
        let text: String = cells
            .iter()
            .map(|c| match c {
                Some(Side::First) => 'o',
                Some(Side::Second) => 'x',
                None => '.',
            })
            .collect();
        let pos = Position::from_board_str(&text).map_err(SetUpError::Position)?;
        // o moves first, so the marks on the board say whose turn it is.
        if !pos.is_over() && Game::to_move(&pos) != to_move {
            let count = |side| cells.iter().filter(|&&c| c == Some(side)).count();
            return Err(SetUpError::Position(crate::ParsePositionError::Turn {
                o: count(Side::First),
                x: count(Side::Second),
                to_move: pos.turn(),
            }));
        }
        Ok(pos)
    }

    type PositionError = crate::ParsePositionError;

    fn parse_position(text: &str) -> Result<Self, crate::ParsePositionError> {
        text.parse()
    }

    fn parse_move(&self, text: &str) -> Result<Square, MoveError> {
        let sq = crate::parse::parse_square(text)?;
        self.check(sq)?;
        Ok(sq)
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "o",
            Side::Second => "x",
        }
    }

    fn move_hint(&self) -> String {
        "x,y".to_string()
    }

    fn position_syntax() -> &'static str {
        "a 9-character board string (`.ox` row by row, e.g. `xo.xo....`; an upper-case mark is the last move), the text form `Turn o` + 3 rows, or a move list (`1,1 0,0`)"
    }

    fn move_syntax() -> &'static str {
        "x,y — x the column and y the row, each 0, 1 or 2 (1,1 is the centre)"
    }

    /// A move as it is typed (`1,1`): the tuple a move prints as (`(1, 1)`, the articles'
    /// form) holds a space, which separates a list's moves.
    fn write_move(sq: Square) -> String {
        format!("{},{}", sq.x(), sq.y())
    }

    /// A move list as positions are typed (`1,1 0,0`).
    fn write_moves(moves: &[Square]) -> String {
        moves
            .iter()
            .map(|&sq| Self::write_move(sq))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl<B: Board> EngineHooks for Position<B> {
    const TREE_FITS_IN_MEMORY: bool = true;

    fn uniform_playout(&self, rngs: &mut [GameRng; 2]) -> (Outcome, u64) {
        if let Some(outcome) = self.status.outcome() {
            return (outcome, 0);
        }
        self.board
            .uniform_playout(self.turn, rngs)
            .unwrap_or_else(|| plain_uniform_playout(self, rngs))
    }

    fn canonical(&self) -> (u64, u8) {
        crate::symmetry::canonical_with_symmetry(self.masks())
    }

    fn map_move(mv: Square, sym: u8, inverse: bool) -> Square {
        crate::Symmetry::from_index(sym).map_square(mv, inverse)
    }
}
