//! `gamelab play`: a game in the terminal, each side a human or an agent, on the door's
//! play session (the one the web app's Play view uses: the same seed gives the same game).

use std::io::{self, BufRead, Write};

use anyhow::bail;
use clap::Args;
use gamelab_core::session::SessionError;
use gamelab_core::{FileAccess, Side};
use gamelab_games::session::{AnySession, SessionStart, StartError, StartFrom, start_session};

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Start from this position instead of the start, in the game's notation (each game's
    /// notation: `gamelab games`).
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    from: Option<String>,
    /// Seed of the agents' random streams (default: from the clock, printed so the game can
    /// be replayed).
    #[arg(long)]
    seed: Option<u64>,
    /// A game clock for each side in seconds, as `match --clock` takes it (`300`,
    /// `300+5`, `300/30/5`): a person's runs while the prompt waits, an AI's while it
    /// thinks (it is given its share); a side whose time runs out loses.
    #[arg(long, value_name = "CLOCK")]
    clock: Option<gamelab_core::clock::TimeControl>,
    #[command(flatten)]
    game: crate::game_args::GameArgs,
    /// Who plays each side, by the game's own name for the side: filled in by `main` from
    /// the options `side_options` made from the catalogue.
    #[arg(skip)]
    pub players: Vec<(String, String)>,
}

/// The options that name a side, from every game of the catalogue: `(side name, help)`.
pub fn side_options() -> Vec<(&'static str, String)> {
    let mut options: Vec<(&'static str, String)> = Vec::new();
    for entry in gamelab_games::GAMES {
        let sides = (gamelab_games::game_info(entry.name))
            .expect("the catalogue's own games")
            .sides;
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

/// The players of the two sides from the side options given; a side of another game is an
/// error that names this game's sides.
fn players(
    game: &str,
    names: [&str; 2],
    given: &[(String, String)],
) -> anyhow::Result<[String; 2]> {
    let mut players = [String::from("human"), String::from("human")];
    for (side, player) in given {
        let Some(i) = names.iter().position(|n| n == side) else {
            bail!(
                "--{side} is not a side of {game}: its sides are --{} (moves first) and --{}",
                names[0],
                names[1]
            );
        };
        players[i] = player.clone();
    }
    Ok(players)
}

pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    let game = &args.game.game;
    let sides = gamelab_games::game_info(game)?.sides;
    let players = players(game, sides, &args.players)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let start = SessionStart {
        game: game.clone(),
        board: args.game.board.clone(),
        players,
        seed,
        from: args.from.clone().map_or(StartFrom::Start, StartFrom::Text),
        moves: Vec::new(),
        record: None,
        clock: args.clock.unwrap_or_default(),
        headers: None,
    };
    let mut session = start_session(&start, &FileAccess::Any).map_err(|e| match e {
        StartError::Player { spec, source, .. } => anyhow::Error::new(*source)
            .context(format!("`{spec}` is neither `human` nor a usable AI")),
        e => e.into(),
    })?;
    if Side::BOTH.iter().any(|&side| session.spec(side).is_some()) {
        println!("seed {seed}");
    }
    if let Some(clock) = args.clock {
        println!("clock: {}", clock.describe());
    }
    let stdin = io::stdin();
    let stdout = io::stdout();
    play_session(&mut *session, &mut stdin.lock(), &mut stdout.lock())?;
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
pub fn play_session(
    session: &mut dyn AnySession,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> io::Result<SessionEnd> {
    let mut line = String::new();
    writeln!(out, "{}", session.text())?;
    loop {
        if let Some(outcome) = session.outcome() {
            writeln!(out, "{}.", capitalise(&outcome))?;
            return Ok(SessionEnd::Finished);
        }
        if let Some(flag) = session.flag() {
            let winner = session.side_name(flag.side.opponent());
            writeln!(
                out,
                "{}: {} wins on time.",
                capitalise(&flag.reason),
                capitalise(winner)
            )?;
            return Ok(SessionEnd::Finished);
        }
        let side = session.to_move();
        let name = session.side_name(side);
        if let Some(spec) = session.spec(side) {
            match session.ai_move(None) {
                // In the notation a person types.
                Ok(mv) => writeln!(out, "{name} ({spec}) plays {mv}")?,
                // The flag is read at the top of the loop.
                Err(SessionError::OutOfTime(_)) => continue,
                // An outside program that failed: it loses the game.
                Err(SessionError::Forfeit { spec, reason }) => {
                    let winner = session.side_name(side.opponent());
                    writeln!(
                        out,
                        "{spec} gave up instead of moving: {reason}. {} wins.",
                        capitalise(winner)
                    )?;
                    return Ok(SessionEnd::Finished);
                }
                Err(e) => {
                    writeln!(out, "{e}")?;
                    return Ok(SessionEnd::Finished);
                }
            }
        } else {
            write!(
                out,
                "{name} to move [{} | undo | exit]{}: ",
                session.move_hint(),
                clocks(session)
            )?;
            out.flush()?;
            line.clear();
            let mut bytes = Vec::new();
            if input.read_until(b'\n', &mut bytes)? == 0 {
                writeln!(out)?;
                writeln!(out, "End of input; leaving the game.")?;
                return Ok(SessionEnd::EndOfInput);
            }
            // A line that is not UTF-8 text (a stray key, a binary paste) is a bad move,
            // not the end of the game.
            match String::from_utf8(bytes) {
                Ok(text) => line = text,
                Err(_) => {
                    writeln!(
                        out,
                        "That line is not UTF-8 text; type a move ({}).",
                        session.move_syntax()
                    )?;
                    continue;
                }
            }
            match line.trim() {
                "" => continue,
                "exit" | "quit" => return Ok(SessionEnd::Exit),
                "help" => {
                    writeln!(
                        out,
                        "Type a move ({}), `undo` to take back your last move, or `exit`.",
                        session.move_syntax()
                    )?;
                    continue;
                }
                "undo" => {
                    if let Err(e) = session.undo() {
                        writeln!(out, "{}.", capitalise(&e.to_string()))?;
                        continue;
                    }
                }
                text => match session.play(text) {
                    Ok(_) => {}
                    Err(SessionError::OutOfTime(_)) => continue,
                    Err(err) => {
                        writeln!(out, "{err}")?;
                        continue;
                    }
                },
            }
        }
        writeln!(out, "{}", session.text())?;
    }
}

/// Both clocks for the prompt (` (o 4:59.2, x 5:00.0)`), or nothing off the clock.
fn clocks(session: &mut dyn AnySession) -> String {
    let Some(reading) = session.clock_reading() else {
        return String::new();
    };
    let sides: Vec<String> = Side::BOTH
        .iter()
        .map(|&side| {
            let (left, stones) = reading.left[side.index()];
            let tenths = (left.as_secs_f64() * 10.0).floor() as u64;
            let period = if stones > 0 {
                format!(" for {stones} moves")
            } else {
                String::new()
            };
            format!(
                "{} {}:{:02}.{}{period}",
                session.side_name(side),
                tenths / 600,
                tenths / 10 % 60,
                tenths % 10
            )
        })
        .collect();
    format!(" ({})", sides.join(", "))
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
