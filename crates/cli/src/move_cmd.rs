//! `gamelab move AI POSITION`: the move an AI plays in a position, and why.

use anyhow::{Context, bail};
use clap::Args;
use gamelab_core::mcts::stats_table;
use gamelab_core::{Agent, Described, GameVisitor, Registry, game_rng};

#[derive(Args, Debug)]
pub struct MoveArgs {
    /// The AI, e.g. `ai14s` or `ai12s:ver=1` (see `gamelab ais`).
    ai: String,
    /// The position in the game's notation (the start if left out; each game's notation:
    /// `gamelab games`).
    #[arg(allow_hyphen_values = true)]
    position: Option<String>,
    /// Print the AI's trace: each move, the position after it, its score (the article's
    /// `debug=True`).
    #[arg(long)]
    debug: bool,
    /// Seed of the AI's random stream, for AIs that draw (the stream is that of move `ply`
    /// of a game with this seed, as in `gamelab play` and the web app).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    game: crate::game_args::GameArgs,
}

pub fn run(args: MoveArgs) -> anyhow::Result<()> {
    let text = args.game.visit(&args)??;
    print!("{text}");
    Ok(())
}

impl GameVisitor for &MoveArgs {
    type Output = anyhow::Result<String>;
    fn visit<G: Described>(self) -> Self::Output {
        report::<G>(self, &G::registry())
    }
}

/// The position, the trace when asked, and the best moves with their probabilities — or,
/// for an AI without a fixed distribution (a time-limited search), the move it plays.
pub fn report<G: Described>(args: &MoveArgs, registry: &Registry<G>) -> anyhow::Result<String> {
    let game = match &args.position {
        Some(text) => {
            G::parse_position(text).with_context(|| format!("cannot read the position `{text}`"))?
        }
        None => G::start(),
    };
    let mut agent = registry.build(&args.ai)?;
    if let Some(outcome) = game.outcome() {
        bail!(
            "the game is already over ({}); there is no move to choose",
            G::describe_outcome(outcome)
        );
    }
    let best_line = match agent.analyst().and_then(|a| a.policy(&game)) {
        Some(policy) => {
            let moves: Vec<String> = policy.moves().map(|m| m.to_string()).collect();
            format!("best moves [{}]\n", moves.join(", "))
        }
        None => {
            let mut rng = game_rng(args.seed, game.ply() as u64, game.to_move());
            let mv = agent.try_choose(&game, &mut rng).map_err(|f| {
                anyhow::anyhow!("{} gave up instead of moving: {}", args.ai, f.reason)
            })?;
            format!(
                "plays {mv} ({} has no fixed set of best moves: this is its choice with seed {}; a time limit makes it depend on the machine)\n",
                args.ai, args.seed
            )
        }
    };
    let mut out = String::new();
    if args.debug {
        match agent.analyst().and_then(|a| a.explain(&game)) {
            Some(trace) => out.push_str(&format!("{trace}\n")),
            None => out.push_str(&format!("({} gives no trace)\n", args.ai)),
        }
        // The article's trace already ends with the best moves.
        if out.ends_with(&best_line) {
            return Ok(out);
        }
    } else {
        out.push_str(&format!("{game}\n"));
        // Read before the moves are scored one by one below, which search again.
        let search = search_line(&mut agent, &game);
        if let Some(stats) = agent.analyst().and_then(|a| a.move_stats(&game)) {
            out.push_str(&stats_table(&stats));
        } else if let Some(scores) = agent.analyst().and_then(|a| a.move_scores(&game)) {
            let items: Vec<String> = scores
                .iter()
                .map(|(m, s)| format!("{m} {}", two_places(*s)))
                .collect();
            out.push_str(&format!("scores {}\n", items.join(", ")));
        }
        if let Some(line) = search {
            out.push_str(&line);
        }
    }
    out.push_str(&best_line);
    Ok(out)
}

/// What the agent's search for its move found, for agents that search: its depth (or
/// that it solved the game, or that its book answered), its score, its nodes and the line
/// it expects.
fn search_line<G: Described>(agent: &mut impl Agent<G>, game: &G) -> Option<String> {
    let stats = agent.analyst()?.last_search()?;
    // A forced move (an Othello pass among them) is played without a search: no depth,
    // score or line to show.
    if stats.nodes == 0 && stats.book_games.is_none() && game.legal_moves().as_ref().len() == 1 {
        return Some("no search: it is the only move\n".to_string());
    }
    // A solved score is a whole number of discs.
    let places = if stats.exact { 0 } else { 2 };
    let score = agent
        .analyst()
        .and_then(|a| a.value(game))
        .map_or(String::new(), |v| format!(", score {v:+.places$}"));
    let pv: Vec<String> = stats.pv.iter().map(ToString::to_string).collect();
    let pv = pv.join(" ");
    Some(match (stats.book_games, stats.exact) {
        (Some(games), _) => format!(
            "book: {games} games reached this position{score} (depth-{} searches minimaxed over the book), line {pv}\n",
            stats.depth
        ),
        (None, exact) => {
            let reach = if exact {
                "solved to the end".to_string()
            } else {
                format!("depth {}", stats.depth)
            };
            format!("search {reach}{score}, {} nodes, line {pv}\n", stats.nodes)
        }
    })
}

/// `v` to at most two decimal places, without trailing zeros: `1.5`, `100`, `1.07` (an
/// evaluation in 1/256 disc would print eight).
fn two_places(v: f64) -> String {
    let text = format!("{v:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0" } else { text }.to_string()
}

#[cfg(test)]
mod tests {
    use super::two_places;

    #[test]
    fn scores_print_to_two_places_at_most() {
        for (v, text) in [
            (1.5, "1.5"),
            (100.0, "100"),
            (1.07421875, "1.07"),
            (-0.001, "0"),
            (-2.0, "-2"),
            (10.0, "10"),
            (0.0, "0"),
        ] {
            assert_eq!(two_places(v), text);
        }
    }
}
