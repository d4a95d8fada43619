//! Othello AIs (article 003 and beyond) and their registry.

use std::ops::ControlFlow;
use std::time::Duration;

use gamelab_core::Tested;
use gamelab_core::search::{LeafEval, SearchOptions, analyze_until};
use gamelab_core::{
    Agent, AgentEntry, Analyst, BestMoves, DeepScore, Deepening, DeepeningEnd, FileValue, Game,
    GameRng, MoveValue, ParamSpec, Policy, Registry, SpecError, Uniform,
};

use crate::engine::endgame::Solver;
use crate::engine::eval::Eval;
use crate::rules::bits;
use crate::{Move, Moves, Othello, Square};

/// Any legal move, uniformly: the same choices as `Uniform` over the legal moves, drawn
/// straight from the legal-move mask (no move list) because random playouts are hot.
pub struct Random;

impl Agent<Othello> for Random {
    #[inline]
    fn choose(&mut self, pos: &Othello, rng: &mut GameRng) -> Move {
        let legal = pos.legal_mask();
        match legal.count_ones() {
            0 => Move::Pass,
            1 => {
                Move::Place(Square::from_index(legal.trailing_zeros() as usize).expect("a square"))
            }
            n => {
                // The k-th legal square in square order, as `Uniform` would pick it.
                let k = rng.below(n as usize) as u32;
                Move::Place(
                    Square::from_index(bits::nth_set_bit(legal, k) as usize).expect("a square"),
                )
            }
        }
    }

    fn is_uniform_random(&self) -> bool {
        true
    }

    fn analyst(&mut self) -> Option<&mut dyn Analyst<Othello>> {
        Some(self)
    }
}

impl Analyst<Othello> for Random {
    fn policy(&mut self, pos: &Othello) -> Option<Policy<Move>> {
        Some(Policy::uniform(&Game::legal_moves(pos)))
    }
}

/// The odds of a square in [`Roulette`]: 16·e^(w/3) for article 003's weight w, rounded, at
/// least 1 and at most 65,535. A corner is 4,096 times as likely as a plain square, an X-
/// or C-square a sixteenth as likely (a milder 16·e^(w/6) played worse: RESULTS.md).
const ROULETTE_ODDS: [u32; 64] = {
    let mut odds = [0; 64];
    let mut i = 0;
    while i < 64 {
        odds[i] = match crate::engine::eval::WEIGHTS[i] {
            30 => 65535,
            -15 => 1,
            -12 => 1,
            -3 => 6,
            -1 => 11,
            _ => 16,
        };
        i += 1;
    }
    odds
};

/// A random legal move drawn in proportion to its square's odds (`ROULETTE_ODDS`):
/// corners nearly always when they are there, the squares that give them away rarely.
/// Random but not blind, which is what Monte Carlo playouts in Othello need (uniform ones
/// hand corners over as often as they take them).
pub struct Roulette;

impl Roulette {
    fn odds(pos: &Othello) -> impl Iterator<Item = (u32, u32)> {
        let mut legal = pos.legal_mask();
        std::iter::from_fn(move || {
            (legal != 0).then(|| {
                let sq = legal.trailing_zeros();
                legal &= legal - 1;
                (sq, ROULETTE_ODDS[sq as usize])
            })
        })
    }
}

impl Agent<Othello> for Roulette {
    #[inline]
    fn choose(&mut self, pos: &Othello, rng: &mut GameRng) -> Move {
        let legal = pos.legal_mask();
        if legal == 0 {
            return Move::Pass;
        }
        if legal.count_ones() == 1 {
            return Move::Place(
                Square::from_index(legal.trailing_zeros() as usize).expect("a square"),
            );
        }
        let total: u32 = Roulette::odds(pos).map(|(_, w)| w).sum();
        let mut draw = rng.below(total as usize) as u32;
        for (sq, w) in Roulette::odds(pos) {
            if draw < w {
                return Move::Place(Square::from_index(sq as usize).expect("a square"));
            }
            draw -= w;
        }
        unreachable!("the draw is below the total odds")
    }

    fn analyst(&mut self) -> Option<&mut dyn Analyst<Othello>> {
        Some(self)
    }
}

impl Analyst<Othello> for Roulette {
    fn policy(&mut self, pos: &Othello) -> Option<Policy<Move>> {
        let legal = pos.legal_mask();
        if legal.count_ones() <= 1 {
            return Some(Policy::uniform(&Game::legal_moves(pos)));
        }
        let total: u32 = Roulette::odds(pos).map(|(_, w)| w).sum();
        Some(Policy::from_weighted(
            Roulette::odds(pos)
                .map(|(sq, w)| {
                    let mv = Move::Place(Square::from_index(sq as usize).expect("a square"));
                    (mv, f64::from(w) / f64::from(total))
                })
                .collect(),
        ))
    }
}

/// The moves that flip the most discs (article 003's one-ply greedy player).
pub struct Greedy;

