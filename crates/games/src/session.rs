//! A game played move by move, whatever the game: core's play session (an AI moves only
//! when asked, so a front end decides the pace) behind one game-erased [`AnySession`],
//! with the views a page draws of it. The web app's games and `gamelab play` are sessions
//! started here.
//!
//! ```
//! use gamelab_core::FileAccess;
//! use gamelab_games::session::{SessionStart, start_session};
//!
//! let mut start = SessionStart::new("ttt", ["human", "ai14s"]);
//! start.moves = vec!["1,1".into()];
//! let mut session = start_session(&start, &FileAccess::Any).unwrap();
//! let reply = session.ai_move(None).unwrap();
//! let state = session.state("g1");
//! assert_eq!(state.moves.len(), 2);
//! assert_eq!(state.moves[1].mv.text, reply);
//! assert_eq!(state.players[1].spec.as_deref(), Some("ai14s"));
//! ```

use gamelab_core::clock::{TimeControl, TimeSource};
use gamelab_core::session::{ClockReading, Flag, PlaySession, Seat, SessionError};
use gamelab_core::{Described, FileAccess, GameHeaders, GameVisitor, Side, SpecError, StopFlag};
use serde::{Deserialize, Serialize};

use crate::CatalogueError;
use crate::views::{BoardView, MoveView, OutcomeView, board_view, move_view};

/// A position as a position editor makes it: the side on each square, row by row (`null`
/// for an empty one), and the side to move.
#[derive(Deserialize, Serialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct SetUp {
    pub cells: Vec<Option<String>>,
    pub to_move: String,
}

/// Where a session starts.
#[derive(Clone, Debug, Default)]
pub enum StartFrom {
    /// The game's start.
    #[default]
    Start,
    /// A position in the game's notation (`gamelab games` lists each game's).
    Text(String),
    /// A position set up square by square.
    SetUp(SetUp),
}

/// What starts a session ([`start_session`]).
#[derive(Clone, Debug)]
pub struct SessionStart {
    pub game: String,
    /// The game's board structure; its default when `None`.
    pub board: Option<String>,
    /// `human` or an AI spec for each side, first side first.
    pub players: [String; 2],
    /// The seed of the AIs' random streams: the same seed gives the same game.
    pub seed: u64,
    pub from: StartFrom,
    /// Moves to play first, in the game's notation.
    pub moves: Vec<String>,
    /// A game record, played after `moves`: its moves separated by spaces (`1,1 0,0`) or,
    /// where the game writes them so, run together (Othello's `f5d6c3`); forced moves
    /// (passes) may be left out.
    pub record: Option<String>,
    /// The clock of each side, running from the position after `moves` and `record`.
    pub clock: TimeControl,
    /// The players' names, the event and the date; a record in the game's own format
    /// (GGF) brings its own when this is `None`.
    pub headers: Option<GameHeaders>,
}

impl SessionStart {
    /// A game of `game` from its start between `players`, seed 0, off the clock.
    pub fn new(game: &str, players: [&str; 2]) -> SessionStart {
        SessionStart {
            game: game.to_string(),
            board: None,
            players: players.map(String::from),
            seed: 0,
            from: StartFrom::Start,
            moves: Vec::new(),
            record: None,
            clock: TimeControl::Unlimited,
            headers: None,
        }
    }
}

/// Why a session could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Game(#[from] CatalogueError),
    /// A player is neither `human` nor an AI of the game.
    #[error("player for {side}: {source} (or `human`)")]
    Player {
        side: &'static str,
        spec: String,
        #[source]
        source: Box<SpecError>,
    },
    /// The position, a move, the record or the headers cannot be used; the message says
    /// which and why.
    #[error("{0}")]
    Invalid(String),
}

/// A player as a page shows it.
#[derive(Serialize, Debug)]
pub struct PlayerView {
    pub side: &'static str,
    /// `human` or `ai`.
    pub kind: &'static str,
    /// The AI spec, for an AI.
    pub spec: Option<String>,
}

/// A move of the line, with who played it.
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

/// A game as a page sees it.
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

/// A game written out to copy and download.
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

/// A game in play, whatever the game. Moves are text in the game's notation.
pub trait AnySession: Send {
    /// The state now, under the name `id` (on a clock, a person's flag that fell while
    /// waiting is found here).
    fn state(&mut self, id: &str) -> GameState;
    /// Plays a move typed in the game's notation for the human to move; the move as the
    /// game writes it.
    fn play(&mut self, text: &str) -> Result<String, SessionError>;
    /// Lets the AI to move play, unless `stop` is raised before it has chosen; its move.
    fn ai_move(&mut self, stop: Option<&StopFlag>) -> Result<String, SessionError>;
    fn undo(&mut self) -> Result<(), SessionError>;
    fn redo(&mut self) -> Result<(), SessionError>;
    /// Shows the position after `ply` moves of the line.
    fn seek(&mut self, ply: usize) -> Result<(), SessionError>;
    /// Moves played to reach the position shown.
    fn cursor(&self) -> usize;
    /// The position shown, in the game's text form.
    fn text(&self) -> String;
    /// The game's outcome in the position shown, in words (`o wins`), once it is over.
    fn outcome(&self) -> Option<String>;
    /// The side whose time ran out, if one did: it lost.
    fn flag(&mut self) -> Option<Flag>;
    /// The clocks, for a game on one.
    fn clock_reading(&mut self) -> Option<ClockReading>;
    fn to_move(&self) -> Side;
    fn side_name(&self, side: Side) -> &'static str;
    /// The AI spec of the side, `None` for a human.
    fn spec(&self, side: Side) -> Option<String>;
    /// A short hint of how moves are typed here (`x,y`, `d3 or pass`).
    fn move_hint(&self) -> String;
    /// How the game's moves are typed, in words.
    fn move_syntax(&self) -> &'static str;
}

