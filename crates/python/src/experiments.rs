//! Matches, tournaments, the divergence search and proofs, run by the same core code as
//! the command line, with Python agents among gamelab's own. Each returns the command's
//! JSON (`gamelab match --json`, …), which the package turns into result objects.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use gamelab_core::arena::{ChunkResult, LiveOptions, PlayedGame};
use gamelab_core::limits;
use gamelab_core::match_request::{
    Judge, LocalThreads, MatchError, MatchRequest, MatchRun, Openings, TournamentRequest,
};
use gamelab_core::record::GameRecord;
use gamelab_core::tournament::TournamentError;
use gamelab_core::{Described, FileAccess, GameVisitor, Registry, Side, StopFlag};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::agent::{Agent, PyAgent, PythonAgent, PythonPlayer};
use crate::args;
use crate::errors::{PositionError, SpecError};
use crate::interrupt::{self, Job};
use crate::position::Position;

/// A player of an experiment: one of gamelab's AIs by spec, or a Python agent.
pub enum AgentArg {
    Spec(String),
    Python(Arc<PythonPlayer>),
}

impl AgentArg {
    /// From what the package passes: a spec, a `gamelab.Agent` of `game`, or a
    /// `PythonAgent` (the package wraps functions in one).
    pub fn from_py(obj: &Bound<'_, PyAny>, game: &str, stop: &StopFlag) -> PyResult<AgentArg> {
        if let Ok(spec) = obj.extract::<String>() {
            return Ok(AgentArg::Spec(spec));
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
            return Ok(AgentArg::Spec(agent.spec().to_string()));
        }
        if let Ok(agent) = obj.cast::<PythonAgent>() {
            return Ok(AgentArg::Python(PythonPlayer::new(
                obj.py(),
                agent.get(),
                stop.clone(),
            )));
        }
        Err(PyTypeError::new_err(format!(
            "an agent is an AI spec (\"ai2\", \"engine:level=8\"), a gamelab.Agent, or a Python function of a position; got {}",
            obj.get_type().name()?
        )))
    }

    pub fn name(&self) -> String {
        match self {
            AgentArg::Spec(spec) => spec.clone(),
            AgentArg::Python(p) => p.name.clone(),
        }
    }

    fn python(&self) -> Option<&Arc<PythonPlayer>> {
        match self {
            AgentArg::Python(p) => Some(p),
            AgentArg::Spec(_) => None,
        }
    }

    /// Checks a spec against the registry (Python agents need no check).
    fn check<G: Described>(&self, registry: &Registry<G>) -> PyResult<()> {
        if let AgentArg::Spec(spec) = self {
            registry
                .build(spec)
                .map_err(|e| SpecError::new_err(e.to_string()))?;
        }
        Ok(())
    }

    /// A fresh agent for `G` (a spec already checked).
    fn build<G: Described>(
        &self,
        registry: &Registry<G>,
        board: &'static str,
    ) -> Box<dyn gamelab_core::Agent<G>> {
        match self {
            AgentArg::Spec(spec) => registry.build(spec).expect("checked before the games"),
            AgentArg::Python(player) => Box::new(PyAgent::<G>::new(player.clone(), board)),
        }
    }
}

/// The first failure of the Python agents, to raise instead of a result.
pub fn agent_failure(py: Python<'_>, agents: &[&AgentArg]) -> Option<PyErr> {
    agents
        .iter()
        .filter_map(|a| a.python())
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

fn check_games(games: Option<u64>) -> PyResult<Option<u64>> {
    games
        .map(|n| args::check("games", limits::GAMES_PER_SIDE, n))
        .transpose()
}

fn visit<V: GameVisitor<Output = PyResult<R>>, R>(
    game: &str,
    board: &'static str,
    visitor: V,
) -> PyResult<R> {
    gamelab_games::visit(game, Some(board), visitor)
        .map_err(|e| PositionError::new_err(e.to_string()))?
}

fn new_stop() -> StopFlag {
    StopFlag::new(AtomicBool::new(false))
}

/// A match as the package asks for one.
struct MatchJob<'a> {
    a: &'a AgentArg,
    b: &'a AgentArg,
    board: &'static str,
    games: Option<u64>,
    seed: u64,
    threads: usize,
    exact: bool,
    openings: &'a Openings,
    clock: gamelab_core::clock::TimeControl,
    records: bool,
    job: &'a Job,
}

/// The match report (JSON) and, when asked for, every game's record (JSON).
type MatchOutput = (String, Option<Vec<String>>);

