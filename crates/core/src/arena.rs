//! The arena: A against B, N games with A moving first and N with A moving second, sampled
//! with seeded streams or computed exactly from the agents' distributions.
//!
//! Game `i` of a match (0 ≤ i < 2N) has A first when `i < N`. Its two sides draw from the
//! streams `(seed, i, side)`, so the games — and the digest over them — are the same for
//! any number of threads.

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use rayon::prelude::*;
use thiserror::Error;

use crate::{
    Agent, EngineHooks, Forfeit, Game, GameRng, Notation, Outcome, Side, SideStream, StopFlag,
    StreamKey, mix64,
};

/// Builds a fresh agent: a match makes one per side per chunk of games, so that threads
/// never share agent state. `A` is usually `Box<dyn Agent<G>>`; a concrete agent type (or
/// an enum of them) lets the compiler inline the agents into the game loop.
pub type AgentFactory<'a, A> = dyn Fn() -> A + Sync + 'a;

thread_local! {
    static IN_MATCH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this thread is playing a match's games. An agent that could search on every
/// core takes one here: the match already plays a game on each of its threads.
pub fn inside_match() -> bool {
    IN_MATCH.with(std::cell::Cell::get)
}

/// Marks this thread as playing a match's games until dropped.
struct PlayingMatch(bool);

impl PlayingMatch {
    fn enter() -> PlayingMatch {
        PlayingMatch(IN_MATCH.with(|m| m.replace(true)))
    }
}

impl Drop for PlayingMatch {
    fn drop(&mut self) {
        IN_MATCH.with(|m| m.set(self.0));
    }
}

/// Wins, losses and draws of A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    pub win: u64,
    pub lose: u64,
    pub draw: u64,
}

impl Tally {
    pub fn record(&mut self, outcome: Outcome, a_side: Side) {
        match outcome.winner() {
            Some(w) if w == a_side => self.win += 1,
            Some(_) => self.lose += 1,
            None => self.draw += 1,
        }
    }

    pub fn games(&self) -> u64 {
        self.win + self.lose + self.draw
    }

    pub fn add(&mut self, other: &Tally) {
        self.win += other.win;
        self.lose += other.lose;
        self.draw += other.draw;
    }

    /// (win, lose, draw) as fractions of the games.
    pub fn ratios(&self) -> [f64; 3] {
        let n = self.games().max(1) as f64;
        [
            self.win as f64 / n,
            self.lose as f64 / n,
            self.draw as f64 / n,
        ]
    }
}

/// What a match is: how many games, which seed, how many threads, which openings.
#[derive(Clone, Copy, Debug, Default)]
pub struct MatchConfig {
    /// Games with A first; as many again with A second.
    pub games_per_side: u64,
    pub seed: u64,
    /// Worker threads; 0 means all cores.
    pub threads: usize,
    /// When not 0, game `i` starts from opening `i mod games_per_side` of [`openings`]:
    /// that many random plies, a different position for each, each played once with A
    /// first and once with A second.
    pub opening_plies: u32,
    /// Each side's clock in every game; a side whose time runs out loses the game. Under
    /// a limit the games depend on the machine and its load.
    pub clock: crate::clock::TimeControl,
}

/// Why a match's openings cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "{game} has only {found} distinct positions {plies} random plies from the start{condition} (in {tries} tries) for {wanted} openings; ask for fewer games per side or more plies"
)]
pub struct OpeningError {
    pub game: &'static str,
    /// What else the openings had to be ("" or, say, " that the judge calls balanced").
    pub condition: &'static str,
    pub wanted: u64,
    pub plies: u32,
    pub found: u64,
    pub tries: u64,
}

/// `count` distinct openings of `plies` uniformly random moves from the start, from the
/// seed alone (their own streams, apart from the games'): candidates are drawn in order
/// and kept when they reach a position no earlier one reached and the game goes on.
pub fn openings<G: Game>(
    count: u64,
    plies: u32,
    seed: u64,
) -> Result<Vec<Vec<G::Move>>, OpeningError> {
    openings_where::<G>(count, plies, seed, "", &mut |_| true)
}

/// [`openings`] kept only where `keep` says so (say, where a search calls the position
/// balanced; `condition` says it in the error when too few are): the candidates are the
/// same, drawn in the same order.
pub fn openings_where<G: Game>(
    count: u64,
    plies: u32,
    seed: u64,
    condition: &'static str,
    keep: &mut dyn FnMut(&G) -> bool,
) -> Result<Vec<Vec<G::Move>>, OpeningError> {
    const SALT: u64 = 0x6f70_656e_696e_6773; // "openings"
    let key = StreamKey::new(mix64(seed ^ SALT));
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let budget = count.saturating_mul(20).saturating_add(10_000);
    let mut tries = 0;
    while (out.len() as u64) < count {
        if tries == budget {
            return Err(OpeningError {
                game: G::NAME,
                condition,
                wanted: count,
                plies,
                found: out.len() as u64,
                tries,
            });
        }
        let mut rng = key.game_rng(tries, Side::First);
        tries += 1;
        let mut game = G::start();
        let mut moves = Vec::with_capacity(plies as usize);
        for _ in 0..plies {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            game.play_unchecked(mv);
            moves.push(mv);
        }
        if moves.len() == plies as usize
            && !game.is_over()
            && !seen.contains(&game.key())
            && keep(&game)
        {
            seen.insert(game.key());
            out.push(moves);
        }
    }
    Ok(out)
}

