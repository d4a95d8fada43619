use std::fmt;

use crate::Player;

/// The marks on one line from the point of view of the player who just moved: how many
/// are `last_turn`'s, how many `turn`'s, how many are empty (they add up to 3).
///
/// "自 2 敵 0 空 1" of the articles is `Markpat::new(2, 0, 1)`: the mover can win next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Markpat {
    pub last_turn: u8,
    pub turn: u8,
    pub empty: u8,
}

impl Markpat {
    /// The pattern of `last_turn`'s marks, `turn`'s and empty squares on a line.
    pub const fn new(last_turn: u8, turn: u8, empty: u8) -> Markpat {
        Markpat {
            last_turn,
            turn,
            empty,
        }
    }

    #[inline]
    const fn slot(last_turn: u8, turn: u8) -> usize {
        (last_turn as usize) * 4 + turn as usize
    }
}

impl fmt::Display for Markpat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Markpat(last_turn={}, turn={}, empty={})",
            self.last_turn, self.turn, self.empty
        )
    }
}

/// How many of the 8 lines show each [`Markpat`]: the result of `count_markpats`.
///
/// Holds each line's pattern as a 4-bit slot `4·last_turn + turn` (empty follows), eight
/// lines in one word; a count is a SWAR comparison of all eight slots and one popcount.
/// Scoring AIs read four or five patterns per position, so this beats building the whole
/// histogram. Equality compares the counts, not which line holds which pattern.
///
/// ```
/// use gamelab_ttt::{Markpat, MarkpatCounts, Position};
///
/// // o holds the centre, and x (who just moved) a corner: seen from x.
/// let pos: Position = "x...o....".parse().unwrap();
/// let counts = pos.count_markpats();
/// assert_eq!(counts.get(Markpat::new(1, 0, 2)), 2, "x's corner's lines without o");
/// assert_eq!(counts.get(Markpat::new(0, 1, 2)), 3, "the centre's lines without x");
/// assert_eq!(counts.lines(1, 1), 1, "the diagonal through both");
/// assert_eq!(counts.get(Markpat::new(1, 1, 0)), 0, "marks that do not add up to 3");
/// let total: u8 = counts.iter().map(|(_, n)| n).sum();
/// assert_eq!(total, 8);
///
/// // Built line by line, the same counts.
/// let mut by_hand = MarkpatCounts::default();
/// for (pattern, n) in counts.iter() {
///     for _ in 0..n {
///         by_hand.add_line(pattern.last_turn, pattern.turn);
///     }
/// }
/// assert_eq!(by_hand, counts);
/// ```
#[derive(Clone, Copy, Default)]
pub struct MarkpatCounts {
    slots: u32,
    lines: u8,
}

const NIBBLE_ONES: u32 = 0x1111_1111;

impl MarkpatCounts {
    /// Builds the counts from per-line mark counts packed as eight 4-bit fields (line `l`
    /// in bits 4l..4l+3), from the point of view of the player who just moved.
    #[inline]
    pub(crate) fn from_line_counts(last_turn: u32, turn: u32) -> MarkpatCounts {
        MarkpatCounts {
            slots: (last_turn << 2) + turn,
            lines: 8,
        }
    }

    /// Counts one more line with `last_turn` and `turn` marks (at most 8 lines).
    #[inline]
    pub fn add_line(&mut self, last_turn: u8, turn: u8) {
        debug_assert!(self.lines < 8, "a board has 8 lines");
        self.slots |= (Markpat::slot(last_turn, turn) as u32) << (4 * self.lines);
        self.lines += 1;
    }

    /// Number of lines showing `pat`.
    #[inline]
    pub fn get(&self, pat: Markpat) -> u8 {
        if pat.last_turn + pat.turn + pat.empty != 3 {
            return 0;
        }
        self.lines(pat.last_turn, pat.turn)
    }

    /// Shorthand for `get(Markpat::new(last_turn, turn, 3 - last_turn - turn))`.
    #[inline]
    pub fn lines(&self, last_turn: u8, turn: u8) -> u8 {
        debug_assert_eq!(self.lines, 8, "counts of a partly counted board");
        // Nibbles equal to the slot become zero; flag the zero nibbles and count them.
        let t = self.slots ^ (Markpat::slot(last_turn, turn) as u32 * NIBBLE_ONES);
        let nonzero = ((t & 0x7777_7777) + 0x7777_7777) | t;
        (!nonzero & 0x8888_8888).count_ones() as u8
    }

