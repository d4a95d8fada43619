//! The midgame search of the learned AI: principal-variation search (negascout) with
//! iterative deepening and aspiration windows, a transposition table whose entries carry
//! depth and bounds and survive across iterations and moves, and move ordering by the
//! table's move, then by a one-ply evaluation near the root and by the opponent's
//! mobility deeper down. Leaves are scored by the learned pattern evaluation. It never
//! solves: the exact solver stands above it (its first guess is a midgame search), and
//! the engine's [`crate::engine::search::Searcher`] hands it the positions near the end.
//!
//! Values are in 1/256 of a disc (the evaluation's unit), from the side to move's view. A
//! depth-limited search is deterministic: the same position and level give the same move
//! and score on any machine, any load and any number of threads.
//!
//! On several threads (principal-variation splitting): down the line of first moves from
//! the root, while [`SPLIT_DEPTH`] or more plies remain, a node searches its first move
//! alone and then its other moves at once, each a null-window test against the first
//! move's value. Those tests read the table as it stood when they began — no thread
//! writes it meanwhile — and write to a table of their own, merged into the shared one
//! in move order when all are done; the moves that beat the first are searched again in
//! order, alone. What each test sees therefore depends neither on the threads nor on
//! their timing, and one thread runs the very same searches one after another: scores
//! and moves are the same on any number of threads. Null-window nodes deep enough (see
//! [`NEST_DEPTH`]) test their later moves the same way, nested; there a test cut off by
//! an earlier one stops, so node counts depend on the threads.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use arrayvec::ArrayVec;
use std::time::{Duration, Instant};

use gamelab_core::{Cutoff, StopFlag};

use crate::engine::builds::{Build, InBuild, in_widest_build};
use crate::engine::in_order::{Place, Split, build_pool, cut_off, in_order};
use crate::engine::learned::{PatternModel, SCALE};
use crate::engine::patterns::Features;
use crate::engine::slots::Slots;
use crate::rules::bits::{flips, legal_moves};
use crate::rules::kernel::Kernel;
use crate::{Move, Othello, Square};

/// Beyond any evaluation: a finished game scores its disc difference times this.
const WIN: i32 = 64 * SCALE;
const CORNERS: u64 = 0x8100_0000_0000_0081;
pub(crate) const INFINITY: i32 = 1 << 24;

#[derive(Clone, Copy, Default, bytemuck::Zeroable)]
pub(crate) struct Entry {
    key: u64,
    value: i32,
    /// 0 none, 1 lower bound, 2 upper bound, 3 exact.
    bound: u8,
    depth: u8,
    /// The best move's square + 1 (0 none).
    best: u8,
    /// The search that stored it ([`Table::age`]).
    age: u8,
}

const LOWER: u8 = 1;
const UPPER: u8 = 2;
const EXACT: u8 = 3;

/// The transposition table: buckets of two slots, one that keeps the deeper result and one
/// that takes whatever the other does not. A game's searches share the table, so the deep
/// slot also yields to any result of a later search: the positions of moves not played
/// stop holding it, while the line played on finds its deep results again. Exact results,
/// which only the few open-window nodes find, go into a small table of their own too,
/// where the many null-window nodes cannot overwrite them: the principal variation is
/// read from it (from the main table alone, a search of 45 M nodes lost its line after
/// one move).
struct Table {
    /// Each bucket's deep slot, then its other slot.
    buckets: Slots<[Entry; 2]>,
    /// A key's bucket: its low bits.
    mask: usize,
    exact: Slots<Entry>,
    exact_mask: usize,
    /// The search under way, counted from the last clearing (wrapping).
    age: u8,
}

/// Slots of the exact results' table: open-window nodes are about a hundredth of a
/// search's (PVS), and only the line's are read back.
const EXACT_BITS: u32 = 12;

impl Table {
    fn new(bits: u32) -> Table {
        Table::with_exact_bits(bits, EXACT_BITS)
    }

    fn with_exact_bits(bits: u32, exact_bits: u32) -> Table {
        Table {
            buckets: Slots::zeroed(1 << (bits - 1)),
            mask: (1 << (bits - 1)) - 1,
            exact: Slots::zeroed(1 << exact_bits),
            exact_mask: (1 << exact_bits) - 1,
            age: 0,
        }
    }

    /// Forgets every entry, keeping the memory (see [`Slots::clear`]).
    fn clear(&mut self, parallel: bool) {
        self.buckets.clear(parallel);
        self.exact.clear(parallel);
        self.age = 0;
    }

    /// Marks the entries stored so far as an earlier search's.
    fn next_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// The entry the principal variation follows: the exact result, when one is kept.
    fn line_entry(&self, key: u64) -> Option<Entry> {
        let e = self.exact[key as usize & self.exact_mask];
        (e.key == key && e.bound == EXACT)
            .then_some(e)
            .or_else(|| self.get(key))
    }

    #[inline]
    fn key(p: u64, o: u64) -> u64 {
        gamelab_core::mix64(p ^ gamelab_core::mix64(o.rotate_left(17)))
    }

    #[inline]
    fn get(&self, key: u64) -> Option<Entry> {
        let [deep, other] = self.buckets[key as usize & self.mask];
        if deep.key == key && deep.bound != 0 {
            Some(deep)
        } else {
            (other.key == key && other.bound != 0).then_some(other)
        }
    }

    #[inline]
    fn put(&mut self, key: u64, entry: Entry) {
        let entry = Entry {
            age: self.age,
            ..entry
        };
        let [deep, other] = &mut self.buckets[key as usize & self.mask];
        if deep.key == key {
            if entry.depth >= deep.depth {
                *deep = entry;
            } else {
                // Still of use to this search: it keeps the slot against later ones.
                deep.age = self.age;
            }
        } else if deep.bound == 0 {
            *deep = entry;
        } else if entry.depth >= deep.depth || deep.age != self.age {
            // The deep slot's result moves to the other slot (where it replaces this
            // key's shallower result, if any).
            *other = std::mem::replace(deep, entry);
        } else if other.key != key || entry.depth >= other.depth {
            *other = entry;
        }
        if entry.bound == EXACT {
            self.exact[key as usize & self.exact_mask] = entry;
        }
    }

    /// Puts `entries` into this table, in order.
    fn merge(&mut self, entries: &[Entry]) {
        for e in entries {
            self.put(e.key, *e);
        }
    }
}

/// Where a search reads its table entries; what a nested test reads beneath its own.
pub(crate) trait Lookup: Sync {
    fn get(&self, key: u64) -> Option<Entry>;
    /// Asks for `key`'s slot to be brought into the cache ahead of its `get`, so that the
    /// miss overlaps other work.
    fn prefetch(&self, key: u64);
}

impl Lookup for Table {
    #[inline]
    fn get(&self, key: u64) -> Option<Entry> {
        Table::get(self, key)
    }

    #[inline(always)]
    fn prefetch(&self, key: u64) {
        crate::rules::kernel::prefetch(&self.buckets[key as usize & self.mask]);
    }
}

/// Where a search reads and writes its table entries.
pub(crate) trait Store: Lookup {
    fn put(&mut self, key: u64, entry: Entry);
    /// What a test nested under this search reads beneath its own entries.
    fn below(&self) -> &dyn Lookup;
}

impl Lookup for &mut Table {
    #[inline]
    fn get(&self, key: u64) -> Option<Entry> {
        Table::get(self, key)
    }

    #[inline(always)]
    fn prefetch(&self, key: u64) {
        Lookup::prefetch(&**self, key)
    }
}

impl Store for &mut Table {
    fn below(&self) -> &dyn Lookup {
        &**self
    }

    #[inline]
    fn put(&mut self, key: u64, entry: Entry) {
        Table::put(self, key, entry)
    }
}

