//! The endgame's table of bounds, shared by every thread of a solve without locks.
//!
//! Each slot is three words written one after the other: a thread may read a slot while
//! another rewrites it. The position's two bitboards are stored XORed with the entry, so
//! a torn slot (words from two writes) fails the key check instead of handing out one
//! position's bounds for another.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::engine::slots::Slots;
use crate::rules::kernel;

/// Bounds on a position's exact score, the move that gave them, and the empties of the
/// search that found them (deeper searches are worth more to keep).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Entry {
    pub lower: i8,
    pub upper: i8,
    pub best: u8,
    pub empties: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        u64::from(u32::from_le_bytes([
            self.lower as u8,
            self.upper as u8,
            self.best,
            self.empties,
        ]))
    }

    fn unpack(word: u64) -> Entry {
        let [lower, upper, best, empties] = (word as u32).to_le_bytes();
        Entry {
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties,
        }
    }
}

/// A position and its entry. An all-zero slot is empty: no position searched has
/// neither side's discs on the board.
#[derive(bytemuck::Zeroable)]
struct Slot {
    p: AtomicU64,
    o: AtomicU64,
    entry: AtomicU64,
}

impl Slot {
    /// The slot's entry when it holds (`p`, `o`).
    #[inline]
    fn read(&self, p: u64, o: u64) -> Option<Entry> {
        let entry = self.entry.load(Relaxed);
        (self.p.load(Relaxed) ^ entry == p && self.o.load(Relaxed) ^ entry == o)
            .then(|| Entry::unpack(entry))
    }

    /// The slot's position and entry, whichever they are.
    #[inline]
    fn contents(&self) -> (u64, u64, Entry) {
        let entry = self.entry.load(Relaxed);
        (
            self.p.load(Relaxed) ^ entry,
            self.o.load(Relaxed) ^ entry,
            Entry::unpack(entry),
        )
    }

    #[inline]
    fn write(&self, p: u64, o: u64, entry: Entry) {
        let entry = entry.pack();
        self.entry.store(entry, Relaxed);
        self.p.store(p ^ entry, Relaxed);
        self.o.store(o ^ entry, Relaxed);
    }
}

/// Two slots in one cache line: the first keeps the deepest search that hashed there, the
/// second the latest of the others.
#[derive(bytemuck::Zeroable)]
#[repr(align(64))]
struct Bucket([Slot; 2]);

/// A fixed-size table of bounds: no growth and no probing beyond one cache line, which
/// costs less than keeping every position. Positions near the end go to a small part of
/// their own, one for each thread, which stays in that core's cache: they are most of the
/// lookups, their transpositions come soon after each other (and seldom from another
/// thread's subtree), and a miss to memory costs more than re-searching them (FFO #45,
/// #49, #50: 4 % faster than with one table for all).
#[derive(Default)]
pub(super) struct Table {
    far: Part,
    near: Vec<Part>,
}

/// The table as one thread uses it: the far part that every thread shares, and its own
/// near part.
#[derive(Clone, Copy)]
pub(super) struct View<'a> {
    table: &'a Table,
    near: &'a Part,
}

/// The near part of a table not reserved yet.
static NO_PART: Part = Part {
    buckets: Slots::EMPTY,
    bits: 0,
};

/// Buckets and log2 of their number.
#[derive(Default)]
struct Part {
    buckets: Slots<Bucket>,
    bits: u32,
}

/// Positions with fewer empties than this go to the near part. FFO #45, #49, #50 on one
/// thread (two alternating runs each, 1 MB near part): below 10 empties 45.3 and 43.9 s,
/// below 11 42.9 and 42.5 s, below 12 41.6 and 40.6 s (2.4 % more nodes), below 13 or 14
/// no faster than 12 with 4 and 6 % more nodes; #53: 72.2 s below 10, 68.6 s below 12.
const NEAR_EMPTIES: u32 = 12;

/// log2 of the near part's buckets: 1 MB, a core's second-level cache on the machines
/// measured. FFO #45, #49, #50 on one thread, five alternating runs: 4 MB 50.3 s on
/// average, 1 MB 46.0 s (0.9 % more nodes); 512 and 256 KB about as fast as 1 MB with
/// more nodes still.
const NEAR_BITS: u32 = 14;

