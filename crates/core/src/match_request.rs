//! A match as one request that every front end fills in and runs: the two players, how its
//! games are set up ([`MatchSetup`]: games per side, seed, threads, openings — none, random,
//! random kept by a judge, or given — and clock, the same for a tournament's pairs) and
//! exactness. The request checks itself and makes its openings ([`MatchRequest::prepare`]);
//! the prepared match computes its exact table or plays its games through an
//! [`Executor`] — threads of this process ([`LocalThreads`]) or a front end's own (the
//! command line's cluster of processes) — and fills the whole [`MatchReport`]. Front ends
//! only parse their input into a request and show the report.
//!
//! ```
//! use gamelab_core::match_request::{MatchRequest, Openings};
//! let mut request = MatchRequest::new("ai14s", "ai2");
//! request.setup.games_per_side = Some(100);
//! request.setup.openings = Openings::Random { plies: 2, judge: None };
//! assert_eq!(request.setup.openings.plies(), 2);
//! assert!(request.check().is_ok());
//! request.exact = true;
//! assert!(request.check().unwrap_err().to_string().contains("takes no openings"));
//! ```

use std::time::Instant;

use thiserror::Error;

use crate::arena::{
    self, AgentFactory, BalancedError, ChunkResult, ExactError, LiveOptions, MatchConfig,
    MatchReport, MatchResult, OpeningError, OpeningFileError, PlayedGame,
};
use crate::clock::TimeControl;
use crate::registry::{FileAccess, Registry, SpecError};
use crate::tournament::{
    self, ChunkListener, TournamentError, TournamentReport, check_entrants, pairs,
};
use crate::{Agent, EngineHooks, Notation, StopFlag, limits};

/// Games per side when the request does not say and no list of openings does.
pub const DEFAULT_GAMES_PER_SIDE: u64 = 10_000;

/// The AI that keeps only the random openings it values within ±`window` for the side to
/// move, in its units (discs for Othello's engine).
#[derive(Clone, Debug, PartialEq)]
pub struct Judge {
    pub spec: String,
    pub window: f64,
}

/// Games per side and the openings they start from (game `i` from opening `i mod games
/// per side`; none: every game from the start).
pub type GamesAndOpenings<M> = (u64, Vec<Vec<M>>);

/// Where a match's games start.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Openings {
    /// Every game from the start.
    #[default]
    FromStart,
    /// Distinct openings of this many random plies from the seed, one per game of a side,
    /// each played once with each AI first; kept only where the judge says so when given.
    Random { plies: u32, judge: Option<Judge> },
    /// These openings, each its moves in the game's notation.
    Lines(Vec<Vec<String>>),
    /// A file's text of openings, one a line (`#` comments); `name` is the file the
    /// report and errors name.
    File { text: String, name: String },
}

/// How a run of games is set up: a match's, and each pair's of a tournament. The default:
/// 10,000 games a side (or one per given opening), seed 0, every core, from the start, no
/// clock. Front ends fill in one of these from their input, whatever they then run.
///
/// ```
/// use gamelab_core::match_request::{MatchRequest, MatchSetup, TournamentRequest};
/// let setup = MatchSetup { seed: 7, clock: "60+1".parse().unwrap(), ..MatchSetup::default() };
/// let duel = MatchRequest { setup: setup.clone(), ..MatchRequest::new("ai14s", "ai2") };
/// let round_robin = TournamentRequest { entrants: vec!["ai1".into(), "ai2".into()], setup };
/// assert_eq!(round_robin.matches()[0].setup, duel.setup);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchSetup {
    /// Games with each side first; `None`: one per given opening, else
    /// [`DEFAULT_GAMES_PER_SIDE`].
    pub games_per_side: Option<u64>,
    pub seed: u64,
    /// Worker threads; 0 for every core. Results do not depend on it.
    pub threads: usize,
    pub openings: Openings,
    pub clock: TimeControl,
}

/// A match before it is played. [`MatchRequest::new`] gives the defaults: the default
/// [`MatchSetup`], sampled.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRequest {
    /// A's and B's names: their specs, or what a front end calls its own players.
    pub names: [String; 2],
    pub setup: MatchSetup,
    /// The exact probabilities from the AIs' move distributions instead of games.
    pub exact: bool,
}