/// The table of a search running beside others: the shared table, which nobody writes
/// while it runs, under a table of its own that takes its writes.
///
/// The own table is this thread's, reused from one search to the next: each search clears
/// the buckets it wrote when it hands its entries over, so that the next one finds it
/// empty without the cost of clearing all of it.
struct Layered<'a> {
    below: &'a dyn Lookup,
    own: Table,
    /// The own table's buckets written, in order, to hand over afterwards.
    written: Vec<u32>,
}

/// Slots (log2) of each thread's own table: held in the second-level cache.
const OWN_TABLE_BITS: u32 = 16;

thread_local! {
    /// Tables free for this thread's next tests (a thread may hold several: a test, and
    /// the tests nested in it that it runs itself).
    static OWN_TABLES: std::cell::RefCell<Vec<Table>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl<'a> Layered<'a> {
    fn new(below: &'a dyn Lookup) -> Layered<'a> {
        let own = OWN_TABLES
            .with(|t| t.borrow_mut().pop())
            // Null-window tests find no exact results.
            .unwrap_or_else(|| Table::with_exact_bits(OWN_TABLE_BITS, 0));
        Layered {
            below,
            own,
            written: Vec::new(),
        }
    }

    /// What this search wrote, both slots of each bucket it wrote in the bucket's order,
    /// and the own table, cleared again, back to the thread.
    fn into_entries(mut self) -> Vec<Entry> {
        self.written.sort_unstable();
        self.written.dedup();
        let mut entries = Vec::with_capacity(2 * self.written.len());
        for &i in &self.written {
            let bucket = std::mem::take(&mut self.own.buckets[i as usize]);
            entries.extend(bucket.into_iter().filter(|e| e.bound != 0));
        }
        OWN_TABLES.with(|t| t.borrow_mut().push(self.own));
        entries
    }
}

impl Lookup for Layered<'_> {
    #[inline]
    fn get(&self, key: u64) -> Option<Entry> {
        let own = self.own.get(key);
        match (own, self.below.get(key)) {
            (Some(own), Some(below)) if below.depth > own.depth => Some(below),
            (own, below) => own.or(below),
        }
    }

    #[inline(always)]
    fn prefetch(&self, key: u64) {
        self.own.prefetch(key);
        self.below.prefetch(key)
    }
}

impl Store for Layered<'_> {
    fn below(&self) -> &dyn Lookup {
        self
    }

    #[inline]
    fn put(&mut self, key: u64, entry: Entry) {
        self.written.push((key as usize & self.own.mask) as u32);
        self.own.put(key, entry)
    }
}

/// From this many plies left, a node on the line of first moves searches its other moves
/// side by side (on one thread, one after another, the same way).
pub const SPLIT_DEPTH: u32 = 8;

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play (`Pass` when there is none).
    pub best: Move,
    /// Its value in discs for the side to move (exact when `exact`).
    pub score: f64,
    /// Plies searched (the empty squares when exact); when the time ran out before this
    /// search finished an iteration, the depth of an earlier search of the position that
    /// its table kept (see [`Midgame::search`]), whose move and value these are.
    pub depth: u32,
    pub exact: bool,
    pub nodes: u64,
    /// The principal variation, from the table.
    pub pv: Vec<Move>,
    pub elapsed: Duration,
}

/// How deep to search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Plies of the midgame search.
    pub depth: u32,
    /// Solve exactly from this many empty squares.
    pub exact: u32,
    /// Stop deepening after this long (the last finished depth answers); `None` to search
    /// to `depth`, the same on every machine.
    pub time: Option<Duration>,
    /// With `time`: how long deepening may go on while the best move changed at the last
    /// depth finished (a game clock's allowance for an unsettled move,
    /// [`gamelab_core::clock::Clock::unsettled_time`]); back to `time` once a depth keeps
    /// it. `None`: `time` alone.
    pub unsettled: Option<Duration>,
}

impl Limits {
    /// A midgame search to `depth` plies and no further: no exact solving, no clock, so
    /// the same result on every machine.
    pub fn to_depth(depth: u32) -> Self {
        Self {
            depth,
            exact: 0,
            time: None,
            unsettled: None,
        }
    }
}

/// The midgame search: the evaluation and a table kept between moves.
pub struct Midgame {
    model: Arc<PatternModel>,
    table: Table,
    nodes: u64,
    cutoff: Cutoff,
    /// Asked from outside to end searches at once.
    stop: Option<StopFlag>,
    stopped: bool,
    /// Multi-ProbCut's threshold in standard deviations (0: no cuts, every node searched
    /// to its full depth).
    probcut: f64,
    /// Threads for the search; 0 for every core, or one inside a match.
    threads: usize,
    /// The threads of the search (and of the searcher's solver, which borrows them), built
    /// at the first search on several.
    pool: Option<Arc<rayon::ThreadPool>>,
    /// The values the midgame search tells apart ([`crate::engine::search::Searcher::search_bounded`]): one at or
    /// below the first, or at or above the second, is only known to be so.
    window: (i32, i32),
    /// The last midgame iteration's value, before its conversion to discs.
    last_value: i32,
}

impl Midgame {
    pub fn new(model: Arc<PatternModel>) -> Midgame {
        Midgame {
            model,
            table: Table::new(20),
            nodes: 0,
            cutoff: Cutoff::default(),
            stop: None,
            stopped: false,
            probcut: 0.0,
            threads: 1,
            pool: None,
            window: (-INFINITY, INFINITY),
            last_value: 0,
        }
    }

    /// Searches on `threads` threads; 0 for every core, except inside a match, whose
    /// games already fill the cores: one there. The move and the score do not depend on
    /// it.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    /// The pool of `threads` threads, built when first needed (a searcher's solver shares
    /// it); `None` on one thread, inside another pool (the exact search's first guess
    /// splits on its caller's threads), or when no threads are left to build one.
    pub(crate) fn pool_for(&mut self, threads: usize) -> Option<Arc<rayon::ThreadPool>> {
        if threads <= 1 || rayon::current_thread_index().is_some() {
            return None;
        }
        if self.pool.as_ref().map(|pool| pool.current_num_threads()) != Some(threads) {
            self.pool = build_pool(threads);
        }
        self.pool.clone()
    }

    pub(crate) fn threads_to_use(&self) -> usize {
        match self.threads {
            0 if gamelab_core::arena::inside_match() => 1,
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }

    /// Cuts nodes by Multi-ProbCut at `threshold` standard deviations (0 turns cuts off;
    /// smaller cuts more and errs more often). Still deterministic: the same position,
    /// depth and threshold give the same move and score everywhere.
    pub fn set_probcut(&mut self, threshold: f64) {
        self.probcut = threshold;
    }

    /// Ends every later search at once when `stop` is set.
    pub fn set_stop(&mut self, stop: StopFlag) {
        self.stop = Some(stop);
    }

    /// The flag given by [`Midgame::set_stop`], if any.
    pub(crate) fn stop_flag(&self) -> Option<&StopFlag> {
        self.stop.as_ref()
    }

    /// As [`Midgame::set_stop`]; `None` takes a stop given before away.
    pub(crate) fn replace_stop(&mut self, stop: Option<StopFlag>) {
        self.stop = stop;
    }

    /// Forgets every position searched, keeping the tables' memory: the next search
    /// runs as a new searcher's would (the same move, score and nodes), without the
    /// cost of new tables. `parallel`: on the threads of the rayon pool it runs on (the
    /// exact solver's, for its first guess).
    pub fn forget(&mut self, parallel: bool) {
        self.table.clear(parallel);
    }

    /// The learned evaluation of a position (side to move's view, 1/256 disc).
    #[inline]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        self.model.evaluate(p, o)
    }

