//! The WTHOR game database (French Othello federation): `.wtb` files of tournament games.
//!
//! A file: a 16-byte header (bytes 4–7 little-endian game count, byte 12 board size 8,
//! byte 14 depth of the theoretical score), then 68-byte games: tournament u16, black
//! player u16, white player u16, black's real disc count u8, black's theoretical disc count
//! u8, 60 move bytes `10·rank + file` (11 = a1, 88 = h8, 0 = end).
//!
//! A game written as a file's bytes and read back, then replayed:
//!
//! ```
//! use gamelab_othello::wthor::{self, WthorGame};
//! use gamelab_othello::{Othello, Square};
//!
//! let game = WthorGame {
//!     tournament: 3,
//!     black_player: 1,
//!     white_player: 2,
//!     black_discs: 40,
//!     black_theoretical: 36,
//!     moves: ["f5", "d6", "c3"].map(|m| Square::parse(m).unwrap()).to_vec(),
//! };
//! let bytes = wthor::to_bytes(std::slice::from_ref(&game), 1990)?;
//! assert_eq!(bytes.len(), 16 + 68);
//! assert_eq!(bytes[16 + 8..16 + 11], [56, 64, 33]); // f5, d6, c3: 10·rank + file
//! assert_eq!(wthor::parse(&bytes, "WTH_1990.wtb")?, [game.clone()]);
//!
//! let replayed = game.replay()?;
//! assert!(!replayed.finished, "stopped after three moves: the count is adjudicated");
//! assert_eq!(replayed.position.counts(), (5, 2));
//!
//! // A cut file says what is wrong with it.
//! let err = wthor::parse(&bytes[..80], "cut.wtb").unwrap_err();
//! assert_eq!(err.to_string(),
//!     "cut.wtb: the header announces 1 games (84 bytes) but the file has 80 bytes");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::{Path, PathBuf};

use gamelab_core::Game;
use thiserror::Error;

use crate::{Move, Othello, OthelloError, Square};

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    pub tournament: u16,
    pub black_player: u16,
    pub white_player: u16,
    /// Black's disc count at the end, as recorded.
    pub black_discs: u8,
    pub black_theoretical: u8,
    pub moves: Vec<Square>,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum WthorError {
    #[error("{path}: {reason}")]
    Io { path: String, reason: String },
    #[error("{path}: {reason}")]
    Header { path: String, reason: String },
    #[error("{path}, game {index}: {reason}")]
    Game {
        path: String,
        index: usize,
        reason: String,
    },
}

/// Why a WTHOR game does not replay, or games do not fit a WTHOR file.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum WthorGameError {
    #[error("move {number} ({square}): {error}")]
    Move {
        number: usize,
        square: Square,
        error: OthelloError,
    },
    #[error(
        "the game ends with black {black}, white {white} (black {expected} with the empties) but the record says black {recorded}"
    )]
    Count {
        black: u32,
        white: u32,
        expected: u32,
        recorded: u8,
    },
    #[error("{count} games: a WTHOR file holds at most {max}", max = u32::MAX)]
    TooManyGames { count: usize },
    #[error("game {index} has {moves} moves; a WTHOR record holds at most 60")]
    TooManyMoves { index: usize, moves: usize },
}

const HEADER: usize = 16;
const GAME: usize = 68;

/// The error for a file or folder that cannot be read.
pub(crate) fn io_error(path: &Path, reason: impl ToString) -> WthorError {
    WthorError::Io {
        path: path.display().to_string(),
        reason: reason.to_string(),
    }
}

/// Reads every game of a `.wtb` file.
pub fn read(path: &Path) -> Result<Vec<WthorGame>, WthorError> {
    // A year of tournament games is well under a megabyte.
    let bytes = gamelab_core::files::read_bounded(path, 16 << 20).map_err(|e| io_error(path, e))?;
    parse(&bytes, &path.display().to_string())
}

/// The `.wtb` files of `folder` (the extension in any case), in name order; an error when
/// there is none.
pub fn wtb_files(folder: &Path) -> Result<Vec<PathBuf>, WthorError> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).map_err(|e| io_error(folder, e))? {
        let path = entry.map_err(|e| io_error(folder, e))?.path();
        if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
        {
            files.push(path);
        }
    }
    if files.is_empty() {
        return Err(io_error(folder, "no .wtb file in this folder"));
    }
    files.sort();
    Ok(files)
}

/// Every WTHOR file starts with a 16-byte header.
fn check_header_length(bytes: &[u8], name: &str) -> Result<(), WthorError> {
    if bytes.len() < HEADER {
        return Err(WthorError::Header {
            path: name.to_string(),
            reason: format!("{} bytes: shorter than the 16-byte header", bytes.len()),
        });
    }
    Ok(())
}

