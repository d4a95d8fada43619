//! `gamelab play`: a game in the terminal, each side a human or an agent.

use std::io::{self, BufRead, Write};

use anyhow::Context;
use clap::Args;
use gamelab_core::{Agent, Game, GameRng, Registry, Side, game_rng};

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Who plays o (moves first): `human` or an AI spec such as `ai14s` or
    /// `ai12s:score_victory=200` (see `gamelab ais`).
    #[arg(long = "o", value_name = "PLAYER", default_value = "human")]
    first: String,
    /// Who plays x: `human` or an AI spec.
    #[arg(long = "x", value_name = "PLAYER", default_value = "human")]
    second: String,
    /// Start from this position instead of the empty board: a 9-character board string
    /// (`.ox` row by row) or a move list (`1,1 0,0`).
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    from: Option<String>,
    /// Seed of the agents' random streams (default: from the clock, printed so the game can
    /// be replayed).
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    board: crate::board_args::BoardArgs,
}

/// Who makes the moves for one side.
pub enum Seat<G: Game> {
    Human,
    Agent {
        name: String,
        agent: Box<dyn Agent<G>>,
    },
}

impl<G: Game> Seat<G> {
    fn is_human(&self) -> bool {
        matches!(self, Seat::Human)
    }
}

/// Builds the seat for a player spec given on the command line: `human` or an AI.
fn seat<G: Game>(spec: &str, registry: &Registry<G>) -> anyhow::Result<Seat<G>> {
    if spec == "human" {
        return Ok(Seat::Human);
    }
    let agent = registry
        .build(spec)
        .with_context(|| format!("`{spec}` is neither `human` nor a usable AI"))?;
    Ok(Seat::Agent {
        name: spec.to_string(),
        agent,
    })
}

pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    crate::with_game!(args.board, G, registry => run_game::<G>(&args, &registry))
}