    /// Searches `pos` to `limits.depth` (or its time) with the learned evaluation, never
    /// solving: `limits.exact` is [`crate::engine::search::Searcher`]'s. Where the table
    /// kept from earlier searches knows `pos` to some depth, the search starts with that
    /// result in hand and deepens from the ply after it (to `limits.depth` at most).
    ///
    /// ```
    /// use gamelab_core::Game;
    /// use gamelab_othello::midgame::Midgame;
    /// use gamelab_othello::search::Limits;
    /// use gamelab_othello::{Othello, learned};
    ///
    /// let mut midgame = Midgame::new(learned::shipped());
    /// let result = midgame.search(&Othello::new(), Limits::to_depth(6));
    /// assert!(Othello::new().legal_moves().contains(&result.best));
    /// assert_eq!((result.depth, result.exact), (6, false));
    /// ```
    pub fn search(&mut self, pos: &Othello, limits: Limits) -> SearchResult {
        let started = Instant::now();
        self.begin();
        if let Some(passing) = self.passing(pos, started) {
            return passing;
        }
        let threads = self.threads_to_use();
        self.deepen_to(pos, limits, started, threads)
    }

    /// Starts a search: its nodes counted afresh, the entries of earlier searches kept.
    pub(crate) fn begin(&mut self) {
        self.nodes = 0;
        self.stopped = false;
        self.table.next_search();
    }

    /// The answer where the side to move has no move: a pass, valued by the evaluation.
    pub(crate) fn passing(&self, pos: &Othello, started: Instant) -> Option<SearchResult> {
        let (p, o) = pos.discs();
        (legal_moves(p, o) == 0).then(|| SearchResult {
            best: Move::Pass,
            score: to_discs(self.evaluate(p, o)),
            depth: 0,
            exact: false,
            nodes: 0,
            pv: Vec::new(),
            elapsed: started.elapsed(),
        })
    }

    /// The model it evaluates with.
    pub(crate) fn model(&self) -> &Arc<PatternModel> {
        &self.model
    }

