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
