//! Pattern features for a learned evaluation, in the style of Buro's Logistello: the value
//! of a position is the sum, over a few dozen small groups of squares (lines, diagonals,
//! corner blocks, edges), of a learned weight for the configuration each group shows —
//! every square empty, the mover's or the opponent's — plus a weight per game stage.
//!
//! Each pattern is one ordered list of squares; its instances are its 8 symmetric images
//! (as ordered lists, identical lists once), and all instances of a pattern share one
//! table of weights. So a position and its 8 images have the same multiset of features,
//! and evaluate the same.

use std::sync::OnceLock;

/// A pattern: its name and its squares (`a1` = 0 … `h8` = 63, row by row), in the order
/// that makes its index: the first square is the most significant ternary digit.
pub struct Pattern {
    pub name: &'static str,
    pub squares: &'static [u8],
}

const fn sq(file: u8, rank: u8) -> u8 {
    (rank - 1) * 8 + (file - b'a')
}

/// The patterns, each with one instance written out; [`instances`] makes the rest.
pub const PATTERNS: &[Pattern] = &[
    Pattern {
        name: "line2",
        squares: &[
            sq(b'a', 2),
            sq(b'b', 2),
            sq(b'c', 2),
            sq(b'd', 2),
            sq(b'e', 2),
            sq(b'f', 2),
            sq(b'g', 2),
            sq(b'h', 2),
        ],
    },
    Pattern {
        name: "line3",
        squares: &[
            sq(b'a', 3),
            sq(b'b', 3),
            sq(b'c', 3),
            sq(b'd', 3),
            sq(b'e', 3),
            sq(b'f', 3),
            sq(b'g', 3),
            sq(b'h', 3),
        ],
    },
    Pattern {
        name: "line4",
        squares: &[
            sq(b'a', 4),
            sq(b'b', 4),
            sq(b'c', 4),
            sq(b'd', 4),
            sq(b'e', 4),
            sq(b'f', 4),
            sq(b'g', 4),
            sq(b'h', 4),
        ],
    },
    Pattern {
        name: "diag8",
        squares: &[
            sq(b'a', 1),
            sq(b'b', 2),
            sq(b'c', 3),
            sq(b'd', 4),
            sq(b'e', 5),
            sq(b'f', 6),
            sq(b'g', 7),
            sq(b'h', 8),
        ],
    },
    Pattern {
        name: "diag7",
        squares: &[
            sq(b'a', 2),
            sq(b'b', 3),
            sq(b'c', 4),
            sq(b'd', 5),
            sq(b'e', 6),
            sq(b'f', 7),
            sq(b'g', 8),
        ],
    },
    Pattern {
        name: "diag6",
        squares: &[
            sq(b'a', 3),
            sq(b'b', 4),
            sq(b'c', 5),
            sq(b'd', 6),
            sq(b'e', 7),
            sq(b'f', 8),
        ],
    },
    Pattern {
        name: "diag5",
        squares: &[
            sq(b'a', 4),
            sq(b'b', 5),
            sq(b'c', 6),
            sq(b'd', 7),
            sq(b'e', 8),
        ],
    },
    Pattern {
        name: "diag4",
        squares: &[sq(b'a', 5), sq(b'b', 6), sq(b'c', 7), sq(b'd', 8)],
    },
    Pattern {
        name: "corner3x3",
        squares: &[
            sq(b'a', 1),
            sq(b'b', 1),
            sq(b'c', 1),
            sq(b'a', 2),
            sq(b'b', 2),
            sq(b'c', 2),
            sq(b'a', 3),
            sq(b'b', 3),
            sq(b'c', 3),
        ],
    },
    Pattern {
        name: "corner2x5",
        squares: &[
            sq(b'a', 1),
            sq(b'b', 1),
            sq(b'c', 1),
            sq(b'd', 1),
            sq(b'e', 1),
            sq(b'a', 2),
            sq(b'b', 2),
            sq(b'c', 2),
            sq(b'd', 2),
            sq(b'e', 2),
        ],
    },
    Pattern {
        name: "edge2x",
        squares: &[
            sq(b'b', 2),
            sq(b'a', 1),
            sq(b'b', 1),
            sq(b'c', 1),
            sq(b'd', 1),
            sq(b'e', 1),
            sq(b'f', 1),
            sq(b'g', 1),
            sq(b'h', 1),
            sq(b'g', 2),
        ],
    },
];

/// The image of square `s` under symmetry `k` (0 the identity; the same numbering as
/// [`crate::bits::images`]).
pub fn map_square(s: u8, k: usize) -> u8 {
    let (mut x, mut y) = (s % 8, s / 8);
    if k >= 4 {
        std::mem::swap(&mut x, &mut y);
    }
    match k % 4 {
        1 => x = 7 - x,
        2 => y = 7 - y,
        3 => {
            x = 7 - x;
            y = 7 - y;
        }
        _ => {}
    }
    y * 8 + x
}

/// One instance: which pattern's table it reads, and its squares in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    pub pattern: usize,
    pub squares: Vec<u8>,
}