/// Parses the bytes of a `.wtb` file (`name` for messages).
pub fn parse(bytes: &[u8], name: &str) -> Result<Vec<WthorGame>, WthorError> {
    let header = |reason: String| WthorError::Header {
        path: name.to_string(),
        reason,
    };
    check_header_length(bytes, name)?;
    let count = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
    if bytes[12] != 8 && bytes[12] != 0 {
        return Err(header(format!(
            "board size {}; only 8×8 games are read",
            bytes[12]
        )));
    }
    if bytes.len() != HEADER + count * GAME {
        return Err(header(format!(
            "the header announces {count} games ({} bytes) but the file has {} bytes",
            HEADER + count * GAME,
            bytes.len()
        )));
    }
    let mut games = Vec::with_capacity(count);
    for index in 0..count {
        let g = &bytes[HEADER + index * GAME..][..GAME];
        let word = |i: usize| u16::from_le_bytes([g[i], g[i + 1]]);
        let mut moves = Vec::new();
        for &m in &g[8..68] {
            if m == 0 {
                break;
            }
            let (rank, file) = (m / 10, m % 10);
            if !(1..=8).contains(&rank) || !(1..=8).contains(&file) {
                return Err(WthorError::Game {
                    path: name.to_string(),
                    index,
                    reason: format!("move byte {m} is not a square (11 … 88)"),
                });
            }
            moves.push(Square::from_index(((rank - 1) * 8 + file - 1) as usize).expect("1..=8"));
        }
        games.push(WthorGame {
            tournament: word(0),
            black_player: word(2),
            white_player: word(4),
            black_discs: g[6],
            black_theoretical: g[7],
            moves,
        });
    }
    Ok(games)
}

/// The bytes of a `.wtb` file holding `games`, as [`parse`] reads them back: the header
/// gives `year` and no date (so the same games give the same bytes) and no theoretical
/// depth (each game's theoretical count is as given).
pub fn to_bytes(games: &[WthorGame], year: u16) -> Result<Vec<u8>, WthorGameError> {
    let count = u32::try_from(games.len())
        .map_err(|_| WthorGameError::TooManyGames { count: games.len() })?;
    let mut bytes = Vec::with_capacity(HEADER + games.len() * GAME);
    // The creation date (century, year, month, day), the game count, the count of a
    // names file's records (none here), the games' year, board size 8, game type 0,
    // depth 0, a reserved byte.
    bytes.extend([0u8; 4]);
    bytes.extend(count.to_le_bytes());
    bytes.extend(0u16.to_le_bytes());
    bytes.extend(year.to_le_bytes());
    bytes.extend([8, 0, 0, 0]);
    for (index, game) in games.iter().enumerate() {
        if game.moves.len() > 60 {
            return Err(WthorGameError::TooManyMoves {
                index,
                moves: game.moves.len(),
            });
        }
        bytes.extend(game.tournament.to_le_bytes());
        bytes.extend(game.black_player.to_le_bytes());
        bytes.extend(game.white_player.to_le_bytes());
        bytes.extend([game.black_discs, game.black_theoretical]);
        let mut moves = [0u8; 60];
        for (byte, sq) in moves.iter_mut().zip(&game.moves) {
            let i = sq.index();
            *byte = (10 * (i / 8 + 1) + i % 8 + 1) as u8;
        }
        bytes.extend(moves);
    }
    Ok(bytes)
}