impl Table {
    /// Buckets for a search from `empties`: 2^15 (2 MB) for the AIs' short endgames,
    /// which take a fresh table every move, up to 2^21 (128 MB) for deep solves, where
    /// fewer collisions save nodes.
    fn bits_for(empties: u32) -> u32 {
        empties.clamp(15, 21)
    }

    /// Makes room for a search from `empties` on `threads` threads, unless the table has
    /// it already.
    pub fn reserve(&mut self, empties: u32, threads: usize) {
        self.far.reserve(Table::bits_for(empties));
        if self.near.len() < threads {
            self.near.resize_with(threads, Part::default);
        }
        for part in &mut self.near {
            part.reserve(NEAR_BITS);
        }
    }

    /// Forgets every entry, keeping the memory (see [`Slots::clear`]).
    pub fn clear(&mut self, parallel: bool) {
        self.far.buckets.clear(parallel);
        for part in &mut self.near {
            part.buckets.clear(parallel);
        }
    }

    /// The table as the calling thread uses it: the near part of its index in the
    /// current rayon pool (a solve on several threads runs on the pool it reserved for),
    /// else the first. Whichever part a thread reads, every entry is sound.
    pub fn on_this_thread(&self) -> View<'_> {
        let i = rayon::current_thread_index().unwrap_or(0);
        View {
            table: self,
            near: self.near.get(i).or(self.near.first()).unwrap_or(&NO_PART),
        }
    }
}

impl<'a> View<'a> {
    /// The same table as seen from the calling thread.
    pub fn on_this_thread(self) -> View<'a> {
        self.table.on_this_thread()
    }

    /// The bucket of (`p`, `o`), a position with `empties`, if the table has room. The
    /// caller passes the empties it knows already: counting them here made FFO #45, #49,
    /// #50 about 2 % slower (five alternating runs); the test builds check them.
    #[inline]
    fn bucket(&self, p: u64, o: u64, empties: u32) -> Option<&'a Bucket> {
        debug_assert_eq!(empties, 64 - (p | o).count_ones(), "the position's empties");
        let part = if empties < NEAR_EMPTIES {
            self.near
        } else {
            &self.table.far
        };
        if part.buckets.is_empty() {
            return None;
        }
        let h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        Some(&part.buckets[(h >> (64 - part.bits)) as usize])
    }

    /// The entry of (`p`, `o`), a position with `empties`.
    #[inline]
    pub fn get(&self, p: u64, o: u64, empties: u32) -> Option<Entry> {
        let Bucket(slots) = self.bucket(p, o, empties)?;
        slots.iter().find_map(|slot| slot.read(p, o))
    }

    /// Starts reading the bucket of (`p`, `o`) for a [`Table::get`] soon after.
    #[inline]
    pub fn prefetch(&self, p: u64, o: u64, empties: u32) {
        if let Some(bucket) = self.bucket(p, o, empties) {
            kernel::prefetch(bucket);
        }
    }

    #[inline]
    pub fn insert(&self, p: u64, o: u64, entry: Entry) {
        let Some(Bucket(slots)) = self.bucket(p, o, u32::from(entry.empties)) else {
            return;
        };
        let (first_p, first_o, first) = slots[0].contents();
        if first_p == p && first_o == o {
            slots[0].write(p, o, entry);
        } else if entry.empties >= first.empties {
            slots[1].write(first_p, first_o, first);
            slots[0].write(p, o, entry);
        } else {
            slots[1].write(p, o, entry);
        }
    }
}

