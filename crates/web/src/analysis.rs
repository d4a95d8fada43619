//! The play view's analysis: an AI's value of each legal move in a position, once or
//! deeper and deeper.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use gamelab_core::valuation::ScoreScale;
use gamelab_core::{DeepeningEnd, FileAccess, StopFlag};
use gamelab_games::dyn_game::{AnyAgent, AnyGame, DeepLevel};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::games::{MoveScoreView, ScaleView, any_position_after};

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    pub game: String,
    /// The moves from the start to the position.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The AI whose values to show; it must score moves.
    pub ai: String,
    /// For a deepening analysis: only the best this many lines, best first (a multi-line
    /// search, 1 to 64); every move's value when left out.
    #[serde(default)]
    pub lines: Option<usize>,
}

#[derive(Serialize, Debug)]
pub struct AnalysisView {
    pub spec: String,
    /// The AI's units.
    pub scale: ScaleView,
    /// Each legal move with the AI's value of it for the side to move, in the AI's units.
    pub scores: Vec<MoveScoreView>,
}

/// A position to analyse and the AI that values it.
type Prepared = (Box<dyn AnyGame>, Box<dyn AnyAgent>);

/// The position of `request` with the AI it asks for, set to stop on `stop`: refused when
/// a move is wrong, the game is over there or the spec is wrong.
fn prepare(
    request: &AnalysisRequest,
    files: &FileAccess,
    stop: &StopFlag,
) -> Result<Prepared, ApiError> {
    if let Some(lines) = request.lines {
        gamelab_core::limits::LINES
            .check(lines)
            .map_err(|e| ApiError::bad_request(format!("lines: {e}")))?;
    }
    let game = any_position_after(&request.game, &request.moves)?;
    if let Some(outcome) = game.outcome() {
        return Err(ApiError::conflict(format!(
            "the game is over here ({}): there are no moves to value",
            game.describe_outcome(outcome)
        )));
    }
    let mut agent = game
        .build_agent_with(&request.ai, files)
        .map_err(|e| ApiError::bad_request(format!("ai: {e}")))?;
    agent.set_stop(stop);
    Ok((game, agent))
}

/// The refusal of an AI that gives no value for each move.
fn no_scores(request: &AnalysisRequest, game: &dyn AnyGame) -> ApiError {
    ApiError::bad_request(format!(
        "{} gives no value for each move; choose an AI that scores moves, such as {}",
        request.ai,
        game.analysis_ai()
    ))
}

/// The values `request.ai` gives each move; `stop` ends its search early (the request is
/// then refused).
pub fn analyse(
    request: AnalysisRequest,
    files: &FileAccess,
    stop: &StopFlag,
) -> Result<AnalysisView, ApiError> {
    let (game, mut agent) = prepare(&request, files, stop)?;
    let scores = agent
        .move_values(&*game)
        .ok_or_else(|| no_scores(&request, &*game))?;
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(ApiError::conflict("the analysis was stopped".to_string()));
    }
    let scale = agent.score_scale().unwrap_or(ScoreScale::Unscaled);
    Ok(AnalysisView {
        scores: game.score_views(&scores, scale),
        spec: request.ai,
        scale: scale.into(),
    })
}

/// One event of a deepening analysis: every move's value at the last level done.
#[derive(Serialize, Debug, Clone, Default)]
pub struct DeepeningView {
    pub spec: String,
    pub scale: ScaleView,
    /// The AI's level of these values; `null` for an AI that values moves once (and
    /// before the first level is done).
    pub level: Option<u32>,
    pub scores: Vec<MoveScoreView>,
    /// Positions searched so far, for AIs that count them.
    pub nodes: Option<u64>,
    pub elapsed_ms: u64,
    /// The last event: no deeper values follow.
    pub done: bool,
    /// Once `done`, why: `exact` (every value is), `deepest` (the AI searches no further),
    /// `time` (the AI's own time or the server's limit ran out), `stopped`.
    pub end: Option<&'static str>,
    /// `end` in words.
    pub reason: Option<String>,
}

/// The deepening analysis of `request`: `Err` at once when the request is wrong, else
/// `Ok` once the analysis runs; every step (then the last again, `done`) is handed to
/// `send` until it returns false. It ends after `limit` or when `stop` is raised, or when
/// the AI ends it.
pub fn deepen(
    request: AnalysisRequest,
    files: &FileAccess,
    stop: &StopFlag,
    limit: Duration,
    started: &mut dyn FnMut(Result<(), ApiError>),
    send: &mut dyn FnMut(DeepeningView) -> bool,
) {
    let began = Instant::now();
    let deadline = began + limit;
    let watchdog = gamelab_core::Watchdog::start(Some(stop), Some(deadline));
    let (game, mut agent) = match prepare(&request, files, watchdog.flag()) {
        Ok(prepared) => prepared,
        Err(e) => return started(Err(e)),
    };
    let spec = request.ai.clone();
    let scale = agent.score_scale().unwrap_or(ScoreScale::Unscaled);
    let view = |step: &DeepLevel| DeepeningView {
        spec: spec.clone(),
        scale: scale.into(),
        level: step.level,
        scores: game.score_views(&step.scores, scale),
        nodes: step.nodes,
        elapsed_ms: began.elapsed().as_millis() as u64,
        ..Default::default()
    };
    let mut last: Option<DeepeningView> = None;
    let mut said_started = false;
    let end = agent.deepen(&*game, None, watchdog.flag(), request.lines, &mut |step| {
        if !said_started {
            said_started = true;
            started(Ok(()));
        }
        let v = view(&step);
        last = Some(v.clone());
        if send(v) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    });
    let Some(end) = end else {
        return started(Err(no_scores(&request, &*game)));
    };
    if !said_started {
        started(Ok(()));
    }
    let (word, reason) = match end {
        DeepeningEnd::Exact => ("exact", end.describe().to_string()),
        DeepeningEnd::Deepest => ("deepest", end.describe().to_string()),
        DeepeningEnd::Stopped | DeepeningEnd::Declined if Instant::now() >= deadline => (
            "time",
            format!("the server's limit of {} s ran out", limit.as_secs_f64()),
        ),
        DeepeningEnd::Stopped if !stop.load(std::sync::atomic::Ordering::Relaxed) => {
            ("time", "the AI's own time ran out".to_string())
        }
        DeepeningEnd::Stopped | DeepeningEnd::Declined => {
            ("stopped", DeepeningEnd::Stopped.describe().to_string())
        }
    };
    let mut done = last.unwrap_or_else(|| DeepeningView {
        spec: spec.clone(),
        scale: scale.into(),
        ..Default::default()
    });
    done.elapsed_ms = began.elapsed().as_millis() as u64;
    done.done = true;
    done.end = Some(word);
    done.reason = Some(reason);
    send(done);
}