impl WthorGame {
    /// Replays the game, passing where a side has no move, and checks every move. For a
    /// game played to the end, the recorded count must be black's discs with the empty
    /// squares given to the winner (as the federation scores; every finished game of the
    /// 1977–2021 files follows it). A game stopped early (resignation, time) keeps its
    /// adjudicated count: the result says it is unfinished.
    ///
    /// A game played to the end (each side takes its first legal square) checks its
    /// recorded count; a move that is not legal is named.
    ///
    /// ```
    /// use gamelab_core::Game;
    /// use gamelab_othello::wthor::{WthorGame, WthorGameError, recorded_black_count};
    /// use gamelab_othello::{Move, Othello, squares_of};
    ///
    /// let mut pos = Othello::new();
    /// let mut moves = Vec::new();
    /// while !pos.is_over() {
    ///     match squares_of(pos.legal_mask()).next() {
    ///         Some(sq) => {
    ///             moves.push(sq);
    ///             pos.play_unchecked(Move::Place(sq));
    ///         }
    ///         None => pos.play_unchecked(Move::Pass), // passes are not recorded
    ///     }
    /// }
    /// let (black, white) = pos.counts();
    /// let recorded = recorded_black_count(black, white) as u8;
    /// let mut game = WthorGame {
    ///     tournament: 0,
    ///     black_player: 0,
    ///     white_player: 0,
    ///     black_discs: recorded,
    ///     black_theoretical: 0,
    ///     moves,
    /// };
    /// let replayed = game.replay()?;
    /// assert!(replayed.finished);
    /// assert_eq!(replayed.position.discs(), pos.discs());
    ///
    /// game.black_discs = recorded ^ 1;
    /// assert!(matches!(game.replay(), Err(WthorGameError::Count { .. })));
    /// game.moves[0] = game.moves[1];
    /// assert!(matches!(game.replay(), Err(WthorGameError::Move { number: 1, .. })));
    /// # Ok::<(), WthorGameError>(())
    /// ```
    pub fn replay(&self) -> Result<Replayed, WthorGameError> {
        let mut pos = Othello::new();
        for (i, &sq) in self.moves.iter().enumerate() {
            pos.pass_if_forced(Move::Place(sq));
            pos.check_move(Move::Place(sq))
                .map_err(|error| WthorGameError::Move {
                    number: i + 1,
                    square: sq,
                    error,
                })?;
            pos.play_unchecked(Move::Place(sq));
        }
        let finished = pos.is_over();
        if finished {
            let (b, w) = pos.counts();
            let expected = recorded_black_count(b, w);
            if expected != u32::from(self.black_discs) {
                return Err(WthorGameError::Count {
                    black: b,
                    white: w,
                    expected,
                    recorded: self.black_discs,
                });
            }
        }
        Ok(Replayed {
            position: pos,
            finished,
        })
    }
}

/// Black's count as the federation records a finished game with `black` and `white`
/// discs: the empty squares go to the winner (half each on a draw).
///
/// ```
/// use gamelab_othello::wthor::recorded_black_count;
///
/// assert_eq!(recorded_black_count(40, 20), 44); // black wins: the 4 empties too
/// assert_eq!(recorded_black_count(20, 40), 20);
/// assert_eq!(recorded_black_count(30, 30), 32); // a draw: half each
/// ```
pub fn recorded_black_count(black: u32, white: u32) -> u32 {
    let empties = 64 - black - white;
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => black + empties,
        std::cmp::Ordering::Less => black,
        std::cmp::Ordering::Equal => black + empties / 2,
    }
}

/// A replayed game.
#[derive(Clone, Debug)]
pub struct Replayed {
    pub position: Othello,
    /// The game was played until neither side could move.
    pub finished: bool,
}

/// The names a `WTHOR.JOU` (players, 20 bytes each) or `WTHOR.TRN` (tournaments, 26
/// bytes each) file holds, in record order: game records refer to them by index.
///
/// ```
/// use gamelab_othello::wthor::{PLAYER_RECORD, parse_names};
///
/// // The header's bytes 8–9: how many names; then one record each, Latin-1, zero-padded.
/// let mut bytes = vec![0u8; 16];
/// bytes[8] = 2;
/// for name in ["Tastet Marc", "Françoise"] {
///     let mut record: Vec<u8> = name.chars().map(|c| c as u8).collect();
///     record.resize(PLAYER_RECORD, 0);
///     bytes.extend(record);
/// }
/// assert_eq!(parse_names(&bytes, PLAYER_RECORD, "WTHOR.JOU")?, ["Tastet Marc", "Françoise"]);
/// assert!(parse_names(&bytes[..50], PLAYER_RECORD, "cut.JOU").is_err());
/// # Ok::<(), gamelab_othello::wthor::WthorError>(())
/// ```
pub fn parse_names(bytes: &[u8], record: usize, name: &str) -> Result<Vec<String>, WthorError> {
    let header = |reason: String| WthorError::Header {
        path: name.to_string(),
        reason,
    };
    check_header_length(bytes, name)?;
    let count = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    if bytes.len() < HEADER + count * record {
        return Err(header(format!(
            "the header announces {count} names of {record} bytes ({} bytes) but the file has {}",
            HEADER + count * record,
            bytes.len()
        )));
    }
    Ok(bytes[HEADER..HEADER + count * record]
        .chunks(record)
        // Latin-1, each byte its own character, up to the first zero.
        .map(|r| {
            r.iter()
                .take_while(|&&b| b != 0)
                .map(|&b| char::from(b))
                .collect()
        })
        .collect())
}

/// Name `i` of `names`, or `{what} {i}` where the names file has none.
pub(crate) fn name_or_number(names: &[String], i: u16, what: &str) -> String {
    names
        .get(usize::from(i))
        .filter(|n| !n.is_empty())
        .cloned()
        .unwrap_or_else(|| format!("{what} {i}"))
}

