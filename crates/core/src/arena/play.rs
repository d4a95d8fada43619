//! The play loop: games by index with their seeded streams, chunked over worker threads,
//! on a clock or not, played in order or in pairs, with digests that do not depend on the
//! number of threads.

use std::sync::atomic::Ordering;

use super::openings::openings;
use super::report::{ChunkTotals, ForfeitNote, MatchResult, Sameness, Tally};
use crate::record::PlayedGame;
use crate::{
    Agent, EngineHooks, Forfeit, Game, GameRng, Outcome, Side, SideStream, StopFlag, StreamKey,
    mix64,
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

/// The first game where a game's own playout and the plain loop part
/// ([`check_uniform_playout`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "game {game} of seed {seed} from\n{start}\nplayout gave {single}, in a batch of {batch} {batched}, the plain loop {plain}"
)]
pub struct PlayoutMismatch {
    pub game: u64,
    pub seed: u64,
    /// The position the games start from, as the game displays it.
    pub start: String,
    pub batch: usize,
    /// The game's end (outcome and move hash) played alone, in the batch and by the loop.
    pub single: String,
    pub batched: String,
    pub plain: String,
}

/// Checks a game's own [`EngineHooks::uniform_playout`] against the plain loop on `games`
/// games from `start` with the streams of `seed`: the same outcomes and move hashes, and
/// the same random words used. Returns the first game that differs.
pub fn check_uniform_playout<G: EngineHooks>(
    start: &G,
    seed: u64,
    games: u64,
) -> Result<(), PlayoutMismatch> {
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
                return Err(PlayoutMismatch {
                    game,
                    seed,
                    start: start.to_string(),
                    batch: n,
                    single: format!("{single:?}"),
                    batched: format!("{result:?}"),
                    plain: format!("{want:?}"),
                });
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

/// [`run_match_live`] from given openings (say from a file; see [`read_openings`](super::read_openings)) rather
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
    let played = run_matches_from::<G, A>(
        &[(a, b)],
        cfg,
        openings,
        live,
        &|_, chunk| on_chunk(chunk),
        on_games,
    );
    played
        .into_iter()
        .next()
        .unwrap_or_else(|| (MatchResult::new(), false))
}

