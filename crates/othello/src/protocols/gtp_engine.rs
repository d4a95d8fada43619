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
//! have and a resignation are failures, as any other (see [`crate::protocols::outside_engine`]).
//! On a clock, each `genmove` follows a `time_left` (the first for each program started
//! after a `time_settings`, GTP's controls allowing); a program that refuses them plays
//! on untold.

use gamelab_core::Game;
use gamelab_core::child_program::{ChildProgram, shorten};
use gamelab_core::clock::{Clock, TimeControl};

use crate::protocols::outside_engine::{AnswerError, OutsideEngine, Protocol, legal_answer};
use crate::{Move, Othello, ggf};

/// A GTP engine run as a child process.
pub type GtpEngine = OutsideEngine<Gtp>;

/// The Go Text Protocol's side of a game.
#[derive(Default)]
pub struct Gtp {
    /// The number the last command carried.
    commands: u64,
    /// The side's clock for the next `genmove`, under a time control.
    clock: Option<Clock>,
    /// The control the running program was given with `time_settings`.
    settings_sent: Option<TimeControl>,
    /// The program refused a clock command: it keeps no time, and is told none again.
    keeps_no_time: bool,
}

impl Gtp {
    /// Sends `command` and waits for its answer: the answer's text, or why there is none
    /// (a refusal included).
    fn command(
        &mut self,
        program: &mut ChildProgram,
        command: &str,
    ) -> Result<String, AnswerError> {
        match self.exchange(program, command)? {
            Ok(text) => Ok(text),
            Err(refusal) => Err(AnswerError::Refused {
                command: command.to_string(),
                refusal: shorten(&refusal),
            }),
        }
    }

    /// Tells the program its clock before a `genmove` for `colour`: `time_settings` when
    /// it has not been given this control, then `time_left`. A program that refuses
    /// either (GRhino's `gtp-rhino` knows neither) plays on untold: the match's clock
    /// still times it.
    fn send_clock(
        &mut self,
        program: &mut ChildProgram,
        clock: &Clock,
        colour: &str,
    ) -> Result<(), AnswerError> {
        let control = clock.control();
        if let Some((main, period, stones)) = control.to_gtp()
            && self.settings_sent != Some(control)
        {
            let settings = format!(
                "time_settings {} {} {stones}",
                gtp_seconds(main),
                gtp_seconds(period)
            );
            if self.exchange(program, &settings)?.is_err() {
                self.keeps_no_time = true;
                return Ok(());
            }
            self.settings_sent = Some(control);
        }
        let (left, stones) = clock.reading();
        let time_left = format!(
            "time_left {colour} {} {stones}",
            gtp_seconds(left.as_secs_f64())
        );
        if self.exchange(program, &time_left)?.is_err() {
            self.keeps_no_time = true;
        }
        Ok(())
    }

    /// Sends `command` and waits for its answer: `Ok` with the answer's text, or the
    /// refusal's (`?`) inside; `Err` when no answer came.
    fn exchange(
        &mut self,
        program: &mut ChildProgram,
        command: &str,
    ) -> Result<Result<String, String>, AnswerError> {
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
            _ => return Err(AnswerError::foreign("GTP", &first, &what)),
        };
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 && rest[..digits] != id.to_string() {
            return Err(AnswerError::OtherCommand {
                answered: rest[..digits].to_string(),
                expected: id,
                awaited: what,
            });
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
        Ok(if accepted { Ok(text) } else { Err(text) })
    }
}

/// Seconds as GTP's time commands take them: whole where they are (the protocol's own
/// integers), else to the millisecond.
fn gtp_seconds(seconds: f64) -> String {
    let millis = (seconds * 1000.0).round();
    if millis % 1000.0 == 0.0 {
        format!("{}", millis / 1000.0)
    } else {
        format!("{:.3}", millis / 1000.0)
            .trim_end_matches('0')
            .to_string()
    }
}

