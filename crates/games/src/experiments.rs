//! Experiments on a game chosen at run time: matches, tournaments, the divergence search
//! and proofs, run by core's generic code with gamelab's AIs (by spec) and players a front
//! end supplies ([`TextPlayer`], a Python function) side by side. A front end parses its
//! input into these calls and shows what they return; the reports are core's.
//!
//! ```
//! use std::sync::Arc;
//!
//! use gamelab_core::GameRng;
//! use gamelab_core::match_request::MatchRequest;
//! use gamelab_games::dyn_game::AnyGame;
//! use gamelab_games::experiments::{self, Entrant, Failed, Live, TextPlayer};
//!
//! /// Plays the first legal move, as a front end's player would answer: in text.
//! struct First;
//! impl TextPlayer for First {
//!     fn choose(&mut self, position: &dyn AnyGame, _: &mut GameRng) -> Result<String, Failed> {
//!         Ok(position.legal_moves()[0].clone())
//!     }
//!     fn failed(&self) -> bool {
//!         false
//!     }
//!     fn reject(&mut self, _: &dyn AnyGame, _: u64, reason: String) {
//!         panic!("{reason}")
//!     }
//! }
//!
//! let mut request = MatchRequest::new("", "");
//! request.setup.games_per_side = Some(50);
//! let ai14s = Entrant::Spec("ai14s".into());
//! let first = Entrant::Custom { name: "first".into(), make: Arc::new(|| Box::new(First)) };
//! let played = experiments::play_match("ttt", None, request, [&ai14s, &first], &Live::default()).unwrap();
//! let report = played.run.report;
//! assert_eq!((report.a.as_str(), report.b.as_str(), report.played), ("ai14s", "first", 100));
//! assert_eq!(report.total.lose, 0, "ai14s never loses");
//! ```

use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use gamelab_core::arena::{
    self, ChunkResult, ChunkTotals, ExactError, LiveOptions, MatchReport, MatchResult, PlayedGame,
    Tally,
};
use gamelab_core::diverge::first_divergence;
use gamelab_core::match_request::{
    Executor, LocalThreads, MatchError, MatchRequest, MatchRun, Played, PreparedMatch,
    PreparedTournament, TournamentRequest,
};
use gamelab_core::proof::never_loses;
use gamelab_core::record::{GameRecord, RecordFormat, ReplayError};
use gamelab_core::tournament::{TournamentReport, tabulate};
use gamelab_core::{
    Agent, Described, FileAccess, GameRng, GameVisitor, Policy, PreparedSpec, Registry, Side,
    SpecError, StopFlag,
};
use serde::{Deserialize, Serialize};

use crate::CatalogueError;
use crate::dyn_game::{AnyGame, DynGame};
use crate::views::{PlayedGameView, played_game_view};

/// A player a front end supplies: it sees positions game-erased and answers with moves as
/// the game writes them. Each game it plays gets a fresh one ([`Entrant::Custom`]'s
/// `make`), one game at a time.
pub trait TextPlayer: Send {
    /// The move to play at `position` (never over), in the game's notation. `rng` is the
    /// game's stream for this side, for a player that draws at random.
    fn choose(&mut self, position: &dyn AnyGame, rng: &mut GameRng) -> Result<String, Failed>;
    /// Its probability of each move, when it has a distribution (an exact match needs
    /// one); `Ok(None)` when it has none.
    fn policy(&mut self, _position: &dyn AnyGame) -> Result<Option<Vec<(String, f64)>>, Failed> {
        Ok(None)
    }
    /// Whether it failed before in this experiment: it is then not asked again, and any
    /// legal move ends each game while the experiment stops.
    fn failed(&self) -> bool;
    /// Its answer at `position` of game `game` cannot be used, for `reason` (a sentence
    /// about the player, "it returned `z9`, which …"). The player keeps it as its failure
    /// and stops the experiment.
    fn reject(&mut self, position: &dyn AnyGame, game: u64, reason: String);
}

/// A [`TextPlayer`] failed and kept why (to report when the experiment returns); the
/// experiment is stopping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failed;

/// Makes a front end's player afresh for each agent an experiment needs.
pub type MakePlayer = Arc<dyn Fn() -> Box<dyn TextPlayer> + Send + Sync>;

/// A player of an experiment.
#[derive(Clone)]
pub enum Entrant {
    /// One of gamelab's AIs, by spec (`ai2`, `engine:level=8`).
    Spec(String),
    /// A front end's player under `name`.
    Custom { name: String, make: MakePlayer },
}

impl Entrant {
    /// The name the reports give it: the spec, or the custom player's name.
    pub fn name(&self) -> &str {
        match self {
            Entrant::Spec(spec) => spec,
            Entrant::Custom { name, .. } => name,
        }
    }

    fn is_custom(&self) -> bool {
        matches!(self, Entrant::Custom { .. })
    }

    /// Checks the spec of player `player` against `registry`, reading only the files
    /// `files` allows, once: what it read builds every agent of this player from then
    /// on (a custom player needs no check).
    fn check<G: Described>(
        &self,
        player: usize,
        registry: &Registry<G>,
        files: &FileAccess,
    ) -> Result<Checked, ExperimentError> {
        match self {
            Entrant::Spec(spec) => registry
                .prepare_checked(spec, files)
                .map(Checked::Spec)
                .map_err(|source| ExperimentError::Spec { player, source }),
            Entrant::Custom { make, .. } => Ok(Checked::Custom(make.clone())),
        }
    }
}

/// An [`Entrant`] checked: its spec with the files it names read, or its custom player.
#[derive(Clone)]
enum Checked {
    Spec(PreparedSpec),
    Custom(MakePlayer),
}

impl Checked {
    /// Whether it stops by the clock (a spec with a `time` above 0): its moves, and the
    /// results, then depend on the machine. A custom player is not known to.
    fn is_timed<G: Described>(&self, registry: &Registry<G>) -> bool {
        match self {
            Checked::Spec(prepared) => registry.is_timed(prepared),
            Checked::Custom(_) => false,
        }
    }