/// Player names (`WTHOR.JOU`).
pub const PLAYER_RECORD: usize = 20;
/// Tournament names (`WTHOR.TRN`).
pub const TOURNAMENT_RECORD: usize = 26;

impl WthorGame {
    /// The game as GGF: its players and tournament by name where `players` and
    /// `tournaments` have them (else by number), the recorded result as black's disc
    /// difference, the moves with the passes put in.
    pub fn to_ggf(
        &self,
        players: &[String],
        tournaments: &[String],
    ) -> Result<crate::formats::ggf::GgfGame, crate::formats::ggf::GgfMoveError> {
        let moves: Vec<Move> = self.moves.iter().map(|&sq| Move::Place(sq)).collect();
        crate::formats::ggf::GgfGame::new(
            Othello::new(),
            &moves,
            vec![
                ("GM".into(), "Othello".into()),
                (
                    "PC".into(),
                    name_or_number(tournaments, self.tournament, "tournament"),
                ),
                (
                    "PB".into(),
                    name_or_number(players, self.black_player, "player"),
                ),
                (
                    "PW".into(),
                    name_or_number(players, self.white_player, "player"),
                ),
                (
                    "RE".into(),
                    format!("{:+}", 2 * i32::from(self.black_discs) - 64),
                ),
                ("TY".into(), "8".into()),
            ],
        )
    }
}

#[cfg(test)]
mod ggf_tests {
    use super::*;

    #[test]
    fn names_are_read_up_to_their_zero() {
        let mut bytes = vec![0u8; 16];
        bytes[8] = 2;
        bytes.extend(b"Tastet Marc\0\0\0\0\0\0\0\0\0");
        bytes.extend(b"Fran\xe7ois\0\0\0\0\0\0\0\0\0\0\0\0");
        let names = parse_names(&bytes, PLAYER_RECORD, "x.jou").unwrap();
        assert_eq!(names, ["Tastet Marc", "François"]);
        assert!(parse_names(&bytes[..30], PLAYER_RECORD, "x.jou").is_err());
        assert!(parse_names(&bytes[..3], PLAYER_RECORD, "x.jou").is_err());
    }

    #[test]
    fn games_written_read_back_the_same() {
        let games = vec![
            WthorGame {
                tournament: 3,
                black_player: 513,
                white_player: 2,
                black_discs: 33,
                black_theoretical: 36,
                moves: ["f5", "d6", "c3", "h8", "a1"]
                    .map(|s| Square::parse(s).unwrap())
                    .to_vec(),
            },
            WthorGame {
                tournament: 0,
                black_player: 0,
                white_player: 0,
                black_discs: 64,
                black_theoretical: 64,
                moves: Vec::new(),
            },
        ];
        let bytes = to_bytes(&games, 2026).unwrap();
        assert_eq!(bytes.len(), HEADER + 2 * GAME);
        assert_eq!(u16::from_le_bytes([bytes[10], bytes[11]]), 2026);
        assert_eq!(parse(&bytes, "x.wtb").unwrap(), games);
        assert_eq!(
            to_bytes(&[], 0).map(|b| parse(&b, "x").unwrap()),
            Ok(vec![])
        );
        let mut long = games[0].clone();
        long.moves = vec![Square::parse("a1").unwrap(); 61];
        let error = to_bytes(&[games[1].clone(), long], 0).unwrap_err();
        assert_eq!(
            error,
            WthorGameError::TooManyMoves {
                index: 1,
                moves: 61
            }
        );
        assert_eq!(
            error.to_string(),
            "game 1 has 61 moves; a WTHOR record holds at most 60"
        );
    }

    #[test]
    fn a_game_becomes_ggf_with_its_names_and_result() {
        let game = WthorGame {
            tournament: 1,
            black_player: 0,
            white_player: 7,
            black_discs: 40,
            black_theoretical: 40,
            moves: ["f5", "d6", "c3"]
                .map(|s| Square::parse(s).unwrap())
                .to_vec(),
        };
        let ggf = game
            .to_ggf(&["Ann".into()], &["Open".into(), "Cup".into()])
            .unwrap();
        assert_eq!(ggf.property("PB"), Some("Ann"));
        assert_eq!(ggf.property("PW"), Some("player 7"));
        assert_eq!(ggf.property("PC"), Some("Cup"));
        assert_eq!(ggf.result(), Some(16.0));
        assert_eq!(
            crate::formats::transcript::write(&ggf.plain_moves()),
            "f5d6c3"
        );
    }
}