    /// The stop given by [`Midgame::set_stop`] is up.
    pub(crate) fn stop_raised(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Tells values apart only inside `window` (internal units) from the next search on;
    /// `(-INFINITY, INFINITY)` for every value.
    pub(crate) fn set_window(&mut self, window: (i32, i32)) {
        self.window = window;
        self.last_value = 0;
    }

    /// The last iteration's value, in internal units.
    pub(crate) fn last_value(&self) -> i32 {
        self.last_value
    }

    /// The midgame search: iterative deepening to `limits.depth`, or until its time or a
    /// stop.
    pub(crate) fn deepen_to(
        &mut self,
        pos: &Othello,
        limits: Limits,
        started: Instant,
        threads: usize,
    ) -> SearchResult {
        self.cutoff = Cutoff::new(limits.time.map(|t| started + t), self.stop.clone());
        if limits.depth.clamp(1, pos.empties()) >= SPLIT_DEPTH {
            self.pool_for(threads);
        }
        // Inside a pool already (the exact search's first guess), the search splits there.
        let parallel =
            threads > 1 && (self.pool.is_some() || rayon::current_thread_index().is_some());
        let pool = self.pool.take();
        let result = match &pool {
            Some(pool) if parallel && rayon::current_thread_index().is_none() => {
                pool.install(|| self.deepen_in_widest_build(pos, limits, started, true))
            }
            _ => self.deepen_in_widest_build(pos, limits, started, parallel),
        };
        self.pool = pool;
        result
    }

    fn deepen_in_widest_build(
        &mut self,
        pos: &Othello,
        limits: Limits,
        started: Instant,
        parallel: bool,
    ) -> SearchResult {
        struct Deepen<'a> {
            searcher: &'a mut Midgame,
            pos: &'a Othello,
            limits: Limits,
            started: Instant,
            parallel: bool,
        }
        impl InBuild for Deepen<'_> {
            type Output = SearchResult;
            fn run<B: Build>(self, b: B) -> SearchResult {
                self.searcher
                    .deepen(b, self.pos, self.limits, self.started, self.parallel)
            }
        }
        in_widest_build(Deepen {
            searcher: self,
            pos,
            limits,
            started,
            parallel,
        })
    }

    /// Iterative deepening to `limits.depth`, each iteration in an aspiration window, in
    /// build `b`, until `limits.time` (or `limits.unsettled` while the best move is
    /// unsettled) is up.
    fn deepen<B: Build>(
        &mut self,
        b: B,
        pos: &Othello,
        limits: Limits,
        started: Instant,
        parallel: bool,
    ) -> SearchResult {
        let max_depth = limits.depth.clamp(1, pos.empties());
        let (p, o) = pos.discs();
        let features = Features::new(p, o);
        // A bounded search ([`crate::engine::search::Searcher::search_bounded`]) widens its windows no further
        // than its bounds; an unbounded one's are ±INFINITY, beyond any value.
        let (lo, hi) = self.window;
        let mut guess = self.evaluate(p, o).clamp(lo + 1, hi - 1);
        // A table kept from the game's earlier moves may know this position already: the
        // search then starts with that result in hand and deepens from the ply after it.
        let earlier = self.earlier_result(p, o, max_depth);
        let start = match &earlier {
            Some((known, value)) => {
                guess = (*value).clamp(lo + 1, hi - 1);
                (known.depth + 1).min(max_depth)
            }
            None => 1,
        };
        let mut result = None;
        for depth in start..=max_depth {
            // Aspiration: a window around the last iteration's value, widened on failure.
            // Around an evaluation it stays within the evaluations' range, so that it asks
            // for a finished game only after one was found: a window across the cap asked
            // for a finished win of 2 discs, searched without cuts (63.5 M nodes at depth
            // 16 from 26 empties where depth 15 took 24 k).
            let mut delta = 2 * SCALE;
            let (mut alpha, mut beta) = ((guess - delta).max(lo), (guess + delta).min(hi));
            if guess.abs() < WIN {
                (alpha, beta) = (alpha.max(-WIN), beta.min(WIN));
            }
            let value = loop {
                let v = self.split(b, p, o, &features, depth, alpha, beta, 0, parallel);
                if self.stopped {
                    break None;
                }
                if v <= alpha && alpha > lo {
                    alpha = (alpha - delta).max(lo);
                } else if v >= beta && beta < hi {
                    beta = (beta + delta).min(hi);
                } else {
                    break Some(v);
                }
                delta *= 2;
            };
            let Some(value) = value else { break };
            self.last_value = value;
            guess = value.clamp(lo + 1, hi - 1);
            let pv = self.principal_variation(p, o, depth);
            let best = pv.first().copied().unwrap_or(Move::Pass);
            // Settled once two depths in a row agree on the move.
            if let Some(longer) = limits.unsettled {
                let settled = result
                    .as_ref()
                    .or(earlier.as_ref().map(|(known, _)| known))
                    .is_some_and(|r: &SearchResult| r.best == best);
                let until = if settled {
                    limits.time.unwrap_or(longer)
                } else {
                    longer
                };
                self.cutoff = Cutoff::new(Some(started + until), self.stop.clone());
            }
            result = Some(SearchResult {
                best,
                score: to_discs(value),
                depth,
                exact: false,
                nodes: self.nodes,
                pv,
                elapsed: started.elapsed(),
            });
            if self.cutoff.reached() {
                break;
            }
        }
        // No new iteration finished: the earlier search's result, at this one's cost.
        let result = result.or_else(|| {
            earlier.map(|(known, _)| SearchResult {
                nodes: self.nodes,
                elapsed: started.elapsed(),
                ..known
            })
        });
        // Even a time limit too short for depth 1 answers: with the first legal move.
        result.unwrap_or_else(|| {
            let legal = legal_moves(p, o);
            let sq = Square::from_index(legal.trailing_zeros() as usize).expect("a square");
            SearchResult {
                best: Move::Place(sq),
                score: 0.0,
                depth: 0,
                exact: false,
                nodes: self.nodes,
                pv: vec![Move::Place(sq)],
                elapsed: started.elapsed(),
            }
        })
    }

    /// A search of the shared table, on this thread (its nested tests on the pool's
    /// threads when `parallel`).
    fn walk<B: Build>(&mut self, build: B, parallel: bool) -> Walk<'_, &mut Table, B> {
        Walk {
            build,
            model: &self.model,
            table: &mut self.table,
            cutoff: &self.cutoff,
            probcut: self.probcut,
            nodes: 0,
            next_check: CHECK_EVERY,
            stopped: false,
            parallel,
            place: None,
        }
    }

    /// Searches (p, o) as [`Walk::pvs`] does, a node on the line of first moves: with
    /// [`SPLIT_DEPTH`] plies or more left and a move to play, it searches its first move
    /// (by this same rule) and then tests the others side by side (see the module's
    /// comment); otherwise it is an ordinary node.
    #[allow(clippy::too_many_arguments)]
    fn split<B: Build>(
        &mut self,
        b: B,
        p: u64,
        o: u64,
        features: &Features,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        parallel: bool,
    ) -> i32 {
        let k = b.kernel();
        let legal = k.legal_moves(p, o);
        if depth < SPLIT_DEPTH || legal == 0 {
            let mut walk = self.walk(b, parallel);
            let v = walk.pvs(p, o, features, depth, alpha, beta, ply);
            let (nodes, stopped) = (walk.nodes, walk.stopped);
            self.nodes += nodes;
            self.stopped |= stopped;
            return v;
        }
        self.nodes += 1;
        if self.stopped || self.cutoff.reached() {
            self.stopped = true;
            return 0;
        }
        let key = Table::key(p, o);
        let table_move = match probe(self.table.get(key), depth, alpha, beta, ply) {
            Ok(table_move) => table_move,
            Err(value) => return value,
        };
        let mut moves = scored_moves(
            k,
            &self.model,
            &self.table,
            p,
            o,
            features,
            legal,
            table_move,
            depth,
        );
        // The order the one-at-a-time search would pick them in.
        moves.sort_unstable_by_key(|&(key, ..)| std::cmp::Reverse(key));
        let child = |&(_, sq, f): &(i32, u8, u64)| {
            let sq = u32::from(sq);
            (o ^ f, p | f | (1u64 << sq), features.play(sq, f))
        };
        let alpha0 = alpha;
        let (np, no, nf) = child(&moves[0]);
        let mut best = -self.split(b, np, no, &nf, depth - 1, -beta, -alpha, ply + 1, parallel);
        let mut best_sq = moves[0].1 + 1;
        if self.stopped {
            return 0;
        }
        alpha = alpha.max(best);
        if alpha < beta && moves.len() > 1 {
            // The other moves side by side, each tested against the first one's value. Not
            // seeing each other's entries, they search 10 % more nodes than one search of
            // the moves in turn (50 midgame positions at depth 13: 498 M against 454 M).
            // Batches tested in turn would see more (in twos 482 M, in eights 494 M) but
            // leave threads idle.
            let batch = &moves[1..];
            let bar = alpha;
            let shared = &self.table;
            let (model, cutoff, probcut) = (&*self.model, &self.cutoff, self.probcut);
            let test = |m: &(i32, u8, u64)| {
                let (np, no, nf) = child(m);
                let mut walk = Walk {
                    build: b,
                    model,
                    table: Layered::new(shared),
                    cutoff,
                    probcut,
                    nodes: 0,
                    next_check: NESTED_FIRST_CHECK,
                    stopped: false,
                    parallel,
                    place: None,
                };
                let v = -walk.pvs(np, no, &nf, depth - 1, -bar - 1, -bar, ply + 1);
                (v, walk.nodes, walk.stopped, walk.table.into_entries())
            };
            let tested: Vec<_> = if parallel {
                in_order(batch.len(), rayon::current_num_threads(), |i| {
                    (test(&batch[i]), true)
                })
                .into_iter()
                .map(|(_, tested)| tested)
                .collect()
            } else {
                batch.iter().map(test).collect()
            };
            let mut values = Vec::with_capacity(tested.len());
            for (v, nodes, stopped, own) in tested {
                self.nodes += nodes;
                self.stopped |= stopped;
                self.table.merge(&own);
                values.push(v);
            }
            if self.stopped {
                return 0;
            }
            for (m, mut v) in batch.iter().zip(values) {
                if v > bar {
                    // Better than the best before the batch: whether it beats the best so
                    // far, and by how much, is searched now, alone.
                    let (np, no, nf) = child(m);
                    let mut walk = self.walk(b, parallel);
                    if v <= alpha {
                        v = -walk.pvs(np, no, &nf, depth - 1, -alpha - 1, -alpha, ply + 1);
                    }
                    if v > alpha && v < beta && !walk.stopped {
                        v = -walk.pvs(np, no, &nf, depth - 1, -beta, -alpha, ply + 1);
                    }
                    let (nodes, stopped) = (walk.nodes, walk.stopped);
                    self.nodes += nodes;
                    if stopped {
                        self.stopped = true;
                        return 0;
                    }
                }
                if v > best {
                    best = v;
                    best_sq = m.1 + 1;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        }
        self.table
            .put(key, entry(key, best, alpha0, beta, depth, best_sq));
        best
    }

    /// What an earlier search left in the table for the root (p, o) of an unbounded search
    /// to `max_depth`: its move, value (a bound when that search only bounded it) and
    /// depth as a result (its nodes and time this search's to fill in), and the value in
    /// internal units; `None` when the table does not know the position or its move is
    /// not legal there (a key's collision). The iterations up to that depth would mostly
    /// read the table back, and a search with the result in hand need not finish the next
    /// one to answer. `cargo run --release -p gamelab-othello --example kept_table -- 20
    /// 0.1` (one thread, Intel 207, 560 midgame positions, two runs): a table kept from
    /// move to move reached 1.40 and 1.44 plies deeper than a fresh one, against 0.97 and
    /// 1.02 when every search started at depth 1 (RESULTS.md).
    fn earlier_result(&self, p: u64, o: u64, max_depth: u32) -> Option<(SearchResult, i32)> {
        if self.window != (-INFINITY, INFINITY) {
            return None;
        }
        let e = self.table.get(Table::key(p, o))?;
        let sq = e.best.checked_sub(1)?;
        if e.depth == 0 || legal_moves(p, o) >> sq & 1 == 0 {
            return None;
        }
        let depth = u32::from(e.depth).min(max_depth);
        let best = Move::Place(Square::from_index(usize::from(sq)).expect("a square"));
        let mut pv = self.principal_variation(p, o, depth);
        if pv.first() != Some(&best) {
            pv = vec![best];
        }
        let result = SearchResult {
            best,
            score: to_discs(e.value),
            depth,
            exact: false,
            nodes: 0,
            pv,
            elapsed: Duration::ZERO,
        };
        Some((result, e.value))
    }

    /// The best move the table holds for (p, o) from a search at least `min_depth` plies
    /// deep: a hint for other searches of the same tree.
    #[inline]
    pub(crate) fn table_move(&self, p: u64, o: u64, min_depth: u32) -> Option<u32> {
        self.table
            .get(Table::key(p, o))
            .filter(|e| u32::from(e.depth) >= min_depth)
            .and_then(|e| e.best.checked_sub(1))
            .map(u32::from)
    }

    fn principal_variation(&self, mut p: u64, mut o: u64, depth: u32) -> Vec<Move> {
        let mut pv = Vec::new();
        while pv.len() < depth as usize {
            let Some(e) = self.table.line_entry(Table::key(p, o)) else {
                break;
            };
            if e.best == 0 {
                break;
            }
            let sq = u32::from(e.best - 1);
            let f = flips(p, o, sq);
            if f == 0 {
                break;
            }
            pv.push(Move::Place(
                Square::from_index(sq as usize).expect("a square"),
            ));
            (p, o) = (o ^ f, p | f | (1u64 << sq));
            if legal_moves(p, o) == 0 {
                if legal_moves(o, p) == 0 {
                    break;
                }
                pv.push(Move::Pass);
                (p, o) = (o, p);
            }
        }
        pv
    }
}

/// What the table says of a node searched to `depth` in (alpha, beta): `Err` with the
/// value when an entry at least that deep settles it (never at the root, which must name a
/// move), else the move to try first (its square + 1, 0 for none).
#[inline]
fn probe(e: Option<Entry>, depth: u32, alpha: i32, beta: i32, ply: u32) -> Result<u8, i32> {
    let Some(e) = e else { return Ok(0) };
    if u32::from(e.depth) >= depth && ply > 0 {
        match e.bound {
            EXACT => return Err(e.value),
            LOWER if e.value >= beta => return Err(e.value),
            UPPER if e.value <= alpha => return Err(e.value),
            _ => {}
        }
    }
    Ok(e.best)
}

/// The table entry of a node searched in (alpha, beta) to `depth` that found `value`.
fn entry(key: u64, value: i32, alpha: i32, beta: i32, depth: u32, best: u8) -> Entry {
    let bound = if value <= alpha {
        UPPER
    } else if value >= beta {
        LOWER
    } else {
        EXACT
    };
    Entry {
        key,
        value,
        bound,
        depth: depth as u8,
        best,
        age: 0,
    }
}

/// One search on one thread: what it reads, where it writes, what it counts.
pub(crate) struct Walk<'a, S, B> {
    build: B,
    model: &'a PatternModel,
    table: S,
    cutoff: &'a Cutoff,
    probcut: f64,
    nodes: u64,
    /// The node count at which the clock and the stop flags are read next: frontier
    /// nodes add several at once, so a test of `nodes % N == 0` would step over most
    /// multiples.
    next_check: u64,
    stopped: bool,
    /// Whether its nested tests may run on the pool's other threads.
    parallel: bool,
    /// The nested test this search is, when it is one.
    place: Option<Place<'a>>,
}

