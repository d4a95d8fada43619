//! `gamelab dataset RECORDS --out FILE.csv`: the article's dataset from game records.

use std::path::PathBuf;

use clap::Args;
use gamelab_ttt::learned::{FeatureSet, Scores, Targets, read_games};

#[derive(Args, Debug)]
pub struct DatasetArgs {
    /// Records: the article's CSV or gamelab's JSON Lines.
    records: PathBuf,
    /// The dataset CSV to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Also score the 8 symmetric images of every board (the article's own suggestion).
    #[arg(long)]
    symmetries: bool,
    /// Targets: `average` (the article's) or `backed-up` (through the observed game graph).
    #[arg(long, default_value = "average", value_parser = ["average", "backed-up"])]
    targets: String,
    /// Features: `ttt-lines-27` (the article's 216) or `ttt-lines-27-by-turn` (432).
    #[arg(long, default_value = "ttt-lines-27", value_parser = ["ttt-lines-27", "ttt-lines-27-by-turn"])]
    features: String,
}

pub fn run(args: DatasetArgs) -> anyhow::Result<()> {
    let games = read_games(&args.records)?;
    let mut scores = Scores::default();
    for g in &games {
        scores.add_game(g, args.symmetries);
    }
    let targets = if args.targets == "backed-up" {
        Targets::BackedUp
    } else {
        Targets::Average
    };
    let features = FeatureSet::from_name(&args.features).expect("checked by clap");
    scores.write_csv_with(&args.out, targets, features)?;
    println!(
        "{} games, {} distinct boards written to {}",
        games.len(),
        scores.boards.len(),
        args.out.display()
    );
    Ok(())
}
