//! A game being played by people and AIs: the whole line of moves with a cursor into it,
//! the seats, undo and redo, and the AIs' random streams. The terminal (`gamelab play`) and
//! the web app's Play view both drive this one session, so the same seed gives the same
//! game in both.
//!
//! Undo, redo and seek move the cursor; a move at the cursor that differs from the line's
//! next move cuts the line there. The AI to move draws from the stream `(seed, ply, side)`,
//! so it replays the same move after undo and redo.

use crate::{
    Agent, FileAccess, Game, Notation, Registry, SearchStats, Side, SpecError, StopFlag, game_rng,
};

/// Who plays a side.
pub enum Seat<G: Game> {
    Human,
    Ai {
        spec: String,
        agent: Box<dyn Agent<G>>,
    },
}

impl<G: Game> Seat<G> {
    /// `human`, or an AI spec built by `registry`, reading files under `files`.
    pub fn from_spec(
        text: &str,
        registry: &Registry<G>,
        files: &FileAccess,
    ) -> Result<Seat<G>, SpecError> {
        let text = text.trim();
        if text == "human" {
            return Ok(Seat::Human);
        }
        Ok(Seat::Ai {
            spec: text.to_string(),
            agent: registry.build_with(text, files)?,
        })
    }

    pub fn is_human(&self) -> bool {
        matches!(self, Seat::Human)
    }

    /// The AI's spec; `None` for a human.
    pub fn spec(&self) -> Option<&str> {
        match self {
            Seat::Human => None,
            Seat::Ai { spec, .. } => Some(spec),
        }
    }
}

