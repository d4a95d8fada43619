//! AIs from Python's side: gamelab's own (`gamelab.Agent`, built from a spec), Python
//! functions playing in gamelab's arena (`PythonAgent`), and the random stream a Python
//! agent draws from (`gamelab.Stream`).

use std::sync::{Arc, Mutex};

use gamelab_core::{GameRng, Side, StopFlag};
use gamelab_games::experiments::{Failed, TextPlayer};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySequence};
use rand::Rng;

use crate::dyn_game::{AnyAgent, AnyGame, DeepLevel, make_position};
use crate::errors::{AgentError, PositionError, SpecError};
use crate::position::{Position, move_text};

/// One of gamelab's AIs, built from a spec such as `ai12s:ver=1` or
/// `engine:level=8` (see `gamelab.ais(game)` for each game's AIs and parameters).
///
/// Its moves draw from the stream `(seed, ply, side to move)`, as `gamelab move --seed`,
/// `gamelab play` and the web app do, so the same seed gives the same move everywhere.
#[pyclass(module = "gamelab", name = "Agent", frozen)]
pub struct Agent {
    spec: String,
    game: &'static str,
    built: Mutex<Box<dyn AnyAgent>>,
}

impl Agent {
    pub fn spec(&self) -> &str {
        &self.spec
    }

    pub fn game(&self) -> &'static str {
        self.game
    }

    /// Runs `f` with this agent built for `pos`'s exact type (rebuilt when `pos` runs on
    /// another board structure of the same game).
    fn with<R>(&self, pos: &dyn AnyGame, f: impl FnOnce(&mut dyn AnyAgent) -> R) -> PyResult<R> {
        if pos.name() != self.game {
            return Err(PyValueError::new_err(format!(
                "{} is an AI of {}; this position is of {}",
                self.spec,
                self.game,
                pos.name()
            )));
        }
        let mut built = self.built.lock().unwrap_or_else(|e| e.into_inner());
        if built.position_type() != pos.as_any().type_id() {
            *built = pos
                .build_agent(&self.spec)
                .map_err(|e| SpecError::new_err(e.to_string()))?;
        }
        Ok(f(&mut **built))
    }

    /// Runs `f` on this agent and a position whose game goes on, with Python free to run
    /// other threads meanwhile (a search may take seconds).
    fn ask<R: Send>(
        &self,
        py: Python<'_>,
        position: &Position,
        f: impl FnOnce(&mut dyn AnyAgent, &dyn AnyGame) -> R + Send,
    ) -> PyResult<R> {
        let pos = &*position.inner;
        check_going(pos)?;
        py.detach(|| self.with(pos, |agent| f(agent, pos)))
    }
}

fn check_going(pos: &dyn AnyGame) -> PyResult<()> {
    match pos.outcome() {
        Some(outcome) => Err(PyValueError::new_err(format!(
            "the game is already over ({}); there is no move to choose",
            pos.describe_outcome(outcome)
        ))),
        None => Ok(()),
    }
}

/// `(move, value)` pairs as a dict in the agent's order.
fn pairs_dict<'py>(py: Python<'py>, pairs: Vec<(String, f64)>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (mv, v) in pairs {
        dict.set_item(mv, v)?;
    }
    Ok(dict)
}

#[pymethods]
impl Agent {
    /// `Agent(spec, game="ttt", *, board=None)`; `gamelab.agent(spec, game)` is the same.
    #[new]
    #[pyo3(signature = (spec, game = None, *, board = None))]
    fn py_new(spec: &str, game: Option<&str>, board: Option<&str>) -> PyResult<Agent> {
        let game = game.unwrap_or(gamelab_games::DEFAULT);
        let start =
            make_position(game, board, None).map_err(|e| PositionError::new_err(e.to_string()))?;
        let built = start
            .build_agent(spec)
            .map_err(|e| SpecError::new_err(e.to_string()))?;
        Ok(Agent {
            spec: spec.to_string(),
            game: start.name(),
            built: Mutex::new(built),
        })
    }