    /// A fresh agent, built from the parameters and the file contents an agent was
    /// already built from when checked: it builds again, whatever became of the files.
    fn build<G: Described>(
        &self,
        registry: &Registry<G>,
        board: &'static str,
    ) -> Box<dyn Agent<G>> {
        match self {
            Checked::Spec(prepared) => registry
                .build_prepared(prepared)
                .expect("built once from the same parameters and bytes when checked"),
            Checked::Custom(make) => Box::new(CustomAgent::<G> {
                player: make(),
                board,
                game: std::marker::PhantomData,
            }),
        }
    }
}

/// What an experiment may be told while it runs.
pub struct Live<'a> {
    /// Raised, it ends after the games under way (a match's report is then over the
    /// games played; a tournament fails with [`gamelab_core::tournament::TournamentError::Stopped`]).
    pub stop: Option<&'a StopFlag>,
    /// Called with the number of games (or seeds) done since it was last called.
    pub progress: &'a (dyn Fn(u64) + Sync),
    /// Keep every game's record ([`PlayedMatch::records`]).
    pub keep_records: bool,
}

impl Default for Live<'_> {
    fn default() -> Self {
        Live {
            stop: None,
            progress: &|_| {},
            keep_records: false,
        }
    }
}

/// Why an experiment could not run.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    #[error(transparent)]
    Catalogue(#[from] CatalogueError),
    /// Player `player` (from 0, in the order given) has a bad spec.
    #[error("{source}")]
    Spec {
        player: usize,
        #[source]
        source: SpecError,
    },
    #[error(transparent)]
    Match(#[from] MatchError),
    #[error(transparent)]
    Exact(#[from] ExactError),
    #[error("`{given}` is not a side: expected {first} or {second}")]
    Side {
        given: String,
        first: &'static str,
        second: &'static str,
    },
}

fn visit<V: GameVisitor<Output = Result<R, ExperimentError>>, R>(
    game: &str,
    board: Option<&str>,
    make: impl FnOnce(&'static str) -> V,
) -> Result<R, ExperimentError> {
    let board = crate::board(game, board)?;
    crate::visit(game, Some(board), make(board))?
}

/// A match played ([`play_match`]).
pub struct PlayedMatch {
    pub run: MatchRun,
    /// Every game's record, in the order of the games, when [`Live::keep_records`] asked
    /// for them (an exact match plays none).
    pub records: Vec<GameRecord>,
}

/// Plays (or, with `request.exact`, computes) the match `request` of game `game` on board
/// structure `board` (its default when `None`) between `players`, whose names replace
/// the request's. Custom players play one game at a time (the results do not depend on
/// it).
pub fn play_match(
    game: &str,
    board: Option<&str>,
    request: MatchRequest,
    players: [&Entrant; 2],
    live: &Live<'_>,
) -> Result<PlayedMatch, ExperimentError> {
    let exact = request.exact;
    let prepared = prepare_match(game, board, request, players, &FileAccess::Any)?;
    if exact {
        return Ok(PlayedMatch {
            run: prepared.exact()?,
            records: Vec::new(),
        });
    }
    let records = Mutex::new(Vec::new());
    let on_chunk = |chunk: Chunk| {
        (live.progress)(chunk.first.games() + chunk.second.games());
        let mut kept = records.lock().unwrap_or_else(|e| e.into_inner());
        kept.extend(chunk.records);
    };
    let run = prepared.play(
        prepared.report(),
        &MatchLive {
            stop: live.stop,
            keep_records: live.keep_records,
            keep_views: false,
            watched: false,
            on_chunk: &on_chunk,
        },
    )?;
    let mut records = records.into_inner().unwrap_or_else(|e| e.into_inner());
    records.sort_by_key(|r| r.index);
    Ok(PlayedMatch { run, records })
}

/// A match checked and ready to play, its game erased ([`prepare_match`]).
pub trait AnyMatch: Send + Sync {
    /// The game's side names, the first to move first.
    fn sides(&self) -> [&'static str; 2];
    /// The report before any game: who, how many, which seed, openings and clock.
    fn report(&self) -> MatchReport;
    /// [`AnyMatch::report`] with the exact table beside the games to come, where it
    /// applies (from the start, without a clock), or the note saying why there is none.
    fn report_with_exact(&self) -> MatchReport;
    /// The exact match: every game's probability from the players' distributions.
    fn exact(&self) -> Result<MatchRun, MatchError>;
    /// Plays the games on this process's threads, each finished chunk handed to
    /// `live.on_chunk` (from the worker threads), and returns `report` (say, the one a
    /// live view showed) completed with them. An agent that gave up a game stops the
    /// match with [`MatchError::GaveUp`].
    fn play(&self, report: MatchReport, live: &MatchLive<'_>) -> Result<MatchRun, MatchError>;
    /// Plays the games on this process's threads as [`AnyMatch::play`] does, and hands
    /// `on_record` each game's record line in `format` (or why it could not be written),
    /// in the order of the games as they finish (a window of games at a time, so memory
    /// stays bounded however many games); `on_record` returning false stops the match
    /// after the games under way, as `stop` does. `progress` hears the games of each
    /// finished chunk. Without a format, `on_record` hears nothing.
    fn play_recorded(
        &self,
        stop: Option<&StopFlag>,
        progress: &(dyn Fn(u64) + Sync),
        format: Option<RecordFormat>,
        on_record: &mut dyn FnMut(Result<String, ReplayError>) -> bool,
    ) -> Result<MatchRun, MatchError>;
    /// Plays the games `range` (indices from 0 to twice the games a side) on this thread:
    /// a share of the match played elsewhere, say by a cluster's process. The same games,
    /// whoever plays them.
    fn play_range(&self, range: Range<u64>, format: Option<RecordFormat>) -> GamesPlayed;
    /// The run, from the games' results gathered elsewhere ([`AnyMatch::play_range`]),
    /// timed from `started`.
    fn finish(&self, played: &Played, started: Instant) -> Result<MatchRun, MatchError>;
    /// Games with A first, and as many with A second.
    fn games_per_side(&self) -> u64;
    /// How a front end names the openings ("" when every game starts from the start).
    fn openings_described(&self) -> String;
    /// Whether each player stops by the clock (its `time` above 0): its moves, and the
    /// results, then depend on the machine.
    fn timed(&self) -> [bool; 2];
    /// The format of records written to `path`: the article's CSV for `.csv`, the game's
    /// own for its extension, JSON Lines otherwise.
    fn record_format(&self, path: &Path) -> RecordFormat;
    /// A game's record in `format`, as `gamelab match --records` writes it.
    fn write_record(
        &self,
        record: &GameRecord,
        format: RecordFormat,
    ) -> Result<String, ReplayError>;
    /// The extension of the game's own record format (Othello's `ggf`), if it has one.
    fn native_extension(&self) -> Option<&'static str>;
}

/// A share of a match's games ([`AnyMatch::play_range`]), as it travels between processes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GamesPlayed {
    pub totals: ChunkTotals,
    /// Each game's record line, in the order of the games, when a format was asked for
    /// (or why one could not be written: the [`ReplayError`]'s message, which is what
    /// crosses between processes).
    pub lines: Result<Vec<String>, String>,
}

/// How a match is played ([`AnyMatch::play`]).
pub struct MatchLive<'a> {
    /// Raised, the games under way are the last; the report is over the games played.
    pub stop: Option<&'a StopFlag>,
    /// Hand every game's record to `on_chunk` ([`Chunk::records`]).
    pub keep_records: bool,
    /// Hand every game as a page lists it to `on_chunk` ([`Chunk::views`]).
    pub keep_views: bool,
    /// Watched as it goes (a page): chunks of about 50 ms from the first game, and the
    /// games in pairs, A first then A second, so that a match stopped part way has played
    /// both colours alike. Otherwise chunks sized for the threads, of at most about 0.1 s.
    /// Played to the end, the match is the same either way.
    pub watched: bool,
    pub on_chunk: &'a (dyn Fn(Chunk) + Sync),
}

/// Games finished together ([`MatchLive::on_chunk`]).
pub struct Chunk {
    /// A's results with A first, and with A second.
    pub first: Tally,
    pub second: Tally,
    /// Each game's record, when [`MatchLive::keep_records`] asked for them.
    pub records: Vec<GameRecord>,
    /// Each game as a page lists it, when [`MatchLive::keep_views`] asked for them.
    pub views: Vec<PlayedGameView>,
}

/// Checks `request` of game `game` on board `board` between `players` (whose names
/// replace the request's), reading only the files `files` allows (a server's own), and
/// prepares its games (openings drawn or read, balanced by a judge).
pub fn prepare_match(
    game: &str,
    board: Option<&str>,
    mut request: MatchRequest,
    players: [&Entrant; 2],
    files: &FileAccess,
) -> Result<Box<dyn AnyMatch>, ExperimentError> {
    request.names = players.map(|p| p.name().to_string());
    if players.iter().any(|p| p.is_custom()) {
        request.setup.threads = 1;
    }
    visit(game, board, |board| PrepareMatch {
        request,
        players: players.map(Entrant::clone),
        board,
        files: files.clone(),
    })
}

struct PrepareMatch {
    request: MatchRequest,
    players: [Entrant; 2],
    board: &'static str,
    files: FileAccess,
}

impl GameVisitor for PrepareMatch {
    type Output = Result<Box<dyn AnyMatch>, ExperimentError>;
    fn visit<G: Described>(self) -> Self::Output {
        let registry = G::registry();
        let [a, b] = &self.players;
        let checked = [
            a.check(0, &registry, &self.files)?,
            b.check(1, &registry, &self.files)?,
        ];
        let prepared = self.request.prepare(&registry, &self.files)?;
        Ok(Box::new(ErasedMatch::<G> {
            prepared,
            registry,
            checked,
            board: self.board,
        }))
    }
}

struct ErasedMatch<G: Described> {
    prepared: PreparedMatch<G>,
    registry: Registry<G>,
    checked: [Checked; 2],
    board: &'static str,
}

impl<G: Described> ErasedMatch<G> {
    fn build(&self, player: usize) -> Box<dyn Agent<G>> {
        self.checked[player].build(&self.registry, self.board)
    }

    /// Plays the games on this process's threads as `live` says, each finished chunk
    /// handed to `on_chunk` and the games in order to `on_games`, and completes `report`
    /// with them, timed from `started`.
    fn play_here(
        &self,
        live: LiveOptions<'_>,
        on_chunk: &(dyn Fn(&ChunkResult<G::Move>) + Sync),
        on_games: &mut dyn FnMut(Vec<PlayedGame<G::Move>>) -> bool,
        report: MatchReport,
        started: Instant,
    ) -> Result<MatchRun, MatchError> {
        let (make_a, make_b) = (|| self.build(0), || self.build(1));
        let mut executor = LocalThreads::<G, Box<dyn Agent<G>>> {
            make_a: &make_a,
            make_b: &make_b,
            live,
            on_chunk,
            on_games,
        };
        let played = executor
            .play(&self.prepared)?
            .expect("this process's threads play every game");
        self.prepared.finish(report, &played, started)
    }
}

impl<G: Described> AnyMatch for ErasedMatch<G> {
    fn sides(&self) -> [&'static str; 2] {
        Side::BOTH.map(G::side_name)
    }

    fn report(&self) -> MatchReport {
        self.prepared.report()
    }

    fn report_with_exact(&self) -> MatchReport {
        self.prepared
            .report_with_exact(&mut *self.build(0), &mut *self.build(1))
    }

    fn exact(&self) -> Result<MatchRun, MatchError> {
        self.prepared
            .exact(&mut *self.build(0), &mut *self.build(1))
    }

    fn play(&self, report: MatchReport, live: &MatchLive<'_>) -> Result<MatchRun, MatchError> {
        let started = Instant::now();
        let keep_games = live.keep_records || live.keep_views;
        let options = if live.watched {
            LiveOptions {
                chunk: 1,
                stop: live.stop,
                keep_games,
                chunk_seconds: Some(0.05),
                in_pairs: true,
            }
        } else {
            LiveOptions {
                stop: live.stop,
                chunk_seconds: Some(0.1),
                ..LiveOptions::for_match(&self.prepared.config(), keep_games)
            }
        };
        let [a, b] = &self.prepared.request.names;
        let seed = self.prepared.request.setup.seed;
        let on_chunk = |chunk: &ChunkResult<G::Move>| {
            (live.on_chunk)(Chunk {
                first: chunk.first,
                second: chunk.second,
                records: if live.keep_records {
                    let record = |g| GameRecord::of::<G>(g, a, b, seed);
                    chunk.games.iter().map(record).collect()
                } else {
                    Vec::new()
                },
                views: if live.keep_views {
                    chunk.games.iter().map(played_game_view::<G>).collect()
                } else {
                    Vec::new()
                },
            })
        };
        self.play_here(options, &on_chunk, &mut |_| true, report, started)
    }

    fn play_recorded(
        &self,
        stop: Option<&StopFlag>,
        progress: &(dyn Fn(u64) + Sync),
        format: Option<RecordFormat>,
        on_record: &mut dyn FnMut(Result<String, ReplayError>) -> bool,
    ) -> Result<MatchRun, MatchError> {
        let started = Instant::now();
        let [a, b] = &self.prepared.request.names;
        let seed = self.prepared.request.setup.seed;
        let on_chunk = |chunk: &ChunkResult<G::Move>| progress(chunk.range.end - chunk.range.start);
        let mut on_games = |games: Vec<PlayedGame<G::Move>>| {
            let Some(format) = format else { return true };
            (games.iter()).all(|g| on_record(record_line::<G>(g, [a, b], seed, format)))
        };
        let live = LiveOptions {
            stop,
            ..LiveOptions::for_match(&self.prepared.config(), format.is_some())
        };
        self.play_here(live, &on_chunk, &mut on_games, self.report(), started)
    }

    fn play_range(&self, range: Range<u64>, format: Option<RecordFormat>) -> GamesPlayed {
        let (make_a, make_b) = (|| self.build(0), || self.build(1));
        let cfg = self.prepared.config();
        let chunk = arena::play_range::<G, _>(
            &make_a,
            &make_b,
            &cfg,
            &self.prepared.openings,
            range,
            format.is_some(),
        );
        let [a, b] = &self.prepared.request.names;
        let lines = match format {
            None => Ok(Vec::new()),
            Some(format) => (chunk.games.iter())
                .map(|g| record_line::<G>(g, [a, b], cfg.seed, format))
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string()),
        };
        GamesPlayed {
            totals: chunk.totals(),
            lines,
        }
    }

    fn finish(&self, played: &Played, started: Instant) -> Result<MatchRun, MatchError> {
        self.prepared.finish(self.report(), played, started)
    }

    fn games_per_side(&self) -> u64 {
        self.prepared.games_per_side
    }

    fn openings_described(&self) -> String {
        let prepared = &self.prepared;
        (prepared.request.setup.openings).describe(prepared.openings.len(), prepared.games_per_side)
    }

    fn timed(&self) -> [bool; 2] {
        self.checked.each_ref().map(|p| p.is_timed(&self.registry))
    }

    fn record_format(&self, path: &Path) -> RecordFormat {
        RecordFormat::of::<G>(path)
    }

    fn write_record(
        &self,
        record: &GameRecord,
        format: RecordFormat,
    ) -> Result<String, ReplayError> {
        format.line::<G>(record, None)
    }

    fn native_extension(&self) -> Option<&'static str> {
        G::RECORD_EXTENSION
    }
}

/// Game `g` of players `names` in a match of `seed`, as a line of a file in `format`.
fn record_line<G: Described>(
    g: &PlayedGame<G::Move>,
    [a, b]: [&str; 2],
    seed: u64,
    format: RecordFormat,
) -> Result<String, ReplayError> {
    let record = GameRecord::of::<G>(g, a, b, seed);
    format.line::<G>(&record, Some((&g.moves, g.outcome)))
}

/// Plays the round robin `request` of game `game` between `entrants`, whose names
/// replace the request's. Custom players play one game at a time.
pub fn play_tournament(
    game: &str,
    board: Option<&str>,
    request: TournamentRequest,
    entrants: &[Entrant],
    live: &Live<'_>,
) -> Result<TournamentReport, ExperimentError> {
    let prepared = prepare_tournament(game, board, request, entrants, &FileAccess::Any)?;
    let on_chunk =
        |_: usize, first: Tally, second: Tally| (live.progress)(first.games() + second.games());
    Ok(prepared.play(live.stop, &on_chunk)?)
}

/// A round robin checked and ready to play, its game erased ([`prepare_tournament`]).
pub trait AnyTournament: Send + Sync {
    /// Plays every pair's games on this process's threads, telling `on_chunk` the pair
    /// (its place in [`gamelab_core::tournament::pairs`]) and A's results with A first and
    /// with A second of each chunk of games finished (from the worker threads). Raised,
    /// `stop` ends it with [`gamelab_core::tournament::TournamentError::Stopped`] or a
    /// report marked interrupted.
    fn play(
        &self,
        stop: Option<&StopFlag>,
        on_chunk: &(dyn Fn(usize, Tally, Tally) + Sync),
    ) -> Result<TournamentReport, MatchError>;
    /// Plays the games `range` (indices as in a match, from 0 to twice the games a side)
    /// of pair `pair` on this thread: a share played elsewhere, say by a cluster's process.
    fn play_range(&self, pair: usize, range: Range<u64>) -> ChunkTotals;
    /// The report from every pair's results gathered elsewhere
    /// ([`AnyTournament::play_range`]), in pair order.
    fn complete(&self, results: &[MatchResult]) -> Result<TournamentReport, MatchError>;
    /// Games per pair with each entrant first.
    fn games_per_side(&self) -> u64;
    /// The pairs, each entrant's place in the order given ([`gamelab_core::tournament::pairs`]).
    fn pairs(&self) -> Vec<(usize, usize)>;
    /// How a front end names the openings ("" when every game starts from the start).
    fn openings_described(&self) -> String;
    /// Whether each entrant stops by the clock: its results then depend on the machine.
    fn timed(&self) -> Vec<bool>;
}

/// Checks the round robin `request` of game `game` between `entrants` (whose names
/// replace the request's), reading only the files `files` allows, and prepares its games.
pub fn prepare_tournament(
    game: &str,
    board: Option<&str>,
    mut request: TournamentRequest,
    entrants: &[Entrant],
    files: &FileAccess,
) -> Result<Box<dyn AnyTournament>, ExperimentError> {
    request.entrants = entrants.iter().map(|e| e.name().to_string()).collect();
    if entrants.iter().any(Entrant::is_custom) {
        request.setup.threads = 1;
    }
    gamelab_core::tournament::check_entrants(&request.entrants).map_err(MatchError::from)?;
    visit(game, board, |board| PrepareTournament {
        request,
        entrants: entrants.to_vec(),
        board,
        files: files.clone(),
    })
}

struct PrepareTournament {
    request: TournamentRequest,
    entrants: Vec<Entrant>,
    board: &'static str,
    files: FileAccess,
}

impl GameVisitor for PrepareTournament {
    type Output = Result<Box<dyn AnyTournament>, ExperimentError>;
    fn visit<G: Described>(self) -> Self::Output {
        let registry = G::registry();
        let checked = (self.entrants.iter().enumerate())
            .map(|(i, e)| e.check(i, &registry, &self.files))
            .collect::<Result<_, _>>()?;
        let prepared = self.request.prepare(&registry, &self.files)?;
        Ok(Box::new(ErasedTournament::<G> {
            prepared,
            registry,
            checked,
            board: self.board,
        }))
    }
}

struct ErasedTournament<G: Described> {
    prepared: PreparedTournament<G>,
    registry: Registry<G>,
    checked: Vec<Checked>,
    board: &'static str,
}

impl<G: Described> AnyTournament for ErasedTournament<G> {
    fn play(
        &self,
        stop: Option<&StopFlag>,
        on_chunk: &(dyn Fn(usize, Tally, Tally) + Sync),
    ) -> Result<TournamentReport, MatchError> {
        let make = |i: usize| self.checked[i].build(&self.registry, self.board);
        let on_chunk =
            |pair: usize, chunk: &ChunkResult<G::Move>| on_chunk(pair, chunk.first, chunk.second);
        self.prepared.run(&make, stop, &on_chunk)
    }

    fn play_range(&self, pair: usize, range: Range<u64>) -> ChunkTotals {
        let (i, j) = gamelab_core::tournament::pairs(self.checked.len())[pair];
        let make = |k: usize| self.checked[k].build(&self.registry, self.board);
        let (make_a, make_b) = (|| make(i), || make(j));
        let chunk = arena::play_range::<G, _>(
            &make_a,
            &make_b,
            &self.prepared.config(),
            &self.prepared.openings,
            range,
            false,
        );
        chunk.totals()
    }

    fn complete(&self, results: &[MatchResult]) -> Result<TournamentReport, MatchError> {
        let names = &self.prepared.request.entrants;
        let report = tabulate::<G>(names, &self.prepared.config(), results)?;
        Ok(self.prepared.complete(report))
    }

    fn games_per_side(&self) -> u64 {
        self.prepared.games_per_side
    }

    fn pairs(&self) -> Vec<(usize, usize)> {
        gamelab_core::tournament::pairs(self.checked.len())
    }

    fn openings_described(&self) -> String {
        let prepared = &self.prepared;
        (prepared.request.setup.openings).describe(prepared.openings.len(), prepared.games_per_side)
    }

    fn timed(&self) -> Vec<bool> {
        (self.checked.iter())
            .map(|c| c.is_timed(&self.registry))
            .collect()
    }
}

/// One of the two games of a [`Divergence`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DivergedGame {
    /// The moves as the game writes them.
    pub moves: Vec<String>,
    /// The side that played each move.
    pub movers: Vec<&'static str>,
    /// The winner's side name, or `draw`.
    pub result: &'static str,
    /// The outcome in words.
    pub outcome: String,
    /// The final position in the game's text form.
    pub position: String,
}

