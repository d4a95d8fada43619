//! Work shared among a rayon pool's threads in a given order: the one scheduling rule of
//! both searches' splits (the exact solver's moves after the first, the midgame search's
//! tests), and how a search under such splits learns that it was cut off.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

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
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::with_capacity(count));
    let work = || {
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, Relaxed);
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
    rayon::scope(|s| {
        for _ in 1..workers.min(count) {
            s.spawn(|_| work());
        }
        work();
    });
    let mut done = done.into_inner().expect("no search panics");
    done.sort_unstable_by_key(|&(i, _)| i);
    done
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgame::build_pool;

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
}
