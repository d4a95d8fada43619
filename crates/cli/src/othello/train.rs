//! `gamelab train-patterns`: fits Othello's pattern evaluation to the WTHOR games, stage by
//! stage, and prints the held-out error against a refit of the old hand-made evaluation.

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use gamelab_learn::{CgOptions, fit_dense, fit_sparse};
use gamelab_othello::accuracy::evaluation_error;
use gamelab_othello::ffo::FfoPosition;
use gamelab_othello::learned::{PatternModel, STAGES};
use gamelab_othello::patterns::offsets;
use gamelab_othello::selfplay::{SelfPlay, self_play};
use gamelab_othello::training::{Labels, SearchLabels, TrainingSet};
use gamelab_othello::wthor;

#[derive(Args, Debug)]
pub struct TrainPatternsArgs {
    /// The folder of WTHOR `.wtb` files.
    #[arg(long, default_value = "../shared/data/othello/wthor")]
    wthor: PathBuf,
    /// Hold out this year's file (`WTH_<year>.wtb`) to measure the error on.
    #[arg(long, default_value_t = 2021)]
    holdout: u32,
    /// The model file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Ridge penalty on the squared pattern weights (per position, in discs²); the
    /// shipped model's.
    #[arg(long, default_value_t = 8.0, value_parser = crate::limits::ridge)]
    ridge: f64,
    /// Conjugate-gradient iterations per stage, at most (the shipped model's: on its data
    /// the fit's judged errors no longer move by then).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    iterations: u32,
    /// Label positions with at most this many empty squares by the exact solver (0: none).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=20))]
    exact: u32,
    /// Use only every k-th training game (k = 1: all), for quick trials.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    every: u32,
    /// Rounds of self-play after the fit to the WTHOR games: each plays --self-play-games
    /// games of the engine with the latest model against itself, adds their positions to
    /// the data and fits again (0: none).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=20))]
    self_play_rounds: u32,
    /// Games per round of self-play, each from its own random opening.
    #[arg(long, default_value_t = 20_000, value_parser = crate::limits::training_games)]
    self_play_games: u64,
    /// The engine's level in self-play.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=30))]
    self_play_level: u32,
    /// In self-play both sides play perfectly from this many empty squares (the solver's
    /// moves), so that every position from there on is labelled by its exact score (0: from
    /// the level's own reach).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=24))]
    self_play_exact: u32,
    /// Label the self-play positions with at least --self-play-search-from empty squares
    /// by a search this many plies deep with the round's model (the one that played them),
    /// rather than by the game's result (0: by the result).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=12))]
    self_play_search_depth: u32,
    /// See --self-play-search-depth.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=60))]
    self_play_search_from: u32,
    /// Random plies before each self-play game.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=30))]
    self_play_openings: u32,
    /// Write each round's self-play games to FOLDER/self-play-N.wtb (making FOLDER if it
    /// is missing): the fit is deterministic, so --self-play-from makes the same model from
    /// them again (self-play itself depends on the engine's code, which changes).
    #[arg(long, value_name = "FOLDER", conflicts_with = "self_play_from")]
    self_play_save: Option<PathBuf>,
    /// After each fit, also print the static evaluation's error against the exact scores
    /// of this FFO suite (`gamelab exact-set` makes one; may be given several times): the
    /// measure a refit should bring down, where the held-out games' results are noisy.
    #[arg(long, value_name = "SUITE")]
    judge: Vec<PathBuf>,
    /// Read each round's self-play games from FOLDER/self-play-N.wtb (written by
    /// --self-play-save) instead of playing them.
    #[arg(long, value_name = "FOLDER")]
    self_play_from: Option<PathBuf>,
}

/// The file of round `round`'s self-play games in `folder`.
fn round_file(folder: &Path, round: u32) -> PathBuf {
    folder.join(format!("self-play-{round}.wtb"))
}

/// One round's saved self-play games and the file they came from.
type SavedRound = (PathBuf, Vec<wthor::WthorGame>);