/// From this many plies left, a null-window node whose first move does not cut tests its
/// other moves side by side (on one thread, one after another, the same way), each reading
/// the node's table as it stood and writing a table of its own, merged in move order up
/// to the first move at or above beta. Searches on any number of threads find the same
/// scores and moves; the nodes of tests that an earlier test's cut-off stopped half-way
/// count too, so node counts grow with the threads. 10 rather than 8 (depth 13, Multi-
/// ProbCut 1.5): on 16 cores 8 is faster still (0.139 s a position, 10: 0.175 s, no
/// nesting: 0.265 s), but costs one thread 16 % more time where 10 costs 5.5 %.
pub const NEST_DEPTH: u32 = 10;

/// Nodes between two readings of the clock and the stop flags (a few tenths of a
/// millisecond).
const CHECK_EVERY: u64 = 4096;

/// A nested test's first reading comes sooner: its nodes reach its parent's count only
/// when the whole batch of tests is done, and a batch of tests each under
/// [`CHECK_EVERY`] nodes read no clock at all (a 0.1-s search stopped 1–11 ms late).
const NESTED_FIRST_CHECK: u64 = CHECK_EVERY / 16;

/// (value, nodes, stopped, table entries) of one nested test.
type Tested = (i32, u64, bool, Vec<Entry>);

