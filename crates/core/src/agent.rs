use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::{Game, GameRng, Outcome, Side};

/// A request from outside to stop: a stopped run, a page that went away. Searches that
/// see it return what they have at once; the caller throws that move away.
pub type StopFlag = Arc<AtomicBool>;

/// When a search must end before its depth: a time limit, or a [`StopFlag`].
#[derive(Clone, Debug, Default)]
pub struct Cutoff {
    deadline: Option<Instant>,
    stop: Option<StopFlag>,
}

impl Cutoff {
    pub fn new(deadline: Option<Instant>, stop: Option<StopFlag>) -> Cutoff {
        Cutoff { deadline, stop }
    }

    /// Whether the search must end now. Costs a clock read with a deadline: call it every
    /// thousand nodes or so.
    pub fn reached(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A stop flag raised when a deadline passes or another flag is raised: for searches
/// that check a flag but read no clock in their hot loop (the Othello exact solver).
/// Dropping it ends its thread at once.
pub struct Watchdog {
    flag: StopFlag,
    done: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    /// A flag raised at `deadline` or soon after `outer` is (it is looked at every 20
    /// ms: a person's Ctrl-C or a page that went away need no more); raised already when
    /// either is. Without a deadline the flag is `outer` itself and no thread is started.
    pub fn start(outer: Option<&StopFlag>, deadline: Option<Instant>) -> Watchdog {
        use std::sync::mpsc::RecvTimeoutError;
        let Some(deadline) = deadline else {
            return Watchdog {
                flag: outer.cloned().unwrap_or_default(),
                done: None,
                thread: None,
            };
        };
        let flag = StopFlag::default();
        if Instant::now() >= deadline || outer.is_some_and(|s| s.load(Ordering::Relaxed)) {
            flag.store(true, Ordering::Relaxed);
            return Watchdog {
                flag,
                done: None,
                thread: None,
            };
        }
        let (done, finished) = std::sync::mpsc::channel::<()>();
        let (raise, outer) = (flag.clone(), outer.cloned());
        let tick = std::time::Duration::from_millis(20);
        let thread = std::thread::spawn(move || {
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                let raised = outer.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
                if left.is_zero() || raised {
                    raise.store(true, Ordering::Relaxed);
                    return;
                }
                match finished.recv_timeout(left.min(tick)) {
                    Err(RecvTimeoutError::Timeout) => {}
                    _ => return,
                }
            }
        });
        Watchdog {
            flag,
            done: Some(done),
            thread: Some(thread),
        }
    }

    /// The flag to hand to the search.
    pub fn flag(&self) -> &StopFlag {
        &self.flag
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        drop(self.done.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// An agent that gave up a game: a program outside gamelab that crashed, stalled, or
/// answered something that is not a legal move. The arena scores the game as a loss for
/// it, with the reason in its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    pub reason: String,
    /// The agent was told to stop the whole match at a failure rather than lose the game
    /// and play on.
    pub stops_match: bool,
}

/// What the agent's last search did, for front ends that show it (NBoard's `nodestats`,
/// the web app's status line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchStats<M> {
    pub nodes: u64,
    /// Plies searched (for an exact endgame search, the empty squares).
    pub depth: u32,
    /// Whether the value is exact (the game solved from there).
    pub exact: bool,
    /// The line it expects, its move first.
    pub pv: Vec<M>,
    /// The move came from an opening book, not a search: the games that reached the
    /// position (`depth` is then the depth of the book's own searches).
    pub book_games: Option<u64>,
}

/// A move's value at one step of a deepening analysis ([`Agent::deepen_move_scores`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DeepScore<M> {
    pub mv: M,
    /// For the side to move, in the agent's units, as [`Agent::move_scores`] gives it.
    pub score: f64,
    /// The search under this move reached the end of the game everywhere: the value is
    /// the game's, and deeper steps keep it.
    pub exact: bool,
    /// The line the search expects, this move first (only the move for agents that
    /// keep no line).
    pub line: Vec<M>,
    /// The level this value comes from: the step's, or the next for a move that a step
    /// cut short by time had valued already ([`deepen_by_moves`]); `None` for a move not
    /// valued at any level yet, or an agent that values moves once.
    pub level: Option<u32>,
}

impl<M: Copy> DeepScore<M> {
    /// A move's value as an agent that values moves once gives it: no level, the line the
    /// move alone.
    pub fn valued(mv: M, score: f64, exact: bool) -> DeepScore<M> {
        DeepScore {
            mv,
            score,
            exact,
            line: vec![mv],
            level: None,
        }
    }
}

/// One step of a deepening analysis: every legal move valued at one level.
#[derive(Clone, Debug, PartialEq)]
pub struct Deepening<M> {
    /// The agent's level for this step (for Othello's engine, what `level=N` would say);
    /// `None` for an agent that values the moves once, as it is set.
    pub level: Option<u32>,
    pub scores: Vec<DeepScore<M>>,
    /// Positions searched over every step so far, for agents that count them.
    pub nodes: Option<u64>,
}

impl<M> Deepening<M> {
    /// Whether `score` comes from a level past this step's: a move that the level the
    /// time cut short had valued ([`deepen_by_moves`]).
    pub fn is_ahead(&self, score: &DeepScore<M>) -> bool {
        score.level > self.level
    }