/// Why a match cannot be played, or stopped.
#[derive(Debug, Error)]
pub enum MatchError {
    #[error("an exact match walks every game from the start; it takes no openings")]
    ExactWithOpenings,
    #[error(
        "an exact match computes the games' probabilities without playing them; it takes no clock"
    )]
    ExactWithClock,
    #[error("games per side {0}: {expected}", expected = limits::GAMES_PER_SIDE.expected())]
    GamesPerSide(u64),
    #[error("openings {0}: {expected}", expected = limits::OPENING_PLIES.expected())]
    OpeningPlies(u32),
    #[error("balanced openings are kept from random openings: give their number of plies")]
    JudgeWithoutPlies,
    #[error("the judge's window {0}: {expected}", expected = limits::WINDOW.expected())]
    Window(f64),
    #[error("the list of openings is empty; ask for none to start every game from the start")]
    NoOpenings,
    #[error("opening {number}: {error}")]
    Opening {
        number: usize,
        error: arena::OpeningMovesError,
    },
    #[error(transparent)]
    OpeningFile(#[from] OpeningFileError),
    #[error("openings: {0}")]
    RandomOpenings(#[from] OpeningError),
    #[error("the judge {spec}: {source}")]
    JudgeSpec { spec: String, source: SpecError },
    #[error(
        "{0} gives no value for a position; a judge of openings must be an AI that scores moves (e.g. Othello's engine)"
    )]
    JudgeGivesNoValue(String),
    #[error(transparent)]
    Exact(#[from] ExactError),
    /// An agent gave up a game instead of moving, which stops the match.
    #[error("the match stopped: {name} gave up game {game}: {reason}")]
    GaveUp {
        name: String,
        game: u64,
        reason: String,
        /// Games finished before it.
        played: u64,
    },
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// The executor could not play the games (a cluster's peer, a records file).
    #[error(transparent)]
    Play(Box<dyn std::error::Error + Send + Sync>),
}

impl MatchRequest {
    /// A against B with the defaults.
    pub fn new(a: impl Into<String>, b: impl Into<String>) -> MatchRequest {
        MatchRequest {
            names: [a.into(), b.into()],
            setup: MatchSetup::default(),
            exact: false,
        }
    }

    /// What can be checked without the game: numbers in range, settings that go together.
    pub fn check(&self) -> Result<(), MatchError> {
        self.setup.check()?;
        if self.exact {
            let from_start = matches!(
                self.setup.openings,
                Openings::FromStart | Openings::Random { plies: 0, .. }
            );
            if !from_start {
                return Err(MatchError::ExactWithOpenings);
            }
            if self.setup.clock != TimeControl::Unlimited {
                return Err(MatchError::ExactWithClock);
            }
        }
        Ok(())
    }

    /// Checks the request and makes its openings (from the seed, judged by the judge built
    /// from `registry` with `files`, or read from the lines), before any game is played.
    ///
    /// ```
    /// use gamelab_core::FileAccess;
    /// use gamelab_core::match_request::{MatchRequest, Openings};
    /// use gamelab_ttt::{Position, ai};
    ///
    /// let registry = ai::registry();
    /// let lines = |openings: &[&[&str]]| {
    ///     Openings::Lines(openings.iter().map(|o| o.iter().map(|m| m.to_string()).collect()).collect())
    /// };
    /// let mut request = MatchRequest::new("ai1", "ai2");
    /// request.setup.openings = lines(&[&["1,1"], &["0,0", "1,1"]]);
    /// let prepared = request.prepare::<Position>(&registry, &FileAccess::Any)?;
    /// assert_eq!(prepared.games_per_side, 2, "one game a side per opening");
    /// assert_eq!(prepared.openings[1].len(), 2);
    ///
    /// // Every opening is checked move by move before a game is played.
    /// request.setup.openings = lines(&[&["1,1"], &["1,1", "1,1"]]);
    /// let error = request.prepare::<Position>(&registry, &FileAccess::Any).unwrap_err();
    /// assert!(error.to_string().starts_with("opening 2: move 2 (1,1)"), "{error}");
    /// # Ok::<(), gamelab_core::match_request::MatchError>(())
    /// ```
    pub fn prepare<G: Notation + EngineHooks>(
        &self,
        registry: &Registry<G>,
        files: &FileAccess,
    ) -> Result<PreparedMatch<G>, MatchError> {
        self.check()?;
        let (games_per_side, openings) = if self.exact {
            (self.setup.games_per_side.unwrap_or(0), Vec::new())
        } else {
            self.setup.make::<G>(registry, files)?
        };
        Ok(PreparedMatch {
            request: self.clone(),
            games_per_side,
            openings,
        })
    }
}