impl<S: Store, B: Build> Walk<'_, S, B> {
    /// Whether a test this search is nested in was cut off by an earlier one.
    fn aborted(&self) -> bool {
        cut_off(self.place)
    }

    /// Counts `nodes` more, reading the clock and the stop flags when the count reaches
    /// the next reading.
    #[inline(always)]
    fn count(&mut self, nodes: u64) {
        self.nodes += nodes;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            if self.cutoff.reached() || self.aborted() {
                self.stopped = true;
            }
        }
    }

    /// The moves `rest` of a null-window node (p, o) at (`alpha`, `alpha` + 1), whose
    /// first move stayed at or below alpha, tested side by side (see [`NEST_DEPTH`]): the
    /// value and square of the first one in order at or above beta, else of the best;
    /// `None` when stopped.
    #[allow(clippy::too_many_arguments)]
    fn nested(
        &mut self,
        p: u64,
        o: u64,
        features: &Features,
        depth: u32,
        alpha: i32,
        rest: &[(i32, u8, u64)],
        ply: u32,
    ) -> Option<(i32, u8)> {
        let beta = alpha + 1;
        let nest = Split::new(self.place);
        let (build, model, cutoff, probcut, parallel) = (
            self.build,
            self.model,
            self.cutoff,
            self.probcut,
            self.parallel,
        );
        let below = self.table.below();
        let test = |i: usize| -> Option<Tested> {
            if nest.cut_before(i) {
                return None;
            }
            let (_, sq, f) = rest[i];
            let sq = u32::from(sq);
            let mut walk = Walk {
                build,
                model,
                table: Layered::new(below),
                cutoff,
                probcut,
                nodes: 0,
                next_check: NESTED_FIRST_CHECK,
                stopped: false,
                parallel,
                place: Some((&nest, i)),
            };
            let (np, no) = (o ^ f, p | f | (1u64 << sq));
            let v = -walk.pvs(
                np,
                no,
                &features.play(sq, f),
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
            );
            if !walk.stopped && v >= beta {
                nest.cut_at(i);
            }
            Some((v, walk.nodes, walk.stopped, walk.table.into_entries()))
        };
        let tested: Vec<Option<Tested>> = if parallel {
            in_order(rest.len(), rayon::current_num_threads(), |i| {
                (test(i), true)
            })
            .into_iter()
            .map(|(_, tested)| tested)
            .collect()
        } else {
            (0..rest.len()).map(test).collect()
        };
        // The tests' nodes may cross a reading of the clock: read it here, or a walk
        // whose nodes are mostly its tests' would never read it (a 0.1 s search at 24
        // empties, deep in nested tests, ran 18 s).
        self.count(tested.iter().flatten().map(|t| t.1).sum::<u64>());
        if self.stopped || self.aborted() {
            self.stopped = true;
            return None;
        }
        let mut best = (-INFINITY, 0);
        for (i, t) in tested.into_iter().enumerate() {
            // Every test up to the first at or above beta ran to its end.
            let (v, _, stopped, entries) = t.expect("a test before the cut ran");
            if stopped {
                self.stopped = true;
                return None;
            }
            for e in entries {
                self.table.put(e.key, e);
            }
            if v > best.0 {
                best = (v, rest[i].1);
            }
            if v >= beta {
                break;
            }
        }
        Some(best)
    }

    /// Principal-variation search of (p, o), whose features are `features`, to `depth`,
    /// fail-soft, in this search's build.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn pvs(
        &mut self,
        p: u64,
        o: u64,
        features: &Features,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        struct Node<'a, 'w, S, B>(
            &'a mut Walk<'w, S, B>,
            u64,
            u64,
            &'a Features,
            u32,
            i32,
            i32,
            u32,
        );
        impl<S: Store, B: Build> InBuild for Node<'_, '_, S, B> {
            type Output = i32;
            #[inline(always)]
            fn run<C: Build>(self, _: C) -> i32 {
                // The walk's own build, whose code this runs in.
                let Node(w, p, o, f, depth, alpha, beta, ply) = self;
                w.pvs_node(p, o, f, depth, alpha, beta, ply)
            }
        }
        self.build
            .enter(Node(self, p, o, features, depth, alpha, beta, ply))
    }

    /// One node of [`Walk::pvs`], compiled into each build's recursion.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn pvs_node(
        &mut self,
        p: u64,
        o: u64,
        features: &Features,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        self.count(1);
        if self.stopped {
            return 0;
        }
        if depth == 0 {
            return self.leaf(p, o, features);
        }
        let k = self.build.kernel();
        let legal = k.legal_moves(p, o);
        if legal == 0 {
            if k.legal_moves(o, p) == 0 {
                return final_value(p, o);
            }
            return -self.pvs(o, p, &features.pass(), depth, -beta, -alpha, ply + 1);
        }
        if depth == 1 && ply > 0 {
            return self.frontier(p, o, features, legal, beta);
        }
        let key = Table::key(p, o);
        let table_move = match probe(self.table.get(key), depth, alpha, beta, ply) {
            Ok(table_move) => table_move,
            Err(value) => return value,
        };
        if self.probcut > 0.0
            && ply > 0
            && beta == alpha + 1
            && let Some(cut) = crate::engine::probcut::cut(depth, 64 - (p | o).count_ones())
        {
            let (high, low) = self.probcut_bounds(cut, alpha, beta);
            let shallow = crate::engine::probcut::shallow_depth(depth);
            if let Some(high) = high
                && self.pvs(p, o, features, shallow, high - 1, high, ply) >= high
            {
                return beta;
            }
            if let Some(low) = low
                && self.pvs(p, o, features, shallow, low, low + 1, ply) <= low
            {
                return alpha;
            }
            if self.stopped {
                return 0;
            }
        }
        let mut moves = scored_moves(
            k,
            self.model,
            &self.table,
            p,
            o,
            features,
            legal,
            table_move,
            depth,
        );
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_sq = 0u8;
        for i in 0..moves.len() {
            // The best of the moves left, picked when it is needed: most nodes cut off
            // after a move or two, so sorting them all would mostly be wasted.
            let next = (i..moves.len())
                .max_by_key(|&j| moves[j].0)
                .expect("a move is left");
            moves.swap(i, next);
            let (_, sq, f) = moves[i];
            let (np, no) = (o ^ f, p | f | (1u64 << sq));
            let nf = features.play(u32::from(sq), f);
            let v = if i == 0 {
                -self.pvs(np, no, &nf, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let v = -self.pvs(np, no, &nf, depth - 1, -alpha - 1, -alpha, ply + 1);
                if v > alpha && v < beta {
                    -self.pvs(np, no, &nf, depth - 1, -beta, -v, ply + 1)
                } else {
                    v
                }
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = sq + 1;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
            if i == 0 && beta == alpha + 1 && depth >= NEST_DEPTH && moves.len() > 2 {
                let rest = &mut moves[1..];
                rest.sort_unstable_by_key(|&(key, ..)| std::cmp::Reverse(key));
                let Some((v, sq)) = self.nested(p, o, features, depth, alpha, rest, ply) else {
                    return 0;
                };
                if v > best {
                    best = v;
                    best_sq = sq + 1;
                }
                break;
            }
        }
        self.table
            .put(key, entry(key, best, alpha0, beta, depth, best_sq));
        best
    }

    /// Multi-ProbCut's bounds for a null window (alpha, beta): the shallow search's value
    /// at or above `high` predicts the deep one failing high, at or below `low` failing
    /// low; `None` where that side may not cut.
    ///
    /// Inside the evaluations' range the bound is the fitted line's, with `probcut`
    /// standard deviations to spare. At the evaluation's cap (±(WIN − 1)) the window asks
    /// only whether a finished game passes it, and an evaluation there tells positions
    /// apart no more, so no margin applies: a shallow search that finds no finished game
    /// beyond the cap predicts that the deep one finds none either. Without that, a won
    /// midgame position (every leaf at the cap) was searched full width for a finished win
    /// beyond the horizon: 743 M nodes at depth 16 where depth 12 took 0.76 M. Windows
    /// beyond the cap, between finished games' values, are not cut: near the end a deeper
    /// search does find finished games a shallow one misses (cut there, depth 8 from 7 and
    /// 8 empties erred by 2.69 discs, not under 2.66).
    #[inline(always)]
    fn probcut_bounds(
        &self,
        cut: &crate::engine::probcut::Cut,
        alpha: i32,
        beta: i32,
    ) -> (Option<i32>, Option<i32>) {
        let scale = f64::from(SCALE);
        let margin = self.probcut * cut.sigma * scale;
        let cap = WIN - 1;
        let bound_for = |v: f64| {
            let limit = f64::from(cap);
            ((v - cut.intercept * scale) / cut.slope)
                .round()
                .clamp(-limit, limit) as i32
        };
        let high = if beta.abs() > cap {
            None
        } else if beta == -cap {
            Some(beta)
        } else {
            Some(bound_for(f64::from(beta) + margin))
        };
        let low = if alpha.abs() > cap {
            None
        } else if alpha == cap {
            Some(alpha)
        } else {
            Some(bound_for(f64::from(alpha) - margin))
        };
        (high, low)
    }

    /// A leaf, scored by the evaluation as it stands, without searching on (one where the
    /// side to move must pass is rare enough that its evaluation serves), unless the board
    /// is full.
    #[inline(always)]
    fn leaf(&self, p: u64, o: u64, features: &Features) -> i32 {
        if p | o == u64::MAX {
            return final_value(p, o);
        }
        // Kept below a finished game's value, whatever the weights add up to.
        self.model
            .evaluate_features(self.build.kernel(), features, p, o)
            .clamp(-(WIN - 1), WIN - 1)
    }

    /// A node one ply above the leaves, not the root: every child scored by the
    /// evaluation in turn (corners first), with no table and no ordering, which would
    /// cost more here than the cut-offs they buy. Fail-soft.
    #[inline(always)]
    fn frontier(&mut self, p: u64, o: u64, features: &Features, legal: u64, beta: i32) -> i32 {
        let k = self.build.kernel();
        let mut best = -INFINITY;
        for group in [legal & CORNERS, legal & !CORNERS] {
            let mut bits = group;
            while bits != 0 {
                let sq = bits.trailing_zeros();
                bits &= bits - 1;
                let f = k.flips(p, o, sq);
                self.nodes += 1;
                let v = -self.leaf(o ^ f, p | f | (1u64 << sq), &features.play(sq, f));
                if v > best {
                    best = v;
                    if v >= beta {
                        return best;
                    }
                }
            }
        }
        best
    }
}

/// The legal squares, each with the discs it flips and a key to order it by (higher
/// first): the table's move, then (at depth ≥ 3) by a one-ply evaluation, else by the
/// opponent's mobility after the move (fewest first) with corners ahead; ties to the lower
/// square. Keys are distinct (the square is in their low bits), so that one comparison
/// orders two moves, the same way every time. On the stack: this runs at every interior
/// node.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn scored_moves(
    k: impl Kernel,
    model: &PatternModel,
    table: &impl Lookup,
    p: u64,
    o: u64,
    features: &Features,
    legal: u64,
    table_move: u8,
    depth: u32,
) -> ArrayVec<(i32, u8, u64), 64> {
    let mut scored: ArrayVec<(i32, u8, u64), 64> = ArrayVec::new();
    let mut bits = legal;
    while bits != 0 {
        let sq = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let f = k.flips(p, o, u32::from(sq));
        let key = if sq + 1 == table_move {
            i32::MAX
        } else {
            let (np, no) = (o ^ f, p | f | (1u64 << sq));
            let score = if depth >= 3 {
                // The child reads its table entry first thing, most likely a miss in a
                // table of many megabytes: asked for now, it overlaps the evaluations.
                table.prefetch(Table::key(np, no));
                -model.evaluate_features(k, &features.play(u32::from(sq), f), np, no)
            } else {
                let corner = if CORNERS & (1u64 << sq) != 0 {
                    1 << 10
                } else {
                    0
                };
                corner - 16 * k.legal_moves(np, no).count_ones() as i32
            };
            // Evaluations stay far within ±2^24 (46 weights of at most 2^15).
            score.clamp(-(1 << 24), 1 << 24) << 6 | (63 - i32::from(sq))
        };
        scored.push((key, sq, f));
    }
    scored
}

