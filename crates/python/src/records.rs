//! Game records to and from files, in the formats the command line writes (JSON Lines,
//! the article's CSV, a game's own format such as Othello's GGF), picked by the extension.

use std::path::{Path, PathBuf};

use gamelab_core::record::{self, GameRecord, RecordFormat};
use gamelab_core::{Described, GameVisitor};
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

struct Save<'a> {
    records: &'a [GameRecord],
    path: &'a Path,
}

impl GameVisitor for Save<'_> {
    type Output = PyResult<usize>;
    fn visit<G: Described>(self) -> Self::Output {
        let format = RecordFormat::of::<G>(self.path);
        // Every line is made (and every record replayed) before the file is touched.
        let lines: Vec<String> = self
            .records
            .iter()
            .enumerate()
            .map(|(i, r)| {
                record::replay::<G>(r)
                    .and_then(|_| format.line::<G>(r, None))
                    .map_err(|e| PyValueError::new_err(format!("record {i}: {e}")))
            })
            .collect::<PyResult<_>>()?;
        gamelab_core::files::write_atomically(self.path, |w| {
            lines.iter().try_for_each(|line| writeln!(w, "{line}"))
        })
        .map_err(|e| PyOSError::new_err(format!("cannot write {}: {e}", self.path.display())))?;
        Ok(lines.len())
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
    py.detach(|| {
        gamelab_games::visit(
            game,
            None,
            Save {
                records: &records,
                path: &path,
            },
        )
        .map_err(|e| PositionError::new_err(e.to_string()))?
    })
}

struct Load<'a> {
    text: &'a str,
    name: &'a str,
}

impl GameVisitor for Load<'_> {
    type Output = PyResult<Vec<GameRecord>>;
    fn visit<G: Described>(self) -> Self::Output {
        let format = RecordFormat::of::<G>(Path::new(self.name));
        match format {
            RecordFormat::Native => {
                G::read_records(self.text, self.name).map_err(PyValueError::new_err)
            }
            RecordFormat::Table => Err(PyValueError::new_err(format!(
                "{}: a table of games is written for spreadsheets, not read back: use JSON Lines",
                self.name
            ))),
            RecordFormat::Csv => self
                .text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .enumerate()
                .map(|(i, line)| {
                    record::record_from_csv::<G>(line, i as u64).map_err(|e| {
                        PyValueError::new_err(format!("{}, line {}: {e}", self.name, i + 1))
                    })
                })
                .collect(),
            RecordFormat::JsonLines => self
                .text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(|(i, line)| {
                    let record: GameRecord = serde_json::from_str(line).map_err(|e| {
                        PyValueError::new_err(format!(
                            "{}, line {}: not a game record ({e})",
                            self.name,
                            i + 1
                        ))
                    })?;
                    let checked = gamelab_games::visit(&record.game, None, Check(&record))
                        .map_err(|e| {
                            PyValueError::new_err(format!("{}, line {}: {e}", self.name, i + 1))
                        })?;
                    checked.map_err(|e| {
                        PyValueError::new_err(format!("{}, line {}: {e}", self.name, i + 1))
                    })?;
                    Ok(record)
                })
                .collect(),
        }
    }
}

/// A record replays in its own game.
struct Check<'a>(&'a GameRecord);

impl GameVisitor for Check<'_> {
    type Output = Result<(), String>;
    fn visit<G: Described>(self) -> Self::Output {
        record::replay::<G>(self.0)
            .map(drop)
            .map_err(|e| e.to_string())
    }
}

/// The records of a file (JSON texts): JSON Lines (each names its game), the article's CSV
/// (of `game`), or a game's own format (the game its extension belongs to).
#[pyfunction]
#[pyo3(signature = (path, game = None))]
pub fn _load_records(py: Python<'_>, path: PathBuf, game: Option<&str>) -> PyResult<Vec<String>> {
    let name = path.display().to_string();
    let bytes = gamelab_core::files::read_regular(&path, 1 << 30)
        .map_err(|e| PyOSError::new_err(format!("cannot read {name}: {e}")))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| PyValueError::new_err(format!("{name}: not UTF-8 text")))?;
    let game = match game {
        Some(g) => g.to_string(),
        None => path
            .extension()
            .and_then(|e| e.to_str())
            .and_then(gamelab_games::by_record_extension)
            .unwrap_or(gamelab_games::DEFAULT)
            .to_string(),
    };
    let records = py.detach(|| {
        gamelab_games::visit(
            &game,
            None,
            Load {
                text: &text,
                name: &name,
            },
        )
        .map_err(|e| PositionError::new_err(e.to_string()))?
    })?;
    Ok(records
        .iter()
        .map(|r| serde_json::to_string(r).expect("a record serialises"))
        .collect())
}
