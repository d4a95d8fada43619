//! `gamelab verify AI`: does the AI never lose, on either side? Every opponent reply and
//! every one of the AI's own best moves is followed to the end (games whose tree fits in
//! memory).

use std::fmt::Write;

use clap::Args;
use gamelab_games::experiments::{self, Entrant};

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The AI, e.g. `ai14s` or `ai12s:ver=3`.
    ai: String,
    #[command(flatten)]
    game: crate::game_args::GameArgs,
}

pub fn run(args: VerifyArgs) -> anyhow::Result<()> {
    let spinner = crate::progress::spinner(&format!("proving {}", args.ai));
    let proofs = experiments::verify(
        &args.game.game,
        args.game.board.as_deref(),
        &Entrant::Spec(args.ai.clone()),
    )
    .map_err(crate::game_args::experiment_error)?;
    crate::progress::finish(spinner);
    let mut out = String::new();
    for proof in proofs {
        let name = proof.side;
        match (&proof.losing_line, &proof.lost_position) {
            (Some(line), Some(position)) => {
                // `;` between moves: tic-tac-toe's moves hold a comma.
                let moves: Vec<String> = line
                    .iter()
                    .zip(&proof.movers)
                    .map(|(mv, side)| format!("{side} {mv}"))
                    .collect();
                let _ = writeln!(
                    out,
                    "{} as {name}: can lose, e.g. {}\n{position}",
                    args.ai,
                    moves.join("; ")
                );
            }
            _ => {
                let _ = writeln!(
                    out,
                    "{} as {name}: never loses ({} positions checked)",
                    args.ai, proof.positions
                );
            }
        }
    }
    print!("{out}");
    Ok(())
}