    /// The moves of this step valued past its level (see [`Deepening::is_ahead`]).
    pub fn ahead(&self) -> impl Iterator<Item = &DeepScore<M>> {
        self.scores.iter().filter(|s| self.is_ahead(s))
    }
}

impl<M: Copy> Deepening<M> {
    /// The start of an agent's deepening: `moves` not valued yet (score 0, not exact,
    /// each line the move alone), no level done, no positions searched.
    pub fn unvalued(moves: impl IntoIterator<Item = M>) -> Deepening<M> {
        Deepening {
            level: None,
            scores: moves
                .into_iter()
                .map(|mv| DeepScore {
                    mv,
                    score: 0.0,
                    exact: false,
                    line: vec![mv],
                    level: None,
                })
                .collect(),
            nodes: Some(0),
        }
    }
}

/// One move's value at one level, as an agent that searches each move on its own finds
/// it ([`deepen_by_moves`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue<M> {
    pub score: f64,
    pub exact: bool,
    /// The move, then the line its search expects.
    pub line: Vec<M>,
    /// Positions its search visited.
    pub nodes: u64,
}

impl<M> MoveValue<M> {
    /// This value as move `mv`'s, valued once (no level).
    pub fn of_move(self, mv: M) -> DeepScore<M> {
        DeepScore {
            mv,
            score: self.score,
            exact: self.exact,
            line: self.line,
            level: None,
        }
    }
}

/// The deepening of an agent that values each move by a search of its own: at levels 1
/// to `deepest`, every move not yet exact is valued by `value(move, level)`, the best of
/// the level before first, then the level is reported; until every value is exact, the
/// deepest level, or `report` breaks. When `value` gives `None` (stopped) after a level
/// was done, the moves the level under way had valued are reported once more, at their
/// own level, the step's still the last one done: at 30 empties a level can take longer
/// than a whole analysis is given, and its first moves, the likeliest best, are worth
/// seeing.
pub fn deepen_by_moves<M: Copy>(
    moves: impl IntoIterator<Item = M>,
    deepest: u32,
    value: &mut dyn FnMut(M, u32) -> Option<MoveValue<M>>,
    report: &mut dyn FnMut(&Deepening<M>) -> ControlFlow<()>,
) -> DeepeningEnd {
    let mut step = Deepening::unvalued(moves);
    for level in 1..=deepest {
        let mut order: Vec<usize> = (0..step.scores.len())
            .filter(|&i| !step.scores[i].exact)
            .collect();
        order.sort_by(|&a, &b| step.scores[b].score.total_cmp(&step.scores[a].score));
        for (valued, i) in order.into_iter().enumerate() {
            let scored = &mut step.scores[i];
            let Some(found) = value(scored.mv, level) else {
                if valued > 0 && step.level.is_some() {
                    let _ = report(&step);
                }
                return DeepeningEnd::Stopped;
            };
            scored.score = found.score;
            scored.exact = found.exact;
            scored.line = found.line;
            scored.level = Some(level);
            *step.nodes.as_mut().expect("counted") += found.nodes;
        }
        step.level = Some(level);
        if report(&step).is_break() {
            return DeepeningEnd::Declined;
        }
        if step.scores.iter().all(|s| s.exact) {
            return DeepeningEnd::Exact;
        }
    }
    DeepeningEnd::Deepest
}

