//! Exact endgame search: the final disc difference under perfect play.
//!
//! Every search is a null-window test ("is the score above alpha?"), fail-soft: the root
//! finds the exact score by a sequence of such tests (MTD(f)), starting from the score a
//! midgame search with the learned evaluation expects. Away from the leaves, a table of
//! bounds, enhanced transposition and stability cut-offs, and fastest-first move ordering
//! (fewest replies first, from 14 empties with the learned evaluation breaking near ties;
//! from 18 a shallow search with it, two to five plies deep by empties, mixed with the
//! replies; near the root, the first guess's own best moves), the table from seven
//! empties (below twelve in a small part of its own that stays in cache); from six down,
//! a fixed order of the empty squares (isolated ones first, for parity; the squares
//! beside corners last); with four or fewer, the empty squares themselves are tried (no
//! move generation), and the last one is scored by counting its flips along its four
//! lines.
//!
//! On several threads (Young Brothers Wait): from 12 empties, a node whose first move
//! does not cut searches the others in parallel, in order, on at most four threads,
//! sharing the table (no locks); a move that cuts stops its siblings. The score, and the
//! move (the first best one in the root's order), are those of one thread.

mod stability;
mod table;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use stability::stability_cap;
use table::{Entry, Table, View};

use crate::engine::builds::{Build, InBuild, in_widest_build};
use crate::engine::in_order::{Place, Split, build_pool, cut_off, in_order};
use crate::engine::learned::{PatternModel, SCALE, shipped};
use crate::engine::midgame::{Limits, Midgame};
use crate::engine::patterns::Features;
use crate::rules::kernel::Kernel;
use crate::{Move, Othello, Square, squares_of};
use gamelab_core::StopFlag;

pub(crate) use crate::rules::position::final_score;

/// Below this many empties, moves are tried in a fixed order ([`tiers`]), without keys or
/// the table: sorting costs more than it saves. From 7 rather than 6, with the
/// isolated squares first, FFO #40–#49 took 787.9 M nodes against 708.7 M but 3.6 % fewer
/// instructions (#40, #44 under callgrind), and #50–#53 74.6 and 78.0 s against 80.5 and
/// 81.6 s from 6 with quadrant parity (one thread, alternating runs, AMD host, Zen 4); from
/// 8, 975.9 M nodes and more instructions than from 7.
const SORT_EMPTIES: u32 = 7;
/// From this many empties, results are kept in the table: deeper down a lookup costs more
/// than re-searching (with the parity nodes from 7, the table from 8 took 826.9 M nodes
/// for #40–#49 against 787.9 M, in as many instructions). No node below
/// [`SORT_EMPTIES`] reads it, and from this many up a node asks for its children's
/// buckets ahead (so not at 7, whose children do not read it).
const TABLE_EMPTIES: u32 = SORT_EMPTIES;

/// From this many empties, children are looked up in the table before any is searched
/// (enhanced transposition cut-off), and those it proves no better than alpha are not
/// searched at all; nearer the leaves the lookups cost more than they save.
const ETC_EMPTIES: u32 = 11;

/// Below this many empties a move's fastest-first key is the opponent's replies alone,
/// the square's worth breaking ties: the potential moves and corner discs of
/// [`weight_of_replies`] save fewer nodes there than they cost.
const REPLIES_ONLY_EMPTIES: u32 = 9;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
/// Where a disc shifted one file toward h (or a) may land without wrapping to the next rank.
const NOT_A: u64 = !FILE_A;
const NOT_H: u64 = !FILE_H;

/// The empty squares with no empty neighbour: regions of one square, whose last move
/// goes to whoever plays there first, so they are tried first (parity, as Egaroucid
/// orders its last moves). Against the squares of the quadrants with an odd number of
/// empties first, FFO #40–#49 took 708.7 M nodes instead of 746.8 M and 2.9 % fewer
/// instructions (#40, #44 under callgrind); both, isolated squares then odd quadrants,
/// 712.8 M.
#[inline]
fn isolated(empty: u64) -> u64 {
    empty & !frontier(empty, empty)
}

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The squares diagonally next to the corners, which give a corner away.
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// The order in which the last six empties are tried: the isolated squares ([`isolated`]),
/// then of the others the corners, the squares that are neither corners nor next to one
/// diagonally, and those last. The static tiers took FFO #40–#49 in 758.1 M nodes against
/// 787.9 M and 0.9 % fewer instructions (#40, #44 under callgrind), #50–#53 in 2.905 G
/// against 2.993 G in as much time; the squares beside the corners on the edges in a tier
/// of their own before the X squares, 764.2 M.
#[inline(always)]
fn tiers(empty: u64) -> [u64; 4] {
    let first = isolated(empty);
    let rest = empty & !first;
    [
        first,
        rest & CORNERS,
        rest & !CORNERS & !X_SQUARES,
        rest & X_SQUARES,
    ]
}

/// Empty squares next to `discs` (where the other side may later find moves).
#[inline]
fn frontier(discs: u64, empty: u64) -> u64 {
    let side = ((discs << 1) & NOT_A) | ((discs >> 1) & NOT_H);
    let around = side | discs;
    (side | (around << 8) | (around >> 8)) & empty
}

/// A static worth of each square for the side that takes it (corners most, the squares
/// next to corners least): a tie-breaker in move ordering.
const SQUARE_VALUE: [i32; 64] = [
    18, 4, 16, 12, 12, 16, 4, 18, //
    4, 2, 6, 8, 8, 6, 2, 4, //
    16, 6, 14, 10, 10, 14, 6, 16, //
    12, 8, 10, 0, 0, 10, 8, 12, //
    12, 8, 10, 0, 0, 10, 8, 12, //
    16, 6, 14, 10, 10, 14, 6, 16, //
    4, 2, 6, 8, 8, 6, 2, 4, //
    18, 4, 16, 12, 12, 16, 4, 18,
];

/// Discs of `p` that are stable for sure without looking far: the corners, and the edge
/// squares beside a corner of the same colour.
#[inline]
fn corner_stability(p: u64) -> i32 {
    let beside = ((p & 0x0100_0000_0000_0001) << 1)
        | ((p & 0x8000_0000_0000_0080) >> 1)
        | ((p & 0x0000_0000_0000_0081) << 8)
        | ((p & 0x8100_0000_0000_0000) >> 8);
    ((beside | CORNERS) & p).count_ones() as i32
}

/// How good a move looks for the opponent, from the position after it (`me` the side that
/// just moved onto `sq`): above all the opponent's moves, corners counting double, then
/// its potential moves, less the mover's discs made stable by corners and the square's
/// worth. Lower is better for the mover, so moves are tried in increasing order (weights
/// tuned on FFO #20–#44).
#[inline(always)]
fn reply_weight(k: impl Kernel, me: u64, opp: u64, sq: u32) -> i32 {
    weight_of_replies(replies(k, me, opp), me, opp, sq)
}

/// [`reply_weight`] with the opponent's `replies` (corners twice) already counted.
#[inline(always)]
fn weight_of_replies(mobility: i32, me: u64, opp: u64, sq: u32) -> i32 {
    let potential = frontier(me, !(me | opp)).count_ones() as i32;
    REPLY_KEY * mobility + 32 * potential - 128 * corner_stability(me) - SQUARE_VALUE[sq as usize]
}

/// What each of the opponent's replies adds to a move's fastest-first key.
const REPLY_KEY: i32 = 1024;

/// The opponent's replies after a move (`me` the side that just moved), corners counting
/// twice.
#[inline(always)]
fn replies(k: impl Kernel, me: u64, opp: u64) -> i32 {
    count_replies(k.legal_moves(opp, me))
}

/// The opponent's `replies` counted as [`replies`] does.
#[inline(always)]
fn count_replies(replies: u64) -> i32 {
    (replies.count_ones() + (replies & CORNERS).count_ones()) as i32
}

/// The depth of the search that orders moves, by empties: none below 18 (the opponent's
/// replies decide, with the learned evaluation from [`EVAL_KEY_EMPTIES`]), then deeper
/// nearer the root, where a better first move saves whole subtrees — a ply more every
/// three empties from 21, about as Edax's sorting depth grows. Tuned on FFO #40–#49 up to
/// 20 empties (1 and 2 plies beat 2 and 3, which cost more than they save) and on #50–#59
/// above: 3 plies from 21, 4 from 24 and 5 from 27 took 12 % fewer nodes than 2 plies
/// throughout (#55: 8.59 G against 10.65 G); a ply more from 20, 23 and 26 as many nodes
/// and slower, 6 plies at 29 as many nodes. At 16 and 17 empties the evaluation's key
/// instead of a one-ply search (one thread, Intel 207): #50–#53 2.633 G → 2.581 G nodes,
/// 91.9 s → 87.7 s; #40–#49 689.7 M → 714.1 M nodes in as much time (20.40 and 20.41 s
/// against 20.42 and 20.49 s), #40 and #44 under callgrind 3.2 % fewer instructions.
fn ordering_depth(empties: u32) -> Option<u32> {
    match empties {
        0..18 => None,
        18..21 => Some(2),
        21..24 => Some(3),
        24..27 => Some(4),
        _ => Some(5),
    }
}

