//! `gamelab diverge A A2 B`: the first seed at which A and A2 end differently against B,
//! with B's random choices the same in both games (article 000's experiment).

use std::fmt::Write;

use anyhow::bail;
use clap::Args;
use gamelab_games::experiments::{self, DivergedGame, Divergence, Entrant, Live};

use crate::game_args::GameArgs;

#[derive(Args, Debug)]
pub struct DivergeArgs {
    /// One version of an AI, e.g. `ai12s`.
    a: String,
    /// The other version, e.g. `ai12s:score_victory=200`.
    a2: String,
    /// The opponent, e.g. `ai2`.
    b: String,
    /// First seed to try.
    #[arg(long, default_value_t = 0)]
    from: u64,
    /// How many seeds to try before giving up (1 to 10^12).
    #[arg(long, default_value_t = 1_000_000, value_parser = crate::limits::seeds)]
    limit: u64,
    /// The side A and A2 play (o or x; black or white): by default the first to move.
    #[arg(long)]
    side: Option<String>,
    #[command(flatten)]
    game: GameArgs,
}

pub fn run(args: DivergeArgs) -> anyhow::Result<()> {
    let entrants = [&args.a, &args.a2, &args.b].map(|spec| Entrant::Spec(spec.clone()));
    let bar = crate::progress::bar(args.limit, "seeds");
    let end = args.from.saturating_add(args.limit);
    let found = experiments::diverge(
        &args.game.game,
        args.game.board.as_deref(),
        [&entrants[0], &entrants[1], &entrants[2]],
        args.side.as_deref(),
        args.from..end,
        &Live {
            progress: &|n| crate::progress::advance(&bar, n),
            ..Live::default()
        },
    )
    .map_err(crate::game_args::experiment_error)?;
    crate::progress::finish(bar);
    match found {
        Some(d) => print!("{}", side_by_side(&args, &d)),
        None => bail!(
            "{} and {} end every game alike against {} for seeds {} to {}",
            args.a,
            args.a2,
            args.b,
            args.from,
            end - 1
        ),
    }
    Ok(())
}

fn side_by_side(args: &DivergeArgs, d: &Divergence) -> String {
    let [one, two] = &d.games;
    let titles = [
        format!("{} VS {}", args.a, args.b),
        format!("{} VS {}", args.a2, args.b),
    ];
    let width = titles[0].len().max(24);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "seed {}: the games part at move {}",
        d.seed,
        d.parted + 1
    );
    let _ = writeln!(out, "     {:width$}   {}", titles[0], titles[1]);
    let cell = |game: &DivergedGame, i: usize| match game.moves.get(i) {
        Some(mv) => format!("{} {mv}", game.movers[i]),
        None => String::new(),
    };
    for i in 0..one.moves.len().max(two.moves.len()) {
        let mark = if i == d.parted { "*" } else { " " };
        let (l, r) = (cell(one, i), cell(two, i));
        let _ = writeln!(out, "{mark}{:3}  {l:width$}   {r}", i + 1);
    }
    let l_lines: Vec<&str> = one.position.lines().collect();
    let r_lines: Vec<&str> = two.position.lines().collect();
    out.push('\n');
    for i in 0..l_lines.len().max(r_lines.len()) {
        let l = l_lines.get(i).copied().unwrap_or("");
        let r = r_lines.get(i).copied().unwrap_or("");
        let _ = writeln!(out, "     {l:width$}   {r}");
    }
    let _ = writeln!(out, "     {:width$}   {}", one.outcome, two.outcome);
    out
}
