//! The engine side of the Go Text Protocol (version 2) for Othello: a gamelab Othello AI
//! answering the commands Quarry and GRhino's tools send, one line at a time; vertices
//! are a column letter and a row, 1 at the top (`F5`). `gamelab gtp` runs it on standard
//! input and output.
//!
//! Understood: `protocol_version`, `name`, `version`, `known_command`, `list_commands`,
//! `quit`, `boardsize` (8 only), `clear_board`, `komi` (read, then ignored: Othello has
//! none), `play`, `genmove`, `reg_genmove`, `undo`, `showboard`, `final_score`, and
//! Quarry's `list_games` (Othello) and `set_game` (Othello or Reversi), and the clock's
//! `time_settings` and `time_left` (below). A command
//! may carry a number, which its answer echoes. A `play` or `genmove` for the side that
//! does not have the move, when the side that has it must pass, plays that pass first (as
//! GRhino does); `play COLOUR pass` is taken too. A command that cannot be carried out
//! gets `? reason` and the engine goes on.
//!
//! Under a clock each `genmove` gets a share of the side's time left
//! ([`gamelab_core::clock`]) as a cap on the AI's time for the move; an AI whose spec
//! does not set its `level` then searches at its deepest level, so that the clock, not
//! the default level, says how deep. The session keeps each side's clock itself (its own
//! moves charged as they take) and takes what `time_left` says over it.

use std::time::Instant;

use gamelab_core::clock::{Clock, TimeControl};
use gamelab_core::registry::{ParamKind, PreparedSpec};
use gamelab_core::{Agent, AgentSpec, FileAccess, Game, Side, SpecError};

use crate::{Move, Othello, ggf};

/// The commands this engine knows, as `list_commands` gives them.
const COMMANDS: [&str; 19] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "list_games",
    "set_game",
    "time_settings",
    "time_left",
];

/// One engine's state between commands.
pub struct Session {
    spec: String,
    agent: Box<dyn Agent<Othello>>,
    /// The game from the standard start.
    game: Othello,
    /// Whether each move of the game was a pass played for a command's colour.
    implicit: Vec<bool>,
    /// Set by `quit`: the caller reads no more lines.
    pub quit: bool,
    control: TimeControl,
    /// Black's clock and white's, under a limit.
    clocks: [Option<Clock>; 2],
    /// The AI's spec, prepared (its files read) when the session started.
    prepared: PreparedSpec,
    /// The AI's spec at its deepest level, for play under a clock, when its spec leaves
    /// the level to its default (with the files `prepared` read).
    deepest: Option<PreparedSpec>,
}

impl Session {
    /// A session of the AI `spec` names (see `gamelab ais --game othello`).
    pub fn new(spec: &str) -> Result<Session, SpecError> {
        let registry = crate::ai::registry();
        let prepared = registry.prepare(spec, &FileAccess::Any)?;
        let agent = registry.build_prepared(&prepared)?;
        let parsed = AgentSpec::parse(spec)?;
        let deepest = registry.find(&parsed.name).and_then(|entry| {
            let level = entry.params.iter().find(|p| p.name == "level")?;
            let ParamKind::Int { max, .. } = level.kind else {
                return None;
            };
            if parsed.params.iter().any(|(name, _)| name == "level") {
                return None;
            }
            let mut deepest = parsed.clone();
            deepest.params.push(("level".into(), max.to_string()));
            Some(deepest.to_string())
        });
        let deepest = deepest
            .map(|spec| registry.prepare_from(&prepared, &spec, &FileAccess::Any))
            .transpose()?;
        Ok(Session {
            spec: spec.to_string(),
            agent,
            game: Othello::new(),
            implicit: Vec::new(),
            quit: false,
            control: TimeControl::Unlimited,
            clocks: [None, None],
            prepared,
            deepest,
        })
    }

