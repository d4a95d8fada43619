//! `gamelab match A B`: the articles' `ai_match`, sampled with seeds or exact.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use gamelab_core::arena::{self, MatchConfig, MatchReport};
use gamelab_core::{Agent, Described, GameVisitor, Registry, Side};

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
    /// Seed of the random streams: the same seed gives the same games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads, 1 to 256 (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = crate::limits::threads)]
    threads: Option<usize>,
    /// Compute the exact probabilities from the AIs' move distributions instead of playing.
    #[arg(long)]
    exact: bool,
    #[command(flatten)]
    openings: crate::openings::OpeningArgs,
    /// Each side's clock for every game: MAIN seconds, MAIN+INCREMENT (Fischer) or
    /// MAIN/PERIOD/STONES (Canadian byo-yomi, as GTP has it). Each move gets a share of
    /// the time left (AIs with a time limit keep to it); a side whose time runs out loses
    /// the game. The games then depend on the machine and its load.
    #[arg(long, value_name = "CLOCK")]
    clock: Option<gamelab_core::clock::TimeControl>,
    /// Print the match report as one JSON object instead of the tables.
    #[arg(long)]
    json: bool,
    /// Write every game to this file, as they finish (Ctrl-C keeps the games finished
    /// before it): JSON Lines, the article's CSV for a `.csv` file, the game's own format
    /// for its extension (GGF for Othello's `.ggf`).
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    cluster: crate::cluster::ClusterArgs,
}

pub fn run(args: MatchArgs) -> anyhow::Result<()> {
    let out = args.game.visit(&args)??;
    print!("{out}");
    Ok(())
}

impl GameVisitor for &MatchArgs {
    type Output = anyhow::Result<String>;
    fn visit<G: Described>(self) -> Self::Output {
        run_game::<G>(self, &G::registry())
    }
}

fn run_game<G: Described>(args: &MatchArgs, registry: &Registry<G>) -> anyhow::Result<String> {
    // Build each AI once up front, and check where the records go, so that a bad spec or
    // path is reported before any game.
    let mut a = registry.build(&args.a)?;
    let mut b = registry.build(&args.b)?;
    if args.exact && (args.openings.openings > 0 || args.openings.openings_file.is_some()) {
        anyhow::bail!("--exact walks every game from the start; it takes no openings");
    }
    if args.exact && args.clock.is_some() {
        anyhow::bail!(
            "--exact computes the games' probabilities without playing them; it takes no --clock"
        );
    }
    let (games, from_file) = args.openings.make::<G>(args.games, args.seed, registry)?;
    if let Some(path) = &args.records {
        gamelab_core::files::check_writable(path)
            .with_context(|| format!("cannot write the records to {}", path.display()))?;
    }
    if args.exact {
        exact::<G>(args, &mut *a, &mut *b)
    } else {
        sampled::<G>(args, registry, games, &from_file)
    }
}