/// The first seed at which two versions of an AI end differently against the same
/// opponent ([`diverge`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Divergence {
    pub game: &'static str,
    pub seed: u64,
    /// The side the two versions played.
    pub side: &'static str,
    /// The index of the first move at which the games differ.
    pub parted: usize,
    /// The game of the first version, then the second's.
    pub games: [DivergedGame; 2],
}

/// Article 000's experiment: the first seed of `seeds` at which `a` and `a2`, playing
/// `side` (the side's name; the first to move when `None`) against `b`, end differently,
/// with `b`'s random choices the same in both games; `None` when every seed ends alike.
/// `live.progress` counts the seeds tried, and `live.stop` ends the search.
pub fn diverge(
    game: &str,
    board: Option<&str>,
    [a, a2, b]: [&Entrant; 3],
    side: Option<&str>,
    seeds: std::ops::Range<u64>,
    live: &Live<'_>,
) -> Result<Option<Divergence>, ExperimentError> {
    visit(game, board, |board| DivergeJob {
        agents: [a, a2, b],
        board,
        side,
        seeds,
        live,
    })
}

/// The side called `name` (the first to move when `None`).
fn side_named<G: Described>(name: Option<&str>) -> Result<Side, ExperimentError> {
    match name {
        None => Ok(Side::First),
        Some(s) if s == G::side_name(Side::First) => Ok(Side::First),
        Some(s) if s == G::side_name(Side::Second) => Ok(Side::Second),
        Some(other) => Err(ExperimentError::Side {
            given: other.to_string(),
            first: G::side_name(Side::First),
            second: G::side_name(Side::Second),
        }),
    }
}