/// Plays the matches of `matches` (each a pair of factories, A then B), each as
/// [`run_match_from`] plays one, as one stream of chunks: a thread that finishes its
/// share of one match goes on to the next instead of waiting for the match's slowest
/// chunk. `on_chunk` hears each finished chunk with its match's place in `matches`;
/// `on_games` has the kept games in play order, match after match.
///
/// Returns each match's result and whether it was cut short. A forfeit that stops a match
/// (an agent that cannot go on) ends that match only; a stop, or `on_games` returning
/// false, ends them all, and the list then ends with the match it ended.
pub fn run_matches_from<G: EngineHooks, A: Agent<G>>(
    matches: &[(&AgentFactory<A>, &AgentFactory<A>)],
    cfg: &MatchConfig,
    openings: &[Vec<G::Move>],
    live: &LiveOptions,
    on_chunk: &(dyn Fn(usize, &ChunkResult<G::Move>) + Sync),
    on_games: &mut dyn FnMut(Vec<PlayedGame<G::Move>>) -> bool,
) -> Vec<(MatchResult, bool)> {
    let key = StreamKey::new(cfg.seed);
    let games_a_match = cfg.games_per_side.saturating_mul(2);
    let total = games_a_match.saturating_mul(matches.len() as u64);
    // A chunk of the stream, within one match: that match's place, its own chunk, and
    // the time it took.
    let run = |range: std::ops::Range<u64>| {
        let began = std::time::Instant::now();
        let _playing = PlayingMatch::enter();
        let k = range.start / games_a_match;
        let start = k * games_a_match;
        let (a, b) = matches[k as usize];
        let r = play_chunk::<G, A>(
            a,
            b,
            cfg,
            &key,
            range.start - start..range.end - start,
            live,
            openings,
        );
        on_chunk(k as usize, &r);
        (k as usize, r, began.elapsed())
    };
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
    let dealer = Dealer::new(total, games_a_match, paired(live.chunk), window);
    let mut played: Vec<(MatchResult, bool)> = matches
        .iter()
        .map(|_| (MatchResult::new(), false))
        .collect();
    // The games of the chunks handed on since `on_games` last had them, and how many.
    let (mut games, mut chunks) = (Vec::new(), 0);
    // Hands on each finished chunk, in stream order: whether the stream goes on.
    let mut deliver = |k: usize, r: ChunkResult<G::Move>, took: std::time::Duration| {
        if played[k].1 {
            // The rest of a match a forfeit stopped: played, not counted.
            return true;
        }
        if let Some(target) = live.chunk_seconds {
            let per_game = took.as_secs_f64() / (r.range.end - r.range.start).max(1) as f64;
            // At most eight times larger at a step: one quick chunk must not make the
            // next ones huge.
            dealer.resize(|size| {
                paired(((target / per_game.max(1e-9)) as u64).clamp(1, (size * 8).min(CHUNK)))
            });
        }
        played[k].0.add(&r.totals());
        games.extend(r.games);
        chunks += 1;
        // Stopped (the chunk ended early, and not by a forfeit): the end of every match.
        let stopped = !r.complete && r.stopped_by.is_none();
        let forfeited = r.stopped_by.is_some();
        if forfeited {
            played[k].1 = true;
            dealer.skip_match(k as u64);
        }
        // A window's worth at a time, and the last chunks however few.
        let last = k + 1 == matches.len() && r.range.end == games_a_match;
        if chunks == window || last || forfeited || stopped {
            chunks = 0;
            if !on_games(std::mem::take(&mut games)) || stopped {
                played[k].1 = true;
                played.truncate(k + 1);
                return false;
            }
        }
        true
    };
    if threads <= 1 && pool.is_none() {
        while let Some((_, range)) = dealer.deal() {
            let (k, r, took) = run(range);
            dealer.delivered_one();
            if !deliver(k, r, took) {
                break;
            }
        }
    } else {
        // Each thread takes the next chunk as soon as it is free (no thread waits for a
        // slow chunk of another's, as a match of slow agents' games of very different
        // lengths would), at most `window` chunks ahead of the first not yet handed on.
        let (sender, results) = std::sync::mpsc::channel();
        in_scope(pool, |scope| {
            for _ in 0..threads {
                let sender = sender.clone();
                let (dealer, run) = (&dealer, &run);
                scope.spawn(move |_| {
                    // Taken up by a thread while it waits inside a chunk of this match
                    // (an agent's own parallel work), a worker leaves the chunks to the
                    // others: waiting here for the window could be waiting on the very
                    // chunk it interrupted.
                    if inside_match() {
                        return;
                    }
                    while let Some((seq, range)) = dealer.deal() {
                        if sender.send((seq, run(range))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(sender);
            let mut waiting = std::collections::BTreeMap::new();
            let mut stopped = false;
            for (seq, result) in results.iter() {
                if stopped {
                    // Chunks under way when the stream stopped: played, not counted.
                    continue;
                }
                waiting.insert(seq, result);
                while let Some((k, r, took)) = waiting.remove(&dealer.delivered()) {
                    dealer.delivered_one();
                    if !deliver(k, r, took) {
                        stopped = true;
                        dealer.close();
                        waiting.clear();
                        break;
                    }
                }
            }
        });
    }
    played
}

/// Runs `op` on this thread with a scope whose tasks run on `pool`, or on the pool this
/// thread is in (rayon's global one if none).
fn in_scope<'scope, R>(
    pool: Option<&rayon::ThreadPool>,
    op: impl FnOnce(&rayon::Scope<'scope>) -> R,
) -> R {
    match pool {
        Some(pool) => pool.in_place_scope(op),
        None => rayon::in_place_scope(op),
    }
}

/// Deals a match's chunks to its threads: the next range of games each time one asks,
/// never more than `window` chunks ahead of the first not yet handed on (so the games
/// waiting to be handed on in order stay few), until the games run out or the match is
/// closed.
struct Dealer {
    state: std::sync::Mutex<Dealt>,
    handed_on: std::sync::Condvar,
    total: u64,
    /// No chunk spans a multiple of this: the games of one match of the stream.
    games_a_match: u64,
    window: u64,
}

struct Dealt {
    /// The first game not dealt yet.
    next: u64,
    /// Games a chunk.
    size: u64,
    /// Chunks dealt, and chunks handed on in order.
    dealt: u64,
    delivered: u64,
    closed: bool,
}

impl Dealer {
    fn new(total: u64, games_a_match: u64, size: u64, window: u64) -> Dealer {
        Dealer {
            state: std::sync::Mutex::new(Dealt {
                next: 0,
                size,
                dealt: 0,
                delivered: 0,
                closed: false,
            }),
            handed_on: std::sync::Condvar::new(),
            total,
            games_a_match: games_a_match.max(1),
            window,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Dealt> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next chunk (its place in the order and its games), waiting while the window is
    /// full; `None` once every game is dealt or the match is closed.
    fn deal(&self) -> Option<(u64, std::ops::Range<u64>)> {
        let mut d = self.lock();
        while !d.closed && d.next < self.total && d.dealt >= d.delivered + self.window {
            d = self.handed_on.wait(d).unwrap_or_else(|e| e.into_inner());
        }
        if d.closed || d.next >= self.total {
            return None;
        }
        let match_end = (d.next / self.games_a_match + 1).saturating_mul(self.games_a_match);
        let range = d.next..d.next.saturating_add(d.size).min(match_end).min(self.total);
        let seq = d.dealt;
        d.next = range.end;
        d.dealt += 1;
        Some((seq, range))
    }

    /// Chunks handed on so far: the place of the next one to hand on.
    fn delivered(&self) -> u64 {
        self.lock().delivered
    }

    /// One more chunk handed on: the window moves along.
    fn delivered_one(&self) {
        self.lock().delivered += 1;
        self.handed_on.notify_all();
    }

    /// Sizes the chunks dealt from now on.
    fn resize(&self, size: impl FnOnce(u64) -> u64) {
        let mut d = self.lock();
        d.size = size(d.size);
    }

    /// Deals none of the games of match `k` not dealt yet.
    fn skip_match(&self, k: u64) {
        let mut d = self.lock();
        d.next = d.next.max((k + 1).saturating_mul(self.games_a_match));
    }

    /// Deals no more chunks.
    fn close(&self) {
        self.lock().closed = true;
        self.handed_on.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dealer_slides_its_window_chunk_by_chunk() {
        let dealer = Dealer::new(10, 10, 2, 3);
        let dealt: Vec<_> = (0..3).map_while(|_| dealer.deal()).collect();
        assert_eq!(dealt, [(0, 0..2), (1, 2..4), (2, 4..6)]);
        // The window is full until the first chunk is handed on; then one more is dealt,
        // without waiting for the others of its window (a slow chunk holds back only the
        // chunks more than a window after it).
        dealer.delivered_one();
        assert_eq!(dealer.deal(), Some((3, 6..8)));
        dealer.resize(|size| size * 4);
        dealer.delivered_one();
        assert_eq!(
            dealer.deal(),
            Some((4, 8..10)),
            "the last chunk ends with the games"
        );
        assert_eq!(dealer.deal(), None, "every game dealt");
        let closed = Dealer::new(10, 10, 2, 3);
        closed.close();
        assert_eq!(closed.deal(), None);
    }

    #[test]
    fn short_matches_are_split_for_every_thread() {
        // 400 slow games on 2 threads: 25-game units, not one unit of 400.
        assert_eq!(chunk_for(400, 2), 25);
        assert_eq!(chunk_for(3, 4), 1);
        assert_eq!(chunk_for(100_000_000, 2), CHUNK);
        assert!(chunk_for(1_000, 0) >= 1);
    }
}