impl MatchSetup {
    /// Games per side in range, when given, and the openings' settings
    /// ([`Openings::check`]).
    pub fn check(&self) -> Result<(), MatchError> {
        if let Some(n) = self.games_per_side
            && limits::GAMES_PER_SIDE.check(n).is_err()
        {
            return Err(MatchError::GamesPerSide(n));
        }
        self.openings.check()
    }

    /// Checks the setup ([`MatchSetup::check`]), then makes the games per side (as given,
    /// else one per given opening, else [`DEFAULT_GAMES_PER_SIDE`]) and their openings,
    /// one per game of a side (none: every game from the start): random from the seed and
    /// kept by the judge built from `registry` with `files`, or read and checked move by
    /// move. A match and each pair of a tournament make them so.
    pub fn make<G: Notation + EngineHooks>(
        &self,
        registry: &Registry<G>,
        files: &FileAccess,
    ) -> Result<GamesAndOpenings<G::Move>, MatchError> {
        self.check()?;
        self.openings
            .make::<G>(self.games_per_side, self.seed, registry, files)
    }

    /// The arena's settings for `games_per_side` games a side set up so.
    pub fn config(&self, games_per_side: u64) -> MatchConfig {
        MatchConfig {
            games_per_side,
            seed: self.seed,
            threads: self.threads,
            opening_plies: self.openings.plies(),
            clock: self.clock,
        }
    }
}

impl Openings {
    /// Plies of the random openings (0 for none).
    pub fn plies(&self) -> u32 {
        match self {
            Openings::Random { plies, .. } => *plies,
            _ => 0,
        }
    }

    /// The judge that kept the random openings, if one did.
    pub fn judge(&self) -> Option<&Judge> {
        match self {
            Openings::Random { judge, .. } => judge.as_ref(),
            _ => None,
        }
    }

    /// The file the openings were read from, by the name reports give it.
    pub fn file_name(&self) -> Option<&str> {
        match self {
            Openings::File { name, .. } => Some(name),
            _ => None,
        }
    }

    /// Random openings' plies and judge's window in range, a judge only with plies.
    pub fn check(&self) -> Result<(), MatchError> {
        if let Openings::Random { plies, judge } = self {
            limits::OPENING_PLIES
                .check(*plies)
                .map_err(|_| MatchError::OpeningPlies(*plies))?;
            if let Some(judge) = judge {
                if *plies == 0 {
                    return Err(MatchError::JudgeWithoutPlies);
                }
                limits::WINDOW
                    .check(judge.window)
                    .map_err(|_| MatchError::Window(judge.window))?;
            }
        }
        Ok(())
    }