/// Why balanced openings cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BalancedError {
    #[error(transparent)]
    Openings(#[from] OpeningError),
    /// The judge gave no value for a position: it does not score moves.
    #[error(
        "the judge gives no value for a position; judging openings needs an AI that scores moves (e.g. Othello's engine)"
    )]
    NoValue,
}

/// [`openings`] kept where `judge` values the position within ±`window` for the side to
/// move ([`Agent::value`], in the judge's units).
pub fn balanced_openings<G: Game>(
    count: u64,
    plies: u32,
    seed: u64,
    window: f64,
    judge: &mut dyn Agent<G>,
) -> Result<Vec<Vec<G::Move>>, BalancedError> {
    let mut unjudged = false;
    let openings = openings_where::<G>(
        count,
        plies,
        seed,
        " that the judge calls balanced",
        &mut |game: &G| match judge.value(game) {
            Some(v) => v.abs() <= window,
            None => {
                unjudged = true;
                false
            }
        },
    );
    if unjudged {
        return Err(BalancedError::NoValue);
    }
    Ok(openings?)
}

/// Why a file of openings cannot be used: where, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{name}, line {line}: {reason}")]
pub struct OpeningFileError {
    pub name: String,
    pub line: usize,
    pub reason: String,
}

/// One opening from its moves in the game's notation: each must be legal where it is
/// played, and the game must go on after the last one. The error says which move.
pub fn opening_from_texts<G: Notation>(texts: &[String]) -> Result<Vec<G::Move>, String> {
    let mut game = G::start();
    let mut moves = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        if game.is_over() {
            return Err(format!("the game is over before move {} ({text})", i + 1));
        }
        // A pass left out of an Othello transcript is put back.
        let played = crate::record::play_record_move(&mut game, text).map_err(|e| {
            format!(
                "move {} ({text}): {e}; moves are {}",
                i + 1,
                G::move_syntax()
            )
        })?;
        moves.extend(played);
    }
    if game.is_over() {
        return Err("the game is over after these moves; an opening must leave it going".into());
    }
    Ok(moves)
}

/// Openings from text: one a line, its moves in the game's notation separated by spaces
/// (blank lines and `#` comments skipped). Every move must be legal where it is played,
/// and the game must go on after the last one. `name` is the source errors name.
pub fn read_openings<G: Notation>(
    text: &str,
    name: &str,
) -> Result<Vec<Vec<G::Move>>, OpeningFileError> {
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let error = |reason: String| OpeningFileError {
            name: name.to_string(),
            line: number + 1,
            reason,
        };
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let moves = opening_from_texts::<G>(&G::move_texts(line)).map_err(error)?;
        out.push(moves);
    }
    if out.is_empty() {
        return Err(OpeningFileError {
            name: name.to_string(),
            line: 0,
            reason: "no openings in it (one a line, moves separated by spaces)".into(),
        });
    }
    Ok(out)
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
    fn add(&mut self, hash: u64) {
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

/// The result of a sampled match.
#[derive(Clone, Debug, PartialEq, Eq)]
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

    pub fn total(&self) -> Tally {
        let mut t = self.first;
        t.add(&self.second);
        t
    }
}

/// A match digest as every front end prints it: 16 hex digits.
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

/// One finished game, kept when the caller asks for records.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame<M> {
    pub index: u64,
    pub a_side: Side,
    pub moves: Vec<M>,
    pub outcome: Outcome,
    /// Why the loser gave the game up, when it did not play to the end.
    pub forfeit: Option<String>,
}

/// Which side A plays in game `index`.
#[inline]
pub fn a_side(index: u64, games_per_side: u64) -> Side {
    if index < games_per_side {
        Side::First
    } else {
        Side::Second
    }
}

/// The game played at `position` of a match played in pairs ([`LiveOptions::in_pairs`]).
/// Games `0..games_per_side` have A first and the rest A second; in pairs, game `i` of
/// each half is played in turn (positions 0, 1, 2, … play games 0, n, 1, n + 1, …), so
/// that a match stopped part way has played each colour as often, give or take one game.
/// A game keeps its index, and with it its random streams, its moves and its share of
/// the digest: played to the end, the match is the same either way.
///
/// ```
/// use gamelab_core::arena::game_at;
/// assert_eq!((0..6).map(|p| game_at(p, 3)).collect::<Vec<_>>(), [0, 3, 1, 4, 2, 5]);
/// ```
pub fn game_at(position: u64, games_per_side: u64) -> u64 {
    if position.is_multiple_of(2) {
        position / 2
    } else {
        games_per_side + position / 2
    }
}

