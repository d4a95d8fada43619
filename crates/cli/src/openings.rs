//! Where a match's games start: random openings of a few plies, or a file of them.

use std::path::PathBuf;

use anyhow::Context;
use gamelab_core::match_request::{Judge, Openings};

/// How a match or tournament picks its openings, as the command line gave it.
#[derive(clap::Args, Debug, Clone)]
pub struct OpeningArgs {
    /// Start each game from one of N distinct openings of this many random plies (N the
    /// games per side), each played once with each AI first; 0: every game from the start.
    #[arg(long, default_value_t = 0, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(0..=30), conflicts_with = "openings_file")]
    pub openings: u32,
    /// Start the games from the openings in this file: one a line, moves in the game's
    /// notation separated by spaces (`#` comments). Each is played once with each AI first;
    /// `-n` defaults to their number.
    #[arg(long, value_name = "FILE")]
    pub openings_file: Option<PathBuf>,
    /// With --openings: keep only the openings that --judge values within ±WINDOW for the
    /// side to move, in the judge's units (discs for Othello's engine).
    #[arg(long, value_name = "WINDOW", requires = "judge", value_parser = crate::limits::window)]
    pub balanced: Option<f64>,
    /// The AI that judges openings for --balanced, e.g. `engine:level=4` (a depth-limited
    /// one keeps the openings the same on every machine).
    #[arg(long, value_name = "SPEC", requires = "balanced")]
    pub judge: Option<String>,
}

/// An openings file this large is not one.
const MAX_FILE_BYTES: u64 = 64 << 20;

impl OpeningArgs {
    /// The openings as a match request takes them (a file read here, bounded).
    pub fn request(&self) -> anyhow::Result<Openings> {
        if let Some(path) = &self.openings_file {
            let bytes = gamelab_core::files::read_regular(path, MAX_FILE_BYTES)
                .with_context(|| format!("cannot read the openings from {}", path.display()))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| anyhow::anyhow!("{}: not UTF-8 text", path.display()))?;
            return Ok(Openings::File {
                text,
                name: path.display().to_string(),
            });
        }
        let judge = match (self.balanced, &self.judge) {
            (Some(window), Some(spec)) => Some(Judge {
                spec: spec.clone(),
                window,
            }),
            _ => None,
        };
        Ok(Openings::Random {
            plies: self.openings,
            judge,
        })
    }
}
