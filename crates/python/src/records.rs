//! Game records to and from files, in the formats the command line writes (JSON Lines,
//! the article's CSV, a game's own format such as Othello's GGF), picked by the extension
//! (`gamelab_games::records`).

use std::path::PathBuf;

use gamelab_core::record::GameRecord;
use gamelab_games::records::RecordsError;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use crate::errors::PositionError;

fn parse(records: &[String]) -> PyResult<Vec<GameRecord>> {
    records
        .iter()
        .enumerate()
        .map(|(i, text)| {
            serde_json::from_str(text)
                .map_err(|e| PyValueError::new_err(format!("record {i}: not a game record ({e})")))
        })
        .collect()
}

/// An unknown game as `PositionError`, a file that cannot be read or written as `OSError`,
/// a record that is not a game as `ValueError`.
fn py_error(e: RecordsError) -> PyErr {
    match e {
        RecordsError::Game(_) => PositionError::new_err(e.to_string()),
        RecordsError::File { .. } => PyOSError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// Writes `records` (JSON texts) of `game` to `path` in the format its extension picks,
/// atomically; returns how many.
#[pyfunction]
pub fn _save_records(
    py: Python<'_>,
    game: &str,
    records: Vec<String>,
    path: PathBuf,
) -> PyResult<usize> {
    let records = parse(&records)?;
    py.detach(|| gamelab_games::records::save(game, &records, &path))
        .map_err(py_error)
}

/// The records of a file (JSON texts): JSON Lines (each names its game), the article's CSV
/// (of `game`), or a game's own format (the game its extension belongs to).
#[pyfunction]
#[pyo3(signature = (path, game = None))]
pub fn _load_records(py: Python<'_>, path: PathBuf, game: Option<&str>) -> PyResult<Vec<String>> {
    let records = py
        .detach(|| gamelab_games::records::load(&path, game))
        .map_err(py_error)?;
    Ok(records
        .iter()
        .map(|r| serde_json::to_string(r).expect("a record serialises"))
        .collect())
}
