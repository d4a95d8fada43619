//! An Othello program that speaks the Go Text Protocol — GRhino's `gtp-rhino`, the engines
//! Quarry drives, `gamelab gtp` — as an agent like any other (`gtp:cmd=(gtp-rhino -l 4)`).
//!
//! For each move the program is sent the game so far (`boardsize 8`, `clear_board`, then a
//! `play` a move), and `genmove` asks for its move. Every command carries a number that
//! its answer must echo (`=N …`, or `?N …` for a refusal), so an answer is never taken
//! for another's.
//! Passes are not sent: Othello's GTP engines pass for a side that has no move by
//! themselves (GRhino refuses a `play … pass`), and a forced pass is played without
//! asking. The game must have been played from the standard start, since GTP has no command
//! that sets up a position. A refusal of a move of the game, a line the protocol does not
//! have and a resignation are failures, as any other (see [`crate::outside_engine`]).

use gamelab_core::Game;
use gamelab_core::child_program::{ChildProgram, shorten};

use crate::outside_engine::{OutsideEngine, Protocol, legal_answer};
use crate::{Move, Othello, ggf};

/// A GTP engine run as a child process.
pub type GtpEngine = OutsideEngine<Gtp>;

/// The Go Text Protocol's side of a game.
#[derive(Default)]
pub struct Gtp {
    /// The number the last command carried.
    commands: u64,
}

impl Gtp {
    /// Sends `command` and waits for its answer: the answer's text, or why there is none
    /// (a refusal included).
    fn command(&mut self, program: &mut ChildProgram, command: &str) -> Result<String, String> {
        self.commands += 1;
        let id = self.commands;
        program.send(&format!("{id} {command}"))?;
        let deadline = program.deadline();
        let what = format!("the answer to `{command}`");
        let first = loop {
            let line = program.next_line(deadline, &what)?;
            if !line.is_empty() {
                break line;
            }
        };
        let (accepted, rest) = match first.as_bytes()[0] {
            b'=' => (true, &first[1..]),
            b'?' => (false, &first[1..]),
            _ => {
                return Err(format!(
                    "it printed `{}`, which the GTP protocol does not have, while {what} was awaited",
                    shorten(&first)
                ));
            }
        };
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 && rest[..digits] != id.to_string() {
            return Err(format!(
                "it answered command {} while {what} (command {id}) was awaited",
                &rest[..digits]
            ));
        }
        let mut text = rest[digits..].trim().to_string();
        // An answer ends with an empty line; any lines before it belong to the answer.
        loop {
            let line = program.next_line(deadline, &what)?;
            if line.is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(&line);
        }
        if accepted {
            Ok(text)
        } else {
            Err(format!("it refused `{command}`: {}", shorten(&text)))
        }
    }
}

impl Protocol for Gtp {
    fn ask(&mut self, program: &mut ChildProgram, pos: &Othello) -> Result<Move, String> {
        let mut start = pos.clone();
        while start.undo().is_some() {}
        if start.board_string() != Othello::new().board_string() {
            return Err(
                "GTP can give a program only a game played from the standard start, and this position comes with no moves from it (a set-up position, or one read from a board string, a transcript or a GGF game)"
                    .into(),
            );
        }
        if !program.is_running() {
            program.start()?;
        }
        self.command(program, "boardsize 8")?;
        self.command(program, "clear_board")?;
        for &mv in pos.history() {
            if let Move::Place(_) = mv {
                // A vertex is written as GGF writes a square: `F5`, row 1 at the top (as
                // GRhino and Quarry number Othello's rows).
                let colour = colour(&start);
                self.command(program, &format!("play {colour} {}", ggf::write_move(mv)))?;
            }
            start.play_unchecked(mv);
        }
        let answer = self.command(program, &format!("genmove {}", colour(pos)))?;
        if answer.eq_ignore_ascii_case("resign") {
            return Err("it resigned".into());
        }
        let mv = ggf::read_move(&answer)
            .ok_or_else(|| format!("it answered `{}`, which names no square", shorten(&answer)))?;
        legal_answer(pos, mv)
    }
}

/// The side to move in GTP's words.
fn colour(pos: &Othello) -> &'static str {
    if pos.black_to_move() {
        "black"
    } else {
        "white"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outside_engine::OnFailure;
    use gamelab_core::Agent;
    use std::time::Duration;

    #[test]
    fn a_position_without_the_moves_from_the_start_is_refused_before_the_program_starts() {
        // `sh` reads commands from its input: started, it would answer nothing GTP has.
        let mut engine = GtpEngine::new(
            "sh",
            Duration::from_secs(5),
            OnFailure::Lose,
            Gtp::default(),
        )
        .unwrap();
        let start = Othello::new();
        let pos = Othello::from_discs(start.black() | 1, start.white(), true);
        assert!(pos.legal_moves().iter().all(|&m| m != Move::Pass));
        let mut rng = gamelab_core::game_rng(0, 0, gamelab_core::Side::First);
        let forfeit = engine.try_choose(&pos, &mut rng).unwrap_err();
        assert!(
            forfeit.reason.contains("set-up position"),
            "{}",
            forfeit.reason
        );
        assert!(!engine.program.is_running());
        assert!(!forfeit.stops_match);
    }

    #[test]
    fn a_missing_program_is_an_error_at_once() {
        let err = GtpEngine::new(
            "no-such-gtp-engine -l 3",
            Duration::from_secs(1),
            OnFailure::Lose,
            Gtp::default(),
        )
        .err()
        .unwrap();
        assert_eq!(err, "no program `no-such-gtp-engine` in PATH");
        let err = GtpEngine::new(
            "  ",
            Duration::from_secs(1),
            OnFailure::Lose,
            Gtp::default(),
        )
        .err()
        .unwrap();
        assert!(err.contains("the command is empty"), "{err}");
    }
}
