//! `gamelab match A B`: the articles' `ai_match`, sampled with seeds or exact.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use gamelab_core::arena::{self, MatchConfig, PlayedGame};
use gamelab_core::record::{GameRecord, write_records};
use gamelab_core::{Agent, Game, Registry, Side};
use serde_json::json;

use crate::board_args::BoardArgs;
use crate::tables::{count_table, ratio_table};

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The first AI (its results are the table's), e.g. `ai14s`.
    a: String,
    /// The opponent, e.g. `ai2`.
    b: String,
    /// Games with A moving first, and as many with A moving second.
    #[arg(short = 'n', long, default_value_t = 10_000)]
    games: u64,
    /// Seed of the random streams: the same seed gives the same games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Compute the exact probabilities from the AIs' move distributions instead of playing.
    #[arg(long)]
    exact: bool,
    /// Print one JSON object instead of the tables.
    #[arg(long)]
    json: bool,
    /// Write every game to this JSON Lines file.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    #[command(flatten)]
    board: BoardArgs,
}

pub fn run(args: MatchArgs) -> anyhow::Result<()> {
    let out = crate::with_game!(args.board, G, registry => run_game::<G>(&args, &registry)?);
    print!("{out}");
    Ok(())
}

fn run_game<G: Game>(args: &MatchArgs, registry: &Registry<G>) -> anyhow::Result<String> {
    // Build each AI once up front, so that a bad spec is reported before any game.
    let mut a = registry.build(&args.a)?;
    let mut b = registry.build(&args.b)?;
    if args.exact {
        exact::<G>(args, &mut *a, &mut *b)
    } else {
        sampled::<G>(args, registry)
    }
}

fn exact<G: Game>(
    args: &MatchArgs,
    a: &mut dyn Agent<G>,
    b: &mut dyn Agent<G>,
) -> anyhow::Result<String> {
    let started = Instant::now();
    let result = arena::exact_match(a, b, [&args.a, &args.b])?;
    let elapsed = started.elapsed();
    let total = result.total();
    if args.json {
        let probs = |p: arena::Probabilities| json!({"win": p.win, "lose": p.lose, "draw": p.draw});
        let value = json!({
            "game": G::NAME, "a": args.a, "b": args.b, "games_per_side": null, "seed": null,
            "exact": true,
            "first": probs(result.first), "second": probs(result.second), "total": probs(total),
            "digest": null,
        });
        return Ok(format!("{value}\n"));
    }
    let names = [G::side_name(Side::First), G::side_name(Side::Second)];
    Ok(format!(
        "{} VS {} (exact)\n{}\ncomputed in {:.2} ms\n",
        args.a,
        args.b,
        ratio_table(
            [
                (names[0], result.first.as_array()),
                (names[1], result.second.as_array()),
                ("total", total.as_array()),
            ],
            2
        ),
        elapsed.as_secs_f64() * 1e3
    ))
}

fn sampled<G: Game>(args: &MatchArgs, registry: &Registry<G>) -> anyhow::Result<String> {
    let cfg = MatchConfig {
        games_per_side: args.games,
        seed: args.seed,
        threads: args.threads.unwrap_or(0),
    };
    // The specs built once already; building them again per chunk cannot fail.
    let make = |spec: &str| {
        registry
            .build(spec)
            .expect("spec was checked before the match")
    };
    let make_a = || make(&args.a);
    let make_b = || make(&args.b);
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(args.games * 2);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games {per_sec} eta {eta}",
            )
            .expect("valid template"),
        );
        bar
    });
    let progress = |n: u64| {
        if let Some(bar) = &bar {
            bar.inc(n)
        }
    };
    let started = Instant::now();
    let (result, games) =
        arena::run_match::<G, _>(&make_a, &make_b, &cfg, &progress, args.records.is_some());
    let elapsed = started.elapsed().as_secs_f64();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some(path) = &args.records {
        let records: Vec<GameRecord> = games.iter().map(|g| record::<G>(args, g)).collect();
        write_records(path, &records)
            .with_context(|| format!("cannot write the records to {}", path.display()))?;
    }
    let total = result.total();
    let digest = format!("{:016x}", result.digest);
    let games_per_s = (args.games * 2) as f64 / elapsed.max(1e-9);
    if args.json {
        let tally = |t: arena::Tally| json!({"win": t.win, "lose": t.lose, "draw": t.draw});
        let value = json!({
            "game": G::NAME, "a": args.a, "b": args.b, "games_per_side": args.games,
            "seed": args.seed, "exact": false,
            "first": tally(result.first), "second": tally(result.second), "total": tally(total),
            "digest": digest,
        });
        return Ok(format!("{value}\n"));
    }
    let names = [G::side_name(Side::First), G::side_name(Side::Second)];
    let row = |t: arena::Tally| [t.win, t.lose, t.draw];
    Ok(format!(
        "{} VS {}\n{}\n{}\n{} games in {:.3} s ({}/s), seed {}, digest {digest}\n",
        args.a,
        args.b,
        count_table([
            (names[0], row(result.first)),
            (names[1], row(result.second)),
            ("total", row(total)),
        ]),
        ratio_table(
            [
                (names[0], result.first.ratios()),
                (names[1], result.second.ratios()),
                ("total", total.ratios()),
            ],
            1
        ),
        args.games * 2,
        elapsed,
        human_rate(games_per_s),
        args.seed,
    ))
}

fn record<G: Game>(args: &MatchArgs, g: &PlayedGame<G::Move>) -> GameRecord {
    let (first, second) = match g.a_side {
        Side::First => (&args.a, &args.b),
        Side::Second => (&args.b, &args.a),
    };
    GameRecord {
        game: G::NAME.to_string(),
        index: g.index,
        seed: args.seed,
        first: first.clone(),
        second: second.clone(),
        moves: g.moves.iter().map(|m| m.to_string()).collect(),
        result: g.outcome.winner().map_or("draw", G::side_name).to_string(),
    }
}

/// 12,345,678 → "12.3 M games", 4,321 → "4321 games".
fn human_rate(per_s: f64) -> String {
    if per_s >= 1e6 {
        format!("{:.2} M games", per_s / 1e6)
    } else if per_s >= 1e3 {
        format!("{:.1} k games", per_s / 1e3)
    } else if per_s >= 100.0 {
        format!("{per_s:.0} games")
    } else {
        format!("{per_s:.2} games")
    }
}
