//! The views of a game the page draws, for any game of the catalogue: its board, moves,
//! outcome, and its AIs with their parameters.

/// The position after `moves` (in the game's notation) from the start; a move that cannot
/// be played is reported with its place in the list.
pub fn any_position_after(
    name: &str,
    moves: &[String],
) -> Result<Box<dyn gamelab_games::dyn_game::AnyGame>, crate::ApiError> {
    let mut game = gamelab_games::dyn_game::make_position(name, None, None)
        .map_err(|e| crate::ApiError::bad_request(e.to_string()))?;
    game.play_all(moves).map_err(|e| {
        crate::ApiError::bad_request(format!(
            "move {} (`{}`) of `moves`: {}",
            e.number, e.text, e.reason
        ))
    })?;
    Ok(game)
}

pub use gamelab_games::views::{MoveScoreView, ScaleView};