    /// The spec it was built from.
    #[getter(spec)]
    fn py_spec(&self) -> &str {
        &self.spec
    }

    /// The game it plays.
    #[getter(game)]
    fn py_game(&self) -> &'static str {
        self.game
    }

    /// The move it plays in `position`, drawing from the stream `(seed, ply, side)`.
    #[pyo3(signature = (position, seed = 0))]
    fn choose(&self, py: Python<'_>, position: PyRef<'_, Position>, seed: u64) -> PyResult<String> {
        self.ask(py, &position, |agent, pos| {
            let mut rng = gamelab_core::game_rng(seed, pos.ply() as u64, pos.to_move());
            agent.choose(pos, &mut rng)
        })?
        .map_err(|reason| {
            AgentError::new_err(format!("{} gave up instead of moving: {reason}", self.spec))
        })
    }

    /// The distribution it draws its move from, `{move: probability}`; `None` for an AI
    /// without a fixed one (a time-limited search, MCTS by time).
    fn policy<'py>(
        &self,
        py: Python<'py>,
        position: PyRef<'_, Position>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let policy = self.ask(py, &position, |agent, pos| agent.policy(pos))?;
        policy.map(|p| pairs_dict(py, p)).transpose()
    }

    /// The moves it considers best (those its policy gives a chance); for an AI without
    /// a fixed distribution, the one move it plays with seed 0.
    fn best_moves(&self, py: Python<'_>, position: PyRef<'_, Position>) -> PyResult<Vec<String>> {
        self.ask(py, &position, |agent, pos| match agent.policy(pos) {
            Some(p) => Ok(p.into_iter().map(|(m, _)| m).collect()),
            None => {
                let mut rng = gamelab_core::game_rng(0, pos.ply() as u64, pos.to_move());
                agent.choose(pos, &mut rng).map(|mv| vec![mv])
            }
        })?
        .map_err(|reason| {
            AgentError::new_err(format!("{} gave up instead of moving: {reason}", self.spec))
        })
    }

    /// How it decides here (the articles' `debug=True` trace), for AIs that give one.
    fn explain(&self, py: Python<'_>, position: PyRef<'_, Position>) -> PyResult<Option<String>> {
        self.ask(py, &position, |agent, pos| agent.explain(pos))
    }

    /// Its score of each legal move, `{move: score}`, for AIs that score moves (in the AI's
    /// own units and point of view; see `gamelab.ais`).
    fn move_scores<'py>(
        &self,
        py: Python<'py>,
        position: PyRef<'_, Position>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let scores = self.ask(py, &position, |agent, pos| agent.move_scores(pos))?;
        scores.map(|s| pairs_dict(py, s)).transpose()
    }

    /// Its values of every legal move, deeper and deeper: a list of levels, each
    /// `{"level": n, "nodes": n, "moves": {move: {"score", "exact", "line", "level"}}}`,
    /// the last the deepest. Othello's engine goes from level 1 until every value is
    /// exact, its own `time` or `time_limit` seconds run out (the moves the level under
    /// way had valued, the best of the level before first, come in one more entry of the
    /// last level done, with their own `"level"` one above it);
    /// `mcts` doubles its iterations a level (`"nodes"` counts them) until its tree has
    /// proven every move; another AI that scores moves gives one level (`"level":
    /// None`); `None` for an AI that scores none. With `lines=N`, each level holds only
    /// the best N moves, best first, each with the line it expects (multi-line analysis:
    /// the engine and Connect Four's alpha-beta search the other moves only as far as
    /// needed to leave them out; the first line's value is the best move's in the
    /// analysis without `lines`). `on_level`, when given, is called with
    /// each level as it comes (a few times a second at most, on the calling thread), to
    /// watch a long analysis; an exception it raises stops the search and is raised.
    /// Ctrl-C raises KeyboardInterrupt.
    #[pyo3(signature = (position, *, time_limit = None, on_level = None, lines = None))]
    fn deepen<'py>(
        &self,
        py: Python<'py>,
        position: PyRef<'_, Position>,
        time_limit: Option<f64>,
        on_level: Option<&Bound<'py, PyAny>>,
        lines: Option<usize>,
    ) -> PyResult<Option<Bound<'py, PyList>>> {
        let limit =
            crate::args::seconds("time_limit", time_limit)?.map(std::time::Duration::from_secs_f64);
        let lines = lines
            .map(|n| crate::args::check("lines", gamelab_core::limits::LINES, n))
            .transpose()?;
        let pos = &*position.inner;
        check_going(pos)?;
        let streaming = on_level.is_some();
        // Levels done and not yet given to `on_level`.
        let fresh: Mutex<Vec<DeepLevel>> = Mutex::new(Vec::new());
        let mut watch = |_: &crate::interrupt::Job| -> PyResult<()> {
            let Some(on_level) = on_level else {
                return Ok(());
            };
            let levels = std::mem::take(&mut *fresh.lock().expect("never poisoned"));
            for level in &levels {
                on_level.call1((level_dict(py, level)?,))?;
            }
            Ok(())
        };
        let levels = crate::interrupt::run_watched(py, None, &mut watch, |job| {
            let mut levels = Vec::new();
            let end = self.with(pos, |agent| {
                agent.deepen(pos, limit, &job.stop, lines, &mut |level| {
                    if streaming {
                        fresh.lock().expect("never poisoned").push(level.clone());
                    }
                    levels.push(level);
                    std::ops::ControlFlow::Continue(())
                })
            })?;
            Ok::<_, PyErr>(end.map(|_| levels))
        })??;
        let Some(levels) = levels else {
            return Ok(None);
        };
        let list = PyList::empty(py);
        for level in &levels {
            list.append(level_dict(py, level)?)?;
        }
        Ok(Some(list))
    }

    /// Its value of the position for the side to move, for AIs that evaluate.
    fn value(&self, py: Python<'_>, position: PyRef<'_, Position>) -> PyResult<Option<f64>> {
        self.ask(py, &position, |agent, pos| agent.value(pos))
    }

    fn __repr__(&self) -> String {
        format!("gamelab.Agent({:?}, game={:?})", self.spec, self.game)
    }

    fn __str__(&self) -> String {
        self.spec.clone()
    }
}