impl Part {
    /// Makes room for 2^`bits` buckets, unless there is already.
    fn reserve(&mut self, bits: u32) {
        if self.bits < bits {
            self.bits = bits;
            self.buckets = Slots::zeroed(1 << bits);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(lower: i8, empties: u8) -> Entry {
        Entry {
            lower,
            upper: 64,
            best: 19,
            empties,
        }
    }

    /// An entry for the position (`p`, `o`), with its empties.
    fn entry_of(p: u64, o: u64, lower: i8) -> Entry {
        entry(lower, 64 - (p | o).count_ones() as u8)
    }

    #[test]
    fn entries_come_back_for_their_position_only() {
        let mut table = Table::default();
        assert_eq!(
            table.on_this_thread().get(1, 2, 62),
            None,
            "nothing before the table is reserved"
        );
        table.on_this_thread().insert(1, 2, entry_of(1, 2, -4));
        assert_eq!(
            table.on_this_thread().get(1, 2, 62),
            None,
            "nothing kept before it is reserved"
        );
        table.reserve(20, 1);
        let table = table.on_this_thread();
        table.insert(1, 2, entry_of(1, 2, -4));
        assert_eq!(table.get(1, 2, 62), Some(entry_of(1, 2, -4)));
        assert_eq!(table.get(2, 1, 62), None);
        assert_eq!(table.get(3, 4, 61), None);
        table.insert(1, 2, entry_of(1, 2, 6));
        assert_eq!(
            table.get(1, 2, 62),
            Some(entry_of(1, 2, 6)),
            "a position's entry is replaced"
        );
    }

    #[test]
    fn positions_near_the_end_go_to_the_near_part() {
        let mut whole = Table::default();
        whole.reserve(20, 1);
        let table = whole.on_this_thread();
        // Nine empties (the last row and h7), and the sixty of the start.
        let (p, o) = (0x0000_0000_ffff_ffff, 0x007f_ffff_0000_0000_u64);
        let (far_p, far_o) = (0x0000_0010_0800_0000, 0x0000_0008_1000_0000);
        let part_of = |p, o, empties| {
            let bucket = std::ptr::from_ref(table.bucket(p, o, empties).unwrap());
            if whole.near[0].buckets.as_ptr_range().contains(&bucket) {
                "near"
            } else {
                assert!(whole.far.buckets.as_ptr_range().contains(&bucket));
                "far"
            }
        };
        assert_eq!(part_of(p, o, 9), "near");
        assert_eq!(part_of(far_p, far_o, 60), "far");
        table.insert(p, o, entry_of(p, o, 2));
        table.insert(far_p, far_o, entry_of(far_p, far_o, -2));
        assert_eq!(table.get(p, o, 9), Some(entry_of(p, o, 2)));
        assert_eq!(
            table.get(far_p, far_o, 60),
            Some(entry_of(far_p, far_o, -2))
        );
    }

    #[test]
    fn each_thread_of_the_pool_has_a_near_part_of_its_own() {
        let mut table = Table::default();
        table.reserve(20, 3);
        let pool = crate::engine::in_order::build_pool(3).expect("a pool");
        let (p, o) = (0x0000_0000_ffff_ffff, 0x007f_ffff_0000_0000_u64);
        let parts = pool.broadcast(|_| {
            let view = table.on_this_thread();
            view.insert(p, o, entry_of(p, o, 2));
            std::ptr::from_ref(view.near) as usize
        });
        let mut distinct = parts.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 3, "{parts:?}");
        // Outside the pool, the first thread's part: it holds the entry too.
        assert_eq!(table.on_this_thread().get(p, o, 9), Some(entry_of(p, o, 2)));
    }

    #[test]
    fn a_torn_slot_matches_no_position() {
        let slot = Slot {
            p: AtomicU64::new(0),
            o: AtomicU64::new(0),
            entry: AtomicU64::new(0),
        };
        slot.write(5, 7, entry(2, 12));
        // Another thread's entry lands before its bitboards do.
        slot.entry.store(entry(-8, 14).pack(), Relaxed);
        assert_eq!(slot.read(5, 7), None);
    }

    #[test]
    fn the_deepest_search_keeps_the_first_slot() {
        let mut table = Table::default();
        table.reserve(15, 1);
        let table = table.on_this_thread();
        // Positions hashing to one bucket, with fewer empties than the first (shallower
        // searches), found by trying.
        let empties = |p: u64| 64 - (p | 1).count_ones();
        let bucket = |p| table.bucket(p, 1, empties(p)).map(std::ptr::from_ref);
        let target = bucket(2);
        let same: Vec<u64> = (3..)
            .filter(|&p| empties(p) < empties(2) && bucket(p) == target)
            .take(2)
            .collect();
        table.insert(2, 1, entry_of(2, 1, 0));
        table.insert(same[0], 1, entry_of(same[0], 1, 0));
        table.insert(same[1], 1, entry_of(same[1], 1, 0));
        assert!(
            table.get(2, 1, empties(2)).is_some(),
            "the deep entry stays"
        );
        assert_eq!(
            table.get(same[0], 1, empties(same[0])),
            None,
            "the older shallow one made way"
        );
        assert!(table.get(same[1], 1, empties(same[1])).is_some());
    }
}