/// A value in discs: evaluations are scaled by [`SCALE`], finished games also carry a
/// bonus of 64 discs beyond any evaluation, which this takes off.
pub fn to_discs(value: i32) -> f64 {
    let v = if value.abs() >= WIN {
        value - value.signum() * WIN
    } else {
        value
    };
    f64::from(v) / f64::from(SCALE)
}

/// Positions in [`values_digest`].
const DIGEST_POSITIONS: u64 = 32;
/// Depths 1 to this of each position go into [`values_digest`].
const DIGEST_DEPTH: u32 = 4;

/// A digest of the search's values without cuts, what Multi-ProbCut's lines are fitted
/// from: depths 1 to `DIGEST_DEPTH` of positions from random games, 14 to 50 empties.
/// `fit_probcut` stores it beside the lines as [`crate::engine::probcut::FITTED_FOR`];
/// when the evaluation or the search changes its values, the digest changes and the
/// lines are stale (they once went stale unnoticed: refitted, they scored 52.65 % against
/// the stale ones at 0.1 s a move).
pub fn values_digest(model: &Arc<PatternModel>) -> u64 {
    let mut digest = 0u64;
    for game in 0..DIGEST_POSITIONS {
        let empties = 14 + (game * 36 / DIGEST_POSITIONS) as u32;
        let pos = crate::rules::position::played_at_random(0x0b1e_c7ed, game, empties);
        for depth in 1..=DIGEST_DEPTH {
            let mut searcher = Midgame::new(model.clone());
            searcher.set_threads(1);
            let score = searcher.search(&pos, Limits::to_depth(depth)).score;
            digest = gamelab_core::mix64(digest ^ score.to_bits());
        }
    }
    digest
}

