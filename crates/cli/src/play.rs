//! `gamelab play`: a game in the terminal, each side a human or an agent, on gamelab-core's
//! play session (the one the web app's Play view uses: the same seed gives the same game).

use std::io::{self, BufRead, Write};

use anyhow::{Context, bail};
use clap::Args;
use gamelab_core::session::{PlaySession, Seat};
use gamelab_core::{Described, GameVisitor, Side};

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Start from this position instead of the start, in the game's notation (tic-tac-toe:
    /// a 9-character board string `.ox` row by row, or a move list `1,1 0,0`).
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    from: Option<String>,
    /// Seed of the agents' random streams (default: from the clock, printed so the game can
    /// be replayed).
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    game: crate::game_args::GameArgs,
    /// Who plays each side, by the game's own name of the side (`--o`/`--x` for
    /// tic-tac-toe, `--black`/`--white` for Othello): filled in by `main` from the
    /// catalogue.
    #[arg(skip)]
    pub players: Vec<(String, String)>,
}

/// The options that name a side, from every game of the catalogue: `(side name, help)`.
pub fn side_options() -> Vec<(&'static str, String)> {
    struct Sides;
    impl GameVisitor for Sides {
        type Output = [&'static str; 2];
        fn visit<G: Described>(self) -> [&'static str; 2] {
            Side::BOTH.map(G::side_name)
        }
    }
    let mut options: Vec<(&'static str, String)> = Vec::new();
    for entry in gamelab_games::GAMES {
        let sides =
            gamelab_games::visit(entry.name, None, Sides).expect("the catalogue's own games");
        for (i, side) in sides.into_iter().enumerate() {
            let help = format!(
                "{}: who plays {side}{} — `human` (default) or an AI spec such as those of `gamelab ais --game {}`",
                entry.title,
                if i == 0 { " (moves first)" } else { "" },
                entry.name
            );
            match options.iter_mut().find(|(name, _)| *name == side) {
                Some((_, h)) => h.push_str(&format!("; {help}")),
                None => options.push((side, help)),
            }
        }
    }
    options
}

pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    args.game.visit(&args)?
}

impl GameVisitor for &PlayArgs {
    type Output = anyhow::Result<()>;
    fn visit<G: Described>(self) -> anyhow::Result<()> {
        run_game::<G>(self)
    }
}

/// The players of the two sides from the side options given; a side of another game is an
/// error that names this game's sides.
fn players<G: Described>(given: &[(String, String)]) -> anyhow::Result<[String; 2]> {
    let names = Side::BOTH.map(G::side_name);
    let mut players = [String::from("human"), String::from("human")];
    for (side, player) in given {
        let Some(i) = names.iter().position(|n| n == side) else {
            bail!(
                "--{side} is not a side of {}: its sides are --{} (moves first) and --{}",
                G::NAME,
                names[0],
                names[1]
            );
        };
        players[i] = player.clone();
    }
    Ok(players)
}

fn run_game<G: Described>(args: &PlayArgs) -> anyhow::Result<()> {
    let game = match &args.from {
        Some(text) => {
            G::parse_position(text).with_context(|| format!("cannot start from `{text}`"))?
        }
        None => G::start(),
    };
    let registry = G::registry();
    let [first, second] = players::<G>(&args.players)?;
    let seat = |spec: &str| {
        Seat::from_spec(spec, &registry)
            .with_context(|| format!("`{spec}` is neither `human` nor a usable AI"))
    };
    let seats = [seat(&first)?, seat(&second)?];
    let seed = args.seed.unwrap_or_else(clock_seed);
    if seats.iter().any(|s| !s.is_human()) {
        println!("seed {seed}");
    }
    let stdin = io::stdin();
    let stdout = io::stdout();
    play_session(
        PlaySession::new(game, seats, seed),
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

/// Plays the session to its end: asks humans for moves on `input`, lets agents choose, and
/// writes every position to `out`.
pub fn play_session<G: Described>(
    mut session: PlaySession<G>,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> io::Result<SessionEnd> {
    let mut line = String::new();
    writeln!(out, "{}", session.game())?;
    loop {
        if let Some(outcome) = session.game().outcome() {
            writeln!(out, "{}.", capitalise(&G::describe_outcome(outcome)))?;
            return Ok(SessionEnd::Finished);
        }
        let side = session.game().to_move();
        let name = G::side_name(side);
        if let Some(spec) = session.seats()[side.index()].spec().map(str::to_string) {
            let mv = session
                .ai_move()
                .expect("an AI is to move in a game that goes on");
            writeln!(out, "{name} ({spec}) plays {mv}")?;
        } else {
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
                    if session.undo().is_err() {
                        writeln!(out, "Nothing to undo.")?;
                        continue;
                    }
                }
                text => {
                    if let Err(err) = session.play_text(text) {
                        writeln!(out, "{err}")?;
                        continue;
                    }
                }
            }
        }
        writeln!(out, "{}", session.game())?;
    }
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
    use gamelab_core::Game;
    use gamelab_core::{BestMoves, Uniform};
    use gamelab_ttt::Ttt;
    use gamelab_ttt::board::Moves;

    use super::*;

    fn session(game: Ttt, seats: [Seat<Ttt>; 2], input: &str) -> (SessionEnd, String) {
        let mut out = Vec::new();
        let session = PlaySession::new(game, seats, 0);
        let end = play_session(session, &mut input.as_bytes(), &mut out).unwrap();
        (end, String::from_utf8(out).unwrap())
    }

    fn humans() -> [Seat<Ttt>; 2] {
        [Seat::Human, Seat::Human]
    }

    const PROMPT: &str = "o to move [x,y | undo | exit]: ";

    #[test]
    fn a_whole_game_between_humans() {
        let input = "1,1\n0,0\n2,0\n0,2\n0,1\n2,1\n1,0\n1,2\n2,2\n";
        let (end, out) = session(Ttt::start(), humans(), input);
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
        let (end, out) = session(Ttt::start(), humans(), "abc\n3,0\n1,1\n1,1\n\nexit\n");
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
        let (end, out) = session(Ttt::start(), humans(), "1,1\n");
        assert_eq!(end, SessionEnd::EndOfInput);
        assert!(
            out.ends_with("x to move [x,y | undo | exit]: \nEnd of input; leaving the game.\n"),
            "{out}"
        );
    }

    #[test]
    fn undo_between_humans_takes_back_one_move() {
        let (_, out) = session(Ttt::start(), humans(), "1,1\n0,0\nundo\nexit\n");
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
        let seats = [
            Seat::Human,
            Seat::Ai {
                spec: "first".into(),
                agent: Box::new(Uniform(First)),
            },
        ];
        let (end, out) = session(Ttt::start(), seats, "1,1\nundo\nundo\nexit\n");
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
        let agent = || Seat::Ai {
            spec: "first".into(),
            agent: Box::new(Uniform(First)),
        };
        let (end, out) = session(Ttt::start(), [agent(), agent()], "");
        assert_eq!(end, SessionEnd::Finished);
        // Both fill the board row by row: o(0,0) x(1,0) o(2,0) x(0,1) o(1,1) x(2,1) o(0,2),
        // and o wins on the diagonal from (2,0).
        assert!(out.ends_with("winner o\noxo\nxox\nO..\nO wins.\n"), "{out}");
    }
}
