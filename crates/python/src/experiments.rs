//! Matches, tournaments, the divergence search and proofs, run through the door's
//! experiments (`gamelab_games::experiments`, as the command line's), with Python agents
//! among gamelab's own. Each returns the command's JSON (`gamelab match --json`, …), which
//! the package turns into result objects.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use gamelab_core::StopFlag;
use gamelab_core::limits;
use gamelab_core::match_request::{
    Judge, MatchError, MatchRequest, MatchSetup, Openings, TournamentRequest,
};
use gamelab_core::tournament::TournamentError;
use gamelab_games::experiments::{self, Entrant, ExperimentError, Live};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::agent::{Agent, PyPlayer, PythonAgent, PythonPlayer};
use crate::args;
use crate::errors::{PositionError, SpecError};
use crate::interrupt::{self, Job};
use crate::position::Position;

/// A player of an experiment as the door takes it, with the Python agent behind it (whose
/// failure is raised instead of a result).
pub struct AgentArg {
    entrant: Entrant,
    python: Option<Arc<PythonPlayer>>,
}

impl AgentArg {
    /// From what the package passes: a spec, a `gamelab.Agent` of `game`, or a
    /// `PythonAgent` (the package wraps functions in one).
    pub fn from_py(obj: &Bound<'_, PyAny>, game: &str, stop: &StopFlag) -> PyResult<AgentArg> {
        let spec = |spec: String| AgentArg {
            entrant: Entrant::Spec(spec),
            python: None,
        };
        if let Ok(s) = obj.extract::<String>() {
            return Ok(spec(s));
        }
        if let Ok(agent) = obj.cast::<Agent>() {
            let agent = agent.get();
            if agent.game() != game {
                return Err(PyValueError::new_err(format!(
                    "{} is an AI of {}; this experiment is of {game}",
                    agent.spec(),
                    agent.game()
                )));
            }
            return Ok(spec(agent.spec().to_string()));
        }
        if let Ok(agent) = obj.cast::<PythonAgent>() {
            let player = PythonPlayer::new(obj.py(), agent.get(), stop.clone());
            let made = player.clone();
            return Ok(AgentArg {
                entrant: Entrant::Custom {
                    name: player.name.clone(),
                    make: Arc::new(move || Box::new(PyPlayer::new(made.clone()))),
                },
                python: Some(player),
            });
        }
        Err(PyTypeError::new_err(format!(
            "an agent is an AI spec (\"ai2\", \"engine:level=8\"), a gamelab.Agent, or a Python function of a position; got {}",
            obj.get_type().name()?
        )))
    }
}

/// The first failure of the Python agents, to raise instead of a result.
pub fn agent_failure(py: Python<'_>, agents: &[&AgentArg]) -> Option<PyErr> {
    agents
        .iter()
        .filter_map(|a| a.python.as_ref())
        .find_map(|p| p.take_failure(py))
}

/// Where the games of a match or tournament start, from the package's arguments: a number
/// of random plies (kept by a judge within ±balanced when given) or a list of move lists.
pub fn openings_from_args(
    plies: u32,
    given: Option<Vec<Vec<String>>>,
    balanced: Option<f64>,
    judge: Option<String>,
) -> PyResult<Openings> {
    // The arguments' own names in the messages; the request checks the same ranges.
    args::check("openings", limits::OPENING_PLIES, plies)?;
    let judge = match (balanced, judge) {
        (None, None) => None,
        (Some(window), Some(spec)) => Some(Judge {
            spec,
            window: args::check("balanced", limits::WINDOW, window)?,
        }),
        _ => {
            return Err(PyValueError::new_err(
                "balanced and judge go together: keep the random openings the judge values within ±balanced",
            ));
        }
    };
    let openings = match (plies, given, judge) {
        (0, Some(list), None) => Openings::Lines(list),
        (_, Some(_), None) => {
            return Err(PyValueError::new_err(
                "give openings as a number of random plies or as a list of move lists, not both",
            ));
        }
        (_, Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "balanced applies to random openings, not to a given list",
            ));
        }
        (plies, None, judge) => Openings::Random { plies, judge },
    };
    openings.check().map_err(match_error)?;
    Ok(openings)
}

