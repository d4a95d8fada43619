//! The game-tree explorer: a position, its parent, its children with their values, and
//! what a chosen AI would play there and why. A game small enough to solve whole shows
//! minimax values; a larger one (Othello) the values a searching AI gives each child, exact
//! where its search reaches the end.
//!
//! ```
//! use gamelab_core::{FileAccess, StopFlag};
//!
//! let moves = ["1,1".to_string()];
//! let view = gamelab_games::explore::explore("ttt", &moves, Some("ai14s"), None, &FileAccess::Any, &StopFlag::default()).unwrap();
//! // Tic-tac-toe is a draw with best play, and x's best replies are the corners.
//! assert_eq!(view.value.text, "draw");
//! let best: Vec<&str> = view.children.iter().filter(|c| c.best).map(|c| c.mv.text.as_str()).collect();
//! assert_eq!(best, ["0,0", "2,0", "0,2", "2,2"]);
//! assert!(view.ai.unwrap().policy.is_some());
//! ```

use gamelab_core::proof::GameValues;
use gamelab_core::{
    Agent, Described, FileAccess, Game, GameVisitor, Notation, Side, SpecError, StopFlag, game_rng,
};
use serde::Serialize;

use crate::CatalogueError;
use crate::views::{BoardView, MoveView, board_view, move_view};

/// Why a position cannot be explored.
#[derive(Debug, thiserror::Error)]
pub enum ExploreError {
    #[error(transparent)]
    Catalogue(#[from] CatalogueError),
    /// Move `number` (from 1) of the moves to the position cannot be played.
    #[error("move {number} (`{text}`) of `moves`: {reason}")]
    Move {
        number: usize,
        text: String,
        reason: String,
    },
    #[error("valuer: {0}")]
    Valuer(SpecError),
    #[error(
        "valuer: {spec} gives no value of a position; choose an AI that does, such as {suggestion}"
    )]
    NoValue {
        spec: String,
        suggestion: &'static str,
    },
    #[error("ai: {0}")]
    Ai(SpecError),
    /// The game is over at the position: the AI has no move to show.
    #[error("the game is over here, so {spec} has no move to show")]
    Over { spec: String },
    /// The stop flag was raised before the searches ended.
    #[error("the exploration was stopped")]
    Stopped,
}

/// A position's value from the first side's view: `value` +1 when the first side wins with
/// best play (or, searched, is ahead), 0 a draw (even), −1 when the second side does.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ValueView {
    pub value: i8,
    pub text: String,
    /// The valuing AI's score from the first side's view, in its units (Othello's engine:
    /// discs), for a game valued by a search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// Plies the search looked ahead (the empty squares when exact), when it says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The value is the game's with best play by both: solved, not estimated.
    pub exact: bool,
}

fn value_view<G: Game + Notation>(value: i8) -> ValueView {
    let text = match value {
        1 => format!("{} wins", G::side_name(Side::First)),
        -1 => format!("{} wins", G::side_name(Side::Second)),
        _ => "draw".to_string(),
    };
    ValueView {
        value,
        text,
        score: None,
        depth: None,
        exact: true,
    }
}

/// A search's value, `score` from the first side's view.
fn searched_view<G: Game + Notation>(score: f64, depth: Option<u32>, exact: bool) -> ValueView {
    let value = if score > 0.0 {
        1
    } else if score < 0.0 {
        -1
    } else {
        0
    };
    let amount = if score.fract() == 0.0 {
        format!("+{}", score.abs())
    } else {
        format!("+{:.2}", score.abs())
    };
    let who = match value {
        1 => format!("{} {amount}", G::side_name(Side::First)),
        -1 => format!("{} {amount}", G::side_name(Side::Second)),
        _ => "even".to_string(),
    };
    let how = match depth {
        _ if exact => "exact".to_string(),
        Some(1) => "1 ply".to_string(),
        Some(d) => format!("{d} plies"),
        None => "estimate".to_string(),
    };
    ValueView {
        value,
        text: format!("{who} ({how})"),
        score: Some(score),
        depth,
        exact,
    }
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
    /// The AI whose search gave the values, for a game too large to solve whole.
    pub valuer: Option<String>,
}

