//! `gamelab verify AI`: does the AI never lose, as o and as x? Every opponent reply and
//! every one of the AI's own best moves is followed to the end.

use std::fmt::Write;

use clap::Args;
use gamelab_core::proof::never_loses;
use gamelab_core::{Game, Side};
use gamelab_ttt::Ttt;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The AI, e.g. `ai14s` or `ai12s:ver=3`.
    ai: String,
}

pub fn run(args: VerifyArgs) -> anyhow::Result<()> {
    let registry = gamelab_learn::catalogue();
    let mut agent = registry.build(&args.ai)?;
    let mut out = String::new();
    for side in Side::BOTH {
        let proof = never_loses::<Ttt>(&mut *agent, &args.ai, side)?;
        let name = Ttt::side_name(side);
        match proof.losing_line {
            None => {
                let _ = writeln!(
                    out,
                    "{} as {name}: never loses ({} positions checked)",
                    args.ai, proof.positions
                );
            }
            Some(line) => {
                let mut game = Ttt::start();
                let mut moves = Vec::new();
                for mv in &line {
                    moves.push(format!("{} {mv}", Ttt::side_name(game.to_move())));
                    game.play(*mv);
                }
                let _ = writeln!(
                    out,
                    "{} as {name}: can lose, e.g. {}\n{game}",
                    args.ai,
                    moves.join(", ")
                );
            }
        }
    }
    print!("{out}");
    Ok(())
}