impl GameVisitor for MatchJob<'_> {
    type Output = PyResult<MatchOutput>;
    fn visit<G: Described>(self) -> Self::Output {
        let registry = G::registry();
        self.a.check(&registry)?;
        self.b.check(&registry)?;
        let (a_name, b_name) = (self.a.name(), self.b.name());
        let python = self.a.python().is_some() || self.b.python().is_some();
        let request = MatchRequest {
            names: [a_name.clone(), b_name.clone()],
            games_per_side: self.games,
            seed: self.seed,
            // The interpreter runs one Python call at a time: Python agents play one
            // game at a time (results do not depend on it).
            threads: if python { 1 } else { self.threads },
            openings: self.openings.clone(),
            clock: self.clock,
            exact: self.exact,
        };
        let prepared = request
            .prepare(&registry, &FileAccess::Any)
            .map_err(match_error)?;
        let json = |run: MatchRun| serde_json::to_string(&run.report).expect("a report serialises");
        if self.exact {
            let (mut a, mut b) = (
                self.a.build(&registry, self.board),
                self.b.build(&registry, self.board),
            );
            let run = prepared.exact(&mut *a, &mut *b).map_err(match_error)?;
            return Ok((json(run), None));
        }
        let mut live = LiveOptions::for_match(&prepared.config(), self.records);
        live.stop = Some(&self.job.stop);
        live.chunk_seconds = Some(0.1);
        let make_a = || self.a.build(&registry, self.board);
        let make_b = || self.b.build(&registry, self.board);
        let mut records = Vec::new();
        let mut keep = |played: Vec<PlayedGame<G::Move>>| {
            records.extend(played.iter().map(|g| {
                serde_json::to_string(&GameRecord::of::<G>(g, &a_name, &b_name, self.seed))
                    .expect("a record serialises")
            }));
            true
        };
        let run = prepared
            .run(&mut LocalThreads {
                make_a: &make_a,
                make_b: &make_b,
                live,
                on_chunk: &|chunk| self.job.advance(chunk.range.end - chunk.range.start),
                on_games: &mut keep,
            })
            .map_err(match_error)?
            .expect("this process plays every game");
        Ok((json(run), self.records.then_some(records)))
    }
}

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
    let clock = clock
        .map(str::parse::<gamelab_core::clock::TimeControl>)
        .transpose()
        .map_err(|e| PyValueError::new_err(e.to_string()))?
        .unwrap_or_default();
    let games = check_games(games)?;
    let threads = args::threads(threads)?.unwrap_or(0);
    let openings = openings_from_args(openings, openings_list, balanced, judge)?;
    let stop = new_stop();
    let (a, b) = (
        AgentArg::from_py(a, game, &stop)?,
        AgentArg::from_py(b, game, &stop)?,
    );
    let out = interrupt::run(py, progress, Some(stop), |job| {
        visit(
            game,
            board,
            MatchJob {
                a: &a,
                b: &b,
                board,
                games,
                seed,
                threads,
                exact,
                openings: &openings,
                clock,
                records,
                job,
            },
        )
    });
    if let Some(err) = agent_failure(py, &[&a, &b]) {
        return Err(err);
    }
    out?
}

struct TournamentJob<'a> {
    ais: &'a [AgentArg],
    board: &'static str,
    games: Option<u64>,
    seed: u64,
    threads: usize,
    openings: &'a Openings,
    job: &'a Job,
}

impl GameVisitor for TournamentJob<'_> {
    type Output = PyResult<Option<String>>;
    fn visit<G: Described>(self) -> Self::Output {
        let registry = G::registry();
        let names: Vec<String> = self.ais.iter().map(AgentArg::name).collect();
        gamelab_core::tournament::check_entrants(&names)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        for ai in self.ais {
            ai.check(&registry)?;
        }
        let python = self.ais.iter().any(|a| a.python().is_some());
        let request = TournamentRequest {
            entrants: names,
            games_per_side: self.games,
            seed: self.seed,
            threads: if python { 1 } else { self.threads },
            openings: self.openings.clone(),
            clock: Default::default(),
        };
        let prepared = request
            .prepare(&registry, &FileAccess::Any)
            .map_err(match_error)?;
        let make = |i: usize| self.ais[i].build(&registry, self.board);
        let on_chunk = |_: usize, chunk: &ChunkResult<G::Move>| {
            self.job.advance(chunk.range.end - chunk.range.start)
        };
        let report = prepared
            .run(&make, Some(&self.job.stop), &on_chunk)
            .map_err(|e| match e {
                MatchError::Tournament(e @ TournamentError::Stopped { .. }) => {
                    crate::errors::AgentError::new_err(e.to_string())
                }
                e => match_error(e),
            })?;
        Ok((!report.interrupted)
            .then(|| serde_json::to_string(&report).expect("a report serialises")))
    }
}

/// `gamelab.tournament`'s engine: the report's JSON (`None` only when stopped, which
/// raises instead).
#[pyfunction]
#[pyo3(signature = (ais, *, game, board = None, games = None, seed = 0, threads = None, openings = 0, openings_list = None, balanced = None, judge = None, progress = None))]
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
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<String>> {
    let board = args::board_py(game, board)?;
    let games = check_games(games)?;
    let threads = args::threads(threads)?.unwrap_or(0);
    let openings = openings_from_args(openings, openings_list, balanced, judge)?;
    let stop = new_stop();
    let ais: Vec<AgentArg> = ais
        .iter()
        .map(|a| AgentArg::from_py(a, game, &stop))
        .collect::<PyResult<_>>()?;
    let out = interrupt::run(py, progress, Some(stop), |job| {
        visit(
            game,
            board,
            TournamentJob {
                ais: &ais,
                board,
                games,
                seed,
                threads,
                openings: &openings,
                job,
            },
        )
    });
    let refs: Vec<&AgentArg> = ais.iter().collect();
    if let Some(err) = agent_failure(py, &refs) {
        return Err(err);
    }
    out?
}

