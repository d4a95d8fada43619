//! Game records as JSON Lines: one finished game a line, readable back for replay.
//!
//! A tic-tac-toe game from a line of the article's CSV (o wins down the left column),
//! saved as JSON Lines, read back, and written in the other formats:
//!
//! ```
//! use std::path::Path;
//! use gamelab_core::record::{RecordFormat, read_records, record_from_csv, write_records};
//! use gamelab_ttt::Ttt;
//!
//! let record = record_from_csv::<Ttt>("1,0,1,3,4,6", 0)?;
//! assert_eq!((record.result.as_str(), record.moves[4].as_str()), ("o", "0,2"));
//! assert!(record_from_csv::<Ttt>("2,0,1,3,4,6", 0).is_err(), "o won, not x");
//!
//! let dir = std::env::temp_dir().join(format!("gamelab-doc-records-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("games.jsonl");
//! write_records(&path, std::slice::from_ref(&record))?;
//! assert_eq!(read_records(&path)?, [record.clone()]);
//! std::fs::remove_dir_all(&dir)?;
//!
//! assert_eq!(RecordFormat::of::<Ttt>(Path::new("games.csv")), RecordFormat::Csv);
//! assert_eq!(RecordFormat::Csv.line::<Ttt>(&record, None)?, "1,0,1,3,4,6");
//! assert_eq!(RecordFormat::Table.header(), Some("game,first,second,result,moves"));
//! assert_eq!(
//!     RecordFormat::Table.line::<Ttt>(&record, None)?,
//!     "0,o,x,o,\"0,0 1,0 0,1 1,1 0,2\""
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{BufRead, BufReader};
use std::path::Path;

use thiserror::Error;

pub use crate::game_record::GameRecord;
use crate::{Notation, Outcome, Side};

/// One finished game, kept when the caller asks for records.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame<M> {
    pub index: u64,
    pub a_side: Side,
    pub moves: Vec<M>,
    pub outcome: Outcome,
    /// Why the loser gave the game up, when it did not play to the end.
    pub forfeit: Option<String>,
}

// Here rather than beside the type: a game's notation writes the moves, and the
// notation's own record formats read and write `GameRecord`s.
impl GameRecord {
    /// The record of game `played` of a match of `a` against `b` with `seed`.
    pub fn of<G: Notation>(played: &PlayedGame<G::Move>, a: &str, b: &str, seed: u64) -> Self {
        let (first, second) = match played.a_side {
            crate::Side::First => (a, b),
            crate::Side::Second => (b, a),
        };
        GameRecord {
            game: G::NAME.to_string(),
            index: played.index,
            seed,
            first: first.to_string(),
            second: second.to_string(),
            moves: played.moves.iter().map(|&m| G::write_move(m)).collect(),
            result: played
                .outcome
                .winner()
                .map_or("draw", G::side_name)
                .to_string(),
            forfeit: played.forfeit.clone(),
        }
    }
}

#[derive(Debug, Error)]
pub enum RecordError {
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
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
    .map_err(|error| RecordError::Io {
        path: path.display().to_string(),
        error,
    })
}

