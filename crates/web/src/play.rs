//! Games played in the browser: gamelab-core's play session (the one `gamelab play` uses),
//! one per game, seen through the page's views. AIs move only when asked (`ai_move`), so
//! the page decides the pace and a replayed position never plays on by itself.

use gamelab_core::clock::{TimeControl, TimeSource};
use gamelab_core::session::{ClockReading, PlaySession, Seat, SessionError};
use gamelab_core::{Described, FileAccess, GameHeaders, Side, StopFlag};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::games::{BoardView, MoveView, OutcomeView, board_view, move_view};

/// What creates a game: `players` are `human` or AI specs, first side first.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub game: String,
    pub players: [String; 2],
    #[serde(default)]
    pub seed: u64,
    /// Moves to play from the start (e.g. a game from a run, to replay it).
    #[serde(default)]
    pub moves: Vec<String>,
    /// A game record pasted by a person, played from the start after `moves`: its moves
    /// in the game's notation, separated by spaces (`1,1 0,0`) or, where the game writes
    /// them so, run together (Othello's transcripts, `f5d6c3`); forced moves (passes) may
    /// be left out.
    pub record: Option<String>,
    /// A position set up square by square (the page's position editor) to start from
    /// instead of the game's start; `moves` and `record` are played from it.
    pub position: Option<SetUp>,
    /// A game clock for each side, as `gamelab match --clock` takes it (`300`, `300+5`,
    /// `300/30/5`), running from the position after `moves` and `record`.
    pub clock: Option<String>,
    /// The players' names, the event and the date (a game opened from a database); a
    /// pasted record in the game's own format (GGF) brings its own when this is absent.
    pub headers: Option<GameHeaders>,
}

/// A position as the position editor makes it: the side on each square, row by row
/// (`null` for an empty one), and the side to move.
#[derive(Deserialize, Serialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct SetUp {
    pub cells: Vec<Option<String>>,
    pub to_move: String,
}

/// Reads a side by the game's name for it.
fn side_named<G: Described>(name: &str, what: &str) -> Result<Side, ApiError> {
    Side::BOTH
        .into_iter()
        .find(|&s| G::side_name(s) == name)
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "position: {what} `{name}` is not {} or {}",
                G::side_name(Side::First),
                G::side_name(Side::Second)
            ))
        })
}

