//! What the web page needs to know about each game beyond the `Game` trait: how to draw
//! its board, and its AI catalogue.

use std::sync::OnceLock;

use gamelab_core::registry::{ParamKind, Value};
use gamelab_core::{Game, Outcome, Registry, Side};
use gamelab_othello::{Move as OthelloMove, Othello};
use gamelab_ttt::{Mark, Square, Ttt};
use serde::Serialize;

/// A game the web app can show: a rectangular board of squares, each empty or holding a
/// side's piece, and moves that are squares (or, in Othello, a pass).
pub trait WebGame: Game {
    /// The name shown to people, e.g. `Tic-tac-toe`.
    const TITLE: &'static str;
    /// Rows and columns of the board.
    const SIZE: (usize, usize);

    /// The game's AI catalogue, built once per process.
    fn registry() -> &'static Registry<Self>;
    /// Labels of the columns (left to right) and rows (top to bottom).
    fn labels() -> (Vec<String>, Vec<String>);
    /// The side whose piece is on square `index` (row by row), if any.
    fn piece(&self, index: usize) -> Option<Side>;
    /// The square a move puts a piece on; `None` for a pass.
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

impl WebGame for Ttt {
    const TITLE: &'static str = "Tic-tac-toe";
    const SIZE: (usize, usize) = (3, 3);

    fn registry() -> &'static Registry<Ttt> {
        static REGISTRY: OnceLock<Registry<Ttt>> = OnceLock::new();
        REGISTRY.get_or_init(gamelab_learn::catalogue::<gamelab_ttt::board::Bitboard>)
    }

    fn labels() -> (Vec<String>, Vec<String>) {
        let l = || (0..3).map(|i| i.to_string()).collect();
        (l(), l())
    }

    fn piece(&self, index: usize) -> Option<Side> {
        match self.mark(Square::from_index(index)?) {
            Mark::Empty => None,
            Mark::O => Some(Side::First),
            Mark::X => Some(Side::Second),
        }
    }

    fn square_of(mv: Square) -> Option<usize> {
        Some(mv.index())
    }

    fn highlight(&self) -> Vec<usize> {
        let lines = self.masks().map(|marks| {
            gamelab_ttt::LINE_MASKS
                .iter()
                .filter(|&&line| marks & line == line)
                .fold(0u16, |acc, line| acc | line)
        });
        let won = lines[0] | lines[1];
        (0..9).filter(|i| won & (1 << i) != 0).collect()
    }
}

impl WebGame for Othello {
    const TITLE: &'static str = "Othello";
    const SIZE: (usize, usize) = (8, 8);

    fn registry() -> &'static Registry<Othello> {
        static REGISTRY: OnceLock<Registry<Othello>> = OnceLock::new();
        REGISTRY.get_or_init(gamelab_othello::ai::registry)
    }

    fn labels() -> (Vec<String>, Vec<String>) {
        (
            ('a'..='h').map(String::from).collect(),
            (1..=8).map(|r: u32| r.to_string()).collect(),
        )
    }

    fn piece(&self, index: usize) -> Option<Side> {
        let bit = 1u64 << index;
        if self.black() & bit != 0 {
            Some(Side::First)
        } else if self.white() & bit != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }

    fn square_of(mv: OthelloMove) -> Option<usize> {
        match mv {
            OthelloMove::Place(sq) => Some(sq.index()),
            OthelloMove::Pass => None,
        }
    }

    fn score(&self) -> Option<[u32; 2]> {
        let (black, white) = self.counts();
        Some([black, white])
    }
}

/// The games the app serves, by their `Game::NAME`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Ttt,
    Othello,
}

impl GameKind {
    pub const ALL: [GameKind; 2] = [GameKind::Ttt, GameKind::Othello];

    pub fn name(self) -> &'static str {
        match self {
            GameKind::Ttt => Ttt::NAME,
            GameKind::Othello => Othello::NAME,
        }
    }

    pub fn parse(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|g| g.name() == name)
    }

    pub fn known() -> String {
        GameKind::ALL.map(GameKind::name).join(", ")
    }
}

/// Runs `$body` with `$G` the game type of a [`GameKind`].
macro_rules! with_web_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::games::GameKind::Ttt => {
                type $G = gamelab_ttt::Ttt;
                $body
            }
            $crate::games::GameKind::Othello => {
                type $G = gamelab_othello::Othello;
                $body
            }
        }
    };
}
pub(crate) use with_web_game;

/// The position after `moves` (in the game's notation) from the start; a move that cannot
/// be played is reported with its place in the list.
pub fn position_after<G: Game>(moves: &[String]) -> Result<G, crate::ApiError> {
    let mut game = G::start();
    for (i, text) in moves.iter().enumerate() {
        let mv = game.parse_move(text).map_err(|e| {
            crate::ApiError::bad_request(format!("move {} (`{text}`) of `moves`: {e}", i + 1))
        })?;
        game.play(mv);
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

pub fn outcome_view<G: Game>(outcome: Outcome) -> OutcomeView {
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

pub fn move_view<G: WebGame>(mv: G::Move) -> MoveView {
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
    /// Pieces per side (Othello's disc counts), first side first.
    pub score: Option<[u32; 2]>,
    /// Squares to highlight: tic-tac-toe's winning line.
    pub highlight: Vec<usize>,
}

pub fn board_view<G: WebGame>(game: &G) -> BoardView {
    let (rows, cols) = G::SIZE;
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
    pub min: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
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
    pub ais: Vec<AiView>,
}

pub fn game_info<G: WebGame>() -> GameInfo {
    let (col_labels, row_labels) = G::labels();
    GameInfo {
        name: G::NAME,
        title: G::TITLE,
        sides: Side::BOTH.map(G::side_name),
        rows: G::SIZE.0,
        cols: G::SIZE.1,
        col_labels,
        row_labels,
        move_syntax: G::move_syntax(),
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
                            ParamKind::Float => ("float", None, None, None),
                            ParamKind::Int { min, max } => ("int", Some(*min), Some(*max), None),
                            ParamKind::Bool => ("bool", None, None, None),
                            ParamKind::Choice(c) => ("choice", None, None, Some(*c)),
                            ParamKind::Text => ("text", None, None, None),
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
