//! `gamelab match A B`: the articles' `ai_match`, sampled with seeds or exact.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use gamelab_core::FileAccess;
use gamelab_core::arena;
use gamelab_core::match_request::{MatchError, MatchRequest, MatchRun};
use gamelab_games::experiments::{self, AnyMatch, Entrant};

use crate::game_args::GameArgs;
use crate::recording;
use crate::tables::{count_table, ratio_table};

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The first AI (its results are the table's), e.g. `ai14s`.
    a: String,
    /// The opponent, e.g. `ai2`.
    b: String,
    /// Games with A moving first, and as many with A moving second (1 to 10^12; default
    /// 10,000, or the number of openings of --openings-file).
    #[arg(short = 'n', long, value_parser = crate::limits::games_per_side)]
    games: Option<u64>,
    /// Compute the exact probabilities from the AIs' move distributions instead of playing.
    #[arg(long)]
    exact: bool,
    #[command(flatten)]
    setup: crate::setup::SetupArgs,
    /// Print the match report as one JSON object instead of the tables.
    #[arg(long)]
    json: bool,
    /// Write every game to this file, in game order: JSON Lines, the article's CSV for a
    /// `.csv` file, the game's own format for its extension (GGF for Othello's `.ggf`).
    /// The file appears whole when the match ends; Ctrl-C stops the match at once and
    /// keeps every game finished before it (the games under way are dropped); a kill
    /// leaves the file as it was.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    cluster: crate::cluster::ClusterArgs,
}

pub fn run(args: MatchArgs) -> anyhow::Result<()> {
    let out = run_match(&args)?;
    print!("{out}");
    Ok(())
}

fn run_match(args: &MatchArgs) -> anyhow::Result<String> {
    let request = MatchRequest {
        names: [args.a.clone(), args.b.clone()],
        setup: args.setup.match_setup(args.games)?,
        exact: args.exact,
    };
    // The AIs and the request are checked, and where the records go, before any game.
    let prepared = prepare(&args.game, request)?;
    if let Some(path) = &args.records {
        gamelab_core::files::check_writable(path)
            .with_context(|| format!("cannot write the records to {}", path.display()))?;
    }
    if args.exact {
        exact(args, &*prepared, prepared.exact()?)
    } else {
        sampled(args, prepared)
    }
}

/// Checks and prepares `request` between the AIs its names give, of the game `game` asks
/// for.
pub fn prepare(game: &GameArgs, request: MatchRequest) -> anyhow::Result<Box<dyn AnyMatch>> {
    let players = request.names.clone().map(Entrant::Spec);
    experiments::prepare_match(
        &game.game,
        game.board.as_deref(),
        request,
        [&players[0], &players[1]],
        &FileAccess::Any,
    )
    .map_err(crate::game_args::experiment_error)
}

fn exact(args: &MatchArgs, prepared: &dyn AnyMatch, run: MatchRun) -> anyhow::Result<String> {
    if args.json {
        return Ok(format!("{}\n", serde_json::to_string(&run.report)?));
    }
    let table = run.report.exact.expect("an exact match has its table");
    let names = prepared.sides();
    Ok(format!(
        "{} VS {} (exact)\n{}\ncomputed in {:.2} ms\n",
        args.a,
        args.b,
        ratio_table(
            [
                (names[0], table.first.as_array()),
                (names[1], table.second.as_array()),
                ("total", table.total.as_array()),
            ],
            2
        ),
        run.seconds * 1e3
    ))
}

/// Plays a prepared match on this process's threads, writing every game to `output` as
/// they finish and stopping at Ctrl-C, or on the cluster of `--cluster`: the run, or
/// `None` on a cluster's helper process.
pub fn play(
    prepared: Box<dyn AnyMatch>,
    cluster: &crate::cluster::ClusterArgs,
    output: Option<&recording::Output>,
    progress: &(dyn Fn(u64) + Sync),
) -> anyhow::Result<Option<MatchRun>> {
    let started = Instant::now();
    match cluster.cluster()? {
        Some(cluster) => {
            let prepared: Arc<dyn AnyMatch> = Arc::from(prepared);
            match crate::cluster::play_match(&cluster, prepared.clone(), output)? {
                Some(played) => Ok(Some(prepared.finish(&played, started)?)),
                None => Ok(None),
            }
        }
        None => recording::play(&*prepared, output, progress).map(Some),
    }
}