/// Each round's saved self-play games with the file they came from, when the training
/// reads them (`--self-play-from`) instead of playing. Checks the folders before the long
/// work: saved games are read now, and a folder to save to must take the files (and must
/// not be the WTHOR folder, whose `.wtb` files are all read as tournament games).
fn saved_self_play(args: &TrainPatternsArgs) -> anyhow::Result<Option<Vec<SavedRound>>> {
    let folder = args
        .self_play_save
        .as_ref()
        .or(args.self_play_from.as_ref());
    if let Some(folder) = folder {
        if args.self_play_rounds == 0 {
            bail!("--self-play-save and --self-play-from need --self-play-rounds 1 or more");
        }
        let same = |a: &Path, b: &Path| {
            matches!(
                (std::fs::canonicalize(a), std::fs::canonicalize(b)),
                (Ok(a), Ok(b)) if a == b
            )
        };
        if same(folder, &args.wthor) {
            bail!(
                "{} is the WTHOR folder; keep self-play games in a folder of their own",
                folder.display()
            );
        }
    }
    if let Some(folder) = &args.self_play_from {
        let rounds = (1..=args.self_play_rounds)
            .map(|round| {
                let file = round_file(folder, round);
                wthor::read(&file).map(|games| (file, games))
            })
            .collect::<Result<_, _>>()?;
        return Ok(Some(rounds));
    }
    if let Some(folder) = &args.self_play_save {
        std::fs::create_dir_all(folder).with_context(|| {
            format!(
                "cannot make the folder {} for the self-play games",
                folder.display()
            )
        })?;
        for round in 1..=args.self_play_rounds {
            let file = round_file(folder, round);
            gamelab_core::files::check_writable(&file).with_context(|| {
                format!("cannot write the self-play games to {}", file.display())
            })?;
        }
    }
    Ok(None)
}