fn exact<G: Described>(
    args: &MatchArgs,
    a: &mut dyn Agent<G>,
    b: &mut dyn Agent<G>,
) -> anyhow::Result<String> {
    let started = Instant::now();
    let result = arena::exact_match(a, b, [&args.a, &args.b])?;
    let elapsed = started.elapsed();
    let total = result.total();
    if args.json {
        let mut report = MatchReport::new::<G>(&args.a, &args.b, 0, args.seed);
        report.set_exact(Ok(result));
        report.elapsed_ms = elapsed.as_millis() as u64;
        return Ok(format!("{}\n", serde_json::to_string(&report)?));
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

fn sampled<G: Described>(
    args: &MatchArgs,
    registry: &Registry<G>,
    games: u64,
    from_file: &[Vec<G::Move>],
) -> anyhow::Result<String> {
    let cfg = MatchConfig {
        games_per_side: games,
        seed: args.seed,
        threads: args.threads.unwrap_or(0),
        opening_plies: args.openings.openings,
        clock: args.clock.unwrap_or_default(),
    };
    // The specs built once already; building them again per chunk cannot fail.
    let make = |spec: &str| {
        registry
            .build(spec)
            .expect("spec was checked before the match")
    };
    let make_a = || make(&args.a);
    let make_b = || make(&args.b);
    let bar = crate::progress::bar(games * 2, "games");
    let progress = |n: u64| crate::progress::advance(&bar, n);
    let started = Instant::now();
    let output = args.records.as_deref().map(|path| recording::Output {
        path,
        format: recording::Format::of::<G>(path),
        specs: [&args.a, &args.b],
    });
    let played = match args.cluster.cluster()? {
        Some(cluster) => {
            let specs = [args.a.as_str(), args.b.as_str()];
            match crate::cluster::play_match::<G>(
                &cluster,
                specs,
                &cfg,
                from_file,
                output.as_ref(),
            )? {
                Some(played) => played,
                None => return Ok(crate::cluster::helper_done()),
            }
        }
        None => recording::play::<G, _>(
            &make_a,
            &make_b,
            &cfg,
            from_file,
            output.as_ref(),
            &progress,
        )?,
    };
    let elapsed = started.elapsed().as_secs_f64();
    crate::progress::finish(bar);
    let result = played.result;
    let specs = [&args.a, &args.b];
    if let Some(note) = &result.stopped_by {
        anyhow::bail!(
            "the match stopped: {} gave up game {}: {}{}",
            specs[note.agent],
            note.game,
            note.reason,
            match &args.records {
                Some(path) => format!(
                    " (the {} games before it are in {})",
                    result.total().games(),
                    path.display()
                ),
                None => String::new(),
            }
        );
    }
    let total = result.total();
    let games_played = total.games();
    let digest = if played.interrupted {
        "none (interrupted)".to_string()
    } else {
        arena::digest_hex(result.digest)
    };
    let games_per_s = games_played as f64 / elapsed.max(1e-9);
    if played.interrupted {
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
        let mut report = MatchReport::new::<G>(&args.a, &args.b, games, args.seed);
        report.finish(&result, !played.interrupted);
        report.opening_plies = args.openings.openings;
        report.openings_file = args
            .openings
            .openings_file
            .as_ref()
            .map(|p| p.display().to_string());
        report.balanced = args.openings.balanced;
        report.judge = args.openings.judge.clone();
        report.clock = cfg.clock.written();
        report.elapsed_ms = (elapsed * 1e3) as u64;
        return Ok(format!("{}\n", serde_json::to_string(&report)?));
    }
    let names = [G::side_name(Side::First), G::side_name(Side::Second)];
    let row = |t: arena::Tally| [t.win, t.lose, t.draw];
    let mut note = if result.repeats_one_game() {
        "note: every game each way round was the same game (both AIs are deterministic); --openings PLIES or --openings-file FILE starts them from different positions\n".to_string()
    } else {
        String::new()
    };
    note += &timed_notes::<G>([&args.a, &args.b]);
    note += &clock_note(args.clock);
    note += &forfeit_notes(&result, specs);
    let openings = args.openings.describe(from_file.len(), games);
    Ok(format!(
        "{} VS {}\n{}\n{}\n{} games in {:.3} s ({}/s), seed {}{openings}, digest {digest}\n{note}",
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
        games_played,
        elapsed,
        human_rate(games_per_s),
        args.seed,
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

/// A note for each AI whose time limit makes the results depend on the machine.
pub fn timed_notes<'a, G: Described>(specs: impl IntoIterator<Item = &'a String>) -> String {
    let registry = G::registry();
    specs
        .into_iter()
        .filter(|spec| registry.is_timed(spec))
        .map(|spec| format!("note: {spec} has a time limit: its moves and these results depend on the machine and its load\n"))
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
pub fn forfeit_notes(result: &arena::MatchResult, specs: [&String; 2]) -> String {
    let mut out = String::new();
    for (agent, &count) in result.forfeits.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let first = result
            .first_forfeit
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
