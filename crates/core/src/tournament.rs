//! A round robin: every pair of AIs plays a match both ways round, and Elo ratings are
//! fitted to the whole crosstable. What `gamelab tournament` prints and the Python
//! package returns.
//!
//! ```
//! use gamelab_core::FileAccess;
//! use gamelab_core::match_request::TournamentRequest;
//! use gamelab_core::tournament::{TournamentError, check_entrants, pairs};
//! use gamelab_ttt::{Position, ai};
//!
//! let registry = ai::registry();
//! let entrants: Vec<String> = ["ai2", "ai14s", "ai5"].map(String::from).to_vec();
//! let mut request = TournamentRequest::new(entrants.clone());
//! request.setup.games_per_side = Some(20);
//! let prepared = request.prepare::<Position>(&registry, &FileAccess::Any)?;
//! let make = |i: usize| registry.build(&entrants[i]).unwrap();
//! let report = prepared.run(&make, None, &|_pair, _chunk| {})?;
//!
//! assert_eq!(pairs(3), [(0, 1), (0, 2), (1, 2)]);
//! assert_eq!(report.games_played(), 3 * 2 * 20);
//! assert_eq!(report.players[0].ai, "ai14s", "the best-rated first");
//! let (a, b) = (report.score(0, 2).unwrap(), report.score(2, 0).unwrap());
//! assert!((a + b - 1.0).abs() < 1e-12, "a pair's scores share the points");
//!
//! assert_eq!(check_entrants(&entrants[..1]), Err(TournamentError::TooFew));
//! let twice = ["ai5", "ai2", "ai5"].map(String::from);
//! assert_eq!(check_entrants(&twice), Err(TournamentError::Twice("ai5".into())));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use thiserror::Error;

use crate::arena::{
    AgentFactory, ChunkResult, LiveOptions, MatchConfig, MatchResult, Tally, run_matches_from,
};
use crate::elo::{Crosstable, fit};
use crate::{Agent, EngineHooks, StopFlag};

/// Why a tournament cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TournamentError {
    #[error("a tournament needs at least two AIs")]
    TooFew,
    #[error(
        "`{0}` is entered twice; each AI may enter once (give a second copy different parameters to compare it)"
    )]
    Twice(String),
    #[error(
        "the tournament stopped: {ai} gave up game {game} of its match against {opponent}: {reason}"
    )]
    Stopped {
        ai: String,
        opponent: String,
        game: u64,
        reason: String,
    },
}

/// One AI's results against one opponent, over both colours.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PairResult {
    pub opponent: String,
    pub win: u64,
    pub lose: u64,
    pub draw: u64,
    /// Of the losses, the games this AI forfeited (an external program that failed).
    #[serde(skip_serializing_if = "is_zero", default)]
    pub forfeited: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl PairResult {
    /// The share of the points scored (a draw is half a point).
    pub fn score(&self) -> f64 {
        let games = (self.win + self.lose + self.draw).max(1) as f64;
        (self.win as f64 + self.draw as f64 / 2.0) / games
    }
}

/// One AI's place in the table.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Standing {
    pub ai: String,
    /// Centred on 0 over the field.
    pub elo: f64,
    /// Half-width of the 95 % interval.
    pub interval95: f64,
    /// Against each other AI, in the order they were entered.
    pub results: Vec<PairResult>,
}

/// A finished tournament, best-rated first: `gamelab tournament --json`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TournamentReport {
    pub game: String,
    /// Games per pair with each AI moving first.
    pub games_per_side: u64,
    pub seed: u64,
    pub opening_plies: u32,
    pub openings_file: Option<String>,
    pub balanced: Option<f64>,
    pub judge: Option<String>,
    /// Each side's clock in every game (`60+0.5`), when the games had one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub clock: Option<String>,
    /// Stopped before its end (Ctrl-C, *Stop*): the standings are over the games played
    /// by then — every pair before the one under way, and that one's games before its
    /// first unfinished one.
    #[serde(skip_serializing_if = "is_false", default)]
    pub interrupted: bool,
    pub players: Vec<Standing>,
}

fn is_false(b: &bool) -> bool {
    !b
}

impl TournamentReport {
    /// The games the standings are over (every pair's, both ways).
    pub fn games_played(&self) -> u64 {
        let each_twice: u64 = self
            .players
            .iter()
            .flat_map(|p| &p.results)
            .map(|r| r.win + r.lose + r.draw)
            .sum();
        each_twice / 2
    }

