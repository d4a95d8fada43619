//! `gamelab replay FILE N`: one recorded game, move by move, from gamelab's JSON Lines
//! (`match --records`, `records`) or the article's CSV (`records --out FILE.csv`).

use std::fmt::Write;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;
use gamelab_core::record::GameRecord;
use gamelab_games::records::Replayed;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A records file: JSON Lines, CSV (its game is `--game`: the CSV does not say), or a
    /// game's own format (GGF for Othello's `.ggf`; its games numbered in file order unless
    /// gamelab wrote it).
    file: PathBuf,
    /// The index of the game in the run (in a CSV, its line number from 0).
    index: u64,
    #[command(flatten)]
    game: crate::game_args::GameArgs,
}

pub fn run(args: ReplayArgs) -> anyhow::Result<()> {
    let csv = args.file.extension().is_some_and(|e| e == "csv");
    let records = gamelab_games::records::load(&args.file, Some(&args.game.game)).map_err(|e| {
        match e {
            // A CSV does not say its game: the one asked for may be the wrong one.
            e if csv && e.is_invalid_record() => anyhow::anyhow!("{e}; pick the game with --game"),
            e => e.into(),
        }
    })?;
    let record = pick(records, &args)?;
    // A JSON record names its game, whatever `--game` says.
    // The CSV holds neither the players nor the seed.
    let title = csv.then(|| format!("game {} of {}", args.index, args.file.display()));
    let replayed = gamelab_games::records::replay(&record, args.game.board.as_deref())
        .with_context(|| format!("game {} of {}", args.index, args.file.display()))?;
    let text = show(&record, &replayed, title);
    print!("{text}");
    Ok(())
}

/// The record with the index asked for, or an error that says which the file holds.
fn pick(records: Vec<GameRecord>, args: &ReplayArgs) -> anyhow::Result<GameRecord> {
    let Some(record) = records.iter().find(|r| r.index == args.index) else {
        let range = match (records.first(), records.last()) {
            (Some(a), Some(b)) => format!("it holds games {} to {}", a.index, b.index),
            _ => "it holds no games".into(),
        };
        bail!("no game {} in {}; {range}", args.index, args.file.display());
    };
    Ok(record.clone())
}

/// A record shown move by move, under its own title or one made from the record.
fn show(record: &GameRecord, replayed: &Replayed, title: Option<String>) -> String {
    let mut out = String::new();
    let [first, second] = replayed.sides;
    let title = title.unwrap_or_else(|| {
        format!(
            "game {} of seed {}: {} ({first}) VS {} ({second})",
            record.index, record.seed, record.first, record.second,
        )
    });
    let _ = writeln!(out, "{title}");
    let _ = writeln!(out, "{}", replayed.positions[0]);
    let played = record.moves.iter().zip(&replayed.movers);
    for (i, ((mv, mover), pos)) in played.zip(&replayed.positions[1..]).enumerate() {
        let _ = writeln!(out, "\n{}. {mover} plays {mv}\n{pos}", i + 1);
    }
    out
}
