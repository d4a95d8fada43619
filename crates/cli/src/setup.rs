//! How a run of games is set up — its seed, threads, openings and clock — the same for
//! `match`, `tournament` and `records`, so that their options and help cannot drift apart.

use gamelab_core::clock::TimeControl;
use gamelab_core::match_request::MatchSetup;

use crate::openings::OpeningArgs;

#[derive(clap::Args, Debug)]
pub struct SetupArgs {
    /// Seed of the random streams: the same seed gives the same games.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads, 1 to 256 (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = crate::limits::threads)]
    threads: Option<usize>,
    #[command(flatten)]
    openings: OpeningArgs,
    /// Each side's clock for every game: MAIN seconds, MAIN+INCREMENT (Fischer) or
    /// MAIN/PERIOD/STONES (Canadian byo-yomi, as GTP has it). Each move gets a share of
    /// the time left (AIs with a time limit keep to it); a side whose time runs out loses
    /// the game. The games then depend on the machine and its load.
    #[arg(long, value_name = "CLOCK")]
    pub clock: Option<TimeControl>,
}

impl SetupArgs {
    /// Whether the openings come from a file (whose number of openings is then the
    /// default number of games per side).
    pub fn openings_from_file(&self) -> bool {
        self.openings.openings_file.is_some()
    }

    /// The setup of a match, or of each pair of a tournament, with `games_per_side` games
    /// each way round (`None`: the default), as the command line says (an openings file
    /// read here, bounded).
    pub fn match_setup(&self, games_per_side: Option<u64>) -> anyhow::Result<MatchSetup> {
        Ok(MatchSetup {
            games_per_side,
            seed: self.seed,
            threads: self.threads.unwrap_or(0),
            openings: self.openings.request()?,
            clock: self.clock.unwrap_or_default(),
        })
    }
}
