//! `gamelab games`: the catalogue — every game with its sides, board structures and
//! notation, as `--game` takes them.

use std::fmt::Write;

use clap::Args;
use gamelab_core::{Described, GameVisitor, Side};

#[derive(Args, Debug)]
pub struct GamesArgs {}

struct Describe(&'static [&'static str]);

impl GameVisitor for Describe {
    type Output = String;
    fn visit<G: Described>(self) -> String {
        let mut out = String::new();
        let sides = Side::BOTH.map(G::side_name);
        let _ = writeln!(out, "{}  {}", G::NAME, G::TITLE);
        let _ = writeln!(
            out,
            "    sides      --{} (moves first), --{}",
            sides[0], sides[1]
        );
        let _ = writeln!(out, "    moves      {}", G::move_syntax());
        let _ = writeln!(out, "    positions  {}", G::position_syntax());
        let _ = writeln!(out, "    boards     {}", self.0.join(", "));
        let _ = writeln!(
            out,
            "    AIs        {}",
            G::registry()
                .entries()
                .iter()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(", ")
        );
        out
    }
}

pub fn run(_: GamesArgs) -> anyhow::Result<()> {
    for entry in gamelab_games::GAMES {
        print!(
            "{}",
            gamelab_games::visit(entry.name, None, Describe(entry.boards))?
        );
    }
    Ok(())
}