/// `agent`'s [`Agent::deepen_move_scores`] of `game` within `time`, ended sooner when
/// `stop` is raised: the analysis a front end asks for (`gamelab analyse --time`,
/// Python's `deepen(time_limit=)`). The time is the agent's own when it takes one
/// ([`Agent::set_move_time`]), so that its first level always completes, else a deadline
/// that stops it from outside. The agent's move time and stop are cleared afterwards.
pub fn deepen_within<G: Game, A: Agent<G> + ?Sized>(
    agent: &mut A,
    game: &G,
    time: Option<std::time::Duration>,
    stop: &StopFlag,
    report: &mut dyn FnMut(&Deepening<G::Move>) -> ControlFlow<()>,
) -> Option<DeepeningEnd> {
    let own_time = time.is_some_and(|t| agent.set_move_time(Some(t)));
    let deadline = time.filter(|_| !own_time).map(|t| Instant::now() + t);
    let watchdog = Watchdog::start(Some(stop), deadline);
    agent.set_stop(watchdog.flag());
    let end = agent.deepen_move_scores(game, report);
    if own_time {
        agent.set_move_time(None);
    }
    agent.set_stop(&StopFlag::default());
    end
}

/// Why a deepening analysis ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeepeningEnd {
    /// Every move's value is exact: no deeper step can change it.
    Exact,
    /// The agent searches no further: its deepest level, or its search proved the
    /// position's value and stops there (MCTS).
    Deepest,
    /// Its stop flag or its own time limit ended it; the step under way was dropped, or
    /// reported with the moves it had valued.
    Stopped,
    /// The caller's report asked for no more steps.
    Declined,
}

impl DeepeningEnd {
    /// Why it ended, in words, for front ends.
    pub fn describe(self) -> &'static str {
        match self {
            DeepeningEnd::Exact => "every move's value is exact",
            DeepeningEnd::Deepest => "the AI searches no further",
            DeepeningEnd::Stopped => "stopped",
            DeepeningEnd::Declined => "no more steps were asked for",
        }
    }
}

/// The probability distribution an agent draws its move from in one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy<M> {
    entries: Vec<(M, f64)>,
}

impl<M: Copy> Policy<M> {
    /// Each of `moves` with probability 1/len. `moves` must not be empty.
    pub fn uniform(moves: &[M]) -> Self {
        assert!(!moves.is_empty(), "a policy needs at least one move");
        let p = 1.0 / moves.len() as f64;
        Policy {
            entries: moves.iter().map(|&m| (m, p)).collect(),
        }
    }

    /// A distribution given move by move; the probabilities must be positive and sum to 1.
    pub fn from_weighted(entries: Vec<(M, f64)>) -> Self {
        let total: f64 = entries.iter().map(|(_, p)| p).sum();
        assert!(
            entries.iter().all(|(_, p)| *p > 0.0) && (total - 1.0).abs() < 1e-9,
            "policy probabilities must be positive and sum to 1 (sum {total})"
        );
        Policy { entries }
    }

    pub fn entries(&self) -> &[(M, f64)] {
        &self.entries
    }

    pub fn moves(&self) -> impl Iterator<Item = M> + '_ {
        self.entries.iter().map(|&(m, _)| m)
    }
}

/// Something that picks moves: a rule, a search, a learned model.
///
/// Agents never see a match; their only source of randomness is the stream they are handed,
/// which makes every game reproducible from its seed.
pub trait Agent<G: Game>: Send {
    /// Picks a move in a position where the game is not over.
    fn choose(&mut self, game: &G, rng: &mut GameRng) -> G::Move;