/// A match's or tournament's error as Python raises it: an agent that gave up as
/// `AgentError`, a judge's bad spec as `SpecError`, anything else as `ValueError`.
pub fn match_error(e: MatchError) -> PyErr {
    match e {
        MatchError::GaveUp { .. } => crate::errors::AgentError::new_err(e.to_string()),
        MatchError::JudgeSpec { .. } => SpecError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// How a match or each pair of a tournament is set up, from the package's arguments
/// (`clock` as `gamelab match --clock` takes it).
fn match_setup(
    games: Option<u64>,
    seed: u64,
    threads: Option<usize>,
    openings: Openings,
    clock: Option<&str>,
) -> PyResult<MatchSetup> {
    let clock = clock
        .map(str::parse::<gamelab_core::clock::TimeControl>)
        .transpose()
        .map_err(|e| PyValueError::new_err(e.to_string()))?
        .unwrap_or_default();
    Ok(MatchSetup {
        games_per_side: games
            .map(|n| args::check("games", limits::GAMES_PER_SIDE, n))
            .transpose()?,
        seed,
        threads: args::threads(threads)?.unwrap_or(0),
        openings,
        clock,
    })
}

fn new_stop() -> StopFlag {
    StopFlag::new(AtomicBool::new(false))
}

/// An experiment's error as Python raises it: an unknown game or board as
/// `PositionError`, a bad spec as `SpecError`, a match's as [`match_error`], anything
/// else as `ValueError`.
fn experiment_error(e: ExperimentError) -> PyErr {
    match e {
        ExperimentError::Catalogue(e) => PositionError::new_err(e.to_string()),
        ExperimentError::Spec { source, .. } => SpecError::new_err(source.to_string()),
        ExperimentError::Match(e) => match_error(e),
        e @ (ExperimentError::Exact(_) | ExperimentError::Side { .. }) => {
            PyValueError::new_err(e.to_string())
        }
    }
}

/// Runs `experiment` with the interpreter released (Ctrl-C and `progress` watched), then
/// raises a Python agent's failure in place of its result.
fn run_experiment<R: Send>(
    py: Python<'_>,
    agents: &[&AgentArg],
    progress: Option<&Bound<'_, PyAny>>,
    stop: StopFlag,
    experiment: impl FnOnce(&Job) -> Result<R, PyErr> + Send,
) -> PyResult<R> {
    let out = interrupt::run(py, progress, Some(stop), experiment);
    if let Some(err) = agent_failure(py, agents) {
        return Err(err);
    }
    out?
}

/// The match report (JSON) and, when asked for, every game's record (JSON).
type MatchOutput = (String, Option<Vec<String>>);

/// `gamelab.match`'s engine: see the package's docstring.
#[pyfunction]
#[pyo3(signature = (a, b, *, game, board = None, games = None, seed = 0, threads = None, exact = false, openings = 0, openings_list = None, balanced = None, judge = None, clock = None, records = false, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn _match(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    game: &str,
    board: Option<&str>,
    games: Option<u64>,
    seed: u64,
    threads: Option<usize>,
    exact: bool,
    openings: u32,
    openings_list: Option<Vec<Vec<String>>>,
    balanced: Option<f64>,
    judge: Option<String>,
    clock: Option<&str>,
    records: bool,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<MatchOutput> {
    let board = args::board_py(game, board)?;
    let openings = openings_from_args(openings, openings_list, balanced, judge)?;
    let request = MatchRequest {
        setup: match_setup(games, seed, threads, openings, clock)?,
        exact,
        ..MatchRequest::new("", "")
    };
    let stop = new_stop();
    let (a, b) = (
        AgentArg::from_py(a, game, &stop)?,
        AgentArg::from_py(b, game, &stop)?,
    );
    run_experiment(py, &[&a, &b], progress, stop, |job| {
        let live = Live {
            stop: Some(&job.stop),
            progress: &|n| job.advance(n),
            keep_records: records,
        };
        let played =
            experiments::play_match(game, Some(board), request, [&a.entrant, &b.entrant], &live)
                .map_err(experiment_error)?;
        let report = serde_json::to_string(&played.run.report).expect("a report serialises");
        let records = records.then(|| {
            played
                .records
                .iter()
                .map(|r| serde_json::to_string(r).expect("a record serialises"))
                .collect()
        });
        Ok((report, records))
    })
}

/// `gamelab.tournament`'s engine: the report's JSON (`None` only when stopped, which
/// raises instead).
#[pyfunction]
#[pyo3(signature = (ais, *, game, board = None, games = None, seed = 0, threads = None, openings = 0, openings_list = None, balanced = None, judge = None, clock = None, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn _tournament(
    py: Python<'_>,
    ais: Vec<Bound<'_, PyAny>>,
    game: &str,
    board: Option<&str>,
    games: Option<u64>,
    seed: u64,
    threads: Option<usize>,
    openings: u32,
    openings_list: Option<Vec<Vec<String>>>,
    balanced: Option<f64>,
    judge: Option<String>,
    clock: Option<&str>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<String>> {
    let board = args::board_py(game, board)?;
    let openings = openings_from_args(openings, openings_list, balanced, judge)?;
    let request = TournamentRequest {
        entrants: Vec::new(),
        setup: match_setup(games, seed, threads, openings, clock)?,
    };
    let stop = new_stop();
    let ais: Vec<AgentArg> = ais
        .iter()
        .map(|a| AgentArg::from_py(a, game, &stop))
        .collect::<PyResult<_>>()?;
    let refs: Vec<&AgentArg> = ais.iter().collect();
    let entrants: Vec<Entrant> = ais.iter().map(|a| a.entrant.clone()).collect();
    run_experiment(py, &refs, progress, stop, |job| {
        let live = Live {
            stop: Some(&job.stop),
            progress: &|n| job.advance(n),
            keep_records: false,
        };
        let report = experiments::play_tournament(game, Some(board), request, &entrants, &live)
            .map_err(|e| match e {
                ExperimentError::Match(MatchError::Tournament(
                    e @ TournamentError::Stopped { .. },
                )) => crate::errors::AgentError::new_err(e.to_string()),
                e => experiment_error(e),
            })?;
        Ok((!report.interrupted)
            .then(|| serde_json::to_string(&report).expect("a report serialises")))
    })
}

/// `gamelab.diverge`'s engine: the divergence as JSON, or `None` when every seed tried
/// ended alike.
#[pyfunction]
#[pyo3(signature = (a, a2, b, *, game, board = None, start = 0, limit = 1_000_000, side = None, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn _diverge(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    a2: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    game: &str,
    board: Option<&str>,
    start: u64,
    limit: u64,
    side: Option<&str>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<String>> {
    args::check("limit", limits::SEEDS, limit)?;
    let board = args::board_py(game, board)?;
    let stop = new_stop();
    let [a, a2, b] = [a, a2, b].map(|x| AgentArg::from_py(x, game, &stop));
    let (a, a2, b) = (a?, a2?, b?);
    run_experiment(py, &[&a, &a2, &b], progress, stop, |job| {
        let live = Live {
            stop: Some(&job.stop),
            progress: &|n| job.advance(n),
            keep_records: false,
        };
        let found = experiments::diverge(
            game,
            Some(board),
            [&a.entrant, &a2.entrant, &b.entrant],
            side,
            start..start.saturating_add(limit),
            &live,
        )
        .map_err(experiment_error)?;
        Ok(found.map(|d| serde_json::to_string(&d).expect("a divergence serialises")))
    })
}

/// `gamelab.verify`'s engine: per side, whether the AI never loses, as JSON.
#[pyfunction]
#[pyo3(signature = (ai, *, game, board = None))]
pub fn _verify(
    py: Python<'_>,
    ai: &Bound<'_, PyAny>,
    game: &str,
    board: Option<&str>,
) -> PyResult<String> {
    let board = args::board_py(game, board)?;
    let stop = new_stop();
    let agent = AgentArg::from_py(ai, game, &stop)?;
    run_experiment(py, &[&agent], None, stop, |_| {
        let proofs =
            experiments::verify(game, Some(board), &agent.entrant).map_err(experiment_error)?;
        let sides: serde_json::Map<String, serde_json::Value> = proofs
            .iter()
            .map(|p| {
                let proof = serde_json::json!({
                    "never_loses": p.never_loses,
                    "positions": p.positions,
                    "losing_line": p.losing_line,
                });
                (p.side.to_string(), proof)
            })
            .collect();
        Ok(serde_json::Value::Object(sides).to_string())
    })
}

/// `gamelab.solve`'s engine: the perfect-play value (+1 win, 0 draw, −1 loss for the side
/// to move) and each move's, as JSON.
#[pyfunction]
pub fn _solve(py: Python<'_>, position: PyRef<'_, Position>) -> PyResult<String> {
    let position = &*position;
    let solved = py
        .detach(|| position.inner.solve())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let moves: serde_json::Map<String, serde_json::Value> = solved
        .moves
        .into_iter()
        .map(|(mv, value)| (mv, value.into()))
        .collect();
    Ok(serde_json::json!({ "value": solved.value, "moves": moves }).to_string())
}
