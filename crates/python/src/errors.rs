//! The package's exceptions. Each says what was wrong and what is expected, with the
//! command line's words; the ones about values are `ValueError`s.

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};

create_exception!(
    gamelab,
    SpecError,
    PyValueError,
    "An AI spec that names no AI of the game, or a parameter it does not take or out of its range."
);
create_exception!(
    gamelab,
    PositionError,
    PyValueError,
    "A game, board or position text the catalogue cannot read."
);
create_exception!(
    gamelab,
    IllegalMoveError,
    PyValueError,
    "A move the rules refuse in the position (or one that cannot be read)."
);
create_exception!(
    gamelab,
    AgentError,
    PyRuntimeError,
    "A Python agent failed inside a match or experiment: it raised (the exception is the cause), or returned a move the rules refuse. `game` and `position` say where."
);