/// Every instance of every pattern.
pub fn instances() -> &'static [Instance] {
    static INSTANCES: OnceLock<Vec<Instance>> = OnceLock::new();
    INSTANCES.get_or_init(|| {
        let mut all: Vec<Instance> = Vec::new();
        for (p, pattern) in PATTERNS.iter().enumerate() {
            for k in 0..8 {
                let squares: Vec<u8> = pattern.squares.iter().map(|&s| map_square(s, k)).collect();
                let instance = Instance {
                    pattern: p,
                    squares,
                };
                if !all.contains(&instance) {
                    all.push(instance);
                }
            }
        }
        all
    })
}

/// The number of configurations of each pattern: 3 to the number of its squares.
pub fn table_size(pattern: usize) -> usize {
    3usize.pow(PATTERNS[pattern].squares.len() as u32)
}

/// Where each pattern's table starts in one stage's weights, and the total size.
pub fn offsets() -> &'static ([usize; PATTERNS.len()], usize) {
    static OFFSETS: OnceLock<([usize; PATTERNS.len()], usize)> = OnceLock::new();
    OFFSETS.get_or_init(|| {
        let mut offsets = [0; PATTERNS.len()];
        let mut total = 0;
        for (p, offset) in offsets.iter_mut().enumerate() {
            *offset = total;
            total += table_size(p);
        }
        (offsets, total)
    })
}

/// For each square: (instance, ternary place value) pairs.
type BySquare = [Vec<(u16, u32)>; 64];

/// For each square, the instances it is in and its ternary place value there: the
/// evaluation walks the occupied squares once instead of every instance's squares.
fn by_square() -> &'static BySquare {
    static BY_SQUARE: OnceLock<BySquare> = OnceLock::new();
    BY_SQUARE.get_or_init(|| {
        let mut table: [Vec<(u16, u32)>; 64] = std::array::from_fn(|_| Vec::new());
        for (i, instance) in instances().iter().enumerate() {
            let n = instance.squares.len();
            for (j, &s) in instance.squares.iter().enumerate() {
                table[s as usize].push((i as u16, 3u32.pow((n - 1 - j) as u32)));
            }
        }
        table
    })
}

/// At most this many instances (checked when they are made).
pub const MAX_INSTANCES: usize = 96;

/// Each instance's feature: the index of its configuration for the mover's discs `p` and
/// the opponent's `o` (Σ digit·3^place, digit 0 empty, 1 the mover's, 2 the opponent's),
/// plus its pattern table's offset in a stage's weights. Returns how many instances there
/// are; `out` beyond that is untouched.
#[inline]
pub fn features_into(p: u64, o: u64, out: &mut [u32; MAX_INSTANCES]) -> usize {
    let (start, table) = starts_and_squares();
    let n = start.len();
    out[..n].copy_from_slice(start);
    for (discs, digit) in [(p, 1u32), (o, 2u32)] {
        let mut bits = discs;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            for &(i, place) in &table[s] {
                out[i as usize] += digit * place;
            }
        }
    }
    n
}

/// Each instance's table offset, and the by-square table.
fn starts_and_squares() -> (&'static [u32], &'static BySquare) {
    static STARTS: OnceLock<Vec<u32>> = OnceLock::new();
    let starts = STARTS.get_or_init(|| {
        let (offsets, _) = offsets();
        assert!(instances().len() <= MAX_INSTANCES, "raise MAX_INSTANCES");
        instances()
            .iter()
            .map(|i| offsets[i.pattern] as u32)
            .collect()
    });
    (starts, by_square())
}

/// The features of a position (see [`features_into`]) as a vector.
pub fn features(p: u64, o: u64, out: &mut Vec<u32>) {
    let mut buf = [0u32; MAX_INSTANCES];
    let n = features_into(p, o, &mut buf);
    out.clear();
    out.extend_from_slice(&buf[..n]);
}

/// The index of each instance's configuration alone (without table offsets).
pub fn indices(p: u64, o: u64, out: &mut Vec<u32>) {
    features(p, o, out);
    let (offsets, _) = offsets();
    for (f, instance) in out.iter_mut().zip(instances()) {
        *f -= offsets[instance.pattern] as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::images;

    #[test]
    fn square_maps_match_the_bitboard_images() {
        for k in 0..8 {
            for s in 0..64u8 {
                assert_eq!(
                    images(1u64 << s)[k],
                    1u64 << map_square(s, k),
                    "symmetry {k} square {s}"
                );
            }
        }
    }

    #[test]
    fn instance_counts() {
        let count = |name: &str| {
            let p = PATTERNS.iter().position(|p| p.name == name).unwrap();
            instances().iter().filter(|i| i.pattern == p).count()
        };
        assert_eq!(count("line2"), 8);
        assert_eq!(count("diag8"), 4);
        assert_eq!(count("corner3x3"), 8);
        assert_eq!(count("edge2x"), 8);
        assert_eq!(
            offsets().1,
            PATTERNS
                .iter()
                .enumerate()
                .map(|(p, _)| table_size(p))
                .sum::<usize>()
        );
    }

    #[test]
    fn indices_read_squares_in_order() {
        // Only a1 (the mover's) and b1 (the opponent's): corner3x3's first instance reads
        // a1 b1 c1 …, so its index is 1·3^8 + 2·3^7.
        let mut out = Vec::new();
        indices(1, 2, &mut out);
        let first_corner = instances()
            .iter()
            .position(|i| PATTERNS[i.pattern].name == "corner3x3")
            .unwrap();
        assert_eq!(out[first_corner], 3u32.pow(8) + 2 * 3u32.pow(7));
    }
}