impl Protocol for Gtp {
    fn ask(&mut self, program: &mut ChildProgram, pos: &Othello) -> Result<Move, AnswerError> {
        let mut start = pos.clone();
        while start.undo().is_some() {}
        if start.board_string() != Othello::new().board_string() {
            return Err(AnswerError::NotFromStart);
        }
        if !program.is_running() {
            program.start()?;
            self.settings_sent = None;
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
        if let Some(clock) = self.clock.take()
            && !self.keeps_no_time
        {
            self.send_clock(program, &clock, colour(pos))?;
        }
        let answer = self.command(program, &format!("genmove {}", colour(pos)))?;
        if answer.eq_ignore_ascii_case("resign") {
            return Err(AnswerError::Resigned);
        }
        let mv = ggf::read_move(&answer).ok_or_else(|| AnswerError::NoSquare(shorten(&answer)))?;
        legal_answer(pos, mv)
    }

    fn tell_clock(&mut self, clock: &Clock) {
        self.clock = Some(*clock);
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
    use crate::protocols::outside_engine::OnFailure;
    use gamelab_core::Agent;
    use gamelab_core::child_program::ProgramError;
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
    fn seconds_are_whole_where_they_can_be() {
        let written: Vec<String> = [0.0, 60.0, 0.5, 12.3456, 1e-4, 299.9996]
            .into_iter()
            .map(gtp_seconds)
            .collect();
        assert_eq!(written, ["0", "60", "0.5", "12.346", "0", "300"]);
    }

    /// A GTP program (a shell script) that logs each command, answers `genmove` with
    /// `move`, and refuses the clock's commands when `refuse_clock`.
    fn scripted(dir: &std::path::Path, refuse_clock: bool, answer: &str) -> String {
        let log = dir.join("log");
        let script = dir.join("engine.sh");
        let clock = if refuse_clock {
            "printf '?%s unknown command\\n\\n' \"$id\""
        } else {
            "printf '=%s\\n\\n' \"$id\""
        };
        std::fs::write(
            &script,
            format!(
                "while read -r id cmd rest; do\n  echo \"$cmd $rest\" >> '{}'\n  case \"$cmd\" in\n    time_settings|time_left) {clock} ;;\n    genmove) printf '=%s {answer}\\n\\n' \"$id\" ;;\n    *) printf '=%s\\n\\n' \"$id\" ;;\n  esac\ndone\n",
                log.display()
            ),
        )
        .unwrap();
        format!("sh {}", script.display())
    }

    #[test]
    fn a_program_on_a_clock_is_told_its_time_unless_it_refuses() {
        use gamelab_core::clock::TimeControl;
        let mut rng = gamelab_core::game_rng(0, 0, gamelab_core::Side::First);
        let start = Othello::new();
        for refuse in [false, true] {
            let mut clock = "300/30/5".parse::<TimeControl>().unwrap().start().unwrap();
            let dir = tempfile::tempdir().unwrap();
            let command = scripted(dir.path(), refuse, "F5");
            let mut engine = GtpEngine::new(
                &command,
                Duration::from_secs(5),
                OnFailure::Lose,
                Gtp::default(),
            )
            .unwrap();
            for _ in 0..2 {
                engine.tell_clock(&clock);
                assert_eq!(
                    engine.try_choose(&start, &mut rng).unwrap().to_string(),
                    "f5"
                );
                assert!(clock.spend(Duration::from_millis(1500)));
            }
            let log = std::fs::read_to_string(dir.path().join("log")).unwrap();
            let told: Vec<&str> = log.lines().filter(|l| l.starts_with("time_")).collect();
            if refuse {
                // Refused once, never asked again.
                assert_eq!(told, ["time_settings 300 30 5"], "{log}");
            } else {
                // The settings once, then each move's time left.
                assert_eq!(
                    told,
                    [
                        "time_settings 300 30 5",
                        "time_left black 300 0",
                        "time_left black 298.5 0"
                    ],
                    "{log}"
                );
            }
            assert_eq!(log.matches("genmove black").count(), 2, "{log}");
        }
        // Fischer's control has no GTP settings: only the time left is told.
        let dir = tempfile::tempdir().unwrap();
        let mut engine = GtpEngine::new(
            &scripted(dir.path(), false, "F5"),
            Duration::from_secs(5),
            OnFailure::Lose,
            Gtp::default(),
        )
        .unwrap();
        let fischer = "60+0.5".parse::<TimeControl>().unwrap().start().unwrap();
        engine.tell_clock(&fischer);
        engine.try_choose(&start, &mut rng).unwrap();
        let log = std::fs::read_to_string(dir.path().join("log")).unwrap();
        let told: Vec<&str> = log.lines().filter(|l| l.starts_with("time_")).collect();
        assert_eq!(told, ["time_left black 60 0"], "{log}");
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
        assert_eq!(err, ProgramError::NotInPath("no-such-gtp-engine".into()));
        let err = GtpEngine::new(
            "  ",
            Duration::from_secs(1),
            OnFailure::Lose,
            Gtp::default(),
        )
        .err()
        .unwrap();
        assert_eq!(err, ProgramError::EmptyCommand);
    }
}
