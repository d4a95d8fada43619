use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::analysis::{Deepening, DeepeningEnd, Policy};
use crate::{Analyst, Game, GameRng};

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
    /// Ends a search at `deadline` or once `stop` is raised, whichever comes first.
    ///
    /// ```
    /// use std::sync::atomic::Ordering;
    /// use gamelab_core::{Cutoff, StopFlag};
    ///
    /// let stop = StopFlag::default();
    /// let cutoff = Cutoff::new(None, Some(stop.clone()));
    /// assert!(!cutoff.reached());
    /// stop.store(true, Ordering::Relaxed);
    /// assert!(cutoff.reached());
    /// ```
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
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::sync::atomic::Ordering;
    /// use std::time::Instant;
    /// use gamelab_core::{StopFlag, Watchdog};
    ///
    /// let outer = StopFlag::default();
    /// let no_deadline = Watchdog::start(Some(&outer), None);
    /// assert!(Arc::ptr_eq(no_deadline.flag(), &outer));
    /// let passed = Watchdog::start(None, Some(Instant::now()));
    /// assert!(passed.flag().load(Ordering::Relaxed), "a deadline already passed");
    /// ```
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
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Forfeit {
    pub reason: String,
    /// The agent was told to stop the whole match at a failure rather than lose the game
    /// and play on.
    pub stops_match: bool,
}

/// `agent`'s deepening analysis of `game` within `time`, ended sooner when `stop` is
/// raised: the analysis a front end asks for (`gamelab analyse --time`, Python's
/// `deepen(time_limit=)`): every move's value at each step
/// ([`Analyst::deepen_move_scores`]), or with `lines` the best that many lines
/// ([`Analyst::deepen_lines`]). The time is the agent's own when it takes one
/// ([`Agent::set_move_time`]), so that its first level always completes, else a deadline
/// that stops it from outside. The agent's move time and stop are cleared afterwards.
/// `None` for an agent that values no moves.
pub fn deepen_within<G: Game, A: Agent<G> + ?Sized>(
    agent: &mut A,
    game: &G,
    time: Option<std::time::Duration>,
    stop: &StopFlag,
    lines: Option<usize>,
    report: &mut dyn FnMut(&Deepening<G::Move>) -> ControlFlow<()>,
) -> Option<DeepeningEnd> {
    let own_time = time.is_some_and(|t| agent.set_move_time(Some(t)));
    let deadline = time.filter(|_| !own_time).map(|t| Instant::now() + t);
    let watchdog = Watchdog::start(Some(stop), deadline);
    agent.set_stop(watchdog.flag());
    let end = agent.analyst().and_then(|analyst| match lines {
        Some(count) => analyst.deepen_lines(game, count, report),
        None => analyst.deepen_move_scores(game, report),
    });
    if own_time {
        agent.set_move_time(None);
    }
    agent.set_stop(&StopFlag::default());
    end
}

/// Something that picks moves: a rule, a search, a learned model.
///
/// Agents never see a match; their only source of randomness is the stream they are handed,
/// which makes every game reproducible from its seed. What an agent can say beyond its
/// move (its values, lines, policy, statistics) is its [`Analyst`], reached through
/// [`Agent::analyst`].
///
/// An agent of one's own, the last legal move, played against `ai2` (random):
///
/// ```
/// use gamelab_core::arena::play_game;
/// use gamelab_core::{Agent, Game, GameRng, Side, game_rng};
/// use gamelab_ttt::{Ttt, ai, board::Bitboard};
///
/// struct LastMove;
///
/// impl Agent<Ttt> for LastMove {
///     fn choose(&mut self, game: &Ttt, _rng: &mut GameRng) -> <Ttt as Game>::Move {
///         *game.legal_moves().last().expect("the game goes on")
///     }
/// }
///
/// let mut mine: Box<dyn Agent<Ttt>> = Box::new(LastMove);
/// let mut random = ai::registry::<Bitboard>().build("ai2").unwrap();
/// let mut rngs = [game_rng(7, 0, Side::First), game_rng(7, 0, Side::Second)];
/// let mut moves = Vec::new();
/// let end = play_game(&Ttt::start(), [&mut mine, &mut random], &mut rngs, Some(&mut moves));
/// assert_eq!(moves[0].to_string(), "(2, 2)", "the last square first");
/// assert!(moves.len() >= 5 && end.forfeit.is_none());
/// ```
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

    /// The agent's analysis of positions, for agents that can say more than their move;
    /// `None` for those that cannot. It shares the agent's state (its tables, its stop,
    /// its move time).
    fn analyst(&mut self) -> Option<&mut dyn Analyst<G>> {
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

    fn analyst(&mut self) -> Option<&mut dyn Analyst<G>> {
        (**self).analyst()
    }

    fn is_uniform_random(&self) -> bool {
        (**self).is_uniform_random()
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

    /// See [`Analyst::explain`].
    fn explain(&mut self, game: &G) -> Option<String> {
        let _ = game;
        None
    }

    /// See [`Analyst::move_scores`].
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

    fn analyst(&mut self) -> Option<&mut dyn Analyst<G>> {
        Some(self)
    }

    fn is_uniform_random(&self) -> bool {
        self.0.is_all_legal_moves()
    }
}

impl<G: Game, T: BestMoves<G>> Analyst<G> for Uniform<T> {
    fn policy(&mut self, game: &G) -> Option<Policy<G::Move>> {
        Some(Policy::uniform(&self.0.best_moves(game)))
    }

    fn explain(&mut self, game: &G) -> Option<String> {
        self.0.explain(game)
    }

    fn move_scores(&mut self, game: &G) -> Option<Vec<(G::Move, f64)>> {
        self.0.move_scores(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