struct DivergeJob<'a> {
    agents: [&'a Entrant; 3],
    board: &'static str,
    side: Option<&'a str>,
    seeds: std::ops::Range<u64>,
    live: &'a Live<'a>,
}

impl GameVisitor for DivergeJob<'_> {
    type Output = Result<Option<Divergence>, ExperimentError>;
    fn visit<G: Described>(self) -> Self::Output {
        let side = side_named::<G>(self.side)?;
        let registry = G::registry();
        let [a, a2, b] = self.agents;
        let [mut a, mut a2, mut b] = [
            a.check(0, &registry, &FileAccess::Any)?,
            a2.check(1, &registry, &FileAccess::Any)?,
            b.check(2, &registry, &FileAccess::Any)?,
        ]
        .map(|checked| checked.build(&registry, self.board));
        let found = first_divergence(&mut *a, &mut *a2, &mut *b, side, self.seeds, &mut |_| {
            (self.live.progress)(1);
            !self
                .live
                .stop
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst))
        });
        Ok(found.map(|d| {
            let game = |(moves, outcome): &(Vec<G::Move>, gamelab_core::Outcome)| {
                let mut replay = G::start();
                let movers = moves
                    .iter()
                    .map(|&mv| {
                        let side = G::side_name(replay.to_move());
                        replay.play_unchecked(mv);
                        side
                    })
                    .collect();
                DivergedGame {
                    moves: moves.iter().map(|&m| G::write_move(m)).collect(),
                    movers,
                    result: outcome.winner().map_or("draw", G::side_name),
                    outcome: G::describe_outcome(*outcome),
                    position: replay.to_string(),
                }
            };
            Divergence {
                game: G::NAME,
                seed: d.seed,
                side: G::side_name(side),
                parted: d.parted,
                games: [game(&d.games[0]), game(&d.games[1])],
            }
        }))
    }
}