/// The games of play positions `range`, as two index ranges each played in its own order:
/// in pairs ([`game_at`]), A first's and A second's; else the range itself.
fn index_ranges(
    range: &std::ops::Range<u64>,
    games_per_side: u64,
    in_pairs: bool,
) -> [std::ops::Range<u64>; 2] {
    if in_pairs {
        [
            range.start.div_ceil(2)..range.end.div_ceil(2),
            games_per_side + range.start / 2..games_per_side + range.end / 2,
        ]
    } else {
        [range.clone(), range.end..range.end]
    }
}

fn outcome_code(outcome: Outcome) -> u64 {
    match outcome {
        Outcome::Win(Side::First) => 1,
        Outcome::Win(Side::Second) => 2,
        Outcome::Draw => 3,
    }
}

/// A game's contribution to a match digest. Summing index-tagged hashes keeps the digest
/// independent of how games are split between threads while still fixing their order.
#[inline]
pub fn game_digest(index: u64, move_hash: u64, outcome: Outcome) -> u64 {
    mix64(mix64(move_hash ^ (outcome_code(outcome) << 56)) ^ mix64(index))
}

/// Adds a move (its [`Game::move_code`]) to a game's move hash, which starts at 0.
/// One multiply per move (FNV-style); [`game_digest`] mixes the result thoroughly.
#[inline(always)]
pub fn hash_move(hash: u64, move_code: u32) -> u64 {
    (hash ^ u64::from(move_code + 1)).wrapping_mul(0x0000_0100_0000_01b3)
}

/// [`EngineHooks::uniform_playout`]'s default: the plain game loop, each side picking
/// uniformly among the legal moves as [`crate::Uniform`] does.
pub fn plain_uniform_playout<G: EngineHooks>(start: &G, rngs: &mut [GameRng; 2]) -> (Outcome, u64) {
    let end = play_game(start, [&mut AnyLegalMove, &mut AnyLegalMove], rngs, None);
    (end.outcome, end.hash)
}

/// Any legal move, uniformly, for any game.
struct AnyLegalMove;

impl<G: EngineHooks> Agent<G> for AnyLegalMove {
    fn choose(&mut self, game: &G, rng: &mut GameRng) -> G::Move {
        let moves = game.legal_moves();
        if moves.len() == 1 {
            moves[0]
        } else {
            moves[rng.below(moves.len())]
        }
    }
}

/// Checks a game's own [`EngineHooks::uniform_playout`] against the plain loop on `games`
/// games from `start` with the streams of `seed`: the same outcomes and move hashes, and
/// the same random words used. Returns the first game that differs, described.
pub fn check_uniform_playout<G: EngineHooks>(
    start: &G,
    seed: u64,
    games: u64,
) -> Result<(), String> {
    let key = StreamKey::new(seed);
    let streams = |index: u64| Side::BOTH.map(|side| key.game_rng(index, side));
    // The words each stream has left must agree too: a playout that drew a word fewer or
    // more would shift every later draw of a longer game.
    let rest = |rngs: &mut [GameRng; 2]| rngs.each_mut().map(|r| r.below(1 << 30));
    let mut index = 0;
    // Batches of every size, one game alone among them.
    for batch in (1..=PLAYOUT_BATCH).cycle() {
        if index >= games {
            break;
        }
        let n = batch.min((games - index) as usize);
        let mut batched: Vec<[GameRng; 2]> = (index..index + n as u64).map(streams).collect();
        let mut results = vec![(Outcome::Draw, 0); n];
        start.uniform_playouts(&mut batched, &mut results);
        for (i, (result, rngs)) in results.into_iter().zip(&mut batched).enumerate() {
            let game = index + i as u64;
            let (mut alone, mut plain) = (streams(game), streams(game));
            let single = start.uniform_playout(&mut alone);
            let want = plain_uniform_playout(start, &mut plain);
            let left = rest(&mut plain);
            if single != want || result != want || rest(&mut alone) != left || rest(rngs) != left {
                return Err(format!(
                    "game {game} of seed {seed} from\n{start}\nplayout gave {single:?}, in a batch of {n} {result:?}, the plain loop {want:?}"
                ));
            }
        }
        index += n as u64;
    }
    Ok(())
}

/// How a game ended: its outcome and the hash of its moves ([`hash_move`]); `forfeit`
/// when the loser gave up ([`Agent::try_choose`]) instead of playing to the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub outcome: Outcome,
    pub hash: u64,
    pub forfeit: Option<Box<Forfeit>>,
}

/// Plays one game from the start: `agents[side]` moves for `side` with `rngs[side]`.
/// Pushes the moves to `moves` if given.
#[inline]
pub fn play_game<G: Game, A: Agent<G> + ?Sized>(
    start: &G,
    agents: [&mut A; 2],
    rngs: &mut [GameRng; 2],
    moves: Option<&mut Vec<G::Move>>,
) -> GameEnd {
    play_game_from(start, 0, agents, rngs, moves, None)
}

