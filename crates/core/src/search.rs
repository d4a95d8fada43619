//! Alpha-beta search for any [`Game`], as article 004's `ai_abs_dls` does it: the first player
//! maximises and the second minimises a leaf evaluation from the first player's point of
//! view, with a depth limit, a transposition table of bounds and best moves (optionally
//! written for every symmetric image of a position), move ordering from an earlier table,
//! and iterative deepening under a time limit.
//!
//! Tic-tac-toe searched to the end with the result as the leaf value: a draw, found with
//! fewer nodes by the table, fewer still with its entries shared between images.
//!
//! ```
//! use gamelab_core::search::{SearchOptions, analyze, minimax};
//! use gamelab_core::{Game, Outcome, Side};
//! use gamelab_ttt::{Position, Square};
//!
//! let mut result = |pos: &Position| match pos.outcome() {
//!     Some(Outcome::Win(Side::First)) => 1.0,
//!     Some(Outcome::Win(Side::Second)) => -1.0,
//!     _ => 0.0,
//! };
//! let options = |use_tt, symmetric| SearchOptions { max_depth: 9, use_tt, symmetric, time_limit: None };
//! let start = Position::start();
//! let nodes: Vec<u64> = [(false, false), (true, false), (true, true)]
//!     .into_iter()
//!     .map(|(tt, sym)| {
//!         let last = analyze(&start, &mut result, options(tt, sym)).depths.pop().unwrap();
//!         assert_eq!(last.score, 0.0);
//!         last.nodes
//!     })
//!     .collect();
//! assert!(nodes[0] > nodes[1] && nodes[1] > nodes[2], "{nodes:?}");
//!
//! // o to move with two in the top row: the win, and its line.
//! let pos: Position = "oo.xx....".parse().unwrap();
//! let analysis = analyze(&pos, &mut result, options(true, true));
//! let last = analysis.last().unwrap();
//! assert_eq!((last.score, last.best), (1.0, Square::from_xy(2, 0)));
//! assert_eq!(last.pv.len(), 1);
//! assert_eq!(minimax(&mut pos.clone(), &mut result, 5), 1.0);
//! ```

use rustc_hash::FxHashMap;
use std::time::{Duration, Instant};

use crate::{Cutoff, EngineHooks, Game, Side, StopFlag};

/// A static evaluation from the first player's point of view (higher is better for the
/// first player), used at the leaves of a search.
pub trait LeafEval<G: Game> {
    fn evaluate(&mut self, game: &G) -> f64;
}

impl<G: Game, F: FnMut(&G) -> f64> LeafEval<G> for F {
    fn evaluate(&mut self, game: &G) -> f64 {
        self(game)
    }
}

/// What the table knows of a position: bounds on its value and the move that gave them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TtEntry<M> {
    pub lower: f64,
    pub upper: f64,
    pub best: M,
}

/// Position key → entry. Like the article's, entries carry no depth: within one search a
/// position is always met at the same depth in games where every move adds a piece, and
/// iterative deepening starts each depth with a fresh table. Keys are already well mixed
/// or small, so the fast Fx hash serves (SipHash made up most of a tic-tac-toe search).
pub type Table<M> = FxHashMap<u64, TtEntry<M>>;

/// How to search.
#[derive(Clone, Copy, Debug)]
pub struct SearchOptions {
    /// Plies below the root; positions at this depth are evaluated, not expanded.
    pub max_depth: u32,
    /// Keep a transposition table (the article's `use_tt`).
    pub use_tt: bool,
    /// Share table entries between the symmetric images of a position (the article's
    /// `calc_same_boardtexts`). One entry per symmetry class is kept, under the canonical
    /// key with its best move in the canonical frame: the search finds exactly what it
    /// would with an entry written for every image, at an eighth of the writes.
    pub symmetric: bool,
    /// Stop when this much time has passed; the last completed depth is the answer.
    pub time_limit: Option<Duration>,
}

/// The search was stopped by its time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeUp;

