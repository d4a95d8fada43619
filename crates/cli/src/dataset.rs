//! `gamelab dataset RECORDS --out FILE.csv`: the seed's dataset from game records.

use std::path::PathBuf;

use clap::Args;
use gamelab_learn::dataset::{Scores, read_games};

#[derive(Args, Debug)]
pub struct DatasetArgs {
    /// Records: the seed's CSV or gamelab's JSON Lines.
    records: PathBuf,
    /// The dataset CSV to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Also score the 8 symmetric images of every board (the seed's own suggestion).
    #[arg(long)]
    symmetries: bool,
}

pub fn run(args: DatasetArgs) -> anyhow::Result<()> {
    let games = read_games(&args.records)?;
    let mut scores = Scores::default();
    for g in &games {
        scores.add_game(g, args.symmetries);
    }
    scores.write_csv(&args.out)?;
    println!(
        "{} games, {} distinct boards written to {}",
        games.len(),
        scores.boards.len(),
        args.out.display()
    );
    Ok(())
}
