//! The game-tree viewer, for games small enough to solve whole: a position,
//! its parent, its children with their minimax values, and what a chosen AI would play
//! there and why.

use gamelab_core::FileAccess;
use gamelab_core::Notation;
use gamelab_core::proof::GameValues;
use gamelab_core::{Agent, Described, Game, GameVisitor, Side, game_rng};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::games::{BoardView, MoveView, board_view, move_view, position_after};

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ExploreRequest {
    /// The game (the catalogue's first if absent); its tree must fit in memory.
    pub game: Option<String>,
    /// The moves from the start to the position, e.g. `["1,1", "0,0"]`.
    #[serde(default)]
    pub moves: Vec<String>,
    /// An AI spec whose view of the position to show.
    pub ai: Option<String>,
}

/// A minimax value: +1 the first side (o) wins with best play by both, 0 a draw, −1 x wins.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ValueView {
    pub value: i8,
    pub text: String,
}

fn value_view<G: Game + Notation>(value: i8) -> ValueView {
    let text = match value {
        1 => format!("{} wins", G::side_name(Side::First)),
        -1 => format!("{} wins", G::side_name(Side::Second)),
        _ => "draw".to_string(),
    };
    ValueView { value, text }
}

#[derive(Serialize, Debug)]
pub struct ChildView {
    #[serde(flatten)]
    pub mv: MoveView,
    /// The moves from the start to the child.
    pub moves: Vec<String>,
    pub cells: Vec<&'static str>,
    pub value: ValueView,
    /// The move keeps the best value for the side to move.
    pub best: bool,
}

#[derive(Serialize, Debug)]
pub struct MoveScore {
    #[serde(flatten)]
    pub mv: MoveView,
    pub score: f64,
}

#[derive(Serialize, Debug)]
pub struct AiView {
    pub spec: String,
    /// The move it plays here with seed 0.
    pub choice: MoveView,
    /// The distribution it draws from, when it has a fixed one.
    pub policy: Option<Vec<MoveScore>>,
    /// Its score for each move, for AIs that score moves.
    pub scores: Option<Vec<MoveScore>>,
    /// Its own account of the decision.
    pub explain: Option<String>,
}

#[derive(Serialize, Debug)]
pub struct ExploreView {
    pub moves: Vec<String>,
    pub board: BoardView,
    pub value: ValueView,
    /// The moves to the parent; `null` at the start.
    pub parent: Option<Vec<String>>,
    pub parent_cells: Option<Vec<&'static str>>,
    pub children: Vec<ChildView>,
    pub ai: Option<AiView>,
}

fn moves_of<G: Game>(game: &G) -> Vec<String> {
    game.history().iter().map(ToString::to_string).collect()
}

pub(crate) fn scored<G: Described>(entries: Vec<(G::Move, f64)>) -> Vec<MoveScore> {
    entries
        .into_iter()
        .map(|(mv, score)| MoveScore {
            mv: move_view::<G>(mv),
            score,
        })
        .collect()
}

/// Explores `request` in the game it names.
pub fn explore(request: ExploreRequest, files: &FileAccess) -> Result<ExploreView, ApiError> {
    let name = request
        .game
        .clone()
        .unwrap_or_else(|| gamelab_games::DEFAULT.to_string());
    crate::games::visit(&name, Explore(request, files))?
}

struct Explore<'a>(ExploreRequest, &'a FileAccess);

impl GameVisitor for Explore<'_> {
    type Output = Result<ExploreView, ApiError>;
    fn visit<G: Described>(self) -> Self::Output {
        explore_game::<G>(&self.0, self.1)
    }
}

fn explore_game<G: Described>(
    request: &ExploreRequest,
    files: &FileAccess,
) -> Result<ExploreView, ApiError> {
    if !G::TREE_FITS_IN_MEMORY {
        return Err(ApiError::bad_request(format!(
            "{} is too large to explore: its game tree does not fit in memory",
            G::TITLE
        )));
    }
    let game = position_after::<G>(&request.moves)?;
    let mut values = GameValues::new();
    let value = values.value(&game);
    let mover = if game.to_move() == Side::First { 1 } else { -1 };
    let child_values: Vec<i8> = game
        .legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = game.clone();
            child.play_unchecked(mv);
            values.value(&child)
        })
        .collect();
    let children = game
        .legal_moves()
        .iter()
        .zip(&child_values)
        .map(|(&mv, &child_value)| {
            let mut child = game.clone();
            child.play_unchecked(mv);
            let board = board_view(&child);
            ChildView {
                mv: move_view::<G>(mv),
                moves: moves_of(&child),
                cells: board.cells,
                value: value_view::<G>(child_value),
                best: child_value * mover == value * mover,
            }
        })
        .collect();
    let parent = (game.ply() > 0).then(|| {
        let mut p = game.clone();
        p.undo();
        p
    });
    let ai = match &request.ai {
        None => None,
        Some(spec) if game.is_over() => {
            return Err(ApiError::conflict(format!(
                "the game is over here, so {spec} has no move to show"
            )));
        }
        Some(spec) => {
            let mut agent = G::registry()
                .build_with(spec, files)
                .map_err(|e| ApiError::bad_request(format!("ai: {e}")))?;
            // The same stream as move `ply` of a game with seed 0 in the Play view.
            let mut rng = game_rng(0, game.ply() as u64, game.to_move());
            let choice = agent.choose(&game, &mut rng);
            Some(AiView {
                spec: spec.clone(),
                choice: move_view::<G>(choice),
                policy: agent
                    .policy(&game)
                    .map(|p| scored::<G>(p.entries().to_vec())),
                scores: agent.move_scores(&game).map(scored::<G>),
                explain: agent.explain(&game),
            })
        }
    };
    Ok(ExploreView {
        moves: moves_of(&game),
        board: board_view(&game),
        value: value_view::<G>(value),
        parent_cells: parent.as_ref().map(|p| board_view(p).cells),
        parent: parent.as_ref().map(moves_of),
        children,
        ai,
    })
}
