//! The play view's analysis: an AI's value of each legal move in a position, once or
//! deeper and deeper.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use gamelab_core::valuation::{ScoreScale, rank_moves};
use gamelab_core::{
    DeepScore, Deepening, DeepeningEnd, Described, FileAccess, GameVisitor, StopFlag,
};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::games::{MoveView, move_view, position_after};

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
    pub scores: Vec<DeepMoveScore>,
}

/// An AI's units, as the page states them ([`ScoreScale`]).
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

/// Each of `scores` as the page shows it: its label and words on `scale`, its share of
/// the evaluation bar, whether it is among the best and what it costs if not.
fn valued<G: Described>(scores: &[DeepScore<G::Move>], scale: ScoreScale) -> Vec<DeepMoveScore> {
    let ranks = rank_moves(scores);
    scores
        .iter()
        .zip(ranks)
        .map(|(s, rank)| DeepMoveScore {
            mv: move_view::<G>(s.mv),
            score: s.score,
            exact: s.exact,
            line: s.line.iter().map(|&m| G::write_move(m)).collect(),
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
        let no_scores = || {
            ApiError::bad_request(format!(
                "{} gives no value for each move; choose an AI that scores moves, such as {}",
                request.ai,
                G::ANALYSIS_AI
            ))
        };
        let analyst = agent.analyst().ok_or_else(no_scores)?;
        let scores = analyst.move_values(&game).ok_or_else(no_scores)?;
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(ApiError::conflict("the analysis was stopped".to_string()));
        }
        let scale = analyst.score_scale();
        Ok(AnalysisView {
            spec: request.ai,
            scale: scale.into(),
            scores: valued::<G>(&scores, scale),
        })
    }
}

/// A move's value at one step of a deepening analysis.
#[derive(Serialize, Debug, Clone)]
pub struct DeepMoveScore {
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

/// One event of a deepening analysis: every move's value at the last level done.
#[derive(Serialize, Debug, Clone, Default)]
pub struct DeepeningView {
    pub spec: String,
    pub scale: ScaleView,
    /// The AI's level of these values; `null` for an AI that values moves once (and
    /// before the first level is done).
    pub level: Option<u32>,
    pub scores: Vec<DeepMoveScore>,
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
    let name = request.game.clone();
    let run = Deepen {
        request,
        files,
        stop,
        limit,
        started: &mut *started,
        send,
    };
    if let Err(e) = crate::games::visit(&name, run) {
        started(Err(e));
    }
}

struct Deepen<'a> {
    request: AnalysisRequest,
    files: &'a FileAccess,
    stop: &'a StopFlag,
    limit: Duration,
    started: &'a mut dyn FnMut(Result<(), ApiError>),
    send: &'a mut dyn FnMut(DeepeningView) -> bool,
}

impl GameVisitor for Deepen<'_> {
    type Output = ();
    fn visit<G: Described>(self) -> Self::Output {
        let Deepen {
            request,
            files,
            stop,
            limit,
            started,
            send,
        } = self;
        let began = Instant::now();
        let deadline = began + limit;
        let prepared = (|| {
            if let Some(lines) = request.lines {
                gamelab_core::limits::LINES
                    .check(lines)
                    .map_err(|e| ApiError::bad_request(format!("lines: {e}")))?;
            }
            let game = position_after::<G>(&request.moves)?;
            if let Some(outcome) = game.outcome() {
                return Err(ApiError::conflict(format!(
                    "the game is over here ({}): there are no moves to value",
                    G::describe_outcome(outcome)
                )));
            }
            let agent = G::registry()
                .build_with(&request.ai, files)
                .map_err(|e| ApiError::bad_request(format!("ai: {e}")))?;
            Ok((game, agent))
        })();
        let (game, mut agent) = match prepared {
            Ok(prepared) => prepared,
            Err(e) => return started(Err(e)),
        };
        let watchdog = gamelab_core::Watchdog::start(Some(stop), Some(deadline));
        agent.set_stop(watchdog.flag());
        let spec = request.ai;
        let scale = agent
            .analyst()
            .map_or(ScoreScale::Unscaled, |analyst| analyst.score_scale());
        let view = |step: &Deepening<G::Move>| DeepeningView {
            spec: spec.clone(),
            scale: scale.into(),
            level: step.level,
            scores: valued::<G>(&step.scores, scale),
            nodes: step.nodes,
            elapsed_ms: began.elapsed().as_millis() as u64,
            ..Default::default()
        };
        let mut last: Option<DeepeningView> = None;
        let mut said_started = false;
        let analyst = agent.analyst();
        let lines = request.lines;
        let end = analyst.and_then(|analyst| {
            let mut step = |step: &Deepening<G::Move>| {
                if !said_started {
                    said_started = true;
                    started(Ok(()));
                }
                let v = view(step);
                last = Some(v.clone());
                if send(v) {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            };
            match lines {
                Some(count) => analyst.deepen_lines(&game, count, &mut step),
                None => analyst.deepen_move_scores(&game, &mut step),
            }
        });
        let Some(end) = end else {
            return started(Err(ApiError::bad_request(format!(
                "{spec} gives no value for each move; choose an AI that scores moves, such as {}",
                G::ANALYSIS_AI
            ))));
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
}
