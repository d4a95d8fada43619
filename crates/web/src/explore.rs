//! The game-tree viewer's request: the door's explorer (`gamelab_games::explore`) does
//! the work.

use gamelab_core::{FileAccess, StopFlag};
use gamelab_games::explore::ExploreError;
pub use gamelab_games::explore::ExploreView;
use serde::Deserialize;

use crate::error::ApiError;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ExploreRequest {
    /// The game (the catalogue's first if absent).
    pub game: Option<String>,
    /// The moves from the start to the position, e.g. `["1,1", "0,0"]`.
    #[serde(default)]
    pub moves: Vec<String>,
    /// An AI spec whose view of the position to show.
    pub ai: Option<String>,
    /// For a game too large to solve whole, the AI whose search values the position and
    /// its children (the game's analysis AI if absent); it must value positions.
    pub valuer: Option<String>,
}

/// Explores `request` in the game it names; `stop` ends the searches early (the request
/// is then refused).
pub fn explore(
    request: ExploreRequest,
    files: &FileAccess,
    stop: &StopFlag,
) -> Result<ExploreView, ApiError> {
    let game = request.game.as_deref().unwrap_or(gamelab_games::DEFAULT);
    gamelab_games::explore::explore(
        game,
        &request.moves,
        request.ai.as_deref(),
        request.valuer.as_deref(),
        files,
        stop,
    )
    .map_err(|e| match e {
        ExploreError::Over { .. } | ExploreError::Stopped => ApiError::conflict(e.to_string()),
        e => ApiError::bad_request(e.to_string()),
    })
}
