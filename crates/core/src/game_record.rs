//! The shape of one game's record, as a line of a records file holds it: below the games'
//! notations, which write records in their own formats, and the record files above them.

use serde::{Deserialize, Serialize};

/// One game: which game of which run, who played, the moves in the game's notation, and
/// the result (`o`, `x`, … the winner's side name, or `draw`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    pub game: String,
    pub index: u64,
    pub seed: u64,
    pub first: String,
    pub second: String,
    pub moves: Vec<String>,
    pub result: String,
    /// Why the loser gave the game up before its end, when it did (an external program
    /// that failed): the moves then stop short of the end.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub forfeit: Option<String>,
}