/// [`play_game`] from a position reached by moves already hashed into `hash`, each side
/// on its clock of `clocks` when given.
#[inline]
fn play_game_from<G: Game, A: Agent<G> + ?Sized>(
    start: &G,
    mut hash: u64,
    agents: [&mut A; 2],
    rngs: &mut [GameRng; 2],
    mut moves: Option<&mut Vec<G::Move>>,
    mut clocks: Option<[crate::clock::Clock; 2]>,
) -> GameEnd {
    let mut game = start.clone();
    loop {
        if let Some(outcome) = game.outcome() {
            return GameEnd {
                outcome,
                hash,
                forfeit: None,
            };
        }
        let side = game.to_move();
        let (agent, rng) = (&mut *agents[side.index()], &mut rngs[side.index()]);
        let chosen = match &mut clocks {
            None => agent.try_choose(&game, rng),
            Some(clocks) => on_the_clock(&mut clocks[side.index()], &game, agent, rng),
        };
        let mv = match chosen {
            Ok(mv) => mv,
            Err(forfeit) => return forfeited(side, hash, forfeit),
        };
        hash = hash_move(hash, G::move_code(mv));
        if let Some(list) = moves.as_deref_mut() {
            list.push(mv);
        }
        game.play_unchecked(mv);
    }
}

/// `agent`'s move within its share of `clock`, the clock charged for it; a forfeit when
/// the time ran out during it. Cold, though called at every move of a match on a clock:
/// the loop without one, which plays the fast AIs' matches, stays as tight as it was,
/// and a clocked move reads the time twice anyway.
#[cold]
fn on_the_clock<G: Game, A: Agent<G> + ?Sized>(
    clock: &mut crate::clock::Clock,
    game: &G,
    agent: &mut A,
    rng: &mut GameRng,
) -> Result<G::Move, Box<Forfeit>> {
    clock.brief(agent, game);
    let (left, _) = clock.reading();
    let started = std::time::Instant::now();
    let mv = agent.try_choose(game, rng)?;
    let took = started.elapsed();
    if clock.spend(took) {
        Ok(mv)
    } else {
        Err(Box::new(Forfeit {
            reason: format!(
                "ran out of time: its move took {took:.1?} with {left:.1?} on its clock"
            ),
            stops_match: false,
        }))
    }
}

/// The end of a game `side` gave up (out of the move loop: it is rare).
#[cold]
fn forfeited(side: Side, hash: u64, forfeit: Box<Forfeit>) -> GameEnd {
    GameEnd {
        outcome: Outcome::Win(side.opponent()),
        hash,
        forfeit: Some(forfeit),
    }
}

/// A game an agent forfeited: which game, which agent (0 for A, 1 for B), and why.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ForfeitNote {
    pub game: u64,
    pub agent: usize,
    pub reason: String,
}

/// The games of one chunk of a match: what [`run_match_live`] reports as they finish.
#[derive(Clone, Debug)]
pub struct ChunkResult<M> {
    /// The chunk's positions in the match's play order: the game indices, or in pairs
    /// ([`LiveOptions::in_pairs`]) the positions [`game_at`] maps to them.
    pub range: std::ops::Range<u64>,
    pub first: Tally,
    pub second: Tally,
    /// The chunk's share of the match digest (digests of chunks add up).
    pub digest: u64,
    /// The chunk's games in play order, when the caller keeps them.
    pub games: Vec<PlayedGame<M>>,
    /// Per side of A: whether the chunk's games were all one game.
    pub sameness: [Sameness; 2],
    /// Every game of the chunk was played (a stopped match ends chunks early; `range`
    /// then holds the games played).
    pub complete: bool,
    /// Games forfeited by A and by B.
    pub forfeits: [u64; 2],
    /// The chunk's first forfeit.
    pub first_forfeit: Option<ForfeitNote>,
    /// A forfeit that stopped the match (the game is not counted).
    pub stopped_by: Option<ForfeitNote>,
}

/// What a chunk adds to a match's result, without its games: what the shards of a match
/// played on a cluster send to the process that prints it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChunkTotals {
    pub first: Tally,
    pub second: Tally,
    pub digest: u64,
    pub sameness: [Sameness; 2],
    pub forfeits: [u64; 2],
    pub first_forfeit: Option<ForfeitNote>,
    pub stopped_by: Option<ForfeitNote>,
}

impl<M> ChunkResult<M> {
    pub fn totals(&self) -> ChunkTotals {
        ChunkTotals {
            first: self.first,
            second: self.second,
            digest: self.digest,
            sameness: self.sameness,
            forfeits: self.forfeits,
            first_forfeit: self.first_forfeit.clone(),
            stopped_by: self.stopped_by.clone(),
        }
    }
}

