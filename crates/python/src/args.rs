//! Numbers and names from Python, checked against the ranges the command line uses
//! (`gamelab_core::limits`), with its messages prefixed by the argument's name.

use gamelab_core::limits::Range;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::PositionError;

/// `value` when `range` holds it, else a ValueError naming the argument.
pub fn check<T: PartialOrd + std::fmt::Display + Copy>(
    name: &str,
    range: Range<T>,
    value: T,
) -> PyResult<T> {
    range
        .check(value)
        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))
}

/// A thread count: `None` for every core (0 for the arena), else 1 to 256.
pub fn threads(threads: Option<usize>) -> PyResult<Option<usize>> {
    threads
        .map(|t| check("threads", gamelab_core::limits::THREADS, t))
        .transpose()
}

/// A time limit in seconds, above 0 and at most a day.
pub fn seconds(name: &str, value: Option<f64>) -> PyResult<Option<f64>> {
    value
        .map(|s| {
            gamelab_core::limits::seconds(s)
                .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))
        })
        .transpose()
}

/// The board structure called `board` of `game` (its default when `None`), as the
/// catalogue names it.
pub fn board(game: &str, board: Option<&str>) -> Result<&'static str, String> {
    gamelab_games::board(game, board).map_err(|e| e.to_string())
}

/// [`board`] for a Python call: a `PositionError`.
pub fn board_py(game: &str, board_name: Option<&str>) -> PyResult<&'static str> {
    board(game, board_name).map_err(PositionError::new_err)
}
