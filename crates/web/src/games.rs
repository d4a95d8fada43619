//! The views of a game the page draws, for any game of the catalogue: its board, moves,
//! outcome, and its AIs with their parameters.

use gamelab_core::Notation;
use gamelab_core::registry::{ParamKind, Value};
use gamelab_core::{Described, Game, GameVisitor, Outcome, Side};
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
        text: mv.to_string(),
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

/// One AI parameter for the page's form.
#[derive(Serialize, Debug)]
pub struct ParamView {
    pub name: &'static str,
    /// `float`, `int`, `bool`, `choice` or `text`.
    pub kind: &'static str,
    pub default: Option<String>,
    pub help: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<&'static [&'static str]>,
}

#[derive(Serialize, Debug)]
pub struct AiView {
    pub name: &'static str,
    pub aliases: Vec<&'static str>,
    pub summary: &'static str,
    pub params: Vec<ParamView>,
}

#[derive(Serialize, Debug)]
pub struct GameInfo {
    pub name: &'static str,
    pub title: &'static str,
    pub sides: [&'static str; 2],
    pub rows: usize,
    pub cols: usize,
    pub col_labels: Vec<String>,
    pub row_labels: Vec<String>,
    pub move_syntax: &'static str,
    /// Each square's name, row by row.
    pub square_names: Vec<String>,
    /// How pieces are drawn: `marks` (letters) or `discs`.
    pub pieces: &'static str,
    /// CSS colours of the sides' pieces, first side first.
    pub piece_colours: [&'static str; 2],
    /// CSS colour of the board's squares.
    pub board_colour: &'static str,
    /// The players a new game starts with, first side first.
    pub default_players: [&'static str; 2],
    /// A and B of a new match.
    pub default_match: [&'static str; 2],
    /// Whether the whole game tree can be explored with exact values (small games only).
    pub explorable: bool,
    /// The AI whose values of each move the analysis shows first.
    pub analysis_ai: &'static str,
    /// Strengths by name, weakest first.
    pub presets: &'static [gamelab_core::Preset],
    pub ais: Vec<AiView>,
}

pub fn game_info<G: Described>() -> GameInfo {
    let (col_labels, row_labels) = G::labels();
    GameInfo {
        name: G::NAME,
        title: G::TITLE,
        sides: Side::BOTH.map(G::side_name),
        rows: G::GRID.0,
        cols: G::GRID.1,
        col_labels,
        row_labels,
        move_syntax: G::move_syntax(),
        square_names: (0..G::GRID.0 * G::GRID.1).map(G::square_name).collect(),
        pieces: G::PIECES.name(),
        piece_colours: G::PIECE_COLOURS,
        board_colour: G::BOARD_COLOUR,
        default_players: G::DEFAULT_PLAYERS,
        default_match: G::DEFAULT_MATCH,
        analysis_ai: G::ANALYSIS_AI,
        presets: G::PRESETS,
        explorable: G::TREE_FITS_IN_MEMORY,
        ais: G::registry()
            .entries()
            .iter()
            .map(|e| AiView {
                name: e.name,
                aliases: e.aliases.clone(),
                summary: e.summary,
                params: e
                    .params
                    .iter()
                    .map(|p| {
                        let (kind, min, max, choices) = match &p.kind {
                            ParamKind::Float { min, max } => {
                                ("float", Some(*min), Some(*max), None)
                            }
                            ParamKind::Int { min, max } => {
                                ("int", Some(*min as f64), Some(*max as f64), None)
                            }
                            ParamKind::Bool => ("bool", None, None, None),
                            ParamKind::Choice(c) => ("choice", None, None, Some(*c)),
                            ParamKind::Text => ("text", None, None, None),
                            ParamKind::File { .. } => ("file", None, None, None),
                        };
                        ParamView {
                            name: p.name,
                            kind,
                            default: p.default.as_ref().map(Value::to_string),
                            help: p.help,
                            min,
                            max,
                            choices,
                        }
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The catalogue entry of one game, as `GET /api/catalogue` lists it.
pub struct Info;

impl GameVisitor for Info {
    type Output = GameInfo;
    fn visit<G: Described>(self) -> GameInfo {
        game_info::<G>()
    }
}