fn run_game<G: Game>(args: &PlayArgs, registry: &Registry<G>) -> anyhow::Result<()> {
    let game = match &args.from {
        Some(text) => {
            G::parse_position(text).with_context(|| format!("cannot start from `{text}`"))?
        }
        None => G::start(),
    };
    let mut seats = [seat(&args.first, registry)?, seat(&args.second, registry)?];
    let seed = args.seed.unwrap_or_else(clock_seed);
    if seats.iter().any(|s| !s.is_human()) {
        println!("seed {seed}");
    }
    let stdin = io::stdin();
    let stdout = io::stdout();
    play_session(
        game,
        &mut seats,
        seed,
        &mut stdin.lock(),
        &mut stdout.lock(),
    )?;
    Ok(())
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

/// How a session ended.
#[derive(Debug, PartialEq, Eq)]
pub enum SessionEnd {
    Finished,
    Exit,
    EndOfInput,
}

/// Plays `game` to its end: asks humans for moves on `input`, lets agents choose with their
/// own stream of the seed, and writes every position to `out`.
pub fn play_session<G: Game>(
    mut game: G,
    seats: &mut [Seat<G>; 2],
    seed: u64,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> io::Result<SessionEnd> {
    let mut rngs: [GameRng; 2] = Side::BOTH.map(|side| game_rng(seed, 0, side));
    let mut line = String::new();
    writeln!(out, "{game}")?;
    loop {
        if let Some(outcome) = game.outcome() {
            writeln!(out, "{}.", capitalise(&G::describe_outcome(outcome)))?;
            return Ok(SessionEnd::Finished);
        }
        let side = game.to_move();
        let name = G::side_name(side);
        match &mut seats[side.index()] {
            Seat::Agent {
                name: agent,
                agent: a,
            } => {
                let mv = a.choose(&game, &mut rngs[side.index()]);
                writeln!(out, "{name} ({agent}) plays {mv}")?;
                game.play(mv);
            }
            Seat::Human => {
                write!(out, "{name} to move [{} | undo | exit]: ", G::move_hint())?;
                out.flush()?;
                line.clear();
                if input.read_line(&mut line)? == 0 {
                    writeln!(out)?;
                    writeln!(out, "End of input; leaving the game.")?;
                    return Ok(SessionEnd::EndOfInput);
                }
                match line.trim() {
                    "" => continue,
                    "exit" | "quit" => return Ok(SessionEnd::Exit),
                    "help" => {
                        writeln!(
                            out,
                            "Type a move ({}), `undo` to take back your last move, or `exit`.",
                            G::move_syntax()
                        )?;
                        continue;
                    }
                    "undo" => {
                        if !undo_to_human(&mut game, seats) {
                            writeln!(out, "Nothing to undo.")?;
                            continue;
                        }
                    }
                    text => match game.parse_move(text) {
                        Ok(mv) => game.play(mv),
                        Err(err) => {
                            writeln!(out, "{err}")?;
                            continue;
                        }
                    },
                }
            }
        }
        writeln!(out, "{game}")?;
    }
}

/// Takes back moves until a human is to move again (at least one move); false if there was
/// nothing to take back.
fn undo_to_human<G: Game>(game: &mut G, seats: &[Seat<G>; 2]) -> bool {
    if game.undo().is_none() {
        return false;
    }
    while !seats[game.to_move().index()].is_human() && game.ply() > 0 {
        game.undo();
    }
    true
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use gamelab_core::{BestMoves, Uniform};
    use gamelab_ttt::Ttt;
    use gamelab_ttt::board::Moves;

    use super::*;

    fn session(game: Ttt, seats: &mut [Seat<Ttt>; 2], input: &str) -> (SessionEnd, String) {
        let mut out = Vec::new();
        let end = play_session(game, seats, 0, &mut input.as_bytes(), &mut out).unwrap();
        (end, String::from_utf8(out).unwrap())
    }

    fn humans() -> [Seat<Ttt>; 2] {
        [Seat::Human, Seat::Human]
    }

    const PROMPT: &str = "o to move [x,y | undo | exit]: ";

    #[test]
    fn a_whole_game_between_humans() {
        let input = "1,1\n0,0\n2,0\n0,2\n0,1\n2,1\n1,0\n1,2\n2,2\n";
        let (end, out) = session(Ttt::start(), &mut humans(), input);
        assert_eq!(end, SessionEnd::Finished);
        assert!(out.starts_with("Turn o\n...\n...\n...\no to move"), "{out}");
        assert!(
            out.ends_with("winner draw\nxoo\noox\nxxO\nDraw.\n"),
            "{out}"
        );
        assert_eq!(out.matches(" to move [").count(), 9);
    }

    #[test]
    fn bad_input_gets_one_line_and_a_new_prompt() {
        let (end, out) = session(Ttt::start(), &mut humans(), "abc\n3,0\n1,1\n1,1\n\nexit\n");
        assert_eq!(end, SessionEnd::Exit);
        let expected = [
            "Turn o\n...\n...\n...\n",
            PROMPT,
            "`abc` is not a square: type x,y with x the column and y the row, each 0-2 (1,1 is the centre)\n",
            PROMPT,
            "(3, 0) is off the board: x and y must each be 0, 1 or 2\n",
            PROMPT,
            "Turn x\n...\n.O.\n...\n",
            "x to move [x,y | undo | exit]: ",
            "(1, 1) is already taken by o\n",
            "x to move [x,y | undo | exit]: ",
            "x to move [x,y | undo | exit]: ",
        ]
        .concat();
        assert_eq!(out, expected);
    }

    #[test]
    fn end_of_input_leaves_cleanly() {
        let (end, out) = session(Ttt::start(), &mut humans(), "1,1\n");
        assert_eq!(end, SessionEnd::EndOfInput);
        assert!(
            out.ends_with("x to move [x,y | undo | exit]: \nEnd of input; leaving the game.\n"),
            "{out}"
        );
    }

    #[test]
    fn undo_between_humans_takes_back_one_move() {
        let (_, out) = session(Ttt::start(), &mut humans(), "1,1\n0,0\nundo\nexit\n");
        assert!(out.ends_with("Turn o\nX..\n.o.\n...\no to move [x,y | undo | exit]: Turn x\n...\n.O.\n...\nx to move [x,y | undo | exit]: "), "{out}");
    }

    #[test]
    fn undo_goes_back_to_the_humans_turn_past_an_agent() {
        /// Always the first legal square: enough to test seating.
        struct First;
        impl BestMoves<Ttt> for First {
            fn best_moves(&mut self, game: &Ttt) -> Moves {
                game.legal_moves().into_iter().take(1).collect()
            }
        }
        let mut seats = [
            Seat::Human,
            Seat::Agent {
                name: "first".into(),
                agent: Box::new(Uniform(First)),
            },
        ];
        let (end, out) = session(Ttt::start(), &mut seats, "1,1\nundo\nundo\nexit\n");
        assert_eq!(end, SessionEnd::Exit);
        let expected = [
            "Turn o\n...\n...\n...\n",
            PROMPT,
            "Turn x\n...\n.O.\n...\n",
            "x (first) plays (0, 0)\n",
            "Turn o\nX..\n.o.\n...\n",
            PROMPT,
            // one undo takes back the agent's reply and the human's move
            "Turn o\n...\n...\n...\n",
            PROMPT,
            "Nothing to undo.\n",
            PROMPT,
        ]
        .concat();
        assert_eq!(out, expected);
    }

    #[test]
    fn agents_alone_play_to_the_end() {
        struct First;
        impl BestMoves<Ttt> for First {
            fn best_moves(&mut self, game: &Ttt) -> Moves {
                game.legal_moves().into_iter().take(1).collect()
            }
        }
        let agent = || Seat::Agent {
            name: "first".into(),
            agent: Box::new(Uniform(First)),
        };
        let (end, out) = session(Ttt::start(), &mut [agent(), agent()], "");
        assert_eq!(end, SessionEnd::Finished);
        // Both fill the board row by row: o(0,0) x(1,0) o(2,0) x(0,1) o(1,1) x(2,1) o(0,2),
        // and o wins on the diagonal from (2,0).
        assert!(out.ends_with("winner o\noxo\nxox\nO..\nO wins.\n"), "{out}");
    }
}
