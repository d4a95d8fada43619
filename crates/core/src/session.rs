//! A game being played by people and AIs: the whole line of moves with a cursor into it,
//! the seats, undo and redo, and the AIs' random streams. The terminal (`gamelab play`) and
//! the web app's Play view both drive this one session, so the same seed gives the same
//! game in both.
//!
//! Undo, redo and seek move the cursor; a move at the cursor that differs from the line's
//! next move cuts the line there. The AI to move draws from the stream `(seed, ply, side)`,
//! so it replays the same move after undo and redo.
//!
//! On a game clock ([`PlaySession::set_clock`]) a person's clock runs from the moment
//! their turn comes until their move arrives, an AI's while it thinks (it is told its
//! share, as in a match); a side whose time runs out loses, and its late move is not
//! played. Undo, redo and seek bring back the clocks as they stood in the position shown.
//!
//! A person (`o`, who moves first) against `ai1`, tic-tac-toe's AI that takes the first
//! empty square:
//!
//! ```
//! use gamelab_core::session::{PlaySession, Seat};
//! use gamelab_core::{FileAccess, Game};
//! use gamelab_ttt::{Ttt, ai, board::Bitboard};
//!
//! let registry = ai::registry::<Bitboard>();
//! let ai1 = Seat::from_spec("ai1", &registry, &FileAccess::Any)?;
//! let mut session = PlaySession::new(Ttt::start(), [Seat::Human, ai1], 7);
//! session.play_text("1,1")?; // the centre
//! assert!(session.ai_to_move());
//! assert_eq!(session.ai_move()?.to_string(), "(0, 0)");
//! assert!(session.human_to_move());
//!
//! // Undo goes back to the person's turn, past the AI's move; the line stays for redo.
//! session.undo()?;
//! assert_eq!((session.cursor(), session.line().len()), (0, 2));
//! session.redo()?;
//! assert_eq!(session.cursor(), 2);
//!
//! // Another move where the line goes on cuts the line there.
//! session.seek(1)?;
//! session.play_any("2,2")?;
//! assert_eq!(session.line().len(), 2);
//! assert_eq!(session.line()[1].to_string(), "(2, 2)");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::{Duration, Instant};

use crate::clock::{Clock, TimeControl, TimeSource};
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
    ///
    /// ```
    /// use gamelab_core::session::Seat;
    /// use gamelab_core::{FileAccess, SpecError};
    /// use gamelab_ttt::{ai, board::Bitboard};
    ///
    /// let registry = ai::registry::<Bitboard>();
    /// let person = Seat::from_spec(" human ", &registry, &FileAccess::Any)?;
    /// assert!(person.is_human() && person.spec().is_none());
    /// let ai = Seat::from_spec("ai12s:score_victory=200", &registry, &FileAccess::Any)?;
    /// assert_eq!(ai.spec(), Some("ai12s:score_victory=200"));
    /// let unknown = Seat::from_spec("ai99", &registry, &FileAccess::Any);
    /// assert!(matches!(unknown, Err(SpecError::UnknownAgent { .. })));
    /// # Ok::<(), SpecError>(())
    /// ```
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

    /// A person plays this side ([`Seat::from_spec`] has an example).
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
    #[error("nothing to undo: there is no earlier turn to go back to")]
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
    /// The side to move ran out of time: the game is over, lost on time.
    #[error("{0}")]
    OutOfTime(String),
}

/// A side whose time ran out in the position shown: it lost the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flag {
    pub side: Side,
    /// What happened, in words.
    pub reason: String,
}

/// The refusal of a move after `flag` fell.
fn out_of_time(flag: &Flag) -> SessionError {
    SessionError::OutOfTime(format!(
        "the game is over: {}; start a new game or undo",
        flag.reason
    ))
}

/// The clocks of a game played on one.
struct Clocks {
    control: TimeControl,
    /// Both sides' clocks in each position of the line (the index: moves played from the
    /// start), as they stood on reaching it.
    at: Vec<[Clock; 2]>,
    /// When the clock of the side to move in the position shown started running.
    since: Instant,
    /// The side whose time ran out in the position shown.
    flag: Option<Flag>,
}