impl BestMoves<Othello> for Greedy {
    fn best_moves(&mut self, pos: &Othello) -> Moves {
        let moves = Game::legal_moves(pos);
        let flips = |m: &Move| match m {
            Move::Place(sq) => pos.flip_count(*sq),
            Move::Pass => 0,
        };
        let best = moves.iter().map(flips).max().unwrap_or(0);
        moves.into_iter().filter(|m| flips(m) == best).collect()
    }
}

/// Full-width minimax (negamax) to a fixed depth: article 003's Min-Max, with the leaf
/// evaluation always taken from the point of view of the side to move there and passes
/// counted as plies.
pub struct Minimax {
    pub depth: u32,
    pub eval: Eval,
}

impl Minimax {
    fn value(&self, pos: &mut Othello, depth: u32) -> i32 {
        if depth == 0 || pos.is_over() {
            return self.eval.evaluate(pos);
        }
        let mut best = i32::MIN;
        for mv in Game::legal_moves(pos) {
            pos.play_unchecked(mv);
            best = best.max(-self.value(pos, depth - 1));
            pos.undo();
        }
        best
    }

    /// Each move with its value for the side to move.
    pub fn move_values(&self, pos: &Othello) -> Vec<(Move, i32)> {
        let mut p = pos.clone();
        Game::legal_moves(pos)
            .into_iter()
            .map(|mv| {
                p.play_unchecked(mv);
                let v = -self.value(&mut p, self.depth - 1);
                p.undo();
                (mv, v)
            })
            .collect()
    }
}

impl BestMoves<Othello> for Minimax {
    fn best_moves(&mut self, pos: &Othello) -> Moves {
        let values = self.move_values(pos);
        let best = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
        values
            .into_iter()
            .filter(|&(_, v)| v == best)
            .map(|(m, _)| m)
            .collect()
    }

    fn move_scores(&mut self, pos: &Othello) -> Option<Vec<(Move, f64)>> {
        Some(
            self.move_values(pos)
                .into_iter()
                .map(|(m, v)| (m, f64::from(v)))
                .collect(),
        )
    }
}

/// An evaluation seen from black, as core's search wants it.
struct FromBlack(Eval);

impl LeafEval<Othello> for FromBlack {
    fn evaluate(&mut self, pos: &Othello) -> f64 {
        let v = f64::from(self.0.evaluate(pos));
        if pos.black_to_move() { v } else { -v }
    }
}

/// Alpha-beta with iterative deepening and a transposition table (core's search), under a
/// time limit per move, and an exact endgame search from `endgame` empties.
pub struct AlphaBeta {
    /// The spec's time a move.
    pub time: Option<Duration>,
    /// A game clock's share for each move ([`Agent::set_move_time`]).
    pub move_time: Option<Duration>,
    pub depth: u32,
    pub eval: Eval,
    pub endgame: u32,
    /// Set from outside to end a search at once.
    pub stop: Option<gamelab_core::StopFlag>,
    /// The exact search of the endgame, kept from move to move: a new one a move spent
    /// a fifth of a fast match's time clearing its table (`alphabeta:time=0,depth=2`
    /// against greedy). The move it returns, the first best one in its order, does not
    /// depend on what its table holds.
    solver: Solver,
}

impl AlphaBeta {
    fn decide(&mut self, pos: &Othello) -> Move {
        let moves = Game::legal_moves(pos);
        if moves.len() == 1 {
            return moves[0];
        }
        if pos.empties() <= self.endgame {
            return self.solver.solve(pos).1.expect("the game is not over");
        }
        let options = SearchOptions {
            max_depth: self.depth,
            use_tt: true,
            symmetric: false,
            time_limit: gamelab_core::clock::shorter(self.time, self.move_time),
        };
        analyze_until(pos, &mut FromBlack(self.eval), options, self.stop.as_ref())
            .last()
            .and_then(|d| d.best)
            .unwrap_or(moves[0])
    }
}

impl Agent<Othello> for AlphaBeta {
    fn set_stop(&mut self, stop: &gamelab_core::StopFlag) {
        self.stop = Some(stop.clone());
    }

    fn set_move_time(&mut self, limit: Option<Duration>) -> bool {
        self.move_time = limit;
        true
    }

    fn choose(&mut self, pos: &Othello, _rng: &mut GameRng) -> Move {
        self.decide(pos)
    }

    fn analyst(&mut self) -> Option<&mut dyn Analyst<Othello>> {
        Some(self)
    }
}

impl Analyst<Othello> for AlphaBeta {
    /// Without a time limit the choice is a fixed function of the position.
    fn policy(&mut self, pos: &Othello) -> Option<Policy<Move>> {
        gamelab_core::clock::shorter(self.time, self.move_time)
            .is_none()
            .then(|| Policy::uniform(&[self.decide(pos)]))
    }
}

fn eval_param(name: &'static str, default: &'static str) -> ParamSpec {
    ParamSpec::choice(
        name,
        Eval::NAMES,
        default,
        "leaf evaluation: discs, gain, weighted, weighted+mobility",
    )
}

