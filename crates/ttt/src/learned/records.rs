//! Article 002's data: finished games → per-board outcome scores → datasets of line-pattern
//! features; and reading games back from the article's CSV or gamelab's records.
//!
//! Two games in the article's CSV (the winner, 1 o and 2 x, then the squares 0–8 row by
//! row): o wins down the left column, then x does.
//!
//! ```
//! use gamelab_ttt::learned::{Scores, csv_line, parse_games};
//!
//! let games = parse_games("1,0,1,3,4,6\n2,4,0,1,3,8,6\n", "two.csv")?;
//! assert_eq!((games[0].winner, games[1].moves.len()), (1, 6));
//! assert_eq!(csv_line(&games[1]), "2,4,0,1,3,8,6");
//! // Every game is replayed: a winner the moves do not give is named with its line.
//! let error = parse_games("2,0,1,3,4,6", "bad.csv").unwrap_err().to_string();
//! assert!(error.starts_with("bad.csv, line 1"), "{error}");
//!
//! // Each board after a move scores its game's outcome: o +10, x −10.
//! let mut scores = Scores::default();
//! for game in &games {
//!     scores.add_game(game, false);
//! }
//! let rows = scores.rows();
//! assert_eq!(rows.len(), 5 + 6);
//! assert_eq!((rows[0].0, rows[10].0), (-10.0, 10.0));
//! assert_eq!(scores.dataset().features, "ttt-lines-27");
//! # Ok::<(), gamelab_learn::FileError>(())
//! ```

use std::collections::HashMap;
use std::path::Path;

use gamelab_learn::{Dataset, FileError, Row};

use super::features::{Cells, FeatureSet, TARGET};
use crate::solve::Marks;
use crate::{Player, Square, Symmetry};

/// Outcome scores of article 002.
pub const O_WIN: i64 = 10;
pub const X_WIN: i64 = -10;
pub const DRAW: i64 = 0;

/// A finished game: its moves as square numbers (0–8, row by row) and its winner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub moves: Vec<Square>,
    /// 1 o, 2 x, 0 draw (the article's cell values).
    pub winner: u8,
}

/// Total and count of outcome scores per board, and which boards followed which in the
/// records (the observed game graph).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scores {
    pub boards: HashMap<Cells, (i64, u64)>,
    children: HashMap<Cells, Vec<Cells>>,
}

/// What a board's target is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Targets {
    /// The article's: the average outcome score of the games through the board.
    Average,
    /// Outcomes backed up through the observed game graph: a finished board scores its
    /// result, any other the best of its observed next boards for the side to move. With
    /// every position observed this is the minimax value; it still uses nothing but the
    /// records.
    BackedUp,
}

/// o 10, x −10, draw 0 if the board is finished.
fn result_score(cells: &Cells) -> Option<i64> {
    let mask = |mark: u8| {
        (0..9)
            .filter(|&i| cells[i] == mark)
            .fold(0u16, |m, i| m | 1 << i)
    };
    // The solved game's result: o win 1, x win −1, draw 0; the scores are ten times that.
    Marks(mask(1), mask(2))
        .result()
        .map(|r| i64::from(r) * O_WIN)
}

/// The article's winner code of a finished game (1 o, 2 x, 0 draw); `None` while it goes on.
fn winner_code(status: crate::Status) -> Option<u8> {
    match status {
        crate::Status::Won(Player::O) => Some(1),
        crate::Status::Won(Player::X) => Some(2),
        crate::Status::Draw => Some(0),
        crate::Status::Playing => None,
    }
}