/// Reads every record of a JSON Lines file; a malformed line is reported with its number.
pub fn read_records(path: &Path) -> Result<Vec<GameRecord>, RecordError> {
    let p = path.display().to_string();
    let file =
        crate::files::open_bounded(path, crate::files::MAX_RECORDS_BYTES).map_err(|error| {
            RecordError::Io {
                path: p.clone(),
                error,
            }
        })?;
    let mut records = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|error| RecordError::Io {
            path: p.clone(),
            error,
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

/// Plays move `text` of a record on `game`, filling in a forced move the record left out
/// (Othello's transcripts leave out passes): when `text` is not a legal move here and only
/// one move is, that one is played first. Returns the moves played; on an error `game` is
/// as it was.
pub fn play_record_move<G: Notation>(
    game: &mut G,
    text: &str,
) -> Result<Vec<G::Move>, G::MoveError> {
    let forced = match (game.parse_move(text), &game.legal_moves()[..]) {
        (Ok(mv), _) => {
            game.play_unchecked(mv);
            return Ok(vec![mv]);
        }
        (Err(_), &[forced]) => forced,
        (Err(e), _) => return Err(e),
    };
    game.play_unchecked(forced);
    match game.parse_move(text) {
        Ok(mv) => {
            game.play_unchecked(mv);
            Ok(vec![forced, mv])
        }
        Err(e) => {
            game.undo();
            Err(e)
        }
    }
}

/// Why a record, or a line of the article's CSV, is not a game that was played.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ReplayError {
    #[error("the record is a {record} game, not {game}")]
    OtherGame { record: String, game: &'static str },
    #[error("move {number} `{text}`: {reason}")]
    Move {
        number: usize,
        text: String,
        reason: String,
    },
    #[error("move {number}: `{text}` is not the code of a legal move")]
    Code { number: usize, text: String },
    #[error("the moves end before the game does")]
    EndsEarly,
    #[error("the record says a side forfeited, but the moves end the game")]
    ForfeitAfterTheEnd,
    #[error(
        "the record says `{written}` won by a forfeit, but after the moves {to_move} is to move, and a forfeit is the side to move's"
    )]
    ForfeitBySideNotToMove {
        written: String,
        to_move: &'static str,
    },
    #[error("the moves end in `{played}` but the {source_name} says `{written}`")]
    Result {
        played: String,
        written: String,
        /// What said otherwise: "record", or the CSV's "line".
        source_name: &'static str,
    },
    #[error("the winner `{given}` is not 0 (draw), 1 ({first}) or 2 ({second})")]
    Winner {
        given: String,
        first: &'static str,
        second: &'static str,
    },
    /// The game's own format could not hold it.
    #[error(transparent)]
    Format(#[from] crate::game::RecordFormatError),
}

/// Replays a record's moves from the start position, checking each one; returns every
/// position from the start to the end.
///
/// ```
/// use gamelab_core::record::{GameRecord, ReplayError, replay};
/// use gamelab_ttt::Position;
///
/// let mut record = GameRecord {
///     game: "ttt".into(),
///     index: 0,
///     seed: 0,
///     first: "ai1".into(),
///     second: "ai2".into(),
///     moves: ["0,0", "1,1", "0,1", "2,2", "0,2"].map(String::from).to_vec(),
///     result: "o".into(),
///     forfeit: None,
/// };
/// assert_eq!(replay::<Position>(&record).unwrap().len(), 6);
/// record.result = "x".into();
/// assert!(matches!(replay::<Position>(&record), Err(ReplayError::Result { .. })));
/// ```
pub fn replay<G: Notation>(record: &GameRecord) -> Result<Vec<G>, ReplayError> {
    if record.game != G::NAME {
        return Err(ReplayError::OtherGame {
            record: record.game.clone(),
            game: G::NAME,
        });
    }
    let mut game = G::start();
    let mut positions = vec![game.clone()];
    for (i, text) in record.moves.iter().enumerate() {
        let mv = game.parse_move(text).map_err(|e| ReplayError::Move {
            number: i + 1,
            text: text.clone(),
            reason: e.to_string(),
        })?;
        game.play_unchecked(mv);
        positions.push(game.clone());
    }
    let result = match (game.outcome(), &record.forfeit) {
        (Some(o), None) => o.winner().map_or("draw", G::side_name),
        (None, None) => return Err(ReplayError::EndsEarly),
        // The side to move gave the game up: the other side won.
        (None, Some(_)) => {
            let to_move = G::side_name(game.to_move());
            if record.result == to_move {
                return Err(ReplayError::ForfeitBySideNotToMove {
                    written: record.result.clone(),
                    to_move,
                });
            }
            G::side_name(game.to_move().opponent())
        }
        (Some(_), Some(_)) => return Err(ReplayError::ForfeitAfterTheEnd),
    };
    if result != record.result {
        return Err(ReplayError::Result {
            played: result.to_string(),
            written: record.result.clone(),
            source_name: "record",
        });
    }
    Ok(positions)
}

/// The formats games are written in, picked by a file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// gamelab's JSON Lines records: everything, readable back.
    JsonLines,
    /// The article's CSV: the winner, then each move's code.
    Csv,
    /// The game's own format for whole games (Othello's GGF).
    Native,
    /// A table for a spreadsheet: a header row ([`RecordFormat::header`]), then a game a
    /// row: its index, players, result and moves as people type them. Written, not read.
    Table,
}

impl RecordFormat {
    /// CSV for a `.csv` file, the game's own format for its extension (`.ggf` for
    /// Othello), JSON Lines otherwise.
    pub fn of<G: Notation>(path: &Path) -> RecordFormat {
        match path.extension().and_then(|e| e.to_str()) {
            Some("csv") => RecordFormat::Csv,
            Some(ext) if G::RECORD_EXTENSION == Some(ext) => RecordFormat::Native,
            _ => RecordFormat::JsonLines,
        }
    }

