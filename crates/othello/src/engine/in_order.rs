//! Work shared among a rayon pool's threads in a given order: the one scheduling rule of
//! both searches' splits (the exact solver's moves after the first, the midgame search's
//! tests), and how a search under such splits learns that it was cut off.
//!
//! A thread that has run out of a split's indices while others still search theirs waits
//! for them, and while it waits it helps only at splits below its own (the "helpful
//! master" of Young Brothers Wait). It must not take just any work, as rayon's own wait
//! does: a split can only return on the thread that opened it, so a long job picked up
//! from elsewhere would hold the node's result, and every node above, long after its
//! moves were done. On 16 cores that cost a third of the time of FFO #40-#59 (BENCHMARKS.md).
#![allow(unsafe_code)]

use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{
    AtomicUsize,
    Ordering::{AcqRel, Acquire, Relaxed, Release},
};

/// `f` of 0, 1, … `count` − 1 on at most `workers` threads of the current pool, the
/// calling one among them: each index starts on the first of them to be free, lowest
/// first, so when the order is a guess of what matters most, what matters most starts
/// first. `f` returns its result and whether its thread goes on to the next index (a
/// search that learns it was cut off stops taking more). The results of the indices
/// that ran come back with their indices, in index order.
pub(crate) fn in_order<R: Send>(
    count: usize,
    workers: usize,
    f: impl Fn(usize) -> (R, bool) + Sync,
) -> Vec<(usize, R)> {
    let done = Mutex::new(Vec::with_capacity(count));
    let work = |open: &Open| {
        let mut mine = Vec::new();
        loop {
            let i = open.next.fetch_add(1, Relaxed);
            if i >= count {
                break;
            }
            let (result, go_on) = f(i);
            mine.push((i, result));
            if !go_on {
                break;
            }
        }
        done.lock().expect("no search panics").extend(mine);
    };
    let work: &(dyn Fn(&Open) + Sync) = &work;
    // SAFETY: no thread runs `work` once this call has ended, whichever way it ends:
    // `Close` below takes the split off the list, so no thread joins it any more, and
    // waits until every thread that did has left (`open.workers` back to zero).
    let work: &'static (dyn Fn(&Open) + Sync) = unsafe { std::mem::transmute(work) };
    let open = Open {
        work,
        next: AtomicUsize::new(0),
        count,
        workers: AtomicUsize::new(0),
        cap: workers,
        parent: CURRENT.with(Cell::get),
    };
    let helpers = workers.min(count).saturating_sub(1);
    let listed = helpers > 0;
    if listed {
        OPEN.lock().expect("no search panics").push(OpenRef(&open));
    }
    let close = Close(&open);
    // Helpers that have started; each is in `open.workers` before it counts here.
    let started = AtomicUsize::new(0);
    rayon::scope(|s| {
        for _ in 0..helpers {
            s.spawn(|_| {
                open.workers.fetch_add(1, AcqRel);
                started.fetch_add(1, Release);
                open.run_joined();
            });
        }
        open.join();
        if !listed {
            return;
        }
        let me: *const Open = &open;
        unlist(me);
        let mut idle = 0u32;
        while started.load(Acquire) < helpers || open.workers.load(Acquire) > 0 {
            // Our own helpers that no thread took yet are on top of this thread's deque.
            if started.load(Acquire) < helpers
                && rayon::yield_local() == Some(rayon::Yield::Executed)
            {
                continue;
            }
            if help_below(me) {
                idle = 0;
            } else if idle < 64 {
                idle += 1;
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    });
    // No thread runs `work` any more, so `done` can be taken from under it.
    drop(close);
    let mut done = done.into_inner().expect("no search panics");
    done.sort_unstable_by_key(|&(i, _)| i);
    done
}

/// What other threads see of a split of [`in_order`], which lives on its owner's stack.
struct Open {
    /// The split's loop over its indices, for any thread to join.
    work: &'static (dyn Fn(&Open) + Sync),
    next: AtomicUsize,
    count: usize,
    /// Threads inside `work` now, and how many may join.
    workers: AtomicUsize,
    cap: usize,
    /// The split whose index the owner was searching when it opened this one.
    parent: *const Open,
}

// SAFETY: `parent` is only read while the split it points to is open or being searched
// under (see `help_below`); everything else in an `Open` is `Sync` already.
unsafe impl Sync for Open {}

impl Open {
    fn join(&self) {
        self.workers.fetch_add(1, AcqRel);
        self.run_joined();
    }

    /// Runs `work` for a thread already counted in `workers`, and leaves, even if it
    /// panics.
    fn run_joined(&self) {
        struct Leave<'a>(&'a Open, *const Open);
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                CURRENT.with(|current| current.set(self.1));
                self.0.workers.fetch_sub(1, AcqRel);
            }
        }
        let _leave = Leave(self, CURRENT.with(|current| current.replace(self)));
        (self.work)(self);
    }

    fn has_room(&self) -> bool {
        self.next.load(Relaxed) < self.count && self.workers.load(Relaxed) < self.cap
    }
}

