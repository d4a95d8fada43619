//! `gamelab replay FILE N`: one recorded game, move by move.

use std::fmt::Write;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;
use gamelab_core::Game;
use gamelab_core::record::{GameRecord, read_records, replay};
use gamelab_ttt::Ttt;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A JSON Lines file written by `gamelab match --records`.
    file: PathBuf,
    /// The index of the game in the run.
    index: u64,
}

pub fn run(args: ReplayArgs) -> anyhow::Result<()> {
    let records = read_records(&args.file)?;
    let Some(record) = records.iter().find(|r| r.index == args.index) else {
        let range = match (records.first(), records.last()) {
            (Some(a), Some(b)) => format!("it holds games {} to {}", a.index, b.index),
            _ => "it holds no games".into(),
        };
        bail!("no game {} in {}; {range}", args.index, args.file.display());
    };
    let text = match record.game.as_str() {
        "ttt" => show::<Ttt>(record),
        "othello" => show::<gamelab_othello::Othello>(record),
        other => bail!(
            "game {} of {} is `{other}`, which gamelab cannot replay",
            args.index,
            args.file.display()
        ),
    }
    .with_context(|| {
        format!(
            "game {} of {} does not replay",
            args.index,
            args.file.display()
        )
    })?;
    print!("{text}");
    Ok(())
}

fn show<G: Game>(record: &GameRecord) -> anyhow::Result<String> {
    let positions = replay::<G>(record).map_err(anyhow::Error::msg)?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "game {} of seed {}: {} ({}) VS {} ({})",
        record.index,
        record.seed,
        record.first,
        G::side_name(gamelab_core::Side::First),
        record.second,
        G::side_name(gamelab_core::Side::Second)
    );
    let _ = writeln!(out, "{}", positions[0]);
    for (i, (mv, pos)) in record.moves.iter().zip(&positions[1..]).enumerate() {
        let mover = G::side_name(positions[i].to_move());
        let _ = writeln!(out, "\n{}. {mover} plays {mv}\n{pos}", i + 1);
    }
    Ok(out)
}