/// Whether an AI never loses on one side ([`verify`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideProof {
    /// The side's name.
    pub side: &'static str,
    pub never_loses: bool,
    /// Distinct positions proven safe on the way.
    pub positions: usize,
    /// A line of play that it loses, as the game writes the moves.
    pub losing_line: Option<Vec<String>>,
    /// The side to move at each move of the losing line.
    pub movers: Vec<&'static str>,
    /// The position the losing line ends in, in the game's text form.
    pub lost_position: Option<String>,
}

/// Does `ai` never lose, on either side? Every opponent reply and every move its
/// distribution allows is followed to the end: for games whose tree fits in memory.
pub fn verify(
    game: &str,
    board: Option<&str>,
    ai: &Entrant,
) -> Result<[SideProof; 2], ExperimentError> {
    visit(game, board, |board| VerifyJob { ai, board })
}

struct VerifyJob<'a> {
    ai: &'a Entrant,
    board: &'static str,
}

impl GameVisitor for VerifyJob<'_> {
    type Output = Result<[SideProof; 2], ExperimentError>;
    fn visit<G: Described>(self) -> Self::Output {
        let registry = G::registry();
        let checked = self.ai.check(0, &registry, &FileAccess::Any)?;
        let mut agent = checked.build(&registry, self.board);
        let proof = |side: Side| -> Result<SideProof, ExperimentError> {
            let proof = never_loses::<G>(&mut *agent, self.ai.name(), side)?;
            let mut replay = G::start();
            let mut movers = Vec::new();
            for &mv in proof.losing_line.iter().flatten() {
                movers.push(G::side_name(replay.to_move()));
                replay.play_unchecked(mv);
            }
            Ok(SideProof {
                side: G::side_name(side),
                never_loses: proof.losing_line.is_none(),
                positions: proof.positions,
                lost_position: proof.losing_line.as_ref().map(|_| replay.to_string()),
                losing_line: proof
                    .losing_line
                    .map(|line| line.iter().map(|&m| G::write_move(m)).collect()),
                movers,
            })
        };
        let mut proof = proof;
        Ok([proof(Side::First)?, proof(Side::Second)?])
    }
}

