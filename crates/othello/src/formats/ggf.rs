//! GGF, the Generic Game Format of the GGS server (and what NBoard sends as `set game`):
//! `(;GM[Othello]PC[…]PB[…]PW[…]RE[…]TY[8]BO[8 <64 squares> <side>]B[f5]W[f6//1.2];)`.
//! A file holds any number of games (the GGS archives: one a line). Only 8×8 Othello with
//! its usual rules (`TY[8]`) is read; synchro, komi, anti and random-start variants are
//! refused by name.
//!
//! A game of two moves that white won when black, to move, resigned: written, read
//! back, and read as a game record.
//!
//! ```
//! use gamelab_othello::ggf::{self, GgfGame};
//! use gamelab_othello::{Move, Othello, Square};
//!
//! let mv = |text| Move::Place(Square::parse(text).unwrap());
//! let properties = vec![
//!     ("PB".to_string(), "Ann".to_string()),
//!     ("PW".to_string(), "Ben".to_string()),
//!     ("RE".to_string(), "-12.000:r".to_string()),
//! ];
//! let game = GgfGame::new(Othello::new(), &[mv("f5"), mv("d6")], properties)?;
//! let text = game.write();
//! let board = format!("{}O*{}*O{}", "-".repeat(27), "-".repeat(6), "-".repeat(27));
//! assert_eq!(
//!     text,
//!     format!("(;PB[Ann]PW[Ben]RE[-12.000:r]GM[Othello]TY[8]BO[8 {board} *]B[F5]W[D6];)")
//! );
//! let read = ggf::parse_one(&text)?;
//! assert_eq!(read, game);
//! assert_eq!((read.result(), read.end().counts()), (Some(-12.0), (3, 3)));
//!
//! let records = ggf::read_records(&text, "one.ggf")?;
//! assert_eq!(records[0].result, "white");
//! assert_eq!(records[0].forfeit.as_deref(), Some("black resigned"));
//! // A record has the side to move give the game up.
//! let error = ggf::read_records(&text.replace("RE[-12", "RE[+12"), "one.ggf").unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "one.ggf, game 1 of the file: the record says `black` won by a forfeit, but after the \
//!      moves black is to move, and a forfeit is the side to move's"
//! );
//!
//! // What follows a move in its brackets is kept; variants are refused.
//! let noted = text.replace("W[D6]", "W[D6/-1.50/2.1]");
//! assert_eq!(ggf::parse_one(&noted)?.moves[1].note.as_deref(), Some("-1.50/2.1"));
//! assert!(ggf::parse_one(&text.replace("TY[8]", "TY[8k+0.5]")).is_err());
//! assert_eq!((ggf::write_move(Move::Pass), ggf::read_move("pass")), ("PA".into(), Some(Move::Pass)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use thiserror::Error;

use gamelab_core::record::{GameRecord, ReplayError};
use gamelab_core::{Game, GameHeaders, Notation};

use crate::{Move, Othello, OthelloError, Square};

/// Why GGF text cannot be read: where (line and column, from 1) and what was wrong.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("line {line}, column {column}: {reason}")]
pub struct GgfError {
    pub line: usize,
    pub column: usize,
    pub reason: String,
}

/// A move that cannot be played where a game written as GGF plays it.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("move {number} `{mv}`: {error}")]
pub struct GgfMoveError {
    /// From 1, passes put in by the writer not counted.
    pub number: usize,
    pub mv: Move,
    pub error: OthelloError,
}

/// Why game records cannot be written as GGF, or read from a GGF file (`name`), and
/// which game of the file (from 1).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GgfRecordError {
    #[error("{name}: {error}")]
    Syntax { name: String, error: GgfError },
    #[error(
        "{name}, game {game} of the file: it starts from another position; records start from the start"
    )]
    OtherStart { name: String, game: usize },
    #[error(
        "{name}, game {game} of the file: the moves end before the game does, and RE[{re}] says no resignation or loss on time"
    )]
    Unfinished {
        name: String,
        game: usize,
        re: String,
    },
    #[error("{name}, game {game} of the file: RE[{re}] names no winner")]
    NoWinner {
        name: String,
        game: usize,
        re: String,
    },
    #[error("{name}, game {game} of the file: {error}")]
    Replay {
        name: String,
        game: usize,
        error: ReplayError,
    },
    /// A record to write that is no game played from the start.
    #[error(transparent)]
    Unplayable(#[from] ReplayError),
    #[error(transparent)]
    Move(#[from] GgfMoveError),
}

/// One move of a game, with what followed it in its brackets (`/eval/time`), kept as
/// written.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfMove {
    pub mv: Move,
    pub note: Option<String>,
}

