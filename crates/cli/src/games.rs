//! `gamelab games`: the catalogue — every game with its sides, board structures and
//! notation, as `--game` takes them.

use std::fmt::Write;

use clap::Args;

#[derive(Args, Debug)]
pub struct GamesArgs {}

/// A game's entry in the list: its sides, notation, board structures and AIs.
fn describe(entry: &gamelab_games::Entry) -> anyhow::Result<String> {
    let info = gamelab_games::game_info(entry.name)?;
    let mut out = String::new();
    let _ = writeln!(out, "{}  {}", info.name, info.title);
    let _ = writeln!(
        out,
        "    sides      --{} (moves first), --{}",
        info.sides[0], info.sides[1]
    );
    let _ = writeln!(out, "    moves      {}", info.move_syntax);
    let _ = writeln!(out, "    positions  {}", info.position_syntax);
    let _ = writeln!(out, "    boards     {}", entry.boards.join(", "));
    let ais: Vec<&str> = info.ais.iter().map(|ai| ai.name).collect();
    let _ = writeln!(out, "    AIs        {}", ais.join(", "));
    Ok(out)
}

pub fn run(_: GamesArgs) -> anyhow::Result<()> {
    for entry in gamelab_games::GAMES {
        print!("{}", describe(entry)?);
    }
    Ok(())
}