impl Scores {
    /// Adds a game: every board after each of its moves gets the game's score. With
    /// `symmetries`, each distinct image of those boards gets it too.
    pub fn add_game(&mut self, game: &Game, symmetries: bool) {
        let score = match game.winner {
            1 => O_WIN,
            2 => X_WIN,
            _ => DRAW,
        };
        let image = |s: &Symmetry, cells: &Cells| {
            let mut image = [0u8; 9];
            for q in Square::ALL {
                image[s.apply(q).index()] = cells[q.index()];
            }
            image
        };
        let symmetries_used: &[Symmetry] = if symmetries {
            &Symmetry::ALL
        } else {
            &Symmetry::ALL[..1]
        };
        let mut cells: Cells = [0; 9];
        for (i, sq) in game.moves.iter().enumerate() {
            let before = cells;
            cells[sq.index()] = if i % 2 == 0 { 1 } else { 2 };
            let mut images: Vec<(Cells, Cells)> = symmetries_used
                .iter()
                .map(|s| (image(s, &cells), image(s, &before)))
                .collect();
            images.sort_unstable();
            images.dedup_by_key(|(c, _)| *c);
            for (board, parent) in images {
                self.add(board, score);
                let kids = self.children.entry(parent).or_default();
                if !kids.contains(&board) {
                    kids.push(board);
                }
            }
        }
    }

    /// Each board's target under `targets`.
    fn target(&self, cells: &Cells, targets: Targets, memo: &mut HashMap<Cells, f64>) -> f64 {
        let (total, count) = self.boards[cells];
        match targets {
            Targets::Average => total as f64 / count as f64,
            Targets::BackedUp => {
                if let Some(&v) = memo.get(cells) {
                    return v;
                }
                let v = match result_score(cells) {
                    Some(r) => r as f64,
                    None => {
                        let o_to_move = cells.iter().filter(|&&c| c != 0).count() % 2 == 0;
                        let kids = self.children.get(cells).map_or(&[][..], Vec::as_slice);
                        let values = kids.iter().map(|k| self.target(k, targets, memo));
                        let best = if o_to_move {
                            values.fold(f64::NEG_INFINITY, f64::max)
                        } else {
                            values.fold(f64::INFINITY, f64::min)
                        };
                        if best.is_finite() {
                            best
                        } else {
                            total as f64 / count as f64
                        }
                    }
                };
                memo.insert(*cells, v);
                v
            }
        }
    }

    fn add(&mut self, cells: Cells, score: i64) {
        let entry = self.boards.entry(cells).or_insert((0, 0));
        entry.0 += score;
        entry.1 += 1;
    }

    /// The rows of the dataset: (average score, board), sorted by average as the seed
    /// writes them (boards break ties, so the file is the same on every run).
    pub fn rows(&self) -> Vec<(f64, Cells)> {
        self.rows_with(Targets::Average)
    }

    /// The rows with targets of the given kind.
    pub fn rows_with(&self, targets: Targets) -> Vec<(f64, Cells)> {
        let mut memo = HashMap::new();
        let mut rows: Vec<(f64, Cells)> = self
            .boards
            .keys()
            .map(|cells| (self.target(cells, targets, &mut memo), *cells))
            .collect();
        rows.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        rows
    }

    /// The dataset in memory.
    pub fn dataset(&self) -> Dataset {
        self.dataset_with(Targets::Average)
    }

    /// The dataset with targets of the given kind, over the article's features.
    pub fn dataset_with(&self, targets: Targets) -> Dataset {
        self.dataset_for(targets, FeatureSet::Lines)
    }

    /// The dataset with targets and features of the given kinds.
    pub fn dataset_for(&self, targets: Targets, features: FeatureSet) -> Dataset {
        Dataset {
            features: features.name().to_string(),
            rows: self
                .rows_with(targets)
                .into_iter()
                .map(|(ave, cells)| Row {
                    target: ave,
                    active: features.active(&cells).to_vec(),
                })
                .collect(),
        }
    }

    /// Writes the article's CSV (header `ave,h1-0,…,d2-26`, one-hot features) atomically.
    pub fn write_csv(&self, path: &Path) -> Result<(), FileError> {
        self.write_csv_with(path, Targets::Average, FeatureSet::Lines)
    }

    /// Writes the CSV with targets and features of the given kinds.
    pub fn write_csv_with(
        &self,
        path: &Path,
        targets: Targets,
        features: FeatureSet,
    ) -> Result<(), FileError> {
        self.dataset_for(targets, features)
            .write_csv(path, TARGET, &features.set())
    }
}

