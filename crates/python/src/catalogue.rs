//! The catalogue of games and each game's AIs, as Python sees them: the same description
//! the web app serves (`gamelab_core::describe::game_info`) with each symmetry's
//! permutations of squares and actions (`gamelab_core::actions`), as JSON the package
//! turns into dicts.

use pyo3::prelude::*;

/// The Python class name of a game from its title: `Tic-tac-toe` → `TicTacToe`,
/// `Connect Four` → `ConnectFour`.
pub fn class_name(title: &str) -> String {
    title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// Every game of the catalogue, in its order, as JSON: the web app's description (board,
/// sides, notation, defaults, AIs with their parameters) with the board structures and
/// the Python class name added.
#[pyfunction]
pub fn _catalogue_json() -> String {
    let games: Vec<serde_json::Value> = gamelab_games::GAMES
        .iter()
        .map(|entry| {
            let info = gamelab_games::game_info(entry.name).expect("the catalogue's own names");
            let maps = gamelab_games::symmetry_maps(entry.name).expect("the catalogue's own names");
            let mut value = serde_json::to_value(info).expect("a game's description serialises");
            value["symmetry_maps"] = serde_json::to_value(maps).expect("symmetry maps serialise");
            value["boards"] = entry.boards.into();
            value["class_name"] = class_name(entry.title).into();
            value
        })
        .collect();
    serde_json::Value::Array(games).to_string()
}