    /// The row that heads a file of this format, for those that have one.
    pub fn header(self) -> Option<&'static str> {
        match self {
            RecordFormat::Table => Some("game,first,second,result,moves"),
            _ => None,
        }
    }

    /// One game as a line of this format. `moves` and `outcome` are the record's, when
    /// the caller has them (the CSV is written from them without replaying the record).
    pub fn line<G: Notation>(
        self,
        record: &GameRecord,
        played: Option<(&[G::Move], crate::Outcome)>,
    ) -> Result<String, ReplayError> {
        match self {
            RecordFormat::JsonLines => {
                Ok(serde_json::to_string(record).expect("a record serialises"))
            }
            RecordFormat::Native => G::write_record(record).map_err(ReplayError::Format),
            RecordFormat::Table => {
                let moves = match played {
                    Some((moves, _)) => G::write_moves_spaced(moves),
                    None => {
                        let positions = replay::<G>(record)?;
                        let end = positions.last().expect("a replay holds the start");
                        G::write_moves_spaced(end.history())
                    }
                };
                Ok([
                    record.index.to_string(),
                    csv_field(&record.first),
                    csv_field(&record.second),
                    csv_field(&record.result),
                    csv_field(&moves),
                ]
                .join(","))
            }
            RecordFormat::Csv => match played {
                Some((moves, outcome)) => Ok(csv_line::<G>(moves, outcome)),
                None => {
                    let positions = replay::<G>(record)?;
                    let end = positions.last().expect("a replay holds the start");
                    let outcome = match end.outcome() {
                        Some(outcome) => outcome,
                        None => crate::Outcome::Win(end.to_move().opponent()),
                    };
                    Ok(csv_line::<G>(end.history(), outcome))
                }
            },
        }
    }
}

/// A CSV field: as it is, or quoted (quotes doubled) when it holds a comma, a quote, a
/// line break or blanks at its ends.
fn csv_field(text: &str) -> String {
    let plain = !text.contains([',', '"', '\n', '\r']) && text.trim() == text;
    if plain {
        text.to_string()
    } else {
        format!("\"{}\"", text.replace('"', "\"\""))
    }
}

/// A game as one line of the article's CSV: the winner (0 a draw, 1 the first side, 2 the
/// second), then each move's [`crate::Game::move_code`].
pub fn csv_line<G: Notation>(moves: &[G::Move], outcome: crate::Outcome) -> String {
    let winner = match outcome.winner() {
        None => 0,
        Some(crate::Side::First) => 1,
        Some(crate::Side::Second) => 2,
    };
    std::iter::once(winner.to_string())
        .chain(moves.iter().map(|&m| G::move_code(m).to_string()))
        .collect::<Vec<_>>()
        .join(",")
}

/// Reads a [`csv_line`] back into a record (game `index`; the players and seed are not in
/// the CSV), replaying it: each code must be a legal move's, and the winner must be the
/// game's.
pub fn record_from_csv<G: Notation>(line: &str, index: u64) -> Result<GameRecord, ReplayError> {
    let values: Vec<&str> = line.split(',').map(str::trim).collect();
    let winner = match values[0] {
        "0" => None,
        "1" => Some(crate::Side::First),
        "2" => Some(crate::Side::Second),
        other => {
            return Err(ReplayError::Winner {
                given: other.to_string(),
                first: G::side_name(crate::Side::First),
                second: G::side_name(crate::Side::Second),
            });
        }
    };
    let mut game = G::start();
    let mut moves = Vec::new();
    for (i, text) in values[1..].iter().enumerate() {
        let legal = game.legal_moves();
        let mv = text
            .parse::<u32>()
            .ok()
            .and_then(|code| legal.iter().copied().find(|&m| G::move_code(m) == code))
            .ok_or_else(|| ReplayError::Code {
                number: i + 1,
                text: text.to_string(),
            })?;
        game.play_unchecked(mv);
        moves.push(G::write_move(mv));
    }
    // Found by fuzzing: a line whose moves stop early, or whose winner is not the game's,
    // was read as a record that `replay` then refused.
    match game.outcome() {
        None => return Err(ReplayError::EndsEarly),
        Some(outcome) if outcome.winner() != winner => {
            return Err(ReplayError::Result {
                played: outcome.winner().map_or("draw", G::side_name).to_string(),
                written: winner.map_or("draw", G::side_name).to_string(),
                source_name: "line",
            });
        }
        Some(_) => {}
    }
    Ok(GameRecord {
        game: G::NAME.to_string(),
        index,
        seed: 0,
        first: G::side_name(crate::Side::First).to_string(),
        second: G::side_name(crate::Side::Second).to_string(),
        moves,
        result: winner.map_or("draw", G::side_name).to_string(),
        forfeit: None,
    })
}

#[cfg(test)]
mod tests {
    use super::csv_field;

    #[test]
    fn a_table_field_is_quoted_only_when_it_must_be() {
        assert_eq!(csv_field("ai14s"), "ai14s");
        assert_eq!(
            csv_field("engine:level=4,time=1"),
            "\"engine:level=4,time=1\""
        );
        assert_eq!(csv_field("1,1 0,0"), "\"1,1 0,0\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field(" padded"), "\" padded\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
    }
}