    /// The answer to one line (`None` for an empty line or a comment), ending with the
    /// empty line GTP puts after every answer.
    pub fn handle(&mut self, line: &str) -> Option<String> {
        let line = preprocess(line);
        let mut words = line.split_whitespace().peekable();
        let id = words
            .next_if(|w| w.bytes().all(|b| b.is_ascii_digit()))
            .map(str::to_string)
            .unwrap_or_default();
        let command = words.next()?;
        let args: Vec<&str> = words.collect();
        Some(match self.run(command, &args) {
            Ok(text) if text.is_empty() => format!("={id}\n\n"),
            Ok(text) => format!("={id} {text}\n\n"),
            Err(reason) => format!("?{id} {reason}\n\n"),
        })
    }

    fn run(&mut self, command: &str, args: &[&str]) -> Result<String, String> {
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("gamelab".into()),
            "version" => Ok(format!("{} ({})", env!("CARGO_PKG_VERSION"), self.spec)),
            "known_command" => Ok(COMMANDS.contains(&one(command, args)?).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "boardsize" => match one(command, args)?.parse::<u32>() {
                Ok(8) => Ok(String::new()),
                Ok(_) => Err("unacceptable size: Othello's board is 8".into()),
                Err(_) => Err("syntax error: boardsize takes a number".into()),
            },
            "clear_board" => {
                self.game = Othello::new();
                self.implicit.clear();
                self.clocks = [self.control.start(), self.control.start()];
                Ok(String::new())
            }
            "time_settings" => {
                let [main, period, stones] = args else {
                    return Err("syntax error: time_settings takes the main time, the byo-yomi time (seconds) and the byo-yomi stones".into());
                };
                let main = number("main time", main)?;
                let period = number("byo-yomi time", period)?;
                let stones = whole("byo-yomi stones", stones)?;
                let control = TimeControl::from_gtp(main, period, stones)
                    .map_err(|e| format!("syntax error: {e}"))?;
                self.set_control(control)?;
                Ok(String::new())
            }
            "time_left" => {
                let [colour, time, stones] = args else {
                    return Err("syntax error: time_left takes a colour, the seconds left and the byo-yomi stones left (0 in main time)".into());
                };
                let black = read_colour(colour)?;
                let left = gamelab_core::clock::seconds("time left", number("time left", time)?)
                    .map_err(|e| format!("syntax error: {e}"))?;
                let stones = whole("stones left", stones)?;
                let clock = &mut self.clocks[usize::from(!black)];
                match clock {
                    Some(clock) => clock.set(left, stones),
                    None => *clock = Some(Clock::told(left, stones)),
                }
                Ok(String::new())
            }
            "komi" => one(command, args)?
                .parse::<f64>()
                .map(|_| String::new())
                .map_err(|_| "syntax error: komi takes a number".into()),
            "play" => {
                let [colour, vertex] = args else {
                    return Err(
                        "syntax error: play takes a colour and a vertex, e.g. play black F5".into(),
                    );
                };
                let black = read_colour(colour)?;
                let mv = ggf::read_move(vertex).ok_or_else(|| {
                    format!("syntax error: `{vertex}` is not a vertex (A1 to H8) or pass")
                })?;
                let before = self.implicit.len();
                self.turn_to(black)?;
                if let Err(e) = self.game.check_move(mv) {
                    // A pass played to reach the colour goes with the refused move.
                    self.take_back_to(before);
                    return Err(format!("illegal move: {e}"));
                }
                self.push(mv, false);
                Ok(String::new())
            }
            "genmove" | "reg_genmove" => {
                let black = read_colour(one(command, args)?)?;
                let before = self.implicit.len();
                self.turn_to(black)?;
                let clock = usize::from(!black);
                let started = Instant::now();
                let mv = self.choose(clock);
                if command == "genmove" {
                    if let Some(clock) = &mut self.clocks[clock] {
                        clock.spend(started.elapsed());
                    }
                    self.push(mv, false);
                } else {
                    // Nothing played: a pass made to reach the colour is taken back.
                    self.take_back_to(before);
                }
                Ok(match mv {
                    Move::Place(_) => ggf::write_move(mv),
                    Move::Pass => "pass".into(),
                })
            }
            "undo" => {
                if self.implicit.is_empty() {
                    return Err("cannot undo: no move has been played".into());
                }
                self.pop();
                while self.implicit.last() == Some(&true) {
                    self.pop();
                }
                Ok(String::new())
            }
            "showboard" => Ok(format!("\n{}", self.game.to_string().trim_end())),
            "final_score" => {
                let (b, w) = self.game.counts();
                Ok(match b.cmp(&w) {
                    std::cmp::Ordering::Greater => format!("B+{}", b - w),
                    std::cmp::Ordering::Less => format!("W+{}", w - b),
                    std::cmp::Ordering::Equal => "0".into(),
                })
            }
            // Quarry's extension: the games an engine plays, and the one to play.
            "list_games" => Ok("Othello".into()),
            "set_game" => match args.join(" ").to_ascii_lowercase().as_str() {
                "othello" | "reversi" => Ok(String::new()),
                _ => Err("unsupported game: this engine plays Othello".into()),
            },
            other => Err(format!("unknown command `{other}`")),
        }
    }