/// A front end's player in the arena, as an agent of `G`: its answers are read in the
/// game's notation and checked, and a bad one is its failure, not a panic.
struct CustomAgent<G> {
    player: Box<dyn TextPlayer>,
    board: &'static str,
    game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Described> CustomAgent<G> {
    fn position(&self, game: &G) -> DynGame<G> {
        DynGame {
            game: game.clone(),
            board: self.board,
        }
    }

    fn chosen(&mut self, game: &G, rng: &mut GameRng) -> Result<G::Move, Failed> {
        let position = self.position(game);
        let text = self.player.choose(&position, rng)?;
        game.parse_move(text.trim()).map_err(|e| {
            self.player.reject(
                &position,
                rng.game(),
                format!(
                    "it returned `{text}`, which cannot be played: {e}; moves are {}",
                    G::move_syntax()
                ),
            );
            Failed
        })
    }

    fn policy_of(&mut self, game: &G) -> Result<Option<Policy<G::Move>>, Failed> {
        let position = self.position(game);
        let Some(pairs) = self.player.policy(&position)? else {
            return Ok(None);
        };
        let mut reject = |reason: String| {
            self.player.reject(&position, game.ply() as u64, reason);
            Failed
        };
        let mut entries: Vec<(G::Move, f64)> = Vec::with_capacity(pairs.len());
        for (text, p) in pairs {
            let mv = game.parse_move(text.trim()).map_err(|e| {
                reject(format!(
                    "its policy names `{text}`, which cannot be played: {e}"
                ))
            })?;
            if !(p.is_finite() && p >= 0.0) {
                return Err(reject(format!(
                    "its policy gives `{text}` the probability {p}; probabilities are from 0 to 1"
                )));
            }
            if entries.iter().any(|&(m, _)| m == mv) {
                return Err(reject(format!("its policy names `{text}` twice")));
            }
            if p > 0.0 {
                entries.push((mv, p));
            }
        }
        let total: f64 = entries.iter().map(|&(_, p)| p).sum();
        if (total - 1.0).abs() > 1e-6 {
            return Err(reject(format!(
                "its policy's probabilities sum to {total}; they must sum to 1"
            )));
        }
        for entry in &mut entries {
            entry.1 /= total;
        }
        Ok(Some(Policy::from_weighted(entries)))
    }
}

impl<G: Described> Agent<G> for CustomAgent<G> {
    fn choose(&mut self, game: &G, rng: &mut GameRng) -> G::Move {
        // After a failure the experiment is stopping: any legal move ends the game.
        if !self.player.failed()
            && let Ok(mv) = self.chosen(game, rng)
        {
            return mv;
        }
        game.legal_moves()[0]
    }

