//! The views of a game the page draws, for any game of the catalogue: its board, moves,
//! outcome, and its AIs with their parameters.

use gamelab_core::Notation;
use gamelab_core::{Described, Game, GameVisitor, Outcome};
use serde::Serialize;

/// Runs a visitor on the game of the catalogue called `name` (over its default board).
pub fn visit<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, crate::ApiError> {
    gamelab_games::visit(name, None, visitor)
        .map_err(|e| crate::ApiError::bad_request(e.to_string()))
}

/// The position after `moves` (in the game's notation) from the start; a move that cannot
/// be played is reported with its place in the list.
pub fn position_after<G: Game + Notation>(moves: &[String]) -> Result<G, crate::ApiError> {
    let mut game = G::start();
    for (i, text) in moves.iter().enumerate() {
        let mv = game.parse_move(text).map_err(|e| {
            crate::ApiError::bad_request(format!("move {} (`{text}`) of `moves`: {e}", i + 1))
        })?;
        game.play_unchecked(mv);
    }
    Ok(game)
}

/// The outcome as the page shows it.
#[derive(Serialize, Debug, Clone)]
pub struct OutcomeView {
    /// The winning side's name, or `null` for a draw.
    pub winner: Option<&'static str>,
    pub text: String,
}

pub fn outcome_view<G: Game + Notation>(outcome: Outcome) -> OutcomeView {
    OutcomeView {
        winner: outcome.winner().map(G::side_name),
        text: G::describe_outcome(outcome),
    }
}

/// A move with the square it goes to (`null` for a pass).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct MoveView {
    pub text: String,
    pub square: Option<usize>,
}

pub fn move_view<G: Described>(mv: G::Move) -> MoveView {
    MoveView {
        // As people type it, as the game's copy writes it (tic-tac-toe's `1,1`).
        text: G::write_move(mv),
        square: G::square_of(mv),
    }
}

/// The board as the page draws it.
#[derive(Serialize, Debug, Clone)]
pub struct BoardView {
    pub rows: usize,
    pub cols: usize,
    /// For each square, row by row: the side name of its piece, or `""`.
    pub cells: Vec<&'static str>,
    pub to_move: &'static str,
    pub legal: Vec<MoveView>,
    pub last: Option<MoveView>,
    pub outcome: Option<OutcomeView>,
    /// Pieces per side, for games scored by counting them, first side first.
    pub score: Option<[u32; 2]>,
    /// Squares to highlight, such as a winning line.
    pub highlight: Vec<usize>,
}

pub fn board_view<G: Described>(game: &G) -> BoardView {
    let (rows, cols) = G::GRID;
    BoardView {
        rows,
        cols,
        cells: (0..rows * cols)
            .map(|i| game.piece(i).map_or("", G::side_name))
            .collect(),
        to_move: G::side_name(game.to_move()),
        legal: game
            .legal_moves()
            .iter()
            .map(|&m| move_view::<G>(m))
            .collect(),
        last: game.history().last().map(|&m| move_view::<G>(m)),
        outcome: game.outcome().map(outcome_view::<G>),
        score: game.score(),
        highlight: game.highlight(),
    }
}

pub use gamelab_core::describe::{GameInfo, game_info};

/// The catalogue entry of one game, as `GET /api/catalogue` lists it.
pub struct Info;

impl GameVisitor for Info {
    type Output = GameInfo;
    fn visit<G: Described>(self) -> GameInfo {
        game_info::<G>()
    }
}