    /// The patterns that occur, with their counts, in a fixed order.
    pub fn iter(&self) -> impl Iterator<Item = (Markpat, u8)> + '_ {
        (0..=3u8)
            .flat_map(|last| (0..=3 - last).map(move |turn| (last, turn)))
            .filter_map(|(last, turn)| {
                let n = self.lines(last, turn);
                (n > 0).then(|| (Markpat::new(last, turn, 3 - last - turn), n))
            })
    }

    /// Counts the lines of `masks` (o bits, x bits) from `last_turn`'s point of view.
    #[inline]
    pub(crate) fn from_masks(masks: [u16; 2], last_turn: Player) -> MarkpatCounts {
        let own = LINE_COUNTS[masks[last_turn.index()] as usize & 0x1ff];
        let other = LINE_COUNTS[masks[last_turn.opponent().index()] as usize & 0x1ff];
        MarkpatCounts::from_line_counts(own, other)
    }
}

/// For each 9-bit mask, how many of its squares lie on each line: eight 4-bit fields.
static LINE_COUNTS: [u32; 512] = {
    let mut table = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut packed = 0u32;
        let mut l = 0;
        while l < 8 {
            let n = (m as u16 & crate::LINE_MASKS[l]).count_ones();
            packed |= n << (4 * l);
            l += 1;
        }
        table[m] = packed;
        m += 1;
    }
    table
};

impl PartialEq for MarkpatCounts {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for MarkpatCounts {}

impl std::hash::Hash for MarkpatCounts {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for (pat, n) in self.iter() {
            (pat, n).hash(state);
        }
    }
}

/// Like the article's printed `defaultdict`: `{Markpat(last_turn=0, turn=0, empty=3): 5, …}`.
impl fmt::Debug for MarkpatCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, (pat, n)) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{pat}: {n}")?;
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_pattern() {
        let mut c = MarkpatCounts::default();
        c.add_line(2, 0);
        c.add_line(2, 0);
        c.add_line(0, 1);
        for _ in 0..5 {
            c.add_line(0, 0);
        }
        assert_eq!(c.get(Markpat::new(2, 0, 1)), 2);
        assert_eq!(c.get(Markpat::new(0, 1, 2)), 1);
        assert_eq!(c.get(Markpat::new(0, 0, 3)), 5);
        assert_eq!(c.get(Markpat::new(2, 0, 2)), 0, "patterns must add up to 3");
        assert_eq!(
            format!("{c:?}"),
            "{Markpat(last_turn=0, turn=0, empty=3): 5, Markpat(last_turn=0, turn=1, empty=2): 1, Markpat(last_turn=2, turn=0, empty=1): 2}"
        );
        // equality is about the counts, not which line holds which pattern
        let mut d = MarkpatCounts::default();
        for (own, other) in [
            (0, 0),
            (0, 1),
            (0, 0),
            (2, 0),
            (0, 0),
            (0, 0),
            (2, 0),
            (0, 0),
        ] {
            d.add_line(own, other);
        }
        assert_eq!(c, d);
    }

    #[test]
    fn every_pattern_count_matches_a_direct_count() {
        // all 4^8 slot assignments are too many; walk a spread of them
        for seed in 0..20_000u32 {
            let mut c = MarkpatCounts::default();
            let mut direct = [0u8; 16];
            let mut x = seed.wrapping_mul(2_654_435_761);
            for _ in 0..8 {
                let own = (x % 4) as u8;
                let other = ((x / 4) % (4 - own as u32)) as u8;
                x = x.rotate_left(5) ^ 0x9e37_79b9;
                c.add_line(own, other);
                direct[(own * 4 + other) as usize] += 1;
            }
            for own in 0..=3u8 {
                for other in 0..=3 - own {
                    assert_eq!(c.lines(own, other), direct[(own * 4 + other) as usize]);
                }
            }
        }
    }
}
