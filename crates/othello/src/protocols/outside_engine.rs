//! An outside Othello program as an agent, whatever protocol it speaks (NBoard, GTP): the
//! program is started at its first move and kept between moves and games; a forced pass is
//! played without asking; a program that fails — cannot be started, ends, stalls past the
//! time limit, answers what its protocol does not have or an illegal move — forfeits the
//! game with the reason (or stops the match, with `on_failure=stop`), and is stopped and
//! started afresh for the next move.

use std::time::Duration;

use gamelab_core::child_program::{ChildProgram, ProgramError, shorten};
use gamelab_core::{Agent, Forfeit, Game, GameRng, StopFlag};
use thiserror::Error;

use crate::{Move, Othello, OthelloError, ggf};

/// Why an outside program gave no move: what it did (or failed to do), for the forfeit's
/// reason. Long lines it printed are shortened.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum AnswerError {
    #[error(transparent)]
    Program(#[from] ProgramError),
    #[error(
        "it printed `{line}`, which the {protocol} protocol does not have, while {awaited} was awaited"
    )]
    Foreign {
        protocol: &'static str,
        line: String,
        awaited: String,
    },
    #[error("it answered command {answered} while {awaited} (command {expected}) was awaited")]
    OtherCommand {
        answered: String,
        expected: u64,
        awaited: String,
    },
    #[error("it refused `{command}`: {refusal}")]
    Refused { command: String, refusal: String },
    #[error("it resigned")]
    Resigned,
    #[error("it answered `{0}`, which names no square")]
    NoSquare(String),
    #[error("it answered {answer}, which is not legal here: {error}")]
    Illegal { answer: String, error: OthelloError },
    #[error(
        "GTP can give a program only a game played from the standard start, and this position comes with no moves from it (a set-up position, or one read from a board string, a transcript or a GGF game)"
    )]
    NotFromStart,
    /// The game could not be written for the program (its moves do not replay).
    #[error("{0}")]
    Game(#[from] ggf::GgfMoveError),
}

impl AnswerError {
    /// `line`, printed while `awaited` was awaited, is none of `protocol`'s.
    pub(crate) fn foreign(protocol: &'static str, line: &str, awaited: &str) -> AnswerError {
        AnswerError::Foreign {
            protocol,
            line: shorten(line),
            awaited: awaited.to_string(),
        }
    }
}

/// What a failure of the program does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFailure {
    /// The game is lost, and the program is started afresh for the next one.
    Lose,
    /// The whole match stops with the reason.
    Stop,
}

/// How to ask one kind of program for a move.
pub trait Protocol: Send {
    /// Asks `program` (started here when it is not running) for its move in `pos`, a
    /// position where the side to move has a square to play.
    fn ask(&mut self, program: &mut ChildProgram, pos: &Othello) -> Result<Move, AnswerError>;

    /// The side's clock before the next `ask`, when the protocol can tell a program its
    /// time; the default (NBoard's protocol has no clock) ignores it.
    fn tell_clock(&mut self, clock: &gamelab_core::clock::Clock) {
        let _ = clock;
    }
}

/// A program run as a child process, asked for its moves by protocol `P`.
pub struct OutsideEngine<P: Protocol> {
    pub(crate) program: ChildProgram,
    protocol: P,
    on_failure: OnFailure,
}

impl<P: Protocol> OutsideEngine<P> {
    /// An engine that runs `command` (a program and its arguments, split as a shell
    /// would), answering within `timeout`. The program must be found now: a missing one
    /// is an error at once rather than a forfeit at every game.
    pub fn new(
        command: &str,
        timeout: Duration,
        on_failure: OnFailure,
        protocol: P,
    ) -> Result<OutsideEngine<P>, ProgramError> {
        Ok(OutsideEngine {
            program: ChildProgram::new(command, timeout)?,
            protocol,
            on_failure,
        })
    }
}

impl<P: Protocol> Agent<Othello> for OutsideEngine<P> {
    fn choose(&mut self, game: &Othello, rng: &mut GameRng) -> Move {
        // A caller that cannot take a forfeit gets a legal move all the same.
        self.try_choose(game, rng)
            .unwrap_or_else(|_| game.legal_moves()[0])
    }

    fn try_choose(&mut self, game: &Othello, _rng: &mut GameRng) -> Result<Move, Box<Forfeit>> {
        let moves = game.legal_moves();
        if moves.len() == 1 && moves[0] == Move::Pass {
            return Ok(Move::Pass);
        }
        self.protocol
            .ask(&mut self.program, game)
            .map_err(|reason| {
                self.program.kill();
                Box::new(Forfeit {
                    reason: format!("{}: {reason}", self.program.name()),
                    stops_match: self.on_failure == OnFailure::Stop,
                })
            })
    }

    fn set_stop(&mut self, stop: &StopFlag) {
        self.program.set_stop(stop);
    }

    fn tell_clock(&mut self, clock: &gamelab_core::clock::Clock) {
        self.protocol.tell_clock(clock);
    }
}

/// The move a program answered, if it is legal in `pos`.
pub(crate) fn legal_answer(pos: &Othello, mv: Move) -> Result<Move, AnswerError> {
    pos.check_move(mv).map_err(|error| AnswerError::Illegal {
        answer: ggf::write_move(mv),
        error,
    })?;
    Ok(mv)
}
