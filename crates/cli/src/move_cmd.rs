//! `gamelab move AI POSITION`: the move an AI plays in a position, and why.

use anyhow::bail;
use clap::Args;
use gamelab_core::game_rng;
use gamelab_core::mcts::stats_table;
use gamelab_games::dyn_game::{AnyAgent, AnyGame, make_position};

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
    let text = report(&args)?;
    print!("{text}");
    Ok(())
}

/// The position, the trace when asked, and the best moves with their probabilities — or,
/// for an AI without a fixed distribution (a time-limited search), the move it plays.
fn report(args: &MoveArgs) -> anyhow::Result<String> {
    let game = make_position(
        &args.game.game,
        args.game.board.as_deref(),
        args.position.as_deref(),
    )?;
    let mut agent = game.build_agent(&args.ai)?;
    if let Some(outcome) = game.outcome() {
        bail!(
            "the game is already over ({}); there is no move to choose",
            game.describe_outcome(outcome)
        );
    }
    let best_line = match agent.policy(&*game) {
        Some(policy) => {
            let moves: Vec<String> = policy.iter().map(|(m, _)| game.show_move(m)).collect();
            format!("best moves [{}]\n", moves.join(", "))
        }
        None => {
            let mut rng = game_rng(args.seed, game.ply() as u64, game.to_move());
            let mv = (agent.choose(&*game, &mut rng)).map_err(|reason| {
                anyhow::anyhow!("{} gave up instead of moving: {reason}", args.ai)
            })?;
            format!(
                "plays {} ({} has no fixed set of best moves: this is its choice with seed {}; a time limit makes it depend on the machine)\n",
                game.show_move(&mv),
                args.ai,
                args.seed
            )
        }
    };
    let mut out = String::new();
    if args.debug {
        match agent.explain(&*game) {
            Some(trace) => out.push_str(&format!("{trace}\n")),
            None => out.push_str(&format!("({} gives no trace)\n", args.ai)),
        }
        // The article's trace already ends with the best moves.
        if out.ends_with(&best_line) {
            return Ok(out);
        }
    } else {
        out.push_str(&format!("{}\n", game.text()));
        // Read before the moves are scored one by one below, which search again.
        let search = search_line(&mut *agent, &*game);
        if let Some(mut stats) = agent.move_stats(&*game) {
            stats.iter_mut().for_each(|s| s.mv = game.show_move(&s.mv));
            out.push_str(&stats_table(&stats));
        } else if let Some(scores) = agent.move_scores(&*game) {
            let items: Vec<String> = scores
                .iter()
                .map(|(m, s)| format!("{} {}", game.show_move(m), two_places(*s)))
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
fn search_line(agent: &mut dyn AnyAgent, game: &dyn AnyGame) -> Option<String> {
    let stats = agent.last_search()?;
    // A forced move (an Othello pass among them) is played without a search: no depth,
    // score or line to show.
    if stats.nodes == 0 && stats.book_games.is_none() && game.legal_moves().len() == 1 {
        return Some("no search: it is the only move\n".to_string());
    }
    // A solved score is a whole number of discs.
    let places = if stats.exact { 0 } else { 2 };
    let score = (agent.value(game)).map_or(String::new(), |v| format!(", score {v:+.places$}"));
    let pv = game.show_line(&stats.pv).join(" ");
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
