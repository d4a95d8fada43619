use std::fmt;

use crate::Player;

/// The marks on one line from the point of view of the player who just moved: how many
/// are `last_turn`'s, how many `turn`'s, how many are empty (they add up to 3).
///
/// "自 2 敵 0 空 1" of the seeds is `Markpat::new(2, 0, 1)`: the mover can win next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Markpat {
    pub last_turn: u8,
    pub turn: u8,
    pub empty: u8,
}

impl Markpat {
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
/// Stored as a flat table indexed by (last_turn, turn) marks; `empty` follows from them.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct MarkpatCounts([u8; 16]);

impl MarkpatCounts {
    /// Counts one more line with `last_turn` and `turn` marks.
    #[inline]
    pub fn add_line(&mut self, last_turn: u8, turn: u8) {
        self.0[Markpat::slot(last_turn, turn)] += 1;
    }

    /// Number of lines showing `pat`.
    #[inline]
    pub fn get(&self, pat: Markpat) -> u8 {
        if pat.last_turn + pat.turn + pat.empty != 3 {
            return 0;
        }
        self.0[Markpat::slot(pat.last_turn, pat.turn)]
    }

    /// Shorthand for `get(Markpat::new(last_turn, turn, 3 - last_turn - turn))`.
    #[inline]
    pub fn lines(&self, last_turn: u8, turn: u8) -> u8 {
        self.0[Markpat::slot(last_turn, turn)]
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

    /// Counts the lines of `marks` (o bits, x bits) from `last_turn`'s point of view.
    pub(crate) fn from_masks(masks: [u16; 2], last_turn: Player) -> MarkpatCounts {
        let own = masks[last_turn.index()];
        let other = masks[last_turn.opponent().index()];
        let mut counts = MarkpatCounts::default();
        for mask in crate::LINE_MASKS {
            counts.add_line(
                (own & mask).count_ones() as u8,
                (other & mask).count_ones() as u8,
            );
        }
        counts
    }
}

/// Like the seed's printed `defaultdict`: `{Markpat(last_turn=0, turn=0, empty=3): 5, …}`.
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
        assert_eq!(c.get(Markpat::new(2, 0, 1)), 2);
        assert_eq!(c.get(Markpat::new(0, 1, 2)), 1);
        assert_eq!(c.get(Markpat::new(0, 0, 3)), 0);
        assert_eq!(c.get(Markpat::new(2, 0, 2)), 0, "patterns must add up to 3");
        assert_eq!(
            format!("{c:?}"),
            "{Markpat(last_turn=0, turn=1, empty=2): 1, Markpat(last_turn=2, turn=0, empty=1): 2}"
        );
    }
}
