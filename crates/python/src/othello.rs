//! Othello's own part of the package (`gamelab.othello`): perft and the exact endgame
//! solver, as `gamelab perft` and `gamelab ffo` run them.

use gamelab_othello::Othello;
use gamelab_othello::endgame::Solver;
use pyo3::exceptions::{PyTimeoutError, PyValueError};
use pyo3::prelude::*;

use crate::args;
use crate::dyn_game::DynGame;
use crate::interrupt;
use crate::position::Position;

/// The most plies perft counts here (the command line's limit).
const MAX_PERFT_DEPTH: u32 = 20;
/// The most empty squares the solver takes (the command line's limit for FFO files):
/// each one more multiplies its time several times.
const MAX_EMPTIES: u32 = 36;

/// The solver of the last solve, kept for its threads and the memory of its tables,
/// which a new one a call had to start and clear afresh (FFO #1–#19, 14–19 empties, in a
/// loop: on two threads 0.069–0.089 s with a new solver a call, 0.043–0.049 s with the
/// kept one; on one 0.094–0.118 against 0.085–0.097 s). It forgets before each solve,
/// so that the node counts are a new solver's.
static KEPT: std::sync::Mutex<Option<Solver>> = std::sync::Mutex::new(None);

fn othello(position: &Position) -> PyResult<Othello> {
    position
        .inner
        .as_any()
        .downcast_ref::<DynGame<Othello>>()
        .map(|d| d.game.clone())
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "this is an Othello function; the position is of {}",
                position.inner.name()
            ))
        })
}

fn pool(threads: Option<usize>) -> PyResult<Option<rayon::ThreadPool>> {
    args::threads(threads)?
        .map(|t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .map_err(|e| PyValueError::new_err(format!("cannot start {t} threads: {e}")))
        })
        .transpose()
}

/// Leaves of the game tree `depth` plies below `position` (a pass is a ply).
#[pyfunction]
#[pyo3(signature = (depth, position = None, *, threads = None))]
pub fn _perft(
    py: Python<'_>,
    depth: u32,
    position: Option<PyRef<'_, Position>>,
    threads: Option<usize>,
) -> PyResult<u64> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PyValueError::new_err(format!(
            "depth {depth} is beyond what can be counted here (at most {MAX_PERFT_DEPTH})"
        )));
    }
    let pos = match position {
        Some(p) => othello(&p)?,
        None => Othello::new(),
    };
    let pool = pool(threads)?;
    // perft has no stop: the watcher still turns Ctrl-C into KeyboardInterrupt once the
    // count ends.
    interrupt::run(py, None, None, |_| match (threads, &pool) {
        (Some(1), _) => gamelab_othello::perft::perft(&pos, depth),
        (_, Some(pool)) => pool.install(|| gamelab_othello::perft::perft_parallel(&pos, depth)),
        (_, None) => gamelab_othello::perft::perft_parallel(&pos, depth),
    })
}

/// The exact final disc difference for the side to move under perfect play, and a best
/// move (`None` when the game is over).
#[pyfunction]
#[pyo3(signature = (position, *, threads = None, time_limit = None))]
pub fn _solve_endgame(
    py: Python<'_>,
    position: PyRef<'_, Position>,
    threads: Option<usize>,
    time_limit: Option<f64>,
) -> PyResult<(i32, Option<String>, u64)> {
    let pos = othello(&position)?;
    drop(position);
    let limit = args::seconds("time_limit", time_limit)?.map(std::time::Duration::from_secs_f64);
    let threads = args::threads(threads)?.unwrap_or_else(gamelab_core::limits::all_cores);
    if pos.empties() > MAX_EMPTIES {
        return Err(PyValueError::new_err(format!(
            "the position has {} empty squares; the exact solver takes at most {MAX_EMPTIES} (each one more multiplies its time several times)",
            pos.empties()
        )));
    }
    let solved = interrupt::run(py, None, None, |job| {
        // A call made while another solves takes a new solver.
        let mut solver = KEPT
            .lock()
            .ok()
            .and_then(|mut kept| kept.take())
            .unwrap_or_default();
        solver.set_threads(threads);
        solver.forget();
        let nodes_before = solver.nodes;
        let deadline = limit.map(|limit| std::time::Instant::now() + limit);
        let stop = gamelab_core::Watchdog::start(Some(&job.stop), deadline);
        let solved = solver.solve_until(&pos, Some(stop.flag()));
        drop(stop);
        let nodes = solver.nodes - nodes_before;
        if let Ok(mut kept) = KEPT.lock() {
            *kept = Some(solver);
        }
        solved.map(|(score, mv)| (score, mv.map(|m| m.to_string()), nodes))
    })?;
    solved.ok_or_else(|| {
        PyTimeoutError::new_err(format!(
            "not solved in the time limit of {} s",
            time_limit.unwrap_or_default()
        ))
    })
}

/// The positions of an FFO suite's text (`name` says where it came from in errors): id,
/// position, known score, best move as the file writes it.
#[pyfunction]
pub fn _ffo_read(path: std::path::PathBuf) -> PyResult<Vec<(u32, Position, i32, String)>> {
    let positions =
        gamelab_othello::ffo::read(&path).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(positions
        .into_iter()
        .map(|p| {
            let pos = DynGame {
                game: p.position,
                board: <gamelab_othello::Catalogue as gamelab_core::CatalogueEntry>::BOARDS[0],
            };
            (p.id, Position::new(Box::new(pos)), p.expected, p.best)
        })
        .collect())
}

/// A book move as Python's `BookMove` takes it: move, value, games, line.
type BookAnswer = (String, f64, u32, Vec<String>);

/// The opening book's answer for `position` (the shipped book, or the one `gamelab
/// build-book` wrote to `path`): its move, value in discs for the side to move, the games
/// that reached it and the book's line; `None` out of the book.
#[pyfunction]
#[pyo3(signature = (position, path = None))]
pub fn _book_probe(
    position: PyRef<'_, Position>,
    path: Option<std::path::PathBuf>,
) -> PyResult<Option<BookAnswer>> {
    let pos = othello(&position)?;
    let book = match path {
        None => gamelab_othello::book::shipped(),
        Some(path) => std::sync::Arc::new(
            gamelab_othello::book::Book::load(&path)
                .map_err(|e| PyValueError::new_err(e.to_string()))?,
        ),
    };
    Ok(book.probe(&pos).map(|hit| {
        (
            hit.best.to_string(),
            hit.value,
            hit.games,
            hit.line.iter().map(ToString::to_string).collect(),
        )
    }))
}