    /// [`Agent::choose`] for agents that can fail (an external program): the move, or
    /// the agent's forfeit of the game. The arena and play sessions call this; an agent
    /// that cannot fail keeps the default. Such an agent's `choose` must still return a
    /// legal move when it fails, for callers that cannot take a forfeit.
    ///
    /// The forfeit is boxed so that the common answer, a move, stays as small as the move
    /// itself: this is called at every move of every match.
    fn try_choose(&mut self, game: &G, rng: &mut GameRng) -> Result<G::Move, Box<Forfeit>> {
        Ok(self.choose(game, rng))
    }

    /// The distribution `choose` draws from, for agents that have one. It lets an exact
    /// match compute result probabilities as an expectation over the game tree instead of
    /// sampling. `None` for agents whose choice is not a fixed distribution (e.g. those
    /// under a time limit).
    fn policy(&mut self, game: &G) -> Option<Policy<G::Move>> {
        let _ = game;
        None
    }

    /// A human-readable account of how the agent decides here (the articles' debug trace),
    /// for agents that can give one.
    fn explain(&mut self, game: &G) -> Option<String> {
        let _ = game;
        None
    }

    /// The agent's score for each legal move, for agents that score moves: for the side to
    /// move, higher better, 0 even, so that a score for one side is the negated score for
    /// the other (the analysis graph and the evaluation bar rely on it).
    fn move_scores(&mut self, game: &G) -> Option<Vec<(G::Move, f64)>> {
        let _ = game;
        None
    }

    /// [`Agent::move_scores`] with what the agent knows of each value: whether it is
    /// exact (the game's, as a solver or a search to the end found it) and the line it
    /// expects, the move first. The default marks every value an estimate.
    fn move_values(&mut self, game: &G) -> Option<Vec<DeepScore<G::Move>>> {
        let scores = self.move_scores(game)?;
        Some(
            scores
                .into_iter()
                .map(|(mv, score)| DeepScore::valued(mv, score, false))
                .collect(),
        )
    }

    /// The units of the agent's move scores, so that a front end can draw them on a
    /// fixed scale and tell proofs from estimates ([`crate::valuation`]).
    fn score_scale(&self) -> crate::valuation::ScoreScale {
        crate::valuation::ScoreScale::Unscaled
    }

    /// The agent's values of each legal move, deeper and deeper: `report` is called
    /// after each step with every move's value at that level, until every value is
    /// exact, the agent searches no further, its stop flag or its own time ends it (the
    /// step under way is then dropped, or reported with the moves it had valued: see
    /// [`DeepScore::level`]), or `report` breaks. `None` for agents that score
    /// no moves. The default is one step: [`Agent::move_values`] as the agent is set,
    /// ending `Exact` when every value is.
    fn deepen_move_scores(
        &mut self,
        game: &G,
        report: &mut dyn FnMut(&Deepening<G::Move>) -> ControlFlow<()>,
    ) -> Option<DeepeningEnd> {
        let scores = self.move_values(game)?;
        let exact = scores.iter().all(|s| s.exact);
        let step = Deepening {
            level: None,
            scores,
            nodes: None,
        };
        Some(match report(&step) {
            ControlFlow::Continue(()) if exact => DeepeningEnd::Exact,
            ControlFlow::Continue(()) => DeepeningEnd::Deepest,
            ControlFlow::Break(()) => DeepeningEnd::Declined,
        })
    }

    /// What a tree search learned about each legal move (visits, mean result, proven
    /// result), for agents that sample a tree (MCTS).
    fn move_stats(&mut self, game: &G) -> Option<Vec<MoveStat<G::Move>>> {
        let _ = game;
        None
    }

    /// The agent's value of the position for the side to move, in its own units, for
    /// agents that evaluate: by default the best of [`Agent::move_scores`].
    fn value(&mut self, game: &G) -> Option<f64> {
        self.move_scores(game)?
            .into_iter()
            .map(|(_, v)| v)
            .reduce(f64::max)
    }

    /// What its last search did, for agents that search.
    fn last_search(&self) -> Option<SearchStats<G::Move>> {
        None
    }

