//! `gamelab replay FILE N`: one recorded game, move by move, from gamelab's JSON Lines
//! (`match --records`, `records`) or the article's CSV (`records --out FILE.csv`).

use std::fmt::Write;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;
use gamelab_core::record::{GameRecord, replay};
use gamelab_core::{Described, GameVisitor, Side};
use gamelab_games::records::RecordsError;

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
            RecordsError::Invalid(_) if csv => anyhow::anyhow!("{e}; pick the game with --game"),
            e => e.into(),
        }
    })?;
    let record = pick(records, &args)?;
    // A JSON record names its game, whatever `--game` says.
    // The CSV holds neither the players nor the seed.
    let title = csv.then(|| format!("game {} of {}", args.index, args.file.display()));
    let text = gamelab_games::visit(
        &record.game,
        args.game.board.as_deref(),
        Show(&record, title),
    )
    .with_context(|| format!("game {} of {}", args.index, args.file.display()))??;
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
struct Show<'a>(&'a GameRecord, Option<String>);

impl GameVisitor for Show<'_> {
    type Output = anyhow::Result<String>;
    fn visit<G: Described>(self) -> Self::Output {
        show::<G>(self.0, self.1)
    }
}

fn show<G: Described>(record: &GameRecord, title: Option<String>) -> anyhow::Result<String> {
    let positions = replay::<G>(record).map_err(anyhow::Error::msg)?;
    let mut out = String::new();
    let title = title.unwrap_or_else(|| {
        format!(
            "game {} of seed {}: {} ({}) VS {} ({})",
            record.index,
            record.seed,
            record.first,
            G::side_name(Side::First),
            record.second,
            G::side_name(Side::Second)
        )
    });
    let _ = writeln!(out, "{title}");
    let _ = writeln!(out, "{}", positions[0]);
    for (i, (mv, pos)) in record.moves.iter().zip(&positions[1..]).enumerate() {
        let mover = G::side_name(positions[i].to_move());
        let _ = writeln!(out, "\n{}. {mover} plays {mv}\n{pos}", i + 1);
    }
    Ok(out)
}
