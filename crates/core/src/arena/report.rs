//! What a match comes to: A's tallies, the result of the games played (digest, sameness,
//! forfeits) and the report every front end shows, the exact table among it.
//!
//! `ai1` (the first empty square) against itself, three games each way: every game is
//! the same, and the first player wins it (its fourth disc completes a diagonal).
//!
//! ```
//! use gamelab_core::FileAccess;
//! use gamelab_core::arena::Tally;
//! use gamelab_core::match_request::MatchRequest;
//! use gamelab_ttt::{Position, ai};
//!
//! let registry = ai::registry();
//! let mut request = MatchRequest::new("ai1", "ai1");
//! request.setup.games_per_side = Some(3);
//! let prepared = request.prepare::<Position>(&registry, &FileAccess::Any)?;
//! let make = || registry.build("ai1").unwrap();
//! let (run, _) = prepared.run_here(&make, &make, &|_games| {}, false)?;
//! let report = run.report;
//! assert_eq!((report.game.as_str(), report.played), ("ttt", 6));
//! assert_eq!(report.first, Tally { win: 3, lose: 0, draw: 0 });
//! assert_eq!(report.second, Tally { win: 0, lose: 3, draw: 0 });
//! assert!(report.repeated_one_game);
//! assert_eq!(report.digest.unwrap().len(), 16);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::exact::{ExactError, ExactResult, Probabilities};
use crate::{EngineHooks, Outcome, Side};

/// Wins, losses and draws of A.
///
/// ```
/// use gamelab_core::arena::Tally;
/// use gamelab_core::{Outcome, Side};
///
/// let mut first = Tally::default(); // A moving first
/// first.record(Outcome::Win(Side::First), Side::First);
/// first.record(Outcome::Draw, Side::First);
/// let mut second = Tally::default(); // A moving second
/// second.record(Outcome::Win(Side::First), Side::Second);
/// let mut total = first;
/// total.add(&second);
/// assert_eq!(total, Tally { win: 1, lose: 1, draw: 1 });
/// assert_eq!(total.games(), 3);
/// assert_eq!(total.ratios(), [1.0 / 3.0; 3]);
/// assert_eq!(Tally::default().ratios(), [0.0; 3], "no games: zeros, not NaN");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    pub win: u64,
    pub lose: u64,
    pub draw: u64,
}

impl Tally {
    /// Counts a game that ended in `outcome`, A having played `a_side`.
    pub fn record(&mut self, outcome: Outcome, a_side: Side) {
        match outcome.winner() {
            Some(w) if w == a_side => self.win += 1,
            Some(_) => self.lose += 1,
            None => self.draw += 1,
        }
    }

    /// The games counted.
    pub fn games(&self) -> u64 {
        self.win + self.lose + self.draw
    }

    /// Counts `other`'s games too.
    pub fn add(&mut self, other: &Tally) {
        self.win += other.win;
        self.lose += other.lose;
        self.draw += other.draw;
    }

    /// (win, lose, draw) as fractions of the games; zeros when there are none.
    pub fn ratios(&self) -> [f64; 3] {
        let n = self.games().max(1) as f64;
        [
            self.win as f64 / n,
            self.lose as f64 / n,
            self.draw as f64 / n,
        ]
    }
}

/// Whether a set of games were all the same game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Sameness {
    /// No games.
    #[default]
    Empty,
    /// Every game had these moves (their hash).
    All(u64),
    /// At least two games differed.
    Varied,
}

impl Sameness {
    #[inline]
    pub(super) fn add(&mut self, hash: u64) {
        *self = self.merge(Sameness::All(hash));
    }

    fn merge(self, other: Sameness) -> Sameness {
        match (self, other) {
            (Sameness::Empty, x) | (x, Sameness::Empty) => x,
            (Sameness::All(a), Sameness::All(b)) if a == b => Sameness::All(a),
            _ => Sameness::Varied,
        }
    }
}

