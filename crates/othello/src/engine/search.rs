//! The engine's search: the midgame search ([`Midgame`]) and, within reach of the end, the
//! exact solver ([`Solver`]), which the searcher keeps from move to move. Under a time
//! limit the midgame search first puts a move in hand, then a solve runs until the time
//! is up.

use std::sync::Arc;
use std::time::Instant;

use gamelab_core::{StopFlag, Watchdog};

use crate::engine::endgame::Solver;
use crate::engine::learned::{PatternModel, SCALE};
use crate::engine::midgame::{INFINITY, Midgame};
pub use crate::engine::midgame::{
    Limits, NEST_DEPTH, SPLIT_DEPTH, SearchResult, to_discs, values_digest,
};
use crate::{Move, Othello};

/// The most empties a time-limited search goes on to solve after its midgame search
/// reached the end: beyond, a solve takes hours.
const MAX_TIMED_SOLVE: u32 = 30;

/// A searcher: the midgame search and the exact solver, each with its table kept between
/// moves (the bounds in the solver's stay true for every later position), on one set of
/// threads.
pub struct Searcher {
    midgame: Midgame,
    solver: Option<Solver>,
}

/// Where a bounded search's value fell ([`Searcher::search_bounded`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fell {
    /// Strictly inside the window: the value is the search's.
    Inside,
    /// At or below the window's low end: the value is at most that.
    AtMost,
    /// At or above the window's high end: the value is at least that.
    AtLeast,
}

impl Searcher {
    pub fn new(model: Arc<PatternModel>) -> Searcher {
        Searcher {
            midgame: Midgame::new(model),
            solver: None,
        }
    }

    /// Searches on `threads` threads, the midgame and the exact endgame; 0 for every
    /// core, except inside a match, whose games already fill the cores: one there. The
    /// move and the score do not depend on it.
    pub fn set_threads(&mut self, threads: usize) {
        self.midgame.set_threads(threads);
    }

    /// Cuts nodes by Multi-ProbCut at `threshold` standard deviations (see
    /// [`Midgame::set_probcut`]).
    pub fn set_probcut(&mut self, threshold: f64) {
        self.midgame.set_probcut(threshold);
    }

    /// Ends every later search at once when `stop` is set.
    pub fn set_stop(&mut self, stop: StopFlag) {
        self.midgame.set_stop(stop);
    }

    /// The flag given by [`Searcher::set_stop`], if any.
    pub(crate) fn stop_flag(&self) -> Option<&StopFlag> {
        self.midgame.stop_flag()
    }

    /// As [`Searcher::set_stop`]; `None` takes a stop given before away.
    pub(crate) fn replace_stop(&mut self, stop: Option<StopFlag>) {
        self.midgame.replace_stop(stop);
    }

    /// Forgets every position searched, keeping the tables' memory: the next search
    /// runs as a new searcher's would (the same move, score and nodes), without the
    /// cost of new tables. `parallel`: on the threads of the rayon pool it runs on.
    pub fn forget(&mut self, parallel: bool) {
        self.midgame.forget(parallel);
        if let Some(solver) = &mut self.solver {
            solver.forget();
        }
    }

