//! Game records as JSON Lines: one finished game a line, readable back for replay.

use std::io::{BufRead, BufReader};
use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::Game;

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
}

#[derive(Debug, Error)]
pub enum RecordError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}, line {line}: {reason}")]
    Malformed {
        path: String,
        line: usize,
        reason: String,
    },
}

/// Writes `records` to `path` atomically: into a temporary file beside it, renamed over
/// `path` only once everything is written, so a failure never leaves a half-written file.
pub fn write_records(path: &Path, records: &[GameRecord]) -> Result<(), RecordError> {
    crate::files::write_atomically(path, |w| {
        for r in records {
            serde_json::to_writer(&mut *w, r)?;
            w.write_all(b"\n")?;
        }
        Ok(())
    })
    .map_err(|source| RecordError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// Reads every record of a JSON Lines file; a malformed line is reported with its number.
pub fn read_records(path: &Path) -> Result<Vec<GameRecord>, RecordError> {
    let p = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|source| RecordError::Io {
        path: p.clone(),
        source,
    })?;
    let mut records = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|source| RecordError::Io {
            path: p.clone(),
            source,
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let record: GameRecord =
            serde_json::from_str(&line).map_err(|e| RecordError::Malformed {
                path: p.clone(),
                line: i + 1,
                reason: format!("not a game record ({e})"),
            })?;
        records.push(record);
    }
    Ok(records)
}

/// Replays a record's moves from the start position, checking each one; returns every
/// position from the start to the end.
pub fn replay<G: Game>(record: &GameRecord) -> Result<Vec<G>, String> {
    if record.game != G::NAME {
        return Err(format!(
            "the record is a {} game, not {}",
            record.game,
            G::NAME
        ));
    }
    let mut game = G::start();
    let mut positions = vec![game.clone()];
    for (i, text) in record.moves.iter().enumerate() {
        let mv = game
            .parse_move(text)
            .map_err(|e| format!("move {} `{text}`: {e}", i + 1))?;
        game.play(mv);
        positions.push(game.clone());
    }
    let result = match game.outcome() {
        Some(o) => o.winner().map_or("draw", G::side_name),
        None => return Err("the moves end before the game does".into()),
    };
    if result != record.result {
        return Err(format!(
            "the moves end in `{result}` but the record says `{}`",
            record.result
        ));
    }
    Ok(positions)
}