    /// Whether `choose` is exactly: the legal moves in the game's order, the only one when
    /// it is forced (drawing nothing), else `moves[rng.below(moves.len())]`. When both
    /// agents of a match say so, the arena lets the game play whole games itself
    /// ([`crate::EngineHooks::uniform_playout`]), which can be several times faster.
    fn is_uniform_random(&self) -> bool {
        false
    }

    /// Hands the agent a flag that, once set, asks its search to end at once (any move
    /// it then returns is thrown away). Agents whose moves take long should watch it.
    fn set_stop(&mut self, stop: &StopFlag) {
        let _ = stop;
    }

    /// Caps the time each of the agent's next moves may take (a game clock's share for
    /// the move; never more than the agent's own time limit), `None` to lift the cap.
    /// `false` from agents that keep no time and go on at their own pace.
    fn set_move_time(&mut self, limit: Option<std::time::Duration>) -> bool {
        let _ = limit;
        false
    }

    /// The agent's clock before each of its moves under a time control, for agents that
    /// plan their time themselves (an outside program told GTP's `time_settings` and
    /// `time_left`); [`Agent::set_move_time`] has the share gamelab would give it. The
    /// default ignores it.
    fn tell_clock(&mut self, clock: &crate::clock::Clock) {
        let _ = clock;
    }
}

impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn choose(&mut self, game: &G, rng: &mut GameRng) -> G::Move {
        (**self).choose(game, rng)
    }

    fn try_choose(&mut self, game: &G, rng: &mut GameRng) -> Result<G::Move, Box<Forfeit>> {
        (**self).try_choose(game, rng)
    }

    fn policy(&mut self, game: &G) -> Option<Policy<G::Move>> {
        (**self).policy(game)
    }

    fn explain(&mut self, game: &G) -> Option<String> {
        (**self).explain(game)
    }

    fn move_scores(&mut self, game: &G) -> Option<Vec<(G::Move, f64)>> {
        (**self).move_scores(game)
    }

    fn move_values(&mut self, game: &G) -> Option<Vec<DeepScore<G::Move>>> {
        (**self).move_values(game)
    }

    fn score_scale(&self) -> crate::valuation::ScoreScale {
        (**self).score_scale()
    }

    fn deepen_move_scores(
        &mut self,
        game: &G,
        report: &mut dyn FnMut(&Deepening<G::Move>) -> ControlFlow<()>,
    ) -> Option<DeepeningEnd> {
        (**self).deepen_move_scores(game, report)
    }

    fn move_stats(&mut self, game: &G) -> Option<Vec<MoveStat<G::Move>>> {
        (**self).move_stats(game)
    }

    fn value(&mut self, game: &G) -> Option<f64> {
        (**self).value(game)
    }

    fn is_uniform_random(&self) -> bool {
        (**self).is_uniform_random()
    }

    fn last_search(&self) -> Option<SearchStats<G::Move>> {
        (**self).last_search()
    }

    fn set_stop(&mut self, stop: &StopFlag) {
        (**self).set_stop(stop)
    }

    fn set_move_time(&mut self, limit: Option<std::time::Duration>) -> bool {
        (**self).set_move_time(limit)
    }

    fn tell_clock(&mut self, clock: &crate::clock::Clock) {
        (**self).tell_clock(clock)
    }
}

/// An agent defined by the set of moves it considers best, from which it picks uniformly.
///
/// Wrap it in [`Uniform`] to get both `choose` and an exact `policy` from one method.
pub trait BestMoves<G: Game>: Send {
    /// The moves this agent considers equally best, in the game's move order. Never empty
    /// in a position where the game is not over.
    fn best_moves(&mut self, game: &G) -> G::Moves;

    /// See [`Agent::explain`].
    fn explain(&mut self, game: &G) -> Option<String> {
        let _ = game;
        None
    }

    /// See [`Agent::move_scores`].
    fn move_scores(&mut self, game: &G) -> Option<Vec<(G::Move, f64)>> {
        let _ = game;
        None
    }

