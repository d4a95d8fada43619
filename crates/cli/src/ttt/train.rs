//! `gamelab train DATASET --out MODEL.json`: least squares on the dataset.

use std::path::PathBuf;

use clap::Args;
use gamelab_learn::{DEFAULT_RIDGE, Model, fit};
use gamelab_ttt::learned::read_dataset;

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// A dataset CSV written by `gamelab dataset`.
    dataset: PathBuf,
    /// The model file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Ridge term on the weights (the features are collinear; see gamelab-learn's fit).
    #[arg(long, default_value_t = DEFAULT_RIDGE, value_parser = crate::limits::ridge)]
    ridge: f64,
}

pub fn run(args: TrainArgs) -> anyhow::Result<()> {
    let (data, features) = read_dataset(&args.dataset)?;
    let fitted = fit(&data.rows, features.count(), args.ridge)?;
    let model = Model::new(&fitted, &features.set(), args.ridge, data.rows.len());
    model.save(&args.out)?;
    println!(
        "{} rows, RMSE {:.4}, intercept {:.4}; model written to {}",
        data.rows.len(),
        fitted.rmse,
        fitted.intercept,
        args.out.display()
    );
    Ok(())
}