/// The exact search's recursion: node [`nws_node`] entered in build `b`'s code
/// ([`Build::enter`]).
#[inline(always)]
fn nws(b: impl Build, w: &mut Worker<'_>, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
    struct Node<'a, 'w>(&'a mut Worker<'w>, u64, u64, i32, bool);
    impl InBuild for Node<'_, '_> {
        type Output = i32;
        #[inline(always)]
        fn run<B: Build>(self, b: B) -> i32 {
            let Node(w, p, o, alpha, passed) = self;
            nws_node(b, w, p, o, alpha, passed)
        }
    }
    b.enter(Node(w, p, o, alpha, passed))
}

/// The ordering searches' recursion: node [`shallow_node`] entered in build `b`'s code.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn shallow(
    b: impl Build,
    m: &mut Shallow<'_>,
    p: u64,
    o: u64,
    f: &Features,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> i32 {
    struct Node<'a, 'm>(&'a mut Shallow<'m>, u64, u64, &'a Features, u32, i32, i32);
    impl InBuild for Node<'_, '_> {
        type Output = i32;
        #[inline(always)]
        fn run<B: Build>(self, b: B) -> i32 {
            let Node(m, p, o, f, depth, alpha, beta) = self;
            shallow_node(b, m, p, o, f, depth, alpha, beta)
        }
    }
    b.enter(Node(m, p, o, f, depth, alpha, beta))
}

/// The ordering searches' model and the nodes they searched.
pub(crate) struct Shallow<'a> {
    model: &'a PatternModel,
    nodes: u64,
}

/// Negamax to `depth` plies with the learned evaluation at the leaves (`f` the features
/// of (p, o)), for move ordering.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn shallow_node(
    b: impl Build,
    m: &mut Shallow<'_>,
    p: u64,
    o: u64,
    f: &Features,
    depth: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    let k = b.kernel();
    m.nodes += 1;
    if depth == 0 {
        return m.model.evaluate_features(k, f, p, o);
    }
    let moves = k.legal_moves(p, o);
    if moves == 0 {
        if k.legal_moves(o, p) == 0 {
            return final_score(p, o) * SCALE;
        }
        return -shallow(b, m, o, p, &f.pass(), depth - 1, -beta, -alpha);
    }
    let mut best = i32::MIN + 1;
    // Whether the move on `s` flipping `flipped` cuts off the rest.
    let mut cuts = |s: u32, flipped: u64| {
        let v = -shallow(
            b,
            m,
            o & !flipped,
            p | flipped | 1 << s,
            &f.play(s, flipped),
            depth - 1,
            -beta,
            -alpha,
        );
        if v > best {
            best = v;
            alpha = alpha.max(v);
        }
        alpha >= beta
    };
    if depth >= 2 {
        // Fastest first, so that the cut-offs come sooner: the deep ordering searches
        // then cost less (FFO #50–#53 and #57: 139.4 s against 146.3 s, the same nodes).
        let mut children: Children = squares_of(moves)
            .map(|sq| {
                let s = sq.index() as u32;
                let flipped = k.flips(p, o, s);
                (
                    reply_weight(k, p | flipped | 1 << s, o & !flipped, s),
                    s,
                    flipped,
                )
            })
            .collect();
        children.sort_unstable_by_key(|&(key, ..)| key);
        for &(_, s, flipped) in &children {
            if cuts(s, flipped) {
                break;
            }
        }
    } else {
        let mut left = moves;
        while left != 0 {
            let s = left.trailing_zeros();
            left &= left - 1;
            if cuts(s, k.flips(p, o, s)) {
                break;
            }
        }
    }
    best
}

/// The order in which to try a move on `sq` (lower first), from the position after it
/// (`me` the side that just moved, `after` its features when the empties before it call
/// for a shallow search) and the empties before it. The shallow search stops at `beta`
/// (for the opponent): a move that bad gets a bound, not a value.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn move_key(
    b: impl Build,
    m: &mut Shallow<'_>,
    after: Option<&Features>,
    me: u64,
    opp: u64,
    empties: u32,
    sq: u32,
    beta: i32,
) -> i32 {
    match (ordering_depth(empties), after) {
        (Some(depth), Some(f)) => {
            shallow(b, m, opp, me, f, depth, -INFINITE, beta)
                + MOBILITY_WEIGHT * replies(b.kernel(), me, opp)
        }
        _ => reply_weight(b.kernel(), me, opp, sq),
    }
}

/// From this many empties to the ordering searches' (below which [`ordering_depth`] is
/// `None`), a move's fastest-first key adds [`evaluation_key`]: the learned evaluation of
/// the position after it breaks the near ties of the replies. One thread, Intel 207, with
/// one-ply ordering searches at 16 and 17 empties then: FFO #40–#49 took 762.4 M nodes
/// without it, 689.7 M from 14 empties, 664.2 M from 13, 647.2 M from 12, 632.9 M from 11;
/// the evaluations cost much of what the nodes saved, more the lower they go: #50–#53
/// (2.894 G nodes, 96.0 s without; one run each) −5.6 % nodes and −2.9 % time from 15,
/// −9.0 % and −2.7 % from 14, −12.1 % and −1.5 % from 13, −13.9 % and +1.8 % from 12.
/// With the keys as they are now (the evaluation cheaper, the ordering searches from 18),
/// from 13 rather than 14: #50–#53 2.352 G nodes against 2.436 G, but 80.6 and 80.6 s
/// against 79.0 and 80.4 s (alternating runs).
const EVAL_KEY_EMPTIES: u32 = 14;

/// What a disc of the learned evaluation adds to a fastest-first key: 3/16 of a reply
/// ([`REPLY_KEY`]), a tie-breaker (from 18 empties a reply weighs 1½ discs of a shallow
/// search, [`MOBILITY_WEIGHT`]).
/// FFO #40–#49, from 11 empties: 650.1 M nodes at 3/32, 638.4 M at 1/8, 632.9 M at 3/16;
/// from 13: 669.7 M at 1/8, 664.2 M at 3/16, 666.8 M at 1/4. (The patterns without the
/// whole-board terms, from 11: 677.1 M at 1/16, 659.6 M at 1/8, 743.3 M at 1/4, 992.7 M at
/// 1/2.)
const EVAL_KEY: i32 = 192;

/// The evaluation part of a move's key (see [`EVAL_KEY_EMPTIES`]): the learned evaluation
/// of the position after it for the opponent (`opp` to move, `after` its features,
/// `replies` its moves), lower for the moves that look better for the mover.
#[inline(always)]
fn evaluation_key(
    k: impl Kernel,
    model: &PatternModel,
    after: &Features,
    opp: u64,
    me: u64,
    replies: u64,
) -> i32 {
    model.evaluate_knowing_moves(k, after, opp, me, replies) * EVAL_KEY / SCALE
}

/// See where [`nws_node`] keys its moves.
const QUICK_REPLIES: i32 = 1;

/// Inside the tree, the ordering searches learn only that a move is bad when it is this
/// many discs below the node's alpha (as Edax's move sorting does): its exact shallow value
/// would only order it among moves searched last, if at all. One thread: FFO #45 and
/// #49–#52 1,718.0 M nodes against 1,749.0 M; under callgrind #40–#44 0.76 % and #45
/// 1.31 % fewer instructions (4, 8, 16 and 24 discs: 0.9–1.6 % fewer nodes). With the
/// model of 2026-12-03, FFO #40–#49: 746.8 M nodes at 12, 748.0 M at 8, 744.8 M at 16.
const ORDERING_MARGIN: i32 = 12;

/// Beyond any value of the shallow searches.
const INFINITE: i32 = 1 << 24;

/// What each of the opponent's replies (corners twice) costs a move in the order, in
/// 1/256 disc: the shallow search's value alone orders worse than with the fastest-first
/// rule mixed in (FFO #40–#49: 35.0 s at 1 disc a reply, 38.3 s at ½, 40.9 s at 4). With
/// the model of 2026-12-03 still the best: 746.8 M nodes at 1 disc, 805.6 M at ½, 781.1 M
/// at ¾, 745.6 M at 1½, 753.0 M at 2. Since the shallow searches start at 18 empties,
/// 1½ (one thread, Intel 207): #50–#53 2.581 G → 2.436 G nodes and 92.6 s → 82.7 s (one
/// run each), #40–#49 714.1 M → 718.9 M; at ¾ 2.790 G and 740.1 M, at 2 2.461 G and
/// 736.3 M; at 2½ #40–#49 754.2 M.
const MOBILITY_WEIGHT: i32 = SCALE * 3 / 2;

