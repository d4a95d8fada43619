//! `gamelab diverge A A2 B`: the first seed at which A and A2 end differently against B,
//! with B's random choices the same in both games (article 000's experiment).

use std::fmt::Write;

use anyhow::bail;
use clap::Args;
use gamelab_core::diverge::{Divergence, first_divergence};
use gamelab_core::{Described, GameVisitor, Registry, Side};

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
    let out = args.game.visit(&args)??;
    print!("{out}");
    Ok(())
}

impl GameVisitor for &DivergeArgs {
    type Output = anyhow::Result<String>;
    fn visit<G: Described>(self) -> Self::Output {
        search::<G>(self, &G::registry())
    }
}

pub fn search<G: Described>(args: &DivergeArgs, registry: &Registry<G>) -> anyhow::Result<String> {
    let side = match args.side.as_deref().unwrap_or(G::side_name(Side::First)) {
        s if s == G::side_name(Side::First) => Side::First,
        s if s == G::side_name(Side::Second) => Side::Second,
        other => bail!(
            "`{other}` is not a side: expected {} or {}",
            G::side_name(Side::First),
            G::side_name(Side::Second)
        ),
    };
    let mut a = registry.build(&args.a)?;
    let mut a2 = registry.build(&args.a2)?;
    let mut b = registry.build(&args.b)?;
    let bar = crate::progress::bar(args.limit, "seeds");
    let end = args.from.saturating_add(args.limit);
    let found = first_divergence(
        &mut *a,
        &mut *a2,
        &mut *b,
        side,
        args.from..end,
        &mut |_| {
            crate::progress::advance(&bar, 1);
            true
        },
    );
    crate::progress::finish(bar);
    match found {
        Some(d) => Ok(side_by_side::<G>(args, &d)),
        None => bail!(
            "{} and {} end every game alike against {} for seeds {} to {}",
            args.a,
            args.a2,
            args.b,
            args.from,
            end - 1
        ),
    }
}

fn side_by_side<G: Described>(args: &DivergeArgs, d: &Divergence<G::Move>) -> String {
    let [(m1, o1), (m2, o2)] = &d.games;
    let (o1, o2, seed, parted) = (*o1, *o2, d.seed, d.parted);
    let titles = [
        format!("{} VS {}", args.a, args.b),
        format!("{} VS {}", args.a2, args.b),
    ];
    let width = titles[0].len().max(24);
    let mut out = String::new();
    let _ = writeln!(out, "seed {seed}: the games part at move {}", parted + 1);
    let _ = writeln!(out, "     {:width$}   {}", titles[0], titles[1]);
    let mut left = G::start();
    let mut right = G::start();
    for i in 0..m1.len().max(m2.len()) {
        let cell = |game: &mut G, m: Option<&G::Move>| match m {
            Some(&mv) => {
                let text = format!("{} {}", G::side_name(game.to_move()), G::write_move(mv));
                game.play_unchecked(mv);
                text
            }
            None => String::new(),
        };
        let l = cell(&mut left, m1.get(i));
        let r = cell(&mut right, m2.get(i));
        let mark = if i == parted { "*" } else { " " };
        let _ = writeln!(out, "{mark}{:3}  {l:width$}   {r}", i + 1);
    }
    let l_lines: Vec<String> = left.to_string().lines().map(str::to_string).collect();
    let r_lines: Vec<String> = right.to_string().lines().map(str::to_string).collect();
    out.push('\n');
    for i in 0..l_lines.len().max(r_lines.len()) {
        let l = l_lines.get(i).map_or("", String::as_str);
        let r = r_lines.get(i).map_or("", String::as_str);
        let _ = writeln!(out, "     {l:width$}   {r}");
    }
    let _ = writeln!(
        out,
        "     {:width$}   {}",
        G::describe_outcome(o1),
        G::describe_outcome(o2)
    );
    out
}