/// Plays games `range` of the match `cfg` from `openings` (as [`run_match_from`] would,
/// game for game): one shard of a match played on several machines. With `keep_games`,
/// the games come back in index order.
pub fn play_range<G: EngineHooks, A: Agent<G>>(
    a: &AgentFactory<A>,
    b: &AgentFactory<A>,
    cfg: &MatchConfig,
    openings: &[Vec<G::Move>],
    range: std::ops::Range<u64>,
    keep_games: bool,
) -> ChunkResult<G::Move> {
    let live = LiveOptions {
        chunk: 1,
        stop: None,
        keep_games,
        chunk_seconds: None,
        in_pairs: false,
    };
    let _playing = PlayingMatch::enter();
    play_chunk::<G, A>(a, b, cfg, &StreamKey::new(cfg.seed), range, &live, openings)
}

/// Most games per unit of work: enough that making agents and seeking streams is noise.
const CHUNK: u64 = 4096;

/// Games per unit of work for a match of `total` games on `threads` threads (0: all
/// cores): at most [`CHUNK`], and few enough that every thread gets several units, or a
/// short match of slow agents (a few hundred Othello games) would run on one thread.
fn chunk_for(total: u64, threads: usize) -> u64 {
    let threads = if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    };
    (total / (threads as u64 * 8)).clamp(1, CHUNK)
}

fn play_chunk<G: EngineHooks, A: Agent<G>>(
    a: &AgentFactory<A>,
    b: &AgentFactory<A>,
    cfg: &MatchConfig,
    key: &StreamKey,
    range: std::ops::Range<u64>,
    live: &LiveOptions,
    openings: &[Vec<G::Move>],
) -> ChunkResult<G::Move> {
    let (keep_games, stop) = (live.keep_games, live.stop);
    let start = G::start();
    let (mut agent_a, mut agent_b) = (a(), b());
    if let Some(stop) = stop {
        // A long search sees the stop too, not only the loop between games.
        agent_a.set_stop(stop);
        agent_b.set_stop(stop);
    }
    let in_pairs = live.in_pairs;
    let groups = index_ranges(&range, cfg.games_per_side, in_pairs);
    let mut result = ChunkResult {
        range: range.clone(),
        first: Tally::default(),
        second: Tally::default(),
        digest: 0,
        games: Vec::new(),
        sameness: [Sameness::Empty; 2],
        complete: true,
        forfeits: [0; 2],
        first_forfeit: None,
        stopped_by: None,
    };
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    if stopped() {
        result.range.end = result.range.start;
        result.complete = false;
        return result;
    }
    // Per side of A: games won by the first player, by the second, drawn.
    let mut counts = [[0u64; 3]; 2];
    // Records need the moves, which the game's own playout loop does not keep.
    // A clock times every move, which the playout loop does not.
    if !keep_games
        && openings.is_empty()
        && cfg.clock == crate::clock::TimeControl::Unlimited
        && agent_a.is_uniform_random()
        && agent_b.is_uniform_random()
    {
        for group in groups.into_iter().filter(|g| !g.is_empty()) {
            let mut streams = Side::BOTH.map(|side| key.side_stream(side, group.start));
            result.digest = result.digest.wrapping_add(play_by_playouts(
                &start,
                cfg,
                &mut streams,
                group,
                &mut counts,
                &mut result.sameness,
            ));
        }
        result.first = tally_of(counts[0], Side::First);
        result.second = tally_of(counts[1], Side::Second);
        return result;
    }
    // Each group's readers, in its own game order.
    let mut streams = groups
        .clone()
        .map(|group| Side::BOTH.map(|side| key.side_stream(side, group.start)));
    let mut rngs = streams
        .each_mut()
        .map(|pair| [pair[0].next_game(), pair[1].next_game()]);
    let mut fresh = [true; 2];
    for position in range {
        let (index, group) = if in_pairs {
            let index = game_at(position, cfg.games_per_side);
            (index, a_side(index, cfg.games_per_side).index())
        } else {
            (position, 0)
        };
        let side = a_side(index, cfg.games_per_side);
        let rngs = &mut rngs[group];
        // A group's first game's streams came with its readers; later ones are refilled
        // in place.
        if !fresh[group] {
            streams[group][0].refill(&mut rngs[0]);
            streams[group][1].refill(&mut rngs[1]);
        }
        fresh[group] = false;
        let agents: [&mut A; 2] = match side {
            Side::First => [&mut agent_a, &mut agent_b],
            Side::Second => [&mut agent_b, &mut agent_a],
        };
        let mut moves = keep_games.then(Vec::new);
        let clocks = cfg.clock.start().map(|clock| [clock, clock]);
        let end = if openings.is_empty() {
            play_game_from(&start, 0, agents, rngs, moves.as_mut(), clocks)
        } else {
            // The opening's moves are part of the game: its hash, its record.
            let opening = &openings[(index % cfg.games_per_side) as usize % openings.len()];
            let mut from = start.clone();
            let mut hash = 0;
            for &mv in opening {
                from.play_unchecked(mv);
                hash = hash_move(hash, G::move_code(mv));
            }
            if let Some(list) = moves.as_mut() {
                list.extend_from_slice(opening);
            }
            play_game_from(&from, hash, agents, rngs, moves.as_mut(), clocks)
        };
        let (outcome, hash) = (end.outcome, end.hash);
        // Checked after each game, so a stop is seen within one game; the game during
        // which it came may have been cut short, so it does not count.
        if stopped() {
            result.range.end = position;
            result.complete = false;
            break;
        }
        let forfeit = end.forfeit.map(|f| {
            // The loser forfeited: B when A (on `side`) won, else A.
            let agent = usize::from(outcome.winner() == Some(side));
            let note = ForfeitNote {
                game: index,
                agent,
                reason: f.reason,
            };
            (note, f.stops_match)
        });
        if let Some((note, stops_match)) = &forfeit {
            if *stops_match {
                result.range.end = position;
                result.complete = false;
                result.stopped_by = Some(note.clone());
                break;
            }
            result.forfeits[note.agent] += 1;
            result.first_forfeit.get_or_insert_with(|| note.clone());
        }
        counts[side.index()][outcome_code(outcome) as usize - 1] += 1;
        result.sameness[side.index()].add(hash);
        result.digest = result
            .digest
            .wrapping_add(game_digest(index, hash, outcome));
        if let Some(moves) = moves {
            result.games.push(PlayedGame {
                index,
                a_side: side,
                moves,
                outcome,
                forfeit: forfeit.map(|(note, _)| note.reason),
            });
        }
    }
    result.first = tally_of(counts[0], Side::First);
    result.second = tally_of(counts[1], Side::Second);
    result
}

