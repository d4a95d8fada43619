//! `gamelab ais`: every AI with a one-line description and its parameters.

use std::fmt::Write;

use clap::Args;
use gamelab_core::{Described, GameVisitor, Registry};

#[derive(Args, Debug)]
pub struct AisArgs {
    #[command(flatten)]
    game: crate::game_args::GameArgs,
}

pub fn run(args: AisArgs) -> anyhow::Result<()> {
    struct List;
    impl GameVisitor for List {
        type Output = String;
        fn visit<G: Described>(self) -> String {
            listing(&G::registry())
        }
    }
    print!("{}", args.game.visit(List)?);
    Ok(())
}

/// The registry as text: one line per AI, then one per parameter with its default.
pub fn listing<G: Described>(registry: &Registry<G>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "AIs for {} (use as NAME or NAME:key=value,...):",
        G::NAME
    );
    let width = registry
        .entries()
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(0);
    for entry in registry.entries() {
        let _ = write!(out, "  {:width$}  {}", entry.name, entry.summary);
        if !entry.aliases.is_empty() {
            let _ = write!(out, " (also: {})", entry.aliases.join(", "));
        }
        out.push('\n');
        for p in &entry.params {
            let default = p
                .default
                .as_ref()
                .map_or("(required)".to_string(), |d| d.to_string());
            let setting = format!("{}={default}", p.name);
            let _ = writeln!(out, "  {:width$}    {setting:24} {}", "", p.help);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use gamelab_ttt::Ttt;

    use super::*;

    #[test]
    fn lists_every_ai_with_defaults() {
        let text = listing(&Ttt::registry());
        for name in [
            "ai1", "ai1s", "ai2", "ai2s", "ai3", "ai3s", "ai4", "ai4s", "ai5", "ai5s", "ai6",
            "ai6s", "ai7", "ai7s", "ai8s", "ai9s", "ai10s", "ai11s", "ai12s", "ai13s", "ai14s",
        ] {
            assert!(
                text.lines()
                    .any(|l| l.trim_start().starts_with(&format!("{name} "))),
                "{name} missing:\n{text}"
            );
        }
        assert!(text.contains("score_victory=300"), "{text}");
        assert!(text.contains("score_102=0.5"), "{text}");
        assert!(text.contains("ver=2"), "{text}");
    }
}
