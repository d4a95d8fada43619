//! An Othello program that speaks the NBoard protocol — Edax, Egaroucid, `gamelab nboard`
//! — as an agent like any other (`nboard:cmd=(edax -q),depth=10`).
//!
//! The program is started at its first move and kept between moves and games. For each
//! move it is sent the game so far (`set game` with a GGF record), then `ping n`; once it
//! answers `pong n`, everything before is known to be read, and `go` asks for the move
//! (`=== F5[/eval[/time]]`). A forced pass is played without asking. A program that cannot
//! be started, ends, stays silent past the time limit, prints a line the protocol does not
//! have or answers an illegal move forfeits the game with that reason (or stops the match,
//! with `on_failure=stop`); it is stopped and started afresh for the next move.

use std::time::Duration;

use gamelab_core::child_program::{ChildProgram, shorten};
use gamelab_core::{Agent, Forfeit, Game, GameRng, StopFlag};

use crate::{Move, Othello, ggf};

/// What a failure of the program does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFailure {
    /// The game is lost, and the program is started afresh for the next one.
    Lose,
    /// The whole match stops with the reason.
    Stop,
}

/// An NBoard engine run as a child process.
pub struct NboardEngine {
    program: ChildProgram,
    /// `set depth` once started, when given.
    depth: Option<u32>,
    on_failure: OnFailure,
    pings: u64,
}

/// The lines an NBoard engine may print besides the answers waited for.
const PROTOCOL_LINES: [&str; 8] = [
    "status",
    "set",
    "pong",
    "===",
    "search",
    "nodestats",
    "analysis",
    "learned",
];

impl NboardEngine {
    /// An engine that runs `command` (a program and its arguments, split as a shell
    /// would). The program must be found now: a missing one is an error at once rather
    /// than a forfeit at every game.
    pub fn new(
        command: &str,
        depth: Option<u32>,
        timeout: Duration,
        on_failure: OnFailure,
    ) -> Result<NboardEngine, String> {
        Ok(NboardEngine {
            program: ChildProgram::new(command, timeout)?,
            depth,
            on_failure,
            pings: 0,
        })
    }

    fn start(&mut self) -> Result<(), String> {
        self.program.start()?;
        self.program.send("nboard 2")?;
        if let Some(depth) = self.depth {
            self.program.send(&format!("set depth {depth}"))?;
        }
        Ok(())
    }

    /// Reads lines until `wanted` accepts one, within the time limit.
    fn wait_for<T>(
        &mut self,
        what: &str,
        mut wanted: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, String> {
        let deadline = self.program.deadline();
        loop {
            let line = self.program.next_line(deadline, what)?;
            if let Some(found) = wanted(&line) {
                return Ok(found);
            }
            let word = line.split_whitespace().next().unwrap_or("");
            if !line.is_empty() && !PROTOCOL_LINES.contains(&word) {
                return Err(format!(
                    "it printed `{}`, which the NBoard protocol does not have, while {what} was awaited",
                    shorten(&line)
                ));
            }
        }
    }

    /// Asks the program for its move in `pos`.
    fn ask(&mut self, pos: &Othello) -> Result<Move, String> {
        if !self.program.is_running() {
            self.start()?;
        }
        let mut start = pos.clone();
        while start.undo().is_some() {}
        let record = ggf::GgfGame::new(start, pos.history(), Vec::new())?;
        self.program.send(&format!("set game {}", record.write()))?;
        self.pings += 1;
        let ping = self.pings;
        self.program.send(&format!("ping {ping}"))?;
        let pong = format!("pong {ping}");
        self.wait_for(&format!("`{pong}`"), |line| (line == pong).then_some(()))?;
        self.program.send("go")?;
        let answer = self.wait_for("its move (`=== MOVE`)", |line| {
            line.strip_prefix("===").map(|rest| rest.trim().to_string())
        })?;
        let text = answer.split('/').next().unwrap_or("").trim();
        let mv = ggf::read_move(text).ok_or_else(|| {
            format!(
                "it answered `=== {}`, which names no square",
                shorten(&answer)
            )
        })?;
        pos.check_move(mv).map_err(|e| {
            format!(
                "it answered {}, which is not legal here: {e}",
                ggf::write_move(mv)
            )
        })?;
        Ok(mv)
    }
}

impl Agent<Othello> for NboardEngine {
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
        self.ask(game).map_err(|reason| {
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
}