/// A game: its properties other than the board and the moves, in their order (`GM`,
/// `PC`, `DT`, `PB`, `PW`, `RE`, `TI`, `TY`, …), the position it starts from and its moves,
/// passes included.
#[derive(Clone, Debug)]
pub struct GgfGame {
    pub properties: Vec<(String, String)>,
    pub start: Othello,
    pub moves: Vec<GgfMove>,
}

impl PartialEq for GgfGame {
    fn eq(&self, other: &GgfGame) -> bool {
        self.properties == other.properties
            && self.start.discs() == other.start.discs()
            && self.start.black_to_move() == other.start.black_to_move()
            && self.moves == other.moves
    }
}

impl GgfGame {
    /// A game of `moves` (passes included or left out) from `start`, with `properties`
    /// (`GM[Othello]` and `TY[8]` are added when missing).
    pub fn new(
        start: Othello,
        moves: &[Move],
        properties: Vec<(String, String)>,
    ) -> Result<GgfGame, GgfMoveError> {
        let mut pos = start.clone();
        let mut played = Vec::new();
        for (i, &mv) in moves.iter().enumerate() {
            if pos.pass_if_forced(mv) {
                played.push(GgfMove {
                    mv: Move::Pass,
                    note: None,
                });
            }
            gamelab_core::Game::check_move(&pos, mv).map_err(|error| GgfMoveError {
                number: i + 1,
                mv,
                error,
            })?;
            pos.play_unchecked(mv);
            played.push(GgfMove { mv, note: None });
        }
        let mut game = GgfGame {
            properties,
            start,
            moves: played,
        };
        for (name, value) in [("GM", "Othello"), ("TY", "8")] {
            if game.property(name).is_none() {
                game.properties.push((name.into(), value.into()));
            }
        }
        Ok(game)
    }