pub fn run(args: TrainPatternsArgs) -> anyhow::Result<()> {
    gamelab_core::files::check_writable(&args.out)
        .with_context(|| format!("cannot write the model to {}", args.out.display()))?;
    let mut saved = saved_self_play(&args)?;
    let judges = args
        .judge
        .iter()
        .map(|path| Ok((path.clone(), super::accuracy::read_suite(path)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let started = Instant::now();
    let holdout_name = format!("WTH_{}.wtb", args.holdout);
    let (mut train_games, mut test_games) = (Vec::new(), Vec::new());
    for file in wthor::wtb_files(&args.wthor)? {
        let games = wthor::read(&file)?;
        if file.file_name().is_some_and(|n| n == holdout_name.as_str()) {
            test_games.extend(games);
        } else {
            train_games.extend(games);
        }
    }
    if test_games.is_empty() {
        bail!("no {holdout_name} in {} to hold out", args.wthor.display());
    }
    let train_games: Vec<_> = train_games
        .into_iter()
        .step_by(args.every as usize)
        .collect();
    let labels = Labels {
        theoretical_depth: 24,
        exact_empties: args.exact,
        search: None,
    };
    let bar = crate::progress::bar((train_games.len() + test_games.len()) as u64, "games");
    let progress = |n| crate::progress::advance(&bar, n);
    let (train, skipped_train) = TrainingSet::from_games(&train_games, &labels, &progress);
    let (test, skipped_test) = TrainingSet::from_games(&test_games, &labels, &progress);
    crate::progress::finish(bar);
    println!(
        "{} training games ({} positions), {} held-out games of {} ({} positions); {} games that do not replay skipped; features in {:.1} s",
        train_games.len() - skipped_train,
        train.rows.len(),
        test_games.len() - skipped_test,
        args.holdout,
        test.rows.len(),
        skipped_train + skipped_test,
        started.elapsed().as_secs_f64()
    );
    let options = CgOptions {
        ridge: args.ridge,
        iterations: args.iterations as usize,
        tolerance: 1e-6,
    };
    let (model, table, mut error) = fit(&train, &test, options)?;
    let mut model = Arc::new(model);
    print!("{table}");
    print!("{}", judged(&model, &judges));
    let mut train = train;
    for round in 1..=args.self_play_rounds {
        let began = Instant::now();
        let (games, source) = match &mut saved {
            Some(rounds) => {
                let (file, games) = std::mem::take(&mut rounds[round as usize - 1]);
                (games, format!("read from {}", file.display()))
            }
            None => {
                let bar = crate::progress::bar(args.self_play_games, "self-play games");
                let progress = |n| crate::progress::advance(&bar, n);
                let how = SelfPlay {
                    level: args.self_play_level,
                    games: args.self_play_games,
                    opening_plies: args.self_play_openings,
                    seed: u64::from(round),
                    exact_from: (args.self_play_exact > 0).then_some(args.self_play_exact),
                };
                let games = self_play(&model, how, &progress)?;
                crate::progress::finish(bar);
                let mut source = format!("at level {}", args.self_play_level);
                if args.self_play_exact > 0 {
                    write!(source, ", perfect from {} empties", args.self_play_exact)?;
                }
                if let Some(folder) = &args.self_play_save {
                    let file = round_file(folder, round);
                    let bytes = wthor::to_bytes(&games, 0).map_err(anyhow::Error::msg)?;
                    gamelab_core::files::write_atomically(&file, |w| w.write_all(&bytes))
                        .with_context(|| {
                            format!("cannot write the self-play games to {}", file.display())
                        })?;
                    write!(source, ", saved to {}", file.display())?;
                }
                (games, source)
            }
        };
        let self_play_labels = Labels {
            search: (args.self_play_search_depth > 0).then(|| SearchLabels {
                model: model.clone(),
                depth: args.self_play_search_depth,
                from_empties: args.self_play_search_from,
            }),
            ..labels.clone()
        };
        let (more, skipped) = TrainingSet::from_games(&games, &self_play_labels, &|_| {});
        let mut source = source;
        if args.self_play_search_depth > 0 {
            write!(
                source,
                "; positions from {} empties labelled by a depth-{} search",
                args.self_play_search_from, args.self_play_search_depth
            )?;
        }
        if skipped > 0 {
            bail!("{skipped} self-play games do not replay");
        }
        train.append(&more);
        let (next, table, next_error) = fit(&train, &test, options)?;
        let next = Arc::new(next);
        let points = strength(&next, &model, args.self_play_level)?;
        println!(
            "\nround {round}: {} self-play games {source} ({} positions, {} in all) in {:.1} s; held-out MAE {:.2} discs (was {:.2}); the new model at level {} against the last: {:.1} % of the points (100 openings of 8 plies, both colours)",
            games.len(),
            more.rows.len(),
            train.rows.len(),
            began.elapsed().as_secs_f64(),
            next_error,
            error,
            args.self_play_level,
            100.0 * points
        );
        print!("{table}");
        print!("{}", judged(&next, &judges));
        (model, error) = (next, next_error);
    }
    model.save(&args.out)?;
    println!(
        "model written to {} ({} bytes) in {:.1} s; ridge {}, at most {} iterations, exact labels from {} empties",
        args.out.display(),
        std::fs::metadata(&args.out).map(|m| m.len()).unwrap_or(0),
        started.elapsed().as_secs_f64(),
        args.ridge,
        args.iterations,
        args.exact
    );
    Ok(())
}

/// `model`'s static error against each suite's exact scores, a line a suite.
fn judged(model: &Arc<PatternModel>, judges: &[(PathBuf, Vec<FfoPosition>)]) -> String {
    let mut out = String::new();
    for (path, positions) in judges {
        let table = evaluation_error(model, positions, &[0], &|| {});
        let by_stage: Vec<String> = table
            .iter()
            .map(|row| {
                let stage = if row.stage == usize::MAX {
                    "all".to_string()
                } else {
                    format!("stage {}", row.stage)
                };
                format!("{stage} {:.2} ({:+.2})", row.mae[0], row.bias[0])
            })
            .collect();
        let _ = writeln!(
            out,
            "against the exact scores of {} ({} positions), static error in discs (signed): {}",
            path.display(),
            positions.len(),
            by_stage.join(", ")
        );
    }
    out
}

/// Fits every stage to `train`, and measures the held-out error on `test`: the model, the
/// table of errors by stage (against the refit baseline), and the mean error over all.
fn fit(
    train: &TrainingSet,
    test: &TrainingSet,
    options: CgOptions,
) -> anyhow::Result<(PatternModel, String, f64)> {
    let n = offsets().1;
    let mut biases = Vec::with_capacity(STAGES);
    let mut weights = Vec::with_capacity(STAGES);
    let mut table = String::from(
        "stage  empties  train rows  iterations  held-out MAE (discs): patterns  weighted+mobility refit\n",
    );
    let mut models = Vec::new();
    for s in 0..STAGES {
        let chosen = train.rows_of(s, 1);
        let fit = fit_sparse(&train.rows, Some(&chosen), n, options, &|_| {})
            .with_context(|| format!("stage {s}"))?;
        let baseline_rows: Vec<Vec<f64>> = chosen
            .iter()
            .map(|&i| train.baseline[i as usize].map(f64::from).to_vec())
            .collect();
        let x: Vec<&[f64]> = baseline_rows.iter().map(Vec::as_slice).collect();
        let y: Vec<f64> = chosen
            .iter()
            .map(|&i| f64::from(train.rows.target(i as usize)))
            .collect();
        let baseline = fit_dense(&x, &y, 1e-6).with_context(|| format!("stage {s} baseline"))?;
        biases.push(fit.intercept);
        weights.push(fit.weights.clone());
        models.push((fit, baseline, chosen.len()));
    }
    let model = PatternModel::from_discs(&biases, &weights);
    let mut total = (0.0, 0.0, 0usize);
    for (s, (fit, (b0, bw), rows)) in models.iter().enumerate() {
        let held: Vec<u32> = test.rows_of(s, 0);
        let (mut pattern_err, mut base_err) = (0.0, 0.0);
        for &i in &held {
            let i = i as usize;
            let target = f64::from(test.rows.target(i));
            // What ships: the quantised model.
            let predicted = f64::from(model.value_of_features(s, test.rows.row(i))) / 256.0;
            pattern_err += (predicted - target).abs();
            let base = b0
                + bw[0] * f64::from(test.baseline[i][0])
                + bw[1] * f64::from(test.baseline[i][1]);
            base_err += (base - target).abs();
        }
        let m = held.len().max(1) as f64;
        let empties = 60 - 4 * s;
        let _ = writeln!(
            table,
            "{s:5}  {:>7}  {rows:10}  {:10}  {:30.2}  {:23.2}",
            format!("{}-{}", empties.saturating_sub(3).max(1), empties),
            fit.iterations,
            pattern_err / m,
            base_err / m
        );
        total.0 += pattern_err;
        total.1 += base_err;
        total.2 += held.len();
    }
    let m = total.2.max(1) as f64;
    let _ = writeln!(
        table,
        "{:>51}  {:30.2}  {:23.2}",
        "all",
        total.0 / m,
        total.1 / m
    );
    Ok((model, table, total.0 / m))
}

/// The share of the points `new` scores against `old`, both as the engine at `level`, over
/// 100 random openings of 8 plies played once with each colour.
fn strength(new: &Arc<PatternModel>, old: &Arc<PatternModel>, level: u32) -> anyhow::Result<f64> {
    use gamelab_core::match_request::{MatchRequest, Openings};
    use gamelab_core::{Agent, FileAccess, Registry};
    use gamelab_othello::Othello;
    use gamelab_othello::ai::Engine;
    let engine = |model: &Arc<PatternModel>| -> Box<dyn Agent<Othello>> {
        Box::new(Engine::new(model.clone(), level, None))
    };
    let mut request = MatchRequest::new("the new model", "the last model");
    request.setup.games_per_side = Some(100);
    request.setup.openings = Openings::Random {
        plies: 8,
        judge: None,
    };
    // No judge: the openings need no AI of the registry.
    let prepared = request.prepare(&Registry::<Othello>::new(), &FileAccess::Any)?;
    let make_new = || engine(new);
    let make_old = || engine(old);
    let (run, _) = prepared.run_here(&make_new, &make_old, &|_| {}, false)?;
    let t = run.report.total;
    Ok((t.win as f64 + t.draw as f64 / 2.0) / t.games() as f64)
}