/// Every Othello AI.
/// The learned AI: the pattern evaluation inside a principal-variation search, exact from
/// a few empty squares before the end.
pub struct Engine {
    pub searcher: crate::engine::search::Searcher,
    pub limits: crate::engine::search::Limits,
    /// The last search: `choose`, `policy` and `explain` on one position search once (for
    /// a depth-limited search; a timed one always searches), and `value` right after any
    /// of them reads its score rather than search again (an NBoard `go` asks for both: a
    /// second search doubled a timed engine's time a move).
    last: Option<LastSearch>,
    /// Positions it plays from the book rather than search (none unless set); only at
    /// levels below the depth of the book's searches (a search as deep does better alone).
    pub book: Option<std::sync::Arc<crate::engine::book::Book>>,
    /// The level the book is for: the search's, or the default level's when a time alone
    /// lifted the search's ([`engine_level`]): such an engine plays from a book it was
    /// given, as the default level would.
    pub book_level: u32,
    /// The spec's time a move, which a game clock's share ([`Agent::set_move_time`]) can
    /// only shorten.
    own_time: Option<Duration>,
}

struct LastSearch {
    /// The position, as (mover's discs, opponent's).
    discs: (u64, u64),
    result: crate::engine::search::SearchResult,
    /// It reached the level's depth (or solved exactly): not cut short by a stop.
    whole: bool,
    /// No `value` has read it yet.
    fresh: bool,
    /// The games of the book's position when the book answered instead of a search.
    book_games: Option<u32>,
}

impl Engine {
    /// Level `level`: a search `level` plies deep, exact from [`exact_reach`] empties,
    /// cutting by Multi-ProbCut at [`PROBCUT_DEFAULT`]; with `time`, deepening stops
    /// after that long.
    pub fn new(
        model: std::sync::Arc<crate::engine::learned::PatternModel>,
        level: u32,
        time: Option<Duration>,
    ) -> Engine {
        let mut searcher = crate::engine::search::Searcher::new(model);
        searcher.set_probcut(PROBCUT_DEFAULT);
        Engine {
            searcher,
            limits: crate::engine::search::Limits {
                depth: level,
                exact: exact_reach(level, time),
                time,
                unsettled: None,
            },
            last: None,
            book: None,
            book_level: level,
            own_time: time,
        }
    }

    /// The engine's answer for `pos`: the book's while `pos` is in it, else a search's.
    pub fn analyse(&mut self, pos: &Othello) -> crate::engine::search::SearchResult {
        self.analyse_from(pos, true)
    }

    /// The book's answer when `use_book` and `pos` is in it (looked up first, so that the
    /// move never depends on what was asked before), else a search's.
    fn analyse_from(
        &mut self,
        pos: &Othello,
        use_book: bool,
    ) -> crate::engine::search::SearchResult {
        let discs = pos.discs();
        if use_book
            && let Some((hit, level)) = self
                .book_in_use()
                .and_then(|book| Some((book.probe(pos)?, book.options.level)))
        {
            let r = crate::engine::search::SearchResult {
                best: hit.best,
                score: hit.value,
                depth: level,
                exact: false,
                nodes: 0,
                pv: hit.line,
                elapsed: Duration::ZERO,
            };
            self.last = Some(LastSearch {
                discs,
                result: r.clone(),
                whole: true,
                fresh: true,
                book_games: Some(hit.games),
            });
            return r;
        }
        // A search a stop cut short is not this level's answer: reusing it would hand the
        // hurried move to the next request for the same position.
        if self.limits.time.is_none()
            && let Some(last) = &mut self.last
            && last.discs == discs
            && last.whole
            && last.book_games.is_none()
        {
            last.fresh = true;
            return last.result.clone();
        }
        let r = self.searcher.search(pos, self.limits);
        let whole = r.exact || r.depth >= self.limits.depth.clamp(1, pos.empties());
        self.last = Some(LastSearch {
            discs,
            result: r.clone(),
            whole,
            fresh: true,
            book_games: None,
        });
        r
    }

    /// The book, when it sees further than the engine's own search: its values come from
    /// searches of the positions one move out of it, minimaxed, and a search as deep as
    /// those does better on its own (level 16 with the depth-14 shipped book scored 45.8 %
    /// against level 16 without it; levels 4 and 8 gained 4.3 and 3.8 points against
    /// themselves: RESULTS.md).
    fn book_in_use(&self) -> Option<&crate::engine::book::Book> {
        self.book
            .as_deref()
            .filter(|book| self.book_level < book.options.level)
    }

    /// The score of `pos` in discs for the side to move: the last answer's when it was of
    /// this position and no `value` has read it yet (the book's value right after a book
    /// move), else a search's. Values never come from the book otherwise: a position's
    /// value and its neighbours' (the explorer's tree, NBoard's hints) are then all of one
    /// search depth.
    fn score(&mut self, pos: &Othello) -> f64 {
        if let Some(last) = &mut self.last
            && last.discs == pos.discs()
            && last.fresh
        {
            last.fresh = false;
            return last.result.score;
        }
        let score = self.analyse_from(pos, false).score;
        if let Some(last) = &mut self.last {
            last.fresh = false;
        }
        score
    }
}