    /// The first value of property `name`.
    pub fn property(&self, name: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The result as `RE` records it: black's discs minus white's (`None` when absent or
    /// not a number, as in `RE[?]`).
    pub fn result(&self) -> Option<f64> {
        let text = self.property("RE")?;
        // `+12.000`, `-4`, and GGS's suffixes for how a game ended (`:r` resigned, `:t`
        // time, `:s` scored by agreement).
        text.split(':').next()?.trim().parse().ok()
    }

    /// The position after every move.
    pub fn end(&self) -> Othello {
        let mut pos = self.start.clone();
        for m in &self.moves {
            pos.play_unchecked(m.mv);
        }
        pos
    }

    /// The moves alone.
    pub fn plain_moves(&self) -> Vec<Move> {
        self.moves.iter().map(|m| m.mv).collect()
    }

    /// The game on one line.
    pub fn write(&self) -> String {
        let mut out = String::from("(;");
        for (name, value) in &self.properties {
            out.push_str(name);
            out.push('[');
            out.push_str(&escape(value));
            out.push(']');
        }
        out.push_str("BO[8 ");
        let (black, white) = (self.start.black(), self.start.white());
        for i in 0..64 {
            out.push(if black >> i & 1 != 0 {
                '*'
            } else if white >> i & 1 != 0 {
                'O'
            } else {
                '-'
            });
        }
        out.push_str(if self.start.black_to_move() {
            " *]"
        } else {
            " O]"
        });
        let mut pos = self.start.clone();
        for m in &self.moves {
            out.push_str(if pos.black_to_move() { "B[" } else { "W[" });
            out.push_str(&write_move(m.mv));
            if let Some(note) = &m.note {
                out.push('/');
                out.push_str(&escape(note));
            }
            out.push(']');
            pos.play_unchecked(m.mv);
        }
        out.push_str(";)");
        out
    }
}

/// Where gamelab's records say they come from, in GGF's place property: the seed and the
/// game's index in its run, so that reading the file back keeps them.
fn place(seed: u64, index: u64) -> String {
    format!("gamelab, seed {seed}, game {index}")
}

fn read_place(text: &str) -> Option<(u64, u64)> {
    let rest = text.strip_prefix("gamelab, seed ")?;
    let (seed, index) = rest.split_once(", game ")?;
    Some((seed.parse().ok()?, index.parse().ok()?))
}

/// A game record as a GGF game on one line: the players, the moves (passes included), the
/// result (black's discs minus white's; a forfeited game `±64:r`, the way GGS writes a
/// resignation — the reason stays in gamelab's JSON Lines only) and, in `PC`, the run's
/// seed and the game's index.
pub fn write_record(record: &GameRecord) -> Result<String, GgfRecordError> {
    let positions = gamelab_core::record::replay::<Othello>(record)?;
    let end = positions.last().expect("a replay holds the start");
    let moves: Vec<Move> = end.history().to_vec();
    let result = match &record.forfeit {
        // Black's discs minus white's, the empty squares to the winner (as WTHOR scores).
        None => format!(
            "{:+}",
            crate::rules::position::final_score(end.black(), end.white())
        ),
        Some(_) if record.result == "black" => "+64:r".to_string(),
        Some(_) => "-64:r".to_string(),
    };
    let game = GgfGame::new(
        Othello::new(),
        &moves,
        vec![
            ("GM".into(), "Othello".into()),
            ("PC".into(), place(record.seed, record.index)),
            ("PB".into(), record.first.clone()),
            ("PW".into(), record.second.clone()),
            ("RE".into(), result),
            ("TY".into(), "8".into()),
        ],
    )?;
    Ok(game.write())
}

/// A game from the start, in play or over, as a GGF game on one line: the players
/// (`?` for one without a name), the event as `PC` (`gamelab` without one), the date as
/// `DT`, the moves (passes put back) and, once it is over, the result (`RE[?]` before).
///
/// ```
/// use gamelab_core::GameHeaders;
/// use gamelab_othello::{ggf, transcript};
///
/// let (moves, _) = transcript::parse("f5d6c3").unwrap();
/// let headers = GameHeaders { players: [Some("ann".into()), None], ..Default::default() };
/// let line = ggf::write_game(&moves, &headers).unwrap();
/// assert!(line.contains("PB[ann]PW[?]RE[?]"));
/// assert_eq!(ggf::parse_one(&line).unwrap().plain_moves(), moves);
/// ```
pub fn write_game(moves: &[Move], headers: &GameHeaders) -> Result<String, GgfMoveError> {
    let mut end = Othello::new();
    for (i, &mv) in moves.iter().enumerate() {
        if end.pass_if_forced(mv) {
            end.play_unchecked(Move::Pass);
        }
        end.check_move(mv).map_err(|error| GgfMoveError {
            number: i + 1,
            mv,
            error,
        })?;
        end.play_unchecked(mv);
    }
    let result = if end.is_over() {
        format!(
            "{:+}",
            crate::rules::position::final_score(end.black(), end.white())
        )
    } else {
        "?".to_string()
    };
    let mut properties = vec![
        ("GM".into(), "Othello".into()),
        (
            "PC".into(),
            headers.event.clone().unwrap_or_else(|| "gamelab".into()),
        ),
    ];
    if let Some(date) = &headers.date {
        properties.push(("DT".into(), date.clone()));
    }
    properties.extend([
        ("PB".into(), headers.player_or(0, "?").to_string()),
        ("PW".into(), headers.player_or(1, "?").to_string()),
        ("RE".into(), result),
        ("TY".into(), "8".into()),
    ]);
    let game = GgfGame::new(Othello::new(), moves, properties)?;
    Ok(game.write())
}

/// What a GGF game says of itself: `PB` and `PW`, `PC` as the event, `DT` as the date
/// (each cut to [`GameHeaders::MAX_CHARS`]); `None` when `text` is no GGF game.
pub fn read_headers(text: &str) -> Option<GameHeaders> {
    let game = parse_one(text.trim()).ok()?;
    let part = |key: &str| {
        game.property(key)
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "?")
            .map(|v| {
                v.chars()
                    .filter(|c| !c.is_control())
                    .take(GameHeaders::MAX_CHARS)
                    .collect()
            })
    };
    Some(GameHeaders {
        players: [part("PB"), part("PW")],
        event: part("PC"),
        date: part("DT"),
    })
}

/// Every game of GGF text as game records, checked by replaying them: numbered in file
/// order unless written by gamelab (whose `PC` keeps the seed and index). A game must
/// start from the standard position, and end or have been resigned or lost on time
/// (`RE[…:r]`, `RE[…:t]`: a forfeit).
pub fn read_records(text: &str, name: &str) -> Result<Vec<GameRecord>, GgfRecordError> {
    let games = parse(text).map_err(|error| GgfRecordError::Syntax {
        name: name.to_string(),
        error,
    })?;
    games
        .iter()
        .enumerate()
        .map(|(i, game)| {
            let (name, number) = (name.to_string(), i + 1);
            if game.start.discs() != Othello::new().discs() || !game.start.black_to_move() {
                return Err(GgfRecordError::OtherStart { name, game: number });
            }
            let (seed, index) = game
                .property("PC")
                .and_then(read_place)
                .unwrap_or((0, i as u64));
            let end = game.end();
            let re = game.property("RE").unwrap_or("");
            let (result, forfeit) = match end.outcome() {
                Some(outcome) => (
                    outcome
                        .winner()
                        .map_or("draw", Othello::side_name)
                        .to_string(),
                    None,
                ),
                None => {
                    let how = match re.split_once(':').map(|(_, how)| how) {
                        Some("r") => "resigned",
                        Some("t") => "lost on time",
                        _ => {
                            return Err(GgfRecordError::Unfinished {
                                name,
                                game: number,
                                re: re.to_string(),
                            });
                        }
                    };
                    let winner = match game.result() {
                        Some(v) if v > 0.0 => "black",
                        Some(v) if v < 0.0 => "white",
                        _ => {
                            return Err(GgfRecordError::NoWinner {
                                name,
                                game: number,
                                re: re.to_string(),
                            });
                        }
                    };
                    let loser = if winner == "black" { "white" } else { "black" };
                    (winner.to_string(), Some(format!("{loser} {how}")))
                }
            };
            let record = GameRecord {
                game: <Othello as gamelab_core::Game>::NAME.to_string(),
                index,
                seed,
                first: game.property("PB").unwrap_or("black").to_string(),
                second: game.property("PW").unwrap_or("white").to_string(),
                moves: game.plain_moves().iter().map(ToString::to_string).collect(),
                result,
                forfeit,
            };
            gamelab_core::record::replay::<Othello>(&record).map_err(|error| {
                GgfRecordError::Replay {
                    name,
                    game: number,
                    error,
                }
            })?;
            Ok(record)
        })
        .collect()
}

/// A move as GGF (and NBoard) writes it: `F5`, `PA` for a pass.
pub fn write_move(mv: Move) -> String {
    match mv {
        Move::Place(sq) => sq.to_string().to_ascii_uppercase(),
        Move::Pass => "PA".to_string(),
    }
}

/// A move as GGF (and NBoard) writes it, in either case; `pass` is taken too.
pub fn read_move(text: &str) -> Option<Move> {
    if text.eq_ignore_ascii_case("pa") || text.eq_ignore_ascii_case("pass") {
        Some(Move::Pass)
    } else {
        Square::parse(text).map(Move::Place)
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

/// Reads every game of GGF text.
pub fn parse(text: &str) -> Result<Vec<GgfGame>, GgfError> {
    let mut reader = Reader::new(text);
    let mut games = Vec::new();
    loop {
        reader.skip_space();
        if reader.at_end() {
            return Ok(games);
        }
        games.push(reader.game()?);
    }
}

/// Reads text holding exactly one game.
pub fn parse_one(text: &str) -> Result<GgfGame, GgfError> {
    let mut games = parse(text)?;
    match games.len() {
        1 => Ok(games.remove(0)),
        n => Err(GgfError {
            line: 1,
            column: 1,
            reason: format!("expected one game, found {n}"),
        }),
    }
}

/// A cursor over the text that knows its line and column.
struct Reader {
    chars: Vec<char>,
    at: usize,
}

impl Reader {
    fn new(text: &str) -> Reader {
        Reader {
            chars: text.chars().collect(),
            at: 0,
        }
    }

    fn at_end(&self) -> bool {
        self.at >= self.chars.len()
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    /// An error at character `at`.
    fn error_at(&self, at: usize, reason: String) -> GgfError {
        let before = &self.chars[..at.min(self.chars.len())];
        let line = before.iter().filter(|&&c| c == '\n').count() + 1;
        let column = before.iter().rev().take_while(|&&c| c != '\n').count() + 1;
        GgfError {
            line,
            column,
            reason,
        }
    }

    fn expect(&mut self, text: &str, what: &str) -> Result<(), GgfError> {
        for c in text.chars() {
            if self.peek() != Some(c) {
                let found = self
                    .peek()
                    .map_or("the end of the text".to_string(), |c| format!("`{c}`"));
                return Err(self.error_at(self.at, format!("expected {what}, found {found}")));
            }
            self.at += 1;
        }
        Ok(())
    }

    /// A property's value, after its `[`, up to the unescaped `]`.
    fn value(&mut self) -> Result<String, GgfError> {
        let start = self.at;
        let mut value = String::new();
        loop {
            match self.peek() {
                None => {
                    return Err(self.error_at(start, "this value has no closing `]`".into()));
                }
                Some(']') => {
                    self.at += 1;
                    return Ok(value);
                }
                Some('\\') if self.chars.get(self.at + 1).is_some() => {
                    value.push(self.chars[self.at + 1]);
                    self.at += 2;
                }
                Some(c) => {
                    value.push(c);
                    self.at += 1;
                }
            }
        }
    }

    fn game(&mut self) -> Result<GgfGame, GgfError> {
        let opened = self.at;
        self.expect("(;", "a game starting with `(;`")?;
        let mut properties = Vec::new();
        let mut start: Option<Othello> = None;
        let mut pos: Option<Othello> = None;
        let mut moves = Vec::new();
        loop {
            self.skip_space();
            if self.peek() == Some(';') {
                self.expect(";)", "`;)` ending the game")?;
                break;
            }
            if self.at_end() {
                return Err(self.error_at(opened, "this game has no closing `;)`".into()));
            }
            let name_at = self.at;
            let name: String = self.chars[self.at..]
                .iter()
                .take_while(|c| c.is_ascii_uppercase())
                .collect();
            if name.is_empty() {
                let c = self.peek().unwrap_or(' ');
                return Err(self.error_at(
                    name_at,
                    format!("expected a property name (capital letters) or `;)`, found `{c}`"),
                ));
            }
            self.at += name.len();
            self.expect("[", &format!("`[` after {name}"))?;
            let value_at = self.at;
            let value = self.value()?;
            let bad = |reader: &Reader, reason: String| reader.error_at(value_at, reason);
            match name.as_str() {
                "BO" => {
                    if start.is_some() {
                        return Err(bad(self, "a second board (BO)".into()));
                    }
                    let board = board(&value).map_err(|reason| bad(self, reason))?;
                    start = Some(board.clone());
                    pos = Some(board);
                }
                "B" | "W" => {
                    let Some(pos) = pos.as_mut() else {
                        return Err(bad(self, format!("{name}[{value}] before the board (BO)")));
                    };
                    let (text, note) = match value.split_once('/') {
                        Some((m, note)) => (m, Some(note.to_string())),
                        None => (value.as_str(), None),
                    };
                    let mv = read_move(text).ok_or_else(|| {
                        bad(self, format!("`{text}` is not a square (a1 to h8) or PA"))
                    })?;
                    let black = name == "B";
                    // A pass may be left out: the other side moving next says it.
                    if black != pos.black_to_move() && pos.pass_if_forced(mv) {
                        moves.push(GgfMove {
                            mv: Move::Pass,
                            note: None,
                        });
                    }
                    if black != pos.black_to_move() {
                        let side = if pos.black_to_move() {
                            "black"
                        } else {
                            "white"
                        };
                        return Err(bad(
                            self,
                            format!(
                                "{name}[{value}] but {side} is to move (move {})",
                                moves.len() + 1
                            ),
                        ));
                    }
                    gamelab_core::Game::check_move(pos, mv)
                        .map_err(|e| bad(self, format!("move {} `{mv}`: {e}", moves.len() + 1)))?;
                    pos.play_unchecked(mv);
                    moves.push(GgfMove { mv, note });
                }
                "GM" if !value.eq_ignore_ascii_case("othello") => {
                    return Err(bad(
                        self,
                        format!("GM[{value}]: only Othello games are read"),
                    ));
                }
                "TY" if !matches!(value.trim(), "8" | "") => {
                    return Err(bad(
                        self,
                        format!(
                            "TY[{value}]: only 8×8 Othello with the usual rules (TY[8]) is read, not synchro (s), komi (k), anti (a), random starts (r) or other sizes"
                        ),
                    ));
                }
                _ => properties.push((name, value)),
            }
        }
        let Some(start) = start else {
            return Err(self.error_at(opened, "this game has no board (BO)".into()));
        };
        Ok(GgfGame {
            properties,
            start,
            moves,
        })
    }
}

/// `BO`'s value: the size (8), 64 squares row by row from a1 (`-` empty, `*` black, `O`
/// white; spaces between them allowed), and the side to move.
fn board(value: &str) -> Result<Othello, String> {
    let expected = "expected `8`, 64 squares (`-`, `*`, `O`) and the side to move (`*` or `O`)";
    let mut rest = value.trim_start();
    rest = rest
        .strip_prefix('8')
        .ok_or_else(|| format!("BO[{value}]: {expected}"))?;
    let cells: Vec<char> = rest.chars().filter(|c| !c.is_whitespace()).collect();
    if cells.len() != 65 {
        return Err(format!("BO: {} squares and side, {expected}", cells.len()));
    }
    let mut text: String = cells[..64]
        .iter()
        .map(|&c| match c {
            '*' | 'X' | 'x' | '#' => Ok('X'),
            'O' | 'o' => Ok('O'),
            '-' | '.' => Ok('-'),
            other => Err(format!("BO: `{other}` is not a square; {expected}")),
        })
        .collect::<Result<_, _>>()?;
    text.push(' ');
    text.push(match cells[64] {
        '*' | 'X' | 'x' | '#' => 'X',
        'O' | 'o' => 'O',
        other => return Err(format!("BO: `{other}` is not a side; {expected}")),
    });
    Othello::from_board_string(&text).map_err(|e| format!("BO: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NBOARD: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[Player]PW[Edax]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6//0.01]W[F4];)";

    #[test]
    fn a_game_as_nboard_sends_it() {
        let game = parse_one(NBOARD).unwrap();
        assert_eq!(game.start.board_string(), Othello::new().board_string());
        assert_eq!(
            crate::formats::transcript::write(&game.plain_moves()),
            "f5f6e6f4"
        );
        assert_eq!(game.moves[2].note.as_deref(), Some("/0.01"));
        assert_eq!(game.property("PW"), Some("Edax"));
        assert_eq!(game.result(), None);
        assert_eq!(
            parse_one(&game.write()).unwrap(),
            game,
            "written and read back"
        );
    }

    #[test]
    fn several_games_passes_and_escapes() {
        // The shortest game, then one with a value holding `]` and a left-out pass.
        let mut pos = Othello::new();
        let mut moves = Vec::new();
        while !pos.is_over() {
            let mv = gamelab_core::Game::legal_moves(&pos)[0];
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        assert!(moves.contains(&Move::Pass), "this game has a pass");
        let game = GgfGame::new(
            Othello::new(),
            &moves,
            vec![
                ("PB".into(), "a]b\\c".into()),
                ("RE".into(), "+10.000".into()),
            ],
        )
        .unwrap();
        let text = format!("{}\n{}\n", parse_one(NBOARD).unwrap().write(), game.write());
        let games = parse(&text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1], game);
        assert_eq!(games[1].property("PB"), Some("a]b\\c"));
        assert_eq!(games[1].result(), Some(10.0));
        assert_eq!(games[1].end().discs(), pos.discs());
        // Without its pass, the other side's move says it.
        let no_pass = game.write().replace("B[PA]", "").replace("W[PA]", "");
        assert_eq!(parse_one(&no_pass).unwrap().plain_moves(), moves);
    }

    #[test]
    fn errors_say_where_and_what() {
        let at = |text: &str| {
            let e = parse(text).unwrap_err();
            (e.line, e.column, e.reason)
        };
        let (line, column, reason) = at(
            "(;GM[Othello]\nBO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[A1];)",
        );
        assert_eq!((line, column), (2, 80));
        assert!(reason.contains("move 2 `a1`"), "{reason}");
        let (_, _, reason) = at(
            "(;GM[Othello]TY[s8]BO[8 ---------------------------O*------*O--------------------------- *];)",
        );
        assert!(reason.contains("synchro"), "{reason}");
        let (_, column, reason) = at("(;GM[Othello]PB[x");
        assert_eq!(column, 17);
        assert!(reason.contains("no closing `]`"), "{reason}");
        let (_, _, reason) = at("(;GM[Othello];)");
        assert!(reason.contains("no board"), "{reason}");
        let (_, _, reason) = at("(;BO[8 ---];)");
        assert!(reason.contains("squares"), "{reason}");
        let (_, _, reason) = at("(;B[F5];)");
        assert!(reason.contains("before the board"), "{reason}");
        let (_, column, reason) = at(
            "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]W[F5];)",
        );
        assert_eq!(column, 88);
        assert!(reason.contains("black is to move"), "{reason}");
        let (_, _, reason) = at("hello");
        assert!(
            reason.contains("expected a game starting with `(;`"),
            "{reason}"
        );
        assert!(parse("").unwrap().is_empty());
    }

    fn record(moves: &str, result: &str, forfeit: Option<&str>) -> GameRecord {
        GameRecord {
            game: "othello".into(),
            index: 7,
            seed: 3,
            first: "engine".into(),
            second: "nboard:cmd=(edax)".into(),
            moves: crate::formats::transcript::parse(moves)
                .unwrap()
                .0
                .iter()
                .map(ToString::to_string)
                .collect(),
            result: result.into(),
            forfeit: forfeit.map(String::from),
        }
    }

    #[test]
    fn records_go_to_ggf_and_back() {
        // A whole game, and a game black gave up after four moves (at its turn).
        let mut pos = Othello::new();
        let mut moves = String::new();
        while !pos.is_over() {
            let mv = pos.legal_moves()[0];
            moves += &mv.to_string();
            pos.play_unchecked(mv);
        }
        let moves = moves.replace("pass", "");
        let whole = record(&moves, "white", None);
        let text = write_record(&whole).unwrap();
        assert!(text.contains("PC[gamelab, seed 3, game 7]PB[engine]PW[nboard:cmd=(edax)]"));
        assert_eq!(read_records(&text, "t").unwrap(), vec![whole.clone()]);
        let given_up = record("f5d6c3d3", "white", Some("edax: it ended"));
        let text = write_record(&given_up).unwrap();
        assert!(text.contains("RE[-64:r]"), "{text}");
        let back = read_records(&text, "t").unwrap();
        assert_eq!(back[0].moves, given_up.moves);
        assert_eq!(back[0].result, "white");
        // GGF says that black resigned, not why.
        assert_eq!(back[0].forfeit.as_deref(), Some("black resigned"));
        // Someone else's games: numbered in file order; one cut short without a
        // resignation is refused.
        let theirs = write_record(&whole)
            .unwrap()
            .replace("PC[gamelab, seed 3, game 7]", "");
        let read = read_records(&format!("{theirs}\n{theirs}"), "t").unwrap();
        assert_eq!((read[1].index, read[1].seed), (1, 0));
        let err = read_records(NBOARD, "t").unwrap_err();
        assert!(
            matches!(&err, GgfRecordError::Unfinished { game: 1, .. }),
            "{err}"
        );
        assert!(
            (err.to_string())
                .starts_with("t, game 1 of the file: the moves end before the game does"),
            "{err}"
        );
        let mut other = given_up.clone();
        other.forfeit = None;
        assert_eq!(
            write_record(&other).unwrap_err(),
            GgfRecordError::Unplayable(ReplayError::EndsEarly)
        );
    }
}