/// The random stream of one side in one game: what a Python agent draws from, so that
/// its games are reproducible like gamelab's own (same seed, same games, on any number
/// of threads). Its methods follow `random.Random`'s.
///
/// In a match, an agent gets the stream of its side in that game, valid during its call.
/// `Stream(seed, game=0, side=0)` makes one to try an agent by hand.
#[pyclass(module = "gamelab", name = "Stream")]
pub struct Stream {
    rng: GameRng,
    /// A stream lent for one call of an agent is dead outside it.
    live: bool,
}

impl Stream {
    fn rng(&mut self) -> PyResult<&mut GameRng> {
        if self.live {
            Ok(&mut self.rng)
        } else {
            Err(PyRuntimeError::new_err(
                "this stream was lent to an agent for one move, which is over; an agent gets its stream anew at each move",
            ))
        }
    }

    fn below(&mut self, n: u64) -> PyResult<u64> {
        if n == 0 || n > u64::from(u32::MAX) {
            return Err(PyValueError::new_err(format!(
                "a stream draws among 1 to {} choices; asked for {n}",
                u32::MAX
            )));
        }
        Ok(self.rng()?.below(n as usize) as u64)
    }

    fn unit(&mut self) -> PyResult<f64> {
        Ok((self.rng()?.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64))
    }
}