/// One depth-limited alpha-beta search with its counters.
pub struct AlphaBeta<'a, G: Game, E> {
    eval: &'a mut E,
    options: SearchOptions,
    max_depth: u32,
    /// The table this search fills.
    pub table: Table<G::Move>,
    /// A table from an earlier search whose best moves are tried first.
    ordering: Option<&'a Table<G::Move>>,
    /// Nodes visited, leaves included (the article's `count`).
    pub nodes: u64,
    cutoff: Cutoff,
}

impl<'a, G: EngineHooks, E: LeafEval<G>> AlphaBeta<'a, G, E> {
    pub fn new(
        eval: &'a mut E,
        options: SearchOptions,
        max_depth: u32,
        ordering: Option<&'a Table<G::Move>>,
        cutoff: Cutoff,
    ) -> Self {
        AlphaBeta {
            eval,
            options,
            max_depth,
            table: Table::default(),
            ordering,
            nodes: 0,
            cutoff,
        }
    }

    /// The value of `game` (first player's view) within the window (alpha, beta).
    pub fn search(&mut self, game: &mut G, alpha: f64, beta: f64) -> Result<f64, TimeUp> {
        self.node(game, 0, alpha, beta)
    }

    fn node(
        &mut self,
        game: &mut G,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
    ) -> Result<f64, TimeUp> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && self.cutoff.reached() {
            return Err(TimeUp);
        }
        if game.is_over() || depth == self.max_depth {
            return Ok(self.eval.evaluate(game));
        }
        let (key, sym) = if self.options.symmetric {
            game.canonical()
        } else {
            (game.key(), 0)
        };
        let (mut lower, mut upper) = (f64::NEG_INFINITY, f64::INFINITY);
        if self.options.use_tt
            && let Some(e) = self.table.get(&key)
        {
            (lower, upper) = (e.lower, e.upper);
            if lower == upper {
                return Ok(lower);
            } else if upper <= alpha {
                return Ok(upper);
            } else if beta <= lower {
                return Ok(lower);
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut moves = game.legal_moves();
        if let Some(best) = self
            .ordering
            .and_then(|t| t.get(&key))
            .map(|e| G::map_move(e.best, sym, true))
            && let Some(i) = moves.iter().position(|&m| m == best)
        {
            moves.swap(0, i);
        }
        let maximising = game.to_move() == Side::First;
        let mut best_move = moves[0];
        let mut score = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for &mv in moves.iter() {
            game.play_unchecked(mv);
            let value = self.node(game, depth + 1, alpha, beta);
            game.undo();
            let value = value?;
            if maximising {
                if value > score {
                    best_move = mv;
                    score = value;
                }
                if score >= beta {
                    break;
                }
                alpha = alpha.max(score);
            } else {
                if value < score {
                    best_move = mv;
                    score = value;
                }
                if score <= alpha {
                    break;
                }
                beta = beta.min(score);
            }
        }
        if self.options.use_tt {
            if score <= alpha0 {
                upper = score;
            } else if score < beta0 {
                (lower, upper) = (score, score);
            } else {
                lower = score;
            }
            let best = G::map_move(best_move, sym, false);
            self.table.insert(key, TtEntry { lower, upper, best });
        }
        Ok(score)
    }
}

/// What one depth of an analysis found.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthReport<M> {
    pub depth: u32,
    /// Value of the root, first player's view.
    pub score: f64,
    pub best: Option<M>,
    /// The principal variation, following the table's best moves from the root.
    pub pv: Vec<M>,
    pub nodes: u64,
    pub table_size: usize,
    pub elapsed: Duration,
}

/// The result of [`analyze`]: every completed depth, the last one being the answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<M> {
    pub depths: Vec<DepthReport<M>>,
    /// The time limit stopped a deeper search.
    pub timed_out: bool,
}

impl<M> Analysis<M> {
    /// The deepest completed depth: the answer.
    pub fn last(&self) -> Option<&DepthReport<M>> {
        self.depths.last()
    }
}