/// From this many empties the exact search starts from the score a midgame search (with
/// Multi-ProbCut) expects rather than from 0: MTD(f) then needs about two null-window
/// searches instead of a walk toward the score.
const GUESS_EMPTIES: u32 = 16;

/// The depth of that midgame search: 12 plies for the big solves (FFO #40–#49: 29.3 s,
/// against 31.2 s at 8 plies without cuts and 31.2 s at 14), shallower for small ones,
/// which its cost would otherwise dominate, and 14 from [`DEEP_GUESS_EMPTIES`], where its
/// moves, tried first near the root, order better (with 2-ply ordering searches, 16 plies
/// beat 12: FFO #51–#58 25.98 G nodes → 23.12 G; since the ordering searches go up to 5
/// plies, 14 beats 16: #50–#59 563.0 s and 18.93 G nodes against 611.4 s and 20.44 G —
/// #55 −17 % and #59's guess 1.5 s against 13 s, while #54, #57 and #58 took 4–11 % more).
/// Checked again with the model of 2026-12-03 on #40–#49 (nodes, one thread): 746.8 M as
/// shipped; 14 plies from 24 empties 766.5 M, from 22 759.4 M; two plies deeper at 20 and
/// 21 empties 746.1 M, but 8 % slower.
fn guess_depth(empties: u32) -> u32 {
    if empties >= DEEP_GUESS_EMPTIES {
        return 14;
    }
    empties.saturating_sub(10).clamp(4, 12)
}

const DEEP_GUESS_EMPTIES: u32 = 27;

/// Within this many plies of the root, a node the exact search's table does not know yet
/// tries first the move the first guess's midgame search found best there, when that
/// search looked at least [`HINT_DEPTH`] plies deep: near the root those moves are better
/// than a shallow search's (FFO #40–#49: 997 M nodes → 796 M; #50–#52: 1.81 G → 1.25 G;
/// hints from deeper in the tree, or from shallower searches, ordered worse).
const HINT_PLIES: u32 = 4;
const HINT_DEPTH: u32 = 8;

/// The steps of one solve, to see where its nodes went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// The midgame search that gave the first guess, when there was one.
    pub guess: Option<Guess>,
    /// MTD(f)'s null-window tests, in order (none when the game is over).
    pub tests: Vec<NullWindowTest>,
}

/// The first guess of a solve: a midgame search's score, depth and nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct Guess {
    pub score: f64,
    pub depth: u32,
    pub nodes: u64,
}

/// One test of a solve, "is the score above `bound`?": above when `value > bound`, and
/// then `value` is a lower bound on the score, else an upper one.
#[derive(Clone, Debug, PartialEq)]
pub struct NullWindowTest {
    pub bound: i32,
    pub value: i32,
    pub nodes: u64,
    pub elapsed: std::time::Duration,
}

/// An exact search with its node count. The learned evaluation orders the moves far from
/// the end and gives the first guess of the score; it changes no result, only how fast
/// one is found. On any number of threads the score and the move are the same (of several
/// best moves, the first in the solver's order); the node count changes from run to run.
pub struct Solver {
    /// Nodes searched, the first guess's midgame search included.
    pub nodes: u64,
    /// How the last solve went: its first guess and its null-window tests.
    pub trace: Trace,
    table: Table,
    model: Arc<PatternModel>,
    threads: usize,
    /// The threads of a solve on several, built at the first (or lent by the midgame
    /// search that owns this solver, so that one engine keeps one set of threads).
    pool: Option<Arc<rayon::ThreadPool>>,
    /// Solves from this many empties split as big ones do ([`Splits::for_root`]); the
    /// tests bring it down to what they can solve.
    big_root_empties: u32,
    /// Whether a solve finds its whole line of best play ([`Solver::line`]), not only the
    /// first move.
    find_line: bool,
    /// The last solve's line of best play when asked for ([`Solver::set_find_line`]):
    /// its move first, then a best reply to each, passes included, to the end.
    pub line: Vec<Move>,
    /// The midgame search that makes each solve's first guess, kept for its table's
    /// memory (cleared before each guess, so that every guess is a new searcher's).
    guesser: Option<Box<Midgame>>,
}

impl Solver {
    /// A solver ordering moves by `model`, on one thread.
    pub fn with_model(model: Arc<PatternModel>) -> Solver {
        Solver {
            nodes: 0,
            trace: Trace::default(),
            table: Table::default(),
            model,
            threads: 1,
            pool: None,
            big_root_empties: BIG_ROOT_EMPTIES,
            find_line: false,
            line: Vec::new(),
            guesser: None,
        }
    }

    /// Forgets every position solved, keeping the table's memory: the next solve
    /// searches as a new solver's would (the same nodes), without the cost of a new
    /// table (the system clearing its pages as they are first touched: FFO #40–#44 on
    /// two threads spent 10 % of their time there with a new solver a position).
    pub fn forget(&mut self) {
        match &self.pool {
            Some(pool) => pool.install(|| self.table.clear(true)),
            None => self.table.clear(false),
        }
    }

    /// From the next solve on, find the whole line of best play too ([`Solver::line`]):
    /// a null-window test or a few a ply, against the known score, mostly answered by the
    /// table the solve left.
    pub fn set_find_line(&mut self, find_line: bool) {
        self.find_line = find_line;
    }

    /// Searches on `threads` threads (at least one) from the next solve on.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        if self
            .pool
            .as_ref()
            .is_some_and(|pool| pool.current_num_threads() != self.threads)
        {
            self.pool = None;
        }
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The pool of its threads, once built or lent.
    #[cfg(test)]
    pub(crate) fn pool(&self) -> Option<&Arc<rayon::ThreadPool>> {
        self.pool.as_ref()
    }

    /// Searches on `pool`'s threads from the next solve on.
    pub(crate) fn share_pool(&mut self, pool: Arc<rayon::ThreadPool>) {
        self.threads = pool.current_num_threads();
        self.pool = Some(pool);
    }
}

impl Default for Solver {
    /// A solver ordering moves by the shipped model, on one thread.
    fn default() -> Solver {
        Solver::with_model(shipped())
    }
}

/// One thread's part of a solve: what it reads, what it counts, and what ends it early.
pub(crate) struct Worker<'a> {
    nodes: u64,
    table: View<'a>,
    model: &'a PatternModel,
    /// Whether nodes may hand their later moves to other threads.
    parallel: bool,
    /// The innermost split this worker searches under.
    split: Option<Place<'a>>,
    /// The user's stop.
    stop: Option<&'a AtomicBool>,
    /// The midgame search that made the first guess: its moves order the nodes near the
    /// root that the exact search's table does not know yet.
    hints: Option<&'a Midgame>,
    /// Hints are looked for from this many empties up.
    hint_empties: u32,
    /// Where this solve's nodes split.
    splits: Splits,
}

impl Worker<'_> {
    /// Whether this worker's result no longer matters: a sibling under one of its splits
    /// cut it off, or the user stopped the solve. A search that sees this returns at once
    /// with a meaningless value and stores nothing.
    #[inline]
    fn aborted(&self) -> bool {
        if self.stop.is_some_and(|stop| stop.load(Relaxed)) {
            return true;
        }
        cut_off(self.split)
    }
}

/// From this many empties a node checks whether its search was cut off or stopped; the
/// searches below it are too short (well under a millisecond) to be worth interrupting,
/// and they always finish, so every bound they store is sound.
const ABORT_EMPTIES: u32 = 10;

/// Where the nodes of a solve on several threads split (Young Brothers Wait): from how
/// many empties up a node searches its first moves alone and the others in parallel, and
/// how many first. Below, the subtrees are too small to pay for handing them over, and
/// splits there multiply the moves searched before a sibling's cut-off reaches them.
#[derive(Clone, Copy)]
struct Splits {
    from_empties: u32,
    /// Moves searched alone below the root before the others go in parallel.
    after: usize,
}

impl Splits {
    /// From 16 empties after one move (against 12 on a 16-core machine: FFO #40-#49 on 16
    /// threads 1.10-1.13 G nodes against 1.43-1.56 G, 4.40 s against 5.22 s (means); 8
    /// threads 3 % faster; on 2 threads the same); from 18 after two for the biggest
    /// solves, from [`BIG_ROOT_EMPTIES`], whose trees have split points enough above 18
    /// empties for 16 threads, and where splits lower down and at nodes whose second move
    /// cuts mostly start work a cut-off throws away (16 threads, FFO #53-#59: 21.1 G nodes
    /// in 82.0 s against 26.9 G in 90.8 s; #55 9.0 G against 12.4 G, one thread 7.9 G;
    /// #40-#49 this way took 6.5 s against 4.5 s, so the small ones stay as they were.
    /// Two threads the same. See BENCHMARKS.md.)
    fn for_root(empties: u32, big_root_empties: u32) -> Splits {
        if empties >= big_root_empties {
            Splits {
                from_empties: 18,
                after: 2,
            }
        } else {
            Splits {
                from_empties: 16,
                after: 1,
            }
        }
    }
}