    /// Whether `best_moves` is always every legal move (the uniformly random player).
    fn is_all_legal_moves(&self) -> bool {
        false
    }
}

/// Turns a [`BestMoves`] rule into an [`Agent`] that picks uniformly among the best moves.
#[derive(Clone, Debug, Default)]
pub struct Uniform<T>(pub T);

impl<T> Uniform<T> {
    #[inline(always)]
    fn pick<G: Game>(&mut self, game: &G, rng: &mut GameRng) -> G::Move
    where
        T: BestMoves<G>,
    {
        let moves = self.0.best_moves(game);
        assert!(!moves.is_empty(), "choose called on a finished game");
        // A forced choice draws nothing, so a deterministic agent leaves its stream untouched.
        if moves.len() == 1 {
            moves[0]
        } else {
            moves[rng.below(moves.len())]
        }
    }
}

impl<G: Game, T: BestMoves<G>> Agent<G> for Uniform<T> {
    #[inline]
    fn choose(&mut self, game: &G, rng: &mut GameRng) -> G::Move {
        self.pick(game, rng)
    }

    // Its own, rather than the default's call of `choose`: the arena calls this at every
    // move of the rule-based AIs' matches, which run at millions of games a second.
    #[inline]
    fn try_choose(&mut self, game: &G, rng: &mut GameRng) -> Result<G::Move, Box<Forfeit>> {
        Ok(self.pick(game, rng))
    }

    fn policy(&mut self, game: &G) -> Option<Policy<G::Move>> {
        Some(Policy::uniform(&self.0.best_moves(game)))
    }

    fn explain(&mut self, game: &G) -> Option<String> {
        self.0.explain(game)
    }

    fn move_scores(&mut self, game: &G) -> Option<Vec<(G::Move, f64)>> {
        self.0.move_scores(game)
    }

    fn is_uniform_random(&self) -> bool {
        self.0.is_all_legal_moves()
    }
}

/// What the tree has proven about a move, for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Proven {
    Win,
    Draw,
    Loss,
}

impl Proven {
    pub(crate) fn of(outcome: Outcome, side: Side) -> Proven {
        match outcome.score_for(side) {
            1 => Proven::Win,
            0 => Proven::Draw,
            _ => Proven::Loss,
        }
    }

    /// The same result seen by the other side.
    pub(crate) fn flipped(self) -> Proven {
        match self {
            Proven::Win => Proven::Loss,
            Proven::Draw => Proven::Draw,
            Proven::Loss => Proven::Win,
        }
    }

    pub(crate) fn rank(self) -> u8 {
        match self {
            Proven::Loss => 0,
            Proven::Draw => 1,
            Proven::Win => 2,
        }
    }

    /// The value of the result for the side it is seen by, as a mean value is (0 to 1).
    pub fn value(self) -> f64 {
        f64::from(self.rank()) / 2.0
    }

    pub fn name(self) -> &'static str {
        match self {
            Proven::Win => "win",
            Proven::Draw => "draw",
            Proven::Loss => "loss",
        }
    }
}