impl Agent<Othello> for Engine {
    fn set_stop(&mut self, stop: &gamelab_core::StopFlag) {
        self.searcher.set_stop(stop.clone());
    }

    /// The exact search's reach follows the time, as for a spec's `time`: a solve is
    /// tried only where one most often ends in it.
    fn set_move_time(&mut self, limit: Option<Duration>) -> bool {
        let time = gamelab_core::clock::shorter(self.own_time, limit);
        self.limits.time = time;
        self.limits.exact = exact_reach(self.limits.depth, time);
        self.limits.unsettled = None;
        true
    }

    /// On a game clock a move whose best changed at the last depth may go on past its
    /// share, within the clock's allowance ([`Clock::unsettled_time`]) and the spec's own
    /// time; the moves after it get shares of what is then left.
    ///
    /// [`Clock::unsettled_time`]: gamelab_core::clock::Clock::unsettled_time
    fn tell_clock(&mut self, clock: &gamelab_core::clock::Clock) {
        // The share is already within the spec's time, and the allowance never below the
        // share: the shorter of the two never is either.
        self.limits.unsettled = self.limits.time.and_then(|share| {
            gamelab_core::clock::shorter(self.own_time, Some(clock.unsettled_time(share)))
        });
    }

    fn choose(&mut self, pos: &Othello, _rng: &mut GameRng) -> Move {
        self.analyse(pos).best
    }

    fn analyst(&mut self) -> Option<&mut dyn Analyst<Othello>> {
        Some(self)
    }
}

impl Analyst<Othello> for Engine {
    fn last_search(&self) -> Option<gamelab_core::SearchStats<Move>> {
        self.last.as_ref().map(|last| gamelab_core::SearchStats {
            nodes: last.result.nodes,
            depth: last.result.depth,
            exact: last.result.exact,
            pv: last.result.pv.clone(),
            book_games: last.book_games.map(u64::from),
        })
    }

    fn policy(&mut self, pos: &Othello) -> Option<Policy<Move>> {
        self.limits
            .time
            .is_none()
            .then(|| Policy::uniform(&[self.analyse(pos).best]))
    }

    fn value(&mut self, pos: &Othello) -> Option<f64> {
        if pos.is_over() {
            return None;
        }
        // The search only evaluates a position whose side must pass: the value is the
        // opponent's position's, searched, turned round.
        if pos.must_pass() {
            let mut passed = pos.clone();
            passed.play_unchecked(Move::Pass);
            return Some(-self.score(&passed));
        }
        Some(self.score(pos))
    }

    /// Each move's value in discs for the side that plays it: the position after it
    /// searched one ply less deep (exactly, where it is within the exact search's reach),
    /// under a time limit each move's share of it.
    fn move_scores(&mut self, pos: &Othello) -> Option<Vec<(Move, f64)>> {
        let limits = self.move_limits(pos);
        let scores = Game::legal_moves(pos)
            .iter()
            .map(|&mv| (mv, self.value_after(pos, mv, limits).score))
            .collect();
        Some(scores)
    }

    /// [`Analyst::move_scores`], each value exact where its search reached the end.
    fn move_values(&mut self, pos: &Othello) -> Option<Vec<DeepScore<Move>>> {
        let limits = self.move_limits(pos);
        let values = Game::legal_moves(pos)
            .iter()
            .map(|&mv| self.value_after(pos, mv, limits).of_move(mv))
            .collect();
        Some(values)
    }

    fn score_scale(&self) -> gamelab_core::valuation::ScoreScale {
        gamelab_core::valuation::ScoreScale::Discs
    }

    /// Every move valued at levels 1, 2, … up to [`MAX_LEVEL`], each searched as
    /// `level=N`'s [`Analyst::move_scores`] searches it (the position after the move N − 1
    /// plies deep, exactly from [`exact_reach`] empties), on one table kept from level to
    /// level, so that each level's search starts from the last's result and depth: an
    /// inexact value may differ from a fresh `level=N`'s, exact ones never. Of 4,290
    /// values (40 positions after 20 random plies, levels 1 to 10: `cargo run --release
    /// -p gamelab-othello --example deepening_agrees -- 40 10`), 87 differ, 36 by more
    /// than a disc; the 6 beyond 4 discs (at most 17) in positions lost by over 30,
    /// where the evaluation saturates. A move whose value is exact is searched no more.
    /// Within the engine's `time` when it has one.
    fn deepen_move_scores(
        &mut self,
        pos: &Othello,
        report: &mut dyn FnMut(&Deepening<Move>) -> ControlFlow<()>,
    ) -> Option<DeepeningEnd> {
        Some(self.within_time(|engine, outer, timed| engine.deepen(pos, outer, timed, report)))
    }

