//! An Othello program that speaks the NBoard protocol — Edax, Egaroucid, `gamelab nboard`
//! — as an agent like any other (`nboard:cmd=(edax -q),depth=10`).
//!
//! For each move the program is sent the game so far (`set game` with a GGF record), then
//! `ping n`; once it answers `pong n`, everything before is known to be read, and `go`
//! asks for the move (`=== F5[/eval[/time]]`). A line the protocol does not have is a
//! failure, as any other (see [`crate::protocols::outside_engine`]).

use gamelab_core::Game;
use gamelab_core::child_program::{ChildProgram, shorten};

use crate::protocols::outside_engine::{AnswerError, OutsideEngine, Protocol, legal_answer};
use crate::{Move, Othello, ggf};

/// An NBoard engine run as a child process.
pub type NboardEngine = OutsideEngine<Nboard>;

/// The NBoard protocol's side of a game.
pub struct Nboard {
    /// `set depth` once started, when given.
    depth: Option<u32>,
    pings: u64,
}

impl Nboard {
    /// The protocol that sends `set depth DEPTH` when the program starts, when given.
    pub fn new(depth: Option<u32>) -> Nboard {
        Nboard { depth, pings: 0 }
    }
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

/// Reads lines until `wanted` accepts one, within the time limit.
fn wait_for<T>(
    program: &mut ChildProgram,
    what: &str,
    mut wanted: impl FnMut(&str) -> Option<T>,
) -> Result<T, AnswerError> {
    let deadline = program.deadline();
    loop {
        let line = program.next_line(deadline, what)?;
        if let Some(found) = wanted(&line) {
            return Ok(found);
        }
        let word = line.split_whitespace().next().unwrap_or("");
        if !line.is_empty() && !PROTOCOL_LINES.contains(&word) {
            return Err(AnswerError::foreign("NBoard", &line, what));
        }
    }
}

impl Protocol for Nboard {
    fn ask(&mut self, program: &mut ChildProgram, pos: &Othello) -> Result<Move, AnswerError> {
        if !program.is_running() {
            program.start()?;
            program.send("nboard 2")?;
            if let Some(depth) = self.depth {
                program.send(&format!("set depth {depth}"))?;
            }
        }
        let mut start = pos.clone();
        while start.undo().is_some() {}
        let record = ggf::GgfGame::new(start, pos.history(), Vec::new())?;
        program.send(&format!("set game {}", record.write()))?;
        self.pings += 1;
        let ping = self.pings;
        program.send(&format!("ping {ping}"))?;
        let pong = format!("pong {ping}");
        wait_for(program, &format!("`{pong}`"), |line| {
            (line == pong).then_some(())
        })?;
        program.send("go")?;
        let answer = wait_for(program, "its move (`=== MOVE`)", |line| {
            line.strip_prefix("===").map(|rest| rest.trim().to_string())
        })?;
        let text = answer.split('/').next().unwrap_or("").trim();
        let mv = ggf::read_move(text)
            .ok_or_else(|| AnswerError::NoSquare(format!("=== {}", shorten(&answer))))?;
        legal_answer(pos, mv)
    }
}
