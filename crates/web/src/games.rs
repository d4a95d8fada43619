//! The views of a game the page draws, for any game of the catalogue: its board, moves,
//! outcome, and its AIs with their parameters.

use gamelab_core::GameVisitor;

/// Runs a visitor on the game of the catalogue called `name` (over its default board).
pub fn visit<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, crate::ApiError> {
    gamelab_games::visit(name, None, visitor)
        .map_err(|e| crate::ApiError::bad_request(e.to_string()))
}

/// The position after `moves` (in the game's notation) from the start; a move that cannot
/// be played is reported with its place in the list.
pub fn any_position_after(
    name: &str,
    moves: &[String],
) -> Result<Box<dyn gamelab_games::dyn_game::AnyGame>, crate::ApiError> {
    let mut game = gamelab_games::dyn_game::make_position(name, None, None)
        .map_err(crate::ApiError::bad_request)?;
    game.play_all(moves).map_err(|e| {
        crate::ApiError::bad_request(format!(
            "move {} (`{}`) of `moves`: {}",
            e.number, e.text, e.reason
        ))
    })?;
    Ok(game)
}

pub use gamelab_games::views::{
    BoardView, MoveScoreView, MoveView, OutcomeView, ScaleView, board_view, move_view,
};