/// Why a session refused a request; the session is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("the game is over ({0}); start a new game or undo")]
    Over(String),
    #[error("it is {side}'s turn, and {spec} plays {side}")]
    AiToMove { side: &'static str, spec: String },
    #[error("{0} is played by a human: send a move instead")]
    HumanToMove(&'static str),
    #[error("nothing to undo: this is the start")]
    NothingToUndo,
    #[error("nothing to redo: this is the last move played")]
    NothingToRedo,
    #[error("ply {ply} is past the end of the game; it has {len} moves")]
    PastEnd { ply: usize, len: usize },
    #[error("{0}")]
    IllegalMove(String),
    #[error("the AI's move was stopped before it was found; the game is as it was")]
    Stopped,
    #[error("{spec} gave up instead of moving: {reason}; the game is as it was")]
    Forfeit { spec: String, reason: String },
}

/// One game in play.
pub struct PlaySession<G: Game> {
    game: G,
    /// Every move played from the start position, also those after the cursor (to redo).
    line: Vec<G::Move>,
    /// What the AI's search did for each move of the line an AI chose, when it says.
    searches: Vec<Option<SearchStats<G::Move>>>,
    /// Moves of the line on the board.
    cursor: usize,
    seats: [Seat<G>; 2],
    seed: u64,
}

impl<G: Notation> PlaySession<G> {
    /// A session from `start` (whose own history, if any, is not part of the line).
    pub fn new(start: G, seats: [Seat<G>; 2], seed: u64) -> Self {
        PlaySession {
            game: start,
            line: Vec::new(),
            searches: Vec::new(),
            cursor: 0,
            seats,
            seed,
        }
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    pub fn line(&self) -> &[G::Move] {
        &self.line
    }

    /// What the AI's search did for move `ply` of the line (0 the first), if an AI chose
    /// it and says.
    pub fn search(&self, ply: usize) -> Option<&SearchStats<G::Move>> {
        self.searches.get(ply)?.as_ref()
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn seats(&self) -> &[Seat<G>; 2] {
        &self.seats
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The position at the start of the line.
    pub fn start(&self) -> G {
        let mut start = self.game.clone();
        for _ in 0..self.cursor {
            start.undo();
        }
        start
    }

    pub fn human_to_move(&self) -> bool {
        self.seats[self.game.to_move().index()].is_human()
    }

    /// The game goes on and an AI is to move.
    pub fn ai_to_move(&self) -> bool {
        !self.game.is_over() && !self.human_to_move()
    }

    fn has_human(&self) -> bool {
        self.seats.iter().any(Seat::is_human)
    }

    fn check_not_over(&self) -> Result<(), SessionError> {
        match self.game.outcome() {
            Some(o) => Err(SessionError::Over(G::describe_outcome(o))),
            None => Ok(()),
        }
    }

    /// Plays `mv` at the cursor, keeping the line if it is the line's next move.
    fn advance(&mut self, mv: G::Move) {
        if self.line.get(self.cursor) != Some(&mv) {
            self.line.truncate(self.cursor);
            self.line.push(mv);
            self.searches.truncate(self.cursor);
            self.searches.push(None);
        }
        self.game.play_unchecked(mv);
        self.cursor += 1;
    }

    /// Plays a move for the human to move, typed in the game's notation.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, SessionError> {
        self.check_not_over()?;
        let side = self.game.to_move();
        if let Some(spec) = self.seats[side.index()].spec() {
            return Err(SessionError::AiToMove {
                side: G::side_name(side),
                spec: spec.to_string(),
            });
        }
        self.play_any(text)
    }

    /// Plays any legal move at the cursor, whoever is to move (to replay a given line).
    pub fn play_any(&mut self, text: &str) -> Result<G::Move, SessionError> {
        self.check_not_over()?;
        let mv = self
            .game
            .parse_move(text)
            .map_err(|e| SessionError::IllegalMove(e.to_string()))?;
        self.advance(mv);
        Ok(mv)
    }

    /// Lets the AI to move choose and play; returns its move. It draws from the stream
    /// `(seed, ply, side)`.
    pub fn ai_move(&mut self) -> Result<G::Move, SessionError> {
        self.ai_move_until(None)
    }

    /// [`Self::ai_move`], which `stop` can cut short: the AI's search ends when it is
    /// set, and its move, found in a hurry, is not played.
    pub fn ai_move_until(&mut self, stop: Option<&StopFlag>) -> Result<G::Move, SessionError> {
        self.check_not_over()?;
        let side = self.game.to_move();
        let mut rng = game_rng(self.seed, self.game.ply() as u64, side);
        let Seat::Ai { agent, spec } = &mut self.seats[side.index()] else {
            return Err(SessionError::HumanToMove(G::side_name(side)));
        };
        if let Some(stop) = stop {
            agent.set_stop(stop);
        }
        let mv = agent
            .try_choose(&self.game, &mut rng)
            .map_err(|f| SessionError::Forfeit {
                spec: spec.clone(),
                reason: f.reason,
            })?;
        if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(SessionError::Stopped);
        }
        let search = agent.last_search();
        self.advance(mv);
        self.searches[self.cursor - 1] = search;
        Ok(mv)
    }

    /// Takes back a move; against an AI, back to the human's turn (the AI would only replay
    /// its move).
    pub fn undo(&mut self) -> Result<(), SessionError> {
        if self.cursor == 0 {
            return Err(SessionError::NothingToUndo);
        }
        self.step_back();
        while self.has_human() && !self.human_to_move() && self.cursor > 0 {
            self.step_back();
        }
        Ok(())
    }

    /// Plays the line's next move again; against an AI, on to the human's next turn.
    pub fn redo(&mut self) -> Result<(), SessionError> {
        if self.cursor == self.line.len() {
            return Err(SessionError::NothingToRedo);
        }
        self.step_forward();
        while self.has_human() && !self.human_to_move() && self.cursor < self.line.len() {
            self.step_forward();
        }
        Ok(())
    }

    /// Shows the position after `ply` moves of the line.
    pub fn seek(&mut self, ply: usize) -> Result<(), SessionError> {
        if ply > self.line.len() {
            return Err(SessionError::PastEnd {
                ply,
                len: self.line.len(),
            });
        }
        while self.cursor > ply {
            self.step_back();
        }
        while self.cursor < ply {
            self.step_forward();
        }
        Ok(())
    }

    fn step_back(&mut self) {
        self.game.undo();
        self.cursor -= 1;
    }

    fn step_forward(&mut self) {
        self.game.play_unchecked(self.line[self.cursor]);
        self.cursor += 1;
    }

    /// The side that played each move of the line, in order.
    pub fn movers(&self) -> Vec<Side> {
        let mut replay = self.start();
        self.line
            .iter()
            .map(|&mv| {
                let side = replay.to_move();
                replay.play_unchecked(mv);
                side
            })
            .collect()
    }
}