const BIG_ROOT_EMPTIES: u32 = 28;

/// Scores beyond any disc difference: "no move found yet" for a maximum and a minimum.
const NO_MOVE_MAX: i32 = -1000;
const NO_MOVE_MIN: i32 = 1000;

/// With this many empties or fewer, the search tries the empty squares themselves.
const FEW_EMPTIES: u32 = 4;

/// The squares around each square: a move there needs an opponent disc among them.
const NEIGHBOURS: [u64; 64] = {
    let mut around = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut df = -1;
        while df <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (nf, nr) = (f + df, r + dr);
                if (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                    around[sq] |= 1 << (nr * 8 + nf);
                }
                dr += 1;
            }
            df += 1;
        }
        sq += 1;
    }
    around
};

/// The discs a move by `p` on `sq` flips, or none when the move is not legal; the
/// neighbour test skips most illegal squares before any ray is read.
#[inline(always)]
fn flips_at(k: impl Kernel, p: u64, o: u64, sq: u32) -> u64 {
    if NEIGHBOURS[sq as usize] & o == 0 {
        return 0;
    }
    k.flips(p, o, sq)
}

/// The exact score with one empty square, `sq`, left: whoever can flip there plays it.
/// Is it above `alpha`? When the mover cannot play and the score with the square left
/// empty is no better than `alpha`, that score is returned: the opponent's move could
/// only lower it (Edax's lazy cut-off; the caller needs no more than that bound).
#[inline(always)]
fn score_last(k: impl Kernel, w: &mut Worker<'_>, p: u64, sq: u32, alpha: i32) -> i32 {
    w.nodes += 1;
    // Every other square is filled: 63 discs, `own` of them the mover's.
    let own = p.count_ones() as i32;
    let flipped = k.last_flip_count(p, sq) as i32;
    if flipped > 0 {
        return 2 * (own + flipped) - 62;
    }
    // If nobody can move, the empty square goes to the winner (63 discs: no tie).
    let unplayed = if own >= 32 {
        2 * own - 62
    } else {
        2 * own - 64
    };
    if unplayed <= alpha {
        return unplayed;
    }
    let flipped = k.last_flip_count(!p & !(1 << sq), sq) as i32;
    if flipped > 0 {
        w.nodes += 1;
        return 2 * (own - flipped) - 64;
    }
    unplayed
}

/// Two empties, `a` tried before `b`: is the score above `alpha`?
#[inline(always)]
fn solve_2(k: impl Kernel, w: &mut Worker<'_>, p: u64, o: u64, alpha: i32, a: u32, b: u32) -> i32 {
    w.nodes += 1;
    let mut best = NO_MOVE_MAX;
    let f = flips_at(k, p, o, a);
    if f != 0 {
        best = -score_last(k, w, o & !f, b, -alpha - 1);
        if best > alpha {
            return best;
        }
    }
    let f = flips_at(k, p, o, b);
    if f != 0 {
        return best.max(-score_last(k, w, o & !f, a, -alpha - 1));
    }
    if best != NO_MOVE_MAX {
        return best;
    }
    // A pass: the opponent moves, and the score is the least it can leave us.
    w.nodes += 1;
    let mut worst = NO_MOVE_MIN;
    let f = flips_at(k, o, p, a);
    if f != 0 {
        worst = score_last(k, w, p & !f, b, alpha);
        if worst <= alpha {
            return worst;
        }
    }
    let f = flips_at(k, o, p, b);
    if f != 0 {
        return worst.min(score_last(k, w, p & !f, a, alpha));
    }
    if worst != NO_MOVE_MIN {
        return worst;
    }
    final_score(p, o)
}

/// `N` (3 or 4) empties in `squares`, tried in that order: is the score above `alpha`?
#[inline(always)]
fn solve_n<const N: usize>(
    k: impl Kernel,
    w: &mut Worker<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    squares: [u32; 4],
) -> i32 {
    /// The position after a move on `squares[i]`, with the other squares in order.
    #[inline(always)]
    fn child<const N: usize>(
        k: impl Kernel,
        w: &mut Worker<'_>,
        p: u64,
        o: u64,
        alpha: i32,
        squares: [u32; 4],
        i: usize,
    ) -> i32 {
        // The squares but the i-th, by selects: `copy_within` here became a call to the
        // C library's memmove in the hottest code.
        let rest: [u32; 4] = std::array::from_fn(|j| {
            if j < i {
                squares[j]
            } else {
                squares[(j + 1).min(3)]
            }
        });
        match N {
            4 => solve_n::<3>(k, w, p, o, alpha, rest),
            _ => solve_2(k, w, p, o, alpha, rest[0], rest[1]),
        }
    }
    w.nodes += 1;
    let mut best = NO_MOVE_MAX;
    for (i, &sq) in squares[..N].iter().enumerate() {
        let f = flips_at(k, p, o, sq);
        if f != 0 {
            let v = -child::<N>(k, w, o & !f, p | f | 1 << sq, -alpha - 1, squares, i);
            if v > best {
                best = v;
                if v > alpha {
                    return v;
                }
            }
        }
    }
    if best != NO_MOVE_MAX {
        return best;
    }
    w.nodes += 1;
    let mut worst = NO_MOVE_MIN;
    for (i, &sq) in squares[..N].iter().enumerate() {
        let f = flips_at(k, o, p, sq);
        if f != 0 {
            let v = child::<N>(k, w, p & !f, o | f | 1 << sq, alpha, squares, i);
            if v < worst {
                worst = v;
                if v <= alpha {
                    return v;
                }
            }
        }
    }
    if worst != NO_MOVE_MIN {
        return worst;
    }
    final_score(p, o)
}

/// At most [`FEW_EMPTIES`] empties, in the order of [`tiers`].
#[inline(always)]
fn solve_few(k: impl Kernel, w: &mut Worker<'_>, p: u64, o: u64, alpha: i32, empty: u64) -> i32 {
    let mut squares = [0u32; 4];
    let mut n = 0;
    for mut region in tiers(empty) {
        while region != 0 {
            squares[n] = region.trailing_zeros();
            region &= region - 1;
            n += 1;
        }
    }
    match n {
        // No stability cut-off here: it skips a quarter of the nodes below (FFO #45, #49,
        // #50) but costs as much time as they would (BENCHMARKS.md).
        4 => solve_n::<4>(k, w, p, o, alpha, squares),
        3 => solve_n::<3>(k, w, p, o, alpha, squares),
        2 => solve_2(k, w, p, o, alpha, squares[0], squares[1]),
        1 => score_last(k, w, p, squares[0], alpha),
        _ => final_score(p, o),
    }
}