    /// Makes it `black`'s (or white's) turn: the side to move passes first when it must.
    fn turn_to(&mut self, black: bool) -> Result<(), String> {
        if self.game.black_to_move() != black && self.game.must_pass() {
            self.push(Move::Pass, true);
        }
        if self.game.is_over() {
            return Err("illegal move: the game is over".into());
        }
        if self.game.black_to_move() != black {
            let mover = if black { "white" } else { "black" };
            return Err(format!("illegal move: it is {mover}'s turn"));
        }
        Ok(())
    }

    /// The AI's move, within its share of `clock`'s time (0 black's, 1 white's) under a
    /// limit.
    fn choose(&mut self, clock: usize) -> Move {
        let side = if self.game.black_to_move() {
            Side::First
        } else {
            Side::Second
        };
        let share = self.clocks[clock].map(|c| c.move_time(self.game.moves_to_plan()));
        self.agent.set_move_time(share);
        if let Some(clock) = &self.clocks[clock] {
            self.agent.tell_clock(clock);
        }
        let mut rng = gamelab_core::game_rng(0, self.implicit.len() as u64, side);
        self.agent.choose(&self.game, &mut rng)
    }

    /// Starts both clocks afresh under `control`, with the AI at its deepest level under
    /// a limit (unless its spec sets the level) and as its spec says without one.
    fn set_control(&mut self, control: TimeControl) -> Result<(), String> {
        let limited = control != TimeControl::Unlimited;
        if let Some(deepest) = &self.deepest
            && limited != (self.control != TimeControl::Unlimited)
        {
            let spec = if limited { deepest } else { &self.prepared };
            self.agent = crate::ai::registry()
                .build_prepared(spec)
                .map_err(|e| format!("cannot set the clock: {e}"))?;
        }
        self.control = control;
        self.clocks = [control.start(), control.start()];
        Ok(())
    }

    fn push(&mut self, mv: Move, implicit: bool) {
        self.game.play_unchecked(mv);
        self.implicit.push(implicit);
    }

    fn pop(&mut self) {
        self.game.undo();
        self.implicit.pop();
    }

    /// Takes back the moves played after the first `moves`.
    fn take_back_to(&mut self, moves: usize) {
        while self.implicit.len() > moves {
            self.pop();
        }
    }
}

/// A command line as GTP 2 reads it (its section 3.1): the comment from `#` on cut, and
/// control characters other than tabs dropped.
pub fn preprocess(line: &str) -> String {
    line.split('#')
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .collect()
}

/// The one argument `command` takes.
fn one<'a>(command: &str, args: &[&'a str]) -> Result<&'a str, String> {
    match args {
        [arg] => Ok(arg),
        _ => Err(format!("syntax error: {command} takes one argument")),
    }
}

/// A count of moves in a command.
fn whole(what: &str, word: &str) -> Result<u32, String> {
    word.parse::<u32>().map_err(|_| {
        format!(
            "syntax error: {what} `{word}`: expected a whole number from 0 to {}",
            u32::MAX
        )
    })
}

/// A number of seconds in a command.
fn number(what: &str, word: &str) -> Result<f64, String> {
    word.parse::<f64>()
        .map_err(|_| format!("syntax error: {what} `{word}`: expected a number of seconds"))
}