    /// The best `count` lines at levels 1, 2, … as [`Analyst::deepen_move_scores`]
    /// values the moves (the same searches, on the same table), found by a multi-line
    /// search ([`gamelab_core::deepen_lines_by_moves`]): a move not among the best lines
    /// so far is tested against the `count`-th best value by a search bounded there
    /// ([`crate::engine::search::Searcher::search_bounded`]), which leaves most moves out
    /// at a fraction of their whole search's cost.
    fn deepen_lines(
        &mut self,
        pos: &Othello,
        count: usize,
        report: &mut dyn FnMut(&Deepening<Move>) -> ControlFlow<()>,
    ) -> Option<DeepeningEnd> {
        Some(self.within_time(|engine, outer, timed| {
            let moves = Game::legal_moves(pos);
            let mut value = |mv, level: u32, floor: Option<f64>| {
                let stop = if level == 1 { outer } else { Some(timed) };
                engine.searcher.replace_stop(stop.cloned());
                let tested = engine.tested_after(pos, mv, Self::level_limits(level), floor);
                let stopped = stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
                (!stopped).then_some(tested)
            };
            gamelab_core::deepen_lines_by_moves(moves, count, MAX_LEVEL, &mut value, report)
        }))
    }

    fn explain(&mut self, pos: &Othello) -> Option<String> {
        let r = self.analyse(pos);
        let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
        if let Some(games) = self.last.as_ref().and_then(|last| last.book_games) {
            return Some(format!(
                "book: {games} games reached this position, score {:+.2} discs (depth-{} searches minimaxed over the book), line {}",
                r.score,
                r.depth,
                pv.join(" ")
            ));
        }
        Some(format!(
            "{} {}, score {:+.2} discs, {} nodes in {:.3} s ({:.0} nodes/s), pv {}",
            if r.exact {
                "exact to the end:"
            } else {
                "depth"
            },
            r.depth,
            r.score,
            r.nodes,
            r.elapsed.as_secs_f64(),
            r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-9),
            pv.join(" ")
        ))
    }
}

impl Engine {
    /// [`Analyst::deepen_move_scores`]'s steps, until `timed` is raised. The first level
    /// is valued whole unless `outer` is raised: a time limit, however short, gives every
    /// move a value (a level-1 search takes microseconds).
    fn deepen(
        &mut self,
        pos: &Othello,
        outer: Option<&gamelab_core::StopFlag>,
        timed: &gamelab_core::StopFlag,
        report: &mut dyn FnMut(&Deepening<Move>) -> ControlFlow<()>,
    ) -> DeepeningEnd {
        let moves = Game::legal_moves(pos);
        let mut value = |mv, level: u32| {
            let stop = if level == 1 { outer } else { Some(timed) };
            self.searcher.replace_stop(stop.cloned());
            let valued = self.value_after(pos, mv, Self::level_limits(level));
            let stopped = stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
            (!stopped).then_some(valued)
        };
        gamelab_core::deepen_by_moves(moves, MAX_LEVEL, &mut value, report)
    }

    /// Runs a deepening, `deepen(engine, outer, timed)`: `outer` the stop given from
    /// outside, `timed` raised by it or at the engine's time limit. The searcher's stop is
    /// `outer` again afterwards.
    fn within_time<T>(
        &mut self,
        deepen: impl FnOnce(&mut Self, Option<&gamelab_core::StopFlag>, &gamelab_core::StopFlag) -> T,
    ) -> T {
        let outer = self.searcher.stop_flag().cloned();
        let deadline = self.limits.time.map(|t| std::time::Instant::now() + t);
        let watchdog = gamelab_core::Watchdog::start(outer.as_ref(), deadline);
        let end = deepen(self, outer.as_ref(), watchdog.flag());
        self.searcher.replace_stop(outer);
        end
    }

    /// The search of each move at level `level` of a deepening analysis: as `level=N`'s
    /// [`Analyst::move_scores`] searches it.
    fn level_limits(level: u32) -> crate::engine::search::Limits {
        crate::engine::search::Limits {
            depth: level.saturating_sub(1).max(1),
            exact: exact_reach(level, None),
            time: None,
            unsettled: None,
        }
    }

    /// The search of each move for [`Analyst::move_scores`]: one ply less deep than the
    /// engine's, a time limit shared between the moves.
    fn move_limits(&self, pos: &Othello) -> crate::engine::search::Limits {
        let moves = Game::legal_moves(pos).len().max(1) as u32;
        crate::engine::search::Limits {
            depth: self.limits.depth.saturating_sub(1).max(1),
            exact: self.limits.exact,
            time: self.limits.time.map(|t| t / moves),
            unsettled: None,
        }
    }

    /// The value of playing `mv` in `pos` for the side that plays it: the final score
    /// when it ends the game, else the position after it searched within `limits` (past
    /// the opponent's pass, since the search only evaluates a position whose side can
    /// move), with the line the search expects.
    fn value_after(
        &mut self,
        pos: &Othello,
        mv: Move,
        limits: crate::engine::search::Limits,
    ) -> MoveValue<Move> {
        match self.tested_after(pos, mv, limits, None) {
            Tested::Value(value) => value,
            Tested::AtMost { .. } => unreachable!("a search with no floor values the move"),
        }
    }