/// One node of the search: is the score above `alpha`? Its recursion goes through `b`.
/// `passed`: the opponent has just passed, so no move here ends the game.
#[inline(always)]
pub(crate) fn nws_node(
    b: impl Build,
    w: &mut Worker<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    passed: bool,
) -> i32 {
    let k = b.kernel();
    let empty = !(p | o);
    let empties = empty.count_ones();
    if empties <= FEW_EMPTIES {
        return solve_few(k, w, p, o, alpha, empty);
    }
    if empties >= ABORT_EMPTIES && w.aborted() {
        return 0;
    }
    w.nodes += 1;
    if empties < SORT_EMPTIES {
        return parity_node(b, w, p, o, alpha, empty, passed);
    }
    let moves = k.legal_moves(p, o);
    if moves == 0 {
        return no_move(b, w, p, o, alpha, passed);
    }
    if let Some(cap) = stability_cap(p, o, alpha) {
        return cap;
    }
    let mut hint = None;
    if empties >= TABLE_EMPTIES
        && let Some(e) = w.table.get(p, o, empties)
    {
        let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
        if lower > alpha {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        hint = Some(u32::from(e.best));
    } else if empties >= w.hint_empties
        && let Some(guess) = w.hints
    {
        hint = guess.table_move(p, o, HINT_DEPTH);
    }
    let mut ordered: Children = arrayvec::ArrayVec::new();
    for sq in squares_of(moves) {
        let sq = sq.index() as u32;
        let f = k.flips(p, o, sq);
        // The children's buckets are read below (ETC) or when each is searched: ask
        // for all of them at once.
        if empties > TABLE_EMPTIES {
            w.table.prefetch(o & !f, p | f | 1 << sq, empties - 1);
        }
        let _ = ordered.try_push((0, sq, f));
    }
    // Enhanced transposition cut-off: a child the table already bounds low enough for
    // the opponent proves this node is above alpha without a search, and one it bounds
    // high enough needs no search either (`known_low`: the best of those, as if searched).
    let mut known_low: Option<(i32, u32)> = None;
    if empties >= ETC_EMPTIES {
        let mut i = 0;
        while i < ordered.len() {
            let (_, sq, f) = ordered[i];
            if let Some(e) = w.table.get(o & !f, p | f | 1 << sq, empties - 1) {
                let (at_least, at_most) = (-i32::from(e.upper), -i32::from(e.lower));
                if at_least > alpha {
                    return at_least;
                }
                if at_most <= alpha {
                    if known_low.is_none_or(|(v, _)| at_most > v) {
                        known_low = Some((at_most, sq));
                    }
                    ordered.swap_remove(i);
                    continue;
                }
            }
            i += 1;
        }
    }
    // Moves searched before the others are keyed (their keys are wasted when one cuts
    // off): the value and square of the best so far go into `first`; `None` when aborted.
    let search_now = |w: &mut Worker<'_>, first: &mut Option<(i32, u32)>, sq: u32, f: u64| {
        let v = -nws(b, w, o & !f, p | f | 1 << sq, -alpha - 1, false);
        if empties >= ABORT_EMPTIES && w.aborted() {
            return None;
        }
        if first.is_none_or(|(best, _)| v > best) {
            *first = Some((v, sq));
        }
        Some(())
    };
    // Whether the moves searched so far decide the node: one is above alpha, or none is
    // left (`left`: the moves not searched yet).
    let decided =
        |first: Option<(i32, u32)>, left: usize| first.filter(|&(v, _)| v > alpha || left == 0);
    // The table's move first.
    let mut first = known_low;
    if let Some(h) = hint
        && let Some(i) = ordered.iter().position(|&(_, sq, _)| sq == h)
    {
        let (_, sq, f) = ordered.swap_remove(i);
        if search_now(w, &mut first, sq, f).is_none() {
            return 0;
        }
    }
    let (best, best_square) = 'found: {
        if let Some(found) = decided(first, ordered.len()) {
            break 'found found;
        }
        // Far from the end by a shallow search with the learned evaluation, else
        // fastest first: the replies that leave the opponent fewest moves (nearer the
        // shallow searches, the evaluation breaking near ties).
        let features = (empties >= EVAL_KEY_EMPTIES).then(|| Features::new(p, o));
        let search_keys = ordering_depth(empties).is_some();
        let bad_enough = -(alpha - ORDERING_MARGIN) * SCALE;
        let mut i = 0;
        while i < ordered.len() {
            let (_, sq, f) = ordered[i];
            let (np, no) = (p | f | 1 << sq, o & !f);
            ordered[i].0 = if let Some(nf) = features.filter(|_| search_keys) {
                let mut shallow = Shallow {
                    model: w.model,
                    nodes: 0,
                };
                let after = nf.play(sq, f);
                let key = move_key(
                    b,
                    &mut shallow,
                    Some(&after),
                    np,
                    no,
                    empties,
                    sq,
                    bad_enough,
                );
                w.nodes += shallow.nodes;
                key
            } else {
                let reply_moves = k.legal_moves(no, np);
                let replies = count_replies(reply_moves);
                // A move that leaves the opponent at most one reply (not a corner) is
                // searched at once (as Egaroucid does): it is likely best, and its search
                // is small. About 1 % faster, +1.1 % nodes (one thread, alternating runs:
                // FFO #40–#49 −1.9 %, #45/#49/#50 −0.2 to −2.3 %, #50–#53 −0.5 %); only
                // moves leaving no reply: about half that.
                if replies <= QUICK_REPLIES {
                    ordered.swap_remove(i);
                    if search_now(w, &mut first, sq, f).is_none() {
                        return 0;
                    }
                    if let Some(found) = decided(first, ordered.len()) {
                        break 'found found;
                    }
                    continue;
                }
                if empties < REPLIES_ONLY_EMPTIES {
                    REPLY_KEY * replies - SQUARE_VALUE[sq as usize]
                } else {
                    weight_of_replies(replies, np, no, sq)
                        + features.as_ref().map_or(0, |nf| {
                            evaluation_key(k, w.model, &nf.play(sq, f), no, np, reply_moves)
                        })
                }
            };
            i += 1;
        }
        let Some(found) = search_children(b, w, p, o, alpha, &mut ordered, empties, first, false)
        else {
            return 0;
        };
        found
    };
    if empties >= TABLE_EMPTIES {
        let old = w.table.get(p, o, empties);
        let (mut lower, mut upper) =
            old.map_or((-64, 64), |e| (i32::from(e.lower), i32::from(e.upper)));
        if best > alpha {
            lower = best;
        } else {
            upper = best;
        }
        w.table.insert(
            p,
            o,
            Entry {
                lower: lower as i8,
                upper: upper as i8,
                best: best_square as u8,
                empties: empties as u8,
            },
        );
    }
    best
}

/// A node's moves: (order key, square, discs flipped).
type Children = arrayvec::ArrayVec<(i32, u32, u64), 32>;

/// The moves of a node with (`p`, `o`) and `empties`, tried lowest key first until one
/// is above `alpha` (`first`: the value and square of a move already searched, not in
/// `ordered`): the best value found and its square, or `None` when the search was
/// aborted. On several threads, once the first move has failed to cut, the others are
/// searched in parallel; at the root (`at_root`) the move above alpha returned is then
/// still the first in the order, as on one thread.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn search_children(
    b: impl Build,
    w: &mut Worker<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    ordered: &mut Children,
    empties: u32,
    first: Option<(i32, u32)>,
    at_root: bool,
) -> Option<(i32, u32)> {
    let check = at_root || empties >= ABORT_EMPTIES;
    let moves = ordered.len() + usize::from(first.is_some());
    // The moves before the split (`first` among them): it waits for them to have failed
    // to cut. A split needs two moves after them, or there is nothing to share.
    let before = if at_root { 1 } else { w.splits.after };
    let split = w.parallel && (at_root || empties >= w.splits.from_empties) && moves > before + 1;
    let (mut best, mut best_square) = first.unwrap_or((NO_MOVE_MAX, 0));
    let alone = before.saturating_sub(usize::from(first.is_some()));
    for i in 0..ordered.len() {
        if i == alone && split {
            let rest = &mut ordered[i..];
            rest.sort_unstable_by_key(|&(key, sq, _)| (key, sq));
            return search_in_parallel(b, w, p, o, alpha, rest, at_root).map(|(v, sq)| {
                if v > best {
                    (v, sq)
                } else {
                    (best, best_square)
                }
            });
        }
        // The best of the moves left, picked when it is needed: most nodes cut off
        // after the first move, so sorting them all would mostly be wasted.
        let next = (i..ordered.len())
            .min_by_key(|&j| (ordered[j].0, ordered[j].1))
            .expect("a move is left");
        ordered.swap(i, next);
        let (_, sq, f) = ordered[i];
        let v = -nws(b, w, o & !f, p | f | 1 << sq, -alpha - 1, false);
        if check && w.aborted() {
            return None;
        }
        if v > best {
            best = v;
            best_square = sq;
            if v > alpha {
                break;
            }
        }
    }
    Some((best, best_square))
}

/// Threads besides its owner that one split puts on its moves at most (Edax caps its
/// helpers the same way): further threads find work at splits deeper down, rather than
/// on the least promising moves of a node that a better move may still cut off.
const SPLIT_HELPERS: usize = 3;

/// The moves of `rest`, in parallel: the best value and its square (one above `alpha`,
/// when there is one: the first in `rest` when `first_cut`, else whichever was found
/// first), or `None` when the search was aborted from above. The moves start in order,
/// each on the first of the split's threads to be free, so a cut-off stops the moves
/// least likely to matter before they start.
fn search_in_parallel(
    b: impl Build,
    w: &mut Worker<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    rest: &[(i32, u32, u64)],
    first_cut: bool,
) -> Option<(i32, u32)> {
    // Inside the tree any move above alpha decides the node, so every other move stops;
    // at the root the lowest one is wanted, so that the move returned does not depend
    // on the threads.
    let split = Split::new(w.split);
    let (table, model, stop, hints, hint_empties, splits) =
        (w.table, w.model, w.stop, w.hints, w.hint_empties, w.splits);
    // Each move's value and square when its search counts, and its nodes.
    let results = in_order(rest.len(), 1 + SPLIT_HELPERS, |i| {
        let (_, sq, f) = rest[i];
        let mut child = Worker {
            nodes: 0,
            table: table.on_this_thread(),
            model,
            parallel: true,
            // Any cut stops every move, or only the moves after it.
            split: Some((&split, if first_cut { i } else { usize::MAX })),
            stop,
            hints,
            hint_empties,
            splits,
        };
        if child.aborted() {
            return ((None, 0), false);
        }
        let v = -nws(b, &mut child, o & !f, p | f | 1 << sq, -alpha - 1, false);
        // Cut off or stopped: the value means nothing (a move above alpha, or the stop,
        // decides this node), and so would every later move's.
        if child.aborted() {
            return ((None, child.nodes), false);
        }
        if v > alpha {
            split.cut_at(i);
        }
        ((Some((v, sq)), child.nodes), true)
    });
    w.nodes += results.iter().map(|&(_, (_, nodes))| nodes).sum::<u64>();
    if w.aborted() {
        return None;
    }
    // Either one is above alpha, or none was cut off and every value is sound; with
    // `first_cut`, every move before the first one above alpha has finished.
    let sound = results
        .iter()
        .filter_map(|&(i, (result, _))| result.map(|(v, sq)| (i, v, sq)));
    sound
        .clone()
        .filter(|&(_, v, _)| v > alpha)
        .min_by_key(|&(i, ..)| i)
        .or_else(|| sound.max_by_key(|&(i, v, _)| (v, std::cmp::Reverse(i))))
        .map(|(_, v, sq)| (v, sq))
}

