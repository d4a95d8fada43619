//! Connect Four's AIs: uniformly random, greedy about threats, and alpha-beta through
//! gamelab-core's generic search with an evaluation of open fours, handing over to the
//! exact solver near the end.

use std::ops::ControlFlow;
use std::sync::OnceLock;
use std::time::Duration;

use gamelab_core::Tested;
use gamelab_core::search::{LeafEval, SearchOptions, analyze_bounded, analyze_until};
use gamelab_core::valuation::ScoreScale;
use gamelab_core::{
    Agent, AgentEntry, Analyst, BestMoves, DeepScore, Deepening, DeepeningEnd, Game, GameRng,
    MoveValue, Outcome, ParamSpec, Policy, Registry, Side, Uniform,
};

use crate::position::{BOARD, bit, winning_squares};
use crate::solve::{Solver, proven_value};
use crate::{ConnectFour, HEIGHT, Move, Moves, WIDTH};

/// Every four-in-a-row window of the board (69 of them).
fn windows() -> &'static [u64] {
    static WINDOWS: OnceLock<Vec<u64>> = OnceLock::new();
    WINDOWS.get_or_init(|| {
        let mut windows = Vec::new();
        for col in 0..WIDTH as i64 {
            for row in 0..HEIGHT as i64 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let cells: Vec<(i64, i64)> =
                        (0..4).map(|k| (col + k * dc, row + k * dr)).collect();
                    if cells.iter().all(|&(c, r)| {
                        (0..WIDTH as i64).contains(&c) && (0..HEIGHT as i64).contains(&r)
                    }) {
                        windows.push(
                            cells
                                .iter()
                                .fold(0, |w, &(c, r)| w | bit(c as usize, r as usize)),
                        );
                    }
                }
            }
        }
        windows
    })
}

/// The static evaluation, red's (the first side's) point of view: a win is worth more
/// than any position and sooner is better; otherwise each window that only one side has
/// discs in counts 1, 4 or 16 for that side's 1, 2 or 3 discs.
pub fn evaluate(game: &ConnectFour) -> f64 {
    match game.outcome() {
        Some(Outcome::Win(side)) => {
            let v = 1000.0 + game.empties() as f64;
            return if side == Side::First { v } else { -v };
        }
        Some(Outcome::Draw) => return 0.0,
        None => {}
    }
    const WORTH: [f64; 4] = [0.0, 1.0, 4.0, 16.0];
    let (red, yellow) = (game.stones(Side::First), game.stones(Side::Second));
    windows()
        .iter()
        .map(|&w| {
            let (r, y) = ((w & red).count_ones(), (w & yellow).count_ones());
            match (r, y) {
                (0, 0) => 0.0,
                (r, 0) => WORTH[r as usize],
                (0, y) => -WORTH[y as usize],
                _ => 0.0,
            }
        })
        .sum()
}

/// A uniformly random column.
pub struct Random;

impl BestMoves<ConnectFour> for Random {
    fn best_moves(&mut self, game: &ConnectFour) -> Moves {
        game.legal_moves()
    }

    fn is_all_legal_moves(&self) -> bool {
        true
    }
}

/// Wins at once when it can, else blocks the opponent's immediate win, else avoids giving
/// the opponent a win on top of its own disc; random among what is left.
pub struct Greedy;

impl BestMoves<ConnectFour> for Greedy {
    fn best_moves(&mut self, game: &ConnectFour) -> Moves {
        let moves = game.legal_moves();
        let me = game.stones(game.to_move());
        let them = game.occupied() ^ me;
        let empty = BOARD & !game.occupied();
        let mine = winning_squares(me, empty);
        let theirs = winning_squares(them, empty);
        let pick = |keep: &dyn Fn(&Move) -> bool| -> Moves {
            moves.iter().copied().filter(|m| keep(m)).collect()
        };
        let wins = pick(&|m| mine & m.bit() != 0);
        if !wins.is_empty() {
            return wins;
        }
        let blocks = pick(&|m| theirs & m.bit() != 0);
        if !blocks.is_empty() {
            return blocks;
        }
        // The square above a move becomes playable for the opponent.
        let safe = pick(&|m| theirs & (m.bit() << 1) & BOARD == 0);
        if safe.is_empty() { moves } else { safe }
    }
}

struct Eval;

impl LeafEval<ConnectFour> for Eval {
    fn evaluate(&mut self, game: &ConnectFour) -> f64 {
        evaluate(game)
    }
}

/// Alpha-beta to a depth (or iterative deepening under a time limit) with [`evaluate`] at
/// the leaves; from `exact` empty squares on, the exact solver.
pub struct AlphaBeta {
    pub depth: u32,
    pub time: Option<Duration>,
    /// A game clock's share for the next move (or an analysis's time), which shortens
    /// `time`.
    pub move_time: Option<Duration>,
    pub exact: usize,
    /// Set from outside to end a search at once.
    pub stop: Option<gamelab_core::StopFlag>,
}

