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
             these AIs, those rated apart from runs against some of them (RESULTS.md, \"The \
             engine's levels on one Elo scale\"):"
        );
        let width = info.ratings.iter().map(|r| r.spec.len()).max().unwrap_or(0);
        for r in info.ratings {
            let preset = info
                .presets
                .iter()
                .find(|p| p.spec == r.spec)
                .map_or(String::new(), |p| format!("  the page's \"{}\"", p.name));
            let apart = r
                .apart
                .map_or(String::new(), |how| format!("  rated apart, {how}"));
            let line = format!(
                "  {:width$}  {:>5} ± {:<3}{preset}{apart}",
                r.spec, r.elo, r.interval95
            );
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use gamelab_core::Rating;

    use super::*;

    #[test]
    fn ratings_are_listed_with_the_preset_that_plays_each() {
        let mut info = gamelab_games::game_info("othello").unwrap();
        info.ratings = &[];
        assert!(
            !listing(&info).contains("Elo"),
            "no section without ratings"
        );
        info.ratings = &[
            Rating {
                spec: "random",
                elo: 0,
                interval95: 40,
                apart: None,
            },
            Rating {
                spec: "engine:level=2",
                elo: 1234,
                interval95: 35,
                apart: None,
            },
            Rating {
                spec: "engine:time=0.1",
                elo: 1300,
                interval95: 60,
                apart: Some("against level 2"),
            },
        ];
        let text = listing(&info);
        let section = &text[text.find("Strengths on one Elo scale").unwrap()..];
        let lines: Vec<&str> = section.lines().skip(1).collect();
        assert_eq!(lines.len(), 3, "{section}");
        assert!(lines[0].starts_with("  random") && lines[0].contains("    0 ± 40"));
        assert!(lines[0].ends_with("the page's \"Beginner\""), "{section}");
        assert!(
            lines[1].contains(" 1234 ± 35") && !lines[1].contains("page"),
            "{section}"
        );
        assert!(!lines[1].contains("apart"), "{section}");
        assert!(
            lines[2].ends_with(" 1300 ± 60   rated apart, against level 2"),
            "{section}"
        );
    }
}
