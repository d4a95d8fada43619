//! `gamelab ais`: every AI with a one-line description and its parameters, then the
//! measured strengths of the game's levels where it has them.

use std::fmt::Write;

use clap::Args;
use gamelab_core::describe::GameInfo;

#[derive(Args, Debug)]
pub struct AisArgs {
    #[command(flatten)]
    game: crate::game_args::GameArgs,
}

pub fn run(args: AisArgs) -> anyhow::Result<()> {
    gamelab_games::board(&args.game.game, args.game.board.as_deref())?;
    print!("{}", listing(&gamelab_games::game_info(&args.game.game)?));
    Ok(())
}

/// The game's AIs as text: one line per AI, then one per parameter with its default;
/// then its rated strengths, each with the preset that plays it.
pub fn listing(info: &GameInfo) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "AIs for {} (use as NAME or NAME:key=value,...):",
        info.name
    );
    let width = info.ais.iter().map(|ai| ai.name.len()).max().unwrap_or(0);
    for ai in &info.ais {
        let _ = write!(out, "  {:width$}  {}", ai.name, ai.summary);
        if !ai.aliases.is_empty() {
            let _ = write!(out, " (also: {})", ai.aliases.join(", "));
        }
        out.push('\n');
        for p in &ai.params {
            let default = p.default.as_deref().unwrap_or("(required)");
            let setting = format!("{}={default}", p.name);
            let _ = writeln!(out, "  {:width$}    {setting:24} {}", "", p.help);
        }
    }
    if !info.ratings.is_empty() {
        let _ = writeln!(
            out,
            "\nStrengths on one Elo scale (random = 0; ± the 95 % interval), from a round robin of \
             these AIs (docs/othello.md, \"Levels and Elo\"):"
        );
        let width = info.ratings.iter().map(|r| r.spec.len()).max().unwrap_or(0);
        for r in info.ratings {
            let preset = info
                .presets
                .iter()
                .find(|p| p.spec == r.spec)
                .map_or(String::new(), |p| format!("  the page's \"{}\"", p.name));
            let _ = writeln!(
                out,
                "  {:width$}  {:>5} ± {:<3}{preset}",
                r.spec, r.elo, r.interval95
            );
        }
    }
    out
}