/// Starts the session `start` asks for, AIs reading only the files `files` allows, on
/// the system clock.
pub fn start_session(
    start: &SessionStart,
    files: &FileAccess,
) -> Result<Box<dyn AnySession>, StartError> {
    start_session_timed(start, files, TimeSource::system())
}

/// [`start_session`] on the clock `time` (a test's, to step by hand).
pub fn start_session_timed(
    start: &SessionStart,
    files: &FileAccess,
    time: TimeSource,
) -> Result<Box<dyn AnySession>, StartError> {
    struct Start<'a>(&'a SessionStart, &'a FileAccess, TimeSource);
    impl GameVisitor for Start<'_> {
        type Output = Result<Box<dyn AnySession>, StartError>;
        fn visit<G: Described>(self) -> Self::Output {
            Ok(Box::new(ErasedSession::<G>::new(self.0, self.1, self.2)?))
        }
    }
    let board = crate::board(&start.game, start.board.as_deref())?;
    crate::visit(&start.game, Some(board), Start(start, files, time))?
}

/// A session a caller set up itself (its own agents, say a test's), behind the door;
/// `from_start` when its line starts at the game's start (the record and the opening's
/// name then apply).
pub fn erase<G: Described>(session: PlaySession<G>, from_start: bool) -> Box<dyn AnySession> {
    Box::new(ErasedSession {
        session,
        set_up: None,
        from_start,
        headers: GameHeaders::default(),
    })
}

fn invalid(message: String) -> StartError {
    StartError::Invalid(message)
}

/// Reads a side by the game's name for it.
fn side_named<G: Described>(name: &str, what: &str) -> Result<Side, StartError> {
    Side::BOTH
        .into_iter()
        .find(|&s| G::side_name(s) == name)
        .ok_or_else(|| {
            invalid(format!(
                "position: {what} `{name}` is not {} or {}",
                G::side_name(Side::First),
                G::side_name(Side::Second)
            ))
        })
}