impl AlphaBeta {
    /// The time a move (or a deepening) may take: the spec's, or a clock's shorter share.
    fn time_limit(&self) -> Option<Duration> {
        gamelab_core::clock::shorter(self.time, self.move_time)
    }

    fn decide(&self, game: &ConnectFour) -> Move {
        let moves = game.legal_moves();
        if moves.len() == 1 {
            return moves[0];
        }
        if game.empties() <= self.exact {
            return Solver::default().solve(game).1.expect("the game goes on");
        }
        let options = SearchOptions {
            max_depth: self.depth,
            use_tt: true,
            symmetric: false,
            time_limit: self.time_limit(),
        };
        analyze_until(game, &mut Eval, options, self.stop.as_ref())
            .last()
            .and_then(|d| d.best)
            .unwrap_or(moves[0])
    }
}

/// A deepening's deepest level: as many plies as the board has squares.
const DEEPEST: u32 = (WIDTH * HEIGHT) as u32;

impl AlphaBeta {
    /// Runs `deepen` with the agent's stop raised at its time limit too (the spec's, or
    /// a clock's share), its own stop given back afterwards.
    fn within_time<T>(&mut self, deepen: impl FnOnce(&mut Self) -> T) -> T {
        let outer = self.stop.clone();
        let deadline = self.time_limit().map(|t| std::time::Instant::now() + t);
        let watchdog = gamelab_core::Watchdog::start(outer.as_ref(), deadline);
        self.stop = Some(watchdog.flag().clone());
        let end = deepen(self);
        self.stop = outer;
        end
    }

    /// The value of playing `mv` for the side that plays it: the game's end, the
    /// solver's from `exact` empty squares, or a search `depth` plies deep (under `time`;
    /// depth 0 the evaluation itself). `None` when stopped.
    fn value_of(
        &self,
        game: &ConnectFour,
        mv: Move,
        depth: u32,
        time: Option<Duration>,
    ) -> Option<MoveValue<Move>> {
        match self.tested(game, mv, depth, time, None)? {
            Tested::Value(value) => Some(value),
            Tested::AtMost { .. } => unreachable!("a search with no floor values the move"),
        }
    }

    /// [`AlphaBeta::value_of`], or with a `floor` only that the value is at most the
    /// floor when the search, bounded there, finds it so (for a multi-line analysis).
    fn tested(
        &self,
        game: &ConnectFour,
        mv: Move,
        depth: u32,
        time: Option<Duration>,
        floor: Option<f64>,
    ) -> Option<Tested<Move>> {
        let mover = game.to_move();
        let mut child = game.clone();
        child.play_unchecked(mv);
        let mover_view = |v: f64| if mover == Side::First { v } else { -v };
        let valued = |score, exact, line, nodes| {
            Some(Tested::Value(MoveValue {
                score,
                exact,
                line,
                nodes,
            }))
        };
        if child.is_over() {
            return valued(mover_view(evaluate(&child)), true, vec![mv], 0);
        }
        if child.empties() <= self.exact {
            let mut solver = Solver::default();
            let (v, best) = solver.solve(&child);
            let line = std::iter::once(mv).chain(best).collect();
            return valued(proven_value(-v), true, line, solver.nodes);
        }
        if depth == 0 {
            return valued(mover_view(evaluate(&child)), false, vec![mv], 1);
        }
        let options = SearchOptions {
            max_depth: depth,
            use_tt: true,
            symmetric: false,
            time_limit: time,
        };
        // The mover's floor in the first player's view: a low end for the first player's
        // move, a high end for the second's.
        let window = match floor {
            None => (f64::NEG_INFINITY, f64::INFINITY),
            Some(floor) if mover == Side::First => (floor, f64::INFINITY),
            Some(floor) => (f64::NEG_INFINITY, -floor),
        };
        let analysis = analyze_bounded(&child, &mut Eval, options, self.stop.as_ref(), window);
        let stopped = self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        let last = analysis.last().filter(|_| !stopped)?;
        let nodes = analysis.depths.iter().map(|d| d.nodes).sum();
        if let Some(floor) = floor
            && mover_view(last.score) <= floor
        {
            return Some(Tested::AtMost {
                bound: floor,
                nodes,
            });
        }
        let line = std::iter::once(mv).chain(last.pv.iter().copied()).collect();
        // A search as deep as the game is long saw every end: its value is exact.
        let exact = last.depth as usize >= child.empties();
        valued(mover_view(last.score), exact, line, nodes)
    }
}

impl Agent<ConnectFour> for AlphaBeta {
    fn set_stop(&mut self, stop: &gamelab_core::StopFlag) {
        self.stop = Some(stop.clone());
    }

    fn choose(&mut self, game: &ConnectFour, _rng: &mut GameRng) -> Move {
        self.decide(game)
    }

