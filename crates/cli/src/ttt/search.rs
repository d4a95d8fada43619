//! `gamelab search POSITION`: alpha-beta analysis of a tic-tac-toe position (`ai_abs_dls`).

use gamelab_core::Notation;
use std::fmt::Write;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use gamelab_core::Game;
use gamelab_core::search::{SearchOptions, analyze};
use gamelab_ttt::Ttt;
use gamelab_ttt::ai::abs_dls::{AbsDls, FromO};
use gamelab_ttt::ai::ranked_evaluation;

#[derive(Args, Debug)]
pub struct SearchArgs {
    /// The position: a board string (`.........` is the start), the text form or moves.
    position: String,
    /// Plies to search.
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Leaf evaluation: a score AI with its parameters.
    #[arg(long, default_value = "ai14s")]
    eval: String,
    /// Search without a transposition table.
    #[arg(long)]
    no_tt: bool,
    /// Keep table entries for the position only, not its symmetric images.
    #[arg(long)]
    no_symmetry: bool,
    /// Seconds to search (up to 86400): iterative deepening, the last completed depth answers.
    #[arg(long, value_parser = crate::limits::seconds)]
    time_limit: Option<f64>,
    /// Search each legal move `--depth` plies below the position it leads to, sharing one
    /// table, as `ai_abs_dls` does (the article's way), and print every move's value.
    #[arg(long)]
    per_move: bool,
}

pub fn run(args: SearchArgs) -> anyhow::Result<()> {
    let pos = Ttt::parse_position(&args.position)
        .with_context(|| format!("cannot read the position `{}`", args.position))?;
    if !(1..=9).contains(&args.depth) || (args.per_move && args.depth > 8) {
        anyhow::bail!(
            "--depth {} is out of range: 1 to 9 plies (1 to 8 below each move with --per-move)",
            args.depth
        );
    }
    let time_limit = match args.time_limit {
        Some(s) if s > 0.0 && s <= 3600.0 => Some(Duration::from_secs_f64(s)),
        Some(s) => anyhow::bail!("--time-limit {s} is out of range: expected 0 to 3600 seconds"),
        None => None,
    };
    let evaluation = ranked_evaluation(&args.eval)?;
    if pos.is_over() {
        anyhow::bail!(
            "the game is already over in `{}`; there is nothing to search",
            args.position
        );
    }
    if args.per_move {
        return per_move(&args, &pos, evaluation);
    }
    let mut eval = FromO(evaluation);
    let options = SearchOptions {
        max_depth: args.depth,
        use_tt: !args.no_tt,
        symmetric: !args.no_symmetry,
        time_limit,
    };
    let analysis = analyze(&pos, &mut eval, options);
    let mut out = format!("{pos}\n\ndepth     score  best        nodes  table     time\n");
    for d in &analysis.depths {
        let best = d.best.map_or("-".to_string(), |m| m.to_string());
        let _ = writeln!(
            out,
            "{:5} {:9} {:>7} {:10} {:6} {:>7.3} ms",
            d.depth,
            d.score + 0.0,
            best,
            d.nodes,
            d.table_size,
            d.elapsed.as_secs_f64() * 1e3
        );
    }
    if let Some(last) = analysis.last() {
        let pv: Vec<String> = last.pv.iter().map(|m| m.to_string()).collect();
        let _ = writeln!(out, "pv {}", pv.join(" "));
    }
    if analysis.timed_out {
        let _ = writeln!(out, "(the time limit stopped the next depth)");
    }
    print!("{out}");
    Ok(())
}

fn per_move(
    args: &SearchArgs,
    pos: &Ttt,
    eval: gamelab_ttt::ai::score::RankedScore,
) -> anyhow::Result<()> {
    if args.time_limit.is_some() {
        anyhow::bail!("--per-move searches to a fixed depth; drop --time-limit");
    }
    let ai = AbsDls {
        eval,
        max_depth: args.depth.min(8),
        use_tt: !args.no_tt,
        time_limit: None,
    };
    let started = std::time::Instant::now();
    let result = ai.move_values(pos);
    let elapsed = started.elapsed();
    let mut out = format!(
        "{pos}

move     value (o's view, {} plies below each move)
",
        ai.max_depth
    );
    for (sq, v) in &result.values {
        let _ = writeln!(out, "{sq} {v:>9}");
    }
    let best: Vec<String> = ai.best(pos).iter().map(|m| m.to_string()).collect();
    let _ = writeln!(
        out,
        "best moves [{}]
nodes {}, table {} entries, {:.3} ms",
        best.join(", "),
        result.nodes,
        result.table_size,
        elapsed.as_secs_f64() * 1e3
    );
    print!("{out}");
    Ok(())
}
