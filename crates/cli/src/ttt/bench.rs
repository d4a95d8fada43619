//! `gamelab bench`: article 004's benchmark — for each board data structure, with and without
//! line counts: ai2 VS ai2 and ai14s VS ai2 in games/s, and one ai_abs_dls call from the
//! start (ai14s evaluation, table on, depth 8). Every figure is the median of repeated
//! runs, with the fastest and slowest run beside it.

use std::fmt::Write;
use std::time::Instant;

use clap::Args;
use gamelab_core::arena::{MatchConfig, MatchResult, run_match};
use gamelab_ttt::ai::abs_dls::AbsDls;
use gamelab_ttt::ai::ranked_evaluation;
use gamelab_ttt::board::{Board, BoardKind};
use gamelab_ttt::{Position, with_board};
use serde_json::json;

use crate::tables::{count_table, ratio_table};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Games per match with each AI first (the article: 50,000).
    #[arg(long, default_value_t = 50_000, value_parser = crate::limits::games_per_side)]
    games: u64,
    /// Threads per match, 1 to 256 (the article's Python ran on one).
    #[arg(long, default_value_t = 1, value_parser = crate::limits::threads)]
    threads: usize,
    /// Runs per figure (1 to 1000); the median is reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u16).range(1..=1000))]
    repeat: u16,
    /// Print one JSON object instead of the tables.
    #[arg(long)]
    json: bool,
}

/// Median of repeated measurements, with the smallest and largest.
#[derive(Clone, Copy, Debug)]
struct Figure {
    median: f64,
    min: f64,
    max: f64,
}

impl Figure {
    fn of(mut samples: Vec<f64>) -> Figure {
        samples.sort_by(f64::total_cmp);
        let n = samples.len();
        let median = if n % 2 == 1 {
            samples[n / 2]
        } else {
            (samples[n / 2 - 1] + samples[n / 2]) / 2.0
        };
        Figure {
            median,
            min: samples[0],
            max: samples[n - 1],
        }
    }

    fn json(&self) -> serde_json::Value {
        json!({"median": self.median, "min": self.min, "max": self.max})
    }
}

struct Row {
    board: BoardKind,
    line_counts: bool,
    ai2: Figure,
    ai2_result: MatchResult,
    ai14s: Figure,
    ai14s_result: MatchResult,
    /// Seconds per ai_abs_dls call.
    abs_dls: Figure,
}

pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    let mut rows = Vec::new();
    for board in BoardKind::ALL {
        for line_counts in [false, true] {
            let row = with_board!(board, line_counts, B => measure::<B>(&args, board, line_counts));
            if !args.json {
                print!("{}", block(&row));
            }
            rows.push(row);
        }
    }
    if args.json {
        let rows: Vec<_> = rows
            .iter()
            .map(|r| {
                json!({
                    "board": r.board.name(), "line_counts": r.line_counts,
                    "ai2_vs_ai2_games_per_s": r.ai2.json(),
                    "ai14s_vs_ai2_games_per_s": r.ai14s.json(),
                    "ai_abs_dls_seconds": r.abs_dls.json(),
                })
            })
            .collect();
        let value = json!({"games_per_side": args.games, "threads": args.threads, "repeat": args.repeat, "rows": rows});
        println!("{value}");
    } else {
        print!("{}", summary(&rows, &args));
    }
    Ok(())
}

fn measure<B: Board>(args: &BenchArgs, board: BoardKind, line_counts: bool) -> Row {
    let registry = gamelab_ttt::ai::registry::<B>();
    let cfg = MatchConfig {
        games_per_side: args.games,
        seed: 0,
        threads: args.threads,
        opening_plies: 0,
        ..Default::default()
    };
    let timed_match = |a: &str| {
        let mut samples = Vec::new();
        let mut result = None;
        for _ in 0..args.repeat {
            let make_a = || registry.build(a).expect("a catalogue AI");
            let make_b = || registry.build("ai2").expect("a catalogue AI");
            let started = Instant::now();
            let (r, _) = run_match::<Position<B>, _>(&make_a, &make_b, &cfg, &|_| {}, false);
            samples.push((args.games * 2) as f64 / started.elapsed().as_secs_f64());
            result = Some(r);
        }
        (Figure::of(samples), result.expect("at least one run"))
    };
    let (ai2, ai2_result) = timed_match("ai2");
    let (ai14s, ai14s_result) = timed_match("ai14s");

    let ai = AbsDls {
        eval: ranked_evaluation("ai14s").expect("ai14s is a score AI"),
        max_depth: 8,
        use_tt: true,
        time_limit: None,
    };
    let start = Position::<B>::new();
    // Enough calls per sample to take about 20 ms, so the clock's resolution is noise.
    let started = Instant::now();
    std::hint::black_box(ai.move_values(&start));
    let once = started.elapsed().as_secs_f64().max(1e-7);
    let calls = ((0.02 / once) as usize).clamp(1, 10_000);
    let samples = (0..args.repeat)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..calls {
                std::hint::black_box(ai.move_values(std::hint::black_box(&start)));
            }
            started.elapsed().as_secs_f64() / calls as f64
        })
        .collect();
    Row {
        board,
        line_counts,
        ai2,
        ai2_result,
        ai14s,
        ai14s_result,
        abs_dls: Figure::of(samples),
    }
}

fn rate(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else {
        format!("{:.1} k", x / 1e3)
    }
}

fn duration(seconds: f64) -> String {
    if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else {
        format!("{:.1} µs", seconds * 1e6)
    }
}

/// One structure's results as the article prints them.
fn block(row: &Row) -> String {
    let tables = |r: &MatchResult| {
        let t = r.total();
        let counts = |x: gamelab_core::arena::Tally| [x.win, x.lose, x.draw];
        format!(
            "{}\n{}",
            count_table([
                ("o", counts(r.first)),
                ("x", counts(r.second)),
                ("total", counts(t))
            ]),
            ratio_table(
                [
                    ("o", r.first.ratios()),
                    ("x", r.second.ratios()),
                    ("total", t.ratios())
                ],
                1
            )
        )
    };
    format!(
        "boardclass: {}, count_linemark {}\nai2 VS ai2  {} games/s\n{}\nai14s VS ai2  {} games/s\n{}\nai_abs_dls\n{} per call\n\n",
        row.board.name(),
        if row.line_counts { "True" } else { "False" },
        rate(row.ai2.median),
        tables(&row.ai2_result),
        rate(row.ai14s.median),
        tables(&row.ai14s_result),
        duration(row.abs_dls.median)
    )
}

fn summary(rows: &[Row], args: &BenchArgs) -> String {
    let mut out = format!(
        "median of {} runs [fastest–slowest]; {} games per side per match, {} thread(s)\n",
        args.repeat, args.games, args.threads
    );
    let _ = writeln!(
        out,
        "{:9} {:6} {:>26} {:>26} {:>28}",
        "structure", "counts", "ai2 VS ai2 games/s", "ai14s VS ai2 games/s", "ai_abs_dls per call"
    );
    for r in rows {
        let range = |f: &Figure, show: fn(f64) -> String| {
            format!("{} [{}–{}]", show(f.median), show(f.min), show(f.max))
        };
        let _ = writeln!(
            out,
            "{:9} {:6} {:>26} {:>26} {:>28}",
            r.board.name(),
            if r.line_counts { "on" } else { "off" },
            range(&r.ai2, rate),
            range(&r.ai14s, rate),
            format!(
                "{} [{}–{}]",
                duration(r.abs_dls.median),
                duration(r.abs_dls.min),
                duration(r.abs_dls.max)
            ),
        );
    }
    out
}