    fn analyst(&mut self) -> Option<&mut dyn gamelab_core::Analyst<G>> {
        Some(self)
    }
}

impl<G: Described> gamelab_core::Analyst<G> for CustomAgent<G> {
    fn policy(&mut self, game: &G) -> Option<Policy<G::Move>> {
        if self.player.failed() {
            return Some(Policy::uniform(&game.legal_moves()));
        }
        self.policy_of(game)
            .unwrap_or_else(|Failed| Some(Policy::uniform(&game.legal_moves())))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// Answers `answer` (or `policy`) and keeps what it was told was wrong.
    struct Scripted {
        answer: &'static str,
        policy: Option<Vec<(String, f64)>>,
        rejected: Arc<Mutex<Vec<String>>>,
    }

    impl TextPlayer for Scripted {
        fn choose(&mut self, _: &dyn AnyGame, _: &mut GameRng) -> Result<String, Failed> {
            Ok(self.answer.to_string())
        }
        fn policy(&mut self, _: &dyn AnyGame) -> Result<Option<Vec<(String, f64)>>, Failed> {
            Ok(self.policy.clone())
        }
        fn failed(&self) -> bool {
            !self.rejected.lock().unwrap().is_empty()
        }
        fn reject(&mut self, _: &dyn AnyGame, _: u64, reason: String) {
            self.rejected.lock().unwrap().push(reason);
        }
    }

    fn scripted(
        answer: &'static str,
        policy: Option<Vec<(String, f64)>>,
    ) -> (Entrant, Arc<Mutex<Vec<String>>>) {
        let rejected = Arc::new(Mutex::new(Vec::new()));
        let kept = rejected.clone();
        let make: MakePlayer = Arc::new(move || {
            Box::new(Scripted {
                answer,
                policy: policy.clone(),
                rejected: kept.clone(),
            })
        });
        let entrant = Entrant::Custom {
            name: "scripted".into(),
            make,
        };
        (entrant, rejected)
    }

    fn request(games: Option<u64>, exact: bool) -> MatchRequest {
        let mut request = MatchRequest::new("", "");
        request.setup.games_per_side = games;
        request.exact = exact;
        request
    }

    #[test]
    fn a_custom_players_unplayable_answer_is_its_failure_not_a_panic() {
        let (player, rejected) = scripted("z9", None);
        let ai1 = Entrant::Spec("ai1".into());
        let played = play_match(
            "ttt",
            None,
            request(Some(3), false),
            [&player, &ai1],
            &Live::default(),
        )
        .unwrap();
        // Its games still end (any legal move), and the failure is kept once.
        assert_eq!(played.run.report.played, 6);
        let rejected = rejected.lock().unwrap();
        assert_eq!(rejected.len(), 1, "{rejected:?}");
        assert!(
            rejected[0].starts_with("it returned `z9`, which cannot be played:")
                && rejected[0].contains("moves are"),
            "{}",
            rejected[0]
        );
    }

    #[test]
    fn a_custom_policy_is_checked_and_used_by_an_exact_match() {
        let uniform = |moves: &[&str]| -> Vec<(String, f64)> {
            let p = 1.0 / moves.len() as f64;
            moves.iter().map(|m| (m.to_string(), p)).collect()
        };
        // A policy summing to 1.5 is rejected with its sum.
        let (player, rejected) = scripted(
            "1,1",
            Some(
                uniform(&["0,0", "1,1"])
                    .into_iter()
                    .chain([("2,2".to_string(), 0.5)])
                    .collect(),
            ),
        );
        let ai1 = Entrant::Spec("ai1".into());
        play_match(
            "ttt",
            None,
            request(None, true),
            [&player, &ai1],
            &Live::default(),
        )
        .unwrap();
        let rejected = rejected.lock().unwrap();
        assert!(
            rejected[0].contains("probabilities sum to 1.5"),
            "{rejected:?}"
        );
    }

    #[test]
    fn names_replace_the_requests_and_a_bad_side_or_spec_says_what_is_expected() {
        let [a, a2, b] =
            ["ai12s", "ai12s:score_victory=200", "ai2"].map(|s| Entrant::Spec(s.into()));
        let err = diverge(
            "ttt",
            None,
            [&a, &a2, &b],
            Some("black"),
            0..10,
            &Live::default(),
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "`black` is not a side: expected o or x");
        let bad = Entrant::Spec("ai99".into());
        let err = verify("ttt", None, &bad).unwrap_err();
        assert!(
            matches!(err, ExperimentError::Spec { player: 0, .. }),
            "{err}"
        );
        let err = verify("chess", None, &a).unwrap_err();
        assert!(matches!(err, ExperimentError::Catalogue(_)), "{err}");
    }

    #[test]
    fn a_watched_match_hands_over_every_game_and_plays_the_same_games() {
        let mut request = MatchRequest::new("", "");
        request.setup.games_per_side = Some(3);
        request.setup.seed = 7;
        let players = [
            Entrant::Spec("greedy".into()),
            Entrant::Spec("random".into()),
        ];
        let prepared = prepare_match(
            "othello",
            None,
            request.clone(),
            [&players[0], &players[1]],
            &FileAccess::Any,
        )
        .unwrap();
        let games = Mutex::new((Vec::new(), Vec::new()));
        let tally = Mutex::new(Tally::default());
        let on_chunk = |chunk: Chunk| {
            let mut t = tally.lock().unwrap();
            t.add(&chunk.first);
            t.add(&chunk.second);
            let mut games = games.lock().unwrap();
            games.0.extend(chunk.views);
            games.1.extend(chunk.records);
        };
        let live = MatchLive {
            stop: None,
            keep_records: true,
            keep_views: true,
            watched: true,
            on_chunk: &on_chunk,
        };
        let watched = prepared.play(prepared.report(), &live).unwrap().report;
        assert_eq!(*tally.lock().unwrap(), watched.total);
        let (views, records) = games.into_inner().unwrap();
        assert_eq!((views.len(), records.len()), (6, 6));
        let won = views.iter().filter(|g| g.result == "win").count() as u64;
        assert_eq!(won, watched.total.win);
        assert_eq!(prepared.native_extension(), Some("ggf"));
        let ggf = prepared
            .write_record(&records[0], RecordFormat::Native)
            .unwrap();
        assert!(ggf.starts_with("(;GM[Othello]"), "{ggf}");
        // Unwatched, in index order and other chunks: the same games, the same digest.
        let plain = play_match(
            "othello",
            None,
            request,
            [&players[0], &players[1]],
            &Live::default(),
        )
        .unwrap();
        assert_eq!(plain.run.report.digest, watched.digest);
        assert!(watched.digest.is_some());
    }

    fn spec(spec: &str) -> Entrant {
        Entrant::Spec(spec.into())
    }

    #[test]
    fn a_match_played_in_shares_is_the_match_played_here_with_its_records_in_order() {
        let mut request = MatchRequest::new("", "");
        request.setup.games_per_side = Some(40);
        request.setup.seed = 7;
        let (a, b) = (spec("ai2"), spec("ai12s"));
        let prepare = || prepare_match("ttt", None, request.clone(), [&a, &b], &FileAccess::Any);
        let format = Some(RecordFormat::JsonLines);
        let here = prepare().unwrap();
        let mut lines = Vec::new();
        let run = (here.play_recorded(None, &|_| {}, format, &mut |line| {
            lines.push(line.unwrap());
            true
        }))
        .unwrap();
        assert_eq!(run.report.played, 80);
        let indices: Vec<u64> = (lines.iter())
            .map(|l| serde_json::from_str::<GameRecord>(l).unwrap().index)
            .collect();
        assert_eq!(indices, (0..80).collect::<Vec<_>>());

        // Three shares, as three processes would play them, then put together.
        let elsewhere = prepare().unwrap();
        let mut result = MatchResult::new();
        let mut shared = Vec::new();
        for range in [0..25, 25..26, 26..80] {
            let share = elsewhere.play_range(range, format);
            result.add(&share.totals);
            shared.extend(share.lines.unwrap());
        }
        let played = Played {
            result,
            interrupted: false,
        };
        let put_together = elsewhere.finish(&played, Instant::now()).unwrap();
        assert_eq!(shared, lines);
        assert_eq!(put_together.report.digest, run.report.digest);
        assert!(run.report.digest.is_some());
        assert_eq!(put_together.report.total, run.report.total);
    }

    #[test]
    fn a_record_writer_that_fails_stops_the_match() {
        let mut request = MatchRequest::new("", "");
        request.setup.games_per_side = Some(5000);
        request.setup.threads = 1;
        let (a, b) = (spec("ai2"), spec("ai2"));
        let prepared = prepare_match("ttt", None, request, [&a, &b], &FileAccess::Any).unwrap();
        let mut heard = 0;
        let run = (prepared.play_recorded(None, &|_| {}, Some(RecordFormat::Csv), &mut |_| {
            heard += 1;
            heard < 3
        }))
        .unwrap();
        assert_eq!(heard, 3, "nothing is handed on after the writer said stop");
        assert!(
            run.report.digest.is_none(),
            "the report is of an unfinished match"
        );
        assert!(run.report.played < 10_000);
    }

    #[test]
    fn a_tournament_played_in_shares_is_the_tournament_played_here() {
        let mut request = TournamentRequest::new(Vec::new());
        request.setup.games_per_side = Some(30);
        request.setup.seed = 3;
        let entrants = [spec("ai1"), spec("ai2"), spec("ai14s")];
        let prepare = || {
            prepare_tournament("ttt", None, request.clone(), &entrants, &FileAccess::Any).unwrap()
        };
        let here = prepare().play(None, &|_, _, _| {}).unwrap();
        let elsewhere = prepare();
        assert_eq!(elsewhere.pairs(), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(elsewhere.timed(), vec![false; 3]);
        let results: Vec<MatchResult> = (0..3)
            .map(|pair| {
                let mut result = MatchResult::new();
                result.add(&elsewhere.play_range(pair, 0..31));
                result.add(&elsewhere.play_range(pair, 31..60));
                result
            })
            .collect();
        let put_together = elsewhere.complete(&results).unwrap();
        assert_eq!(
            serde_json::to_value(&put_together).unwrap(),
            serde_json::to_value(&here).unwrap()
        );
    }
}
