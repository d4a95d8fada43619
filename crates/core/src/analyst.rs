//! What an agent can say of a position beyond its move: the [`Analyst`] trait.
//!
//! Playing needs only [`crate::Agent`]; an agent that can also value moves, explain
//! itself, give its policy or its search's statistics hands out its analyst through
//! [`crate::Agent::analyst`]. Each analysis is defined once here, and the results are the
//! shapes of [`crate::analysis`], so that the command line, the web app and the Python
//! package show the same thing from the same call.

use std::ops::ControlFlow;

use crate::Game;
use crate::analysis::{DeepScore, Deepening, DeepeningEnd, MoveStat, Policy, SearchStats};
use crate::valuation::ScoreScale;

/// An agent's analysis of positions. Every method but [`Analyst::score_scale`] answers
/// `None` where the agent has nothing to say; an analyst implements what it knows.
///
/// A game crate's agents show it in use: `gamelab_ttt::ai`'s perfect player, Othello's
/// engine, Connect Four's alpha-beta and [`crate::mcts::Mcts`].
pub trait Analyst<G: Game> {
    /// The distribution the agent's `choose` draws from, for agents that have one. It
    /// lets an exact match compute result probabilities as an expectation over the game
    /// tree instead of sampling. `None` for agents whose choice is not a fixed
    /// distribution (e.g. those under a time limit).
    fn policy(&mut self, game: &G) -> Option<Policy<G::Move>> {
        let _ = game;
        None
    }

    /// A human-readable account of how the agent decides here (the articles' debug
    /// trace), for agents that can give one.
    fn explain(&mut self, game: &G) -> Option<String> {
        let _ = game;
        None
    }

    /// The agent's score for each legal move, for agents that score moves: for the side
    /// to move, higher better, 0 even, so that a score for one side is the negated score
    /// for the other (the analysis graph and the evaluation bar rely on it).
    fn move_scores(&mut self, game: &G) -> Option<Vec<(G::Move, f64)>> {
        let _ = game;
        None
    }

    /// [`Analyst::move_scores`] with what the agent knows of each value: whether it is
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
    fn score_scale(&self) -> ScoreScale {
        ScoreScale::Unscaled
    }

    /// The agent's values of each legal move, deeper and deeper: `report` is called
    /// after each step with every move's value at that level, until every value is
    /// exact, the agent searches no further, its stop flag or its own time ends it (the
    /// step under way is then dropped, or reported with the moves it had valued: see
    /// [`DeepScore::level`]), or `report` breaks. `None` for agents that score no moves.
    /// The default is one step: [`Analyst::move_values`] as the agent is set, ending
    /// `Exact` when every value is.
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

    /// The agent's best `count` lines (at least one), deeper and deeper: as
    /// [`Analyst::deepen_move_scores`], but each step holds only the best `count` moves,
    /// best first, each with its value, its exactness, its level and the line the agent
    /// expects. A searching agent finds them by a multi-line search
    /// ([`crate::deepen_lines_by_moves`]), which spends less on the moves left out; the
    /// default takes each step of [`Analyst::deepen_move_scores`]'s best
    /// ([`Deepening::best`]). Its best line has the value the single-line analysis gives
    /// the best move.
    fn deepen_lines(
        &mut self,
        game: &G,
        count: usize,
        report: &mut dyn FnMut(&Deepening<G::Move>) -> ControlFlow<()>,
    ) -> Option<DeepeningEnd> {
        self.deepen_move_scores(game, &mut |step| report(&step.best(count)))
    }

    /// What a tree search learned about each legal move (visits, mean result, proven
    /// result), for agents that sample a tree (MCTS).
    fn move_stats(&mut self, game: &G) -> Option<Vec<MoveStat<G::Move>>> {
        let _ = game;
        None
    }

    /// The agent's value of the position for the side to move, in its own units, for
    /// agents that evaluate: by default the best of [`Analyst::move_scores`].
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
}
