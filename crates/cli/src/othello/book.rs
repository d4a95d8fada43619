//! `gamelab build-book`: the opening book from the WTHOR games' openings, valued by the
//! engine's searches.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use gamelab_othello::book::{self, BookOptions};
use gamelab_othello::wthor;

#[derive(Args, Debug)]
pub struct BuildBookArgs {
    /// The folder of WTHOR `.wtb` files.
    #[arg(long, default_value = "../shared/data/othello/wthor")]
    wthor: PathBuf,
    /// The book file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Positions after at most this many moves.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=40))]
    plies: u32,
    /// Positions at least this many games reached (any of a position's eight symmetric
    /// images counts).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    min_games: u32,
    /// Depth of the engine's searches that value each move out of the book.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=20))]
    level: u32,
    /// Threads for the searches, 0 for every core; the book is the same on any number.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=256))]
    threads: u32,
}

pub fn run(args: BuildBookArgs) -> anyhow::Result<()> {
    gamelab_core::files::check_writable(&args.out)
        .with_context(|| format!("cannot write the book to {}", args.out.display()))?;
    let started = Instant::now();
    let mut games = Vec::new();
    for file in wthor::wtb_files(&args.wthor)? {
        games.extend(wthor::read(&file)?);
    }
    let nodes: HashMap<(u64, u64), u32> =
        book::frequent_positions(&games, args.plies, args.min_games);
    if nodes.is_empty() {
        anyhow::bail!(
            "no position of the {} games was reached by {} of them; lower --min-games",
            games.len(),
            args.min_games
        );
    }
    let frontier = book::frontier(&nodes);
    println!(
        "{} games: {} positions within {} moves reached by at least {} games; {} moves out of them to search at depth {}",
        games.len(),
        nodes.len(),
        args.plies,
        args.min_games,
        frontier.len(),
        args.level
    );
    let options = BookOptions {
        plies: args.plies,
        min_games: args.min_games,
        level: args.level,
    };
    let bar = crate::progress::bar(frontier.len() as u64, "searches");
    let progress = |n| crate::progress::advance(&bar, n);
    let book = book::build(
        &nodes,
        frontier,
        options,
        gamelab_othello::learned::shipped(),
        args.threads as usize,
        &progress,
    )
    .map_err(anyhow::Error::msg)?;
    crate::progress::finish(bar);
    book.save(&args.out)?;
    let start = book
        .probe(&gamelab_othello::Othello::new())
        .context("the start position is not in the book")?;
    let line: Vec<String> = start.line.iter().map(ToString::to_string).collect();
    println!(
        "wrote {} ({} positions) in {:.1} s; from the start: {:+.2} discs for black, line {}",
        args.out.display(),
        book.len(),
        started.elapsed().as_secs_f64(),
        start.value,
        line.join(" ")
    );
    Ok(())
}
