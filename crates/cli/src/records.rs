//! `gamelab records A B`: play games and save them — gamelab's JSON Lines, or the article's
//! CSV (winner, then each move's `Game::move_code`).

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use gamelab_core::arena::PlayedGame;
use gamelab_core::match_request::MatchRequest;
use gamelab_core::{Described, FileAccess};

use crate::recording;

#[derive(Args, Debug)]
pub struct RecordsArgs {
    /// The first player of the first half of the games.
    a: String,
    /// Its opponent.
    b: String,
    /// Games with A moving first, and as many with B first (as in `match`; 1 to 10^12;
    /// default 500, or the number of openings of --openings-file).
    #[arg(short = 'n', long, value_parser = crate::limits::games_per_side)]
    games: Option<u64>,
    #[command(flatten)]
    setup: crate::setup::SetupArgs,
    /// Output file: `.csv` for the article's format, the game's own format for its extension
    /// (GGF for Othello's `.ggf`), anything else for JSON Lines. The file appears whole
    /// when the games end; Ctrl-C stops at once and keeps every game finished before it
    /// (the games under way are dropped); a kill leaves the file as it was.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    game: crate::game_args::GameArgs,
    #[command(flatten)]
    cluster: crate::cluster::ClusterArgs,
}

/// Plays `games_per_side` games of `a` against `b` each way round and returns them in
/// index order.
pub fn play<G: Described>(
    a: &str,
    b: &str,
    games_per_side: u64,
    seed: u64,
) -> anyhow::Result<Vec<PlayedGame<G::Move>>> {
    let registry = G::registry();
    // Each side's files read once: every game's agent is built from the same bytes.
    let spec_a = registry.prepare_checked(a, &FileAccess::Any)?;
    let spec_b = registry.prepare_checked(b, &FileAccess::Any)?;
    let mut request = MatchRequest::new(a, b);
    request.setup.games_per_side = Some(games_per_side);
    request.setup.seed = seed;
    let prepared = request.prepare(&registry, &FileAccess::Any)?;
    let built = "built once from the same parameters and bytes";
    let make_a = || registry.build_prepared(&spec_a).expect(built);
    let make_b = || registry.build_prepared(&spec_b).expect(built);
    let bar = crate::progress::bar(2 * games_per_side, "games");
    let progress = |n: u64| crate::progress::advance(&bar, n);
    let (_, played) = prepared.run_here(&make_a, &make_b, &progress, true)?;
    crate::progress::finish(bar);
    Ok(played)
}

pub fn run(args: RecordsArgs) -> anyhow::Result<()> {
    let context = || format!("cannot write the records to {}", args.out.display());
    gamelab_core::files::check_writable(&args.out).with_context(context)?;
    let games = args
        .games
        .or((!args.setup.openings_from_file()).then_some(500));
    let request = MatchRequest {
        setup: args.setup.match_setup(games)?,
        ..MatchRequest::new(&args.a, &args.b)
    };
    let prepared = crate::match_cmd::prepare(&args.game, request)?;
    let bar = crate::progress::bar(2 * prepared.games_per_side(), "games");
    let progress = |n: u64| crate::progress::advance(&bar, n);
    let output = recording::Output {
        path: &args.out,
        format: prepared.record_format(&args.out),
    };
    let Some(run) = crate::match_cmd::play(prepared, &args.cluster, Some(&output), &progress)?
    else {
        crate::cluster::helper_done();
        return Ok(());
    };
    crate::progress::finish(bar);
    if run.report.digest.is_none() {
        eprintln!("interrupted: the games finished before it are kept");
    }
    println!(
        "{} games written to {}",
        run.report.played,
        args.out.display()
    );
    Ok(())
}