    /// The games per side (`games_per_side`, else one per given opening, else
    /// [`DEFAULT_GAMES_PER_SIDE`]) and their openings, one per game of a side (none: every
    /// game from the start): random from `seed` and kept by the judge built from
    /// `registry` with `files`, or read and checked move by move. Only for
    /// [`MatchSetup::make`], which has checked the settings ([`Openings::check`]).
    fn make<G: Notation + EngineHooks>(
        &self,
        games_per_side: Option<u64>,
        seed: u64,
        registry: &Registry<G>,
        files: &FileAccess,
    ) -> Result<GamesAndOpenings<G::Move>, MatchError> {
        let games = games_per_side.unwrap_or(DEFAULT_GAMES_PER_SIDE);
        let given =
            |lines: Vec<Vec<G::Move>>| (games_per_side.unwrap_or(lines.len() as u64), lines);
        Ok(match self {
            Openings::FromStart | Openings::Random { plies: 0, .. } => (games, Vec::new()),
            Openings::Random { plies, judge: None } => {
                (games, arena::openings::<G>(games, *plies, seed)?)
            }
            Openings::Random {
                plies,
                judge: Some(Judge { spec, window }),
            } => {
                let mut judge =
                    registry
                        .build_with(spec, files)
                        .map_err(|source| MatchError::JudgeSpec {
                            spec: spec.clone(),
                            source,
                        })?;
                let openings =
                    arena::balanced_openings::<G>(games, *plies, seed, *window, &mut *judge)
                        .map_err(|e| match e {
                            BalancedError::NoValue => MatchError::JudgeGivesNoValue(spec.clone()),
                            BalancedError::Openings(e) => MatchError::RandomOpenings(e),
                        })?;
                (games, openings)
            }
            Openings::Lines(lines) => {
                if lines.is_empty() {
                    return Err(MatchError::NoOpenings);
                }
                let read = lines
                    .iter()
                    .enumerate()
                    .map(|(i, moves)| {
                        arena::opening_from_texts::<G>(moves).map_err(|error| MatchError::Opening {
                            number: i + 1,
                            error,
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                given(read)
            }
            Openings::File { text, name } => given(arena::read_openings::<G>(text, name)?),
        })
    }

    /// How a front end names the openings of `games` games a side, `count` of them given
    /// (the first `games` when fewer): "" when every game starts from the start.
    ///
    /// ```
    /// use gamelab_core::match_request::{Judge, Openings};
    ///
    /// let file = Openings::File { text: String::new(), name: "four.txt".into() };
    /// assert_eq!(file.describe(4, 2), ", the first 2 of 4 openings from four.txt");
    /// let judged = Openings::Random {
    ///     plies: 8,
    ///     judge: Some(Judge { spec: "engine:level=4".into(), window: 2.0 }),
    /// };
    /// assert_eq!(judged.describe(0, 100), ", openings of 8 plies within ±2 by engine:level=4");
    /// assert_eq!(Openings::FromStart.describe(0, 100), "");
    /// ```
    pub fn describe(&self, count: usize, games: u64) -> String {
        let source = match self {
            Openings::File { name, .. } => name.clone(),
            _ => "the list".to_string(),
        };
        match self {
            Openings::File { .. } | Openings::Lines(_) if games < count as u64 => {
                format!(", the first {games} of {count} openings from {source}")
            }
            Openings::File { .. } | Openings::Lines(_) => {
                format!(", {count} openings from {source}")
            }
            Openings::Random {
                plies,
                judge: Some(judge),
            } if *plies > 0 => format!(
                ", openings of {plies} plies within ±{} by {}",
                judge.window, judge.spec
            ),
            Openings::Random { plies, judge: None } if *plies > 0 => {
                format!(", openings of {plies} plies")
            }
            _ => String::new(),
        }
    }
}

/// A checked request with its openings made: what an executor plays.
#[derive(Clone, Debug)]
pub struct PreparedMatch<G: Notation> {
    pub request: MatchRequest,
    /// Games with A first, and as many with A second (0 for an exact match).
    pub games_per_side: u64,
    /// Game `i` starts from opening `i mod games_per_side`; none: every game from the
    /// start.
    pub openings: Vec<Vec<G::Move>>,
}

/// A prepared match's games played: their result, and whether a stop cut them short.
#[derive(Clone, Debug)]
pub struct Played {
    pub result: MatchResult,
    pub interrupted: bool,
}

/// A match run: its report, and its time to the microsecond (the report keeps
/// milliseconds), which depends on the machine.
#[derive(Clone, Debug)]
pub struct MatchRun {
    pub report: MatchReport,
    pub seconds: f64,
}

/// Where a prepared match's games are played.
pub trait Executor<G: Notation> {
    /// Plays the games; `None` when this process only helped another play them (a
    /// cluster's helper), which then has the report.
    fn play(&mut self, prepared: &PreparedMatch<G>) -> Result<Option<Played>, MatchError>;
}

impl<G: Notation + EngineHooks> PreparedMatch<G> {
    /// The arena's settings for the games.
    pub fn config(&self) -> MatchConfig {
        self.request.setup.config(self.games_per_side)
    }

    /// The report before any game: who, how many, which seed, openings and clock.
    pub fn report(&self) -> MatchReport {
        let setup = &self.request.setup;
        let [a, b] = &self.request.names;
        let mut report = MatchReport::new::<G>(a, b, self.games_per_side, setup.seed);
        report.opening_plies = setup.openings.plies();
        report.balanced = setup.openings.judge().map(|j| j.window);
        report.judge = setup.openings.judge().map(|j| j.spec.clone());
        report.openings_file = setup.openings.file_name().map(String::from);
        report.clock = setup.clock.written();
        report
    }

    /// Whether the exact table describes these games: from the start, without a clock
    /// (games on a clock are played, not computed).
    pub fn exact_applies(&self) -> bool {
        self.openings.is_empty() && self.request.setup.clock == TimeControl::Unlimited
    }

    /// The exact match of `a` against `b`: its report, with the time it took.
    ///
    /// `ai5` (wins when it can) against `ai2` (at random): every game walked with its
    /// probability, none played.
    ///
    /// ```
    /// use gamelab_core::FileAccess;
    /// use gamelab_core::match_request::MatchRequest;
    /// use gamelab_ttt::{Position, ai};
    ///
    /// let registry = ai::registry();
    /// let mut request = MatchRequest::new("ai5", "ai2");
    /// request.exact = true;
    /// let prepared = request.prepare::<Position>(&registry, &FileAccess::Any)?;
    /// let (mut a, mut b) = (registry.build("ai5")?, registry.build("ai2")?);
    /// let report = prepared.exact(&mut *a, &mut *b)?.report;
    /// assert_eq!((report.games_per_side, report.played), (0, 0));
    /// let table = report.exact.unwrap();
    /// let sum: f64 = table.first.as_array().iter().sum();
    /// assert!((sum - 1.0).abs() < 1e-12);
    /// assert!(table.total.win > table.total.lose);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn exact(
        &self,
        a: &mut dyn Agent<G>,
        b: &mut dyn Agent<G>,
    ) -> Result<MatchRun, MatchError> {
        let started = Instant::now();
        let [a_name, b_name] = &self.request.names;
        let result = arena::exact_match(a, b, [a_name, b_name])?;
        let mut report = self.report();
        report.games_per_side = 0;
        report.set_exact(Ok(result));
        Ok(finished(report, started))
    }

    /// [`PreparedMatch::report`] with the exact table beside the games to come, where it
    /// applies ([`PreparedMatch::exact_applies`]), or the note saying why there is none.
    pub fn report_with_exact(&self, a: &mut dyn Agent<G>, b: &mut dyn Agent<G>) -> MatchReport {
        let mut report = self.report();
        if self.exact_applies() {
            let [a_name, b_name] = &self.request.names;
            report.set_exact(arena::exact_match(a, b, [a_name, b_name]));
        }
        report
    }

    /// Plays the games through `executor` and reports them: `None` where this process only
    /// helped another. An agent that gave up a game stops the match with
    /// [`MatchError::GaveUp`].
    pub fn run(&self, executor: &mut dyn Executor<G>) -> Result<Option<MatchRun>, MatchError> {
        let started = Instant::now();
        let Some(played) = executor.play(self)? else {
            return Ok(None);
        };
        self.finish(self.report(), &played, started).map(Some)
    }

    /// Plays the match on this process's threads ([`LocalThreads`]) with agents from the
    /// two factories, `progress` told how many games each finished chunk played: the run,
    /// and with `keep_games` every game in index order. For code that plays a match
    /// itself (a learning curve, a training round's strength test) rather than a front
    /// end's executor.
    ///
    /// ```
    /// use gamelab_core::FileAccess;
    /// use gamelab_core::match_request::MatchRequest;
    /// use gamelab_ttt::{Position, ai};
    ///
    /// let registry = ai::registry();
    /// let mut request = MatchRequest::new("ai5", "ai2");
    /// request.setup.games_per_side = Some(50);
    /// request.setup.seed = 7;
    /// let mut play = |threads| {
    ///     request.setup.threads = threads;
    ///     let prepared = request.prepare::<Position>(&registry, &FileAccess::Any).unwrap();
    ///     let (a, b) = (|| registry.build("ai5").unwrap(), || registry.build("ai2").unwrap());
    ///     prepared.run_here(&a, &b, &|_games| {}, true).unwrap()
    /// };
    /// let (run, games) = play(1);
    /// assert_eq!((run.report.played, games.len()), (100, 100));
    /// // ai5 takes a win when it has one; ai2 plays at random.
    /// assert!(run.report.total.win > run.report.total.lose);
    /// // The same seed, the same games, on any number of threads.
    /// assert_eq!(play(2).0.report.digest, run.report.digest);
    /// ```
    pub fn run_here<A: Agent<G>>(
        &self,
        make_a: &AgentFactory<'_, A>,
        make_b: &AgentFactory<'_, A>,
        progress: &(dyn Fn(u64) + Sync),
        keep_games: bool,
    ) -> Result<RunHere<G::Move>, MatchError> {
        let live = LiveOptions::for_match(&self.config(), keep_games);
        let on_chunk = |chunk: &ChunkResult<G::Move>| progress(chunk.range.end - chunk.range.start);
        let mut games = Vec::new();
        let mut executor = LocalThreads {
            make_a,
            make_b,
            live,
            on_chunk: &on_chunk,
            on_games: &mut |chunk| {
                games.extend(chunk);
                true
            },
        };
        let run = self.run(&mut executor)?;
        let run = run.expect("this process's threads play every game");
        Ok((run, games))
    }

    /// `report` (say, the one a live view showed) completed with the games played.
    pub fn finish(
        &self,
        mut report: MatchReport,
        played: &Played,
        started: Instant,
    ) -> Result<MatchRun, MatchError> {
        if let Some(note) = &played.result.stopped_by {
            return Err(MatchError::GaveUp {
                name: self.request.names[note.agent].clone(),
                game: note.game,
                reason: note.reason.clone(),
                played: played.result.total().games(),
            });
        }
        report.finish(&played.result, !played.interrupted);
        Ok(finished(report, started))
    }
}

fn finished(mut report: MatchReport, started: Instant) -> MatchRun {
    let seconds = started.elapsed().as_secs_f64();
    report.elapsed_ms = (seconds * 1e3) as u64;
    MatchRun { report, seconds }
}

/// A match run on this process's threads and its games ([`PreparedMatch::run_here`]).
pub type RunHere<M> = (MatchRun, Vec<PlayedGame<M>>);

/// The executor of this process: the arena's worker threads (`request.threads`), agents
/// made by the two factories, chunks handed to `on_chunk` (from worker threads, to watch)
/// and kept games to `on_games` (in order, to record them; returning false stops the
/// match).
pub struct LocalThreads<'a, G: Notation, A> {
    pub make_a: &'a AgentFactory<'a, A>,
    pub make_b: &'a AgentFactory<'a, A>,
    pub live: LiveOptions<'a>,
    pub on_chunk: &'a (dyn Fn(&ChunkResult<G::Move>) + Sync),
    pub on_games: &'a mut dyn FnMut(Vec<PlayedGame<G::Move>>) -> bool,
}

impl<G: Notation + EngineHooks, A: Agent<G>> Executor<G> for LocalThreads<'_, G, A> {
    fn play(&mut self, prepared: &PreparedMatch<G>) -> Result<Option<Played>, MatchError> {
        let (result, interrupted) = arena::run_match_from::<G, A>(
            self.make_a,
            self.make_b,
            &prepared.config(),
            &prepared.openings,
            &self.live,
            self.on_chunk,
            self.on_games,
        );
        Ok(Some(Played {
            result,
            interrupted,
        }))
    }
}

/// A round robin as a request: every pair of `entrants` plays a match both ways round
/// ([`TournamentRequest::matches`], in the order they are played), each set up by `setup`
/// (its games per side: each pair's with each AI moving first); Elo ratings are fitted to
/// the whole crosstable.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRequest {
    pub entrants: Vec<String>,
    pub setup: MatchSetup,
}

