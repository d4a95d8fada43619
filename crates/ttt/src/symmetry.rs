//! The 8 symmetries of the board (4 rotations, each with or without a mirror).
//!
//! ```
//! use gamelab_ttt::symmetry::{Symmetry, canonical_with_symmetry, images_of_key};
//! use gamelab_ttt::{Position, Square, move_images};
//!
//! let quarter = Symmetry::from_index(1); // a quarter turn clockwise
//! let (top_left, top_right) = (Square::from_xy(0, 0).unwrap(), Square::from_xy(2, 0).unwrap());
//! assert_eq!(quarter.apply(top_left), top_right);
//! assert_eq!(quarter.inverse().apply(top_right), top_left);
//! assert_eq!(quarter.map_square(top_right, true), top_left);
//! assert_eq!(quarter.apply_mask(top_left.bit()), top_right.bit());
//! assert!(move_images(Square::CENTRE).iter().all(|&sq| sq == Square::CENTRE));
//!
//! // o on an edge, x in a corner beside it: eight distinct images, one canonical key.
//! let pos: Position = "1,0;0,0".parse().unwrap();
//! assert_eq!(images_of_key(pos.key()), 8);
//! assert!(pos.images().iter().all(|image| image.canonical_key() == pos.canonical_key()));
//! let (key, index) = canonical_with_symmetry(pos.masks());
//! assert_eq!(pos.transformed(Symmetry::from_index(index)).key(), key);
//! assert_eq!(images_of_key(Position::<gamelab_ttt::board::Bitboard>::new().key()), 1);
//! ```

use crate::board::Board;
use crate::{Position, Square};

/// One of the 8 symmetries; `Symmetry::ALL[0]` is the identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry(u8);

/// Where each square goes: rotate `r` quarter turns clockwise after an optional mirror
/// (x ↦ 2 − x).
const fn image_index(sym: u8, sq: usize) -> usize {
    let (mut x, mut y) = (sq % 3, sq / 3);
    if sym >= 4 {
        x = 2 - x;
    }
    let mut r = 0;
    while r < sym % 4 {
        let nx = 2 - y;
        y = x;
        x = nx;
        r += 1;
    }
    y * 3 + x
}

const PERMUTATIONS: [[u8; 9]; 8] = {
    let mut table = [[0u8; 9]; 8];
    let mut s = 0;
    while s < 8 {
        let mut i = 0;
        while i < 9 {
            table[s][i] = image_index(s as u8, i) as u8;
            i += 1;
        }
        s += 1;
    }
    table
};

/// The image of every 9-bit mask under every symmetry, so that a canonical key costs 16
/// table reads.
static MASK_IMAGES: [[u16; 512]; 8] = {
    let mut table = [[0u16; 512]; 8];
    let mut s = 0;
    while s < 8 {
        let mut m = 0;
        while m < 512 {
            let mut image = 0u16;
            let mut i = 0;
            while i < 9 {
                if m & (1 << i) != 0 {
                    image |= 1 << PERMUTATIONS[s][i];
                }
                i += 1;
            }
            table[s][m] = image;
            m += 1;
        }
        s += 1;
    }
    table
};

impl Symmetry {
    pub const IDENTITY: Symmetry = Symmetry(0);
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// The image of a square (a move).
    #[inline]
    pub fn apply(self, sq: Square) -> Square {
        Square::ALL[PERMUTATIONS[self.0 as usize][sq.index()] as usize]
    }

    /// The image of a 9-bit square mask.
    #[inline]
    pub fn apply_mask(self, mask: u16) -> u16 {
        MASK_IMAGES[self.0 as usize][mask as usize & 0x1ff]
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        Symmetry(INVERSES[self.0 as usize])
    }
}

/// The inverse of each symmetry, by index.
const INVERSES: [u8; 8] = {
    let mut inv = [0u8; 8];
    let mut s = 0;
    while s < 8 {
        let mut t = 0;
        while t < 8 {
            let mut all = true;
            let mut i = 0;
            while i < 9 {
                if PERMUTATIONS[t][PERMUTATIONS[s][i] as usize] as usize != i {
                    all = false;
                }
                i += 1;
            }
            if all {
                inv[s] = t as u8;
            }
            t += 1;
        }
        s += 1;
    }
    inv
};