    /// [`Engine::value_after`], or with a `floor` only that the value is at most the
    /// floor when the search finds it so (a search bounded there, for a multi-line
    /// analysis).
    fn tested_after(
        &mut self,
        pos: &Othello,
        mv: Move,
        limits: crate::engine::search::Limits,
        floor: Option<f64>,
    ) -> Tested<Move> {
        use crate::engine::search::Fell;
        let mut child = pos.clone();
        child.play_unchecked(mv);
        let mut line = vec![mv];
        if child.is_over() {
            let (p, o) = child.discs();
            return Tested::Value(MoveValue {
                score: -f64::from(crate::engine::endgame::final_score(p, o)),
                exact: true,
                line,
                nodes: 0,
            });
        }
        // The value for the mover is the searched position's, turned round unless the
        // opponent passes.
        let turned = !child.must_pass();
        if !turned {
            child.play_unchecked(Move::Pass);
            line.push(Move::Pass);
        }
        let sign = if turned { -1.0 } else { 1.0 };
        let (r, fell) = match floor {
            None => (self.searcher.search(&child, limits), Fell::Inside),
            Some(floor) if turned => {
                let window = (f64::NEG_INFINITY, -floor);
                self.searcher.search_bounded(&child, limits, window)
            }
            Some(floor) => {
                let window = (floor, f64::INFINITY);
                self.searcher.search_bounded(&child, limits, window)
            }
        };
        // Below the mover's floor: at or above the ceiling turned round, at or below it
        // otherwise.
        let left_out = match fell {
            Fell::Inside => false,
            Fell::AtLeast => turned,
            Fell::AtMost => !turned,
        };
        if let (true, Some(floor)) = (left_out, floor) {
            return Tested::AtMost {
                bound: floor,
                nodes: r.nodes,
            };
        }
        line.extend(r.pv);
        Tested::Value(MoveValue {
            score: sign * r.score,
            exact: r.exact,
            line,
            nodes: r.nodes,
        })
    }
}

/// The engine's deepest level.
pub const MAX_LEVEL: u32 = 30;

/// The engine's level when a spec gives neither a level nor a time.
pub const DEFAULT_LEVEL: u32 = 8;

/// The level an `engine` spec searches to: the one it gives; else, with a time limit, the
/// deepest (the time is what a user gave it to spend, as `mcts`'s time alone lifts its
/// iteration limit); else [`DEFAULT_LEVEL`].
pub fn engine_level(level: Option<u32>, time: Option<Duration>) -> u32 {
    match (level, time) {
        (Some(level), _) => level,
        (None, Some(_)) => MAX_LEVEL,
        (None, None) => DEFAULT_LEVEL,
    }
}

pub use crate::engine::probcut::PROBCUT_DEFAULT;

/// The empties from which the engine at `level` solves exactly: `level + 6` up to level
/// 16 (22 empties), then one more every two levels, and never fewer than the level,
/// since a midgame search that deep reaches the end anyway, inexactly and at a higher
/// cost (FFO #40's 20 empties at level 20: 45.7 M nodes, against 12.9 M to solve it).
/// So the first exact solve of a game costs about one to two and a half times a midgame
/// move of the level (one thread, the Intel host of 2026-11-29, positions of games of
/// the engine at level 4: levels 14, 16, 18, 20 search a midgame position in 0.05, 0.15,
/// 0.41, 2.1 s on average; exact solves from 20, 22, 23, 24 empties take 0.09, 0.39,
/// 0.88, 2.4 s, and from 26 9.6 s).
///
/// With a time limit, a solve is tried where it most often ends in time; one that does
/// not gives way to a midgame search's move (`Searcher::search`). From 16 empties at
/// 0.025 s a move, 18 from 0.08 s, 20 from 0.3 s, 22 from 1 s, 24 from 6 s, 26 from 30 s,
/// below 0.025 s 14: the time is at least two and a half times the mean solve there
/// (one thread, the Intel host of 2026-11-29, 20 positions each of games of the engine at
/// level 4, a new solver each (`--example exact_reach -- E 20`): from 14 empties 0.002
/// s, 16 0.009 s, 18 0.028 s, 20 0.113 s, 22 0.403 s, 24 2.458 s (slowest 8.2 s), 26
/// 9.6 s); in a game the solves after the first are quicker, the solver's table warm.
/// The smallest times come from a game clock running down (GTP's `time_settings`).
pub fn exact_reach(level: u32, time: Option<Duration>) -> u32 {
    let reach = if level <= 16 {
        level + 6
    } else {
        22 + (level - 16) / 2
    };
    let Some(time) = time else {
        return reach.max(level);
    };
    let fits = match time.as_secs_f64() {
        t if t >= 30.0 => 26,
        t if t >= 6.0 => 24,
        t if t >= 1.0 => 22,
        t if t >= 0.3 => 20,
        t if t >= 0.08 => 18,
        t if t >= 0.025 => 16,
        _ => 14,
    };
    reach.min(fits)
}

