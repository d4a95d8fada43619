//! Game records in files for any game of the catalogue, in the formats the command line
//! writes, picked by the file's extension: gamelab's JSON Lines (each record names its
//! game), the article's CSV (of a game the caller names), or a game's own format (the game
//! its extension belongs to: Othello's `.ggf`). Every record read or written is checked by
//! replaying it in its game.
//!
//! ```
//! use gamelab_core::record::GameRecord;
//! let record = GameRecord {
//!     game: "ttt".into(),
//!     index: 0,
//!     seed: 0,
//!     first: "a".into(),
//!     second: "b".into(),
//!     moves: ["1,1", "0,0", "2,0", "0,2", "0,1", "2,1", "1,2", "1,0", "2,2"].map(String::from).into(),
//!     result: "draw".into(),
//!     forfeit: None,
//! };
//! let dir = std::env::temp_dir().join(format!("gamelab-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("games.csv");
//! assert_eq!(gamelab_games::records::save("ttt", &[record], &path).unwrap(), 1);
//! let back = gamelab_games::records::load(&path, Some("ttt")).unwrap();
//! assert_eq!((back[0].moves.len(), back[0].result.as_str()), (9, "draw"));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::path::Path;

use gamelab_core::record::{self, GameRecord, RecordFormat, ReplayError};
use gamelab_core::{Described, GameVisitor, RecordFormatError};

use crate::CatalogueError;

/// Why records could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum RecordsError {
    /// The game is not in the catalogue.
    #[error(transparent)]
    Game(#[from] CatalogueError),
    /// The file could not be read or written.
    #[error("cannot {action} {path}: {error}")]
    File {
        action: &'static str,
        path: String,
        error: std::io::Error,
    },
    /// A record is not a game of its game.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// Record `number` (from 0) of those to save is not a game of its game.
    #[error("record {number}: {error}")]
    Record { number: usize, error: ReplayError },
    /// The game's own format did not read or write.
    #[error(transparent)]
    Format(#[from] RecordFormatError),
    #[error("{name}: a table of games is written for spreadsheets, not read back: use JSON Lines")]
    Table { name: String },
    /// A line of the article's CSV is not a game of `game`.
    #[error("{name}, line {line}: {error} (is it a {game} records file?)")]
    Csv {
        name: String,
        line: usize,
        error: ReplayError,
        game: &'static str,
    },
    #[error("{name}, line {line}: not a game record ({error})")]
    NotARecord {
        name: String,
        line: usize,
        error: serde_json::Error,
    },
    /// A line of a JSON Lines file is a record, but not of a game played in the catalogue.
    #[error("{name}, line {line}: {error}")]
    Line {
        name: String,
        line: usize,
        error: Box<RecordsError>,
    },
}

impl RecordsError {
    /// Whether a record or a line of the file is at fault, not the game asked for or the
    /// file system.
    pub fn is_invalid_record(&self) -> bool {
        !matches!(self, RecordsError::Game(_) | RecordsError::File { .. })
    }
}

/// Writes `records` of `game` to `path` in the format its extension picks, atomically
/// (every record is replayed and every line made before the file is touched); returns
/// how many.
pub fn save(game: &str, records: &[GameRecord], path: &Path) -> Result<usize, RecordsError> {
    struct Save<'a>(&'a [GameRecord], &'a Path);
    impl GameVisitor for Save<'_> {
        type Output = Result<usize, RecordsError>;
        fn visit<G: Described>(self) -> Self::Output {
            let Save(records, path) = self;
            let format = RecordFormat::of::<G>(path);
            let lines: Vec<String> = records
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    record::replay::<G>(r)
                        .and_then(|_| format.line::<G>(r, None))
                        .map_err(|error| RecordsError::Record { number: i, error })
                })
                .collect::<Result<_, _>>()?;
            gamelab_core::files::write_atomically(path, |w| {
                lines.iter().try_for_each(|line| writeln!(w, "{line}"))
            })
            .map_err(|error| RecordsError::File {
                action: "write",
                path: path.display().to_string(),
                error,
            })?;
            Ok(lines.len())
        }
    }
    crate::visit(game, None, Save(records, path))?
}

/// The game whose own format the file at `path` is in, by its extension (`.ggf`: Othello).
pub fn native_game(path: &Path) -> Option<&'static str> {
    crate::by_record_extension(path.extension()?.to_str()?)
}

/// Every record of the file at `path` (at most [`gamelab_core::files::MAX_RECORDS_BYTES`]),
/// each checked: JSON Lines records replay in the game each names; a CSV is of `game` (the
/// default game when `None`); a game's own format is its game's.
pub fn load(path: &Path, game: Option<&str>) -> Result<Vec<GameRecord>, RecordsError> {
    let name = path.display().to_string();
    let text = gamelab_core::files::read_text_bounded(path, gamelab_core::files::MAX_RECORDS_BYTES)
        .map_err(|error| RecordsError::File {
            action: "read",
            path: name.clone(),
            error,
        })?;
    let game = native_game(path).or(game).unwrap_or(crate::DEFAULT);
    read(&text, &name, game)
}