fn moves_of<G: Game + gamelab_core::Notation>(game: &G) -> Vec<String> {
    game.history().iter().map(|&m| G::write_move(m)).collect()
}

fn scored<G: Described>(entries: Vec<(G::Move, f64)>) -> Vec<MoveScore> {
    entries
        .into_iter()
        .map(|(mv, score)| MoveScore {
            mv: move_view::<G>(mv),
            score,
        })
        .collect()
}

/// Explores the position after `moves` of game `game`: its value and its children's, by
/// solving the whole tree below where it fits in memory, else by `valuer`'s search (the
/// game's analysis AI when `None`); with `ai`, what that AI plays there and why. Specs
/// read only the files `files` allows; `stop` ends the searches early (an error then).
pub fn explore(
    game: &str,
    moves: &[String],
    ai: Option<&str>,
    valuer: Option<&str>,
    files: &FileAccess,
    stop: &StopFlag,
) -> Result<ExploreView, ExploreError> {
    crate::visit(
        game,
        None,
        Explore {
            moves,
            ai,
            valuer,
            files,
            stop,
        },
    )?
}

struct Explore<'a> {
    moves: &'a [String],
    ai: Option<&'a str>,
    valuer: Option<&'a str>,
    files: &'a FileAccess,
    stop: &'a StopFlag,
}

impl GameVisitor for Explore<'_> {
    type Output = Result<ExploreView, ExploreError>;
    fn visit<G: Described>(self) -> Self::Output {
        explore_game::<G>(&self)
    }
}

fn stopped(stop: &StopFlag) -> Result<(), ExploreError> {
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(ExploreError::Stopped);
    }
    Ok(())
}

/// The position after `moves` from the start.
fn position_after<G: Described>(moves: &[String]) -> Result<G, ExploreError> {
    let mut game = G::start();
    for (i, text) in moves.iter().enumerate() {
        let mv = game.parse_move(text).map_err(|e| ExploreError::Move {
            number: i + 1,
            text: text.clone(),
            reason: e.to_string(),
        })?;
        game.play_unchecked(mv);
    }
    Ok(game)
}

/// The value of a position and of each legal move's child, from the first side's view,
/// and which children keep the best value for the side to move.
struct Values {
    value: ValueView,
    children: Vec<ValueView>,
}

/// Each legal move with the position after it.
fn children_of<G: Described>(game: &G) -> Vec<(G::Move, G)> {
    game.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = game.clone();
            child.play_unchecked(mv);
            (mv, child)
        })
        .collect()
}

/// Minimax values of the whole tree below.
fn solved_values<G: Described>(game: &G, children: &[(G::Move, G)]) -> Values {
    let mut values = GameValues::new();
    let value = value_view::<G>(values.value(game));
    let children = children
        .iter()
        .map(|(_, child)| value_view::<G>(values.value(child)))
        .collect();
    Values { value, children }
}

/// Values by `spec`'s search of the position and of each child; a finished child by its
/// outcome.
fn searched_values<G: Described>(
    game: &G,
    children: &[(G::Move, G)],
    spec: &str,
    files: &FileAccess,
    stop: &StopFlag,
) -> Result<Values, ExploreError> {
    let mut agent = G::registry()
        .build_with(spec, files)
        .map_err(ExploreError::Valuer)?;
    agent.set_stop(stop);
    let mut value_of = |position: &G| -> Result<ValueView, ExploreError> {
        if let Some(outcome) = position.outcome() {
            let value = match outcome.winner() {
                Some(Side::First) => 1,
                Some(Side::Second) => -1,
                None => 0,
            };
            return Ok(ValueView {
                text: G::describe_outcome(outcome),
                ..value_view::<G>(value)
            });
        }
        let score = agent
            .analyst()
            .and_then(|a| a.value(position))
            .ok_or_else(|| ExploreError::NoValue {
                spec: spec.to_string(),
                suggestion: G::ANALYSIS_AI,
            })?;
        stopped(stop)?;
        let search = agent.analyst().and_then(|a| a.last_search());
        let first = if position.to_move() == Side::First {
            score
        } else {
            -score
        };
        Ok(searched_view::<G>(
            first,
            search.as_ref().map(|s| s.depth),
            search.is_some_and(|s| s.exact),
        ))
    };
    let positions = children;
    let children: Vec<ValueView> = positions
        .iter()
        .map(|(_, child)| value_of(child))
        .collect::<Result<_, _>>()?;
    // The position's value is its best child's, one ply deeper: a search of its own would
    // stop one ply shorter than its children's and, in Othello, often read quite apart
    // from all of them (+0.38 at the start beside +2.99 for every child).
    let key = for_the_mover(game);
    let best = positions
        .iter()
        .zip(&children)
        .reduce(|best, c| if key(c.1) > key(best.1) { c } else { best });
    let value = match best {
        Some(((mv, _), best)) => match best.score {
            Some(score) => {
                let exact = children.iter().all(|c| c.exact);
                // An exact depth counts empty squares, which a pass leaves as they are.
                let deeper = u32::from(!exact || G::square_of(*mv).is_some());
                searched_view::<G>(score, best.depth.map(|d| d + deeper), exact)
            }
            None => best.clone(),
        },
        None => value_of(game)?,
    };
    Ok(Values { value, children })
}

