//! `gamelab move AI POSITION`: the moves an AI considers best in a position, and why.

use anyhow::{Context, bail};
use clap::Args;
use gamelab_core::{Game, Registry};

#[derive(Args, Debug)]
pub struct MoveArgs {
    /// The AI, e.g. `ai14s` or `ai12s:ver=1` (see `gamelab ais`).
    ai: String,
    /// The position: a 9-character board string (`.ox` row by row, e.g. `o...x....`), the
    /// text form, or a move list (`1,1 0,0`); for Othello, 64 squares and the side to move.
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// Print the AI's trace: each move, the position after it, its score (the seed's
    /// `debug=True`).
    #[arg(long)]
    debug: bool,
    #[command(flatten)]
    board: crate::board_args::BoardArgs,
}

pub fn run(args: MoveArgs) -> anyhow::Result<()> {
    let text = crate::with_game!(args.board, G, registry => report::<G>(&args, &registry)?);
    print!("{text}");
    Ok(())
}

/// The position, the trace when asked, and the best moves with their probabilities.
pub fn report<G: Game>(args: &MoveArgs, registry: &Registry<G>) -> anyhow::Result<String> {
    let game = G::parse_position(&args.position)
        .with_context(|| format!("cannot read the position `{}`", args.position))?;
    let mut agent = registry.build(&args.ai)?;
    if let Some(outcome) = game.outcome() {
        bail!(
            "the game is already over ({}); there is no move to choose",
            G::describe_outcome(outcome)
        );
    }
    let policy = agent
        .policy(&game)
        .with_context(|| format!("{} has no fixed set of best moves", args.ai))?;
    let moves: Vec<String> = policy.moves().map(|m| m.to_string()).collect();
    let best_line = format!("best moves [{}]\n", moves.join(", "));
    let mut out = String::new();
    if args.debug {
        match agent.explain(&game) {
            Some(trace) => out.push_str(&format!("{trace}\n")),
            None => out.push_str(&format!("({} gives no trace)\n", args.ai)),
        }
        // The seed's trace already ends with the best moves.
        if out.ends_with(&best_line) {
            return Ok(out);
        }
    } else {
        out.push_str(&format!("{game}\n"));
        if let Some(scores) = agent.move_scores(&game) {
            let items: Vec<String> = scores.iter().map(|(m, s)| format!("{m} {s}")).collect();
            out.push_str(&format!("scores {}\n", items.join(", ")));
        }
    }
    out.push_str(&best_line);
    Ok(out)
}