/// Takes a split off the list, if it is there, and waits until no thread is inside its
/// `work`: on every way out of [`in_order`], a panic's too.
struct Close<'a>(&'a Open);

impl Drop for Close<'_> {
    fn drop(&mut self) {
        unlist(self.0);
        while self.0.workers.load(Acquire) > 0 {
            std::thread::yield_now();
        }
    }
}

/// Takes `split` off the list of open splits, if it is there: no thread joins it after.
fn unlist(split: *const Open) {
    let mut list = OPEN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(at) = list.iter().position(|open| open.0 == split) {
        list.swap_remove(at);
    }
}

/// A listed split. Its owner takes it off the list before it returns.
struct OpenRef(*const Open);

// SAFETY: the list is only read under its lock, while every split on it is alive.
unsafe impl Send for OpenRef {}

/// The splits with helpers, of every search in the process: a waiting thread looks here
/// for splits below its own.
static OPEN: Mutex<Vec<OpenRef>> = Mutex::new(Vec::new());

thread_local! {
    /// The split whose index this thread is searching, if any: the parent of any split it
    /// opens.
    static CURRENT: Cell<*const Open> = const { Cell::new(std::ptr::null()) };
}

/// Joins the first listed split below `me` that has indices left and room, and searches
/// there until they are taken: whether there was one.
fn help_below(me: *const Open) -> bool {
    let found = {
        let list = OPEN.lock().expect("no search panics");
        list.iter().map(|open| open.0).find(|&split| {
            // SAFETY: a listed split is alive while the lock is held, and so are its
            // parents: a split's owner is inside its parent's `work` until it returns.
            let split = unsafe { &*split };
            if !split.has_room() {
                return false;
            }
            let mut above = split.parent;
            while !above.is_null() {
                if above == me {
                    // Counted under the lock, so its owner, which takes it off the
                    // list under the lock too, waits for this thread.
                    split.workers.fetch_add(1, AcqRel);
                    return true;
                }
                above = unsafe { (*above).parent };
            }
            false
        })
    };
    match found {
        // SAFETY: counted in its `workers`, so its owner waits for this thread.
        Some(split) => {
            unsafe { &*split }.run_joined();
            true
        }
        None => false,
    }
}

/// A node whose moves are searched side by side. `cut` is the lowest index of a move
/// found to decide the node so far: the moves after it need not finish.
pub(crate) struct Split<'a> {
    cut: AtomicUsize,
    parent: Option<Place<'a>>,
}

/// Where a search runs: a split and the index of its move there.
pub(crate) type Place<'a> = (&'a Split<'a>, usize);

impl<'a> Split<'a> {
    /// A split under `parent` (`None`: the outermost).
    pub(crate) fn new(parent: Option<Place<'a>>) -> Split<'a> {
        Split {
            cut: AtomicUsize::new(usize::MAX),
            parent,
        }
    }

    /// The move at `index` decides the node.
    pub(crate) fn cut_at(&self, index: usize) {
        self.cut.fetch_min(index, Relaxed);
    }

    /// Whether a move before `index` decides the node.
    pub(crate) fn cut_before(&self, index: usize) -> bool {
        self.cut.load(Relaxed) < index
    }
}

/// Whether a search at `place` no longer matters: in its split or in one above, a move
/// before its own decided the node.
pub(crate) fn cut_off(mut place: Option<Place<'_>>) -> bool {
    while let Some((split, index)) = place {
        if split.cut_before(index) {
            return true;
        }
        place = split.parent;
    }
    false
}

/// A pool of `threads` threads, or `None` when the system has none left to give (the
/// search then runs on the calling thread).
pub(crate) fn build_pool(threads: usize) -> Option<std::sync::Arc<rayon::ThreadPool>> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .ok()
        .map(std::sync::Arc::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
    use std::time::{Duration, Instant};

    #[test]
    fn each_index_runs_once_and_the_results_come_back_in_order() {
        for threads in [1, 3, 8] {
            let pool = build_pool(threads).expect("a pool");
            for workers in [1, 2, threads] {
                for count in [0, 1, 2, 5, 37] {
                    let calls: Vec<AtomicUsize> = (0..count).map(|_| AtomicUsize::new(0)).collect();
                    let results = pool.install(|| {
                        in_order(count, workers, |i| {
                            calls[i].fetch_add(1, Relaxed);
                            (i * i, true)
                        })
                    });
                    assert_eq!(results, (0..count).map(|i| (i, i * i)).collect::<Vec<_>>());
                    assert!(
                        calls.iter().all(|c| c.load(Relaxed) == 1),
                        "{threads} threads, {workers} workers"
                    );
                }
            }
        }
    }

    #[test]
    fn a_thread_told_to_stop_takes_no_more() {
        // One worker: the indices after the one that stops it never run.
        let results = in_order(10, 1, |i| (i, i != 3));
        assert_eq!(results, (0..=3).map(|i| (i, i)).collect::<Vec<_>>());
    }

    /// Waits until `flag` is raised; after a minute (a thread that never comes: a bug,
    /// not a slow machine) the test goes on and its assertions say what went wrong.
    fn wait_for(flag: &AtomicBool) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !flag.load(SeqCst) && Instant::now() < deadline {
            std::thread::yield_now();
        }
    }