/// How good a child's value is for the side to move in `game`, higher better: the first
/// side's value or its negation; a game's end (no score) beyond any score.
fn for_the_mover<G: Game>(game: &G) -> impl Fn(&ValueView) -> f64 {
    let mover = if game.to_move() == Side::First {
        1.0
    } else {
        -1.0
    };
    move |v: &ValueView| mover * v.score.unwrap_or(f64::from(v.value) * 1e9)
}

fn explore_game<G: Described>(request: &Explore<'_>) -> Result<ExploreView, ExploreError> {
    let (files, stop) = (request.files, request.stop);
    let game = position_after::<G>(request.moves)?;
    let valuer =
        (!G::TREE_FITS_IN_MEMORY).then(|| request.valuer.unwrap_or(G::ANALYSIS_AI).to_string());
    let positions = children_of(&game);
    let Values { value, children } = match &valuer {
        None => solved_values(&game, &positions),
        Some(spec) => searched_values(&game, &positions, spec, files, stop)?,
    };
    // The best for the side to move: the most for the first side, or the least.
    let key = for_the_mover(&game);
    let best = children.iter().map(&key).fold(f64::NEG_INFINITY, f64::max);
    let children = positions
        .iter()
        .zip(children)
        .map(|((mv, child), child_value)| {
            let board = board_view(child);
            ChildView {
                mv: move_view::<G>(*mv),
                moves: moves_of(child),
                cells: board.cells,
                best: key(&child_value) == best,
                value: child_value,
            }
        })
        .collect();
    let parent = (game.ply() > 0).then(|| {
        let mut p = game.clone();
        p.undo();
        p
    });
    let ai = match request.ai {
        None => None,
        Some(spec) if game.is_over() => {
            return Err(ExploreError::Over {
                spec: spec.to_string(),
            });
        }
        Some(spec) => {
            let mut agent = G::registry()
                .build_with(spec, files)
                .map_err(ExploreError::Ai)?;
            // The same stream as move `ply` of a game with seed 0 in the Play view.
            agent.set_stop(stop);
            let mut rng = game_rng(0, game.ply() as u64, game.to_move());
            let choice = agent.choose(&game, &mut rng);
            stopped(stop)?;
            Some(AiView {
                spec: spec.to_string(),
                choice: move_view::<G>(choice),
                policy: agent
                    .analyst()
                    .and_then(|a| a.policy(&game))
                    .map(|p| scored::<G>(p.entries().to_vec())),
                scores: agent
                    .analyst()
                    .and_then(|a| a.move_scores(&game))
                    .map(scored::<G>),
                explain: agent.analyst().and_then(|a| a.explain(&game)),
            })
        }
    };
    Ok(ExploreView {
        moves: moves_of(&game),
        board: board_view(&game),
        value,
        parent_cells: parent.as_ref().map(|p| board_view(p).cells),
        parent: parent.as_ref().map(moves_of),
        children,
        ai,
        valuer,
    })
}
