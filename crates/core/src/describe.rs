//! What a front end needs to know about a game beyond its rules — its title, its AIs, how
//! its board is drawn — and the visitor through which a front end runs generic code on a
//! game chosen at run time from the catalogue (the `gamelab-games` crate).

use crate::registry::{ParamKind, Value};
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
    /// Measured strengths of some of the game's AIs on one Elo scale, weakest first (how
    /// they were measured is the game's documentation's to say): `gamelab ais` lists
    /// them and the play view shows a preset's.
    const RATINGS: &'static [Rating] = &[];
    /// The AI whose values of each move the play view's analysis shows first: one that
    /// scores moves (`Analyst::move_scores`) for the side to move, within a second or so.
    const ANALYSIS_AI: &'static str = "mcts:iterations=3000";
    /// Whether a move is chosen by its column alone (a piece dropped in, as in Connect
    /// Four): a board takes a click or tap anywhere in the column, not only on the square
    /// where the piece lands.
    const MOVES_BY_COLUMN: bool = false;
    /// How many actions the game numbers its moves with: every move's
    /// [`Game::move_code`](crate::Game::move_code) is below it, a square's being its index
    /// row by row from the top (a column's, where moves are by column), the rest (a pass)
    /// after them. The size of the fixed action space of [`crate::actions`].
    const ACTIONS: usize;
    /// The board's symmetries under which the rules are the same: an image of a position
    /// has the same value, its legal moves the images of the original's. The identity
    /// first; by default the only one.
    const SYMMETRIES: &'static [crate::actions::Symmetry] = &[crate::actions::Symmetry::Identity];

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
    /// The name players give the opening that `moves` from the start reach (the last
    /// named position on the way), for games with named openings (Othello).
    fn opening_name(moves: &[Self::Move]) -> Option<&'static str> {
        let _ = moves;
        None
    }
}

/// A strength by name: an AI spec and one line on how it plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Preset {
    pub name: &'static str,
    pub spec: &'static str,
    pub note: &'static str,
}

/// An AI's strength on a game's Elo scale ([`Described::RATINGS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rating {
    pub spec: &'static str,
    pub elo: i32,
    /// The half-width of its 95 % confidence interval, in Elo.
    pub interval95: i32,
    /// How it was put on the scale when not in the round robin with the others (rated
    /// apart against some of them, or a time limit, whose strength depends on the
    /// machine); `None` for the round robin's own.
    pub apart: Option<&'static str>,
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

/// One AI parameter as front ends show it (the web app's form, the Python package).
#[derive(serde::Serialize, Debug)]
pub struct ParamView {
    pub name: &'static str,
    /// `float`, `int`, `bool`, `choice`, `text`, `file` or `program`.
    pub kind: &'static str,
    pub default: Option<String>,
    pub help: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// A `choice`'s values; a `file`'s words that name no file (`shipped`, `none`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<&'static [&'static str]>,
    /// The protocol a `program` speaks (`nboard`, `gtp`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<&'static str>,
}

#[derive(serde::Serialize, Debug)]
pub struct AiView {
    pub name: &'static str,
    pub aliases: Vec<&'static str>,
    pub summary: &'static str,
    pub params: Vec<ParamView>,
}

#[derive(serde::Serialize, Debug)]
pub struct GameInfo {
    pub name: &'static str,
    pub title: &'static str,
    pub sides: [&'static str; 2],
    pub rows: usize,
    pub cols: usize,
    pub col_labels: Vec<String>,
    pub row_labels: Vec<String>,
    pub move_syntax: &'static str,
    /// How a position is written ([`Notation::position_syntax`]).
    pub position_syntax: &'static str,
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
    /// The file extension of the game's own format for whole games (Othello's `ggf`).
    pub record_format: Option<&'static str>,
    /// Positions can be set up square by square (a position editor).
    pub can_set_up: bool,
    /// A move is chosen by its column alone ([`Described::MOVES_BY_COLUMN`]).
    pub moves_by_column: bool,
    /// Strengths by name, weakest first.
    pub presets: &'static [Preset],
    /// Measured strengths, weakest first ([`Described::RATINGS`]).
    pub ratings: &'static [Rating],
    /// How many numbered actions the moves map to ([`Described::ACTIONS`]).
    pub actions: usize,
    /// The names of the board's symmetries ([`Described::SYMMETRIES`]).
    pub symmetries: Vec<&'static str>,
    pub ais: Vec<AiView>,
}

/// What a front end shows of game `G`: its board, sides, notation, defaults and AIs.
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
        position_syntax: G::position_syntax(),
        square_names: (0..G::GRID.0 * G::GRID.1).map(G::square_name).collect(),
        pieces: G::PIECES.name(),
        piece_colours: G::PIECE_COLOURS,
        board_colour: G::BOARD_COLOUR,
        default_players: G::DEFAULT_PLAYERS,
        default_match: G::DEFAULT_MATCH,
        analysis_ai: G::ANALYSIS_AI,
        record_format: G::RECORD_EXTENSION,
        can_set_up: G::CAN_SET_UP,
        moves_by_column: G::MOVES_BY_COLUMN,
        presets: G::PRESETS,
        ratings: G::RATINGS,
        actions: G::ACTIONS,
        symmetries: G::SYMMETRIES.iter().map(|s| s.name()).collect(),
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
                            ParamKind::File { keywords, .. } => (
                                "file",
                                None,
                                None,
                                (!keywords.is_empty()).then_some(*keywords),
                            ),
                            ParamKind::Program { .. } => ("program", None, None, None),
                        };
                        let protocol = match p.kind {
                            ParamKind::Program { protocol } => Some(protocol),
                            _ => None,
                        };
                        ParamView {
                            name: p.name,
                            kind,
                            default: p.default.as_ref().map(Value::to_string),
                            help: p.help,
                            min,
                            max,
                            choices,
                            protocol,
                        }
                    })
                    .collect(),
            })
            .collect(),
    }
}