/// A node below [`SORT_EMPTIES`]: the moves in the order of [`tiers`]. The
/// empty squares are tried one by one (a neighbour test skips most that are no move)
/// rather than by generating the moves first (FFO #45, #49, #50: 1.4 % fewer nodes, as
/// a pass now meets the stability cut-off first, and 1.2 % less time in alternating
/// runs). `passed`: the opponent has just passed.
#[inline(always)]
fn parity_node(
    b: impl Build,
    w: &mut Worker<'_>,
    p: u64,
    o: u64,
    alpha: i32,
    empty: u64,
    passed: bool,
) -> i32 {
    let k = b.kernel();
    if let Some(cap) = stability_cap(p, o, alpha) {
        return cap;
    }
    let empties = empty.count_ones();
    let mut best = NO_MOVE_MAX;
    for region in tiers(empty) {
        let mut m = region;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = flips_at(k, p, o, sq);
            if f == 0 {
                continue;
            }
            let (np, no) = (p | f | 1 << sq, o & !f);
            let v = if empties - 1 <= FEW_EMPTIES {
                -solve_few(k, w, no, np, -alpha - 1, empty & !(1 << sq))
            } else {
                -nws(b, w, no, np, -alpha - 1, false)
            };
            if v > best {
                best = v;
                if v > alpha {
                    return best;
                }
            }
        }
    }
    if best != NO_MOVE_MAX {
        return best;
    }
    no_move(b, w, p, o, alpha, passed)
}

/// A node where the side to move has no move: the game is over if the opponent has just
/// passed too (`passed`), else the opponent moves on.
#[inline(always)]
fn no_move(b: impl Build, w: &mut Worker<'_>, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
    if passed {
        final_score(p, o)
    } else {
        -nws(b, w, o, p, -alpha - 1, true)
    }
}

/// A midgame guess at least this far from a draw (in discs) is a lopsided position's, where
/// the evaluation saturates: MTD(f) trusts it less (see `solve_with`).
const LOPSIDED_GUESS: f64 = 32.0;

impl Solver {
    /// The exact score of `pos` for the side to move and a best move (`None` when the game
    /// is over).
    ///
    /// ```
    /// use gamelab_core::Game;
    /// use gamelab_othello::endgame::Solver;
    /// use gamelab_othello::{Othello, learned};
    ///
    /// // A game played by taking the first legal move, stopped at 12 empty squares.
    /// let mut pos = Othello::new();
    /// while pos.empties() > 12 {
    ///     pos.play(pos.legal_moves()[0]).unwrap();
    /// }
    /// let mut solver = Solver::with_model(learned::shipped());
    /// let (score, best) = solver.solve(&pos);
    /// // The best move keeps the score: the reply's score is its negation.
    /// let best = best.unwrap();
    /// pos.play(best).unwrap();
    /// assert_eq!(Solver::with_model(learned::shipped()).solve(&pos).0, -score);
    /// ```
    pub fn solve(&mut self, pos: &Othello) -> (i32, Option<Move>) {
        self.solve_until(pos, None)
            .expect("a solve with no stop runs to its end")
    }

    /// As [`Solver::solve`], unless `stop` is raised first: then `None`, soon after.
    pub fn solve_until(
        &mut self,
        pos: &Othello,
        stop: Option<&StopFlag>,
    ) -> Option<(i32, Option<Move>)> {
        if self.threads > 1 && self.pool.is_none() {
            self.pool = build_pool(self.threads);
        }
        let pool = self.pool.take();
        let result = match &pool {
            Some(pool) => pool.install(|| self.solve_on_this_thread(pos, stop, true)),
            None => self.solve_on_this_thread(pos, stop, false),
        };
        self.pool = pool;
        result
    }

    fn solve_on_this_thread(
        &mut self,
        pos: &Othello,
        stop: Option<&StopFlag>,
        parallel: bool,
    ) -> Option<(i32, Option<Move>)> {
        struct Solve<'a> {
            solver: &'a mut Solver,
            pos: &'a Othello,
            stop: Option<&'a StopFlag>,
            parallel: bool,
        }
        impl InBuild for Solve<'_> {
            type Output = Option<(i32, Option<Move>)>;
            fn run<B: Build>(self, b: B) -> Self::Output {
                self.solver
                    .solve_with(b, self.pos, self.stop, self.parallel)
            }
        }
        in_widest_build(Solve {
            solver: self,
            pos,
            stop,
            parallel,
        })
    }

    fn solve_with(
        &mut self,
        b: impl Build,
        pos: &Othello,
        stop: Option<&StopFlag>,
        parallel: bool,
    ) -> Option<(i32, Option<Move>)> {
        let k = b.kernel();
        let (p, o) = pos.discs();
        self.trace = Trace::default();
        self.line.clear();
        if pos.is_over() {
            return Some((final_score(p, o), None));
        }
        let empties = pos.empties();
        if empties >= TABLE_EMPTIES {
            self.table.reserve(
                empties,
                if parallel {
                    rayon::current_num_threads()
                } else {
                    1
                },
            );
        }
        let model = self.model.clone();
        let ordering = ordering_depth(empties).map(|_| Features::new(p, o));
        let mut shallow = Shallow {
            model: &model,
            nodes: 0,
        };
        let mut ordered: Children = squares_of(k.legal_moves(p, o))
            .map(|sq| {
                let s = sq.index() as u32;
                let f = k.flips(p, o, s);
                let after = ordering.map(|nf| nf.play(s, f));
                let key = move_key(
                    b,
                    &mut shallow,
                    after.as_ref(),
                    p | f | sq.bit(),
                    o & !f,
                    empties,
                    s,
                    INFINITE,
                );
                (key, s, f)
            })
            .collect();
        self.nodes += shallow.nodes;
        // MTD(f): null-window tests moving toward the score, each one cheap and helped by
        // the bounds the ones before left in the table, instead of one wide search.
        // Every final score is even, so each test asks about an odd bound ("above 5?"),
        // which no score sits on. The first bound is the odd one nearest the score a
        // midgame search with the learned evaluation expects.
        let guessed = empties >= GUESS_EMPTIES;
        let expected = if guessed {
            let searcher = self
                .guesser
                .get_or_insert_with(|| Box::new(Midgame::new(model.clone())));
            searcher.forget(parallel);
            searcher.set_probcut(crate::engine::probcut::PROBCUT_DEFAULT);
            // On this solve's threads: the guess is the same on any number.
            searcher.set_threads(if parallel { self.threads } else { 1 });
            searcher.replace_stop(stop.cloned());
            let limits = Limits::to_depth(guess_depth(empties));
            let guess = searcher.search(pos, limits);
            // Its nodes are part of the solve's work (and its time is in the solve's).
            self.nodes += guess.nodes;
            self.trace.guess = Some(Guess {
                score: guess.score,
                depth: guess.depth,
                nodes: guess.nodes,
            });
            // Its move, from a deeper search than the keys', is tried first.
            if let Move::Place(best) = guess.best
                && let Some(first) = ordered.iter_mut().find(|c| c.1 == best.index() as u32)
            {
                first.0 = i32::MIN;
            }
            guess.score.clamp(-64.0, 64.0)
        } else {
            0.0
        };
        ordered.sort_by_key(|&(key, sq, _)| (key, sq));
        let mut beta = 2 * (((expected - 1.0) / 2.0).round() as i32) + 1;
        let (mut lower, mut upper) = (-64, 64);
        // Tests in a row that found the score below their bound.
        let mut falls = 0;
        let untrusted = !guessed || expected.abs() >= LOPSIDED_GUESS;
        let mut best = None;
        let mut worker = Worker {
            nodes: 0,
            table: self.table.on_this_thread(),
            model: &model,
            parallel,
            split: None,
            stop: stop.map(|s| &**s),
            hints: self.guesser.as_deref().filter(|_| guessed),
            hint_empties: empties.saturating_sub(HINT_PLIES),
            splits: Splits::for_root(empties, self.big_root_empties),
        };
        while lower < upper {
            let (started, nodes_before) = (std::time::Instant::now(), worker.nodes);
            let (value, sq) = if ordered.is_empty() {
                // A pass: the opponent's best is the least we get.
                (-nws(b, &mut worker, o, p, -beta - 1, true), None)
            } else {
                search_children(
                    b,
                    &mut worker,
                    p,
                    o,
                    beta,
                    &mut ordered.clone(),
                    empties,
                    None,
                    true,
                )
                .map_or((0, None), |(value, sq)| (value, Some(sq)))
            };
            if worker.aborted() {
                self.nodes += worker.nodes;
                return None;
            }
            self.trace.tests.push(NullWindowTest {
                bound: beta,
                value,
                nodes: worker.nodes - nodes_before,
                elapsed: started.elapsed(),
            });
            if value > beta {
                lower = value;
                best = sq;
                // Below a bound already proven (a step down overshot), the score is most
                // often that bound, which fail-soft values only reach at the last test.
                beta = if upper < 64 {
                    upper - 1
                } else {
                    (value + 1).min(63)
                };
                falls = 0;
            } else {
                // Proving the score below a bound is the dear test (every move refuted).
                // Where the first bound is least trusted — no midgame guess, or one so
                // lopsided that the evaluation, which saturates, says little of the margin
                // — the step down doubles after the second fall in a row (4, 8, 16
                // discs…): overshooting costs a test above the score, which is cheap, and
                // one at the bound proven.
                upper = value;
                falls += 1;
                let step = if untrusted {
                    2 << (falls - 1).min(5)
                } else {
                    2
                };
                beta = (value + 1 - step).max(lower + 1);
            }
        }
        // No test above the least score: every move is as good as the first.
        let best = best.or(ordered.first().map(|&(_, sq, _)| sq));
        let best = best
            .and_then(|sq| Square::from_index(sq as usize))
            .map_or(Move::Pass, Move::Place);
        self.line = vec![best];
        if self.find_line {
            let (mut p, mut o) = match best {
                Move::Place(sq) => {
                    let f = k.flips(p, o, sq.index() as u32);
                    (o & !f, p | f | sq.bit())
                }
                Move::Pass => (o, p),
            };
            extend_line(b, &mut worker, &mut self.line, &mut p, &mut o, -lower);
        }
        // Stopped while finding the line, the score still stands, with the line so far.
        self.nodes += worker.nodes;
        Some((lower, Some(best)))
    }
}