    #[test]
    fn a_thread_waiting_at_a_split_takes_no_work_from_elsewhere() {
        // Two threads: the caller takes index 0, the other index 1, which leaves a long
        // job unrelated to the split on its thread's deque. The caller, done with index 0,
        // waits for index 1: rayon's own wait would steal the long job and hold the
        // split's result until it ended. The long job lasts until the split has returned
        // (or, should the split wait for it, a minute): no race with the machine's speed.
        let pool = build_pool(2).expect("a pool");
        let (long_done_tx, long_done_rx) = std::sync::mpsc::channel();
        let (split_returned_tx, split_returned_rx) = std::sync::mpsc::channel::<()>();
        let split_returned_rx = std::sync::Mutex::new(Some(split_returned_rx));
        let index_1_started = AtomicBool::new(false);
        pool.install(|| {
            in_order(2, 2, |i| {
                if i == 0 {
                    wait_for(&index_1_started);
                } else {
                    let tx = long_done_tx.clone();
                    let returned = split_returned_rx.lock().unwrap().take().expect("once");
                    rayon::spawn(move || {
                        let waited_for = returned.recv_timeout(Duration::from_secs(60)).is_err();
                        tx.send(waited_for).expect("the test waits");
                    });
                    index_1_started.store(true, SeqCst);
                }
                ((), true)
            });
        });
        let _ = split_returned_tx.send(());
        let split_waited = long_done_rx.recv().expect("the long job ends");
        assert!(!split_waited, "the split waited for the long job");
    }

    #[test]
    fn a_thread_waiting_at_a_split_helps_at_the_splits_below_it() {
        // The thread that runs index 1 splits its work; the other, done with index 0,
        // joins that split: every index of both runs once, some of the inner ones on the
        // thread that did not open it.
        let pool = build_pool(2).expect("a pool");
        let inner_started = AtomicBool::new(false);
        let helped = AtomicBool::new(false);
        let outer = pool.install(|| {
            in_order(2, 2, |i| {
                if i == 0 {
                    wait_for(&inner_started);
                    return (Vec::new(), true);
                }
                let owner = rayon::current_thread_index();
                let inner = in_order(20, 2, |j| {
                    inner_started.store(true, SeqCst);
                    if rayon::current_thread_index() == owner {
                        wait_for(&helped);
                    } else {
                        helped.store(true, SeqCst);
                    }
                    (j, true)
                });
                (inner, true)
            })
        });
        assert_eq!(outer.len(), 2);
        assert_eq!(
            outer[1].1,
            (0..20).map(|j| (j, j)).collect::<Vec<_>>(),
            "each inner index once, in order"
        );
        assert!(helped.load(SeqCst), "the waiting thread helped below");
    }

    #[test]
    fn a_panic_in_a_split_reaches_the_caller_and_the_pool_goes_on() {
        let pool = build_pool(2).expect("a pool");
        for panicking in [0, 1, 5] {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                pool.install(|| {
                    in_order(8, 2, |i| {
                        let inner = in_order(4, 2, |j| (j, true));
                        if i == panicking {
                            // Unwinds without the panic hook's message in the test output.
                            std::panic::resume_unwind(Box::new(i));
                        }
                        (inner.len(), true)
                    })
                })
            }));
            assert!(result.is_err(), "index {panicking}'s panic");
            let after = pool.install(|| in_order(5, 2, |i| (i, true)));
            assert_eq!(after.len(), 5);
        }
    }
}
