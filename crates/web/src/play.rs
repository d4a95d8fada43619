//! Games played in the browser: one session per game, a line of moves with a cursor.
//!
//! The session keeps the whole line of moves played and a cursor into it. Undo, redo and
//! the replay slider move the cursor; a move at the cursor that differs from the line's
//! next move cuts the line there. AIs move only when asked (`ai_move`), so the page
//! decides the pace and a replayed position never plays on by itself.

use gamelab_core::{Agent, Game, Side, game_rng};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::games::{BoardView, MoveView, WebGame, board_view, move_view, position_after};

/// Who plays a side.
pub enum Seat<G: Game> {
    Human,
    Ai {
        spec: String,
        agent: Box<dyn Agent<G>>,
    },
}

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
    /// The side to move is an AI and the game goes on.
    pub ai_to_move: bool,
}

/// A game session, whatever the game.
pub trait Session: Send {
    fn state(&self, id: &str) -> GameState;
    /// Plays a move typed in the game's notation for the human to move.
    fn play(&mut self, text: &str, ply: Option<usize>) -> Result<(), ApiError>;
    /// Lets the AI to move play.
    fn ai_move(&mut self, ply: Option<usize>) -> Result<(), ApiError>;
    fn undo(&mut self) -> Result<(), ApiError>;
    fn redo(&mut self) -> Result<(), ApiError>;
    /// Shows the position after `ply` moves of the line.
    fn seek(&mut self, ply: usize) -> Result<(), ApiError>;
}

pub struct PlaySession<G: WebGame> {
    game: G,
    line: Vec<G::Move>,
    seats: [Seat<G>; 2],
    seed: u64,
}

/// Builds a side's seat from `human` or an AI spec.
fn seat<G: WebGame>(side: Side, text: &str) -> Result<Seat<G>, ApiError> {
    let text = text.trim();
    if text == "human" {
        return Ok(Seat::Human);
    }
    let agent = G::registry().build(text).map_err(|e| {
        ApiError::bad_request(format!(
            "player for {}: {e} (or `human`)",
            G::side_name(side)
        ))
    })?;
    Ok(Seat::Ai {
        spec: text.to_string(),
        agent,
    })
}

impl<G: WebGame> PlaySession<G> {
    pub fn new(request: &NewGame) -> Result<Self, ApiError> {
        let [first, second] = &request.players;
        let seats = [
            seat::<G>(Side::First, first)?,
            seat::<G>(Side::Second, second)?,
        ];
        let game = position_after::<G>(&request.moves)?;
        Ok(PlaySession {
            line: game.history().to_vec(),
            game,
            seats,
            seed: request.seed,
        })
    }

    fn cursor(&self) -> usize {
        self.game.ply()
    }

    fn check_ply(&self, ply: Option<usize>) -> Result<(), ApiError> {
        match ply {
            Some(p) if p != self.cursor() => Err(ApiError::conflict(format!(
                "the game has moved on: the request was for ply {p}, the game is at ply {}",
                self.cursor()
            ))),
            _ => Ok(()),
        }
    }

    fn check_not_over(&self) -> Result<(), ApiError> {
        match self.game.outcome() {
            Some(o) => Err(ApiError::conflict(format!(
                "the game is over ({}); start a new game or undo",
                G::describe_outcome(o)
            ))),
            None => Ok(()),
        }
    }

    /// Plays `mv` at the cursor, keeping the line if it is the line's next move.
    fn advance(&mut self, mv: G::Move) {
        let at = self.cursor();
        if self.line.get(at) != Some(&mv) {
            self.line.truncate(at);
            self.line.push(mv);
        }
        self.game.play(mv);
    }

    fn human_to_move(&self) -> bool {
        matches!(self.seats[self.game.to_move().index()], Seat::Human)
    }

    fn has_human(&self) -> bool {
        self.seats.iter().any(|s| matches!(s, Seat::Human))
    }
}

impl<G: WebGame> Session for PlaySession<G> {
    fn state(&self, id: &str) -> GameState {
        let mut replay = G::start();
        let moves = self
            .line
            .iter()
            .map(|&mv| {
                let side = G::side_name(replay.to_move());
                replay.play(mv);
                LineMove {
                    mv: move_view::<G>(mv),
                    side,
                }
            })
            .collect();
        GameState {
            id: id.to_string(),
            game: G::NAME,
            seed: self.seed,
            players: Side::BOTH.map(|side| {
                let (kind, spec) = match &self.seats[side.index()] {
                    Seat::Human => ("human", None),
                    Seat::Ai { spec, .. } => ("ai", Some(spec.clone())),
                };
                PlayerView {
                    side: G::side_name(side),
                    kind,
                    spec,
                }
            }),
            board: board_view(&self.game),
            moves,
            cursor: self.cursor(),
            ai_to_move: !self.game.is_over() && !self.human_to_move(),
        }
    }

    fn play(&mut self, text: &str, ply: Option<usize>) -> Result<(), ApiError> {
        self.check_ply(ply)?;
        self.check_not_over()?;
        if let Seat::Ai { spec, .. } = &self.seats[self.game.to_move().index()] {
            return Err(ApiError::conflict(format!(
                "it is {}'s turn, and {spec} plays {}",
                G::side_name(self.game.to_move()),
                G::side_name(self.game.to_move())
            )));
        }
        let mv = self.game.parse_move(text).map_err(|e| {
            ApiError::unprocessable(format!("{e} (moves are typed as {})", G::move_syntax()))
        })?;
        self.advance(mv);
        Ok(())
    }

    fn ai_move(&mut self, ply: Option<usize>) -> Result<(), ApiError> {
        self.check_ply(ply)?;
        self.check_not_over()?;
        let side = self.game.to_move();
        // The stream depends on the ply, so an AI replays the same move after undo/redo.
        let mut rng = game_rng(self.seed, self.cursor() as u64, side);
        let Seat::Ai { agent, .. } = &mut self.seats[side.index()] else {
            return Err(ApiError::conflict(format!(
                "{} is played by a human: send a move instead",
                G::side_name(side)
            )));
        };
        let mv = agent.choose(&self.game, &mut rng);
        self.advance(mv);
        Ok(())
    }

    fn undo(&mut self) -> Result<(), ApiError> {
        if self.cursor() == 0 {
            return Err(ApiError::conflict("nothing to undo: this is the start"));
        }
        self.game.undo();
        // Against an AI, go back to the human's turn: the AI would only replay its move.
        while self.has_human() && !self.human_to_move() && self.cursor() > 0 {
            self.game.undo();
        }
        Ok(())
    }

    fn redo(&mut self) -> Result<(), ApiError> {
        if self.cursor() == self.line.len() {
            return Err(ApiError::conflict(
                "nothing to redo: this is the last move played",
            ));
        }
        self.game.play(self.line[self.cursor()]);
        while self.has_human() && !self.human_to_move() && self.cursor() < self.line.len() {
            self.game.play(self.line[self.cursor()]);
        }
        Ok(())
    }

    fn seek(&mut self, ply: usize) -> Result<(), ApiError> {
        if ply > self.line.len() {
            return Err(ApiError::bad_request(format!(
                "ply {ply} is past the end of the game; it has {} moves",
                self.line.len()
            )));
        }
        while self.cursor() > ply {
            self.game.undo();
        }
        while self.cursor() < ply {
            self.game.play(self.line[self.cursor()]);
        }
        Ok(())
    }
}