fn sampled(args: &MatchArgs, prepared: Box<dyn AnyMatch>) -> anyhow::Result<String> {
    let games = prepared.games_per_side();
    let sides = prepared.sides();
    let openings = prepared.openings_described();
    let timed = prepared.timed();
    let bar = crate::progress::bar(games * 2, "games");
    let progress = |n: u64| crate::progress::advance(&bar, n);
    let output = args.records.as_deref().map(|path| recording::Output {
        path,
        format: prepared.record_format(path),
    });
    let run = match play(prepared, &args.cluster, output.as_ref(), &progress) {
        Ok(Some(run)) => run,
        Ok(None) => return Ok(crate::cluster::helper_done()),
        Err(e) => {
            return Err(match e.downcast_ref::<MatchError>() {
                Some(MatchError::GaveUp {
                    name,
                    game,
                    reason,
                    played,
                }) => anyhow::anyhow!(
                    "the match stopped: {name} gave up game {game}: {reason}{}",
                    match &args.records {
                        Some(path) =>
                            format!(" (the {played} games before it are in {})", path.display()),
                        None => String::new(),
                    }
                ),
                _ => e,
            });
        }
    };
    crate::progress::finish(bar);
    let report = &run.report;
    let games_played = report.played;
    let interrupted = report.digest.is_none();
    if interrupted {
        eprintln!(
            "interrupted: {games_played} of {} games played{}",
            games * 2,
            match &args.records {
                Some(path) => format!(", every one written to {}", path.display()),
                None => String::new(),
            }
        );
    } else if let Some(path) = &args.records {
        // On standard error: the output may be the JSON report.
        eprintln!("{games_played} games written to {}", path.display());
    }
    if args.json {
        return Ok(format!("{}\n", serde_json::to_string(report)?));
    }
    let row = |t: arena::Tally| [t.win, t.lose, t.draw];
    let mut note = if report.repeated_one_game {
        "note: every game each way round was the same game (both AIs are deterministic); --openings PLIES or --openings-file FILE starts them from different positions\n".to_string()
    } else {
        String::new()
    };
    note += &timed_notes([&args.a, &args.b].into_iter().zip(timed));
    note += &clock_note(args.setup.clock);
    note += &forfeit_notes(report.forfeits.as_ref(), [&args.a, &args.b]);
    let digest = report.digest.as_deref().unwrap_or("none (interrupted)");
    Ok(format!(
        "{} VS {}\n{}\n{}\n{} games in {:.3} s ({}/s), seed {}{openings}, digest {digest}\n{note}",
        args.a,
        args.b,
        count_table([
            (sides[0], row(report.first)),
            (sides[1], row(report.second)),
            ("total", row(report.total)),
        ]),
        ratio_table(
            [
                (sides[0], report.first.ratios()),
                (sides[1], report.second.ratios()),
                ("total", report.total.ratios()),
            ],
            1
        ),
        games_played,
        run.seconds,
        human_rate(games_played as f64 / run.seconds.max(1e-9)),
        args.setup.seed,
    ))
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

/// A note for each AI whose time limit makes the results depend on the machine, given
/// each spec and whether it is timed.
pub fn timed_notes<'a>(specs: impl IntoIterator<Item = (&'a String, bool)>) -> String {
    specs
        .into_iter()
        .filter(|(_, timed)| *timed)
        .map(|(spec, _)| format!("note: {spec} has a time limit: its moves and these results depend on the machine and its load\n"))
        .collect()
}

/// The note on a match's clock, when it had one.
pub fn clock_note(clock: Option<gamelab_core::clock::TimeControl>) -> String {
    clock.map_or_else(String::new, |clock| {
        format!(
            "note: a clock of {} in every game (a side whose time ran out forfeited): the moves and these results depend on the machine and its load\n",
            clock.describe()
        )
    })
}

/// A note for each AI that forfeited games (an outside program that failed), with the
/// first reason.
pub fn forfeit_notes(forfeits: Option<&arena::Forfeits>, specs: [&String; 2]) -> String {
    let Some(forfeits) = forfeits else {
        return String::new();
    };
    let mut out = String::new();
    for (agent, count) in [forfeits.a, forfeits.b].into_iter().enumerate() {
        if count == 0 {
            continue;
        }
        let first = forfeits
            .first
            .as_ref()
            .filter(|note| note.agent == agent)
            .map(|note| format!(" (the first, game {}: {})", note.game, note.reason))
            .unwrap_or_default();
        out += &format!(
            "note: {} forfeited {count} game{}, counted as lost{first}\n",
            specs[agent],
            if count == 1 { "" } else { "s" }
        );
    }
    out
}