/// A's tally from the games it played as `a_side`, counted as [first player won, second
/// player won, drawn].
fn tally_of([first_won, second_won, drawn]: [u64; 3], a_side: Side) -> Tally {
    let (win, lose) = match a_side {
        Side::First => (first_won, second_won),
        Side::Second => (second_won, first_won),
    };
    Tally {
        win,
        lose,
        draw: drawn,
    }
}

/// Games per call of [`EngineHooks::uniform_playouts`]: enough independent games for the
/// processor to overlap their chains of moves.
pub const PLAYOUT_BATCH: usize = 4;

/// The games of `range` between two uniformly random agents, played by the game's own
/// playout loop [`PLAYOUT_BATCH`] at a time. Counts results into `counts` (per side of A:
/// first player won, second won, drawn) and returns the digest.
fn play_by_playouts<G: EngineHooks>(
    start: &G,
    cfg: &MatchConfig,
    streams: &mut [SideStream; 2],
    range: std::ops::Range<u64>,
    counts: &mut [[u64; 3]; 2],
    sameness: &mut [Sameness; 2],
) -> u64 {
    let mut rngs: [[GameRng; 2]; PLAYOUT_BATCH] =
        std::array::from_fn(|_| [streams[0].next_game(), streams[1].next_game()]);
    let mut results = [(Outcome::Draw, 0u64); PLAYOUT_BATCH];
    let mut digest = 0u64;
    let mut first = range.start;
    while first < range.end {
        let n = (range.end - first).min(PLAYOUT_BATCH as u64) as usize;
        // The first batch's streams came with the readers; later ones are refilled in
        // place, each side's reader in game order.
        if first != range.start {
            for pair in &mut rngs[..n] {
                streams[0].refill(&mut pair[0]);
                streams[1].refill(&mut pair[1]);
            }
        }
        start.uniform_playouts(&mut rngs[..n], &mut results[..n]);
        for (index, &(outcome, hash)) in (first..).zip(&results[..n]) {
            let side = a_side(index, cfg.games_per_side);
            // Indexed rather than matched: outcomes of random games are unpredictable.
            counts[side.index()][outcome_code(outcome) as usize - 1] += 1;
            sameness[side.index()].add(hash);
            digest = digest.wrapping_add(game_digest(index, hash, outcome));
        }
        first += n as u64;
    }
    digest
}

/// Plays the match. `progress` is called with the number of games after each chunk;
/// with `keep_games` the games come back in index order (the caller's records).
pub fn run_match<G: EngineHooks, A: Agent<G>>(
    a: &AgentFactory<A>,
    b: &AgentFactory<A>,
    cfg: &MatchConfig,
    progress: &(dyn Fn(u64) + Sync),
    keep_games: bool,
) -> (MatchResult, Vec<PlayedGame<G::Move>>) {
    let live = LiveOptions::for_match(cfg, keep_games);
    let report = |chunk: &ChunkResult<G::Move>| progress(chunk.range.end - chunk.range.start);
    let mut games = Vec::new();
    let (result, _) = run_match_live::<G, A>(a, b, cfg, &live, &report, &mut |chunk| {
        games.extend(chunk);
        true
    });
    (result, games)
}

/// How [`run_match_live`] reports and stops.
#[derive(Clone, Copy, Debug)]
pub struct LiveOptions<'a> {
    /// Games per report (at least 1). Smaller chunks report more often; results and
    /// digest do not depend on it.
    pub chunk: u64,
    /// When set, every game under way is the last of its chunk; the match returns the
    /// games played before the first one that was not.
    pub stop: Option<&'a StopFlag>,
    /// Keep every game's moves (in the reports and the ones handed to `on_games`).
    pub keep_games: bool,
    /// Resize chunks as the match goes so that one takes about this many seconds (from
    /// `chunk` games at first): slow games are then reported, and stopped, soon.
    pub chunk_seconds: Option<f64>,
    /// Play the games in pairs, A first then A second ([`game_at`]), rather than in index
    /// order (every game with A first, then every game with A second): a match watched and
    /// stopped part way has then played both colours alike. The games come to `on_games`
    /// in that order; played to the end the match is the same. Records files keep index
    /// order (the articles' CSV has no index but its line).
    pub in_pairs: bool,
}