/// The result of a sampled match, or of some of its games (a chunk's, a shard's).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MatchResult {
    /// A's results when moving first.
    pub first: Tally,
    /// A's results when moving second.
    pub second: Tally,
    /// Hash of every game's moves and result, in game order.
    pub digest: u64,
    /// Per side of A: whether every game was the same (two deterministic AIs from one
    /// start play one game over and over; openings vary them).
    pub sameness: [Sameness; 2],
    /// Games forfeited by A and by B (counted as their losses).
    pub forfeits: [u64; 2],
    /// The first game forfeited (by game index).
    pub first_forfeit: Option<ForfeitNote>,
    /// The forfeit that stopped the match, when an agent was told to stop it at a failure.
    pub stopped_by: Option<ForfeitNote>,
}

impl Default for MatchResult {
    fn default() -> Self {
        MatchResult::new()
    }
}

impl MatchResult {
    /// No game played yet.
    pub fn new() -> MatchResult {
        MatchResult {
            first: Tally::default(),
            second: Tally::default(),
            digest: 0,
            sameness: [Sameness::Empty; 2],
            forfeits: [0; 2],
            first_forfeit: None,
            stopped_by: None,
        }
    }

    /// Adds a chunk's games; chunks come in game order (the first forfeit seen is the
    /// first).
    pub fn add(&mut self, chunk: &ChunkTotals) {
        self.first.add(&chunk.first);
        self.second.add(&chunk.second);
        self.digest = self.digest.wrapping_add(chunk.digest);
        for (s, c) in self.sameness.iter_mut().zip(chunk.sameness) {
            *s = s.merge(c);
        }
        for (n, c) in self.forfeits.iter_mut().zip(chunk.forfeits) {
            *n += c;
        }
        if self.first_forfeit.is_none() {
            self.first_forfeit = chunk.first_forfeit.clone();
        }
        if self.stopped_by.is_none() {
            self.stopped_by = chunk.stopped_by.clone();
        }
    }

    /// Every game with A first was one game, and every game with A second another, with
    /// at least two games each way.
    pub fn repeats_one_game(&self) -> bool {
        self.first.games() > 1
            && self.second.games() > 1
            && matches!(self.sameness, [Sameness::All(_), Sameness::All(_)])
    }

    /// A's results both ways round.
    pub fn total(&self) -> Tally {
        let mut t = self.first;
        t.add(&self.second);
        t
    }
}

/// A match digest as every front end prints it: 16 hex digits.
///
/// ```
/// assert_eq!(gamelab_core::arena::digest_hex(0xabc), "0000000000000abc");
/// ```
pub fn digest_hex(digest: u64) -> String {
    format!("{digest:016x}")
}

/// The exact table: A's result probabilities moving first, second, and over both.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExactTable {
    pub first: Probabilities,
    pub second: Probabilities,
    pub total: Probabilities,
}

impl From<ExactResult> for ExactTable {
    fn from(e: ExactResult) -> Self {
        ExactTable {
            first: e.first,
            second: e.second,
            total: e.total(),
        }
    }
}

/// A match as every front end reports it — `gamelab match --json`, the web app's runs, the
/// tests: the article's tables (sampled), the exact table where the game allows one, the
/// digest and the time taken.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MatchReport {
    pub game: String,
    pub a: String,
    pub b: String,
    /// Games with A first, and as many with A second (0 when only the exact table was
    /// asked for).
    pub games_per_side: u64,
    pub seed: u64,
    /// Games played so far.
    pub played: u64,
    /// A's results moving first, moving second, and both.
    pub first: Tally,
    pub second: Tally,
    pub total: Tally,
    /// The exact probabilities, for agents with fixed move distributions in games whose
    /// tree fits in memory.
    pub exact: Option<ExactTable>,
    /// Why there is no exact table, when one was tried.
    pub exact_note: Option<String>,
    /// The digest of every game's moves and result, once all games are played.
    pub digest: Option<String>,
    /// Plies of random opening before each game (0: every game from the start).
    pub opening_plies: u32,
    /// The file the openings came from, when they came from one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub openings_file: Option<String>,
    /// The random openings were kept only where this AI valued them within ±`balanced`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub balanced: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub judge: Option<String>,
    /// Each side's clock in every game (`60+0.5`), when the match had one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub clock: Option<String>,
    /// Every game each way round was the same game: both AIs are deterministic and there
    /// were no openings to vary them.
    pub repeated_one_game: bool,
    /// Games an agent forfeited (an external program that failed), when any did.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub forfeits: Option<Forfeits>,
    /// Wall-clock time (depends on the machine, unlike everything else here).
    pub elapsed_ms: u64,
}

