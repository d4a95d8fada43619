//! What an analysis says of a position, apart from who asks: each move's value and line
//! at each level of a deepening ([`DeepScore`], [`Deepening`]), the best lines of a
//! multi-line analysis (the same shapes, best first), a policy, a tree search's root
//! statistics, a search's counters. [`crate::Analyst`] returns them; the arena, the
//! session and every front end read them.
//!
//! Two drivers serve agents that value each move by a search of its own:
//! [`deepen_by_moves`] values every move at each level; [`deepen_lines_by_moves`]
//! values only as much as the best `count` lines need, testing the other moves against
//! the `count`-th best value (a multi-PV search).

use std::ops::ControlFlow;

use crate::{Outcome, Side};

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

/// A move's value at one step of a deepening analysis ([`crate::Analyst::deepen_move_scores`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DeepScore<M> {
    pub mv: M,
    /// For the side to move, in the agent's units, as [`crate::Analyst::move_scores`] gives it.
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

impl<M: Clone> Deepening<M> {
    /// This step's best `count` values (at least one), best first: the lines a
    /// multi-line analysis shows, from an agent that values every move. Moves of equal
    /// value keep the step's order.
    ///
    /// ```
    /// use gamelab_core::{DeepScore, Deepening};
    ///
    /// let step = Deepening {
    ///     level: Some(3),
    ///     scores: vec![
    ///         DeepScore::valued('a', -1.0, false),
    ///         DeepScore::valued('b', 2.5, true),
    ///         DeepScore::valued('c', 0.5, false),
    ///     ],
    ///     nodes: Some(120),
    /// };
    /// let lines = step.best(2);
    /// let moves: Vec<char> = lines.scores.iter().map(|s| s.mv).collect();
    /// assert_eq!(moves, ['b', 'c']);
    /// assert_eq!((lines.level, lines.nodes), (Some(3), Some(120)));
    /// ```
    pub fn best(&self, count: usize) -> Deepening<M> {
        let mut scores = self.scores.clone();
        scores.sort_by(|a, b| b.score.total_cmp(&a.score));
        scores.truncate(count.max(1));
        Deepening {
            level: self.level,
            scores,
            nodes: self.nodes,
        }
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
///
/// Two moves: `b` is worth 1 at every level and exact from level 2, `a` is worth the
/// level less 2. Level 2 values `b` first (level 1's best) and, `b` exact, level 3
/// values `a` alone; a stop at level 4's first search, no move valued there, leaves level
/// 3 the last step reported.
///
/// ```
/// use std::ops::ControlFlow;
/// use gamelab_core::analysis::{DeepeningEnd, MoveValue, deepen_by_moves};
///
/// let mut searched = Vec::new();
/// let mut value = |mv: char, level: u32| {
///     searched.push((mv, level));
///     let (score, exact) = match mv {
///         'b' => (1.0, level >= 2),
///         _ => (f64::from(level) - 2.0, false),
///     };
///     (level < 4).then(|| MoveValue { score, exact, line: vec![mv], nodes: 10 })
/// };
/// let mut steps = Vec::new();
/// let end = deepen_by_moves(['a', 'b'], 5, &mut value, &mut |step| {
///     steps.push(step.clone());
///     ControlFlow::Continue(())
/// });
/// assert_eq!(end, DeepeningEnd::Stopped);
/// assert_eq!(searched, [('a', 1), ('b', 1), ('b', 2), ('a', 2), ('a', 3), ('a', 4)]);
/// let levels: Vec<_> = steps.iter().map(|s| s.level).collect();
/// assert_eq!(levels, [Some(1), Some(2), Some(3)]);
/// let last = steps.last().unwrap();
/// assert_eq!(last.nodes, Some(50));
/// assert_eq!((last.scores[0].score, last.scores[1].exact), (1.0, true));
/// ```
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

/// What a multi-line search found of one move tested against a floor
/// ([`deepen_lines_by_moves`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Tested<M> {
    /// The move's value: it was searched with no floor, or it came out above the floor.
    Value(MoveValue<M>),
    /// The move's value is at most `bound`, itself at most the floor: it is not among
    /// the best lines, and its search spent no time on how far below it is.
    AtMost { bound: f64, nodes: u64 },
}

/// A multi-line (multi-PV) analysis by an agent that values each move by a search of
/// its own: at levels 1 to `deepest`, the moves in the order of the level before, the
/// first `count` valued whole (`value(move, level, None)`), every later one tested
/// against the floor, the `count`-th best value of the level so far
/// (`value(move, level, Some(floor))`), which a search answers far sooner when the move
/// is worse ([`Tested::AtMost`]). Each level reports its best `count` lines (fewer when
/// there are fewer moves), best first; the other moves are left out. A move whose value
/// is exact is searched no more. It ends when every move's value is exact, at the
/// deepest level, at a stop (`value` gives `None`: the level under way is dropped,
/// the last one reported stands) or when `report` breaks.
///
/// Its best line at each level has the value [`deepen_by_moves`] gives the best move at
/// that level (for a search whose value does not depend on the window it is given
/// when the value lies inside it):
///
/// ```
/// use std::ops::ControlFlow;
/// use gamelab_core::{MoveValue, Tested, deepen_lines_by_moves};
///
/// // Five moves; move m is worth (m × 7) mod 5 at every level, exactly at level 2.
/// let worth = |m: u8| f64::from(m * 7 % 5);
/// let mut tested = 0;
/// let mut lines = Vec::new();
/// deepen_lines_by_moves(
///     0..5u8,
///     2,
///     9,
///     &mut |mv, level, floor| {
///         let value = MoveValue { score: worth(mv), exact: level == 2, line: vec![mv], nodes: 1 };
///         Some(match floor {
///             Some(floor) if worth(mv) <= floor => {
///                 tested += 1;
///                 Tested::AtMost { bound: floor, nodes: 1 }
///             }
///             _ => Tested::Value(value),
///         })
///     },
///     &mut |step| {
///         lines = step.scores.iter().map(|s| (s.mv, s.score)).collect();
///         ControlFlow::Continue(())
///     },
/// );
/// assert_eq!(lines, [(2, 4.0), (4, 3.0)]);
/// assert!(tested > 0, "moves below the second best were only tested");
/// ```
pub fn deepen_lines_by_moves<M: Copy>(
    moves: impl IntoIterator<Item = M>,
    count: usize,
    deepest: u32,
    value: &mut dyn FnMut(M, u32, Option<f64>) -> Option<Tested<M>>,
    report: &mut dyn FnMut(&Deepening<M>) -> ControlFlow<()>,
) -> DeepeningEnd {
    let count = count.max(1);
    let mut known = Deepening::unvalued(moves).scores;
    // Whether a move's score is only a bound from a test against a floor.
    let mut bounded = vec![false; known.len()];
    let mut nodes = 0u64;
    for level in 1..=deepest {
        let mut order: Vec<usize> = (0..known.len()).collect();
        order.sort_by(|&a, &b| known[b].score.total_cmp(&known[a].score));
        let settled: Vec<bool> = (0..known.len())
            .map(|i| known[i].exact && !bounded[i])
            .collect();
        let mut lines: Vec<usize> = order.iter().copied().filter(|&i| settled[i]).collect();
        for i in order {
            if settled[i] {
                continue;
            }
            let floor = (lines.len() >= count).then(|| {
                let mut best: Vec<f64> = lines.iter().map(|&j| known[j].score).collect();
                best.sort_by(|a, b| b.total_cmp(a));
                best[count - 1]
            });
            let Some(found) = value(known[i].mv, level, floor) else {
                return DeepeningEnd::Stopped;
            };
            let scored = &mut known[i];
            scored.level = Some(level);
            match found {
                Tested::Value(found) => {
                    scored.score = found.score;
                    scored.exact = found.exact;
                    scored.line = found.line;
                    bounded[i] = false;
                    nodes += found.nodes;
                    lines.push(i);
                }
                Tested::AtMost {
                    bound,
                    nodes: spent,
                } => {
                    scored.score = bound;
                    scored.exact = false;
                    scored.line = vec![scored.mv];
                    bounded[i] = true;
                    nodes += spent;
                }
            }
        }
        let step = Deepening {
            level: Some(level),
            scores: lines.iter().map(|&i| known[i].clone()).collect(),
            nodes: Some(nodes),
        }
        .best(count);
        if report(&step).is_break() {
            return DeepeningEnd::Declined;
        }
        if (0..known.len()).all(|i| known[i].exact && !bounded[i]) {
            return DeepeningEnd::Exact;
        }
    }
    DeepeningEnd::Deepest
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
///
/// ```
/// use gamelab_core::analysis::Policy;
///
/// let even = Policy::uniform(&['a', 'b']);
/// assert_eq!(even.entries(), [('a', 0.5), ('b', 0.5)]);
/// let leaning = Policy::from_weighted(vec![('a', 0.75), ('b', 0.25)]);
/// assert_eq!(leaning.moves().collect::<String>(), "ab");
/// ```
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

    /// Each move with its probability.
    pub fn entries(&self) -> &[(M, f64)] {
        &self.entries
    }

    /// The moves, in the policy's order.
    pub fn moves(&self) -> impl Iterator<Item = M> + '_ {
        self.entries.iter().map(|&(m, _)| m)
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

    /// `win`, `draw` or `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Proven::Win => "win",
            Proven::Draw => "draw",
            Proven::Loss => "loss",
        }
    }
}

