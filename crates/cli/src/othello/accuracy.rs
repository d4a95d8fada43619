//! `gamelab exact-set` and `gamelab eval-error`: Othello positions from real games solved
//! exactly, and how far a model's evaluation and shallow searches are from those scores
//! (`gamelab_othello::accuracy`).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use gamelab_othello::accuracy::{evaluation_error, sample_positions, solve_all, write_suite};
use gamelab_othello::learned::PatternModel;
use gamelab_othello::{ffo, wthor};

#[derive(Args, Debug)]
pub struct ExactSetArgs {
    /// The WTHOR `.wtb` file whose games the positions are cut from (by default the year
    /// `train-patterns` holds out, so that no model was fitted to them).
    #[arg(long, default_value = "../shared/data/othello/wthor/WTH_2021.wtb")]
    games: PathBuf,
    /// Empty squares of the positions: `N` or `A-B` (each position's number drawn from the
    /// range), 1 to 30 (solves past 26 take minutes each).
    #[arg(long, default_value = "20-22", value_parser = empties_range)]
    empties: (u32, u32),
    /// Positions at most.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    count: u64,
    /// Positions a game at most, each at another number of empty squares.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=30))]
    per_game: u64,
    /// Which games, and where in them: the same seed and file give the same set.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The FFO suite to write (`<id> <board> <side> <score> <best move>` a line).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

fn empties_range(text: &str) -> Result<(u32, u32), String> {
    let expected = || format!("`{text}`: expected empty squares as `N` or `A-B`, from 1 to 30");
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=30).contains(n))
            .ok_or_else(expected)
    };
    let (low, high) = match text.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (number(text)?, number(text)?),
    };
    if low > high {
        return Err(expected());
    }
    Ok((low, high))
}

pub fn exact_set(args: ExactSetArgs) -> anyhow::Result<()> {
    gamelab_core::files::check_writable(&args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let games = wthor::read(&args.games)?;
    let (low, high) = args.empties;
    let positions = sample_positions(
        &games,
        low..=high,
        args.count as usize,
        args.per_game as usize,
        args.seed,
    );
    if positions.is_empty() {
        bail!(
            "no game of {} reaches {low}-{high} empty squares with a move to play",
            args.games.display()
        );
    }
    let began = Instant::now();
    let bar = crate::progress::bar(positions.len() as u64, "solved");
    let solved = solve_all(&positions, &|| crate::progress::advance(&bar, 1));
    crate::progress::finish(bar);
    let comment = format!(
        "Positions cut from the games of {} at {low}-{high} empty squares (seed {}, at most {} a game), solved by gamelab's solver.\nMade by: gamelab exact-set --games {} --empties {low}-{high} --count {} --per-game {} --seed {}",
        args.games.display(),
        args.seed,
        args.per_game,
        args.games.display(),
        args.count,
        args.per_game,
        args.seed
    );
    let text = write_suite(&solved, &comment);
    gamelab_core::files::write_atomically(&args.out, |w| w.write_all(text.as_bytes()))
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!(
        "{} positions of {} games solved in {:.1} s: {}",
        solved.len(),
        games.len(),
        began.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

#[derive(Args, Debug)]
pub struct EvalErrorArgs {
    /// An FFO suite of solved positions (`gamelab exact-set` makes one).
    positions: PathBuf,
    /// The model to measure (`train-patterns --out`); the shipped one by default.
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
    /// Search depths to measure, comma-separated; 0 is the static evaluation.
    #[arg(long, default_value = "0,2,4,8", value_delimiter = ',', value_parser = clap::value_parser!(u32).range(0..=20))]
    depths: Vec<u32>,
    /// One JSON object a stage instead of the table.
    #[arg(long)]
    json: bool,
}

/// The positions of an FFO suite of solved positions, refused when it holds none.
pub fn read_suite(path: &std::path::Path) -> anyhow::Result<Vec<ffo::FfoPosition>> {
    let positions = ffo::read(path).map_err(anyhow::Error::msg)?;
    if positions.is_empty() {
        bail!("{} holds no positions", path.display());
    }
    Ok(positions)
}

pub fn eval_error(args: EvalErrorArgs) -> anyhow::Result<()> {
    let positions = read_suite(&args.positions)?;
    let model = match &args.model {
        Some(path) => Arc::new(
            PatternModel::load(path)
                .with_context(|| format!("cannot read the model {}", path.display()))?,
        ),
        None => gamelab_othello::learned::shipped(),
    };
    let began = Instant::now();
    let bar = crate::progress::bar(positions.len() as u64, "positions");
    let table = evaluation_error(&model, &positions, &args.depths, &|| {
        crate::progress::advance(&bar, 1)
    });
    crate::progress::finish(bar);
    let mut out = std::io::stdout().lock();
    if args.json {
        for row in &table {
            let json = serde_json::json!({
                "stage": (row.stage != usize::MAX).then_some(row.stage),
                "empties": [row.empties.0, row.empties.1],
                "positions": row.positions,
                "depths": args.depths,
                "mae": row.mae,
                "bias": row.bias,
            });
            writeln!(out, "{json}")?;
        }
        return Ok(());
    }
    let model_name = args
        .model
        .as_ref()
        .map_or("the shipped model".to_string(), |p| p.display().to_string());
    writeln!(
        out,
        "{model_name} against the exact scores of {} ({} positions): mean absolute error in discs (mean signed error)",
        args.positions.display(),
        positions.len()
    )?;
    let mut header = "stage  empties  positions".to_string();
    for &d in &args.depths {
        header.push_str(&if d == 0 {
            format!("  {:>15}", "static")
        } else {
            format!("  {:>15}", format!("depth {d}"))
        });
    }
    writeln!(out, "{header}")?;
    for row in &table {
        let stage = if row.stage == usize::MAX {
            "all".to_string()
        } else {
            row.stage.to_string()
        };
        let mut line = format!(
            "{stage:>5}  {:>7}  {:>9}",
            format!("{}-{}", row.empties.0, row.empties.1),
            row.positions
        );
        for (mae, bias) in row.mae.iter().zip(&row.bias) {
            line.push_str(&format!("  {:>15}", format!("{mae:.2} ({bias:+.2})")));
        }
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "({:.1} s; searches as the engine's, ProbCut on, each on a fresh table)",
        began.elapsed().as_secs_f64()
    )?;
    Ok(())
}