/// Every Othello AI: the article's, the engine's levels, MCTS, outside programs.
///
/// ```
/// use gamelab_core::{Game, Side, game_rng};
/// use gamelab_othello::{Othello, ai};
///
/// let mut engine = ai::registry().build("engine:level=4").unwrap();
/// let pos = Othello::new();
/// let mv = engine.choose(&pos, &mut game_rng(0, 0, Side::First));
/// assert!(pos.legal_moves().contains(&mv));
/// assert!(ai::registry().build("engine:level=99").is_err());
/// ```
pub fn registry() -> Registry<Othello> {
    let mut r = Registry::new();
    r.register(AgentEntry::new(
        "engine",
        "the learned pattern evaluation (fitted to the WTHOR games) in a PVS midgame search, exact near the end",
        vec![
            ParamSpec::int("level", DEFAULT_LEVEL.into(), 1, i64::from(MAX_LEVEL), "plies of midgame search (with `time` and no level: up to 30, as deep as the time allows); exact from level+6 empties up to level 16, then one more every two levels (with a time limit, tried where a solve most often ends in time, a midgame search's move in hand: 14 below 0.025 s a move; 16, 18, 20, 22, 24, 26 from 0.025, 0.08, 0.3, 1, 6, 30 s)"),
            ParamSpec::float(
                "time",
                0.0,
                0.0,
                3600.0,
                "seconds per move, 0 for none (deepening up to `level`, or as deep as the time allows when no level is given; results then depend on the machine)",
            ),
            ParamSpec::float(
                "probcut",
                PROBCUT_DEFAULT,
                0.0,
                4.0,
                "Multi-ProbCut's threshold in standard deviations: nodes a shallow search predicts are cut (0 searches every node to full depth)",
            ),
            ParamSpec::int(
                "threads",
                0,
                0,
                256,
                "threads for the search, midgame and endgame, 0 for every core (one inside a match, whose games fill the cores already); the same move and score on any number",
            ),
            ParamSpec::file(
                "model",
                Some("shipped"),
                &["shipped"],
                crate::engine::learned::MAX_MODEL_BYTES,
                "`shipped`, or a model file written by `gamelab train-patterns`",
            ),
            ParamSpec::file(
                "book",
                Some("none"),
                &["none", "shipped"],
                crate::engine::book::MAX_BOOK_BYTES,
                "an opening book to play from while the position is in it, at levels below the depth of the book's searches (14 for the shipped one; a `time` without a level counts as the default level): `none` (the default: the shipped book made it no stronger against GRhino, RESULTS.md), `shipped`, or a book file written by `gamelab build-book`",
            ),
        ],
        |p| {
            // A file's contents, parsed; a message that names the file when they are not.
            let invalid = |path: &str, e: &dyn std::fmt::Display| SpecError::Invalid {
                agent: "engine".into(),
                reason: format!("{path}: {e}"),
            };
            let model = match p.file("model") {
                FileValue::Read { path, .. } => p
                    .parsed("model", crate::engine::learned::PatternModel::from_bytes)
                    .map_err(|e| invalid(path, &e))?,
                FileValue::Keyword(_) => crate::engine::learned::shipped(),
            };
            let seconds = p.float("time");
            let time = (seconds > 0.0).then(|| Duration::from_secs_f64(seconds));
            let level = p.is_explicit("level").then(|| p.int("level") as u32);
            let mut engine = Engine::new(model, engine_level(level, time), time);
            engine.book_level = level.unwrap_or(DEFAULT_LEVEL);
            engine.searcher.set_probcut(p.float("probcut"));
            engine.searcher.set_threads(p.int("threads") as usize);
            engine.book = match p.file("book") {
                FileValue::Read { path, .. } => Some(
                    p.parsed("book", crate::engine::book::Book::from_bytes)
                        .map_err(|e| invalid(path, &e))?,
                ),
                FileValue::Keyword("shipped") => Some(crate::engine::book::shipped()),
                FileValue::Keyword(_) => None,
            };
            Ok(Box::new(engine))
        },
    ));
    r.register(AgentEntry::new(
        "random",
        "a uniformly random legal move",
        vec![],
        |_| Ok(Box::new(Random)),
    ));
    r.register(AgentEntry::new(
        "roulette",
        "a random legal move drawn by its square's odds: corners nearly always, the squares beside them rarely (mcts's Othello playouts)",
        vec![],
        |_| Ok(Box::new(Roulette)),
    ));
    r.register(AgentEntry::new(
        "greedy",
        "the move that flips the most discs, random among ties (article 003's 1st gain max)",
        vec![],
        |_| Ok(Box::new(Uniform(Greedy))),
    ));
    r.register(AgentEntry::new(
        "minimax",
        "full-width minimax to a fixed depth (article 003's Min-Max, done right)",
        vec![
            ParamSpec::int("depth", 3, 1, 6, "plies"),
            eval_param("eval", "weighted"),
        ],
        |p| {
            Ok(Box::new(Uniform(Minimax {
                depth: p.int("depth") as u32,
                eval: Eval::from_name(p.text("eval")).expect("a declared choice"),
            })))
        },
    ));
    r.register(AgentEntry::new(
        "alphabeta",
        "alpha-beta, iterative deepening, transposition table, time per move, exact endgame",
        vec![
            ParamSpec::float(
                "time",
                1.0,
                0.0,
                3600.0,
                "seconds per move; 0 searches to `depth` without a limit",
            ),
            ParamSpec::int("depth", 60, 1, 60, "deepest iteration"),
            eval_param("eval", "weighted+mobility"),
            ParamSpec::int(
                "endgame",
                14,
                0,
                20,
                "empties from which to search to the end exactly",
            ),
        ],
        |p| {
            let seconds = p.float("time");
            if seconds == 0.0 && p.int("depth") > 10 && !p.is_explicit("depth") {
                return Err(SpecError::Invalid {
                    agent: "alphabeta".into(),
                    reason: "time=0 needs an explicit depth (e.g. depth=6)".into(),
                });
            }
            Ok(Box::new(AlphaBeta {
                time: (seconds > 0.0).then(|| Duration::from_secs_f64(seconds)),
                move_time: None,
                depth: p.int("depth") as u32,
                eval: Eval::from_name(p.text("eval")).expect("a declared choice"),
                endgame: p.int("endgame") as u32,
                stop: None,
                solver: Solver::default(),
            }))
        },
    ));
    r.register(AgentEntry::new(
        "nboard",
        "an outside Othello program that speaks the NBoard protocol (Edax, Egaroucid, `gamelab nboard`), run as a child process; a crash, a stall, garbage or an illegal move forfeits the game",
        [
            vec![
                ParamSpec::program(
                    "cmd",
                    "nboard",
                    "the program and its arguments, e.g. (edax -q) or (gamelab nboard --ai engine:level=4)",
                ),
                ParamSpec::int("depth", 0, 0, 60, "`set depth` sent when it starts; 0 leaves it at its own"),
            ],
            outside_program_params(),
        ]
        .concat(),
        |p| {
            let depth = u32::try_from(p.int("depth")).ok().filter(|&d| d > 0);
            let engine = crate::protocols::nboard_engine::NboardEngine::new(
                p.text("cmd"),
                Duration::from_secs_f64(p.float("timeout")),
                on_failure(p),
                crate::protocols::nboard_engine::Nboard::new(depth),
            )
            .map_err(|reason| SpecError::Invalid {
                agent: "nboard".into(),
                reason: reason.to_string(),
            })?;
            Ok(Box::new(engine))
        },
    ));
    r.register(AgentEntry::new(
        "gtp",
        "an outside Othello program that speaks the Go Text Protocol (GRhino's gtp-rhino, `gamelab gtp`), run as a child process, from the standard start only; on a match's clock it is told its time (`time_settings`, `time_left`) if it knows those commands; a crash, a stall, garbage, a resignation or an illegal move forfeits the game",
        [
            vec![ParamSpec::program(
                "cmd",
                "gtp",
                "the program and its arguments, e.g. (gtp-rhino -l 4) or (gamelab gtp --ai engine:level=4)",
            )],
            outside_program_params(),
        ]
        .concat(),
        |p| {
            let engine = crate::protocols::gtp_engine::GtpEngine::new(
                p.text("cmd"),
                Duration::from_secs_f64(p.float("timeout")),
                on_failure(p),
                crate::protocols::gtp_engine::Gtp::default(),
            )
            .map_err(|reason| SpecError::Invalid {
                agent: "gtp".into(),
                reason: reason.to_string(),
            })?;
            Ok(Box::new(engine))
        },
    ));
    // Uniform playouts give corners away as often as they take them: MCTS over them loses
    // to article 003's three-ply minimax, over roulette's and steered by it wins (RESULTS.md).
    r.register(gamelab_core::mcts::entry_with(
        registry,
        gamelab_core::mcts::MctsDefaults {
            playout: "roulette",
            prior: true,
            exploration: 10.0,
        },
    ));
    r
}