/// Both clocks as they read now.
#[derive(Clone, Debug, PartialEq)]
pub struct ClockReading {
    pub control: TimeControl,
    /// Time left and moves still to play in the byo-yomi period (0 in main time), first
    /// side first; the running clock as it reads at this moment.
    pub left: [(Duration, u32); 2],
    /// The side whose clock runs: the side to move while the game goes on.
    pub running: Option<Side>,
    pub flag: Option<Flag>,
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
    clocks: Option<Clocks>,
    /// Where the clocks read the time.
    time: TimeSource,
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
            clocks: None,
            time: TimeSource::system(),
        }
    }

    /// Reads the clocks' time from `time` (the machine's clock by default): a manual
    /// source makes a game's timing exact, whatever the machine.
    pub fn set_time_source(&mut self, time: TimeSource) {
        if let Some(clocks) = &mut self.clocks {
            clocks.since = time.now();
        }
        self.time = time;
    }

    /// Plays the game on a clock from here on: both sides' clocks start full in every
    /// position of the line so far, and the side to move's runs from now. `Unlimited`
    /// takes a clock away.
    ///
    /// A minute a side and 2 s more a move, on a manual time (exact on any machine):
    ///
    /// ```
    /// use std::time::Duration;
    /// use gamelab_core::clock::{TimeControl, TimeSource};
    /// use gamelab_core::session::{PlaySession, Seat, SessionError};
    /// use gamelab_core::{Game, Side};
    /// use gamelab_ttt::Ttt;
    ///
    /// let time = TimeSource::manual();
    /// let mut session = PlaySession::new(Ttt::start(), [Seat::Human, Seat::Human], 0);
    /// session.set_time_source(time.clone());
    /// session.set_clock("60+2".parse::<TimeControl>().unwrap());
    ///
    /// time.advance(Duration::from_secs(10));
    /// session.play_text("1,1")?;
    /// let reading = session.clock_reading().unwrap();
    /// assert_eq!(reading.running, Some(Side::Second));
    /// assert_eq!(reading.left[0].0, Duration::from_secs(52)); // 60 - 10 + 2
    ///
    /// // The second side waits out its minute: its flag falls, its move is refused.
    /// time.advance(Duration::from_secs(61));
    /// assert_eq!(session.flag().map(|f| f.side), Some(Side::Second));
    /// assert!(matches!(session.play_text("0,0"), Err(SessionError::OutOfTime(_))));
    /// assert_eq!(session.clock_reading().unwrap().running, None);
    ///
    /// // Undo brings back the clocks of the position shown, and no flag there.
    /// session.undo()?;
    /// assert_eq!(session.flag(), None);
    /// assert_eq!(session.clock_reading().unwrap().left[0].0, Duration::from_secs(60));
    /// # Ok::<(), SessionError>(())
    /// ```
    pub fn set_clock(&mut self, control: TimeControl) {
        self.clocks = control.start().map(|clock| Clocks {
            control,
            at: vec![[clock; 2]; self.line.len() + 1],
            since: self.time.now(),
            flag: None,
        });
    }

    /// The clocks as they read now (`None` off the clock); a person's time that ran out
    /// while waiting is found here.
    pub fn clock_reading(&mut self) -> Option<ClockReading> {
        self.check_time();
        let over = self.game.is_over();
        let side = self.game.to_move();
        let human = self.human_to_move();
        let clocks = self.clocks.as_ref()?;
        let mut left = clocks.at[self.cursor].map(|c| c.reading());
        let running = (!over && clocks.flag.is_none()).then_some(side);
        // A person's clock runs while the page waits for them; an AI's only while it
        // thinks, which no reading sees.
        if running.is_some() && human {
            let clock = clocks.at[self.cursor][side.index()];
            left[side.index()] = clock.reading_after(self.time.since(clocks.since));
        }
        if let Some(flag) = &clocks.flag {
            left[flag.side.index()].0 = Duration::ZERO;
        }
        Some(ClockReading {
            control: clocks.control,
            left,
            running,
            flag: clocks.flag.clone(),
        })
    }

    /// The side whose time ran out in the position shown, if any.
    pub fn flag(&mut self) -> Option<Flag> {
        self.check_time();
        self.clocks.as_ref()?.flag.clone()
    }

    /// Lets the flag of a person to move fall when their time ran out while waiting.
    fn check_time(&mut self) {
        if self.game.is_over() || !self.human_to_move() {
            return;
        }
        let side = self.game.to_move();
        let cursor = self.cursor;
        let Some(clocks) = &mut self.clocks else {
            return;
        };
        if clocks.flag.is_some() {
            return;
        }
        let waited = self.time.since(clocks.since);
        let mut clock = clocks.at[cursor][side.index()];
        if !clock.spend(waited) {
            clocks.flag = Some(Flag {
                side,
                reason: format!(
                    "{}'s time ran out ({} on the clock)",
                    G::side_name(side),
                    clocks.control.describe()
                ),
            });
        }
    }

    /// The error for a move asked of a side whose flag has fallen.
    fn check_flag(&mut self) -> Result<(), SessionError> {
        match self.flag() {
            Some(flag) => Err(out_of_time(&flag)),
            None => Ok(()),
        }
    }

    /// Both clocks after the side to move's move that took `took` (`None` off the
    /// clock); when its time ran out during it, its flag falls and the move is refused.
    fn charge(&mut self, took: Duration, what: &str) -> Result<Option<[Clock; 2]>, SessionError> {
        let side = self.game.to_move();
        let cursor = self.cursor;
        let Some(clocks) = &mut self.clocks else {
            return Ok(None);
        };
        let mut after = clocks.at[cursor];
        let (left, _) = after[side.index()].reading();
        if after[side.index()].spend(took) {
            return Ok(Some(after));
        }
        let flag = Flag {
            side,
            reason: format!(
                "{}'s time ran out: {what} took {:.1} s with {:.1} s on the clock",
                G::side_name(side),
                took.as_secs_f64(),
                left.as_secs_f64()
            ),
        };
        let refused = out_of_time(&flag);
        clocks.flag = Some(flag);
        Err(refused)
    }

    /// `text` read as a move in the position shown.
    fn parse(&self, text: &str) -> Result<G::Move, SessionError> {
        self.game
            .parse_move(text)
            .map_err(|e| SessionError::IllegalMove(e.to_string()))
    }

    /// The position shown: after [`PlaySession::cursor`] moves of the line.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Every move played from the start, those after the cursor too (to redo).
    pub fn line(&self) -> &[G::Move] {
        &self.line
    }

    /// What the AI's search did for move `ply` of the line (0 the first), if an AI chose
    /// it and says (Othello's `engine` does; tic-tac-toe's rule AIs do not).
    pub fn search(&self, ply: usize) -> Option<&SearchStats<G::Move>> {
        self.searches.get(ply)?.as_ref()
    }

    /// How many moves of the line are on the board.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Who plays each side, the first side's seat first.
    pub fn seats(&self) -> &[Seat<G>; 2] {
        &self.seats
    }

    /// The seed of the AIs' random streams.
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

    /// A person plays the side to move (the game may be over).
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

    /// Plays `mv` at the cursor, keeping the line if it is the line's next move. The
    /// clocks of the new position are `after` ([`Self::charge`]'s), or those of the one
    /// before (`None`: a move replayed from a record); a kept line's later positions get
    /// them too (theirs were of a game played at another pace).
    fn advance(&mut self, mv: G::Move, after: Option<[Clock; 2]>) {
        if self.line.get(self.cursor) != Some(&mv) {
            self.line.truncate(self.cursor);
            self.line.push(mv);
            self.searches.truncate(self.cursor);
            self.searches.push(None);
        }
        if let Some(clocks) = &mut self.clocks {
            let after = after.unwrap_or(clocks.at[self.cursor]);
            clocks.at.truncate(self.cursor + 1);
            clocks.at.resize(self.line.len() + 1, after);
        }
        self.game.play_unchecked(mv);
        self.cursor += 1;
        self.restart_clock();
    }

    /// The side to move's clock starts running now, as it stood in this position.
    fn restart_clock(&mut self) {
        if let Some(clocks) = &mut self.clocks {
            clocks.since = self.time.now();
            clocks.flag = None;
        }
    }

    /// Plays a move for the human to move, typed in the game's notation; on a clock,
    /// charged the time since their turn came (a move after their time ran out is not
    /// played: [`SessionError::OutOfTime`]).
    ///
    /// ```
    /// use gamelab_core::session::{PlaySession, Seat, SessionError};
    /// use gamelab_core::{FileAccess, Game};
    /// use gamelab_ttt::{Ttt, ai, board::Bitboard};
    ///
    /// let ai1 = Seat::from_spec("ai1", &ai::registry::<Bitboard>(), &FileAccess::Any)?;
    /// let mut session = PlaySession::new(Ttt::start(), [ai1, Seat::Human], 0);
    /// // The AI moves first: a person's move is refused, and the session is unchanged.
    /// let refused = session.play_text("1,1").unwrap_err();
    /// assert_eq!(refused.to_string(), "it is o's turn, and ai1 plays o");
    /// session.ai_move()?;
    /// assert!(matches!(session.play_text("0,0"), Err(SessionError::IllegalMove(_))));
    /// assert_eq!(session.play_text("1,1")?.to_string(), "(1, 1)");
    /// assert_eq!(session.cursor(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, SessionError> {
        self.check_not_over()?;
        let side = self.game.to_move();
        if let Some(spec) = self.seats[side.index()].spec() {
            return Err(SessionError::AiToMove {
                side: G::side_name(side),
                spec: spec.to_string(),
            });
        }
        self.check_flag()?;
        let mv = self.parse(text)?;
        let took = self
            .clocks
            .as_ref()
            .map_or(Duration::ZERO, |c| self.time.since(c.since));
        let after = self.charge(took, "the move")?;
        self.advance(mv, after);
        Ok(mv)
    }

    /// Plays any legal move at the cursor, whoever is to move (to replay a given line),
    /// charging no clock.
    pub fn play_any(&mut self, text: &str) -> Result<G::Move, SessionError> {
        self.check_not_over()?;
        let mv = self.parse(text)?;
        self.advance(mv, None);
        Ok(mv)
    }

    /// Lets the AI to move choose and play; returns its move. It draws from the stream
    /// `(seed, ply, side)`, so the same seed gives the same game, and a move taken back
    /// is chosen again the same way.
    ///
    /// ```
    /// use gamelab_core::session::{PlaySession, Seat};
    /// use gamelab_core::{FileAccess, Game};
    /// use gamelab_ttt::{Ttt, ai, board::Bitboard};
    ///
    /// // ai2 plays at random: two of them, seed 42.
    /// let game = |seed| {
    ///     let registry = ai::registry::<Bitboard>();
    ///     let seat = || Seat::from_spec("ai2", &registry, &FileAccess::Any).unwrap();
    ///     let mut session = PlaySession::new(Ttt::start(), [seat(), seat()], seed);
    ///     while session.ai_to_move() {
    ///         session.ai_move().unwrap();
    ///     }
    ///     session
    /// };
    /// let mut first = game(42);
    /// assert_eq!(first.line(), game(42).line());
    /// // Without a person, undo takes back one move; the AI replays it.
    /// let last = *first.line().last().unwrap();
    /// first.undo()?;
    /// assert_eq!(first.ai_move()?, last);
    /// # Ok::<(), gamelab_core::session::SessionError>(())
    /// ```
    pub fn ai_move(&mut self) -> Result<G::Move, SessionError> {
        self.ai_move_until(None)
    }

    /// [`Self::ai_move`], which `stop` can cut short: the AI's search ends when it is
    /// set, and its move, found in a hurry, is not played.
    ///
    /// On a clock the AI is told its share of its time and its clock before it chooses,
    /// as in a match, and charged the time it thought; one that ran out of time loses
    /// ([`SessionError::OutOfTime`]), its move not played.
    ///
    /// ```
    /// use std::sync::{Arc, atomic::AtomicBool};
    /// use gamelab_core::session::{PlaySession, Seat, SessionError};
    /// use gamelab_core::{FileAccess, Game};
    /// use gamelab_ttt::{Ttt, ai, board::Bitboard};
    ///
    /// let ai1 = Seat::from_spec("ai1", &ai::registry::<Bitboard>(), &FileAccess::Any)?;
    /// let mut session = PlaySession::new(Ttt::start(), [ai1, Seat::Human], 0);
    /// // Stopped (here before it starts): its move is not played.
    /// let stop = Arc::new(AtomicBool::new(true));
    /// assert_eq!(session.ai_move_until(Some(&stop)), Err(SessionError::Stopped));
    /// assert_eq!(session.cursor(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ai_move_until(&mut self, stop: Option<&StopFlag>) -> Result<G::Move, SessionError> {
        self.check_not_over()?;
        self.check_flag()?;
        let side = self.game.to_move();
        let mut rng = game_rng(self.seed, self.game.ply() as u64, side);
        let clock = self
            .clocks
            .as_ref()
            .map(|c| c.at[self.cursor][side.index()]);
        let Seat::Ai { agent, spec } = &mut self.seats[side.index()] else {
            return Err(SessionError::HumanToMove(G::side_name(side)));
        };
        if let Some(stop) = stop {
            agent.set_stop(stop);
        }
        if let Some(clock) = &clock {
            clock.brief(agent, &self.game);
        }
        let started = self.time.now();
        let mv = agent
            .try_choose(&self.game, &mut rng)
            .map_err(|f| SessionError::Forfeit {
                spec: spec.clone(),
                reason: f.reason,
            })?;
        let took = self.time.since(started);
        if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(SessionError::Stopped);
        }
        let search = agent.analyst().and_then(|analyst| analyst.last_search());
        let after = self.charge(took, "its move")?;
        self.advance(mv, after);
        self.searches[self.cursor - 1] = search;
        Ok(mv)
    }

    /// Takes back a move; against an AI, back to the human's turn (the AI would only replay
    /// its move).
    pub fn undo(&mut self) -> Result<(), SessionError> {
        let steps = self.undo_steps().ok_or(SessionError::NothingToUndo)?;
        for _ in 0..steps {
            self.step_back();
        }
        Ok(())
    }

    /// Whether [`PlaySession::undo`] has a move to take back: not when only an AI's
    /// moves come before the person's first turn.
    ///
    /// ```
    /// use gamelab_core::session::{PlaySession, Seat, SessionError};
    /// use gamelab_core::{FileAccess, Game};
    /// use gamelab_ttt::{Ttt, ai, board::Bitboard};
    ///
    /// let ai1 = Seat::from_spec("ai1", &ai::registry::<Bitboard>(), &FileAccess::Any)?;
    /// let mut session = PlaySession::new(Ttt::start(), [ai1, Seat::Human], 0);
    /// session.ai_move()?;
    /// assert!(!session.can_undo());
    /// assert_eq!(session.undo(), Err(SessionError::NothingToUndo));
    /// session.play_text("1,1")?;
    /// assert!(session.can_undo());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn can_undo(&self) -> bool {
        self.undo_steps().is_some()
    }

    /// How many moves [`PlaySession::undo`] takes back: one, and against an AI on back to
    /// the human's turn before. None at the start, nor when only an AI's moves come
    /// before the human's first turn (the AI would play them again the same way).
    fn undo_steps(&self) -> Option<usize> {
        if self.cursor == 0 {
            return None;
        }
        if !self.has_human() {
            return Some(1);
        }
        let mut game = self.game.clone();
        (1..=self.cursor).find(|_| {
            game.undo();
            self.seats[game.to_move().index()].is_human()
        })
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
    ///
    /// ```
    /// use gamelab_core::session::{PlaySession, Seat, SessionError};
    /// use gamelab_core::Game;
    /// use gamelab_ttt::Ttt;
    ///
    /// let mut session = PlaySession::new(Ttt::start(), [Seat::Human, Seat::Human], 0);
    /// for square in ["1,1", "0,0", "2,2"] {
    ///     session.play_text(square)?;
    /// }
    /// session.seek(1)?;
    /// assert_eq!((session.cursor(), session.game().ply()), (1, 1));
    /// assert_eq!(session.start().ply(), 0);
    /// assert_eq!(session.seek(4), Err(SessionError::PastEnd { ply: 4, len: 3 }));
    /// session.seek(3)?;
    /// assert_eq!(session.cursor(), 3);
    /// # Ok::<(), SessionError>(())
    /// ```
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
        self.restart_clock();
    }

    fn step_forward(&mut self) {
        self.game.play_unchecked(self.line[self.cursor]);
        self.cursor += 1;
        self.restart_clock();
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