/// Whether a GTP colour is black.
fn read_colour(word: &str) -> Result<bool, String> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(true),
        "w" | "white" => Ok(false),
        _ => Err(format!(
            "syntax error: `{word}` is not a colour (black or white)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn answer(session: &mut Session, line: &str) -> String {
        session.handle(line).expect("an answer")
    }

    #[test]
    fn under_a_clock_an_ai_whose_spec_leaves_the_level_searches_as_deep_as_it_can() {
        let deepest = |spec: &str| Session::new(spec).unwrap().deepest;
        let prepared = |spec: &str| crate::ai::registry().prepare(spec, &FileAccess::Any).ok();
        assert_eq!(deepest("engine"), prepared("engine:level=30"));
        assert_eq!(
            deepest("engine:book=shipped"),
            prepared("engine:book=shipped,level=30")
        );
        assert_eq!(deepest("engine:level=2"), None);
        assert_eq!(deepest("greedy"), None);
    }

    #[test]
    fn a_clock_set_keeps_the_model_the_session_started_with() {
        let (mut session, _dir) =
            crate::ai::started_then_model_damaged(|spec| Session::new(spec).unwrap());
        // Under a clock the AI is built again at its deepest level: from the bytes read
        // when the session started, not from the file as it is now.
        assert_eq!(answer(&mut session, "time_settings 600 0 0"), "=\n\n");
        assert_eq!(answer(&mut session, "time_settings 0 0 0"), "=\n\n");
    }

    #[test]
    fn the_clock_is_charged_for_each_move_and_told_by_time_left() {
        // The level set, so that the move is the level's whatever the machine.
        let mut session = Session::new("engine:level=2").unwrap();
        let unclocked = answer(&mut session, "reg_genmove black");
        assert_eq!(answer(&mut session, "time_settings 600 0 0"), "=\n\n");
        let start = (Duration::from_secs(600), 0);
        assert_eq!(session.clocks[0].unwrap().reading(), start);
        assert_eq!(answer(&mut session, "genmove black"), unclocked);
        let (left, stones) = session.clocks[0].unwrap().reading();
        assert!(left < start.0 && stones == 0, "{left:?}");
        // White's clock has not run; what an outside clock says wins.
        assert_eq!(session.clocks[1].unwrap().reading(), start);
        assert_eq!(answer(&mut session, "time_left white 12 3"), "=\n\n");
        assert_eq!(
            session.clocks[1].unwrap().reading(),
            (Duration::from_secs(12), 3)
        );
        // A new game starts both clocks afresh; no limit stops them.
        assert_eq!(answer(&mut session, "clear_board"), "=\n\n");
        assert_eq!(session.clocks, [Some(session.control.start().unwrap()); 2]);
        assert_eq!(answer(&mut session, "time_settings 0 1 0"), "=\n\n");
        assert_eq!(session.clocks, [None, None]);
        // time_left alone is a clock too.
        assert_eq!(answer(&mut session, "time_left b 30 0"), "=\n\n");
        assert_eq!(
            session.clocks[0].unwrap().reading(),
            (Duration::from_secs(30), 0)
        );
    }

    #[test]
    fn clock_commands_that_cannot_be_read_are_refused() {
        let mut session = Session::new("greedy").unwrap();
        for line in [
            "time_settings 300 0",
            "time_settings -1 0 0",
            "time_settings NaN 0 0",
            "time_settings inf 0 0",
            "time_settings 1e300 0 0",
            "time_settings 300 30 -5",
            "time_settings 300 30 five",
            "time_left black 10",
            "time_left purple 10 0",
            "time_left white -3 0",
            "time_left white 10 99999999999",
        ] {
            let reply = answer(&mut session, line);
            assert!(reply.starts_with("? syntax error"), "{line}: {reply}");
        }
        assert_eq!(
            answer(&mut session, "time_settings 300 30 five"),
            "? syntax error: byo-yomi stones `five`: expected a whole number from 0 to 4294967295\n\n"
        );
        assert_eq!(
            answer(&mut session, "time_settings -1 0 0"),
            "? syntax error: main time -1: expected seconds from 0 to 31536000\n\n"
        );
        assert_eq!(session.control, TimeControl::Unlimited);
    }
}