    /// The learned evaluation of a position (side to move's view, 1/256 disc).
    #[inline]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        self.midgame.evaluate(p, o)
    }

    /// Searches `pos` within `limits`.
    ///
    /// ```
    /// use gamelab_core::Game;
    /// use gamelab_othello::search::{Limits, Searcher};
    /// use gamelab_othello::{Othello, learned};
    ///
    /// let mut searcher = Searcher::new(learned::shipped());
    /// let result = searcher.search(&Othello::new(), Limits::to_depth(6));
    /// assert!(Othello::new().legal_moves().contains(&result.best));
    /// assert_eq!((result.depth, result.exact), (6, false));
    /// assert_eq!(result.pv[0], result.best);
    /// // No clock: the same nodes on every machine and every run.
    /// let again = Searcher::new(learned::shipped()).search(&Othello::new(), Limits::to_depth(6));
    /// assert_eq!(again.nodes, result.nodes);
    /// ```
    pub fn search(&mut self, pos: &Othello, limits: Limits) -> SearchResult {
        let started = Instant::now();
        self.midgame.begin();
        if let Some(passing) = self.midgame.passing(pos, started) {
            return passing;
        }
        let threads = self.midgame.threads_to_use();
        let empties = pos.empties();
        let Some(time) = limits.time else {
            if empties > limits.exact {
                return self.midgame.deepen_to(pos, limits, started, threads);
            }
            // Stopped, it falls through to the midgame search, which answers at once.
            let stop = self.midgame.stop_flag().cloned();
            return match self.solve(pos, threads, stop.as_ref(), started) {
                Some(solved) => solved,
                None => self.midgame.deepen_to(pos, limits, started, threads),
            };
        };
        // Under a time limit a solve may not end in time: a midgame search first puts a
        // move in hand, then the solve runs until the time is up and gives way to that
        // move if it is not done.
        let in_hand = if empties <= limits.exact {
            // As deep as the level that would solve from here (six plies less than the
            // empties, a tenth to a twentieth of the solve's time: `exact_reach`), in at
            // most a quarter of the time.
            let quick = Limits {
                depth: limits.depth.min(empties.saturating_sub(6)).max(1),
                exact: 0,
                time: Some(time / 4),
                unsettled: None,
            };
            self.midgame.deepen_to(pos, quick, started, threads)
        } else {
            let searched = self.midgame.deepen_to(pos, limits, started, threads);
            // A midgame search that reached the end in under half the time goes on to
            // a solve: otherwise that time is not used at all (on a game clock a third
            // of it was left at the end), and a solve that does not end still leaves its
            // bounds in the table for the next move's.
            let goes_on = searched.depth == empties
                && started.elapsed() < time / 2
                && empties <= MAX_TIMED_SOLVE;
            if !goes_on {
                return searched;
            }
            searched
        };
        if self.midgame.stop_raised() {
            return in_hand;
        }
        let stop = Watchdog::start(self.midgame.stop_flag(), Some(started + time));
        match self.solve(pos, threads, Some(stop.flag()), started) {
            Some(solved) => SearchResult {
                nodes: in_hand.nodes + solved.nodes,
                ..solved
            },
            None => SearchResult {
                elapsed: started.elapsed(),
                ..in_hand
            },
        }
    }

    /// [`Searcher::search`] of a depth-limited midgame search (`limits.time` is
    /// ignored) that tells values apart only inside `window` (in discs, for the side to
    /// move; the ends may be infinite): one the search orders at or below its low end, or
    /// at or above its high end, is found far sooner and is only known to be so, as
    /// [`Fell`] says. A multi-line analysis tests the moves that are not among its best
    /// lines this way. The window is in the search's own order, which puts a finished
    /// game's result beyond every estimate: a game lost by 2 discs is below an estimate
    /// of −30. Within the exact search's reach the value is always exact (`Inside`).
    pub fn search_bounded(
        &mut self,
        pos: &Othello,
        limits: Limits,
        window: (f64, f64),
    ) -> (SearchResult, Fell) {
        let internal = |discs: f64| {
            (discs * f64::from(SCALE))
                .round()
                .clamp(-f64::from(INFINITY), f64::from(INFINITY)) as i32
        };
        let (lo, hi) = (internal(window.0), internal(window.1));
        let limits = Limits {
            time: None,
            unsettled: None,
            ..limits
        };
        if pos.empties() <= limits.exact || hi - lo < 2 {
            return (self.search(pos, limits), Fell::Inside);
        }
        self.midgame.set_window((lo, hi));
        let result = self.search(pos, limits);
        let last_value = self.midgame.last_value();
        self.midgame.set_window((-INFINITY, INFINITY));
        let fell = if result.depth == 0 || result.exact {
            Fell::Inside
        } else if last_value <= lo {
            Fell::AtMost
        } else if last_value >= hi {
            Fell::AtLeast
        } else {
            Fell::Inside
        };
        (result, fell)
    }

    /// The exact solve of `pos`, `None` when `stop` was raised first.
    fn solve(
        &mut self,
        pos: &Othello,
        threads: usize,
        stop: Option<&StopFlag>,
        started: Instant,
    ) -> Option<SearchResult> {
        let pool = self.midgame.pool_for(threads);
        let model = self.midgame.model();
        let solver = self.solver.get_or_insert_with(|| {
            let mut solver = Solver::with_model(model.clone());
            solver.set_find_line(true);
            solver
        });
        match pool {
            Some(pool) => solver.share_pool(pool),
            None => solver.set_threads(threads),
        }
        let before = solver.nodes;
        let (score, best) = solver.solve_until(pos, stop)?;
        Some(SearchResult {
            best: best.unwrap_or(Move::Pass),
            score: f64::from(score),
            depth: pos.empties(),
            exact: true,
            nodes: solver.nodes - before,
            pv: solver.line.clone(),
            elapsed: started.elapsed(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_midgame_and_the_exact_search_share_one_pool() {
        let mut searcher = Searcher::new(crate::engine::learned::shipped());
        searcher.set_threads(2);
        let midgame = Limits::to_depth(SPLIT_DEPTH);
        searcher.search(&Othello::new(), midgame);
        let pool = searcher
            .midgame
            .pool_for(2)
            .expect("a pool for two threads");
        assert_eq!(pool.current_num_threads(), 2);
        // A position near the end, solved exactly by the searcher's solver.
        let pos = crate::rules::position::played_at_random(3, 0, 12);
        let exact = Limits {
            depth: 4,
            exact: 12,
            time: None,
            unsettled: None,
        };
        assert!(searcher.search(&pos, exact).exact);
        let solver = searcher.solver.as_ref().expect("the solver was made");
        assert_eq!(solver.threads(), 2);
        assert!(
            Arc::ptr_eq(solver.pool().expect("its pool"), &pool),
            "one pool, not two"
        );
        assert!(
            Arc::ptr_eq(searcher.midgame.pool_for(2).as_ref().unwrap(), &pool),
            "kept"
        );
    }
}
