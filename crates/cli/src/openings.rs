//! Where a match's games start: random openings of a few plies, or a file of them.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use gamelab_core::{Described, Notation, Registry, arena};

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
    /// The openings the games start from, one per game of a side (`games`); none when
    /// every game starts from the start. From the file (checked move by move), or random
    /// from the seed (and balanced by the judge when asked).
    pub fn make<G: Described>(
        &self,
        games: Option<u64>,
        seed: u64,
        registry: &Registry<G>,
    ) -> anyhow::Result<(u64, Vec<Vec<G::Move>>)> {
        if let Some(path) = &self.openings_file {
            let openings = read::<G>(path)?;
            return Ok((games.unwrap_or(openings.len() as u64), openings));
        }
        let games = games.unwrap_or(DEFAULT_GAMES);
        if self.openings == 0 {
            if self.balanced.is_some() {
                bail!("--balanced keeps some of the random openings of --openings PLIES; give it");
            }
            return Ok((games, Vec::new()));
        }
        let openings = match (self.balanced, &self.judge) {
            (Some(window), Some(spec)) => {
                let mut judge = registry.build(spec)?;
                match arena::balanced_openings::<G>(games, self.openings, seed, window, &mut *judge)
                {
                    Err(arena::BalancedError::NoValue) => bail!(
                        "{spec} gives no value for a position; --judge needs an AI that scores moves (e.g. Othello's engine)"
                    ),
                    other => other?,
                }
            }
            _ => arena::openings::<G>(games, self.openings, seed)?,
        };
        Ok((games, openings))
    }

    /// How the output names the openings, `count` of them read from a file and `games`
    /// a side played (the first `games` of them when fewer): "" when every game starts
    /// from the start.
    pub fn describe(&self, count: usize, games: u64) -> String {
        match (&self.openings_file, self.balanced) {
            (Some(path), _) if games < count as u64 => format!(
                ", the first {games} of {count} openings from {}",
                path.display()
            ),
            (Some(path), _) => format!(", {count} openings from {}", path.display()),
            (None, Some(window)) if self.openings > 0 => format!(
                ", openings of {} plies within ±{window} by {}",
                self.openings,
                self.judge.as_deref().unwrap_or("")
            ),
            (None, None) if self.openings > 0 => {
                format!(", openings of {} plies", self.openings)
            }
            _ => String::new(),
        }
    }
}

/// Games per side when neither `-n` nor a file says.
const DEFAULT_GAMES: u64 = 10_000;

fn read<G: Notation>(path: &Path) -> anyhow::Result<Vec<Vec<G::Move>>> {
    let bytes = gamelab_core::files::read_regular(path, MAX_FILE_BYTES)
        .with_context(|| format!("cannot read the openings from {}", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("{}: not UTF-8 text", path.display()))?;
    Ok(arena::read_openings::<G>(
        &text,
        &path.display().to_string(),
    )?)
}