impl LiveOptions<'_> {
    /// Chunks sized for `cfg`'s games and threads, no stop, fixed sizes.
    pub fn for_match(cfg: &MatchConfig, keep_games: bool) -> Self {
        LiveOptions {
            chunk: chunk_for(cfg.games_per_side.saturating_mul(2), cfg.threads),
            stop: None,
            keep_games,
            chunk_seconds: None,
            in_pairs: false,
        }
    }
}

/// Chunks in flight per worker thread: enough to keep threads busy while one chunk runs
/// long, few enough that the games waiting to be handed on in order stay few.
const CHUNKS_PER_THREAD_IN_FLIGHT: u64 = 4;

/// Plays the match, handing each finished chunk to `on_chunk` (from worker threads, in
/// no particular order, to watch it) and the games in play order (index order unless
/// [`LiveOptions::in_pairs`]) to `on_games` (on the calling thread, a window of chunks at a time, to record them as they finish; only
/// kept games, so none without `keep_games`). Memory stays bounded by the window however
/// long the match. When `on_games` returns false (it could not record them), the match
/// stops there.
///
/// Returns the result over the games played — all of them, or after a stop those before
/// the first game that was not — and whether it was cut short.
pub fn run_match_live<G: EngineHooks, A: Agent<G>>(
    a: &AgentFactory<A>,
    b: &AgentFactory<A>,
    cfg: &MatchConfig,
    live: &LiveOptions,
    on_chunk: &(dyn Fn(&ChunkResult<G::Move>) + Sync),
    on_games: &mut dyn FnMut(Vec<PlayedGame<G::Move>>) -> bool,
) -> (MatchResult, bool) {
    // Made once, before any game; callers check them first with [`openings`].
    let openings = if cfg.opening_plies > 0 {
        openings::<G>(cfg.games_per_side, cfg.opening_plies, cfg.seed)
            .expect("openings are checked before the match")
    } else {
        Vec::new()
    };
    run_match_from::<G, A>(a, b, cfg, &openings, live, on_chunk, on_games)
}

/// [`run_match_live`] from given openings (say from a file; see [`read_openings`]) rather
/// than the random ones `cfg.opening_plies` asks for: game `i` starts from opening
/// `i mod games_per_side` (modulo their number), so with as many openings as games per
/// side each is played once with each AI first. No openings: every game from the start.
pub fn run_match_from<G: EngineHooks, A: Agent<G>>(
    a: &AgentFactory<A>,
    b: &AgentFactory<A>,
    cfg: &MatchConfig,
    openings: &[Vec<G::Move>],
    live: &LiveOptions,
    on_chunk: &(dyn Fn(&ChunkResult<G::Move>) + Sync),
    on_games: &mut dyn FnMut(Vec<PlayedGame<G::Move>>) -> bool,
) -> (MatchResult, bool) {
    let key = StreamKey::new(cfg.seed);
    let total = cfg.games_per_side.saturating_mul(2);
    let run = |range: std::ops::Range<u64>| {
        let _playing = PlayingMatch::enter();
        let r = play_chunk::<G, A>(a, b, cfg, &key, range, live, openings);
        on_chunk(&r);
        r
    };
    let mut out = MatchResult::new();
    // Runs on the caller's pool (rayon's global one unless it installed another), or on
    // a pool of `cfg.threads` threads.
    let own_pool = (cfg.threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(cfg.threads)
                .build()
                .ok()
        })
        .flatten();
    let pool = own_pool.as_ref();
    let threads = match (pool, cfg.threads) {
        (Some(pool), _) => pool.current_num_threads(),
        (None, 1) => 1,
        (None, _) => rayon::current_num_threads(),
    } as u64;
    let window = (threads * CHUNKS_PER_THREAD_IN_FLIGHT).max(1);
    // In pairs, every chunk holds whole pairs (an even size from an even position): the
    // chunks a stopped match counts have played both colours alike.
    let paired = |size: u64| {
        if live.in_pairs {
            size.max(2).next_multiple_of(2)
        } else {
            size.max(1)
        }
    };
    let mut size = paired(live.chunk);
    let mut next = 0;
    while next < total {
        let ranges: Vec<_> = (0..window)
            .map(|i| next.saturating_add(i.saturating_mul(size)))
            .take_while(|&start| start < total)
            .map(|start| start..start.saturating_add(size).min(total))
            .collect();
        let began = std::time::Instant::now();
        let played = ranges.last().map_or(0, |r| r.end) - next;
        next += played;
        let results: Vec<ChunkResult<G::Move>> = match pool {
            Some(pool) => pool.install(|| ranges.into_par_iter().map(run).collect()),
            None if threads == 1 => ranges.into_iter().map(run).collect(),
            None => ranges.into_par_iter().map(run).collect(),
        };
        if let Some(target) = live.chunk_seconds {
            let per_game = began.elapsed().as_secs_f64() * threads as f64 / played.max(1) as f64;
            // At most eight times larger at a step: one quick window must not make the
            // next one's chunks huge.
            size = paired(((target / per_game.max(1e-9)) as u64).clamp(1, (size * 8).min(CHUNK)));
        }
        let mut games = Vec::new();
        for r in results {
            out.add(&r.totals());
            games.extend(r.games);
            if r.stopped_by.is_some() {
                on_games(games);
                return (out, true);
            }
            if !r.complete {
                on_games(games);
                return (out, true);
            }
        }
        if !on_games(games) {
            return (out, true);
        }
    }
    (out, false)
}