impl TournamentRequest {
    /// A round robin of `entrants` with the default [`MatchSetup`].
    pub fn new(entrants: Vec<String>) -> TournamentRequest {
        TournamentRequest {
            entrants,
            setup: MatchSetup::default(),
        }
    }

    /// Every pair's match, in the order they are played: the first entrant against each
    /// later one, then the second, ….
    pub fn matches(&self) -> Vec<MatchRequest> {
        pairs(self.entrants.len())
            .into_iter()
            .map(|(i, j)| MatchRequest {
                names: [self.entrants[i].clone(), self.entrants[j].clone()],
                setup: self.setup.clone(),
                exact: false,
            })
            .collect()
    }

    /// Checks the entrants and the settings and makes the openings every pair plays.
    pub fn prepare<G: Notation + EngineHooks>(
        &self,
        registry: &Registry<G>,
        files: &FileAccess,
    ) -> Result<PreparedTournament<G>, MatchError> {
        check_entrants(&self.entrants)?;
        let (games_per_side, openings) = self.setup.make::<G>(registry, files)?;
        Ok(PreparedTournament {
            request: self.clone(),
            games_per_side,
            openings,
        })
    }
}

/// A checked tournament with its openings made.
#[derive(Clone, Debug)]
pub struct PreparedTournament<G: Notation> {
    pub request: TournamentRequest,
    pub games_per_side: u64,
    pub openings: Vec<Vec<G::Move>>,
}

