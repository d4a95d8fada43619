//! Games played in the browser: the door's play session (the one `gamelab play` uses),
//! one per game, seen through the page's views. AIs move only when asked (`ai_move`), so
//! the page decides the pace and a replayed position never plays on by itself.

use gamelab_core::clock::{TimeControl, TimeSource};
use gamelab_core::session::SessionError;
use gamelab_core::{FileAccess, GameHeaders, StopFlag};
use gamelab_games::session::{AnySession, SessionStart, StartFrom};
use serde::Deserialize;

use crate::error::ApiError;

pub use gamelab_games::session::{GameState, SetUp};

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

/// A game the page plays: the door's session, and the checks of the page's requests.
pub struct WebSession(Box<dyn AnySession>);

/// The HTTP status of a refused request: a move the rules refuse is 422, a ply past the
/// end 400, anything that does not fit the game's state 409.
fn api_error(session: &dyn AnySession, e: SessionError) -> ApiError {
    match e {
        SessionError::IllegalMove(reason) => ApiError::unprocessable(format!(
            "{reason} (moves are typed as {})",
            session.move_syntax()
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

impl WebSession {
    pub fn new(request: NewGame, files: &FileAccess, time: TimeSource) -> Result<Self, ApiError> {
        let clock = match &request.clock {
            Some(text) => text
                .parse::<TimeControl>()
                // The message names the clock already.
                .map_err(|e| ApiError::bad_request(e.to_string()))?,
            None => TimeControl::Unlimited,
        };
        let start = SessionStart {
            game: request.game,
            board: None,
            players: request.players,
            seed: request.seed,
            from: request.position.map_or(StartFrom::Start, StartFrom::SetUp),
            moves: request.moves,
            record: request.record,
            clock,
            headers: request.headers,
        };
        let session = gamelab_games::session::start_session_timed(&start, files, time)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(WebSession(session))
    }

    /// The state now, under the name `id`.
    pub fn state(&mut self, id: &str) -> GameState {
        self.0.state(id)
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

    fn refused(&self, result: Result<(), SessionError>) -> Result<(), ApiError> {
        result.map_err(|e| api_error(&*self.0, e))
    }

    /// Plays a move typed in the game's notation for the human to move.
    pub fn play(&mut self, text: &str, ply: Option<usize>) -> Result<(), ApiError> {
        self.check_ply(ply)?;
        let played = on_time(self.0.play(text));
        self.refused(played)
    }

    /// Lets the AI to move play, unless `stop` is set before it has chosen.
    pub fn ai_move(&mut self, ply: Option<usize>, stop: &StopFlag) -> Result<(), ApiError> {
        self.check_ply(ply)?;
        let played = on_time(self.0.ai_move(Some(stop)));
        self.refused(played)
    }

    pub fn undo(&mut self) -> Result<(), ApiError> {
        let done = self.0.undo();
        self.refused(done)
    }

    pub fn redo(&mut self) -> Result<(), ApiError> {
        let done = self.0.redo();
        self.refused(done)
    }

    /// Shows the position after `ply` moves of the line.
    pub fn seek(&mut self, ply: usize) -> Result<(), ApiError> {
        let done = self.0.seek(ply);
        self.refused(done)
    }
}
