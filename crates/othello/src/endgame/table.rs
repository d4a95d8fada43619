//! The endgame's table of bounds, shared by every thread of a solve without locks.
//!
//! Each slot is three words written one after the other: a thread may read a slot while
//! another rewrites it. The position's two bitboards are stored XORed with the entry, so
//! a torn slot (words from two writes) fails the key check instead of handing out one
//! position's bounds for another.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::kernel;

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
/// costs less than keeping every position.
#[derive(Default)]
pub(super) struct Table {
    buckets: Vec<Bucket>,
    /// log2 of the buckets.
    bits: u32,
}

impl Table {
    /// Buckets for a search from `empties`: 2^15 (2 MB) for the AIs' short endgames,
    /// which take a fresh table every move, up to 2^21 (128 MB) for deep solves, where
    /// fewer collisions save nodes.
    fn bits_for(empties: u32) -> u32 {
        empties.clamp(15, 21)
    }

    /// Makes room for a search from `empties`, unless the table has it already. The
    /// memory is zeroed pages the system hands out untouched until they are written, so
    /// a search that stays above the table's empties costs nothing.
    pub fn reserve(&mut self, empties: u32) {
        let bits = Table::bits_for(empties);
        if self.bits < bits {
            self.bits = bits;
            self.buckets = bytemuck::zeroed_vec(1 << bits);
        }
    }

    #[inline]
    fn bucket(&self, p: u64, o: u64) -> &Bucket {
        let h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        &self.buckets[(h >> (64 - self.bits)) as usize]
    }

    #[inline]
    pub fn get(&self, p: u64, o: u64) -> Option<Entry> {
        if self.buckets.is_empty() {
            return None;
        }
        let Bucket(slots) = self.bucket(p, o);
        slots.iter().find_map(|slot| slot.read(p, o))
    }

    /// Starts reading the bucket of (`p`, `o`) for a [`Table::get`] soon after.
    #[inline]
    pub fn prefetch(&self, p: u64, o: u64) {
        if !self.buckets.is_empty() {
            kernel::prefetch(self.bucket(p, o));
        }
    }

    #[inline]
    pub fn insert(&self, p: u64, o: u64, entry: Entry) {
        if self.buckets.is_empty() {
            return;
        }
        let Bucket(slots) = self.bucket(p, o);
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

    #[test]
    fn entries_come_back_for_their_position_only() {
        let mut table = Table::default();
        assert_eq!(
            table.get(1, 2),
            None,
            "nothing before the table is reserved"
        );
        table.reserve(20);
        table.insert(1, 2, entry(-4, 20));
        assert_eq!(table.get(1, 2), Some(entry(-4, 20)));
        assert_eq!(table.get(2, 1), None);
        assert_eq!(table.get(3, 4), None);
        table.insert(1, 2, entry(6, 9));
        assert_eq!(
            table.get(1, 2),
            Some(entry(6, 9)),
            "a position's entry is replaced"
        );
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
        table.reserve(15);
        // Positions hashing to one bucket, found by trying.
        let target = std::ptr::from_ref(table.bucket(1, 1));
        let same: Vec<u64> = (2..)
            .filter(|&p| std::ptr::eq(table.bucket(p, 1), target))
            .take(2)
            .collect();
        table.insert(1, 1, entry(0, 20));
        table.insert(same[0], 1, entry(0, 10));
        table.insert(same[1], 1, entry(0, 11));
        assert!(table.get(1, 1).is_some(), "the deep entry stays");
        assert_eq!(
            table.get(same[0], 1),
            None,
            "the older shallow one made way"
        );
        assert!(table.get(same[1], 1).is_some());
    }
}
