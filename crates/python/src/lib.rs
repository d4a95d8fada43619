//! The extension module of the `gamelab` Python package. It exposes the catalogue's games
//! as positions, the registries' AIs as agents, and the arena, tournaments and proofs with
//! Python functions as players; the Python side (python/gamelab) adds the game classes,
//! result objects, drawing and progress bars.

mod agent;
mod args;
mod catalogue;
mod errors;
mod experiments;
mod interrupt;
mod learn;
mod othello;
mod position;
mod records;
mod ttt;

use gamelab_games::dyn_game;
use pyo3::prelude::*;

#[pymodule]
fn _gamelab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SpecError", py.get_type::<errors::SpecError>())?;
    m.add("PositionError", py.get_type::<errors::PositionError>())?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add("AgentError", py.get_type::<errors::AgentError>())?;
    m.add_class::<position::Position>()?;
    m.add_class::<agent::Agent>()?;
    m.add_class::<agent::Stream>()?;
    m.add_class::<agent::PythonAgent>()?;
    m.add_class::<learn::Dataset>()?;
    m.add_class::<learn::Model>()?;
    m.add_function(wrap_pyfunction!(catalogue::_catalogue_json, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::_match, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::_tournament, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::_diverge, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::_verify, m)?)?;
    m.add_function(wrap_pyfunction!(experiments::_solve, m)?)?;
    m.add_function(wrap_pyfunction!(records::_save_records, m)?)?;
    m.add_function(wrap_pyfunction!(records::_load_records, m)?)?;
    m.add_function(wrap_pyfunction!(ttt::_ttt_dataset, m)?)?;
    m.add_function(wrap_pyfunction!(ttt::_ttt_read_dataset, m)?)?;
    m.add_function(wrap_pyfunction!(ttt::_ttt_load_model, m)?)?;
    m.add_function(wrap_pyfunction!(othello::_perft, m)?)?;
    m.add_function(wrap_pyfunction!(othello::_solve_endgame, m)?)?;
    m.add_function(wrap_pyfunction!(othello::_ffo_read, m)?)?;
    m.add_function(wrap_pyfunction!(othello::_book_probe, m)?)?;
    Ok(())
}
