//! `gamelab verify AI`: does the AI never lose, on either side? Every opponent reply and
//! every one of the AI's own best moves is followed to the end (games whose tree fits in
//! memory).

use std::fmt::Write;

use clap::Args;
use gamelab_core::proof::never_loses;
use gamelab_core::{Described, GameVisitor, Side};

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The AI, e.g. `ai14s` or `ai12s:ver=3`.
    ai: String,
    #[command(flatten)]
    game: crate::game_args::GameArgs,
}

pub fn run(args: VerifyArgs) -> anyhow::Result<()> {
    print!("{}", args.game.visit(&args)??);
    Ok(())
}

impl GameVisitor for &VerifyArgs {
    type Output = anyhow::Result<String>;
    fn visit<G: Described>(self) -> Self::Output {
        verify::<G>(self)
    }
}

fn verify<G: Described>(args: &VerifyArgs) -> anyhow::Result<String> {
    let mut agent = G::registry().build(&args.ai)?;
    let mut out = String::new();
    let spinner = crate::progress::spinner(&format!("proving {}", args.ai));
    for side in Side::BOTH {
        let proof = never_loses::<G>(&mut *agent, &args.ai, side)?;
        let name = G::side_name(side);
        match proof.losing_line {
            None => {
                let _ = writeln!(
                    out,
                    "{} as {name}: never loses ({} positions checked)",
                    args.ai, proof.positions
                );
            }
            Some(line) => {
                let mut game = G::start();
                let mut moves = Vec::new();
                for mv in &line {
                    moves.push(format!("{} {mv}", G::side_name(game.to_move())));
                    game.play_unchecked(*mv);
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
    crate::progress::finish(spinner);
    Ok(out)
}
