//! `gamelab learn-curve`: article 002's experiment — models trained on 10, 100, 1,000 and
//! 10,000 random games, each played exactly against the random AI, with and without
//! symmetry augmentation.

use std::fmt::Write;
use std::sync::Arc;

use clap::Args;
use gamelab_core::arena::{PlayedGame, exact_match};
use gamelab_core::{Described, Side, Uniform};
use gamelab_learn::{DEFAULT_RIDGE, Model, fit};
use gamelab_ttt::learned::{FeatureSet, Game as LearnGame, Regression, Scores, Targets};
use gamelab_ttt::{Square, Ttt};

use crate::records::play;

/// A played game as article 002's pipeline reads it.
fn to_learn(g: &PlayedGame<Square>) -> LearnGame {
    LearnGame {
        moves: g.moves.clone(),
        winner: match g.outcome.winner() {
            Some(Side::First) => 1,
            Some(Side::Second) => 2,
            None => 0,
        },
    }
}

#[derive(Args, Debug)]
pub struct LearnCurveArgs {
    /// Training set sizes in games, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [10u64, 100, 1_000, 10_000], value_parser = crate::limits::training_games)]
    sizes: Vec<u64>,
    /// Seed of the random training games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Ridge term on the weights (the features are collinear; see gamelab-learn's fit).
    #[arg(long, default_value_t = DEFAULT_RIDGE, value_parser = crate::limits::ridge)]
    ridge: f64,
    /// Targets: `average` (the article's mean outcome) or `backed-up` (outcomes backed up
    /// through the observed game graph).
    #[arg(long, default_value = "average", value_parser = ["average", "backed-up"])]
    targets: String,
    /// Features: `ttt-lines-27` (the article's) or `ttt-lines-27-by-turn`.
    #[arg(long, default_value = "ttt-lines-27", value_parser = ["ttt-lines-27", "ttt-lines-27-by-turn"])]
    features: String,
}

/// One row: size, augmentation, and the exact result against ai2 as o and as x.
pub struct CurvePoint {
    pub games: u64,
    pub symmetries: bool,
    pub result: gamelab_core::arena::ExactResult,
}

pub fn curve(args: &LearnCurveArgs) -> anyhow::Result<Vec<CurvePoint>> {
    let registry = Ttt::registry();
    let mut points = Vec::new();
    for &games in &args.sizes {
        // The article's sizes count games in all: half with each AI first.
        let mut played = play::<Ttt>("ai2", "ai2", games.div_ceil(2), args.seed)?;
        played.truncate(games as usize);
        for symmetries in [false, true] {
            let mut scores = Scores::default();
            for g in &played {
                scores.add_game(&to_learn(g), symmetries);
            }
            let targets = if args.targets == "backed-up" {
                Targets::BackedUp
            } else {
                Targets::Average
            };
            let features = FeatureSet::from_name(&args.features).expect("checked by clap");
            let data = scores.dataset_for(targets, features);
            let fitted = fit(&data.rows, features.count(), args.ridge)?;
            let model = Model::new(&fitted, &features.set(), args.ridge, data.rows.len());
            let mut ai = Uniform(Regression {
                model: Arc::new(model),
            });
            let mut random = registry.build("ai2")?;
            let result = exact_match::<Ttt>(&mut ai, &mut *random, ["regression", "ai2"])?;
            points.push(CurvePoint {
                games,
                symmetries,
                result,
            });
        }
    }
    Ok(points)
}

pub fn run(args: LearnCurveArgs) -> anyhow::Result<()> {
    let points = curve(&args)?;
    let mut out = String::from(
        "models trained on random games (ai2 VS ai2), played exactly against ai2, %\n\
         training games  symmetries   o win  o lose  o draw   x win  x lose  x draw\n",
    );
    for p in &points {
        let pct = |x: f64| format!("{:7.1}", x * 100.0);
        let (f, s) = (p.result.first, p.result.second);
        let _ = writeln!(
            out,
            "{:14}  {:10} {} {} {} {} {} {}",
            p.games,
            if p.symmetries { "yes" } else { "no" },
            pct(f.win),
            pct(f.lose),
            pct(f.draw),
            pct(s.win),
            pct(s.lose),
            pct(s.draw)
        );
    }
    out.push_str(
        "\narticle 002 (no symmetries; 1,000 sampled test games): o wins 59.4 / 75.7 / 95.3 / 99.0 %,\n\
         x wins 39.2 / 57.6 / 87.9 / 91.3 % for 10 / 100 / 1,000 / 10,000 training games\n",
    );
    let _ = writeln!(
        out,
        "training seed {}, ridge {}, targets {}, features {}",
        args.seed, args.ridge, args.targets, args.features
    );
    print!("{out}");
    Ok(())
}
