//! What a front end shows of a game, as serde values: its board, its moves, its outcome.
//! The web app sends these as JSON; they are built from a game's type (`board_view::<G>`)
//! or from any position of the catalogue ([`AnyGame::board_view`](crate::dyn_game::AnyGame::board_view)).
//!
//! ```
//! let position = gamelab_games::dyn_game::make_position("ttt", None, Some("1,1")).unwrap();
//! let board = position.board_view();
//! assert_eq!((board.rows, board.cols), (3, 3));
//! assert_eq!(board.cells[4], "o");
//! assert_eq!(board.last.unwrap().text, "1,1");
//! assert_eq!(board.legal.len(), 8);
//! ```

use gamelab_core::valuation::{ScoreScale, rank_moves};
use gamelab_core::{DeepScore, Described, Game, Notation, Outcome};
use serde::Serialize;

/// The outcome as a front end shows it.
#[derive(Serialize, Debug, Clone, PartialEq)]
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

/// The board as a front end draws it.
#[derive(Serialize, Debug, Clone, PartialEq)]
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

/// An AI's units, as a front end states them ([`ScoreScale`]).
#[derive(Serialize, Debug, Clone, Default)]
pub struct ScaleView {
    /// `solved`, `discs`, `win-rate`, `evaluation` or `points` (no fixed bound).
    pub name: &'static str,
    /// The units in words, and how the evaluation bar is filled.
    pub about: String,
}

impl From<ScoreScale> for ScaleView {
    fn from(scale: ScoreScale) -> ScaleView {
        ScaleView {
            name: scale.name(),
            about: scale.describe(),
        }
    }
}

/// A move's value as an analysis shows it (at one step of a deepening analysis).
#[derive(Serialize, Debug, Clone)]
pub struct MoveScoreView {
    #[serde(flatten)]
    pub mv: MoveView,
    pub score: f64,
    /// The value is the game's: deeper steps keep it.
    pub exact: bool,
    /// The line the AI expects, this move first.
    pub line: Vec<String>,
    /// The level the value comes from: the view's, or the next for a move that a level
    /// cut short by time had valued (the last view); `null` as for the view.
    pub level: Option<u32>,
    /// The value on a square: `+3.6`, `W2` (a win in two moves), `draw`.
    pub label: String,
    /// The value in words: `win in 2 moves`, `+0.21 (estimate)` (`text` is the move's).
    pub value: String,
    /// The value in words for the other side (`loss in 2 moves`, `−0.21 (estimate)`).
    pub against: String,
    /// Its share of the evaluation bar from −1 to +1, `null` for units without a bound.
    pub share: Option<f64>,
    /// Among the best moves: a proven win ranks over every estimate, every estimate
    /// over a proven loss, else the larger value.
    pub best: bool,
    /// The best's value less this one's, 0 where only an estimate says it is worse than
    /// a proven move.
    pub loss: f64,
    /// The loss is proven (both values exact).
    pub certain: bool,
}

/// Each of `scores` as a front end shows it: its label and words on `scale`, its share of
/// the evaluation bar, whether it is among the best and what it costs if not; `view_of`
/// gives each move's view.
pub fn score_views(
    scores: &[DeepScore<String>],
    scale: ScoreScale,
    view_of: impl Fn(&str) -> MoveView,
) -> Vec<MoveScoreView> {
    let ranks = rank_moves(scores);
    scores
        .iter()
        .zip(ranks)
        .map(|(s, rank)| MoveScoreView {
            mv: view_of(&s.mv),
            score: s.score,
            exact: s.exact,
            line: s.line.clone(),
            level: s.level,
            label: scale.label(s.score, s.exact),
            value: scale.text(s.score, s.exact),
            against: scale.text(-s.score, s.exact),
            share: scale.share(s.score, s.exact),
            best: rank.best,
            loss: rank.loss,
            certain: rank.certain,
        })
        .collect()
}

/// A finished game of a match, as a front end lists it.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct PlayedGameView {
    pub index: u64,
    /// The side A played.
    pub a_side: &'static str,
    /// A's result: `win`, `lose` or `draw`.
    pub result: &'static str,
    pub outcome: OutcomeView,
    pub moves: Vec<String>,
    /// Pieces of each side at the end, first side first, for games scored by counting
    /// them (Othello).
    pub score: Option<[u32; 2]>,
}

/// A game the arena played, as [`PlayedGameView`] shows it.
pub fn played_game_view<G: Described>(
    game: &gamelab_core::arena::PlayedGame<G::Move>,
) -> PlayedGameView {
    let mut end = G::start();
    for &mv in &game.moves {
        end.play_unchecked(mv);
    }
    let result = match game.outcome.winner() {
        None => "draw",
        Some(side) if side == game.a_side => "win",
        Some(_) => "lose",
    };
    PlayedGameView {
        index: game.index,
        a_side: G::side_name(game.a_side),
        result,
        outcome: outcome_view::<G>(game.outcome),
        moves: game.moves.iter().map(|&m| G::write_move(m)).collect(),
        score: end.score(),
    }
}