/// Searches `game` to `options.max_depth`. With a time limit the depths are searched one
/// after another (iterative deepening), each ordered by the previous depth's table, and the
/// last completed depth answers; without one, only the full depth is searched.
pub fn analyze<G: EngineHooks, E: LeafEval<G>>(
    game: &G,
    eval: &mut E,
    options: SearchOptions,
) -> Analysis<G::Move> {
    analyze_until(game, eval, options, None)
}

/// [`analyze`], ending early (as with a time limit) once `stop` is set.
pub fn analyze_until<G: EngineHooks, E: LeafEval<G>>(
    game: &G,
    eval: &mut E,
    options: SearchOptions,
    stop: Option<&StopFlag>,
) -> Analysis<G::Move> {
    analyze_bounded(
        game,
        eval,
        options,
        stop,
        (f64::NEG_INFINITY, f64::INFINITY),
    )
}

/// [`analyze_until`] that tells values apart only inside `window` (the first player's
/// view): a depth's score at or below its low end is only known to be at most that, one
/// at or above its high end at least that, and alpha-beta finds so far sooner than the
/// value. A multi-line analysis tests the moves outside its best lines this way.
pub fn analyze_bounded<G: EngineHooks, E: LeafEval<G>>(
    game: &G,
    eval: &mut E,
    options: SearchOptions,
    stop: Option<&StopFlag>,
    window: (f64, f64),
) -> Analysis<G::Move> {
    let started = Instant::now();
    let cutoff = Cutoff::new(options.time_limit.map(|t| started + t), stop.cloned());
    let first_depth = if options.time_limit.is_some() {
        1
    } else {
        options.max_depth.max(1)
    };
    let mut depths = Vec::new();
    let mut previous: Option<Table<G::Move>> = None;
    let mut timed_out = false;
    for depth in first_depth..=options.max_depth.max(1) {
        let depth_start = Instant::now();
        let mut root = game.clone();
        let mut ab = AlphaBeta::new(eval, options, depth, previous.as_ref(), cutoff.clone());
        match ab.search(&mut root, window.0, window.1) {
            Ok(score) => {
                let (nodes, table) = (ab.nodes, ab.table);
                let pv = principal_variation(game, &table, depth, options.symmetric);
                depths.push(DepthReport {
                    depth,
                    score,
                    best: pv.first().copied(),
                    pv,
                    nodes,
                    table_size: table.len(),
                    elapsed: depth_start.elapsed(),
                });
                previous = Some(table);
            }
            Err(TimeUp) => {
                timed_out = true;
                break;
            }
        }
        if game.is_over() {
            break;
        }
    }
    Analysis { depths, timed_out }
}

/// Follows the table's best moves from `game`, at most `depth` plies.
fn principal_variation<G: EngineHooks>(
    game: &G,
    table: &Table<G::Move>,
    depth: u32,
    symmetric: bool,
) -> Vec<G::Move> {
    let mut pos = game.clone();
    let mut pv = Vec::new();
    while pv.len() < depth as usize && !pos.is_over() {
        let (key, sym) = if symmetric {
            pos.canonical()
        } else {
            (pos.key(), 0)
        };
        let Some(entry) = table.get(&key) else {
            break;
        };
        let best = G::map_move(entry.best, sym, true);
        if !pos.legal_moves().contains(&best) {
            break;
        }
        pv.push(best);
        pos.play_unchecked(best);
    }
    pv
}

/// Plain depth-limited minimax, without pruning or table: the reference alpha-beta must
/// agree with.
pub fn minimax<G: Game, E: LeafEval<G>>(game: &mut G, eval: &mut E, depth: u32) -> f64 {
    if game.is_over() || depth == 0 {
        return eval.evaluate(game);
    }
    let maximising = game.to_move() == Side::First;
    let mut best = if maximising {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    for &mv in game.legal_moves().iter() {
        game.play_unchecked(mv);
        let v = minimax(game, eval, depth - 1);
        game.undo();
        best = if maximising { best.max(v) } else { best.min(v) };
    }
    best
}