#[pymethods]
impl Stream {
    #[new]
    #[pyo3(signature = (seed = 0, game = 0, side = 0))]
    fn py_new(seed: u64, game: u64, side: u8) -> PyResult<Stream> {
        let side = match side {
            0 => Side::First,
            1 => Side::Second,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "side is 0 (the first to move) or 1; got {side}"
                )));
            }
        };
        Ok(Stream {
            rng: gamelab_core::game_rng(seed, game, side),
            live: true,
        })
    }

    /// A float in [0, 1).
    fn random(&mut self) -> PyResult<f64> {
        self.unit()
    }

    /// A float in [a, b].
    fn uniform(&mut self, a: f64, b: f64) -> PyResult<f64> {
        Ok(a + (b - a) * self.unit()?)
    }

    /// `randrange(stop)` or `randrange(start, stop[, step])`, as `random.randrange`.
    #[pyo3(signature = (start, stop = None, step = 1))]
    fn randrange(&mut self, start: i64, stop: Option<i64>, step: i64) -> PyResult<i64> {
        let (start, stop) = match stop {
            None => (0, start),
            Some(stop) => (start, stop),
        };
        if step == 0 {
            return Err(PyValueError::new_err("randrange's step must not be 0"));
        }
        let width = (i128::from(stop) - i128::from(start) + i128::from(step)
            - i128::from(step.signum()))
            / i128::from(step);
        if width <= 0 {
            return Err(PyValueError::new_err(format!(
                "empty range for randrange({start}, {stop}, {step})"
            )));
        }
        let k = self.below(u64::try_from(width).unwrap_or(u64::MAX))?;
        Ok(start + step * k as i64)
    }

    /// An integer in [a, b], both included.
    fn randint(&mut self, a: i64, b: i64) -> PyResult<i64> {
        self.randrange(a, Some(b.saturating_add(1)), 1)
    }

    /// An element of `seq` chosen uniformly. A sequence of one is returned without
    /// drawing, as gamelab's AIs do with a forced move, so that an agent that picks
    /// `choice(position.legal_moves())` plays exactly the games of gamelab's `ai2`.
    fn choice<'py>(&mut self, seq: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let seq = seq.cast::<PySequence>()?;
        let n = seq.len()?;
        match n {
            0 => Err(PyIndexError::new_err(
                "cannot choose from an empty sequence",
            )),
            1 => seq.get_item(0),
            _ => seq.get_item(self.below(n as u64)? as usize),
        }
    }

    /// Shuffles `x` in place (Fisher–Yates from the end).
    fn shuffle(&mut self, x: &Bound<'_, PyList>) -> PyResult<()> {
        for i in (1..x.len()).rev() {
            let j = self.below(i as u64 + 1)? as usize;
            if i != j {
                let (a, b) = (x.get_item(i)?, x.get_item(j)?);
                x.set_item(i, b)?;
                x.set_item(j, a)?;
            }
        }
        Ok(())
    }

    /// `k` distinct elements of `population`, in the order drawn.
    fn sample<'py>(
        &mut self,
        population: &Bound<'py, PyAny>,
        k: usize,
    ) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<Bound<'py, PyAny>> = population.try_iter()?.collect::<PyResult<_>>()?;
        if k > items.len() {
            return Err(PyValueError::new_err(format!(
                "sample larger than the population ({k} of {})",
                items.len()
            )));
        }
        let mut pool = items;
        let mut out = Vec::with_capacity(k);
        for i in 0..k {
            let j = i + self.below((pool.len() - i) as u64)? as usize;
            pool.swap(i, j);
            out.push(pool[i].clone());
        }
        PyList::new(population.py(), out)
    }

    /// An integer of `k` random bits (0 ≤ k ≤ 64).
    fn getrandbits(&mut self, k: u32) -> PyResult<u64> {
        if k > 64 {
            return Err(PyValueError::new_err(format!(
                "a stream gives at most 64 bits at a time; asked for {k}"
            )));
        }
        let word = self.rng()?.next_u64();
        Ok(if k == 0 { 0 } else { word >> (64 - k) })
    }

    /// The index of the game this stream is for (for a single move, the ply).
    #[getter]
    fn game(&self) -> u64 {
        self.rng.game()
    }
}