    fn set_move_time(&mut self, limit: Option<Duration>) -> bool {
        self.move_time = limit;
        true
    }

    fn analyst(&mut self) -> Option<&mut dyn Analyst<ConnectFour>> {
        Some(self)
    }
}

impl Analyst<ConnectFour> for AlphaBeta {
    /// Each move's value for the side that plays it: the position after it searched one
    /// ply less deep, exactly from `exact` empty squares (a proven win 1000 and the empty
    /// squares left at its end, as a search that sees it values it; a draw 0); under a time
    /// limit each move's share of it.
    fn move_scores(&mut self, game: &ConnectFour) -> Option<Vec<(Move, f64)>> {
        let values = self.move_values(game)?;
        Some(values.into_iter().map(|v| (v.mv, v.score)).collect())
    }

    /// [`Analyst::move_scores`], each value exact where the solver or a search to the end
    /// found it.
    fn move_values(&mut self, game: &ConnectFour) -> Option<Vec<DeepScore<Move>>> {
        let moves = game.legal_moves();
        let share = self.time_limit().map(|t| t / moves.len().max(1) as u32);
        let depth = self.depth.saturating_sub(1);
        moves
            .iter()
            .map(|&mv| Some(self.value_of(game, mv, depth, share)?.of_move(mv)))
            .collect()
    }

    /// Evaluation points (open fours), a proven result from 1000 on.
    fn score_scale(&self) -> ScoreScale {
        ScoreScale::Points {
            full: 50.0,
            proven_from: 1000.0,
        }
    }

    /// Every move valued at depths 1, 2, … up to 42 (each as `depth=N`'s `move_scores`:
    /// the position after the move searched N − 1 plies, the evaluation itself at depth
    /// 1), a move whose value is exact searched no more; within the spec's `time` when it
    /// has one.
    fn deepen_move_scores(
        &mut self,
        game: &ConnectFour,
        report: &mut dyn FnMut(&Deepening<Move>) -> ControlFlow<()>,
    ) -> Option<DeepeningEnd> {
        if game.is_over() {
            return None;
        }
        Some(self.within_time(|ab| {
            gamelab_core::deepen_by_moves(
                game.legal_moves(),
                DEEPEST,
                &mut |mv, level| ab.value_of(game, mv, level - 1, None),
                report,
            )
        }))
    }

    /// The best `count` lines at depths 1, 2, … as [`Analyst::deepen_move_scores`]
    /// values the moves, by a multi-line search ([`gamelab_core::deepen_lines_by_moves`]):
    /// a move not among the best lines so far is searched in a window that ends at the
    /// `count`-th best value, which alpha-beta settles far sooner than the move's value.
    fn deepen_lines(
        &mut self,
        game: &ConnectFour,
        count: usize,
        report: &mut dyn FnMut(&Deepening<Move>) -> ControlFlow<()>,
    ) -> Option<DeepeningEnd> {
        if game.is_over() {
            return None;
        }
        Some(self.within_time(|ab| {
            gamelab_core::deepen_lines_by_moves(
                game.legal_moves(),
                count,
                DEEPEST,
                &mut |mv, level, floor| ab.tested(game, mv, level - 1, None, floor),
                report,
            )
        }))
    }

    fn policy(&mut self, game: &ConnectFour) -> Option<Policy<Move>> {
        self.time_limit()
            .is_none()
            .then(|| Policy::uniform(&[self.decide(game)]))
    }
}

/// Every Connect Four AI.
pub fn registry() -> Registry<ConnectFour> {
    let mut r = Registry::new();
    r.register(AgentEntry::new(
        "random",
        "a uniformly random column",
        vec![],
        |_| Ok(Box::new(Uniform(Random))),
    ));
    r.register(AgentEntry::new(
        "greedy",
        "win now if possible, else block the opponent's win, else a column that gives the opponent no win on top",
        vec![],
        |_| Ok(Box::new(Uniform(Greedy))),
    ));
    r.register(AgentEntry::new(
        "alphabeta",
        "alpha-beta (gamelab-core's search) over open fours, exact near the end",
        vec![
            ParamSpec::int("depth", 7, 1, 20, "plies searched"),
            ParamSpec::float(
                "time",
                0.0,
                0.0,
                3600.0,
                "seconds per move, 0 for none (iterative deepening; results then depend on the machine)",
            ),
            ParamSpec::int("exact", 14, 0, 20, "solve exactly from this many empty squares"),
        ],
        |p| {
            let seconds = p.float("time");
            Ok(Box::new(AlphaBeta {
                depth: p.int("depth") as u32,
                time: (seconds > 0.0).then(|| Duration::from_secs_f64(seconds)),
                move_time: None,
                exact: p.int("exact") as usize,
                stop: None,
            }))
        },
    ));
    r.register(gamelab_core::mcts::entry(registry));
    r
}