/// The parameters every outside program's agent has besides its command.
fn outside_program_params() -> Vec<ParamSpec> {
    vec![
        ParamSpec::float(
            "timeout",
            60.0,
            0.001,
            86_400.0,
            "seconds it may take to answer; past them it forfeits the game",
        ),
        ParamSpec::choice(
            "on_failure",
            &["lose", "stop"],
            "lose",
            "a failure loses the game (the program is started afresh), or stops the whole match",
        ),
    ]
}

fn on_failure(p: &gamelab_core::Params) -> crate::protocols::outside_engine::OnFailure {
    match p.text("on_failure") {
        "stop" => crate::protocols::outside_engine::OnFailure::Stop,
        _ => crate::protocols::outside_engine::OnFailure::Lose,
    }
}

/// What `start` makes of the spec `engine:model=FILE`, FILE a copy of the shipped model
/// (in the folder returned, kept while it lives) damaged just after: for tests of what
/// reads a model once.
#[cfg(test)]
pub(crate) fn started_then_model_damaged<T>(
    start: impl FnOnce(&str) -> T,
) -> (T, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.glopat");
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/model/patterns.glopat");
    std::fs::copy(shipped, &model).unwrap();
    let started = start(&format!("engine:model={}", model.display()));
    std::fs::write(&model, "not a model").unwrap();
    (started, dir)
}