/// A Python function (or object with `choose`) as a player in gamelab's arena. The
/// package's `gamelab.match` and friends make these from what they are given.
#[pyclass(module = "gamelab._gamelab", name = "PythonAgent", frozen)]
pub struct PythonAgent {
    name: String,
    choose: Py<PyAny>,
    wants_stream: bool,
    policy: Option<Py<PyAny>>,
}

#[pymethods]
impl PythonAgent {
    /// `choose(position)` or, with `wants_stream`, `choose(position, stream)` returns the
    /// move; `policy(position)`, when given, returns `{move: probability}`.
    #[new]
    #[pyo3(signature = (name, choose, wants_stream, policy = None))]
    fn py_new(
        name: String,
        choose: Py<PyAny>,
        wants_stream: bool,
        policy: Option<Py<PyAny>>,
    ) -> PythonAgent {
        PythonAgent {
            name,
            choose,
            wants_stream,
            policy,
        }
    }

    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    fn __repr__(&self) -> String {
        format!("<gamelab Python agent {}>", self.name)
    }
}

/// Where a Python agent failed: the exception, the game and the position.
pub struct Failure {
    pub err: PyErr,
    pub game: u64,
    pub position: String,
    pub side: &'static str,
}

/// A Python agent during one experiment: its callables, and what stops the experiment
/// when it fails.
pub struct PythonPlayer {
    pub name: String,
    choose: Py<PyAny>,
    wants_stream: bool,
    policy: Option<Py<PyAny>>,
    failure: Mutex<Option<Failure>>,
    stop: StopFlag,
}

impl PythonPlayer {
    pub fn new(py: Python<'_>, agent: &PythonAgent, stop: StopFlag) -> Arc<PythonPlayer> {
        Arc::new(PythonPlayer {
            name: agent.name.clone(),
            choose: agent.choose.clone_ref(py),
            wants_stream: agent.wants_stream,
            policy: agent.policy.as_ref().map(|p| p.clone_ref(py)),
            failure: Mutex::new(None),
            stop,
        })
    }

    fn failed(&self) -> bool {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }

    /// Keeps the first failure and stops the experiment.
    fn fail(&self, failure: Failure) {
        let mut slot = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(failure);
        }
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// The failure to raise, if the agent failed: an interrupt as it is, an agent's own
    /// error as an `AgentError` saying where, with the exception as its cause.
    pub fn take_failure(&self, py: Python<'_>) -> Option<PyErr> {
        let failure = self
            .failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()?;
        let err = failure.err;
        if !err.is_instance_of::<pyo3::exceptions::PyException>(py) {
            // KeyboardInterrupt, SystemExit: not the agent's fault.
            return Some(err);
        }
        let described = if err.is_instance_of::<AgentError>(py) {
            err.value(py).to_string()
        } else {
            format!(
                "raised {}",
                err.value(py)
                    .repr()
                    .map(|r| r.to_string())
                    .unwrap_or_else(|_| "an exception".into())
            )
        };
        let wrapped = AgentError::new_err(format!(
            "{} failed in game {} ({} to move): {described}; the position:\n{}",
            self.name,
            failure.game,
            failure.side,
            failure.position.trim_end()
        ));
        let value = wrapped.value(py);
        let _ = value.setattr("game", failure.game);
        let _ = value.setattr("position", failure.position);
        if !err.is_instance_of::<AgentError>(py) {
            wrapped.set_cause(py, Some(err));
        }
        Some(wrapped)
    }
}

/// A Python agent in one game of an experiment: the door's [`TextPlayer`], which reads
/// and checks its answers.
pub struct PyPlayer {
    player: Arc<PythonPlayer>,
    /// The stream object lent to the function at each move (made at the first).
    stream: Option<Py<Stream>>,
}

impl PyPlayer {
    pub fn new(player: Arc<PythonPlayer>) -> PyPlayer {
        PyPlayer {
            player,
            stream: None,
        }
    }