    /// What the AI in place `row` scored against the one in place `column` (0 to 1).
    pub fn score(&self, row: usize, column: usize) -> Option<f64> {
        let opponent = &self.players[column].ai;
        self.players[row]
            .results
            .iter()
            .find(|r| &r.opponent == opponent)
            .map(PairResult::score)
    }
}

/// Checks the entrants: at least two, none twice.
pub fn check_entrants(ais: &[String]) -> Result<(), TournamentError> {
    if ais.len() < 2 {
        return Err(TournamentError::TooFew);
    }
    match (1..ais.len()).find(|&i| ais[..i].contains(&ais[i])) {
        Some(i) => Err(TournamentError::Twice(ais[i].clone())),
        None => Ok(()),
    }
}

/// Plays every pair of `ais` (built by `make(index)`) under `cfg` from `openings` (none:
/// every game from the start, or `cfg.opening_plies` random plies), pair by pair in entry
/// order. `progress` hears the games of each chunk as they finish. When `stop` cuts it
/// short, the report is over the games played by then, marked `interrupted`. The
/// openings fields of the report are the caller's to fill in.
pub fn run_tournament<G: EngineHooks, A: Agent<G>>(
    ais: &[String],
    make: &(dyn Fn(usize) -> A + Sync),
    cfg: &MatchConfig,
    openings: &[Vec<G::Move>],
    stop: Option<&StopFlag>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<TournamentReport, TournamentError> {
    let on_chunk =
        |_: usize, chunk: &ChunkResult<G::Move>| progress(chunk.range.end - chunk.range.start);
    run_tournament_live::<G, A>(ais, make, cfg, openings, stop, &on_chunk)
}

/// What hears each chunk of a tournament's games, with its pair's place in [`pairs`].
pub type ChunkListener<'a, M> = dyn Fn(usize, &ChunkResult<M>) + Sync + 'a;

/// [`run_tournament`], telling `on_chunk` of each chunk of games as it finishes and which
/// pair (by its place in [`pairs`]) played it, for a table that fills up while it plays.
pub fn run_tournament_live<G: EngineHooks, A: Agent<G>>(
    ais: &[String],
    make: &(dyn Fn(usize) -> A + Sync),
    cfg: &MatchConfig,
    openings: &[Vec<G::Move>],
    stop: Option<&StopFlag>,
    on_chunk: &ChunkListener<G::Move>,
) -> Result<TournamentReport, TournamentError> {
    check_entrants(ais)?;
    // Random openings are made once for all the pairs.
    let random;
    let openings = if openings.is_empty() && cfg.opening_plies > 0 {
        random = crate::arena::openings::<G>(cfg.games_per_side, cfg.opening_plies, cfg.seed)
            .expect("openings are checked before the tournament");
        &random[..]
    } else {
        openings
    };
    let mut live = LiveOptions::for_match(cfg, false);
    live.stop = stop;
    // A stopped tournament's pairings have played both colours alike.
    live.in_pairs = true;
    let sides: Vec<[Box<dyn Fn() -> A + Sync + '_>; 2]> = pairs(ais.len())
        .into_iter()
        .map(|(i, j)| -> [Box<dyn Fn() -> A + Sync + '_>; 2] {
            [Box::new(move || make(i)), Box::new(move || make(j))]
        })
        .collect();
    let matches: Vec<(&AgentFactory<A>, &AgentFactory<A>)> =
        sides.iter().map(|[a, b]| (&**a, &**b)).collect();
    // The pairs' games as one stream, so that no thread waits at the end of each pair.
    let played = run_matches_from::<G, A>(&matches, cfg, openings, &live, on_chunk, &mut |_| true);
    let interrupted = played
        .iter()
        .any(|(result, stopped)| *stopped && result.stopped_by.is_none());
    let results: Vec<MatchResult> = played.into_iter().map(|(result, _)| result).collect();
    let mut report = tabulate::<G>(ais, cfg, &results)?;
    report.interrupted = interrupted;
    Ok(report)
}

/// Every pair of `n` entrants, in the order they play: (0, 1), (0, 2), …, (1, 2), ….
pub fn pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

/// The report of a round robin from each pair's match, in [`pairs`] order (`results[k]`
/// the match of the k-th pair, its first AI as A): crosstable, Elo fitted to it, best first.
/// A match that an entrant's forfeit stopped stops the tournament.
pub fn tabulate<G: EngineHooks>(
    ais: &[String],
    cfg: &MatchConfig,
    results: &[MatchResult],
) -> Result<TournamentReport, TournamentError> {
    let n = ais.len();
    // wins[i][j] and draws[i][j]: i's results against j over both colours.
    let mut wins = vec![vec![0u64; n]; n];
    let mut draws = vec![vec![0u64; n]; n];
    let mut forfeited = vec![vec![0u64; n]; n];
    for (&(i, j), result) in pairs(n).iter().zip(results) {
        if let Some(note) = &result.stopped_by {
            let (ai, opponent) = if note.agent == 0 { (i, j) } else { (j, i) };
            return Err(TournamentError::Stopped {
                ai: ais[ai].clone(),
                opponent: ais[opponent].clone(),
                game: note.game,
                reason: note.reason.clone(),
            });
        }
        let total = result.total();
        wins[i][j] = total.win;
        wins[j][i] = total.lose;
        draws[i][j] = total.draw;
        draws[j][i] = total.draw;
        forfeited[i][j] = result.forfeits[0];
        forfeited[j][i] = result.forfeits[1];
    }
    Ok(TournamentReport {
        game: G::NAME.to_string(),
        games_per_side: cfg.games_per_side,
        seed: cfg.seed,
        opening_plies: cfg.opening_plies,
        openings_file: None,
        balanced: None,
        judge: None,
        clock: cfg.clock.written(),
        interrupted: false,
        players: standings(ais, &wins, &draws, &forfeited),
    })
}

/// The standings while a tournament plays: `tallies[k]` is what the first AI of the
/// k-th pair of [`pairs`] has scored against the second so far (pairs not begun: none),
/// the ratings fitted to the games played. Best-rated first.
pub fn live_standings(ais: &[String], tallies: &[Tally]) -> Vec<Standing> {
    let n = ais.len();
    let mut wins = vec![vec![0u64; n]; n];
    let mut draws = vec![vec![0u64; n]; n];
    for (&(i, j), t) in pairs(n).iter().zip(tallies) {
        wins[i][j] = t.win;
        wins[j][i] = t.lose;
        draws[i][j] = t.draw;
        draws[j][i] = t.draw;
    }
    standings(ais, &wins, &draws, &vec![vec![0; n]; n])
}

/// Ratings fitted to what each AI scored against each other (`wins[i][j]`, `draws[i][j]`:
/// i's against j), and the table, best-rated first.
fn standings(
    ais: &[String],
    wins: &[Vec<u64>],
    draws: &[Vec<u64>],
    forfeited: &[Vec<u64>],
) -> Vec<Standing> {
    let n = ais.len();
    let table = Crosstable {
        points: (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| wins[i][j] as f64 + draws[i][j] as f64 / 2.0)
                    .collect()
            })
            .collect(),
        games: (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| (wins[i][j] + wins[j][i] + draws[i][j]) as f64)
                    .collect()
            })
            .collect(),
    };
    let ratings = fit(&table);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| ratings[y].elo.total_cmp(&ratings[x].elo));
    order
        .iter()
        .map(|&i| Standing {
            ai: ais[i].clone(),
            elo: ratings[i].elo,
            interval95: ratings[i].interval95,
            results: (0..n)
                .filter(|&j| j != i)
                .map(|j| PairResult {
                    opponent: ais[j].clone(),
                    win: wins[i][j],
                    lose: wins[j][i],
                    draw: draws[i][j],
                    forfeited: forfeited[i][j],
                })
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_standings_fit_the_games_played_so_far() {
        let ais: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        // a beat b 8–2; a against c and b against c not begun.
        let tally = |win, lose, draw| Tally { win, lose, draw };
        let live = live_standings(&ais, &[tally(8, 2, 0), tally(0, 0, 0), tally(0, 0, 0)]);
        assert_eq!(live[0].ai, "a");
        assert_eq!(live[0].results[0].win, 8);
        assert!(
            live.iter()
                .all(|s| s.elo.is_finite() && s.interval95.is_finite())
        );
        // c has played nobody: its rating stays between a's and b's, its interval widest.
        let c = live.iter().find(|s| s.ai == "c").unwrap();
        let b = live.iter().find(|s| s.ai == "b").unwrap();
        assert!(c.elo < live[0].elo && c.elo > b.elo, "{live:?}");
        assert!(live.iter().all(|s| s.interval95 <= c.interval95));
    }

    #[test]
    fn entrants_are_checked() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(check_entrants(&names(&["a"])), Err(TournamentError::TooFew));
        assert_eq!(
            check_entrants(&names(&["a", "b", "a"])),
            Err(TournamentError::Twice("a".into()))
        );
        assert_eq!(check_entrants(&names(&["a", "b"])), Ok(()));
    }
}
