//! What a front end needs to know about a game beyond its rules — its title, its AIs, how
//! its board is drawn — and the visitor through which a front end runs generic code on a
//! game chosen at run time from the catalogue (the `gamelab-games` crate).

use crate::{EngineHooks, Notation, Registry, Side};

/// How the page draws a side's pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceStyle {
    /// Letters in the side's colour, as tic-tac-toe's o and x.
    Marks,
    /// Round stones, dark for the first side and light for the second.
    Discs,
}

impl PieceStyle {
    pub fn name(self) -> &'static str {
        match self {
            PieceStyle::Marks => "marks",
            PieceStyle::Discs => "discs",
        }
    }
}

/// A game as the front ends show it: a rectangular board of squares, each empty or holding
/// one side's piece, an AI registry, and the players a person is offered first.
pub trait Described: Notation + EngineHooks {
    /// The name shown to people, e.g. `Tic-tac-toe`.
    const TITLE: &'static str;
    /// Rows and columns of the board.
    const GRID: (usize, usize);
    const PIECES: PieceStyle;
    /// CSS colours of the first and the second side's pieces.
    const PIECE_COLOURS: [&'static str; 2];
    /// CSS colour of the board's squares.
    const BOARD_COLOUR: &'static str;
    /// The players of a new game in the play views, first side first (`human` or an AI).
    const DEFAULT_PLAYERS: [&'static str; 2];
    /// A and B of a new match in the watch view.
    const DEFAULT_MATCH: [&'static str; 2];
    /// Strengths by name, weakest first, for people who would rather not read an AI's
    /// parameters: the play view offers them above its pickers.
    const PRESETS: &'static [Preset] = &[];
    /// The AI whose values of each move the play view's analysis shows first: one that
    /// scores moves (`Agent::move_scores`) for the side to move, within a second or so.
    const ANALYSIS_AI: &'static str = "mcts:iterations=3000";

    /// Every AI of the game (one registry per game, in the game's crate).
    fn registry() -> Registry<Self>;
    /// Labels of the columns (left to right) and rows (top to bottom).
    fn labels() -> (Vec<String>, Vec<String>);
    /// The name of square `index` as people read it (for screen readers): by default its
    /// column label, then its row label.
    fn square_name(index: usize) -> String {
        let (cols, rows) = Self::labels();
        format!(
            "{}{}",
            cols[index % Self::GRID.1],
            rows[index / Self::GRID.1]
        )
    }
    /// The side whose piece is on square `index` (row by row from the top), if any.
    fn piece(&self, index: usize) -> Option<Side>;
    /// The square a move puts a piece on; `None` for a move that places none (a pass).
    fn square_of(mv: Self::Move) -> Option<usize>;
    /// Pieces of each side, for games scored by counting them.
    fn score(&self) -> Option<[u32; 2]> {
        None
    }
    /// Squares to highlight, such as a winning line.
    fn highlight(&self) -> Vec<usize> {
        Vec::new()
    }
}

/// A strength by name: an AI spec and one line on how it plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Preset {
    pub name: &'static str,
    pub spec: &'static str,
    pub note: &'static str,
}

/// Generic code to run on the game a user picked: the catalogue calls `visit` with that
/// game's type.
pub trait GameVisitor {
    type Output;
    fn visit<G: Described>(self) -> Self::Output;
}

/// One game of the catalogue. A game with several board data structures (tic-tac-toe's)
/// names them; the first is the default.
pub trait CatalogueEntry {
    const NAME: &'static str;
    const TITLE: &'static str;
    /// The board data structures a user can pick with `--board`, the default first.
    const BOARDS: &'static [&'static str];

    /// Runs `visitor` on the game over the board structure called `board` (the default
    /// when `None`).
    fn visit<V: GameVisitor>(board: Option<&str>, visitor: V) -> Result<V::Output, BoardError>;
}

/// A board structure the game does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{game} has no board `{board}`; its boards: {}", known.join(", "))]
pub struct BoardError {
    pub game: &'static str,
    pub board: String,
    pub known: &'static [&'static str],
}

impl BoardError {
    /// The error for an entry `E` asked for `board`.
    pub fn of<E: CatalogueEntry + ?Sized>(board: &str) -> BoardError {
        BoardError {
            game: E::NAME,
            board: board.to_string(),
            known: E::BOARDS,
        }
    }
}

/// The catalogue entry of a game with one board structure.
pub struct Single<G>(std::marker::PhantomData<G>);

impl<G: Described> CatalogueEntry for Single<G> {
    const NAME: &'static str = G::NAME;
    const TITLE: &'static str = G::TITLE;
    const BOARDS: &'static [&'static str] = &["bitboard"];

    fn visit<V: GameVisitor>(board: Option<&str>, visitor: V) -> Result<V::Output, BoardError> {
        match board {
            None | Some("bitboard") => Ok(visitor.visit::<G>()),
            Some(other) => Err(BoardError::of::<Self>(other)),
        }
    }
}
