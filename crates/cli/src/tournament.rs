//! `gamelab tournament A B C …`: every pair both ways, a crosstable and fitted Elo ratings.

use std::fmt::Write;
use std::time::Instant;

use anyhow::bail;
use clap::Args;
use gamelab_core::arena::{ChunkResult, LiveOptions, MatchConfig, run_match_from};
use gamelab_core::elo::{Crosstable, fit};
use gamelab_core::{Described, GameVisitor, Registry};
use serde_json::json;

use crate::game_args::GameArgs;

#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// The AIs, at least two.
    #[arg(required = true, num_args = 2..)]
    ais: Vec<String>,
    /// Games per pair with each AI moving first (1 to 10^12; default 10,000, or the
    /// number of openings of --openings-file).
    #[arg(short = 'n', long, value_parser = crate::limits::games_per_side)]
    games: Option<u64>,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads, 1 to 256 (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = crate::limits::threads)]
    threads: Option<usize>,
    #[command(flatten)]
    openings: crate::openings::OpeningArgs,
    /// Print one JSON object instead of the tables.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    game: GameArgs,
}

pub fn run(args: TournamentArgs) -> anyhow::Result<()> {
    let out = args.game.visit(&args)??;
    print!("{out}");
    Ok(())
}

impl GameVisitor for &TournamentArgs {
    type Output = anyhow::Result<String>;
    fn visit<G: Described>(self) -> Self::Output {
        tournament::<G>(self, &G::registry())
    }
}

fn tournament<G: Described>(
    args: &TournamentArgs,
    registry: &Registry<G>,
) -> anyhow::Result<String> {
    for spec in &args.ais {
        registry.build(spec)?;
    }
    let (games, openings) = args.openings.make::<G>(args.games, args.seed, registry)?;
    let n = args.ais.len();
    if (1..n).any(|i| args.ais[..i].contains(&args.ais[i])) {
        bail!("each AI may enter once; give a second copy different parameters to compare it");
    }
    let cfg = MatchConfig {
        games_per_side: games,
        seed: args.seed,
        threads: args.threads.unwrap_or(0),
        opening_plies: args.openings.openings,
    };
    let started = Instant::now();
    // wins[i][j] and draws[i][j]: i's results against j over both colours.
    let mut wins = vec![vec![0u64; n]; n];
    let mut draws = vec![vec![0u64; n]; n];
    let pairs = (n * (n - 1) / 2) as u64;
    let bar = crate::progress::bar(pairs * 2 * games, "games");
    let progress = |games: u64| crate::progress::advance(&bar, games);
    for i in 0..n {
        for j in i + 1..n {
            let make_i = || registry.build(&args.ais[i]).expect("checked above");
            let make_j = || registry.build(&args.ais[j]).expect("checked above");
            let live = LiveOptions::for_match(&cfg, false);
            let report =
                |chunk: &ChunkResult<G::Move>| progress(chunk.range.end - chunk.range.start);
            let (result, _) = run_match_from::<G, _>(
                &make_i,
                &make_j,
                &cfg,
                &openings,
                &live,
                &report,
                &mut |_| true,
            );
            let total = result.total();
            wins[i][j] = total.win;
            wins[j][i] = total.lose;
            draws[i][j] = total.draw;
            draws[j][i] = total.draw;
        }
    }
    crate::progress::finish(bar);
    let games_per_pair = (2 * games) as f64;
    let table = Crosstable {
        points: (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| wins[i][j] as f64 + draws[i][j] as f64 / 2.0)
                    .collect()
            })
            .collect(),
        games: (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| if i == j { 0.0 } else { games_per_pair })
                    .collect()
            })
            .collect(),
    };
    let ratings = fit(&table);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| ratings[y].elo.total_cmp(&ratings[x].elo));
    let score = |i: usize, j: usize| table.points[i][j] / games_per_pair;

    if args.json {
        let players: Vec<_> = order
            .iter()
            .map(|&i| {
                json!({
                    "ai": args.ais[i], "elo": ratings[i].elo, "interval95": ratings[i].interval95,
                    "results": (0..n).filter(|&j| j != i).map(|j| json!({
                        "opponent": args.ais[j], "win": wins[i][j], "lose": wins[j][i],
                        "draw": draws[i][j],
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        let value = json!({
            "game": G::NAME, "games_per_side": games, "seed": args.seed, "opening_plies": args.openings.openings, "openings_file": args.openings.openings_file.as_ref().map(|p| p.display().to_string()), "balanced": args.openings.balanced, "judge": args.openings.judge, "players": players,
        });
        return Ok(format!("{value}\n"));
    }

    let labels: Vec<String> = order
        .iter()
        .enumerate()
        .map(|(k, &i)| format!("#{} {}", k + 1, args.ais[i]))
        .collect();
    let label_width = labels.iter().map(String::len).max().unwrap_or(0);
    let width = args.ais.iter().map(String::len).max().unwrap_or(0).max(6);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "crosstable: the row's score against the column (wins + draws/2), in %"
    );
    let _ = write!(out, "{:label_width$}", "");
    for (k, _) in order.iter().enumerate() {
        let _ = write!(out, "{:>8}", format!("#{}", k + 1));
    }
    out.push('\n');
    for (&i, label) in order.iter().zip(&labels) {
        let _ = write!(out, "{label:label_width$}");
        for &j in &order {
            if i == j {
                let _ = write!(out, "{:>8}", "-");
            } else {
                let _ = write!(out, "{:>8.1}", score(i, j) * 100.0);
            }
        }
        out.push('\n');
    }
    let _ = writeln!(out, "\nrank  {:width$}  {:>7}  {:>7}", "AI", "Elo", "95%");
    for (k, &i) in order.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>4}  {:width$}  {:>7.1}  {:>7}",
            k + 1,
            args.ais[i],
            ratings[i].elo,
            format!("±{:.1}", ratings[i].interval95)
        );
    }
    let _ = writeln!(
        out,
        "\n{} games per pair, seed {}{}, {:.2} s",
        2 * games,
        args.seed,
        args.openings.describe(openings.len()),
        started.elapsed().as_secs_f64()
    );
    out += &crate::match_cmd::timed_notes::<G>(&args.ais);
    Ok(out)
}
