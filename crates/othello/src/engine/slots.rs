//! Big tables' memory: zeroed slots on huge pages where the system gives them. Lookups
//! all over a table of many megabytes each miss the processor's cache of page addresses
//! (TLB) with 4 KB pages, and the page walk costs as much as the lookup. One thread,
//! alternating runs: the endgame's table, FFO #40–#49 1–4 % faster, #53 3–13 %; the
//! midgame search's, depth 13 from 20 positions 4 % (`examples/midgame_depth.rs`). On
//! Linux big tables are mapped from the system, which zeroes a page when it is first
//! touched: a new searcher is ready in microseconds rather than milliseconds, and a
//! solve's first table is cleared as the solve goes, where a deadline can stop it.

use std::ptr::NonNull;

/// A fixed number of slots, all zero at first, in memory of their own.
pub(crate) struct Slots<T: bytemuck::Zeroable> {
    start: NonNull<T>,
    len: usize,
    /// The memory is a mapping of [`map_zeroed`]'s, not an allocation.
    mapped: bool,
}

// SAFETY: `Slots` owns its `T`s as a `Vec<T>` would.
#[allow(unsafe_code)]
unsafe impl<T: bytemuck::Zeroable + Send> Send for Slots<T> {}
#[allow(unsafe_code)]
unsafe impl<T: bytemuck::Zeroable + Sync> Sync for Slots<T> {}

/// The size of a huge page on the systems that have them (x86-64 and most ARM Linux).
const HUGE_PAGE: usize = 2 << 20;

#[allow(unsafe_code)]
impl<T: bytemuck::Zeroable> Slots<T> {
    pub(crate) const EMPTY: Slots<T> = Slots {
        start: NonNull::dangling(),
        len: 0,
        mapped: false,
    };

    /// `len` slots of zero bytes.
    pub(crate) fn zeroed(len: usize) -> Slots<T> {
        let Some(layout) = Slots::<T>::layout(len) else {
            return Slots::EMPTY;
        };
        if layout.align() == HUGE_PAGE
            && let Some(start) = map_zeroed(layout.size())
        {
            return Slots {
                start: start.cast(),
                len,
                mapped: true,
            };
        }
        // SAFETY: the layout's size is not zero.
        let start = unsafe { std::alloc::alloc_zeroed(layout) };
        let Some(start) = NonNull::new(start) else {
            std::alloc::handle_alloc_error(layout)
        };
        Slots {
            start: start.cast(),
            len,
            mapped: false,
        }
    }

    /// Every slot back to zero, in place: memory already touched is written again rather
    /// than given back and faulted in afresh, which costs the system a page fault and
    /// a page cleared for every 2 MB (FFO #40–#44 on two threads: a fresh table a
    /// position spent 10 % of the run's time there, on one thread, before the search
    /// could start). `parallel`: the threads of the current rayon pool share the work —
    /// only on a search's own pool, since a thread of someone else's (a match's) could
    /// pick up unrelated work of that pool while it waits.
    pub(crate) fn clear(&mut self, parallel: bool)
    where
        T: Send,
    {
        /// Slots a thread clears at a time: large enough that handing them over costs
        /// nothing next to writing them.
        const CHUNK_BYTES: usize = 1 << 20;
        let chunk = (CHUNK_BYTES / std::mem::size_of::<T>().max(1)).max(1);
        let zero = |slots: &mut [T]| {
            // SAFETY: all-zero bytes are a `T` (`Zeroable`), and the slots need no drop.
            unsafe { slots.as_mut_ptr().write_bytes(0, slots.len()) };
        };
        if parallel && self.len > chunk {
            use rayon::prelude::*;
            self.par_chunks_mut(chunk).for_each(zero);
        } else {
            zero(self);
        }
    }

    /// The memory of `len` slots, aligned to a huge page when they fill one; `None` for
    /// none.
    fn layout(len: usize) -> Option<std::alloc::Layout> {
        let layout = std::alloc::Layout::array::<T>(len).ok()?;
        if layout.size() == 0 {
            return None;
        }
        if layout.size() >= HUGE_PAGE {
            layout.align_to(HUGE_PAGE).ok()
        } else {
            Some(layout)
        }
    }
}

impl<T: bytemuck::Zeroable> Default for Slots<T> {
    fn default() -> Slots<T> {
        Slots::EMPTY
    }
}

#[allow(unsafe_code)]
impl<T: bytemuck::Zeroable> std::ops::Deref for Slots<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialised slots from `start` (or none at a dangling one).
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

#[allow(unsafe_code)]
impl<T: bytemuck::Zeroable> std::ops::DerefMut for Slots<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as above, and `&mut self` is the only access.
        unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.len) }
    }
}