fn set_up<G: Described>(setup: &SetUp) -> Result<G, StartError> {
    if !G::CAN_SET_UP {
        return Err(invalid(format!(
            "position: {} cannot be set up square by square",
            G::TITLE
        )));
    }
    let squares = G::GRID.0 * G::GRID.1;
    if setup.cells.len() != squares {
        return Err(invalid(format!(
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
    G::from_cells(&cells, to_move).map_err(|e| invalid(format!("position: {e}")))
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

/// Core's play session, the position it was set up from when it was, and what the
/// game's record said of it.
struct ErasedSession<G: Described> {
    session: PlaySession<G>,
    set_up: Option<SetUp>,
    /// From the game's start (not a position given): its line is a whole game's.
    from_start: bool,
    headers: GameHeaders,
}

impl<G: Described> ErasedSession<G> {
    fn new(start: &SessionStart, files: &FileAccess, time: TimeSource) -> Result<Self, StartError> {
        let registry = G::registry();
        let seat = |side: Side| {
            let spec = &start.players[side.index()];
            Seat::from_spec(spec, &registry, files).map_err(|source| StartError::Player {
                side: G::side_name(side),
                spec: spec.trim().to_string(),
                source: Box::new(source),
            })
        };
        let seats = [seat(Side::First)?, seat(Side::Second)?];
        let (position, set_up_from) = match &start.from {
            StartFrom::Start => (G::start(), None),
            StartFrom::Text(text) => {
                let position = G::parse_position(text).map_err(|e| {
                    invalid(format!(
                        "cannot start from `{text}`: {e}; positions are {}",
                        G::position_syntax()
                    ))
                })?;
                (position, None)
            }
            StartFrom::SetUp(setup) => (set_up::<G>(setup)?, Some(setup.clone())),
        };
        let mut session = PlaySession::new(position, seats, start.seed);
        for (i, text) in start.moves.iter().enumerate() {
            session
                .play_any(text)
                .map_err(|e| invalid(format!("move {} (`{text}`) of `moves`: {e}", i + 1)))?;
        }
        if let Some(record) = &start.record {
            for (i, text) in G::move_texts(record).iter().enumerate() {
                // A forced move left out of the record (a pass) is filled in.
                let bad = |e: &dyn std::fmt::Display| {
                    invalid(format!("record, move {} (`{text}`): {e}", i + 1))
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
        session.set_clock(start.clock);
        let headers = match &start.headers {
            Some(headers) => headers.clone(),
            None => (start.record.as_deref())
                .and_then(G::read_headers)
                .unwrap_or_default(),
        };
        (headers.check()).map_err(|e| invalid(format!("headers: {e}")))?;
        Ok(ErasedSession {
            session,
            set_up: set_up_from,
            from_start: matches!(start.from, StartFrom::Start),
            headers,
        })
    }
}

impl<G: Described> AnySession for ErasedSession<G> {
    fn state(&mut self, id: &str) -> GameState {
        let clock = self.session.clock_reading();
        let flag = clock.as_ref().and_then(|c| c.flag.clone());
        let session = &self.session;
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
        let from_start = self.from_start;
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
                    Some(self.headers.player_or(side.index(), spec).to_string())
                });
                let headers = GameHeaders {
                    players,
                    ..self.headers.clone()
                };
                RecordView {
                    moves: G::write_moves(session.line()),
                    format: G::RECORD_EXTENSION,
                    native: from_start
                        .then(|| G::write_game(session.line(), &headers))
                        .flatten(),
                }
            },
            position: self.set_up.clone(),
            clock: clock.map(clock_view::<G>),
            headers: self.headers.clone(),
            opening: from_start
                .then(|| G::opening_name(&session.line()[..session.cursor()]))
                .flatten(),
        }
    }

    fn play(&mut self, text: &str) -> Result<String, SessionError> {
        let mv = self.session.play_text(text)?;
        Ok(G::write_move(mv))
    }

    fn ai_move(&mut self, stop: Option<&StopFlag>) -> Result<String, SessionError> {
        let mv = self.session.ai_move_until(stop)?;
        Ok(G::write_move(mv))
    }

    fn undo(&mut self) -> Result<(), SessionError> {
        self.session.undo()
    }

    fn redo(&mut self) -> Result<(), SessionError> {
        self.session.redo()
    }

    fn seek(&mut self, ply: usize) -> Result<(), SessionError> {
        self.session.seek(ply)
    }

    fn cursor(&self) -> usize {
        self.session.cursor()
    }

    fn text(&self) -> String {
        self.session.game().to_string()
    }

    fn outcome(&self) -> Option<String> {
        (self.session.game().outcome()).map(G::describe_outcome)
    }

    fn flag(&mut self) -> Option<Flag> {
        self.session.flag()
    }

    fn clock_reading(&mut self) -> Option<ClockReading> {
        self.session.clock_reading()
    }

    fn to_move(&self) -> Side {
        self.session.game().to_move()
    }

    fn side_name(&self, side: Side) -> &'static str {
        G::side_name(side)
    }

    fn spec(&self, side: Side) -> Option<String> {
        self.session.seats()[side.index()]
            .spec()
            .map(str::to_string)
    }

    fn move_hint(&self) -> String {
        self.session.game().move_hint()
    }

    fn move_syntax(&self) -> &'static str {
        G::move_syntax()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_starts_where_it_is_asked_and_says_what_it_cannot_use() {
        let files = FileAccess::Any;
        let mut start = SessionStart::new("othello", ["human", "engine:level=1"]);
        start.record = Some("f5d6c3".into());
        let mut from_start = start_session(&start, &files).unwrap();
        let state = from_start.state("a");
        assert_eq!((state.cursor, state.record.moves.as_str()), (3, "f5d6c3"));
        assert!(state.record.native.is_some(), "a whole game has its GGF");

        let mut elsewhere = start.clone();
        elsewhere.record = None;
        elsewhere.from = StartFrom::Text("f5d6c3".into());
        let mut session = start_session(&elsewhere, &files).unwrap();
        // The same discs (the position read from text has no last move to mark).
        let board = |text: String| {
            text.to_uppercase()
                .lines()
                .take(9)
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(board(session.text()), board(from_start.text()));
        let state = session.state("b");
        assert!(state.record.native.is_none(), "not a game from the start");
        assert!(state.ai_to_move);
        let reply = session.ai_move(None).unwrap();
        assert_eq!(session.state("b").moves[0].mv.text, reply);

        let mut bad = start.clone();
        bad.players[1] = "nosuchai".into();
        let err = start_session(&bad, &files).err().unwrap();
        assert!(
            matches!(&err, StartError::Player { side: "white", .. }),
            "{err}"
        );
        assert!(err.to_string().starts_with("player for white: "), "{err}");
        let mut bad = start.clone();
        bad.from = StartFrom::Text("not a board".into());
        let err = start_session(&bad, &files).err().unwrap().to_string();
        assert!(
            err.starts_with("cannot start from `not a board`: "),
            "{err}"
        );
        let mut bad = start;
        bad.record = Some("f5f5".into());
        let err = start_session(&bad, &files).err().unwrap().to_string();
        assert!(err.starts_with("record, move 2 (`f5`): "), "{err}");
    }
}
