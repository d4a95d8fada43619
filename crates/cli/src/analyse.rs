//! `gamelab analyse AI POSITION`: every move's value (or with `--lines N` the best N
//! lines), deeper and deeper, a line a level, through the game-erased door
//! (`gamelab_games::dyn_game`) the Python package's `Agent.deepen` uses too.

use std::io::Write;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use anyhow::bail;
use clap::Args;
use gamelab_core::DeepeningEnd;
use gamelab_games::dyn_game::{DeepLevel, make_position};

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The AI, e.g. `engine` (see `gamelab ais`); one that scores moves.
    ai: String,
    /// The position in the game's notation (the start if left out; each game's notation:
    /// `gamelab games`).
    #[arg(allow_hyphen_values = true)]
    position: Option<String>,
    /// Stop after this many seconds, keeping the values of the last level done (an AI that
    /// takes a time limit always finishes its first level); without it, it runs until every
    /// value is exact, the AI searches no further, its own `time` runs out or Ctrl-C.
    #[arg(long, value_parser = crate::limits::seconds)]
    time: Option<f64>,
    /// Only the best N lines, best first, each with its value and the moves it expects:
    /// a multi-line search that spends little on the other moves (without it, every
    /// move's value).
    #[arg(long, value_name = "N", value_parser = crate::limits::lines)]
    lines: Option<usize>,
    /// JSON Lines instead of text: an object a level (`level`, `nodes`, `elapsed_ms`,
    /// `scores`: each move's `move`, `score`, `exact`, `line`), then `{"done": true,
    /// "end", "reason", "elapsed_ms"}`.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    game: crate::game_args::GameArgs,
}

pub fn run(args: AnalyseArgs) -> anyhow::Result<()> {
    let out = std::io::stdout();
    analyse(&args, &mut out.lock())
}

/// Writes a line for each level as it is done, then every move's value (or the best
/// lines) at the last one, best first, and why it ended.
fn analyse(args: &AnalyseArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let game = make_position(
        &args.game.game,
        args.game.board.as_deref(),
        args.position.as_deref(),
    )?;
    if let Some(outcome) = game.outcome() {
        bail!(
            "the game is already over ({}); there are no moves to value",
            game.describe_outcome(outcome)
        );
    }
    let mut agent = game.build_agent(&args.ai)?;
    let began = Instant::now();
    let interrupt = crate::recording::interrupt_flag();
    let time = args.time.map(Duration::from_secs_f64);
    let mut last: Option<DeepLevel> = None;
    let mut failed = None;
    let board = game.text();
    let end = agent.deepen(&*game, time, &interrupt, args.lines, &mut |step| {
        // The board once the AI is known to value moves (an error alone otherwise).
        let text = if args.json {
            level_json(&step, began.elapsed()).to_string()
        } else if last.is_none() {
            format!("{board}\n{}", level_line(&step, began.elapsed()))
        } else {
            level_line(&step, began.elapsed())
        };
        if let Err(e) = writeln!(out, "{text}") {
            failed = Some(e);
            return ControlFlow::Break(());
        }
        let _ = out.flush();
        last = Some(step);
        ControlFlow::Continue(())
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let Some(end) = end else {
        bail!(
            "{} gives no value for each move; choose an AI that scores moves, such as {}",
            args.ai,
            game.analysis_ai()
        );
    };
    let why = match end {
        DeepeningEnd::Stopped if crate::recording::interrupted() => "interrupted".to_string(),
        DeepeningEnd::Stopped if time.is_some_and(|t| began.elapsed() >= t) => {
            format!("--time {} s ran out", args.time.unwrap_or_default())
        }
        DeepeningEnd::Stopped => "the AI's own time ran out".to_string(),
        end => end.describe().to_string(),
    };
    if args.json {
        let word = match end {
            DeepeningEnd::Exact => "exact",
            DeepeningEnd::Deepest => "deepest",
            DeepeningEnd::Stopped if crate::recording::interrupted() => "stopped",
            DeepeningEnd::Stopped | DeepeningEnd::Declined => "time",
        };
        let done = serde_json::json!({
            "done": true,
            "end": word,
            "reason": why,
            "elapsed_ms": began.elapsed().as_millis() as u64,
        });
        writeln!(out, "{done}")?;
        return Ok(());
    }
    let Some(last) = last else {
        writeln!(out, "{board}\nstopped before the first level was done")?;
        return Ok(());
    };
    let mut scores = last.scores.clone();
    scores.sort_by(|a, b| b.score.total_cmp(&a.score));
    for s in &scores {
        let mark = match s.level {
            _ if s.exact => " exact   ".to_string(),
            Some(l) if last.is_ahead(s) => format!(" level {l:<2}"),
            _ => " ".repeat(9),
        };
        writeln!(
            out,
            "{:>6} {:>8}{mark}  {}",
            s.mv,
            format!("{:+.2}", s.score),
            s.line.join(" ")
        )?;
    }
    writeln!(out, "ended: {why} ({:.2} s)", began.elapsed().as_secs_f64())?;
    Ok(())
}

/// One level as a JSON object, as the web app's deepening sends it.
fn level_json(step: &DeepLevel, elapsed: Duration) -> serde_json::Value {
    let scores: Vec<serde_json::Value> = step
        .scores
        .iter()
        .map(|s| {
            serde_json::json!({
                "move": s.mv,
                "score": s.score,
                "exact": s.exact,
                "line": s.line,
                "level": s.level,
            })
        })
        .collect();
    serde_json::json!({
        "level": step.level,
        "nodes": step.nodes,
        "elapsed_ms": elapsed.as_millis() as u64,
        "scores": scores,
    })
}

/// One level in a line: how deep, how many values are exact, the work, and the best move
/// with its line.
fn level_line(step: &DeepLevel, elapsed: Duration) -> String {
    let level = step
        .level
        .map_or("values".to_string(), |l| format!("level {l:>2}"));
    let exact = step.scores.iter().filter(|s| s.exact).count();
    let nodes = step
        .nodes
        .map_or(String::new(), |n| format!("  {n:>13} positions"));
    let best = step
        .scores
        .iter()
        .reduce(|b, s| if s.score > b.score { s } else { b });
    let best = best.map_or(String::new(), |b| {
        format!("  best {} {:+.2}  line {}", b.mv, b.score, b.line.join(" "))
    });
    // Exact values are marked so, whatever their level.
    let deeper = step.ahead().filter(|s| !s.exact).count();
    let deeper = match step.level {
        Some(l) if deeper > 0 => format!("  {deeper} at level {}", l + 1),
        _ => String::new(),
    };
    format!(
        "{level}  exact {exact}/{}{deeper}{nodes}  {:>7.2} s{best}",
        step.scores.len(),
        elapsed.as_secs_f64()
    )
}