#[allow(unsafe_code)]
impl<T: bytemuck::Zeroable> Drop for Slots<T> {
    fn drop(&mut self) {
        let Some(layout) = Slots::<T>::layout(self.len) else {
            return;
        };
        if self.mapped {
            unmap(self.start.as_ptr().cast(), layout.size());
        } else {
            // SAFETY: allocated in `zeroed` with this same layout; the slots need no drop
            // of their own (`Zeroable` types hold no resources a zero could not).
            unsafe { std::alloc::dealloc(self.start.as_ptr().cast(), layout) };
        }
    }
}

/// `size` bytes (rounded up to whole huge pages) of fresh memory aligned to a huge page,
/// all zero, backed by huge pages where the system has them; `None` where it cannot map them.
/// The system zeroes each page when it is first touched, not all of them now: a solve
/// that stops at its deadline is not held up first by clearing a table of up to 128 MB
/// (30–70 ms), and the pages a search never reaches cost nothing.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn map_zeroed(size: usize) -> Option<NonNull<u8>> {
    // Whole huge pages, as `unmap` gives them back; and one more, so that an aligned start
    // lies within, the rest given back at once.
    let size = size.checked_next_multiple_of(HUGE_PAGE)?;
    let mapped = size.checked_add(HUGE_PAGE)?;
    // SAFETY: a fresh anonymous private mapping, no address asked for; checked below.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            mapped,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if base == libc::MAP_FAILED {
        return None;
    }
    let head = (HUGE_PAGE - base as usize % HUGE_PAGE) % HUGE_PAGE;
    let tail = mapped - head - size;
    // SAFETY: both ranges lie in the mapping just made, whole pages (the mapping starts
    // on a page, and `size` and `HUGE_PAGE` are multiples of a huge one), and nothing
    // uses them.
    unsafe {
        let start = base.cast::<u8>().add(head);
        // Neither can fail on whole pages of a mapping of ours (the tests check it).
        if head > 0 {
            let unmapped = libc::munmap(base, head);
            debug_assert_eq!(unmapped, 0);
        }
        if tail > 0 {
            let unmapped = libc::munmap(start.add(size).cast(), tail);
            debug_assert_eq!(unmapped, 0);
        }
        // Advice only: where it cannot be followed, small pages serve as before.
        libc::madvise(start.cast(), size, libc::MADV_HUGEPAGE);
        NonNull::new(start)
    }
}

#[cfg(not(target_os = "linux"))]
fn map_zeroed(_: usize) -> Option<NonNull<u8>> {
    None
}

/// Gives back memory from [`map_zeroed`].
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn unmap(start: *mut u8, size: usize) {
    // SAFETY: `start` and `size` rounded as `map_zeroed` rounded it are one of its
    // mappings, no longer used.
    let unmapped = unsafe { libc::munmap(start.cast(), size.next_multiple_of(HUGE_PAGE)) };
    debug_assert_eq!(unmapped, 0);
}

#[cfg(not(target_os = "linux"))]
fn unmap(_: *mut u8, _: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_start_zero_and_big_ones_on_a_huge_page() {
        for len in [0, 1, 3, 1 << 10, 1 << 15, (1 << 15) + 1] {
            let mut slots = Slots::<[u64; 8]>::zeroed(len);
            assert_eq!(slots.len(), len);
            assert!(slots.iter().flatten().all(|&word| word == 0));
            if len * 64 >= HUGE_PAGE {
                assert_eq!(slots.as_ptr() as usize % HUGE_PAGE, 0);
            }
            // Big ones mapped from the system, zeroed page by page as first touched.
            assert_eq!(
                slots.mapped,
                cfg!(target_os = "linux") && len * 64 >= HUGE_PAGE
            );
            // Every slot is there to be written.
            for (i, slot) in slots.iter_mut().enumerate() {
                slot[7] = i as u64;
            }
            assert!(slots.iter().enumerate().all(|(i, s)| s[7] == i as u64));
        }
    }

    #[test]
    fn cleared_slots_are_zero_again_on_one_thread_and_on_a_pool() {
        let pool = crate::engine::in_order::build_pool(3).expect("a pool");
        for len in [0, 1, 5, (1 << 15) + 3, (1 << 17) + 1] {
            for on_pool in [false, true] {
                let mut slots = Slots::<[u64; 8]>::zeroed(len);
                slots.iter_mut().flatten().for_each(|word| *word = u64::MAX);
                if on_pool {
                    pool.install(|| slots.clear(true));
                } else {
                    slots.clear(false);
                }
                assert_eq!(slots.len(), len);
                assert!(
                    slots.iter().flatten().all(|&word| word == 0),
                    "{len} slots, on a pool: {on_pool}"
                );
            }
        }
    }
}
