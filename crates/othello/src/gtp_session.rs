//! The engine side of the Go Text Protocol (version 2) for Othello: a gamelab Othello AI
//! answering the commands Quarry and GRhino's tools send, one line at a time; vertices
//! are a column letter and a row, 1 at the top (`F5`). `gamelab gtp` runs it on standard
//! input and output.
//!
//! Understood: `protocol_version`, `name`, `version`, `known_command`, `list_commands`,
//! `quit`, `boardsize` (8 only), `clear_board`, `komi` (read, then ignored: Othello has
//! none), `play`, `genmove`, `reg_genmove`, `undo`, `showboard`, `final_score`, and
//! Quarry's `list_games` (Othello) and `set_game` (Othello or Reversi). A command
//! may carry a number, which its answer echoes. A `play` or `genmove` for the side that
//! does not have the move, when the side that has it must pass, plays that pass first (as
//! GRhino does); `play COLOUR pass` is taken too. A command that cannot be carried out
//! gets `? reason` and the engine goes on.

use gamelab_core::{Agent, Game, Side, SpecError};

use crate::{Move, Othello, ggf};

/// The commands this engine knows, as `list_commands` gives them.
const COMMANDS: [&str; 17] = [
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
}

impl Session {
    /// A session of the AI `spec` names (see `gamelab ais --game othello`).
    pub fn new(spec: &str) -> Result<Session, SpecError> {
        let agent = crate::ai::registry().build(spec)?;
        Ok(Session {
            spec: spec.to_string(),
            agent,
            game: Othello::new(),
            implicit: Vec::new(),
            quit: false,
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
                let mv = self.choose();
                if command == "genmove" {
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

    fn choose(&mut self) -> Move {
        let side = if self.game.black_to_move() {
            Side::First
        } else {
            Side::Second
        };
        let mut rng = gamelab_core::game_rng(0, self.implicit.len() as u64, side);
        self.agent.choose(&self.game, &mut rng)
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