/// Adds to `line` a best move for (`p`, `o`), whose exact score is `score`, and for each
/// position after it, to the end of the game: each move tried (the table's first) is
/// kept when a null-window test shows it reaches the score.
fn extend_line(
    b: impl Build,
    w: &mut Worker<'_>,
    line: &mut Vec<Move>,
    p: &mut u64,
    o: &mut u64,
    mut score: i32,
) {
    let k = b.kernel();
    loop {
        let moves = k.legal_moves(*p, *o);
        if moves == 0 {
            if k.legal_moves(*o, *p) == 0 {
                return;
            }
            line.push(Move::Pass);
            (*p, *o) = (*o, *p);
            score = -score;
            continue;
        }
        let empties = (!(*p | *o)).count_ones();
        let first = (empties >= TABLE_EMPTIES)
            .then(|| w.table.get(*p, *o, empties))
            .flatten()
            .map(|e| u32::from(e.best))
            .filter(|&sq| moves >> sq & 1 == 1);
        let others = squares_of(moves)
            .map(|sq| sq.index() as u32)
            .filter(|&sq| Some(sq) != first);
        // The child's score is at most -score exactly when this move reaches the score.
        let reaching = first.into_iter().chain(others).find_map(|sq| {
            let f = k.flips(*p, *o, sq);
            let (np, no) = (*o & !f, *p | f | 1 << sq);
            (nws(b, w, np, no, -score, false) <= -score).then_some((sq, np, no))
        });
        if w.aborted() {
            return;
        }
        let Some((sq, np, no)) = reaching else {
            debug_assert!(false, "no move reaches the solved score {score}");
            return;
        };
        line.push(Move::Place(
            Square::from_index(sq as usize).expect("a square"),
        ));
        (*p, *o) = (np, no);
        score = -score;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "x86_64")]
    use crate::engine::builds::Avx2Build;
    use crate::engine::builds::PortableBuild;
    #[cfg(target_arch = "x86_64")]
    use crate::rules::kernel;
    use crate::rules::position::played_at_random;

    #[test]
    fn scores_give_empties_to_the_winner() {
        assert_eq!(final_score(0b111, 0b1), 2 + 60);
        assert_eq!(final_score(0b1, 0b111), -62);
        assert_eq!(final_score(0b11, 0b1100), 0);
    }

    /// The score of `pos` in each build this CPU can run but the one `solve` takes (the
    /// widest), with the build's name.
    fn scores_in_the_other_builds(pos: &Othello) -> Vec<(&'static str, i32)> {
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut scores = vec![(
            "portable",
            Solver::default()
                .solve_with(PortableBuild, pos, None, false)
                .unwrap()
                .0,
        )];
        #[cfg(target_arch = "x86_64")]
        if let (Some(k), Some(_)) = (kernel::avx2(), kernel::avx512()) {
            let avx2 = Solver::default().solve_with(Avx2Build(k), pos, None, false);
            scores.push(("AVX2", avx2.unwrap().0));
        }
        scores
    }

    #[test]
    fn every_build_finds_the_same_scores() {
        // Positions with 14 empties from random games, so the ordering search and the
        // table run.
        for game in 0..12 {
            let pos = played_at_random(21, game, 14);
            let (mut a, mut b) = (Solver::default(), Solver::default());
            let best = a.solve(&pos);
            for (build, score) in scores_in_the_other_builds(&pos) {
                assert_eq!(score, best.0, "{build}\n{pos}");
            }
            assert_eq!(b.solve(&pos), best, "the same every time");
            assert_eq!(a.nodes, b.nodes);
        }
    }

    #[test]
    fn the_splits_of_big_solves_give_what_one_thread_gives() {
        // From 18 empties after two moves, as for the solves from BIG_ROOT_EMPTIES, on
        // positions a test can solve: 19 and 20 empties, so that nodes below the root split.
        for game in 0..4 {
            let pos = played_at_random(29, game, 19 + game as u32 % 2);
            let one = Solver::default().solve(&pos);
            for threads in [2, 4] {
                let mut solver = Solver::default();
                solver.set_threads(threads);
                solver.big_root_empties = 0;
                assert_eq!(solver.solve(&pos), one, "{threads} threads\n{pos}");
            }
        }
    }

    /// Full-width negamax to `depth` plies with the learned evaluation at the leaves (a
    /// pass takes a ply), with no cut-off: what the ordering searches must return.
    fn plain_shallow(m: &PatternModel, p: u64, o: u64, depth: u32) -> i32 {
        if depth == 0 {
            return m.evaluate_features(kernel::Portable, &Features::new(p, o), p, o);
        }
        let moves = crate::rules::bits::legal_moves(p, o);
        if moves == 0 {
            return if crate::rules::bits::legal_moves(o, p) == 0 {
                final_score(p, o) * SCALE
            } else {
                -plain_shallow(m, o, p, depth - 1)
            };
        }
        squares_of(moves)
            .map(|sq| {
                let f = crate::rules::bits::flips(p, o, sq.index() as u32);
                -plain_shallow(m, o & !f, p | f | sq.bit(), depth - 1)
            })
            .max()
            .expect("a move")
    }

    #[test]
    fn the_ordering_searches_find_the_negamax_value_and_count_their_nodes() {
        let model = shipped();
        for game in 0..20 {
            let pos = played_at_random(22, game, 20 + game as u32 % 8);
            let (p, o) = pos.discs();
            let f = Features::new(p, o);
            for depth in 0..=3 {
                let mut shallow = Shallow {
                    model: &model,
                    nodes: 0,
                };
                let v = shallow_node(
                    PortableBuild,
                    &mut shallow,
                    p,
                    o,
                    &f,
                    depth,
                    -INFINITE,
                    INFINITE,
                );
                assert_eq!(v, plain_shallow(&model, p, o, depth), "{pos} depth {depth}");
                // The root and, a ply down, every move's position (nothing cuts there
                // with an infinite window).
                let moves = crate::rules::bits::legal_moves(p, o).count_ones() as u64;
                match depth {
                    0 => assert_eq!(shallow.nodes, 1),
                    1 if moves > 0 => assert_eq!(shallow.nodes, 1 + moves),
                    _ => assert!(shallow.nodes > moves, "{}", shallow.nodes),
                }
            }
        }
    }

    #[test]
    fn the_evaluation_keys_put_first_the_moves_the_evaluation_prefers() {
        // Each move's key from the node's features played on and the opponent's replies is
        // the evaluation, read afresh, of the position after it for the opponent: lower
        // where the mover's evaluation is higher.
        let model = shipped();
        for game in 0..20 {
            let pos = played_at_random(23, game, EVAL_KEY_EMPTIES + game as u32 % 2);
            let (p, o) = pos.discs();
            let features = Features::new(p, o);
            for sq in squares_of(crate::rules::bits::legal_moves(p, o)) {
                let s = sq.index() as u32;
                let f = crate::rules::bits::flips(p, o, s);
                let (me, opp) = (p | f | 1 << s, o & !f);
                let replies = crate::rules::bits::legal_moves(opp, me);
                let after = features.play(s, f);
                let key = evaluation_key(kernel::Portable, &model, &after, opp, me, replies);
                let for_the_mover = -model.evaluate(opp, me);
                assert_eq!(key, -for_the_mover * EVAL_KEY / SCALE, "{pos} {sq}");
            }
        }
    }

    /// The tiers hold every empty square once, isolated ones (no empty square among the
    /// eight around) first and the X squares last.
    #[test]
    fn the_tiers_put_each_empty_square_in_one_place() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse empties, as near the end.
            let empty = x & (x >> 5) & (x >> 11);
            let t = tiers(empty);
            assert_eq!(t.iter().fold(0, |all, &tier| all | tier), empty);
            assert_eq!(
                t.iter().map(|tier| tier.count_ones()).sum::<u32>(),
                empty.count_ones()
            );
            for (sq, around) in NEIGHBOURS.iter().enumerate() {
                let alone = empty >> sq & 1 == 1 && around & empty == 0;
                assert_eq!(t[0] >> sq & 1 == 1, alone, "square {sq} of {empty:#x}");
            }
            assert_eq!(t[3], empty & !t[0] & X_SQUARES);
        }
    }

    /// Full-width negamax to the end, with no ordering, table or cut-off: slow and plainly
    /// right.
    fn plain_score(p: u64, o: u64) -> i32 {
        let moves = crate::rules::bits::legal_moves(p, o);
        if moves == 0 {
            return if crate::rules::bits::legal_moves(o, p) == 0 {
                final_score(p, o)
            } else {
                -plain_score(o, p)
            };
        }
        squares_of(moves)
            .map(|sq| {
                let f = crate::rules::bits::flips(p, o, sq.index() as u32);
                -plain_score(o & !f, p | f | sq.bit())
            })
            .max()
            .expect("a move")
    }

    /// A lopsided position with no midgame guess (14 empties): after the second fall in a
    /// row MTD(f) doubles its step down, overshoots once, then tests the bound proven and
    /// steps down from it, rather than stepping down two discs at a time from 0 to -48 (14
    /// tests before; the fail-soft values, and so the bounds, depend on the move order).
    #[test]
    fn a_far_score_is_reached_in_doubling_steps() {
        let pos = Othello::from_board_string(
            "XXXXXXX-XXXOOO--XXOOOOO-X-OXOOO-X-XXOOO-XXXOOOOOXXOOOO--X-OXO--- O",
        )
        .unwrap();
        let mut solver = Solver::default();
        assert_eq!(solver.solve(&pos).0, -48);
        let bounds: Vec<i32> = solver.trace.tests.iter().map(|t| t.bound).collect();
        assert_eq!(bounds, [-1, -11, -17, -25, -41, -63, -45, -47, -51, -49]);
    }

    /// The trace's tests are MTD(f)'s: each answer agrees with the score, the last ones
    /// bracket it, and their nodes and the guess's are the solve's but for the root's keys.
    #[test]
    fn the_trace_shows_the_tests_that_found_the_score() {
        let mut solver = Solver::default();
        for game in 0..6 {
            let pos = played_at_random(11, game, 17 + game as u32 % 3);
            if pos.is_over() {
                continue;
            }
            let nodes_before = solver.nodes;
            let (score, _) = solver.solve(&pos);
            let trace = &solver.trace;
            let guess = trace.guess.as_ref().expect("a guess from 16 empties");
            assert!(guess.depth >= 4 && guess.nodes > 0, "{guess:?}");
            assert!(!trace.tests.is_empty());
            for t in &trace.tests {
                assert_eq!(t.value > t.bound, score > t.bound, "{t:?}, score {score}");
                assert!(t.bound % 2 != 0, "odd bounds: {t:?}");
            }
            for (bound, above) in [(score - 1, true), (score + 1, false)] {
                if bound.abs() < 64 {
                    assert!(
                        trace
                            .tests
                            .iter()
                            .any(|t| t.bound == bound && (t.value > t.bound) == above),
                        "a test at {bound} for {score}: {trace:?}"
                    );
                }
            }
            let counted = guess.nodes + trace.tests.iter().map(|t| t.nodes).sum::<u64>();
            let spent = solver.nodes - nodes_before;
            assert!(
                counted <= spent && counted * 10 >= spent * 9,
                "{counted} of {spent}"
            );
        }
        solver.solve(&Othello::from_discs(u64::MAX, 0, true));
        assert_eq!(
            solver.trace,
            Trace::default(),
            "a finished game needs no test"
        );
    }

    #[test]
    fn the_solver_agrees_with_plain_negamax_near_the_end() {
        // Every count of empties the special cases cover (the last four, the parity
        // search, the table), passes and early ends included, in every build.
        let mut checked = [0; 11];
        let mut passes = 0;
        for game in 0..300 {
            let stop = 1 + (game % 10) as u32;
            let pos = played_at_random(33, game, stop);
            let (p, o) = pos.discs();
            let expected = plain_score(p, o);
            let (score, best) = Solver::default().solve(&pos);
            assert_eq!(score, expected, "{pos}");
            for (build, score) in scores_in_the_other_builds(&pos) {
                assert_eq!(score, expected, "{build}\n{pos}");
            }
            // The best move given really reaches the score.
            if let Some(Move::Place(sq)) = best {
                let f = crate::rules::bits::flips(p, o, sq.index() as u32);
                assert_eq!(-plain_score(o & !f, p | f | sq.bit()), expected, "{pos}");
            }
            checked[pos.empties() as usize] += 1;
            passes += usize::from(best == Some(Move::Pass));
        }
        assert!(checked[1..=10].iter().all(|&n| n > 0), "{checked:?}");
        assert!(passes > 0, "a position where the side to move must pass");
    }

    #[test]
    fn the_line_of_best_play_is_legal_and_ends_on_the_score() {
        // 1 to 20 empties (the last four, the parity search, the table, the ordering
        // searches, the first guess), on one thread and on two.
        for game in 0..40 {
            let mut pos = played_at_random(41, game, 1 + (game % 20) as u32);
            if pos.is_over() {
                continue;
            }
            let mut solver = Solver::default();
            solver.set_threads(1 + (game % 2) as usize);
            solver.set_find_line(true);
            let (score, best) = solver.solve(&pos);
            assert_eq!(solver.line.first().copied(), best, "{pos}");
            let root_side = gamelab_core::Game::to_move(&pos);
            for &mv in &solver.line {
                assert!(
                    gamelab_core::Game::legal_moves(&pos).contains(&mv),
                    "{mv} in {pos}"
                );
                pos.play_unchecked(mv);
            }
            assert!(pos.is_over(), "the line stops before the end: {pos}");
            let (p, o) = pos.discs();
            let end = if gamelab_core::Game::to_move(&pos) == root_side {
                final_score(p, o)
            } else {
                -final_score(p, o)
            };
            assert_eq!(end, score, "{:?}", solver.line);
        }
        // Without asking, only the move.
        let pos = played_at_random(41, 3, 12);
        let mut solver = Solver::default();
        let (_, best) = solver.solve(&pos);
        assert_eq!(solver.line, vec![best.unwrap()]);
    }

    /// What of a solve does not depend on the clock: the first guess and each test's
    /// bound, answer and nodes.
    fn steps(trace: &Trace) -> (Option<Guess>, Vec<(i32, i32, u64)>) {
        let tests = trace.tests.iter().map(|t| (t.bound, t.value, t.nodes));
        (trace.guess.clone(), tests.collect())
    }

    #[test]
    fn a_solver_that_forgets_searches_as_a_new_one() {
        // 14 to 21 empties: from 16 a first guess by the kept midgame searcher, from 21
        // a bigger table than the positions before needed.
        let mut kept = Solver::default();
        for game in 0..8 {
            let pos = played_at_random(43, game, 14 + game as u32);
            let mut new = Solver::default();
            let expected = (new.solve(&pos), new.nodes, steps(&new.trace));
            // Twice: the second time, whatever the solver kept of the first (the
            // exact table, the guess's table) would shorten the search.
            for _ in 0..2 {
                kept.forget();
                let before = kept.nodes;
                let solved = kept.solve(&pos);
                assert_eq!(
                    (solved, kept.nodes - before, steps(&kept.trace)),
                    expected,
                    "{pos}"
                );
            }
        }
        // A stopped solve leaves no line of the solve before.
        let stop = StopFlag::default();
        stop.store(true, Relaxed);
        kept.set_find_line(true);
        assert_eq!(
            kept.solve_until(&played_at_random(43, 9, 20), Some(&stop)),
            None
        );
        assert!(kept.line.is_empty(), "{:?}", kept.line);
    }

    #[test]
    fn a_finished_game_scores_its_discs() {
        let pos = Othello::from_discs(!0 >> 1, 1 << 63, true);
        assert!(pos.is_over());
        assert_eq!(Solver::default().solve(&pos), (62, None));
    }
}