/// Reads a dataset CSV of one of tic-tac-toe's feature sets (the article's
/// `ave,h1-0,…,d2-26`, or `ave,o:h1-0,…,x:d2-26`).
pub fn read_dataset(path: &Path) -> Result<(Dataset, FeatureSet), FileError> {
    let data = Dataset::read_csv(path, TARGET, &FeatureSet::known())?;
    let set = FeatureSet::from_name(&data.features).expect("read against tic-tac-toe's sets");
    Ok((data, set))
}

/// Reads finished games from a records file: the article's CSV (winner 0/1/2, then the moves
/// as square numbers) or gamelab's JSON Lines (`gamelab match --records`). Every game is
/// replayed; an illegal move or a wrong winner is reported with its line.
pub fn read_games(path: &Path) -> Result<Vec<Game>, FileError> {
    let p = path.display().to_string();
    let text = gamelab_core::files::read_text_bounded(path, gamelab_core::files::MAX_RECORDS_BYTES)
        .map_err(|e| FileError::Io {
            path: p.clone(),
            reason: e.to_string(),
        })?;
    parse_games(&text, &p)
}

/// [`read_games`] from the text of a records file; `name` is the source errors name.
pub fn parse_games(text: &str, name: &str) -> Result<Vec<Game>, FileError> {
    let malformed = |line: usize, reason: String| FileError::Malformed {
        path: name.to_string(),
        line,
        reason,
    };
    let json = text.trim_start().starts_with('{');
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let (moves, winner): (Vec<Square>, u8) = if json {
            let record: gamelab_core::record::GameRecord = serde_json::from_str(line)
                .map_err(|e| malformed(number, format!("not a game record ({e})")))?;
            let positions = gamelab_core::record::replay::<crate::Ttt>(&record)
                .map_err(|e| malformed(number, e.to_string()))?;
            let last = positions.last().expect("the start at least");
            let winner = winner_code(last.status()).expect("replay ends finished games only");
            (last.history().to_vec(), winner)
        } else {
            let values: Vec<&str> = line.split(',').map(str::trim).collect();
            let parse = |v: &str, what: &str| -> Result<usize, FileError> {
                v.parse::<usize>()
                    .map_err(|_| malformed(number, format!("`{v}` is not a {what}")))
            };
            let winner = parse(values[0], "winner (0 draw, 1 o, 2 x)")?;
            if winner > 2 {
                return Err(malformed(
                    number,
                    format!("winner {winner} is not 0 (draw), 1 (o) or 2 (x)"),
                ));
            }
            let mut pos = crate::Ttt::new();
            let mut moves = Vec::new();
            for v in &values[1..] {
                let n = parse(v, "square number 0–8")?;
                let sq = Square::from_index(n)
                    .ok_or_else(|| malformed(number, format!("square {n} is not 0–8")))?;
                pos.check(sq)
                    .map_err(|e| malformed(number, format!("move {}: {e}", moves.len() + 1)))?;
                pos.play_unchecked(sq);
                moves.push(sq);
            }
            let actual = match pos.status() {
                crate::Status::Won(Player::O) => 1,
                crate::Status::Won(Player::X) => 2,
                crate::Status::Draw => 0,
                crate::Status::Playing => {
                    return Err(malformed(
                        number,
                        "the moves end before the game does".into(),
                    ));
                }
            };
            if actual != winner as u8 {
                return Err(malformed(
                    number,
                    format!("the moves end with winner {actual} but the record says {winner}"),
                ));
            }
            (moves, actual)
        };
        games.push(Game { moves, winner });
    }
    Ok(games)
}

/// The article's CSV line of a game: winner, then the moves as square numbers.
pub fn csv_line(game: &Game) -> String {
    std::iter::once(game.winner.to_string())
        .chain(game.moves.iter().map(|s| s.index().to_string()))
        .collect::<Vec<_>>()
        .join(",")
}