/// Probabilities of A's results.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Probabilities {
    pub win: f64,
    pub lose: f64,
    pub draw: f64,
}

impl Probabilities {
    pub fn as_array(&self) -> [f64; 3] {
        [self.win, self.lose, self.draw]
    }
}

/// The exact result of a match: A's result probabilities moving first and second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactResult {
    pub first: Probabilities,
    pub second: Probabilities,
}

impl ExactResult {
    /// Both halves together, as a match with equal games on each side.
    pub fn total(&self) -> Probabilities {
        Probabilities {
            win: (self.first.win + self.second.win) / 2.0,
            lose: (self.first.lose + self.second.lose) / 2.0,
            draw: (self.first.draw + self.second.draw) / 2.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ExactError {
    #[error(
        "{0} has no fixed move distribution, so the exact mode cannot use it; play sampled games instead"
    )]
    NoPolicy(String),
    #[error(
        "the exact mode visits every reachable position, and {0} has too many (it is for games as small as tic-tac-toe): play sampled games instead"
    )]
    TreeTooLarge(&'static str),
}

/// Outcome probabilities [first wins, second wins, draw] under `agents`, memoised by
/// position key. Exact as long as each agent's distribution depends only on the position,
/// as it does for every tic-tac-toe AI of the catalogue.
fn outcome_distribution<G: EngineHooks>(
    game: &mut G,
    agents: &mut [&mut dyn Agent<G>; 2],
    names: [&str; 2],
    memo: &mut HashMap<u64, [f64; 3]>,
) -> Result<[f64; 3], ExactError> {
    if let Some(outcome) = game.outcome() {
        return Ok(match outcome {
            Outcome::Win(Side::First) => [1.0, 0.0, 0.0],
            Outcome::Win(Side::Second) => [0.0, 1.0, 0.0],
            Outcome::Draw => [0.0, 0.0, 1.0],
        });
    }
    if let Some(p) = memo.get(&game.key()) {
        return Ok(*p);
    }
    let side = game.to_move().index();
    let policy = agents[side]
        .policy(game)
        .ok_or_else(|| ExactError::NoPolicy(names[side].to_string()))?;
    let mut total = [0.0; 3];
    for &(mv, p) in policy.entries() {
        game.play_unchecked(mv);
        let child = outcome_distribution(game, agents, names, memo)?;
        game.undo();
        for (t, c) in total.iter_mut().zip(child) {
            *t += p * c;
        }
    }
    memo.insert(game.key(), total);
    Ok(total)
}

/// The exact result of A against B from the start position, both ways round.
pub fn exact_match<G: EngineHooks>(
    a: &mut dyn Agent<G>,
    b: &mut dyn Agent<G>,
    names: [&str; 2],
) -> Result<ExactResult, ExactError> {
    if !G::TREE_FITS_IN_MEMORY {
        return Err(ExactError::TreeTooLarge(G::NAME));
    }
    let [a_name, b_name] = names;
    let first = {
        let mut agents: [&mut dyn Agent<G>; 2] = [&mut *a, &mut *b];
        let [w, l, d] = outcome_distribution(
            &mut G::start(),
            &mut agents,
            [a_name, b_name],
            &mut HashMap::new(),
        )?;
        Probabilities {
            win: w,
            lose: l,
            draw: d,
        }
    };
    let second = {
        let mut agents: [&mut dyn Agent<G>; 2] = [&mut *b, &mut *a];
        let [w, l, d] = outcome_distribution(
            &mut G::start(),
            &mut agents,
            [b_name, a_name],
            &mut HashMap::new(),
        )?;
        Probabilities {
            win: l,
            lose: w,
            draw: d,
        }
    };
    Ok(ExactResult { first, second })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_matches_are_split_for_every_thread() {
        // 400 slow games on 2 threads: 25-game units, not one unit of 400.
        assert_eq!(chunk_for(400, 2), 25);
        assert_eq!(chunk_for(3, 4), 1);
        assert_eq!(chunk_for(100_000_000, 2), CHUNK);
        assert!(chunk_for(1_000, 0) >= 1);
    }
}