struct DivergeJob<'a> {
    agents: [&'a AgentArg; 3],
    board: &'static str,
    side: Option<&'a str>,
    seeds: std::ops::Range<u64>,
    job: &'a Job,
}

impl GameVisitor for DivergeJob<'_> {
    type Output = PyResult<Option<String>>;
    fn visit<G: Described>(self) -> Self::Output {
        let side = match self.side {
            None => Side::First,
            Some(s) if s == G::side_name(Side::First) => Side::First,
            Some(s) if s == G::side_name(Side::Second) => Side::Second,
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "`{other}` is not a side: expected {} or {}",
                    G::side_name(Side::First),
                    G::side_name(Side::Second)
                )));
            }
        };
        let registry = G::registry();
        for a in self.agents {
            a.check(&registry)?;
        }
        let [mut a, mut a2, mut b] = self.agents.map(|a| a.build(&registry, self.board));
        let found = gamelab_core::diverge::first_divergence(
            &mut *a,
            &mut *a2,
            &mut *b,
            side,
            self.seeds,
            &mut |_| {
                self.job.advance(1);
                !self.job.stopped()
            },
        );
        Ok(found.map(|d| {
            let game = |(moves, outcome): &(Vec<G::Move>, gamelab_core::Outcome)| {
                let mut replay = G::start();
                let movers: Vec<&str> = moves
                    .iter()
                    .map(|&mv| {
                        let side = G::side_name(replay.to_move());
                        replay.play_unchecked(mv);
                        side
                    })
                    .collect();
                serde_json::json!({
                    "moves": moves.iter().map(|&m| G::write_move(m)).collect::<Vec<_>>(),
                    "movers": movers,
                    "result": outcome.winner().map_or("draw", G::side_name),
                    "outcome": G::describe_outcome(*outcome),
                })
            };
            serde_json::json!({
                "game": G::NAME,
                "seed": d.seed,
                "side": G::side_name(side),
                "parted": d.parted,
                "games": [game(&d.games[0]), game(&d.games[1])],
            })
            .to_string()
        }))
    }
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
    let agents = [a, a2, b].map(|x| AgentArg::from_py(x, game, &stop));
    let [a, a2, b] = agents;
    let (a, a2, b) = (a?, a2?, b?);
    let out = interrupt::run(py, progress, Some(stop), |job| {
        visit(
            game,
            board,
            DivergeJob {
                agents: [&a, &a2, &b],
                board,
                side,
                seeds: start..start.saturating_add(limit),
                job,
            },
        )
    });
    if let Some(err) = agent_failure(py, &[&a, &a2, &b]) {
        return Err(err);
    }
    out?
}

struct VerifyJob<'a> {
    agent: &'a AgentArg,
    board: &'static str,
}

impl GameVisitor for VerifyJob<'_> {
    type Output = PyResult<String>;
    fn visit<G: Described>(self) -> Self::Output {
        let registry = G::registry();
        self.agent.check(&registry)?;
        let mut agent = self.agent.build(&registry, self.board);
        let name = self.agent.name();
        let mut sides = serde_json::Map::new();
        for side in Side::BOTH {
            let proof = gamelab_core::proof::never_loses::<G>(&mut *agent, &name, side)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            sides.insert(
                G::side_name(side).to_string(),
                serde_json::json!({
                    "never_loses": proof.losing_line.is_none(),
                    "positions": proof.positions,
                    "losing_line": proof.losing_line.map(|line| {
                        line.iter().map(|&m| G::write_move(m)).collect::<Vec<_>>()
                    }),
                }),
            );
        }
        Ok(serde_json::Value::Object(sides).to_string())
    }
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
    let out = interrupt::run(py, None, Some(stop), |_| {
        visit(
            game,
            board,
            VerifyJob {
                agent: &agent,
                board,
            },
        )
    });
    if let Some(err) = agent_failure(py, &[&agent]) {
        return Err(err);
    }
    out?
}

/// `gamelab.solve`'s engine: the perfect-play value (+1 win, 0 draw, −1 loss for the side
/// to move) and each move's, as JSON.
#[pyfunction]
pub fn _solve(py: Python<'_>, position: PyRef<'_, Position>) -> PyResult<String> {
    let position = &*position;
    let solved = py
        .detach(|| position.inner.solve())
        .map_err(PyValueError::new_err)?;
    let moves: serde_json::Map<String, serde_json::Value> = solved
        .moves
        .into_iter()
        .map(|(mv, value)| (mv, value.into()))
        .collect();
    Ok(serde_json::json!({ "value": solved.value, "moves": moves }).to_string())
}