/// The records of `text`, read as [`load`] reads a file called `name`.
pub fn read(text: &str, name: &str, game: &str) -> Result<Vec<GameRecord>, RecordsError> {
    struct Read<'a>(&'a str, &'a str);
    impl GameVisitor for Read<'_> {
        type Output = Result<Vec<GameRecord>, RecordsError>;
        fn visit<G: Described>(self) -> Self::Output {
            let Read(text, name) = self;
            match RecordFormat::of::<G>(Path::new(name)) {
                RecordFormat::Native => Ok(G::read_records(text, name)?),
                RecordFormat::Table => Err(RecordsError::Table {
                    name: name.to_string(),
                }),
                RecordFormat::Csv => text
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .enumerate()
                    .map(|(i, line)| {
                        record::record_from_csv::<G>(line, i as u64).map_err(|error| {
                            RecordsError::Csv {
                                name: name.to_string(),
                                line: i + 1,
                                error,
                                game: G::NAME,
                            }
                        })
                    })
                    .collect(),
                RecordFormat::JsonLines => text
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                    .map(|(i, line)| {
                        let (name, line_number) = (name.to_string(), i + 1);
                        let record: GameRecord = serde_json::from_str(line).map_err(|error| {
                            RecordsError::NotARecord {
                                name: name.clone(),
                                line: line_number,
                                error,
                            }
                        })?;
                        check(&record).map_err(|error| RecordsError::Line {
                            name,
                            line: line_number,
                            error: Box::new(error),
                        })?;
                        Ok(record)
                    })
                    .collect(),
            }
        }
    }
    crate::visit(game, None, Read(text, name))?
}

/// Checks that `record` replays in the game it names.
pub fn check(record: &GameRecord) -> Result<(), RecordsError> {
    struct Check<'a>(&'a GameRecord);
    impl GameVisitor for Check<'_> {
        type Output = Result<(), RecordsError>;
        fn visit<G: Described>(self) -> Self::Output {
            Ok(record::replay::<G>(self.0).map(drop)?)
        }
    }
    crate::visit(&record.game, None, Check(record))?
}

/// A record replayed ([`replay`]): every position from the start, in the game's text form,
/// and the side that played each move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// The game's side names, the first to move first.
    pub sides: [&'static str; 2],
    /// The start, then the position after each move.
    pub positions: Vec<String>,
    /// The side that played each move.
    pub movers: Vec<&'static str>,
}

/// Replays `record` in the game it names, on board structure `board` (its default when
/// `None`), checking it as [`check`] does.
///
/// ```
/// use gamelab_core::record::GameRecord;
///
/// let line = r#"{"game":"ttt","index":0,"seed":0,"first":"ai1","second":"ai2","moves":["0,0","1,1","0,1","2,2","0,2"],"result":"o"}"#;
/// let record: GameRecord = serde_json::from_str(line).unwrap();
/// let replayed = gamelab_games::records::replay(&record, None).unwrap();
/// assert_eq!(replayed.movers, ["o", "x", "o", "x", "o"]);
/// assert_eq!(replayed.positions.len(), 6);
/// ```
pub fn replay(record: &GameRecord, board: Option<&str>) -> Result<Replayed, RecordsError> {
    struct Replay<'a>(&'a GameRecord);
    impl GameVisitor for Replay<'_> {
        type Output = Result<Replayed, RecordsError>;
        fn visit<G: Described>(self) -> Self::Output {
            let positions = record::replay::<G>(self.0)?;
            let side = |pos: &G| G::side_name(pos.to_move());
            Ok(Replayed {
                sides: gamelab_core::Side::BOTH.map(G::side_name),
                movers: positions[..positions.len() - 1].iter().map(side).collect(),
                positions: positions.iter().map(ToString::to_string).collect(),
            })
        }
    }
    let board = crate::board(&record.game, board)?;
    crate::visit(&record.game, Some(board), Replay(record))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_line_is_reported_with_its_number_and_an_unknown_game_as_such() {
        let good = r#"{"game":"ttt","index":0,"seed":0,"first":"a","second":"b","moves":["1,1","0,0","2,0","0,2","0,1","2,1","1,2","1,0","2,2"],"result":"draw"}"#;
        let taken = good.replace(r#""0,0","#, r#""1,1","#);
        let err = read(&format!("{good}\n\n{taken}\n"), "x.jsonl", "ttt").unwrap_err();
        assert!(
            matches!(&err, RecordsError::Line { line: 3, error, .. }
                if matches!(**error, RecordsError::Replay(ReplayError::Move { number: 2, .. })))
                && err.to_string().starts_with("x.jsonl, line 3: move 2 `1,1`"),
            "{err}"
        );
        assert_eq!(read(good, "x.jsonl", "ttt").unwrap().len(), 1);
        let other = good.replace(r#""game":"ttt""#, r#""game":"chess""#);
        assert!(
            read(&other, "x.jsonl", "ttt")
                .unwrap_err()
                .to_string()
                .contains("unknown game `chess`")
        );
        assert!(matches!(
            read("", "x.jsonl", "chess"),
            Err(RecordsError::Game(CatalogueError::UnknownGame { .. }))
        ));
        let table = read("", "games.table", "ttt");
        assert!(table.is_ok(), "an unknown extension is JSON Lines");
    }
}