/// What a tree search (MCTS) learned about one move at the root, as
/// [`Agent::move_stats`] reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStat<M> {
    pub mv: M,
    /// Iterations that went through the move.
    pub visits: u64,
    /// Mean result of those iterations for the side that plays it: 1 a win, ½ a draw,
    /// 0 a loss. `None` for a move never visited.
    pub mean: Option<f64>,
    /// The move's result, once the tree has proven it.
    pub proven: Option<Proven>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_policy_splits_evenly() {
        let p = Policy::uniform(&[1, 2, 3, 4]);
        assert_eq!(p.entries(), &[(1, 0.25), (2, 0.25), (3, 0.25), (4, 0.25)]);
        assert_eq!(p.moves().collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    }

    #[test]
    #[should_panic(expected = "sum to 1")]
    fn weighted_policy_must_sum_to_one() {
        Policy::from_weighted(vec![(1, 0.5), (2, 0.25)]);
    }

    fn raised_within(flag: &StopFlag, limit: std::time::Duration) -> bool {
        let started = Instant::now();
        while started.elapsed() < limit {
            if flag.load(Ordering::Relaxed) {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        false
    }

    #[test]
    fn a_watchdog_raises_its_flag_at_the_deadline_or_at_the_outer_stop() {
        use std::time::Duration;
        let started = Instant::now();
        let dog = Watchdog::start(None, Some(started + Duration::from_millis(30)));
        // Bounds on waits for an event, not on speed: the flag is raised or never.
        assert!(raised_within(dog.flag(), Duration::from_secs(120)));
        assert!(started.elapsed() >= Duration::from_millis(30));

        let outer = StopFlag::default();
        let dog = Watchdog::start(
            Some(&outer),
            Some(Instant::now() + Duration::from_secs(3600)),
        );
        assert!(!raised_within(dog.flag(), Duration::from_millis(50)));
        outer.store(true, Ordering::Relaxed);
        assert!(raised_within(dog.flag(), Duration::from_secs(120)));

        // A deadline already past, or an outer flag already raised, raise it at once.
        let past = Watchdog::start(None, Some(Instant::now()));
        assert!(past.flag().load(Ordering::Relaxed));
        let raised = StopFlag::default();
        raised.store(true, Ordering::Relaxed);
        let dog = Watchdog::start(
            Some(&raised),
            Some(Instant::now() + Duration::from_secs(60)),
        );
        assert!(dog.flag().load(Ordering::Relaxed));

        // Dropped before its deadline, it does not wait for it, and raises nothing.
        let deadline = Duration::from_secs(60);
        let dog = Watchdog::start(None, Some(Instant::now() + deadline));
        let flag = dog.flag().clone();
        let dropped = Instant::now();
        drop(dog);
        assert!(dropped.elapsed() < deadline);
        assert!(!flag.load(Ordering::Relaxed));

        // Without a deadline the flag is the outer one.
        let dog = Watchdog::start(Some(&outer), None);
        assert!(Arc::ptr_eq(dog.flag(), &outer));
    }

    #[test]
    fn a_level_cut_short_reports_the_moves_it_valued_best_first() {
        // Moves 0-3; a move's value at level n is n × (its number − 1.5), so at level 1
        // move 3 is best and 0 worst; the stop comes at the third search of level 2.
        let mut searched = Vec::new();
        let mut steps = Vec::new();
        let end = deepen_by_moves(
            0..4u8,
            5,
            &mut |mv, level| {
                searched.push((mv, level));
                (searched.len() <= 6).then(|| MoveValue {
                    score: f64::from(level) * (f64::from(mv) - 1.5),
                    exact: false,
                    line: vec![mv],
                    nodes: 10,
                })
            },
            &mut |step| {
                steps.push(step.clone());
                ControlFlow::Continue(())
            },
        );
        assert_eq!(end, DeepeningEnd::Stopped);
        // Level 1 in the moves' order, level 2 best first.
        assert_eq!(
            searched,
            [(0, 1), (1, 1), (2, 1), (3, 1), (3, 2), (2, 2), (1, 2)]
        );
        assert_eq!(steps.len(), 2);
        let cut = &steps[1];
        assert_eq!(cut.level, Some(1), "the last level done");
        let levels: Vec<_> = cut.scores.iter().map(|s| s.level).collect();
        assert_eq!(levels, [Some(1), Some(1), Some(2), Some(2)]);
        let scores: Vec<_> = cut.scores.iter().map(|s| s.score).collect();
        assert_eq!(scores, [-1.5, -0.5, 1.0, 3.0]);
        assert_eq!(cut.nodes, Some(60));

        // Stopped within the first level: nothing to show, nothing reported.
        let mut reports = 0;
        let end = deepen_by_moves(
            0..4u8,
            5,
            &mut |mv, _| {
                (mv < 2).then(|| MoveValue {
                    score: 0.0,
                    exact: false,
                    line: vec![mv],
                    nodes: 1,
                })
            },
            &mut |_| {
                reports += 1;
                ControlFlow::Continue(())
            },
        );
        assert_eq!((end, reports), (DeepeningEnd::Stopped, 0));
    }
}