impl<G: Notation + EngineHooks> PreparedTournament<G> {
    /// The arena's settings for each pair's games.
    pub fn config(&self) -> MatchConfig {
        self.request.setup.config(self.games_per_side)
    }

    /// `report`, made from the pairs' results ([`tournament::tabulate`], say by a cluster),
    /// with what the request says of its openings.
    pub fn complete(&self, mut report: TournamentReport) -> TournamentReport {
        let openings = &self.request.setup.openings;
        report.balanced = openings.judge().map(|j| j.window);
        report.judge = openings.judge().map(|j| j.spec.clone());
        report.openings_file = openings.file_name().map(String::from);
        report
    }

    /// Plays every pair on this process's threads, agents made by `make(entrant)`;
    /// `on_chunk` hears each chunk of games and its pair's place. A `stop` ends it after
    /// the games under way, with the standings over the games played.
    pub fn run<A: Agent<G>>(
        &self,
        make: &(dyn Fn(usize) -> A + Sync),
        stop: Option<&StopFlag>,
        on_chunk: &ChunkListener<G::Move>,
    ) -> Result<TournamentReport, MatchError> {
        let report = tournament::run_tournament_live::<G, A>(
            &self.request.entrants,
            make,
            &self.config(),
            &self.openings,
            stop,
            on_chunk,
        )?;
        Ok(self.complete(report))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_refuses_what_does_not_go_together_once_for_every_front_end() {
        let mut request = MatchRequest::new("a", "b");
        request.exact = true;
        request.setup.clock = "60".parse().unwrap();
        assert!(matches!(request.check(), Err(MatchError::ExactWithClock)));
        request.setup.clock = TimeControl::Unlimited;
        request.setup.openings = Openings::Lines(vec![vec!["x".into()]]);
        assert!(matches!(
            request.check(),
            Err(MatchError::ExactWithOpenings)
        ));
        request.exact = false;
        request.setup.openings = Openings::Random {
            plies: 0,
            judge: Some(Judge {
                spec: "j".into(),
                window: 1.0,
            }),
        };
        assert!(matches!(
            request.check(),
            Err(MatchError::JudgeWithoutPlies)
        ));
        request.setup.openings = Openings::Random {
            plies: 31,
            judge: None,
        };
        assert_eq!(
            request.check().unwrap_err().to_string(),
            "openings 31: expected a number of plies from 0 to 30"
        );
        request.setup.openings = Openings::FromStart;
        request.setup.games_per_side = Some(0);
        assert!(matches!(request.check(), Err(MatchError::GamesPerSide(0))));
    }

    #[test]
    fn a_tournament_is_its_pairs_matches_in_playing_order() {
        let mut request = TournamentRequest::new(vec!["a".into(), "b".into(), "c".into()]);
        request.setup.seed = 7;
        let names: Vec<_> = request.matches().into_iter().map(|m| m.names).collect();
        assert_eq!(
            names,
            [["a", "b"], ["a", "c"], ["b", "c"]].map(|p| p.map(String::from))
        );
        assert!(
            request
                .matches()
                .iter()
                .all(|m| m.setup.seed == 7 && !m.exact)
        );
    }
}