/// What a tree search (MCTS) learned about one move at the root, as
/// [`crate::Analyst::move_stats`] reports it.
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

    /// A made-up search: move m's value at level l, distinct for every move.
    fn worth(mv: u8, level: u32) -> f64 {
        let x = (u32::from(mv) * 7919 + level * 104_729) % 1000;
        f64::from(x) / 10.0 + f64::from(mv) / 1000.0
    }

    #[test]
    fn the_best_lines_are_the_best_of_every_move_at_each_level_for_less() {
        for count in [1, 2, 3, 7, 12] {
            let mut every = Vec::new();
            let mut searched_whole = 0;
            deepen_by_moves(
                0..9u8,
                6,
                &mut |mv, level| {
                    searched_whole += 1;
                    Some(MoveValue {
                        score: worth(mv, level),
                        exact: level == 6,
                        line: vec![mv, mv],
                        nodes: 10,
                    })
                },
                &mut |step| {
                    every.push(step.best(count));
                    ControlFlow::Continue(())
                },
            );
            let mut lines = Vec::new();
            let (mut whole, mut tested) = (0, 0);
            let end = deepen_lines_by_moves(
                0..9u8,
                count,
                6,
                &mut |mv, level, floor| {
                    let value = worth(mv, level);
                    Some(match floor {
                        Some(floor) if value <= floor => {
                            tested += 1;
                            Tested::AtMost {
                                bound: floor,
                                nodes: 1,
                            }
                        }
                        _ => {
                            whole += 1;
                            Tested::Value(MoveValue {
                                score: value,
                                exact: level == 6,
                                line: vec![mv, mv],
                                nodes: 10,
                            })
                        }
                    })
                },
                &mut |step| {
                    lines.push(step.clone());
                    ControlFlow::Continue(())
                },
            );
            // Every value exact at the deepest level: `Exact` when no move is left out
            // with a bound (every move is a line), else the deepest level.
            if count >= 9 {
                assert_eq!(end, DeepeningEnd::Exact);
            } else {
                assert!(matches!(end, DeepeningEnd::Exact | DeepeningEnd::Deepest));
            }
            assert_eq!(lines.len(), every.len());
            for (got, want) in lines.iter().zip(&every) {
                let got: Vec<_> = got
                    .scores
                    .iter()
                    .map(|s| (s.mv, s.score, s.level))
                    .collect();
                let want: Vec<_> = want
                    .scores
                    .iter()
                    .map(|s| (s.mv, s.score, s.level))
                    .collect();
                assert_eq!(got, want, "{count} lines");
            }
            assert_eq!(whole + tested, searched_whole, "every move every level");
            if count < 9 {
                assert!(tested > 0 && whole < searched_whole, "{count} lines");
            }
        }
    }

    #[test]
    fn a_stopped_level_leaves_the_last_lines_and_exact_values_end_it() {
        let mut calls = 0;
        let mut reported = Vec::new();
        let end = deepen_lines_by_moves(
            0..4u8,
            2,
            9,
            &mut |mv, _, _| {
                calls += 1;
                (calls <= 6).then(|| {
                    Tested::Value(MoveValue {
                        score: f64::from(mv),
                        exact: false,
                        line: vec![mv],
                        nodes: 1,
                    })
                })
            },
            &mut |step| {
                reported.push(step.level);
                ControlFlow::Continue(())
            },
        );
        assert_eq!((end, reported), (DeepeningEnd::Stopped, vec![Some(1)]));

        // Values exact from level 2: searched no more, and the analysis ends there.
        let mut searched = Vec::new();
        let end = deepen_lines_by_moves(
            0..3u8,
            1,
            9,
            &mut |mv, level, floor| {
                searched.push((mv, level));
                let value = MoveValue {
                    score: f64::from(mv),
                    exact: level >= 2,
                    line: vec![mv],
                    nodes: 1,
                };
                Some(match floor {
                    // A bound is never exact: the move is searched whole once the floor
                    // is exact too.
                    Some(floor) if f64::from(mv) <= floor && level < 3 => Tested::AtMost {
                        bound: floor,
                        nodes: 1,
                    },
                    _ => Tested::Value(value),
                })
            },
            &mut |_| ControlFlow::Continue(()),
        );
        assert_eq!(end, DeepeningEnd::Exact);
        assert!(
            searched.iter().all(|&(_, level)| level <= 3),
            "{searched:?}"
        );
    }
}