impl MatchReport {
    /// A report with nothing played yet.
    pub fn new<G: EngineHooks>(a: &str, b: &str, games_per_side: u64, seed: u64) -> Self {
        MatchReport {
            game: G::NAME.to_string(),
            a: a.to_string(),
            b: b.to_string(),
            games_per_side,
            seed,
            played: 0,
            first: Tally::default(),
            second: Tally::default(),
            total: Tally::default(),
            exact: None,
            exact_note: None,
            digest: None,
            opening_plies: 0,
            openings_file: None,
            balanced: None,
            judge: None,
            clock: None,
            repeated_one_game: false,
            forfeits: None,
            elapsed_ms: 0,
        }
    }

    /// Adds games played (a chunk of a live match).
    pub fn add(&mut self, first: &Tally, second: &Tally) {
        self.first.add(first);
        self.second.add(second);
        self.total.add(first);
        self.total.add(second);
        self.played += first.games() + second.games();
    }

    /// Sets the final result; the digest only if every game was played.
    ///
    /// A live report: chunks added as they come, then the result, first of a match cut
    /// short, then of one played out.
    ///
    /// ```
    /// use gamelab_core::arena::{MatchReport, MatchResult, Tally};
    ///
    /// let mut report = MatchReport::new::<gamelab_ttt::Ttt>("ai5", "ai2", 2, 7);
    /// report.add(&Tally { win: 1, lose: 0, draw: 0 }, &Tally::default());
    /// assert_eq!((report.played, report.total.win), (1, 1));
    ///
    /// let mut result = MatchResult::new();
    /// result.first = Tally { win: 2, lose: 0, draw: 0 };
    /// result.second = Tally { win: 0, lose: 0, draw: 1 };
    /// result.digest = 0xabc;
    /// report.finish(&result, false);
    /// assert_eq!((report.played, report.digest.as_deref()), (3, None));
    /// report.finish(&result, true);
    /// assert_eq!(report.digest.as_deref(), Some("0000000000000abc"));
    /// assert_eq!(report.total, Tally { win: 2, lose: 0, draw: 1 });
    /// assert!(report.forfeits.is_none());
    /// ```
    pub fn finish(&mut self, result: &MatchResult, complete: bool) {
        self.first = result.first;
        self.second = result.second;
        self.total = result.total();
        self.played = self.total.games();
        self.digest = complete.then(|| digest_hex(result.digest));
        self.repeated_one_game = result.repeats_one_game();
        self.forfeits =
            (result.forfeits != [0, 0] || result.stopped_by.is_some()).then(|| Forfeits {
                a: result.forfeits[0],
                b: result.forfeits[1],
                first: result.first_forfeit.clone(),
                stopped_by: result.stopped_by.clone(),
            });
    }

    /// The exact table, or the note saying why there is none.
    pub fn set_exact(&mut self, exact: Result<ExactResult, ExactError>) {
        match exact {
            Ok(e) => self.exact = Some(e.into()),
            Err(e) => self.exact_note = Some(e.to_string()),
        }
    }
}

/// The forfeits of a match, as its report gives them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Forfeits {
    /// Games A forfeited (counted as its losses).
    pub a: u64,
    /// Games B forfeited.
    pub b: u64,
    /// The first forfeited game.
    pub first: Option<ForfeitNote>,
    /// The forfeit that stopped the match, when an agent was told to stop it.
    pub stopped_by: Option<ForfeitNote>,
}

/// A game an agent forfeited: which game, which agent (0 for A, 1 for B), and why.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ForfeitNote {
    pub game: u64,
    pub agent: usize,
    pub reason: String,
}

/// What a chunk adds to a match's result, without its games: what the shards of a match
/// played on a cluster send to the process that prints it. The same shape as a whole
/// match's result, which is the sum of its chunks'.
pub type ChunkTotals = MatchResult;
