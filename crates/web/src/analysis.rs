//! The play view's analysis: an AI's value of each legal move in a position.

use gamelab_core::{Described, FileAccess, GameVisitor, StopFlag};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::explore::{MoveScore, scored};
use crate::games::position_after;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    pub game: String,
    /// The moves from the start to the position.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The AI whose values to show; it must score moves.
    pub ai: String,
}

#[derive(Serialize, Debug)]
pub struct AnalysisView {
    pub spec: String,
    /// Each legal move with the AI's value of it for the side to move, in the AI's units.
    pub scores: Vec<MoveScore>,
}

/// The values `request.ai` gives each move; `stop` ends its search early (the request is
/// then refused).
pub fn analyse(
    request: AnalysisRequest,
    files: &FileAccess,
    stop: &StopFlag,
) -> Result<AnalysisView, ApiError> {
    let name = request.game.clone();
    crate::games::visit(&name, Analyse(request, files, stop))?
}

struct Analyse<'a>(AnalysisRequest, &'a FileAccess, &'a StopFlag);

impl GameVisitor for Analyse<'_> {
    type Output = Result<AnalysisView, ApiError>;
    fn visit<G: Described>(self) -> Self::Output {
        let Analyse(request, files, stop) = self;
        let game = position_after::<G>(&request.moves)?;
        if let Some(outcome) = game.outcome() {
            return Err(ApiError::conflict(format!(
                "the game is over here ({}): there are no moves to value",
                G::describe_outcome(outcome)
            )));
        }
        let mut agent = G::registry()
            .build_with(&request.ai, files)
            .map_err(|e| ApiError::bad_request(format!("ai: {e}")))?;
        agent.set_stop(stop);
        let scores = agent.move_scores(&game).ok_or_else(|| {
            ApiError::bad_request(format!(
                "{} gives no value for each move; choose an AI that scores moves, such as {}",
                request.ai,
                G::ANALYSIS_AI
            ))
        })?;
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(ApiError::conflict("the analysis was stopped".to_string()));
        }
        Ok(AnalysisView {
            spec: request.ai,
            scores: scored::<G>(scores),
        })
    }
}