    fn call(&mut self, py: Python<'_>, pos: &dyn AnyGame, rng: &mut GameRng) -> PyResult<String> {
        let pos = Bound::new(py, Position::new(pos.clone_box()))?;
        let choose = self.player.choose.bind(py);
        let answer = if self.player.wants_stream {
            let stream = match &self.stream {
                Some(s) => s.bind(py).clone(),
                None => {
                    let s = Bound::new(
                        py,
                        Stream {
                            rng: gamelab_core::game_rng(0, 0, Side::First),
                            live: false,
                        },
                    )?;
                    self.stream = Some(s.clone().unbind());
                    s
                }
            };
            // The arena's stream goes into the object for the call and comes back after.
            let lend = |s: &Bound<'_, Stream>, rng: &mut GameRng, live: bool| -> PyResult<()> {
                let mut s = s.try_borrow_mut()?;
                std::mem::swap(&mut s.rng, rng);
                s.live = live;
                Ok(())
            };
            lend(&stream, rng, true)?;
            let answer = choose.call1((pos, &stream));
            lend(&stream, rng, false)?;
            answer?
        } else {
            choose.call1((pos,))?
        };
        move_text(&answer)
    }

    fn call_policy(
        &self,
        py: Python<'_>,
        pos: &dyn AnyGame,
    ) -> PyResult<Option<Vec<(String, f64)>>> {
        let Some(policy) = &self.player.policy else {
            return Ok(None);
        };
        let answer = policy
            .bind(py)
            .call1((Bound::new(py, Position::new(pos.clone_box()))?,))?;
        let pairs: Vec<(Bound<'_, PyAny>, f64)> = if let Ok(dict) = answer.cast::<PyDict>() {
            dict.iter()
                .map(|(k, v)| Ok((k, v.extract::<f64>()?)))
                .collect::<PyResult<_>>()?
        } else {
            answer
                .try_iter()
                .map_err(|_| {
                    PyTypeError::new_err(
                        "a policy is {move: probability} or a list of (move, probability)",
                    )
                })?
                .map(|item| item?.extract::<(Bound<'_, PyAny>, f64)>())
                .collect::<PyResult<_>>()?
        };
        pairs
            .into_iter()
            .map(|(mv, p)| Ok((move_text(&mv)?, p)))
            .collect::<PyResult<_>>()
            .map(Some)
    }

    fn fail(&self, err: PyErr, game: u64, pos: &dyn AnyGame) -> Failed {
        self.player.fail(Failure {
            err,
            game,
            position: pos.text(),
            side: pos.side_name(pos.to_move()),
        });
        Failed
    }
}

impl TextPlayer for PyPlayer {
    fn choose(&mut self, pos: &dyn AnyGame, rng: &mut GameRng) -> Result<String, Failed> {
        Python::attach(|py| self.call(py, pos, rng)).map_err(|err| self.fail(err, rng.game(), pos))
    }

    fn policy(&mut self, pos: &dyn AnyGame) -> Result<Option<Vec<(String, f64)>>, Failed> {
        Python::attach(|py| self.call_policy(py, pos))
            .map_err(|err| self.fail(err, pos.ply() as u64, pos))
    }

    fn failed(&self) -> bool {
        self.player.failed()
    }

    fn reject(&mut self, pos: &dyn AnyGame, game: u64, reason: String) {
        self.fail(AgentError::new_err(reason), game, pos);
    }
}

/// One level of a deepening analysis as `Agent.deepen` gives it.
fn level_dict<'py>(py: Python<'py>, level: &DeepLevel) -> PyResult<Bound<'py, PyDict>> {
    let moves = PyDict::new(py);
    for m in &level.scores {
        let value = PyDict::new(py);
        value.set_item("score", m.score)?;
        value.set_item("exact", m.exact)?;
        value.set_item("line", &m.line)?;
        value.set_item("level", m.level)?;
        moves.set_item(&m.mv, value)?;
    }
    let entry = PyDict::new(py);
    entry.set_item("level", level.level)?;
    entry.set_item("nodes", level.nodes)?;
    entry.set_item("moves", moves)?;
    Ok(entry)
}