fn set_up<G: Described>(setup: &SetUp) -> Result<G, ApiError> {
    if !G::CAN_SET_UP {
        return Err(ApiError::bad_request(format!(
            "position: {} cannot be set up square by square",
            G::TITLE
        )));
    }
    let squares = G::GRID.0 * G::GRID.1;
    if setup.cells.len() != squares {
        return Err(ApiError::bad_request(format!(
            "position: {} squares, expected {squares}",
            setup.cells.len()
        )));
    }
    let cells = setup
        .cells
        .iter()
        .enumerate()
        .map(|(i, c)| {
            c.as_deref()
                .map(|name| side_named::<G>(name, &format!("square {}", G::square_name(i))))
                .transpose()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let to_move = side_named::<G>(&setup.to_move, "the side to move")?;
    G::from_cells(&cells, to_move).map_err(|e| ApiError::bad_request(format!("position: {e}")))
}

#[derive(Serialize, Debug)]
pub struct PlayerView {
    pub side: &'static str,
    /// `human` or `ai`.
    pub kind: &'static str,
    /// The AI spec, for an AI.
    pub spec: Option<String>,
}

#[derive(Serialize, Debug)]
pub struct LineMove {
    #[serde(flatten)]
    pub mv: MoveView,
    pub side: &'static str,
    /// What the AI's search did to choose this move, for AIs that say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<SearchView>,
}

/// An AI's search for a move: how deep, how many positions, and the line it expects.
#[derive(Serialize, Debug)]
pub struct SearchView {
    pub depth: u32,
    pub nodes: u64,
    /// The value is exact: the search reached the end of the game.
    pub exact: bool,
    /// The principal variation, in the game's notation, the move itself first.
    pub pv: Vec<String>,
    /// The move came from the AI's opening book: the games that reached the position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub book_games: Option<u64>,
}

/// A game as the page sees it.
#[derive(Serialize, Debug)]
pub struct GameState {
    pub id: String,
    pub game: &'static str,
    pub seed: u64,
    pub players: [PlayerView; 2],
    pub board: BoardView,
    /// The whole line of moves, including those after the cursor (to redo).
    pub moves: Vec<LineMove>,
    /// Moves played to reach the shown position.
    pub cursor: usize,
    /// Undo has a move to take back (not at the start, nor when only an AI's opening
    /// moves come before the human's first turn).
    pub can_undo: bool,
    /// The side to move is an AI and the game goes on.
    pub ai_to_move: bool,
    /// The whole line as text to copy: its moves as people write them, and the game in the
    /// game's own format when it has one.
    pub record: RecordView,
    /// The position the game was set up from, when it was not the game's start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<SetUp>,
    /// The clocks, for a game played on one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
    /// The players' names, event and date, when the game came with them.
    #[serde(skip_serializing_if = "GameHeaders::is_empty")]
    pub headers: GameHeaders,
    /// The named opening the moves up to the position shown reached (Othello's), for a
    /// game from the start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening: Option<&'static str>,
}

/// A game's clocks as they read when the state was made.
#[derive(Serialize, Debug)]
pub struct ClockView {
    /// The time control as written (`300+5`) and in words.
    pub control: String,
    pub description: String,
    /// Seconds left for each side, first side first; the running clock as it read now.
    pub left: [f64; 2],
    /// Moves still to play in the byo-yomi period (0 in main time), first side first.
    pub stones: [u32; 2],
    /// The side whose clock runs (the page counts it down): the side to move while the
    /// game goes on. An AI's is charged only while it thinks.
    pub running: Option<&'static str>,
    /// The side whose time ran out in the position shown: it lost.
    pub flag: Option<&'static str>,
}

fn clock_view<G: Described>(reading: ClockReading) -> ClockView {
    ClockView {
        control: reading.control.to_string(),
        description: reading.control.describe(),
        left: reading.left.map(|(left, _)| left.as_secs_f64()),
        stones: reading.left.map(|(_, stones)| stones),
        running: reading.running.map(G::side_name),
        flag: reading.flag.map(|f| G::side_name(f.side)),
    }
}

/// A game written out for the page's copy and download.
#[derive(Serialize, Debug)]
pub struct RecordView {
    /// The moves in the game's notation (Othello's transcript), as pasting reads them.
    pub moves: String,
    /// The file extension of the game's own format (`ggf`), when it has one.
    pub format: Option<&'static str>,
    /// The game in that format (not for a game set up square by square: the format's
    /// games start from the start).
    pub native: Option<String>,
}

/// A game session, whatever the game.
pub trait Session: Send {
    /// The state now (on a clock, a person's flag that fell while waiting is found here).
    fn state(&mut self, id: &str) -> GameState;
    /// Plays a move typed in the game's notation for the human to move.
    fn play(&mut self, text: &str, ply: Option<usize>) -> Result<(), ApiError>;
    /// Lets the AI to move play, unless `stop` is set before it has chosen.
    fn ai_move(&mut self, ply: Option<usize>, stop: &StopFlag) -> Result<(), ApiError>;
    fn undo(&mut self) -> Result<(), ApiError>;
    fn redo(&mut self) -> Result<(), ApiError>;
    /// Shows the position after `ply` moves of the line.
    fn seek(&mut self, ply: usize) -> Result<(), ApiError>;
}

/// The play session of gamelab-core, with the page's views, the position it was set up
/// from when it was, and what the game's record said of it.
pub struct WebSession<G: Described>(PlaySession<G>, Option<SetUp>, GameHeaders);

/// The HTTP status of a refused request: a move the rules refuse is 422, a ply past the
/// end 400, anything that does not fit the game's state 409.
fn api_error<G: Described>(e: SessionError) -> ApiError {
    match e {
        SessionError::IllegalMove(reason) => ApiError::unprocessable(format!(
            "{reason} (moves are typed as {})",
            G::move_syntax()
        )),
        SessionError::PastEnd { .. } => ApiError::bad_request(e.to_string()),
        _ => ApiError::conflict(e.to_string()),
    }
}

/// A move that came too late ends the game on time, which the state shows: the request
/// did what the clock allowed.
fn on_time<T>(result: Result<T, SessionError>) -> Result<(), SessionError> {
    match result {
        Ok(_) | Err(SessionError::OutOfTime(_)) => Ok(()),
        Err(e) => Err(e),
    }
}

impl<G: Described> WebSession<G> {
    pub fn new(request: &NewGame, files: &FileAccess, time: TimeSource) -> Result<Self, ApiError> {
        let registry = G::registry();
        let mut seats = Vec::with_capacity(2);
        for (side, text) in Side::BOTH.into_iter().zip(&request.players) {
            seats.push(Seat::from_spec(text, &registry, files).map_err(|e| {
                ApiError::bad_request(format!(
                    "player for {}: {e} (or `human`)",
                    G::side_name(side)
                ))
            })?);
        }
        let seats: [Seat<G>; 2] = seats
            .try_into()
            .unwrap_or_else(|_| unreachable!("two sides"));
        let start = match &request.position {
            Some(setup) => set_up::<G>(setup)?,
            None => G::start(),
        };
        let clock = match &request.clock {
            Some(text) => text
                .parse::<TimeControl>()
                // The message names the clock already.
                .map_err(|e| ApiError::bad_request(e.to_string()))?,
            None => TimeControl::Unlimited,
        };
        let mut session = PlaySession::new(start, seats, request.seed);
        for (i, text) in request.moves.iter().enumerate() {
            session.play_any(text).map_err(|e| {
                ApiError::bad_request(format!("move {} (`{text}`) of `moves`: {e}", i + 1))
            })?;
        }
        if let Some(record) = &request.record {
            for (i, text) in G::move_texts(record).iter().enumerate() {
                // A forced move left out of the record (a pass) is filled in.
                let bad = |e: &dyn std::fmt::Display| {
                    ApiError::bad_request(format!("record, move {} (`{text}`): {e}", i + 1))
                };
                let mut game = session.game().clone();
                let moves =
                    gamelab_core::record::play_record_move(&mut game, text).map_err(|e| bad(&e))?;
                for mv in moves {
                    session.play_any(&mv.to_string()).map_err(|e| bad(&e))?;
                }
            }
        }
        session.set_time_source(time);
        session.set_clock(clock);
        let headers = match &request.headers {
            Some(headers) => headers.clone(),
            None => request
                .record
                .as_deref()
                .and_then(G::read_headers)
                .unwrap_or_default(),
        };
        headers
            .check()
            .map_err(|e| ApiError::bad_request(format!("headers: {e}")))?;
        Ok(WebSession(session, request.position.clone(), headers))
    }

    fn check_ply(&self, ply: Option<usize>) -> Result<(), ApiError> {
        match ply {
            Some(p) if p != self.0.cursor() => Err(ApiError::conflict(format!(
                "the game has moved on: the request was for ply {p}, the game is at ply {}",
                self.0.cursor()
            ))),
            _ => Ok(()),
        }
    }
}

impl<G: Described> Session for WebSession<G> {
    fn state(&mut self, id: &str) -> GameState {
        let clock = self.0.clock_reading();
        let flag = clock.as_ref().and_then(|c| c.flag.clone());
        let session = &self.0;
        let mut board = board_view(session.game());
        if let Some(flag) = &flag {
            let winner = flag.side.opponent();
            board.outcome = Some(OutcomeView {
                winner: Some(G::side_name(winner)),
                text: format!("{} wins on time: {}", G::side_name(winner), flag.reason),
            });
            board.legal.clear();
        }
        let moves = session
            .line()
            .iter()
            .zip(session.movers())
            .enumerate()
            .map(|(ply, (&mv, side))| LineMove {
                mv: move_view::<G>(mv),
                side: G::side_name(side),
                search: session.search(ply).map(|s| SearchView {
                    depth: s.depth,
                    nodes: s.nodes,
                    exact: s.exact,
                    pv: s.pv.iter().map(|&m| G::write_move(m)).collect(),
                    book_games: s.book_games,
                }),
            })
            .collect();
        GameState {
            id: id.to_string(),
            game: G::NAME,
            seed: session.seed(),
            players: Side::BOTH.map(|side| {
                let seat = &session.seats()[side.index()];
                PlayerView {
                    side: G::side_name(side),
                    kind: if seat.is_human() { "human" } else { "ai" },
                    spec: seat.spec().map(str::to_string),
                }
            }),
            board,
            moves,
            cursor: session.cursor(),
            can_undo: session.can_undo(),
            ai_to_move: session.ai_to_move() && flag.is_none(),
            record: {
                // A player's name, else the seat's AI spec, else `human`.
                let players = Side::BOTH.map(|side| {
                    let spec = session.seats()[side.index()].spec().unwrap_or("human");
                    Some(self.2.player_or(side.index(), spec).to_string())
                });
                let headers = GameHeaders {
                    players,
                    ..self.2.clone()
                };
                RecordView {
                    moves: G::write_moves(session.line()),
                    format: G::RECORD_EXTENSION,
                    native: self
                        .1
                        .is_none()
                        .then(|| G::write_game(session.line(), &headers))
                        .flatten(),
                }
            },
            position: self.1.clone(),
            clock: clock.map(clock_view::<G>),
            headers: self.2.clone(),
            opening: self
                .1
                .is_none()
                .then(|| G::opening_name(&session.line()[..session.cursor()]))
                .flatten(),
        }
    }

    fn play(&mut self, text: &str, ply: Option<usize>) -> Result<(), ApiError> {
        self.check_ply(ply)?;
        on_time(self.0.play_text(text)).map_err(api_error::<G>)
    }

    fn ai_move(&mut self, ply: Option<usize>, stop: &StopFlag) -> Result<(), ApiError> {
        self.check_ply(ply)?;
        on_time(self.0.ai_move_until(Some(stop))).map_err(api_error::<G>)
    }

    fn undo(&mut self) -> Result<(), ApiError> {
        self.0.undo().map_err(api_error::<G>)
    }

    fn redo(&mut self) -> Result<(), ApiError> {
        self.0.redo().map_err(api_error::<G>)
    }

    fn seek(&mut self, ply: usize) -> Result<(), ApiError> {
        self.0.seek(ply).map_err(api_error::<G>)
    }
}