impl Symmetry {
    /// The symmetry with this index (0–7; taken modulo 8).
    pub fn from_index(i: u8) -> Symmetry {
        Symmetry(i % 8)
    }

    /// Its index in [`Symmetry::ALL`].
    pub fn index(self) -> u8 {
        self.0
    }

    /// The image of a square under this symmetry, or under its inverse.
    #[inline]
    pub fn map_square(self, sq: Square, inverse: bool) -> Square {
        let s = if inverse {
            INVERSES[self.0 as usize]
        } else {
            self.0
        };
        Square::ALL[PERMUTATIONS[s as usize][sq.index()] as usize]
    }
}

/// The position key (as `Position::key`) of the image of marks (o, x) under `s`.
#[inline]
fn image_key(s: Symmetry, masks: [u16; 2]) -> u64 {
    s.apply_mask(masks[0]) as u64 | (s.apply_mask(masks[1]) as u64) << 9
}

/// The canonical key of marks (o, x) — the smallest among the 8 images — and the index of
/// a symmetry that maps the marks onto it.
#[inline]
pub fn canonical_with_symmetry(masks: [u16; 2]) -> (u64, u8) {
    let mut best = (u64::MAX, 0u8);
    for (i, s) in Symmetry::ALL.iter().enumerate() {
        let key = image_key(*s, masks);
        if key < best.0 {
            best = (key, i as u8);
        }
    }
    best
}

/// How many distinct positions share the symmetry class of a position key.
pub fn images_of_key(key: u64) -> usize {
    let masks = [(key & 0x1ff) as u16, (key >> 9 & 0x1ff) as u16];
    let mut keys: Vec<u64> = Symmetry::ALL.iter().map(|s| image_key(*s, masks)).collect();
    keys.sort_unstable();
    keys.dedup();
    keys.len()
}

/// The 8 images of a move, in `Symmetry::ALL` order (some coincide).
pub fn move_images(sq: Square) -> [Square; 8] {
    Symmetry::ALL.map(|s| s.apply(sq))
}

/// The smallest key among the 8 images of the marks `masks` (o, x).
#[inline]
pub fn canonical_key(masks: [u16; 2]) -> u64 {
    canonical_with_symmetry(masks).0
}

impl<B: Board> Position<B> {
    /// The image of this position under `sym`, with its history mapped move by move (so the
    /// last move and `undo` carry over).
    pub fn transformed(&self, sym: Symmetry) -> Position<B> {
        let mut image = Position::new();
        for &sq in self.history() {
            image.play_unchecked(sym.apply(sq));
        }
        image
    }

    /// The 8 images of this position, in `Symmetry::ALL` order (some may coincide).
    pub fn images(&self) -> [Position<B>; 8] {
        Symmetry::ALL.map(|s| self.transformed(s))
    }

    /// The key shared by all images of this position.
    pub fn canonical_key(&self) -> u64 {
        canonical_key(self.masks())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_distinct_permutations() {
        let mut seen = std::collections::HashSet::new();
        for s in Symmetry::ALL {
            let perm: Vec<_> = Square::ALL.iter().map(|&sq| s.apply(sq)).collect();
            let mut sorted = perm.clone();
            sorted.sort();
            assert_eq!(sorted, Square::ALL.to_vec(), "{s:?} is not a permutation");
            assert_eq!(s.apply(Square::CENTRE), Square::CENTRE);
            assert!(seen.insert(perm), "{s:?} repeats another symmetry");
            assert_eq!(s.inverse().inverse(), s);
        }
        assert!(
            Square::ALL
                .iter()
                .all(|&sq| Symmetry::IDENTITY.apply(sq) == sq)
        );
    }

    #[test]
    fn corner_images_are_the_four_corners() {
        let mut corners: Vec<_> = move_images(Square::ALL[0]).to_vec();
        corners.sort();
        corners.dedup();
        assert_eq!(corners, [0, 2, 6, 8].map(|i| Square::ALL[i]).to_vec());
    }

    #[test]
    fn lines_map_to_lines() {
        for s in Symmetry::ALL {
            for mask in crate::LINE_MASKS {
                assert!(crate::LINE_MASKS.contains(&s.apply_mask(mask)));
            }
        }
    }
}