/// A finished game's value: the disc difference (empties to the winner), scaled beyond any
/// evaluation.
fn final_value(p: u64, o: u64) -> i32 {
    let diff = crate::rules::position::final_score(p, o);
    diff * SCALE + diff.signum() * WIN
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "x86_64")]
    use crate::engine::builds::Avx2Build;
    use crate::engine::builds::PortableBuild;
    use crate::engine::probcut::PROBCUT_DEFAULT;

    /// Game `game` of `seed` played at random for `plies` plies (or until it ends).
    fn random_position(seed: u64, game: u64, plies: u32) -> Othello {
        let mut rng = gamelab_core::game_rng(seed, game, gamelab_core::Side::First);
        let mut pos = Othello::new();
        for _ in 0..plies {
            if pos.is_over() {
                break;
            }
            let moves = gamelab_core::Game::legal_moves(&pos);
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        pos
    }

    /// A one-thread searcher cutting at `probcut` σ.
    fn one_thread(probcut: f64) -> Midgame {
        let mut searcher = Midgame::new(crate::engine::learned::shipped());
        searcher.set_threads(1);
        searcher.set_probcut(probcut);
        searcher
    }

    /// What a one-thread search of `pos` to `depth` finds in build `b`.
    fn search_in(b: impl Build, pos: &Othello, depth: u32, probcut: f64) -> SearchResult {
        let mut searcher = one_thread(probcut);
        searcher.cutoff = Cutoff::new(None, None);
        searcher.deepen(b, pos, Limits::to_depth(depth), Instant::now(), false)
    }

    #[test]
    fn past_its_time_a_search_deepens_while_its_move_is_unsettled() {
        // Started ten seconds ago with five to spend: the time is up after any depth, and
        // only the allowance for an unsettled move (an hour) lets it go on.
        let started = Instant::now() - Duration::from_secs(10);
        let limits = Limits {
            time: Some(Duration::from_secs(5)),
            ..Limits::to_depth(12)
        };
        let mut checked = 0;
        for seed in 0..20 {
            let pos = crate::rules::position::played_at_random(seed, 0, 36);
            if pos.is_over() || pos.legal_mask() == 0 {
                continue;
            }
            // As `midgame` starts it: the deadline of the time alone.
            let deepen = |limits: Limits| {
                let mut searcher = one_thread(PROBCUT_DEFAULT);
                searcher.cutoff = Cutoff::new(limits.time.map(|t| started + t), None);
                searcher.deepen(PortableBuild, &pos, limits, started, false)
            };
            assert_eq!(
                deepen(limits).depth,
                1,
                "no allowance: the first depth answers"
            );
            let bests: Vec<Move> = (1..=12)
                .map(|d| search_in(PortableBuild, &pos, d, PROBCUT_DEFAULT).best)
                .collect();
            let settled = (1..12)
                .find(|&i| bests[i] == bests[i - 1])
                .map_or(12, |i| i + 1);
            let unsettled = Limits {
                unsettled: Some(Duration::from_secs(3600)),
                ..limits
            };
            assert_eq!(deepen(unsettled).depth, settled as u32, "{bests:?}");
            checked += usize::from(settled > 2);
        }
        assert!(checked > 0, "no position whose move changed after depth 2");
    }

    #[test]
    fn a_walk_of_more_nodes_than_a_reading_sees_the_stop() {
        // A position whose null-window walks are mostly nested tests (24 empties, one side
        // far ahead; a 0.1 s search of it once ran 18 s): a walk's nodes are then mostly
        // its tests', added when they end, and must still lead to a reading of the flags.
        let (_, pos) = crate::formats::transcript::parse_from(
            &Othello::new(),
            "c4e3f4g5f2b4f3d2e2e1d3g4c1f1g3e6f5f6c6c2b3d6c5c3a3b6h4b5b1a5g6h3h2h6a7c7",
        )
        .expect("a legal game");
        let (p, o) = pos.discs();
        let features = Features::new(p, o);
        let stop = gamelab_core::StopFlag::default();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut long_walks = 0;
        for depth in [12, 14, 16] {
            for discs in (0..=40).step_by(5) {
                let mut searcher = one_thread(1.5);
                searcher.cutoff = Cutoff::new(None, Some(stop.clone()));
                let mut walk = searcher.walk(PortableBuild, false);
                let alpha = discs * SCALE;
                walk.pvs(p, o, &features, depth, alpha, alpha + 1, 0);
                if walk.nodes >= CHECK_EVERY {
                    long_walks += 1;
                    assert!(
                        walk.stopped,
                        "depth {depth}, window at {discs} discs: {} nodes, the stop unseen",
                        walk.nodes
                    );
                }
            }
        }
        assert!(long_walks > 0, "no walk reached a reading");
    }

    #[test]
    fn won_positions_are_not_searched_full_width_for_a_finished_win() {
        // Every leaf in these positions is at the evaluation's cap (+64 discs less a
        // 256th). Depth 14 of the first, whose windows sit at the cap where ProbCut once
        // stayed out, searched 42.6 M nodes for a finished win beyond the horizon (depth
        // 12: 0.76 M); depth 16 of the second (26 empties), whose aspiration window reached
        // across the cap, 63.5 M. With cuts at the cap and the window kept within it,
        // tens of thousands.
        for (moves, depth) in [
            ("e6f4e3d6g4f6c7c6g7f5b7c4b4g6h6", 14),
            (
                "e6f4e3d6g4f6c7c6g7f5b7c4b4g6h6a8a7d3d2h8c5h7f7h5f3a6c3b2a1b3c8b1e8f8",
                16,
            ),
        ] {
            let (_, pos) = crate::formats::transcript::parse_from(&Othello::new(), moves)
                .expect("a legal game");
            let result = search_in(PortableBuild, &pos, depth, PROBCUT_DEFAULT);
            assert_eq!(result.score, to_discs(WIN - 1), "after {moves}");
            assert!(
                result.nodes < 1_000_000,
                "after {moves}: {} nodes",
                result.nodes
            );
        }
    }

    #[test]
    fn the_line_keeps_its_exact_results_when_other_positions_take_their_slots() {
        let mut table = Table::new(4);
        let (line, other) = (0x1234_5678_0000_0003u64, 0x9abc_def0_0000_0003u64);
        table.put(line, entry(line, 5, 0, 10, 6, 20));
        // The same bucket (the low bits), null-window results: a deeper one takes the
        // deep slot, a shallower one the other slot.
        table.put(other, entry(other, 7, 6, 7, 9, 30));
        table.put(other + 16, entry(other + 16, 7, 6, 7, 3, 30));
        assert!(table.get(line).is_none());
        let kept = table.line_entry(line).expect("the exact result");
        assert_eq!((kept.value, kept.best, kept.bound), (5, 20, EXACT));
        // A bound is no line: only exact results are kept apart.
        let bound = 0x0fed_cba9_0000_0004u64;
        table.put(bound, entry(bound, 9, 0, 9, 6, 21));
        table.put(bound + 16, entry(bound + 16, 7, 6, 7, 9, 30));
        table.put(bound + 32, entry(bound + 32, 7, 6, 7, 9, 30));
        assert!(table.line_entry(bound).is_none());
    }

    #[test]
    fn a_bucket_keeps_the_deepest_result_of_the_search_under_way() {
        let mut table = Table::new(4);
        let key = |i: u64| (i << 32) | 6;
        let depth = |table: &Table, i: u64| table.get(key(i)).map(|e| e.depth);
        table.put(key(1), entry(key(1), 1, 0, 2, 9, 1));
        table.put(key(2), entry(key(2), 1, 0, 2, 3, 1));
        // A shallow result takes the other slot from a shallow one, never the deep slot.
        table.put(key(3), entry(key(3), 1, 0, 2, 2, 1));
        assert_eq!(
            [1, 2, 3].map(|i| depth(&table, i)),
            [Some(9), None, Some(2)]
        );
        // A deeper result takes the deep slot, and the one there moves to the other.
        table.put(key(4), entry(key(4), 1, 0, 2, 12, 1));
        assert_eq!(
            [1, 3, 4].map(|i| depth(&table, i)),
            [Some(9), None, Some(12)]
        );
        // In the next search any result takes the deep slot from the last search's.
        table.next_search();
        table.put(key(5), entry(key(5), 1, 0, 2, 1, 1));
        assert_eq!(
            [1, 4, 5].map(|i| depth(&table, i)),
            [None, Some(12), Some(1)]
        );
        // A position's shallower result leaves its deeper one in place.
        table.put(key(5), entry(key(5), 1, 0, 2, 0, 1));
        assert_eq!(depth(&table, 5), Some(1));
    }

    #[test]
    fn a_search_beside_others_hands_over_all_it_wrote_and_leaves_its_table_empty() {
        let shared = Table::new(4);
        let mut layered = Layered::new(&shared);
        let keys = [7u64 << 32, 8 << 32, 9 << 32, 3];
        for (depth, &key) in keys.iter().enumerate() {
            layered.put(key, entry(key, 1, 0, 2, depth as u32 + 1, 1));
        }
        // Two buckets of the own table: one holds two keys, and lost one.
        let handed: Vec<u64> = layered.into_entries().iter().map(|e| e.key).collect();
        assert_eq!(handed, [9 << 32, 8 << 32, 3]);
        // The thread's next search finds none of them in its own table.
        let next = Layered::new(&shared);
        assert!(keys.iter().all(|&key| next.get(key).is_none()));
    }

    #[test]
    fn every_build_searches_the_same_tree() {
        // Depth 11 with cuts reaches the nested tests (NEST_DEPTH) and the splits' code.
        let cases = (0..10u64).map(|game| (game, 12 + 4 * game as u32, 6, 0.0));
        for (game, plies, depth, probcut) in cases.chain([(10, 24, 11, 1.5), (11, 30, 11, 1.5)]) {
            let pos = random_position(5, game, plies);
            if pos.is_over() || pos.legal_mask() == 0 {
                continue;
            }
            let key =
                |r: &SearchResult| (r.best, r.score.to_bits(), r.depth, r.nodes, r.pv.clone());
            let portable = key(&search_in(PortableBuild, &pos, depth, probcut));
            let limits = Limits::to_depth(depth);
            // `search` runs in the widest build this CPU has.
            let widest = key(&one_thread(probcut).search(&pos, limits));
            assert_eq!(widest, portable, "{pos} depth {depth}");
            #[cfg(target_arch = "x86_64")]
            if let (Some(k), Some(_)) =
                (crate::rules::kernel::avx2(), crate::rules::kernel::avx512())
            {
                let avx2 = key(&search_in(Avx2Build(k), &pos, depth, probcut));
                assert_eq!(avx2, portable, "{pos} depth {depth} in the AVX2 build");
            }
        }
    }

    #[test]
    fn no_evaluation_reads_as_a_finished_game() {
        // Every weight at its largest: the patterns alone add up to far beyond 64 discs.
        let len = crate::engine::patterns::offsets().1;
        let weights = vec![vec![1000.0; len]; crate::engine::learned::STAGES];
        let model = crate::engine::learned::PatternModel::from_discs(
            &[0.0; crate::engine::learned::STAGES],
            &weights,
        );
        let (p, o) = Othello::new().discs();
        assert!(model.evaluate(p, o) >= WIN);
        let pos = random_position(1, 0, 20);
        for depth in [1, 2, 3, 4] {
            let mut searcher = Midgame::new(Arc::new(model.clone()));
            searcher.set_threads(1);
            let r = searcher.search(&pos, Limits::to_depth(depth));
            assert!(r.score.abs() < 64.0, "depth {depth}: {} discs", r.score);
        }
    }

    #[test]
    fn multi_probcut_cuts_in_lopsided_positions_too() {
        // The first random midgame position that one side leads by 35 to 60 discs.
        let pos = (0u64..)
            .map(|game| random_position(9, game, 24))
            .find(|pos| {
                !pos.is_over() && pos.legal_mask() != 0 && {
                    let score = search_in(PortableBuild, pos, 4, 0.0).score.abs();
                    (35.0..60.0).contains(&score)
                }
            })
            .expect("a lopsided position");
        let full = search_in(PortableBuild, &pos, 8, 0.0);
        let cut = search_in(PortableBuild, &pos, 8, 1.5);
        assert!(
            cut.nodes * 2 < full.nodes,
            "{pos}: {} nodes with cuts, {} without",
            cut.nodes,
            full.nodes
        );
    }

    #[test]
    fn the_probcut_lines_were_fitted_for_the_search_as_it_is() {
        let digest = values_digest(&crate::engine::learned::shipped());
        let fitted = crate::engine::probcut::FITTED_FOR;
        assert_eq!(
            digest, fitted,
            "the search's values (digest {digest:#018x}) are no longer those the Multi-ProbCut \
             lines were fitted for ({fitted:#018x}); refit them: cargo run --release -p \
             gamelab-othello --example fit_probcut"
        );
    }
}
